//! End-to-end tests of what a team needs to adopt racer on existing code: baselines,
//! in-code suppression, filter files, class globs and the grouped console text. Java
//! fixtures are compiled with `javac -g` at test time; each test edits and recompiles
//! them the way a developer would.

mod common;

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use common::TempDir;

const RACER: &str = env!("CARGO_BIN_EXE_racer");

const THREAD_SAFE: &str = "\
package javax.annotation.concurrent;
import java.lang.annotation.*;
@Retention(RetentionPolicy.CLASS)
public @interface ThreadSafe {}
";

/// Our own annotation, as published in `dev.racer:racer-annotations`.
const SUPPRESS_RACE: &str = "\
package dev.racer.annotations;
import java.lang.annotation.*;
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.CONSTRUCTOR})
public @interface SuppressRace {
  String value() default \"racer\";
  String reason() default \"\";
}
";

/// A same-named annotation from another package (as Android's, CLASS retention).
const SUPPRESS_LINT: &str = "\
package android.annotation;
import java.lang.annotation.*;
@Retention(RetentionPolicy.CLASS)
public @interface SuppressLint { String[] value(); }
";

fn tempdir(tag: &str) -> TempDir {
    TempDir::new(&format!("racer-adopt-{tag}")).keep_on_panic()
}

/// Writes `(relative path, source)` pairs under `<dir>/src` (replacing earlier ones) and
/// compiles all of them into a fresh `<dir>/classes`.
fn compile(dir: &Path, sources: &[(&str, &str)]) -> PathBuf {
    let src = dir.join("src");
    for (rel, text) in sources {
        let p = src.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
    }
    let classes = dir.join("classes");
    let _ = fs::remove_dir_all(&classes);
    let mut files = common::java_files(&src);
    files.sort();
    common::javac(&files, &classes, &[], &[]).unwrap_or_else(|e| panic!("{e}"));
    classes
}

fn with_annotations<'a>(sources: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = vec![
        ("javax/annotation/concurrent/ThreadSafe.java", THREAD_SAFE),
        ("dev/racer/annotations/SuppressRace.java", SUPPRESS_RACE),
        ("android/annotation/SuppressLint.java", SUPPRESS_LINT),
    ];
    all.extend_from_slice(sources);
    all
}

