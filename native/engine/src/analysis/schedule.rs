//! Bottom-up, parallel computation of summaries over the call graph: strongly
//! connected components are analysed callees-first, one "level" at a time on
//! rayon's pool; inside a recursion cycle a call to a member whose summary is
//! not ready yet has no summary (5.6), as with on-demand analysis.

use crate::fxhash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use once_cell::sync::OnceCell;
use rayon::prelude::*;

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::annotations::{is_synthetic_name, method_facts, AnnotationConfig, MethodFacts};
use super::domain::{AccessKind, Attr, Step, Summary};
use super::callgraph::CallGraph;
use super::interp::{analyze_method, Callee, Env, MethodInput};

/// One method of an analysed class.
pub struct MethodEntry {
    pub class: usize,
    pub index: usize,
    pub mref: MethodRef,
    pub facts: MethodFacts,
    /// False for methods that get the empty summary without analysis (4.3).
    pub analysed: bool,
    /// Whether its name says its callers hold a lock and its own code takes none (it is not
    /// synchronized, enters no monitor, calls no `lock()`, `lockInterruptibly()` or
    /// `tryLock()`): see [`super::races::contributes_to_pool`].
    pub named_for_held_lock: bool,
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
    pub extensions: crate::analysis::extensions::Extensions,
}

fn phase(start: std::time::Instant, name: &str) {
    crate::timings::phase(start, &format!("  {name}"));
}

/// The method bodies of the analysed classes by class and method index, taken out of the
/// classes so that each is freed once its method is summarised (see [`take_bodies`]).
pub type Bodies = Vec<Vec<Option<Body>>>;

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
    let methods: Vec<MethodEntry> = slots
        .par_iter()
        .map(|&(ci, mi)| {
            let class = &inputs.classes[ci];
            let m = &class.methods[mi];
            let mref = MethodRef { class: class.header.name, name: m.header.name, descriptor: m.header.descriptor };
            let facts = method_facts(table, inputs.config, &mref, &m.header);
            // Lambda bodies are analysed for the handoffs that run them (never reported themselves).
            let lambda = inputs.extensions.thread_handoffs && m.header.name.as_str().starts_with("lambda$");
            let analysed = (lambda || !is_synthetic_name(m.header.name)) && !facts.assumed_thread_safe;
            // Only the few methods so named have their bodies looked at.
            let named_for_held_lock = super::races::names_lock_held_by_caller(m.header.name.as_str())
                && m.header.flags & ACC_SYNCHRONIZED == 0
                && !bodies[ci][mi].as_ref().is_some_and(takes_a_lock);
            MethodEntry { class: ci, index: mi, mref, facts, analysed, named_for_held_lock }
        })
        .collect();
    let by_ref: FxHashMap<MethodRef, usize> = methods.iter().enumerate().map(|(i, e)| (e.mref, i)).collect();
    let mut shapes: FxHashMap<MethodRef, InlineShape> = inputs.upstream_shapes.clone();
    for e in &methods {
        let m = &inputs.classes[e.class].methods[e.index];
        if let Some(shape) = &m.inline_shape {
            if !m.header.name.as_str().starts_with("lambda$") {
                shapes.insert(e.mref, shape.clone());
            }
        }
    }

    // Thread handoffs: the code each allocated `Runnable`/`Callable` class runs.
    let handed_classes: FxHashMap<Sym, MethodRef> = if inputs.extensions.thread_handoffs {
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
        allocated.par_iter().filter_map(|c| super::handoffs::body_of_class(table, *c).map(|b| (*c, b))).collect()
    } else {
        FxHashMap::default()
    };
    phase(start, "method facts");
    // Upstream methods whose summaries hand code to a background thread, theirs or their
    // callers' (looked at once, not at every call).
    let upstream_hands: FxHashSet<MethodRef> = if inputs.extensions.thread_handoffs {
        let hands_formal = |s: &Summary| s.param_handoffs.iter().any(|h| h.target == super::domain::Target::Background);
        inputs.upstream.iter().filter(|(_, s)| has_handed_background(s) || hands_formal(s)).map(|(m, _)| *m).collect()
    } else {
        FxHashSet::default()
    };
    let upstream_queries: FxHashSet<MethodRef> =
        inputs.upstream.iter().filter(|(_, s)| returns_thread_query(s)).map(|(m, _)| *m).collect();
    let graph = super::callgraph::Scan {
        table,
        methods: &methods,
        bodies: &bodies,
        by_ref: &by_ref,
        shapes: &shapes,
        handed_classes: &handed_classes,
        upstream_hands: &upstream_hands,
        upstream_queries: &upstream_queries,
        extensions: inputs.extensions,
    }
    .build();

    phase(start, "call graph");
    // The bottom-up order (serial) and the demand with the facts of what it needs do not
    // depend on each other: computed at once, the order takes one core while the rest runs.
    let (order, (demand, mut facts)) = rayon::join(
        || {
            let mut order = BottomUp::new(&graph.edges);
            // Deterministic order inside an SCC (its members see each other's summaries in this order).
            for scc in &mut order.sccs {
                scc.sort_by(|a, b| methods[*a].mref.cmp(&methods[*b].mref));
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
            // as if all they analyse had been needed from the start.
            let facts = super::facts::collect(
                table,
                inputs.ignore_classes,
                inputs.extensions,
                methods
                    .par_iter()
                    .zip(demand.may_need.par_iter())
                    .filter(|(e, n)| e.analysed && **n)
                    .filter_map(|(e, _)| bodies[e.class][e.index].as_ref()),
            );
            (demand, facts)
        },
    );
    let Demand { needed, mut candidate, deferred, pooled_inherited, may_need } = demand;
    let CallGraph { edges, own_code_concurrent, .. } = graph;
    let needed: Vec<AtomicBool> = needed.into_iter().map(AtomicBool::new).collect();
    facts.handed_classes = handed_classes;
    facts.init_only_statics = super::facts::init_only_statics(
        table,
        inputs.classes.iter().map(|c| &*c.header),
        methods.par_iter().filter_map(|e| bodies[e.class][e.index].as_ref().map(|b| (&e.mref, b))),
    );
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
    std::thread::spawn(move || drop((bodies, facts, edges, order, keys, shapes)));
    Analysis { methods, summaries, by_ref, pooled_inherited, synchronized_views }
}

