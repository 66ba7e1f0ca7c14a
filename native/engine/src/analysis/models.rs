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

const BUCK_RW_UPDATE_LOCK: &str = "com.facebook.buck.util.concurrent.AutoCloseableReadWriteUpdateLock";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockEffect {
    Acquire,
    Release,
    TryAcquire,
    /// Extension: read mode of a read/write lock.
    AcquireRead,
    ReleaseRead,
    /// Extension: `StampedLock.unlock(stamp)`, read or write mode.
    ReleaseAny,
}

fn is_thread_utils(class: &str) -> bool {
    class.ends_with("ThreadUtils") || class.ends_with("ThreadUtil")
}

/// 6.1: lock models; with the lock-precision extension, subclasses too and read modes.
pub fn lock_effect(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> Option<LockEffect> {
    if ext.lock_precision {
        if let Some(effect) = lock_effect_by_hierarchy(table, callee) {
            return Some(effect);
        }
    }
    reference_lock_effect(callee)
}

/// Extension: lock models matched through the hierarchy (a subclass of `ReentrantLock` is a
/// lock), with read-mode acquisitions told apart.
fn lock_effect_by_hierarchy(table: &ClassTable, callee: &MethodRef) -> Option<LockEffect> {
    let name = callee.name.as_str();
    if table.is_subtype_of_any(callee.class, STAMPED_LOCK) {
        return match name {
            "writeLock" | "writeLockInterruptibly" => Some(LockEffect::Acquire),
            "readLock" | "readLockInterruptibly" => Some(LockEffect::AcquireRead),
            "unlockWrite" => Some(LockEffect::Release),
            "unlockRead" => Some(LockEffect::ReleaseRead),
            "unlock" => Some(LockEffect::ReleaseAny),
            _ => None,
        };
    }
    let read = table.is_subtype_of_any(callee.class, READ_LOCK_CLASSES);
    if !read && !table.is_subtype_of_any(callee.class, LOCK_CLASSES) {
        return None;
    }
    match name {
        "lock" | "lockInterruptibly" if read => Some(LockEffect::AcquireRead),
        "unlock" if read => Some(LockEffect::ReleaseRead),
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

/// Extension: a lock effect on a receiver known to be a read lock, in read mode.
pub fn in_read_mode(effect: LockEffect) -> LockEffect {
    match effect {
        LockEffect::Acquire => LockEffect::AcquireRead,
        LockEffect::Release => LockEffect::ReleaseRead,
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
    Row {
        classes: &["androidx.collection.SimpleArrayMap", "androidx.collection.SparseArrayCompat", "androidx.collection.LongSparseArray", "androidx.collection.ArraySet"],
        methods: &["append", "clear", "put", "putAll", "remove", "removeAt", "setValueAt", "add", "addAll"],
    },
];

/// Extension: container reads the reference does not model.
const MORE_CONTAINER_READS: &[Row] = &[
    Row { classes: &["java.util.Queue"], methods: &["element", "peek"] },
    Row { classes: &["java.util.Deque"], methods: &["descendingIterator", "getFirst", "getLast", "peekFirst", "peekLast"] },
    Row { classes: &["java.util.Collection"], methods: &["forEach"] },
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerAccess {
    Read,
    Write,
}

/// The extension's rows apply to the library's own collection types only: a project class
/// implementing `Deque` (say, a deque guarded by its own lock) is analysed from its code.
fn is_library_collection(callee: &MethodRef) -> bool {
    let class = callee.class.as_str();
    class.starts_with("java.util.") || class.starts_with("androidx.collection.")
}

pub fn container_access(table: &ClassTable, callee: &MethodRef, ext: Extensions) -> Option<ContainerAccess> {
    let more = ext.collection_models && is_library_collection(callee);
    if row_matches(table, CONTAINER_WRITES, callee) || (more && row_matches(table, MORE_CONTAINER_WRITES, callee)) {
        Some(ContainerAccess::Write)
    } else if row_matches(table, CONTAINER_READS, callee) || (more && row_matches(table, MORE_CONTAINER_READS, callee)) {
        Some(ContainerAccess::Read)
    } else {
        None
    }
}

pub fn is_synchronized_container(table: &ClassTable, class: crate::sym::Sym, ext: Extensions) -> bool {
    table.is_subtype_of_any(class, SYNCHRONIZED_CONTAINERS)
        || (ext.collection_models && table.is_subtype_of_any(class, MORE_SYNCHRONIZED_CONTAINERS))
}

pub fn is_synchronized_converter(callee: &MethodRef) -> bool {
    let (class, name) = (callee.class.as_str(), callee.name.as_str());
    (class == "java.util.Collections" && name.starts_with("synchronized"))
        || SYNCHRONIZED_CONVERTERS.iter().any(|(c, m)| *c == class && *m == name)
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

/// 2.4: calls after which the path goes straight to the exit.
pub fn is_exit_call(table: &ClassTable, callee: &MethodRef) -> bool {
    callee.name.as_str() == "exit" && table.is_subtype_of_any(callee.class, &["java.lang.System", "java.lang.Runtime"])
}
