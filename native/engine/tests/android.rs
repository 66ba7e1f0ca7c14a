//! Android fixture suite: the fixtures under `tests/android/` are compiled against the real
//! Android framework (Robolectric's `android-all` jar, Android 14) and analysed with it as
//! context, as the Gradle plugin does for an Android variant. Same layout and `expected.tsv`
//! format as `tests/fixtures/` (see `tests/fixtures/README.md`); `tests/android/_support/` holds
//! what the framework jar lacks (androidx and support-library annotations, a JobIntentService
//! stand-in) and is compiled against the framework first.
//!
//! The jar: `RACER_ANDROID_JAR`, else `build/android-framework/android-all-*.jar`, which
//! `scripts/android-framework.sh` fetches (`scripts/test.sh` runs it). Without it the test is
//! skipped with a message, unless `RACER_REQUIRE_ANDROID=1` (set by `scripts/test.sh`) makes
//! that a failure.

mod common;

use std::path::{Path, PathBuf};

use common::suite::{run_all, selected_fixtures, Compiler, SUPPORT_DIR};
use common::{issue_diff, issue_lines, java_files, javac, library_jars_or_skip, workspace_root, TempDir};
use racer::api::{Options, Request};

const FRAMEWORK_JAR: &str = "android-all-14-robolectric-10818077.jar";

fn framework_jar() -> Option<PathBuf> {
    let jar = match std::env::var_os("RACER_ANDROID_JAR") {
        Some(path) => PathBuf::from(path),
        None => workspace_root().join("build/android-framework").join(FRAMEWORK_JAR),
    };
    jar.is_file().then_some(jar)
}

/// The framework jar, or `None` (with a message saying `what` is skipped) when it is not
/// available; its absence fails the test under `RACER_REQUIRE_ANDROID=1`.
fn framework_jar_or_skip(what: &str) -> Option<PathBuf> {
    let jar = framework_jar();
    if jar.is_none() {
        let message = format!(
            "{what} SKIPPED: the Android framework jar ({FRAMEWORK_JAR}) is not available; \
             run scripts/android-framework.sh or set RACER_ANDROID_JAR"
        );
        assert!(std::env::var_os("RACER_REQUIRE_ANDROID").is_none(), "{message}");
        eprintln!("{message}");
    }
    jar
}

/// The stand-ins of `tests/fixtures/_support/` that declare no framework class (androidx's
/// lifecycle), shared with the Kotlin fixtures rather than copied.
const SHARED_STAND_INS: &[&str] = &["androidx/lifecycle"];

/// `tests/android/_support/` and the shared stand-ins compiled against the framework into `out`.
fn compile_support(framework: &Path, out: &Path) {
    let tests = workspace_root().join("tests");
    let mut sources = java_files(&tests.join("android").join(SUPPORT_DIR));
    for dir in SHARED_STAND_INS {
        sources.extend(java_files(&tests.join("fixtures").join(SUPPORT_DIR).join(dir)));
    }
    if let Err(e) = javac(&sources, out, &[framework.to_path_buf()], &["--release", "8"]) {
        panic!("cannot compile tests/android/{SUPPORT_DIR}: {e}");
    }
}

#[test]
fn android_fixtures() {
    let Some(framework) = framework_jar_or_skip("android fixtures") else { return };
    let root = workspace_root().join("tests").join("android");
    let mut dirs = selected_fixtures(&root);

    let keep = std::env::var_os("RACER_FIXTURES_KEEP").is_some();
    let tmp = TempDir::new("racer-android").keep_if(keep, "android fixtures");

    let support = tmp.join(SUPPORT_DIR);
    compile_support(&framework, &support);
    let mut classpath = vec![framework, support];
    match library_jars_or_skip("android reactive fixtures") {
        Some(jars) => classpath.extend(jars),
        None => dirs.retain(|(name, _)| !name.starts_with("reactive")),
    }
    run_all(&dirs, tmp.path(), &classpath, &Compiler::Javac);
}

