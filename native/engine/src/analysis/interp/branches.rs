//! Branch conditions (5.3): a tested `tryLock` result or main-thread query
//! refines the state on each edge.

use crate::classfile::model::*;

use super::super::domain::*;
use super::locks::{assume_lock, assume_main};
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// Returns the states on the taken edge and on the fall-through edge.
    pub(super) fn branch(&mut self, st: &mut State, kind: IfKind) -> (State, State) {
        // (value expression, jump-taken means the value is `taken_bool`)
        let (subject, taken_bool): (Option<Expr>, Option<bool>) = match kind {
            IfKind::Zero(cmp) | IfKind::Null(cmp) => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                let b = match cmp {
                    Cmp::Eq => Some(false),
                    Cmp::Ne => Some(true),
                    Cmp::Other => None,
                };
                (Some(v), b)
            }
            IfKind::Two(cmp) => {
                let rhs = pop(st, false);
                let lhs = pop(st, false);
                self.read_expr(st, &lhs);
                self.read_expr(st, &rhs);
                let (v, c) = match (&lhs, &rhs) {
                    (e, Expr::Const(ConstVal::Int(c))) | (Expr::Const(ConstVal::Int(c)), e) => (Some(e.clone()), Some(*c)),
                    (e, Expr::Const(ConstVal::Null)) | (Expr::Const(ConstVal::Null), e) => (Some(e.clone()), Some(0)),
                    _ => (None, None),
                };
                let b = match (cmp, c) {
                    (Cmp::Eq, Some(c)) => Some(c != 0),
                    (Cmp::Ne, Some(c)) => Some(c == 0),
                    _ => None,
                };
                (v, b)
            }
        };
        let mut taken = st.clone();
        let mut fall = std::mem::replace(st, State { threads: Threads::NoThread, locks: 0, own: PathMap::default(), attrs: PathMap::default(), stack: Vec::new() });
        if let (Some(Expr::Path(p)), Some(b)) = (subject, taken_bool) {
            match fall.attrs.get(&p) {
                Some(Attr::LockHeld) => {
                    assume_lock(&mut taken, b);
                    assume_lock(&mut fall, !b);
                }
                Some(Attr::OnMainThread) => {
                    assume_main(&mut taken, b);
                    assume_main(&mut fall, !b);
                }
                _ => {}
            }
        }
        (taken, fall)
    }
}
