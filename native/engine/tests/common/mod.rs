//! Helpers shared by the integration tests: the workspace root, scratch directories, Java
//! source listing and compilation, and the `expected.tsv` format of the fixture suites.
//!
//! Each test binary compiles this module on its own (`mod common;`) and uses only part of it.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use racer::report::Issue;

pub mod suite;

/// The Java sources shared by the fixture suites, relative to the workspace root.
pub const SUPPORT_SOURCES: &str = "tests/fixtures/_support";

/// The workspace root (two levels above the engine crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

// ---- scratch directories ------------------------------------------------------------

/// A fresh scratch directory under the system temporary directory, removed on drop unless
/// asked to keep it.
pub struct TempDir {
    path: PathBuf,
    /// When set, the directory is kept and this note is printed with its location.
    kept_note: Option<&'static str>,
    keep_on_panic: bool,
}

impl TempDir {
    /// Creates `<temp>/<prefix>-<pid>-<time>-<n>`, a name no other test or run uses.
    pub fn new(prefix: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let n = N.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("{prefix}-{}-{nanos}-{n}", std::process::id()));
            if fs::create_dir(&path).is_ok() {
                return TempDir { path, kept_note: None, keep_on_panic: false };
            }
        }
        panic!("cannot create a temporary directory under {}", base.display());
    }

    /// Keeps the directory when `keep` holds, printing `<note>: kept build directory <path>`.
    pub fn keep_if(mut self, keep: bool, note: &'static str) -> TempDir {
        self.kept_note = keep.then_some(note);
        self
    }

    /// Keeps the directory when the test fails, for a look at what it was given.
    pub fn keep_on_panic(mut self) -> TempDir {
        self.keep_on_panic = true;
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.path.join(rel)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Some(note) = self.kept_note {
            eprintln!("{note}: kept build directory {}", self.path.display());
        } else if !(self.keep_on_panic && std::thread::panicking()) {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

// ---- Java sources and javac --------------------------------------------------------------

/// The entries of `dir`, sorted; none when it cannot be read.
pub fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    };
    entries.sort();
    entries
}

/// The `*.java` files below `dir`, in sorted order.
pub fn java_files(dir: &Path) -> Vec<PathBuf> {
    files_with_extension(dir, "java")
}

/// Every file below `dir` whose extension is `ext`, in sorted order.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_files(dir, ext, &mut out);
    out
}

