//! Compositional summaries: analysing a module with its upstream modules' summary
//! files gives the same issues (traces and messages included) as analysing it
//! together with the upstream classes; summary files are deterministic, portable,
//! and bad ones are rejected with a one-line message.

mod common;

use std::path::{Path, PathBuf};

use racer::api::{Options, Request, Response};

use common::{java_files, javac, workspace_root, TempDir, SUPPORT_SOURCES};

/// Compiles the Java sources below `sources` into `out`; javac's output goes to stderr.
fn compile(sources: &Path, out: &Path, classpath: &[PathBuf], extra: &[&str]) {
    if let Err(e) = javac(&java_files(sources), out, classpath, extra) {
        eprintln!("{e}");
        panic!("javac failed for {}", sources.display());
    }
}

/// Compiles the annotation stubs and each module of `tests/modules/<name>` in order.
fn compile_modules(name: &str, modules: &[&str], tmp: &Path) -> (PathBuf, Vec<PathBuf>) {
    let root = workspace_root();
    let support = tmp.join("support");
    compile(&root.join(SUPPORT_SOURCES), &support, &[], &["--release", "8"]);
    let mut outs: Vec<PathBuf> = Vec::new();
    for m in modules {
        let out = tmp.join(format!("classes-{m}"));
        let mut cp = vec![support.clone()];
        cp.extend(outs.iter().cloned());
        compile(&root.join("tests/modules").join(name).join(m), &out, &cp, &[]);
        outs.push(out);
    }
    (support, outs)
}

fn request(inputs: Vec<PathBuf>, classpath: Vec<PathBuf>, summaries_in: Vec<PathBuf>, summaries_out: Option<PathBuf>) -> Request {
    Request {
        request_version: racer::api::REQUEST_VERSION,
        inputs,
        classpath,
        summaries_in,
        summaries_out,
        options: Options { threads: 2, ..Options::default() },
        ..Request::default()
    }
}

fn run(r: &Request) -> Response {
    racer::analyze(r).unwrap_or_else(|e| panic!("analysis failed: {e}"))
}

fn issues_json(resp: &Response, class_prefix: &str) -> Vec<serde_json::Value> {
    resp.issues
        .iter()
        .filter(|i| i.class.starts_with(class_prefix))
        .map(|i| serde_json::to_value(i).expect("issue json"))
        .collect()
}

/// Analyses `modules` one by one with the summaries of all earlier modules, and
/// checks each against the analysis of everything up to it together.
fn check_equivalence(name: &str, modules: &[&str], packages: &[&str]) -> Vec<usize> {
    let tmp = TempDir::new(&format!("racer-summaries-{name}"));
    let (support, outs) = compile_modules(name, modules, tmp.path());
    let mut summary_files: Vec<PathBuf> = Vec::new();
    let mut counts = Vec::new();
    for (k, m) in modules.iter().enumerate() {
        let out = tmp.join(format!("{m}.summaries"));
        // Separately: this module alone, upstream known only through summary files.
        let alone = run(&request(vec![outs[k].clone()], vec![support.clone()], summary_files.clone(), Some(out.clone())));
        // Together: this module and all upstream modules analysed from their classes.
        let together = run(&request(outs[..=k].to_vec(), vec![support.clone()], vec![], None));
        let expected = issues_json(&together, packages[k]);
        let got = issues_json(&alone, packages[k]);
        assert_eq!(
            serde_json::to_string_pretty(&got).unwrap(),
            serde_json::to_string_pretty(&expected).unwrap(),
            "module {m} of {name}: issues differ between summary-based and whole analysis"
        );
        assert!(alone.issues.iter().all(|i| i.class.starts_with(packages[k])), "upstream classes must never be reported on");
        assert_eq!(alone.stats.upstream_methods > 0, k > 0, "upstream summaries loaded for {m}");
        counts.push(got.len());
        summary_files.push(out);
    }
    counts
}

#[test]
fn pair_of_modules_matches_whole_analysis() {
    let counts = check_equivalence("pair", &["a", "b"], &["com.acme.a.", "com.acme.b."]);
    assert!(counts[1] >= 5, "the application module must have cross-module races, got {counts:?}");
}

#[test]
fn calls_into_an_upstream_module_of_platform_classes_use_its_summaries() {
    let counts = check_equivalence("platform", &["a", "b"], &["java.racerdemo.", "com.acme.app."]);
    assert_eq!(counts[1], 1, "the race on java.racerdemo.Counter.count, reached from Tally.record");
}

/// Module `b` of the pair analysed alone, with the summaries of `a`.
fn pair_b_alone(tag: &str) -> Response {
    pair_b_alone_with(tag, |_| {})
}

