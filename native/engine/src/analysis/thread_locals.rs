//! Objects kept in `ThreadLocal`s (thread-kept-objects extension). A `ThreadLocal` gives each
//! thread its own value: an object the code only ever makes to be one thread's value (`local.set(new
//! Chain())`, `ThreadLocal.withInitial(Chain::new)`, an `initialValue()` override returning a new
//! one) is used by that thread alone, as an object of a `@ThreadConfined` class is. Its fields are
//! then safe steps (5.1): a lock it takes on another object (a cache it fills) says nothing of its
//! own state.
//!
//! Decided per class, from every allocation the analysed code makes of it, for classes other
//! modules cannot make (not public): one allocation of another kind, or none seen, leaves the
//! class as any other, and so does a field of another class declared of its type, which may keep
//! one thread's object where others reach it (`last = local.get()`). Not followed: the object
//! given away later through a field of a wider type, an array or a call, or `this` given away by
//! its own methods.

use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::{ClassTable, Origin};
use crate::sym::Sym;

const THREAD_LOCAL: &str = "java.lang.ThreadLocal";

/// An allocation of an analysed class, as the code that makes it uses the new object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// Given to a `ThreadLocal`: its `set`, `withInitial`, or returned by `initialValue()`.
    ThreadValue(Sym),
    /// Returned by a lambda body, which is a thread's value if the lambda is given to
    /// `ThreadLocal.withInitial`.
    ReturnedBy(Sym, &'static MethodRef),
    /// Anything else.
    Other(Sym),
}

/// The allocations `body` (of `method`) makes of analysed classes, and the lambda bodies it gives
/// to `ThreadLocal.withInitial`.
pub fn allocations(table: &ClassTable, method: &MethodRef, body: &Body) -> (Vec<Made>, Vec<&'static MethodRef>) {
    let mut made = Vec::new();
    let mut initial_lambdas = Vec::new();
    let analysed = |class: Sym| matches!(table.origin(class), Some(Origin::Analysed));
    // An override returning its own type (`Counted initialValue()`, beside the bridge) too.
    let initial_value = method.name.as_str() == "initialValue"
        && method.descriptor.as_str().starts_with("()L")
        && table.is_subtype_of_any(method.class, &[THREAD_LOCAL]);
    let lambda_body = super::annotations::is_lambda_body_name(method.name.as_str());
    for (at, insn) in body.insns.iter().enumerate() {
        match insn {
            Insn::New { class } if analysed(*class) => {
                let class = *class;
                // The constructor call completes the object: what follows it says where it goes.
                let next = constructed_at(body, at, class).and_then(|init| next_after_casts(body, init + 1));
                made.push(match next.map(|i| (i, &body.insns[i])) {
                    Some((_, Insn::Invoke { method: set, .. })) if sets_thread_value(set) => Made::ThreadValue(class),
                    Some((_, Insn::Return { .. })) if initial_value => Made::ThreadValue(class),
                    Some((_, Insn::Return { .. })) if lambda_body => Made::ReturnedBy(class, interned(method)),
                    Some((i, Insn::Store { slot, .. })) if stored_then_set(body, i, *slot) => Made::ThreadValue(class),
                    _ => Made::Other(class),
                });
            }
            // `ThreadLocal.withInitial(Chain::new)` makes objects through a constructor's handle,
            // `withInitial(() -> new Chain())` through a lambda body.
            Insn::InvokeDynamic(call) => {
                let Some(target) = call.lambda.as_ref() else { continue };
                let to_initial = matches!(body.insns.get(at + 1), Some(Insn::Invoke { method, .. }) if is_with_initial(method));
                if target.name.as_str() == "<init>" && analysed(target.class) {
                    made.push(if to_initial { Made::ThreadValue(target.class) } else { Made::Other(target.class) });
                } else if to_initial {
                    initial_lambdas.push(interned(target));
                }
            }
            _ => {}
        }
    }
    (made, initial_lambdas)
}

/// The fields of an object type `body` stores into, as (class named, field descriptor), but the
/// outer object an inner one keeps (`this$0`): `this` given away by its own class's code.
pub fn typed_stores(body: &Body) -> impl Iterator<Item = (Sym, Sym)> + '_ {
    body.insns.iter().filter_map(|insn| match insn {
        Insn::PutField(f) | Insn::PutStatic(f) if f.descriptor.as_str().starts_with('L') && !f.name.as_str().starts_with("this$") => {
            Some((f.class, f.descriptor))
        }
        _ => None,
    })
}