fn racer(args: &[&dyn AsRef<OsStr>]) -> Output {
    let out = Command::new(RACER).env("RACER_NO_PROGRESS", "1").args(args.iter().map(|a| a.as_ref())).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "racer panicked:\n{err}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Runs `racer analyze --format json EXTRA... CLASSES` expecting exit status `code`.
fn json_run(classes: &Path, extra: &[&dyn AsRef<OsStr>], code: i32) -> Value {
    let mut args: Vec<&dyn AsRef<OsStr>> = vec![&"analyze", &"--format", &"json"];
    args.extend_from_slice(extra);
    args.push(&classes);
    let out = racer(&args);
    assert_eq!(out.status.code(), Some(code), "stderr:\n{}\nstdout:\n{}", stderr(&out), stdout(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `Class.method this.path baseline [suppressed-by value reason]` per issue, sorted.
fn summary(report: &Value) -> Vec<String> {
    let mut lines: Vec<String> = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let mut line = format!(
                "{}.{} {} {}",
                i["class"].as_str().unwrap(),
                i["method"].as_str().unwrap(),
                i["access_path"].as_str().unwrap(),
                i["baseline"].as_str().unwrap()
            );
            if let Some(s) = i["suppressed"].as_object() {
                line.push_str(&format!(" @{} {} {}", s["annotation"].as_str().unwrap(), s["value"].as_str().unwrap(), s["reason"]));
            }
            line
        })
        .collect();
    lines.sort();
    lines
}

fn counts(report: &Value) -> [u64; 5] {
    let c = &report["counts"];
    ["total", "new", "baselined", "suppressed", "stale_baseline_entries"].map(|k| c[k].as_u64().unwrap())
}

// ---- baseline -----------------------------------------------------------------------------

const ACCOUNT_V1: &str = "\
import javax.annotation.concurrent.ThreadSafe;

@ThreadSafe
class Account {
  int balance;
  int fees;

  void deposit(int amount) {
    int current = balance;
    balance = current + amount;
  }

  void charge() { fees = fees + 1; }
}
";

/// Lines inserted above, `deposit` moved below a new safe method, its local renamed.
const ACCOUNT_V2: &str = "\
import javax.annotation.concurrent.ThreadSafe;

// A comment
// that pushes
// everything down.
@ThreadSafe
class Account {
  int balance;
  int fees;
  private final Object lock = new Object();

  synchronized int audit() {
    return 42;
  }

  void charge() { fees = fees + 1; }

  void deposit(int amount) {

    int previous = balance;
    balance = previous + amount;
  }
}
";

/// V2 plus a race on a new field.
const ACCOUNT_V3: &str = "\
import javax.annotation.concurrent.ThreadSafe;

// A comment
// that pushes
// everything down.
@ThreadSafe
class Account {
  int balance;
  int fees;
  int overdrafts;
  private final Object lock = new Object();

  synchronized int audit() {
    return 42;
  }

  void charge() { fees = fees + 1; }

  void deposit(int amount) {

    int previous = balance;
    balance = previous + amount;
  }

  void overdraw() { overdrafts = overdrafts + 1; }
}
";

/// `charge` fixed: its baseline entries no longer occur.
const ACCOUNT_V4: &str = "\
import javax.annotation.concurrent.ThreadSafe;

@ThreadSafe
class Account {
  int balance;
  int fees;

  void deposit(int amount) {
    int current = balance;
    balance = current + amount;
  }

  synchronized void charge() { fees = fees + 1; }
}
";

/// The baseline with each fingerprint's hash replaced by `H`.
fn masked(baseline: &str) -> String {
    let mut out = String::new();
    let mut rest = baseline;
    while let Some(i) = rest.find("\"fingerprint\":\"") {
        let start = i + "\"fingerprint\":\"".len();
        out.push_str(&rest[..start]);
        out.push('H');
        rest = &rest[start + 16..];
    }
    out.push_str(rest);
    out
}

#[test]
fn baseline_round_trip() {
    let tmp = tempdir("baseline");
    let classes = compile(tmp.path(), &with_annotations(&[("Account.java", ACCOUNT_V1)]));
    let baseline = tmp.join("config/racer-baseline.json");

    let v1 = json_run(&classes, &[&"--write-baseline", &baseline], 0);
    let written = fs::read_to_string(&baseline).unwrap();
    assert_eq!(
        masked(&written),
        "{\n  \"racer_baseline\": 1,\n  \
         \"regenerate\": \"racer analyze --write-baseline FILE ... | gradle racerBaseline | mvn racer:baseline\",\n  \
         \"issues\": [\n    \
         {\"fingerprint\":\"H:1\",\"kind\":\"THREAD_SAFETY_VIOLATION\",\"class\":\"Account\",\"method\":\"charge\",\"access_path\":\"this.fees\"},\n    \
         {\"fingerprint\":\"H:1\",\"kind\":\"THREAD_SAFETY_VIOLATION\",\"class\":\"Account\",\"method\":\"deposit\",\"access_path\":\"this.balance\"},\n    \
         {\"fingerprint\":\"H:2\",\"kind\":\"THREAD_SAFETY_VIOLATION\",\"class\":\"Account\",\"method\":\"deposit\",\"access_path\":\"this.balance\"}\n  \
         ]\n}\n",
        "{written}"
    );
    assert!(!written.contains(&tmp.path().display().to_string()), "no absolute paths");
    assert_eq!(counts(&v1), [3, 3, 0, 0, 0]);
    assert!(v1["issues"].as_array().unwrap().iter().all(|i| i["baseline"] == "new" && i["suppressed"].is_null()));

    // Same code: everything is baselined, and writing the baseline again gives the same bytes.
    let again = json_run(&classes, &[&"--baseline", &baseline, &"--fail-on-issues", &"--write-baseline", &tmp.join("b2.json")], 0);
    assert_eq!(counts(&again), [3, 0, 3, 0, 0]);
    assert_eq!(fs::read_to_string(tmp.join("b2.json")).unwrap(), written);

    // Lines inserted above, code moved, a local renamed: still baselined.
    let classes = compile(tmp.path(), &[("Account.java", ACCOUNT_V2)]);
    let v2 = json_run(&classes, &[&"--baseline", &baseline, &"--fail-on-issues"], 0);
    assert_eq!(
        summary(&v2),
        [
            "Account.charge this.fees unchanged",
            "Account.deposit this.balance unchanged",
            "Account.deposit this.balance unchanged",
        ]
    );
    let lines: Vec<u64> = v2["issues"].as_array().unwrap().iter().map(|i| i["line"].as_u64().unwrap()).collect();
    assert!(lines.iter().all(|&l| l >= 16), "the fixture did move the code: {lines:?}");

    // A new race fails the build; the baselined ones do not count.
    let classes = compile(tmp.path(), &[("Account.java", ACCOUNT_V3)]);
    let v3 = json_run(&classes, &[&"--baseline", &baseline, &"--fail-on-issues"], 1);
    assert_eq!(counts(&v3), [4, 1, 3, 0, 0]);
    assert_eq!(summary(&v3).iter().filter(|l| l.ends_with(" new")).collect::<Vec<_>>(), ["Account.overdraw this.overdrafts new"]);
    let console = racer(&[&"analyze", &"--baseline", &baseline, &classes]);
    assert_eq!(console.status.code(), Some(0));
    let text = stdout(&console);
    assert!(text.ends_with("racer: 4 issues: 1 new, 3 baselined, 0 suppressed\n"), "{text}");
    assert_eq!(text.matches(": error: ").count(), 1, "only new issues in full:\n{text}");
    assert!(text.contains("    Account.balance: 2 reports in 1 method (2 baselined)\n"), "{text}");
    let sarif = racer(&[&"analyze", &"--format", &"sarif", &"--baseline", &baseline, &classes]);
    let sarif: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let mut states: Vec<&str> =
        sarif["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["baselineState"].as_str().unwrap()).collect();
    states.sort();
    assert_eq!(states, ["new", "unchanged", "unchanged", "unchanged"]);

    // Fixed issues leave stale entries: counted and pointed out, never an error.
    let classes = compile(tmp.path(), &[("Account.java", ACCOUNT_V4)]);
    let out = racer(&[&"analyze", &"--baseline", &baseline, &"--fail-on-issues", &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with(
            "racer: 2 issues: 0 new, 2 baselined, 0 suppressed\n\
             racer: 1 baseline entry no longer occurs; regenerate the baseline to shrink it \
             (racer analyze --write-baseline FILE, gradle racerBaseline, mvn racer:baseline)\n"
        ),
        "{}",
        stdout(&out)
    );
    let v4 = json_run(&classes, &[&"--baseline", &baseline], 0);
    assert_eq!(counts(&v4), [2, 0, 2, 0, 1]);
}

#[test]
fn bad_baseline_or_filter_is_a_one_line_error() {
    let tmp = tempdir("bad-baseline");
    let classes = compile(tmp.path(), &with_annotations(&[("Account.java", ACCOUNT_V1)]));
    fs::write(tmp.join("corrupt.json"), "{\"racer_baseline\": 1, \"issues\": [").unwrap();
    fs::write(tmp.join("filter.json"), "{\"exclude\": [{\"clas\": \"a.*\"}]}").unwrap();
    for (option, file, needle) in [
        ("--baseline", "corrupt.json", "invalid baseline file "),
        ("--baseline", "missing.json", "cannot read baseline file "),
        ("--filter", "filter.json", "invalid filter file "),
    ] {
        let path = tmp.join(file);
        let out = racer(&[&"analyze", &option, &path, &classes]);
        assert_eq!(out.status.code(), Some(2), "{option} {file}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("racer: error: ") && err.contains(needle) && err.contains(file), "{err}");
        assert!(out.stdout.is_empty());
    }
}

// ---- suppression ----------------------------------------------------------------------------

/// Racy and suppressed variants side by side: each class has one access the
/// annotation covers and one it does not.
const SUPPRESSIONS: &[(&str, &str)] = &[
    (
        "s/OnMethod.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
import dev.racer.annotations.SuppressRace;
@ThreadSafe
public class OnMethod {
  int a, b, c;
  @SuppressRace(reason = \"single writer thread\") public void quiet() { a = 1; }
  @SuppressRace(\"GUARDEDBY_VIOLATION\") public void otherKind() { b = 1; }
  public void loud() { c = 1; }
}
",
    ),
    (
        "s/LintOnMethod.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
import android.annotation.SuppressLint;
@ThreadSafe
public class LintOnMethod {
  int a, b, c;
  @SuppressLint(\"thread_safety_violation\") public void quiet() { a = 1; }
  @SuppressLint({\"NewApi\", \"all\"}) public void quietToo() { b = 1; }
  @SuppressLint(\"NewApi\") public void loud() { c = 1; }
}
",
    ),
    (
        "s/OnClass.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
import dev.racer.annotations.SuppressRace;
@ThreadSafe
@SuppressRace(reason = \"legacy\")
public class OnClass {
  int a;
  public void set() { a = 1; }
  @ThreadSafe
  public static class Nested {
    int b;
    public void set() { b = 1; }
    @ThreadSafe
    public class Deeper { int c; public void set() { c = 1; } }
  }
}
",
    ),
    (
        "s/LintOnClass.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
import android.annotation.SuppressLint;
@ThreadSafe
@SuppressLint(\"racer\")
public class LintOnClass {
  int a;
  public void set() { a = 1; }
  @ThreadSafe
  public static class Nested { int b; public void set() { b = 1; } }
}
",
    ),
    (
        "s/Unsuppressed.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
@ThreadSafe
public class Unsuppressed {
  int a;
  public void set() { a = 1; }
  @ThreadSafe
  public static class Nested { int b; public void set() { b = 1; } }
}
",
    ),
    (
        "s/OnField.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
import dev.racer.annotations.SuppressRace;
import android.annotation.SuppressLint;
@ThreadSafe
public class OnField {
  @SuppressRace(reason = \"benign counter\") int hits;
  @SuppressLint(\"racer\") int misses;
  int loud;
  public void touchHits() { hits = 1; }
  public void touchMisses() { misses = 2; }
  public void touchLoud() { loud = 3; }
}
",
    ),
    (
        "s/Other.java",
        "package s;
import javax.annotation.concurrent.ThreadSafe;
@ThreadSafe
public class Other {
  public void pokeHits(OnField f) { f.hits = 4; }
  public void pokeLoud(OnField f) { f.loud = 5; }
}
",
    ),
];

#[test]
fn suppression_on_methods_classes_and_fields() {
    let tmp = tempdir("suppress");
    let classes = compile(tmp.path(), &with_annotations(SUPPRESSIONS));
    let v = json_run(&classes, &[&"--fail-on-issues"], 1);
    assert_eq!(
        summary(&v),
        [
            "s.LintOnClass$Nested.set this.b new @SuppressLint racer null",
            "s.LintOnClass.set this.a new @SuppressLint racer null",
            "s.LintOnMethod.loud this.c new",
            "s.LintOnMethod.quiet this.a new @SuppressLint thread_safety_violation null",
            "s.LintOnMethod.quietToo this.b new @SuppressLint all null",
            "s.OnClass$Nested$Deeper.set this.c new @SuppressRace racer \"legacy\"",
            "s.OnClass$Nested.set this.b new @SuppressRace racer \"legacy\"",
            "s.OnClass.set this.a new @SuppressRace racer \"legacy\"",
            "s.OnField.touchHits this.hits new @SuppressRace racer \"benign counter\"",
            "s.OnField.touchLoud this.loud new",
            "s.OnField.touchMisses this.misses new @SuppressLint racer null",
            "s.OnMethod.loud this.c new",
            "s.OnMethod.otherKind this.b new",
            "s.OnMethod.quiet this.a new @SuppressRace racer \"single writer thread\"",
            "s.Other.pokeHits f.hits new @SuppressRace racer \"benign counter\"",
            "s.Other.pokeLoud f.loud new",
            "s.Unsuppressed$Nested.set this.b new",
            "s.Unsuppressed.set this.a new",
        ]
    );
    assert_eq!(counts(&v), [18, 7, 0, 11, 0]);

    let sarif = racer(&[&"analyze", &"--format", &"sarif", &classes]);
    let sarif: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let quiet = results.iter().find(|r| r["properties"]["class"] == "s.OnMethod" && r["properties"]["method"] == "quiet").unwrap();
    assert_eq!(quiet["suppressions"], serde_json::json!([{"kind": "inSource", "justification": "single writer thread"}]));
    let lint = results.iter().find(|r| r["properties"]["class"] == "s.LintOnClass").unwrap();
    assert_eq!(lint["suppressions"], serde_json::json!([{"kind": "inSource"}]));
    assert!(results.iter().filter(|r| r.get("suppressions").is_some()).count() == 11);
    assert!(results.iter().all(|r| r.get("baselineState").is_none()), "no baseline given");

    // Suppressed issues do not fail a build; the baseline leaves them out.
    let quiet_only = compile(&tmp.join("quiet"), &with_annotations(&SUPPRESSIONS[..4]));
    let baseline = tmp.join("b.json");
    let v = json_run(&quiet_only, &[&"--fail-on-issues", &"--filter", &write_filter(&tmp, r#"{"exclude":[{"method":"loud"},{"method":"otherKind"}]}"#), &"--write-baseline", &baseline], 0);
    assert_eq!(counts(&v), [8, 0, 0, 8, 0]);
    assert!(fs::read_to_string(&baseline).unwrap().contains("\"issues\": []"));
}

fn write_filter(tmp: &TempDir, text: &str) -> PathBuf {
    let path = tmp.join(format!("filter-{}.json", text.len()));
    fs::write(&path, text).unwrap();
    path
}

// ---- filters and globs ----------------------------------------------------------------------

const PACKAGES: &[(&str, &str)] = &[
    ("app/core/Service.java", "package app.core;\n@javax.annotation.concurrent.ThreadSafe\npublic class Service {\n  int count, cache;\n  public void hit() { count = 1; }\n  public void fill() { cache = 1; }\n}\n"),
    ("app/gen/Generated.java", "package app.gen;\n@javax.annotation.concurrent.ThreadSafe\npublic class Generated {\n  int count;\n  public void hit() { count = 1; }\n}\n"),
    ("app/gen/deep/Deeper.java", "package app.gen.deep;\n@javax.annotation.concurrent.ThreadSafe\npublic class Deeper {\n  int count;\n  public void hit() { count = 1; }\n}\n"),
];

fn classes_of(report: &Value) -> Vec<String> {
    summary(report).into_iter().map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" ")).collect()
}

#[test]
fn filters_include_and_exclude() {
    let tmp = tempdir("filters");
    let classes = compile(tmp.path(), &with_annotations(PACKAGES));
    let all = json_run(&classes, &[], 0);
    assert_eq!(
        classes_of(&all),
        ["app.core.Service.fill this.cache", "app.core.Service.hit this.count", "app.gen.Generated.hit this.count", "app.gen.deep.Deeper.hit this.count"]
    );
    for (filter, expected) in [
        (r#"{"exclude":[{"class":"app.gen.*"}]}"#, &["app.core.Service.fill this.cache", "app.core.Service.hit this.count", "app.gen.deep.Deeper.hit this.count"][..]),
        (r#"{"exclude":[{"class":"app.gen.**","kind":"THREAD_SAFETY_VIOLATION"}]}"#, &["app.core.Service.fill this.cache", "app.core.Service.hit this.count"]),
        (r#"{"include":[{"field":"count"}],"exclude":[{"class":"app.core.*","method":"hit"}]}"#, &["app.gen.Generated.hit this.count", "app.gen.deep.Deeper.hit this.count"]),
        (r#"{"include":[{"class":"app.core.Service"},{"class":"**.Deeper"}]}"#, &["app.core.Service.fill this.cache", "app.core.Service.hit this.count", "app.gen.deep.Deeper.hit this.count"]),
        (r#"{"exclude":[{"kind":"GUARDEDBY_VIOLATION"}]}"#, &["app.core.Service.fill this.cache", "app.core.Service.hit this.count", "app.gen.Generated.hit this.count", "app.gen.deep.Deeper.hit this.count"]),
    ] {
        let path = write_filter(&tmp, filter);
        let v = json_run(&classes, &[&"--filter", &path], 0);
        assert_eq!(classes_of(&v), expected, "{filter}");
        assert_eq!(counts(&v)[0], expected.len() as u64, "filtered issues are not counted");
    }
}

#[test]
fn ignore_class_globs() {
    let tmp = tempdir("globs");
    let classes = compile(tmp.path(), &with_annotations(PACKAGES));
    for (globs, expected) in [
        (&["app.gen.*"][..], &["app.core.Service.fill this.cache", "app.core.Service.hit this.count", "app.gen.deep.Deeper.hit this.count"][..]),
        (&["app.gen.**"], &["app.core.Service.fill this.cache", "app.core.Service.hit this.count"]),
        (&["app.core.Service", "**.Deep*"], &["app.gen.Generated.hit this.count"]),
        (&["app.*.Service"], &["app.gen.Generated.hit this.count", "app.gen.deep.Deeper.hit this.count"]),
    ] {
        let mut args: Vec<&dyn AsRef<OsStr>> = Vec::new();
        for g in globs {
            args.push(&"--ignore-class");
            args.push(g);
        }
        let v = json_run(&classes, &args, 0);
        assert_eq!(classes_of(&v), expected, "{globs:?}");
    }
    let out = racer(&[&"analyze", &"--ignore-class", &"app.[gen", &classes]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'app.[gen'"), "{}", stderr(&out));
}

// ---- console ---------------------------------------------------------------------------------

#[test]
fn console_groups_by_class_and_field_and_caps() {
    let tmp = tempdir("console");
    let mut source = String::from("package p;\n@javax.annotation.concurrent.ThreadSafe\npublic class Conn {\n  boolean closed;\n  int uses;\n");
    for i in 0..5 {
        source.push_str(&format!("  public void close{i}() {{ closed = true; }}\n"));
    }
    source.push_str("  public void use() { uses = uses + 1; }\n}\n");
    let classes = compile(tmp.path(), &with_annotations(&[("p/Conn.java", &source), PACKAGES[1]]));
    let html = tmp.join("report.html");
    let out = racer(&[&"analyze", &"--console-limit", &"2", &"--source-path", &tmp.join("src"), &classes]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches(": error: ").count(), 2, "{text}");
    assert!(text.starts_with("app/gen/Generated.java:5: error: THREAD_SAFETY_VIOLATION\n"), "{text}");
    let tail = &text[text.find("... and").expect(&text)..];
    assert_eq!(
        tail,
        "... and 5 more new issues\n\n\
         Issues by class and field:\n  \
         app.gen.Generated (1 issue)\n    Generated.count: 1 report in 1 method\n  \
         p.Conn (6 issues)\n    Conn.closed: 5 reports in 5 methods\n    Conn.uses: 1 report in 1 method\n\
         racer: 7 issues\n"
    );

    // The JSON response carries the same console text, pointing at the HTML report;
    // the text report file keeps every issue.
    let report = tmp.join("report.txt");
    let out = racer(&[&"analyze", &"--format", &"html", &"--output", &html, &"--console-limit", &"0", &classes]);
    assert_eq!(out.status.code(), Some(0));
    let page = fs::read_to_string(&html).unwrap();
    assert!(page.contains("<summary><code>p.Conn</code>: 6 issues</summary>"), "{page}");
    assert!(page.contains("<summary>Conn.closed: 5 reports in 5 methods</summary>"), "{page}");
    let out = racer(&[&"analyze", &"--output", &report, &"--console-limit", &"1", &classes]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(fs::read_to_string(&report).unwrap().matches(": error: ").count(), 7);
}

#[test]
fn html_shows_new_issues_first() {
    let tmp = tempdir("html");
    let classes = compile(tmp.path(), &with_annotations(&[("Account.java", ACCOUNT_V1)]));
    let baseline = tmp.join("b.json");
    json_run(&classes, &[&"--write-baseline", &baseline], 0);
    let classes = compile(tmp.path(), &[("Account.java", ACCOUNT_V3.replace("// A comment\n", "").as_str())]);
    let out = racer(&[&"analyze", &"--format", &"html", &"--baseline", &baseline, &classes]);
    let page = stdout(&out);
    let new = page.find("<h2>New issues</h2>").expect(&page);
    let old = page.find("<h2>Baselined issues</h2>").expect(&page);
    assert!(new < old);
    assert!(page[new..old].contains("Account.overdrafts: 1 report in 1 method"), "{page}");
    assert!(page[old..].contains("<details>\n<summary><code>Account</code>: 3 issues</summary>"), "folded: {page}");
    assert!(page.contains("<p>4 issues: 1 new, 3 baselined, 0 suppressed found.</p>"), "{page}");
}

#[test]
fn adoption_output_is_deterministic() {
    let tmp = tempdir("determinism");
    let classes = compile(tmp.path(), &with_annotations(SUPPRESSIONS));
    let baseline = tmp.join("b.json");
    let first = tmp.join("first.json");
    racer(&[&"analyze", &"--write-baseline", &first, &"--threads", &"1", &classes]);
    for format in ["json", "sarif", "text", "html"] {
        let run = |threads: &str| {
            let out = racer(&[&"analyze", &"--format", &format, &"--threads", &threads, &"--baseline", &first, &"--write-baseline", &baseline, &classes]);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            assert_eq!(fs::read(&baseline).unwrap(), fs::read(&first).unwrap(), "baseline file differs");
            out.stdout
        };
        let one = run("1");
        assert_eq!(one, run("2"), "{format}: --threads 1 and 2 differ");
        assert_eq!(one, run("0"), "{format}: --threads 1 and 0 differ");
    }
}
