//! The analysis extensions beyond RacerD (spec 11.3), one switch each. All but four are on
//! by default; `racerd_compat` turns every one off and reproduces the reference.

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Extensions {
    /// Reporting: races on different fields of one line are all reported.
    pub report_per_field: bool,
    /// Reporting: one report per race (same access and conflicting site), with a
    /// count of the other entry points that reach it.
    pub end_location_dedup: bool,
    /// Reporting: accesses without a line (class files compiled without debug
    /// information) are reported with a null line instead of being dropped.
    pub lineless_reports: bool,
    /// Loops: accesses are recorded only from the converged states of the fixpoint.
    pub converged_loops: bool,
    /// Locks: must-hold at joins, a failed `tryLock` releases nothing, read-mode locks
    /// (`ReentrantReadWriteLock` read lock, `StampedLock` read stamp) do not protect
    /// writes, subclasses of the modelled lock classes are locks, a lock on an object the
    /// method has just made protects nothing, and a work counter found at zero guards the
    /// drain loop it lets one caller into.
    pub lock_precision: bool,
    /// Models: the JDK collections completed (queues, deques, sorted maps and sets,
    /// `compute*` as writes, `Vector` and the concurrent queues as thread-safe).
    pub collection_models: bool,
    /// Threads: Android background callbacks and thread annotations, main-looper checks.
    pub android_threads: bool,
    /// Threads: a binder's (an AIDL stub implementation's) interface methods run on the binder
    /// thread pool, after its constructor, with arguments of their own, its `oneway` ones one
    /// call at a time (with `android_threads`).
    pub binder_services: bool,
    /// Threads: the request methods of a servlet or filter (`doGet`, `service`, `doFilter`,
    /// ...) and the handler methods of a Spring MVC controller run on the server's request
    /// threads, several at once, after the object's configuration (`init`, injection, property
    /// setters) and before its destruction, with arguments of their own.
    pub request_threads: bool,
    /// Reporting: compiler-generated bridge methods (generic overrides such as
    /// `doInBackground(Object[])`) are not reported; the methods they forward to are.
    pub skip_bridges: bool,
    /// Threads: code handed to another thread (executors, threads, `CompletableFuture.*Async`,
    /// parallel streams, Android handlers and main-thread posts) is analysed where it is
    /// handed, on the thread it is handed to.
    pub thread_handoffs: bool,
    /// Locks: a callee that releases locks it did not take (a helper calling `unlock()`)
    /// releases them in its callers' state; summaries record the releases.
    pub callee_releases: bool,
    /// Threads: a call to a method of the caller's own class whose own code takes a lock is
    /// evidence of concurrency, as a lock taken in the caller itself is.
    pub callee_lock_evidence: bool,
    /// Control flow: a test of a local holding an `int` constant (a flag set from a literal,
    /// `ok = true`) follows only the branch the constant takes.
    pub constant_branches: bool,
    /// Threads: a call that returns with a lock still held (a helper that only calls
    /// `lock()`) is evidence of concurrency: the caller goes on under a lock it took, as if
    /// it had called `lock()` itself. Unlike `callee_lock_evidence`, a callee that takes and
    /// releases its own lock says nothing of the caller.
    pub held_lock_evidence: bool,
    /// Reporting: a subclass's accesses to `this` meet the accesses of the methods it
    /// inherits, so they race with its superclass's concurrent methods.
    pub inherited_accesses: bool,
    /// Reporting: the narrow form of `inherited_accesses`: a subclass pools only the inherited
    /// methods marked `@ThreadSafe` (on the method, one it overrides, its class or a
    /// superclass), which its superclass declares may run concurrently with anything.
    pub thread_safe_inherited: bool,
    /// Control flow: exception handlers are analysed, entered from every instruction of
    /// their try range with the states of those points joined.
    pub exception_handlers: bool,
    /// Reporting: an unprotected write races with accesses to the same location made under
    /// a lock by a concurrent method (a synchronized getter with a plain setter).
    pub locked_location_evidence: bool,
    /// Reporting: the narrow form of `locked_location_evidence`: an unprotected write races
    /// with a read of the same location made under a lock by the field's getter (a method
    /// without parameters, returning a value, named after the field or returning the field as
    /// it read it) in a concurrent method: a synchronized getter with a plain setter.
    pub locked_getter_evidence: bool,
    /// Ownership: a fresh object stops being owned when it escapes (stored into a
    /// location that is not owned, added to a container, passed to a callee whose
    /// summary lets it escape, `this` leaked by a constructor); calls without code
    /// return values that are not owned.
    pub escape_ownership: bool,
    /// Locals: a local holding a copy of a field path is that path while it is not
    /// reassigned and the lock state has not changed; a reassigned parameter no longer
    /// names the caller's object; a conditional value (`c ? this.a : this.b`) is each path.
    pub local_aliases: bool,
    /// Interfaces: a call to a private interface method (javac 11 and later compile it to
    /// `invokeinterface`) has exactly one implementation, so it is no interface call.
    pub private_interface_calls: bool,
    /// Lambdas: a lambda or method reference given to a call without code that does not hand
    /// it to another thread runs during that call, on the caller's thread and under its locks;
    /// given to analysed code, it runs where that code's summary says it runs its parameter.
    pub lambda_arguments: bool,
    /// Writes: a value made of constants only is not functional. `int x = 5; this.f = x`
    /// writes `this.f` as `this.f = 5` does, and so does a loop counter stored into a field.
    pub constant_values: bool,
    /// Calls: a method returning a path of its receiver or parameters (a getter) gives the
    /// caller that path, so `getHolder().value = 5` writes `this.holder.value`.
    pub returned_paths: bool,
    /// Calls: a virtual or interface call on an object the method allocated (`Base b = new
    /// Sub(); b.run()`) runs the implementation of the allocated class (spec 2.5, the
    /// reference's precision step), not the one the named class resolves to.
    pub fresh_receiver_dispatch: bool,
    /// Calls: a virtual or interface call, in a class, on its private or final field that every
    /// store gives a new object of one class (`final Worker w = new CountingWorker()`) runs that
    /// class's implementation.
    pub field_receiver_dispatch: bool,
    /// Locks: a monitor of `this` (a synchronized instance method, `synchronized (this)`)
    /// does not protect static fields: threads working on two objects of the class do not
    /// exclude each other.
    pub object_monitors: bool,
    /// Threads: a method whose only evidence of other threads is a lock on another object (a
    /// static one, or the outer object of an inner class), with none of its own object's
    /// fields accessed under it, says that object is shared, not its own: its accesses to its
    /// own fields are not on any thread (an object a static pool lends, an iterator locking
    /// the collection that made it).
    pub foreign_locks: bool,
    /// Threads (with `foreign_locks`): a field the constructors set from their parameter
    /// holds another's object, as the outer object is (`given_fields`): a lock on it is on
    /// another object, and an access through it is none of the own object's fields.
    pub given_field_locks: bool,
    /// Locks: an access knows the lock it is made under when that is one lock of known
    /// identity (a monitor of `this`, of a field's object, a lock held in a field); a write
    /// under a known lock other than the one a field's `@GuardedBy` names breaks the annotation.
    pub lock_identities: bool,
    /// Reporting: the wide form of `lock_identities`: two accesses under two different known
    /// locks do not exclude each other. Off by default (an option turns it on): code that
    /// guards one field by several locks, each method by its own, is reported everywhere.
    // An option of its own (`--different-locks`), not a name `without` knows.
    #[serde(skip)]
    pub different_locks: bool,
    /// Reporting: a method its callers must call with a lock held, annotated `@GuardedBy` (or
    /// the Checker Framework's `@Holding`) or named so (`updateLocked`, and the Android
    /// framework's `LP`, `LPr`, `LPw`, `LI`, `LIF`, `LSP`, `LOSP` suffixes), is reported only
    /// through its callers, as a private method is: its unprotected accesses are those of the
    /// callers that call it without a lock.
    pub lock_held_by_callers: bool,
    /// Reporting: a package-private method that every call in the analysed code makes with a
    /// lock held (from a synchronized method or block, between `lock()` and `unlock()`, or
    /// from another such method, private ones included) is reported only through its callers,
    /// as a private method is. Code outside its package cannot call it.
    pub locked_callers: bool,
    /// Ownership: the object an instance native method returns is not owned, and what is
    /// done through it is reported as through a static root (the same object for every call).
    /// Not a static native's (a JNI factory's) nor an array's, made for the call; nor a
    /// library's or an interface's result, most often a fresh copy.
    pub native_results: bool,
    /// Threads: a `Thread` subclass's own `run()` runs on its thread, once per object: its
    /// accesses to the object's own fields race with the rest of the class, not each other.
    pub thread_runs: bool,
    /// Evidence: a `synchronized` override of a library method declared `synchronized` for
    /// reasons of its own (`InputStream.mark` and `reset`, `Throwable`'s cause and stack trace)
    /// copies the declaration: no evidence of other threads by itself.
    pub copied_synchronized: bool,
    /// Threads: in a thread's own `run()` (`thread_runs`), the objects its object's own fields
    /// hold, when those fields are only ever given new objects made for them or null
    /// (`this.state = new State()`), are that thread's too: accesses to their fields race with
    /// the rest of the class, not each other. Objects the code only ever makes to be a
    /// `ThreadLocal`'s value are their thread's too: their fields are safe steps.
    pub thread_kept_objects: bool,
    /// Threads: a thread the method makes and starts and then joins (`join()`) before every
    /// return, a task it hands to an executor and waits for (its future's `get()`, the
    /// `close()` of an executor it made, the `await()` of a latch it made that the task
    /// captures), and the functions of a parallel stream's operation,
    /// run within the method's call. They race with the rest of the class as the method's own code does; within the
    /// method, with each other and with what the method does while they run, not with what
    /// it does before they start or after they are joined (JLS 17.4.5).
    pub thread_joins: bool,
    /// Models: a container call to a method whose summary shows a lock held around every
    /// access to its own object (a `LinkedBlockingDeque` of the analysed code, or of an
    /// upstream module) is a container access made under that lock, whatever the caller holds.
    pub self_locking_collections: bool,
    /// Kotlin coroutines: a suspend function or lambda resumes after a suspension point in the
    /// state it suspended in (its locks held, its locals kept), not in the state its state
    /// machine reads back; and the coroutines `Mutex` is a lock (`lock`, `unlock`, `tryLock`,
    /// so the inlined `withLock`), held across the suspensions of its block.
    pub suspend_resumes: bool,
    /// Calls: the helpers compilers write for their callers are analysed, so that what they do
    /// is the caller's: javac's accessors of an outer class's private fields (`access$108` for
    /// `count++` in an inner class of a class compiled for Java 10 or earlier), kotlinc's
    /// default-argument helpers (`bump$default`, the call `bump()` makes) and bodies of open
    /// suspend functions (`work$suspendImpl`, which `work` calls). The reference analyses no
    /// method whose name holds `$` and follows only accessors of one instruction.
    pub synthetic_helpers: bool,
    /// Summaries: what a method gives back, and what a constructor or class initializer leaves
    /// in the fields (a thread-safe container), are what its normal returns leave: a path that
    /// throws (an argument check) returns no value and makes no object. The reference joins
    /// the thrown exits in, so a constructor that checks its argument before it sets a field
    /// to a `ConcurrentHashMap` loses the map's thread-safety.
    pub normal_returns: bool,
    /// Kotlin: an `internal` function compiles to a public method whose name carries its
    /// module's (`findTask$kotlinx_coroutines_core`), which the reference skips as it skips
    /// every name with `$`. It is source code: analysed and reported on as any method.
    pub kotlin_internal: bool,
    /// Paths: a final or private field that its class only gives a helper of the same source
    /// file made with `this` (`new Worker(this)`, an inner object), whose constructor keeps it
    /// in a field nothing else changes, leads back to its holder: `this.task.owner.count` is
    /// `this.count`.
    pub back_references: bool,
    /// Reporting (with `locked_callers`): a package-private helper that only message handlers
    /// (`handleMessage` of a `Handler` subclass or callback) call runs on their looper, one
    /// message at a time, and is reported through them, as a helper every caller locks is.
    pub looper_callers: bool,
    /// Paths: a weak or soft reference stands for the object it was made with: `new
    /// WeakReference<>(owner)` is `owner`, and `ref.get()` is what `ref` holds, so a helper
    /// keeping its owner weakly (a static `Handler` subclass, as lint asks) reaches the owner's
    /// fields as one keeping it strongly does.
    pub weak_references: bool,
    /// Thread handoffs: an executor that runs its tasks at once, in the calling thread
    /// (`MoreExecutors.directExecutor()`, `Runnable::run`, a class whose `execute` only runs its
    /// task), hands nothing to another thread: the task runs as a call made there would.
    pub direct_executors: bool,
    /// Thread handoffs: code registered to run when a Guava future completes
    /// (`future.addListener(runnable, executor)`, `Futures.addCallback(future, callback,
    /// executor)`, `Futures.transform(...)`) runs on the executor given, or on the thread that
    /// completes the future.
    pub future_listeners: bool,
    /// Thread handoffs: `AccessController.doPrivileged(action)` (and `Subject.doAs`) runs the
    /// action's `run()` at once, in the calling thread, under its locks, as a call made there
    /// would: an action made for the call (a lambda, a `new C(...)`), not the caller's own
    /// object.
    pub privileged_actions: bool,
    /// Reporting, the high-confidence mode (RacerDX's stability, spec 11.1): an access through
    /// a field its method assigns takes no part in reporting. Off unless an option turns it on,
    /// in either mode: it drops true races too.
    // An option of its own (`--high-confidence`), not a name `without` knows.
    #[serde(skip)]
    pub high_confidence: bool,
}

