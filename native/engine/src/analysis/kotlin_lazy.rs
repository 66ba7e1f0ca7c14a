//! Kotlin's unsafe lazies (collection-models extension): `lazy(LazyThreadSafetyMode.NONE) { ... }`
//! makes a lazy that runs its initializer and keeps the value with no lock (the standard library's
//! `UnsafeLazyImpl`: "should not be used from multiple threads"). Asking one for its value may
//! run the initializer and change the lazy, so it is a write of the lazy, as a container call is:
//! two threads asking at once may run the initializer twice, or find it already cleared. A
//! property delegated to one (`val parser by lazy(NONE) { ... }`) keeps it in a private final
//! field (`parser$delegate`); a field every store gives such a lazy is known from the stores
//! (see `facts::collect`). The default lazy (`SYNCHRONIZED`) and `PUBLICATION` ones are safe.

use crate::classfile::model::{Body, Insn, MethodRef};

/// The facade of `lazy`; its parts (`LazyKt__LazyJVMKt`) hold the same functions.
const FACADE: &str = "kotlin.LazyKt";
const LAZY_WITH_MODE: &str = "(Lkotlin/LazyThreadSafetyMode;Lkotlin/jvm/functions/Function0;)Lkotlin/Lazy;";
const MODE: &str = "kotlin.LazyThreadSafetyMode";

/// The descriptor of a field holding a lazy.
pub const LAZY_FIELD: &str = "Lkotlin/Lazy;";

/// Whether instruction `at` of `body` calls `lazy(LazyThreadSafetyMode.NONE, initializer)`. The
/// mode is the last `LazyThreadSafetyMode` constant read before the call, after any earlier
/// `lazy` call: kotlinc reads it just before making the initializer, which reads no mode. A
/// mode not read as a constant there (a parameter) is not taken to be `NONE`.
pub fn makes_unsafe_lazy(body: &Body, at: usize) -> bool {
    let is_lazy_call = |insn: &Insn| {
        matches!(insn, Insn::Invoke { method, .. }
            if method.name.as_str() == "lazy" && super::kotlin_collections::is_facade_or_part(method.class.as_str(), FACADE))
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

/// Whether `named` asks a lazy for its value (`Lazy.getValue()`, the `value` property).
pub fn asks_value(named: &MethodRef) -> bool {
    named.class.as_str() == "kotlin.Lazy" && named.name.as_str() == "getValue" && named.descriptor.as_str() == "()Ljava/lang/Object;"
}
