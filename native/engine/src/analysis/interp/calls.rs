//! Calls (5.4-5.6): dispatch order, inlined accessors, interface calls and calls without a
//! summary; applying a summary is in `apply`.

use crate::classfile::descriptor::{return_kind, returns_class_instance};
use crate::classfile::model::*;
use crate::interned;

use super::super::domain::*;
use super::super::facts::{self, CallFacts};
use super::super::handoffs::{is_handler_executor_execute, HandoffModel};
use super::apply::ModelledHandoff;
use super::super::models::{self, in_read_mode, ContainerAccess, LockEffect, ThreadEffect};
use super::locks::{apply_lock_effect, apply_lock_thread, lock_identity};
use super::handoffs::task_future;
use super::ownership::{own, Holders};
use super::state::*;
use super::branches::main_and_current;
use super::{Callee, Interp, MAX_INLINE_DEPTH};

impl<'a, 'e> Interp<'a, 'e> {
    pub(super) fn invoke(&mut self, st: &mut State, kind: InvokeKind, named: &MethodRef) {
        let is_static = kind == InvokeKind::Static;
        if let Some(shape) = (self.env.inline_shape)(named) {
            if self.inline(st, is_static, named, &shape) {
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
        // A reactive operator without a known scheduler is a call like any other; so is a
        // continuation of a future no task handed here completes.
        let handoff = HandoffModel::at_call(cf.handoff, self.env.table, &self.env.facts.schedulers, &self.body.insns, self.pc)
            .filter(|&model| model != HandoffModel::Continuation || task_future(st, args.first()).is_some());
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
        // (a project's `Queue`) is no container access: its code runs.
        let field_target = self.field_receiver_target(kind, named, &args);
        let container = match field_target {
            Some(t) if cf.container.is_some() && models::leaves_to_code(self.env.table, &t, self.env.extensions) => None,
            _ => cf.container.or_else(|| self.delegate_access(named, &args)),
        };
        let container = match container {
            Some(ContainerAccess::Read) if self.reordering_lookup(named, &args) => Some(ContainerAccess::Write),
            access => access,
        };

        // 1. reads of every argument
        for a in &args {
            self.read_expr(st, a);
        }
        self.argument_accesses(st, cf, &args);
        if self.env.extensions.collection_models {
            self.made_text(st, named, &args);
        }
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
            if access == ContainerAccess::Write {
                self.run_observers(st, named, &args);
            }
        } else {
            // 5a. interface call
            if kind == InvokeKind::Interface && cf.interface_candidate && field_target.is_none() {
                self.interface_call(st, named, &args);
            }
            // 5b. thread assertions and queries
            match cf.thread {
                Some(ThreadEffect::AssertMain) => st.threads = Threads::AnyThreadButSelf,
                Some(ThreadEffect::AssertBackground) => {
                    st.threads = Threads::AnyThread;
                    st.foreign_lock_threads = false;
                }
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
                Some(effect @ (LockEffect::TryAcquire | LockEffect::TryAcquireRead)) => {
                    let read = effect == LockEffect::TryAcquireRead || args.first().is_some_and(|r| self.is_read_lock(st, r));
                    st.attrs.set(&ret, Some(if read { Attr::ReadLockHeld } else { Attr::LockHeld }));
                    apply_lock_thread(st);
                }
                // An optimistic read never validated in the method: no read mode to hold, but
                // still the code's own lock use, which says other threads run it.
                Some(_) if self.env.extensions.lock_precision && models::is_optimistic_read(self.env.table, named) && !self.validates_stamps() => {
                    apply_lock_thread(st)
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
                        apply_lock_effect(st, effect, ext.callee_releases, lock, self.foreign_lock(args.first(), lock))
                    }
                }
                None if cf.ignored => {}
                None => {
                    let target = self.fresh_receiver_target(st, kind, named, &args).or(field_target).unwrap_or(resolved);
                    unmodelled_target = Some(target);
                    match (self.env.callee)(&target) {
                        Callee::Summary(s) => {
                            summarised = true;
                            let modelled = match handoff {
                                // A registration's model says where the callback object runs
                                // (`registrations.rs`), not the framework's code that delivers
                                // to it (on an executor it was given as a parameter, say).
                                Some(HandoffModel::Registration(_)) => ModelledHandoff::Handoffs,
                                // An executor posting to a handler runs its task where the
                                // handler does: its posting (and its running the task at once
                                // when already on that looper) is what the model says.
                                Some(HandoffModel::Arguments(_)) if is_handler_executor_execute(self.env.table, &target) => {
                                    ModelledHandoff::HandoffsAndRuns
                                }
                                _ => ModelledHandoff::None,
                            };
                            returned = self.apply_summary(st, &target, s, &args, &ret, modelled);
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
            if cf.counts_work {
                st.attrs.set(&ret, Some(Attr::WorkGuard));
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
            // A weak reference's object: the one it was made with (see `made_reference`).
            if cf.returns_referent && returned.is_none() && !is_static {
                returned = args.first().filter(|r| r.location().is_some() || r.is_one_of_its_paths()).cloned();
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
            if models::makes_reference(named, self.env.extensions) {
                made_reference(st, &args);
            }
            if self.env.extensions.thread_handoffs {
                self.note_constructor_args(st, named, &args);
            }
            self.note_latch_made(st, named, &args);
        }
        if let Some(model) = handoff {
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
                Some(e) if !cf.functional && !cf.returns_ownership && !cf.returns_read_lock && !cf.counts_work && handoff.is_none() => e,
                _ => match unmodelled_target.filter(|_| self.env.extensions.native_results && !w && handoff.is_none()) {
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
    pub(super) fn inline(&mut self, st: &mut State, is_static: bool, named: &MethodRef, shape: &InlineShape) -> bool {
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
                self.drop_unforwarded(st, is_static, named, target, *kind);
                self.inline_depth += 1;
                // The interned reference, whose facts are found by address.
                self.invoke(st, *kind, interned::method_ref(*target));
                self.inline_depth -= 1;
            }
        }
        true
    }

    /// Drops the arguments of a forwarding accessor's trailing formals that its body does not
    /// pass on (kotlinc's `DefaultConstructorMarker`, javac's access tag of a private
    /// constructor): the target takes its arguments from the top of the stack.
    fn drop_unforwarded(&mut self, st: &mut State, is_static: bool, named: &MethodRef, target: &MethodRef, kind: InvokeKind) {
        use crate::classfile::descriptor::{is_wide, params};
        // Formals counted with the receiver, as the stack holds them.
        let taken = params(target.descriptor.as_str()).count() + usize::from(kind != InvokeKind::Static);
        let given_params = params(named.descriptor.as_str()).count();
        let receiver = usize::from(!is_static);
        let dropped = (given_params + receiver).saturating_sub(taken);
        if dropped == 0 {
            return;
        }
        let trailing: Vec<bool> = params(named.descriptor.as_str()).skip(given_params.saturating_sub(dropped)).map(is_wide).collect();
        for &wide in trailing.iter().rev() {
            pop(st, wide);
        }
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
        self.record(AccessKind::InterfaceCall(receiver, CalledMethod::new(*callee)), st, own_pre, Trace::empty(), line);
    }

    /// Lock precision: a lock known to be the read lock of a read/write lock, from where it was
    /// obtained in this method or from the field it is kept in. A local read from that field
    /// before a lock was taken is a snapshot of it by the time of its `unlock()`: still the
    /// field's lock, or the `unlock()` would release another lock held.
    fn is_read_lock(&self, st: &State, lock: &Expr) -> bool {
        if attr_e(st, lock) == Some(Attr::ReadLockHandle) {
            return true;
        }
        match lock.location().and_then(|p| p.steps.last()) {
            Some(Step::Field { class, name }) => self.env.facts.read_lock_fields.contains(&(*class, *name)),
            _ => false,
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

/// `new WeakReference<>(x)` (weak-references extension): the new reference left on the stack
/// stands for `x`, so what a field or local keeps of it, and its `get()`, are `x`.
fn made_reference(st: &mut State, args: &[Expr]) {
    let (Some(made @ Expr::Path(p)), Some(referent)) = (args.first(), args.get(1)) else { return };
    if !matches!(p.base, Base::Temp(_)) || !p.steps.is_empty() {
        return;
    }
    for slot in &mut st.stack {
        if matches!(slot, Slot::Val(e) if e == made) {
            *slot = Slot::Val(referent.clone());
        }
    }
}
