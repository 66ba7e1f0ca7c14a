//! Section 6: the models of library methods, kept as data tables.
//!
//! Matching, unless a table says otherwise: the callee's (statically resolved)
//! class or one of its supertypes has the given name, and the method name is listed.

use crate::classfile::model::MethodRef;
use crate::hierarchy::ClassTable;

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

const BUCK_RW_UPDATE_LOCK: &str = "com.facebook.buck.util.concurrent.AutoCloseableReadWriteUpdateLock";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockEffect {
    Acquire,
    Release,
    TryAcquire,
}

fn is_thread_utils(class: &str) -> bool {
    class.ends_with("ThreadUtils") || class.ends_with("ThreadUtil")
}

/// 6.1: lock models (exact class match, no subtypes).
pub fn lock_effect(callee: &MethodRef) -> Option<LockEffect> {
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

pub fn container_access(table: &ClassTable, callee: &MethodRef) -> Option<ContainerAccess> {
    if row_matches(table, CONTAINER_WRITES, callee) {
        Some(ContainerAccess::Write)
    } else if row_matches(table, CONTAINER_READS, callee) {
        Some(ContainerAccess::Read)
    } else {
        None
    }
}

pub fn is_synchronized_container(table: &ClassTable, class: crate::sym::Sym) -> bool {
    table.is_subtype_of_any(class, SYNCHRONIZED_CONTAINERS)
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

pub fn is_boxing(callee: &MethodRef) -> bool {
    callee.name.as_str() == "valueOf" && BOXING_CLASSES.contains(&callee.class.as_str())
}

/// 2.4: calls after which the path goes straight to the exit.
pub fn is_exit_call(table: &ClassTable, callee: &MethodRef) -> bool {
    callee.name.as_str() == "exit" && table.is_subtype_of_any(callee.class, &["java.lang.System", "java.lang.Runtime"])
}