/// Frees, before any method is analysed, the bodies that no round can need: those outside
/// `may_need` that no initializer reaches (the last round, 8.4, summarises initializers
/// decided only then). The analysis's own allocations then reuse their memory.
fn free_unreachable_bodies(bodies: &mut Bodies, methods: &[MethodEntry], edges: &[Vec<usize>], may_need: Vec<bool>) {
    let initializers =
        (0..methods.len()).filter(|&i| matches!(methods[i].mref.name.as_str(), "<init>" | "<clinit>")).collect();
    let keep = with_callees(edges, initializers, may_need);
    // `methods` lists the bodies class by class, in order.
    let mut first = vec![0usize; bodies.len() + 1];
    for e in methods {
        first[e.class + 1] += 1;
    }
    for ci in 0..bodies.len() {
        first[ci + 1] += first[ci];
    }
    bodies.par_iter_mut().enumerate().for_each(|(ci, class)| {
        for i in first[ci]..first[ci + 1] {
            if !keep[i] {
                class[methods[i].index] = None;
            }
        }
    });
}

/// What reporting needs summarised, as worked out before any method is analysed.
struct Demand {
    /// The methods needed first (see [`needed_for_reporting`]).
    needed: Vec<bool>,
    /// The classes reported on if their summaries say so.
    candidate: Vec<bool>,
    /// The methods whose summaries decide whether a class that may be reported is: a class
    /// with one of them is a candidate once their summaries say it runs on any thread (see
    /// [`promoted_classes`]).
    deferred: Vec<usize>,
    /// Everything that may be needed: `needed`, and what promoting every class of `deferred`
    /// would need.
    may_need: Vec<bool>,
    pooled_inherited: FxHashMap<Sym, Vec<MethodRef>>,
}

