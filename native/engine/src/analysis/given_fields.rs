//! Fields that hold an object a class's constructor was given (foreign-locks extension): a
//! final field that the class's constructors set from one of their parameters, and nothing
//! else sets (`FileHandleSink(val fileHandle: FileHandle)`, `Itr(Cache cache) { this.cache =
//! cache; }`). Its object is another's, as the outer object an inner class's `this$0` holds
//! is: a lock taken on it (or on a path through it) says that object is shared, not the
//! holder, and an access through it is not an access to the holder's own fields.
//!
//! Decided from the declaring class's own constructors, which its module analyses, so a
//! module analysed alone decides as the whole build does; a class's code names it only for its
//! own fields (see [`is_own_field_path`]).

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::domain::{Base, Path, Step};

/// The given fields, by (declaring class, name).
pub type GivenFields = FxHashSet<(Sym, Sym)>;

/// The given fields of the analysed code (`bodies`: the method bodies of the analysed classes,
/// with their method). Only constructors are read: javac and kotlinc set a final instance field
/// nowhere else, and the JVM lets no other code do it (JVMS 6.5 `putfield`, class files of Java 9
/// and later).
pub fn given_fields<'a>(table: &ClassTable, bodies: impl ParallelIterator<Item = (&'a MethodRef, &'a Body)>) -> GivenFields {
    #[derive(Default)]
    struct Found {
        /// By field: whether every store seen so far sets it from a constructor's parameter.
        stores: FxHashMap<(Sym, Sym), bool>,
        /// Classes with a constructor that calls another of its class's (`this(new Object())`
        /// may give the object itself).
        delegating: FxHashSet<Sym>,
    }
    let found = bodies
        .filter(|(m, _)| m.name.as_str() == "<init>")
        .fold(Found::default, |mut found, (m, body)| {
            if delegates(m, body) {
                found.delegating.insert(m.class);
            }
            for (at, insn) in body.insns.iter().enumerate() {
                let Insn::PutField(f) = insn else { continue };
                let key = (table.resolve_field(f.class, f.name), f.name);
                let given = key.0 == m.class && stores_parameter(m, body, at);
                *found.stores.entry(key).or_insert(true) &= given;
            }
            found
        })
        .reduce(Found::default, |mut a, b| {
            for (key, given) in b.stores {
                *a.stores.entry(key).or_insert(true) &= given;
            }
            a.delegating.extend(b.delegating);
            a
        });
    let final_instance = |(class, name): (Sym, Sym)| {
        let field = table.get(class).and_then(|h| h.field(name));
        field.is_some_and(|f| f.flags & (ACC_FINAL | ACC_STATIC) == ACC_FINAL)
    };
    found
        .stores
        .into_iter()
        .filter(|&(key, given)| given && !found.delegating.contains(&key.0) && final_instance(key))
        .map(|(key, _)| key)
        .collect()
}

/// Whether `path` is a field of the method's own object (of class `class`), or a path through
/// one: from `this`, through neither the outer object (`this$0`) nor a field of the class
/// holding an object its constructor was given.
pub fn is_own_field_path(path: &Path, class: Sym, given: &GivenFields) -> bool {
    path.base == Base::This && !path.steps.first().is_some_and(|s| s.is_outer_instance() || is_given(s, class, given))
}

/// Whether `path` goes from `this` through a field of the class holding an object its
/// constructor was given.
pub fn is_through_given_field(path: &Path, class: Sym, given: &GivenFields) -> bool {
    path.base == Base::This && path.steps.first().is_some_and(|s| is_given(s, class, given))
}

fn is_given(step: &Step, class: Sym, given: &GivenFields) -> bool {
    matches!(*step, Step::Field { class: declaring, name } if declaring == class && given.contains(&(declaring, name)))
}

/// Whether constructor `m` calls another constructor of its class on its own object: more
/// calls to its class's constructors than objects of its class it makes.
fn delegates(m: &MethodRef, body: &Body) -> bool {
    let made = body.insns.iter().filter(|i| matches!(i, Insn::New { class } if *class == m.class)).count();
    let calls = body
        .insns
        .iter()
        .filter(|i| matches!(i, Insn::Invoke { method, .. } if method.class == m.class && method.name.as_str() == "<init>"))
        .count();
    calls > made
}

/// Whether the store at `at` in constructor `m` stores one of its parameters, as loaded (or
/// checked for null by `Objects.requireNonNull` or Guava's `checkNotNull` on the way), from a
/// local the constructor never assigns.
fn stores_parameter(m: &MethodRef, body: &Body, at: usize) -> bool {
    let Some(before) = at.checked_sub(1).map(|i| body.before_casts(i)) else { return false };
    let loaded = match &body.insns[before] {
        Insn::Load { slot, .. } => Some(*slot),
        Insn::Invoke { method, .. } if is_null_check(method) => checked_load(body, before),
        _ => None,
    };
    let is_parameter = |slot: u16| crate::classfile::descriptor::param_at_slot(m.descriptor.as_str(), slot).is_some();
    loaded.is_some_and(|slot| is_parameter(slot) && !super::back_references::reassigns_slot(body, slot))
}

/// The local a null check at `call` checks: loaded right before it, or before its message
/// constant.
fn checked_load(body: &Body, call: usize) -> Option<u16> {
    let load = |i: usize| match body.insns.get(i) {
        Some(Insn::Load { slot, .. }) => Some(*slot),
        _ => None,
    };
    let before = call.checked_sub(1)?;
    match body.insns[before] {
        Insn::Const { .. } => load(before.checked_sub(1)?),
        _ => load(before),
    }
}

/// `Objects.requireNonNull(x)` or `(x, message)`, Guava's `Preconditions.checkNotNull(x)` or
/// `(x, message)`: each returns its argument.
fn is_null_check(method: &MethodRef) -> bool {
    matches!(
        (method.class.as_str(), method.name.as_str()),
        ("java.util.Objects", "requireNonNull") | ("com.google.common.base.Preconditions", "checkNotNull")
    ) && method.descriptor.as_str().starts_with("(Ljava/lang/Object;")
}
