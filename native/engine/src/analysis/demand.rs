//! What reporting needs summarised, worked out from the call graph before any method is
//! analysed: the methods needed first, the ones whose summaries decide whether their class is
//! reported on (and what promoting a class then needs), and the bodies no round can need.

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::sym::Sym;

use super::callgraph::CallGraph;
use super::domain::{Attr, Summary};
use super::schedule::{Bodies, Inputs, MethodEntry};

/// Frees, before any method is analysed, the bodies that no round can need: those outside
/// `may_need` that no initializer reaches (the last round, 8.4, summarises initializers
/// decided only then). The analysis's own allocations then reuse their memory.
pub(super) fn free_unreachable_bodies(bodies: &mut Bodies, methods: &[MethodEntry], edges: &[Vec<usize>], may_need: Vec<bool>) {
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
pub(super) struct Demand {
    /// The methods needed first (see [`needed_for_reporting`]).
    pub(super) needed: Vec<bool>,
    /// The classes reported on if their summaries say so.
    pub(super) candidate: Vec<bool>,
    /// The methods whose summaries decide whether a class that may be reported is: a class
    /// with one of them is a candidate once their summaries say it runs on any thread (see
    /// [`promoted_classes`]).
    pub(super) deferred: Vec<usize>,
    /// Everything that may be needed: `needed`, and what promoting every class of `deferred`
    /// would need.
    pub(super) may_need: Vec<bool>,
    pub(super) pooled_inherited: FxHashMap<Sym, Vec<MethodRef>>,
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
/// the class that takes a lock (with `callee_lock_evidence`), a call to a method that may
/// return with a lock held (with `held_lock_evidence`), a thread query, a handoff at any depth, a call to a method
/// that may return a thread query's answer, a `Thread` subclass's own `run()` (with
/// `thread_runs`). Their classes are candidates if their summaries say so (on the corpus, 348
/// of 1,265 classes with such methods are not).
pub(super) fn needed_for_reporting(
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
    // A callee that may return with a lock held leaves its caller under that lock.
    let calls_locking_helper = |c: usize| ext.held_lock_evidence && graph.may_return_locked[c];
    let may_run_on_any_thread = |i: usize| {
        methods[i].facts.initial_threads == Threads::AnyThread
            || methods[i].facts.runs_own_thread
            || graph.own_code_concurrent[i]
            || reaches_handoff[i]
            || graph.queries_thread[i]
            || edges[i].iter().any(|&c| may_return_query[c] || calls_own_class_lock(i, c) || calls_locking_helper(c))
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
pub(super) fn takes_lock(inputs: &Inputs<'_>, methods: &[MethodEntry], own_code_concurrent: &[bool], i: usize) -> bool {
    let e = &methods[i];
    own_code_concurrent[i] || inputs.classes[e.class].methods[e.index].header.flags & ACC_SYNCHRONIZED != 0
}

/// Whether a body enters a monitor or calls a lock's `lock()`, `lockInterruptibly()` or
/// `tryLock()` (by name: any class's).
pub(super) fn takes_a_lock(body: &Body) -> bool {
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
pub(super) fn promotion_roots(
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
    let class = &inputs.classes[e.class];
    super::races::contributes_to_pool(e, &class.header, &class.methods[e.index].header, inputs.extensions)
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
pub(super) fn promoted_classes<'s>(
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
pub(super) fn returns_thread_query(s: &Summary) -> bool {
    matches!(s.return_attribute, Some(Attr::OnMainThread | Attr::OffMainThread | Attr::MainThreadHandle | Attr::CurrentThreadHandle))
}

/// Whether a summary has accesses of code handed to a background thread.
pub(super) fn has_handed_background(s: &Summary) -> bool {
    s.accesses.iter().any(|a| a.key.handed && a.key.thread.is_any())
}
