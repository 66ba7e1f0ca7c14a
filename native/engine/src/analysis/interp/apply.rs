//! Applying a callee's summary at a call (5.5-5.6): its accesses in the caller's terms (on
//! the arguments, under the caller's locks and thread, through the call site), and what it says
//! of ownership, locks, threads and the returned value.

use std::borrow::Cow;
use std::collections::hash_map::Entry;

use crate::classfile::model::*;

use super::super::domain::*;
use super::locks::{acquire, acquire_maybe, acquire_read, apply_lock_thread, protects, release, release_read};
use super::ownership::{escape_value, keep_arguments, own, own_e};
use super::held_fields::through_held_field;
use super::state::*;
use super::access_set::NewKey;
use super::Interp;

/// What the accesses added by one summary application depend on.
#[derive(PartialEq, Eq, Hash)]
pub(super) struct AppliedAt {
    pub(super) threads: Threads,
    pub(super) lock: bool,
    /// A lock other than a monitor of `this` (object-monitors extension).
    pub(super) static_lock: bool,
    pub(super) read_lock: bool,
    /// The one known lock held (lock identities): the same call under another lock makes
    /// other accesses.
    pub(super) lock_on: Option<LockPath>,
    /// Threads this method joins later may be running (thread-joins extension): the callee's
    /// own accesses are then made `during` them.
    pub(super) during: bool,
    pub(super) args: Vec<(Option<Path>, Own)>,
}

/// What a model of a call says of the code it is given, in place of the callee's summary.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ModelledHandoff {
    /// Nothing: the callee's handoffs and runs of its parameters apply.
    None,
    /// Where the code given runs on other threads: the callee's handoffs do not apply.
    Handoffs,
    /// Where the code given runs at all: neither the callee's handoffs nor its runs apply.
    HandoffsAndRuns,
}

