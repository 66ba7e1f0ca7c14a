//! The console text: what `racer analyze` prints to a terminal and what the build
//! plugins print as it is. On a large codebase a flat list is unreadable, so it shows
//! the first new issues in full, then every issue grouped by class and field, then
//! the counts and where the full report is.
//!
//! ```text
//! <first N new issues, as in the text report>
//! ... and 12 more new issues
//! Issues by class and field:
//!   net.sourceforge.jtds.jdbc.JtdsConnection (22 issues)
//!     JtdsConnection.closed: 22 reports in 14 methods (2 new, 20 baselined)
//! racer: 46 issues: 2 new, 41 baselined, 3 suppressed
//! racer: full report: build/reports/racer/main.html
//! ```

use std::fmt::Write as _;
use std::path::Path;

use crate::api::Response;

use super::groups::{by_class_and_field, with_status, Status};
use super::text::{render_issue, warnings_and_counts};
use super::{plural, SourceIndex};

pub fn render(response: &Response, sources: &SourceIndex, limit: usize, full_report: Option<&Path>) -> String {
    let mut out = String::new();
    let new = with_status(&response.issues, Status::New);
    for issue in new.iter().take(limit) {
        render_issue(&mut out, issue, sources);
        out.push('\n');
    }
    if new.len() > limit {
        let more = new.len() - limit;
        let _ = writeln!(out, "... and {more} more new {}\n", if more == 1 { "issue" } else { "issues" });
    }
    let groups = by_class_and_field(&response.issues);
    if !groups.is_empty() {
        out.push_str("Issues by class and field:\n");
        for class in &groups {
            let _ = writeln!(out, "  {} ({})", class.class, plural(class.len(), "issue"));
            for field in &class.fields {
                let _ = writeln!(out, "    {}{}", field.headline(), status_note(&field.issues));
            }
        }
    }
    warnings_and_counts(&mut out, response);
    if let Some(path) = full_report {
        let _ = writeln!(out, "racer: full report: {}", path.display());
    }
    out
}

/// ` (2 new, 20 baselined)` when not every issue of the group is new.
fn status_note(issues: &[&crate::issue::Issue]) -> String {
    let parts: Vec<String> = Status::ALL
        .iter()
        .map(|&s| (s, issues.iter().filter(|i| Status::of(i) == s).count()))
        .filter(|&(_, n)| n > 0)
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    if parts.len() == 1 && parts[0].ends_with(" new") {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::{BaselineState, Suppression};
    use crate::report::test_support::*;

    #[test]
    fn grouped_and_capped() {
        let mut issues: Vec<_> = (1..=4).map(|n| issue("a.b.Conn", &format!("m{n}"), "this.closed", n)).collect();
        issues[0].baseline = BaselineState::Unchanged;
        issues.push(issue("a.b.Other", "run", "this.x", 9));
        issues[4].suppressed = Some(Suppression { annotation: "SuppressRace".into(), value: "racer".into(), reason: Some("reviewed".into()) });
        let mut r = response(issues);
        r.diagnostics.clear();
        r.counts.stale_baseline_entries = 2;
        let out = render(&r, &SourceIndex::new(&[]), 2, Some(Path::new("build/r.html")));
        let shown: Vec<&str> = out.lines().filter(|l| l.contains(": error: ")).collect();
        assert_eq!(shown, ["a/b/Conn.java:2: error: THREAD_SAFETY_VIOLATION", "a/b/Conn.java:3: error: THREAD_SAFETY_VIOLATION"]);
        let tail = &out[out.find("... and").unwrap()..];
        assert_eq!(
            tail,
            "... and 1 more new issue\n\n\
             Issues by class and field:\n  \
             a.b.Conn (4 issues)\n    Conn.closed: 4 reports in 4 methods (3 new, 1 baselined)\n  \
             a.b.Other (1 issue)\n    Other.x: 1 report in 1 method (1 suppressed)\n\
             racer: 5 issues: 3 new, 1 baselined, 1 suppressed\n\
             racer: 2 baseline entries no longer occur; regenerate the baseline to shrink it (racer analyze --write-baseline FILE, gradle racerBaseline, mvn racer:baseline)\n\
             racer: full report: build/r.html\n"
        );
    }

    #[test]
    fn nothing_to_report() {
        let out = render(&Response::default(), &SourceIndex::new(&[]), 20, None);
        assert_eq!(out, "racer: no issues\n");
    }
}