/// `pair`'s module b analysed alone against a's summary file, with options set by `options`.
fn pair_b_alone_with(tag: &str, options: impl Fn(&mut Options)) -> Response {
    let tmp = TempDir::new(&format!("racer-summaries-{tag}"));
    let (support, outs) = compile_modules("pair", &["a", "b"], tmp.path());
    let sums = tmp.join("a.summaries");
    let mut upstream = request(vec![outs[0].clone()], vec![support.clone()], vec![], Some(sums.clone()));
    options(&mut upstream.options);
    run(&upstream);
    let mut downstream = request(vec![outs[1].clone()], vec![support], vec![sums], None);
    options(&mut downstream.options);
    run(&downstream)
}

/// The (method, access path) of each issue reported in `class`, in report order.
fn reported_in<'r>(resp: &'r Response, class: &str) -> Vec<(&'r str, &'r str)> {
    resp.issues.iter().filter(|i| i.class == class).map(|i| (i.method.as_str(), i.access_path.as_str())).collect()
}

/// `b`'s `Journal` gives tasks to executors `a` keeps in statics: `a`'s summary file says what
/// each field runs its tasks on, so the tasks on its single-thread executor do not race with
/// each other, and those on its pool do, as in the whole analysis.
#[test]
fn upstream_executor_fields_run_their_tasks_as_their_stores_say() {
    let alone = pair_b_alone("executors");
    assert_eq!(reported_in(&alone, "com.acme.b.Journal"), vec![("spread", "this.mPooled")]);
}

/// `b`'s `Thumbnails` looks up entries in `a`'s LRU cache, whose constructor asks for access
/// order: `a`'s summary file lists the class, so each lookup is a write of the cache, as in the
/// whole analysis (an unlocked lookup races with itself; the locked one does not).
#[test]
fn lookups_in_an_upstream_access_ordered_map_are_writes() {
    let alone = pair_b_alone("access-order");
    assert_eq!(reported_in(&alone, "com.acme.b.Thumbnails"), vec![("recent", "this.mRecent")], "{:#?}", alone.issues);
}

/// `b`'s `Profile` continues the future `a`'s `Loader.load` returns: `a`'s summary file says it
/// is the future of a task handed to another thread, so the continuation runs there and its
/// write races with the read, as in the whole analysis; the continuation of the future
/// `Loader.known` makes complete runs in the caller.
#[test]
fn continuations_of_an_upstream_task_future_run_on_the_task_thread() {
    let alone = pair_b_alone("task-futures");
    assert_eq!(reported_in(&alone, "com.acme.b.Profile"), vec![("refresh", "this.mName"), ("name", "this.mName")], "{:#?}", alone.issues);
}

/// `b`'s `Ledger` gives tasks to `a`'s direct executors, a static field given one and the
/// instance of a class whose `execute` runs its task: `a`'s summary file says so (the field's
/// kind, the class header's `execute`), and those tasks run in the calling thread, as in the
/// whole analysis; the task on `a`'s pool races with the plain write.
#[test]
fn upstream_direct_executors_run_their_tasks_in_the_calling_thread() {
    let alone = pair_b_alone("direct-executors");
    assert_eq!(reported_in(&alone, "com.acme.b.Ledger"), vec![("write", "this.mPooled"), ("writePooled", "this.mPooled")], "{:#?}", alone.issues);
}

#[test]
fn private_upstream_helpers_reach_downstream_through_their_callers() {
    let alone = pair_b_alone("private");
    let racy: Vec<_> = alone.issues.iter().filter(|i| i.class == "com.acme.b.Totals" && i.method == "addRacily").collect();
    assert_eq!(racy.len(), 1, "{:#?}", alone.issues);
    assert!(racy[0].message.contains("total"), "{}", racy[0].message);
}

/// `b`'s `Refresher` gives itself to `a`'s `Worker.onUiThread`, whose summary hands its parameter
/// to the UI thread: `refresh` runs the refresher's own `run()` there, which races with the write
/// the refresher hands to the background (and `run()` itself is reported, as it runs there). The call graph orders `run()` before `refresh`
/// although no call leads there, so the report does not hang on thread timing.
#[test]
fn a_task_handing_itself_to_an_upstream_helper_runs_its_own_run_there() {
    let alone = pair_b_alone("self-handoff");
    assert_eq!(
        reported_in(&alone, "com.acme.b.Refresher"),
        [("refresh", "this.shown"), ("reset", "this.shown"), ("run", "this.shown")],
        "{:#?}",
        alone.issues
    );
}

/// `a`'s `Ticker.launch` starts the thread it is given: its summary carries the ticker's `run()`
/// on the parameter, marked as a started thread's own code. `Clock` reads the counter that
/// `run()` writes (a race); the writes do not race with themselves.
#[test]
fn an_upstream_helper_starting_a_thread_carries_its_run_as_the_threads_own() {
    let alone = pair_b_alone("started");
    assert_eq!(reported_in(&alone, "com.acme.b.Clock"), [("now", "this.ticker.ticks")], "{:#?}", alone.issues);
}

