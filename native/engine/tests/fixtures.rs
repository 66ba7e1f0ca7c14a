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
//! `KIND<TAB>class<TAB>method<TAB>line<TAB>access_path` (`null` for an issue without a line).
//! Blank lines and lines starting with `#` are ignored; an empty expectation means "no issues".
//! The comparison is exact (as multisets).
//!
//! Every fixture runs twice: with `racerd_compat` (pure RacerD), checked against
//! `expected.tsv`, and in the default mode (with the extensions), checked against
//! `expected.default.tsv` when the extensions change the result, else `expected.tsv` too.
//!
//! Environment:
//! - `RACER_FIXTURES=topic1,topic2` runs only the named fixtures (substring match).
//! - `RACER_FIXTURES_KEEP=1` keeps the temporary build directory and prints its location.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use racer::api::{Options, Request};

use common::{compile_support, fixture_filter, issue_diff, issue_line, issue_lines, java_files, javac, minus};
use common::{read_expected, sorted_entries, support_sources, workspace_root, TempDir};

const SUPPORT_DIR: &str = "_support";

/// Fixture directories: those holding `expected.tsv`, searched recursively (not below a fixture).
fn fixture_dirs(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    for path in sorted_entries(dir) {
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

fn run_fixture(dir: &Path, tmp: &Path, support: Option<&Path>) -> Result<(), String> {
    let sources = java_files(dir);
    if sources.is_empty() {
        return Err("no .java files".into());
    }
    let args: Vec<String> = match fs::read_to_string(dir.join("javac.args")) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
            .collect(),
        Err(_) => Vec::new(),
    };
    let extra: Vec<&str> = args.iter().map(String::as_str).collect();
    let classes = tmp.join("classes");
    let classpath: Vec<PathBuf> = support.map(Path::to_path_buf).into_iter().collect();
    javac(&sources, &classes, &classpath, &extra)?;

    let options: Options = match fs::read_to_string(dir.join("options.json")) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| format!("bad options.json: {e}"))?,
        Err(_) => Options::default(),
    };
    let default_expected = dir.join("expected.default.tsv");
    let default_expected = if default_expected.is_file() { default_expected } else { dir.join("expected.tsv") };
    check_mode(dir, &classes, classpath.clone(), Options { racerd_compat: true, ..options.clone() }, &dir.join("expected.tsv"))
        .map_err(|e| format!("[racerd_compat] {e}"))?;
    check_mode(dir, &classes, classpath, Options { racerd_compat: false, ..options }, &default_expected)
        .map_err(|e| format!("[default mode] {e}"))
}

/// Runs the engine on compiled fixture classes and compares with one expectation file.
fn check_mode(dir: &Path, classes: &Path, classpath: Vec<PathBuf>, options: Options, expected: &Path) -> Result<(), String> {
    let expected = read_expected(expected)?;
    let request = Request {
        inputs: vec![classes.to_path_buf()],
        classpath,
        source_paths: vec![dir.to_path_buf()],
        options,
        ..Request::default()
    };
    let response = racer::analyze(&request).map_err(|e| format!("analysis failed: {e}"))?;

    let actual = issue_lines(&response.issues);
    let Some(mut msg) = issue_diff(&expected, &actual) else {
        return Ok(());
    };
    let mut shown = minus(&actual, &expected);
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

    let filter = fixture_filter();
    if !filter.is_empty() {
        dirs.retain(|(name, _)| filter.iter().any(|f| name.contains(f.as_str())));
        assert!(!dirs.is_empty(), "RACER_FIXTURES={filter:?} matches no fixture");
    }

    let keep = std::env::var_os("RACER_FIXTURES_KEEP").is_some();
    let tmp = TempDir::new("racer-fixtures").keep_if(keep, "fixtures");

    let support = if support_sources().is_empty() {
        None
    } else {
        let out = tmp.join(SUPPORT_DIR);
        if let Err(e) = compile_support(&out) {
            panic!("cannot compile tests/fixtures/{SUPPORT_DIR}: {e}");
        }
        Some(out)
    };

    let mut failures = Vec::new();
    for (index, (name, dir)) in dirs.iter().enumerate() {
        let work = tmp.join(format!("fixture-{index}"));
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
