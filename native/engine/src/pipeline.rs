//! One analysis run, start to finish: inputs, upstream summaries, classpath
//! context, summaries bottom-up, race reporting, and output files.

use crate::fxhash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::analysis::annotations::AnnotationConfig;
use crate::analysis::extensions::Extensions;
use crate::analysis::races::{self, ReportConfig};
use crate::analysis::schedule::{self, Analysis, Inputs};
use crate::api::{Counts, Diagnostic, Error, Request, Response, Stats, DEFAULT_CONSOLE_LIMIT};
use crate::classfile::model::*;
use crate::hierarchy::{ClassTable, Origin};
use crate::input::{self, ClasspathIndex};
use crate::context;
use crate::report::{console, SourceIndex};
use crate::summaries;
use crate::triage::glob::{is_glob, ClassGlob};
use crate::timings::phase;
use crate::triage::{self, Triage};
use crate::sym::Sym;

pub fn run(request: &Request) -> Result<Response, Error> {
    let limit = usize::try_from(request.options.max_memory_mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
    let mut builder = rayon::ThreadPoolBuilder::new().start_handler(move |_| crate::memory::set_thread_limit(limit));
    if request.options.threads > 0 {
        builder = builder.num_threads(request.options.threads);
    }
    let pool = builder.build().map_err(|e| Error(format!("racer: cannot start worker threads: {e}")))?;
    pool.install(|| run_in_pool(request))
}

fn run_in_pool(request: &Request) -> Result<Response, Error> {
    let start = Instant::now();
    if request.inputs.is_empty() {
        return Err(Error("racer: no input class directories or jars given".into()));
    }
    let extensions = Extensions::from_options(&request.options).map_err(|e| Error(format!("racer: {e}")))?;
    // Summary files record it; upstream ones made in another mode are named in a warning.
    let mode = extensions.mode();
    let triage = Triage::load(request)?;
    let progress = Progress::new();
    let mut diagnostics = Vec::new();
    let mut units = Vec::new();
    // Jars are read and their directories parsed in parallel; their units, diagnostics and
    // the first fatal error keep the order of the inputs.
    let listed: Vec<_> = request
        .inputs
        .par_iter()
        .map(|path| {
            let mut found = Vec::new();
            let listed = input::list_units(path, &mut found);
            crate::memory::check();
            (listed, found)
        })
        .collect();
    let mut context = Vec::new();
    for (listed, found) in listed {
        diagnostics.extend(found);
        let listed = listed?;
        units.extend(listed.units);
        context.extend(listed.context);
    }
    let upstream_files = summaries::UpstreamFiles::open(&request.summaries_in)?;
    diagnostics.extend(upstream_files.made_in_other_modes(&mode));
    crate::memory::check();

    let mut classes = load_inputs(&units, &mut diagnostics);
    // The units hold the input jars' bytes: free them before the analysis needs the memory.
    drop(units);
    phase(start, "read+parse");
    progress.say(classes.len(), || format!("read {} classes", classes.len()));
    let mut table = ClassTable::new();
    for c in &classes {
        table.insert(c.header.clone(), Origin::Analysed);
    }
    let mut index = ClasspathIndex::build(&request.classpath, &mut diagnostics);
    index.add_context(context);
    let loading = Instant::now();
    let inherited = context::Inherited {
        extensions,
        thread_safe_aliases: &request.options.thread_safe_annotations,
    };
    let upstream = context::load(&mut table, &index, &classes, &upstream_files, inherited, &mut diagnostics)?;
    if !upstream_files.is_empty() {
        phase(loading, "load upstream summaries and context");
    }
    table.freeze();
    crate::memory::check();
    phase(start, "classpath+hierarchy");

    let config = AnnotationConfig {
        thread_safe_aliases: request.options.thread_safe_annotations.clone(),
        android_threads: extensions.android_threads,
        binder_services: extensions.android_threads && extensions.binder_services,
        request_threads: extensions.request_threads,
        thread_runs: extensions.thread_runs,
        copied_synchronized: extensions.copied_synchronized,
    };
    let ignore = ignored_classes(&request.options.ignore_classes, &table, &classes)?;
    // Code that makes no scheduler and reads no dispatcher keeps none in its fields (see
    // `kept_schedulers::KeptSchedulers`): known from the references, its bodies need no scan,
    // unless an upstream module's providers give one it may be injected or its fields keep one.
    let upstream_schedulers = upstream_files.schedulers();
    let names_schedulers = extensions.thread_handoffs
        && (!upstream_schedulers.is_empty()
            || classes.iter().any(|c| c.references.methods.iter().any(|m| crate::analysis::kept_schedulers::makes_scheduler(m))));
    let scheduler_field_classes: Vec<bool> = classes
        .iter()
        .map(|c| names_schedulers && c.references.fields.iter().any(|f| crate::analysis::kept_schedulers::is_scheduler_type(f.descriptor)))
        .collect();
    // What the code refers to has served (upstream loading, the ignore globs): freed before
    // the analysis needs the memory.
    for class in &mut classes {
        if let Some(class) = Arc::get_mut(class) {
            class.references = Default::default();
        }
    }
    let for_file = request.summaries_out.as_ref().map(|_| summaries::downstream_methods(&classes));
    let bodies = schedule::take_bodies(&mut classes);
    let inputs = Inputs {
        classes: &classes,
        table: &table,
        config: &config,
        ignore_classes: &ignore,
        upstream: &upstream.summaries,
        upstream_shapes: &upstream.shapes,
        summaries_for: for_file.as_ref(),
        names_schedulers,
        upstream_schedulers: &upstream_schedulers,
        scheduler_field_classes: &scheduler_field_classes,
        extensions,
    };
    let analysis = schedule::run(&inputs, bodies);
    crate::memory::check();
    phase(start, "summaries");
    let analysed = analysis.methods.iter().filter(|m| m.analysed).count();
    progress.say(classes.len(), || format!("analysed {analysed} methods"));
    let library_packages: Vec<String> = request.options.library_packages.iter().map(|p| package_prefix(p)).collect();
    // Only a file name: an upstream file that cannot be read here gives none.
    let upstream_source_file = |class| upstream_files.class(class).ok().flatten().and_then(|h| h.source_file);
    let report_config = ReportConfig {
        table: &table,
        ignore_classes: &ignore,
        library_packages: &library_packages,
        upstream: &upstream.summaries,
        thread_safe_aliases: &request.options.thread_safe_annotations,
        extensions,
        upstream_source_file: &upstream_source_file,
    };
    // The summary file does not depend on the report: both are made at once, so that the
    // serial stretches of each leave the other a core.
    let (triaged, summary_file) = rayon::join(
        || triage.apply(&table, races::report(&analysis, &classes, &report_config)),
        || match (&request.summaries_out, &for_file) {
            (Some(out), Some(for_file)) => write_summaries(out, &mode, &classes, &analysis, for_file),
            _ => Ok(()),
        },
    );
    crate::memory::check();
    phase(start, "reporting and summary file");
    if let Some(path) = &request.write_baseline {
        triage::baseline::write(path, &triaged.issues)?;
    }
    summary_file?;
    if let Some(note) = missing_lines_note(&triaged.issues) {
        diagnostics.push(note);
    }
    diagnostics.sort();
    diagnostics.dedup();
    let mut response = Response {
        counts: Counts::of(&triaged.issues, triaged.stale_baseline_entries),
        issues: triaged.issues,
        diagnostics,
        baseline_applied: triage.has_baseline(),
        stats: Stats {
            classes: classes.len(),
            methods_analysed: analysed,
            upstream_classes: upstream.classes.len(),
            upstream_methods: upstream.summaries.len(),
            millis: start.elapsed().as_millis() as u64,
        },
        ..Response::default()
    };
    let sources = SourceIndex::new(&request.source_paths);
    response.console = console::render(
        &response,
        &sources,
        request.console_limit.unwrap_or(DEFAULT_CONSOLE_LIMIT),
        request.reports.html.as_deref(),
    );
    crate::report::write_reports_with(request, &response, &sources)?;
    crate::memory::free_off_path((analysis, classes, table));
    Ok(response)
}

/// Said once per run: issues in classes compiled without line numbers (`javac -g:none`)
/// have no line; they name their method instead. The diagnostic names the first such class.
fn missing_lines_note(issues: &[crate::report::Issue]) -> Option<Diagnostic> {
    let lineless: Vec<&crate::report::Issue> = issues.iter().filter(|i| i.line == 0).collect();
    let mut classes: Vec<&str> = lineless.iter().map(|i| i.class.as_str()).collect();
    classes.sort_unstable();
    classes.dedup();
    let first = classes.first()?;
    let which = match classes.len() {
        1 => "this class was".to_string(),
        n => format!("this class and {} other(s) were", n - 1),
    };
    Some(Diagnostic {
        file: first.to_string(),
        message: format!(
            "{which} compiled without line numbers (javac -g:none): {} issue(s) are reported with no line, naming their method",
            lineless.len()
        ),
    })
}

/// The classes never reported on (and whose methods are not followed into): exact
/// names as given, globs expanded over every class the run knows or references.
fn ignored_classes(patterns: &[String], table: &ClassTable, classes: &[Arc<Class>]) -> Result<FxHashSet<Sym>, Error> {
    let mut out: FxHashSet<Sym> = patterns.iter().filter(|p| !is_glob(p)).map(|p| Sym::new(p.trim())).collect();
    let globs: Vec<ClassGlob> = patterns
        .iter()
        .filter(|p| is_glob(p))
        .map(|p| ClassGlob::new(p).map_err(|e| Error(format!("racer: ignore_classes: {e}"))))
        .collect::<Result<_, _>>()?;
    if globs.is_empty() {
        return Ok(out);
    }
    let mut known: FxHashSet<Sym> = table.names().collect();
    known.extend(classes.par_iter().flat_map_iter(|c| context::names(c)).collect::<Vec<_>>());
    out.extend(known.into_iter().filter(|name| globs.iter().any(|g| g.is_match(name.as_str()))));
    Ok(out)
}

/// Phase progress on a terminal, for inputs large enough to take a while; silent when
/// stderr is not a terminal (build logs, pipes, plugins).
struct Progress(bool);

impl Progress {
    /// Inputs with fewer classes than this finish too quickly to need progress.
    const MIN_CLASSES: usize = 2000;

    fn new() -> Progress {
        use std::io::IsTerminal;
        Progress(std::io::stderr().is_terminal() && std::env::var_os("RACER_NO_PROGRESS").is_none())
    }

    fn say(&self, classes: usize, message: impl FnOnce() -> String) {
        if self.0 && classes >= Self::MIN_CLASSES {
            eprintln!("racer: {}", message());
        }
    }
}

/// A package option `a.b` or `a.b.` matches classes in `a.b` and below.
fn package_prefix(p: &str) -> String {
    let p = p.trim_end_matches('*').trim_end_matches('.');
    format!("{p}.")
}

fn load_inputs(units: &[input::Unit], diagnostics: &mut Vec<Diagnostic>) -> Vec<Arc<Class>> {
    // A jar entry's path names its class: a later copy of a class already seen is not
    // even parsed (the first copy wins, as for the JVM's class path).
    let mut duplicates = Duplicates::default();
    let mut first_by_entry: FxHashMap<String, usize> = FxHashMap::default();
    let mut to_load = Vec::with_capacity(units.len());
    for (k, unit) in units.iter().enumerate() {
        match unit.entry_class_name() {
            Some(name) => match first_by_entry.get(&name) {
                Some(&first) => duplicates.add(name, unit, &units[first]),
                None => {
                    first_by_entry.insert(name, k);
                    to_load.push(unit.clone());
                }
            },
            None => to_load.push(unit.clone()),
        }
    }
    let mut seen: FxHashMap<Sym, usize> = FxHashMap::default();
    let mut classes = Vec::new();
    for (k, (unit, loaded)) in to_load.iter().zip(input::load_classes(&to_load, true)).enumerate() {
        match loaded {
            Ok(class) => {
                let name = class.header.name;
                if let Some(&first) = seen.get(&name) {
                    duplicates.add(name.as_str().to_string(), unit, &to_load[first]);
                    continue;
                }
                seen.insert(name, k);
                classes.push(Arc::new(class));
            }
            Err(d) => diagnostics.push(d),
        }
    }
    diagnostics.extend(duplicates.into_diagnostics());
    classes.sort_by(|a, b| a.header.name.cmp(&b.header.name));
    classes
}

/// Classes met again after their first copy, by where the ignored copies and the first ones
/// come from: two jars that share a package give one warning, not one per class.
#[derive(Default)]
struct Duplicates {
    by_containers: BTreeMap<(String, String), Vec<(String, String)>>,
}

impl Duplicates {
    fn add(&mut self, name: String, unit: &input::Unit, first: &input::Unit) {
        self.by_containers.entry((unit.container(), first.container())).or_default().push((name, first.display()));
    }

    fn into_diagnostics(self) -> impl Iterator<Item = Diagnostic> {
        const NAMED: usize = 3;
        self.by_containers.into_iter().map(|((container, first_container), mut names)| {
            names.sort();
            let message = match names.as_slice() {
                [(name, first)] => format!("duplicate class {name} (already read from {first}); this copy is ignored"),
                _ => {
                    let shown: Vec<&str> = names.iter().take(NAMED).map(|(n, _)| n.as_str()).collect();
                    let more = match names.len().saturating_sub(NAMED) {
                        0 => String::new(),
                        n => format!(" and {n} more"),
                    };
                    format!(
                        "{} duplicate classes (already read from {first_container}); these copies are ignored: {}{more}",
                        names.len(),
                        shown.join(", ")
                    )
                }
            };
            Diagnostic { file: container, message }
        })
    }
}

/// Writes the summaries and inline shapes of `for_file`, the methods downstream modules
/// can reach (see [`summaries::downstream_methods`]).
fn write_summaries(
    path: &std::path::Path,
    mode: &str,
    classes: &[Arc<Class>],
    analysis: &Analysis,
    for_file: &FxHashSet<MethodRef>,
) -> Result<(), Error> {
    let carried = || analysis.methods.iter().enumerate().filter(|(_, e)| for_file.contains(&e.mref));
    let mut methods: Vec<(MethodRef, &crate::analysis::domain::Summary)> =
        carried().map(|(i, e)| (e.mref, &*analysis.summaries[i])).collect();
    methods.extend(analysis.without_code.iter().filter(|(m, _)| for_file.contains(m)).map(|(m, s)| (*m, &**s)));
    // Lambda bodies are never inlined (2.4): their shapes are not needed downstream.
    let inline: Vec<(MethodRef, InlineShape)> = carried()
        .filter(|(_, e)| !crate::analysis::annotations::is_lambda_body_name(e.mref.name.as_str()))
        .filter_map(|(_, e)| classes[e.class].methods[e.index].inline_shape.clone().map(|s| (e.mref, s)))
        .collect();
    let headers = classes.iter().map(|c| summaries::downstream_view(&c.header)).collect();
    summaries::write(path, mode, &analysis.kept_schedulers, headers, inline, methods)
}
