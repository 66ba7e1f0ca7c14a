//! Calls (5.4-5.6): dispatch order, inlined accessors, interface calls, applying
//! a callee summary, and calls without a summary.

use std::borrow::Cow;
use std::collections::hash_map::Entry;

use crate::classfile::descriptor::{return_kind, returns_class_instance};
use crate::classfile::model::*;
use crate::interned;

use super::super::domain::*;
use super::super::facts::{self, CallFacts};
use super::super::models::{self, in_read_mode, ContainerAccess, LockEffect, ThreadEffect};
use super::locks::{acquire, apply_lock_effect, apply_lock_thread, lock_identity, protects, release};
use super::ownership::{escape_value, keep_arguments, own, own_e, Holders};
use super::handoffs::is_own_field;
use super::held_fields::through_held_field;
use super::state::*;
use super::access_set::NewKey;
use super::branches::main_and_current;
use super::{Callee, Interp, MAX_INLINE_DEPTH};

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

impl<'a, 'e> Interp<'a, 'e> {
    pub(super) fn invoke(&mut self, st: &mut State, kind: InvokeKind, named: &MethodRef) {
        let is_static = kind == InvokeKind::Static;
        if let Some(shape) = (self.env.inline_shape)(named) {
            if self.inline(st, named, &shape) {
                return;
            }
        }
        let computed;
        let cf: &CallFacts = match self.env.facts.call(named) {
            Some(f) => f,
            None => {
                computed = facts::call_facts(self.env.table, self.env.ignore_classes, named, self.env.extensions);
                &computed
            }
        };
        let args = pop_widths(st, &cf.arg_widths, !is_static);
        let ret_kind = cf.return_kind;
        let resolved = cf.resolved;
        let ret = self.temp();
        st.own.set(&ret, None);
        st.attrs.set(&ret, None);
        // A getter's result: the path it returns, in the caller's terms.
        let mut returned = None;
        // Whether a summary was applied, which ends what the arguments' fields hold itself.
        let mut summarised = false;
        // The method run when no model applies: its result may be a native method's.
        let mut unmodelled_target = None;

        // The code a field known to hold one class's objects runs (then no interface call). A
        // container method of the declared type that this class implements with code of its own
        // (a project's `Queue`, which the container models leave to its code) is no container
        // access: its code runs.
        let field_target = self.field_receiver_target(kind, named, &args);
        let container = match field_target {
            Some(t) if cf.container.is_some() && models::container_access(self.env.table, &t, self.env.extensions).is_none() => None,
            _ => cf.container,
        };

        // 1. reads of every argument
        for a in &args {
            self.read_expr(st, a);
        }
        self.argument_accesses(st, cf, &args);
        if !st.running.is_empty() {
            self.threads_at_call(st, named, is_static, &args);
        }
        // 2. ownership sources
        if cf.ownership_source {
            // A pool's `acquire` hands out an owned object and takes it out of the pool: a
            // write of the pool too (the reference lists it, 6.4, but its ownership model
            // shadows it). The only ownership source that is also a container write.
            if let (true, false, Some(ContainerAccess::Write)) = (self.env.extensions.collection_models, is_static, cf.container) {
                self.container_call(st, cf, ContainerAccess::Write, &args, &ret);
            }
            st.own.set(&ret, Some(OWNED));
        } else if let Some(access) = container.filter(|_| !is_static) {
            // 3-4. container writes/reads
            returned = self.container_call(st, cf, access, &args, &ret).map(Expr::Path);
        } else {
            // 5a. interface call
            if kind == InvokeKind::Interface && cf.interface_candidate && field_target.is_none() {
                self.interface_call(st, named, &args);
            }
            // 5b. thread assertions and queries
            match cf.thread {
                Some(ThreadEffect::AssertMain) => st.threads = Threads::AnyThreadButSelf,
                Some(ThreadEffect::AssertBackground) => st.threads = Threads::AnyThread,
                Some(ThreadEffect::IsMainQuery) => st.attrs.set(&ret, Some(Attr::OnMainThread)),
                Some(effect) if self.env.extensions.android_threads => {
                    let receiver = args.first().and_then(|a| attr_e(st, a));
                    if let Some(attr) = looper_attr(effect, receiver) {
                        st.attrs.set(&ret, Some(attr));
                    }
                }
                None if self.env.extensions.android_threads && kotlin_compares_handles(st, named, &args) => {
                    st.attrs.set(&ret, Some(Attr::OnMainThread));
                }
                _ => {}
            }
            // 5c. lock effects, ignored classes, summaries
            match cf.lock {
                Some(LockEffect::TryAcquire) => {
                    st.attrs.set(&ret, Some(Attr::LockHeld));
                    apply_lock_thread(st);
                }
                Some(effect) => {
                    // A lock on an object made here is counted apart and takes no lock.
                    let fresh = args.first().is_some_and(|r| self.fresh_lock_effect(st, effect, r));
                    if !fresh {
                        let effect = match args.first() {
                            Some(r) if self.is_read_lock(st, r) => in_read_mode(effect),
                            _ => effect,
                        };
                        if matches!(effect, LockEffect::Release | LockEffect::ReleaseRead | LockEffect::ReleaseAny) {
                            self.flush_pending_reads(st);
                        }
                        let ext = self.env.extensions;
                        let lock = args.first().and_then(|r| lock_identity(r, ext.lock_identities));
                        apply_lock_effect(st, effect, ext.callee_releases, lock)
                    }
                }
                None if cf.ignored => {}
                None => {
                    let target = self.fresh_receiver_target(st, kind, named, &args).or(field_target).unwrap_or(resolved);
                    unmodelled_target = Some(target);
                    match (self.env.callee)(&target) {
                        Callee::Summary(s) => {
                            summarised = true;
                            returned = self.apply_summary(st, &target, s, &args, &ret);
                        }
                        Callee::Unknown => {
                            if self.env.extensions.lambda_arguments && !is_static && !super::handoffs::keeps_its_arguments(&resolved) {
                                self.note_param_run(st, &args[0]);
                            }
                            self.no_summary(st, cf, &args, &ret)
                        }
                    }
                }
            }
            if cf.returns_read_lock {
                st.attrs.set(&ret, Some(Attr::ReadLockHandle));
            }
            if cf.returns_new_executor {
                st.attrs.set(&ret, Some(Attr::ExecutorMadeAt(self.pc as u32)));
            }
            // An iterator's next element (the one element lookup that is no container access):
            // one of the elements of the collection the iterator stands for (a view, see
            // `container_call`).
            if cf.returns_value && returned.is_none() && !is_static {
                if let Some(Expr::Path(iterated)) = args.first() {
                    returned = iterated.with(Step::Array).map(Expr::Path);
                }
            }
            // 5d. functional
            if cf.functional {
                st.attrs.set(&ret, Some(Attr::Functional));
            }
            // 5e. returns ownership
            if cf.returns_ownership {
                st.own.set(&ret, Some(OWNED));
            }
        }
        // A container's copy (`toArray()`) is a container read giving a new array.
        if cf.returns_fresh {
            returned = None;
            st.own.set(&ret, Some(OWNED));
        }
        if named.name.as_str() == "<init>" {
            if self.env.extensions.thread_handoffs {
                self.note_constructor_args(st, &args);
            }
            self.note_latch_made(st, named, &args);
        }
        if let Some(model) = cf.handoff {
            self.handoff(st, model, kind, named, &args, &ret);
        } else if self.env.extensions.lambda_arguments && self.recording {
            self.run_lambdas_in_place(st, &resolved, &args);
        }
        if !summarised {
            st.held.forget_arguments(&args);
        }
        if let Some(w) = ret_kind {
            // Models and annotations of the callee say more of its result than its body.
            let value = match returned {
                Some(e) if !cf.functional && !cf.returns_ownership && !cf.returns_read_lock && cf.handoff.is_none() => e,
                _ => match unmodelled_target.filter(|_| self.env.extensions.native_results && !w && cf.handoff.is_none()) {
                    // A native method's result no model or attribute says more of.
                    Some(m) if st.attrs.get(&ret).is_none() && !own(st, &ret).is_owned() => {
                        native_result(self.env.table, &m).map_or(Expr::Path(ret), Expr::Path)
                    }
                    _ => Expr::Path(ret),
                },
            };
            push(st, value, w);
        }
    }