/// `a`'s `Worker.inBackground` gives its parameter to an executor: its summary says so, and the
/// lambda `Uploader` gives it runs on a background thread, racing with the plain read.
#[test]
fn code_given_to_an_upstream_helper_that_hands_it_over_runs_in_the_background() {
    let alone = pair_b_alone("handed");
    assert_eq!(
        reported_in(&alone, "com.acme.b.Uploader"),
        [("upload", "this.uploaded"), ("uploaded", "this.uploaded")],
        "{:#?}",
        alone.issues
    );
}

/// `a`'s `Splitter.fillBoth` starts two threads and joins them: its summary marks their accesses
/// as joined, so in `SplitCounts` they run within `fill`, racing with each other on the left
/// cell (reported at `fill`) but not with the getters that run after it on the caller's thread.
#[test]
fn threads_an_upstream_helper_joins_run_within_the_call() {
    let alone = pair_b_alone("joined");
    assert_eq!(reported_in(&alone, "com.acme.b.SplitCounts"), [("fill", "this.cells.left")], "{:#?}", alone.issues);
}

/// `a`'s `Worker.timed` runs its parameter during the call, `Worker.locked` under a monitor:
/// their summaries say so, and the lambdas `Meter` gives them run in `Meter`'s methods, the
/// first unlocked (an unprotected write), the second locked.
#[test]
fn code_given_to_an_upstream_helper_that_runs_it_runs_in_the_caller() {
    let alone = pair_b_alone("runs");
    assert_eq!(
        reported_in(&alone, "com.acme.b.Meter"),
        [("tick", "this.ticks")],
        "{:#?}",
        alone.issues
    );
}

#[test]
fn inherited_thread_safe_methods_of_upstream_classes_are_pooled() {
    let alone = pair_b_alone("inherited");
    // Nothing in `b` calls `raise()`: its summary is loaded because GaugeReader inherits it.
    let read: Vec<_> = alone.issues.iter().filter(|i| i.class == "com.acme.b.GaugeReader").collect();
    assert_eq!(read.len(), 1, "{:#?}", alone.issues);
    assert_eq!((read[0].method.as_str(), read[0].access_path.as_str()), ("read", "this.level"));
    assert!(read[0].message.contains("Gauge.raise()"), "{}", read[0].message);
}

#[test]
fn an_upstream_method_locking_its_argument_holds_the_callers_lock() {
    // Two different locks exclude each other unless the option says otherwise.
    let default = pair_b_alone("locks-default");
    assert!(!default.issues.iter().any(|i| i.class == "com.acme.b.TwoLocks"), "{:#?}", default.issues);
    let alone = pair_b_alone_with("locks", |o| o.different_locks = true);
    // Both writes end in `Slot.setUnder`: one race, reported once with the other entry point.
    assert_eq!(reported_in(&alone, "com.acme.b.TwoLocks"), [("setFirst", "this.slot.value")], "{:#?}", alone.issues);
    let first = alone.issues.iter().find(|i| i.class == "com.acme.b.TwoLocks").unwrap();
    assert_eq!(first.other_entry_points, 1);
    assert!(first.message.contains("holding `this.mFirst`") && first.message.contains("holds `this.mSecond`"), "{}", first.message);
}

/// `a`'s `Bag` locks itself in `add` and `size`, but its `remove` may skip the lock: `b`'s
/// `BagPool` takes from it without its own lock (reported, against the locked `give`) and
/// counts without it (safe, the bag's lock protects the read), as in the whole analysis.
#[test]
fn an_upstream_collection_that_locks_itself_protects_its_downstream_callers() {
    let alone = pair_b_alone("self-locking");
    assert_eq!(reported_in(&alone, "com.acme.b.BagPool"), [("take", "this.idle")], "{:#?}", alone.issues);
    let compat = pair_b_alone_with("self-locking-compat", |o| o.racerd_compat = true);
    assert_eq!(reported_in(&compat, "com.acme.b.BagPool"), [("take", "this.idle"), ("count", "this.idle")], "{:#?}", compat.issues);
}

/// The methods a summary file carries a summary of, as `Class.name`, from its JSON dump.
fn summarised_methods(file: &Path) -> Vec<String> {
    let mut out = Vec::new();
    racer::summaries::dump::write(file, &[], &mut out).expect("dump");
    let dump: serde_json::Value = serde_json::from_slice(&out).expect("dump json");
    let methods = dump["summaries"].as_array().expect("summaries").iter().map(|s| &s["method"]);
    methods.map(|m| format!("{}.{}", m["class"].as_str().unwrap_or("?"), m["name"].as_str().unwrap_or("?"))).collect()
}

#[test]
fn summary_files_leave_out_the_methods_of_anonymous_classes_but_their_constructors() {
    let tmp = TempDir::new("racer-summaries-unnamed");
    let sources = tmp.join("src/p");
    std::fs::create_dir_all(&sources).expect("source dir");
    let source = "package p;\npublic class Outer {\n  int count;\n  public Runnable task() {\n    \
                  return new Runnable() {\n      public void run() { count++; }\n    };\n  }\n}\n";
    std::fs::write(sources.join("Outer.java"), source).expect("source");
    let classes = tmp.join("classes");
    compile(&tmp.join("src"), &classes, &[], &[]);
    let file = tmp.join("unnamed.summaries");
    run(&request(vec![classes], vec![], vec![], Some(file.clone())));
    let methods = summarised_methods(&file);
    assert!(methods.contains(&"p.Outer.task".to_string()), "{methods:?}");
    assert!(methods.contains(&"p.Outer$1.<init>".to_string()), "{methods:?}");
    assert!(!methods.contains(&"p.Outer$1.run".to_string()), "no other module can call it: {methods:?}");
}

