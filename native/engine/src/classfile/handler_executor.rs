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