impl Extensions {
    /// The extensions a request's options ask for: pure RacerD (`racerd_compat`), or the
    /// default mode with the opt-in rules the options turn on and without the extensions they
    /// turn off. Errs on a name in `without_extensions` that is no extension, in either mode.
    pub fn from_options(options: &crate::api::Options) -> Result<Extensions, String> {
        let chosen = Extensions { different_locks: options.different_locks, high_confidence: options.high_confidence, ..Extensions::ALL }
            .without(&options.without_extensions)?;
        if options.racerd_compat {
            return Ok(Extensions { high_confidence: options.high_confidence, ..Extensions::NONE });
        }
        Ok(chosen)
    }

    /// These extensions turned off, by field name (`thread_handoffs`; `thread-handoffs` too).
    /// The fields are the names: they are looked up through the serialised form, so a new
    /// extension needs no entry anywhere else.
    pub fn without(self, names: &[String]) -> Result<Extensions, String> {
        if names.is_empty() {
            return Ok(self);
        }
        let mut switches = self.switches();
        for name in names {
            match switches.get_mut(&name.trim().replace('-', "_")) {
                Some(on) => *on = serde_json::Value::Bool(false),
                None => {
                    let known: Vec<String> = switches.keys().map(|k| dashed(k)).collect();
                    return Err(format!("no analysis extension is named `{name}` (known: {})", known.join(", ")));
                }
            }
        }
        let turned_off: Extensions = serde_json::from_value(serde_json::Value::Object(switches)).map_err(|e| e.to_string())?;
        Ok(Extensions { different_locks: self.different_locks, high_confidence: self.high_confidence, ..turned_off })
    }