    /// 2.4: a synthetic accessor replaced by its single instruction.
    pub(super) fn inline(&mut self, st: &mut State, named: &MethodRef, shape: &InlineShape) -> bool {
        match shape {
            InlineShape::GetField(f) => self.step(st, &Insn::GetField(interned::field_ref(*f))),
            InlineShape::GetStatic(f) => self.step(st, &Insn::GetStatic(interned::field_ref(*f))),
            InlineShape::PutField(f) | InlineShape::PutStatic(f) => {
                let returns = return_kind(named.descriptor.as_str()).is_some();
                let value = pop(st, f.is_wide());
                push(st, value.clone(), f.is_wide());
                let f = interned::field_ref(*f);
                let insn = if matches!(shape, InlineShape::PutField(_)) { Insn::PutField(f) } else { Insn::PutStatic(f) };
                self.step(st, &insn);
                if returns {
                    push(st, value, f.is_wide());
                }
            }
            InlineShape::Forward(target, kind) => {
                if target == named || self.inline_depth > MAX_INLINE_DEPTH {
                    return false;
                }
                self.inline_depth += 1;
                // The interned reference, whose facts are found by address.
                self.invoke(st, *kind, interned::method_ref(*target));
                self.inline_depth -= 1;
            }
        }
        true
    }

    pub(super) fn interface_call(&mut self, st: &mut State, callee: &MethodRef, args: &[Expr]) {
        let receiver = match args.first() {
            Some(Expr::Path(p)) => p.clone(),
            _ => return,
        };
        if let Some(Step::Field { class, name }) = receiver.steps.last() {
            if self.is_safe_step(*class, *name) {
                return;
            }
        }
        let own_pre = own(st, &receiver);
        let line = self.line;
        self.record(AccessKind::InterfaceCall(receiver, *callee), st, own_pre, Trace::empty(), line);
    }

