//! The abstract domains of section 3: threads, locks, ownership, attributes,
//! access paths and access snapshots, and method summaries.

use serde::{Deserialize, Serialize};
use thin_vec::ThinVec;

mod accesses;
mod paths;
mod traces;

pub use accesses::*;
pub use paths::*;
pub use traces::*;

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
    /// started, what that code captures is shared. Also the future of a task made there and
    /// handed to an executor: waiting on it, as joining the thread, ends the code (see
    /// `interp/joins.rs`). Local to one method, like `Handed`.
    ThreadOf(u32),
    /// An executor made here (`Executors.newFixedThreadPool(n)`, Java 21's
    /// `newVirtualThreadPerTaskExecutor()`): its `close()` waits for every task handed to it
    /// (see `interp/joins.rs`). Local to one method, like `Handed`.
    ExecutorMadeAt(u32),
    /// A `CountDownLatch` (or a `Semaphore` without permits) made here: `await()` (`acquire()`)
    /// on it waits for the tasks that captured it (see `interp/joins.rs`). Local to one method,
    /// like `Handed`.
    LatchMadeAt(u32),
    /// A Kotlin flow made by the builder or operator called at this instruction index: it runs
    /// the code and flows that call was given when collected (see `flows.rs`). Local to one
    /// method, like `Handed`.
    FlowMadeAt(u32),
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
    /// A Kotlin coroutine dispatcher of background threads (`Dispatchers.IO`, `Dispatchers.Default`).
    BackgroundDispatcher,
    /// The count a work-in-progress counter had before `getAndIncrement()` (lock-precision
    /// extension): where it was zero, the caller runs the drain loop the counter guards, one
    /// thread at a time, as if it held a lock.
    WorkGuard,
    /// A reactive library's scheduler of a known thread (`Schedulers.io()`), which a method
    /// returns: a chain given it runs there (see `kept_schedulers::KeptSchedulers`).
    Scheduler(Scheduler),
    /// An executor posting to a handler whose looper racer does not know (`new
    /// HandlerExecutor(handler)`): where it runs its tasks is not followed, as a post to that
    /// handler is not. Local to one method, like `Handed`.
    LooperExecutor,
    /// A read lock's `tryLock()` answer, or the stamp of a `StampedLock`'s `tryReadLock()`
    /// (lock-precision extension): where it is true (not zero), the read lock is held.
    ReadLockHeld,
    /// An executor that runs its tasks at once, in the calling thread
    /// (`MoreExecutors.directExecutor()`), which a method may return.
    DirectExecutor,
    /// The `CompletableFuture` of a task a callee handed to another thread and did not wait
    /// for, as the callee returns it (`return supplyAsync(task)`, or a continuation of one): a
    /// continuation given it runs on the task's thread (thread-handoffs extension).
    TaskFuture,
}

impl Attr {
    /// Names an instruction of the method being analysed: never returned, never in a summary.
    pub fn is_local(self) -> bool {
        matches!(
            self,
            Attr::Handed(_) | Attr::ThreadOf(_) | Attr::ExecutorMadeAt(_) | Attr::LatchMadeAt(_) | Attr::FlowMadeAt(_) | Attr::LooperExecutor
        )
    }
}

/// Where a reactive chain runs the functions given to one of its operators (`reactive.rs`): on
/// which thread, and whether one task at a time (a single-thread scheduler: its functions do
/// not race with each other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Scheduler {
    pub target: Target,
    pub serial: bool,
}

/// The thread that code handed to another thread runs on (thread-handoffs extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Target {
    /// A background thread, possibly several at once (`AnyThread`).
    Background,
    /// The main thread (`AnyThreadButSelf`).
    Main,
}

/// A formal whose code a method runs during the call, on the caller's thread (see
/// [`Summary::param_runs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ParamRun {
    pub formal: u16,
    /// The method holds a lock when it runs the code.
    pub locked: bool,
}

/// A formal whose code a method hands to another thread (see [`Summary::param_handoffs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ParamHandoff {
    pub formal: u16,
    pub target: Target,
    /// The thread runs one task at a time (a single-thread executor, a looper).
    pub serial: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// Shared between the summaries that have the same snapshot (see `shared_keys`).
    #[serde(flatten)]
    pub key: KeyRef,
    pub site: Site,
}

