//! The plain-text report, compiler style:
//!
//! ```text
//! a/b/Account.java:14: error: THREAD_SAFETY_VIOLATION
//!   Read/Write race. ...
//!   Trace:
//!     at a.b.Account.withdraw(Account.java:14): access to `this.mBalance`
//!   Conflict: write of `this.mBalance` without synchronization, in a.b.Account.deposit(Account.java:9)
//!     13.     int withdraw(int amount) {
//!     14. >     int b = mBalance;
//!
//! racer: 1 issue
//! ```

use std::fmt::Write as _;

use crate::api::{Counts, Response};

use super::groups::{count_line, stale_line, Status};
use super::{plural, source_in_issue, sorted_diagnostics, Conflict, Issue, SourceIndex, TraceElem};

pub fn render(response: &Response, sources: &SourceIndex) -> String {
    let mut out = String::new();
    for issue in &response.issues {
        render_issue(&mut out, issue, sources);
        out.push('\n');
    }
    warnings_and_counts(&mut out, response);
    out
}

/// The input warnings, then `racer: 3 issues: 1 new, 2 baselined, 0 suppressed, 1 warning`
/// and, when the baseline has entries no issue matched, how to shrink it.
pub(crate) fn warnings_and_counts(out: &mut String, response: &Response) {
    let diagnostics = sorted_diagnostics(response);
    for d in &diagnostics {
        let _ = writeln!(out, "warning: {}: {}", d.file, one_line(&d.message));
    }
    let counts = Counts::of(&response.issues, response.counts.stale_baseline_entries);
    let issues = count_line(&counts);
    match diagnostics.len() {
        0 => {
            let _ = writeln!(out, "racer: {issues}");
        }
        n => {
            let _ = writeln!(out, "racer: {issues}, {}", plural(n, "warning"));
        }
    }
    if let Some(stale) = stale_line(counts.stale_baseline_entries) {
        let _ = writeln!(out, "racer: {stale}");
    }
}

/// One issue in full: location, message, trace, conflicts and source snippet.
pub(crate) fn render_issue(out: &mut String, issue: &Issue, sources: &SourceIndex) {
    let source = sources.resolve(&issue.class, &issue.source_file);
    let at = match issue.line {
        0 => format!("{} (no line numbers; in {})", source.relative, issue.method),
        n => format!("{}:{n}", source.relative),
    };
    let status = match (Status::of(issue), &issue.suppressed) {
        (Status::Suppressed, Some(s)) => match &s.reason {
            Some(reason) => format!(" (suppressed by @{}: {})", s.annotation, one_line(reason)),
            None => format!(" (suppressed by @{})", s.annotation),
        },
        (Status::Baselined, _) => " (baselined)".to_string(),
        _ => String::new(),
    };
    let _ = writeln!(out, "{at}: error: {}{status}", issue.kind.as_str());
    for line in issue.message.lines() {
        let _ = writeln!(out, "  {}", line.trim_end());
    }
    if !issue.trace.is_empty() {
        out.push_str("  Trace:\n");
        for elem in &issue.trace {
            trace_line(out, "    ", elem, sources, issue);
        }
    }
    for conflict in &issue.conflicts {
        conflict_line(out, conflict, sources, issue);
    }
    if let Some(snippet) = sources.snippet(&source, issue.line) {
        let width = snippet.lines.last().map_or(1, |(n, _)| n.to_string().len());
        for (n, text) in &snippet.lines {
            let marker = if *n == snippet.marked { '>' } else { ' ' };
            let line = format!("    {n:>width$}. {marker} {text}");
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
}

/// `Foo.java:12` (or just `Foo.java` for line 0).
fn file_line(sources: &SourceIndex, issue: &Issue, class: &str, source_file: &str, line: u32) -> String {
    let file = source_in_issue(sources, issue, class, source_file).file_name;
    if line == 0 {
        file
    } else {
        format!("{file}:{line}")
    }
}

fn trace_line(out: &mut String, indent: &str, elem: &TraceElem, sources: &SourceIndex, issue: &Issue) {
    if elem.line == 0 && elem.method.is_empty() {
        let _ = writeln!(out, "{indent}{}", one_line(&elem.description));
        return;
    }
    if elem.line == 0 {
        // A label ("read trace", "write trace") attached to a method.
        let _ = writeln!(out, "{indent}{}:", one_line(&elem.description));
        return;
    }
    let _ = writeln!(
        out,
        "{indent}at {}.{}({}): {}",
        elem.class,
        elem.method,
        file_line(sources, issue, &elem.class, &elem.source_file, elem.line),
        one_line(&elem.description)
    );
}

fn conflict_line(out: &mut String, c: &Conflict, sources: &SourceIndex, issue: &Issue) {
    let sync = if c.locked { "with" } else { "without" };
    let _ = writeln!(
        out,
        "  Conflict: {} of `{}` {sync} synchronization, in {}.{}({})",
        c.access,
        c.access_path,
        c.class,
        c.method,
        file_line(sources, issue, &c.class, &c.source_file, c.line)
    );
    for elem in &c.trace {
        trace_line(out, "    ", elem, sources, issue);
    }
}

fn one_line(s: &str) -> String {
    s.split(['\n', '\r']).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::*;

    #[test]
    fn block_without_sources() {
        let r = response(vec![rich_issue()]);
        let out = render(&r, &SourceIndex::new(&[]));
        let expected = "\
a/b/Foo.java:4: error: THREAD_SAFETY_VIOLATION
  Read/Write race. Reads `this.h` <without> \"synchronization\" & more.
  Second line.
  Trace:
    read trace:
    at a.b.Foo$Inner.get(Foo.java:3): call to `Helper.peek()`
    at c.Helper.peek(Helper.java:9): access to `this.h`
  Conflict: write of `this.h` without synchronization, in a.b.Foo$Inner.<init>(Foo.java:2)

warning: in/A<b>.class: not a class file & \"odd\"
warning: lib/z.jar!/x/Y.class: truncated class file
racer: 1 issue, 2 warnings
";
        assert_eq!(out, expected);
    }

    #[test]
    fn snippet_and_relative_path() {
        let tmp = TempDir::new("text");
        tmp.write("src/a/b/Foo.java", "package a.b;\nclass Foo {\n  class Inner {\n    Object get() { return h; }\n  }\n}\n");
        let sources = SourceIndex::new(&[tmp.path().join("src")]);
        let mut r = response(vec![rich_issue()]);
        r.diagnostics.clear();
        let out = render(&r, &sources);
        assert!(out.starts_with("a/b/Foo.java:4: error: THREAD_SAFETY_VIOLATION\n"), "{out}");
        assert!(out.contains("    2.   class Foo {\n    3.     class Inner {\n    4. >     Object get() { return h; }\n    5.     }\n    6.   }\n"), "{out}");
        assert!(!out.contains(&tmp.path().display().to_string()), "no absolute paths");
        assert!(out.ends_with("\nracer: 1 issue\n"));
    }

    #[test]
    fn summary_lines() {
        let mut r = response(vec![]);
        r.diagnostics.clear();
        assert_eq!(render(&r, &SourceIndex::new(&[])), "racer: no issues\n");
        let r = response(vec![issue("A", "m", "this.f", 1), issue("B", "m", "this.f", 1)]);
        assert!(render(&r, &SourceIndex::new(&[])).ends_with("racer: 2 issues, 2 warnings\n"));
    }
}