/// The framework jar analysed on its own reports the same issues whether only what reporting
/// needs is analysed or, writing summaries as the plugins do, every method: a fact taken from
/// the code (a field only ever given a synchronized view, a handler or an executor) must not
/// depend on which methods reporting needs.
#[test]
fn framework_demand_driven_analysis_reports_what_the_full_analysis_reports() {
    let Some(framework) = framework_jar_or_skip("framework demand check") else { return };
    let dir = TempDir::new("racer-android-demand");
    let run = |summaries_out: Option<PathBuf>| {
        let request = Request {
            request_version: racer::api::REQUEST_VERSION,
            inputs: vec![framework.clone()],
            summaries_out,
            options: Options { threads: 2, ..Options::default() },
            ..Request::default()
        };
        let response = racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}"));
        (racer::report::render(racer::report::Format::Json, &response, &[]), issue_lines(&response.issues))
    };
    let demand = run(None);
    let full = run(Some(dir.join("framework.summaries")));
    drop(dir);
    if let Some(diff) = issue_diff(&full.1, &demand.1) {
        panic!("issues differ between demand-driven (+) and full (-) analysis:\n{diff}");
    }
    assert!(demand.0 == full.0, "the reports of the demand-driven and the full analysis differ (traces or messages)");
}

/// `--without-extension binder-services` turns the binder rule off alone: the background-work
/// topic then reports what it reports by default, less its binders' races (with it go the
/// one-way calls' order, so `ProgressListener`, whose calls are all one-way, stays silent).
#[test]
fn binder_services_can_be_turned_off_alone() {
    let Some(framework) = framework_jar_or_skip("binder switch check") else { return };
    let root = workspace_root().join("tests").join("android");
    let tmp = TempDir::new("racer-android-binders");
    let support = tmp.join(SUPPORT_DIR);
    compile_support(&framework, &support);
    let classes = tmp.join("classes");
    let context = vec![framework, support];
    if let Err(e) = javac(&java_files(&root.join("background_work")), &classes, &context, &["-g"]) {
        panic!("cannot compile tests/android/background_work: {e}");
    }
    let run = |without: &[&str]| {
        let request = Request {
            request_version: racer::api::REQUEST_VERSION,
            inputs: vec![classes.clone()],
            classpath: context.clone(),
            options: Options { without_extensions: without.iter().map(|n| n.to_string()).collect(), ..Options::default() },
            ..Request::default()
        };
        issue_lines(&racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}")).issues)
    };
    let all = run(&[]);
    let binders = [".CounterBinder\t", ".TransferBinder\t", ".VaultBinder\t"];
    let expected: Vec<String> = all.iter().filter(|l| !binders.iter().any(|b| l.contains(b))).cloned().collect();
    assert_eq!(all.len() - expected.len(), 4, "the topic's binders have four reports by default:\n{}", all.join("\n"));
    assert_eq!(run(&["binder-services"]), expected);
}

/// Compiles the `upstream` classes of an Android topic into `tmp/upstream`, then the
/// `downstream` ones into `tmp/downstream` against them: two class directories, as two modules
/// of a build. Returns both.
fn compile_apart(framework: &Path, tmp: &Path, topic: &str, upstream: &[&str], downstream: &[&str]) -> (PathBuf, PathBuf) {
    let topic = workspace_root().join("tests").join("android").join(topic);
    let sources = |names: &[&str]| names.iter().map(|n| topic.join(format!("{n}.java"))).collect::<Vec<_>>();
    let (upstream_classes, downstream_classes) = (tmp.join("upstream"), tmp.join("downstream"));
    if let Err(e) = javac(&sources(upstream), &upstream_classes, &[framework.to_path_buf()], &["-g"]) {
        panic!("cannot compile {upstream:?}: {e}");
    }
    let context = [framework.to_path_buf(), upstream_classes.clone()];
    if let Err(e) = javac(&sources(downstream), &downstream_classes, &context, &["-g"]) {
        panic!("cannot compile {downstream:?} against {upstream:?}: {e}");
    }
    (upstream_classes, downstream_classes)
}

