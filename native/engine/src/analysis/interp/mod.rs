//! Section 4-5: the forward abstract interpreter of one method body, producing
//! its summary. The operand stack is modelled symbolically so that `getfield`
//! on a stack value yields a longer access path (2.2, implementation note).
//!
//! This module holds the driver (initial state, fixpoint over the CFG, exits and
//! the summary); the transfer functions live in one submodule per concern.

use std::collections::BTreeSet;

use thin_vec::ThinVec;

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::annotations::{is_initializer, AnnotationConfig, MethodFacts};
use super::cfg::Cfg;
use super::domain::*;
use locks::join_threads;
use super::extensions::Extensions;
use super::facts::Facts;
use super::models;

mod access_set;
mod apply;
mod accesses;
mod aliases;
mod dispatch;
mod branches;
mod calls;
mod containers;
mod flows;
mod handoff_targets;
mod handoffs;
mod held_fields;
mod insns;
mod joins;
mod locks;
mod made_handlers;
mod ownership;
mod state;
mod suspensions;
mod waits;

use access_set::AccessSet;
use apply::AppliedAt;
use locks::LocksByAnswer;
use ownership::own_e;
use state::*;

/// What is known about a callee.
pub enum Callee<'s> {
    /// Borrowed: summaries outlive the analysis of their callers.
    Summary(&'s Summary),
    /// No summary: no body, abstract, native, recursion cycle (5.6).
    Unknown,
}

/// Everything the interpreter needs besides the method itself.
pub struct Env<'a> {
    pub table: &'a ClassTable,
    pub facts: &'a Facts,
    pub config: &'a AnnotationConfig,
    pub ignore_classes: &'a crate::fxhash::FxHashSet<Sym>,
    pub callee: &'a (dyn Fn(&MethodRef) -> Callee<'a> + Sync),
    /// The summary of a method the caller (first) reaches by no call-graph edge (code handed
    /// on through a callee's summary): only if the schedule makes it before the caller, so
    /// that what the caller sees does not hang on which thread ran first.
    pub scheduled_callee: &'a (dyn Fn(&MethodRef, &MethodRef) -> Callee<'a> + Sync),
    pub inline_shape: &'a (dyn Fn(&MethodRef) -> Option<InlineShape> + Sync),
    /// Whether a method's own code takes a lock (synchronized, a monitor, a lock model) or
    /// otherwise shows it runs concurrently (8.5): analysed methods only.
    pub takes_lock: &'a (dyn Fn(&MethodRef) -> bool + Sync),
    pub extensions: Extensions,
    pub keys: &'a super::shared_keys::SharedKeys,
}

struct Exit {
    /// Attribute map joined over the exits that leave the object made (kept for constructors
    /// and class initialisers; see `normal_returns`).
    attrs: Option<PathMap<Attr>>,
    threads: Threads,
    /// `threads` is `AnyThread` only by locks on other objects (see `State`), on every exit
    /// that runs on any thread.
    foreign_lock_threads: bool,
    locks: u8,
    /// The lock state of the normal returns (`return`, not `athrow`): what a caller resumes
    /// with.
    returned: Option<ReturnedLocks>,
    ret_own: Option<Own>,
    ret_attr: Option<Option<Attr>>,
    /// Formals whose object escaped, joined over the exits.
    param_escapes: Vec<(u16, Own)>,
    /// Formals stored into a location on every normal return so far (None: no normal
    /// return yet).
    param_stores: Option<Vec<(u16, Path)>>,
    /// The path returned by every normal return so far, and whether as a snapshot (None: no
    /// normal return yet; Some(None): a return gave something else).
    ret_path: Option<Option<(Path, bool)>>,
    /// Likewise, the field of `this` returned as read, under any lock.
    ret_field: Option<Option<Path>>,
    /// The fields of the fresh result holding a formal's or a static's object, on every
    /// normal return so far (None: no normal return yet).
    ret_holds: Option<Vec<(Step, Path)>>,
    /// Of a method returning a boolean, the locks held where it returns true and where it
    /// returns false, while every normal return gives a constant (None: no normal return
    /// yet; Some(None): a return gave something else).
    answers: Option<Option<LocksByAnswer>>,
}

