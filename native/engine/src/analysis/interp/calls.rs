//! Calls (5.4-5.6): dispatch order, inlined accessors, interface calls, applying
//! a callee summary, and calls without a summary.

use crate::classfile::descriptor::return_kind;
use crate::classfile::model::*;

use super::super::domain::*;
use super::super::facts::{self, CallFacts};
use super::super::models::{LockEffect, ThreadEffect};
use super::locks::{apply_lock_effect, apply_lock_thread};
use super::ownership::{escape_value, own, own_e};
use super::state::*;
use super::{Callee, Interp, MAX_INLINE_DEPTH};

/// What the accesses added by one summary application depend on.
#[derive(PartialEq)]
pub(super) struct AppliedAt {
    pub(super) threads: Threads,
    pub(super) lock: bool,
    pub(super) read_lock: bool,
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
        let cf: &CallFacts = match self.env.facts.calls.get(named) {
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

        // 1. reads of every argument
        for a in &args {
            self.read_expr(st, a);
        }
        // 2. ownership sources
        if cf.ownership_source {
            st.own.set(&ret, Some(OWNED));
        } else if let Some(access) = cf.container.filter(|_| !is_static) {
            // 3-4. container writes/reads
            self.container_call(st, cf, access, &args, &ret);
        } else {
            // 5a. interface call
            if kind == InvokeKind::Interface && cf.interface_candidate {
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
                _ => {}
            }
            // 5c. lock effects, ignored classes, summaries
            match cf.lock {
                Some(LockEffect::TryAcquire) => {
                    st.attrs.set(&ret, Some(Attr::LockHeld));
                    apply_lock_thread(st);
                }
                Some(effect) => {
                    if matches!(effect, LockEffect::Release | LockEffect::ReleaseRead | LockEffect::ReleaseAny) {
                        self.flush_pending_reads(st);
                    }
                    apply_lock_effect(st, effect)
                }
                None if cf.ignored => {}
                None => match (self.env.callee)(&resolved) {
                    Callee::Summary(s) => self.apply_summary(st, &resolved, s, &args, &ret),
                    Callee::Unknown => self.no_summary(st, cf, &args, &ret),
                },
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
        if let Some(w) = ret_kind {
            push(st, Expr::Path(ret), w);
        }
    }

    /// 2.4: a synthetic accessor replaced by its single instruction.
    pub(super) fn inline(&mut self, st: &mut State, named: &MethodRef, shape: &InlineShape) -> bool {
        match shape {
            InlineShape::GetField(f) => self.step(st, &Insn::GetField(*f)),
            InlineShape::GetStatic(f) => self.step(st, &Insn::GetStatic(*f)),
            InlineShape::PutField(f) | InlineShape::PutStatic(f) => {
                let returns = return_kind(named.descriptor.as_str()).is_some();
                let value = pop(st, f.is_wide());
                push(st, value.clone(), f.is_wide());
                let insn = if matches!(shape, InlineShape::PutField(_)) { Insn::PutField(*f) } else { Insn::PutStatic(*f) };
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
                self.invoke(st, *kind, target);
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

    pub(super) fn apply_summary(&mut self, st: &mut State, callee: &MethodRef, s: &Summary, args: &[Expr], ret: &Path) {
        let caller_lock = st.locks > 0;
        let call_site = CallSite { callee: *callee, line: self.line };
        let at = AppliedAt {
            threads: st.threads,
            lock: caller_lock,
            read_lock: st.read_locks > 0,
            args: args
                .iter()
                .map(|a| (if let Expr::Path(p) = a { Some(p.clone()) } else { None }, own_e(st, a)))
                .collect(),
        };
        let site_key = (self.pc as u32, self.inline_depth);
        let seen = self.applied.entry(site_key).or_default();
        let accesses: &[Access] = if seen.contains(&at) {
            &[]
        } else {
            seen.push(at);
            &s.accesses
        };
        for acc in accesses {
            let path = acc.key.kind.path();
            let new_path = match path.base.formal_index() {
                // The callee reassigned the formal before this access: it is not on the
                // caller's argument, whose accesses depend on its ownership. (`Unowned` may
                // also be the argument after it escaped in the callee: kept.)
                Some(i) if self.env.extensions.local_aliases && reached_otherwise(acc.key.own_pre, i) => continue,
                Some(i) => match args.get(i) {
                    Some(Expr::Path(actual)) => {
                        if actual.steps.len() + path.steps.len() > MAX_PATH_STEPS {
                            continue;
                        }
                        let steps: Steps = if actual.steps.is_empty() {
                            path.steps.clone()
                        } else {
                            actual.steps.iter().chain(path.steps.iter()).copied().collect()
                        };
                        Path { base: actual.base, steps }
                    }
                    _ => continue,
                },
                None => path.clone(),
            };
            if !new_path.base.is_reportable() {
                continue;
            }
            let own_pre = at_call_site(st, acc.key.own_pre, args);
            if own_pre.is_owned() {
                continue;
            }
            let thread = if acc.key.thread == Threads::AnyThreadButSelf { Threads::AnyThreadButSelf } else { st.threads };
            let key = AccessKey { kind: acc.key.kind.with_path(new_path), thread, lock: acc.key.lock || caller_lock || (st.read_locks > 0 && !acc.key.kind.is_write()), own_pre };
            // Build the new site (one trace node) only when it is kept (see `Site::preferred`).
            let rank = (call_site.line, acc.site.trace.len() + 1, acc.site.line);
            match self.accesses.entry(key) {
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    let old_rank = (e.get().outer_line(), e.get().trace.len(), e.get().line);
                    if rank <= old_rank {
                        let site = Site { line: acc.site.line, trace: acc.site.trace.prepend(call_site.clone()) };
                        let old = std::mem::replace(e.get_mut(), site.clone());
                        *e.get_mut() = Site::preferred(old, site);
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(Site { line: acc.site.line, trace: acc.site.trace.prepend(call_site.clone()) });
                }
            }
        }
        st.locks = (st.locks + s.locks).min(LOCK_TOP);
        let ret_own = at_call_site(st, s.return_ownership, args);
        if self.env.extensions.escape_ownership {
            for (i, bound) in &s.param_escapes {
                let bound = at_call_site(st, *bound, args);
                if let Some(a) = args.get(*i as usize) {
                    escape_value(st, a, bound);
                }
            }
        }
        st.own.set(ret, Some(ret_own));
        st.attrs.set(ret, s.return_attribute);
        if s.threads == Threads::AnyThreadButSelf {
            st.threads = Threads::AnyThreadButSelf;
        }
    }

    pub(super) fn no_summary(&mut self, st: &mut State, cf: &CallFacts, args: &[Expr], ret: &Path) {
        if cf.synchronized_constructor {
            if let Some(Expr::Path(r)) = args.first() {
                st.attrs.set(r, Some(Attr::Synchronized));
            }
        } else if cf.synchronized_converter {
            st.attrs.set(ret, Some(Attr::Synchronized));
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

/// An access through formal `i` whose ownership depends on other formals only: made
/// through another object assigned to the formal.
fn reached_otherwise(o: Own, i: usize) -> bool {
    matches!(o, Own::OwnedIf(set) if i < 64 && set & (1 << i) == 0)
}

/// A callee's ownership over its formals, in the caller: the join of the ownership of
/// the actuals it depends on.
fn at_call_site(st: &State, o: Own, args: &[Expr]) -> Own {
    match o {
        Own::Unowned => Own::Unowned,
        Own::OwnedIf(set) => {
            let mut o = OWNED;
            for (i, a) in args.iter().enumerate().take(64) {
                if set & (1 << i) != 0 {
                    o = o.join(own_e(st, a));
                }
            }
            o
        }
    }
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
