//! The call graph over the analysed methods, and what each method's own code says of the
//! threads it runs on: whether it takes a lock, enters a monitor, asserts or queries its
//! thread (8.5: it may then run on any thread), and whether it hands code to a background
//! thread (thread handoffs). The scheduler's demand and order are built on it.

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::ClassTable;
use crate::interned::ByAddress;
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::extensions::Extensions;
use super::field_classes::{self, FieldClasses, FieldLambdas};
use super::handler_callbacks::{self, HandlerCallback, HandlerCallbacks};
use super::handoffs::{self, HandoffModel};
use super::interp::MAX_INLINE_DEPTH;
use super::models::{self, LockEffect};
use super::registrations::WithoutHandler;
use super::schedule::{Bodies, MethodEntry};

/// The graph: callee indexes by method, and per method whether its own code may make it
/// run on any thread and whether it hands code to the background (directly or through an
/// upstream method that does).
pub struct CallGraph {
    pub edges: Vec<Vec<usize>>,
    pub own_code_concurrent: Vec<bool>,
    pub hands_off: Vec<bool>,
    /// Whether the method's own code asks which thread it runs on (a main-thread or looper
    /// query): what it returns may say so, and a caller branching on it may run on any thread.
    pub queries_thread: Vec<bool>,
    /// Whether the method's own code requires that its thread holds a lock (see
    /// [`requires_the_answer`]): its callers hold it, as for a method named `...Locked`.
    pub requires_held_lock: Vec<bool>,
    /// Whether the method's own code takes a lock and releases none (`acquire() {
    /// mLock.lock(); }`), or takes one and returns a boolean (`tryAcquire()`): it may return
    /// with the lock held (`held_lock_evidence`).
    pub may_return_locked: Vec<bool>,
}

/// What a call to one method means, the same at every call site: worked out once per
/// method called (the corpus has about ten call sites per distinct callee).
#[derive(Clone, Copy)]
struct Meaning {
    /// The analysed method the call runs, after the forwarders the interpreter inlines.
    runs: Option<usize>,
    /// It takes a lock, asserts or queries the thread (on the way through forwarders too).
    concurrent: bool,
    /// It reaches an upstream method that hands code to the background.
    hands: bool,
    /// It is a main-thread or looper query.
    queries: bool,
    handoff: Option<HandoffModel>,
    /// It asks whether the thread holds a lock (`Thread.holdsLock(x)`,
    /// `isHeldByCurrentThread()`, `isWriteLockedByCurrentThread()`).
    asks_held_lock: bool,
    /// It acquires a lock (in either mode), or releases one.
    acquires: bool,
    releases: bool,
}

pub struct Scan<'a> {
    pub table: &'a ClassTable,
    pub methods: &'a [MethodEntry],
    pub bodies: &'a Bodies,
    pub by_ref: &'a FxHashMap<MethodRef, usize>,
    pub shapes: &'a FxHashMap<MethodRef, InlineShape>,
    /// The code each allocated `Runnable`/`Callable` class runs (thread handoffs).
    pub handed_classes: &'a FxHashMap<Sym, Vec<MethodRef>>,
    /// Upstream methods whose summaries hand code to a background thread.
    pub upstream_hands: &'a FxHashSet<MethodRef>,
    /// Upstream methods whose results say which thread runs (see [`is_thread_query`]).
    pub upstream_queries: &'a FxHashSet<MethodRef>,
    /// Fields holding objects of one known class (field_receiver_dispatch).
    pub field_classes: &'a FieldClasses,
    /// Fields holding one lambda (thread handoffs).
    pub field_lambdas: &'a FieldLambdas,
    /// `Thread` fields holding a thread made with known code (thread handoffs).
    pub field_threads: &'a super::thread_fields::FieldThreads,
    /// Handler fields made with a callback (thread handoffs).
    pub handler_callbacks: &'a HandlerCallbacks,
    /// Schedulers kept in fields and returned by methods (reactive chains).
    pub schedulers: &'a super::kept_schedulers::KeptSchedulers,
    /// The callbacks of the observed Kotlin delegates made in each top-level class, which
    /// setting one of its delegated properties runs (see `kotlin_delegates`).
    pub observer_callbacks: &'a FxHashMap<&'static str, Vec<MethodRef>>,
    pub extensions: Extensions,
}