#[derive(Clone, Copy)]
struct ReturnedLocks {
    locks: u8,
    may_locks: u8,
    released: u8,
    read_locks: u8,
    read_released: u8,
}

impl ReturnedLocks {
    fn of(st: &State) -> ReturnedLocks {
        ReturnedLocks {
            locks: st.locks,
            may_locks: st.may_locks,
            released: st.released,
            read_locks: st.read_locks,
            read_released: st.read_released,
        }
    }
    fn join(self, other: ReturnedLocks, must_hold: bool) -> ReturnedLocks {
        let held = |a: u8, b: u8| if must_hold { a.min(b) } else { a.max(b) };
        ReturnedLocks {
            locks: held(self.locks, other.locks),
            may_locks: self.may_locks.max(other.may_locks),
            released: self.released.max(other.released),
            read_locks: held(self.read_locks, other.read_locks),
            read_released: self.read_released.max(other.read_released),
        }
    }
}

/// The state a handler starts with: the thrown exception alone on the stack.
fn handler_entry(st: &State) -> State {
    State {
        threads: st.threads,
        foreign_lock_threads: st.foreign_lock_threads,
        locks: st.locks,
        lock_on: st.lock_on,
        object_locks: st.object_locks,
        read_locks: st.read_locks,
        read_released: st.read_released,
        may_locks: st.may_locks,
        released: st.released,
        fresh_locks: st.fresh_locks,
        own: st.own.clone(),
        attrs: st.attrs.clone(),
        stack: vec![Slot::Val(Expr::opaque(Vec::new(), None, Own::Unowned))],
        escaped: st.escaped.clone(),
        aliases: st.aliases.clone(),
        allocated: st.allocated.clone(),
        holders: st.holders.clone(),
        held: st.held.clone(),
        running: st.running.clone(),
        consts: st.consts.clone(),
    }
}

/// Instructions that change nothing but the operand stack and temporaries (which do not
/// reach a handler).
fn only_moves_values(insn: &Insn) -> bool {
    !matches!(
        insn,
        Insn::Store { .. }
            | Insn::Iinc { .. }
            | Insn::ArrayStore { .. }
            | Insn::PutField(_)
            | Insn::PutStatic(_)
            | Insn::Invoke { .. }
            | Insn::MonitorEnter
            | Insn::MonitorExit
    )
}

pub struct MethodInput<'a> {
    pub class: &'a ClassHeader,
    pub method: &'a Method,
    /// The method's body (kept apart from `method`: the scheduler frees it after the analysis).
    pub body: Option<&'a Body>,
    pub mref: MethodRef,
    pub facts: &'a MethodFacts,
}

/// Deepest nesting of inlined forwarding accessors (2.4); past it the call is a plain call.
/// The scheduler's call graph follows as many forwards (a callee outside it could be read
/// while it is still being analysed).
pub const MAX_INLINE_DEPTH: u32 = 8;

/// Per-block visits after which the fixpoint stops widening (finite domains make
/// this a safety net only).
const MAX_BLOCK_VISITS: u32 = 64;

