//! Fields of fresh objects that hold a shared object (local-aliases extension). Ownership is
//! deep (3.4): everything reached from a fresh object counts as owned. That hides the shared
//! objects a fresh one is given: after `o = new Node(); o.next = this.head`, the write
//! `o.next.f = 1` is a write of `this.head.f`, which other threads reach. The same holds for
//! what a constructor keeps (`w = new Wrapper(this.head)`, whose constructor does
//! `this.inner = o`: `w.inner.f = 1` writes `this.head.f`).
//!
//! An entry lives while nothing else may have changed the field: the holder's slot is not
//! reassigned, the object is not handed to a call, and the shared path is not assigned.

use super::super::domain::*;
use super::apply::substitute;
use super::ownership::own;
use super::state::{Expr, State};
use super::Interp;

/// Field paths of fresh objects (`o.next`, one step below a local, a temporary or a reassigned
/// formal) with the shared object each holds: a path other threads can reach, or a snapshot
/// of one. Sorted by field path.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct HeldFields {
    entries: Vec<(Path, Expr)>,
}

impl HeldFields {
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(super) fn get(&self, field: &Path) -> Option<&Expr> {
        self.entries.binary_search_by(|(p, _)| p.cmp(field)).ok().map(|i| &self.entries[i].1)
    }

    /// `field` was given a value no entry is kept for.
    fn remove(&mut self, field: &Path) {
        if let Ok(i) = self.entries.binary_search_by(|(p, _)| p.cmp(field)) {
            self.entries.remove(i);
        }
    }

    /// `field` holds `value` (see [`HeldFields::remove`] for a value not kept).
    fn set(&mut self, field: Path, value: Expr) {
        match self.entries.binary_search_by(|(p, _)| p.cmp(&field)) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (field, value)),
        }
    }

    /// The fields of `holder`'s object that hold another fresh object of a local slot, with
    /// that slot.
    pub(super) fn fresh_objects_of(&self, holder: Base) -> Vec<(Step, u16)> {
        let held_slot = |v: &Expr| match v {
            Expr::Path(Path { base: Base::Local(slot), steps }) if steps.is_empty() => Some(*slot),
            _ => None,
        };
        self.entries
            .iter()
            .filter(|(p, _)| p.base == holder && p.steps.len() == 1)
            .filter_map(|(p, v)| Some((p.steps[0], held_slot(v)?)))
            .collect()
    }

    /// The fields of `holder`'s object holding an object named from the formals or a static,
    /// sorted: what a method's fresh result holds for its callers. Not the outer instance an
    /// inner object is given (`this$0`): a factory of inner objects (Kotlin's `create` of
    /// every suspend lambda) would make each call through its result a second way to the
    /// outer object's fields, which the inner object's own methods already reach.
    pub(super) fn shared_fields_of(&self, holder: Base) -> Vec<(Step, Path)> {
        self.entries
            .iter()
            .filter(|(p, _)| p.base == holder && p.steps.len() == 1 && !p.steps[0].is_outer_instance())
            .filter_map(|(p, v)| match v {
                Expr::Path(v) if matches!(v.base, Base::This | Base::Param(_) | Base::Static(_)) => Some((p.steps[0], v.clone())),
                _ => None,
            })
            .collect()
    }

    /// Whether a field of `holder`'s object holds a shared object.
    pub(super) fn holds_any(&self, holder: Base) -> bool {
        self.entries.iter().any(|(p, _)| p.base == holder)
    }

    /// The object of `holder` may have changed, or is another: its fields hold nothing known.
    pub(super) fn forget(&mut self, holder: Base) {
        self.entries.retain(|(p, _)| p.base != holder);
    }

    /// `xstore`: the slot `to` holds `value`'s object, and what its fields hold.
    pub(super) fn slot_stored(&mut self, to: Base, value: &Expr) {
        match value {
            Expr::Path(v) if v.steps.is_empty() => self.copy(v.base, to),
            _ => self.forget(to),
        }
    }

    /// At a call: the objects given to it may have their fields changed there.
    pub(super) fn forget_arguments(&mut self, args: &[Expr]) {
        if self.is_empty() {
            return;
        }
        for a in args {
            if let Expr::Path(p) = a {
                if p.steps.is_empty() {
                    self.forget(p.base);
                }
            }
        }
    }

    /// `to` was assigned `from`'s object: its fields hold what `from`'s do.
    fn copy(&mut self, from: Base, to: Base) {
        let moved: Vec<(Path, Expr)> =
            self.entries.iter().filter(|(p, _)| p.base == from).map(|(p, v)| (Path { base: to, steps: p.steps.clone() }, v.clone())).collect();
        self.forget(to);
        for (p, v) in moved {
            self.set(p, v);
        }
    }

    /// `lhs` was assigned: a field holding the object of `lhs`, or of something below it, no
    /// longer holds what `lhs` is now.
    pub(super) fn invalidate(&mut self, lhs: &Path) {
        let below = |p: &Path| p.base == lhs.base && p.steps.starts_with(&lhs.steps);
        self.entries.retain(|(_, v)| !v.paths().iter().chain(v.snapshot_of()).any(below));
    }

    /// Held on both sides of a merge: held after it.
    pub(super) fn join(&self, other: &HeldFields) -> HeldFields {
        if self == other {
            return self.clone();
        }
        HeldFields { entries: self.entries.iter().filter(|(p, v)| other.get(p) == Some(v)).cloned().collect() }
    }

    /// Keeps the entries whose holder is still live.
    pub(super) fn retain_holders(&mut self, keep: impl Fn(&Base) -> bool) {
        self.entries.retain(|(p, _)| keep(&p.base));
    }

    /// Replaces each held value by `f`'s (none: the entry ends).
    pub(super) fn update(&mut self, f: impl Fn(&Expr) -> Option<Expr>) {
        self.entries = std::mem::take(&mut self.entries).into_iter().filter_map(|(p, v)| f(&v).map(|v| (p, v))).collect();
    }
}

