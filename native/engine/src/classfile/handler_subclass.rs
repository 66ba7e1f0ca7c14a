//! What the class reader notes of a constructor of a direct `Handler` subclass: the looper its
//! `super(...)` call makes the handler on, where the handler's `handleMessage` runs the messages
//! sent to it (see `analysis::handoffs`).

use cafebabe::bytecode::{ByteCode, Opcode};

use super::descriptor::param_widths;
use super::model::HandlerLooper;

const HANDLER: &str = "android/os/Handler";

/// The looper the constructor with this code and descriptor gives `Handler`'s constructor, in
/// the forms the compilers emit for `super(looper)`, `super(Looper.getMainLooper())`,
/// `super(thread.getLooper())` and `super()`; `None` for any other (a looper computed some
/// other way, a constructor that calls `this(...)`).
pub fn super_looper(code: &ByteCode<'_>, descriptor: &str) -> Option<HandlerLooper> {
    let ops: Vec<&Opcode<'_>> = code.opcodes.iter().map(|(_, op)| op).collect();
    let call = ops.iter().position(|op| matches!(op, Opcode::Invokespecial(m) if m.class_name == HANDLER && m.name_and_type.name == "<init>"))?;
    // A handler the constructor makes of its own, not its super call.
    if ops[..call].iter().any(|op| matches!(op, Opcode::New(class) if class == HANDLER)) {
        return None;
    }
    let Opcode::Invokespecial(init) = ops[call] else { return None };
    let super_descriptor = &*init.name_and_type.descriptor;
    if !super_descriptor.starts_with("(Landroid/os/Looper;") {
        return Some(HandlerLooper::Calling);
    }
    // The arguments after the looper (a callback, `async`): one plain load or constant each.
    let mut at = call;
    for _ in 1..param_widths(super_descriptor).len() {
        at = at.checked_sub(1)?;
        if !matches!(ops[at], Opcode::Aload(_) | Opcode::Iload(_) | Opcode::AconstNull | Opcode::Iconst0 | Opcode::Iconst1) {
            return None;
        }
    }
    // The looper, computed just after the object itself is loaded.
    match &ops[..at] {
        [.., Opcode::Aload(0), Opcode::Aload(slot)] => param_at_slot(descriptor, *slot).map(HandlerLooper::Param),
        [.., Opcode::Aload(0), Opcode::Invokestatic(m)] if m.class_name == "android/os/Looper" => match &*m.name_and_type.name {
            "getMainLooper" => Some(HandlerLooper::Main),
            "myLooper" => Some(HandlerLooper::Calling),
            _ => None,
        },
        [.., Opcode::Aload(0), Opcode::Aload(_) | Opcode::Getstatic(_), Opcode::Invokevirtual(m)]
            if m.class_name == "android/os/HandlerThread" && m.name_and_type.name == "getLooper" =>
        {
            Some(HandlerLooper::Worker)
        }
        _ => None,
    }
}

/// The index of the parameter a constructor (an instance method: `this` in slot 0) keeps in
/// local `slot`.
fn param_at_slot(descriptor: &str, slot: u16) -> Option<u8> {
    let mut next = 1;
    for (i, wide) in param_widths(descriptor).into_iter().enumerate() {
        if next == slot {
            return u8::try_from(i).ok();
        }
        next += if wide { 2 } else { 1 };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::param_at_slot;

    #[test]
    fn slots_count_wide_parameters_twice() {
        assert_eq!(param_at_slot("(Landroid/os/Looper;)V", 1), Some(0));
        assert_eq!(param_at_slot("(JLandroid/os/Looper;)V", 3), Some(1));
        assert_eq!(param_at_slot("(Lp/Outer;Landroid/os/Looper;)V", 2), Some(1));
        assert_eq!(param_at_slot("(I)V", 2), None);
    }
}
