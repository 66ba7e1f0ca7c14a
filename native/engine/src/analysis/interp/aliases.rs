//! Local aliases (extension, spec 11.3 "Locals"): a local slot that holds a copy of a
//! field path stands for that path, so `Foo f = this.foo; f.x = 1` writes `this.foo.x`.
//!
//! An alias lives while the slot is not reassigned and the aliased path (or a prefix of it)
//! is not assigned. Loading the slot records the reads of the path again, which must not
//! move a read made under a lock out of it: when the lock or thread state changes, the
//! alias becomes a snapshot, the object the path held, through which fields and elements
//! are reached as through the path without reading the path again. A parameter reassigned
//! with a field path is that path too.

use crate::classfile::descriptor::returns_object_of;
use crate::classfile::model::ConstVal;

use super::super::domain::*;
use super::apply::substitute;
use super::ownership::{own, own_e};
use super::state::*;
use super::Interp;

/// What local slots stand for.
pub(super) type Aliases = SlotMap<Expr>;

/// Aliases after a control-flow merge: what both sides agree on and, for a slot that is a
/// field path on one side and a longer path below it on the other, the shorter one. That is
/// how a local walking a structure (`for (n = head; n != null; n = n.next)`) stays on it: on
/// the first pass the slot is the shorter path exactly, so what is reached through it is
/// reached through that path then (and is reachable from it on later passes).
///
/// A slot that is a path on one side and another path on the other (`if (c) n = mLeft; else
/// n = mRight;`) is one of them afterwards, as the value of `c ? mLeft : mRight` is; so is a
/// slot that is a path on one side and a fresh object or `null` on the other (`n = new
/// Node(); if (c) n = mCached;`), whose other value no other thread reaches.
pub(super) fn join_aliases(a: &State, b: &State) -> Aliases {
    if a.aliases == b.aliases {
        return a.aliases.clone();
    }
    let mut joined = Aliases::default();
    for (slot, x) in a.aliases.entries() {
        let kept = match b.aliases.get(*slot) {
            Some(y) => join_alias(a, x, b, y),
            None => one_of_or_fresh(a, x, b, *slot),
        };
        joined.set(*slot, kept);
    }
    for (slot, y) in b.aliases.entries() {
        if a.aliases.get(*slot).is_none() {
            joined.set(*slot, one_of_or_fresh(b, y, a, *slot));
        }
    }
    joined
}

/// The most paths a local joined from branches stands for: enough for the branches of an
/// `if`/`else` chain, and a bound on what a loop can gather.
const MAX_ALTERNATIVES: usize = 4;

fn join_alias(a: &State, x: &Expr, b: &State, y: &Expr) -> Option<Expr> {
    match (x, y) {
        _ if x == y => Some(x.clone()),
        (Expr::Path(px), Expr::Path(py)) if is_below(px, py) => Some(y.clone()),
        (Expr::Path(px), Expr::Path(py)) if is_below(py, px) => Some(x.clone()),
        _ => one_of(alternatives(x)?, alternatives(y)?, attr_e(a, x).filter(|&t| Some(t) == attr_e(b, y)), own_e(a, x).join(own_e(b, y))),
    }
}

/// A slot aliased on one side only: one of its paths when the other side's slot holds a
/// fresh object or `null`.
fn one_of_or_fresh(side: &State, x: &Expr, other: &State, slot: u16) -> Option<Expr> {
    let local = Path::of(Base::Local(slot));
    if !own(other, &local).is_owned() {
        return None;
    }
    one_of(alternatives(x)?, &[], None, own_e(side, x))
}

/// The value that is one of the paths of both sides, unless a path of one is below a path
/// of the other (a walk, whose later links are not paths of their own) or there are too many.
fn one_of(xs: &[Path], ys: &[Path], attr: Option<Attr>, own: Own) -> Option<Expr> {
    if xs.iter().any(|p| ys.iter().any(|q| p != q && (is_below(p, q) || is_below(q, p)))) {
        return None;
    }
    let mut paths = xs.to_vec();
    paths.extend(ys.iter().filter(|q| !xs.contains(q)).cloned());
    (paths.len() <= MAX_ALTERNATIVES).then(|| Expr::either(paths, attr, own))
}

/// The paths a local alias is one of: a path, or a value from branches that met on paths
/// (not a snapshot, whose path is not read again).
fn alternatives(e: &Expr) -> Option<&[Path]> {
    match e {
        Expr::Path(p) if p.base.is_reportable() => Some(std::slice::from_ref(p)),
        Expr::Compound(c) if c.either => Some(&c.paths),
        _ => None,
    }
}