struct Interp<'a, 'e> {
    env: &'a Env<'e>,
    input: &'a MethodInput<'a>,
    body: &'a Body,
    /// Each access snapshot with its preferred site.
    accesses: AccessSet,
    exit: Option<Exit>,
    exits_after: Vec<bool>,
    line: u32,
    pc: usize,
    inline_depth: u32,
    /// The summaries whose accesses were already added (callee, summary address), with the
    /// caller facts they depend on, and the earliest line they were added at.
    applied: crate::fxhash::FxHashMap<(MethodRef, usize, AppliedAt), u32>,
    /// Thread handoffs: what the code made at an instruction captured (see `handoffs.rs`).
    handed_values: crate::fxhash::FxHashMap<u32, Vec<Expr>>,
    /// The fields of a handed object made at a pc that hold shared objects its constructor was
    /// given (`new Worker(this)`, whose constructor keeps its argument in `owner`).
    handed_fields: crate::fxhash::FxHashMap<u32, Vec<(Step, Path)>>,
    /// The callbacks of the handlers made in the method, by the handler's `new` (see
    /// `made_handlers.rs`).
    made_handler_callbacks: crate::fxhash::FxHashMap<u32, made_handlers::MadeCallback>,
    /// States flowing into exception handlers from the block being run.
    to_handlers: std::collections::BTreeMap<usize, State>,
    /// The handlers of the block being run that the last handler entry was joined into, and
    /// that entry (see `flow_to_handlers`).
    last_handler_flow: Option<(Vec<usize>, State)>,
    /// The trace nodes made for callee accesses, by call site and the callee trace they
    /// extend: the accesses a call brings in share one node per distinct callee trace
    /// instead of one each (most callee accesses have the same, often empty, trace).
    prepended: crate::fxhash::FxHashMap<(CallSite, usize), (Trace, Trace)>,
    /// The last of those looked up: a call's accesses come one after the other.
    last_prepended: Option<(CallSite, usize, Trace)>,
    /// The callee of the last trace node made, interned (see `add_callee_access`).
    last_callee: Option<(MethodRef, &'static MethodRef)>,
    /// Whether accesses are recorded: not while a loop's fixpoint is being computed, since
    /// only what the converged states record is kept (see `run`).
    recording: bool,
    /// See [`Summary::own_monitor_statics`].
    own_monitor_statics: Vec<Path>,
    /// See [`Summary::param_handoffs`].
    param_handoffs: Vec<ParamHandoff>,
    /// See [`Summary::param_runs`].
    param_runs: Vec<ParamRun>,
    /// Whether the method stores its own object into a static field (`sInstance = this`):
    /// then its object is shared whatever lock it takes (see `Summary::own_fields_unshared`).
    publishes_own_object: bool,
    /// Whether the block being run is in a loop (it may run more than once per call).
    in_loop: bool,
    /// A constructor handing code to another thread at one call only (see `handoffs.rs`).
    hands_once: bool,
    /// The threads the method makes and joins (see `joins.rs`).
    joins: joins::Joins,
}

pub fn analyze_method(env: &Env<'_>, input: &MethodInput<'_>) -> Summary {
    let body = match input.body {
        Some(b) => b,
        None => return Summary::empty(),
    };
    let mut exits_after = vec![false; body.insns.len()];
    for (i, insn) in body.insns.iter().enumerate() {
        if let Insn::Invoke { method, .. } = insn {
            exits_after[i] = match env.facts.call(method) {
                Some(f) => f.exits,
                None => models::is_exit_call(env.table, method, env.extensions),
            };
        }
    }
    let hands_once = handoffs::constructor_hands_once(env, &input.mref, body);
    let mut interp = Interp { env, input, body, accesses: Default::default(), exit: None, exits_after, line: 0, pc: 0, inline_depth: 0, applied: Default::default(), handed_values: Default::default(), handed_fields: Default::default(), made_handler_callbacks: Default::default(), to_handlers: Default::default(), last_handler_flow: None, prepended: Default::default(), last_prepended: None, last_callee: None, recording: true, own_monitor_statics: Vec::new(), param_handoffs: Vec::new(), param_runs: Vec::new(), publishes_own_object: false, in_loop: false, hands_once, joins: Default::default() };
    interp.run();
    interp.summary()
}

impl<'a, 'e> Interp<'a, 'e> {
    fn initial_state(&self) -> State {
        let m = self.input.method;
        let mref = &self.input.mref;
        let table = self.env.table;
        let synchronized = m.header.flags & ACC_SYNCHRONIZED != 0;
        let mut own = PathMap::default();
        let initializer = is_initializer(table, mref);
        let all_owned = (initializer && m.header.has_annotation("Inject"))
            || m.header.has_annotation("InjectProp")
            || m.header.param_inject_prop;
        let is_static = m.header.is_static();
        for i in 0..m.formal_slots.len() {
            let base = if i == 0 && !is_static { Base::This } else { Base::Param(i as u16) };
            let value = if all_owned || (initializer && i == 0) { OWNED } else { Own::formal(i) };
            own.set(&Path::of(base), Some(value));
        }
        State {
            threads: self.input.facts.initial_threads,
            foreign_lock_threads: false,
            locks: if synchronized { 1 } else { 0 },
            // A synchronized method holds the monitor of its object, or of its class.
            lock_on: (synchronized && self.env.extensions.lock_identities)
                .then(|| LockPath::new(Path::of(if is_static { Base::Static(mref.class) } else { Base::This }))),
            object_locks: if synchronized && self.own_monitor_is_per_object() { 1 } else { 0 },
            read_locks: 0,
            read_released: 0,
            may_locks: if synchronized { 1 } else { 0 },
            released: 0,
            fresh_locks: 0,
            own,
            attrs: PathMap::default(),
            stack: Vec::new(),
            escaped: PathMap::default(),
            aliases: Default::default(),
            allocated: Default::default(),
            holders: Default::default(),
            held: Default::default(),
            running: Default::default(),
            consts: Default::default(),
        }
    }

