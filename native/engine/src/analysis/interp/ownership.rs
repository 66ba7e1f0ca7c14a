//! Ownership lookups (3.4, 6.3).

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
    best.map_or(Own::Unowned, |(_, v)| v)
}

pub(super) fn own_e(st: &State, e: &Expr) -> Own {
    match e {
        Expr::Path(p) => own(st, p),
        Expr::Const(_) => OWNED,
        Expr::Compound(c) => c.own,
    }
}