/// Whether `p` is `prefix` or a path below it.
fn is_below(p: &Path, prefix: &Path) -> bool {
    p.base == prefix.base && p.steps.starts_with(&prefix.steps)
}

/// `lhs` was assigned: aliases of it or of anything below it are stale.
fn invalidate(aliases: &mut Aliases, lhs: &Path) {
    aliases.retain(|e| !e.paths().iter().chain(e.snapshot_of()).any(|p| is_below(p, lhs)));
}

impl<'a, 'e> Interp<'a, 'e> {
    fn aliases_on(&self) -> bool {
        self.env.extensions.local_aliases
    }

    /// `xload`: the value of a local slot. A formal still holding the caller's object is
    /// itself even after it was stored somewhere: that alias only tells callers where their
    /// object went (`param_stores`).
    pub(super) fn load_local(&self, st: &State, slot: u16) -> Expr {
        let path = self.local_path(slot);
        match st.aliases.get(slot) {
            Some(_) if matches!(path.base, Base::Param(i) if holds_callers_object(st, i)) => Expr::Path(path),
            Some(e) => e.clone(),
            None => Expr::Path(path),
        }
    }

    /// `xstore`: assigns a local slot, which stands for the stored field path if any.
    pub(super) fn store_local(&mut self, st: &mut State, slot: u16, value: &Expr, wide: bool) {
        let lhs = self.local_path(slot);
        if self.env.extensions.constant_branches {
            let constant = match value {
                Expr::Const(ConstVal::Int(c)) if !wide => Some(*c),
                _ => None,
            };
            st.consts.set(slot, constant);
        }
        self.note_allocation(st, slot, value);
        self.assign(st, &lhs, value, wide);
        if self.aliases_on() {
            st.held.slot_stored(lhs.base, value);
            // A local's object is another now: no field holds it.
            if matches!(lhs.base, Base::Local(_)) {
                st.held.invalidate(&lhs);
            }
            let alias = match value {
                Expr::Path(p) if p.base.is_reportable() && *p != lhs => Some(value.clone()),
                // `Foo f = c ? this.a : this.b`: the local is one of them (what else it may be,
                // a fresh object or a local's, is nothing another thread can reach).
                Expr::Compound(c) if c.either && c.paths.iter().any(|p| p.base.is_reportable()) => {
                    let reachable: Vec<Path> = c.paths.iter().filter(|p| p.base.is_reportable()).cloned().collect();
                    Some(Expr::either(reachable, c.attr, c.own))
                }
                // The object a path held when it was read (a getter's result read under a
                // lock, a static a factory returns): the local is that object.
                Expr::Compound(c) if c.snapshot.as_ref().is_some_and(|p| p.base.is_reportable()) => Some(value.clone()),
                _ => None,
            };
            st.aliases.set(slot, alias);
        }
    }

    /// `iinc`: the slot holds a new number.
    pub(super) fn increment_local(&mut self, st: &mut State, slot: u16) {
        st.aliases.set(slot, None);
        st.consts.set(slot, None);
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
        invalidate(&mut st.aliases, lhs);
        st.held.invalidate(lhs);
        if !reference || !lhs.base.is_reportable() {
            return;
        }
        if let Expr::Path(v) = value {
            if let Some(slot) = self.aliasable_slot(st, v) {
                st.aliases.set(slot, Some(Expr::Path(lhs.clone())));
                alias_held_objects(st, v.base, lhs);
            }
        }
    }

    /// After an object made here was stored into an array element (`element`, any of them):
    /// the local holding it is that element's object, a snapshot: using the local does not
    /// read an element again, which may by then be another one.
    pub(super) fn element_stored(&self, st: &mut State, element: &Path, value: &Expr) {
        if !self.aliases_on() || !element.base.is_reportable() {
            return;
        }
        let Expr::Path(v) = value else { return };
        if let Some(slot) = self.aliasable_slot(st, v) {
            let object = Expr::snapshot(element.clone(), st.attrs.get(element), own(st, element));
            st.aliases.set(slot, Some(object));
        }
    }

    /// The local slot whose own object `v` is: a local, or a formal other than `this` still
    /// holding the caller's object (a formal aliased to `other.f` would make every access
    /// to it one to `other.f`; `this` is kept as it is).
    fn aliasable_slot(&self, st: &State, v: &Path) -> Option<u16> {
        if !v.steps.is_empty() {
            return None;
        }
        match v.base {
            Base::Local(slot) => Some(slot),
            Base::Param(i) if holds_callers_object(st, i) => self.input.method.formal_slots.get(i as usize).copied(),
            _ => None,
        }
    }

