//! Lock and thread effects (5.8, 6.1-6.2) on the state.

use crate::classfile::model::{Insn, ACC_PRIVATE, ACC_SYNTHETIC};

use super::super::domain::*;
use super::super::models::{self, LockEffect};
use super::ownership::own_e;
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// Object-monitors extension: whether a monitor of `this` is one object's own lock, which
    /// threads working on other objects of the class do not take. A class whose constructors
    /// are all private makes every object of it itself (a singleton, an enum, a Kotlin
    /// `object` or companion, whose compiler-made public constructor is synthetic): its
    /// monitor is taken as the one lock all its users share.
    pub(super) fn own_monitor_is_per_object(&self) -> bool {
        self.env.extensions.object_monitors
            && !self.input.method.header.is_static()
            && self
                .input
                .class
                .methods
                .iter()
                .any(|m| m.name.as_str() == "<init>" && m.flags & (ACC_PRIVATE | ACC_SYNTHETIC) == 0)
    }

    /// Lock precision: whether the method validates an optimistic read's stamp anywhere. One
    /// that never does uses what it read unchecked: its `tryOptimisticRead()` protects nothing.
    pub(super) fn validates_stamps(&self) -> bool {
        let table = self.env.table;
        self.body.insns.iter().any(|i| matches!(i, Insn::Invoke { method, .. } if models::is_stamp_validation(table, method)))
    }

    /// Keeps, for the report's message, a static path left unprotected although locks are
    /// held: they are all monitors of `this`.
    pub(super) fn note_own_monitor_static(&mut self, st: &State, path: &Path, lock: bool) {
        if !lock && st.locks > 0 && matches!(path.base, Base::Static(_)) && self.recording {
            self.own_monitor_statics.push(path.clone());
        }
    }

    /// Lock precision: a monitor entered, or a `Lock` taken or released, on an object made here
    /// that no other thread can reach (`synchronized (new Object())`, a local `new
    /// ReentrantLock()`) excludes nothing: it is counted apart (`fresh_locks`) and protects no
    /// access, though taking it still says the code expects other threads. Whether `effect` on
    /// `lock` was such a one, applied here.
    pub(super) fn fresh_lock_effect(&self, st: &mut State, effect: LockEffect, lock: &Expr) -> bool {
        // An object the method allocated, still its own (a class literal or a constant is no
        // such object).
        if !self.env.extensions.lock_precision || self.allocated_at(st, lock).is_none() || !own_e(st, lock).is_owned() {
            return false;
        }
        match effect {
            LockEffect::Acquire | LockEffect::AcquireRead => {
                st.fresh_locks = st.fresh_locks.saturating_add(1);
                apply_lock_thread(st);
                true
            }
            LockEffect::Release | LockEffect::ReleaseRead | LockEffect::ReleaseAny if st.fresh_locks > 0 => {
                st.fresh_locks -= 1;
                true
            }
            _ => false,
        }
    }

    /// 2.3: before an unlock, values still on the stack are recorded as read
    /// (under the lock) and become plain values, so they are not read again later.
    pub(super) fn flush_pending_reads(&mut self, st: &mut State) {
        for k in 0..st.stack.len() {
            let e = match &st.stack[k] {
                Slot::Val(e) if !e.paths().is_empty() => e.clone(),
                _ => continue,
            };
            self.read_expr(st, &e);
            let (attr, own) = (attr_e(st, &e), own_e(st, &e));
            let flushed = match e {
                Expr::Path(p) => Expr::snapshot(p, attr, own),
                _ => Expr::opaque(Vec::new(), attr, own),
            };
            st.stack[k] = Slot::Val(flushed);
        }
    }
}

pub(super) fn apply_lock_thread(st: &mut State) {
    if st.threads != Threads::AnyThreadButSelf {
        st.threads = Threads::AnyThread;
        st.foreign_lock_threads = false;
    }
}

/// A lock taken on another object than the method's own (foreign-locks extension): a static
/// one, or the outer object of an inner class. It says that object is shared; the method
/// runs on any thread, but, unless some other evidence says so too or the method's own fields
/// are accessed under a lock, not with its own object shared (`Summary::own_fields_unshared`).
fn acquire_foreign(st: &mut State) {
    if st.threads == Threads::NoThread {
        st.threads = Threads::AnyThread;
        st.foreign_lock_threads = true;
    }
}

/// Whether a lock is on another object than the method's own (see [`acquire_foreign`]).
fn is_foreign_lock(lock: LockPath) -> bool {
    let path = lock.path();
    match path.base {
        Base::Static(_) => true,
        Base::This => path.steps.first().is_some_and(Step::is_outer_instance),
        _ => false,
    }
}