impl Scan<'_> {
    pub fn build(&self) -> CallGraph {
        // Each worker remembers the meanings it has worked out.
        let scanned: Vec<(Vec<usize>, OwnCode)> = (0..self.methods.len())
            .into_par_iter()
            .map_init(FxHashMap::default, |meanings, i| self.scan_method(i, meanings))
            .collect();
        let mut graph = CallGraph {
            edges: Vec::new(),
            own_code_concurrent: Vec::new(),
            hands_off: Vec::new(),
            queries_thread: Vec::new(),
            requires_held_lock: Vec::new(),
            may_return_locked: Vec::new(),
        };
        let mut passes_this = Vec::with_capacity(scanned.len());
        let mut held_code = Vec::new();
        for (i, (method, (out, own))) in self.methods.iter().zip(scanned).enumerate() {
            held_code.extend(own.held_code.iter().map(|&b| (i, b)));
            graph.edges.push(out);
            graph.own_code_concurrent.push(own.concurrent);
            graph.hands_off.push(own.hands);
            graph.queries_thread.push(own.queries);
            graph.requires_held_lock.push(own.requires_held_lock);
            // A boolean method may also answer whether it kept the lock (`tryAcquire()`).
            let answers = crate::classfile::descriptor::returns_boolean(method.mref.descriptor.as_str());
            graph.may_return_locked.push(own.acquires && (!own.releases || answers));
            passes_this.push(own.passes_this);
        }
        if self.extensions.thread_handoffs {
            let mut candidates = self.own_body_edges(&passes_this);
            candidates.extend(held_code);
            add_edges_closing_no_cycle(&mut graph.edges, candidates);
        }
        graph
    }

    /// `helper.remove(this)` in a `Runnable` may hand the object to another thread through
    /// the helper's summary, and the caller then applies its class's own `run()`: an edge
    /// from such a method to that body, so that the summary is made first whatever the
    /// timing (see [`add_edges_closing_no_cycle`]).
    fn own_body_edges(&self, passes_this: &[bool]) -> Vec<(usize, usize)> {
        let passing = || (0..self.methods.len()).filter(|&i| passes_this[i]);
        let classes: FxHashSet<Sym> = passing().map(|i| self.methods[i].mref.class).collect();
        let own_bodies: FxHashMap<Sym, Vec<usize>> = classes
            .into_par_iter()
            .map(|c| (c, handoffs::bodies_of_class(self.table, c).iter().filter_map(|b| self.analysed_index(b)).collect()))
            .collect();
        passing()
            .flat_map(|i| own_bodies.get(&self.methods[i].mref.class).into_iter().flatten().map(move |&b| (i, b)))
            .filter(|&(i, b)| b != i)
            .collect()
    }

    fn body(&self, i: usize) -> Option<&Body> {
        let e = &self.methods[i];
        if e.analysed {
            self.bodies[e.class][e.index].as_ref()
        } else {
            None
        }
    }

    /// The `handleMessage` bodies a message method `i` sends may run (it reads `held_classes`
    /// from fields of its class): those of the `Handler` subclasses among them and among the
    /// classes of its source file it allocates, and of the callbacks the handler fields it
    /// reads were made with, or a handler it makes is made with (its own class's, or one it
    /// allocates; a lambda's has its edge already).
    fn message_handlers(&self, i: usize, body: &Body, held_classes: &[Sym]) -> Vec<usize> {
        let own = self.methods[i].mref.class;
        let file = top_level_class(own.as_str());
        let made: Vec<Sym> = body.allocated_classes().into_iter().filter(|c| top_level_class(c.as_str()) == file).collect();
        let subclasses = held_classes.iter().chain(&made).filter_map(|&class| handoffs::message_handler(self.table, class));
        let read = field_classes::own_fields_read(self.handler_callbacks, own, body);
        let made_callbacks = made.iter().map(|&class| HandlerCallback::Object(class)).chain([HandlerCallback::Holder(own)]);
        let callbacks = read.into_iter().chain(made_callbacks).filter_map(|c| handler_callbacks::callback_code(self.table, c));
        let mut out = Vec::new();
        for b in subclasses.chain(callbacks).filter_map(|b| self.analysed_index(&b)) {
            if b != i && !out.contains(&b) {
                out.push(b);
            }
        }
        out
    }

    /// The code held by the fields of its own class that method `i` reads (see
    /// `handoffs::field_held_code` and `field_thread_code`), which a handoff there may run.
    fn field_held_bodies(&self, i: usize, body: &Body) -> Vec<usize> {
        let class = self.methods[i].mref.class;
        let mut out = Vec::new();
        for insn in &body.insns {
            if let Insn::GetField(f) | Insn::GetStatic(f) = insn {
                if f.class != class {
                    continue;
                }
                let held = handoffs::field_held_code(self.table, self.field_classes, self.field_lambdas, f.class, f.name);
                let thread = handoffs::field_thread_code(self.table, self.field_threads, f.class, f.name);
                for b in held.iter().chain(&thread).flat_map(|h| &h.bodies).filter_map(|b| self.analysed_index(b)) {
                    if b != i && !out.contains(&b) {
                        out.push(b);
                    }
                }
            }
        }
        out
    }

    fn analysed_index(&self, m: &MethodRef) -> Option<usize> {
        self.by_ref.get(m).copied().filter(|&c| self.methods[c].analysed)
    }

    fn meaning(&self, named: &MethodRef) -> Meaning {
        let handoff = handoffs::enabled_handoff_model(self.table, named, &self.extensions);
        let (mut concurrent, mut hands, mut queries) = (false, false, false);
        let mut target = *named;
        let mut hops = 0;
        loop {
            let resolved = self.table.resolve_method(&target).unwrap_or(target);
            concurrent |= may_go_concurrent(self.table, &target, &resolved, self.extensions);
            hands |= self.upstream_hands.contains(&resolved);
            queries |= is_thread_query(&target, self.extensions) || self.upstream_queries.contains(&resolved);
            match self.shapes.get(&target) {
                // The interpreter inlines a forward at depths 0..=MAX_INLINE_DEPTH: the edge
                // goes to the method it finally calls.
                Some(InlineShape::Forward(next, _)) if hops <= MAX_INLINE_DEPTH => {
                    target = *next;
                    hops += 1;
                }
                _ => {
                    let asks_held_lock = asks_held_lock(named);
                    let effect = models::lock_effect(self.table, named, self.extensions);
                    let acquires = matches!(effect, Some(LockEffect::Acquire | LockEffect::AcquireRead | LockEffect::TryAcquire | LockEffect::TryAcquireRead));
                    let releases = matches!(effect, Some(LockEffect::Release | LockEffect::ReleaseRead | LockEffect::ReleaseAny));
                    let runs = self.analysed_index(&resolved);
                    return Meaning { runs, concurrent, hands, queries, handoff, asks_held_lock, acquires, releases };
                }
            }
        }
    }

    /// Method `i`'s callees, and what its own code says of its threads.
    fn scan_method(&self, i: usize, meanings: &mut FxHashMap<ByAddress<MethodRef>, Meaning>) -> (Vec<usize>, OwnCode) {
        let mut out = Vec::new();
        let (mut concurrent, mut hands, mut queries) = (false, false, false);
        let (mut passes_this, mut requires_held_lock) = (false, false);
        let (mut acquires, mut releases) = (false, false);
        let mut hands_over_code = false;
        let mut sends_message = false;
        let Some(body) = self.body(i) else {
            let held_code = Vec::new();
            return (out, OwnCode { concurrent, hands, queries, passes_this, requires_held_lock, acquires, releases, held_code });
        };
        let mut edge_to = |callee: Option<usize>| {
            if let Some(c) = callee {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        };
        let table = self.table;
        let with_handoffs = self.extensions.thread_handoffs;
        // A call on an object the method allocates may run the allocated class's
        // implementation (fresh_receiver_dispatch): an edge to each such candidate.
        let mut allocated = if self.extensions.fresh_receiver_dispatch { body.allocated_classes() } else { Vec::new() };
        // Likewise a call on a field of the class that holds objects of one known class
        // (field_receiver_dispatch).
        let held_classes = field_classes::read_by(self.field_classes, self.methods[i].mref.class, body);
        for &held in &held_classes {
            if !allocated.contains(&held) {
                allocated.push(held);
            }
        }
        for (at, insn) in body.insns.iter().enumerate() {
            match insn {
                Insn::MonitorEnter | Insn::MonitorExit => concurrent = true,
                // Thread handoffs: the handed code's summary is applied where it is handed.
                Insn::InvokeDynamic(DynamicCall { lambda: Some(l), .. }) if with_handoffs => {
                    edge_to(self.analysed_index(&table.resolve_method(l).unwrap_or(*l)));
                }
                Insn::New { class } => {
                    for b in self.handed_classes.get(class).into_iter().flatten() {
                        edge_to(self.analysed_index(b));
                    }
                }
                Insn::GetStatic(f) => {
                    for b in self.handed_classes.get(&f.class).filter(|_| handoffs::is_singleton_instance(f)).into_iter().flatten() {
                        edge_to(self.analysed_index(b));
                    }
                }
                Insn::Invoke { method, kind } => {
                    if super::kotlin_delegates::sets_property(method) {
                        let own = top_level_class(self.methods[i].mref.class.as_str());
                        for callback in self.observer_callbacks.get(own).into_iter().flatten() {
                            edge_to(self.analysed_index(callback));
                        }
                    }
                    let meaning = *meanings.entry(ByAddress(method)).or_insert_with(|| self.meaning(method));
                    // `thread.run()` runs only code this method made the thread with (its edge is there).
                    let handoff = HandoffModel::at_call(meaning.handoff, table, self.schedulers, &body.insns, at)
                        .filter(|&model| model != HandoffModel::ThreadRun);
                    if let Some(model) = handoff {
                        hands |= handoffs::may_hand_to_background(model);
                        concurrent |= hands;
                        // `new Thread(this)`, `executor.execute(this)`: the class's own body. Not
                        // for an observer's registration of itself, which its own `onChange` may
                        // make (and which hands it over only where it runs on the main thread,
                        // `content_observers`): that edge would close a cycle through `onChange`.
                        if model != HandoffModel::Registration(WithoutHandler::Observer) {
                            for b in handoffs::bodies_of_class(table, self.methods[i].mref.class) {
                                edge_to(self.analysed_index(&b));
                            }
                        }
                        // `worker.start()`: the `run()` of the `Thread` subclass the call names.
                        if model == HandoffModel::ThreadStart {
                            if let Some(b) = handoffs::body_of_class(table, method.class) {
                                edge_to(self.analysed_index(&b));
                            }
                        }
                        sends_message |= model == HandoffModel::HandlerSend;
                        hands_over_code = true;
                    }
                    if matches!(kind, InvokeKind::Virtual | InvokeKind::Interface) {
                        for &class in &allocated {
                            if let Some(exact) = table.resolve_exact(class, method) {
                                edge_to(self.analysed_index(&exact));
                            }
                        }
                    }
                    passes_this |= !method.descriptor.as_str().starts_with("()");
                    concurrent |= meaning.concurrent;
                    hands |= meaning.hands;
                    queries |= meaning.queries;
                    requires_held_lock |= meaning.asks_held_lock && requires_the_answer(body, at);
                    acquires |= meaning.acquires;
                    releases |= meaning.releases;
                    edge_to(meaning.runs);
                }
                _ => {}
            }
        }
        // `this` may go to a callee whose summary hands it on (see `own_body_edges`).
        passes_this = passes_this && body.insns.iter().any(|insn| matches!(insn, Insn::Load { slot: 0, wide: false }));
        // `executor.execute(tick)`: the code the fields it reads hold.
        let mut held_code = if hands_over_code { self.field_held_bodies(i, body) } else { Vec::new() };
        // `handler.sendMessage(m)`: the `handleMessage` the fields it reads lead to (these edges
        // close no cycle: a handler's code sends messages to itself).
        if sends_message {
            for b in self.message_handlers(i, body, &held_classes) {
                if !held_code.contains(&b) {
                    held_code.push(b);
                }
            }
        }
        (out, OwnCode { concurrent, hands, queries, passes_this, requires_held_lock, acquires, releases, held_code })
    }
}

