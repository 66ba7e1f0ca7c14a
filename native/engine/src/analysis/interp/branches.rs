//! Branch conditions (5.3): a tested `tryLock` result or main-thread query
//! refines the state on each edge.

use crate::classfile::model::*;

use super::super::domain::*;
use super::locks::{assume_lock, assume_main, assume_read_lock};
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// Returns the states on the taken edge and on the fall-through edge.
    pub(super) fn branch(&mut self, st: &mut State, kind: IfKind) -> (State, State) {
        if let Some(taken_on_main) = self.handle_comparison(st, kind) {
            let mut taken = st.clone();
            assume_main(&mut taken, taken_on_main);
            assume_main(st, !taken_on_main);
            let fall = take_state(st);
            return (taken, fall);
        }
        // (value expression, jump-taken means the value is `taken_bool`, the value was
        // compared with zero)
        let (subject, taken_bool, with_zero): (Option<Expr>, Option<bool>, bool) = match kind {
            IfKind::Zero(cmp) | IfKind::Null(cmp) => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                let b = match cmp {
                    Cmp::Eq => Some(false),
                    Cmp::Ne => Some(true),
                    Cmp::Other => None,
                };
                (Some(v), b, true)
            }
            IfKind::Two(cmp) => {
                let rhs = pop(st, false);
                let lhs = pop(st, false);
                self.read_expr(st, &lhs);
                self.read_expr(st, &rhs);
                let (v, c) = match (&lhs, &rhs) {
                    (e, Expr::Const(ConstVal::Int(c))) | (Expr::Const(ConstVal::Int(c)), e) => (Some(e.clone()), Some(*c)),
                    (e, Expr::Const(ConstVal::Null)) | (Expr::Const(ConstVal::Null), e) => (Some(e.clone()), Some(0)),
                    _ => (None, None),
                };
                let b = match (cmp, c) {
                    (Cmp::Eq, Some(c)) => Some(c != 0),
                    (Cmp::Ne, Some(c)) => Some(c == 0),
                    _ => None,
                };
                (v, b, c == Some(0))
            }
        };
        let mut taken = st.clone();
        let mut fall = take_state(st);
        // The subject's attribute: a path's, or a snapshot's (a static a query returned).
        if let (Some(subject), Some(b)) = (subject, taken_bool) {
            match attr_e(&fall, &subject) {
                Some(Attr::LockHeld) => {
                    let precise = self.env.extensions.lock_precision;
                    assume_lock(&mut taken, b, precise);
                    assume_lock(&mut fall, !b, precise);
                }
                Some(Attr::ReadLockHeld) => {
                    assume_read_lock(&mut taken, b);
                    assume_read_lock(&mut fall, !b);
                }
                // A work counter found at zero lets this caller alone into the drain loop. Not
                // evidence of concurrency: the libraries built on it order their calls by
                // protocol (reactive streams signal a subscriber serially), which the
                // rules would take for races (docs/analysis.md, "Locks").
                Some(Attr::WorkGuard) if with_zero => {
                    assume_lock(&mut taken, !b, true);
                    assume_lock(&mut fall, b, true);
                }
                Some(Attr::OnMainThread) => {
                    assume_main(&mut taken, b);
                    assume_main(&mut fall, !b);
                }
                Some(Attr::OffMainThread) => {
                    assume_main(&mut taken, !b);
                    assume_main(&mut fall, b);
                }
                // try-with-resources tests the executor for null before closing it: where it
                // is null, it runs no task (its factory never returns null).
                Some(Attr::ExecutorMadeAt(made)) if matches!(kind, IfKind::Null(_)) => {
                    let null = if b { &mut fall } else { &mut taken };
                    null.running.end_held_by(made);
                }
                _ => {}
            }
        }
        (taken, fall)
    }

    /// Constant-branches extension: whether a test of a local known to hold a constant
    /// jumps (`Some(true)`), falls through (`Some(false)`), or may do either (`None`). So a
    /// flag set from a literal decides the branch on it: after `ok = true` in a `try`, the
    /// `finally`'s `if (!ok) cleanup()` is not run on the normal path.
    pub(super) fn constant_branch(&self, st: &State, kind: IfKind) -> Option<bool> {
        let IfKind::Zero(cmp) = kind else { return None };
        if !self.env.extensions.constant_branches || st.consts.is_empty() {
            return None;
        }
        let Some(Slot::Val(tested)) = st.stack.last() else { return None };
        let value = self.local_constant(st, tested)?;
        match cmp {
            Cmp::Eq => Some(value == 0),
            Cmp::Ne => Some(value != 0),
            Cmp::Other => None,
        }
    }

    /// Of a method returning a boolean, the value it returns when that is a constant (a
    /// literal, or a local holding one).
    pub(super) fn constant_answer(&self, st: &State, ret: &Expr) -> Option<bool> {
        if !crate::classfile::descriptor::returns_boolean(self.input.mref.descriptor.as_str()) {
            return None;
        }
        match ret {
            Expr::Const(ConstVal::Int(c)) => Some(*c != 0),
            _ => self.local_constant(st, ret).map(|c| c != 0),
        }
    }

    /// The constant a local holds, when the value is a local known to hold one.
    fn local_constant(&self, st: &State, value: &Expr) -> Option<i32> {
        let Expr::Path(p) = value else { return None };
        st.consts.entries().iter().find(|(slot, _)| self.local_path(*slot) == *p).map(|&(_, c)| c)
    }

    /// Android models: `if (current == main)` on looper or thread handles pops both
    /// operands and tells whether the taken edge is on the main thread.
    fn handle_comparison(&mut self, st: &mut State, kind: IfKind) -> Option<bool> {
        let taken_on_main = compares_handles(st, kind)?;
        for _ in 0..2 {
            let v = pop(st, false);
            self.read_expr(st, &v);
        }
        Some(taken_on_main)
    }

    /// `boolean onMain = Looper.myLooper() == Looper.getMainLooper()`, or `return` of it: javac
    /// makes the comparison's value with a branch to `iconst_1` or `iconst_0`, which meet after
    /// them. That value is a main-thread check, as a query's result is, so a helper returning
    /// it is one too. When the `If` at `at` starts that shape, pushes the check and returns
    /// where the constants meet.
    pub(super) fn materialized_main_check(&mut self, st: &mut State, kind: IfKind, at: usize, target: usize) -> Option<usize> {
        let insns = &self.body.insns;
        let constant = |i: usize| match insns.get(i) {
            Some(Insn::Const { value: ConstVal::Int(c @ (0 | 1)), .. }) => Some(*c),
            _ => None,
        };
        let (on_fall, on_taken) = (constant(at + 1)?, constant(at + 3)?);
        let meets = matches!(insns.get(at + 2), Some(Insn::Goto { target: j }) if *j as usize == at + 4);
        if !meets || target != at + 3 || on_fall == on_taken {
            return None;
        }
        // The value is 1 on the main thread when the taken edge is on it and gives 1, or
        // neither is.
        let taken_on_main = self.handle_comparison(st, kind)?;
        let check = if (on_taken == 1) == taken_on_main { Attr::OnMainThread } else { Attr::OffMainThread };
        let t = self.temp();
        st.own.set(&t, Some(OWNED));
        st.attrs.set(&t, Some(check));
        push(st, Expr::Path(t), false);
        Some(at + 4)
    }
}

