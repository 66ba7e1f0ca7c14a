//! The engine's public entry point: one request in, one result out.
//!
//! The `racer` command and the JNI bridge both call [`analyze`]; the JNI bridge
//! receives the request as JSON (see [`Request`]) and returns [`Response`] as JSON.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::issue::Issue;

/// Version of the JSON request/response contract spoken over JNI.
pub const REQUEST_VERSION: u32 = 2;

/// The tool version, written into reports and summary files.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// Must equal [`REQUEST_VERSION`] (0 is accepted from Rust callers and means "current").
    pub request_version: u32,
    /// Class directories, jars or single `.class` files to analyse and report on.
    pub inputs: Vec<PathBuf>,
    /// Directories/jars used only as context (hierarchy, annotations, field flags).
    pub classpath: Vec<PathBuf>,
    /// Upstream summary files (written by an earlier `summaries_out`).
    pub summaries_in: Vec<PathBuf>,
    /// Where to write this run's summaries, if anywhere.
    pub summaries_out: Option<PathBuf>,
    pub options: Options,
    /// Report files to write (atomically); absent formats are not written.
    pub reports: ReportFiles,
    /// Source roots used for snippets (text/HTML) and relative locations (SARIF).
    pub source_paths: Vec<PathBuf>,
    /// A baseline file: issues recorded in it are reported as `unchanged` and do not
    /// fail a build.
    pub baseline: Option<PathBuf>,
    /// Where to write this run's issues as a baseline file (atomically), if anywhere.
    pub write_baseline: Option<PathBuf>,
    /// An include/exclude filter file; issues it filters out are not reported at all.
    pub filter: Option<PathBuf>,
    /// How many issues the console text shows in full; `None` means
    /// [`DEFAULT_CONSOLE_LIMIT`].
    pub console_limit: Option<usize>,
}

/// Issues shown in full in the console text unless the request says otherwise.
pub const DEFAULT_CONSOLE_LIMIT: usize = 20;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Extra annotation names treated as `@ThreadSafe` (simple or qualified).
    pub thread_safe_annotations: Vec<String>,
    /// Binary class names never reported on (`a.b.Outer$Inner`), or globs over them
    /// (`com.example.gen.*`, `com.example.**`; see `report::glob`). Calls into these
    /// classes are skipped by the analysis.
    pub ignore_classes: Vec<String>,
    /// Package prefixes analysed but never reported on.
    pub library_packages: Vec<String>,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Stop the run with an error when the engine holds more than this many MiB (0 = unlimited).
    pub max_memory_mb: u64,
    /// Pure RacerD behaviour: turns off every extension beyond the reference
    /// (see `docs/analysis.md`).
    pub racerd_compat: bool,
    /// Also report accesses made under two different known locks (a field written under
    /// `synchronized (mLock)` in one method and in a `synchronized` method in another).
    /// Ignored with `racerd_compat`.
    pub different_locks: bool,
    /// The high-confidence mode: leave out accesses through a field their method assigns
    /// (itself or in a callee), which may reach different objects at different times (spec
    /// 11.1, RacerDX's stability). Fewer reports, some true races among those dropped.
    pub high_confidence: bool,
    /// Extensions of the default mode turned off one by one, by name (`thread_handoffs`; see
    /// `analysis::extensions`): for a codebase where one adds noise, and to measure what each
    /// costs. With `racerd_compat` every extension is off already (the names are still checked).
    pub without_extensions: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReportFiles {
    pub json: Option<PathBuf>,
    pub sarif: Option<PathBuf>,
    pub text: Option<PathBuf>,
    pub html: Option<PathBuf>,
}

/// A problem with one input that did not stop the analysis of the rest.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The file (jar, class file, directory, or `jar!/entry`) concerned.
    pub file: String,
    pub message: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Stats {
    pub classes: usize,
    pub methods_analysed: usize,
    pub upstream_classes: usize,
    pub upstream_methods: usize,
    pub millis: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ToolInfo {
    pub name: String,
    pub version: String,
}

impl Default for ToolInfo {
    fn default() -> Self {
        ToolInfo { name: "racer".into(), version: TOOL_VERSION.into() }
    }
}

/// How the reported issues split up; `new` is what fails a build.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub total: usize,
    /// Neither baselined nor suppressed.
    pub new: usize,
    /// Found in the baseline (suppressed ones included).
    pub baselined: usize,
    /// Silenced by an annotation in the code (baselined ones included).
    pub suppressed: usize,
    /// Baseline entries that matched no issue of this run (fixed since).
    pub stale_baseline_entries: usize,
}

impl Counts {
    pub fn of(issues: &[Issue], stale_baseline_entries: usize) -> Counts {
        Counts {
            total: issues.len(),
            new: issues.iter().filter(|i| i.is_new()).count(),
            baselined: issues.iter().filter(|i| i.baseline == crate::issue::BaselineState::Unchanged).count(),
            suppressed: issues.iter().filter(|i| i.suppressed.is_some()).count(),
            stale_baseline_entries,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Response {
    pub tool: ToolInfo,
    pub issues: Vec<Issue>,
    /// Warnings about inputs that could not be read (the rest was analysed).
    pub diagnostics: Vec<Diagnostic>,
    pub stats: Stats,
    #[serde(default)]
    pub counts: Counts,
    /// The console text: issues grouped by class and field, the first
    /// `console_limit` in full, then the counts. Build plugins print it as it is.
    #[serde(default)]
    pub console: String,
    /// A baseline was given: SARIF then states `baselineState` for every result.
    #[serde(skip)]
    pub baseline_applied: bool,
}

/// A fatal error: nothing was analysed. The message names the file and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_2_request_fields() {
        let r: Request = serde_json::from_str(
            r#"{"request_version":2,"inputs":["c"],"baseline":"b.json","write_baseline":null,
                "filter":"f.json","console_limit":5,
                "options":{"ignore_classes":["a.gen.*"],"racerd_compat":true,"max_memory_mb":2048}}"#,
        )
        .unwrap();
        assert_eq!(r.baseline, Some(PathBuf::from("b.json")));
        assert_eq!(r.write_baseline, None);
        assert_eq!(r.filter, Some(PathBuf::from("f.json")));
        assert_eq!(r.console_limit, Some(5));
        assert!(r.options.racerd_compat);
        assert_eq!(r.options.max_memory_mb, 2048);
        assert!(serde_json::from_str::<Request>(r#"{"request_version":2,"baselines":"x"}"#).is_err());
    }

    #[test]
    fn response_fields() {
        let v = serde_json::to_value(Response::default()).unwrap();
        assert_eq!(
            v["counts"],
            serde_json::json!({"total":0,"new":0,"baselined":0,"suppressed":0,"stale_baseline_entries":0})
        );
        assert_eq!(v["console"], "");
    }
}
