//! End-to-end tests of the `racer` command: argument handling, report formats,
//! bad inputs, determinism and exit codes. Java fixtures are compiled with `javac -g`
//! into a temporary directory; bad inputs are generated from them at test time
//! (only the odd class under `tests/bad-input/` is committed).

mod common;

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

use common::TempDir;

const RACER: &str = env!("CARGO_BIN_EXE_racer");

const THREAD_SAFE: &str = "\
package javax.annotation.concurrent;
import java.lang.annotation.*;
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ThreadSafe {}
";

/// The racy class: one THREAD_SAFETY_VIOLATION on `Racy.set`, path `this.n`, line 6.
const RACY: &str = "\
import javax.annotation.concurrent.ThreadSafe;

@ThreadSafe
class Racy {
  int n;
  void set() { n = 1; }
}
";

/// A class with nothing to report, used as raw material for broken class files.
const PLAIN: &str = "\
class Plain {
  private final int x;
  Plain(int x) { this.x = x; }
  int get() { return x; }
}
";

// ---- helpers -------------------------------------------------------------------------

/// A scratch directory for one test, kept when the test fails.
fn tempdir(tag: &str) -> TempDir {
    TempDir::new(&format!("racer-cli-{tag}")).keep_on_panic()
}

/// Compiles `(relative path, source)` pairs with `javac -g` into `<dir>/classes`.
fn javac(dir: &Path, sources: &[(&str, &str)]) -> PathBuf {
    let src = dir.join("src");
    let classes = dir.join("classes");
    let mut files = Vec::new();
    for (rel, text) in sources {
        let p = src.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        files.push(p);
    }
    if let Err(e) = common::javac(&files, &classes, &[], &[]) {
        panic!("{e}");
    }
    classes
}

/// Racy, Plain and the annotation, compiled once per test run; each test copies them.
fn compiled() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-fixtures-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        javac(
            &dir,
            &[
                ("javax/annotation/concurrent/ThreadSafe.java", THREAD_SAFE),
                ("Racy.java", RACY),
                ("Plain.java", PLAIN),
            ],
        );
        dir
    })
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `<tmp>/classes` holding Racy and the annotation (not Plain), and `<tmp>/src`.
fn racy_project(tmp: &TempDir) -> PathBuf {
    copy_tree(&compiled().join("src"), &tmp.join("src"));
    let classes = tmp.join("classes");
    copy_tree(&compiled().join("classes"), &classes);
    fs::remove_file(classes.join("Plain.class")).unwrap();
    classes
}

fn plain_class_bytes() -> Vec<u8> {
    fs::read(compiled().join("classes/Plain.class")).unwrap()
}

fn racer(args: &[&dyn AsRef<OsStr>]) -> Output {
    let out = Command::new(RACER).args(args.iter().map(|a| a.as_ref())).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "racer panicked:\n{stderr}");
    assert!(matches!(out.status.code(), Some(0..=2)), "unexpected exit status {:?}:\n{stderr}", out.status);
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}\nstderr:\n{}", stdout(out), stderr(out)))
}

/// Asserts the run analysed Racy despite whatever else was in it.
fn assert_racy_reported(report: &Value) {
    let racy: Vec<&Value> = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["class"] == "Racy")
        .collect();
    assert_eq!(racy.len(), 1, "expected one issue on Racy, got {report:#}");
    let issue = racy[0];
    assert_eq!(issue["kind"], "THREAD_SAFETY_VIOLATION");
    assert_eq!(issue["method"], "set");
    assert_eq!(issue["access_path"], "this.n");
    assert_eq!(issue["line"], 6);
    assert_eq!(issue["source_file"], "Racy.java");
}

/// Asserts a warning names `needle` both on stderr and in the JSON diagnostics.
fn assert_warned_about(out: &Output, report: &Value, needle: &str) {
    let err = stderr(out);
    assert!(
        err.lines().any(|l| l.starts_with("racer: warning: ") && l.contains(needle)),
        "no warning naming {needle} on stderr:\n{err}"
    );
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert!(
        diagnostics.iter().any(|d| d["file"].as_str().unwrap().contains(needle) && !d["message"].as_str().unwrap().is_empty()),
        "no diagnostic naming {needle}: {diagnostics:#?}"
    );
}

/// Compiles `sources` into a scratch directory (kept while the returned guard lives) and
/// analyses the classes: the report.
fn report_of_sources(tag: &str, sources: &[(&str, &str)]) -> (TempDir, Value) {
    let tmp = tempdir(tag);
    let classes = javac(tmp.path(), sources);
    let (_, report) = analyze_json(&[&classes]);
    (tmp, report)
}

/// `racer analyze --format json INPUT...`, which must exit with 0: the output and the report.
fn analyze_json(inputs: &[&Path]) -> (Output, Value) {
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"analyze", &"--format", &"json"];
    args.extend(inputs.iter().map(|p| p as &dyn AsRef<OsStr>));
    let out = racer(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    (out, report)
}