#[test]
fn pair_reports_the_races_that_live_upstream_with_full_traces() {
    let tmp = TempDir::new("racer-summaries-pair-traces");
    let (support, outs) = compile_modules("pair", &["a", "b"], tmp.path());
    let a_sum = tmp.join("a.json");
    run(&request(vec![outs[0].clone()], vec![support.clone()], vec![], Some(a_sum.clone())));
    let b = run(&request(vec![outs[1].clone()], vec![support], vec![a_sum], None));
    let find = |method: &str, path: &str| {
        b.issues
            .iter()
            .find(|i| i.class == "com.acme.b.Service" && i.method == method && i.access_path == path)
            .unwrap_or_else(|| panic!("no issue on Service.{method} {path}: {:#?}", b.issues))
    };
    let update = find("update", "this.counter.count");
    assert_eq!(update.kind, racer::report::IssueKind::ThreadSafetyViolation);
    let trace: Vec<(&str, &str)> = update.trace.iter().map(|t| (t.class.as_str(), t.method.as_str())).collect();
    assert_eq!(trace, vec![("com.acme.b.Service", "update"), ("com.acme.a.Counter", "increment")]);
    assert_eq!(update.trace[1].line, 9, "the access line inside the upstream method");
    find("rememberViaLibrary", "this.registry.plain");
    // Not reported: the volatile field, the synchronized container set up by Registry's
    // constructor, the locked library method, the owned local, the @ThreadSafe interface.
    assert!(b.issues.iter().all(|i| !i.access_path.ends_with(".seen")));
    assert!(b.issues.iter().all(|i| i.access_path != "this.registry.safe"));
    assert!(b.issues.iter().all(|i| i.method != "rememberUnderLock" && i.method != "owned"));
    let interface_calls: Vec<&str> = b
        .issues
        .iter()
        .filter(|i| i.kind == racer::report::IssueKind::InterfaceNotThreadSafe)
        .map(|i| i.access_path.as_str())
        .collect();
    assert_eq!(interface_calls, vec!["l"], "only the un-annotated upstream interface, called on a parameter");
    // @ThreadSafe inherited from the upstream superclass.
    assert!(b.issues.iter().any(|i| i.class == "com.acme.b.Derived" && i.method == "work"));
    assert!(b.issues.iter().all(|i| i.class != "com.acme.b.Plain"));
}

#[test]
fn chain_of_three_modules_matches_whole_analysis() {
    let counts = check_equivalence("chain", &["a", "b", "c"], &["com.acme.chain.a.", "com.acme.chain.b.", "com.acme.chain.c."]);
    assert!(counts[2] >= 2, "the race two modules deep must be found, got {counts:?}");
}

/// A trace step in an upstream class the module never names (known only to an upstream
/// module's summary file) names that class's source file, as the whole analysis does.
#[test]
fn a_trace_step_in_a_class_only_upstream_code_names_keeps_its_source_file() {
    let counts = check_equivalence("deep", &["a", "b", "c"], &["com.acme.deep.Cell", "com.acme.deep.Box", "com.acme.deep.shop."]);
    assert_eq!(counts[2], 1, "the race in `Cell` reached from `Shop.refund`");
}

#[test]
fn chain_trace_goes_two_modules_deep() {
    let tmp = TempDir::new("racer-summaries-chain-trace");
    let (support, outs) = compile_modules("chain", &["a", "b", "c"], tmp.path());
    let (a_sum, b_sum) = (tmp.join("a.json"), tmp.join("b.json"));
    run(&request(vec![outs[0].clone()], vec![support.clone()], vec![], Some(a_sum.clone())));
    run(&request(vec![outs[1].clone()], vec![support.clone()], vec![a_sum.clone()], Some(b_sum.clone())));
    let c = run(&request(vec![outs[2].clone()], vec![support], vec![a_sum, b_sum], None));
    let deposit = c
        .issues
        .iter()
        .find(|i| i.method == "deposit" && i.access_path.starts_with("this.ledger.store."))
        .unwrap_or_else(|| panic!("deposit race missing: {:#?}", c.issues));
    let methods: Vec<&str> = deposit.trace.iter().map(|t| t.method.as_str()).collect();
    assert_eq!(methods, vec!["deposit", "record", "add"]);
    // The locked path's writes are protected; its locked read still races with the
    // unlocked write of `deposit` (8.7.5).
    let safely: Vec<_> = c.issues.iter().filter(|i| i.method == "depositSafely").collect();
    assert_eq!(safely.len(), 1, "{safely:#?}");
    assert!(safely[0].message.contains("reads with synchronization"), "{}", safely[0].message);
    assert_eq!(safely[0].conflicts[0].method, "deposit");
}

