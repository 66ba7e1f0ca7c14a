//! The JSON report: `{"schema_version", "tool", "issues", "counts", "diagnostics"}`, pretty-printed.
//! Issues keep the engine's order; nothing volatile (timings) is included, so the same
//! input always gives the same bytes.

use rayon::prelude::*;
use serde::Serialize;

use crate::api::{Counts, Response};

/// Bumped when a field is removed or changes meaning (additions keep the version).
pub const SCHEMA_VERSION: u32 = 1;

/// The report as `serde_json`'s pretty printer writes the whole document. The issues, most
/// of a report, are printed each on its own and in parallel, at the depth they have in the
/// document (the same bytes: checked in a test against printing the document at once).
pub fn render(response: &Response) -> String {
    let issues: Vec<String> = response.issues.par_iter().map(|i| pretty(i, 2)).collect();
    let members = [
        ("schema_version", pretty(&SCHEMA_VERSION, 1)),
        ("tool", pretty(&response.tool, 1)),
        ("issues", array(&issues, 1)),
        ("counts", pretty(&Counts::of(&response.issues, response.counts.stale_baseline_entries), 1)),
        ("diagnostics", pretty(&super::sorted_diagnostics(response), 1)),
    ];
    let mut out = String::with_capacity(members.iter().map(|(_, v)| v.len() + 32).sum());
    out.push_str("{\n");
    for (k, (name, value)) in members.iter().enumerate() {
        if k > 0 {
            out.push_str(",\n");
        }
        out.push_str(INDENT);
        out.push_str(&serde_json::to_string(name).expect("a plain name"));
        out.push_str(": ");
        out.push_str(value);
    }
    out.push_str("\n}\n");
    out
}

/// One level of the pretty printer's indentation.
const INDENT: &str = "  ";

/// `value` pretty-printed as it is at `depth` in a document: its lines after the first
/// indented (a newline is never inside a JSON string, where it is escaped).
fn pretty(value: &impl Serialize, depth: usize) -> String {
    let text = serde_json::to_string_pretty(value).expect("a report of plain strings and numbers always serialises");
    text.replace('\n', &format!("\n{}", INDENT.repeat(depth)))
}

/// An array at `depth` of items printed at `depth + 1`.
fn array(items: &[String], depth: usize) -> String {
    if items.is_empty() {
        return "[]".to_string();
    }
    let inner = format!("\n{}", INDENT.repeat(depth + 1));
    let mut out = String::with_capacity(items.iter().map(|i| i.len() + inner.len() + 1).sum::<usize>() + 8);
    out.push('[');
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&inner);
        out.push_str(item);
    }
    out.push('\n');
    out.push_str(&INDENT.repeat(depth));
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::*;
    use crate::report::Issue;
    use serde_json::Value;

    #[test]
    fn shape_and_order() {
        let a = issue("a.b.Zed", "set", "this.n", 5);
        let b = rich_issue();
        let out = render(&response(vec![a.clone(), b.clone()]));
        assert!(out.ends_with("}\n"));
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["schema_version"], 1);
        assert_eq!(v["tool"]["name"], "racer");
        assert_eq!(v["tool"]["version"], crate::api::TOOL_VERSION);
        let issues = v["issues"].as_array().unwrap();
        assert_eq!(issues.len(), 2);
        assert_eq!(issues[0]["class"], "a.b.Zed", "engine order is kept");
        assert_eq!(issues[1]["kind"], "THREAD_SAFETY_VIOLATION");
        assert_eq!(issues[1]["conflicts"][0]["access"], "write");
        let back: Issue = serde_json::from_value(issues[1].clone()).unwrap();
        assert_eq!(back, Issue { field: None, ..b }, "all but the in-memory field survive");
        let d = v["diagnostics"].as_array().unwrap();
        assert_eq!(d[0]["file"], "in/A<b>.class", "diagnostics are sorted");
        assert!(v.get("stats").is_none(), "no timings in reports");
    }

    /// The document printed at once, as `render` must print it.
    fn printed_at_once(response: &Response) -> String {
        #[derive(Serialize)]
        struct JsonReport<'a> {
            schema_version: u32,
            tool: &'a crate::api::ToolInfo,
            issues: &'a [Issue],
            counts: Counts,
            diagnostics: Vec<&'a crate::api::Diagnostic>,
        }
        let report = JsonReport {
            schema_version: SCHEMA_VERSION,
            tool: &response.tool,
            issues: &response.issues,
            counts: Counts::of(&response.issues, response.counts.stale_baseline_entries),
            diagnostics: crate::report::sorted_diagnostics(response),
        };
        serde_json::to_string_pretty(&report).unwrap() + "\n"
    }

    #[test]
    fn the_same_bytes_as_printing_the_whole_document() {
        for issues in [vec![], vec![rich_issue()], vec![issue("a.b.Zed", "set", "this.n", 5), rich_issue()]] {
            let mut r = response(issues);
            assert_eq!(render(&r), printed_at_once(&r));
            r.diagnostics.clear();
            assert_eq!(render(&r), printed_at_once(&r));
        }
    }

    #[test]
    fn deterministic() {
        let mut r = response(vec![rich_issue()]);
        let once = render(&r);
        r.diagnostics.reverse();
        r.stats.millis = 12345;
        assert_eq!(once, render(&r));
    }
}