/// Builds a racy project and lets `spoil` add bad input to its classes directory, or as
/// further inputs that it returns; the run must exit with 0, warn about each of `needles`
/// and still report the race on Racy.
fn assert_bad_input_is_a_warning(tag: &str, needles: &[&str], spoil: impl FnOnce(&TempDir, &Path) -> Vec<PathBuf>) {
    let tmp = tempdir(tag);
    let classes = racy_project(&tmp);
    let extra = spoil(&tmp, &classes);
    let mut inputs = vec![classes.as_path()];
    inputs.extend(extra.iter().map(PathBuf::as_path));
    let (out, v) = analyze_json(&inputs);
    for needle in needles {
        assert_warned_about(&out, &v, needle);
    }
    assert_racy_reported(&v);
}

// ---- command line ---------------------------------------------------------------------

#[test]
fn version_and_help() {
    let out = racer(&[&"--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), format!("racer {}\n", env!("CARGO_PKG_VERSION")));
    for (args, usage) in [
        (&["help"][..], "Usage: racer <COMMAND>"),
        (&["--help"], "Usage: racer <COMMAND>"),
        (&["analyze", "--help"], "Usage: racer analyze [OPTIONS] <PATH>..."),
    ] {
        let args: Vec<&dyn AsRef<OsStr>> = args.iter().map(|a| a as _).collect();
        let out = racer(&args);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).contains(usage), "{}", stdout(&out));
    }
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let cases: [&[&str]; 7] = [
        &[],
        &["frobnicate"],
        &["analyze"],
        &["analyze", "--format", "xml", "x"],
        &["analyze", "--threads", "lots", "x"],
        &["analyze", "--no-such-option", "x"],
        &["analyze", "x", "--output"],
    ];
    for args in cases {
        let argv: Vec<&dyn AsRef<OsStr>> = args.iter().map(|a| a as _).collect();
        let out = racer(&argv);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("racer: error: "), "{args:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
}

/// Code handed to an executor: its write races with its other runs and with `read()` (thread
/// handoffs, an extension of the default mode).
const HANDED: &str = "import java.util.concurrent.Executor;\n\
class Handed {\n\
    private int count;\n\
    void start(Executor executor) {\n\
        executor.execute(() -> count++);\n\
    }\n\
    int read() {\n\
        return count;\n\
    }\n\
}\n";

#[test]
fn one_extension_is_turned_off_by_name() {
    let tmp = tempdir("without-extension");
    let classes = javac(tmp.path(), &[("Handed.java", HANDED)]);
    let lines = |extra: &[&str]| -> Vec<(String, u64)> {
        let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"analyze", &"--format", &"json"];
        args.extend(extra.iter().map(|a| a as &dyn AsRef<OsStr>));
        args.push(&classes);
        let out = racer(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let report = json(&out);
        report["issues"].as_array().unwrap().iter().map(|i| (i["method"].as_str().unwrap().to_string(), i["line"].as_u64().unwrap())).collect()
    };
    assert_eq!(lines(&[]), [("start".to_string(), 5), ("read".to_string(), 8)]);
    assert_eq!(lines(&["--without-extension", "thread-handoffs"]), []);
    // Another extension off leaves the handed race.
    assert_eq!(lines(&["--without-extension", "converged-loops"]).len(), 2);
    let out = racer(&[&"analyze", &"--without-extension", &"thread-handof", &classes]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("racer: error: no analysis extension is named `thread-handof` (known: "), "{err}");
}

// ---- report formats ---------------------------------------------------------------------

#[test]
fn json_output_has_the_report_schema() {
    let tmp = tempdir("json");
    let classes = racy_project(&tmp);
    let (_, v) = analyze_json(&[&classes]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for k in ["schema_version", "tool", "issues", "diagnostics"] {
        assert!(keys.contains(&k), "missing {k} in {keys:?}");
    }
    assert_eq!(v["tool"]["name"], "racer");
    assert_eq!(v["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(v["diagnostics"].as_array().unwrap().is_empty(), "{v:#}");
    for issue in v["issues"].as_array().unwrap() {
        for k in ["kind", "class", "method", "descriptor", "line", "source_file", "access_path", "message", "trace", "conflicts"] {
            assert!(issue.get(k).is_some(), "issue without {k}: {issue:#}");
        }
        assert!(issue["trace"].is_array() && issue["conflicts"].is_array());
        assert!(["THREAD_SAFETY_VIOLATION", "INTERFACE_NOT_THREAD_SAFE", "GUARDEDBY_VIOLATION"]
            .contains(&issue["kind"].as_str().unwrap()));
    }
}

#[test]
fn racy_class_is_reported() {
    let tmp = tempdir("racy");
    let classes = racy_project(&tmp);
    let out = racer(&[&"analyze", &"--format=json", &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_racy_reported(&v);
    assert_eq!(v["issues"].as_array().unwrap().len(), 1, "only Racy has a race: {v:#}");
}

#[test]
fn text_report_with_source_snippet() {
    let tmp = tempdir("text");
    let classes = racy_project(&tmp);
    let out = racer(&[&"analyze", &"--source-path", &tmp.join("src"), &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Racy.java:6: error: THREAD_SAFETY_VIOLATION\n"), "{text}");
    assert!(text.contains("6. >   void set() { n = 1; }"), "{text}");
    assert!(text.contains("at Racy.set(Racy.java:6)"), "{text}");
    assert!(text.ends_with("racer: 1 issue\n"), "{text}");
    assert!(!text.contains(&tmp.path().display().to_string()), "no absolute paths:\n{text}");
}

#[test]
fn sarif_and_html_reports() {
    let tmp = tempdir("sarif");
    let classes = racy_project(&tmp);
    let out = racer(&[&"analyze", &"--format", &"sarif", &"--source-path", &tmp.join("src"), &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains(&tmp.path().display().to_string()), "no absolute paths");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert!(v["$schema"].as_str().unwrap().contains("sarif"));
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "racer");
    assert_eq!(run["tool"]["driver"]["rules"].as_array().unwrap().len(), 3);
    let results = run["results"].as_array().unwrap();
    let racy = results.iter().find(|r| r["properties"]["class"] == "Racy").expect("a result on Racy");
    assert_eq!(racy["ruleId"], "THREAD_SAFETY_VIOLATION");
    let loc = &racy["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "Racy.java");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "SRCROOT");
    assert_eq!(loc["region"]["startLine"], 6);
    assert!(racy["partialFingerprints"]["racer/v1"].is_string());

    let out = racer(&[&"analyze", &"--format", &"html", &"--source-path", &tmp.join("src"), &classes]);
    let html = stdout(&out);
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert!(html.contains("<code>Racy.java:6</code>"), "{html}");
}

#[test]
fn output_is_written_to_a_file() {
    let tmp = tempdir("output");
    let classes = racy_project(&tmp);
    let target = tmp.join("reports/nested/racer.sarif");
    let out = racer(&[&"analyze", &"--format", &"sarif", &"--output", &target, &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "report went to the file, not stdout");
    let v: Value = serde_json::from_slice(&fs::read(&target).unwrap()).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert!(stderr(&out).contains("report written to"), "{}", stderr(&out));
    let leftovers = fs::read_dir(tmp.join("reports/nested")).unwrap().count();
    assert_eq!(leftovers, 1, "no temporary files left behind");

    let quiet = racer(&[&"analyze", &"--quiet", &"--format", &"json", &"--output", &target, &classes]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    let v: Value = serde_json::from_slice(&fs::read(&target).unwrap()).unwrap();
    assert_eq!(v["tool"]["name"], "racer");
}

#[test]
fn unwritable_output_is_an_error() {
    let tmp = tempdir("unwritable");
    let classes = racy_project(&tmp);
    fs::write(tmp.join("file"), "x").unwrap();
    let target = tmp.join("file/report.json");
    let out = racer(&[&"analyze", &"--format", &"json", &"--output", &target, &classes]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("racer: error: ") && err.contains("report.json"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn fail_on_issues_sets_the_exit_code() {
    let tmp = tempdir("fail");
    let classes = racy_project(&tmp);
    let out = racer(&[&"analyze", &"--fail-on-issues", &classes]);
    assert_eq!(out.status.code(), Some(1), "racy code with --fail-on-issues: {}", stderr(&out));
    let out = racer(&[&"analyze", &classes]);
    assert_eq!(out.status.code(), Some(0));

    let clean = tmp.join("clean");
    fs::create_dir_all(&clean).unwrap();
    fs::write(clean.join("Plain.class"), plain_class_bytes()).unwrap();
    let out = racer(&[&"analyze", &"--fail-on-issues", &clean]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "racer: no issues\n");
}

#[test]
fn output_is_deterministic() {
    let tmp = tempdir("determinism");
    let classes = racy_project(&tmp);
    // More classes than threads, so that a parallel run has something to reorder.
    let more = tempdir("determinism-src");
    let sources: Vec<(String, String)> = (0..8)
        .map(|i| {
            (
                format!("p{}/Racy{i}.java", i % 3),
                format!(
                    "package p{};\n@javax.annotation.concurrent.ThreadSafe\nclass Racy{i} {{\n  int a, b;\n  \
                     void w() {{ a = 1; b = a; }}\n  int r() {{ return a + b; }}\n}}\n",
                    i % 3
                ),
            )
        })
        .collect();
    let mut all: Vec<(&str, &str)> = sources.iter().map(|(p, s)| (p.as_str(), s.as_str())).collect();
    all.push(("javax/annotation/concurrent/ThreadSafe.java", THREAD_SAFE));
    let extra = javac(more.path(), &all);
    let src = more.join("src");
    for format in ["json", "sarif", "text", "html"] {
        let run = |threads: &str| {
            let out = racer(&[&"analyze", &"--format", &format, &"--threads", &threads, &"--source-path", &src, &classes, &extra]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            out.stdout
        };
        let first = run("1");
        assert_eq!(first, run("1"), "{format}: repeated runs differ");
        assert_eq!(first, run("2"), "{format}: --threads 1 and --threads 2 differ");
        assert_eq!(first, run("0"), "{format}: --threads 1 and --threads 0 differ");
    }
}

// ---- bad input ----------------------------------------------------------------------------

#[test]
fn truncated_class_is_a_warning() {
    assert_bad_input_is_a_warning("truncated", &["Plain.class"], |_, classes| {
        let bytes = plain_class_bytes();
        fs::write(classes.join("Plain.class"), &bytes[..bytes.len() / 2]).unwrap();
        vec![]
    });
}

#[test]
fn class_file_that_is_not_a_class_is_a_warning() {
    assert_bad_input_is_a_warning("notclass", &["X.class", "Empty.class"], |_, classes| {
        fs::write(classes.join("X.class"), "this is not a class file\n").unwrap();
        fs::write(classes.join("Empty.class"), "").unwrap();
        vec![]
    });
}

#[test]
fn unsupported_class_version_is_a_warning() {
    assert_bad_input_is_a_warning("version", &["Plain.class"], |_, classes| {
        let mut bytes = plain_class_bytes();
        bytes[6] = 0;
        bytes[7] = 70;
        fs::write(classes.join("Plain.class"), &bytes).unwrap();
        vec![]
    });
}

#[test]
fn corrupt_jar_is_a_warning() {
    assert_bad_input_is_a_warning("jar", &["broken.jar"], |tmp, _| {
        let jar = tmp.join("broken.jar");
        let mut bytes = b"PK\x03\x04".to_vec();
        bytes.extend([0xA5u8; 300]);
        fs::write(&jar, bytes).unwrap();
        vec![jar]
    });
}

#[test]
fn bad_entry_in_a_jar_is_a_warning() {
    assert_bad_input_is_a_warning("jar-entry", &["Cut.class"], |tmp, _| {
        let jar = tmp.join("mixed.jar");
        let file = fs::File::create(&jar).unwrap();
        let mut zip = zip::ZipWriter::new(file);
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("META-INF/MANIFEST.MF", options).unwrap();
        zip.write_all(b"Manifest-Version: 1.0\r\n\r\n").unwrap();
        let bytes = plain_class_bytes();
        zip.start_file("q/Cut.class", options).unwrap();
        zip.write_all(&bytes[..bytes.len() / 3]).unwrap();
        zip.finish().unwrap();
        vec![jar]
    });
}

/// A jar holding every class file below `classes`.
fn jar_of(classes: &Path, jar: &Path) {
    let mut zip = zip::ZipWriter::new(fs::File::create(jar).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for file in common::files_with_extension(classes, "class") {
        let name = file.strip_prefix(classes).unwrap().to_string_lossy().replace('\\', "/");
        zip.start_file(name, options).unwrap();
        zip.write_all(&fs::read(&file).unwrap()).unwrap();
    }
    zip.finish().unwrap();
}

/// Two jars with the same classes give one warning naming both jars (the first copy wins),
/// not one per class; a single class met twice is named alone.
#[test]
fn duplicate_classes_are_one_warning_per_pair_of_jars() {
    let tmp = tempdir("duplicates");
    let classes = tmp.join("classes");
    copy_tree(&compiled().join("classes"), &classes);
    let (first, second) = (tmp.join("first.jar"), tmp.join("second.jar"));
    jar_of(&classes, &first);
    jar_of(&classes, &second);
    let loose = tmp.join("loose");
    fs::create_dir_all(&loose).unwrap();
    fs::copy(classes.join("Plain.class"), loose.join("Plain.class")).unwrap();
    let (out, report) = analyze_json(&[&first, &second, &loose]);
    let warnings: Vec<String> = stderr(&out).lines().filter(|l| l.contains("duplicate")).map(String::from).collect();
    assert_eq!(
        warnings,
        [
            format!(
                "racer: warning: {}: duplicate class Plain (already read from {}!/Plain.class); this copy is ignored",
                loose.join("Plain.class").display(),
                first.display()
            ),
            format!(
                "racer: warning: {}: 3 duplicate classes (already read from {}); these copies are ignored: Plain, Racy, \
                 javax.annotation.concurrent.ThreadSafe",
                second.display(),
                first.display()
            ),
        ]
    );
    assert_eq!(report["diagnostics"].as_array().unwrap().len(), 2, "{report:#}");
    assert_racy_reported(&report);
}

/// Classes compiled without line numbers: their issues have no line, and one warning says so
/// for the whole run.
#[test]
fn classes_without_line_numbers_are_said_once() {
    let tmp = tempdir("lineless");
    let src = tmp.join("src");
    fs::create_dir_all(&src).unwrap();
    let sources: Vec<PathBuf> = [("Racy.java", RACY), ("Racy2.java", &RACY.replace("Racy", "Racy2"))]
        .iter()
        .map(|(name, text)| {
            let p = src.join(name);
            fs::write(&p, text).unwrap();
            p
        })
        .collect();
    let classes = tmp.join("classes");
    common::javac(&sources, &classes, &[compiled().join("classes")], &["-g:none"]).unwrap();
    let (out, report) = analyze_json(&[&classes]);
    let issues = report["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 2, "{report:#}");
    assert!(issues.iter().all(|i| i["line"].is_null()), "{report:#}");
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("racer: warning")).collect();
    assert_eq!(
        warnings,
        ["racer: warning: Racy: this class and 1 other(s) were compiled without line numbers (javac -g:none): \
          2 issue(s) are reported with no line, naming their method"]
    );
}

/// A library in a bundled jar: `@ThreadSafe`, racy itself (but a dependency's code, never
/// reported), and the reason its subclass in the archive's own classes is checked.
const BASE: &str = "\
package lib;
import javax.annotation.concurrent.ThreadSafe;
@ThreadSafe
public class Base {
  protected int hits;
  public void hit() { hits++; }
}
";

const WIDGET: &str = "\
package app;
public class Widget extends lib.Base {
  int n;
  public void set() { n = 1; }
}
";

/// A zip at `path` holding `entries` (name, bytes) in that order.
fn zip_of<N: AsRef<str>>(path: &Path, entries: &[(N, Vec<u8>)]) {
    let mut zip = zip::ZipWriter::new(fs::File::create(path).unwrap());
    for (name, bytes) in entries {
        zip.start_file(name.as_ref(), zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
}

/// The class files below `classes` as zip entries under `prefix`.
fn class_entries(classes: &Path, prefix: &str) -> Vec<(String, Vec<u8>)> {
    common::files_with_extension(classes, "class")
        .into_iter()
        .map(|f| (format!("{prefix}{}", f.strip_prefix(classes).unwrap().to_string_lossy().replace('\\', "/")), fs::read(&f).unwrap()))
        .collect()
}

/// An Android library (`.aar`), a web application (`.war`) and a Spring Boot jar: each is
/// analysed through the folder or nested jar holding its own classes, with the jars it bundles
/// (and a Spring Boot jar's launcher) as context, never reported on: the library's
/// `@ThreadSafe` makes its subclass checked. Alone, the archive's classes have nothing to
/// report. On the classpath, these archives and a JDK module (`.jmod`) give their classes by
/// name.
#[test]
fn packaged_archives_are_read_where_their_classes_are() {
    let tmp = tempdir("packaged");
    let lib_classes = tmp.join("lib-classes");
    common::javac(
        &[write_source(&tmp, "javax/annotation/concurrent/ThreadSafe.java", THREAD_SAFE), write_source(&tmp, "lib/Base.java", BASE)],
        &lib_classes,
        &[],
        &[],
    )
    .unwrap();
    let app_classes = tmp.join("app-classes");
    common::javac(&[write_source(&tmp, "app/Widget.java", WIDGET)], &app_classes, &[lib_classes.clone()], &[]).unwrap();
    let lib_jar = tmp.join("base.jar");
    jar_of(&lib_classes, &lib_jar);
    let app_jar = tmp.join("classes.jar");
    jar_of(&app_classes, &app_jar);
    let (lib_jar, app_jar) = (fs::read(&lib_jar).unwrap(), fs::read(&app_jar).unwrap());
    let manifest = b"<manifest package=\"app\"/>".to_vec();
    let aar = tmp.join("widget.aar");
    zip_of(&aar, &[("AndroidManifest.xml", manifest), ("classes.jar", app_jar), ("libs/base.jar", lib_jar.clone())]);
    // A Spring Boot jar's launcher is at its root: context too (here a class that would be
    // reported if it were analysed).
    let in_folder = |archive: &str, classes: &str, libs: &str, launcher: bool| {
        let path = tmp.join(archive);
        let mut entries: Vec<(String, Vec<u8>)> = vec![("META-INF/MANIFEST.MF".into(), b"Manifest-Version: 1.0\r\n\r\n".to_vec())];
        if launcher {
            entries.push(("Racy.class".into(), fs::read(compiled().join("classes/Racy.class")).unwrap()));
        }
        entries.extend(class_entries(&app_classes, classes));
        entries.push((format!("{libs}base.jar"), lib_jar.clone()));
        zip_of(&path, &entries);
        path
    };
    let war = in_folder("widget.war", "WEB-INF/classes/", "WEB-INF/lib/", false);
    let boot = in_folder("widget-boot.jar", "BOOT-INF/classes/", "BOOT-INF/lib/", true);
    for archive in [&aar, &war, &boot] {
        let (out, report) = analyze_json(&[archive]);
        let found: Vec<(&str, &str, &str, u64)> = report["issues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["class"].as_str().unwrap(), i["method"].as_str().unwrap(), i["access_path"].as_str().unwrap(), i["line"].as_u64().unwrap()))
            .collect();
        assert_eq!(found, [("app.Widget", "set", "this.n", 4)], "{}: {report:#}", archive.display());
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    }
    let (_, alone) = analyze_json(&[&app_classes]);
    assert_eq!(alone["issues"].as_array().unwrap().len(), 0, "{alone:#}");
    // On the classpath, an archive is context whole: its own classes, found under their class
    // root by their names, and the jars it bundles. A JDK module is its magic number, then a zip.
    for (archive, root) in [("lib.war", "WEB-INF/classes/"), ("lib-boot.jar", "BOOT-INF/classes/"), ("lib.jmod", "classes/")] {
        let path = tmp.join(archive);
        zip_of(&path, &class_entries(&lib_classes, root));
        if archive.ends_with(".jmod") {
            let zip = fs::read(&path).unwrap();
            fs::write(&path, [b"JM\x01\x00".as_slice(), &zip].concat()).unwrap();
        }
        for classpath in [&path, &aar] {
            let out = racer(&[&"analyze", &"--format", &"json", &"--classpath", classpath, &app_classes]);
            let report = json(&out);
            let issues = report["issues"].as_array().unwrap();
            assert_eq!(issues.len(), 1, "{}: {report:#}", classpath.display());
            assert_eq!((issues[0]["class"].as_str(), issues[0]["access_path"].as_str()), (Some("app.Widget"), Some("this.n")));
        }
    }
}

fn write_source(tmp: &TempDir, rel: &str, text: &str) -> PathBuf {
    let path = tmp.join("src").join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

/// An archive with no class anywhere racer looks, and an Android library whose bundled jar is
/// not a zip: each is a warning, and the rest is analysed.
#[test]
fn archives_with_nothing_to_read_are_warnings() {
    assert_bad_input_is_a_warning("no-classes", &["resources.jar", "broken.aar"], |tmp, _| {
        let jar = tmp.join("resources.jar");
        zip_of(&jar, &[("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\r\n\r\n".to_vec()), ("messages.properties", b"hello=Hello\n".to_vec())]);
        let plain = tmp.join("plain.jar");
        zip_of(&plain, &[("Plain.class", plain_class_bytes())]);
        let aar = tmp.join("broken.aar");
        zip_of(&aar, &[("classes.jar", fs::read(&plain).unwrap()), ("libs/broken.jar", vec![0xA5; 64])]);
        vec![jar, aar]
    });
    let tmp = tempdir("no-classes-message");
    let jar = tmp.join("resources.jar");
    zip_of(&jar, &[("messages.properties", b"hello=Hello\n".to_vec())]);
    let aar = tmp.join("broken.aar");
    zip_of(&aar, &[("classes.jar", vec![0xA5; 64])]);
    let out = racer(&[&"analyze", &jar, &aar]);
    let warnings: Vec<String> = stderr(&out).lines().filter(|l| l.starts_with("racer: warning")).map(String::from).collect();
    let none = "archive contains no class files (none at its root, in classes.jar, WEB-INF/classes or BOOT-INF/classes)";
    assert_eq!(warnings.len(), 3, "{warnings:#?}");
    assert_eq!(warnings[0], format!("racer: warning: {}: {none}", aar.display()));
    // The rest of the line is the zip library's reason.
    assert!(warnings[1].starts_with(&format!("racer: warning: {}: classes.jar: not a readable jar/zip file: ", aar.display())), "{warnings:#?}");
    assert_eq!(warnings[2], format!("racer: warning: {}: {none}", jar.display()));
}

#[test]
fn empty_directory_is_a_warning() {
    assert_bad_input_is_a_warning("empty", &["empty-dir"], |tmp, _| {
        let empty = tmp.join("empty-dir");
        fs::create_dir_all(&empty).unwrap();
        vec![empty]
    });
}

#[test]
fn missing_directory_is_an_error() {
    let tmp = tempdir("missing");
    let classes = racy_project(&tmp);
    let missing = tmp.join("no-such-dir");
    let out = racer(&[&"analyze", &"--format", &"json", &classes, &missing]);
    assert_eq!(out.status.code(), Some(2), "stdout:\n{}\nstderr:\n{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    assert!(err.starts_with("racer: error: "), "{err}");
    assert!(err.contains("no-such-dir"), "the message names the path: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn constant_dynamic_bootstrap_argument_does_not_stop_the_run() {
    // javac 21 output whose BootstrapMethods pass a CONSTANT_Dynamic as a static
    // argument (see tests/bad-input/README.md). The class may be analysed or skipped
    // with a warning, but nothing else may be lost.
    let tmp = tempdir("condy");
    let classes = racy_project(&tmp);
    let fixture = common::workspace_root().join("tests/bad-input/condy/Patterns21.class");
    fs::write(classes.join("Patterns21.class"), fs::read(&fixture).unwrap()).unwrap();
    let (out, v) = analyze_json(&[&classes]);
    let diagnostics = v["diagnostics"].as_array().unwrap();
    for d in diagnostics {
        assert!(d["file"].as_str().unwrap().contains("Patterns21"), "unexpected diagnostic {d}");
    }
    if !diagnostics.is_empty() {
        assert_warned_about(&out, &v, "Patterns21.class");
    }
    assert_racy_reported(&v);
}

#[test]
fn parser_panic_is_one_warning_line() {
    // Mutated classes on which the class-file parser panics (tests/bad-input/README.md):
    // each is one warning line naming it, with no panic message or backtrace, even when
    // Rust's own backtrace variable is set.
    let tmp = tempdir("parser-panic");
    let classes = racy_project(&tmp);
    let dir = common::workspace_root().join("tests/bad-input/parser-panic");
    let mut names: Vec<String> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names.len(), 3);
    for name in &names {
        fs::copy(dir.join(name), classes.join(name)).unwrap();
    }
    let out = Command::new(RACER)
        .args([OsStr::new("analyze"), OsStr::new("--format"), OsStr::new("json"), classes.as_os_str()])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), names.len(), "one line per bad class expected:\n{err}");
    for (line, name) in lines.iter().zip(&names) {
        assert!(line.starts_with("racer: warning: ") && line.contains(name.as_str()), "{line}");
        assert!(line.ends_with("malformed or truncated class file: Attempting to get utf-8 data from non-utf8 constant pool entry!"), "{line}");
    }
    assert_racy_reported(&report);
}

#[test]
fn analyze_request_speaks_the_plugin_documents() {
    let tmp = tempdir("analyze-request");
    let classes = racy_project(&tmp);
    let request = serde_json::json!({ "request_version": racer::api::REQUEST_VERSION, "inputs": [classes] }).to_string();
    let run = |args: &[&str], stdin: &str| {
        let mut child = Command::new(RACER)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let out = run(&["analyze-request"], &request);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_racy_reported(&json(&out));

    let file = tmp.join("request.json");
    fs::write(&file, &request).unwrap();
    let out = run(&["analyze-request", file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_racy_reported(&json(&out));

    let out = run(&["analyze-request"], "{\"request_version\": 1, \"bogus\": 2}");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.starts_with("racer: error: malformed analysis request: unknown field `bogus`") && err.lines().count() == 1, "{err}");
}

#[test]
fn warnings_can_be_silenced() {
    let tmp = tempdir("quiet");
    let classes = racy_project(&tmp);
    fs::write(classes.join("X.class"), "junk").unwrap();
    let out = racer(&[&"analyze", &"--quiet", &"--format", &"json", &classes]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(!json(&out)["diagnostics"].as_array().unwrap().is_empty(), "still in the report");
}

/// A static field left unprotected under a monitor of `this` looks locked in the code: the
/// message says why it is not, and only there (a static race under no lock at all has no note).
#[test]
fn message_explains_a_static_field_under_the_monitor_of_this() {
    let (_tmp, report) = report_of_sources(
        "own-monitor",
        &[(
            "m/Counters.java",
            "package m;\n\
             class UnderOwnMonitor { static int sCount; synchronized void inc() { sCount++; } }\n\
             class Unlocked { static int sCount; void inc() { synchronized (this) {} sCount++; } }\n",
        )],
    );
    let messages: Vec<(String, String)> = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["class"].as_str().unwrap().to_string(), i["message"].as_str().unwrap().to_string()))
        .collect();
    let note = "The only locks held are monitors of `this`";
    let of = |class: &str| messages.iter().filter(|(c, _)| c == class).map(|(_, m)| m).collect::<Vec<_>>();
    assert!(!of("m.UnderOwnMonitor").is_empty() && of("m.UnderOwnMonitor").iter().all(|m| m.contains(note)), "{messages:?}");
    assert!(!of("m.Unlocked").is_empty() && of("m.Unlocked").iter().all(|m| !m.contains(note)), "{messages:?}");
}

/// A container read by a constructor it is given (`new ArrayList<>(items)`) is named as Java
/// writes the call, in the message and in the trace; a method call keeps its name.
#[test]
fn container_calls_are_named_as_written() {
    let (_tmp, report) = report_of_sources(
        "container-calls",
        &[(
            "c/Log.java",
            "package c;\n\
             import java.util.*;\n\
             class Log {\n\
               private final List<String> items = new ArrayList<>();\n\
               synchronized void add(String s) { items.add(s); }\n\
               List<String> copy() { return new ArrayList<>(items); }\n\
               int size() { return items.size(); }\n\
             }\n",
        )],
    );
    let by_method = |name: &str| -> (String, String) {
        let issue = report["issues"].as_array().unwrap().iter().find(|i| i["method"] == name).unwrap_or_else(|| panic!("{report:#}"));
        let last = issue["trace"].as_array().unwrap().last().unwrap();
        (issue["message"].as_str().unwrap().to_string(), last["description"].as_str().unwrap().to_string())
    };
    let (message, step) = by_method("copy");
    assert!(message.contains("reads without synchronization from container `this.items` via call to `new ArrayList`."), "{message}");
    assert_eq!(step, "read of container `this.items` via call to `new ArrayList`");
    let (message, step) = by_method("size");
    assert!(message.contains("container `this.items` via call to `size`."), "{message}");
    assert_eq!(step, "read of container `this.items` via call to `size`");
}

/// An iteration of a synchronized view without its lock: the message says what to hold, and
/// the conflicting write holds the view's own lock.
#[test]
fn iterating_a_synchronized_view_says_which_lock_to_hold() {
    let (_tmp, report) = report_of_sources(
        "sync-view",
        &[
            ("v/ThreadSafe.java", "package v;\n@interface ThreadSafe {}\n"),
            (
            "v/Names.java",
            "package v;\n\
             import java.util.*;\n\
             @ThreadSafe\n\
             class Names {\n\
               private final List<String> names = Collections.synchronizedList(new ArrayList<>());\n\
               void add(String s) { names.add(s); }\n\
               int total() { int t = 0; for (String n : names) { t += n.length(); } return t; }\n\
             }\n",
            ),
        ],
    );
    let issues = report["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 1, "{report:#}");
    let message = issues[0]["message"].as_str().unwrap();
    assert!(message.contains("iterates synchronized view `this.names` via call to `iterator` without holding its lock"), "{message}");
    assert!(message.contains("hold `synchronized (this.names)` while iterating"), "{message}");
    let conflict = &issues[0]["conflicts"][0];
    assert_eq!((conflict["method"].as_str(), conflict["locked"].as_bool()), (Some("add"), Some(true)), "{report:#}");
}

#[test]
fn trace_steps_in_another_file_name_that_file() {
    let tmp = tempdir("trace-files");
    let classes = javac(
        tmp.path(),
        &[
            ("javax/annotation/concurrent/ThreadSafe.java", THREAD_SAFE),
            (
                "m/Account.java",
                "package m;\n\
                 @javax.annotation.concurrent.ThreadSafe\n\
                 public class Account {\n\
                   int balance;\n\
                   public synchronized int get() { return balance; }\n\
                   public void deposit(int n) { Ledger.add(this, n); }\n\
                 }\n",
            ),
            // A top-level class in a file named otherwise, as a Kotlin file's functions are.
            ("m/Books.java", "package m;\n\nclass Ledger {\n  static void add(Account a, int n) { a.balance += n; }\n}\n"),
        ],
    );
    let (_, report) = analyze_json(&[&classes]);
    let issue = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["method"] == "deposit" && i["access_path"] == "this.balance")
        .unwrap_or_else(|| panic!("deposit's race: {report}"));
    let trace = issue["trace"].as_array().unwrap();
    let steps: Vec<(&str, Option<&str>)> =
        trace.iter().map(|t| (t["class"].as_str().unwrap(), t.get("source_file").and_then(|f| f.as_str()))).collect();
    assert_eq!(steps.first(), Some(&("m.Account", None)), "the issue's own file is not repeated: {steps:?}");
    assert_eq!(steps.last(), Some(&("m.Ledger", Some("Books.java"))), "{steps:?}");

    let out = racer(&[&"analyze", &"--format", &"sarif", &"--source-path", &tmp.join("src"), &classes]);
    let sarif = json(&out);
    let uris: Vec<String> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["codeFlows"][0]["threadFlows"][0]["locations"].as_array().cloned().unwrap_or_default())
        .map(|l| l["location"]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(uris.iter().any(|u| u == "m/Books.java"), "{uris:?}");
    assert!(!uris.iter().any(|u| u == "m/Ledger.java"), "no guessed file: {uris:?}");
}

/// `RACER_TIMINGS=1` (read by `bench/run.sh`): one line per phase on stderr, each with the
/// wall time since the run started and the process's CPU time, in the order the phases end.
#[test]
fn timings_give_wall_and_cpu_time_per_phase() {
    let tmp = tempdir("timings");
    let classes = racy_project(&tmp);
    let report = tmp.join("r.json");
    let out = Command::new(RACER)
        .args([OsStr::new("analyze"), OsStr::new("--quiet"), OsStr::new("--format"), OsStr::new("json"), OsStr::new("--output")])
        .arg(&report)
        .arg(&classes)
        .env("RACER_TIMINGS", "1")
        .output()
        .unwrap();
    let err = stderr(&out);
    let phases: Vec<&str> = err.lines().filter(|l| l.starts_with("racer: timing: ") && !l.starts_with("racer: timing:   ")).collect();
    let names: Vec<&str> = phases.iter().map(|l| l["racer: timing: ".len()..].split(':').next().unwrap()).collect();
    assert_eq!(names, ["read+parse", "classpath+hierarchy", "summaries", "reporting and summary file"], "{err}");
    for line in phases {
        let rest = line.rsplit_once(": ").unwrap().1;
        let (wall, cpu) = rest.split_once("s, cpu ").unwrap_or_else(|| panic!("no cpu time in {line:?}"));
        let cpu = cpu.split_once('s').unwrap().0;
        assert!(wall.parse::<f64>().is_ok() && cpu.parse::<f64>().is_ok(), "{line:?}");
        // Wall time to a tenth of a millisecond: the benchmark divides by load times of a few.
        assert_eq!(wall.split_once('.').map(|(_, decimals)| decimals.len()), Some(4), "{line:?}");
    }
}

const SAME_CALL_SOURCE: &str = "package s;\n\
             import java.util.*;\n\
             class ResetAll { int a; int b; final List<String> list = new ArrayList<>();\n\
               private void clearAll() { a = 0; b = 0; list.clear(); }\n\
               void reset() { synchronized (this) {} clearAll(); }\n\
               synchronized int sum() { return a + b + list.size(); }\n\
             }\n\
             class ResetOne { int a; int b;\n\
               private void clearA() { a = 0; }\n\
               void reset() { synchronized (this) {} clearA(); }\n\
               synchronized int sum() { return a + b; }\n\
             }\n";

/// A call line keeps one report (RacerD's one per method and line), which names the other
/// locations the call races on, so that none is hidden; a call reaching one location says
/// nothing more.
#[test]
fn a_call_line_names_every_location_it_races_on() {
    let (_tmp, report) = report_of_sources(
        "same-call",
        &[(
            "s/Resets.java",
            SAME_CALL_SOURCE,
        )],
    );
    let resets: Vec<(String, String, String)> = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["method"] == "reset")
        .map(|i| (i["class"].as_str().unwrap().to_string(), i["access_path"].as_str().unwrap().to_string(), i["message"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(resets.len(), 2, "{resets:?}");
    let (class, path, message) = &resets[0];
    assert_eq!((class.as_str(), path.as_str()), ("s.ResetAll", "this.a"), "{resets:?}");
    assert!(message.ends_with(" The same call also races on `this.b` and `this.list`."), "{message}");
    let (class, path, message) = &resets[1];
    assert_eq!((class.as_str(), path.as_str()), ("s.ResetOne", "this.a"), "{resets:?}");
    assert!(!message.contains("also races on"), "{message}");
    // `--racerd-compat` keeps the reference's messages.
    let tmp = tempdir("same-call-compat");
    let classes = javac(tmp.path(), &[("s/Resets.java", SAME_CALL_SOURCE)]);
    let out = racer(&[&"analyze", &"--format", &"json", &"--racerd-compat", &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let compat = json(&out);
    let issues = compat["issues"].as_array().unwrap();
    assert!(issues.iter().any(|i| i["method"] == "reset"), "{compat}");
    assert!(issues.iter().all(|i| !i["message"].as_str().unwrap().contains("also races on")), "{compat}");
}
