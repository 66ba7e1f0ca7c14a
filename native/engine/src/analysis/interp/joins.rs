//! Threads a method joins (thread-joins extension). A thread made here, started and joined
//! (`join()`) before every normal return runs within the method's call: its start comes
//! before all it does, and all it does before the `join()` that sees it end (JLS 17.4.5).
//! So does a task made here and handed to an executor when the method waits on its future
//! (`get()`) or closes (or awaits the termination of) the executor, one it made; and a task or
//! thread whose code captures a `CountDownLatch` the method made, once the method `await`s the
//! latch (the code counts it down as it ends; one that counted down before its last access
//! would be missed), or a `Semaphore` the method made without permits, once it `acquire`s it
//! (the code releases it as it ends). Its accesses
//! are marked `joined` (with which thread), and the method's own accesses made while such a
//! thread may be running `during`; `races` reports on them from the marks. A method that may
//! return with one of its threads still running keeps no mark.

use crate::fxhash::FxHashMap;

use crate::classfile::model::*;

use super::super::domain::*;
use super::access_set::NewKey;
use super::state::*;
use super::{waits, Interp};

/// The threads made here that may be running (none in almost every state: boxed, so that the
/// states of methods without threads stay small).
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Running(Option<Box<Threads>>);

/// The threads that may be running, by the instruction that made their code, each with
/// whether it was also put into an array or a collection: a `join()` of a thread taken back
/// from one (`for (Thread t : threads) t.join()`) is taken to join those.
#[derive(Debug, Clone, PartialEq, Default)]
struct Threads {
    /// Sorted by instruction.
    made: Vec<(u32, bool)>,
    /// The tasks held by something made here, with the instruction that made it: an executor
    /// they were handed to, whose closing ends them, or a latch they capture, whose `await`
    /// does.
    held_by: Vec<(u32, u32)>,
    /// A thread of unknown origin was joined in a loop: those put into an array or a
    /// collection are over. A flag rather than their removal: the loop that joins them leaves by its head,
    /// where the state is also that of no turn at all (as if the array were empty, when the
    /// loop that started them made none either).
    stored_joined: bool,
}

impl Running {
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Whether a thread made here may be running now.
    pub(super) fn any(&self) -> bool {
        self.0.as_ref().is_some_and(|t| t.made.iter().any(|(_, stored)| !stored || !t.stored_joined))
    }

    /// Running on either side: running after the join.
    pub(super) fn join(&self, other: &Running) -> Running {
        match (&self.0, &other.0) {
            (_, None) => self.clone(),
            (None, _) => other.clone(),
            (Some(_), Some(b)) => {
                let mut out = self.clone();
                for &(code, stored) in &b.made {
                    out.add(code, stored);
                }
                for &(code, waiter) in &b.held_by {
                    out.hold_until(code, waiter);
                }
                out.threads().stored_joined |= b.stored_joined;
                out
            }
        }
    }

    fn threads(&mut self) -> &mut Threads {
        self.0.get_or_insert_with(Default::default)
    }

    fn add(&mut self, code: u32, stored: bool) {
        let made = &mut self.threads().made;
        match made.binary_search_by_key(&code, |(c, _)| *c) {
            Ok(i) => made[i].1 |= stored,
            Err(i) => made.insert(i, (code, stored)),
        }
    }

    fn contains(&self, code: u32) -> bool {
        self.0.as_ref().is_some_and(|t| t.made.binary_search_by_key(&code, |(c, _)| *c).is_ok())
    }

    fn end(&mut self, code: u32) {
        if let Some(t) = &mut self.0 {
            t.made.retain(|(c, _)| *c != code);
            if t.made.is_empty() {
                self.0 = None;
            }
        }
    }

    /// The code made at `code` runs until what was made at `waiter` waits for it.
    fn hold_until(&mut self, code: u32, waiter: u32) {
        let held = &mut self.threads().held_by;
        if let Err(i) = held.binary_search(&(code, waiter)) {
            held.insert(i, (code, waiter));
        }
    }

    /// `close()` (or `awaitTermination`) of the executor made at `waiter`, or `await()` on the
    /// latch made there: the tasks it holds are over.
    pub(super) fn end_held_by(&mut self, waiter: u32) {
        let Some(t) = &self.0 else { return };
        let ended: Vec<u32> = t.held_by.iter().filter(|(_, w)| *w == waiter).map(|(code, _)| *code).collect();
        for code in ended {
            self.end(code);
        }
        if let Some(t) = &mut self.0 {
            t.held_by.retain(|(_, w)| *w != waiter);
        }
    }

    fn end_stored(&mut self) {
        if self.0.is_some() {
            self.threads().stored_joined = true;
        }
    }
}

