//! Kotlin fixture suite: compiles each `tests/kotlin/<topic>/` (every directory holding an
//! `expected.tsv`) with a real kotlinc, runs `racer::analyze` on the classes and compares the
//! issues exactly with `expected.tsv` (`racerd_compat`) and `expected.default.tsv` (the default
//! mode, where the extensions change the result), in the format of the Java fixtures. A summary
//! file written for the lambdas topic must keep the summaries of Kotlin's lambda classes; the
//! `upstream_providers` and `kept_dispatchers` topics are also analysed as two modules.
//!
//! Every topic is compiled twice, by Kotlin 1.9 and by Kotlin 2 (K2, `RACER_KOTLIN=2`), and the
//! default mode must report the same for both: one source, one set of races, except where a
//! topic's `expected.kotlin2.tsv` says how and why Kotlin 2's classes differ. `racerd_compat`
//! is checked on Kotlin 1.9's classes only: RacerD analyses no lambda body, and Kotlin 2 compiles
//! lambdas to methods called through `invokedynamic` rather than to classes of their own, so
//! there it reports less, as the reference would.
//!
//! Runs only when `RACER_KOTLINC` names `scripts/kotlinc.sh` (which resolves the compilers with
//! Maven); otherwise it prints a skip line. The Java annotations of `tests/fixtures/_support/` are
//! compiled with javac (`--release 8`) and put, with the kotlin-stdlib and kotlinx-coroutines
//! jars, on both the kotlinc and the engine classpath; the test libraries too (see
//! `tests/libraries.rs`), without which the `reactive` topic is skipped. `RACER_FIXTURES=topic1,topic2`
//! runs a subset.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use racer::api::{Options, Request};

use common::{alone_and_whole, compile_support, fixture_filter, issue_diff, issue_lines, library_jars_or_skip, read_expected, run, sorted_entries, workspace_root, TempDir};

/// Compiles one topic and checks it in both modes: `expected.tsv` with `racerd_compat` (Kotlin
/// 1.9 only), and `expected.default.tsv` (when the extensions change the result, else
/// `expected.tsv`; for Kotlin 2, `expected.kotlin2.tsv` first) without.
/// `classpath` is what the engine is given: the support classes, the Kotlin libraries (which
/// kotlinc.sh adds to the rest by itself), then the test libraries (RxJava, ...).
fn run_topic(kotlinc: &Kotlinc, dir: &Path, out: &Path, classpath: &[PathBuf]) -> Result<(), String> {
    let others: Vec<&PathBuf> = classpath.iter().filter(|p| !is_kotlin_library(p)).collect();
    let others = std::env::join_paths(others).map_err(|e| format!("classpath: {e}"))?;
    run(kotlinc.command().arg(dir).arg(out).arg(others), "kotlinc")?;
    // Kotlin 2's classes may differ where the compiler makes the code differ (a lambda compiled
    // to a method rather than a class of its own): `expected.kotlin2.tsv` says so, with why.
    let default_files: &[&str] = if kotlinc.version == KOTLIN_2 { &["expected.kotlin2.tsv", "expected.default.tsv"] } else { &["expected.default.tsv"] };
    let default_expected =
        default_files.iter().map(|name| dir.join(name)).find(|path| path.is_file()).unwrap_or_else(|| dir.join("expected.tsv"));
    if kotlinc.version == KOTLIN_1_9 {
        check_mode(dir, out, classpath, true, &dir.join("expected.tsv")).map_err(|e| format!("[racerd_compat] {e}"))?;
    }
    check_mode(dir, out, classpath, false, &default_expected).map_err(|e| format!("[default] {e}"))
}

/// `scripts/kotlinc.sh` with one of its compilers (`RACER_KOTLIN`).
struct Kotlinc {
    script: PathBuf,
    version: &'static str,
}

const KOTLIN_1_9: &str = "1.9";
const KOTLIN_2: &str = "2";

impl Kotlinc {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.script);
        command.env("RACER_KOTLIN", self.version);
        command
    }
}