#[test]
fn summary_files_are_deterministic_and_portable() {
    let tmp = TempDir::new("racer-summaries-determinism");
    let (support, outs) = compile_modules("pair", &["a", "b"], tmp.path());
    let mut bytes = Vec::new();
    for threads in [1, 2, 2] {
        let out = tmp.join(format!("a-{threads}-{}.bin", bytes.len()));
        let mut r = request(vec![outs[0].clone()], vec![support.clone()], vec![], Some(out.clone()));
        r.options.threads = threads;
        run(&r);
        bytes.push(std::fs::read(&out).expect("summary file"));
    }
    assert!(bytes.windows(2).all(|w| w[0] == w[1]), "summary files differ between runs");
    assert!(bytes[0].starts_with(b"RACERSUM"), "binary summary file");
    let path = tmp.join("a.bin");
    std::fs::write(&path, &bytes[0]).unwrap();
    let text = racer::summaries::dump(&path).expect("dump");
    assert!(!text.contains(&tmp.path().display().to_string()), "no absolute paths in summary files");
    assert!(!text.contains(&workspace_root().display().to_string()));
    let dump: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(dump["format"], "racer-summaries");
    assert_eq!(dump["tool_version"], racer::api::TOOL_VERSION);
    let methods: Vec<&str> = dump["summaries"].as_array().unwrap().iter().map(|s| s["method"]["name"].as_str().unwrap()).collect();
    assert!(methods.contains(&"increment"), "the dump lists the summaries: {methods:?}");
    // A private method is only reached through its callers' summaries.
    assert!(methods.contains(&"add") && !methods.contains(&"bump"), "no summaries of private methods: {methods:?}");
}

/// `--class` limits a dump to the classes named or matched, with their methods' summaries and
/// inline shapes; the rest of the file is as the whole dump shows it.
#[test]
fn a_dump_limited_to_some_classes_shows_those_and_nothing_else() {
    let tmp = TempDir::new("racer-summaries-dump-classes");
    // Each class has a bridge method, which the file carries as an inline shape.
    let class = |name: &str| {
        format!("public class {name} implements Comparable<{name}> {{\n  int n;\n  public synchronized void add() {{ n++; }}\n  public int compareTo({name} o) {{ return n - o.n; }}\n}}\n")
    };
    for (package, name) in [("p", "Counter"), ("p", "Tally"), ("p", "TallyTap"), ("p", "Other"), ("q", "Counter")] {
        std::fs::create_dir_all(tmp.join("src").join(package)).expect("source dir");
        std::fs::write(tmp.join(format!("src/{package}/{name}.java")), format!("package {package};\n{}", class(name))).expect("source");
    }
    let classes = tmp.join("classes");
    compile(&tmp.join("src"), &classes, &[], &[]);
    let file = tmp.join("dump.bin");
    run(&request(vec![classes], vec![], vec![], Some(file.clone())));
    let dump = |classes: &[&str]| -> serde_json::Value {
        let mut out = Vec::new();
        let classes: Vec<String> = classes.iter().map(|c| c.to_string()).collect();
        racer::summaries::dump::write(&file, &classes, &mut out).expect("dump");
        serde_json::from_slice(&out).expect("dump json")
    };
    // Each section's elements, with the class each belongs to.
    let classes_of = |d: &serde_json::Value, section: &str| -> Vec<String> {
        d[section]
            .as_array()
            .expect(section)
            .iter()
            .map(|e| e["name"].as_str().or(e["method"]["class"].as_str()).or(e[0]["class"].as_str()).expect("a class").to_string())
            .collect()
    };
    let whole = dump(&[]);
    let only = dump(&["p.Counter", "p.Tal*"]);
    for section in ["classes", "inline", "summaries"] {
        let wanted = |c: &String| c == "p.Counter" || c.starts_with("p.Tal");
        let expected: Vec<String> = classes_of(&whole, section).into_iter().filter(wanted).collect();
        assert_eq!(classes_of(&only, section), expected, "{section}");
    }
    assert_eq!(classes_of(&only, "classes"), ["p.Counter", "p.Tally", "p.TallyTap"]);
    assert_eq!(classes_of(&only, "inline"), ["p.Counter", "p.Tally", "p.TallyTap"]);
    assert!(!classes_of(&only, "summaries").is_empty() && !classes_of(&only, "inline").is_empty(), "{only:#}");
    assert_eq!(only["tool_version"], whole["tool_version"]);
    let none = dump(&["z.**"]);
    assert!(["classes", "inline", "summaries"].iter().all(|s| none[*s].as_array().is_some_and(|a| a.is_empty())), "{none:#}");
    let mut out = Vec::new();
    let bad = racer::summaries::dump::write(&file, &["p.[".to_string()], &mut out).expect_err("an invalid glob");
    assert!(bad.0.starts_with("racer: --class: invalid class pattern 'p.['") && !bad.0.contains('\n'), "{}", bad.0);
    assert!(out.is_empty(), "nothing printed before the error");
}