    /// The mode these switches make, in words: `racerd-compat`, `default`, or `default`
    /// followed by the switches that differ from it (`default without thread-handoffs`).
    /// Summary files record it, so that a module can tell when an upstream one was analysed
    /// under other rules. The two reporting options (`different_locks`, `high_confidence`)
    /// leave summaries alone and are not part of it.
    pub fn mode(&self) -> String {
        let (chosen, default) = (self.switches(), Extensions::ALL.switches());
        if chosen == Extensions::NONE.switches() {
            return "racerd-compat".to_string();
        }
        let named = |on: bool| -> Vec<String> {
            chosen.iter().filter(|(k, v)| **v == on && default[*k] != on).map(|(k, _)| dashed(k)).collect()
        };
        let mut mode = "default".to_string();
        for (word, names) in [("with", named(true)), ("without", named(false))] {
            if !names.is_empty() {
                mode += &format!(" {word} {}", names.join(", "));
            }
        }
        mode
    }

    /// The extension switches by field name, in name order (the two options are no switches:
    /// `#[serde(skip)]`).
    fn switches(&self) -> serde_json::Map<String, serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => unreachable!("a struct of booleans serialises to an object"),
        }
    }

    /// The default mode: every extension except `callee_lock_evidence`,
    /// `inherited_accesses` and `locked_location_evidence`, which the corpus shows to add
    /// mostly false alarms (docs/analysis.md) and are kept for measurement, and
    /// `different_locks`, which users turn on (`Options::different_locks`).
    pub const ALL: Extensions = Extensions {
        report_per_field: true,
        end_location_dedup: true,
        lineless_reports: true,
        converged_loops: true,
        lock_precision: true,
        collection_models: true,
        android_threads: true,
        binder_services: true,
        request_threads: true,
        skip_bridges: true,
        thread_handoffs: true,
        callee_releases: true,
        callee_lock_evidence: false,
        held_lock_evidence: true,
        constant_branches: true,
        inherited_accesses: false,
        thread_safe_inherited: true,
        exception_handlers: true,
        locked_location_evidence: false,
        locked_getter_evidence: true,
        escape_ownership: true,
        local_aliases: true,
        private_interface_calls: true,
        lambda_arguments: true,
        constant_values: true,
        returned_paths: true,
        fresh_receiver_dispatch: true,
        field_receiver_dispatch: true,
        object_monitors: true,
        foreign_locks: true,
        given_field_locks: true,
        lock_identities: true,
        different_locks: false,
        high_confidence: false,
        lock_held_by_callers: true,
        locked_callers: true,
        native_results: true,
        thread_runs: true,
        copied_synchronized: true,
        thread_kept_objects: true,
        thread_joins: true,
        self_locking_collections: true,
        suspend_resumes: true,
        synthetic_helpers: true,
        normal_returns: true,
        kotlin_internal: true,
        back_references: true,
        looper_callers: true,
        weak_references: true,
        direct_executors: true,
        future_listeners: true,
        privileged_actions: true,
    };

    pub const NONE: Extensions = Extensions {
        report_per_field: false,
        end_location_dedup: false,
        lineless_reports: false,
        converged_loops: false,
        lock_precision: false,
        collection_models: false,
        android_threads: false,
        binder_services: false,
        request_threads: false,
        skip_bridges: false,
        thread_handoffs: false,
        callee_releases: false,
        callee_lock_evidence: false,
        held_lock_evidence: false,
        constant_branches: false,
        inherited_accesses: false,
        thread_safe_inherited: false,
        exception_handlers: false,
        locked_location_evidence: false,
        locked_getter_evidence: false,
        escape_ownership: false,
        local_aliases: false,
        private_interface_calls: false,
        lambda_arguments: false,
        constant_values: false,
        returned_paths: false,
        fresh_receiver_dispatch: false,
        field_receiver_dispatch: false,
        object_monitors: false,
        foreign_locks: false,
        given_field_locks: false,
        lock_identities: false,
        different_locks: false,
        high_confidence: false,
        lock_held_by_callers: false,
        locked_callers: false,
        native_results: false,
        thread_runs: false,
        copied_synchronized: false,
        thread_kept_objects: false,
        thread_joins: false,
        self_locking_collections: false,
        suspend_resumes: false,
        synthetic_helpers: false,
        normal_returns: false,
        kotlin_internal: false,
        back_references: false,
        looper_callers: false,
        weak_references: false,
        direct_executors: false,
        future_listeners: false,
        privileged_actions: false,
    };
}

