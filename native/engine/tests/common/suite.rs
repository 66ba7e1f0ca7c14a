//! The fixture suites' runner: fixture directories (those holding `expected.tsv`), each compiled
//! with javac (or the Eclipse compiler) against a classpath, analysed with that classpath as
//! context, and its issues compared exactly with `expected.tsv` (in `racerd_compat` mode) and
//! `expected.default.tsv` (with the extensions, when they change the result); format in
//! `tests/fixtures/README.md`.

use std::fs;
use std::path::{Path, PathBuf};

use racer::api::{Options, Request};

use super::{ecj, fixture_filter, issue_diff, issue_line, issue_lines, java_files, javac, minus, read_expected, sorted_entries};

pub const SUPPORT_DIR: &str = "_support";

/// What compiles the fixtures: javac, or the Eclipse compiler at a path (see `common::ecj`).
pub enum Compiler {
    Javac,
    Ecj(PathBuf),
}

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

pub fn run_fixture(dir: &Path, tmp: &Path, classpath: &[PathBuf], compiler: &Compiler) -> Result<(), String> {
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
    let classpath = classpath.to_vec();
    match compiler {
        Compiler::Javac => javac(&sources, &classes, &classpath, &extra)?,
        Compiler::Ecj(path) => ecj(path, &sources, &classes, &classpath, &extra)?,
    }

    let options: Options = match fs::read_to_string(dir.join("options.json")) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| format!("bad options.json: {e}"))?,
        Err(_) => Options::default(),
    };
    // A compiler's own expectations (`expected.ecj.tsv`) where its class files differ from javac's
    // (the lines it gives synthetic methods); the default mode's fall back to the compat mode's.
    let own = |stem: &str| match compiler {
        Compiler::Ecj(_) => Some(dir.join(format!("{stem}.ecj.tsv"))).filter(|p| p.is_file()),
        Compiler::Javac => None,
    };
    let shared = |stem: &str| Some(dir.join(format!("{stem}.tsv"))).filter(|p| p.is_file());
    let compat_expected = own("expected").unwrap_or_else(|| dir.join("expected.tsv"));
    let default_expected = own("expected.default").or_else(|| shared("expected.default")).unwrap_or_else(|| compat_expected.clone());
    check_mode(dir, &classes, classpath.clone(), Options { racerd_compat: true, ..options.clone() }, &compat_expected)
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

/// The fixtures below `root` (name relative to it, directory), narrowed by `RACER_FIXTURES`.
pub fn selected_fixtures(root: &Path) -> Vec<(String, PathBuf)> {
    let mut dirs = Vec::new();
    fixture_dirs(root, root, &mut dirs);
    assert!(!dirs.is_empty(), "no fixtures found under {}", root.display());
    let filter = fixture_filter();
    if !filter.is_empty() {
        dirs.retain(|(name, _)| filter.iter().any(|f| name.contains(f.as_str())));
        assert!(!dirs.is_empty(), "RACER_FIXTURES={filter:?} matches no fixture");
    }
    dirs
}

/// Runs every fixture (scratch space under `tmp`), printing one line each; panics with the
/// differences when any fails.
pub fn run_all(dirs: &[(String, PathBuf)], tmp: &Path, classpath: &[PathBuf], compiler: &Compiler) {
    let mut failures = Vec::new();
    for (index, (name, dir)) in dirs.iter().enumerate() {
        let work = tmp.join(format!("fixture-{index}"));
        match run_fixture(dir, &work, classpath, compiler) {
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
