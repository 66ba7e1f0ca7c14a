//! Kotlin fixture suite: compiles each `tests/kotlin/<topic>/` (every directory holding an
//! `expected.tsv`) with a real kotlinc, runs `racer::analyze` on the classes and compares the
//! issues exactly with `expected.tsv`, in the format of the Java fixtures (see `fixtures.rs`).
//!
//! Runs only when `RACER_KOTLINC` names `scripts/kotlinc.sh` (which resolves the compiler with
//! Maven); otherwise it prints a skip line. The Java annotations of `tests/fixtures/_support/` are
//! compiled with javac (`--release 8`) and put, with the kotlin-stdlib jar, on both the kotlinc
//! and the engine classpath. `RACER_FIXTURES=topic1,topic2` runs a subset.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use racer::api::Request;
use racer::report::Issue;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

/// A scratch directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("racer-kotlin-{}-{nanos}", std::process::id()));
        fs::create_dir_all(&path).expect("cannot create a temporary directory");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    };
    entries.sort();
    entries
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for path in sorted_entries(dir) {
        if path.is_dir() {
            java_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
}

/// Runs a command, turning a failure into a message with its output.
fn run(cmd: &mut Command, what: &str) -> Result<String, String> {
    let output = cmd.output().map_err(|e| format!("cannot run {what}: {e}"))?;
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

fn issue_line(issue: &Issue) -> String {
    format!("{}\t{}\t{}\t{}\t{}", issue.kind.as_str(), issue.class, issue.method, issue.line, issue.access_path)
}

/// The data lines of `expected.tsv` (comments and blank lines skipped), sorted.
fn read_expected(path: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        if fields.len() != 5 {
            return Err(format!("{}: expected 5 tab-separated fields, got {raw:?}", path.display()));
        }
        lines.push(fields.join("\t"));
    }
    lines.sort();
    Ok(lines)
}

/// Multiset difference `a - b`.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
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

fn run_topic(kotlinc: &Path, dir: &Path, out: &Path, support: &Path, stdlib: &Path) -> Result<(), String> {
    let expected = read_expected(&dir.join("expected.tsv"))?;
    run(Command::new(kotlinc).arg(dir).arg(out).arg(support), "kotlinc")?;

    let request = Request {
        inputs: vec![out.to_path_buf()],
        classpath: vec![support.to_path_buf(), stdlib.to_path_buf()],
        source_paths: vec![dir.to_path_buf()],
        ..Request::default()
    };
    let response = racer::analyze(&request).map_err(|e| format!("analysis failed: {e}"))?;
    let mut actual: Vec<String> = response.issues.iter().map(issue_line).collect();
    actual.sort();
    if actual == expected {
        return Ok(());
    }
    let mut msg = format!("expected {} issue(s), got {}\n", expected.len(), actual.len());
    for line in minus(&expected, &actual) {
        msg.push_str(&format!("  - missing:    {line}\n"));
    }
    for line in minus(&actual, &expected) {
        msg.push_str(&format!("  + unexpected: {line}\n"));
    }
    for d in &response.diagnostics {
        msg.push_str(&format!("  diagnostic: {}: {}\n", d.file, d.message));
    }
    Err(msg)
}

#[test]
fn kotlin_fixtures() {
    let Some(kotlinc) = std::env::var_os("RACER_KOTLINC").map(PathBuf::from) else {
        println!("kotlin fixtures: skipped (set RACER_KOTLINC to the path of scripts/kotlinc.sh)");
        return;
    };
    let root = workspace_root();
    let kotlin_root = root.join("tests").join("kotlin");
    let filter: Vec<String> = std::env::var("RACER_FIXTURES")
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    let topics: Vec<PathBuf> = sorted_entries(&kotlin_root)
        .into_iter()
        .filter(|p| p.join("expected.tsv").is_file())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()))
        })
        .collect();
    assert!(!topics.is_empty(), "no Kotlin fixtures found under {}", kotlin_root.display());

    let tmp = TempDir::new();
    let support = tmp.0.join("_support");
    let mut sources = Vec::new();
    java_files(&root.join("tests").join("fixtures").join("_support"), &mut sources);
    let mut javac = Command::new("javac");
    javac.args(["-nowarn", "-encoding", "UTF-8", "--release", "8", "-d"]).arg(&support).args(&sources);
    if let Err(e) = run(&mut javac, "javac") {
        panic!("cannot compile tests/fixtures/_support: {e}");
    }
    let stdlib = match run(Command::new(&kotlinc).arg("--stdlib"), "kotlinc.sh --stdlib") {
        Ok(out) => PathBuf::from(out.trim()),
        Err(e) => panic!("{e}"),
    };

    let mut failures = Vec::new();
    for dir in &topics {
        let name = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
        match run_topic(&kotlinc, dir, &tmp.0.join(&name), &support, &stdlib) {
            Ok(()) => println!("kotlin fixture {name}: ok"),
            Err(msg) => {
                println!("kotlin fixture {name}: FAIL\n{msg}");
                failures.push(name);
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} Kotlin fixture(s) failed: {}", failures.len(), topics.len(), failures.join(", "));
}