/// Whether `m` is the body of a thread or a task: `run()` of a `Runnable` (a `Thread` is one),
/// `call()` of a `Callable`. The thread that runs it works on its object, whatever other
/// object the locks it takes are on: its own fields stay shared (foreign-locks extension).
pub(super) fn is_thread_body(table: &crate::hierarchy::ClassTable, m: &crate::classfile::model::MethodRef) -> bool {
    match (m.name.as_str(), m.descriptor.as_str()) {
        ("run", "()V") => table.is_subtype_of_any(m.class, &["java.lang.Runnable"]),
        ("call", d) if d.starts_with("()") => table.is_subtype_of_any(m.class, &["java.util.concurrent.Callable"]),
        _ => false,
    }
}

/// Joins two `threads` values, each with whether it is `AnyThread` only by foreign locks: the
/// join is so only if every side that runs on any thread is.
pub(super) fn join_threads((a, a_foreign): (Threads, bool), (b, b_foreign): (Threads, bool)) -> (Threads, bool) {
    let threads = a.join(b);
    let foreign = |t: Threads, f: bool| t != Threads::AnyThread || f;
    (threads, threads == Threads::AnyThread && foreign(a, a_foreign) && foreign(b, b_foreign))
}

impl<'a, 'e> Interp<'a, 'e> {
    /// With `foreign_locks`, whether the lock on `value` (of identity `lock`, when known) is
    /// on another object than the method's own (see [`acquire_foreign`]): a static one, the
    /// outer object, or (`given_field_locks`) the object a field its constructor set from a
    /// parameter holds, or one reached through it. None without the extension.
    pub(super) fn foreign_lock(&self, value: Option<&Expr>, lock: Option<LockPath>) -> Option<bool> {
        let ext = self.env.extensions;
        if !ext.foreign_locks {
            return None;
        }
        let class = self.input.mref.class;
        let given = |p: &Path| super::super::given_fields::is_through_given_field(p, class, &self.env.facts.given_fields);
        let through_given = matches!(value, Some(Expr::Path(p)) if given(p));
        Some(lock.is_some_and(is_foreign_lock) || through_given)
    }
}

/// `track_releases`: count the releases of locks the method did not take (callee-releases
/// extension), for its summary. `lock` is the lock's identity, when known (see
/// [`lock_identity`]). `foreign`: with `foreign_locks`, whether the lock is on another object,
/// which a lock is evidence of other threads for (see [`acquire_foreign`]); None without it.
pub(super) fn apply_lock_effect(st: &mut State, effect: LockEffect, track_releases: bool, lock: Option<LockPath>, foreign: Option<bool>) {
    let acquires = matches!(effect, LockEffect::Acquire | LockEffect::AcquireRead);
    match effect {
        LockEffect::Acquire => acquire_known(st, lock),
        LockEffect::Release => release(st, 1, track_releases),
        LockEffect::TryAcquire | LockEffect::TryAcquireRead => {}
        LockEffect::AcquireRead => {
            acquire_read(st, 1);
            st.lock_on = None;
        }
        LockEffect::ReleaseRead => release_read(st, 1, track_releases),
        LockEffect::ReleaseAny if st.locks > 0 => release(st, 1, track_releases),
        LockEffect::ReleaseAny => release_read(st, 1, track_releases),
    }
    if foreign.is_none() {
        apply_lock_thread(st);
    } else if acquires && foreign == Some(true) {
        acquire_foreign(st);
    } else if acquires || st.threads == Threads::NoThread {
        // A release says no more than the acquire before it, if any.
        apply_lock_thread(st);
    }
}

/// Takes `n` locks whose identities are not known.
pub(super) fn acquire(st: &mut State, n: u8) {
    if n > 0 {
        st.lock_on = None;
    }
    st.locks = st.locks.saturating_add(n).min(LOCK_TOP);
    acquire_maybe(st, n);
}

/// Counts `n` more locks as held on some paths (with `acquire`, on all of them; alone, a
/// callee's held on some return paths only, see `Summary::may_locks`).
pub(super) fn acquire_maybe(st: &mut State, n: u8) {
    st.may_locks = st.may_locks.saturating_add(n).min(LOCK_TOP);
}

/// Takes `n` read-mode locks (a callee's count comes from a summary file: saturating).
pub(super) fn acquire_read(st: &mut State, n: u8) {
    st.read_locks = st.read_locks.saturating_add(n).min(LOCK_TOP);
}

/// Takes one lock, `lock` when its identity is known: the one lock held if no other is (or
/// it is the same one again), else the lock held is no longer known.
fn acquire_known(st: &mut State, lock: Option<LockPath>) {
    let alone = st.may_locks == 0 && st.read_locks == 0;
    let on = lock.filter(|l| alone || st.lock_on == Some(*l));
    acquire(st, 1);
    st.lock_on = on;
}