/// Whether the two values an `If` compares are the main and the current looper (or thread)
/// handles, and if so whether the taken edge is the one on the main thread.
fn compares_handles(st: &State, kind: IfKind) -> Option<bool> {
    let IfKind::Two(cmp) = kind else { return None };
    let n = st.stack.len();
    if n < 2 {
        return None;
    }
    let attr = |slot: &Slot| match slot {
        Slot::Val(e) => attr_e(st, e),
        _ => None,
    };
    if !main_and_current(attr(&st.stack[n - 2]), attr(&st.stack[n - 1])) {
        return None;
    }
    match cmp {
        Cmp::Eq => Some(true),
        Cmp::Ne => Some(false),
        Cmp::Other => None,
    }
}

/// Whether two values are the main and the current looper (or thread) handles, in either order.
pub(super) fn main_and_current(a: Option<Attr>, b: Option<Attr>) -> bool {
    let handle = |x: Option<Attr>| x.filter(|a| matches!(a, Attr::MainThreadHandle | Attr::CurrentThreadHandle));
    matches!((handle(a), handle(b)), (Some(x), Some(y)) if x != y)
}

/// Moves the state out (for the fall-through edge), leaving an empty one behind.
fn take_state(st: &mut State) -> State {
    let empty = State {
        threads: Threads::NoThread,
        foreign_lock_threads: false,
        locks: 0,
        lock_on: None,
        object_locks: 0,
        read_locks: 0,
        read_released: 0,
        may_locks: 0,
        released: 0,
        fresh_locks: 0,
        own: PathMap::default(),
        attrs: PathMap::default(),
        stack: Vec::new(),
        escaped: PathMap::default(),
        aliases: Default::default(),
        allocated: Default::default(),
        holders: Default::default(),
        held: Default::default(),
        running: Default::default(),
        consts: Default::default(),
    };
    std::mem::replace(st, empty)
}