/// Analyses `downstream` alone with `upstream`'s summary file and the two modules as one build,
/// and checks both give `expected`; `what` names the two ways in the failure messages.
fn assert_same_alone_and_whole(
    upstream: &Path,
    downstream: &Path,
    framework: PathBuf,
    summaries: &Path,
    expected: &[String],
    what: (&str, &str),
) {
    let (alone, whole) = common::alone_and_whole(upstream, downstream, &[framework], summaries);
    assert_eq!(alone, expected, "{}", what.0);
    assert_eq!(whole, expected, "{}", what.1);
}

/// The `handoffs` fixtures `upstream` and `downstream` compiled apart (see [`compile_apart`]),
/// checked to give `expected` alone (with the upstream summary file) and as one build; `tag`
/// names the test's temporary directory, `what` the upstream code in the failure messages.
fn assert_handoffs_apart(tag: &str, upstream: &[&str], downstream: &[&str], expected: &[String], what: &str) {
    let labels = (format!("{what} in an upstream module"), format!("{what} analysed with the activity"));
    let Some(framework) = framework_jar_or_skip(&labels.0) else { return };
    let tmp = TempDir::new(&format!("racer-android-{tag}"));
    let (up, down) = compile_apart(&framework, tmp.path(), "handoffs", upstream, downstream);
    assert_same_alone_and_whole(&up, &down, framework, &tmp.join("upstream.summaries"), expected, (&labels.0, &labels.1));
}

/// A race `onResume` of a `handoffs` fixture activity reports, as the tests list issues.
fn on_resume_row(class: &str, line: u32, path: &str) -> String {
    format!("THREAD_SAFETY_VIOLATION\tfixtures.android.handoffs.{class}\tonResume\t{line}\t{path}")
}

/// The AIDL interfaces of the background-work topic and the binders implementing them, compiled
/// apart (see [`compile_apart`]).
fn compile_binders_apart(framework: &Path, tmp: &Path, interfaces: &[&str], binders: &[&str]) -> (PathBuf, PathBuf) {
    compile_apart(framework, tmp, "background_work", interfaces, binders)
}

/// Which binder calls are one-way is read from the AIDL proxy, wherever the generated interface
/// is: compiled with the implementation (the fixture topic), in an upstream module (its summary
/// file carries the proxy's header), or only on the classpath (its proxy is read for the stub
/// the implementation extends). Each way, the one-way callbacks of `ProgressListener` and
/// `TransferBinder` are served one at a time, and only `isPaused`'s read races.
#[test]
fn oneway_calls_are_known_from_a_proxy_upstream_or_on_the_classpath() {
    let Some(framework) = framework_jar_or_skip("one-way binder check") else { return };
    let tmp = TempDir::new("racer-android-oneway");
    let (interfaces, implementations) =
        compile_binders_apart(&framework, tmp.path(), &["IProgressListener", "ITransfer"], &["ProgressListener", "TransferBinder"]);
    let with_interfaces = vec![framework.clone(), interfaces.clone()];
    let expected = vec!["THREAD_SAFETY_VIOLATION\tfixtures.android.background_work.TransferBinder\tisPaused\t25\tthis.mPaused".to_string()];
    let on_classpath =
        Request { inputs: vec![implementations.clone()], classpath: with_interfaces.clone(), ..Request::default() };
    let on_classpath = issue_lines(&racer::analyze(&on_classpath).unwrap_or_else(|e| panic!("analysis failed: {e}")).issues);
    assert_eq!(on_classpath, expected, "interfaces on the classpath");
    let what = ("interfaces in an upstream module", "interfaces analysed with the binders");
    assert_same_alone_and_whole(&interfaces, &implementations, framework, &tmp.join("interfaces.summaries"), &expected, what);
}

