//! 3.6: access snapshots' keys (what is accessed, how, on which thread, under which lock and
//! ownership), shared between summaries, and the locks they are taken under.

use serde::{Deserialize, Serialize};

use super::*;
use crate::classfile::model::MethodRef;

/// The kind of an access snapshot (3.6).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AccessKind {
    Read(Path),
    Write(Path),
    ContainerRead(Path, CalledMethod),
    ContainerWrite(Path, CalledMethod),
    InterfaceCall(Path, CalledMethod),
}

impl AccessKind {
    pub fn path(&self) -> &Path {
        match self {
            AccessKind::Read(p)
            | AccessKind::Write(p)
            | AccessKind::ContainerRead(p, _)
            | AccessKind::ContainerWrite(p, _)
            | AccessKind::InterfaceCall(p, _) => p,
        }
    }
    pub fn is_write(&self) -> bool {
        matches!(self, AccessKind::Write(_) | AccessKind::ContainerWrite(..))
    }
    pub fn with_path(&self, p: Path) -> AccessKind {
        match self {
            AccessKind::Read(_) => AccessKind::Read(p),
            AccessKind::Write(_) => AccessKind::Write(p),
            AccessKind::ContainerRead(_, m) => AccessKind::ContainerRead(p, *m),
            AccessKind::ContainerWrite(_, m) => AccessKind::ContainerWrite(p, *m),
            AccessKind::InterfaceCall(_, m) => AccessKind::InterfaceCall(p, *m),
        }
    }
}

/// The method a container access or an interface call calls, interned: a key keeps a pointer
/// (large code holds millions of keys, 16 bytes less each).
pub type CalledMethod = crate::interned::Interned<MethodRef>;

/// The identity of a snapshot (3.6: location and trace are not part of it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AccessKey {
    pub kind: AccessKind,
    pub thread: Threads,
    pub lock: bool,
    /// With `lock`: the one lock held, when its identity is known (lock-identities
    /// extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_on: Option<LockPath>,
    pub own_pre: Own,
    /// The access is in code handed to another thread (thread-handoff models): its thread
    /// and lock are the handed code's own, whatever its callers run on or hold.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub handed: bool,
    /// Handed code of a started `Thread` object on that object's own fields (`worker.start()`,
    /// then `run()` on `worker.count`): only the object's one thread runs it, so two such
    /// accesses to one location do not race; they race with the rest of the class (see `races`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub started: bool,
    /// With `started`: code a constructor hands to another thread at its one handoff (not in a
    /// loop), on the new object's own fields. It runs once per object, so such accesses do not
    /// race with each other; they are not one thread with other started code.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once: bool,
    /// Handed code of a thread the method starts and joins before it returns (thread-joins
    /// extension): it runs within the method's call, so it races with the rest of the class as
    /// the method's own code does, and within the method with its other threads and with
    /// what the method does while it runs (`during`; see `races`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined: Option<JoinedThread>,
    /// Made by the method while a thread it joins later may be running (thread-joins extension).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub during: bool,
}

/// The thread a joined access runs on (see [`AccessKey::joined`]): one thread, named by the
/// instruction that made its code, or [`JoinedThread::MANY`], several running at once (made
/// in a loop, of code given to more than one thread, or joined by a callee).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct JoinedThread(std::num::NonZeroU16);

impl JoinedThread {
    pub const MANY: JoinedThread = JoinedThread(std::num::NonZeroU16::MAX);

    /// The one thread running the code made at instruction `pc` (a method has fewer
    /// instructions than bytes of code, at most 65,535: keys stay small).
    pub fn made_at(pc: u32) -> JoinedThread {
        u16::try_from(pc.saturating_add(1)).ok().and_then(std::num::NonZeroU16::new).map_or(Self::MANY, JoinedThread)
    }

    /// Whether two accesses of this thread may run at once: only for several threads.
    pub fn is_many(self) -> bool {
        self == Self::MANY
    }
}

/// A shared access key. Never weakly held: `triomphe`'s `Arc` keeps no weak count, and large
/// code holds millions of keys (16 bytes less each, with the allocator's size classes).
pub type KeyRef = triomphe::Arc<SharedKey>;

/// An access key with its hash, as summaries share it (see `shared_keys`): applying a callee's
/// access unchanged at a call reuses both, without hashing its path again.
#[derive(Debug)]
pub struct SharedKey {
    hash: u64,
    key: AccessKey,
}

impl SharedKey {
    pub fn new(key: AccessKey) -> SharedKey {
        SharedKey { hash: key_hash(&key), key }
    }

    /// A key whose [`key_hash`] is `hash`.
    pub fn with_hash(hash: u64, key: AccessKey) -> SharedKey {
        SharedKey { hash, key }
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }
}