/// The methods whose summaries reporting depends on. A class is reported on when a method
/// of its pool may run on any thread (8.5) or it has a `@GuardedBy` field (8.7.1): then
/// every method of its pool is needed, with everything they call (the constructors 8.4
/// needs come in a later round). With a summary file, the methods it carries and everything
/// they call are needed too. With the extensions that let a class's reports depend on its
/// superclasses' methods, a subclass of such a class may be one too, and the methods it
/// inherits are needed; those pooled methods are returned by class.
///
/// Whether a method may run on any thread shows in its summary. A class with a
/// `@GuardedBy` field or inherited methods in its pool is a candidate at once. Of the other
/// classes, only the methods of the pool whose own code may make them run on any thread are
/// needed first (deferred): a lock, a thread annotation or assertion, a call to a method of
/// the class that takes a lock (with `callee_lock_evidence`), a thread query, a handoff at any depth, a call to a method
/// that may return a thread query's answer. Their classes are candidates if their summaries
/// say so (on the corpus, 348 of 1,265 classes with such methods are not).
fn needed_for_reporting(
    inputs: &Inputs<'_>,
    methods: &[MethodEntry],
    by_ref: &FxHashMap<MethodRef, usize>,
    graph: &CallGraph,
) -> Demand {
    use super::domain::Threads;
    let edges = &graph.edges;
    let guarded: Vec<bool> = inputs
        .classes
        .iter()
        .map(|class| class.header.fields.iter().any(|f| f.annotations.iter().any(|a| a.matches("GuardedBy"))))
        .collect();
    let mut candidate = guarded.clone();
    for (e, own_code) in methods.iter().zip(&graph.own_code_concurrent) {
        if *own_code || e.facts.initial_threads == Threads::AnyThread {
            candidate[e.class] = true;
        }
    }
    // Handed code's accesses reach every caller's summary (thread handoffs), and the answer
    // of a thread query the callers that return it.
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); methods.len()];
    for (i, out) in edges.iter().enumerate() {
        for &c in out {
            callers[c].push(i);
        }
    }
    let reaches_handoff = with_callers(&callers, &graph.hands_off, |_| true);
    let returns_value = |i: usize| !methods[i].mref.descriptor.as_str().ends_with(")V");
    let seeds: Vec<bool> = (0..methods.len()).map(|i| graph.queries_thread[i] && returns_value(i)).collect();
    let may_return_query = with_callers(&callers, &seeds, returns_value);
    let ext = inputs.extensions;
    let mut inherited_needed: Vec<usize> = Vec::new();
    let mut pooled_inherited: FxHashMap<Sym, Vec<MethodRef>> = FxHashMap::default();
    if ext.inherited_accesses || ext.thread_safe_inherited {
        let class_index: FxHashMap<Sym, usize> =
            inputs.classes.iter().enumerate().map(|(i, c)| (c.header.name, i)).collect();
        let upstream_concurrent = |m: &MethodRef| inputs.upstream.get(m).map_or(false, |s| s.threads.is_any());
        let direct = candidate.clone();
        let pooled: Vec<(bool, Vec<MethodRef>)> = inputs
            .classes
            .par_iter()
            .enumerate()
            .map(|(ci, class)| {
                let inherited =
                    super::inherited::pooled_methods(inputs.table, ext, &inputs.config.thread_safe_aliases, &class.header);
                // An inherited method marked @ThreadSafe runs on any thread: evidence by itself.
                let from_super = if ext.inherited_accesses {
                    inherited.iter().any(|m| match class_index.get(&m.class) {
                        Some(&sc) => direct[sc],
                        None => upstream_concurrent(m),
                    }) || inputs.table.find_in_supertypes(class.header.name, |s| {
                        class_index.get(&s).filter(|&&sc| sc != ci && direct[sc]).map(|_| ())
                    }).is_some()
                } else {
                    !inherited.is_empty()
                };
                (from_super, inherited)
            })
            .collect();
        for (ci, (from_super, inherited)) in pooled.into_iter().enumerate() {
            if from_super {
                candidate[ci] = true;
            }
            if candidate[ci] {
                inherited_needed.extend(inherited.iter().filter_map(|m| by_ref.get(m).copied()));
            }
            if !inherited.is_empty() {
                pooled_inherited.insert(inputs.classes[ci].header.name, inherited);
            }
        }
    }
    // A lock taken by a method of the same class is evidence only with `callee_lock_evidence`.
    let calls_own_class_lock = |i: usize, c: usize| {
        ext.callee_lock_evidence && methods[c].class == methods[i].class && takes_lock(inputs, methods, &graph.own_code_concurrent, c)
    };
    let may_run_on_any_thread = |i: usize| {
        methods[i].facts.initial_threads == Threads::AnyThread
            || graph.own_code_concurrent[i]
            || reaches_handoff[i]
            || graph.queries_thread[i]
            || edges[i].iter().any(|&c| may_return_query[c] || calls_own_class_lock(i, c))
    };
    // Candidates at once, and the classes whose summaries will tell.
    let decided: Vec<bool> = (0..inputs.classes.len())
        .map(|ci| guarded[ci] || pooled_inherited.get(&inputs.classes[ci].header.name).is_some_and(|m| !m.is_empty()))
        .collect();
    let deferred: Vec<usize> = (0..methods.len())
        .filter(|&i| {
            let ci = methods[i].class;
            !(candidate[ci] && decided[ci]) && pooled(inputs, methods, i) && may_run_on_any_thread(i)
        })
        .collect();
    for (ci, c) in candidate.iter_mut().enumerate() {
        *c &= decided[ci];
    }
    let for_file = |i: usize| inputs.summaries_for.is_some_and(|s| s.contains(&methods[i].mref));
    let mut roots: Vec<usize> =
        (0..methods.len()).filter(|&i| (candidate[methods[i].class] && pooled(inputs, methods, i)) || for_file(i)).collect();
    roots.extend(inherited_needed);
    let needed = with_callees(edges, roots, vec![false; methods.len()]);
    let deferred_classes: FxHashSet<usize> = deferred.iter().map(|&i| methods[i].class).collect();
    let may_need = with_callees(edges, promotion_roots(inputs, methods, by_ref, &pooled_inherited, &deferred_classes), needed.clone());
    Demand { needed, candidate, deferred, may_need, pooled_inherited }
}

