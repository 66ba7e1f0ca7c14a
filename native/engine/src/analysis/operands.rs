//! Which instruction left each argument of a call, found by walking the operand stack forward
//! through straight-line code, one entry per slot. An argument made by a `new C(...)` is
//! taken as made by its constructor call. Where code joins (a jump target, a handler), the
//! stack is forgotten: an argument pushed before it is unknown, never taken for another.

use rustc_hash::FxHashMap;

use crate::classfile::descriptor::{is_wide, params, return_kind};
use crate::classfile::model::{Body, IfKind, Insn, InvokeKind};

/// The instruction that left each declared argument (the receiver not counted) of every call
/// `wanted` picks, by the call's index; for a `putfield` it picks, its object and its value.
/// `None` for an operand whose maker is unknown.
pub fn argument_makers(body: &Body, wanted: impl Fn(usize) -> bool) -> FxHashMap<usize, Vec<Option<usize>>> {
    let targets = super::cfg::jump_targets(body);
    let mut out = FxHashMap::default();
    let mut stack: Vec<Option<usize>> = Vec::new();
    for (at, insn) in body.insns.iter().enumerate() {
        if targets[at] {
            stack.clear();
        }
        let pop = |n: usize, stack: &mut Vec<Option<usize>>| {
            for _ in 0..n {
                stack.pop();
            }
        };
        let push = |n: usize, stack: &mut Vec<Option<usize>>| stack.extend(std::iter::repeat(Some(at)).take(n));
        let width = |wide: bool| if wide { 2 } else { 1 };
        let field_width = |descriptor: &str| width(is_wide(descriptor));
        match insn {
            Insn::Nop | Insn::Iinc { .. } | Insn::CheckCast => {}
            Insn::Const { wide, .. } | Insn::Load { wide, .. } => push(width(*wide), &mut stack),
            Insn::ClassConst { .. } | Insn::New { .. } => push(1, &mut stack),
            Insn::Store { wide, .. } => pop(width(*wide), &mut stack),
            Insn::ArrayLoad { wide } => {
                pop(2, &mut stack);
                push(width(*wide), &mut stack);
            }
            Insn::ArrayStore { wide } => pop(2 + width(*wide), &mut stack),
            Insn::Op { args, wide_args, result } => {
                pop((0..*args).map(|i| width(wide_args >> i & 1 == 1)).sum(), &mut stack);
                push(result.map_or(0, width), &mut stack);
            }
            Insn::Pop | Insn::MonitorEnter | Insn::MonitorExit => pop(1, &mut stack),
            Insn::Pop2 => pop(2, &mut stack),
            Insn::Dup => duplicate(&mut stack, 1, 0),
            Insn::DupX1 => duplicate(&mut stack, 1, 1),
            Insn::DupX2 => duplicate(&mut stack, 1, 2),
            Insn::Dup2 => duplicate(&mut stack, 2, 0),
            Insn::Dup2X1 => duplicate(&mut stack, 2, 1),
            Insn::Dup2X2 => duplicate(&mut stack, 2, 2),
            Insn::Swap => {
                let n = stack.len();
                if n >= 2 {
                    stack.swap(n - 1, n - 2);
                } else {
                    stack.clear();
                }
            }
            Insn::GetField(f) => {
                pop(1, &mut stack);
                push(field_width(f.descriptor.as_str()), &mut stack);
            }
            Insn::PutField(f) => {
                let value = field_width(f.descriptor.as_str());
                if wanted(at) {
                    let n = stack.len();
                    let operands = if n > value { vec![stack[n - value - 1], stack[n - 1]] } else { vec![None, None] };
                    out.insert(at, operands);
                }
                pop(1 + value, &mut stack);
            }
            Insn::GetStatic(f) => push(field_width(f.descriptor.as_str()), &mut stack),
            Insn::PutStatic(f) => pop(field_width(f.descriptor.as_str()), &mut stack),
            Insn::Invoke { kind, method } => {
                let descriptor = method.descriptor.as_str();
                let mut args: Vec<Option<usize>> = Vec::new();
                for p in params(descriptor).collect::<Vec<_>>().into_iter().rev() {
                    let top = stack.last().copied().flatten();
                    pop(field_width(p), &mut stack);
                    args.push(top);
                }
                args.reverse();
                if wanted(at) {
                    out.insert(at, args);
                }
                if *kind != InvokeKind::Static {
                    let receiver = stack.pop().flatten();
                    // The object a constructor call finishes is made by that call.
                    if method.name.as_str() == "<init>" {
                        if let Some(new) = receiver.filter(|&r| matches!(body.insns[r], Insn::New { .. })) {
                            for slot in stack.iter_mut().filter(|s| **s == Some(new)) {
                                *slot = Some(at);
                            }
                        }
                    }
                }
                push(return_kind(descriptor).map_or(0, width), &mut stack);
            }
            Insn::InvokeDynamic(call) => {
                let descriptor = call.descriptor.as_str();
                pop(params(descriptor).map(field_width).sum(), &mut stack);
                push(return_kind(descriptor).map_or(0, width), &mut stack);
            }
            Insn::NewArray { dims } => {
                pop(*dims as usize, &mut stack);
                push(1, &mut stack);
            }
            Insn::ArrayLength | Insn::InstanceOf => {
                pop(1, &mut stack);
                push(1, &mut stack);
            }
            Insn::If { kind, .. } => pop(if matches!(kind, IfKind::Two(_)) { 2 } else { 1 }, &mut stack),
            // Nothing falls through to the next instruction.
            Insn::Goto { .. } | Insn::Return { .. } | Insn::Athrow | Insn::Switch { .. } | Insn::Jsr { .. } | Insn::Ret => stack.clear(),
        }
    }
    out
}