impl AccessKey {
    /// Whether the lock each access is made under keeps the other out: both are locked,
    /// and not under two locks known to differ.
    #[inline]
    pub fn locks_exclude(&self, other: &AccessKey) -> bool {
        self.lock
            && other.lock
            && match (self.lock_on, other.lock_on) {
                (Some(a), Some(b)) if a != b => !different_locks(a.path(), b.path()),
                _ => true,
            }
    }
}

/// A lock, by the path of its object: a monitor's object (`this` for a synchronized instance
/// method, the class for a static one, as a static root without fields) or the location a
/// `Lock` is held in. Interned: a key keeps a pointer, and equal locks are one address.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LockPath(crate::interned::Interned<Path>);

impl LockPath {
    /// Locks further than this from their root are not told apart (not known): each such path
    /// makes accesses distinct in every summary that carries them, for locks (a monitor of a
    /// field's field) that rarely guard what another method guards by another path.
    pub const MAX_STEPS: usize = 1;

    pub fn new(path: Path) -> LockPath {
        LockPath(crate::interned::Interned::new(path))
    }

    /// The lock on `path`'s object, if its identity is kept (see [`LockPath::MAX_STEPS`]).
    pub fn of(path: Path) -> Option<LockPath> {
        (path.steps.len() <= Self::MAX_STEPS).then(|| LockPath::new(path))
    }

    pub fn path(self) -> &'static Path {
        self.0.get()
    }
}

impl std::fmt::Debug for LockPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Whether two locks, by the paths of their objects, are surely two objects. Not when a path is
/// rooted at a parameter (private to its method); nor when both end in the same field, a lock
/// object shared by collaborating objects (`this.mLock` and `this.mHelper.mLock`, given the same
/// lock when made); nor when either is an outer instance (`this.this$0`), often the other.
fn different_locks(a: &Path, b: &Path) -> bool {
    let comparable = |p: &Path| matches!(p.base, Base::This | Base::Static(_));
    let last_name = |p: &Path| match p.steps.last() {
        Some(Step::Field { name, .. }) => Some(*name),
        _ => None,
    };
    let outer = |p: &Path| p.steps.last().is_some_and(Step::is_outer_instance);
    a != b
        && comparable(a)
        && comparable(b)
        && !(last_name(a).is_some() && last_name(a) == last_name(b))
        && !outer(a)
        && !outer(b)
}

/// The hash of an access key that shared keys and access sets use.
pub fn key_hash(key: &AccessKey) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(key)
}

impl std::ops::Deref for SharedKey {
    type Target = AccessKey;
    fn deref(&self) -> &AccessKey {
        &self.key
    }
}

impl PartialEq for SharedKey {
    fn eq(&self, other: &SharedKey) -> bool {
        self.hash == other.hash && self.key == other.key
    }
}
impl Eq for SharedKey {}

impl Serialize for SharedKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.key.serialize(s)
    }
}
impl<'de> Deserialize<'de> for SharedKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SharedKey, D::Error> {
        AccessKey::deserialize(d).map(SharedKey::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;
    fn lock(base: Base, fields: &[&str]) -> LockPath {
        let mut p = Path::of(base);
        for f in fields {
            p = p.field(Sym::new("p.C"), Sym::new(f)).unwrap();
        }
        LockPath::new(p)
    }

    fn locked_under(l: Option<LockPath>) -> AccessKey {
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new("x")).unwrap();
        AccessKey { kind: AccessKind::Write(path), thread: Threads::AnyThread, lock: true, lock_on: l, own_pre: Own::Unowned, handed: false, started: false, once: false, joined: None, during: false }
    }


    #[test]
    fn locks_exclude_unless_known_to_be_two_objects() {
        let excl = |a, b| locked_under(a).locks_exclude(&locked_under(b));
        let this = Some(lock(Base::This, &[]));
        let m_lock = Some(lock(Base::This, &["mLock"]));
        assert!(excl(this, this));
        assert!(!excl(this, m_lock));
        assert!(!excl(Some(lock(Base::Static(Sym::new("p.C")), &[])), this));
        // Unknown, a parameter's, a field of the same name further on, an outer instance.
        assert!(excl(None, m_lock));
        assert!(excl(Some(lock(Base::Param(1), &[])), this));
        assert!(excl(Some(lock(Base::This, &["mHelper", "mLock"])), m_lock));
        assert!(excl(Some(lock(Base::This, &["this$0"])), this));
        // Equal locks are one interned path.
        assert_eq!(lock(Base::This, &["mLock"]), m_lock.unwrap());
    }

    #[test]
    fn access_keys_stay_small() {
        assert!(std::mem::size_of::<AccessKey>() <= 96, "{}", std::mem::size_of::<AccessKey>());
    }
}