fn collect_files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for path in sorted_entries(dir) {
        if path.is_dir() {
            collect_files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Turns a finished command into its stdout, or a failure into a message with its output.
fn finished(output: Output, what: &str) -> Result<String, String> {
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Runs a command, turning a failure into a message with its output.
pub fn run(cmd: &mut Command, what: &str) -> Result<String, String> {
    let output = cmd.output().map_err(|e| format!("cannot run {what}: {e}"))?;
    finished(output, what)
}

/// `javac -g -nowarn -encoding UTF-8 -d out_dir [-cp classpath] extra... sources...`,
/// creating `out_dir` first.
pub fn javac(sources: &[PathBuf], out_dir: &Path, classpath: &[PathBuf], extra: &[&str]) -> Result<(), String> {
    compile(Command::new("javac"), "javac", &[], sources, out_dir, classpath, extra)
}

/// The Eclipse compiler (`scripts/ecj.sh`, named by `RACER_ECJ`) with javac's defaults here:
/// debug information, release 17 unless `extra` names one, and every local kept (ECJ pops a
/// value stored into a local never read, and a popped field read is no use of it, spec 2.3).
pub fn ecj(ecj: &Path, sources: &[PathBuf], out_dir: &Path, classpath: &[PathBuf], extra: &[&str]) -> Result<(), String> {
    let release: &[&str] = if extra.contains(&"--release") { &[] } else { &["--release", "17"] };
    let mut own = vec!["-preserveAllLocals"];
    own.extend_from_slice(release);
    compile(Command::new(ecj), &ecj.display().to_string(), &own, sources, out_dir, classpath, extra)
}

/// `compiler -g -nowarn -encoding UTF-8 own... -d out_dir [-cp classpath] extra... sources...`,
/// creating `out_dir` first.
fn compile(
    mut cmd: Command,
    what: &str,
    own: &[&str],
    sources: &[PathBuf],
    out_dir: &Path,
    classpath: &[PathBuf],
    extra: &[&str],
) -> Result<(), String> {
    fs::create_dir_all(out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    cmd.args(["-g", "-nowarn", "-encoding", "UTF-8"]).args(own).arg("-d").arg(out_dir);
    if !classpath.is_empty() {
        let cp = std::env::join_paths(classpath).map_err(|e| format!("bad classpath {classpath:?}: {e}"))?;
        cmd.arg("-cp").arg(cp);
    }
    cmd.args(extra).args(sources);
    run(&mut cmd, what).map(drop)
}

/// The sources of `tests/fixtures/_support` (annotation declarations and stand-ins).
pub fn support_sources() -> Vec<PathBuf> {
    java_files(&workspace_root().join(SUPPORT_SOURCES))
}

/// Compiles `tests/fixtures/_support` into `out` with `--release 8`, so that code compiled
/// for any release can use it.
pub fn compile_support(out: &Path) -> Result<(), String> {
    javac(&support_sources(), out, &[], &["--release", "8"])
}

// ---- expected.tsv -------------------------------------------------------------------------

/// `RACER_FIXTURES=topic1,topic2`: the names of the fixtures to run (substring match); empty
/// when all are to run.
pub fn fixture_filter() -> Vec<String> {
    std::env::var("RACER_FIXTURES")
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default()
}

/// One issue as an `expected.tsv` line: `KIND<TAB>class<TAB>method<TAB>line<TAB>access_path`,
/// and `<TAB>others=N` when the report stands for a race that N other entry points reach.
pub fn issue_line(issue: &Issue) -> String {
    let line = if issue.line == 0 { "null".to_string() } else { issue.line.to_string() };
    let mut text = format!("{}\t{}\t{}\t{}\t{}", issue.kind.as_str(), issue.class, issue.method, line, issue.access_path);
    if issue.other_entry_points > 0 {
        text.push_str(&format!("\tothers={}", issue.other_entry_points));
    }
    text
}

/// The issues as sorted `expected.tsv` lines.
pub fn issue_lines(issues: &[Issue]) -> Vec<String> {
    let mut lines: Vec<String> = issues.iter().map(issue_line).collect();
    lines.sort();
    lines
}

/// Two modules of a build: `upstream` analysed with a summary file (written to `summaries`),
/// then `downstream` alone with it (and `upstream` on its classpath, as the plugins do), and
/// both analysed together. The issues of the downstream module alone and of the whole, as
/// sorted `expected.tsv` lines.
pub fn alone_and_whole(upstream: &Path, downstream: &Path, classpath: &[PathBuf], summaries: &Path) -> (Vec<String>, Vec<String>) {
    use racer::api::Request;
    let made = Request { inputs: vec![upstream.to_path_buf()], classpath: classpath.to_vec(), summaries_out: Some(summaries.to_path_buf()), ..Request::default() };
    racer::analyze(&made).unwrap_or_else(|e| panic!("upstream analysis failed: {e}"));
    let mut with_upstream = classpath.to_vec();
    with_upstream.push(upstream.to_path_buf());
    let alone = Request { inputs: vec![downstream.to_path_buf()], classpath: with_upstream, summaries_in: vec![summaries.to_path_buf()], ..Request::default() };
    let whole = Request { inputs: vec![downstream.to_path_buf(), upstream.to_path_buf()], classpath: classpath.to_vec(), ..Request::default() };
    let alone = issue_lines(&racer::analyze(&alone).unwrap_or_else(|e| panic!("downstream analysis failed: {e}")).issues);
    let whole = issue_lines(&racer::analyze(&whole).unwrap_or_else(|e| panic!("whole analysis failed: {e}")).issues);
    (alone, whole)
}

/// Normalises one expectation line: fields separated by tabs (or, leniently, by runs of
/// whitespace when the line holds no tab), each field trimmed.
fn normalise_expected(line: &str) -> String {
    let fields: Vec<&str> = if line.contains('\t') {
        line.split('\t').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    };
    fields.join("\t")
}

/// The data lines of `expected.tsv` (comments and blank lines skipped), normalised and sorted.
pub fn read_expected(path: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let norm = normalise_expected(line);
        let fields: Vec<&str> = norm.split('\t').collect();
        let counted = fields.len() == 6 && fields[5].strip_prefix("others=").is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 0));
        if fields.len() != 5 && !counted {
            return Err(format!(
                "{}:{}: expected 5 tab-separated fields (KIND class method line access_path) and, for a report \
                 other entry points reach, others=N, got {raw:?}",
                path.display(),
                no + 1
            ));
        }
        lines.push(norm);
    }
    lines.sort();
    Ok(lines)
}

/// Multiset difference `a - b`.
pub fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for x in b {
        *counts.entry(x.as_str()).or_default() += 1;
    }
    a.iter()
        .filter(|x| match counts.get_mut(x.as_str()) {
            Some(c) if *c > 0 => {
                *c -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

/// `None` when `actual` equals `expected` (both sorted); otherwise a report of the counts and
/// of the missing and unexpected lines.
pub fn issue_diff(expected: &[String], actual: &[String]) -> Option<String> {
    if actual == expected {
        return None;
    }
    let mut msg = format!("expected {} issue(s), got {}\n", expected.len(), actual.len());
    for line in minus(expected, actual) {
        msg.push_str(&format!("  - missing:    {line}\n"));
    }
    for line in minus(actual, expected) {
        msg.push_str(&format!("  + unexpected: {line}\n"));
    }
    Some(msg)
}

/// The third-party libraries the fixtures of the library models compile against (RxJava, Reactor,
/// Netty): `RACER_LIBRARY_JARS` (paths separated like PATH), else the jars
/// `scripts/test-libraries.sh` leaves in `build/test-libraries/`; `None` when one is missing.
pub fn library_jars() -> Option<Vec<PathBuf>> {
    let jars: Vec<PathBuf> = match std::env::var_os("RACER_LIBRARY_JARS") {
        Some(paths) => std::env::split_paths(&paths).collect(),
        None => {
            let dir = workspace_root().join("build/test-libraries");
            [
                "rxjava-3.1.9.jar",
                "reactive-streams-1.0.4.jar",
                "rxjava-2.2.21.jar",
                "rxandroid-3.0.2-classes.jar",
                "reactor-core-3.6.11.jar",
                "netty-common-4.1.115.Final.jar",
                "netty-transport-4.1.115.Final.jar",
            ]
            .iter()
                .map(|j| dir.join(j))
                .collect()
        }
    };
    (!jars.is_empty() && jars.iter().all(|j| j.is_file())).then_some(jars)
}

/// The test libraries (see [`library_jars`]) for `suite`, or `None` after a line saying that
/// `suite` is skipped; a failure when `RACER_LIBRARY_JARS` (which `scripts/test.sh` sets) names
/// a jar that is missing.
pub fn library_jars_or_skip(suite: &str) -> Option<Vec<PathBuf>> {
    let jars = library_jars();
    if jars.is_none() {
        let message = format!(
            "{suite} SKIPPED: the test libraries are not available; run scripts/test-libraries.sh or set RACER_LIBRARY_JARS"
        );
        assert!(std::env::var_os("RACER_LIBRARY_JARS").is_none(), "{message}");
        eprintln!("{message}");
    }
    jars
}