/// A switch's name as users write it (`thread-handoffs`).
fn dashed(field: &str) -> String {
    field.replace('_', "-")
}

impl Default for Extensions {
    fn default() -> Extensions {
        Extensions::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_extension_is_turned_off_by_its_name_in_either_spelling() {
        let names = ["thread-handoffs".to_string(), " converged_loops".to_string()];
        let chosen = Extensions::ALL.without(&names).unwrap();
        assert_eq!(chosen, Extensions { thread_handoffs: false, converged_loops: false, ..Extensions::ALL });
        assert_eq!(Extensions::ALL.without(&[]).unwrap(), Extensions::ALL);
        let opted_in = Extensions { different_locks: true, ..Extensions::ALL };
        assert_eq!(opted_in.without(&names).unwrap().different_locks, true, "an option is kept as it was");
        assert!(Extensions::ALL.without(&["different-locks".to_string()]).is_err(), "an option is no extension");
    }

    #[test]
    fn a_mode_names_what_differs_from_the_default() {
        assert_eq!(Extensions::ALL.mode(), "default");
        assert_eq!(Extensions { high_confidence: true, different_locks: true, ..Extensions::ALL }.mode(), "default");
        assert_eq!(Extensions::NONE.mode(), "racerd-compat");
        assert_eq!(Extensions { high_confidence: true, ..Extensions::NONE }.mode(), "racerd-compat");
        let names = ["thread-handoffs".to_string(), "converged-loops".to_string()];
        assert_eq!(Extensions::ALL.without(&names).unwrap().mode(), "default without converged-loops, thread-handoffs");
        let mixed = Extensions { inherited_accesses: true, thread_handoffs: false, ..Extensions::ALL };
        assert_eq!(mixed.mode(), "default with inherited-accesses without thread-handoffs");
    }

    #[test]
    fn an_unknown_name_is_an_error_listing_the_names() {
        let err = Extensions::ALL.without(&["thread-handof".to_string()]).unwrap_err();
        assert!(err.starts_with("no analysis extension is named `thread-handof` (known: android-threads, back-references, binder-services, callee-lock-evidence, callee-releases, collection-models, constant-branches, constant-values, converged-loops, copied-synchronized, direct-executors, end-location-dedup, escape-ownership, "), "{err}");
        assert!(err.contains("thread-handoffs"), "{err}");
    }
}
