//! Section 6: the models of library methods, kept as data tables.
//!
//! Matching, unless a table says otherwise: the callee's (statically resolved)
//! class or one of its supertypes has the given name, and the method name is listed.

use crate::classfile::model::MethodRef;
use crate::hierarchy::ClassTable;

use super::extensions::Extensions;

/// A row: classes (any of, subtypes included) and method names.
pub struct Row {
    pub classes: &'static [&'static str],
    pub methods: &'static [&'static str],
}

const LOCK_CLASSES: &[&str] = &[
    "java.util.concurrent.locks.Lock",
    "java.util.concurrent.locks.ReentrantLock",
    "java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock",
    "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock",
];

/// Extension: read-mode locks exclude writers only, so a write under one is unprotected.
const READ_LOCK_CLASSES: &[&str] = &["java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock"];
const STAMPED_LOCK: &[&str] = &["java.util.concurrent.locks.StampedLock"];
const READ_WRITE_LOCK: &[&str] = &["java.util.concurrent.locks.ReadWriteLock"];

/// Extension (lock precision): Guava's `Monitor`, a lock entered and left by its own methods,
/// named by its package's end: shaded copies keep it (`android.media.internal.guava_common.…`).
const GUAVA_MONITOR: &str = "common.util.concurrent.Monitor";

/// Extension (suspend resumes): Kotlin's coroutine lock, taken by `lock(owner)` (a suspend
/// call), released by `unlock(owner)`; `withLock` is inlined into its callers as these calls.
const COROUTINE_MUTEX: &[&str] = &["kotlinx.coroutines.sync.Mutex"];

/// The classes of Kotlin continuations: every suspend function's and lambda's state machine
/// keeps its `label` (and the locals it saves) in a subclass of one of them.
const CONTINUATIONS: &[&str] = &[
    "kotlin.coroutines.jvm.internal.BaseContinuationImpl",
    "kotlin.coroutines.jvm.internal.ContinuationImpl",
    "kotlin.coroutines.jvm.internal.RestrictedContinuationImpl",
    "kotlin.coroutines.jvm.internal.SuspendLambda",
    "kotlin.coroutines.jvm.internal.RestrictedSuspendLambda",
];

/// Whether a class is a Kotlin continuation (a suspend function's or lambda's state machine).
pub fn is_continuation(table: &ClassTable, class: crate::sym::Sym) -> bool {
    table.is_subtype_of_any(class, CONTINUATIONS)
}

/// Whether `super_class` makes its subclass the state machine of a suspend function (not of a
/// suspend lambda, whose body is code of its own).
pub fn is_function_continuation(super_class: crate::sym::Sym) -> bool {
    matches!(super_class.as_str(), "kotlin.coroutines.jvm.internal.ContinuationImpl" | "kotlin.coroutines.jvm.internal.RestrictedContinuationImpl")
}

const BUCK_RW_UPDATE_LOCK: &str = "com.facebook.buck.util.concurrent.AutoCloseableReadWriteUpdateLock";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockEffect {
    Acquire,
    Release,
    TryAcquire,
    /// Extension: read mode of a read/write lock.
    AcquireRead,
    /// Extension: `tryLock()` of a read lock, `StampedLock.tryReadLock()`: read mode where
    /// the answer says the lock was taken.
    TryAcquireRead,
    ReleaseRead,
    /// Extension: `StampedLock.unlock(stamp)`, read or write mode.
    ReleaseAny,
}

fn is_thread_utils(class: &str) -> bool {
    class.ends_with("ThreadUtils") || class.ends_with("ThreadUtil")
}

