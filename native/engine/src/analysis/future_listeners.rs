//! Guava's future listeners (an extension, with the thread handoffs; `docs/analysis.md`): the
//! calls that register code to run when a `ListenableFuture` completes, on the `Executor` they
//! are given. `future.addListener(runnable, executor)`, `Futures.addCallback(future, callback,
//! executor)` and `Futures.transform(future, function, executor)` (and their `FluentFuture`
//! forms, `transformAsync`, `catching`, `catchingAsync`) are registrations
//! (`handoffs::HandoffModel::Registration`): the code runs on the executor's thread, or, on a
//! direct executor or given none, on the thread that completes the future, not the registering
//! one. Matched in Guava's package or a shaded copy of it: the library need not be on the
//! classpath.

use crate::classfile::model::MethodRef;
use crate::hierarchy::ClassTable;

const PACKAGE: &str = "com.google.common.util.concurrent.";
const LISTENABLE_FUTURE: &str = "com.google.common.util.concurrent.ListenableFuture";

/// Guava's own futures, known by name when Guava is not on the classpath to say they are
/// `ListenableFuture`s.
const FUTURES: &[&str] = &[
    "ListenableFuture",
    "AbstractFuture",
    "SettableFuture",
    "FluentFuture",
    "ListenableFutureTask",
    "ForwardingListenableFuture",
    "ListenableScheduledFuture",
];

/// The static helpers of `Futures`, and the same methods of a `FluentFuture`, that run code given
/// to them when the future completes.
const COMPLETION_HELPERS: &[&str] = &["addCallback", "transform", "transformAsync", "catching", "catchingAsync"];

/// Whether `named` registers code to run when a Guava future completes.
pub fn registers_listener(table: &ClassTable, named: &MethodRef) -> bool {
    // Asked of every call: the class's name is searched only for the few method names.
    let simple = || guava_simple_name(named.class.as_str());
    match named.name.as_str() {
        "addListener" => {
            named.descriptor.as_str() == "(Ljava/lang/Runnable;Ljava/util/concurrent/Executor;)V"
                && (simple().is_some_and(|s| FUTURES.contains(&s)) || table.is_subtype_of_any(named.class, &[LISTENABLE_FUTURE]))
        }
        name => COMPLETION_HELPERS.contains(&name) && matches!(simple(), Some("Futures" | "FluentFuture")),
    }
}

/// The simple name of a class of Guava's concurrency package (`Futures`), in Guava itself or in
/// a shaded copy (`org.example.shaded.com.google.common.util.concurrent.Futures`).
fn guava_simple_name(class: &str) -> Option<&str> {
    let at = class.rfind(PACKAGE)?;
    let in_package = at == 0 || class.as_bytes()[at - 1] == b'.';
    let simple = &class[at + PACKAGE.len()..];
    (in_package && !simple.contains('.')).then_some(simple)
}

#[cfg(test)]
mod tests {
    use super::guava_simple_name;

    #[test]
    fn guava_classes_are_known_in_shaded_copies_too() {
        assert_eq!(guava_simple_name("com.google.common.util.concurrent.Futures"), Some("Futures"));
        assert_eq!(guava_simple_name("org.shaded.com.google.common.util.concurrent.Futures"), Some("Futures"));
        assert_eq!(guava_simple_name("org.shadedcom.google.common.util.concurrent.Futures"), None);
        assert_eq!(guava_simple_name("com.google.common.util.concurrent.internal.Futures"), None);
        assert_eq!(guava_simple_name("com.example.Futures"), None);
    }
}