/// What the method's threads came to.
#[derive(Default)]
pub(super) struct Joins {
    /// By the instruction that made a thread's code: whether more than one thread runs that
    /// code (made in a loop, or by two instructions), and the instruction that made the thread.
    made: FxHashMap<u32, (bool, usize)>,
    /// A normal return with a thread still running.
    unjoined: bool,
    /// The thread whose handed code is being applied, when it is one the method joins: made
    /// here (by the instruction that made its code), or the many of a parallel stream.
    pub(super) applying: Option<JoinedThread>,
}

impl<'a, 'e> Interp<'a, 'e> {
    /// A thread made or started here (or a task whose future is kept) runs the code made at
    /// `code` from now on: the thread its accesses are marked with.
    pub(super) fn thread_runs(&mut self, st: &mut State, code: u32) -> Option<JoinedThread> {
        if !self.env.extensions.thread_joins {
            return None;
        }
        st.running.add(code, false);
        for latch in self.latches_captured(st, code) {
            st.running.hold_until(code, latch);
        }
        let (pc, in_loop) = (self.pc, self.in_loop);
        let made = self.joins.made.entry(code).or_insert((in_loop, pc));
        made.0 |= in_loop || made.1 != pc;
        Some(JoinedThread::made_at(code))
    }

    /// Whether a thread running the code made at `code` was made or started here before.
    pub(super) fn thread_made(&self, code: u32) -> bool {
        self.joins.made.contains_key(&code)
    }

    /// Runs `apply`, marking the accesses of the handed code it applies as `thread`'s.
    pub(super) fn applying_as(&mut self, thread: Option<JoinedThread>, apply: impl FnOnce(&mut Self)) {
        self.joins.applying = thread.filter(|_| self.env.extensions.thread_joins);
        apply(self);
        self.joins.applying = None;
    }

    /// `join()` on `thread` (or `get()` on a task's future): a thread made here, or, taken back
    /// from an array or a collection in a loop (its origin unknown), those put into one.
    pub(super) fn thread_joined(&mut self, st: &mut State, thread: &Expr) {
        match thread_code(st, thread) {
            Some(code) => st.running.end(code),
            // The loop that joins them all; a join of one thread of unknown origin elsewhere
            // may be of another thread.
            _ if self.in_loop => st.running.end_stored(),
            _ => {}
        }
    }

    /// A call made while threads made here may be running: `join()` on one (or `get()` on the
    /// future of a task) ends it, and a thread given to a call (a collection's `add`) may be
    /// joined once taken back.
    pub(super) fn threads_at_call(&mut self, st: &mut State, named: &MethodRef, is_static: bool, args: &[Expr]) {
        // `close()` waits for the tasks to end; so does `awaitTermination`, its result taken as
        // true, as the code that goes on to use the tasks' work takes it.
        let closes = matches!(
            (named.name.as_str(), named.descriptor.as_str()),
            ("close", "()V") | ("awaitTermination", "(JLjava/util/concurrent/TimeUnit;)Z")
        );
        match args.first() {
            Some(thread) if !is_static && waits::waits_for_end(self.env.table, named) => self.thread_joined(st, thread),
            Some(executor) if !is_static && closes => {
                if let Some(Attr::ExecutorMadeAt(made)) = attr_e(st, executor) {
                    st.running.end_held_by(made);
                }
            }
            // `await()`, or `await(timeout, unit)` with its result taken as true, as for
            // `awaitTermination`.
            Some(latch) if !is_static && is_latch_await(named) => {
                if let Some(Attr::LatchMadeAt(made)) = attr_e(st, latch) {
                    st.running.end_held_by(made);
                }
            }
            _ => {
                for a in &args[usize::from(!is_static).min(args.len())..] {
                    self.maybe_thread_stored(st, a);
                }
            }
        }
    }

    /// A task made here and handed over that the method may wait for: through the future or
    /// the thread the handoff returns (`get()` or `join()` ends it later: Java 21's
    /// `Thread.startVirtualThread(task)`), or by closing the executor, when the method made it.
    /// Marks it as running, held by that executor, and the future as the task's, as a thread
    /// made to run it is; gives the task's thread.
    pub(super) fn task_handed(&mut self, st: &mut State, named: &MethodRef, executor: Option<&Expr>, params: &[Expr], ret: &Path) -> Option<JoinedThread> {
        const FUTURES: [&str; 4] = [
            ")Ljava/util/concurrent/Future;",
            ")Ljava/util/concurrent/CompletableFuture;",
            ")Ljava/util/concurrent/ScheduledFuture;",
            ")Ljava/lang/Thread;",
        ];
        if !self.env.extensions.thread_joins {
            return None;
        }
        let code = handed_code_made_at(st, params)?;
        let made_executor = match executor.and_then(|e| attr_e(st, e)) {
            Some(Attr::ExecutorMadeAt(made)) => Some(made),
            _ => None,
        };
        let future = FUTURES.iter().any(|f| named.descriptor.as_str().ends_with(f));
        if !future && made_executor.is_none() && self.latches_captured(st, code).is_empty() {
            return None;
        }
        let thread = self.thread_runs(st, code);
        if let Some(made) = made_executor {
            st.running.hold_until(code, made);
        }
        if future {
            st.attrs.set(ret, Some(Attr::ThreadOf(code)));
        }
        thread
    }

