//! Bottom-up, parallel computation of summaries over the call graph: strongly
//! connected components are analysed callees-first, one "level" at a time on
//! rayon's pool; inside a recursion cycle a call to a member whose summary is
//! not ready yet has no summary (5.6), as with on-demand analysis.

use crate::fxhash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use once_cell::sync::OnceCell;
use rayon::prelude::*;

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::annotations::{is_compiler_helper_name, is_compiler_named, is_lambda_body_name, method_facts, source_name, AnnotationConfig, MethodFacts};
use super::bottom_up::BottomUp;
use super::content_observers;
use super::callgraph::CallGraph;
use super::demand::*;
use super::domain::{AccessKind, Step, Summary};
use super::interp::{analyze_method, Callee, Env, MethodInput};

/// One method of an analysed class.
pub struct MethodEntry {
    pub class: usize,
    pub index: usize,
    pub mref: MethodRef,
    pub facts: MethodFacts,
    /// False for methods that get the empty summary without analysis (4.3).
    pub analysed: bool,
    /// Whether its name or its own check (`CallGraph::requires_held_lock`) says its callers
    /// hold a lock, and its own code takes none (it is not synchronized, enters no monitor,
    /// calls no `lock()`, `lockInterruptibly()` or `tryLock()`): see
    /// [`super::races::contributes_to_pool`].
    pub callers_hold_lock: bool,
}

pub struct Analysis {
    pub methods: Vec<MethodEntry>,
    pub summaries: Vec<Arc<Summary>>,
    pub by_ref: FxHashMap<MethodRef, usize>,
    /// By class: the inherited methods whose accesses it pools with its own (see
    /// [`super::inherited::pooled_methods`]), decided once for the demand and for reporting.
    pub pooled_inherited: FxHashMap<Sym, Vec<MethodRef>>,
    /// The fields only ever given a synchronized view (see [`super::facts::Facts`]).
    pub synchronized_views: FxHashSet<(Sym, Sym)>,
    /// The fields holding an object their class's constructor was given (see
    /// [`super::given_fields`]): accesses through them are not to the own object's fields.
    pub given_fields: super::given_fields::GivenFields,
    /// What the summary file says of the schedulers this module keeps.
    pub kept_schedulers: super::kept_schedulers::ModuleSchedulers,
    /// The summaries of methods without code that say what they return: an interface method
    /// every implementation of which keeps one scheduler (for the summary file, whose
    /// downstream modules call the interface).
    pub without_code: Vec<(MethodRef, Arc<Summary>)>,
}

pub struct Inputs<'a> {
    pub classes: &'a [Arc<Class>],
    pub table: &'a ClassTable,
    pub config: &'a AnnotationConfig,
    pub ignore_classes: &'a FxHashSet<Sym>,
    pub upstream: &'a FxHashMap<MethodRef, Arc<Summary>>,
    pub upstream_shapes: &'a FxHashMap<MethodRef, InlineShape>,
    /// The methods a summary file will carry (when one is written): they are analysed
    /// with everything they call, besides the methods reporting depends on.
    pub summaries_for: Option<&'a FxHashSet<MethodRef>>,
    /// Whether the analysed code makes a scheduler or reads a Kotlin dispatcher, or an upstream
    /// module's providers give one.
    pub names_schedulers: bool,
    /// What upstream modules' summary files say of the schedulers they keep.
    pub upstream_schedulers: &'a super::kept_schedulers::ModuleSchedulers,
    /// By class index: whether the class's code names a field of a scheduler type.
    pub scheduler_field_classes: &'a [bool],
    pub extensions: crate::analysis::extensions::Extensions,
}

fn phase(start: std::time::Instant, name: &str) {
    crate::timings::phase(start, &format!("  {name}"));
}

/// The method bodies of the analysed classes by class and method index, taken out of the
/// classes so that each is freed once its method is summarised (see [`take_bodies`]).
pub type Bodies = Vec<Vec<Option<Body>>>;

/// The largest cycle ordered around its callbacks' registrations (see `bottom_up::callees_first`):
/// a component's own code (a receiver, what it runs and what registers it again). Larger cycles
/// come from calls resolved to many overrides across a framework, where each order loses some
/// summaries and a new one would only move which.
const MAX_ORDERED_CYCLE: usize = 64;