impl<'a, 'e> Interp<'a, 'e> {
    /// Returns the caller's value of the call when the callee returns one of its paths
    /// (`returned_paths`). `modelled`: what a model of the call says in place of the callee.
    pub(super) fn apply_summary(
        &mut self,
        st: &mut State,
        callee: &MethodRef,
        s: &Summary,
        args: &[Expr],
        ret: &Path,
        modelled: ModelledHandoff,
    ) -> Option<Expr> {
        if self.recording {
            self.add_summary_accesses(st, callee, s, args);
        }
        // The callee may have changed the fields of the objects it was given (what it stored
        // into them is noted below).
        st.held.forget_arguments(args);
        let ext = self.env.extensions;
        if ext.callee_releases && s.releases > 0 {
            self.flush_pending_reads(st);
            release(st, s.releases, true);
        }
        if ext.callee_releases && s.read_releases > 0 {
            self.flush_pending_reads(st);
            release_read(st, s.read_releases, true);
        }
        if ext.thread_handoffs && !s.param_handoffs.is_empty() && modelled == ModelledHandoff::None {
            self.hand_to_callee(st, &s.param_handoffs, args);
        }
        if ext.lambda_arguments && !s.param_runs.is_empty() && modelled != ModelledHandoff::HandoffsAndRuns {
            self.run_in_callee(st, &s.param_runs, args);
        }
        acquire(st, s.locks);
        // Locks the callee left held on some paths: what the caller releases of them next was
        // taken below it, not by its callers.
        if ext.callee_releases {
            acquire_maybe(st, s.may_locks);
        }
        // A read lock the callee took and kept (`acquireRead()`) protects the caller's reads.
        acquire_read(st, s.read_locks);
        // The caller goes on under a lock it took through the callee (`acquire() {
        // mLock.lock(); }`): its own lock use, as a `lock()` call here would be.
        // So does one whose answer says whether it took a lock (`tryAcquire()`).
        let tries_lock = s.return_attribute == Some(Attr::LockHeld);
        if ext.held_lock_evidence && (s.locks > 0 || s.read_locks > 0 || tries_lock) {
            apply_lock_thread(st);
        }
        // A lock taken by a method of the same class is evidence, as one taken here would be
        // (one call deep: what makes the callee itself concurrent only by its callees is not).
        // Not in constructors: the object is not shared yet.
        if ext.callee_lock_evidence
            && callee.class == self.input.class.name
            && !matches!(self.input.mref.name.as_str(), "<init>" | "<clinit>")
            && (self.env.takes_lock)(callee)
        {
            apply_lock_thread(st);
        }
        let ret_own = own_at_call(st, s.return_ownership, args);
        // Decided before the arguments escape below: whether each is still fresh.
        let stored = self.fresh_objects_stored(st, &s.param_stores, args);
        if self.env.extensions.escape_ownership {
            keep_arguments(st, s, args);
            for (i, bound) in &s.param_escapes {
                let Some(a) = args.get(*i as usize) else { continue };
                escape_value(st, a, own_at_call(st, *bound, args));
            }
        }
        st.own.set(ret, Some(ret_own));
        // With the Android models, a thread model of the callee (`Looper.myLooper()` analysed
        // with the framework's code) says more of its result than its body (the reference
        // lets the summary's attribute replace the model's, 5.5).
        if !ext.android_threads || st.attrs.get(ret).is_none() {
            st.attrs.set(ret, s.return_attribute);
        }
        self.alias_stored_objects(st, stored);
        self.note_fields_stored_by_callee(st, &s.param_stores, args);
        if ret_own.is_owned() {
            self.note_fields_held_by_result(st, ret, &s.return_holds, args);
        }
        if s.threads == Threads::AnyThreadButSelf {
            st.threads = Threads::AnyThreadButSelf;
        }
        let returned = s.return_path.as_ref()?;
        let (path, snapshot) = match substitute(returned, args) {
            Some(path) => (path, s.return_snapshot),
            // On an object the caller holds as a snapshot: the callee read the rest.
            None => (substitute_through_snapshot(returned, args)?, true),
        };
        // What the model or the callee knew of the value (the main looper) holds for its
        // path here.
        if let (None, Some(attr)) = (st.attrs.get(&path), st.attrs.get(ret)) {
            st.attrs.set(&path, Some(attr));
        }
        Some(if snapshot {
            let (attr, own) = (st.attrs.get(&path), own(st, &path));
            Expr::snapshot(path, attr, own)
        } else {
            Expr::Path(path)
        })
    }

