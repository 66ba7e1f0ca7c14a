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
        Expr::Const(_) | Expr::Class(_) => OWNED,
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
    p.steps.last().is_some_and(Step::is_outer_instance)
}

/// Objects held by a fresh object of the method (a wrapper given `this`, a local list given a
/// node, what a constructor keeps): they escape when their holder does.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Holders {
    /// (holder, held), sorted and without repeats: the holder is a local or a temporary
    /// holding a fresh object. Sorted, so that a join is a merge (large methods keep many
    /// links, and the states of their blocks are joined often).
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

    /// The links of `holder`: one run of the sorted links.
    fn of(&self, holder: Base) -> &[(Base, Path)] {
        let start = self.links.partition_point(|(h, _)| *h < holder);
        let end = start + self.links[start..].partition_point(|(h, _)| *h == holder);
        &self.links[start..end]
    }

    fn held_by(&self, p: &Path) -> Vec<Path> {
        match Holders::holder_of(p) {
            Some(h) => self.of(h).iter().map(|(_, held)| held.clone()).collect(),
            None => Vec::new(),
        }
    }

    fn insert(&mut self, link: (Base, Path)) {
        if let Err(at) = self.links.binary_search(&link) {
            self.links.insert(at, link);
        }
    }

    /// `holder` now holds each object `value` may be.
    pub(super) fn hold(&mut self, holder: Base, value: &Expr) {
        for p in value.paths() {
            if !matches!(p.base, Base::Static(_)) && p.base != holder {
                self.insert((holder, p.clone()));
            }
        }
    }

    /// The local or temporary `to` was assigned `value`: it holds what `value` held.
    pub(super) fn assigned(&mut self, to: Base, value: &Expr) {
        self.links.retain(|(h, _)| *h != to);
        if let Some(from) = Holders::holder_of_value(value) {
            let moved: Vec<(Base, Path)> = self.of(from).iter().map(|(_, held)| (to, held.clone())).collect();
            for link in moved {
                self.insert(link);
            }
        }
    }

    /// Held on either branch: held after the join.
    pub(super) fn join(&self, other: &Holders) -> Holders {
        let (a, b) = (&self.links, &other.links);
        let mut links = Vec::with_capacity(a.len().max(b.len()));
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => {
                    links.push(a[i].clone());
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    links.push(b[j].clone());
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    links.push(a[i].clone());
                    i += 1;
                    j += 1;
                }
            }
        }
        links.extend_from_slice(&a[i..]);
        links.extend_from_slice(&b[j..]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn field(base: Base, name: &str) -> Expr {
        Expr::Path(Path::of(base).field(Sym::new("p.C"), Sym::new(name)).unwrap())
    }

    fn holding(links: &[(u16, &str)]) -> Holders {
        let mut h = Holders::default();
        for (local, name) in links {
            h.hold(Base::Local(*local), &field(Base::This, name));
        }
        h
    }

    #[test]
    fn holders_join_to_the_union_whatever_the_order_of_the_links() {
        let a = holding(&[(2, "x"), (1, "y"), (2, "x")]);
        let b = holding(&[(1, "z"), (1, "y")]);
        let joined = a.join(&b);
        assert_eq!(joined, b.join(&a));
        assert_eq!(joined, holding(&[(1, "y"), (1, "z"), (2, "x")]));
        assert_eq!(joined.held_by(&Path::of(Base::Local(1))), vec![field(Base::This, "y").paths()[0].clone(), field(Base::This, "z").paths()[0].clone()]);
        assert!(joined.held_by(&Path::of(Base::Local(3))).is_empty());
    }

    #[test]
    fn an_assigned_local_holds_what_its_value_held_and_nothing_else() {
        let mut h = holding(&[(1, "x"), (2, "y")]);
        h.assigned(Base::Local(2), &Expr::Path(Path::of(Base::Local(1))));
        assert_eq!(h, holding(&[(1, "x"), (2, "x")]));
    }
}