/// Takes the bodies out of `classes` (which nothing else holds at this point; a class that is
/// shared keeps its bodies, copied here).
pub fn take_bodies(classes: &mut [Arc<Class>]) -> Bodies {
    classes
        .iter_mut()
        .map(|class| match Arc::get_mut(class) {
            Some(class) => class.methods.iter_mut().map(|m| m.body.take()).collect(),
            None => class.methods.iter().map(|m| m.body.clone()).collect(),
        })
        .collect()
}

pub fn run(inputs: &Inputs<'_>, mut bodies: Bodies) -> Analysis {
    let start = std::time::Instant::now();
    let table = inputs.table;
    let slots: Vec<(usize, usize)> = bodies
        .iter()
        .enumerate()
        .flat_map(|(ci, class)| class.iter().enumerate().filter(|(_, b)| b.is_some()).map(move |(mi, _)| (ci, mi)))
        .collect();
    // Not synchronized, no monitor entered, no `lock()`, `lockInterruptibly()` or `tryLock()`.
    let takes_no_lock = |ci: usize, mi: usize| {
        inputs.classes[ci].methods[mi].header.flags & ACC_SYNCHRONIZED == 0 && !bodies[ci][mi].as_ref().is_some_and(takes_a_lock)
    };
    let observers = if inputs.config.android_threads { content_observers::observers_made(table, inputs.classes, &bodies) } else { Default::default() };
    let mut methods: Vec<MethodEntry> = slots
        .par_iter()
        .map(|&(ci, mi)| {
            let class = &inputs.classes[ci];
            let m = &class.methods[mi];
            let mref = MethodRef { class: class.header.name, name: m.header.name, descriptor: m.header.descriptor };
            let facts = method_facts(table, inputs.config, &mref, &m.header, content_observers::on_change_thread(&observers, &mref));
            // Lambda bodies are analysed for the handoffs that run them (never reported themselves).
            let lambda = inputs.extensions.thread_handoffs && is_lambda_body_name(m.header.name.as_str());
            // And the helpers compilers write for callers, for what they do on the callers' behalf.
            let helper = inputs.extensions.synthetic_helpers && is_compiler_helper_name(m.header.name.as_str());
            let analysed = (lambda || helper || !is_compiler_named(&class.header, &m.header, inputs.extensions)) && !facts.assumed_thread_safe;
            // Only the few methods so named have their bodies looked at (those that check they
            // hold a lock are known from the call graph).
            let callers_hold_lock =
                super::races::names_lock_held_by_caller(source_name(&class.header, &m.header, inputs.extensions)) && takes_no_lock(ci, mi);
            MethodEntry { class: ci, index: mi, mref, facts, analysed, callers_hold_lock }
        })
        .collect();
    let by_ref: FxHashMap<MethodRef, usize> = methods.iter().enumerate().map(|(i, e)| (e.mref, i)).collect();
    let mut shapes: FxHashMap<MethodRef, InlineShape> = inputs.upstream_shapes.clone();
    for e in &methods {
        let m = &inputs.classes[e.class].methods[e.index];
        if let Some(shape) = &m.inline_shape {
            if !is_lambda_body_name(m.header.name.as_str()) {
                shapes.insert(e.mref, shape.clone());
            }
        }
    }

    // Thread handoffs: the code each allocated `Runnable`/`Callable` class runs.
    let handed_classes: FxHashMap<Sym, Vec<MethodRef>> = if inputs.extensions.thread_handoffs {
        let allocated: FxHashSet<Sym> = methods
            .par_iter()
            .filter(|e| e.analysed)
            .filter_map(|e| bodies[e.class][e.index].as_ref())
            .fold(FxHashSet::default, |mut set, b| {
                set.extend(b.insns.iter().filter_map(|i| if let Insn::New { class } = i { Some(*class) } else { None }));
                set
            })
            .reduce(FxHashSet::default, |mut a, b| {
                a.extend(b);
                a
            });
        let allocated: Vec<Sym> = allocated.into_iter().collect();
        allocated
            .par_iter()
            .map(|&c| (c, super::handoffs::bodies_of_class(table, c)))
            .filter(|(_, bodies)| !bodies.is_empty())
            .collect()
    } else {
        FxHashMap::default()
    };
    let ext = inputs.extensions;
    let stored = if ext.field_receiver_dispatch || ext.thread_kept_objects {
        let static_getter = |m: &MethodRef| {
            let e = &methods[*by_ref.get(m)?];
            let flags = inputs.classes[e.class].methods[e.index].header.flags;
            super::field_classes::returned_static(m.class, flags, bodies[e.class][e.index].as_ref()?)
        };
        super::field_classes::stores(table, &static_getter, bodies.par_iter().flatten().flatten())
    } else {
        Default::default()
    };
    let field_classes =
        if ext.field_receiver_dispatch { super::field_classes::collect(table, ext, &stored) } else { Default::default() };
    let fresh_fields = if ext.thread_kept_objects { super::field_classes::fresh_fields(&stored) } else { Default::default() };
    let field_lambdas = if ext.thread_handoffs { super::field_classes::lambdas(&stored) } else { Default::default() };
    drop(stored);
    let field_threads = if ext.thread_handoffs {
        let analysed = methods.par_iter().filter(|e| e.analysed).filter_map(|e| {
            let header = &inputs.classes[e.class].methods[e.index].header;
            bodies[e.class][e.index].as_ref().map(|b| (e.mref.class, header.is_static(), b))
        });
        super::thread_fields::collect(table, analysed)
    } else {
        Default::default()
    };
    let back_references = if ext.back_references {
        let analysed_bodies: Vec<(&MethodRef, &Body)> =
            methods.iter().filter_map(|e| Some((&e.mref, bodies[e.class][e.index].as_ref()?))).collect();
        super::back_references::collect(table, &analysed_bodies, ext)
    } else {
        Default::default()
    };
    let handler_callbacks =
        if ext.thread_handoffs { super::handler_callbacks::collect(table, bodies.par_iter().flatten().flatten()) } else { Default::default() };
    phase(start, "method facts");
    // Upstream methods whose summaries hand code to a background thread, theirs or their
    // callers' (a continuation of the task future one returns), looked at once, not at every
    // call.
    let upstream_hands: FxHashSet<MethodRef> = if inputs.extensions.thread_handoffs {
        let hands_formal = |s: &Summary| s.param_handoffs.iter().any(|h| h.target == super::domain::Target::Background);
        let task_future = |s: &Summary| s.return_attribute == Some(super::domain::Attr::TaskFuture);
        inputs.upstream.iter().filter(|(_, s)| has_handed_background(s) || hands_formal(s) || task_future(s)).map(|(m, _)| *m).collect()
    } else {
        FxHashSet::default()
    };
    let upstream_queries: FxHashSet<MethodRef> =
        inputs.upstream.iter().filter(|(_, s)| returns_thread_query(s)).map(|(m, _)| *m).collect();
    let schedulers = if inputs.extensions.thread_handoffs {
        // Code that calls no scheduler factory keeps no scheduler: its bodies are not scanned;
        // nor are those of the classes that name no scheduler field for stores into one.
        let scanned = || methods.iter().filter(|_| inputs.names_schedulers);
        let analysed: Vec<(&MethodRef, &Method, &Body)> = scanned()
            .filter_map(|e| Some((&e.mref, &inputs.classes[e.class].methods[e.index], bodies[e.class][e.index].as_ref()?)))
            .collect();
        let storing: Vec<(&MethodRef, &Body)> = scanned()
            .filter(|e| inputs.scheduler_field_classes.get(e.class).is_some_and(|names| *names))
            .filter_map(|e| Some((&e.mref, bodies[e.class][e.index].as_ref()?)))
            .collect();
        let classes: Vec<&ClassHeader> = inputs.classes.iter().filter(|_| inputs.names_schedulers).map(|c| &*c.header).collect();
        let upstream = inputs.upstream.iter().map(|(m, s)| (m, &**s));
        super::kept_schedulers::KeptSchedulers::collect(table, &classes, &analysed, &storing, upstream, inputs.upstream_schedulers)
    } else {
        Default::default()
    };
    // The callbacks of observed Kotlin delegates, by the top-level class that made them.
    let mut observer_callbacks: FxHashMap<&'static str, Vec<MethodRef>> = FxHashMap::default();
    if inputs.extensions.collection_models {
        for c in inputs.classes.iter().filter(|c| super::kotlin_delegates::is_observed_delegate(table, c.header.name)) {
            let own = crate::issue::top_level_class(c.header.name.as_str());
            observer_callbacks.entry(own).or_default().extend(super::kotlin_delegates::observer_callbacks(table, c.header.name));
        }
    }
    let graph = super::callgraph::Scan {
        table,
        methods: &methods,
        bodies: &bodies,
        by_ref: &by_ref,
        shapes: &shapes,
        handed_classes: &handed_classes,
        upstream_hands: &upstream_hands,
        upstream_queries: &upstream_queries,
        field_classes: &field_classes,
        field_lambdas: &field_lambdas,
        field_threads: &field_threads,
        handler_callbacks: &handler_callbacks,
        schedulers: &schedulers,
        observer_callbacks: &observer_callbacks,
        extensions: inputs.extensions,
    }
    .build();
    for (e, &requires) in methods.iter_mut().zip(&graph.requires_held_lock) {
        if requires && !e.callers_hold_lock {
            e.callers_hold_lock = takes_no_lock(e.class, e.index);
        }
    }
    if inputs.extensions.locked_callers {
        let looper = inputs.extensions.looper_callers;
        let internal = inputs.extensions.kotlin_internal;
        let held =
            super::locked_callers::called_only_under_lock(table, inputs.classes, &methods, &bodies, &by_ref, takes_no_lock, looper, internal);
        for (e, held) in methods.iter_mut().zip(held) {
            e.callers_hold_lock |= held;
        }
    }

    phase(start, "call graph");
    // The bottom-up order (serial) and the demand with the facts of what it needs do not
    // depend on each other: computed at once, the order takes one core while the rest runs.
    let (order, (demand, mut facts)) = rayon::join(
        || {
            let mut order = BottomUp::new(&graph.edges);
            // Deterministic order inside an SCC (its members see each other's summaries in this order).
            // A cycle through the registration of a callback object (a receiver that registers
            // itself again from the code it runs) is broken there: the callback, run later on an
            // event, is summarised last, and what it calls sees its own callees.
            let callback = |m: usize| super::registrations::registered_callback(table, &methods[m].mref).is_some();
            for scc in &mut order.sccs {
                scc.sort_by(|a, b| methods[*a].mref.cmp(&methods[*b].mref));
                if (2..=MAX_ORDERED_CYCLE).contains(&scc.len()) && inputs.extensions.thread_handoffs && scc.iter().any(|&m| callback(m)) {
                    super::bottom_up::callees_first(scc, &graph.edges, callback);
                }
            }
            order
        },
        || {
            let demand = needed_for_reporting(inputs, &methods, &by_ref, &graph);
            let count = |marks: &[bool]| marks.iter().filter(|n| **n).count();
            phase(
                start,
                &format!("demand ({} of {} methods, up to {})", count(&demand.needed), methods.len(), count(&demand.may_need)),
            );
            // The facts of everything that may be needed: the later rounds see the same facts
            // as if all they analyse had been needed from the start. What fields are given
            // comes from every body: a store the analysis will not need still counts.
            let facts = super::facts::collect(
                table,
                inputs.ignore_classes,
                inputs.extensions,
                &schedulers,
                inputs.upstream_schedulers,
                methods
                    .par_iter()
                    .zip(demand.may_need.par_iter())
                    .filter(|(e, n)| e.analysed && **n)
                    .filter_map(|(e, _)| bodies[e.class][e.index].as_ref()),
                methods.par_iter().filter_map(|e| {
                    let on_main = || {
                        let android = inputs.extensions.android_threads;
                        super::handoffs::starts_on_main_looper(table, &e.mref, e.facts.initial_threads, android)
                    };
                    bodies[e.class][e.index].as_ref().map(|b| (&e.mref, b, on_main()))
                }),
            );
            (demand, facts)
        },
    );
    let Demand { needed, mut candidate, deferred, pooled_inherited, may_need } = demand;
    let CallGraph { edges, own_code_concurrent, .. } = graph;
    let needed: Vec<AtomicBool> = needed.into_iter().map(AtomicBool::new).collect();
    facts.handed_classes = handed_classes;
    facts.field_classes = field_classes;
    facts.field_lambdas = field_lambdas;
    facts.field_threads = field_threads;
    facts.handler_callbacks = handler_callbacks;
    facts.content_observers = observers;
    facts.fresh_fields = fresh_fields;
    facts.back_references = back_references;
    let own = |class| table.origin(class) == Some(crate::hierarchy::Origin::Analysed);
    let mut kept_schedulers = schedulers.exported(own);
    kept_schedulers.handlers = facts.handlers.exported(own);
    kept_schedulers.executors = facts.exported_executors(own);
    kept_schedulers.access_ordered = facts.ordered_classes.iter().map(|c| Sym::new(c)).filter(|&c| own(c)).collect();
    let without_code = schedulers
        .kept_without_code(|m| by_ref.contains_key(m) || inputs.upstream.contains_key(m))
        .into_iter()
        .map(|(m, s)| (m, Arc::new(Summary { return_attribute: Some(super::domain::Attr::Scheduler(s)), ..Summary::empty() })))
        .collect();
    facts.schedulers = schedulers;
    // Its init-only statics serve every mode; what it says of objects kept in statics only
    // matters with `foreign_locks` (see `Summary::own_fields_unshared`).
    facts.statics = super::facts::static_stores(
        table,
        inputs.classes.iter().map(|c| &*c.header),
        methods.par_iter().filter_map(|e| bodies[e.class][e.index].as_ref().map(|b| (&e.mref, b))),
    );
    if inputs.extensions.foreign_locks && inputs.extensions.given_field_locks {
        facts.given_fields = super::given_fields::given_fields(
            table,
            methods.par_iter().filter_map(|e| bodies[e.class][e.index].as_ref().map(|b| (&e.mref, b))),
        );
    }
    free_unreachable_bodies(&mut bodies, &methods, &edges, may_need);
    phase(start, "bodies no round needs freed");
    let cells: Vec<OnceCell<Arc<Summary>>> = (0..methods.len()).map(|_| OnceCell::new()).collect();
    let empty = Arc::new(Summary::empty());
    let callee = |r: &MethodRef| -> Callee<'_> {
        match by_ref.get(r) {
            Some(&i) if !methods[i].analysed => Callee::Summary(&empty),
            Some(&i) => match cells[i].get() {
                Some(s) => Callee::Summary(s),
                None => Callee::Unknown,
            },
            None => match inputs.upstream.get(r) {
                Some(s) => Callee::Summary(s),
                None => Callee::Unknown,
            },
        }
    };
    // The round each summary was made in, and the round running: a summary made in an
    // earlier round is there for every method of this one.
    let round = AtomicU8::new(0);
    let round_of: Vec<AtomicU8> = (0..methods.len()).map(|_| AtomicU8::new(u8::MAX)).collect();
    let scheduled_callee = |caller: &MethodRef, target: &MethodRef| -> Callee<'_> {
        let (Some(&from), Some(&to)) = (by_ref.get(caller), by_ref.get(target)) else { return callee(target) };
        let earlier_round = round_of[to].load(Ordering::Acquire) < round.load(Ordering::Relaxed);
        if earlier_round || order.runs_before(&edges, to, from) {
            callee(target)
        } else {
            Callee::Unknown
        }
    };
    let shape = |r: &MethodRef| shapes.get(r).cloned();
    phase(start, "callee facts");
    let takes_lock = |r: &MethodRef| by_ref.get(r).is_some_and(|&i| takes_lock(inputs, &methods, &own_code_concurrent, i));
    let keys = super::shared_keys::SharedKeys::default();
    let env = Env {
        table,
        facts: &facts,
        config: inputs.config,
        ignore_classes: inputs.ignore_classes,
        callee: &callee,
        scheduled_callee: &scheduled_callee,
        inline_shape: &shape,
        takes_lock: &takes_lock,
        extensions: inputs.extensions,
        keys: &keys,
    };
    // Each body is freed as soon as its method is summarised: on large code the bodies are
    // a good part of what the run holds, and the summaries grow while they go.
    let bodies: Vec<Vec<Mutex<Option<Body>>>> =
        bodies.into_iter().map(|class| class.into_iter().map(Mutex::new).collect()).collect();
    // A method not (yet) needed keeps no summary (nor loses its body); a later round may
    // still need it.
    let analyse = |i: usize| {
        let e = &methods[i];
        if cells[i].get().is_some() || !needed[i].load(Ordering::Relaxed) {
            return;
        }
        crate::memory::check();
        let body = bodies[e.class][e.index].lock().unwrap_or_else(|p| p.into_inner()).take();
        let summary = if e.analysed {
            let class = &inputs.classes[e.class];
            let input =
                MethodInput { class: &class.header, method: &class.methods[e.index], body: body.as_ref(), mref: e.mref, facts: &e.facts };
            analyze_method(&env, &input)
        } else {
            Summary::empty()
        };
        let _ = cells[i].set(Arc::new(summary));
        round_of[i].store(round.load(Ordering::Relaxed), Ordering::Release);
    };
    // A later round: `roots` not needed yet and everything they call, summarised in the SCCs
    // they belong to (everything those call is summarised already or needed now).
    let run_round = |roots: Vec<usize>| {
        let mut in_round = vec![false; order.sccs.len()];
        let mut stack = roots;
        while let Some(i) = stack.pop() {
            if needed[i].swap(true, Ordering::Relaxed) {
                continue;
            }
            in_round[order.scc_of[i]] = true;
            stack.extend(edges[i].iter().copied().filter(|&c| !needed[c].load(Ordering::Relaxed)));
        }
        if in_round.contains(&true) {
            round.fetch_add(1, Ordering::Relaxed);
            order.run(&analyse, &in_round);
        }
    };
    phase(start, "schedule");
    // Only the SCCs of what is needed first (closed under calls): most are not.
    let mut first = vec![false; order.sccs.len()];
    for i in (0..methods.len()).filter(|&i| needed[i].load(Ordering::Relaxed)) {
        first[order.scc_of[i]] = true;
    }
    order.run(&analyse, &first);
    if !deferred.is_empty() {
        run_round(deferred.clone());
        let promoted = promoted_classes(&methods, &deferred, |i| cells[i].get().map(|s| &**s));
        run_round(promotion_roots(inputs, &methods, &by_ref, &pooled_inherited, &promoted));
        phase(start, &format!("classes decided by their summaries ({} reported on)", promoted.len()));
        for ci in promoted {
            candidate[ci] = true;
        }
    }
    // 8.4 looks at the constructors and class initialisers of the classes declaring the
    // container fields that the reported classes use: a last round summarises those.
    {
        let mut declaring: FxHashSet<Sym> = FxHashSet::default();
        for (i, e) in methods.iter().enumerate() {
            if !candidate[e.class] {
                continue;
            }
            for a in cells[i].get().map(|s| s.accesses.as_slice()).unwrap_or(&[]) {
                if let AccessKind::ContainerRead(p, _) | AccessKind::ContainerWrite(p, _) = &a.key.kind {
                    if let Some(Step::Field { class, .. }) = p.steps.iter().rev().find(|s| !matches!(s, Step::Array)) {
                        declaring.insert(*class);
                    }
                }
            }
        }
        let roots: Vec<usize> = (0..methods.len())
            .filter(|&i| {
                !needed[i].load(Ordering::Relaxed)
                    && declaring.contains(&methods[i].mref.class)
                    && matches!(methods[i].mref.name.as_str(), "<init>" | "<clinit>")
            })
            .collect();
        run_round(roots);
    }
    phase(start, &format!("interpretation ({} methods)", needed.iter().filter(|n| n.load(Ordering::Relaxed)).count()));
    // Methods never reached by the levels (cannot happen, but keep every slot filled).
    let summaries = cells.into_iter().map(|c| c.into_inner().unwrap_or_else(|| empty.clone())).collect();
    // The bodies never analysed and the tables of the run: freeing them is a serial stretch
    // of a few percent of the run, done off the way.
    let synchronized_views = std::mem::take(&mut facts.synchronized_views);
    let given_fields = std::mem::take(&mut facts.given_fields);
    std::thread::spawn(move || drop((bodies, facts, edges, order, keys, shapes)));
    Analysis { methods, summaries, by_ref, pooled_inherited, synchronized_views, given_fields, kept_schedulers, without_code }
}
