//! The abstract domains of section 3: threads, locks, ownership, attributes,
//! access paths and access snapshots, and method summaries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::classfile::model::MethodRef;
use crate::sym::Sym;

/// 3.3: which threads may run in parallel with the current one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Threads {
    NoThread,
    AnyThreadButSelf,
    AnyThread,
}

impl Threads {
    pub fn join(self, other: Threads) -> Threads {
        self.max(other)
    }
    pub fn is_any(self) -> bool {
        self == Threads::AnyThread
    }
    pub fn can_conflict(self, other: Threads) -> bool {
        self.join(other) == Threads::AnyThread
    }
}

/// 3.2: lock count, 0..=5.
pub const LOCK_TOP: u8 = 5;

/// 3.4: ownership. `OwnedIf(set)`: owned if all the formals in the set are owned
/// at the call site (the empty set is plain `Owned`). The set is a bitmask of
/// formal indexes (formals beyond 63 are treated as never owned).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Own {
    OwnedIf(u64),
    Unowned,
}

pub const OWNED: Own = Own::OwnedIf(0);

impl Own {
    pub fn formal(i: usize) -> Own {
        if i < 64 {
            Own::OwnedIf(1 << i)
        } else {
            Own::Unowned
        }
    }
    pub fn join(self, other: Own) -> Own {
        match (self, other) {
            (Own::OwnedIf(a), Own::OwnedIf(b)) => Own::OwnedIf(a | b),
            _ => Own::Unowned,
        }
    }
    pub fn is_owned(self) -> bool {
        self == OWNED
    }
}

/// 3.5: attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Attr {
    Functional,
    OnMainThread,
    /// A boolean true exactly off the main thread: a comparison of the main and the current
    /// looper made a value (`return Looper.myLooper() != Looper.getMainLooper()`).
    OffMainThread,
    LockHeld,
    Synchronized,
    /// The main looper or main thread (Android models): compared with the current one,
    /// it makes a main-thread check.
    MainThreadHandle,
    /// The current looper or thread (Android models).
    CurrentThreadHandle,
    /// Code that can be handed to another thread: a lambda or method reference made by the
    /// `invokedynamic` at this instruction index, or the object allocated by the `new` there
    /// (thread-handoff models). Local to one method: never part of a summary.
    Handed(u32),
    /// A `Thread` made here to run the handed code made at this instruction index: when it is
    /// started, what that code captures is shared. Local to one method, like `Handed`.
    ThreadOf(u32),
    /// A stream whose operations run their functions on many threads at once.
    ParallelStream,
    /// A `Handler` (or its looper) whose messages run on the main thread, or the main thread's
    /// executor (`Context.getMainExecutor()`).
    MainHandler,
    /// A `Handler` or looper of a background thread (`HandlerThread.getLooper()`).
    WorkerHandler,
    /// The read lock of a read/write lock (`ReadWriteLock.readLock()`, `StampedLock.asReadLock()`),
    /// whatever type holds it: `lock()` on it takes a read-mode lock (lock-precision extension).
    ReadLockHandle,
}

/// The thread that code handed to another thread runs on (thread-handoffs extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Target {
    /// A background thread, possibly several at once (`AnyThread`).
    Background,
    /// The main thread (`AnyThreadButSelf`).
    Main,
}

/// A formal whose code a method hands to another thread (see [`Summary::param_handoffs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ParamHandoff {
    pub formal: u16,
    pub target: Target,
    /// The thread runs one task at a time (a single-thread executor, a looper).
    pub serial: bool,
}

/// 2.1: the base of an access path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Base {
    /// Formal 0 of an instance method.
    This,
    /// Formal `i` other than `this` (formal indexes count `this` as 0).
    Param(u16),
    /// The static root of a class.
    Static(Sym),
    /// A named local slot that is not a parameter.
    Local(u16),
    /// A temporary: a call result or allocation, identified by its instruction.
    Temp(u32),
}