/// Asks for the key of the access a few places after `accesses[n]` (see `crate::prefetch`).
#[inline(always)]
pub fn prefetch_key_ahead(accesses: &[Access], n: usize) {
    crate::prefetch::ahead(accesses, n, |a| KeyRef::as_ptr(&a.key));
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// 3.7: a method summary. The lists most summaries leave empty are `ThinVec`s, one word when
/// empty: a large run holds hundreds of thousands of summaries at its peak (the Android
/// framework jar's plugin-mode peak is 30 to 40 MB lower than with `Vec`s).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub threads: Threads,
    /// Foreign-locks extension: the method runs on any thread only by locks on other objects
    /// than its own (a static lock, an inner class's outer object), none of its own fields
    /// accessed under a lock: its accesses to its own fields are not on any thread.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub own_fields_unshared: bool,
    pub locks: u8,
    /// Locks released that the method did not take (a helper calling `unlock()`): its
    /// callers no longer hold them after the call. Applied before `locks`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub releases: u8,
    /// Read-mode locks held on return (a helper taking a read lock: `acquireRead()`), and
    /// read locks released that the method did not take (lock-precision extension).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub read_locks: u8,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub read_releases: u8,
    /// Locks held on return on some paths only, beyond `locks` (a helper that locks each slot
    /// of a list in a loop and returns them): a caller's release of one of them is no release
    /// of a lock the caller's callers took (callee-releases extension).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub may_locks: u8,
    /// Sorted by key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accesses: Vec<Access>,
    pub return_ownership: Own,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_attribute: Option<Attr>,
    /// Constructors and class initialisers only: fields holding synchronized containers.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub synchronized_fields: ThinVec<Path>,
    /// Escape-ownership extension: formals whose object escapes in the method, with
    /// the ownership it escapes to (over the callee's formals), sorted by formal.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub param_escapes: ThinVec<(u16, Own)>,
    /// Local-aliases extension: formals (not `this`) whose object the method stores into a
    /// location named from its formals or a static, on every normal return: a caller's local
    /// passed there stands for that location afterwards. Sorted by formal.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub param_stores: ThinVec<(u16, Path)>,
    /// Returned-paths extension: the path, over the formals, that the method returns on
    /// every normal return (a getter's field): the caller's value is that path. None for a
    /// result that is fresh or has an attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_path: Option<Path>,
    /// Thread-handoffs extension: formals (not `this`) whose code the method hands to another
    /// thread (`void inBackground(Runnable r) { mExecutor.execute(r); }`): a caller's lambda
    /// given there runs on that thread. Sorted.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub param_handoffs: ThinVec<ParamHandoff>,
    /// Lambda-arguments extension: formals (not `this`) whose code the method runs during the
    /// call (`static void now(Runnable r) { r.run(); }`, an execute-around helper): a caller's
    /// lambda given there runs in the caller, under the locks the method held then. Sorted.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub param_runs: ThinVec<ParamRun>,
    /// With `return_path`: the path was read under a lock (or before the lock state changed),
    /// so the caller's value is the object it held then, which the caller does not read
    /// again (a snapshot); what the caller reaches through it is still reached through the path.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub return_snapshot: bool,
    /// Local-aliases extension: fields of the fresh object every normal return gives back that
    /// hold an object named from the formals or a static (a factory `Box.of(n)` keeping `n` in
    /// `inner`): the caller's result holds it there too. Sorted.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub return_holds: ThinVec<(Step, Path)>,
    /// Object-monitors extension: the static paths the method accesses (itself or through
    /// callees) unprotected only because the locks it holds are monitors of `this`, sorted;
    /// for the report's message. Not in summary files: only the analysed module reports.
    #[serde(skip)]
    pub own_monitor_statics: ThinVec<Path>,
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
            own_fields_unshared: false,
            locks: 0,
            releases: 0,
            read_locks: 0,
            read_releases: 0,
            may_locks: 0,
            accesses: Vec::new(),
            return_ownership: Own::Unowned,
            return_attribute: None,
            synchronized_fields: ThinVec::new(),
            param_escapes: ThinVec::new(),
            param_stores: ThinVec::new(),
            return_path: None,
            return_snapshot: false,
            return_holds: ThinVec::new(),
            param_handoffs: ThinVec::new(),
            param_runs: ThinVec::new(),
            own_monitor_statics: ThinVec::new(),
            returned_field: None,
        }
    }
}
