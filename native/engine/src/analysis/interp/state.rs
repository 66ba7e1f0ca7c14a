//! The abstract state of one program point (3.1) and its join (3.8): the lock
//! count, threads, ownership and attribute maps, and the symbolic operand stack.

use std::rc::Rc;

use crate::classfile::descriptor::param_widths;
use crate::classfile::model::ConstVal;
use crate::sym::Sym;

use super::super::domain::*;
use super::aliases::Aliases;
use super::held_fields::HeldFields;
use super::ownership::Holders;
use super::joins::Running;
use super::ownership::own_e;

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Compound {
    pub(super) paths: Vec<Path>,
    pub(super) attr: Option<Attr>,
    pub(super) own: Own,
    /// The value is one of `paths`, from branches that met (`c ? this.a : this.b`): a field
    /// accessed through it is accessed through each (extension `local_aliases`). Otherwise
    /// the value is only computed from them.
    pub(super) either: bool,
    /// The value is the object this path held when it was read, before a lock was taken or
    /// released (`synchronized (this) { n = mNode; } n.value = 1`): no longer the path, so
    /// using it reads nothing again, but with `local_aliases` what is reached through it is
    /// reached through the path (see [`super::Interp::flush_pending_reads`] and the local
    /// aliases).
    pub(super) snapshot: Option<Path>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Expr {
    Path(Path),
    Const(ConstVal),
    /// A class literal (`C.class`): a constant, and the object whose monitor `synchronized
    /// (C.class)` takes (lock identities).
    Class(Sym),
    Compound(Rc<Compound>),
}

impl Expr {
    pub(super) fn paths(&self) -> &[Path] {
        match self {
            Expr::Path(p) => std::slice::from_ref(p),
            Expr::Const(_) | Expr::Class(_) => &[],
            Expr::Compound(c) => &c.paths,
        }
    }
    pub(super) fn opaque(paths: Vec<Path>, attr: Option<Attr>, own: Own) -> Expr {
        Expr::Compound(Rc::new(Compound { paths, attr, own, either: false, snapshot: None }))
    }

    /// The value of `path` as read before the lock or thread state changed.
    pub(super) fn snapshot(path: Path, attr: Option<Attr>, own: Own) -> Expr {
        Expr::Compound(Rc::new(Compound { paths: Vec::new(), attr, own, either: false, snapshot: Some(path) }))
    }

    /// A value that is one of `paths` (see [`Compound::either`]).
    pub(super) fn either(paths: Vec<Path>, attr: Option<Attr>, own: Own) -> Expr {
        Expr::Compound(Rc::new(Compound { paths, attr, own, either: true, snapshot: None }))
    }

    /// Whether the value is `this` itself (not a path below it).
    pub(super) fn is_this(&self) -> bool {
        matches!(self, Expr::Path(p) if p.base == Base::This && p.steps.is_empty())
    }

    /// Whether the value is one of its paths: a path, `null` (none), or a value from branches
    /// that met on paths. Not a value computed from them.
    pub(super) fn is_one_of_its_paths(&self) -> bool {
        match self {
            Expr::Path(_) | Expr::Const(ConstVal::Null) => true,
            Expr::Compound(c) => c.either,
            _ => false,
        }
    }

    /// The path whose earlier value this is (see [`Compound::snapshot`]).
    pub(super) fn snapshot_of(&self) -> Option<&Path> {
        match self {
            Expr::Compound(c) => c.snapshot.as_ref(),
            _ => None,
        }
    }

    /// The location the value was read from: its path, or the path of a snapshot. What is
    /// known of a location (what a field is always given) holds for the value either way.
    pub(super) fn location(&self) -> Option<&Path> {
        match self {
            Expr::Path(p) => Some(p),
            _ => self.snapshot_of(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Slot {
    Val(Expr),
    /// Second half of a long/double.
    Top,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct State {
    pub(super) threads: Threads,
    /// `threads` is `AnyThread` only because of locks taken on other objects than the
    /// method's own (foreign-locks extension; see [`super::locks::acquire_foreign`]).
    pub(super) foreign_lock_threads: bool,
    pub(super) locks: u8,
    /// The one lock held, when it is known which (lock-identities extension): no other is
    /// held on any path, in any mode. `None` when no lock or an unknown one is held.
    pub(super) lock_on: Option<LockPath>,
    /// Of the locks held, the monitors of `this` (a synchronized instance method,
    /// `synchronized (this)`): they exclude only threads working on the same object, so they
    /// do not protect static state (object-monitors extension; else 0).
    pub(super) object_locks: u8,
    /// Read-mode locks held (lock-precision extension; always 0 in compat mode).
    pub(super) read_locks: u8,
    /// Read-mode locks of the caller released so far (with `callee_releases`; else 0).
    pub(super) read_released: u8,
    /// Locks held on some path (the join is max whatever `locks` uses): a release when
    /// none is held on any path releases a lock of the caller.
    pub(super) may_locks: u8,
    /// Locks of the caller released so far (callee-releases extension; else 0).
    pub(super) released: u8,
    /// Monitors and `Lock`s held on objects made here that no other thread can reach: they
    /// exclude nothing, so they are counted apart from `locks` (lock-precision extension).
    pub(super) fresh_locks: u8,
    pub(super) own: PathMap<Own>,
    pub(super) attrs: PathMap<Attr>,
    pub(super) stack: Vec<Slot>,
    /// Escape-ownership extension: paths whose object escaped, with the ownership it
    /// escaped to (joined into the lookup of the path and everything below it).
    pub(super) escaped: PathMap<Own>,
    /// Local-aliases extension: what a local slot stands for (sorted by slot).
    pub(super) aliases: Aliases,
    /// Fresh-receiver-dispatch extension: the local slots holding an object allocated here.
    pub(super) allocated: SlotMap<u32>,
    /// Escape-ownership extension: the objects fresh objects of the method hold.
    pub(super) holders: Holders,
    /// Local-aliases extension: the shared objects fields of fresh objects hold.
    pub(super) held: HeldFields,
    /// Thread-joins extension: the threads made here that may be running (see `joins.rs`).
    pub(super) running: Running,
    /// Constant-branches extension: the local slots known to hold an `int` constant (a flag
    /// set from a literal), whose tests decide their branch.
    pub(super) consts: SlotMap<i32>,
}

/// Values kept per local slot, sorted by slot (aliases, allocations). A join keeps what both
/// sides agree on; elsewhere the slot has no value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SlotMap<T> {
    slots: Vec<(u16, T)>,
}

impl<T> Default for SlotMap<T> {
    fn default() -> SlotMap<T> {
        SlotMap { slots: Vec::new() }
    }
}

impl<T: Clone + PartialEq> SlotMap<T> {
    pub(super) fn get(&self, slot: u16) -> Option<&T> {
        self.slots.binary_search_by_key(&slot, |(s, _)| *s).ok().map(|i| &self.slots[i].1)
    }

    pub(super) fn set(&mut self, slot: u16, value: Option<T>) {
        match (self.slots.binary_search_by_key(&slot, |(s, _)| *s), value) {
            (Ok(i), Some(v)) => self.slots[i].1 = v,
            (Ok(i), None) => {
                self.slots.remove(i);
            }
            (Err(i), Some(v)) => self.slots.insert(i, (slot, v)),
            (Err(_), None) => {}
        }
    }

    pub(super) fn join(&self, other: &SlotMap<T>) -> SlotMap<T> {
        if self == other {
            return self.clone();
        }
        SlotMap { slots: self.slots.iter().filter(|entry| other.slots.contains(entry)).cloned().collect() }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub(super) fn entries(&self) -> &[(u16, T)] {
        &self.slots
    }

    /// Replaces each value by what `f` makes of it (`None`: the slot has no value).
    pub(super) fn update(&mut self, f: impl Fn(&T) -> Option<T>) {
        self.slots = self.slots.iter().filter_map(|(s, v)| f(v).map(|v| (*s, v))).collect();
    }

    pub(super) fn retain(&mut self, keep: impl Fn(&T) -> bool) {
        self.slots.retain(|(_, v)| keep(v));
    }
}

pub(super) fn push(st: &mut State, e: Expr, wide: bool) {
    st.stack.push(Slot::Val(e));
    if wide {
        st.stack.push(Slot::Top);
    }
}

pub(super) fn pop(st: &mut State, wide: bool) -> Expr {
    if wide {
        st.stack.pop();
    }
    match st.stack.pop() {
        Some(Slot::Val(e)) => e,
        _ => Expr::Const(ConstVal::Other),
    }
}

/// Pops a call's arguments (and receiver), returned in formal order.
pub(super) fn pop_args(st: &mut State, descriptor: &str, has_receiver: bool) -> Vec<Expr> {
    pop_widths(st, &param_widths(descriptor), has_receiver)
}

pub(super) fn pop_widths(st: &mut State, widths: &[bool], has_receiver: bool) -> Vec<Expr> {
    let mut args: Vec<Expr> = Vec::with_capacity(widths.len() + 1);
    args.extend(widths.iter().rev().map(|w| pop(st, *w)));
    if has_receiver {
        args.push(pop(st, false));
    }
    args.reverse();
    args
}

/// `dup`-family: duplicate the top `n` slots, inserting them `depth` slots further down.
pub(super) fn dup_slots(st: &mut State, n: usize, depth: usize) {
    let len = st.stack.len();
    if len < n + depth {
        return;
    }
    let top: Vec<Slot> = st.stack[len - n..].to_vec();
    let at = len - n - depth;
    for (k, s) in top.into_iter().enumerate() {
        st.stack.insert(at + k, s);
    }
}

pub(super) fn attr_e(st: &State, e: &Expr) -> Option<Attr> {
    match e {
        Expr::Path(p) => st.attrs.get(p),
        Expr::Const(_) | Expr::Class(_) => Some(Attr::Functional),
        Expr::Compound(c) => c.attr,
    }
}

/// Drops map entries for temporaries no longer on the stack.
pub(super) fn gc_temps(st: &mut State) {
    let mut live: Vec<u32> = Vec::new();
    for slot in &st.stack {
        if let Slot::Val(e) = slot {
            for p in e.paths() {
                if let Base::Temp(t) = p.base {
                    live.push(t);
                }
            }
        }
    }
    let is_live = |t: u32| live.contains(&t);
    st.own.retain_temps(is_live);
    st.attrs.retain_temps(is_live);
    st.escaped.retain_temps(is_live);
    st.holders.retain_bases(|b: &Base| !matches!(b, Base::Temp(t) if !live.contains(t)));
    st.held.retain_holders(|b: &Base| !matches!(b, Base::Temp(t) if !live.contains(t)));
}

/// 3.8: join of two states at a control-flow merge.
/// `must_hold`: locks join to the minimum (lock precision). `alternatives`: values on the
/// stack that are paths on each side become the value that is one of them (local aliases).
pub(super) fn join_states(a: &State, b: &State, must_hold: bool, alternatives: bool) -> State {
    let stack = if a.stack.len() == b.stack.len() {
        a.stack
            .iter()
            .zip(&b.stack)
            .map(|(x, y)| match (x, y) {
                (Slot::Val(ex), Slot::Val(ey)) if ex == ey => Slot::Val(ex.clone()),
                (Slot::Val(ex), Slot::Val(ey)) => {
                    let mut paths = ex.paths().to_vec();
                    for p in ey.paths() {
                        if !paths.contains(p) {
                            paths.push(p.clone());
                        }
                    }
                    let (ax, ay) = (attr_e(a, ex), attr_e(b, ey));
                    let o = own_e(a, ex).join(own_e(b, ey));
                    let attr = if ax == ay { ax } else { None };
                    if alternatives && ex.is_one_of_its_paths() && ey.is_one_of_its_paths() {
                        Slot::Val(Expr::either(paths, attr, o))
                    } else {
                        Slot::Val(Expr::opaque(paths, attr, o))
                    }
                }
                _ => Slot::Top,
            })
            .collect()
    } else {
        let n = a.stack.len().min(b.stack.len());
        a.stack[..n].to_vec()
    };
    let (threads, foreign_lock_threads) = super::locks::join_threads((a.threads, a.foreign_lock_threads), (b.threads, b.foreign_lock_threads));
    State {
        threads,
        foreign_lock_threads,
        // May-hold (the reference) or, with the extension, must-hold: a lock taken on
        // only one branch does not protect what follows the join.
        locks: if must_hold { a.locks.min(b.locks) } else { a.locks.max(b.locks) },
        lock_on: if a.lock_on == b.lock_on { a.lock_on } else { None },
        read_locks: if must_hold { a.read_locks.min(b.read_locks) } else { a.read_locks.max(b.read_locks) },
        read_released: a.read_released.max(b.read_released),
        object_locks: a.object_locks.min(b.object_locks),
        may_locks: a.may_locks.max(b.may_locks),
        released: a.released.max(b.released),
        fresh_locks: a.fresh_locks.max(b.fresh_locks),
        own: a.own.merge(&b.own, |x, y| Some(x.join(y)), true),
        attrs: a.attrs.merge(&b.attrs, |x, y| (x == y).then_some(x), false),
        stack,
        // Escaped on either branch: escaped after the join.
        escaped: a.escaped.merge(&b.escaped, |x, y| Some(x.join(y)), true),
        aliases: super::aliases::join_aliases(a, b),
        allocated: a.allocated.join(&b.allocated),
        holders: a.holders.join(&b.holders),
        held: a.held.join(&b.held),
        running: a.running.join(&b.running),
        consts: a.consts.join(&b.consts),
    }
}
