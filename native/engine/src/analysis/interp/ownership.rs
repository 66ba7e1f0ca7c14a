//! Ownership lookups (3.4, 6.3) and, with the escape-ownership extension, the end of
//! ownership when an object escapes.

use super::super::domain::*;
use super::state::{Expr, State};

/// 3.4: deep ownership lookup.
pub(super) fn own(st: &State, p: &Path) -> Own {
    // The longest prefix of `p` with an `OwnedIf` value wins (3.4).
    let mut best: Option<(usize, Own)> = None;
    for (steps, v) in st.own.for_base(p.base) {
        if let Own::OwnedIf(_) = v {
            if steps.len() <= p.steps.len() && *steps == p.steps[..steps.len()] && best.map_or(true, |(l, _)| steps.len() > l) {
                best = Some((steps.len(), v));
            }
        }
    }
    let found = best.map_or(Own::Unowned, |(_, v)| v);
    // An escaped object and everything reachable from it is at most as owned as the
    // place it escaped to (empty unless the extension is on).
    st.escaped
        .for_base(p.base)
        .filter(|(steps, _)| p.steps.starts_with(steps))
        .fold(found, |o, (_, bound)| o.join(bound))
}

pub(super) fn own_e(st: &State, e: &Expr) -> Own {
    match e {
        Expr::Path(p) => own(st, p),
        Expr::Const(_) => OWNED,
        Expr::Compound(c) => c.own,
    }
}

/// The escape bound recorded for `p` or a prefix of it, if any.
pub(super) fn escaped_bound(st: &State, p: &Path) -> Option<Own> {
    st.escaped.for_base(p.base).filter(|(steps, _)| p.steps.starts_with(steps)).map(|(_, b)| b).reduce(Own::join)
}

/// The object at `p` escapes to a place owned as `bound`: from now on it (and what it
/// reaches) is owned at most as that place, and so are the objects it holds.
pub(super) fn escape(st: &mut State, p: &Path, bound: Own) {
    if bound.is_owned() {
        return;
    }
    let mut work = vec![p.clone()];
    let mut done: Vec<Path> = Vec::new();
    while let Some(p) = work.pop() {
        if done.contains(&p) {
            continue;
        }
        work.extend(st.holders.held_by(&p));
        escape_one(st, &p, bound);
        done.push(p);
    }
}

fn escape_one(st: &mut State, p: &Path, bound: Own) {
    if own(st, p).join(bound) == own(st, p) {
        return;
    }
    let joined = st.escaped.get(p).map_or(bound, |b| b.join(bound));
    st.escaped.set(p, Some(joined));
}

/// What the fresh objects among a call's arguments keep: an argument the callee stored into
/// one of them, or let escape to one (a wrapper's constructor given `this`, a helper adding to
/// a list). Not the outer instance javac gives every inner object (`this$0`), which most never
/// use: code handed to another thread is followed by the thread handoffs instead.
pub(super) fn keep_arguments(st: &mut State, s: &Summary, args: &[Expr]) {
    let mut keep = |holder: usize, kept: u16| {
        if let (Some(h), Some(a)) = (args.get(holder).and_then(Holders::holder_of_value), args.get(kept as usize)) {
            st.holders.hold(h, a);
        }
    };
    for (i, into) in s.param_stores.iter().filter(|(_, into)| !is_outer_instance_field(into)) {
        if let Some(j) = into.base.formal_index() {
            keep(j, *i);
        }
    }
    for (i, bound) in &s.param_escapes {
        if let Own::OwnedIf(set) = bound {
            (0..64).filter(|j| set & (1 << j) != 0).for_each(|j| keep(j, *i));
        }
    }
}

/// A location that is the synthetic field of an inner object holding its outer instance.
fn is_outer_instance_field(p: &Path) -> bool {
    matches!(p.steps.last(), Some(Step::Field { name, .. }) if name.as_str().starts_with("this$"))
}

/// Objects held by a fresh object of the method (a wrapper given `this`, a local list given a
/// node, what a constructor keeps): they escape when their holder does.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Holders {
    /// (holder, held): the holder is a local or a temporary holding a fresh object.
    links: Vec<(Base, Path)>,
}

impl Holders {
    /// A fresh object's base (a local or a temporary), the only holders kept.
    pub(super) fn holder_of(p: &Path) -> Option<Base> {
        (p.steps.is_empty() && matches!(p.base, Base::Local(_) | Base::Temp(_))).then_some(p.base)
    }

    /// The holder base of a value that is a fresh object's local or temporary itself.
    pub(super) fn holder_of_value(e: &Expr) -> Option<Base> {
        match e {
            Expr::Path(p) => Holders::holder_of(p),
            _ => None,
        }
    }

    fn held_by(&self, p: &Path) -> Vec<Path> {
        match Holders::holder_of(p) {
            Some(h) => self.links.iter().filter(|(holder, _)| *holder == h).map(|(_, held)| held.clone()).collect(),
            None => Vec::new(),
        }
    }

    /// `holder` now holds each object `value` may be.
    pub(super) fn hold(&mut self, holder: Base, value: &Expr) {
        for p in value.paths() {
            if !matches!(p.base, Base::Static(_)) && p.base != holder && !self.links.iter().any(|(h, q)| *h == holder && q == p) {
                self.links.push((holder, p.clone()));
            }
        }
    }

    /// The local or temporary `to` was assigned `value`: it holds what `value` held.
    pub(super) fn assigned(&mut self, to: Base, value: &Expr) {
        self.links.retain(|(h, _)| *h != to);
        if let Some(from) = Holders::holder_of_value(value) {
            let moved: Vec<(Base, Path)> =
                self.links.iter().filter(|(h, _)| *h == from).map(|(_, held)| (to, held.clone())).collect();
            self.links.extend(moved);
        }
    }

    /// Held on either branch: held after the join.
    pub(super) fn join(&self, other: &Holders) -> Holders {
        let mut links = self.links.clone();
        links.extend(other.links.iter().filter(|l| !self.links.contains(l)).cloned());
        Holders { links }
    }

    /// Keeps the links whose holder and held object are both still live.
    pub(super) fn retain_bases(&mut self, keep: impl Fn(&Base) -> bool) {
        self.links.retain(|(h, held)| keep(h) && keep(&held.base));
    }
}

/// Every object a value may be escapes to `bound`.
pub(super) fn escape_value(st: &mut State, value: &Expr, bound: Own) {
    for p in value.paths().to_vec() {
        escape(st, &p, bound);
    }
}

/// The ownership of the object that holds location `lhs` (a field, an array element
/// or a static): what a value stored there escapes to.
pub(super) fn holder_own(st: &State, lhs: &Path) -> Own {
    match (lhs.base, lhs.steps.len()) {
        (Base::Static(_), 1) => Own::Unowned,
        (_, 0) => OWNED,
        (_, n) => own(st, &lhs.prefix(n - 1)),
    }
}
