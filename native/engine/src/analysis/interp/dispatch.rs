//! Fresh-receiver dispatch (spec 2.5, the reference's precision step; extension
//! `fresh_receiver_dispatch`): a virtual or interface call on an object the method allocated
//! runs the allocated class's implementation, `Base b = new Sub(); b.run()` runs `Sub.run`.
//! Likewise (`field_receiver_dispatch`) a call on a field of the method's class that holds
//! objects of one known class (see `analysis::field_classes`).

use crate::classfile::model::{InvokeKind, Insn, MethodRef};

use super::super::domain::*;
use super::super::{handoffs, models};
use super::state::{Expr, State};
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// `xstore` into a local slot: whether it now holds an object allocated here (the state
    /// keeps, per slot, the `new` instruction that made it).
    pub(super) fn note_allocation(&self, st: &mut State, slot: u16, value: &Expr) {
        if self.env.extensions.fresh_receiver_dispatch {
            let pc = self.allocated_at(st, value);
            st.allocated.set(slot, pc);
        }
    }

    /// The instruction that made `value`, if it is an object allocated here: a `new`, or a
    /// factory whose every call makes a new handler (`Handler.createAsync`). A local is known to
    /// hold one with the fresh-receiver-dispatch extension only.
    pub(super) fn allocated_at(&self, st: &State, value: &Expr) -> Option<u32> {
        let Expr::Path(p) = value else { return None };
        if !p.steps.is_empty() {
            return None;
        }
        match p.base {
            Base::Temp(pc) => match self.body.insns.get(pc as usize) {
                Some(Insn::New { .. }) => Some(pc),
                Some(Insn::Invoke { method, .. }) if handoffs::makes_handler_on_looper_given(method) => Some(pc),
                _ => None,
            },
            Base::Local(slot) => st.allocated.get(slot).copied(),
            _ => None,
        }
    }

    /// The implementation a virtual or interface call runs when its receiver is a field of the
    /// method's class holding objects of one known class X (`field_receiver_dispatch`): X's.
    /// Only for a call named through the field's declared type (as the lowering pairs calls
    /// with stored classes for the upstream summaries) on a field the body reads itself (as the
    /// call graph's edges are).
    pub(super) fn field_receiver_target(&self, kind: InvokeKind, named: &MethodRef, args: &[Expr]) -> Option<MethodRef> {
        let facts = &self.env.facts.field_classes;
        if facts.is_empty() || self.inline_depth > 0 || !matches!(kind, InvokeKind::Virtual | InvokeKind::Interface) {
            return None;
        }
        let receiver = match args.first()? {
            Expr::Path(p) => p,
            other => other.snapshot_of()?,
        };
        let Some(Step::Field { class, name }) = receiver.steps.last() else { return None };
        let held = facts.get(&(*class, *name)).filter(|h| *class == self.input.mref.class && h.declared == named.class)?;
        let reads_it = self.body.reads_field(*class, *name);
        if !reads_it {
            return None;
        }
        let table = self.env.table;
        let exact = table.resolve_exact(held.class, named);
        // A method the class inherits from the library's queue skeleton (whose code the table
        // may not have) runs the class's own `offer`, `poll` or `peek`.
        let from_skeleton = exact.map_or(true, |t| t.class.as_str() == models::ABSTRACT_QUEUE)
            && table.is_subtype_of_any(held.class, &[models::ABSTRACT_QUEUE]);
        if from_skeleton {
            let primitive = models::queue_skeleton_primitive(named).and_then(|p| table.resolve_exact(held.class, &p));
            if let Some(own) = primitive.filter(|p| p.class.as_str() != models::ABSTRACT_QUEUE) {
                return Some(own);
            }
        }
        exact
    }

    /// The implementation a virtual or interface call runs when its receiver is an object
    /// allocated here by `new X`: X's, when it is not the one the named class resolves to.
    pub(super) fn fresh_receiver_target(&self, st: &State, kind: InvokeKind, named: &MethodRef, args: &[Expr]) -> Option<MethodRef> {
        if !self.env.extensions.fresh_receiver_dispatch || !matches!(kind, InvokeKind::Virtual | InvokeKind::Interface) {
            return None;
        }
        let pc = self.allocated_at(st, args.first()?)?;
        match self.body.insns.get(pc as usize) {
            Some(Insn::New { class }) => self.env.table.resolve_exact(*class, named),
            _ => None,
        }
    }
}