/// A module analysed against an upstream file made under other rules says so, once per file,
/// naming both modes; the same rules say nothing. The dump shows the file's mode.
#[test]
fn upstream_summaries_made_in_another_mode_are_named_in_a_warning() {
    let tmp = TempDir::new("racer-summaries-modes");
    let (support, outs) = compile_modules("pair", &["a", "b"], tmp.path());
    let made_in = |tag: &str, options: &dyn Fn(&mut Options)| {
        let out = tmp.join(format!("a-{tag}.summaries"));
        let mut r = request(vec![outs[0].clone()], vec![support.clone()], vec![], Some(out.clone()));
        options(&mut r.options);
        run(&r);
        out
    };
    let compat = made_in("compat", &|o| o.racerd_compat = true);
    let without = made_in("without", &|o| o.without_extensions = vec!["thread-handoffs".into(), "converged-loops".into()]);
    let default = made_in("default", &|_| {});
    let warnings = |upstream: &Path, options: &dyn Fn(&mut Options)| -> Vec<String> {
        let mut r = request(vec![outs[1].clone()], vec![support.clone()], vec![upstream.to_path_buf()], None);
        options(&mut r.options);
        run(&r).diagnostics.iter().map(|d| format!("{}: {}", d.file, d.message)).collect()
    };
    let advice = "calls into these classes follow the other mode's rules; give every module the same racerd-compat and without-extension options";
    assert_eq!(
        warnings(&compat, &|_| {}),
        [format!("{}: summaries made in racerd-compat mode, but this run is in default mode: {advice}", compat.display())]
    );
    assert_eq!(
        warnings(&without, &|_| {}),
        [format!(
            "{}: summaries made in default without converged-loops, thread-handoffs mode, but this run is in default mode: {advice}",
            without.display()
        )]
    );
    assert_eq!(
        warnings(&default, &|o| o.racerd_compat = true),
        [format!("{}: summaries made in default mode, but this run is in racerd-compat mode: {advice}", default.display())]
    );
    assert!(warnings(&default, &|_| {}).is_empty());
    assert!(warnings(&compat, &|o| o.racerd_compat = true).is_empty());
    // The reporting options leave summaries alone: no warning.
    assert!(warnings(&default, &|o| { o.high_confidence = true; o.different_locks = true }).is_empty());
    let dump: serde_json::Value = serde_json::from_str(&racer::summaries::dump(&without).expect("dump")).expect("json");
    assert_eq!(dump["analysis_mode"], "default without converged-loops, thread-handoffs");
}

/// Replaces the first occurrence of `from` by `to` (same length), then recomputes the index
/// checksum when `fix_index` is set, as a file written that way would carry.
fn patched(bytes: &[u8], from: &[u8], to: &[u8], fix_index: bool) -> Vec<u8> {
    let at = bytes.windows(from.len()).position(|w| w == from).expect("pattern in the file");
    let mut out = bytes.to_vec();
    out[at..at + to.len()].copy_from_slice(to);
    if fix_index {
        let len = u32::from_le_bytes(out[12..16].try_into().unwrap()) as usize;
        let crc = crc32fast::hash(&out[20..20 + len]);
        out[16..20].copy_from_slice(&crc.to_le_bytes());
    }
    out
}