    /// At a call whose summary stores formal objects into locations (`stores`): the local slots
    /// holding a fresh object passed there, with the location each now stands for, as if
    /// stored here (`x = new Cell(); keep(x); x.v = 2` writes `this.kept.v`). Objects that
    /// were not fresh are left alone: the local may well be the object the caller got from the
    /// location in the first place. Empty (no allocation) for the calls that store nothing.
    pub(super) fn fresh_objects_stored(&self, st: &State, stores: &[(u16, Path)], args: &[Expr]) -> Vec<(u16, Path)> {
        if stores.is_empty() || !self.aliases_on() {
            return Vec::new();
        }
        stores
            .iter()
            .filter_map(|(i, dest)| {
                let slot = self.fresh_object_slot(st, args.get(*i as usize)?)?;
                Some((slot, substitute(dest, args).filter(|p| p.base.is_reportable())?))
            })
            .collect()
    }

    /// At a container write (`this.list.add(x)`, `this.map.put(k, x)`): the local slots
    /// holding a fresh object given to the container, each now standing for the container's
    /// elements (`this.list.[_]`), as a map's values do. A write through it afterwards writes
    /// an element that other threads reach through the container. Objects that were not fresh
    /// are left alone, as at calls that store them. A formal still holding the caller's object
    /// is marked too: that only tells callers where their object went (`param_stores`), so a
    /// helper that registers what it is given in a shared list publishes a caller's fresh one.
    pub(super) fn fresh_objects_added(&self, st: &State, container: &Path, added: &[Expr]) -> Vec<(u16, Path)> {
        if !self.aliases_on() || !container.base.is_reportable() {
            return Vec::new();
        }
        let slots: Vec<u16> =
            added.iter().filter_map(|a| self.fresh_object_slot(st, a).or_else(|| self.callers_object_slot(st, a))).collect();
        match (slots.is_empty(), container.with(Step::Array)) {
            (false, Some(elements)) => slots.into_iter().map(|slot| (slot, elements.clone())).collect(),
            _ => Vec::new(),
        }
    }

    /// The local slot holding `value` when it is a fresh object (owned, as what this method
    /// allocated is), which becomes where the method puts it.
    fn fresh_object_slot(&self, st: &State, value: &Expr) -> Option<u16> {
        let Expr::Path(path) = value else { return None };
        if !own_e(st, value).is_owned() {
            return None;
        }
        self.aliasable_slot(st, path)
    }

    /// The slot of a formal (not `this`) that `value` is, still holding the caller's object.
    fn callers_object_slot(&self, st: &State, value: &Expr) -> Option<u16> {
        match value {
            Expr::Path(p) if matches!(p.base, Base::Param(_)) => self.aliasable_slot(st, p),
            _ => None,
        }
    }

    /// After the call: each slot of [`Self::fresh_objects_stored`] (or of
    /// [`Self::fresh_objects_added`]) stands for its location.
    pub(super) fn alias_stored_objects(&mut self, st: &mut State, stored: Vec<(u16, Path)>) {
        for (slot, location) in stored {
            alias_held_objects(st, self.local_path(slot).base, &location);
            st.aliases.set(slot, Some(Expr::Path(location)));
        }
    }


    /// The formals (not `this`) standing for a location named from the formals or a static
    /// at a normal return: what the method stored them into, for its summary.
    pub(super) fn param_stores(&self, st: &State) -> Vec<(u16, Path)> {
        if !self.aliases_on() {
            return Vec::new();
        }
        let first = if self.input.method.header.is_static() { 0 } else { 1 };
        let slots = &self.input.method.formal_slots;
        (first..slots.len())
            .filter_map(|i| {
                // A snapshot of the location where the object went (the lock state changed
                // after the store: a later use must not read it again) is where it went all the same.
                let stored = match st.aliases.get(slots[i])? {
                    Expr::Path(p) => p,
                    other => other.snapshot_of()?,
                };
                (holds_callers_object(st, i as u16) && matches!(stored.base, Base::This | Base::Param(_) | Base::Static(_)))
                    .then(|| (i as u16, stored.clone()))
            })
            .collect()
    }

