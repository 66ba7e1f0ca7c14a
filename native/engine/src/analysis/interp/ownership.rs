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
/// reaches) is owned at most as that place.
pub(super) fn escape(st: &mut State, p: &Path, bound: Own) {
    if bound.is_owned() || own(st, p).join(bound) == own(st, p) {
        return;
    }
    let joined = st.escaped.get(p).map_or(bound, |b| b.join(bound));
    st.escaped.set(p, Some(joined));
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
