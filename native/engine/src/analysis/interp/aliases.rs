//! Local aliases (extension, spec 11.3 "Locals"): a local slot that holds a copy of a
//! field path stands for that path, so `Foo f = this.foo; f.x = 1` writes `this.foo.x`.
//!
//! An alias lives while the slot is not reassigned, the aliased path (or a prefix of it)
//! is not assigned, and the lock and thread state are those it was made under: loading
//! the slot records the reads of the path again, which must not move a read made under
//! a lock out of it. A parameter reassigned with a field path is that path too.

use super::super::domain::*;
use super::state::*;
use super::Interp;

/// What local slots stand for, sorted by slot.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Aliases {
    slots: Vec<(u16, Expr)>,
}

impl Aliases {
    fn get(&self, slot: u16) -> Option<&Expr> {
        self.slots.binary_search_by_key(&slot, |(s, _)| *s).ok().map(|i| &self.slots[i].1)
    }

    fn set(&mut self, slot: u16, e: Option<Expr>) {
        match (self.slots.binary_search_by_key(&slot, |(s, _)| *s), e) {
            (Ok(i), Some(e)) => self.slots[i].1 = e,
            (Ok(i), None) => {
                self.slots.remove(i);
            }
            (Err(i), Some(e)) => self.slots.insert(i, (slot, e)),
            (Err(_), None) => {}
        }
    }

    /// Kept where both sides agree; elsewhere the slot is itself again.
    pub(super) fn join(&self, other: &Aliases) -> Aliases {
        if self == other {
            return self.clone();
        }
        Aliases { slots: self.slots.iter().filter(|entry| other.slots.contains(entry)).cloned().collect() }
    }

    /// The lock or thread state changed.
    fn clear(&mut self) {
        self.slots.clear();
    }

    /// `lhs` was assigned: aliases of it or of anything below it are stale.
    fn invalidate(&mut self, lhs: &Path) {
        self.slots.retain(|(_, e)| !e.paths().iter().any(|p| p.base == lhs.base && p.steps.starts_with(&lhs.steps)));
    }
}

impl<'a, 'e> Interp<'a, 'e> {
    fn aliases_on(&self) -> bool {
        self.env.extensions.local_aliases
    }

    /// `xload`: the value of a local slot.
    pub(super) fn load_local(&self, st: &State, slot: u16) -> Expr {
        match st.aliases.get(slot) {
            Some(e) => e.clone(),
            None => Expr::Path(self.local_path(slot)),
        }
    }

    /// `xstore`: assigns a local slot, which stands for the stored field path if any.
    pub(super) fn store_local(&mut self, st: &mut State, slot: u16, value: &Expr, wide: bool) {
        let lhs = self.local_path(slot);
        self.assign(st, &lhs, value, wide);
        if self.aliases_on() {
            let alias = match value {
                Expr::Path(p) if p.base.is_reportable() && *p != lhs => Some(value.clone()),
                _ => None,
            };
            st.aliases.set(slot, alias);
        }
    }

    /// `iinc`: the slot holds a new number.
    pub(super) fn increment_local(&mut self, st: &mut State, slot: u16) {
        st.aliases.set(slot, None);
        let p = self.local_path(slot);
        st.own.set(&p, Some(Own::Unowned));
        if st.attrs.get(&p) != Some(Attr::Functional) {
            st.attrs.set(&p, None);
        }
    }

    /// After a store into the heap location `lhs`: aliases of it are stale, and a local
    /// whose object was stored there (a reference) is now also that location.
    pub(super) fn heap_stored(&mut self, st: &mut State, lhs: &Path, value: &Expr, reference: bool) {
        if !self.aliases_on() {
            return;
        }
        st.aliases.invalidate(lhs);
        if !reference || !lhs.base.is_reportable() {
            return;
        }
        if let Expr::Path(v) = value {
            if let (Base::Local(slot), true) = (v.base, v.steps.is_empty()) {
                st.aliases.set(slot, Some(Expr::Path(lhs.clone())));
            }
        }
    }

    /// After an instruction: aliases made under another lock or thread state end.
    pub(super) fn check_alias_state(st: &mut State, before: (u8, u8, Threads)) {
        if (st.locks, st.read_locks, st.threads) != before {
            st.aliases.clear();
        }
    }
}