#[test]
fn bad_summary_files_are_rejected_with_a_clear_message() {
    let tmp = TempDir::new("racer-summaries-bad");
    let (support, outs) = compile_modules("pair", &["a", "b"], tmp.path());
    let good = tmp.join("a.bin");
    run(&request(vec![outs[0].clone()], vec![support.clone()], vec![], Some(good.clone())));
    let bytes = std::fs::read(&good).unwrap();
    let version = racer::api::TOOL_VERSION.as_bytes();
    let other_version: Vec<u8> = version.iter().map(|b| if b.is_ascii_digit() { b'9' } else { *b }).collect();
    let mut old_version = bytes.clone();
    old_version[8..12].copy_from_slice(&0u32.to_le_bytes());
    let mut corrupt_chunk = bytes.clone();
    let last = corrupt_chunk.len() - 3;
    corrupt_chunk[last] ^= 0x55;
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated".into()),
        ("tiny", bytes[..5].to_vec(), "truncated".into()),
        ("empty", Vec::new(), "not a racer summary file".into()),
        ("not-json", b"this is not json\n".to_vec(), "not a racer summary file".into()),
        ("other-json", b"{\"hello\": 1}".to_vec(), "not a racer summary file".into()),
        ("json-format", b"{\"format\":\"racer-summaries\",\"format_version\":1}".to_vec(), "format version 1 is not supported".into()),
        ("old-format", old_version, "format version 0".into()),
        ("other-tool", patched(&bytes, version, &other_version, true), format!("written by racer {}", String::from_utf8(other_version.clone()).unwrap())),
        ("corrupt-index", patched(&bytes, version, &other_version, false), "checksum mismatch in the index".into()),
        ("corrupt-chunk", corrupt_chunk, "checksum mismatch in the summaries of package 'com.acme.a'".into()),
    ];
    for (name, content, expected) in cases {
        let path = tmp.join(format!("{name}.bin"));
        std::fs::write(&path, content).unwrap();
        let err = racer::analyze(&request(vec![outs[1].clone()], vec![support.clone()], vec![path.clone()], None))
            .expect_err(&format!("{name}: a bad summary file must be an error"));
        let message = err.to_string();
        assert!(!message.contains('\n'), "{name}: one line: {message}");
        assert!(message.contains(&path.display().to_string()), "{name}: names the file: {message}");
        assert!(message.contains(&expected), "{name}: says what is wrong ({expected}): {message}");
        assert!(message.contains("rebuild the upstream module"), "{name}: says what to do: {message}");
        let dumped = racer::summaries::dump(&path).expect_err(&format!("{name}: dump checks the file too"));
        assert!(dumped.to_string().contains(&expected), "{name}: dump: {dumped}");
        let mut printed = Vec::new();
        assert!(racer::summaries::dump::write(&path, &[], &mut printed).is_err(), "{name}: dump fails");
        assert!(printed.is_empty(), "{name}: a damaged file prints nothing but its error");
    }
    let missing = tmp.join("missing.bin");
    let err = racer::analyze(&request(vec![outs[1].clone()], vec![support], vec![missing.clone()], None)).unwrap_err();
    assert!(err.to_string().contains(&missing.display().to_string()));
}

/// Real jars that depend on each other (`RACER_CORPUS`: the jar paths, one per line, as
/// printed by `scripts/corpus.sh`; `scripts/test.sh` sets it). Downstream analysed with the
/// upstream jar's summaries must equal downstream analysed together with the upstream jar.
#[test]
fn real_jar_pairs_match_whole_analysis() {
    let corpus = match std::env::var("RACER_CORPUS") {
        Ok(list) => list,
        Err(_) => {
            eprintln!("RACER_CORPUS not set: real jar pairs not checked (scripts/test.sh sets it)");
            return;
        }
    };
    let jar = |name: &str| -> PathBuf {
        PathBuf::from(
            corpus
                .lines()
                .find(|l| Path::new(l).file_name().map_or(false, |f| f.to_string_lossy().starts_with(name)))
                .unwrap_or_else(|| panic!("{name} not in RACER_CORPUS")),
        )
    };
    let tmp = TempDir::new("racer-summaries-jars");
    // (upstream, downstream): h2 uses lucene-core, log4j-core uses jackson-databind.
    for (up, down) in [("lucene-core", "h2-"), ("jackson-databind", "log4j-core")] {
        let (up_jar, down_jar) = (jar(up), jar(down));
        let sums = tmp.join(format!("{up}.summaries"));
        run(&request(vec![up_jar.clone()], vec![], vec![], Some(sums.clone())));
        let alone = run(&request(vec![down_jar.clone()], vec![], vec![sums.clone()], None));
        let together = run(&request(vec![up_jar.clone(), down_jar.clone()], vec![], vec![], None));
        // The upstream jar's classes, as listed in its summary file.
        let file: serde_json::Value = serde_json::from_str(&racer::summaries::dump(&sums).unwrap()).unwrap();
        let upstream_classes: std::collections::HashSet<String> = file["classes"]
            .as_array()
            .expect("classes")
            .iter()
            .map(|c| c["name"].as_str().expect("class name").to_string())
            .collect();
        assert!(alone.issues.iter().all(|i| !upstream_classes.contains(&i.class)), "upstream classes are never reported on");
        let keep = |r: &Response| -> Vec<serde_json::Value> {
            r.issues
                .iter()
                .filter(|i| !upstream_classes.contains(&i.class))
                .map(|i| serde_json::to_value(i).unwrap())
                .collect()
        };
        let (got, expected) = (keep(&alone), keep(&together));
        // Only what the downstream jar reaches is loaded from the upstream file.
        assert!(alone.stats.upstream_classes > 10, "{up}: upstream summaries loaded");
        assert!(alone.stats.upstream_classes < upstream_classes.len(), "{up}: not every upstream class is loaded");
        assert_eq!(got.len(), expected.len(), "{down} with {up} summaries: issue counts differ");
        assert!(got == expected, "{down} with {up} summaries: issues differ from the whole analysis");
        eprintln!("{down} with {up} summaries: {} issues, identical to the whole analysis", got.len());
    }
}