/// `dup`, `dup_x1`, `dup2_x2` and the rest: copies the top `count` slots below the `below`
/// slots under them. A stack too short (code entered at a join) is forgotten.
fn duplicate(stack: &mut Vec<Option<usize>>, count: usize, below: usize) {
    let n = stack.len();
    if n < count + below {
        stack.clear();
        return;
    }
    let top: Vec<Option<usize>> = stack[n - count..].to_vec();
    let at = n - count - below;
    stack.splice(at..at, top);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::model::{ConstVal, MethodRef};
    use crate::sym::Sym;

    fn invoke(kind: InvokeKind, class: &str, name: &str, descriptor: &str) -> Insn {
        let method = crate::interned::method_ref(MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) });
        Insn::Invoke { kind, method }
    }

    fn body(insns: Vec<Insn>) -> Body {
        let lines = vec![0; insns.len()];
        Body { insns, lines, max_locals: 5, handlers: Vec::new() }
    }

    #[test]
    fn each_argument_is_made_where_its_expression_ends() {
        // this(Executors.newSingleThreadExecutor(), Executors.newFixedThreadPool(3), new Main(), 7L)
        let insns = vec![
            Insn::Load { slot: 0, wide: false },
            invoke(InvokeKind::Static, "java.util.concurrent.Executors", "newSingleThreadExecutor", "()Ljava/util/concurrent/ExecutorService;"),
            Insn::Const { value: ConstVal::Int(3), wide: false },
            invoke(InvokeKind::Static, "java.util.concurrent.Executors", "newFixedThreadPool", "(I)Ljava/util/concurrent/ExecutorService;"),
            Insn::New { class: Sym::new("p.Main") },
            Insn::Dup,
            invoke(InvokeKind::Special, "p.Main", "<init>", "()V"),
            Insn::Const { value: ConstVal::Other, wide: true },
            invoke(InvokeKind::Special, "p.App", "<init>", "(Ljava/util/concurrent/Executor;Ljava/util/concurrent/Executor;Ljava/util/concurrent/Executor;J)V"),
            Insn::Return { value: None },
        ];
        let made = argument_makers(&body(insns), |at| at == 8);
        assert_eq!(made[&8], vec![Some(1), Some(3), Some(6), Some(7)]);
    }

    #[test]
    fn an_argument_from_before_a_join_is_unknown() {
        // this(flag ? a : b, c): the first argument's maker is either branch's.
        let insns = vec![
            Insn::Load { slot: 0, wide: false },
            Insn::Load { slot: 1, wide: false },
            Insn::If { kind: IfKind::Zero(crate::classfile::model::Cmp::Eq), target: 5 },
            Insn::Load { slot: 2, wide: false },
            Insn::Goto { target: 6 },
            Insn::Load { slot: 3, wide: false },
            Insn::Load { slot: 4, wide: false },
            invoke(InvokeKind::Special, "p.App", "<init>", "(Ljava/lang/Object;Ljava/lang/Object;)V"),
        ];
        let made = argument_makers(&body(insns), |_| true);
        assert_eq!(made[&7], vec![None, Some(6)]);
    }

    #[test]
    fn a_field_store_is_given_its_object_and_its_new_value() {
        // this.task = new Worker(this)
        let field = crate::interned::field_ref(crate::classfile::model::FieldRef {
            class: Sym::new("p.Owner"),
            name: Sym::new("task"),
            descriptor: Sym::new("Lp/Worker;"),
        });
        let insns = vec![
            Insn::Load { slot: 0, wide: false },
            Insn::New { class: Sym::new("p.Worker") },
            Insn::Dup,
            Insn::Load { slot: 0, wide: false },
            invoke(InvokeKind::Special, "p.Worker", "<init>", "(Lp/Owner;)V"),
            Insn::PutField(field),
            Insn::Return { value: None },
        ];
        let made = argument_makers(&body(insns), |at| at == 4 || at == 5);
        assert_eq!(made[&4], vec![Some(3)]);
        assert_eq!(made[&5], vec![Some(0), Some(4)]);
    }
}