/// Edges from methods to code they may run through a summary or a handoff that the call
/// graph does not show (`(method, body)` pairs): so that the body's summary is made first.
/// Not where the body reaches the method (a cycle would cost both precision; the caller then
/// sees no summary, as inside a recursion). Reaching is decided on the graph without these
/// edges: two of them may still close a cycle, an SCC like any other.
fn add_edges_closing_no_cycle(edges: &mut [Vec<usize>], candidates: Vec<(usize, usize)>) {
    let candidates: Vec<(usize, usize)> = candidates.into_iter().filter(|&(i, b)| !edges[i].contains(&b)).collect();
    // What each body reaches, on the graph before any of these edges.
    let mut bodies: Vec<usize> = candidates.iter().map(|&(_, b)| b).collect();
    bodies.sort_unstable();
    bodies.dedup();
    let graph: &[Vec<usize>] = edges;
    let reached: FxHashMap<usize, FxHashSet<usize>> = bodies.into_par_iter().map(|b| (b, reachable(graph, b))).collect();
    for (i, body) in candidates {
        if !reached[&body].contains(&i) && !edges[i].contains(&body) {
            edges[i].push(body);
        }
    }
}

/// The nodes `from` reaches by one or more edges.
pub(super) fn reachable(edges: &[Vec<usize>], from: usize) -> FxHashSet<usize> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![from];
    while let Some(m) = stack.pop() {
        for &c in &edges[m] {
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    seen
}

/// What a method's own code says of the threads it runs on (see [`CallGraph`]).
struct OwnCode {
    concurrent: bool,
    hands: bool,
    queries: bool,
    /// It loads `this` and makes a call with arguments: it may give its object to a method
    /// (analysed here or upstream) whose summary hands it to another thread or to a looper.
    passes_this: bool,
    requires_held_lock: bool,
    /// It takes a lock (in either mode), or releases one.
    acquires: bool,
    releases: bool,
    /// The analysed code held by fields it reads and may hand over (see `field_held_bodies`).
    held_code: Vec<usize>,
}

fn asks_held_lock(named: &MethodRef) -> bool {
    match named.name.as_str() {
        "holdsLock" => named.class.as_str() == "java.lang.Thread",
        "isHeldByCurrentThread" | "isWriteLockedByCurrentThread" => true,
        _ => false,
    }
}

/// Whether the answer of the question asked at `at` (whether a lock is held) must be yes: it
/// is asserted (`assert`, `if (!...) throw`: when true, a jump past a `throw`) or given to a
/// precondition check (`checkState(...)`). That says in code what a `...Locked` name says,
/// that the callers hold the lock. A negated check (`checkState(!lock.isHeldByCurrentThread())`,
/// guarding against a deadlock), or work done only when the lock is not held, says nothing of
/// them.
fn requires_the_answer(body: &Body, at: usize) -> bool {
    match body.insns.get(at + 1) {
        Some(Insn::If { kind: IfKind::Zero(Cmp::Ne), target }) => {
            matches!((*target as usize).checked_sub(1).and_then(|t| body.insns.get(t)), Some(Insn::Athrow))
        }
        Some(Insn::Invoke { method: check, .. }) => {
            matches!(check.name.as_str(), "checkState" | "checkArgument" | "verify") && check.descriptor.as_str().starts_with("(Z")
        }
        _ => false,
    }
}

/// A call whose result says which thread runs (a main-thread, looper or event-loop query).
fn is_thread_query(named: &MethodRef, ext: Extensions) -> bool {
    use super::models::ThreadEffect;
    !matches!(models::call_thread_effect(named, ext), None | Some(ThreadEffect::AssertMain | ThreadEffect::AssertBackground))
}

/// Whether a call makes its caller possibly run on any thread (8.5): a lock model, a
/// background assertion, a main-thread query, a looper query or an event-loop query.
fn may_go_concurrent(table: &ClassTable, named: &MethodRef, resolved: &MethodRef, ext: Extensions) -> bool {
    use super::models::ThreadEffect;
    models::lock_effect(table, named, ext).is_some()
        || models::lock_effect(table, resolved, ext).is_some()
        || !matches!(models::call_thread_effect(named, ext), None | Some(ThreadEffect::AssertMain))
}
