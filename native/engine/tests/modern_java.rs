//! Class files from Java 21 (`RACER_JAVAC_MODERN`: a javac of release 21 or later; set by
//! `scripts/test.sh` when the machine has one): compiled with `--release 21`, analysed,
//! and compared exactly with `expected.tsv`, like the fixture suite.

mod common;

use std::path::PathBuf;

use racer::api::{Options, Request};

#[test]
fn java_21_class_files_are_analysed() {
    let javac = match std::env::var("RACER_JAVAC_MODERN") {
        Ok(path) => PathBuf::from(path),
        Err(_) => {
            eprintln!("RACER_JAVAC_MODERN not set: Java 21 class files not checked (scripts/test.sh sets it)");
            return;
        }
    };
    let tmp = common::TempDir::new("modern");
    let support = tmp.join("support");
    common::compile_support(&support).expect("support classes");
    let dir = common::workspace_root().join("tests/modern/fixtures/modern");
    let classes = tmp.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    let mut cmd = std::process::Command::new(&javac);
    cmd.args(["-g", "-nowarn", "--release", "21", "-d"]).arg(&classes).arg("-cp").arg(&support).args(common::java_files(&dir));
    common::run(&mut cmd, "javac --release 21").expect("compile with --release 21");
    let request = Request {
        request_version: racer::api::REQUEST_VERSION,
        inputs: vec![classes],
        classpath: vec![support],
        options: Options { threads: 2, ..Options::default() },
        ..Request::default()
    };
    let response = racer::analyze(&request).expect("analysis");
    assert!(response.diagnostics.is_empty(), "{:?}", response.diagnostics);
    let expected = common::read_expected(&dir.join("expected.tsv")).expect("expected.tsv");
    let actual = common::issue_lines(&response.issues);
    if let Some(diff) = common::issue_diff(&expected, &actual) {
        panic!("Java 21 fixture differs:\n{diff}");
    }
}