fn check_mode(dir: &Path, out: &Path, classpath: &[PathBuf], compat: bool, expected: &Path) -> Result<(), String> {
    let expected = read_expected(expected)?;
    let request = Request {
        inputs: vec![out.to_path_buf()],
        classpath: classpath.to_vec(),
        source_paths: vec![dir.to_path_buf()],
        options: Options { racerd_compat: compat, ..Options::default() },
        ..Request::default()
    };
    let response = racer::analyze(&request).map_err(|e| format!("analysis failed: {e}"))?;
    let Some(mut msg) = issue_diff(&expected, &issue_lines(&response.issues)) else {
        return Ok(());
    };
    for d in &response.diagnostics {
        msg.push_str(&format!("  diagnostic: {}: {}\n", d.file, d.message));
    }
    Err(msg)
}

/// The topics compiled against `scripts/test-libraries.sh`'s jars: RxJava, Dagger.
const LIBRARY_TOPICS: &[&str] = &["reactive", "injected_dispatchers", "upstream_providers"];

#[test]
fn kotlin_fixtures() {
    fixtures_compiled_by(KOTLIN_1_9);
}

#[test]
fn kotlin_2_fixtures() {
    fixtures_compiled_by(KOTLIN_2);
}

fn fixtures_compiled_by(version: &'static str) {
    let Some(script) = std::env::var_os("RACER_KOTLINC").map(PathBuf::from) else {
        println!("kotlin fixtures: skipped (set RACER_KOTLINC to the path of scripts/kotlinc.sh)");
        return;
    };
    let kotlinc = Kotlinc { script, version };
    let root = workspace_root();
    let kotlin_root = root.join("tests").join("kotlin");
    let filter = fixture_filter();
    let mut topics: Vec<PathBuf> = sorted_entries(&kotlin_root)
        .into_iter()
        .filter(|p| p.join("expected.tsv").is_file())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()))
        })
        .collect();
    assert!(!topics.is_empty(), "no Kotlin fixtures found under {}", kotlin_root.display());

    let tmp = TempDir::new(&format!("racer-kotlin-{version}"));
    let support = tmp.join("_support");
    if let Err(e) = compile_support(&support) {
        panic!("cannot compile tests/fixtures/_support: {e}");
    }
    let jar = |flag: &str| match run(kotlinc.command().arg(flag), &format!("kotlinc.sh {flag}")) {
        Ok(out) => PathBuf::from(out.trim()),
        Err(e) => panic!("{e}"),
    };
    let stdlib = jar("--stdlib");
    let mut classpath = vec![support.clone(), stdlib.clone(), jar("--coroutines")];
    // The topics that compile against the test libraries are skipped without them.
    match library_jars_or_skip("kotlin fixtures of the test libraries") {
        Some(jars) => classpath.extend(jars),
        None => topics.retain(|t| !LIBRARY_TOPICS.iter().any(|name| t.ends_with(name))),
    }

    let mut failures = Vec::new();
    for dir in &topics {
        let name = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
        match run_topic(&kotlinc, dir, &tmp.join(&name), &classpath) {
            Ok(()) => println!("kotlin {version} fixture {name}: ok"),
            Err(msg) => {
                println!("kotlin {version} fixture {name}: FAIL\n{msg}");
                failures.push(name);
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} Kotlin {version} fixture(s) failed: {}", failures.len(), topics.len(), failures.join(", "));
    // Kotlin 2 makes no class of a lambda.
    if filter.is_empty() && version == KOTLIN_1_9 {
        lambda_classes_keep_their_summaries(&tmp.join("lambdas"), &support, &stdlib);
    }
    if topics.iter().any(|t| t.ends_with("upstream_providers")) {
        providers_upstream_reach_downstream_modules(&kotlinc, &tmp.join("upstream_providers_modules"), &classpath);
    }
    if topics.iter().any(|t| t.ends_with("kept_dispatchers")) {
        // The dispatcher interfaces and their implementations in an upstream module.
        let upstream = ["AppDispatchers", "DispatcherProvider", "DefaultDispatcherProvider", "WorkDispatchers", "IoWorkDispatchers", "MainWorkDispatchers"];
        module_alone_matches_whole(&tmp.join("kept_dispatchers"), "kfixtures/kept_dispatchers", &upstream, &tmp.join("kept_dispatchers_modules"), &classpath);
    }
}

/// A topic's classes as two modules: `upstream` (simple names, with their nested classes)
/// analysed first with a summary file, the rest then analysed alone with it, which must report
/// what the whole topic reports.
fn module_alone_matches_whole(classes: &Path, package: &str, upstream: &[&str], out: &Path, classpath: &[PathBuf]) {
    let (up, down) = (out.join("upstream"), out.join("downstream"));
    std::fs::create_dir_all(up.join(package)).unwrap();
    std::fs::create_dir_all(down.join(package)).unwrap();
    for entry in std::fs::read_dir(classes.join(package)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let outer = name.trim_end_matches(".class").split('$').next().unwrap_or_default().to_string();
        let to = if upstream.contains(&outer.as_str()) { &up } else { &down };
        std::fs::copy(&path, to.join(package).join(&name)).unwrap();
    }
    let (alone, whole) = alone_and_whole(&up, &down, classpath, &out.join("upstream.summaries"));
    assert_eq!(alone, whole, "{}: the downstream module alone differs from the whole analysis", classes.display());
}

/// The `upstream_providers` topic as the two modules of a build: its `common/` module (the
/// Dagger module providing the dispatchers) compiled and analysed first, with a summary file;
/// its `feature/` module (the repositories injected with them) then analysed alone, with that
/// file, reports what the whole topic reports.
fn providers_upstream_reach_downstream_modules(kotlinc: &Kotlinc, out: &Path, classpath: &[PathBuf]) {
    let dir = workspace_root().join("tests/kotlin/upstream_providers");
    let others: Vec<&PathBuf> = classpath.iter().filter(|p| !is_kotlin_library(p)).collect();
    let (common, feature) = (out.join("common"), out.join("feature"));
    let compile = |module: &str, to: &Path, extra: Option<&PathBuf>| {
        let cp = std::env::join_paths(others.iter().copied().chain(extra)).expect("classpath");
        run(kotlinc.command().arg(dir.join(module)).arg(to).arg(cp), "kotlinc").unwrap_or_else(|e| panic!("{e}"));
    };
    compile("common", &common, None);
    compile("feature", &feature, Some(&common));
    let summaries = out.join("common.summaries");
    let upstream = Request { inputs: vec![common.clone()], classpath: classpath.to_vec(), summaries_out: Some(summaries.clone()), ..Request::default() };
    racer::analyze(&upstream).unwrap_or_else(|e| panic!("common module: analysis failed: {e}"));
    let mut dumped = Vec::new();
    racer::summaries::dump::write(&summaries, &[], &mut dumped).expect("dump");
    let dumped: serde_json::Value = serde_json::from_slice(&dumped).expect("dump json");
    let io = dumped["kept_schedulers"]["provided"].as_array().expect("provided schedulers").iter().find(|p| p[0]["type"] == "kfixtures.upstream_providers.common.IoDispatcher");
    assert_eq!(io.map(|p| &p[1]["target"]), Some(&serde_json::json!("Background")), "{dumped:#}");
    let mut with_common = classpath.to_vec();
    with_common.push(common);
    let alone = Request { inputs: vec![feature], classpath: with_common, summaries_in: vec![summaries], ..Request::default() };
    let response = racer::analyze(&alone).unwrap_or_else(|e| panic!("feature module: analysis failed: {e}"));
    let expected = read_expected(&dir.join("expected.default.tsv")).unwrap_or_else(|e| panic!("{e}"));
    if let Some(diff) = issue_diff(&expected, &issue_lines(&response.issues)) {
        panic!("the feature module alone, with the common module's summaries:\n{diff}");
    }
}

/// The jars kotlinc.sh puts on the classpath itself.
fn is_kotlin_library(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    name.starts_with("kotlin-stdlib-") || name.starts_with("kotlinx-coroutines-core")
}

/// A Kotlin lambda's class (`Deferred$locking$1`) keeps the summary of its `invoke` in a
/// summary file: an inline function may use it in another module.
fn lambda_classes_keep_their_summaries(classes: &Path, support: &Path, stdlib: &Path) {
    let file = classes.with_extension("summaries");
    let request = Request {
        inputs: vec![classes.to_path_buf()],
        classpath: vec![support.to_path_buf(), stdlib.to_path_buf()],
        summaries_out: Some(file.clone()),
        ..Request::default()
    };
    racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}"));
    let mut out = Vec::new();
    racer::summaries::dump::write(&file, &[], &mut out).expect("dump");
    let dump: serde_json::Value = serde_json::from_slice(&out).expect("dump json");
    let kept = dump["summaries"].as_array().expect("summaries").iter().any(|s| {
        s["method"]["class"] == "kfixtures.lambdas.Deferred$locking$1" && s["method"]["name"] == "invoke"
    });
    assert!(kept, "the Kotlin lambda class lost its invoke summary");
}