    fn run(&mut self) {
        let insns = &self.body.insns;
        let exits_after = std::mem::take(&mut self.exits_after);
        let splits = |i: usize| exits_after[i];
        let handlers = if self.env.extensions.exception_handlers { &self.body.handlers[..] } else { &[] };
        let cfg = Cfg::build(insns, &splits, handlers);
        if cfg.blocks.is_empty() {
            return;
        }
        // A block visited again (a loop) first runs with a state that has not converged, and
        // what it would record then is stale. With `converged_loops`, the blocks run in flow
        // order, where each loop settles before what follows it runs: a block in no loop runs
        // once, from its final entry state, and records then; the loops' blocks record in a
        // last pass from their converged entry states. (Without it, reverse post-order, and
        // every run records.)
        let converged = self.env.extensions.converged_loops;
        let (order, runs_again) = if converged { (&cfg.flow_order, &cfg.in_cycle) } else { (&cfg.rpo, &cfg.after_loop) };
        let mut position = vec![usize::MAX; cfg.blocks.len()];
        for (k, b) in order.iter().enumerate() {
            position[*b] = k;
        }
        let mut entry: Vec<Option<State>> = vec![None; cfg.blocks.len()];
        let mut visits = vec![0u32; cfg.blocks.len()];
        entry[0] = Some(self.initial_state());
        // Worklist in that order: a dirty flag per position and a cursor that restarts from
        // the lowest dirty position.
        let mut dirty = vec![false; order.len()];
        let mut lowest = position[0];
        dirty[lowest] = true;
        while let Some(k) = (lowest..dirty.len()).find(|&k| dirty[k]) {
            dirty[k] = false;
            lowest = k;
            let b = order[k];
            visits[b] += 1;
            // A block that does not run again: its entry state is not needed again.
            let state = if runs_again[b] { entry[b].clone() } else { entry[b].take() };
            let Some(state) = state else { continue };
            self.recording = !converged || !cfg.in_cycle[b];
            self.in_loop = cfg.in_cycle[b];
            let mut outgoing = self.run_block(&cfg, b, state, &exits_after);
            outgoing.extend(std::mem::take(&mut self.to_handlers));
            for (succ, mut out) in outgoing {
                gc_temps(&mut out);
                let changed = match entry[succ].take() {
                    None if visits[succ] < MAX_BLOCK_VISITS => {
                        entry[succ] = Some(out);
                        true
                    }
                    None => false,
                    // Joining a state into itself changes nothing (a loop's last round).
                    Some(old) if old == out => {
                        entry[succ] = Some(old);
                        false
                    }
                    Some(old) => {
                        let merged = join_states(&old, &out, self.env.extensions.lock_precision, self.env.extensions.local_aliases);
                        // A block not run yet is waiting already: whether its state grew does
                        // not matter.
                        if visits[succ] == 0 || (merged != old && visits[succ] < MAX_BLOCK_VISITS) {
                            entry[succ] = Some(merged);
                            true
                        } else {
                            entry[succ] = Some(old);
                            false
                        }
                    }
                };
                if changed && position[succ] != usize::MAX {
                    dirty[position[succ]] = true;
                    lowest = lowest.min(position[succ]);
                }
            }
        }
        if converged {
            self.recording = true;
            for &b in order.iter().filter(|b| cfg.in_cycle[**b]) {
                if let Some(state) = entry[b].clone() {
                    self.in_loop = true;
                    self.run_block(&cfg, b, state, &exits_after);
                }
                self.to_handlers.clear();
            }
        }
    }