    /// The callee's accesses as made at this call: on the caller's arguments, under the
    /// caller's locks and thread, through the call site.
    fn add_summary_accesses(&mut self, st: &State, callee: &MethodRef, s: &Summary, args: &[Expr]) {
        let call_site = CallSite { callee: *callee, line: self.line };
        let arg_owns: Vec<Own> = args.iter().map(|a| own_e(st, a)).collect();
        let running = st.running.any();
        let at = AppliedAt {
            threads: st.threads,
            lock: st.locks > 0,
            static_lock: st.locks > st.object_locks,
            read_lock: st.read_locks > 0,
            lock_on: st.lock_on,
            during: running,
            args: args
                .iter()
                .zip(&arg_owns)
                .map(|(a, own)| (if let Expr::Path(p) = a { Some(p.clone()) } else { None }, *own))
                .collect(),
        };
        // The same summary applied in the same circumstances adds the same accesses, whose
        // sites differ only by the call's line: none is kept unless the line is earlier
        // (see `add_callee_access`). So a loop body run again, or a callee called again
        // later in the method, adds nothing.
        // What the arguments' fields hold is not part of the circumstances: a call reaching a
        // shared object through them is always applied.
        let through_held = !st.held.is_empty()
            && args.iter().any(|a| matches!(a, Expr::Path(p) if p.steps.is_empty() && st.held.holds_any(p.base)));
        match self.applied.entry((*callee, s as *const Summary as usize, at)) {
            _ if through_held => {}
            Entry::Occupied(e) if *e.get() <= self.line => return,
            Entry::Occupied(mut e) => *e.get_mut() = self.line,
            Entry::Vacant(e) => {
                e.insert(self.line);
            }
        }
        self.accesses.reserve(s.accesses.len());
        let mut last_lock: Option<(LockPath, Option<LockPath>)> = None;
        for (n, acc) in s.accesses.iter().enumerate() {
            prefetch_key_ahead(&s.accesses, n);
            let path = acc.key.kind.path();
            // The callee reassigned the formal before this access: it is not on the caller's
            // argument, whose accesses depend on its ownership. (`Unowned` may also be the
            // argument after it escaped in the callee: kept.)
            if let Some(i) = path.base.formal_index() {
                if self.env.extensions.local_aliases && reached_otherwise(acc.key.own_pre, i) {
                    continue;
                }
            }
            // Most paths come out of the call as they went in: borrowed, not copied.
            let Some(mut new_path) = substituted(path, args) else { continue };
            // An access on a fresh argument through a field holding a shared object is on
            // that object, owned as it is.
            let mut held_own = None;
            if !new_path.base.is_reportable() && !st.held.is_empty() {
                let Some((on_shared, own)) = through_held_field(st, &new_path) else { continue };
                (new_path, held_own) = (Cow::Owned(on_shared), Some((path.base.formal_index(), own)));
            }
            if !new_path.base.is_reportable() || is_native_array_element(&new_path) {
                continue;
            }
            let own_pre = own_given(acc.key.own_pre, args.len(), |i| match held_own {
                Some((Some(holder), own)) if holder == i => own,
                _ => arg_owns[i],
            });
            if own_pre.is_owned() {
                continue;
            }
            let callee_lock = match acc.key.lock_on.filter(|_| self.env.extensions.lock_identities) {
                None => None,
                // A summary's accesses hold few locks: the last one's place here serves again.
                Some(l) if last_lock.is_some_and(|(from, _)| from == l) => last_lock.and_then(|(_, to)| to),
                Some(l) => {
                    let to = lock_at_call(l, args);
                    last_lock = Some((l, to));
                    to
                }
            };
            let (thread, lock, lock_on) = thread_and_lock_at_call(st, &acc.key, callee_lock);
            self.note_own_monitor_static(st, &new_path, lock);
            // In a thread's own `run()`, what a callee does to the object's own fields is that
            // thread's too.
            let started = !acc.key.handed && self.is_thread_own(&new_path);
            // Threads the callee joins run within the call, as one of many here; what it does
            // itself runs alongside the threads this method has running.
            let joined = acc.key.joined.map(|_| JoinedThread::MANY);
            let during = !acc.key.handed && running;
            let unchanged = !started
                && matches!(new_path, Cow::Borrowed(_))
                && own_pre == acc.key.own_pre
                && lock_on == acc.key.lock_on
                && joined == acc.key.joined
                && during == acc.key.during
                && (acc.key.handed || (thread == acc.key.thread && lock == acc.key.lock));
            let key = if unchanged {
                NewKey::Shared(acc.key.clone())
            } else if started {
                let on_thread = (Threads::AnyThread, lock, lock_on);
                NewKey::made(AccessKey { started, ..key_at_call(&acc.key, new_path.into_owned(), own_pre, on_thread, true) })
            } else {
                let key = key_at_call(&acc.key, new_path.into_owned(), own_pre, (thread, lock, lock_on), false);
                NewKey::made(AccessKey { joined, during, ..key })
            };
            self.add_callee_access(key, &acc.key, &acc.site, Some(&call_site));
        }
    }