    /// Returns the caller's value of the call when the callee returns one of its paths
    /// (`returned_paths`).
    pub(super) fn apply_summary(&mut self, st: &mut State, callee: &MethodRef, s: &Summary, args: &[Expr], ret: &Path) -> Option<Expr> {
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
        if ext.thread_handoffs && !s.param_handoffs.is_empty() {
            self.hand_to_callee(st, &s.param_handoffs, args);
        }
        if ext.lambda_arguments && !s.param_runs.is_empty() {
            self.run_in_callee(st, &s.param_runs, args);
        }
        acquire(st, s.locks);
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

    /// Lock precision: a lock known to be the read lock of a read/write lock, from where it was
    /// obtained in this method or from the field it is kept in.
    fn is_read_lock(&self, st: &State, lock: &Expr) -> bool {
        if attr_e(st, lock) == Some(Attr::ReadLockHandle) {
            return true;
        }
        match lock {
            Expr::Path(p) => match p.steps.last() {
                Some(Step::Field { class, name }) => self.env.facts.read_lock_fields.contains(&(*class, *name)),
                _ => false,
            },
            _ => false,
        }
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
        for acc in &s.accesses {
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
            let started = !acc.key.handed && self.input.facts.runs_own_thread && is_own_field(&new_path);
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

    pub(super) fn no_summary(&mut self, st: &mut State, cf: &CallFacts, args: &[Expr], ret: &Path) {
        // A constructor without code keeps what it is given in the new object.
        if self.env.extensions.escape_ownership && cf.resolved.name.as_str() == "<init>" {
            if let Some(h) = args.first().and_then(Holders::holder_of_value) {
                for a in &args[1..] {
                    st.holders.hold(h, a);
                }
            }
        }
        if cf.synchronized_constructor {
            if let Some(Expr::Path(r)) = args.first() {
                st.attrs.set(r, Some(Attr::Synchronized));
            }
        } else if cf.synchronized_converter {
            st.attrs.set(ret, Some(Attr::Synchronized));
        } else if cf.synchronized_as_argument {
            if args.first().is_some_and(|a| attr_e(st, a) == Some(Attr::Synchronized)) {
                st.attrs.set(ret, Some(Attr::Synchronized));
            }
        } else if cf.boxing {
            if let Some(Expr::Path(p)) = args.first() {
                if st.attrs.get(p) == Some(Attr::Functional) {
                    st.attrs.set(ret, Some(Attr::Functional));
                }
            }
        } else if !self.env.extensions.escape_ownership {
            // 5.6: the reference treats what unknown code returns as fresh; with the
            // escape extension a call without code returns a value that is not owned.
            st.own.set(ret, Some(OWNED));
        }
    }
}

/// The object an instance native method returns, as the root of the paths through it (the
/// native-results extension): an object, not owned, made by code the analysis cannot see. A
/// static native's results are made for the call (JNI factories), and so are arrays.
fn native_result(table: &crate::hierarchy::ClassTable, m: &MethodRef) -> Option<Path> {
    let header = table.method(table.get(m.class)?, m.name, m.descriptor)?;
    let instance_native = header.flags & ACC_NATIVE != 0 && header.flags & ACC_STATIC == 0;
    (instance_native && returns_class_instance(m.descriptor.as_str()))
        .then(|| Path::of(Base::NativeResult(crate::sym::Sym::new(&format!("{}.{}", m.class, m.name)))))
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

/// Kotlin's `==` on objects (`Looper.myLooper() == Looper.getMainLooper()`) is a call of
/// `Intrinsics.areEqual`: on the main and the current looper (or thread) handles, a
/// main-thread check. Not a thread query of its own (most calls compare anything else).
fn kotlin_compares_handles(st: &State, named: &MethodRef, args: &[Expr]) -> bool {
    let attr = |k: usize| args.get(k).and_then(|a| attr_e(st, a));
    main_and_current(attr(0), attr(1))
        && named.name.as_str() == "areEqual"
        && named.class.as_str() == "kotlin.jvm.internal.Intrinsics"
}

/// Android models: the attribute of a looper or thread handle, or of a main-thread check,
/// given the receiver's attribute.
fn looper_attr(effect: ThreadEffect, receiver: Option<Attr>) -> Option<Attr> {
    match effect {
        ThreadEffect::MainThreadHandle => Some(Attr::MainThreadHandle),
        ThreadEffect::CurrentThreadHandle => Some(Attr::CurrentThreadHandle),
        ThreadEffect::HandleThread => receiver.filter(|a| matches!(a, Attr::MainThreadHandle | Attr::CurrentThreadHandle)),
        ThreadEffect::IsCurrentThread => (receiver == Some(Attr::MainThreadHandle)).then_some(Attr::OnMainThread),
        _ => None,
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
