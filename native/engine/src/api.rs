//! The engine's public entry point: one request in, one result out.
//!
//! The `racer` command and the JNI bridge both call [`analyze`]; the JNI bridge
//! receives the request as JSON (see [`Request`]) and returns [`Response`] as JSON.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::report::Issue;

/// Version of the JSON request/response contract spoken over JNI.
pub const REQUEST_VERSION: u32 = 1;

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
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Extra annotation names treated as `@ThreadSafe` (simple or qualified).
    pub thread_safe_annotations: Vec<String>,
    /// Fully-qualified binary class names never reported on (`a.b.Outer$Inner`).
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

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Response {
    pub tool: ToolInfo,
    pub issues: Vec<Issue>,
    /// Warnings about inputs that could not be read (the rest was analysed).
    pub diagnostics: Vec<Diagnostic>,
    pub stats: Stats,
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
