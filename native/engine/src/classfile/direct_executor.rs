//! What the class reader notes of code that runs a task at once, in the calling thread: a
//! direct executor's `execute(Runnable)` (`command.run()`, Guava's `DirectExecutor`) and a
//! lambda body `r -> r.run()`. An executor made of either runs its tasks before `execute`
//! returns (see `analysis::handoffs`).

use cafebabe::bytecode::{ByteCode, Opcode};

/// Whether a method of this descriptor and code does nothing but run its one parameter, a
/// `Runnable`: `aload; invokeinterface Runnable.run; return`.
pub fn runs_its_task(descriptor: &str, is_static: bool, code: &ByteCode<'_>) -> bool {
    if descriptor != "(Ljava/lang/Runnable;)V" {
        return false;
    }
    let slot = if is_static { 0 } else { 1 };
    let mut ops = code.opcodes.iter().map(|(_, op)| op);
    match (ops.next(), ops.next(), ops.next(), ops.next()) {
        (Some(Opcode::Aload(s)), Some(Opcode::Invokeinterface(m, _)), Some(Opcode::Return), None) => {
            *s == slot && m.class_name == "java/lang/Runnable" && m.name_and_type.name == "run" && m.name_and_type.descriptor == "()V"
        }
        _ => false,
    }
}
