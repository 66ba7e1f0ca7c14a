//! Section 7: what annotations mean for a method, using the lookup rules of
//! the class table (L1/L2/L3).

use crate::classfile::model::*;
use crate::hierarchy::{ClassTable, L1Hit};
use crate::sym::Sym;

use super::android;
use super::content_observers::OnChange;
use super::registrations;
use super::domain::Threads;
use super::extensions::Extensions;

const UI_THREAD_ANNOTATIONS: &[&str] = &["MainThread", "UiThread", "OnBind", "OnEvent", "OnMount", "OnUnbind", "OnUnmount"];

/// User configuration that affects annotation meaning.
#[derive(Debug, Default, Clone)]
pub struct AnnotationConfig {
    /// `threadsafe-aliases`: extra names counted as `@ThreadSafe`.
    pub thread_safe_aliases: Vec<String>,
    /// Android background callbacks and annotations (an extension, see `android`).
    pub android_threads: bool,
    /// A binder's interface methods run on the binder thread pool (with `android_threads`).
    pub binder_services: bool,
    /// A servlet's, filter's or controller's request methods run on request threads
    /// (`request_threads`).
    pub request_threads: bool,
    /// A `Thread` subclass's own `run()` runs on that thread (`thread_runs`).
    pub thread_runs: bool,
    /// A `synchronized` override of certain library methods is no evidence (`copied_synchronized`).
    pub copied_synchronized: bool,
}

fn enable_checks_false_only(a: &Annotation) -> bool {
    a.element_count == 1
        && a.elements.len() == 1
        && a.elements[0].0.as_str() == "enableChecks"
        && a.elements[0].1 == AnnotationValue::Bool(false)
}

impl AnnotationConfig {
    /// A thread-safe annotation (7.3 row 1): `ThreadSafe` or an alias, but not
    /// `ThreadSafe(enableChecks = false)`.
    pub fn is_thread_safe(&self, a: &Annotation) -> bool {
        is_thread_safe_annotation(a, &self.thread_safe_aliases)
    }
}

/// [`AnnotationConfig::is_thread_safe`] with the aliases given.
pub fn is_thread_safe_annotation(a: &Annotation, aliases: &[String]) -> bool {
    (a.matches("ThreadSafe") && !enable_checks_false_only(a)) || aliases.iter().any(|alias| a.matches(alias))
}

pub struct MethodFacts {
    pub initial_threads: Threads,
    /// Marked thread-safe via L1 (and own class not `@NotThreadSafe`).
    pub marked_thread_safe: bool,
    /// `@ThreadSafe` directly on the method or an overridden method.
    pub thread_safe_method: bool,
    /// `@ThreadSafe(enableChecks = false)` by rule L1: assumed thread-safe, not analysed.
    pub assumed_thread_safe: bool,
    /// The `run()` of a `Thread` subclass (`thread_runs`): it runs on the thread the object is,
    /// one thread per object, so its accesses to the object's own fields are a started
    /// thread's, as if handed to it (see `AccessKey::started`). Likewise a background callback
    /// (with the Android models): an `AsyncTask` runs its `doInBackground` once, an
    /// `IntentService` its `onHandleIntent` for one intent after the other (not a
    /// `ContentProvider`'s data methods, which run alongside themselves).
    pub runs_own_thread: bool,
}

/// `on_change`: where `m`, an observer's `onChange`, runs when that is not the main thread (see
/// `content_observers`).
pub fn method_facts(table: &ClassTable, config: &AnnotationConfig, m: &MethodRef, header: &MethodHeader, on_change: Option<OnChange>) -> MethodFacts {
    // Every method's facts ask rule L1 five questions: one walk of its supertypes answers all.
    let [ts, assumed, background_hit, ui_hit, confined_hit] = table.lookup_l1_each(
        m,
        [
            &|a| config.is_thread_safe(a),
            &|a| a.matches("ThreadSafe") && enable_checks_false_only(a),
            &|a| android::BACKGROUND_ANNOTATIONS.iter().any(|n| a.matches(n)),
            &|a| UI_THREAD_ANNOTATIONS.iter().any(|n| a.matches(n)),
            &|a| a.matches("ThreadConfined"),
        ],
    );
    let own_class_not_thread_safe = table.get(m.class).map_or(false, |c| c.has_annotation("NotThreadSafe"));
    let marked_thread_safe = ts.is_some() && !own_class_not_thread_safe;
    let thread_safe_method = matches!(ts, Some(L1Hit::Direct | L1Hit::Override));
    let binder = if config.android_threads && config.binder_services { android::binder_call(table, m) } else { None };
    let background = background_evidence(table, config, m, background_hit, binder.is_some() || on_change.is_some());
    // A registered callback object's callback runs where its registration says (`registrations.rs`).
    let registered = if config.android_threads { registrations::registered_callback(table, m) } else { None };
    // A background callback runs one call at a time for its object (a task runs once, a
    // service handles its intents or work one after the other, a binder its one-way calls, a
    // framework's looper the calls of a network callback registered where racer does not see):
    // as a thread's own `run()`.
    let runs_own_thread = config.thread_runs
        && (is_thread_subclass_run(table, m)
            || (config.android_threads
                && (android::is_serial_background_callback(table, m)
                    || binder == Some(android::BinderCall::OneWay)
                    || on_change == Some(OnChange::Worker)
                    || registered == Some(registrations::Unseen::FrameworkThread))));
    let serves_requests = config.request_threads && super::requests::is_request_method(table, m, header);
    let initial_threads = if background == Some(Background::Method) || serves_requests {
        Threads::AnyThread
    // 4.1, except for a registered callback, found at its registration as a `Runnable`'s `run()`.
    } else if (is_android_lifecycle(table, m) && registered.is_none())
        || registered == Some(registrations::Unseen::Main)
        || ui_hit.is_some()
        || confined_hit.is_some()
    {
        Threads::AnyThreadButSelf
    } else if synchronized_as_evidence(table, config, m, header) || marked_thread_safe || background.is_some() {
        Threads::AnyThread
    } else {
        Threads::NoThread
    };
    MethodFacts { initial_threads, marked_thread_safe, thread_safe_method, assumed_thread_safe: assumed.is_some(), runs_own_thread }
}