    /// Joins the state before covered instruction `i` into what flows to each handler of
    /// `i` from the block being run: one state per handler, however long the block (nested
    /// `try`s would otherwise keep a state per instruction and handler).
    fn flow_to_handlers(&mut self, cfg: &Cfg, i: usize, st: &State) {
        if cfg.handlers_at(i).next().is_none() || self.acquires_lock(&self.body.insns[i]) {
            return;
        }
        let mut entry = handler_entry(st);
        // Nothing on a handler's stack names a temporary: they go now rather than after the
        // joins (which treat each path apart, so the joined state is the same), and an
        // instruction that changed only temporaries flows the entry that went last.
        gc_temps(&mut entry);
        let handlers: Vec<usize> = match self.last_handler_flow.take() {
            // Joining a state in again changes nothing.
            Some((last_handlers, last)) if cfg.handlers_at(i).eq(last_handlers.iter().copied()) => {
                if last == entry {
                    self.last_handler_flow = Some((last_handlers, last));
                    return;
                }
                last_handlers
            }
            _ => cfg.handlers_at(i).collect(),
        };
        let must_hold = self.env.extensions.lock_precision;
        for &h in &handlers {
            match self.to_handlers.get_mut(&h) {
                Some(old) => *old = join_states(old, &entry, must_hold, self.env.extensions.local_aliases),
                None => {
                    self.to_handlers.insert(h, entry.clone());
                }
            }
        }
        self.last_handler_flow = Some((handlers, entry));
    }

    /// Whether an instruction takes a lock (`lock()`, a read lock's `lock()`). What it throws
    /// is not followed into handlers: `try { lock.lock(); ... } finally { lock.unlock(); }`
    /// would otherwise run its `finally` unlocked, on a path where `unlock()` itself throws.
    fn acquires_lock(&self, insn: &Insn) -> bool {
        let Insn::Invoke { method, .. } = insn else { return false };
        let lock = match self.env.facts.call(method) {
            Some(cf) => cf.lock,
            None => models::lock_effect(self.env.table, method, self.env.extensions),
        };
        matches!(lock, Some(models::LockEffect::Acquire | models::LockEffect::AcquireRead))
    }

    /// Runs one block; returns the states flowing to successor blocks.
    fn run_block(&mut self, cfg: &Cfg, b: usize, mut st: State, exits_after: &[bool]) -> Vec<(usize, State)> {
        self.last_handler_flow = None;
        let block = cfg.blocks[b].clone();
        let insns = &self.body.insns;
        // A handler is entered from the covered instructions, with the state before each:
        // those that change more than the operand stack (an instruction that only moves values
        // throws nothing of interest: `this.mLock` is never null), but for a lock's acquisition.
        for i in block.start..block.end {
            self.pc = i;
            self.line = self.body.lines[i];
            if !cfg.handlers.is_empty() && !only_moves_values(&insns[i]) {
                self.flow_to_handlers(cfg, i, &st);
            }
            let last = i + 1 == block.end;
            match &insns[i] {
                Insn::If { kind, target } => {
                    if let Some(join) = self.materialized_main_check(&mut st, *kind, i, *target as usize) {
                        return vec![(cfg.block_of[join] as usize, st)];
                    }
                    let next = i + 1;
                    let before = (st.locks, st.read_locks, st.threads);
                    let decided = self.constant_branch(&st, *kind);
                    let (mut taken, mut fall) = self.branch(&mut st, *kind);
                    Self::check_alias_state(&mut taken, before);
                    Self::check_alias_state(&mut fall, before);
                    let mut out = Vec::new();
                    if next < insns.len() && decided != Some(true) {
                        out.push((cfg.block_of[next] as usize, fall));
                    }
                    if decided != Some(false) {
                        out.push((cfg.block_of[*target as usize] as usize, taken));
                    }
                    return out;
                }
                Insn::Goto { target } => return vec![(cfg.block_of[*target as usize] as usize, st)],
                Insn::Switch { targets, from_zero } => {
                    let key = pop(&mut st, false);
                    self.read_expr(&st, &key);
                    let targets = match self.env.extensions.suspend_resumes {
                        true => suspensions::followed_targets(self.env.table, insns, i, targets, *from_zero),
                        false => targets,
                    };
                    let mut seen = BTreeSet::new();
                    return targets
                        .iter()
                        .map(|t| cfg.block_of[*t as usize] as usize)
                        .filter(|t| seen.insert(*t))
                        .map(|t| (t, st.clone()))
                        .collect();
                }
                Insn::Jsr { target } => {
                    let mut into = st.clone();
                    into.stack.push(Slot::Val(Expr::Const(ConstVal::Other)));
                    let mut out = vec![(cfg.block_of[*target as usize] as usize, into)];
                    if i + 1 < insns.len() {
                        out.push((cfg.block_of[i + 1] as usize, st));
                    }
                    return out;
                }
                Insn::Ret => return Vec::new(),
                Insn::Return { value } => {
                    let ret = value.map(|w| pop(&mut st, w));
                    self.finish(&st, ret.as_ref(), true);
                    return Vec::new();
                }
                Insn::Athrow => {
                    let ex = pop(&mut st, false);
                    self.finish(&st, Some(&ex), false);
                    return Vec::new();
                }
                insn => {
                    let before = (st.locks, st.read_locks, st.threads);
                    self.step(&mut st, insn);
                    Self::check_alias_state(&mut st, before);
                    if exits_after[i] {
                        self.finish(&st, None, false);
                        return Vec::new();
                    }
                    if last {
                        return if i + 1 < insns.len() { vec![(cfg.block_of[i + 1] as usize, st)] } else { Vec::new() };
                    }
                }
            }
        }
        Vec::new()
    }

