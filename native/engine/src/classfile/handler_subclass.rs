//! What the class reader notes of a constructor of a direct `Handler` subclass: the looper its
//! `super(...)` call (or the constructor its `this(...)` call runs) makes the handler on, where
//! the handler's `handleMessage` runs the messages sent to it (see `analysis::handoffs`).

use cafebabe::attributes::AttributeData;
use cafebabe::bytecode::Opcode;
use cafebabe::ClassFile;

use super::descriptor::{method_descriptor_text, param_at_slot, param_widths};
use super::model::HandlerLooper;

const HANDLER: &str = "android/os/Handler";

/// The looper each method of a direct `Handler` subclass makes its handler on (`None` for a
/// method that is no constructor, or whose looper is not known): read from the constructor's
/// `super(...)` call, or through the constructor of the same class its `this(...)` call runs.
pub fn constructor_loopers(cf: &ClassFile<'_>) -> Vec<Option<HandlerLooper>> {
    let calls: Vec<Option<(Delegation, Vec<&Opcode<'_>>)>> = cf
        .methods
        .iter()
        .map(|m| {
            let code = m.attributes.iter().find_map(|a| match &a.data {
                AttributeData::Code(c) => c.bytecode.as_ref(),
                _ => None,
            })?;
            if m.name != "<init>" {
                return None;
            }
            let ops: Vec<&Opcode<'_>> = code.opcodes.iter().map(|(_, op)| op).collect();
            Some((delegation(&ops, &cf.this_class)?, ops))
        })
        .collect();
    let descriptors: Vec<String> = cf.methods.iter().map(|m| method_descriptor_text(&m.descriptor)).collect();
    let mut loopers: Vec<Option<HandlerLooper>> = vec![None; calls.len()];
    // The `super(...)` calls first, then each round the `this(...)` calls whose target is known:
    // a chain of n constructors takes n rounds (a cycle, which the verifier rejects, none).
    for _ in 0..=calls.len() {
        let mut changed = false;
        for (i, call) in calls.iter().enumerate() {
            let (Some((delegation, ops)), None) = (call, loopers[i]) else { continue };
            let descriptor = &descriptors[i];
            let looper = match delegation {
                // `super()`, `super(callback)`: the current thread's looper.
                Delegation::Super { callee, .. } if !callee.starts_with("(Landroid/os/Looper;") => Some(HandlerLooper::Calling),
                Delegation::Super { call, callee } => argument_looper(ops, *call, callee, 0, descriptor),
                Delegation::This { call, callee } => {
                    let target = (0..calls.len()).find(|&t| cf.methods[t].name == "<init>" && descriptors[t] == *callee);
                    match target.and_then(|t| loopers[t]) {
                        Some(HandlerLooper::Param(k)) => argument_looper(ops, *call, callee, usize::from(k), descriptor),
                        known => known,
                    }
                }
            };
            if looper.is_some() {
                loopers[i] = looper;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    loopers
}

/// The constructor call a constructor starts with: `super(...)` on `Handler`, or `this(...)`.
/// `call` is the call's index among the instructions, `callee` the descriptor it names.
enum Delegation {
    Super { call: usize, callee: String },
    This { call: usize, callee: String },
}

fn delegation(ops: &[&Opcode<'_>], own: &str) -> Option<Delegation> {
    let call = ops.iter().position(|op| {
        matches!(op, Opcode::Invokespecial(m) if (m.class_name == HANDLER || m.class_name == own) && m.name_and_type.name == "<init>")
    })?;
    let Opcode::Invokespecial(init) = ops[call] else { return None };
    // A handler (or an object of this class) the constructor makes of its own, not its own
    // delegation.
    if ops[..call].iter().any(|op| matches!(op, Opcode::New(class) if *class == init.class_name)) {
        return None;
    }
    let callee = init.name_and_type.descriptor.to_string();
    Some(if init.class_name == HANDLER { Delegation::Super { call, callee } } else { Delegation::This { call, callee } })
}

/// The looper the argument at index `k` of the constructor call at `call` (with descriptor
/// `callee`) gives, in a constructor with `descriptor`, in the forms the compilers emit for
/// `looper` (a parameter), `Looper.getMainLooper()`, `context.getMainLooper()`,
/// `thread.getLooper()` and `Looper.myLooper()`; `None` for any other (a looper computed some
/// other way, arguments around it that are more than one plain load or constant each).
fn argument_looper(ops: &[&Opcode<'_>], call: usize, callee: &str, k: usize, descriptor: &str) -> Option<HandlerLooper> {
    let simple = |op: &Opcode<'_>| matches!(op, Opcode::Aload(_) | Opcode::Iload(_) | Opcode::AconstNull | Opcode::Iconst0 | Opcode::Iconst1);
    // The arguments after the looper: one plain load or constant each.
    let mut at = call;
    for _ in k + 1..param_widths(callee).len() {
        at = at.checked_sub(1)?;
        if !simple(ops[at]) {
            return None;
        }
    }
    // kotlinc checks a platform call's result before passing it on.
    if let [.., Opcode::Dup, Opcode::Ldc(_) | Opcode::LdcW(_), Opcode::Invokestatic(m)] = &ops[..at] {
        if m.class_name == "kotlin/jvm/internal/Intrinsics" && m.name_and_type.name == "checkNotNullExpressionValue" {
            at -= 3;
        }
    }
    // The looper, then the arguments before it (an inner class's outer instance), just after
    // the object itself is loaded.
    let (looper, len) = match &ops[..at] {
        [.., Opcode::Aload(slot)] => (param_at_slot(descriptor, *slot).and_then(|k| u8::try_from(k).ok()).map(HandlerLooper::Param), 1),
        [.., Opcode::Invokestatic(m)] if m.class_name == "android/os/Looper" => match &*m.name_and_type.name {
            "getMainLooper" => (Some(HandlerLooper::Main), 1),
            "myLooper" => (Some(HandlerLooper::Calling), 1),
            _ => (None, 1),
        },
        [.., Opcode::Aload(_) | Opcode::Getstatic(_), Opcode::Invokevirtual(m)]
            if m.class_name == "android/os/HandlerThread" && m.name_and_type.name == "getLooper" =>
        {
            (Some(HandlerLooper::Worker), 2)
        }
        // A context's main looper (`super(context.getMainLooper())`): the class is not looked
        // up here, the name and type are the platform's.
        [.., Opcode::Aload(_), Opcode::Invokevirtual(m) | Opcode::Invokeinterface(m, _)]
            if m.name_and_type.name == "getMainLooper" && m.name_and_type.descriptor == "()Landroid/os/Looper;" =>
        {
            (Some(HandlerLooper::Main), 2)
        }
        _ => (None, 0),
    };
    let before = at.checked_sub(len + k)?;
    let object_first = matches!(ops.get(before.checked_sub(1)?), Some(Opcode::Aload(0)));
    (object_first && ops[before..at - len].iter().all(|op| simple(op))).then_some(looper).flatten()
}