    /// `new CountDownLatch(n)`, or `new Semaphore(0)`: the latch is the one made here (its
    /// `await()`, or the semaphore's `acquire()`, waits for the tasks that capture it). A
    /// semaphore made with permits lets its first `acquire()` through at once.
    pub(super) fn note_latch_made(&self, st: &mut State, named: &MethodRef, args: &[Expr]) {
        let latch = match named.class.as_str() {
            "java.util.concurrent.CountDownLatch" => true,
            "java.util.concurrent.Semaphore" => matches!(args.get(1), Some(Expr::Const(ConstVal::Int(0)))),
            _ => false,
        };
        if !self.env.extensions.thread_joins || !latch {
            return;
        }
        if let Some(Expr::Path(latch)) = args.first() {
            st.attrs.set(latch, Some(Attr::LatchMadeAt(self.pc as u32)));
        }
    }

    /// The latches made here that the code made at `code` captures.
    fn latches_captured(&self, st: &State, code: u32) -> Vec<u32> {
        let Some(captured) = self.handed_values.get(&code) else { return Vec::new() };
        captured
            .iter()
            .filter_map(|v| match attr_e(st, v) {
                Some(Attr::LatchMadeAt(made)) => Some(made),
                _ => None,
            })
            .collect()
    }

    /// A value put into an array or given to a call (a collection's `add`): if it is a thread
    /// made here, a `join()` of a thread of unknown origin may be its.
    pub(super) fn maybe_thread_stored(&self, st: &mut State, value: &Expr) {
        if st.running.is_empty() {
            return;
        }
        if let Some(code) = thread_code(st, value).filter(|&code| st.running.contains(code)) {
            st.running.add(code, true);
        }
    }

    /// A normal return: a thread still running outlives the call.
    pub(super) fn note_threads_at_return(&mut self, st: &State) {
        self.joins.unjoined |= st.running.any();
    }

    /// The thread an access of handed code being applied runs on, from the callee's key: the
    /// thread made here whose code it is, or, for a thread the callee joins, one of many.
    pub(super) fn joined_thread(&self, callee_key: &AccessKey) -> Option<JoinedThread> {
        if callee_key.handed {
            callee_key.joined.map(|_| JoinedThread::MANY)
        } else {
            self.joins.applying
        }
    }

    /// The marks of the accesses once the whole method is seen: none if a thread may outlive
    /// the call, else the threads that turned out to be many.
    pub(super) fn settle_joined_marks(&mut self) {
        if self.joins.made.is_empty() {
            return;
        }
        let unjoined = self.joins.unjoined;
        let many: Vec<JoinedThread> =
            self.joins.made.iter().filter(|(_, (many, _))| *many).map(|(code, _)| JoinedThread::made_at(*code)).collect();
        self.accesses.rewrite(|key| {
            let settled = match key.joined {
                _ if unjoined => None,
                Some(thread) if many.contains(&thread) => Some(JoinedThread::MANY),
                other => other,
            };
            let during = key.during && !unjoined;
            (settled != key.joined || during != key.during).then(|| NewKey::made(AccessKey { joined: settled, during, ..key.clone() }))
        });
    }
}

/// The code a value made here runs when it is a thread (or a future) made to run it, or a
/// thread object made here.
fn thread_code(st: &State, value: &Expr) -> Option<u32> {
    match attr_e(st, value) {
        Some(Attr::ThreadOf(code) | Attr::Handed(code)) => Some(code),
        _ => None,
    }
}

/// `CountDownLatch.await()`, or `await(timeout, unit)`; a `Semaphore`'s `acquire`, with or
/// without a count, interruptibly or not, or `tryAcquire` with a timeout.
fn is_latch_await(named: &MethodRef) -> bool {
    match (named.class.as_str(), named.name.as_str()) {
        ("java.util.concurrent.CountDownLatch", "await") => {
            matches!(named.descriptor.as_str(), "()V" | "(JLjava/util/concurrent/TimeUnit;)Z")
        }
        ("java.util.concurrent.Semaphore", "acquire" | "acquireUninterruptibly") => true,
        ("java.util.concurrent.Semaphore", "tryAcquire") => {
            matches!(named.descriptor.as_str(), "(JLjava/util/concurrent/TimeUnit;)Z" | "(IJLjava/util/concurrent/TimeUnit;)Z")
        }
        _ => false,
    }
}

/// The instruction that made the code among `values`, when one is code made here.
pub(super) fn handed_code_made_at(st: &State, values: &[Expr]) -> Option<u32> {
    values.iter().find_map(|v| match attr_e(st, v) {
        Some(Attr::Handed(pc)) => Some(pc),
        _ => None,
    })
}
