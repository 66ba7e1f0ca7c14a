//! Kotlin's delegated properties whose standard-library delegate keeps the value with no lock
//! (collection-models extension). A delegated property keeps its delegate in a private final
//! field (`parser$delegate`), and its getter and setter ask the delegate; which delegate a field
//! holds is known when every store into it gives one of these (see `facts::collect`):
//!
//! - an unsafe lazy, `lazy(LazyThreadSafetyMode.NONE) { ... }`, which runs its initializer and
//!   keeps the value with no lock (the standard library: it "should not be used from multiple
//!   threads"). Asking it for its value may run the initializer and change the lazy, so it is a
//!   write of the lazy, as a container call is: two threads asking at once may both run the
//!   initializer, or one may find it already cleared. The default lazy (`SYNCHRONIZED`) and
//!   `PUBLICATION` ones are safe;
//! - `Delegates.notNull()`, `Delegates.observable(...)` and `Delegates.vetoable(...)` (the last two
//!   inlined into a subclass of `ObservableProperty` in the caller's module), which keep the value
//!   in a plain field: getting the property reads the delegate, setting it writes the delegate,
//!   as a plain property's getter and setter read and write its field. Setting an `observable`
//!   or `vetoable` one also runs the code it was given, which kotlinc puts in the subclass's
//!   `afterChange` or `beforeChange` ([`observer_callbacks`]): the library's `setValue` calls
//!   them on the setter's thread.

use crate::classfile::model::{Body, Insn, MethodRef, ACC_ABSTRACT, ACC_BRIDGE};
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::models::ContainerAccess;

/// The descriptors of the fields a delegated property's delegate is kept in.
const DELEGATE_FIELDS: &[&str] = &["Lkotlin/Lazy;", "Lkotlin/properties/ReadWriteProperty;"];

/// The facade of `lazy`; its parts (`LazyKt__LazyJVMKt`) hold the same functions.
const LAZY_FACADE: &str = "kotlin.LazyKt";
const LAZY_WITH_MODE: &str = "(Lkotlin/LazyThreadSafetyMode;Lkotlin/jvm/functions/Function0;)Lkotlin/Lazy;";
const MODE: &str = "kotlin.LazyThreadSafetyMode";
const OBSERVABLE_PROPERTY: &str = "kotlin.properties.ObservableProperty";

/// A standard-library delegate that keeps its value with no lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delegate {
    /// `lazy(LazyThreadSafetyMode.NONE) { ... }`.
    UnsafeLazy,
    /// `Delegates.notNull()`.
    PlainProperty,
    /// `Delegates.observable(...)`, `vetoable(...)`: an object of this subclass of
    /// `ObservableProperty`, whose callbacks run when the property is set.
    Observed(Sym),
}

/// Whether a field of descriptor `descriptor` may keep a delegated property's delegate.
pub fn may_keep_delegate(descriptor: &str) -> bool {
    DELEGATE_FIELDS.contains(&descriptor)
}

/// The delegate the instruction at `at` of `body` leaves on the stack, when it is one of these.
pub fn made_at(table: &ClassTable, body: &Body, at: usize) -> Option<Delegate> {
    let Some(Insn::Invoke { method, .. }) = body.insns.get(at) else { return None };
    let (class, name) = (method.class.as_str(), method.name.as_str());
    match name {
        "notNull" if class == "kotlin.properties.Delegates" => Some(Delegate::PlainProperty),
        // `observable` and `vetoable`, inlined: a new object of a subclass the module holds.
        "<init>" if table.is_subtype_of_any(method.class, &[OBSERVABLE_PROPERTY]) => Some(Delegate::Observed(method.class)),
        _ if makes_unsafe_lazy(body, at) => Some(Delegate::UnsafeLazy),
        _ => None,
    }
}

/// Whether instruction `at` of `body` calls `lazy(LazyThreadSafetyMode.NONE, initializer)`. The
/// mode is the last `LazyThreadSafetyMode` constant read before the call, after any earlier
/// `lazy` call: kotlinc reads it just before making the initializer, which reads no mode. A
/// mode not read as a constant there (a parameter) is not taken to be `NONE`.
fn makes_unsafe_lazy(body: &Body, at: usize) -> bool {
    let is_lazy_call = |insn: &Insn| {
        matches!(insn, Insn::Invoke { method, .. }
            if method.name.as_str() == "lazy" && super::kotlin_collections::is_facade_or_part(method.class.as_str(), LAZY_FACADE))
    };
    let Some(Insn::Invoke { method, .. }) = body.insns.get(at) else { return false };
    if !is_lazy_call(&body.insns[at]) || method.descriptor.as_str() != LAZY_WITH_MODE {
        return false;
    }
    let mode = body.insns[..at].iter().rev().take_while(|insn| !is_lazy_call(insn)).find_map(|insn| match insn {
        Insn::GetStatic(f) if f.class.as_str() == MODE => Some(f.name),
        _ => None,
    });
    mode.is_some_and(|m| m.as_str() == "NONE")
}

/// What asking a delegate of kind `delegate` does with the call `named`: asking a lazy for its
/// value (`Lazy.getValue()`) writes an unsafe one; getting a property reads its plain delegate,
/// setting it writes it.
pub fn access(named: &MethodRef, delegate: Delegate) -> Option<ContainerAccess> {
    match (named.class.as_str(), named.name.as_str(), named.descriptor.as_str(), delegate) {
        ("kotlin.Lazy", "getValue", "()Ljava/lang/Object;", Delegate::UnsafeLazy) => Some(ContainerAccess::Write),
        ("kotlin.properties.ReadWriteProperty", "getValue", _, Delegate::PlainProperty | Delegate::Observed(_)) => {
            Some(ContainerAccess::Read)
        }
        ("kotlin.properties.ReadWriteProperty", "setValue", _, Delegate::PlainProperty | Delegate::Observed(_)) => {
            Some(ContainerAccess::Write)
        }
        _ => None,
    }
}

/// Whether `named` sets a delegated property (`ReadWriteProperty.setValue`), which runs an
/// observed delegate's callbacks.
pub fn sets_property(named: &MethodRef) -> bool {
    named.class.as_str() == "kotlin.properties.ReadWriteProperty" && named.name.as_str() == "setValue"
}

/// The callbacks of `class`, a subclass of `ObservableProperty`, that setting its property runs:
/// the `beforeChange` and `afterChange` it declares with code (kotlinc puts the code given to
/// `vetoable` and `observable` there).
pub fn observer_callbacks(table: &ClassTable, class: Sym) -> Vec<MethodRef> {
    let Some(c) = table.get(class) else { return Vec::new() };
    c.methods
        .iter()
        .filter(|m| matches!(m.name.as_str(), "beforeChange" | "afterChange") && m.flags & (ACC_ABSTRACT | ACC_BRIDGE) == 0)
        .map(|m| MethodRef { class, name: m.name, descriptor: m.descriptor })
        .collect()
}

/// Whether `class` is a subclass of `ObservableProperty` (an `observable` or `vetoable`
/// delegate kotlinc made).
pub fn is_observed_delegate(table: &ClassTable, class: Sym) -> bool {
    table.is_subtype_of_any(class, &[OBSERVABLE_PROPERTY])
}

/// Whether `named` may ask a delegate (see [`access`]): checked before the receiver's field is.
pub fn may_ask_delegate(named: &MethodRef) -> bool {
    matches!(named.class.as_str(), "kotlin.Lazy" | "kotlin.properties.ReadWriteProperty")
}