/// Whether method `i` takes a lock in its own code (8.5) or is `synchronized`.
fn takes_lock(inputs: &Inputs<'_>, methods: &[MethodEntry], own_code_concurrent: &[bool], i: usize) -> bool {
    let e = &methods[i];
    own_code_concurrent[i] || inputs.classes[e.class].methods[e.index].header.flags & ACC_SYNCHRONIZED != 0
}

/// Whether a body enters a monitor or calls a lock's `lock()`, `lockInterruptibly()` or
/// `tryLock()` (by name: any class's).
fn takes_a_lock(body: &Body) -> bool {
    body.insns.iter().any(|insn| match insn {
        Insn::MonitorEnter => true,
        Insn::Invoke { method, .. } => matches!(method.name.as_str(), "lock" | "lockInterruptibly" | "tryLock"),
        _ => false,
    })
}

/// By method: whether it is one of `marked` or calls one, at any depth, through callers
/// that pass `through`.
fn with_callers(callers: &[Vec<usize>], marked: &[bool], through: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut reached = marked.to_vec();
    let mut stack: Vec<usize> = (0..marked.len()).filter(|&i| marked[i]).collect();
    while let Some(i) = stack.pop() {
        for &c in &callers[i] {
            if !reached[c] && through(c) {
                reached[c] = true;
                stack.push(c);
            }
        }
    }
    reached
}

/// What a class promoted to a candidate needs: its methods and those it pools from its
/// superclasses.
fn promotion_roots(
    inputs: &Inputs<'_>,
    methods: &[MethodEntry],
    by_ref: &FxHashMap<MethodRef, usize>,
    pooled_inherited: &FxHashMap<Sym, Vec<MethodRef>>,
    promoted: &FxHashSet<usize>,
) -> Vec<usize> {
    let mut roots: Vec<usize> = (0..methods.len()).filter(|&i| promoted.contains(&methods[i].class) && pooled(inputs, methods, i)).collect();
    for &ci in promoted {
        let inherited = pooled_inherited.get(&inputs.classes[ci].header.name).map(Vec::as_slice).unwrap_or(&[]);
        roots.extend(inherited.iter().filter_map(|m| by_ref.get(m).copied()));
    }
    roots
}

/// Whether method `i` is in its class's pool (8.2): of a candidate class, only those are
/// needed for themselves; the others are needed as their callers' callees.
fn pooled(inputs: &Inputs<'_>, methods: &[MethodEntry], i: usize) -> bool {
    let e = &methods[i];
    super::races::contributes_to_pool(e, &inputs.classes[e.class].methods[e.index].header, inputs.extensions)
}

