//! Kotlin suspend functions and lambdas (suspend resumes extension). kotlinc compiles each to
//! a state machine: a `switch` on the continuation's `label` picks where to run from, case 0
//! from the start and case k from just after the k-th suspension point, once the locals saved
//! in the continuation are read back. The code after a suspension point is also reached from
//! the call itself, when it returns without suspending, in the state it was made in: the locks
//! held (a `Mutex` taken by `withLock` before its block suspends), the locals as they were
//! (`this`, which the resumed entry reads back from the continuation). A resumed coroutine
//! comes back in that state, so only the start is followed (the default throws: no coroutine
//! runs it).

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;

use super::models;

/// The targets a `switch` at `pc` is followed to: all of them, or, for the `switch` that
/// starts a state machine, its start.
pub(super) fn followed_targets<'t>(table: &ClassTable, insns: &[Insn], pc: usize, targets: &'t [u32], from_zero: bool) -> &'t [u32] {
    if from_zero && targets.len() > 2 && is_state_machine_switch(table, insns, pc) {
        // The case of label 0 is the first target.
        return &targets[..1];
    }
    targets
}

/// Whether the `switch` at `pc` switches on the `label` of a continuation, read just before.
fn is_state_machine_switch(table: &ClassTable, insns: &[Insn], pc: usize) -> bool {
    let Some(Insn::GetField(f)) = pc.checked_sub(1).and_then(|p| insns.get(p)) else { return false };
    f.name.as_str() == "label" && f.descriptor.as_str() == "I" && models::is_continuation(table, f.class)
}
