//! Fresh-receiver dispatch (spec 2.5, the reference's precision step; extension
//! `fresh_receiver_dispatch`): a virtual or interface call on an object the method allocated
//! runs the allocated class's implementation, `Base b = new Sub(); b.run()` runs `Sub.run`.

use crate::classfile::model::{InvokeKind, Insn, MethodRef};

use super::super::domain::*;
use super::state::{Expr, State};
use super::Interp;

/// The local slots that hold an object allocated in this method, with the `new`
/// instruction that made it (sorted by slot).
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Allocations {
    slots: Vec<(u16, u32)>,
}

impl Allocations {
    fn get(&self, slot: u16) -> Option<u32> {
        self.slots.binary_search_by_key(&slot, |(s, _)| *s).ok().map(|i| self.slots[i].1)
    }

    fn set(&mut self, slot: u16, pc: Option<u32>) {
        match (self.slots.binary_search_by_key(&slot, |(s, _)| *s), pc) {
            (Ok(i), Some(pc)) => self.slots[i].1 = pc,
            (Ok(i), None) => {
                self.slots.remove(i);
            }
            (Err(i), Some(pc)) => self.slots.insert(i, (slot, pc)),
            (Err(_), None) => {}
        }
    }

    /// Kept where both sides agree.
    pub(super) fn join(&self, other: &Allocations) -> Allocations {
        if self == other {
            return self.clone();
        }
        Allocations { slots: self.slots.iter().filter(|entry| other.slots.contains(entry)).cloned().collect() }
    }
}

impl<'a, 'e> Interp<'a, 'e> {
    /// `xstore` into a local slot: whether it now holds an object allocated here.
    pub(super) fn note_allocation(&self, st: &mut State, slot: u16, value: &Expr) {
        if self.env.extensions.fresh_receiver_dispatch {
            let pc = self.allocated_at(st, value);
            st.allocated.set(slot, pc);
        }
    }

    /// The `new` instruction that made `value`, if it is an object allocated here.
    fn allocated_at(&self, st: &State, value: &Expr) -> Option<u32> {
        let Expr::Path(p) = value else { return None };
        if !p.steps.is_empty() {
            return None;
        }
        match p.base {
            Base::Temp(pc) => matches!(self.body.insns.get(pc as usize), Some(Insn::New { .. })).then_some(pc),
            Base::Local(slot) => st.allocated.get(slot),
            _ => None,
        }
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