/// `marked` with `roots` and everything they call, at any depth, marked too.
fn with_callees(edges: &[Vec<usize>], mut roots: Vec<usize>, mut marked: Vec<bool>) -> Vec<bool> {
    while let Some(i) = roots.pop() {
        if !std::mem::replace(&mut marked[i], true) {
            roots.extend(edges[i].iter().copied().filter(|&c| !marked[c]));
        }
    }
    marked
}

/// The classes of the `deferred` methods that reporting looks at after all (the gate of 8.5):
/// those whose summaries show accesses of code handed to a background thread, or a method
/// running on any thread.
fn promoted_classes<'s>(
    methods: &[MethodEntry],
    deferred: &[usize],
    summary: impl Fn(usize) -> Option<&'s Summary>,
) -> FxHashSet<usize> {
    deferred
        .iter()
        .filter(|&&i| summary(i).is_some_and(|s| s.threads.is_any() || has_handed_background(s)))
        .map(|&i| methods[i].class)
        .collect()
}

/// Whether a method's result may say which thread runs (see `callgraph::is_thread_query`).
fn returns_thread_query(s: &Summary) -> bool {
    matches!(s.return_attribute, Some(Attr::OnMainThread | Attr::OffMainThread | Attr::MainThreadHandle | Attr::CurrentThreadHandle))
}

/// Whether a summary has accesses of code handed to a background thread.
fn has_handed_background(s: &Summary) -> bool {
    s.accesses.iter().any(|a| a.key.handed && a.key.thread.is_any())
}

/// The strongly connected components of a call graph, run bottom-up in parallel: an SCC
/// starts once every SCC it calls is done, and its members run one after the other.
struct BottomUp {
    sccs: Vec<Vec<usize>>,
    /// The SCC of each node.
    scc_of: Vec<usize>,
    callers_of: Vec<Vec<usize>>,
}

impl BottomUp {
    fn new(edges: &[Vec<usize>]) -> BottomUp {
        let sccs = super::scc::tarjan(edges.len(), edges);
        let mut scc_of = vec![0usize; edges.len()];
        for (i, scc) in sccs.iter().enumerate() {
            for &m in scc {
                scc_of[m] = i;
            }
        }
        let mut callers_of: Vec<Vec<usize>> = vec![Vec::new(); sccs.len()];
        for (i, scc) in sccs.iter().enumerate() {
            let mut callees: Vec<usize> =
                scc.iter().flat_map(|&m| edges[m].iter().map(|&c| scc_of[c])).filter(|&c| c != i).collect();
            callees.sort_unstable();
            callees.dedup();
            for c in callees {
                callers_of[c].push(i);
            }
        }
        BottomUp { sccs, scc_of, callers_of }
    }

    /// Whether node `to` is sure to be visited before node `from` in a run that visits both:
    /// an earlier member of its SCC, or in an SCC it calls at any depth.
    fn runs_before(&self, edges: &[Vec<usize>], to: usize, from: usize) -> bool {
        if self.scc_of[to] == self.scc_of[from] {
            let scc = &self.sccs[self.scc_of[from]];
            return scc.iter().position(|&m| m == to) < scc.iter().position(|&m| m == from);
        }
        // Handed lambdas and classes are direct callees: the walk is for the rest.
        edges[from].contains(&to) || super::callgraph::reachable(edges, from).contains(&to)
    }

    /// Calls `visit` once on every node of the SCCs `only` marks, callees before callers
    /// (across SCCs). The marked SCCs must include every marked SCC's callees that are not
    /// done yet.
    fn run(&self, visit: &(dyn Fn(usize) + Sync), only: &[bool]) {
        let mut count = vec![0; self.sccs.len()];
        for callee in (0..self.sccs.len()).filter(|&s| only[s]) {
            for &caller in &self.callers_of[callee] {
                count[caller] += 1;
            }
        }
        let pending: Vec<AtomicUsize> = count.into_iter().map(AtomicUsize::new).collect();
        let runs = |s: usize| only[s];
        // The leaves are listed before any is spawned: a counter that a running SCC brings to
        // zero must not be read here as a leaf, or that SCC would run (and count down its
        // callers) twice, and a caller could start before its callees are done.
        let leaves: Vec<usize> =
            (0..self.sccs.len()).filter(|&s| runs(s) && pending[s].load(Ordering::Relaxed) == 0).collect();
        let (pending, runs) = (&pending, &runs);
        rayon::scope(|scope| {
            for s in leaves {
                scope.spawn(move |scope| self.run_scc(scope, s, pending, runs, visit));
            }
        });
    }