/// The identity of a lock whose object is `value` (lock-identities extension): its path, when
/// it is rooted at a formal or a static field, or the class of a class literal (a local or a
/// call's result names no lock another method can take).
pub(super) fn lock_identity(value: &Expr, enabled: bool) -> Option<LockPath> {
    match value {
        Expr::Path(p) if enabled && matches!(p.base, Base::This | Base::Param(_) | Base::Static(_)) => LockPath::of(p.clone()),
        // The class's monitor, as a static synchronized method of the class takes it.
        Expr::Class(c) if enabled => LockPath::of(Path::of(Base::Static(*c))),
        _ => None,
    }
}

/// Releases `n` locks. Those beyond what any path holds were taken by a caller: with
/// `track`, they are counted in `released` (a lock held on some path only is not counted,
/// so a conditional lock released under the same condition is not a caller's lock).
pub(super) fn release(st: &mut State, n: u8, track: bool) {
    if track {
        let callers = n.saturating_sub(st.may_locks);
        st.released = st.released.saturating_add(callers).min(LOCK_TOP);
    }
    st.locks = st.locks.saturating_sub(n);
    st.may_locks = st.may_locks.saturating_sub(n);
    st.object_locks = st.object_locks.min(st.locks);
    // What remains held is the same lock (taken again), or nothing.
    if st.may_locks == 0 {
        st.lock_on = None;
    }
}

/// Releases `n` read-mode locks; with `track`, those beyond what is held were taken by a
/// caller and are counted in `read_released`.
pub(super) fn release_read(st: &mut State, n: u8, track: bool) {
    if track {
        let callers = n.saturating_sub(st.read_locks);
        st.read_released = st.read_released.saturating_add(callers).min(LOCK_TOP);
    }
    st.read_locks = st.read_locks.saturating_sub(n);
}

/// `synchronized (this)` in an instance method: one more lock, a monitor of `this`.
pub(super) fn enter_own_monitor(st: &mut State) {
    st.object_locks = (st.object_locks + 1).min(st.locks);
}

/// The end of a `synchronized (this)` block.
pub(super) fn exit_own_monitor(st: &mut State) {
    st.object_locks = st.object_locks.saturating_sub(1);
}

/// Whether an access to `path` is protected: any lock protects an object's fields; a static
/// field needs a lock other than a monitor of `this`, which threads working on other objects
/// of the class do not take.
pub(super) fn protects(st: &State, path: &Path) -> bool {
    match path.base {
        Base::Static(_) => st.locks > st.object_locks,
        _ => st.locks > 0,
    }
}

/// A tested `tryLock` result. The reference also takes a lock away on the failed
/// branch, which drops an unrelated held lock; with `precise`, failure changes nothing.
pub(super) fn assume_lock(st: &mut State, held: bool, precise: bool) {
    if held {
        acquire(st, 1);
    } else if !precise {
        st.locks = st.locks.saturating_sub(1);
        st.may_locks = st.may_locks.saturating_sub(1);
        st.lock_on = None;
    }
}

/// Where a read lock's try answered: held in read mode where it was taken.
pub(super) fn assume_read_lock(st: &mut State, held: bool) {
    if held {
        acquire_read(st, 1);
    }
}

pub(super) fn assume_main(st: &mut State, on_main: bool) {
    st.threads = if on_main { Threads::AnyThreadButSelf } else { Threads::AnyThread };
    st.foreign_lock_threads = false;
}

/// The locks a boolean method holds where it answers true and where it answers false (none:
/// it never answers so), over its normal returns that give a constant.
#[derive(Clone, Copy, Default)]
pub(super) struct LocksByAnswer {
    when_true: Option<u8>,
    when_false: Option<u8>,
}

impl LocksByAnswer {
    pub(super) fn with(self, answer: bool, locks: u8) -> LocksByAnswer {
        let held = |so_far: Option<u8>| Some(so_far.map_or(locks, |l| l.min(locks)));
        match answer {
            true => LocksByAnswer { when_true: held(self.when_true), ..self },
            false => LocksByAnswer { when_false: held(self.when_false), ..self },
        }
    }

    pub(super) fn merge(self, other: LocksByAnswer) -> LocksByAnswer {
        let min = |x: Option<u8>, y: Option<u8>| match (x, y) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        LocksByAnswer { when_true: min(self.when_true, other.when_true), when_false: min(self.when_false, other.when_false) }
    }

    /// Whether the answer tells whether a lock is held: true holds one that false does not
    /// (a `tryAcquire()` helper), as `tryLock()`'s does.
    pub(super) fn tells_lock_held(self) -> bool {
        matches!((self.when_true, self.when_false), (Some(t), Some(f)) if t > f)
    }
}