#[test]
fn a_call_on_a_fresh_object_of_an_upstream_class_runs_its_summary() {
    let alone = pair_b_alone("fresh-receiver");
    // Sampler calls Sink.take on a CountingSink it allocates: CountingSink.take's summary,
    // which nothing else in `b` names, is loaded and applied.
    let races: Vec<_> = alone.issues.iter().filter(|i| i.class == "com.acme.b.Sampler").collect();
    assert_eq!(races.len(), 1, "{:#?}", alone.issues);
    assert_eq!((races[0].method.as_str(), races[0].access_path.as_str()), ("sample", "this.total.samples"));
    // FieldSampler calls Tap.pass through a final field only ever given a CountingTap:
    // CountingTap.pass's summary, which nothing in `b` names either, is found through the
    // class's references (the constructor stores a CountingTap) and applied.
    assert_eq!(reported_in(&alone, "com.acme.b.FieldSampler"), [("sample", "this.total.samples")], "{:#?}", alone.issues);
    // SharedTapSampler's tap is only ever given what its static SHARED holds, a TallyTap
    // (SHARED itself is an Object): only the class's references pair Tap.pass with TallyTap.
    assert_eq!(reported_in(&alone, "com.acme.b.SharedTapSampler"), [("sample", "this.total.samples")], "{:#?}", alone.issues);
}

/// The static fields a method's summary reads as a whole (a path of one step), from the dump.
fn static_reads(file: &Path, method: &str) -> Vec<String> {
    let mut out = Vec::new();
    racer::summaries::dump::write(file, &[], &mut out).expect("dump");
    let dump: serde_json::Value = serde_json::from_slice(&out).expect("dump json");
    let summary = dump["summaries"].as_array().expect("summaries").iter().find(|s| s["method"]["name"] == method);
    let accesses = summary.and_then(|s| s["summary"]["accesses"].as_array()).cloned().unwrap_or_default();
    let mut reads: Vec<String> = accesses
        .iter()
        .filter_map(|a| {
            let path = &a["kind"]["Read"];
            let steps = path["steps"].as_array()?;
            (path["base"]["Static"].is_string() && steps.len() == 1).then(|| steps[0]["Field"]["name"].as_str().unwrap_or("?").to_string())
        })
        .collect();
    reads.sort();
    reads
}

/// Sets `ACC_FINAL` on the field `name` of a class file: a class that writes a final static
/// outside its class initializer, as older class files may (javac refuses to compile one).
fn made_final(class_file: &[u8], name: &str) -> Vec<u8> {
    let u2 = |at: usize| u16::from_be_bytes([class_file[at], class_file[at + 1]]) as usize;
    let u4 = |at: usize| u32::from_be_bytes(class_file[at..at + 4].try_into().unwrap()) as usize;
    let (mut at, mut index, count) = (10, 1, u2(8));
    let mut wanted = 0;
    while index < count {
        let tag = class_file[at];
        let (size, slots) = match tag {
            1 => (3 + u2(at + 1), 1),
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => (5, 1),
            5 | 6 => (9, 2),
            7 | 8 | 16 | 19 | 20 => (3, 1),
            15 => (4, 1),
            other => panic!("constant pool tag {other}"),
        };
        if tag == 1 && &class_file[at + 3..at + size] == name.as_bytes() {
            wanted = index;
        }
        at += size;
        index += slots;
    }
    at += 6;
    at += 2 + 2 * u2(at);
    let fields = u2(at);
    at += 2;
    for _ in 0..fields {
        if u2(at + 2) == wanted {
            let mut out = class_file.to_vec();
            out[at + 1] |= 0x10;
            return out;
        }
        let attributes = u2(at + 6);
        at += 8;
        for _ in 0..attributes {
            at += 6 + u4(at + 2);
        }
    }
    panic!("no field {name}");
}

/// A static final field set by its class initializer only is never written after another thread
/// can see the class, so its reads race with nothing and summaries leave them out. A static that
/// is not final, or a final one some other method writes, keeps its reads.
#[test]
fn reads_of_static_finals_set_only_by_the_class_initializer_are_left_out() {
    let tmp = TempDir::new("racer-summaries-init-only");
    let sources = tmp.join("src/p");
    std::fs::create_dir_all(&sources).expect("source dir");
    let source = "package p;\npublic class Settings {\n  static final int[] SIZES = {1, 2};\n  static int hits;\n  \
                  static Object cache;\n  public synchronized int read() { return SIZES.length + hits + (cache == null ? 0 : 1); }\n  \
                  public void reset() { cache = new Object(); }\n}\n";
    std::fs::write(sources.join("Settings.java"), source).expect("source");
    let classes = tmp.join("classes");
    compile(&tmp.join("src"), &classes, &[], &["--release", "8"]);
    let file = tmp.join("settings.summaries");
    run(&request(vec![classes.clone()], vec![], vec![], Some(file.clone())));
    assert_eq!(static_reads(&file, "read"), ["cache", "hits"]);

    let class_file = classes.join("p/Settings.class");
    let bytes = std::fs::read(&class_file).expect("class file");
    std::fs::write(&class_file, made_final(&bytes, "cache")).expect("patched class file");
    run(&request(vec![classes], vec![], vec![], Some(file.clone())));
    assert_eq!(static_reads(&file, "read"), ["cache", "hits"], "`reset` writes the final `cache`: its reads stay");
}