/// A value a fresh object's field can be said to hold: a path other threads can reach, or a
/// snapshot of one.
fn shared_value(value: &Expr) -> Option<Expr> {
    match value {
        Expr::Path(v) if v.base.is_reportable() => Some(value.clone()),
        Expr::Compound(_) if value.snapshot_of().is_some_and(|p| p.base.is_reportable()) => Some(value.clone()),
        _ => None,
    }
}

/// [`shared_value`], or another fresh object of a local slot (`a.next = b`): when the holder is
/// published, that local is the field it is reached through.
fn held_value(st: &State, value: &Expr) -> Option<Expr> {
    match value {
        Expr::Path(v) if v.steps.is_empty() && matches!(v.base, Base::Local(_)) && own(st, v).is_owned() => Some(value.clone()),
        _ => shared_value(value),
    }
}

/// The base of a fresh object's own slot (a local, a temporary or a formal reassigned with
/// one), when `p` is that object.
fn fresh_holder(st: &State, p: &Path) -> Option<Base> {
    let slot = p.steps.is_empty() && matches!(p.base, Base::Local(_) | Base::Temp(_) | Base::Param(_));
    (slot && own(st, p).is_owned()).then_some(p.base)
}

/// A callee's access on a fresh object given to it, reached through a field that holds a shared
/// object (`k.inner.value`, with `k.inner` holding `this.mHead`): the path on the shared object
/// (`this.mHead.value`), with the ownership of that object. Any other path: none, also the
/// field itself (`k.inner` is the fresh object's, not a read of `this.mHead`).
pub(super) fn through_held_field(st: &State, p: &Path) -> Option<(Path, Own)> {
    if p.steps.len() < 2 {
        return None;
    }
    let first = Path::of(p.base).with(p.steps[0])?;
    let Some(Expr::Path(held)) = st.held.get(&first) else { return None };
    if held.steps.len() + p.steps.len() - 1 > MAX_PATH_STEPS {
        return None;
    }
    let steps: Steps = held.steps.iter().chain(&p.steps[1..]).copied().collect();
    Some((Path { base: held.base, steps }, own(st, held)))
}

impl<'a, 'e> Interp<'a, 'e> {
    /// The value of field path `q`: the shared object a fresh object's field holds, if known.
    pub(super) fn field_value(&self, st: &State, q: Path) -> Expr {
        match st.held.get(&q) {
            Some(held) => held.clone(),
            None => Expr::Path(q),
        }
    }

