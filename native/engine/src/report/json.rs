//! The JSON report: `{"schema_version", "tool", "issues", "counts", "diagnostics"}`, pretty-printed.
//! Issues keep the engine's order; nothing volatile (timings) is included, so the same
//! input always gives the same bytes.

use serde::Serialize;

use crate::api::{Counts, Diagnostic, Response, ToolInfo};

use super::Issue;

/// Bumped when a field is removed or changes meaning (additions keep the version).
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct JsonReport<'a> {
    schema_version: u32,
    tool: &'a ToolInfo,
    issues: &'a [Issue],
    counts: Counts,
    diagnostics: Vec<&'a Diagnostic>,
}

pub fn render(response: &Response) -> String {
    let report = JsonReport {
        schema_version: SCHEMA_VERSION,
        tool: &response.tool,
        issues: &response.issues,
        counts: Counts::of(&response.issues, response.counts.stale_baseline_entries),
        diagnostics: super::sorted_diagnostics(response),
    };
    let mut out = serde_json::to_string_pretty(&report)
        .expect("a report of plain strings and numbers always serialises");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::*;
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

    #[test]
    fn deterministic() {
        let mut r = response(vec![rich_issue()]);
        let once = render(&r);
        r.diagnostics.reverse();
        r.stats.millis = 12345;
        assert_eq!(once, render(&r));
    }
}