/// The classes whose every allocation `made` lists makes a thread's value, of the classes other
/// modules cannot make (not public, or with `kotlin_internal` a Kotlin `internal` class), that
/// no field of another class declared of their type keeps (`typed_stores`: the stores of the
/// analysed code, as [`typed_stores`] gives them).
pub fn confined_classes(
    table: &ClassTable,
    made: &[Made],
    initial_lambdas: &FxHashSet<&'static MethodRef>,
    typed_stores: &FxHashSet<(Sym, Sym)>,
    kotlin_internal: bool,
) -> FxHashSet<Sym> {
    let mut by_class: FxHashMap<Sym, bool> = FxHashMap::default();
    for m in made {
        let (class, thread_value) = match *m {
            Made::ThreadValue(c) => (c, true),
            Made::ReturnedBy(c, lambda) => (c, initial_lambdas.contains(lambda)),
            Made::Other(c) => (c, false),
        };
        *by_class.entry(class).or_insert(true) &= thread_value;
    }
    let hidden = |class: Sym| table.get(class).is_some_and(|h| h.hidden_from_other_modules(kotlin_internal));
    // A field of the class's own (a link between two of one thread's objects) keeps it confined.
    let kept_by_others = |class: Sym| {
        let descriptor = format!("L{};", class.as_str().replace('.', "/"));
        typed_stores.iter().any(|(owner, d)| *owner != class && d.as_str() == descriptor)
    };
    by_class
        .into_iter()
        .filter(|&(class, confined)| confined && hidden(class) && !kept_by_others(class))
        .map(|(class, _)| class)
        .collect()
}

/// The constructor call that completes the `new` of `class` at `at`: the first one after it that
/// no later `new` of the class (an argument's) takes.
fn constructed_at(body: &Body, at: usize, class: Sym) -> Option<usize> {
    let mut pending = 0usize;
    for (i, insn) in body.insns.iter().enumerate().skip(at + 1) {
        match insn {
            Insn::New { class: c } if *c == class => pending += 1,
            Insn::Invoke { kind: InvokeKind::Special, method } if method.class == class && method.name.as_str() == "<init>" => {
                if pending == 0 {
                    return Some(i);
                }
                pending -= 1;
            }
            _ => {}
        }
    }
    None
}

fn next_after_casts(body: &Body, mut at: usize) -> Option<usize> {
    while matches!(body.insns.get(at), Some(Insn::CheckCast | Insn::Nop)) {
        at += 1;
    }
    (at < body.insns.len()).then_some(at)
}

fn sets_thread_value(m: &MethodRef) -> bool {
    m.name.as_str() == "set" && m.descriptor.as_str() == "(Ljava/lang/Object;)V" && m.class.as_str() == THREAD_LOCAL
}

fn is_with_initial(m: &MethodRef) -> bool {
    m.name.as_str() == "withInitial" && m.class.as_str() == THREAD_LOCAL
}

/// How far after the store of a new object its `set` is looked for: the statement after it, as
/// code that makes a thread's value writes it (a bound, so that a long method with many locals
/// is not walked again for each).
const SET_WITHIN: usize = 16;

/// Whether the local `slot`, stored at `store`, is given to `ThreadLocal.set` before it is stored
/// again: `chain = new Chain(); local.set(chain);`, also through the copies of the local that
/// kotlinc makes for an inlined lambda (`Chain().also { local.set(it) }`).
fn stored_then_set(body: &Body, store: usize, slot: u16) -> bool {
    let mut holding = vec![slot];
    let window = body.insns.iter().enumerate().skip(store + 1).take(SET_WITHIN);
    let mut copied_to = None;
    for (at, insn) in window {
        match insn {
            Insn::Load { slot: s, .. } if holding.contains(s) => match body.insns.get(at + 1) {
                Some(Insn::Invoke { method, .. }) if sets_thread_value(method) => return true,
                Some(Insn::Store { slot: copy, .. }) => copied_to = Some(*copy),
                _ => {}
            },
            Insn::Store { slot: s, .. } if copied_to == Some(*s) => {
                holding.push(*s);
                copied_to = None;
            }
            Insn::Store { slot: s, .. } | Insn::Iinc { slot: s } if holding.contains(s) => holding.retain(|h| h != s),
            _ => {}
        }
        if holding.is_empty() {
            return false;
        }
    }
    false
}

fn interned(m: &MethodRef) -> &'static MethodRef {
    crate::interned::method_ref(*m)
}
