//! Issues grouped by class, then by field, and split by status (new, baselined,
//! suppressed): the readable overview of the console text and the HTML report.

use std::collections::BTreeMap;

use crate::api::Counts;
use crate::issue::{BaselineState, Issue};

use super::plural;

/// Issues of one class on one field (or, for accesses not ending at a field, one path).
pub struct FieldGroup<'a> {
    /// `JtdsConnection.closed`: simple name of the declaring class and the field.
    pub label: String,
    pub issues: Vec<&'a Issue>,
}

impl FieldGroup<'_> {
    /// `JtdsConnection.closed: 22 reports in 14 methods`.
    pub fn headline(&self) -> String {
        let mut methods: Vec<(&str, &str)> = self.issues.iter().map(|i| (i.method.as_str(), i.descriptor.as_str())).collect();
        methods.sort_unstable();
        methods.dedup();
        format!("{}: {} in {}", self.label, plural(self.issues.len(), "report"), plural(methods.len(), "method"))
    }
}

pub struct ClassGroup<'a> {
    pub class: &'a str,
    pub fields: Vec<FieldGroup<'a>>,
}

impl ClassGroup<'_> {
    pub fn len(&self) -> usize {
        self.fields.iter().map(|f| f.issues.len()).sum()
    }
}

/// Groups `issues` by class and field, both in name order; issues keep their order.
pub fn by_class_and_field<'a>(issues: impl IntoIterator<Item = &'a Issue>) -> Vec<ClassGroup<'a>> {
    let mut classes: BTreeMap<&str, BTreeMap<String, Vec<&Issue>>> = BTreeMap::new();
    for issue in issues {
        classes.entry(&issue.class).or_default().entry(field_label(issue)).or_default().push(issue);
    }
    classes
        .into_iter()
        .map(|(class, fields)| ClassGroup {
            class,
            fields: fields.into_iter().map(|(label, issues)| FieldGroup { label, issues }).collect(),
        })
        .collect()
}

fn field_label(issue: &Issue) -> String {
    match &issue.field {
        Some(f) => {
            let simple = f.class.rsplit('.').next().unwrap_or(&f.class);
            format!("{simple}.{}", f.name)
        }
        None => issue.access_path.clone(),
    }
}

/// Reporting status, in the order the reports show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    New,
    Baselined,
    Suppressed,
}

impl Status {
    pub const ALL: [Status; 3] = [Status::New, Status::Baselined, Status::Suppressed];

    pub fn of(issue: &Issue) -> Status {
        if issue.suppressed.is_some() {
            Status::Suppressed
        } else if issue.baseline == BaselineState::Unchanged {
            Status::Baselined
        } else {
            Status::New
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::New => "new",
            Status::Baselined => "baselined",
            Status::Suppressed => "suppressed",
        }
    }
}

/// The issues with status `status`, in report order.
pub fn with_status(issues: &[Issue], status: Status) -> Vec<&Issue> {
    issues.iter().filter(|i| Status::of(i) == status).collect()
}

/// `46 issues: 2 new, 41 baselined, 3 suppressed`, or just `1 issue` when every issue
/// is new.
pub fn count_line(counts: &Counts) -> String {
    let total = match counts.total {
        0 => "no issues".to_string(),
        n => plural(n, "issue"),
    };
    if counts.baselined == 0 && counts.suppressed == 0 {
        total
    } else {
        format!("{total}: {} new, {} baselined, {} suppressed", counts.new, counts.baselined, counts.suppressed)
    }
}

/// The hint shown when baseline entries matched nothing, for the CLI and both plugins.
pub fn stale_line(stale: usize) -> Option<String> {
    (stale > 0).then(|| {
        let entries = if stale == 1 { "1 baseline entry no longer occurs".to_string() } else { format!("{stale} baseline entries no longer occur") };
        format!("{entries}; regenerate the baseline to shrink it (racer analyze --write-baseline FILE, gradle racerBaseline, mvn racer:baseline)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::issue;

    #[test]
    fn grouping() {
        let issues = [
            issue("a.Z", "set", "this.n", 1),
            issue("a.A", "set", "this.n", 2),
            issue("a.A", "get", "this.n", 3),
            issue("a.A", "get", "this.n", 4),
            issue("a.A", "run", "this.m", 5),
        ];
        let groups = by_class_and_field(&issues);
        assert_eq!(groups.iter().map(|g| (g.class, g.len())).collect::<Vec<_>>(), [("a.A", 4), ("a.Z", 1)]);
        let heads: Vec<String> = groups[0].fields.iter().map(|f| f.headline()).collect();
        assert_eq!(heads, ["A.m: 1 report in 1 method", "A.n: 3 reports in 2 methods"]);
    }

    #[test]
    fn lines() {
        let mut c = Counts { total: 1, new: 1, ..Counts::default() };
        assert_eq!(count_line(&c), "1 issue");
        c = Counts { total: 46, new: 2, baselined: 41, suppressed: 3, stale_baseline_entries: 0 };
        assert_eq!(count_line(&c), "46 issues: 2 new, 41 baselined, 3 suppressed");
        assert_eq!(stale_line(0), None);
        assert!(stale_line(3).unwrap().starts_with("3 baseline entries no longer occur; "));
    }
}