/// 6.1: lock models; with the lock-precision extension, subclasses too and read modes.
pub fn lock_effect(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> Option<LockEffect> {
    if ext.suspend_resumes {
        if let Some(effect) = coroutine_mutex_effect(table, callee) {
            return Some(effect);
        }
    }
    if ext.lock_precision {
        if let Some(effect) = lock_effect_by_hierarchy(table, callee) {
            return Some(effect);
        }
    }
    reference_lock_effect(callee)
}

/// Extension (suspend resumes): a coroutine `Mutex` method's effect. Called without an owner
/// (`mutex.unlock()`), it is a static default-argument helper (`unlock$default`), the mutex
/// first: in `Mutex$DefaultImpls`, or in the interface itself when it is compiled with JVM
/// default methods.
fn coroutine_mutex_effect(table: &ClassTable, callee: &MethodRef) -> Option<LockEffect> {
    let name = callee.name.as_str();
    let effect = lock_class_effect(name.strip_suffix("$default").unwrap_or(name), false)?;
    let class = callee.class.as_str();
    (class == "kotlinx.coroutines.sync.Mutex$DefaultImpls" || table.is_subtype_of_any(callee.class, COROUTINE_MUTEX))
        .then_some(effect)
}

/// Extension: lock models matched through the hierarchy (a subclass of `ReentrantLock` is a
/// lock), with read-mode acquisitions told apart.
fn lock_effect_by_hierarchy(table: &ClassTable, callee: &MethodRef) -> Option<LockEffect> {
    let name = callee.name.as_str();
    if callee.class.as_str().ends_with(GUAVA_MONITOR) {
        return guava_monitor_effect(callee);
    }
    // Most calls are to other methods: the names first, the supertypes only for these.
    if stamped_lock_effect(name).is_none() && lock_class_effect(name, false).is_none() {
        return None;
    }
    if table.is_subtype_of_any(callee.class, STAMPED_LOCK) {
        return stamped_lock_effect(name);
    }
    let read = table.is_subtype_of_any(callee.class, READ_LOCK_CLASSES);
    if !read && !table.is_subtype_of_any(callee.class, LOCK_CLASSES) {
        return None;
    }
    lock_class_effect(name, read)
}

/// A Guava `Monitor` method's effect, as its documentation gives it: the `enter*` methods
/// returning a boolean (a guard, a timeout, `tryEnter`) hold the monitor where they answered
/// true, the others hold it on return (or throw); `leave` releases it. Its own code holds the
/// monitor on one branch of a computed answer (`enterIf`), which a summary cannot say.
fn guava_monitor_effect(callee: &MethodRef) -> Option<LockEffect> {
    let answers = crate::classfile::descriptor::returns_boolean(callee.descriptor.as_str());
    match callee.name.as_str() {
        "enter" | "enterInterruptibly" | "enterWhen" | "enterWhenUninterruptibly" | "enterIf" | "enterIfInterruptibly"
        | "tryEnter" | "tryEnterIf"
            if answers =>
        {
            Some(LockEffect::TryAcquire)
        }
        "enter" | "enterInterruptibly" | "enterWhen" | "enterWhenUninterruptibly" => Some(LockEffect::Acquire),
        "leave" => Some(LockEffect::Release),
        _ => None,
    }
}

fn stamped_lock_effect(name: &str) -> Option<LockEffect> {
    match name {
        "writeLock" | "writeLockInterruptibly" => Some(LockEffect::Acquire),
        "readLock" | "readLockInterruptibly" => Some(LockEffect::AcquireRead),
        // A stamp of zero: not taken (a converted stamp keeps the read lock's count, which
        // only the unlock of a stamp in either mode releases).
        "tryWriteLock" | "tryConvertToWriteLock" => Some(LockEffect::TryAcquire),
        "tryReadLock" | "tryConvertToReadLock" => Some(LockEffect::TryAcquireRead),
        // An optimistic read holds nothing, but the reads it makes count only once `validate`
        // has said no writer came in between (and the usual fallback reads again under the
        // read lock): read mode until `validate`, so they are protected reads, while a write
        // made there excludes nobody. In a method that never validates a stamp, the reads
        // count as made without a lock (see `Interp::validates_stamps`).
        "tryOptimisticRead" => Some(LockEffect::AcquireRead),
        "validate" => Some(LockEffect::ReleaseRead),
        "unlockWrite" => Some(LockEffect::Release),
        "unlockRead" => Some(LockEffect::ReleaseRead),
        "unlock" => Some(LockEffect::ReleaseAny),
        _ => None,
    }
}

/// Extension (lock precision): `StampedLock.tryOptimisticRead()`, whose read mode holds only
/// in a method that validates its stamps (see [`stamped_lock_effect`]).
pub fn is_optimistic_read(table: &ClassTable, callee: &MethodRef) -> bool {
    callee.name.as_str() == "tryOptimisticRead" && table.is_subtype_of_any(callee.class, STAMPED_LOCK)
}

/// `StampedLock.validate(stamp)`: whether no writer came in since the stamp was given.
pub fn is_stamp_validation(table: &ClassTable, callee: &MethodRef) -> bool {
    callee.name.as_str() == "validate" && table.is_subtype_of_any(callee.class, STAMPED_LOCK)
}

/// A `Lock` method's effect; `read`: the read lock of a read/write lock, held in read mode.
fn lock_class_effect(name: &str, read: bool) -> Option<LockEffect> {
    match name {
        "lock" | "lockInterruptibly" if read => Some(LockEffect::AcquireRead),
        "unlock" if read => Some(LockEffect::ReleaseRead),
        "tryLock" if read => Some(LockEffect::TryAcquireRead),
        "lock" | "lockInterruptibly" => Some(LockEffect::Acquire),
        "unlock" => Some(LockEffect::Release),
        "tryLock" => Some(LockEffect::TryAcquire),
        _ => None,
    }
}

/// Extension: a call returning the read lock of a read/write lock as a plain `Lock`
/// (`ReadWriteLock.readLock()` through the interface, `StampedLock.asReadLock()`): a `lock()`
/// on what it returns is then a read-mode acquisition, even where the static type is `Lock`.
pub fn returns_read_lock(table: &ClassTable, callee: &MethodRef) -> bool {
    match callee.name.as_str() {
        "readLock" => table.is_subtype_of_any(callee.class, READ_WRITE_LOCK),
        "asReadLock" => table.is_subtype_of_any(callee.class, STAMPED_LOCK),
        _ => false,
    }
}

/// Extension (lock precision): the counters whose `getAndIncrement()` guards a drain loop
/// (`if (wip.getAndIncrement() == 0) { ... }`), also through a field updater.
const WORK_COUNTERS: &[&str] = &["java.util.concurrent.atomic.AtomicInteger"];
const WORK_COUNTER_UPDATERS: &[&str] = &["java.util.concurrent.atomic.AtomicIntegerFieldUpdater"];

/// Extension: `getAndIncrement()` of an `int` counter (a class extending `AtomicInteger`
/// included), or of a field updater's `int` field: the count before this call's increment. The
/// drain-loop idiom of reactive libraries lets in only the caller that found it zero; the
/// others leave their work to that one.
pub fn counts_work(table: &ClassTable, callee: &MethodRef) -> bool {
    if callee.name.as_str() != "getAndIncrement" {
        return false;
    }
    match callee.descriptor.as_str() {
        "()I" => table.is_subtype_of_any(callee.class, WORK_COUNTERS),
        "(Ljava/lang/Object;)I" => table.is_subtype_of_any(callee.class, WORK_COUNTER_UPDATERS),
        _ => false,
    }
}

/// Extension: a lock effect on a receiver known to be a read lock, in read mode.
pub fn in_read_mode(effect: LockEffect) -> LockEffect {
    match effect {
        LockEffect::Acquire => LockEffect::AcquireRead,
        LockEffect::Release => LockEffect::ReleaseRead,
        LockEffect::TryAcquire => LockEffect::TryAcquireRead,
        other => other,
    }
}

/// 6.1 as in the reference: exact class match, no subtypes.
fn reference_lock_effect(callee: &MethodRef) -> Option<LockEffect> {
    let class = callee.class.as_str();
    let name = callee.name.as_str();
    if LOCK_CLASSES.contains(&class) {
        return match name {
            "lock" | "lockInterruptibly" => Some(LockEffect::Acquire),
            "unlock" => Some(LockEffect::Release),
            "tryLock" => Some(LockEffect::TryAcquire),
            _ => None,
        };
    }
    if class == BUCK_RW_UPDATE_LOCK && matches!(name, "readLock" | "updateLock" | "writeLock") {
        return Some(LockEffect::Acquire);
    }
    if is_thread_utils(class) && name == "assertHoldsLock" {
        return Some(LockEffect::Acquire);
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadEffect {
    AssertMain,
    AssertBackground,
    IsMainQuery,
    /// The main looper or thread (`Looper.getMainLooper()`), for comparisons (Android models).
    MainThreadHandle,
    /// The current looper or thread (`Looper.myLooper()`, `Thread.currentThread()`).
    CurrentThreadHandle,
    /// `Looper.getThread()`: the thread of a looper handle.
    HandleThread,
    /// `Looper.isCurrentThread()`: "on main" when asked of the main looper.
    IsCurrentThread,
}

/// What a call says of the running thread, by every model: the thread assertions and queries
/// of 6.2, Android's looper handles and, with thread handoffs, Netty's event-loop query.
pub fn call_thread_effect(callee: &MethodRef, ext: Extensions) -> Option<ThreadEffect> {
    thread_effect(callee)
        .or_else(|| super::android::looper_effect(callee))
        .or_else(|| (ext.thread_handoffs && super::handoffs::is_event_loop_query(callee)).then_some(ThreadEffect::IsMainQuery))
}

/// 6.2: thread assertions and queries on `*ThreadUtils` / `*ThreadUtil` classes.
pub fn thread_effect(callee: &MethodRef) -> Option<ThreadEffect> {
    if !is_thread_utils(callee.class.as_str()) {
        return None;
    }
    match callee.name.as_str() {
        "assertMainThread" | "assertOnUiThread" | "checkOnMainThread" | "checkIsOnMainThread" => {
            Some(ThreadEffect::AssertMain)
        }
        "assertOnBackgroundThread" | "assertOnNonUiThread" | "checkOnNonUiThread" | "checkOnWorkerThread" => {
            Some(ThreadEffect::AssertBackground)
        }
        "isMainThread" | "isOnMainThread" | "isUiThread" => Some(ThreadEffect::IsMainQuery),
        _ => None,
    }
}

/// 6.3: methods whose result is owned: (classes, method name, parameter types).
/// An exact class match counts for any overload; a subtype's method must
/// override the listed one (same name and parameter types).
const OWNERSHIP_SOURCES: &[(&[&str], &str, &str)] = &[
    (&["javax.inject.Provider"], "get", "()"),
    (&["java.lang.Class"], "newInstance", "()"),
    (&["java.lang.reflect.Constructor"], "newInstance", "([Ljava/lang/Object;)"),
    (&["java.lang.Object"], "clone", "()"),
    (&["java.lang.ThreadLocal"], "get", "()"),
    (&["android.app.Activity", "android.view.View"], "findViewById", "(I)"),
    (
        &[
            "android.support.v4.util.Pools$Pool",
            "android.support.v4.util.Pools$SimplePool",
            "android.support.v4.util.Pools$SynchronizedPool",
            "androidx.core.util.Pools$Pool",
            "androidx.core.util.Pools$SimplePool",
            "androidx.core.util.Pools$SynchronizedPool",
        ],
        "acquire",
        "()",
    ),
];

/// 6.4: container writes.
const CONTAINER_WRITES: &[Row] = &[
    Row { classes: &["java.util.Collection"], methods: &["add", "addAll", "clear", "remove", "removeAll", "removeIf"] },
    Row { classes: &["java.util.List"], methods: &["replaceAll", "retainAll", "set", "sort"] },
    Row {
        classes: &["java.util.Map"],
        methods: &["clear", "merge", "put", "putAll", "putIfAbsent", "remove", "replace", "replaceAll"],
    },
    Row {
        classes: &["android.util.SparseArray", "android.support.v4.util.SparseArrayCompat", "androidx.core.util.SparseArrayCompat"],
        methods: &["append", "clear", "delete", "put", "remove", "removeAt", "removeAtRange", "setValueAt"],
    },
    Row {
        classes: &["android.support.v4.util.SimpleArrayMap", "androidx.core.util.SimpleArrayMap"],
        methods: &["clear", "ensureCapacity", "put", "putAll", "remove", "removeAt", "setValueAt"],
    },
    Row {
        classes: &["android.support.v4.util.Pools$SimplePool", "androidx.core.util.Pools$SimplePool"],
        methods: &["acquire", "release"],
    },
    Row { classes: &["javax.crypto.Mac"], methods: &["update", "init", "doFinal"] },
];

/// 6.5: container reads (writes are checked first).
const CONTAINER_READS: &[Row] = &[
    Row {
        classes: &["java.util.Collection"],
        methods: &[
            "contains", "containsAll", "equals", "get", "hashCode", "isEmpty", "iterator", "parallelStream", "size",
            "spliterator", "stream", "toArray",
        ],
    },
    Row { classes: &["java.util.List"], methods: &["get", "indexOf", "isEmpty", "lastIndexOf", "listIterator"] },
    Row {
        classes: &["java.util.Map"],
        methods: &[
            "compute", "computeIfAbsent", "computeIfPresent", "containsKey", "containsValue", "entrySet", "equals",
            "forEach", "get", "getOrDefault", "hashCode", "isEmpty", "keySet", "size", "values",
        ],
    },
    Row {
        classes: &["android.util.SparseArray", "android.support.v4.util.SparseArrayCompat", "androidx.core.util.SparseArrayCompat"],
        methods: &["clone", "get", "indexOfKey", "indexOfValue", "keyAt", "size", "valueAt"],
    },
    Row {
        classes: &["android.support.v4.util.SimpleArrayMap", "androidx.core.util.SimpleArrayMap"],
        methods: &["containsKey", "containsValue", "get", "hashCode", "indexOfKey", "isEmpty", "keyAt", "size", "valueAt"],
    },
    Row { classes: &["javax.crypto.Mac"], methods: &["doFinal"] },
];

/// Extension: container writes the reference does not model (checked before its reads, so
/// `compute*`, reads there, become writes).
const MORE_CONTAINER_WRITES: &[Row] = &[
    Row { classes: &["java.util.Queue"], methods: &["offer", "poll"] },
    Row {
        classes: &["java.util.Deque"],
        methods: &[
            "addFirst", "addLast", "offerFirst", "offerLast", "pollFirst", "pollLast", "pop", "push", "removeFirst",
            "removeFirstOccurrence", "removeLast", "removeLastOccurrence",
        ],
    },
    Row { classes: &["java.util.Map"], methods: &["compute", "computeIfAbsent", "computeIfPresent"] },
    Row { classes: &["java.util.NavigableMap"], methods: &["pollFirstEntry", "pollLastEntry"] },
    Row { classes: &["java.util.NavigableSet"], methods: &["pollFirst", "pollLast"] },
    // Through a view (see `returns_view`): `it.remove()` changes the iterated collection.
    Row { classes: &["java.util.Iterator"], methods: &["remove"] },
    Row { classes: &["java.util.ListIterator"], methods: &["add", "set"] },
    Row {
        classes: &["androidx.collection.SimpleArrayMap", "androidx.collection.SparseArrayCompat", "androidx.collection.LongSparseArray", "androidx.collection.ArraySet"],
        methods: &["append", "clear", "put", "putAll", "remove", "removeAt", "setValueAt", "add", "addAll"],
    },
    // Kotlin's own deque, a `MutableList` (not a `java.util.Deque`), named by its Kotlin
    // methods; its `List` ones are listed too, for runs without the standard library.
    Row {
        classes: &[KOTLIN_ARRAY_DEQUE],
        methods: &[
            "add", "addAll", "addFirst", "addLast", "clear", "remove", "removeAll", "removeAt", "removeFirst",
            "removeFirstOrNull", "removeLast", "removeLastOrNull", "retainAll", "set",
        ],
    },
];

/// Kotlin's standard library's `ArrayDeque`, not thread-safe.
const KOTLIN_ARRAY_DEQUE: &str = "kotlin.collections.ArrayDeque";

/// Extension: JDK objects that are not thread-safe and are used like containers: what changes
/// their state is a write, what only looks at it a read. A text format's `format` and `parse`
/// change the format's own fields (a `SimpleDateFormat` keeps a calendar), so they are writes.
const MUTABLE_OBJECT_WRITES: &[Row] = &[
    Row {
        classes: &["java.lang.StringBuilder"],
        methods: &[
            "append", "appendCodePoint", "delete", "deleteCharAt", "ensureCapacity", "insert", "replace", "reverse",
            "setCharAt", "setLength", "trimToSize",
        ],
    },
    Row { classes: &["java.util.BitSet"], methods: &["and", "andNot", "clear", "flip", "or", "set", "xor"] },
    Row {
        classes: &["java.text.Format"],
        methods: &[
            "applyLocalizedPattern", "applyPattern", "format", "formatToCharacterIterator", "parse", "parseObject",
            "set2DigitYearStart", "setCalendar", "setDateFormatSymbols", "setDecimalFormatSymbols", "setFormat",
            "setFormats", "setGroupingUsed", "setLenient", "setLocale", "setMaximumFractionDigits",
            "setMaximumIntegerDigits", "setMinimumFractionDigits", "setMinimumIntegerDigits", "setNumberFormat",
            "setParseIntegerOnly", "setRoundingMode", "setTimeZone",
        ],
    },
    Row {
        classes: &["java.util.Calendar"],
        methods: &[
            "add", "clear", "roll", "set", "setFirstDayOfWeek", "setLenient", "setMinimalDaysInFirstWeek", "setTime",
            "setTimeInMillis", "setTimeZone",
        ],
    },
    Row {
        classes: &["java.util.regex.Matcher"],
        methods: &[
            "appendReplacement", "find", "lookingAt", "matches", "region", "replaceAll", "replaceFirst", "reset",
            "useAnchoringBounds", "usePattern", "useTransparentBounds",
        ],
    },
    Row { classes: &["java.security.MessageDigest"], methods: &["digest", "reset", "update"] },
    Row { classes: &["javax.crypto.Cipher"], methods: &["doFinal", "init", "update", "updateAAD"] },
    Row { classes: &["java.security.Signature"], methods: &["initSign", "initVerify", "sign", "update", "verify"] },
    Row { classes: &["java.util.zip.CRC32", "java.util.zip.Adler32", "java.util.zip.CRC32C"], methods: &["reset", "update"] },
    // The XML processors: "not thread-safe" (`DocumentBuilder`, `Transformer`, `Validator`),
    // "neither thread-safe nor reentrant" (`XPath`, `XPathExpression`); each keeps the state of
    // the document it is working on.
    Row { classes: &["javax.xml.parsers.DocumentBuilder", "javax.xml.parsers.SAXParser"], methods: &["parse", "reset", "setEntityResolver", "setErrorHandler"] },
    Row {
        classes: &["javax.xml.transform.Transformer"],
        methods: &["clearParameters", "reset", "setErrorListener", "setOutputProperties", "setOutputProperty", "setParameter", "setURIResolver", "transform"],
    },
    Row {
        classes: &["javax.xml.xpath.XPath"],
        methods: &["compile", "evaluate", "evaluateExpression", "reset", "setNamespaceContext", "setXPathFunctionResolver", "setXPathVariableResolver"],
    },
    Row { classes: &["javax.xml.xpath.XPathExpression"], methods: &["evaluate", "evaluateExpression"] },
    Row { classes: &["javax.xml.validation.Validator"], methods: &["reset", "setErrorHandler", "setFeature", "setProperty", "setResourceResolver", "validate"] },
];

/// Extension: what only looks at the objects of [`MUTABLE_OBJECT_WRITES`].
const MUTABLE_OBJECT_READS: &[Row] = &[
    Row { classes: &["java.util.zip.CRC32", "java.util.zip.Adler32", "java.util.zip.CRC32C"], methods: &["getValue"] },
    Row {
        classes: &["java.lang.StringBuilder"],
        methods: &[
            "capacity", "charAt", "chars", "codePointAt", "codePoints", "compareTo", "getChars", "indexOf", "isEmpty",
            "lastIndexOf", "length", "subSequence", "substring", "toString",
        ],
    },
    Row {
        classes: &["java.util.BitSet"],
        methods: &[
            "cardinality", "get", "intersects", "isEmpty", "length", "nextClearBit", "nextSetBit", "previousClearBit",
            "previousSetBit", "size", "stream", "toByteArray", "toLongArray", "toString",
        ],
    },
    Row {
        classes: &["java.text.Format"],
        methods: &["getCalendar", "getNumberFormat", "getTimeZone", "isLenient", "toLocalizedPattern", "toPattern"],
    },
    Row {
        classes: &["java.util.Calendar"],
        methods: &["after", "before", "compareTo", "get", "getActualMaximum", "getActualMinimum", "getTime", "getTimeInMillis", "getTimeZone", "isSet"],
    },
    Row { classes: &["java.util.regex.Matcher"], methods: &["end", "group", "groupCount", "hitEnd", "requireEnd", "start", "toMatchResult"] },
];

/// What a library call does to a container or an array given to it as an argument
/// (collection-models extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgumentAccess {
    /// The argument is a container, read or changed as by a call on it.
    Container(ContainerAccess),
    /// The argument is an array whose elements are read or written.
    Elements(ContainerAccess),
    /// The argument is an entry of a map, one of the elements its entry set's iterator hands
    /// out (`this.m.[_]`): changing it changes the map.
    EntryOf(ContainerAccess),
}

use ArgumentAccess::{Container, Elements, EntryOf};
use ContainerAccess::{Read as R, Write as W};

/// Extension: static library methods that read or change the container or array they are
/// given: (class, methods, (parameter, access)). A parameter counts only where its declared
/// type fits the access (an array for elements), so overloads taking an index are skipped.
const ARGUMENT_ACCESSES: &[(&str, &[&str], &[(usize, ArgumentAccess)])] = &[
    (
        "java.util.Collections",
        &["addAll", "copy", "fill", "replaceAll", "reverse", "rotate", "shuffle", "sort", "swap"],
        &[(0, Container(W))],
    ),
    ("java.util.Collections", &["copy"], &[(1, Container(R))]),
    (
        "java.util.Collections",
        &["binarySearch", "frequency", "indexOfSubList", "lastIndexOfSubList", "max", "min"],
        &[(0, Container(R))],
    ),
    ("java.util.Collections", &["disjoint"], &[(0, Container(R)), (1, Container(R))]),
    ("java.util.Arrays", &["fill", "parallelPrefix", "parallelSetAll", "parallelSort", "setAll", "sort"], &[(0, Elements(W))]),
    (
        "java.util.Arrays",
        &["binarySearch", "copyOf", "copyOfRange", "deepHashCode", "deepToString", "hashCode", "stream", "toString"],
        &[(0, Elements(R))],
    ),
    ("java.util.Arrays", &["compare", "deepEquals", "equals", "mismatch"], &[(0, Elements(R)), (1, Elements(R))]),
    ("java.lang.System", &["arraycopy"], &[(0, Elements(R)), (2, Elements(W))]),
    // `String.join(", ", this.names)` iterates the names.
    ("java.lang.String", &["join"], &[(1, Container(R))]),
];

/// Parameter types through which a library collection reads a whole other collection (a
/// copy constructor, `addAll`, `putAll`, `containsAll`, `equals`).
const COLLECTION_PARAMETERS: &[&str] = &[
    "Ljava/util/Collection;",
    "Ljava/util/List;",
    "Ljava/util/Set;",
    "Ljava/util/SortedSet;",
    "Ljava/util/Map;",
    "Ljava/util/SortedMap;",
];

/// Extension: the containers and arrays a library call reads or changes among its arguments,
/// as (index into the call's arguments, receiver first, access). The static methods of
/// [`ARGUMENT_ACCESSES`] have no receiver; a library collection's constructors and methods
/// read the whole collection they are given.
pub fn argument_accesses(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> Vec<(usize, ArgumentAccess)> {
    let (class, name) = (callee.class.as_str(), callee.name.as_str());
    if !ext.collection_models {
        return Vec::new();
    }
    if class.starts_with("kotlin.collections.") {
        return super::kotlin_collections::argument_accesses(callee);
    }
    if class.starts_with("kotlin.text.") {
        return super::kotlin_text::argument_accesses(callee);
    }
    // Every class of the table and every collection is in one of these packages.
    if !(class.starts_with("java.util.") || class.starts_with("java.lang.")) {
        return Vec::new();
    }
    let params = crate::classfile::descriptor::param_types(callee.descriptor.as_str());
    let fits = |i: usize, access: ArgumentAccess| match (params.get(i), access) {
        // `System.arraycopy` declares its arrays as `Object`.
        (Some(t), Elements(_)) => t.starts_with('[') || *t == "Ljava/lang/Object;",
        (Some(t), Container(_)) => t.starts_with('L'),
        // Only the entry rule below gives it, on the receiver.
        (_, EntryOf(_)) | (None, _) => false,
    };
    let statics = ARGUMENT_ACCESSES
        .iter()
        .filter(|(c, methods, _)| *c == class && methods.contains(&name))
        .flat_map(|(_, _, accesses)| accesses.iter().copied())
        .filter(|&(i, access)| fits(i, access));
    let is_collection = class.starts_with("java.util.")
        && table.is_subtype_of_any(callee.class, &["java.util.Collection", "java.util.Map"]);
    let whole_collections = params
        .iter()
        .enumerate()
        .filter(|(_, t)| is_collection && COLLECTION_PARAMETERS.contains(t))
        .map(|(i, _)| (i + 1, Container(R)));
    // `Map.Entry.setValue` on an entry of a map writes the map (the receiver is argument 0).
    let entry = (class == "java.util.Map$Entry" && name == "setValue").then_some((0, EntryOf(W)));
    statics.chain(whole_collections).chain(entry).collect()
}

/// Extension: container reads the reference does not model.
const MORE_CONTAINER_READS: &[Row] = &[
    Row { classes: &["java.util.Queue"], methods: &["element", "peek"] },
    Row { classes: &["java.util.Deque"], methods: &["descendingIterator", "getFirst", "getLast", "peekFirst", "peekLast"] },
    Row { classes: &["java.util.Collection"], methods: &["forEach"] },
    // A library collection's text lists its elements: it iterates them, as `equals` does.
    Row { classes: &["java.util.Collection", "java.util.Map"], methods: &["toString"] },
    Row { classes: &["java.util.List"], methods: &["subList"] },
    Row {
        classes: &["java.util.SortedMap", "java.util.NavigableMap"],
        methods: &[
            "ceilingEntry", "ceilingKey", "firstEntry", "firstKey", "floorEntry", "floorKey", "headMap", "higherEntry",
            "higherKey", "lastEntry", "lastKey", "lowerEntry", "lowerKey", "subMap", "tailMap",
        ],
    },
    Row {
        classes: &["java.util.SortedSet", "java.util.NavigableSet"],
        methods: &["ceiling", "first", "floor", "headSet", "higher", "last", "lower", "subSet", "tailSet"],
    },
    Row {
        classes: &["androidx.collection.SimpleArrayMap", "androidx.collection.SparseArrayCompat", "androidx.collection.LongSparseArray", "androidx.collection.ArraySet"],
        methods: &["contains", "containsKey", "containsValue", "get", "indexOfKey", "indexOfValue", "isEmpty", "keyAt", "size", "valueAt"],
    },
    Row {
        classes: &[KOTLIN_ARRAY_DEQUE],
        methods: &[
            "contains", "containsAll", "first", "firstOrNull", "get", "getSize", "indexOf", "isEmpty", "iterator", "last",
            "lastIndexOf", "lastOrNull", "listIterator", "size", "toArray", "toString",
        ],
    },
];

/// Extension: thread-safe containers the reference misses (every `Vector` method is
/// synchronized; the concurrent queues and key sets are lock-free but thread-safe).
const MORE_SYNCHRONIZED_CONTAINERS: &[&str] = &[
    "java.util.Vector",
    "java.util.concurrent.ConcurrentLinkedQueue",
    "java.util.concurrent.ConcurrentHashMap$KeySetView",
    "java.util.concurrent.ConcurrentSkipListMap",
];

/// 6.6: thread-safe container types (subtypes included).
const SYNCHRONIZED_CONTAINERS: &[&str] = &[
    "android.support.v4.util.Pools$SynchronizedPool",
    "androidx.core.util.Pools$SynchronizedPool",
    "java.util.concurrent.BlockingDeque",
    "java.util.concurrent.BlockingQueue",
    "java.util.concurrent.ConcurrentLinkedDeque",
    "java.util.concurrent.ConcurrentMap",
    "java.util.concurrent.ConcurrentSkipListSet",
    "java.util.concurrent.CopyOnWriteArrayList",
    "java.util.concurrent.CopyOnWriteArraySet",
    "java.util.Hashtable",
];

/// 6.6: static methods returning a synchronized container.
const SYNCHRONIZED_CONVERTERS: &[(&str, &str)] = &[
    ("com.google.common.collect.Maps", "newConcurrentMap"),
    ("com.google.common.collect.Sets", "newConcurrentHashSet"),
    ("com.google.common.collect.Queues", "newConcurrentLinkedQueue"),
];

/// 6.7: `android.content.res.Resources` methods that are not functional.
const RESOURCES: &str = "android.content.res.Resources";
const RESOURCES_NOT_FUNCTIONAL: &[&str] =
    &["getAssets", "getConfiguration", "getSystem", "newTheme", "openRawResource", "openRawResourceFd"];

/// 6.7: boxing (`java.lang.Char` is listed instead of `Character`, as in the reference).
const BOXING_CLASSES: &[&str] = &[
    "java.lang.Boolean",
    "java.lang.Byte",
    "java.lang.Char",
    "java.lang.Double",
    "java.lang.Float",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Short",
];

/// 8.7.2: packages whose interfaces are never flagged.
pub const INTERFACE_CALL_SAFE_PACKAGES: &[&str] = &["java.", "android.", "com.google."];

fn row_matches(table: &ClassTable, rows: &[Row], callee: &MethodRef) -> bool {
    let name = callee.name.as_str();
    rows.iter().any(|row| row.methods.contains(&name) && table.is_subtype_of_any(callee.class, row.classes))
}

pub fn is_ownership_source(table: &ClassTable, callee: &MethodRef) -> bool {
    let (class, name) = (callee.class.as_str(), callee.name.as_str());
    OWNERSHIP_SOURCES.iter().any(|(classes, method, params)| {
        *method == name
            && (classes.contains(&class) || (callee.params() == *params && table.is_subtype_of_any(callee.class, classes)))
    })
}

/// Extension (with escape-aware ownership, where a call without code returns a value that is
/// not owned): library calls documented to return a new array or collection that nothing else
/// keeps, as `clone()` does (6.3). `toArray(T[])` may return its argument and is not one.
const FRESH_RESULTS: &[(&[&str], &[&str], &str)] = &[
    (&["java.util.Arrays"], &["copyOf", "copyOfRange"], ""),
    (&["java.util.Collection"], &["toArray"], "()"),
    (&["java.lang.String"], &["getBytes", "split", "toCharArray"], ""),
    (
        &["java.util.stream.Stream", "java.util.stream.IntStream", "java.util.stream.LongStream", "java.util.stream.DoubleStream"],
        &["collect", "toArray", "toList"],
        "",
    ),
];

/// Weak-references extension: the JDK's references whose `get()` gives back the object they
/// were made with, until the collector clears them (a phantom reference's gives null).
const REFERENCES: &[&str] = &["java.lang.ref.WeakReference", "java.lang.ref.SoftReference"];

/// `new WeakReference<>(x)` or `new SoftReference<>(x, queue)`: a reference to its first
/// argument. A subclass's constructor is its own code (it may keep more).
pub fn makes_reference(callee: &MethodRef, ext: Extensions) -> bool {
    ext.weak_references
        && callee.name.as_str() == "<init>"
        && REFERENCES.contains(&callee.class.as_str())
        && callee.descriptor.as_str().starts_with("(Ljava/lang/Object;")
}

/// `ref.get()` of a weak or soft reference (a subclass's too, and through `Reference`): the
/// object the reference was made with, or null.
pub fn returns_referent(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> bool {
    ext.weak_references
        && callee.name.as_str() == "get"
        && callee.descriptor.as_str() == "()Ljava/lang/Object;"
        && (callee.class.as_str() == "java.lang.ref.Reference" || table.is_subtype_of_any(callee.class, REFERENCES))
}

/// Whether the call's result is a new object no one else holds (see [`FRESH_RESULTS`]).
pub fn returns_fresh(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> bool {
    ext.escape_ownership
        && FRESH_RESULTS.iter().any(|(classes, methods, params)| {
            methods.contains(&callee.name.as_str())
                && (params.is_empty() || callee.params() == *params)
                && table.is_subtype_of_any(callee.class, classes)
        })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerAccess {
    Read,
    Write,
}

/// The extension's rows apply to the library's own classes only: a project class implementing
/// `Deque` (say, a deque guarded by its own lock) or extending `Format` (a thread-safe date
/// format) is analysed from its code.
fn is_library_class(callee: &MethodRef) -> bool {
    let class = callee.class.as_str();
    ["java.util.", "androidx.collection.", KOTLIN_ARRAY_DEQUE, "java.lang.StringBuilder", "java.text.", "java.security.", "javax.crypto.", "javax.xml."]
        .iter()
        .any(|p| class.starts_with(p))
}

/// Whether the models leave a container call known to run `implementation` (the class of its
/// receiver is known) to that method's code: a project class's own method (the rows model the
/// platform's and the library's classes, whose code they stand for, even when a run analyses
/// it, as with the Android framework's `ArrayMap`), or one no model covers.
pub fn leaves_to_code(table: &ClassTable, implementation: &MethodRef, ext: Extensions) -> bool {
    !is_platform_class(implementation.class.as_str()) || container_access(table, implementation, ext).is_none()
}

/// A class of the Java or Android platform, or of the libraries the container models cover.
fn is_platform_class(class: &str) -> bool {
    ["java.", "javax.", "jdk.", "sun.", "android.", "androidx.", "com.android.", "dalvik.", "kotlin.", "kotlinx."]
        .iter()
        .any(|p| class.starts_with(p))
}

pub fn container_access(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> Option<ContainerAccess> {
    let more = ext.collection_models && is_library_class(callee);
    let more_writes = || row_matches(table, MORE_CONTAINER_WRITES, callee) || row_matches(table, MUTABLE_OBJECT_WRITES, callee);
    let more_reads = || row_matches(table, MORE_CONTAINER_READS, callee) || row_matches(table, MUTABLE_OBJECT_READS, callee);
    if row_matches(table, CONTAINER_WRITES, callee) || (more && more_writes()) {
        Some(ContainerAccess::Write)
    } else if row_matches(table, CONTAINER_READS, callee) || (more && more_reads()) {
        Some(ContainerAccess::Read)
    } else {
        None
    }
}

/// Extension: container reads whose result is a view of the container (an iterator, a key
/// set, a sub-list): what is done through the view is done to the container, so the result
/// stands for the container's path (`this.map.keySet().remove(k)` writes `this.map`).
const VIEWS: &[&str] = &[
    "descendingIterator", "descendingKeySet", "descendingMap", "entrySet", "headMap", "headSet", "iterator", "keySet",
    "listIterator", "navigableKeySet", "subList", "subMap", "subSet", "tailMap", "tailSet", "values",
];

/// Whether the call turns its last argument, an object, into text with the object's `toString`
/// (or, given a `CharSequence`, reads its characters): the calls javac, ecj and kotlinc make of a
/// concatenation's objects; `Object.toString` itself, which javac calls on a receiver declared
/// with an interface (`List`), since interfaces do not declare it; and printing an object.
pub fn makes_text_of_object(callee: &MethodRef) -> bool {
    let (class, name, descriptor) = (callee.class.as_str(), callee.name.as_str(), callee.descriptor.as_str());
    let prints = matches!(class, "java.io.PrintStream" | "java.io.PrintWriter")
        && matches!(name, "print" | "println")
        && descriptor == "(Ljava/lang/Object;)V";
    prints
        || matches!(
            (class, name, descriptor),
            ("java.lang.String", "valueOf", "(Ljava/lang/Object;)Ljava/lang/String;")
                | ("java.lang.Object", "toString", "()Ljava/lang/String;")
                | ("java.util.Objects", "toString", "(Ljava/lang/Object;)Ljava/lang/String;")
                | ("java.lang.StringBuilder", "append", "(Ljava/lang/Object;)Ljava/lang/StringBuilder;")
                | ("java.lang.StringBuilder", "append", "(Ljava/lang/CharSequence;)Ljava/lang/StringBuilder;")
        )
}

pub fn returns_view(callee: &MethodRef, ext: Extensions) -> bool {
    ext.collection_models && is_library_class(callee) && VIEWS.contains(&callee.name.as_str())
}

/// Extension: lookups whose result is one of the elements the container holds (a map's
/// value, a list's element, the head of a queue it leaves in place), by the library
/// interfaces and classes that declare them.
const ELEMENT_LOOKUPS: &[Row] = &[
    Row { classes: &["java.util.Map"], methods: &["computeIfAbsent", "get", "getOrDefault"] },
    Row { classes: &["java.util.List"], methods: &["get"] },
    Row { classes: &["java.util.Queue"], methods: &["element", "peek"] },
    Row { classes: &["java.util.Deque"], methods: &["getFirst", "getLast", "peekFirst", "peekLast"] },
    Row { classes: &["java.util.Iterator"], methods: &["next"] },
    Row { classes: &["java.util.ListIterator"], methods: &["previous"] },
    // The atomic holds a reference atomically, not the object it refers to.
    Row {
        classes: &["java.util.concurrent.atomic.AtomicReference", "java.util.concurrent.atomic.AtomicReferenceArray"],
        methods: &["get", "getAcquire", "getOpaque", "getPlain"],
    },
];

/// A lookup of one of a container's elements: the result is reachable by every thread the
/// container is (`map.computeIfAbsent(k, f).add(v)` changes a list that other threads read
/// through the map; `nodes.get(i).next = n` writes a node other threads reach through the
/// list). A call that takes the element out (`poll`, `remove`, `take`) hands it over instead.
pub fn returns_element(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> bool {
    ext.collection_models && callee.class.as_str().starts_with("java.util.") && row_matches(table, ELEMENT_LOOKUPS, callee)
}

pub fn is_synchronized_container(table: &ClassTable, class: crate::sym::Sym, ext: Extensions) -> bool {
    table.is_subtype_of_any(class, SYNCHRONIZED_CONTAINERS)
        || (ext.collection_models && table.is_subtype_of_any(class, MORE_SYNCHRONIZED_CONTAINERS))
}

pub fn is_synchronized_converter(callee: &MethodRef, ext: Extensions) -> bool {
    let (class, name) = (callee.class.as_str(), callee.name.as_str());
    is_synchronized_view_factory(callee)
        || SYNCHRONIZED_CONVERTERS.iter().any(|(c, m)| *c == class && *m == name)
        || (ext.collection_models && class == "java.util.concurrent.ConcurrentHashMap" && name == "newKeySet")
}

/// The library's skeleton of a queue: a project's queue extending it inherits `add`, `remove()`
/// and `element()` (see [`queue_skeleton_primitive`]).
pub const ABSTRACT_QUEUE: &str = "java.util.AbstractQueue";

/// What `AbstractQueue`'s own `add`, `remove()` and `element()` run, as its documentation
/// states: the subclass's `offer`, `poll` and `peek`, with the same arguments and results.
pub fn queue_skeleton_primitive(named: &MethodRef) -> Option<MethodRef> {
    let (name, descriptor) = match (named.name.as_str(), named.descriptor.as_str()) {
        ("add", "(Ljava/lang/Object;)Z") => ("offer", "(Ljava/lang/Object;)Z"),
        ("remove", "()Ljava/lang/Object;") => ("poll", "()Ljava/lang/Object;"),
        ("element", "()Ljava/lang/Object;") => ("peek", "()Ljava/lang/Object;"),
        _ => return None,
    };
    Some(MethodRef { class: named.class, name: crate::sym::Sym::new(name), descriptor: crate::sym::Sym::new(descriptor) })
}

/// `Collections.synchronizedMap(m)` and its kin: a view that takes its own lock in each call,
/// but not across an iteration, which its callers must lock themselves.
pub fn is_synchronized_view_factory(callee: &MethodRef) -> bool {
    callee.class.as_str() == "java.util.Collections" && callee.name.as_str().starts_with("synchronized")
}

/// What the `Collections.synchronized*` views are declared as.
pub const SYNCHRONIZED_VIEW_TYPES: &[&str] = &[
    "Ljava/util/Collection;",
    "Ljava/util/List;",
    "Ljava/util/Map;",
    "Ljava/util/NavigableMap;",
    "Ljava/util/NavigableSet;",
    "Ljava/util/Set;",
    "Ljava/util/SortedMap;",
    "Ljava/util/SortedSet;",
];

/// The calls that iterate a collection outside its own calls' locks: the iterators, streams
/// and spliterators of it and of its views (`keySet()`, `values()`, `entrySet()`, `subList`
/// stand for the collection).
pub fn iterates_outside_its_lock(callee: &MethodRef) -> bool {
    matches!(callee.name.as_str(), "iterator" | "listIterator" | "spliterator" | "stream" | "parallelStream")
}

/// Extension: a set backed by the map it is given is as thread-safe as that map.
pub fn is_synchronized_as_argument(callee: &MethodRef, ext: Extensions) -> bool {
    ext.collection_models && callee.class.as_str() == "java.util.Collections" && callee.name.as_str() == "newSetFromMap"
}

pub fn is_functional_model(table: &ClassTable, callee: &MethodRef) -> bool {
    !RESOURCES_NOT_FUNCTIONAL.contains(&callee.name.as_str())
        && callee.name.as_str() != "<init>"
        && table.is_subtype_of_any(callee.class, &[RESOURCES])
}

pub fn is_boxing(callee: &MethodRef, ext: Extensions) -> bool {
    callee.name.as_str() == "valueOf"
        && (BOXING_CLASSES.contains(&callee.class.as_str())
            || (ext.collection_models && callee.class.as_str() == "java.lang.Character"))
}

/// 2.4: calls after which the path goes straight to the exit. With `normal_returns`, also the
/// Kotlin runtime's helpers that always throw (`Intrinsics.throwUninitializedPropertyAccessException`
/// after a `lateinit` property read before it was set, `throwNpe`, ...): kotlinc leaves an
/// `aconst_null` after them, which would otherwise join the value checked.
pub fn is_exit_call(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> bool {
    let name = callee.name.as_str();
    (name == "exit" && table.is_subtype_of_any(callee.class, &["java.lang.System", "java.lang.Runtime"]))
        || (ext.normal_returns && name.starts_with("throw") && callee.class.as_str() == "kotlin.jvm.internal.Intrinsics")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn call(class: &str, name: &str) -> MethodRef {
        MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new("()V") }
    }

    /// The coroutine `Mutex`'s calls, with an owner and through either default-argument
    /// helper, are lock effects in the default mode only.
    #[test]
    fn coroutine_mutex_calls_are_lock_effects() {
        let table = ClassTable::new();
        let mutex = "kotlinx.coroutines.sync.Mutex";
        let cases = [
            (call(mutex, "lock"), Some(LockEffect::Acquire)),
            (call(mutex, "unlock"), Some(LockEffect::Release)),
            (call(mutex, "unlock$default"), Some(LockEffect::Release)),
            (call("kotlinx.coroutines.sync.Mutex$DefaultImpls", "tryLock$default"), Some(LockEffect::TryAcquire)),
            (call(mutex, "holdsLock"), None),
            (call("kotlinx.coroutines.sync.Semaphore", "acquire"), None),
        ];
        for (callee, effect) in cases {
            assert_eq!(lock_effect(&table, &callee, Extensions::ALL), effect, "{callee:?}");
            assert_eq!(lock_effect(&table, &callee, Extensions::NONE), None, "{callee:?}");
        }
    }

    /// Kotlin's throwing helpers end the path with the extensions only; `System.exit` always.
    #[test]
    fn kotlins_throwing_helpers_end_the_path() {
        let table = ClassTable::new();
        let intrinsics = "kotlin.jvm.internal.Intrinsics";
        for name in ["throwUninitializedPropertyAccessException", "throwNpe", "throwIllegalState"] {
            assert!(is_exit_call(&table, &call(intrinsics, name), Extensions::ALL), "{name}");
            assert!(!is_exit_call(&table, &call(intrinsics, name), Extensions::NONE), "{name}");
        }
        assert!(!is_exit_call(&table, &call(intrinsics, "checkNotNull"), Extensions::ALL));
        assert!(!is_exit_call(&table, &call("p.Other", "throwNpe"), Extensions::ALL));
        assert!(is_exit_call(&table, &call("java.lang.System", "exit"), Extensions::NONE));
    }
}
