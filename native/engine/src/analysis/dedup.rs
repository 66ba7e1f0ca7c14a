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

use crate::issue::{top_level_class, Issue, IssueKind, TraceElem};

/// Where a trace ends: the access itself, by method, line and description (the line may
/// be 0 in classes without line numbers; the method and the access description still tell
/// sites apart). Not by source file, which a trace names only for steps outside the
/// issue's own file.
type End<'a> = Option<(&'a str, &'a str, &'a str, u32, &'a str)>;

fn end_of(trace: &[TraceElem]) -> End<'_> {
    trace.last().map(|e| (e.class.as_str(), e.method.as_str(), e.descriptor.as_str(), e.line, e.description.as_str()))
}

fn race_key(issue: &Issue) -> (IssueKind, End<'_>, End<'_>) {
    let conflict = issue.conflicts.first().and_then(|c| end_of(&c.trace));
    (issue.kind, end_of(&issue.trace), conflict)
}

/// Does the access end in another top-level class than the reporting method's?
fn ends_elsewhere(issue: &Issue) -> bool {
    issue.trace.last().is_some_and(|end| top_level_class(&end.class) != top_level_class(&issue.class))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::issue;
    use crate::issue::Conflict;

    /// An issue reported in `class.method` whose access ends in `end_class.end_method` at `line`,
    /// after `depth` calls.
    fn reaching(class: &str, method: &str, end_class: &str, line: u32, depth: usize) -> Issue {
        let mut i = issue(class, method, "util.Cache.sValue", 5);
        let end = TraceElem {
            class: end_class.into(),
            method: "get".into(),
            descriptor: "()V".into(),
            line,
            description: "access to `util.Cache.sValue` (write)".into(),
            source_file: String::new(),
        };
        i.trace = vec![i.trace[0].clone(); depth];
        i.trace.push(end);
        i
    }

    #[test]
    fn one_report_per_race_in_another_class_with_the_shortest_trace() {
        let issues = vec![
            reaching("a.A", "deep", "util.Cache", 9, 3),
            reaching("a.A", "first", "util.Cache", 9, 1),
            reaching("b.B", "second", "util.Cache", 9, 1),
            reaching("b.B", "elsewhere", "util.Cache", 12, 1),
        ];
        let kept = one_report_per_race(issues);
        let names: Vec<(&str, u32)> = kept.iter().map(|i| (i.method.as_str(), i.other_entry_points)).collect();
        assert_eq!(names, [("first", 2), ("elsewhere", 0)]);
        assert!(kept[0].message.ends_with("also reached from 2 other entry points."));
    }

    #[test]
    fn a_source_file_named_in_one_trace_only_does_not_split_a_race() {
        let mut a = reaching("a.A", "first", "util.Cache", 9, 1);
        let mut b = reaching("b.B", "second", "util.Cache", 9, 1);
        // The same access and conflicting access; only one trace names the file they are in.
        let conflict = |source_file: &str| Conflict {
            class: "util.Cache".into(),
            method: "set".into(),
            descriptor: "()V".into(),
            line: 4,
            access_path: "util.Cache.sValue".into(),
            access: "write".into(),
            locked: false,
            trace: vec![TraceElem {
                class: "util.Cache".into(),
                method: "set".into(),
                descriptor: "()V".into(),
                line: 4,
                description: "access to `util.Cache.sValue` (write)".into(),
                source_file: source_file.into(),
            }],
            source_file: source_file.into(),
        };
        a.trace.last_mut().unwrap().source_file = "Cache.java".into();
        a.conflicts = vec![conflict("Cache.java")];
        b.conflicts = vec![conflict("")];
        let kept = one_report_per_race(vec![a, b]);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].other_entry_points, 1);
    }

    #[test]
    fn races_inside_the_reporting_class_stay_per_method() {
        let issues = vec![reaching("a.A", "x", "a.A", 9, 1), reaching("a.A$Inner", "y", "a.A", 9, 1)];
        let kept = one_report_per_race(issues);
        assert_eq!(kept.len(), 2);
        assert!(kept.iter().all(|i| i.other_entry_points == 0));
    }

    #[test]
    fn lineless_sites_are_told_apart_by_their_access() {
        let mut a = reaching("a.A", "x", "util.Cache", 0, 1);
        let mut b = reaching("b.B", "y", "util.Cache", 0, 1);
        b.trace.last_mut().unwrap().description = "access to `util.Cache.sOther` (write)".into();
        a.line = 0;
        b.line = 0;
        assert_eq!(one_report_per_race(vec![a, b]).len(), 2);
    }
}