    /// Adds a callee's access, reached through `call_site` (none: shown as if it were in this
    /// method, for a lambda body), keeping the preferred site of each snapshot.
    /// `callee_key` is the callee's own key for it, reused when the call did not change it.
    pub(super) fn add_callee_access(
        &mut self,
        key: NewKey,
        callee_key: &KeyRef,
        site: &Site,
        call_site: Option<&CallSite>,
    ) {
        let prepended = &mut self.prepended;
        let last_prepended = &mut self.last_prepended;
        let last_callee = &mut self.last_callee;
        let mut new_site = || match call_site {
            Some(c) => {
                let tail = site.trace.tail_id();
                if let Some((last_call, last_tail, trace)) = last_prepended.as_ref() {
                    if *last_tail == tail && last_call == c {
                        return Site { line: site.line, trace: trace.clone() };
                    }
                }
                // The entry holds the callee trace too, so its address is not reused.
                let trace = prepended
                    .entry((*c, tail))
                    .or_insert_with(|| {
                        // A call brings in many accesses: its callee is interned once.
                        let callee = match *last_callee {
                            Some((m, interned)) if m == c.callee => interned,
                            _ => {
                                let interned = crate::interned::method_ref(c.callee);
                                *last_callee = Some((c.callee, interned));
                                interned
                            }
                        };
                        (site.trace.clone(), site.trace.prepend_interned(callee, c.line))
                    })
                    .1
                    .clone();
                *last_prepended = Some((*c, tail, trace.clone()));
                Site { line: site.line, trace }
            }
            None => site.clone(),
        };
        // Build the new site (one trace node) only when it is kept (see `Site::preferred`).
        let rank = match call_site {
            Some(c) => (c.line, site.trace.len() + 1, site.line),
            None => (site.outer_line(), site.trace.len(), site.line),
        };
        match self.accesses.site_mut(&key) {
            Some(existing) => {
                let old_rank = (existing.outer_line(), existing.trace.len(), existing.line);
                if rank <= old_rank {
                    let site = new_site();
                    let old = std::mem::replace(existing, site.clone());
                    *existing = Site::preferred(old, site);
                }
            }
            None => {
                let site = new_site();
                self.accesses.insert(key.or_shared(callee_key), site);
            }
        }
    }
}

/// An access through formal `i` whose ownership depends on other formals only: made
/// through another object assigned to the formal.
fn reached_otherwise(o: Own, i: usize) -> bool {
    matches!(o, Own::OwnedIf(set) if i < 64 && set & (1 << i) == 0)
}

/// 5.5: a callee's formal-rooted path in terms of the actual arguments (None: the argument
/// is no path, or the result would be too long).
pub(super) fn substitute(path: &Path, args: &[Expr]) -> Option<Path> {
    substituted(path, args).map(Cow::into_owned)
}

/// `path` of a formal whose argument is a snapshot (see [`Compound::snapshot`]): the same steps
/// from the object the snapshot holds.
fn substitute_through_snapshot(path: &Path, args: &[Expr]) -> Option<Path> {
    let Expr::Compound(c) = args.get(path.base.formal_index()?)? else { return None };
    rebased(path, c.snapshot.as_ref()?)
}

/// `path`'s steps from the object `onto` names (a formal's argument), within the path bound.
fn rebased(path: &Path, onto: &Path) -> Option<Path> {
    if onto.steps.len() + path.steps.len() > MAX_PATH_STEPS {
        return None;
    }
    let steps: Steps = if onto.steps.is_empty() { path.steps.clone() } else { onto.steps.iter().chain(path.steps.iter()).copied().collect() };
    Some(Path { base: onto.base, steps })
}

/// [`substitute`], borrowing `path` where the call leaves it as it is: a path not on a
/// formal, or on a formal whose argument is the same base (a call on `this` from a method
/// of the same object), as most are.
fn substituted<'p>(path: &'p Path, args: &[Expr]) -> Option<Cow<'p, Path>> {
    let Some(i) = path.base.formal_index() else { return Some(Cow::Borrowed(path)) };
    match args.get(i) {
        Some(Expr::Path(actual)) if actual.steps.is_empty() && actual.base == path.base => Some(Cow::Borrowed(path)),
        Some(Expr::Path(actual)) => rebased(path, actual).map(Cow::Owned),
        _ => None,
    }
}

/// A callee's lock on the caller's arguments (none: its object is no path here).
fn lock_at_call(lock: LockPath, args: &[Expr]) -> Option<LockPath> {
    match substituted(lock.path(), args)? {
        Cow::Borrowed(_) => Some(lock),
        Cow::Owned(p) => LockPath::of(p),
    }
}