/// Whether `m` is `synchronized`, and says so of its own accord: with `copied_synchronized`, an
/// override of one of [`SYNCHRONIZED_BY_DECLARATION`] copies its declaration's modifier, as the
/// subclasses of `FilterInputStream` and the exceptions that skip their stack trace do, and is
/// no evidence that other threads use the object. Its monitor still protects what it accesses.
fn synchronized_as_evidence(table: &ClassTable, config: &AnnotationConfig, m: &MethodRef, header: &MethodHeader) -> bool {
    let copied = || {
        SYNCHRONIZED_BY_DECLARATION.iter().any(|&(class, name, descriptor)| {
            m.name.as_str() == name && m.descriptor.as_str() == descriptor && table.is_subtype_of_any(m.class, &[class])
        })
    };
    header.flags & ACC_SYNCHRONIZED != 0 && !(config.copied_synchronized && copied())
}

/// Library methods declared `synchronized` for reasons of their own, not for the objects of
/// their subclasses to be shared: `InputStream`'s mark and reset (streams are read by one thread
/// at a time), `Throwable`'s cause and stack trace (set once as the exception is made).
const SYNCHRONIZED_BY_DECLARATION: &[(&str, &str, &str)] = &[
    ("java.io.InputStream", "mark", "(I)V"),
    ("java.io.InputStream", "reset", "()V"),
    ("java.lang.Throwable", "fillInStackTrace", "()Ljava/lang/Throwable;"),
    ("java.lang.Throwable", "initCause", "(Ljava/lang/Throwable;)Ljava/lang/Throwable;"),
    ("java.lang.Throwable", "getCause", "()Ljava/lang/Throwable;"),
];

/// Whether `m` is `run()` of a strict subclass of `java.lang.Thread`: the code a started
/// thread runs, on its own object.
fn is_thread_subclass_run(table: &ClassTable, m: &MethodRef) -> bool {
    m.name.as_str() == "run"
        && m.descriptor.as_str() == "()V"
        && m.class.as_str() != "java.lang.Thread"
        && table.is_subtype_of_any(m.class, &["java.lang.Thread"])
}

#[derive(PartialEq)]
enum Background {
    /// A background callback, or a background annotation on the method or one it overrides:
    /// stronger than the main-thread rules (`onHandleWork` is also an `on*` override).
    Method,
    /// A background annotation on the class or a supertype: weaker than a main-thread
    /// annotation on the method.
    Class,
}

/// Android models (an extension): a method that may run off the main thread. `annotated` is
/// rule L1's answer for the background annotations; `framework_thread`, whether a binder object
/// serves `m` (`binder_services`), or it is an observer's `onChange` run off the main thread.
fn background_evidence(table: &ClassTable, config: &AnnotationConfig, m: &MethodRef, annotated: Option<L1Hit>, framework_thread: bool) -> Option<Background> {
    if !config.android_threads {
        return None;
    }
    if android::is_background_callback(table, m) || framework_thread {
        return Some(Background::Method);
    }
    match annotated? {
        L1Hit::Direct | L1Hit::Override => Some(Background::Method),
        L1Hit::ClassLevel => Some(Background::Class),
    }
}

