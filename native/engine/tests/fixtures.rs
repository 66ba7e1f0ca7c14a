//! Behavioural fixture suite: compiles the Java sources under `tests/fixtures/<topic>/`,
//! runs `racer::analyze` on them and compares the issues with `expected.tsv`.
//!
//! Layout (paths relative to the workspace root):
//!
//! - `tests/fixtures/_support/`: shared Java sources (annotation declarations, Android and
//!   thread-utility stand-ins). They are compiled once, with `--release 8` so that fixtures
//!   compiled for any release can use them, and passed to the engine as `classpath`.
//! - `tests/fixtures/<topic>/expected.tsv`: marks a fixture directory. Every `*.java` below that
//!   directory is compiled with `javac -g` (plus the whitespace-separated arguments of an optional
//!   `javac.args`), and the engine is run with `inputs = [classes]`, `classpath = [support]`,
//!   `source_paths = [fixture dir]` and the options of an optional `options.json`.
//!   Directories without `expected.tsv` are searched for nested fixtures.
//!
//! `expected.tsv` holds one issue per line:
//! `KIND<TAB>class<TAB>method<TAB>line<TAB>access_path`. Blank lines and lines starting with `#`
//! are ignored; an empty expectation means "no issues". The comparison is exact (as multisets).
//!
//! Environment:
//! - `RACER_FIXTURES=topic1,topic2` runs only the named fixtures (substring match).
//! - `RACER_FIXTURES_KEEP=1` keeps the temporary build directory and prints its location.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use racer::api::{Options, Request};
use racer::report::Issue;

const SUPPORT_DIR: &str = "_support";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

/// A scratch directory removed on drop (unless asked to keep it).
struct TempDir {
    path: PathBuf,
    keep: bool,
}

impl TempDir {
    fn new(prefix: &str) -> TempDir {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let base = std::env::temp_dir();
        for attempt in 0..100u32 {
            let path = base.join(format!("{prefix}-{}-{nanos}-{attempt}", std::process::id()));
            if fs::create_dir(&path).is_ok() {
                let keep = std::env::var_os("RACER_FIXTURES_KEEP").is_some();
                return TempDir { path, keep };
            }
        }
        panic!("cannot create a temporary directory under {}", base.display());
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if self.keep {
            eprintln!("fixtures: kept build directory {}", self.path.display());
        } else {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            java_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "java") {
            out.push(path);
        }
    }
}

/// Fixture directories: those holding `expected.tsv`, searched recursively (not below a fixture).
fn fixture_dirs(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if !path.is_dir() || path.file_name().is_some_and(|n| n == SUPPORT_DIR) {
            continue;
        }
        if path.join("expected.tsv").is_file() {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((name, path));
        } else {
            fixture_dirs(&path, root, out);
        }
    }
}

