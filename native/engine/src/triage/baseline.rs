//! Baseline files: the issues a team has accepted, so that only new ones fail a build.
//!
//! Issues are matched by their line-independent fingerprint (see
//! [`crate::report::fingerprint`]), so moving code or adding lines keeps them
//! baselined. The file is sorted JSON with one entry per line (diff-friendly), with
//! no paths or timestamps, and says how to regenerate it:
//!
//! ```json
//! {
//!   "racer_baseline": 1,
//!   "regenerate": "racer analyze --write-baseline FILE ... | gradle racerBaseline | mvn racer:baseline",
//!   "issues": [
//!     {"fingerprint":"959ffe8aa67822a2:1","kind":"THREAD_SAFETY_VIOLATION","class":"a.b.Foo","method":"set","access_path":"this.n"}
//!   ]
//! }
//! ```
//!
//! Only `fingerprint` is used for matching; the other fields are there for readers.

use std::collections::HashSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::api::Error;
use crate::issue::{BaselineState, Issue};
use crate::report::fingerprint::fingerprints;
use crate::report::write_atomic;

pub const FORMAT_VERSION: u32 = 1;
pub const REGENERATE: &str = "racer analyze --write-baseline FILE ... | gradle racerBaseline | mvn racer:baseline";

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    racer_baseline: u32,
    #[serde(default)]
    regenerate: String,
    issues: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
struct Entry {
    fingerprint: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    class: String,
    #[serde(default)]
    method: String,
    #[serde(default)]
    access_path: String,
}

/// The fingerprints recorded in a baseline file.
pub struct Baseline {
    fingerprints: HashSet<String>,
}

impl Baseline {
    /// Reads a baseline file; errors are one line and name the file.
    pub fn load(path: &Path) -> Result<Baseline, Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error(format!("racer: cannot read baseline file {}: {e}", path.display())))?;
        Baseline::parse(&text).map_err(|e| Error(format!("racer: invalid baseline file {}: {e}", path.display())))
    }

    fn parse(text: &str) -> Result<Baseline, String> {
        let file: BaselineFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if file.racer_baseline != FORMAT_VERSION {
            return Err(format!(
                "format version {} is not supported (expected {FORMAT_VERSION}); regenerate it",
                file.racer_baseline
            ));
        }
        Ok(Baseline { fingerprints: file.issues.into_iter().map(|e| e.fingerprint).collect() })
    }

    /// Marks the issues found in the baseline as `unchanged`; returns how many
    /// baseline entries matched no issue (stale).
    pub fn apply(&self, issues: &mut [Issue]) -> usize {
        let prints = fingerprints(issues);
        let mut matched = 0;
        for (issue, print) in issues.iter_mut().zip(prints) {
            if self.fingerprints.contains(&print) {
                issue.baseline = BaselineState::Unchanged;
                matched += 1;
            }
        }
        self.fingerprints.len() - matched
    }
}

/// The baseline file for `issues`: every issue not suppressed in the code.
pub fn render(issues: &[Issue]) -> String {
    let mut entries: Vec<Entry> = issues
        .iter()
        .zip(fingerprints(issues))
        .filter(|(issue, _)| issue.suppressed.is_none())
        .map(|(issue, fingerprint)| Entry {
            fingerprint,
            kind: issue.kind.as_str().to_string(),
            class: issue.class.clone(),
            method: issue.method.clone(),
            access_path: issue.access_path.clone(),
        })
        .collect();
    entries.sort_by(|a, b| (&a.class, &a.method, &a.access_path, &a.kind, &a.fingerprint).cmp(&(&b.class, &b.method, &b.access_path, &b.kind, &b.fingerprint)));
    let mut out = format!(
        "{{\n  \"racer_baseline\": {FORMAT_VERSION},\n  \"regenerate\": {},\n  \"issues\": [",
        serde_json::to_string(REGENERATE).expect("a string serialises")
    );
    for (i, e) in entries.iter().enumerate() {
        out.push_str(if i == 0 { "\n    " } else { ",\n    " });
        out.push_str(&serde_json::to_string(e).expect("plain strings serialise"));
    }
    out.push_str(if entries.is_empty() { "]\n}\n" } else { "\n  ]\n}\n" });
    out
}

/// Writes the baseline for `issues` to `path`, atomically.
pub fn write(path: &Path, issues: &[Issue]) -> Result<(), Error> {
    write_atomic(path, render(issues).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::issue::Suppression;
    use crate::report::test_support::issue;

    #[test]
    fn round_trip_and_stale_entries() {
        let a = issue("a.B", "set", "this.n", 3);
        let b = issue("a.A", "get", "this.m", 9);
        let text = render(&[a.clone(), b.clone()]);
        assert!(text.find("\"class\":\"a.A\"").unwrap() < text.find("\"class\":\"a.B\"").unwrap(), "sorted:\n{text}");
        assert_eq!(text.lines().count(), 8, "one entry per line:\n{text}");
        let baseline = Baseline::parse(&text).unwrap();

        let mut moved = a.clone();
        moved.line = 40;
        let mut now = vec![moved, issue("a.C", "run", "this.k", 1)];
        assert_eq!(baseline.apply(&mut now), 1, "a.A.get no longer occurs");
        assert_eq!(now[0].baseline, BaselineState::Unchanged);
        assert_eq!(now[1].baseline, BaselineState::New);
    }

    #[test]
    fn suppressed_issues_are_not_written() {
        let mut s = issue("a.B", "set", "this.n", 3);
        s.suppressed = Some(Suppression { annotation: "SuppressRace".into(), value: "racer".into(), reason: None });
        assert_eq!(render(&[s]), format!("{{\n  \"racer_baseline\": 1,\n  \"regenerate\": \"{REGENERATE}\",\n  \"issues\": []\n}}\n"));
    }

    #[test]
    fn bad_files_are_explained() {
        for (text, needle) in [("{", "EOF"), (r#"{"racer_baseline":7,"issues":[]}"#, "version 7"), (r#"{"issues":[]}"#, "racer_baseline")] {
            let err = Baseline::parse(text).err().unwrap();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
