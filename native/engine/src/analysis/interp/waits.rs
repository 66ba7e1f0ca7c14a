//! Handoffs waited for at once (thread handoffs extension): `t.start(); t.join();`,
//! `executor.submit(task).get()`, `CompletableFuture.runAsync(r).join()`,
//! `Thread.startVirtualThread(r).join()`; and a thread run rather than started,
//! `new Thread(r).run()`. The handed code runs
//! while the caller waits for it, as a call made there would: on the caller's thread, under
//! its locks. Only when nothing but keeping the handle in a local comes in between: what the
//! caller does meanwhile (start another thread, write a field) runs alongside the handed code.

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;

/// Whether the handle returned by the handoff call at `pc` is waited for at once, from the
/// stack or through one local: a future's `get()` or `join()`, or the `join()` of a thread
/// started at once (`Thread.startVirtualThread(task).join()`), without a timeout.
pub(super) fn handle_waited_at_once(table: &ClassTable, insns: &[Insn], pc: usize) -> bool {
    let next = match (insns.get(pc + 1), insns.get(pc + 2)) {
        (Some(Insn::Store { slot, .. }), Some(Insn::Load { slot: loaded, .. })) if slot == loaded => pc + 3,
        _ => pc + 1,
    };
    matches!(insns.get(next), Some(Insn::Invoke { method, .. }) if waits_for_end(table, method))
}

/// Whether a call waits, without a timeout, for the code behind its receiver to end: a
/// future's `get()` or `join()`, or a thread's `join()`.
pub(super) fn waits_for_end(table: &ClassTable, method: &MethodRef) -> bool {
    (matches!(method.name.as_str(), "get" | "join")
        && method.descriptor.as_str().starts_with("()")
        && table.is_subtype_of_any(method.class, &["java.util.concurrent.Future"]))
        || (method.name.as_str() == "join" && method.descriptor.as_str() == "()V" && is_thread(table, method.class))
}

/// Whether the thread started by the `start()` call at `pc`, its receiver loaded from a local,
/// is joined at once (`join()` without a timeout).
pub(super) fn thread_joined_at_once(table: &ClassTable, insns: &[Insn], pc: usize) -> bool {
    let Some(Insn::Load { slot, .. }) = pc.checked_sub(1).and_then(|p| insns.get(p)) else { return false };
    matches!(insns.get(pc + 1), Some(Insn::Load { slot: loaded, .. }) if loaded == slot)
        && matches!(insns.get(pc + 2), Some(Insn::Invoke { method, .. })
            if method.name.as_str() == "join" && method.descriptor.as_str() == "()V" && is_thread(table, method.class))
}

/// Whether the thread made by the constructor call at `pc` is kept in a local, then started
/// and joined at once: `Thread t = new Thread(r); t.start(); t.join();`.
pub(super) fn made_thread_joined_at_once(table: &ClassTable, insns: &[Insn], pc: usize) -> bool {
    let Some(Insn::Store { slot, .. }) = insns.get(pc + 1) else { return false };
    matches!(insns.get(pc + 2), Some(Insn::Load { slot: loaded, .. }) if loaded == slot)
        && matches!(insns.get(pc + 3), Some(Insn::Invoke { method, .. })
            if method.name.as_str() == "start" && method.descriptor.as_str() == "()V" && is_thread(table, method.class))
        && thread_joined_at_once(table, insns, pc + 3)
}

/// Whether the thread made by the constructor call at `pc` is run at once, not started, from
/// the stack or through one local: `new Thread(r).run()`, `Thread t = new Thread(r); t.run();`.
/// Its `run()` runs the code in the calling thread.
pub(super) fn made_thread_run_at_once(table: &ClassTable, insns: &[Insn], pc: usize) -> bool {
    let next = match (insns.get(pc + 1), insns.get(pc + 2)) {
        (Some(Insn::Store { slot, .. }), Some(Insn::Load { slot: loaded, .. })) if slot == loaded => pc + 3,
        _ => pc + 1,
    };
    matches!(insns.get(next), Some(Insn::Invoke { method, .. }) if is_thread_run(table, method))
}

/// `Thread.run()`, called as a method: the thread's code runs in the calling thread.
fn is_thread_run(table: &ClassTable, method: &MethodRef) -> bool {
    method.name.as_str() == "run" && method.descriptor.as_str() == "()V" && is_thread(table, method.class)
}

fn is_thread(table: &ClassTable, class: crate::sym::Sym) -> bool {
    table.is_subtype_of_any(class, &["java.lang.Thread"])
}