    fn run_scc<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        s: usize,
        pending: &'s [AtomicUsize],
        runs: &'s (dyn Fn(usize) -> bool + Sync),
        visit: &'s (dyn Fn(usize) + Sync),
    ) {
        for &m in &self.sccs[s] {
            visit(m);
        }
        for &caller in self.callers_of[s].iter().filter(|&&c| runs(c)) {
            if pending[caller].fetch_sub(1, Ordering::AcqRel) == 1 {
                scope.spawn(move |scope| self.run_scc(scope, caller, pending, runs, visit));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many leaves scanned while the first ones already run and count their callers down: every
    /// node must run exactly once, after all it calls (a caller started early saw callees
    /// without summaries, and reports changed from run to run).
    #[test]
    fn every_node_runs_once_after_its_callees() {
        const LEAVES: usize = 50_000;
        // Leaves first; then one caller per leaf; then callers of two callers each.
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); LEAVES];
        edges.extend((0..LEAVES).map(|i| vec![i]));
        edges.extend((0..LEAVES / 2).map(|i| vec![LEAVES + 2 * i, LEAVES + 2 * i + 1]));
        let order = BottomUp::new(&edges);
        let all = vec![true; order.sccs.len()];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for _ in 0..20 {
            let runs: Vec<AtomicUsize> = (0..edges.len()).map(|_| AtomicUsize::new(0)).collect();
            let early = AtomicUsize::new(0);
            pool.install(|| {
                order.run(&|n| {
                    if edges[n].iter().any(|&c| runs[c].load(Ordering::Acquire) == 0) {
                        early.fetch_add(1, Ordering::Relaxed);
                    }
                    runs[n].fetch_add(1, Ordering::AcqRel);
                }, &all)
            });
            let twice = runs.iter().filter(|r| r.load(Ordering::Relaxed) != 1).count();
            assert_eq!((twice, early.load(Ordering::Relaxed)), (0, 0), "nodes not run exactly once, nodes run before a callee");
        }
    }

    /// What a caller may look up outside its call edges: only nodes every run makes first.
    #[test]
    fn a_node_runs_before_another_only_if_every_run_makes_it_first() {
        // 0 calls 1, which calls 2; 3 and 4 call each other; 5 stands apart.
        let edges: Vec<Vec<usize>> = vec![vec![1], vec![2], vec![], vec![4], vec![3], vec![]];
        let order = BottomUp::new(&edges);
        assert!(order.runs_before(&edges, 1, 0), "a direct callee");
        assert!(order.runs_before(&edges, 2, 0), "a callee at depth");
        assert!(!order.runs_before(&edges, 0, 2), "a caller");
        assert!(!order.runs_before(&edges, 5, 0) && !order.runs_before(&edges, 0, 5), "unrelated nodes, whichever thread is first");
        let scc = &order.sccs[order.scc_of[3]];
        let (first, second) = (scc[0], scc[1]);
        assert!(order.runs_before(&edges, first, second) && !order.runs_before(&edges, second, first), "in an SCC, its order");
    }

    /// A round over some SCCs runs exactly those, each after its marked callees.
    #[test]
    fn a_round_over_some_sccs_runs_only_those_after_their_callees() {
        // A chain 0 <- 1 <- 2 <- 3 and a node 4 calling 1: the round marks 2, 3 and 4's SCCs.
        let edges: Vec<Vec<usize>> = vec![vec![], vec![0], vec![1], vec![2], vec![1]];
        let order = BottomUp::new(&edges);
        let mut only = vec![false; order.sccs.len()];
        for n in [2, 3, 4] {
            only[order.scc_of[n]] = true;
        }
        let ran = Mutex::new(Vec::new());
        rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| {
            order.run(&|n| ran.lock().unwrap().push(n), &only)
        });
        let ran = ran.into_inner().unwrap();
        let mut sorted = ran.clone();
        sorted.sort();
        assert_eq!(sorted, vec![2, 3, 4]);
        let at = |n: usize| ran.iter().position(|&m| m == n).unwrap();
        assert!(at(2) < at(3), "3 ran before the 2 it calls: {ran:?}");
    }
}