fn javac(sources: &[PathBuf], out_dir: &Path, classpath: Option<&Path>, extra: &[String]) -> Result<(), String> {
    fs::create_dir_all(out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let mut cmd = Command::new("javac");
    cmd.arg("-g").arg("-nowarn").arg("-encoding").arg("UTF-8").arg("-d").arg(out_dir);
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    cmd.args(extra);
    cmd.args(sources);
    let output = cmd.output().map_err(|e| format!("cannot run javac (is a JDK on PATH?): {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "javac failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

fn issue_line(issue: &Issue) -> String {
    format!(
        "{}\t{}\t{}\t{}\t{}",
        issue.kind.as_str(),
        issue.class,
        issue.method,
        issue.line,
        issue.access_path
    )
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

fn read_expected(path: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let norm = normalise_expected(line);
        if norm.split('\t').count() != 5 {
            return Err(format!(
                "{}:{}: expected 5 tab-separated fields (KIND class method line access_path), got {raw:?}",
                path.display(),
                no + 1
            ));
        }
        lines.push(norm);
    }
    lines.sort();
    Ok(lines)
}

/// Multiset difference `a - b` (both sorted).
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut counts: BTreeMap<&str, isize> = BTreeMap::new();
    for x in b {
        *counts.entry(x.as_str()).or_default() += 1;
    }
    let mut out = Vec::new();
    for x in a {
        let c = counts.entry(x.as_str()).or_default();
        if *c > 0 {
            *c -= 1;
        } else {
            out.push(x.clone());
        }
    }
    out
}

fn run_fixture(dir: &Path, tmp: &Path, support: Option<&Path>) -> Result<(), String> {
    let expected = read_expected(&dir.join("expected.tsv"))?;

    let mut sources = Vec::new();
    java_files(dir, &mut sources);
    if sources.is_empty() {
        return Err("no .java files".into());
    }
    let extra: Vec<String> = match fs::read_to_string(dir.join("javac.args")) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
            .collect(),
        Err(_) => Vec::new(),
    };
    let classes = tmp.join("classes");
    javac(&sources, &classes, support, &extra)?;

    let options: Options = match fs::read_to_string(dir.join("options.json")) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| format!("bad options.json: {e}"))?,
        Err(_) => Options::default(),
    };
    let request = Request {
        inputs: vec![classes],
        classpath: support.map(|s| vec![s.to_path_buf()]).unwrap_or_default(),
        source_paths: vec![dir.to_path_buf()],
        options,
        ..Request::default()
    };
    let response = racer::analyze(&request).map_err(|e| format!("analysis failed: {e}"))?;

    let mut actual: Vec<String> = response.issues.iter().map(issue_line).collect();
    actual.sort();
    if actual == expected {
        return Ok(());
    }

    let missing = minus(&expected, &actual);
    let unexpected = minus(&actual, &expected);
    let mut msg = String::new();
    msg.push_str(&format!(
        "expected {} issue(s), got {}\n",
        expected.len(),
        actual.len()
    ));
    for line in &missing {
        msg.push_str(&format!("  - missing:    {line}\n"));
    }
    for line in &unexpected {
        msg.push_str(&format!("  + unexpected: {line}\n"));
    }
    let mut shown = unexpected.clone();
    for issue in &response.issues {
        let line = issue_line(issue);
        if let Some(pos) = shown.iter().position(|l| *l == line) {
            shown.remove(pos);
            let json = serde_json::to_string_pretty(issue).unwrap_or_else(|e| format!("<{e}>"));
            msg.push_str(&format!("  unexpected issue in full:\n{json}\n"));
        }
    }
    if !response.diagnostics.is_empty() {
        msg.push_str("  engine diagnostics:\n");
        for d in &response.diagnostics {
            msg.push_str(&format!("    {}: {}\n", d.file, d.message));
        }
    }
    Err(msg)
}

#[test]
fn fixtures() {
    let root = workspace_root();
    let fixtures_root = root.join("tests").join("fixtures");
    let mut dirs = Vec::new();
    fixture_dirs(&fixtures_root, &fixtures_root, &mut dirs);
    assert!(!dirs.is_empty(), "no fixtures found under {}", fixtures_root.display());

    let filter: Vec<String> = std::env::var("RACER_FIXTURES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    if !filter.is_empty() {
        dirs.retain(|(name, _)| filter.iter().any(|f| name.contains(f.as_str())));
        assert!(!dirs.is_empty(), "RACER_FIXTURES={filter:?} matches no fixture");
    }

    let tmp = TempDir::new("racer-fixtures");

    let mut support_sources = Vec::new();
    java_files(&fixtures_root.join(SUPPORT_DIR), &mut support_sources);
    let support = if support_sources.is_empty() {
        None
    } else {
        let out = tmp.path.join(SUPPORT_DIR);
        let release = vec!["--release".to_owned(), "8".to_owned()];
        if let Err(e) = javac(&support_sources, &out, None, &release) {
            panic!("cannot compile tests/fixtures/{SUPPORT_DIR}: {e}");
        }
        Some(out)
    };

    let mut failures = Vec::new();
    for (index, (name, dir)) in dirs.iter().enumerate() {
        let work = tmp.path.join(format!("fixture-{index}"));
        match run_fixture(dir, &work, support.as_deref()) {
            Ok(()) => println!("fixture {name}: ok"),
            Err(msg) => {
                println!("fixture {name}: FAIL");
                failures.push((name.clone(), msg));
            }
        }
    }

    if !failures.is_empty() {
        let mut report = String::new();
        for (name, msg) in &failures {
            report.push_str(&format!("\n=== fixture {name}\n{msg}"));
        }
        println!("{report}");
        panic!(
            "{} of {} fixture(s) failed: {}",
            failures.len(),
            dirs.len(),
            failures.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
}
