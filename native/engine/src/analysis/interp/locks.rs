//! Lock and thread effects (5.8, 6.1-6.2) on the state.

use super::super::domain::*;
use super::super::models::LockEffect;
use super::ownership::own_e;
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// 2.3: before an unlock, values still on the stack are recorded as read
    /// (under the lock) and become plain values, so they are not read again later.
    pub(super) fn flush_pending_reads(&mut self, st: &mut State) {
        for k in 0..st.stack.len() {
            let e = match &st.stack[k] {
                Slot::Val(e) if !e.paths().is_empty() => e.clone(),
                _ => continue,
            };
            self.read_expr(st, &e);
            let flushed = Expr::opaque(Vec::new(), attr_e(st, &e), own_e(st, &e));
            st.stack[k] = Slot::Val(flushed);
        }
    }
}

pub(super) fn apply_lock_thread(st: &mut State) {
    if st.threads != Threads::AnyThreadButSelf {
        st.threads = Threads::AnyThread;
    }
}

pub(super) fn apply_lock_effect(st: &mut State, effect: LockEffect) {
    match effect {
        LockEffect::Acquire => st.locks = (st.locks + 1).min(LOCK_TOP),
        LockEffect::Release => st.locks = st.locks.saturating_sub(1),
        LockEffect::TryAcquire => {}
    }
    apply_lock_thread(st);
}

pub(super) fn assume_lock(st: &mut State, held: bool) {
    if held {
        st.locks = (st.locks + 1).min(LOCK_TOP);
    } else {
        st.locks = st.locks.saturating_sub(1);
    }
}

pub(super) fn assume_main(st: &mut State, on_main: bool) {
    st.threads = if on_main { Threads::AnyThreadButSelf } else { Threads::AnyThread };
}
