//! Library-model fixture suite: the fixtures under `tests/libraries/` (models of third-party
//! libraries on the JVM: Project Reactor's and RxJava's reactive chains, Netty's event loops) are
//! compiled against the real libraries and analysed with them as context, in the layout and
//! `expected.tsv` format of `tests/fixtures/` (see `tests/fixtures/README.md`), with
//! `tests/fixtures/_support/` on the classpath too. The Android and Kotlin reactive fixtures are
//! in `tests/android/reactive/` and `tests/kotlin/reactive/`.
//!
//! The libraries: `RACER_LIBRARY_JARS` (set by `scripts/test.sh`; a missing jar is then a
//! failure), else the jars `scripts/test-libraries.sh` leaves in `build/test-libraries/`; without
//! them the test is skipped with a message.

mod common;

use common::suite::{run_all, selected_fixtures, Compiler, SUPPORT_DIR};
use common::{alone_and_whole, compile_support, issue_diff, issue_lines, java_files, javac, library_jars_or_skip, read_expected, workspace_root, TempDir};
use std::path::{Path, PathBuf};

use racer::api::Request;

#[test]
fn library_fixtures() {
    let Some(jars) = library_jars_or_skip("library fixtures") else { return };
    let dirs = selected_fixtures(&workspace_root().join("tests").join("libraries"));
    let keep = std::env::var_os("RACER_FIXTURES_KEEP").is_some();
    let tmp = TempDir::new("racer-libraries").keep_if(keep, "library fixtures");
    let support = tmp.join(SUPPORT_DIR);
    if let Err(e) = compile_support(&support) {
        panic!("cannot compile tests/fixtures/{SUPPORT_DIR}: {e}");
    }
    let mut classpath = vec![support];
    classpath.extend(jars);
    run_all(&dirs, tmp.path(), &classpath, &Compiler::Javac);
}

/// Netty's executors of one loop are known by name too: the Netty fixture analysed without Netty
/// on the classpath (a build that passes no dependencies) reports what it reports with it.
#[test]
fn netty_loops_are_known_without_netty_on_the_classpath() {
    let Some(jars) = library_jars_or_skip("netty without its jar") else { return };
    let dir = workspace_root().join("tests/libraries/netty");
    let tmp = TempDir::new("racer-netty-alone");
    let Compiled { support, classes, .. } = compile_with_libraries(&dir, &tmp, jars);
    let request = Request { inputs: vec![classes], classpath: vec![support], ..Request::default() };
    let response = racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}"));
    let expected = read_expected(&dir.join("expected.default.tsv")).unwrap_or_else(|e| panic!("{e}"));
    if let Some(diff) = issue_diff(&expected, &issue_lines(&response.issues)) {
        panic!("without Netty on the classpath:\n{diff}");
    }
}

/// A scheduler an upstream module keeps reaches the chains of a downstream one through the
/// summary of the method returning it, or the summary file's list of kept fields: the downstream module analysed alone, with the upstream
/// summaries, reports what the two analysed together report.
#[test]
fn schedulers_kept_upstream_reach_downstream_chains_through_summaries() {
    let Some(jars) = library_jars_or_skip("schedulers kept upstream") else { return };
    let dir = workspace_root().join("tests/libraries/rxjava");
    let tmp = TempDir::new("racer-kept-schedulers");
    let Compiled { classes: downstream, classpath, .. } = compile_with_libraries(&dir, &tmp, jars);
    // The class keeping the schedulers goes upstream.
    let package = Path::new("fixtures/libraries/rxjava");
    let upstream = tmp.join("upstream");
    std::fs::create_dir_all(upstream.join(package)).unwrap();
    for class in ["AppSchedulers.class", "DatabaseSchedulers.class"] {
        std::fs::rename(downstream.join(package).join(class), upstream.join(package).join(class)).unwrap();
    }
    let (alone, together) = alone_and_whole(&upstream, &downstream, &classpath, &tmp.join("upstream.summaries"));
    assert_eq!(alone, together, "the downstream module alone differs from the whole analysis");
    let provided: Vec<&String> = alone.iter().filter(|l| l.contains("ProvidedScheduler\t")).collect();
    assert_eq!(provided.len(), 3, "ProvidedScheduler's two reports and SerialProvidedScheduler's one: {alone:#?}");
    let static_field = alone.iter().filter(|l| l.contains("StaticFieldScheduler\t")).count();
    assert_eq!(static_field, 2, "StaticFieldScheduler's two reports, the static field read from the summary file: {alone:#?}");
}

/// A fixture's classes compiled against the support classes and the libraries.
struct Compiled {
    support: PathBuf,
    /// The support classes and the libraries.
    classpath: Vec<PathBuf>,
    classes: PathBuf,
}

fn compile_with_libraries(dir: &Path, tmp: &TempDir, jars: Vec<PathBuf>) -> Compiled {
    let support = tmp.join(SUPPORT_DIR);
    compile_support(&support).unwrap_or_else(|e| panic!("cannot compile tests/fixtures/{SUPPORT_DIR}: {e}"));
    let classes = tmp.join("classes");
    let mut classpath = vec![support.clone()];
    classpath.extend(jars);
    javac(&java_files(dir), &classes, &classpath, &[]).unwrap_or_else(|e| panic!("{e}"));
    Compiled { support, classpath, classes }
}