    /// The path a normal return gives back, for the summary (`returned_paths`): a path over
    /// `this` or formals still holding the caller's objects, or over a static (always a
    /// snapshot). The bare `this` of a method returning its own class (a fluent setter's) is
    /// the caller's receiver, read by no one here: never a snapshot, so
    /// `mReq.setA(1).setB(2)` calls `setB` on `this.mReq`. Not in a method returning a
    /// supertype: a local walking from `this` (`p = this; while (p.down != null) p = p.down;
    /// return p;`) is `this` on the first pass only, and another class's object after it.
    /// It is a snapshot (true) when read
    /// under a lock, or before the lock state changed: a caller's uses must not read it
    /// again, which would move a read made under a lock out of it.
    pub(super) fn returned_path(&self, st: &State, ret: &Expr) -> Option<(Path, bool)> {
        if !self.env.extensions.returned_paths {
            return None;
        }
        let (p, snapshot) = match ret {
            Expr::Path(p) => (p, st.locks > 0 || st.read_locks > 0 || st.may_locks > 0),
            _ if self.aliases_on() => (ret.snapshot_of()?, true),
            _ => return None,
        };
        let snapshot = match p.base {
            Base::This if p.steps.is_empty() => {
                let m = &self.input.mref;
                if !returns_object_of(m.descriptor.as_str(), m.class.as_str()) {
                    return None;
                }
                false
            }
            Base::This => snapshot,
            Base::Param(i) if holds_callers_object(st, i) => snapshot,
            // A static's object is the same whoever asks: the callee read the field once, and
            // what the caller does through its result is done to that object.
            Base::Static(_) => true,
            _ => return None,
        };
        Some((p.clone(), snapshot))
    }

    /// After an instruction that changed the lock or thread state: each alias of one path
    /// becomes a snapshot of it (its reads were recorded under the state it was made in);
    /// the others end.
    pub(super) fn check_alias_state(st: &mut State, before: (u8, u8, Threads)) {
        if (st.locks, st.read_locks, st.threads) == before || (st.aliases.is_empty() && st.held.is_empty()) {
            return;
        }
        let as_snapshot = |st: &State, e: &Expr| match e {
            Expr::Path(p) => Some(Expr::snapshot(p.clone(), attr_e(st, e), own_e(st, e))),
            Expr::Compound(c) if c.snapshot.is_some() => Some(e.clone()),
            _ => None,
        };
        let mut aliases = std::mem::take(&mut st.aliases);
        aliases.update(|e| as_snapshot(st, e));
        st.aliases = aliases;
        // A fresh object a field holds was not read from anywhere: it stays as it is.
        let mut held = std::mem::take(&mut st.held);
        held.update(|e| match e {
            Expr::Path(p) if !p.base.is_reportable() => Some(e.clone()),
            _ => as_snapshot(st, e),
        });
        st.held = held;
    }

    /// The path reached through a snapshot by `step` (a field or an element), with the number
    /// of its steps already read (the snapshot's), when the aliases are on and `c` is one.
    pub(super) fn through_snapshot(&self, c: &Compound, step: impl FnOnce(&Path) -> Option<Path>) -> Option<(Path, usize)> {
        let snapshot = c.snapshot.as_ref().filter(|_| self.aliases_on())?;
        Some((step(snapshot)?, snapshot.steps.len()))
    }

    /// A field or element read through a snapshot: read now, not its path's first `read`
    /// steps again; its value is a snapshot in turn.
    pub(super) fn read_through_snapshot(&mut self, st: &State, (reached, read): (Path, usize)) -> Expr {
        self.record_path_beyond(st, &reached, false, read);
        let (attr, own) = (st.attrs.get(&reached), own(st, &reached));
        Expr::snapshot(reached, attr, own)
    }

    /// A field or element written through a snapshot: the path's first `read` steps are not
    /// read again.
    pub(super) fn write_through_snapshot(&mut self, st: &mut State, (reached, read): (Path, usize), value: &Expr, wide: bool, reference: bool) {
        self.assign_beyond(st, &reached, value, wide, read);
        self.heap_stored(st, &reached, value, reference);
    }
}

/// The object of `holder` is now also at `location`: each local holding a fresh object one of
/// its fields holds (`a.next = b`, then `this.head = a`) stands for the field it is reached
/// through (`this.head.next`), and so on down (bounded by the path length).
fn alias_held_objects(st: &mut State, holder: Base, location: &Path) {
    let mut work = vec![(holder, location.clone())];
    while let Some((holder, location)) = work.pop() {
        for (step, slot) in st.held.fresh_objects_of(holder) {
            if let Some(field) = location.with(step) {
                st.aliases.set(slot, Some(Expr::Path(field.clone())));
                work.push((Base::Local(slot), field));
            }
        }
    }
}

/// Whether formal `i` (not `this`) was not reassigned: its own ownership entry is still the
/// one it starts with (an escape does not change the entry, only what a lookup joins in).
pub(super) fn holds_callers_object(st: &State, i: u16) -> bool {
    st.own.get(&Path::of(Base::Param(i))) == Some(Own::formal(i as usize))
}