    /// After `obj.f = value` (`lhs` is `obj.f`): the field holds `value`, remembered when `obj`
    /// is a fresh object and `value` a shared one.
    pub(super) fn note_field_stored(&self, st: &mut State, obj: &Path, lhs: &Path, value: &Expr, reference: bool) {
        if !self.env.extensions.local_aliases {
            return;
        }
        match if reference && fresh_holder(st, obj).is_some() { held_value(st, value) } else { None } {
            Some(held) => st.held.set(lhs.clone(), held),
            None => st.held.remove(lhs),
        }
    }

    /// At a normal return of `ret`: the fields of the fresh object returned that hold a
    /// formal's or a static's object (for the summary's `return_holds`).
    pub(super) fn returned_holds(&self, st: &State, ret: &Expr) -> Vec<(Step, Path)> {
        if !self.env.extensions.local_aliases {
            return Vec::new();
        }
        match ret {
            Expr::Path(p) if fresh_holder(st, p).is_some() => st.held.shared_fields_of(p.base),
            _ => Vec::new(),
        }
    }

    /// After a call whose fresh result holds, in its fields, objects named from the callee's
    /// formals or a static (`holds`, a factory `Box.of(this.head)`): the result's fields hold
    /// the caller's objects given there.
    pub(super) fn note_fields_held_by_result(&self, st: &mut State, ret: &Path, holds: &[(Step, Path)], args: &[Expr]) {
        for (step, held) in holds {
            let (Some(field), Some(value)) = (Path::of(ret.base).with(*step), substitute(held, args)) else { continue };
            if let Some(value) = shared_value(&Expr::Path(value)) {
                st.held.set(field, value);
            }
        }
    }

    /// After a call whose summary stores formals into fields of other formals (`stores`, a
    /// constructor's `this.inner = o`): the fresh objects given as holders hold the shared
    /// objects given with them.
    pub(super) fn note_fields_stored_by_callee(&self, st: &mut State, stores: &[(u16, Path)], args: &[Expr]) {
        if !self.env.extensions.local_aliases {
            return;
        }
        for (i, into) in stores {
            let ([step], Some(j)) = (&into.steps[..], into.base.formal_index()) else { continue };
            let (Some(Expr::Path(holder)), Some(value)) = (args.get(j), args.get(*i as usize)) else { continue };
            let (Some(base), Some(held)) = (fresh_holder(st, holder), shared_value(value)) else { continue };
            st.held.set(Path::of(base).with(*step).expect("a one-step path"), held);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn field(base: Base, name: &str) -> Path {
        Path::of(base).with(Step::Field { class: Sym::new("p.C"), name: Sym::new(name) }).unwrap()
    }

    fn holding(entries: &[(Base, &str, &str)]) -> HeldFields {
        let mut h = HeldFields::default();
        for (base, f, shared) in entries {
            h.set(field(*base, f), Expr::Path(field(Base::This, shared)));
        }
        h
    }

    #[test]
    fn a_join_keeps_what_both_sides_hold() {
        let a = holding(&[(Base::Local(1), "next", "head"), (Base::Local(2), "next", "tail")]);
        let b = holding(&[(Base::Local(1), "next", "head"), (Base::Local(2), "next", "head")]);
        assert_eq!(a.join(&b), holding(&[(Base::Local(1), "next", "head")]));
    }

    #[test]
    fn a_slot_assigned_another_holder_holds_what_it_holds_and_nothing_else() {
        let mut h = holding(&[(Base::Temp(7), "inner", "head"), (Base::Local(3), "next", "tail")]);
        h.copy(Base::Temp(7), Base::Local(3));
        assert_eq!(h.get(&field(Base::Local(3), "inner")), Some(&Expr::Path(field(Base::This, "head"))));
        assert_eq!(h.get(&field(Base::Local(3), "next")), None);
    }

    #[test]
    fn assigning_the_shared_path_ends_what_held_its_object() {
        let mut h = holding(&[(Base::Local(1), "next", "head"), (Base::Local(2), "next", "tail")]);
        h.invalidate(&field(Base::This, "head"));
        assert_eq!(h, holding(&[(Base::Local(2), "next", "tail")]));
    }
}