/// The thread and lock of a callee's access made during a call: the caller's thread (unless
/// the access is main-thread only), and protected if the callee or the caller holds a lock
/// (a caller's read lock protects reads only). The one lock it is made under is the callee's
/// (`callee_lock`, on the caller's arguments) or the caller's, known only if no other is held;
/// handed code's is its own.
#[inline]
pub(super) fn thread_and_lock_at_call(st: &State, key: &AccessKey, callee_lock: Option<LockPath>) -> (Threads, bool, Option<LockPath>) {
    let thread = if key.thread == Threads::AnyThreadButSelf { Threads::AnyThreadButSelf } else { st.threads };
    // Protected by the callee: what the caller holds changes nothing when the callee's lock is
    // not known, nor for handed code.
    if key.lock && (callee_lock.is_none() || key.handed) {
        return (thread, true, callee_lock);
    }
    let caller_lock = protects(st, key.kind.path()) || (st.read_locks > 0 && !key.kind.is_write());
    let lock_on = match (key.lock, caller_lock) {
        _ if key.handed => callee_lock,
        (true, false) => callee_lock,
        (false, true) => st.lock_on,
        (true, true) if callee_lock == st.lock_on => callee_lock,
        _ => None,
    };
    (thread, key.lock || caller_lock, lock_on)
}

/// A callee's access as seen at a call: on the thread under the lock given (see
/// [`thread_and_lock_at_call`]), unless it is handed code, which runs later on its own thread
/// (the caller's thread and locks say nothing of it).
pub(super) fn key_at_call(
    key: &AccessKey,
    path: Path,
    own_pre: Own,
    (thread, lock, lock_on): (Threads, bool, Option<LockPath>),
    handed: bool,
) -> AccessKey {
    if key.handed {
        AccessKey { kind: key.kind.with_path(path), own_pre, lock_on, ..key.clone() }
    } else {
        AccessKey { kind: key.kind.with_path(path), thread, lock, lock_on, own_pre, handed, started: false, once: false, joined: None, during: false }
    }
}

/// 5.5: a callee's conditional ownership given the ownership of the actual arguments.
pub(super) fn own_at_call(st: &State, o: Own, args: &[Expr]) -> Own {
    own_given(o, args.len(), |i| own_e(st, &args[i]))
}

/// [`own_at_call`] with the ownership of argument `i` given by `arg`: a call applying many
/// accesses works the arguments' ownership out once.
pub(super) fn own_given(o: Own, args: usize, arg: impl Fn(usize) -> Own) -> Own {
    match o {
        Own::OwnedIf(set) if set != 0 => {
            (0..args.min(64)).filter(|i| set & (1 << i) != 0).fold(OWNED, |o, i| o.join(arg(i)))
        }
        other => other,
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn field(base: Base, name: &str) -> Path {
        Path::of(base).field(Sym::new("p.C"), Sym::new(name)).unwrap()
    }

    #[test]
    fn a_path_the_call_leaves_as_it_is_is_borrowed_and_others_are_rebuilt() {
        let on_this = field(Base::This, "f");
        let on_static = field(Base::Static(Sym::new("p.C")), "s");
        let this_arg = [Expr::Path(Path::of(Base::This))];
        assert!(matches!(substituted(&on_this, &this_arg), Some(Cow::Borrowed(_))));
        assert!(matches!(substituted(&on_static, &this_arg), Some(Cow::Borrowed(_))));
        // The callee's `this` is the caller's `this.g`: `this.g.f`.
        let field_arg = [Expr::Path(field(Base::This, "g"))];
        let rebuilt = substituted(&on_this, &field_arg);
        assert!(matches!(rebuilt, Some(Cow::Owned(_))));
        assert_eq!(rebuilt.map(Cow::into_owned), field(Base::This, "g").field(Sym::new("p.C"), Sym::new("f")));
        // The caller's parameter 1 as the callee's `this`: same steps, another base.
        let param_arg = [Expr::Path(Path::of(Base::Param(1)))];
        assert_eq!(substitute(&on_this, &param_arg), Some(field(Base::Param(1), "f")));
    }
}