/// A classpath proxy whose code does not parse (an undefined opcode in place of `store`'s call
/// of `transact`) still gives its header, without a warning: `store` is then taken as two-way,
/// as for a stub without a proxy, and `VaultBinder` gets `store`'s two reports too.
#[test]
fn a_proxy_whose_code_does_not_parse_keeps_its_header() {
    let Some(framework) = framework_jar_or_skip("malformed proxy check") else { return };
    let tmp = TempDir::new("racer-android-bad-proxy");
    let (interfaces, implementations) = compile_binders_apart(&framework, tmp.path(), &["IVault"], &["VaultBinder"]);
    let with_interfaces = vec![framework.clone(), interfaces.clone()];
    let proxy = interfaces.join("fixtures/android/background_work/IVault$Stub$Proxy.class");
    let mut bytes = std::fs::read(&proxy).expect("the proxy class");
    // `bipush 33; invokeinterface`: the one-way flags, then the call, whose opcode is replaced.
    let at = bytes.windows(3).position(|w| w == [0x10, 0x21, 0xb9]).expect("store's transact call");
    bytes[at + 2] = 0xcb;
    std::fs::write(&proxy, &bytes).expect("the corrupted proxy");
    let request = Request { inputs: vec![implementations], classpath: with_interfaces, ..Request::default() };
    let response = racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}"));
    assert!(response.diagnostics.is_empty(), "no warning expected: {:?}", response.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    let vault = |method: &str, line: u32, path: &str| {
        format!("THREAD_SAFETY_VIOLATION\tfixtures.android.background_work.VaultBinder\t{method}\t{line}\t{path}")
    };
    assert_eq!(
        issue_lines(&response.issues),
        vec![vault("load", 20, "this.mSecret"), vault("store", 14, "this.mSecret"), vault("store", 15, "this.mStores")]
    );
}

/// An executor class posting to a handler is known as one wherever it is: analysed with the
/// activity using it, in an upstream module (its summary file carries its class header), or only
/// on the classpath (its `execute` is read for the header). Each way, its tasks run where its
/// handler runs its posts, and only the worker's task and the thread-per-task executor's race.
#[test]
fn an_executor_posting_to_a_handler_is_known_upstream_or_on_the_classpath() {
    let Some(framework) = framework_jar_or_skip("upstream handler executor") else { return };
    let tmp = TempDir::new("racer-android-handler-executor");
    let (executor, activity) = compile_apart(&framework, tmp.path(), "handoffs", &["PostingExecutor"], &["OwnExecutorActivity"]);
    let row = |method: &str, line: u32, path: &str| {
        format!("THREAD_SAFETY_VIOLATION\tfixtures.android.handoffs.OwnExecutorActivity\t{method}\t{line}\t{path}")
    };
    let expected = vec![
        row("download", 70, "this.mDownloads"),
        row("onPause", 104, "this.mLooperSaved"),
        row("onResume", 86, "this.mDownloads"),
        row("onResume", 86, "this.mSaved"),
    ];
    let on_classpath = Request { inputs: vec![activity.clone()], classpath: vec![framework.clone(), executor.clone()], ..Request::default() };
    let on_classpath = issue_lines(&racer::analyze(&on_classpath).unwrap_or_else(|e| panic!("analysis failed: {e}")).issues);
    assert_eq!(on_classpath, expected, "the executor on the classpath");
    let what = ("the executor in an upstream module", "the executor analysed with the activity");
    assert_same_alone_and_whole(&executor, &activity, framework, &tmp.join("executor.summaries"), &expected, what);
}

