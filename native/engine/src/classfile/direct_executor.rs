//! What the class reader notes of code that runs a task at once, in the calling thread: a
//! direct executor's `execute(Runnable)` (`command.run()`, Guava's `DirectExecutor`) and a
//! lambda body `r -> r.run()`. An executor made of either runs its tasks before `execute`
//! returns (see `analysis::handoffs`).

use cafebabe::bytecode::{ByteCode, Opcode};
use cafebabe::constant_pool::MemberRef;

/// Whether a method of this descriptor and code does nothing but run its one parameter, a
/// `Runnable`: `aload; invokeinterface Runnable.run; return`, after null checks of the
/// parameter (Kotlin's `Intrinsics.checkNotNullParameter`, `Objects.requireNonNull(task)`,
/// Guava's `checkNotNull(task)`, whose result may be what is run).
pub fn runs_its_task(descriptor: &str, is_static: bool, code: &ByteCode<'_>) -> bool {
    if descriptor != "(Ljava/lang/Runnable;)V" {
        return false;
    }
    let slot = if is_static { 0 } else { 1 };
    // Only the rare methods of this descriptor get here.
    let ops: Vec<&Opcode<'_>> = code.opcodes.iter().map(|(_, op)| op).collect();
    let mut ops = &ops[..];
    while let Some(rest) = null_check(ops, slot) {
        ops = rest;
    }
    let ops = match ops {
        [Opcode::Aload(s), rest @ ..] if *s == slot => rest,
        _ => return false,
    };
    let ops = match ops {
        [Opcode::Invokestatic(m), Opcode::Checkcast(_), rest @ ..] if is_null_check(m) => rest,
        [Opcode::Invokestatic(m), rest @ ..] if is_null_check(m) && m.name_and_type.descriptor.ends_with(")Ljava/lang/Runnable;") => rest,
        _ => ops,
    };
    match ops {
        [Opcode::Invokeinterface(m, _), Opcode::Return] => {
            m.class_name == "java/lang/Runnable" && m.name_and_type.name == "run" && m.name_and_type.descriptor == "()V"
        }
        _ => false,
    }
}

/// The code after a null check of the local at `slot` that `ops` starts with: Kotlin's
/// parameter check (`aload; ldc name; invokestatic Intrinsics.checkNotNullParameter`), or a
/// checking call whose result is dropped (`aload; invokestatic requireNonNull; pop`, javac's
/// `aload; invokevirtual getClass; pop`).
fn null_check<'a, 'b>(ops: &'a [&'a Opcode<'b>], slot: u16) -> Option<&'a [&'a Opcode<'b>]> {
    match ops {
        [Opcode::Aload(s), Opcode::Ldc(_) | Opcode::LdcW(_), Opcode::Invokestatic(m), rest @ ..]
            if *s == slot && m.class_name == "kotlin/jvm/internal/Intrinsics" =>
        {
            matches!(m.name_and_type.name.as_ref(), "checkNotNullParameter" | "checkParameterIsNotNull").then_some(rest)
        }
        [Opcode::Aload(s), Opcode::Invokestatic(m), Opcode::Pop, rest @ ..] if *s == slot && is_null_check(m) => Some(rest),
        [Opcode::Aload(s), Opcode::Invokevirtual(m), Opcode::Pop, rest @ ..]
            if *s == slot && m.class_name == "java/lang/Object" && m.name_and_type.name == "getClass" =>
        {
            Some(rest)
        }
        _ => None,
    }
}

/// A static call that checks its first argument is not null and returns it:
/// `Objects.requireNonNull`, Guava's `Preconditions.checkNotNull` (or a shaded copy's).
fn is_null_check(m: &MemberRef<'_>) -> bool {
    let class = m.class_name.as_ref();
    let checks = match m.name_and_type.name.as_ref() {
        "requireNonNull" => class == "java/util/Objects",
        "checkNotNull" => class.ends_with("/Preconditions"),
        _ => false,
    };
    checks && m.name_and_type.descriptor.starts_with("(Ljava/lang/Object;")
}
