//! Threads kept in fields (thread handoffs): a private or final `Thread` field that every store
//! of the analysed code gives a thread made for it with one known code (`private final Thread
//! poller = new Thread(() -> poll())`, `new Thread(this, "name")`), or null. Another method of
//! the class starts it later (`poller.start()`), and the code runs from there on: made in a
//! constructor, the thread had no code to hand over where it was made.
//!
//! Only stores whose value is plainly the new thread count (no branch joins at the store or at
//! the code given): any other store leaves the field unknown.

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::field_classes::{fact_field, lambda_made_at};

const THREAD: &str = "Ljava/lang/Thread;";

/// The code a thread made for a field runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadCode {
    /// A lambda or method reference capturing nothing, or the storing object
    /// (`new Thread(this::loop)`): its implementation method.
    Lambda(MethodRef),
    /// The storing object's own `run()` (`new Thread(this)`).
    Holder,
    /// The `run()` of a new object of this class made for the thread (`new Thread(new
    /// Runnable() { ... })`).
    Object(Sym),
}

/// By (declaring class, name) of the field.
pub type FieldThreads = FxHashMap<(Sym, Sym), ThreadCode>;

/// What one store gives a field: a thread running this code, null, or anything else (None).
type Stored = Option<Option<ThreadCode>>;

/// The `Thread` fields of analysed classes that every store gives a thread with the same code
/// (or null). `bodies` are the analysed methods' bodies with their class and whether they are
/// static.
pub fn collect<'b>(table: &ClassTable, bodies: impl ParallelIterator<Item = (Sym, bool, &'b Body)>) -> FieldThreads {
    let seen = bodies
        .fold(FxHashMap::default, |mut seen: FxHashMap<(Sym, Sym), Stored>, (class, is_static, body)| {
            let mut targets: Option<Vec<bool>> = None;
            for (f, before) in body.field_stores(|d| d == THREAD) {
                let Some(key) = fact_field(table, f) else { continue };
                let store = before.map_or(0, |b| b + 1);
                let targets = targets.get_or_insert_with(|| super::cfg::jump_targets(body));
                let holder = (!is_static && class == key.0).then_some(class);
                note(&mut seen, key, stored_value(body, targets, store, holder));
            }
            seen
        })
        .reduce(FxHashMap::default, |mut a, b| {
            for (key, stored) in b {
                note(&mut a, key, stored);
            }
            a
        });
    seen.into_iter().filter_map(|(key, stored)| Some((key, stored??))).collect()
}

/// Joins what one more store gives a field: one code (null aside), or unknown.
fn note(seen: &mut FxHashMap<(Sym, Sym), Stored>, key: (Sym, Sym), stored: Stored) {
    let joined = match seen.get(&key) {
        None => stored,
        Some(known) => join(*known, stored),
    };
    seen.insert(key, joined);
}

fn join(a: Stored, b: Stored) -> Stored {
    match (a?, b?) {
        (None, other) | (other, None) => Some(other),
        (Some(x), Some(y)) => (x == y).then_some(Some(x)),
    }
}

/// What the store at `store` gives its field: null, a thread made just before with known code,
/// or anything else (None). `holder`: the storing method's class, when it is an instance method
/// of the field's class (its `this` is the field's holder).
fn stored_value(body: &Body, targets: &[bool], store: usize, holder: Option<Sym>) -> Stored {
    let insns = &body.insns;
    let before = store.checked_sub(1)?;
    if targets[store] {
        return None;
    }
    match &insns[before] {
        Insn::Const { value: ConstVal::Null, .. } => Some(None),
        Insn::Invoke { method, .. } if makes_thread(method) => {
            // The code is the last argument, or the one before a name given as a constant.
            let descriptor = method.descriptor.as_str();
            let code_at = if descriptor.contains("Ljava/lang/Runnable;)") {
                before.checked_sub(1)?
            } else if descriptor.contains("Ljava/lang/Runnable;Ljava/lang/String;)") && matches!(insns[before.checked_sub(1)?], Insn::Const { .. }) {
                before.checked_sub(2)?
            } else {
                return None;
            };
            if targets[code_at] || targets[before] {
                return None;
            }
            Some(Some(code_made_at(insns, code_at, holder)?))
        }
        _ => None,
    }
}

/// A call making a thread that runs the `Runnable` it is given once started: `Thread`'s
/// constructors, a `ThreadFactory`'s `newThread`, Java 21's `Thread.Builder.unstarted`.
fn makes_thread(method: &MethodRef) -> bool {
    match method.name.as_str() {
        "<init>" => method.class.as_str() == "java.lang.Thread",
        "newThread" | "unstarted" => method.descriptor.as_str() == "(Ljava/lang/Runnable;)Ljava/lang/Thread;",
        _ => false,
    }
}

/// The code the instruction at `at` gives a new thread, if known.
fn code_made_at(insns: &[Insn], at: usize, holder: Option<Sym>) -> Option<ThreadCode> {
    match &insns[at] {
        Insn::Load { slot: 0, wide: false } => holder.map(|_| ThreadCode::Holder),
        Insn::Invoke { method, .. } if method.name.as_str() == "<init>" => Some(ThreadCode::Object(method.class)),
        // A lambda capturing the storing object counts when that object is the field's holder.
        Insn::InvokeDynamic(_) => {
            let (body, captures_this) = lambda_made_at(insns, at)?;
            (!captures_this || holder == Some(body.class)).then_some(ThreadCode::Lambda(body))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_agree_on_one_code_with_nulls_aside() {
        let holder = Some(Some(ThreadCode::Holder));
        let object = Some(Some(ThreadCode::Object(Sym::new("p.Task"))));
        let null: Stored = Some(None);
        assert_eq!(join(holder, null), holder);
        assert_eq!(join(null, holder), holder);
        assert_eq!(join(holder, holder), holder);
        assert_eq!(join(holder, object), None);
        assert_eq!(join(holder, None), None);
        assert_eq!(join(None, null), None);
        assert_eq!(join(null, null), null);
    }
}