    /// `returns`: a normal return (the caller resumes after the call).
    fn finish(&mut self, st: &State, ret: Option<&Expr>, returns: bool) {
        // An exit is taken from converged states only, like the accesses.
        if !self.recording {
            return;
        }
        if let Some(r) = ret {
            self.read_expr(st, r);
        }
        // A thrown exit gives back no value and makes no object (`normal_returns`): what the
        // result and the initialised fields hold comes from the normal returns.
        let leaves_result = returns || !self.env.extensions.normal_returns;
        let (ro, ra) = match ret {
            Some(r) if leaves_result => (Some(own_e(st, r)), Some(self.stored_attr(st, r))),
            _ => (None, None),
        };
        let escapes = self.param_escapes(st);
        let name = self.input.mref.name.as_str();
        let fields_kept = (name == "<init>" || name == "<clinit>") && leaves_result;
        let must_hold = self.env.extensions.lock_precision;
        if returns {
            self.note_threads_at_return(st);
        }
        let returned = returns.then(|| ReturnedLocks::of(st));
        let stores = returns.then(|| self.param_stores(st));
        let ret_path = returns.then(|| ret.and_then(|r| self.returned_path(st, r)));
        let ret_field = returns.then(|| ret.and_then(returned_field));
        let ret_holds = returns.then(|| ret.map(|r| self.returned_holds(st, r)).unwrap_or_default());
        let answer = returns.then(|| ret.and_then(|r| self.constant_answer(st, r)).map(|b| LocksByAnswer::default().with(b, st.locks)));
        match &mut self.exit {
            None => {
                let attrs = fields_kept.then(|| st.attrs.clone());
                self.exit = Some(Exit {
                    attrs,
                    threads: st.threads,
                    foreign_lock_threads: st.foreign_lock_threads,
                    locks: st.locks,
                    returned,
                    ret_own: ro,
                    ret_attr: ra,
                    param_escapes: escapes,
                    param_stores: stores,
                    ret_path,
                    ret_field,
                    ret_holds,
                    answers: answer,
                })
            }
            Some(e) => {
                // Kept where every normal return agrees.
                e.ret_path = agreed(e.ret_path.take(), ret_path);
                e.ret_field = agreed(e.ret_field.take(), ret_field);
                e.param_stores = kept_by_both(e.param_stores.take(), stores);
                e.ret_holds = kept_by_both(e.ret_holds.take(), ret_holds);
                e.answers = match (e.answers, answer) {
                    (Some(Some(a)), Some(Some(b))) => Some(Some(a.merge(b))),
                    (Some(None), _) | (_, Some(None)) => Some(None),
                    (a, b) => a.or(b),
                };
                e.returned = match (e.returned, returned) {
                    (Some(a), Some(b)) => Some(a.join(b, must_hold)),
                    (a, b) => a.or(b),
                };
                if fields_kept {
                    e.attrs = Some(match &e.attrs {
                        Some(a) => a.merge(&st.attrs, |x, y| (x == y).then_some(x), false),
                        // Only thrown exits so far.
                        None => st.attrs.clone(),
                    });
                }
                (e.threads, e.foreign_lock_threads) =
                    join_threads((e.threads, e.foreign_lock_threads), (st.threads, st.foreign_lock_threads));
                e.locks = if self.env.extensions.lock_precision { e.locks.min(st.locks) } else { e.locks.max(st.locks) };
                e.ret_own = match (e.ret_own, ro) {
                    (Some(a), Some(b)) => Some(a.join(b)),
                    (a, b) => a.or(b),
                };
                e.ret_attr = agreed(e.ret_attr, ra);
                for (i, bound) in escapes {
                    match e.param_escapes.binary_search_by_key(&i, |(j, _)| *j) {
                        Ok(k) => e.param_escapes[k].1 = e.param_escapes[k].1.join(bound),
                        Err(k) => e.param_escapes.insert(k, (i, bound)),
                    }
                }
            }
        }
    }

