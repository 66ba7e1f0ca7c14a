//! Interned field and method references: one leaked copy of each distinct value, shared by
//! every instruction and trace node that names it. An instruction then holds an 8-byte
//! pointer instead of a 24-byte reference, which halves the size of method bodies (the
//! largest part of a run on big jars) and of call-trace nodes.

use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;

use hashbrown::HashTable;
use once_cell::sync::Lazy;
use rustc_hash::FxBuildHasher;

use crate::analysis::domain::Path;
use crate::classfile::model::{DynamicCall, FieldRef, MethodRef};
use crate::recent::Recent;

const SHARDS: usize = 32;

/// A sharded set of leaked values. Like symbols, they live for the process: the set of
/// distinct references is bounded by the code seen.
pub struct Interner<T: 'static> {
    shards: Vec<Mutex<HashTable<&'static T>>>,
}

impl<T: Hash + Eq> Interner<T> {
    fn new() -> Interner<T> {
        Interner { shards: (0..SHARDS).map(|_| Mutex::new(HashTable::new())).collect() }
    }

    pub fn intern(&self, value: T) -> &'static T {
        self.intern_hashed(FxBuildHasher.hash_one(&value), value)
    }

    /// Like [`Interner::intern`], looking first in this thread's cache of the values it
    /// interned last (`recent`): a hit takes no lock.
    fn intern_recent(&self, value: T, recent: &'static std::thread::LocalKey<Recent<&'static T>>) -> &'static T {
        let hash = FxBuildHasher.hash_one(&value);
        if let Some(hit) = recent.with(|r| r.find(hash, |v| *v == value)) {
            return hit;
        }
        let interned = self.intern_hashed(hash, value);
        recent.with(|r| r.remember(hash, interned));
        interned
    }

    fn intern_hashed(&self, hash: u64, value: T) -> &'static T {
        // Middle bits pick the shard: the table itself uses the low and the top ones.
        let mut set = self.shards[(hash >> 32) as usize % SHARDS].lock().unwrap_or_else(|e| e.into_inner());
        if let Some(existing) = set.find(hash, |v| **v == value) {
            return existing;
        }
        let leaked: &'static T = Box::leak(Box::new(value));
        set.insert_unique(hash, leaked, |v| FxBuildHasher.hash_one(*v));
        leaked
    }
}

thread_local! {
    static RECENT_FIELD_REFS: Recent<&'static FieldRef> = const { Recent::new() };
    static RECENT_METHOD_REFS: Recent<&'static MethodRef> = const { Recent::new() };
}

static FIELD_REFS: Lazy<Interner<FieldRef>> = Lazy::new(Interner::new);
static METHOD_REFS: Lazy<Interner<MethodRef>> = Lazy::new(Interner::new);
static DYNAMIC_CALLS: Lazy<Interner<DynamicCall>> = Lazy::new(Interner::new);
static LOCK_PATHS: Lazy<Interner<Path>> = Lazy::new(Interner::new);

pub fn field_ref(r: FieldRef) -> &'static FieldRef {
    FIELD_REFS.intern_recent(r, &RECENT_FIELD_REFS)
}

pub fn method_ref(r: MethodRef) -> &'static MethodRef {
    METHOD_REFS.intern_recent(r, &RECENT_METHOD_REFS)
}

pub fn dynamic_call(c: DynamicCall) -> &'static DynamicCall {
    DYNAMIC_CALLS.intern(c)
}

/// The path of a lock's object (see [`crate::analysis::domain::LockPath`]).
pub fn lock_path(p: Path) -> &'static Path {
    LOCK_PATHS.intern(p)
}

/// An interned value as a set or map key, compared and hashed by address: cheaper than by
/// content, and the same thing since each distinct value has one address.
#[derive(Debug)]
pub struct ByAddress<T: 'static>(pub &'static T);

impl<T> Clone for ByAddress<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for ByAddress<T> {}
impl<T> PartialEq for ByAddress<T> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl<T> Eq for ByAddress<T> {}
impl<T> Hash for ByAddress<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state)
    }
}

/// Values with an interner of their own, for [`Interned`].
pub trait Intern: Sized + 'static {
    fn intern(self) -> &'static Self;
}

impl Intern for MethodRef {
    fn intern(self) -> &'static MethodRef {
        method_ref(self)
    }
}

/// The paths of locks' objects are the only interned paths.
impl Intern for Path {
    fn intern(self) -> &'static Path {
        lock_path(self)
    }
}

/// A pointer to an interned value, for values that large runs hold millions of times (in access
/// keys): equal by address, which is the same as by content since each distinct value has one
/// address; hashed, ordered, shown and written by content, the same in every run whatever the
/// interning order.
pub struct Interned<T: 'static>(&'static T);

impl<T: Intern> Interned<T> {
    pub fn new(value: T) -> Interned<T> {
        Interned(value.intern())
    }
}

impl<T> Interned<T> {
    pub fn get(self) -> &'static T {
        self.0
    }
}

impl<T> std::ops::Deref for Interned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.0
    }
}
impl<T> Clone for Interned<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Interned<T> {}
impl<T> PartialEq for Interned<T> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl<T> Eq for Interned<T> {}
impl<T: Hash> Hash for Interned<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}
impl<T: Ord> PartialOrd for Interned<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T: Ord> Ord for Interned<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self == other {
            std::cmp::Ordering::Equal
        } else {
            self.0.cmp(other.0)
        }
    }
}
impl<T: std::fmt::Debug> std::fmt::Debug for Interned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
impl<T: serde::Serialize> serde::Serialize for Interned<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}
impl<'de, T: Intern + serde::Deserialize<'de>> serde::Deserialize<'de> for Interned<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Interned<T>, D::Error> {
        T::deserialize(d).map(Interned::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn mref(name: &str) -> MethodRef {
        MethodRef { class: Sym::new("p.C"), name: Sym::new(name), descriptor: Sym::new("()V") }
    }

    #[test]
    fn equal_references_share_one_copy_and_different_ones_do_not() {
        let a = method_ref(mref("run"));
        assert!(std::ptr::eq(a, method_ref(mref("run"))));
        assert!(!std::ptr::eq(a, method_ref(mref("stop"))));
        assert_eq!(*a, mref("run"));
    }

    /// More references than a thread's cache has slots, made again in the other order: each
    /// keeps one copy, whatever the cache holds.
    #[test]
    fn a_reference_has_one_copy_whatever_the_thread_cache_holds() {
        let names: Vec<String> = (0..3 * crate::recent::SLOTS).map(|i| format!("m{i}")).collect();
        let first: Vec<&MethodRef> = names.iter().map(|n| method_ref(mref(n))).collect();
        for (i, n) in names.iter().enumerate().rev() {
            let again = method_ref(mref(n));
            assert!(std::ptr::eq(first[i], again), "{n}");
            assert_eq!(again.name.as_str(), n);
        }
    }

    /// Equal by address, ordered and hashed as the values are, whichever was interned first.
    #[test]
    fn an_interned_pointer_orders_and_hashes_by_content() {
        use std::hash::BuildHasher;
        let (late, early) = (Interned::new(mref("zz_interned_first")), Interned::new(mref("aa_interned_second")));
        assert!(early < late);
        assert_eq!(late, Interned::new(mref("zz_interned_first")));
        assert_ne!(late, early);
        assert_eq!(FxBuildHasher.hash_one(late), FxBuildHasher.hash_one(mref("zz_interned_first")));
    }

    #[test]
    fn instructions_stay_small() {
        assert_eq!(std::mem::size_of::<crate::classfile::model::Insn>(), 16);
    }
}
