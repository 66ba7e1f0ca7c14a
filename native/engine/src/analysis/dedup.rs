//! End-location de-duplication (extension of 9.1, last paragraph): one report per
//! race. Two reports are the same race when their accesses end at the same site
//! (innermost method, line and access) and so do their conflicting accesses; only
//! the one with the shortest trace is kept, and it counts the entry points dropped.
//!
//! Only races that end in another top-level class than the reporting method's are
//! merged: such a race belongs to the class it ends in, and its callers only reach it
//! (a racy static cache in a helper reached from every caller). Within one class,
//! RacerD's own de-duplication (9.1) already applies, and each method that reaches
//! a race through a private helper stays visible.

use std::collections::BTreeMap;

use crate::report::{Issue, TraceElem};

/// Where a trace ends: the access itself (the line may be 0 in classes without
/// line numbers; the method and the access description still tell sites apart).
type End<'a> = Option<&'a TraceElem>;

fn race_key(issue: &Issue) -> (crate::report::IssueKind, End<'_>, End<'_>) {
    let conflict = issue.conflicts.first().and_then(|c| c.trace.last());
    (issue.kind, issue.trace.last(), conflict)
}

fn top_level(class: &str) -> &str {
    class.split('$').next().unwrap_or(class)
}

/// Does the access end in another top-level class than the reporting method's?
fn ends_elsewhere(issue: &Issue) -> bool {
    issue.trace.last().is_some_and(|end| top_level(&end.class) != top_level(&issue.class))
}

/// Keeps one issue per race, in the input order (which is deterministic).
pub fn one_report_per_race(issues: Vec<Issue>) -> Vec<Issue> {
    // For each race: the index of the kept issue and how many others reach it.
    let mut kept: BTreeMap<_, (usize, u32)> = BTreeMap::new();
    let mut others = vec![None; issues.len()];
    for (i, issue) in issues.iter().enumerate() {
        if !ends_elsewhere(issue) {
            others[i] = Some(0);
            continue;
        }
        let entry = kept.entry(race_key(issue)).or_insert((i, 0));
        if entry.0 != i {
            entry.1 += 1;
            if issue.trace.len() < issues[entry.0].trace.len() {
                entry.0 = i;
            }
        }
    }
    for (index, count) in kept.into_values() {
        others[index] = Some(count);
    }
    issues
        .into_iter()
        .zip(others)
        .filter_map(|(mut issue, others)| {
            let n = others?;
            if n > 0 {
                issue.other_entry_points = n;
                issue.message.push_str(&format!(
                    " The same race is also reached from {n} other entry point{}.",
                    if n == 1 { "" } else { "s" }
                ));
            }
            Some(issue)
        })
        .collect()
}