    /// The formals whose object escaped on the way to this exit (sorted by formal).
    fn param_escapes(&self, st: &State) -> Vec<(u16, Own)> {
        if st.escaped.is_empty() {
            return Vec::new();
        }
        let is_static = self.input.method.header.is_static();
        (0..self.input.method.formal_slots.len())
            .filter_map(|i| {
                let base = if i == 0 && !is_static { Base::This } else { Base::Param(i as u16) };
                st.escaped.get(&Path::of(base)).map(|b| (i as u16, b))
            })
            .collect()
    }

    fn summary(mut self) -> Summary {
        self.settle_joined_marks();
        self.shorten_back_references();
        let synchronized = self.input.method.header.flags & ACC_SYNCHRONIZED != 0;
        let exit = match self.exit {
            Some(e) => e,
            // The exit is unreachable (e.g. an endless loop): nothing flows out.
            None => return Summary { threads: self.input.facts.initial_threads, ..Summary::empty() },
        };
        // Unordered: consumers that need an order sort (reporting, summary files).
        let keys = self.env.keys;
        let accesses: Vec<Access> = self.accesses.into_accesses(keys);
        let mut synchronized_fields: Vec<Path> = exit
            .attrs
            .iter()
            .flat_map(|m| m.iter())
            .filter(|(p, a)| *a == Attr::Synchronized && p.base.is_reportable() && !p.steps.is_empty())
            .map(|(p, _)| p)
            .collect();
        synchronized_fields.sort();
        let ext = self.env.extensions;
        // Exits by an exception do not say what a caller holds when it resumes after the call
        // (with handlers analysed, a handler's path out of a `try { lock() }` holds nothing).
        let (mut locks, mut releases) = match exit.returned {
            Some(r) if ext.exception_handlers => (r.locks, r.released),
            Some(r) => (exit.locks, r.released),
            None => (exit.locks, 0),
        };
        let (read_locks, read_releases) = exit.returned.map_or((0, 0), |r| (r.read_locks, r.read_released));
        // What some return paths hold beyond what all do (the same count above a synchronized
        // method's own monitor).
        let may_locks = match exit.returned {
            Some(r) if ext.callee_releases => r.may_locks.saturating_sub(r.locks),
            _ => 0,
        };
        if synchronized {
            // The count started with the method's own monitor: a path that released below it
            // released a caller's lock.
            if ext.callee_releases && exit.returned.map_or(false, |r| r.may_locks == 0) {
                releases = (releases + 1).min(LOCK_TOP);
            }
            locks = locks.saturating_sub(1);
        }
        let return_ownership = exit.ret_own.unwrap_or(Own::Unowned);
        // A handed value names an instruction of this method only; the future of a task it
        // handed over tells its callers where their continuations run.
        let returned = exit.ret_attr.flatten();
        let task_future = returned
            .filter(|_| ext.thread_handoffs)
            .and_then(|a| handoffs::returned_task_future(a, self.input.mref.descriptor.as_str()));
        let return_attribute = task_future.or(returned.filter(|a| !a.is_local()));
        // A boolean that is true where the method holds a lock it does not hold where it is
        // false says whether the lock was taken, as `tryLock()`'s answer does.
        let answers_lock = ext.lock_precision && exit.answers.flatten().is_some_and(LocksByAnswer::tells_lock_held);
        let return_attribute = return_attribute.or(answers_lock.then_some(Attr::LockHeld));
        // A scheduler the method keeps, for the chains of downstream code given it.
        let return_attribute = return_attribute.or_else(|| self.env.facts.schedulers.returned(&self.input.mref).map(Attr::Scheduler));
        // A result the summary says more of (fresh, functional, a synchronized container)
        // keeps what it says: no path stands for it.
        let says_more = return_ownership == OWNED || return_attribute.is_some();
        let returned_path = exit.ret_path.flatten().filter(|_| !says_more);
        let mut own_monitor_statics = self.own_monitor_statics;
        own_monitor_statics.sort();
        own_monitor_statics.dedup();
        let mut param_handoffs = self.param_handoffs;
        param_handoffs.sort();
        param_handoffs.dedup();
        let mut param_runs = self.param_runs;
        param_runs.sort();
        param_runs.dedup();
        // A lock on another object guards what it is taken for: a field of the method's own
        // object accessed under a lock says that object is shared too, unless it is the link of
        // a pool's free list, which the pool's lock guards.
        let pool_link = |p: &Path| match (p.base, &p.steps[..]) {
            (Base::This, [Step::Field { class, name }]) => self.env.facts.statics.pool_links.contains(&(*class, *name)),
            _ => false,
        };
        let (class, given) = (self.input.mref.class, &self.env.facts.given_fields);
        let own_field = |p: &Path| super::given_fields::is_own_field_path(p, class, given) && !pool_link(p);
        let locks_own_field = accesses.iter().any(|a| a.key.lock && own_field(a.key.kind.path()));
        let own_fields_unshared = exit.threads == Threads::AnyThread
            && exit.foreign_lock_threads
            && !self.publishes_own_object
            && !self.env.facts.statics.self_holding.contains(&self.input.mref.class)
            && !locks_own_field
            && !locks::is_thread_body(self.env.table, &self.input.mref);
        Summary {
            threads: exit.threads,
            own_fields_unshared,
            locks,
            releases,
            read_locks,
            read_releases,
            may_locks,
            accesses,
            return_ownership,
            return_attribute,
            synchronized_fields: synchronized_fields.into(),
            param_escapes: exit.param_escapes.into(),
            param_stores: exit.param_stores.unwrap_or_default().into(),
            return_path: returned_path.as_ref().map(|(p, _)| p.clone()),
            return_snapshot: returned_path.is_some_and(|(_, snapshot)| snapshot),
            return_holds: if return_ownership == OWNED { exit.ret_holds.unwrap_or_default().into() } else { ThinVec::new() },
            own_monitor_statics: own_monitor_statics.into(),
            returned_field: exit.ret_field.flatten(),
            param_handoffs: param_handoffs.into(),
            param_runs: param_runs.into(),
        }
    }
}

/// The entries every normal return so far has (None: no normal return yet), with one more
/// return's.
fn kept_by_both<T: PartialEq>(so_far: Option<Vec<T>>, this_exit: Option<Vec<T>>) -> Option<Vec<T>> {
    match (so_far, this_exit) {
        (Some(a), Some(b)) => Some(a.into_iter().filter(|s| b.contains(s)).collect()),
        (a, b) => a.or(b),
    }
}

/// What the exits said so far (None: no exit yet) joined with what one more says: the value
/// where they all agree, `Some(None)` where two differ.
fn agreed<T: PartialEq>(so_far: Option<Option<T>>, this_exit: Option<Option<T>>) -> Option<Option<T>> {
    match (so_far, this_exit) {
        (Some(a), Some(b)) => Some(if a == b { a } else { None }),
        (a, b) => a.or(b),
    }
}

/// A returned value that is a field of `this` as read, also when read inside a block that
/// released its lock before the return (for locked-getter evidence).
fn returned_field(ret: &Expr) -> Option<Path> {
    let read = match ret {
        Expr::Path(p) => p,
        Expr::Compound(c) => c.snapshot.as_ref()?,
        Expr::Const(_) | Expr::Class(_) => return None,
    };
    (read.base == Base::This && read.steps.len() == 1).then(|| read.clone())
}
