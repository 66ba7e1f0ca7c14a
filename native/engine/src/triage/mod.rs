//! What happens to the analysis' issues before they are reported: filter files drop
//! them, in-code annotations suppress them, a baseline marks the accepted ones, and
//! the result can be written as the next baseline.

pub mod baseline;
pub mod filter;
pub mod glob;
pub mod suppress;

use crate::api::{Error, Request};
use crate::hierarchy::ClassTable;
use crate::issue::Issue;

/// Issues as reported, and the number of baseline entries that matched none.
pub struct Triaged {
    pub issues: Vec<Issue>,
    pub stale_baseline_entries: usize,
}

/// Reads the request's filter and baseline files first, so that a bad file fails
/// before any analysis time is spent.
pub struct Triage {
    filter: Option<filter::Filter>,
    baseline: Option<baseline::Baseline>,
}

impl Triage {
    pub fn load(request: &Request) -> Result<Triage, Error> {
        Ok(Triage {
            filter: request.filter.as_deref().map(filter::Filter::load).transpose()?,
            baseline: request.baseline.as_deref().map(baseline::Baseline::load).transpose()?,
        })
    }

    pub fn has_baseline(&self) -> bool {
        self.baseline.is_some()
    }

    pub fn apply(&self, table: &ClassTable, mut issues: Vec<Issue>) -> Triaged {
        if let Some(f) = &self.filter {
            issues.retain(|i| f.keeps(i));
        }
        for issue in &mut issues {
            issue.suppressed = suppress::suppression(table, issue);
        }
        let stale_baseline_entries = self.baseline.as_ref().map_or(0, |b| b.apply(&mut issues));
        Triaged { issues, stale_baseline_entries }
    }
}
