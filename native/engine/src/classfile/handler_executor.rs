//! What the class reader notes of an `Executor` class of the code's own that posts its tasks
//! to an Android `Handler` (many apps and libraries write one): its `execute(Runnable)` runs
//! them where the handler runs its posts, not on a pool (see `analysis::handoffs`).

use cafebabe::bytecode::{ByteCode, Opcode};

/// `Executor.execute`'s name and descriptor.
pub const EXECUTE: (&str, &str) = ("execute", "(Ljava/lang/Runnable;)V");

/// Whether an `execute(Runnable)`'s code posts its task to a handler (`Handler.post`) and
/// hands it to nothing else: no thread, no other executor. Running it at once is allowed: the
/// usual form does so only when already on the handler's looper.
pub fn posts_to_handler(code: &ByteCode<'_>) -> bool {
    let mut posts = false;
    for (_, op) in &code.opcodes {
        match op {
            Opcode::Invokevirtual(m) if m.class_name == "android/os/Handler" => {
                posts |= matches!(&*m.name_and_type.name, "post" | "postAtFrontOfQueue");
            }
            Opcode::New(class) if class == "java/lang/Thread" => return false,
            Opcode::Invokevirtual(m) | Opcode::Invokeinterface(m, _)
                if matches!(&*m.name_and_type.name, "execute" | "submit" | "schedule") =>
            {
                return false
            }
            _ => {}
        }
    }
    posts
}

/// The handler field of the executor's own object that an `execute(Runnable)` posting to a
/// handler posts to (`mHandler.post(command)`): the executor runs its tasks where the handler
/// the field holds runs its posts. `None` when a post's handler is anything else, or when two
/// posts read different fields.
pub fn posted_field(code: &ByteCode<'_>) -> Option<String> {
    let ops: Vec<&Opcode<'_>> = code.opcodes.iter().map(|(_, op)| op).collect();
    let mut field: Option<String> = None;
    for (at, op) in ops.iter().enumerate() {
        let Opcode::Invokevirtual(m) = op else { continue };
        if m.class_name != "android/os/Handler" || !matches!(&*m.name_and_type.name, "post" | "postAtFrontOfQueue") {
            continue;
        }
        // `aload_0; getfield F; aload_1; invokevirtual Handler.post`.
        let read = match at.checked_sub(3).map(|i| &ops[i..at]) {
            Some([Opcode::Aload(0), Opcode::Getfield(f), Opcode::Aload(1)]) if f.name_and_type.descriptor == "Landroid/os/Handler;" => {
                f.name_and_type.name.to_string()
            }
            _ => return None,
        };
        if field.as_ref().is_some_and(|f| *f != read) {
            return None;
        }
        field = Some(read);
    }
    field
}