/// 4.1: an `on*` method (not `onHandleIntent`) that is, or overrides, a method of a
/// class in an `android*` package.
fn is_android_lifecycle(table: &ClassTable, m: &MethodRef) -> bool {
    let name = m.name.as_str();
    if !name.starts_with("on") || name == "onHandleIntent" {
        return false;
    }
    let params = m.params();
    table
        .find_in_supertypes(m.class, |c| {
            let h = table.get(c)?;
            (h.package().starts_with("android")
                && h.methods.iter().any(|om| om.name == m.name && om.param_types() == params))
            .then_some(())
        })
        .is_some()
}

/// `Initializer` (L2) or a constructor.
pub fn is_initializer(table: &ClassTable, m: &MethodRef) -> bool {
    m.name.as_str() == "<init>" || table.lookup_l2(m, &|a| a.matches("Initializer"))
}

/// A lambda's body, as the compilers name it: javac's `lambda$run$0`, kotlinc's `run$lambda$0`
/// (`run$lambda-0` before Kotlin 1.8) for the lambdas it compiles to `invokedynamic` (SAM
/// conversions of Java interfaces, and every lambda with `-Xlambdas=indy`, Kotlin 2's default).
pub fn is_lambda_body_name(name: &str) -> bool {
    name.starts_with("lambda$") || name.contains("$lambda$") || name.contains("$lambda-")
}

/// A helper a compiler writes for callers of the method it serves: javac's accessor of a
/// private member for a nested class (`access$108`), kotlinc's default-argument helper
/// (`bump$default`) and the body of an open suspend function (`work$suspendImpl`, which
/// `work` calls). Its accesses are its caller's own (the `synthetic_helpers` extension).
pub fn is_compiler_helper_name(name: &str) -> bool {
    name.starts_with("access$") || name.ends_with("$default") || name.ends_with("$suspendImpl")
}

/// 8.2 and 4.3 for one method: named with `$` by its compiler (lambda bodies, accessors,
/// default-argument helpers), so neither analysed for itself nor reported on. With
/// `kotlin_internal`, a Kotlin `internal` function is source code although its name carries its
/// module's (`findTask$kotlinx_coroutines_core`): kotlinc marks its own helpers synthetic, and
/// not these.
pub fn is_compiler_named(class: &ClassHeader, m: &MethodHeader, ext: Extensions) -> bool {
    is_synthetic_name(m.name) && !(ext.kotlin_internal && is_kotlin_internal(class, m))
}

/// A method's name as its source gives it: a Kotlin internal function's without its module's
/// suffix (`updateIndexLocked$kotlinx_coroutines_core` is `updateIndexLocked`), for the rules
/// that read names.
pub fn source_name<'m>(class: &ClassHeader, m: &'m MethodHeader, ext: Extensions) -> &'m str {
    let name = m.name.as_str();
    match name.rsplit_once('$') {
        Some((source, _)) if ext.kotlin_internal && is_kotlin_internal(class, m) => source,
        _ => name,
    }
}

/// A Kotlin `internal` function or property accessor: public in the class file, but callable by
/// its module's code only, under a name that carries the module's (`findTask$kotlinx_coroutines_core`).
pub fn is_kotlin_internal(class: &ClassHeader, m: &MethodHeader) -> bool {
    let name = m.name.as_str();
    m.flags & ACC_SYNTHETIC == 0 && name.contains('$') && !is_lambda_body_name(name) && class.is_kotlin()
}

/// A Kotlin `internal` function marked `@PublishedApi`: public in the class file under its source
/// name, so that the module's public inline functions may call it. Code of other modules calls it
/// only through those functions' inlined bodies, copies of calls the module's own code makes
/// ("effectively public", Kotlin's reference, where only inline functions may use it).
pub fn is_published_internal(class: &ClassHeader, m: &MethodHeader) -> bool {
    m.flags & ACC_SYNTHETIC == 0 && m.has_annotation("kotlin.PublishedApi") && class.is_kotlin()
}

/// 8.2 and 4.3: names of synthetic methods that are never analysed.
pub fn is_synthetic_name(name: Sym) -> bool {
    let n = name.as_str();
    (n.contains('$') && n != "<init>" && n != "<clinit>") || n.starts_with("_UL_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_bodies_of_both_compilers() {
        for name in ["lambda$run$0", "lambda$new$1", "submit$lambda$0", "start$lambda$1$lambda$0", "submit$lambda-0"] {
            assert!(is_lambda_body_name(name), "{name}");
        }
        for name in ["run", "access$get", "submit$default", "getLambda"] {
            assert!(!is_lambda_body_name(name), "{name}");
        }
    }

    #[test]
    fn accessors_and_default_argument_helpers_are_compiler_helpers() {
        for name in ["access$108", "access$000", "access$getCount$p", "bump$default", "launch$default", "work$suspendImpl"] {
            assert!(is_compiler_helper_name(name), "{name}");
        }
        for name in ["lambda$run$0", "$values", "run", "default", "$jacocoInit", "access"] {
            assert!(!is_compiler_helper_name(name), "{name}");
        }
    }
}
