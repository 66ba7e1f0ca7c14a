//! Class files from Java 21, compiled with `--release 21` by each compiler the environment
//! names (`scripts/test.sh` sets both): `RACER_JAVAC_MODERN`, a javac of release 21 or later
//! when the machine has one, and `RACER_ECJ`, the Eclipse compiler (`scripts/ecj.sh`), whose
//! bytecode differs from javac's. Each build is analysed and compared exactly with
//! `expected.tsv`, like the fixture suite.

mod common;

use std::path::{Path, PathBuf};

use racer::api::{Options, Request};

/// The compilers to build with: (environment variable, path).
fn compilers() -> Vec<(&'static str, PathBuf)> {
    ["RACER_JAVAC_MODERN", "RACER_ECJ"]
        .into_iter()
        .filter_map(|var| std::env::var_os(var).map(|path| (var, PathBuf::from(path))))
        .collect()
}

#[test]
fn java_21_class_files_are_analysed() {
    let compilers = compilers();
    if compilers.is_empty() {
        eprintln!("neither RACER_JAVAC_MODERN nor RACER_ECJ set: Java 21 class files not checked (scripts/test.sh sets them)");
        return;
    }
    let tmp = common::TempDir::new("modern");
    let support = tmp.join("support");
    common::compile_support(&support).expect("support classes");
    let dir = common::workspace_root().join("tests/modern/fixtures/modern");
    let expected = common::read_expected(&dir.join("expected.tsv")).expect("expected.tsv");
    for (var, compiler) in compilers {
        let classes = tmp.join(var);
        compile(&compiler, &dir, &support, &classes);
        let request = Request {
            request_version: racer::api::REQUEST_VERSION,
            inputs: vec![classes],
            classpath: vec![support.clone()],
            options: Options { threads: 2, ..Options::default() },
            ..Request::default()
        };
        let response = racer::analyze(&request).expect("analysis");
        assert!(response.diagnostics.is_empty(), "{var}: {:?}", response.diagnostics);
        let actual = common::issue_lines(&response.issues);
        if let Some(diff) = common::issue_diff(&expected, &actual) {
            panic!("Java 21 fixture compiled by {} ({var}) differs:\n{diff}", compiler.display());
        }
    }
}

fn compile(compiler: &Path, sources: &Path, support: &Path, out: &Path) {
    std::fs::create_dir_all(out).unwrap();
    let mut cmd = std::process::Command::new(compiler);
    cmd.args(["-g", "-nowarn", "--release", "21", "-d"]).arg(out).arg("-cp").arg(support).args(common::java_files(sources));
    common::run(&mut cmd, &format!("{} --release 21", compiler.display())).expect("compile with --release 21");
}