/// A `Handler` subclass of the app's own in an upstream module: its summary file's class header
/// says which looper its constructor gives `super(...)`, so the downstream activity's posts to it
/// run there, analysed alone as with the whole build.
#[test]
fn a_handler_subclass_upstream_is_on_the_looper_its_constructor_gives() {
    let expected = [on_resume_row("WorkerHandlerActivity", 37, "this.mSaved")];
    assert_handoffs_apart("handler-subclass", &["WorkerHandler"], &["WorkerHandlerActivity"], &expected, "the handler class");
}

/// A helper in an upstream module that registers the network callback it is given: its summary
/// hands the parameter to the connectivity thread, so the downstream activity's callback runs
/// there, analysed alone with the helper's summary file as with the whole build.
#[test]
fn a_network_callback_registered_by_an_upstream_helper_runs_in_the_background() {
    let expected = [on_resume_row("MeteredActivity", 26, "this.mMetered")];
    assert_handoffs_apart("network-helper", &["NetworkRegistrar"], &["MeteredActivity"], &expected, "the helper");
}

/// A poller in an upstream module, given the process thread's looper by its own constructor:
/// only calls of its package say which looper its constructor's parameter is given, so the
/// downstream activity's call giving it the main looper changes nothing, and the post through
/// the default poller races both ways (counted in the whole build, that call would leave the
/// parameter unknown there, while the module alone reports the race).
#[test]
fn constructor_loopers_are_given_by_calls_of_their_package() {
    let expected = [on_resume_row("app.PollerClientActivity", 29, "this.mPolled")];
    assert_handoffs_apart("constructor-loopers", &["ProcessThread", "SharedPoller"], &["app/PollerClientActivity"], &expected, "the poller");
}

/// An app's executors' holder in an upstream module, given its executors by a constructor of
/// its package: its summary file says what each executor field runs its tasks on, so the
/// downstream activity's tasks given through its getters run there, alone as in the whole build.
#[test]
fn executors_given_to_an_upstream_holders_constructor_run_as_its_package_made_them() {
    let row = |method: &str, line: u32, path: &str| format!("THREAD_SAFETY_VIOLATION\tfixtures.android.handoffs.AppExecutorsActivity\t{method}\t{line}\t{path}");
    let expected = [
        row("fetch", 28, "this.mFetched"),
        row("index", 32, "this.mIndexed"),
        on_resume_row("AppExecutorsActivity", 39, "this.mFetched"),
        on_resume_row("AppExecutorsActivity", 39, "this.mIndexed"),
        on_resume_row("AppExecutorsActivity", 39, "this.mSaved"),
        row("save", 23, "this.mSaved"),
    ];
    assert_handoffs_apart("app-executors", &["AppExecutors", "IoExecutors"], &["AppExecutorsActivity"], &expected, "the executors' holder");
}

/// A process-wide thread's handler in an upstream module, handed out by static getters: its
/// summary file lists the threads of its handler fields and getters, so the downstream activity's
/// fields keeping what they return (or a handler on its looper), a poller given its looper, and
/// executors made on it post there, analysed alone as with the whole build.
#[test]
fn handlers_from_an_upstream_getter_run_on_its_thread() {
    let (executors, fields) = ("ProcessExecutorActivity", "ProcessThreadActivity");
    let expected = [
        on_resume_row(executors, 70, "this.mSaved"),
        on_resume_row(executors, 71, "this.mSynced"),
        on_resume_row(executors, 72, "this.mLoaded"),
        on_resume_row(executors, 73, "this.mPosted"),
        on_resume_row(executors, 74, "this.mQueued"),
        on_resume_row(fields, 233, "this.mSaved"),
        on_resume_row(fields, 234, "this.mSynced"),
        on_resume_row(fields, 235, "this.mPruned"),
        on_resume_row(fields, 237, "this.mPolled"),
        on_resume_row(fields, 238, "this.mHandlerPolls"),
        on_resume_row(fields, 239, "this.mCopied"),
    ];
    assert_handoffs_apart("handler-getters", &["ProcessThread"], &[executors, fields], &expected, "the threads");
}