impl Base {
    pub fn formal_index(self) -> Option<usize> {
        match self {
            Base::This => Some(0),
            Base::Param(i) => Some(i as usize),
            _ => None,
        }
    }
    /// 2.2 rule 1: only formal- and static-rooted accesses are kept.
    pub fn is_reportable(self) -> bool {
        matches!(self, Base::This | Base::Param(_) | Base::Static(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Step {
    /// A field, identified by its declaring class and name.
    Field { class: Sym, name: Sym },
    /// Any element of an array.
    Array,
}

/// The steps of a path: shared when non-empty (paths are copied far more often
/// than extended); the empty case holds no allocation, so copying a bare base never
/// touches a reference count that other threads also touch.
#[derive(Debug, Clone, Default)]
pub struct Steps(Option<Arc<[Step]>>);

impl std::ops::Deref for Steps {
    type Target = [Step];
    fn deref(&self) -> &[Step] {
        self.0.as_deref().unwrap_or(&[])
    }
}

impl From<Vec<Step>> for Steps {
    fn from(v: Vec<Step>) -> Steps {
        if v.is_empty() {
            Steps(None)
        } else {
            Steps(Some(Arc::from(v)))
        }
    }
}

impl From<&[Step]> for Steps {
    fn from(v: &[Step]) -> Steps {
        if v.is_empty() {
            Steps(None)
        } else {
            Steps(Some(Arc::from(v)))
        }
    }
}

impl FromIterator<Step> for Steps {
    fn from_iter<I: IntoIterator<Item = Step>>(iter: I) -> Steps {
        Steps::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl PartialEq for Steps {
    fn eq(&self, other: &Steps) -> bool {
        **self == **other
    }
}
impl Eq for Steps {}
impl PartialOrd for Steps {
    fn partial_cmp(&self, other: &Steps) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Steps {
    fn cmp(&self, other: &Steps) -> std::cmp::Ordering {
        (**self).cmp(&**other)
    }
}
impl std::hash::Hash for Steps {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}
impl Serialize for Steps {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}
impl<'de> Deserialize<'de> for Steps {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Steps, D::Error> {
        Ok(Steps::from(Vec::<Step>::deserialize(d)?))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Path {
    pub base: Base,
    pub steps: Steps,
}

/// Paths longer than this are not extended (guards against unbounded growth
/// through recursive data structures and summary substitution).
pub const MAX_PATH_STEPS: usize = 8;

impl Path {
    pub fn of(base: Base) -> Path {
        Path { base, steps: Steps::default() }
    }
    pub fn with(&self, step: Step) -> Option<Path> {
        if self.steps.len() >= MAX_PATH_STEPS {
            return None;
        }
        let mut steps = Vec::with_capacity(self.steps.len() + 1);
        steps.extend_from_slice(&self.steps);
        steps.push(step);
        Some(Path { base: self.base, steps: Steps::from(steps) })
    }
    /// This path extended by field `name` of class `declaring`.
    pub fn field(&self, declaring: Sym, name: Sym) -> Option<Path> {
        self.with(Step::Field { class: declaring, name })
    }
    pub fn prefix(&self, len: usize) -> Path {
        if len == self.steps.len() {
            return self.clone();
        }
        if len == 0 {
            return Path::of(self.base);
        }
        Path { base: self.base, steps: Steps::from(&self.steps[..len]) }
    }
    pub fn last_field(&self) -> Option<(Sym, Sym)> {
        match self.steps.last() {
            Some(Step::Field { class, name }) => Some((*class, *name)),
            _ => None,
        }
    }
}

/// A map from paths to values: a vector sorted by path (maps are small, and a
/// vector clones with one allocation). Deterministic iteration in path order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMap<V: Copy + Eq> {
    entries: Vec<(Base, Steps, V)>,
}

impl<V: Copy + Eq> Default for PathMap<V> {
    fn default() -> Self {
        PathMap { entries: Vec::new() }
    }
}

/// A total order on bases and steps by [`Sym::fast_cmp`]: cheaper than the content order
/// and the same in every run (path maps are iterated in this order).
fn base_cmp(a: &Base, b: &Base) -> std::cmp::Ordering {
    // Most comparisons in a path map are between paths on one base.
    if a == b {
        return std::cmp::Ordering::Equal;
    }
    base_rank(a).cmp(&base_rank(b)).then_with(|| match (a, b) {
        (Base::Static(x), Base::Static(y)) => x.fast_cmp(*y),
        _ => std::cmp::Ordering::Equal,
    })
}

/// The kind of base, then its index, in one number (indexes are at most 32 bits).
fn base_rank(b: &Base) -> u64 {
    match *b {
        Base::This => 0,
        Base::Param(i) => 1 << 32 | u64::from(i),
        Base::Static(_) => 2 << 32,
        Base::Local(i) => 3 << 32 | u64::from(i),
        Base::Temp(i) => 4 << 32 | u64::from(i),
    }
}

fn step_cmp(a: &Step, b: &Step) -> std::cmp::Ordering {
    match (a, b) {
        (Step::Field { class: c1, name: n1 }, Step::Field { class: c2, name: n2 }) => {
            c1.fast_cmp(*c2).then_with(|| n1.fast_cmp(*n2))
        }
        (Step::Field { .. }, Step::Array) => std::cmp::Ordering::Greater,
        (Step::Array, Step::Field { .. }) => std::cmp::Ordering::Less,
        (Step::Array, Step::Array) => std::cmp::Ordering::Equal,
    }
}

fn fast_cmp(b1: &Base, s1: &[Step], b2: &Base, s2: &[Step]) -> std::cmp::Ordering {
    base_cmp(b1, b2).then_with(|| {
        // Paths copied from one another share their steps: most of a join's comparisons.
        if std::ptr::eq(s1, s2) {
            return std::cmp::Ordering::Equal;
        }
        for (x, y) in s1.iter().zip(s2) {
            let o = step_cmp(x, y);
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        s1.len().cmp(&s2.len())
    })
}

impl<V: Copy + Eq> PathMap<V> {
    fn find(&self, base: Base, steps: &[Step]) -> Result<usize, usize> {
        self.entries.binary_search_by(|(b, s, _)| fast_cmp(b, s, &base, steps))
    }
    pub fn get(&self, p: &Path) -> Option<V> {
        self.get_parts(p.base, &p.steps)
    }
    pub fn get_parts(&self, base: Base, steps: &[Step]) -> Option<V> {
        self.find(base, steps).ok().map(|i| self.entries[i].2)
    }
    pub fn set(&mut self, p: &Path, v: Option<V>) {
        match (self.find(p.base, &p.steps), v) {
            (Ok(i), Some(v)) => self.entries[i].2 = v,
            (Ok(i), None) => {
                self.entries.remove(i);
            }
            (Err(i), Some(v)) => self.entries.insert(i, (p.base, p.steps.clone(), v)),
            (Err(_), None) => {}
        }
    }
    /// Keeps, of the entries on temporaries, those `live` keeps. Temporaries sort last (see
    /// [`base_cmp`]): the entries before them are not looked at.
    pub fn retain_temps(&mut self, live: impl Fn(u32) -> bool) {
        let start = self.entries.partition_point(|(b, _, _)| !matches!(b, Base::Temp(_)));
        let mut kept = start;
        for i in start..self.entries.len() {
            if matches!(self.entries[i].0, Base::Temp(t) if live(t)) {
                self.entries.swap(kept, i);
                kept += 1;
            }
        }
        self.entries.truncate(kept);
    }
    /// Drops the entry of `p` and of every path that extends it.
    pub fn remove_under(&mut self, p: &Path) {
        self.entries.retain(|(b, s, _)| !(*b == p.base && s.starts_with(&p.steps)));
    }
    /// Entries for one base (any steps), in step order.
    pub fn for_base(&self, base: Base) -> impl Iterator<Item = (&[Step], V)> {
        let start = self.entries.partition_point(|(b, _, _)| base_cmp(b, &base) == std::cmp::Ordering::Less);
        self.entries[start..].iter().take_while(move |(b, _, _)| *b == base).map(|(_, s, v)| (&**s, *v))
    }
    pub fn iter(&self) -> impl Iterator<Item = (Path, V)> + '_ {
        self.entries.iter().map(|(b, s, v)| (Path { base: *b, steps: s.clone() }, *v))
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Pointwise merge: `both` decides keys present on both sides, `keep_single`
    /// keeps keys present on one side only.
    pub fn merge(&self, other: &PathMap<V>, both: impl Fn(V, V) -> Option<V>, keep_single: bool) -> PathMap<V> {
        let (a, b) = (&self.entries, &other.entries);
        let mut out = Vec::with_capacity(a.len().max(b.len()));
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let order = if i == a.len() {
                std::cmp::Ordering::Greater
            } else if j == b.len() {
                std::cmp::Ordering::Less
            } else {
                fast_cmp(&a[i].0, &a[i].1, &b[j].0, &b[j].1)
            };
            match order {
                std::cmp::Ordering::Equal => {
                    if let Some(v) = both(a[i].2, b[j].2) {
                        out.push((a[i].0, a[i].1.clone(), v));
                    }
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => {
                    if keep_single {
                        out.push(a[i].clone());
                    }
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    if keep_single {
                        out.push(b[j].clone());
                    }
                    j += 1;
                }
            }
        }
        PathMap { entries: out }
    }
}

/// The kind of an access snapshot (3.6).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AccessKind {
    Read(Path),
    Write(Path),
    ContainerRead(Path, MethodRef),
    ContainerWrite(Path, MethodRef),
    InterfaceCall(Path, MethodRef),
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
}

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
#[derive(Clone, Copy)]
pub struct LockPath(&'static Path);

impl LockPath {
    /// Locks further than this from their root are not told apart (not known): each such path
    /// makes accesses distinct in every summary that carries them, for locks (a monitor of a
    /// field's field) that rarely guard what another method guards by another path.
    pub const MAX_STEPS: usize = 1;

    pub fn new(path: Path) -> LockPath {
        LockPath(crate::interned::lock_path(path))
    }

    /// The lock on `path`'s object, if its identity is kept (see [`LockPath::MAX_STEPS`]).
    pub fn of(path: Path) -> Option<LockPath> {
        (path.steps.len() <= Self::MAX_STEPS).then(|| LockPath::new(path))
    }

    pub fn path(self) -> &'static Path {
        self.0
    }
}

impl PartialEq for LockPath {
    fn eq(&self, other: &LockPath) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for LockPath {}
// By content, as paths are: the same in every run, whatever the interning order.
impl std::hash::Hash for LockPath {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}
impl PartialOrd for LockPath {
    fn partial_cmp(&self, other: &LockPath) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for LockPath {
    fn cmp(&self, other: &LockPath) -> std::cmp::Ordering {
        self.0.cmp(other.0)
    }
}
impl std::fmt::Debug for LockPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
impl Serialize for LockPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}
impl<'de> Deserialize<'de> for LockPath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<LockPath, D::Error> {
        Ok(LockPath::new(Path::deserialize(d)?))
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
    let outer = |p: &Path| last_name(p).is_some_and(|n| n.as_str().starts_with("this$"));
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

/// A call site on the way from a summary's method to an access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CallSite {
    pub callee: MethodRef,
    pub line: u32,
}

/// The call sites from a summary's method down to an access, outermost first:
/// a shared list, so that applying a summary prepends one node per access
/// instead of copying every trace.
#[derive(Debug, Clone, Default)]
pub struct Trace(Option<Arc<TraceNode>>);

/// The call site's fields are stored flat, with the callee interned: 24 bytes a node instead
/// of 48 (large code has millions of nodes).
#[derive(Debug)]
pub struct TraceNode {
    callee: &'static MethodRef,
    line: u32,
    len: u32,
    next: Trace,
}

impl TraceNode {
    fn site(&self) -> CallSite {
        CallSite { callee: *self.callee, line: self.line }
    }
}

impl Trace {
    pub fn empty() -> Trace {
        Trace(None)
    }
    pub fn prepend(&self, site: CallSite) -> Trace {
        self.prepend_interned(crate::interned::method_ref(site.callee), site.line)
    }
    /// [`Trace::prepend`] with the callee already interned.
    pub fn prepend_interned(&self, callee: &'static MethodRef, line: u32) -> Trace {
        Trace(Some(Arc::new(TraceNode { callee, line, len: self.len() as u32 + 1, next: self.clone() })))
    }
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |n| n.len as usize)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    pub fn first(&self) -> Option<CallSite> {
        self.0.as_ref().map(|n| n.site())
    }
    pub fn iter(&self) -> impl Iterator<Item = CallSite> + '_ {
        let mut cur = self.0.as_deref();
        std::iter::from_fn(move || {
            let node = cur?;
            cur = node.next.0.as_deref();
            Some(node.site())
        })
    }
    /// The first node and the rest of the trace, for walkers that share work between
    /// traces with a common tail (identified by the node's address).
    pub fn split_first(&self) -> Option<(CallSite, &Trace, usize)> {
        self.0.as_ref().map(|n| (n.site(), &n.next, Arc::as_ptr(n) as usize))
    }

    /// Identifies this trace among the live ones (0 for the empty trace): equal ids are
    /// the same shared list.
    pub fn tail_id(&self) -> usize {
        self.0.as_ref().map_or(0, |n| Arc::as_ptr(n) as usize)
    }

    pub fn from_vec(sites: Vec<CallSite>) -> Trace {
        sites.into_iter().rev().fold(Trace::empty(), |t, s| t.prepend(s))
    }
}

impl PartialEq for Trace {
    fn eq(&self, other: &Trace) -> bool {
        self.len() == other.len() && self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Trace {}
impl PartialOrd for Trace {
    fn partial_cmp(&self, other: &Trace) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Trace {
    /// Site by site, outermost first; a shorter trace that is a prefix comes first. Traces
    /// share tails, and a shared node ends the walk: the rest is the same list.
    fn cmp(&self, other: &Trace) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let (mut a, mut b) = (self.0.as_deref(), other.0.as_deref());
        loop {
            match (a, b) {
                (None, None) => return Ordering::Equal,
                (None, Some(_)) => return Ordering::Less,
                (Some(_), None) => return Ordering::Greater,
                (Some(x), Some(y)) if std::ptr::eq(x, y) => return Ordering::Equal,
                (Some(x), Some(y)) => match x.site().cmp(&y.site()) {
                    Ordering::Equal => (a, b) = (x.next.0.as_deref(), y.next.0.as_deref()),
                    unequal => return unequal,
                },
            }
        }
    }
}
impl Serialize for Trace {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}
impl<'de> Deserialize<'de> for Trace {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Trace, D::Error> {
        Ok(Trace::from_vec(Vec::<CallSite>::deserialize(d)?))
    }
}

/// Where a snapshot happens: the access line in the innermost method, and the
/// call sites from the summary's method down to it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Site {
    pub line: u32,
    #[serde(default, skip_serializing_if = "Trace::is_empty")]
    pub trace: Trace,
}

impl Site {
    /// The line shown in the summary's own method.
    pub fn outer_line(&self) -> u32 {
        self.trace.first().map_or(self.line, |c| c.line)
    }
    /// Deterministic preference between two sites of the same snapshot: the
    /// earliest in the method, then the shortest trace.
    pub fn preferred(a: Site, b: Site) -> Site {
        let ka = (a.outer_line(), a.trace.len(), a.line);
        let kb = (b.outer_line(), b.trace.len(), b.line);
        if kb < ka || (kb == ka && b.trace < a.trace) {
            b
        } else {
            a
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// Shared between the summaries that have the same snapshot (see `shared_keys`).
    #[serde(flatten)]
    pub key: Arc<SharedKey>,
    pub site: Site,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// 3.7: a method summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub threads: Threads,
    pub locks: u8,
    /// Locks released that the method did not take (a helper calling `unlock()`): its
    /// callers no longer hold them after the call. Applied before `locks`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub releases: u8,
    /// Sorted by key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accesses: Vec<Access>,
    pub return_ownership: Own,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_attribute: Option<Attr>,
    /// Constructors and class initialisers only: fields holding synchronized containers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synchronized_fields: Vec<Path>,
    /// Escape-ownership extension: formals whose object escapes in the method, with
    /// the ownership it escapes to (over the callee's formals), sorted by formal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub param_escapes: Vec<(u16, Own)>,
    /// Local-aliases extension: formals (not `this`) whose object the method stores into a
    /// location named from its formals or a static, on every normal return: a caller's local
    /// passed there stands for that location afterwards. Sorted by formal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub param_stores: Vec<(u16, Path)>,
    /// Returned-paths extension: the path, over the formals, that the method returns on
    /// every normal return (a getter's field): the caller's value is that path. None for a
    /// result that is fresh or has an attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_path: Option<Path>,
    /// Thread-handoffs extension: formals (not `this`) whose code the method hands to another
    /// thread (`void inBackground(Runnable r) { mExecutor.execute(r); }`): a caller's lambda
    /// given there runs on that thread. Sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub param_handoffs: Vec<ParamHandoff>,
    /// With `return_path`: the path was read under a lock (or before the lock state changed),
    /// so the caller's value is the object it held then, which the caller does not read
    /// again (a snapshot); what the caller reaches through it is still reached through the path.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub return_snapshot: bool,
    /// Object-monitors extension: the static paths the method accesses (itself or through
    /// callees) unprotected only because the locks it holds are monitors of `this`, sorted;
    /// for the report's message. Not in summary files: only the analysed module reports.
    #[serde(skip)]
    pub own_monitor_statics: Vec<Path>,
    /// The field of `this` whose value every normal return gives as it was read, under any
    /// lock (`synchronized int size() { return count; }`): the method is that field's getter
    /// (locked-getter evidence). Not in summary files: only the analysed module reports.
    #[serde(skip)]
    pub returned_field: Option<Path>,
}

impl Summary {
    /// The summary of a method that is not analysed (4.3).
    pub fn empty() -> Summary {
        Summary {
            threads: Threads::NoThread,
            locks: 0,
            releases: 0,
            accesses: Vec::new(),
            return_ownership: Own::Unowned,
            return_attribute: None,
            synchronized_fields: Vec::new(),
            param_escapes: Vec::new(),
            param_stores: Vec::new(),
            return_path: None,
            return_snapshot: false,
            param_handoffs: Vec::new(),
            own_monitor_statics: Vec::new(),
            returned_field: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock(base: Base, fields: &[&str]) -> LockPath {
        let mut p = Path::of(base);
        for f in fields {
            p = p.field(Sym::new("p.C"), Sym::new(f)).unwrap();
        }
        LockPath::new(p)
    }

    fn locked_under(l: Option<LockPath>) -> AccessKey {
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new("x")).unwrap();
        AccessKey { kind: AccessKind::Write(path), thread: Threads::AnyThread, lock: true, lock_on: l, own_pre: Own::Unowned, handed: false, started: false }
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

    /// Traces order like their lists of call sites, whether they share nodes or not.
    #[test]
    fn traces_order_by_their_sites_whether_they_share_a_tail_or_not() {
        let site = |name: &str, line| CallSite {
            callee: MethodRef { class: Sym::new("p.C"), name: Sym::new(name), descriptor: Sym::new("()V") },
            line,
        };
        let tail = Trace::from_vec(vec![site("b", 2), site("c", 3)]);
        let lists = [
            vec![],
            vec![site("a", 1)],
            vec![site("a", 1), site("b", 2)],
            vec![site("a", 1), site("b", 2), site("c", 3)],
            vec![site("a", 1), site("b", 2), site("c", 4)],
            vec![site("a", 2), site("b", 2), site("c", 3)],
            vec![site("d", 1)],
        ];
        // Each list both built alone and, where it ends with `tail`, built on the shared tail.
        let built = |sites: &Vec<CallSite>| {
            let mut out = vec![Trace::from_vec(sites.clone())];
            if sites.len() == 3 && sites[1..] == [site("b", 2), site("c", 3)] {
                out.push(tail.prepend(sites[0]));
            }
            out
        };
        for x in &lists {
            for y in &lists {
                for tx in built(x) {
                    for ty in built(y) {
                        assert_eq!(tx.cmp(&ty), x.cmp(y), "{x:?} against {y:?}");
                        assert_eq!(tx == ty, x == y, "{x:?} against {y:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn bases_sort_by_kind_then_index_and_statics_by_their_class() {
        let (a, b) = (Sym::new("p.A"), Sym::new("p.B"));
        let (first, second) = if a.fast_cmp(b).is_lt() { (a, b) } else { (b, a) };
        let order = [
            Base::This,
            Base::Param(1),
            Base::Param(2),
            Base::Param(u16::MAX),
            Base::Static(first),
            Base::Static(second),
            Base::Local(0),
            Base::Local(u16::MAX),
            Base::Temp(0),
            Base::Temp(u32::MAX),
        ];
        for (i, x) in order.iter().enumerate() {
            for (j, y) in order.iter().enumerate() {
                assert_eq!(base_cmp(x, y), i.cmp(&j), "{x:?} against {y:?}");
            }
        }
    }

    #[test]
    fn only_the_temporaries_not_kept_are_dropped_and_the_order_stays() {
        let field = |base: Base| Path::of(base).field(Sym::new("p.C"), Sym::new("f")).unwrap();
        let paths = [
            Path::of(Base::This),
            field(Base::This),
            Path::of(Base::Param(1)),
            Path::of(Base::Static(Sym::new("p.C"))),
            Path::of(Base::Local(4)),
            Path::of(Base::Temp(1)),
            Path::of(Base::Temp(2)),
            field(Base::Temp(2)),
            Path::of(Base::Temp(3)),
        ];
        let mut map: PathMap<Own> = PathMap::default();
        for p in &paths {
            map.set(p, Some(Own::Unowned));
        }
        map.retain_temps(|t| t == 2);
        let kept: Vec<Path> = map.iter().map(|(p, _)| p).collect();
        let expected: Vec<Path> =
            paths.iter().filter(|p| !matches!(p.base, Base::Temp(1) | Base::Temp(3))).cloned().collect();
        let mut sorted = expected.clone();
        sorted.sort_by(|a, b| fast_cmp(&a.base, &a.steps, &b.base, &b.steps));
        assert_eq!(kept, sorted);
        assert_eq!(kept.len(), 7);
    }
}
