//! Thread-handoff models beyond RacerD (spec 11.3, "more thread evidence": executor
//! submission, `Thread.start` targets; Android main-thread posts), on unless
//! `racerd_compat`: the calls that run code given to them on another thread, and the
//! values that say which thread (parallel streams, handlers and their loopers, Netty's event
//! loops; reactive chains in `reactive.rs`). `docs/analysis.md` and `docs/android.md` list them.

use crate::classfile::descriptor::{param_at_slot, params};
use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::domain::Threads;
use super::field_classes::{FieldClasses, FieldLambdas};
use super::thread_fields::{FieldThreads, ThreadCode};
use super::handler_fields::{handler_read, Code, Stored};
use super::kept_schedulers::KeptSchedulers;

pub use super::domain::Target;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandoffModel {
    /// Every argument that is code (a lambda, a method reference, a `Runnable` or
    /// `Callable` object) runs on the target thread.
    Arguments(Target),
    /// `new Thread(r)`: the thread will run `r` in the background once started; until then
    /// what `r` captures is not shared.
    ThreadConstructor,
    /// `ThreadFactory.newThread(r)`, `Thread.Builder.unstarted(r)`: as `new Thread(r)`, for the
    /// thread the call returns.
    MadeThread,
    /// `Thread.run()` called as a method: a thread made to run code runs it in the calling
    /// thread, at once.
    ThreadRun,
    /// `Thread.start()`: a `Thread` subclass runs its own `run()` in the background; so does
    /// `AsyncTask.execute(...)` its `doInBackground(...)`.
    ThreadStart,
    /// `Runtime.addShutdownHook(thread)`: the runtime starts the thread it is given when the
    /// JVM begins to shut down, while the program's other threads still run.
    ShutdownHook,
    /// A stream operation: its function arguments run on many threads at once when the
    /// receiver is a parallel stream, and a stream it returns stays parallel.
    StreamOp,
    /// `Collection.parallelStream()`, `BaseStream.parallel()`.
    MakesParallel,
    /// A `CompletableFuture` continuation that is not `*Async` (`thenApply`, `thenAccept`,
    /// `whenComplete`, ...): its functions run on the thread that completes the future, or in
    /// the caller when it is already done. Followed on a future a task handed to another thread
    /// completes (`supplyAsync(task).thenAccept(...)`), whose continuations run on that thread;
    /// the future it returns is completed there too.
    Continuation,
    /// `Handler.post*`: runs its argument on the thread of the handler's looper.
    HandlerPost,
    /// `new Handler(looper, ...)`, `Handler.createAsync(looper)`: the handler runs what it is
    /// given on the looper's thread.
    HandlerInit,
    /// `new Handler()`, `new Handler(callback)`: the handler runs what it is given on the looper
    /// of the thread that makes it.
    HandlerOnCallingLooper,
    /// A constructor of a `Handler` subclass of the code's own: the handler is on the looper its
    /// `super(...)` call gives (see `classfile::handler_subclass`).
    HandlerSubclassInit(HandlerLooper),
    /// `Handler.sendMessage(msg)`, `sendEmptyMessage(what)`, ...: the handler's `handleMessage`
    /// runs the message on the thread of its looper.
    HandlerSend,
    /// `Handler.obtainMessage(...)`: resolved at the call into `HandlerSend` when the message is
    /// sent at once (`obtainMessage(...).sendToTarget()`); otherwise no handoff.
    ObtainMessage,
    /// `HandlerThread.getLooper()`: the looper of a background thread.
    WorkerLooper,
    /// `Context.getMainLooper()` (an activity's, a service's, any context's): the main looper.
    MainLooper,
    /// `Handler.getLooper()`: the looper of the handler, whose thread is the handler's.
    LooperOfHandler,
    /// `Context.getMainExecutor()`, `ContextCompat.getMainExecutor(context)`: an executor that
    /// runs what it is given on the main thread; likewise Kotlin's `Dispatchers.Main`, and the
    /// coroutine scopes made on it (androidx's `viewModelScope`, `lifecycleScope`).
    MainExecutor,
    /// `new HandlerExecutor(handler)`, `ExecutorCompat.create(handler)`: an executor that posts
    /// what it is given to the handler.
    HandlerExecutor,
    /// `MoreExecutors.directExecutor()`: an executor that runs what it is given at once, in the
    /// calling thread.
    DirectExecutor,
    /// `AccessController.doPrivileged(action, ...)`, `Subject.doAs(subject, action)`: the
    /// action's `run()` runs before the call returns, in the calling thread.
    Privileged,
    /// Kotlin's `Dispatchers.IO` and `Dispatchers.Default`: dispatchers of background pools.
    BackgroundDispatcher,
    /// Kotlin's coroutine builders (`launch`, `async`, `withContext`): the block, the argument at
    /// `block`, runs where the dispatcher of the context at `context` runs it.
    CoroutineBuilder { context: u8, block: u8 },
    /// An operator of a reactive type (RxJava, Reactor): its functions run on the thread the
    /// chain's schedulers choose, found at the call (`reactive::chain_target`), which makes it
    /// `Scheduled`; in a chain without a known scheduler it is no handoff.
    ReactiveOperator,
    /// A reactive operator whose chain runs its functions where this scheduler does.
    Scheduled(super::reactive::Scheduler),
    /// A Kotlin flow builder or operator (`flow { }`, `onEach { }`, ...): the flow it makes runs
    /// the code it is given, and the flows it is given, when collected (`flows.rs`).
    FlowOperator,
    /// `flowOn(context)`: resolved at the call into `FlowContext` when the context names a known
    /// dispatcher; otherwise no handoff.
    FlowOn,
    /// `flowOn` on a dispatcher of this thread: the flow it is given runs there.
    FlowContext(Target),
    /// `launchIn(scope)`, `stateIn(scope, ..)`, `shareIn(scope, ..)`: the flow it is given runs
    /// where the scope's dispatcher runs it.
    FlowLaunch,
    /// `Flow.collect(collector)`: the collector's `emit` runs during the call, in the caller's
    /// context.
    FlowCollect,
    /// A call that registers a framework callback object (`registrations.rs`):
    /// `ConnectivityManager.registerNetworkCallback(request, callback)`, `CameraManager.openCamera(id,
    /// callback, handler)`, ...: its callbacks run where the `Handler` given runs its messages,
    /// or, given none, as the registration says.
    /// A Guava future's listener registration (`future_listeners.rs`: `future.addListener(runnable,
    /// executor)`, `Futures.addCallback(future, callback, executor)`, ...) is one too, whose code
    /// runs on the executor given, or on the thread that completes the future.
    Registration(super::registrations::WithoutHandler),
}

impl HandoffModel {
    /// The handoff of the call at instruction `at` of `insns`, whose callee's model is `model`: a
    /// reactive operator's is found from its chain (no handoff where the chain names no known
    /// scheduler); every other model is the callee's.
    pub fn at_call(
        model: Option<HandoffModel>,
        table: &ClassTable,
        kept: &KeptSchedulers,
        insns: &[Insn],
        at: usize,
    ) -> Option<HandoffModel> {
        match model {
            Some(HandoffModel::ReactiveOperator) => super::reactive::chain_target(table, kept, insns, at).map(HandoffModel::Scheduled),
            Some(HandoffModel::FlowOn) => context_dispatcher(table, kept, &insns[..at]).map(HandoffModel::FlowContext),
            Some(HandoffModel::ObtainMessage) => sent_to_target_at_once(insns, at).then_some(HandoffModel::HandlerSend),
            model => model,
        }
    }
}

/// The continuations of a `CompletionStage` that run where the stage completes (their `*Async`
/// forms run on an executor).
const CONTINUATIONS: &[&str] = &[
    "acceptEither", "applyToEither", "exceptionally", "exceptionallyCompose", "handle", "runAfterBoth", "runAfterEither",
    "thenAccept", "thenAcceptBoth", "thenApply", "thenCombine", "thenCompose", "thenRun", "whenComplete",
];

const EXECUTOR_METHODS: &[&str] =
    &["execute", "submit", "invokeAll", "invokeAny", "schedule", "scheduleAtFixedRate", "scheduleWithFixedDelay"];
const VIEW_POSTS: &[&str] = &["post", "postDelayed", "postOnAnimation", "postOnAnimationDelayed"];
const HANDLER_POSTS: &[&str] = &["post", "postDelayed", "postAtTime", "postAtFrontOfQueue"];
const HANDLER_SENDS: &[&str] = &[
    "sendMessage",
    "sendMessageDelayed",
    "sendMessageAtTime",
    "sendMessageAtFrontOfQueue",
    "sendEmptyMessage",
    "sendEmptyMessageDelayed",
    "sendEmptyMessageAtTime",
];
/// Java 21's thread builders (`Thread.ofVirtual()`, `Thread.ofPlatform()`), named as the
/// calls name them: the JDK table of supertypes predates them.
const THREAD_BUILDERS: &[&str] = &["java.lang.Thread$Builder", "java.lang.Thread$Builder$OfVirtual", "java.lang.Thread$Builder$OfPlatform"];
pub(super) const HANDLER: &str = "android.os.Handler";
const CONTEXT: &str = "android.content.Context";
/// The descriptor of `getLooper()` and `getMainLooper()`.
pub(super) const LOOPER_GETTER: &str = "()Landroid/os/Looper;";
const ASYNC_TASK: &str = "android.os.AsyncTask";
const CONTEXT_COMPAT: &str = "androidx.core.content.ContextCompat";
/// Netty's executors of one event loop: the interface, and the types code names them by most
/// (known by name when Netty itself is not on the classpath).
const NETTY_EVENT_EXECUTORS: &[&str] = &[
    "io.netty.util.concurrent.EventExecutor",
    "io.netty.util.concurrent.OrderedEventExecutor",
    "io.netty.util.concurrent.AbstractEventExecutor",
    "io.netty.util.concurrent.SingleThreadEventExecutor",
    "io.netty.channel.EventLoop",
    "io.netty.channel.SingleThreadEventLoop",
];

/// The handoff model of a call, as far as the extensions on allow.
pub fn enabled_handoff_model(table: &ClassTable, named: &MethodRef, ext: &super::extensions::Extensions) -> Option<HandoffModel> {
    if !ext.thread_handoffs {
        return None;
    }
    let listener = HandoffModel::Registration(super::registrations::WithoutHandler::CompletingThread);
    handoff_model(table, named)
        .filter(|&m| m != listener || ext.future_listeners)
        .filter(|&m| m != HandoffModel::Privileged || ext.privileged_actions)
}

pub fn handoff_model(table: &ClassTable, named: &MethodRef) -> Option<HandoffModel> {
    let class = named.class.as_str();
    let name = named.name.as_str();
    let is = |ancestors: &[&str]| table.is_subtype_of_any(named.class, ancestors);
    if let Some(model) = coroutine_model(class, name).or_else(|| super::flows::flow_model(named)) {
        return Some(model);
    }
    // Kotlin's `thread { ... }` (`kotlin.concurrent.thread`, `thread$default` when arguments
    // are left out) starts a thread running the block, unless `start = false` is given, which
    // is rare: taken as started.
    if class == "kotlin.concurrent.ThreadsKt" && matches!(name, "thread" | "thread$default") {
        return Some(HandoffModel::Arguments(Target::Background));
    }
    if super::reactive::is_reactive_type(table, named.class) {
        return Some(HandoffModel::ReactiveOperator);
    }
    if class.starts_with("java.util.stream.") {
        return Some(match name {
            "parallel" => HandoffModel::MakesParallel,
            _ => HandoffModel::StreamOp,
        });
    }
    if let Some(looper) = handler_subclass_looper(table, named) {
        return Some(HandoffModel::HandlerSubclassInit(looper));
    }
    if runs_privileged_action(named) {
        return Some(HandoffModel::Privileged);
    }
    let model = match name {
        "<init>" if class == "java.lang.Thread" => HandoffModel::ThreadConstructor,
        "<init>" if class == HANDLER && named.descriptor.as_str().starts_with("(Landroid/os/Looper;") => {
            HandoffModel::HandlerInit
        }
        _ if makes_handler_on_calling_looper(named) => HandoffModel::HandlerOnCallingLooper,
        _ if makes_handler_on_looper_given(named) => HandoffModel::HandlerInit,
        "start" if named.descriptor.as_str() == "()V" && is(&["java.lang.Thread"]) => HandoffModel::ThreadStart,
        "addShutdownHook" if class == "java.lang.Runtime" => HandoffModel::ShutdownHook,
        "run" if named.descriptor.as_str() == "()V" && is(&["java.lang.Thread"]) => HandoffModel::ThreadRun,
        // Java 21: a virtual (or platform) thread started at once with the code it is given.
        "startVirtualThread" if class == "java.lang.Thread" => HandoffModel::Arguments(Target::Background),
        "start" if THREAD_BUILDERS.contains(&class) => HandoffModel::Arguments(Target::Background),
        "unstarted" if THREAD_BUILDERS.contains(&class) => HandoffModel::MadeThread,
        // Through the interface only: an analysed factory's own summary says what it does.
        "newThread" if class == "java.util.concurrent.ThreadFactory" => HandoffModel::MadeThread,
        // `AsyncTask.execute(runnable)` (static) runs the runnable on the tasks' executor.
        "execute" if named.descriptor.as_str() == "(Ljava/lang/Runnable;)V" && is(&[ASYNC_TASK]) => {
            HandoffModel::Arguments(Target::Background)
        }
        "execute" | "executeOnExecutor" if is(&[ASYNC_TASK]) => HandoffModel::ThreadStart,
        "parallelStream" if is(&["java.util.Collection"]) => HandoffModel::MakesParallel,
        "getLooper" if is(&["android.os.HandlerThread"]) => HandoffModel::WorkerLooper,
        "getLooper" if named.descriptor.as_str() == LOOPER_GETTER && is(&[HANDLER]) => HandoffModel::LooperOfHandler,
        "getMainLooper" if named.descriptor.as_str() == LOOPER_GETTER && is(&[CONTEXT]) => HandoffModel::MainLooper,
        "getMainExecutor" if is(&[CONTEXT, CONTEXT_COMPAT]) => HandoffModel::MainExecutor,
        _ if is_direct_executor_factory(named) => HandoffModel::DirectExecutor,
        _ if makes_handler_executor(table, named) => HandoffModel::HandlerExecutor,
        "runOnUiThread" if is(&["android.app.Activity"]) => HandoffModel::Arguments(Target::Main),
        // Swing and AWT run what they are given on the event dispatch thread, their main thread.
        "invokeLater" | "invokeAndWait" if matches!(class, "javax.swing.SwingUtilities" | "java.awt.EventQueue") => {
            HandoffModel::Arguments(Target::Main)
        }
        // A Netty event loop runs its tasks on its own thread, the one `inEventLoop()` asks for.
        _ if EXECUTOR_METHODS.contains(&name) && class.starts_with("io.netty.") && is(NETTY_EVENT_EXECUTORS) => {
            HandoffModel::Arguments(Target::Main)
        }
        // A `java.util.Timer` runs its tasks on the timer's own thread.
        _ if EXECUTOR_METHODS.contains(&name)
            && is(&["java.util.concurrent.Executor", "java.util.concurrent.CompletionService", "java.util.Timer"]) =>
        {
            HandoffModel::Arguments(Target::Background)
        }
        _ if name.ends_with("Async") && is(&["java.util.concurrent.CompletableFuture"]) => {
            HandoffModel::Arguments(Target::Background)
        }
        _ if CONTINUATIONS.contains(&name) && is(&["java.util.concurrent.CompletionStage"]) => HandoffModel::Continuation,
        _ if VIEW_POSTS.contains(&name) && is(&["android.view.View"]) => HandoffModel::Arguments(Target::Main),
        _ if HANDLER_POSTS.contains(&name) && is(&[HANDLER]) => HandoffModel::HandlerPost,
        _ if HANDLER_SENDS.contains(&name) && is(&[HANDLER]) => HandoffModel::HandlerSend,
        "obtainMessage" if is(&[HANDLER]) => HandoffModel::ObtainMessage,
        _ if super::future_listeners::registers_listener(table, named) => {
            HandoffModel::Registration(super::registrations::WithoutHandler::CompletingThread)
        }
        _ => return super::registrations::registration(table, named).map(HandoffModel::Registration),
    };
    Some(model)
}

/// Netty's `inEventLoop()` (asked of an `EventExecutor`, an `EventLoop`, ...): whether the current
/// thread is the executor's event loop. Taken as a main-thread query: an event loop is one thread
/// that never runs alongside itself, as the main thread.
pub fn is_event_loop_query(named: &MethodRef) -> bool {
    named.name.as_str() == "inEventLoop" && named.class.as_str().starts_with("io.netty.") && named.descriptor.as_str().ends_with(")Z")
}

/// `kotlinx.coroutines`: the dispatchers, and the builders, static calls whose arguments
/// start with the scope for `launch` and `async` (extension functions), with the context for
/// `withContext`; the `$default` forms take the same arguments first.
fn coroutine_model(class: &str, name: &str) -> Option<HandoffModel> {
    match dispatcher_thread(class, name) {
        Some(Target::Background) => return Some(HandoffModel::BackgroundDispatcher),
        Some(Target::Main) => return Some(HandoffModel::MainExecutor),
        None => {}
    }
    match (class, name) {
        // androidx's scopes of a view model and of a lifecycle: `Dispatchers.Main.immediate`.
        ("androidx.lifecycle.ViewModelKt", "getViewModelScope")
        | ("androidx.lifecycle.LifecycleOwnerKt", "getLifecycleScope")
        | ("androidx.lifecycle.LifecycleKt", "getCoroutineScope") => Some(HandoffModel::MainExecutor),
        ("kotlinx.coroutines.BuildersKt", "launch" | "launch$default" | "async" | "async$default") => {
            Some(HandoffModel::CoroutineBuilder { context: 1, block: 3 })
        }
        ("kotlinx.coroutines.BuildersKt", "withContext") => Some(HandoffModel::CoroutineBuilder { context: 0, block: 1 }),
        _ => None,
    }
}

/// The thread of a Kotlin dispatcher read by a call: `Dispatchers.IO` and `Default` run on a
/// background pool, `Dispatchers.Main` (also `.immediate`) on the main thread.
pub(super) fn dispatcher_thread(class: &str, name: &str) -> Option<Target> {
    match (class, name) {
        ("kotlinx.coroutines.Dispatchers", "getIO" | "getDefault") => Some(Target::Background),
        ("kotlinx.coroutines.Dispatchers", "getMain") | ("kotlinx.coroutines.MainCoroutineDispatcher", "getImmediate") => Some(Target::Main),
        _ => None,
    }
}

/// `Executors.new...()`: a new executor (`newFixedThreadPool(n)`, Java 21's
/// `newVirtualThreadPerTaskExecutor()`).
pub fn makes_executor(named: &MethodRef) -> bool {
    named.class.as_str() == "java.util.concurrent.Executors"
        && named.name.as_str().starts_with("new")
        && named.descriptor.as_str().ends_with("ExecutorService;")
}

/// A call that may run code on a background thread (evidence that its class is concurrent).
pub fn may_hand_to_background(model: HandoffModel) -> bool {
    !matches!(
        model,
        HandoffModel::Arguments(Target::Main)
            | HandoffModel::Scheduled(super::reactive::Scheduler { target: Target::Main, .. })
            | HandoffModel::FlowContext(Target::Main)
            | HandoffModel::FlowOperator
            | HandoffModel::FlowOn
            | HandoffModel::FlowCollect
            | HandoffModel::HandlerInit
            | HandoffModel::HandlerOnCallingLooper
            | HandoffModel::HandlerSubclassInit(_)
            | HandoffModel::ObtainMessage
            | HandoffModel::WorkerLooper
            | HandoffModel::MainLooper
            | HandoffModel::LooperOfHandler
            | HandoffModel::MainExecutor
            | HandoffModel::HandlerExecutor
            | HandoffModel::DirectExecutor
            | HandoffModel::Privileged
            | HandoffModel::ThreadRun
            | HandoffModel::BackgroundDispatcher
            // Followed only after a handoff to another thread, itself the evidence.
            | HandoffModel::Continuation
    )
}

/// The names of the interfaces of privileged actions, whose `run()` `AccessController` calls.
const PRIVILEGED_ACTIONS: [&str; 2] = ["java.security.PrivilegedAction", "java.security.PrivilegedExceptionAction"];

/// `AccessController.doPrivileged(action, ...)` and `doPrivilegedWithCombiner(action, ...)`,
/// `Subject.doAs(subject, action)` and `doAsPrivileged(subject, action, context)`: calls that
/// run the action they are given at once, in the calling thread, and return what it returns.
fn runs_privileged_action(named: &MethodRef) -> bool {
    match (named.class.as_str(), named.name.as_str()) {
        ("java.security.AccessController", "doPrivileged" | "doPrivilegedWithCombiner") => true,
        ("javax.security.auth.Subject", "doAs" | "doAsPrivileged") => true,
        _ => false,
    }
}

/// `new HandlerExecutor(handler)` (the framework's), `ExecutorCompat.create(handler)`
/// (androidx), and a constructor given just a handler, or just a looper (to make its handler
/// on), of an executor class whose `execute` posts to a handler (see
/// `classfile::handler_executor`): the calls that make an executor posting to a handler.
fn makes_handler_executor(table: &ClassTable, named: &MethodRef) -> bool {
    match (named.class.as_str(), named.name.as_str(), named.descriptor.as_str()) {
        ("android.os.HandlerExecutor", "<init>", "(Landroid/os/Handler;)V")
        | ("androidx.core.os.ExecutorCompat", "create", "(Landroid/os/Handler;)Ljava/util/concurrent/Executor;") => true,
        (_, "<init>", "(Landroid/os/Handler;)V" | "(Landroid/os/Looper;)V") => is_handler_executor(table, named.class),
        _ => false,
    }
}

/// `Executor.execute(Runnable)`'s name and descriptor, interned once: asked at every
/// executor call.
static EXECUTE: once_cell::sync::Lazy<(Sym, Sym)> = once_cell::sync::Lazy::new(|| {
    let (name, descriptor) = crate::classfile::handler_executor::EXECUTE;
    (Sym::new(name), Sym::new(descriptor))
});

/// `execute(Runnable)`'s name and descriptor.
pub fn execute_method() -> (Sym, Sym) {
    *EXECUTE
}

/// Whether `m` is the `execute(Runnable)` of an executor posting to a handler.
pub fn is_handler_executor_execute(table: &ClassTable, m: &MethodRef) -> bool {
    (m.name, m.descriptor) == *EXECUTE && is_handler_executor(table, m.class)
}

/// Whether `class` is an executor whose `execute`, its own or inherited, posts to a handler.
fn is_handler_executor(table: &ClassTable, class: Sym) -> bool {
    executes_so(table, class, |h| h.posts_to_handler)
}

/// Whether `class` is an executor whose `execute`, its own or inherited, only runs its task, at
/// once and in the calling thread (Guava's `DirectExecutor`, a class of the code's own; see
/// `classfile::direct_executor`).
pub fn is_direct_executor(table: &ClassTable, class: Sym) -> bool {
    executes_so(table, class, |h| h.runs_its_task)
}

/// Whether `class` is an executor whose `execute`, its own or inherited, has a header that
/// `says` so.
fn executes_so(table: &ClassTable, class: Sym, says: impl Fn(&MethodHeader) -> bool) -> bool {
    let (name, descriptor) = *EXECUTE;
    let execute = MethodRef { class, name, descriptor };
    table.is_subtype_of_any(class, &["java.util.concurrent.Executor"])
        && table.resolve_method(&execute).is_some_and(|m| header_says(table, &m, &says))
}

fn header_says(table: &ClassTable, m: &MethodRef, says: impl Fn(&MethodHeader) -> bool) -> bool {
    table.get(m.class).and_then(|h| table.method(h, m.name, m.descriptor)).is_some_and(says)
}

/// Guava's `MoreExecutors.directExecutor()` and `newDirectExecutorService()` (which "runs each
/// task in the thread that invokes `execute`/`submit`"), in Guava's own package or a copy
/// shaded into another.
pub fn is_direct_executor_factory(named: &MethodRef) -> bool {
    matches!(named.name.as_str(), "directExecutor" | "newDirectExecutorService")
        && named.descriptor.as_str().starts_with("()")
        && named.class.as_str().rsplit('.').next() == Some("MoreExecutors")
}

/// Whether `insn` leaves an executor that runs its tasks at once, in the calling thread: a
/// method reference `Runnable::run` or a lambda `r -> r.run()` made as an `Executor`,
/// `MoreExecutors.directExecutor()`, a new object of a direct executor class, or a static
/// field typed as one (Guava's `DirectExecutor.INSTANCE`).
pub fn makes_direct_executor(table: &ClassTable, insn: &Insn) -> bool {
    match insn {
        Insn::InvokeDynamic(DynamicCall { descriptor, lambda: Some(body), .. }) => {
            descriptor.as_str().ends_with(")Ljava/util/concurrent/Executor;")
                && ((body.class.as_str(), body.name.as_str(), body.descriptor.as_str()) == ("java.lang.Runnable", "run", "()V")
                    || header_says(table, body, |h| h.runs_its_task))
        }
        Insn::Invoke { method, .. } => {
            is_direct_executor_factory(method) || (method.name.as_str() == "<init>" && is_direct_executor(table, method.class))
        }
        Insn::GetStatic(f) => {
            crate::classfile::descriptor::object_class(f.descriptor.as_str()).is_some_and(|c| is_direct_executor(table, Sym::new(&c)))
        }
        _ => false,
    }
}

/// The code a `Runnable` or `Callable` object of `class` runs: its `run()` or `call()`; for
/// an `AsyncTask`, its `doInBackground(...)`; for a Kotlin suspend lambda, its `invokeSuspend`;
/// for a Kotlin `() -> Unit` lambda, its `invoke()`; for a reactive library's function (RxJava's
/// `Consumer`, ...), its one method; for a Kotlin flow or flow collector class (an operator
/// kotlinc inlines), its `collect` or `emit`.
/// `java.lang.Thread` itself runs the `Runnable` it was given (modelled at its constructor).
pub fn body_of_class(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    if class.as_str() == "java.lang.Thread" {
        return None;
    }
    if let Some(task) = do_in_background(table, class) {
        return task;
    }
    if let Some(body) = suspend_lambda_body(table, class).or_else(|| function_lambda_body(table, class)) {
        return Some(body);
    }
    // Interned once: the call graph asks for every class whose methods may pass `this` on.
    static BODIES: once_cell::sync::Lazy<[(Sym, Sym); 2]> = once_cell::sync::Lazy::new(|| {
        [(Sym::new("run"), Sym::new("()V")), (Sym::new("call"), Sym::new("()Ljava/lang/Object;"))]
    });
    BODIES
        .iter()
        .find_map(|&(name, descriptor)| {
            table.resolve_method(&MethodRef { class, name, descriptor }).filter(|r| r.class.as_str() != "java.lang.Thread")
        })
        .or_else(|| privileged_action_body(table, class))
        .map(|body| bridged_method(table, body))
        .or_else(|| super::reactive::function_body(table, class))
        .or_else(|| super::flows::flow_class_body(table, class))
}

/// The method a bridge javac writes forwards to (a generic `Callable<T>`'s `call()Object`
/// calls its `call()T`): the one other method of its class with its name and parameters, not
/// a bridge. `m` itself when it is no bridge, or when that method is not one. The code then
/// runs it without the bridge's call, which traces would show as a second `call()`.
fn bridged_method(table: &ClassTable, m: MethodRef) -> MethodRef {
    let Some(header) = table.get(m.class) else { return m };
    let is_bridge = |h: &MethodHeader| h.flags & ACC_BRIDGE != 0;
    if !table.method(header, m.name, m.descriptor).is_some_and(is_bridge) {
        return m;
    }
    let params = |d: &str| d.split_once(')').map(|(p, _)| p.to_owned());
    let wanted = params(m.descriptor.as_str());
    let mut targets = header.methods.iter().filter(|h| {
        h.name == m.name && h.descriptor != m.descriptor && !is_bridge(h) && params(h.descriptor.as_str()) == wanted
    });
    match (targets.next(), targets.next()) {
        (Some(target), None) => MethodRef { class: m.class, name: target.name, descriptor: target.descriptor },
        _ => m,
    }
}

/// The `run()` of a privileged action class, which `AccessController.doPrivileged` calls (a
/// generic action's bridge, which calls its typed `run()`).
fn privileged_action_body(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    static RUN: once_cell::sync::Lazy<(Sym, Sym)> = once_cell::sync::Lazy::new(|| (Sym::new("run"), Sym::new("()Ljava/lang/Object;")));
    let (name, descriptor) = *RUN;
    let run = table.resolve_method(&MethodRef { class, name, descriptor })?;
    table.is_subtype_of_any(class, &PRIVILEGED_ACTIONS).then_some(run)
}

/// The methods an object of `class` runs when handed over: its one body (see
/// [`body_of_class`]), or the callbacks it overrides of a framework type whose registration
/// hands it over (a `NetworkCallback`'s, see `registrations.rs`).
pub fn bodies_of_class(table: &ClassTable, class: Sym) -> Vec<MethodRef> {
    match body_of_class(table, class) {
        Some(body) => vec![body],
        None => super::registrations::registered_callbacks(table, class),
    }
}

/// The code a field holds (see [`field_held_code`]).
pub struct HeldCode {
    /// The methods the code runs: a class's `run()` or `call()` (or its callbacks, see
    /// [`bodies_of_class`]), or a lambda's body.
    pub bodies: Vec<MethodRef>,
    /// Code whose body's formals are what it captured, not an object of a class: a lambda's
    /// (the storing method's own object, or nothing), or the holder's own `run()` (the holder).
    pub lambda: bool,
}

/// The code a `Runnable` (or `Callable`, or `Thread`) read from field `name` of `class` runs
/// when handed over (`executor.execute(tick)`): the `run()` or `call()` of the one class every
/// store of the analysed code gives the field (`private final Runnable tick = new Runnable()
/// {...}`, see `field_classes`), or the one lambda they give it (`() -> ticks++`), when that
/// code is of the field's source file, or for an object, of its package (a `Worker` of its own
/// file): a module analysed alone then has the same code, as a package is one module's.
pub fn field_held_code(table: &ClassTable, classes: &FieldClasses, lambdas: &FieldLambdas, class: Sym, name: Sym) -> Option<HeldCode> {
    let same_file = |code: Sym| top_level_class(code.as_str()) == top_level_class(class.as_str());
    let same_package = |code: Sym| package_of(code.as_str()) == package_of(class.as_str());
    if let Some(held) = classes.get(&(class, name)).filter(|h| same_package(h.class)) {
        let bodies = bodies_of_class(table, held.class);
        return (!bodies.is_empty()).then_some(HeldCode { bodies, lambda: false });
    }
    let lambda = lambdas.get(&(class, name)).filter(|l| same_file(l.class))?;
    Some(HeldCode { bodies: vec![table.resolve_method(lambda).unwrap_or(*lambda)], lambda: true })
}

/// The code the thread that `Thread` field `name` of `class` holds runs once started (see
/// `thread_fields`): a lambda of the field's source file, the holder's own `run()`, or the
/// `run()` of an object of the field's package made for the thread. As for
/// [`field_held_code`], a module analysed alone has the same code.
pub fn field_thread_code(table: &ClassTable, threads: &FieldThreads, class: Sym, name: Sym) -> Option<HeldCode> {
    let same_file = |code: Sym| top_level_class(code.as_str()) == top_level_class(class.as_str());
    let same_package = |code: Sym| package_of(code.as_str()) == package_of(class.as_str());
    let (bodies, lambda) = match *threads.get(&(class, name))? {
        ThreadCode::Lambda(body) if same_file(body.class) => (vec![table.resolve_method(&body).unwrap_or(body)], true),
        // The holder's `run()` takes it as its formal 0, as a lambda capturing it does.
        ThreadCode::Holder => (bodies_of_class(table, class), true),
        ThreadCode::Object(made) if same_package(made) => (bodies_of_class(table, made), false),
        _ => return None,
    };
    (!bodies.is_empty()).then_some(HeldCode { bodies, lambda })
}

/// A Kotlin suspend lambda's body: kotlinc makes each a direct subclass of `SuspendLambda`
/// whose `invokeSuspend` runs the block (its captured outer instance in `this$0`).
fn suspend_lambda_body(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    let header = table.get(class)?;
    if header.super_class?.as_str() != "kotlin.coroutines.jvm.internal.SuspendLambda" {
        return None;
    }
    header
        .methods
        .iter()
        .find(|m| m.name.as_str() == "invokeSuspend" && m.descriptor.as_str() == "(Ljava/lang/Object;)Ljava/lang/Object;")
        .map(|m| MethodRef { class, name: m.name, descriptor: m.descriptor })
}

/// A Kotlin lambda's body, for the calls that run one on a thread (`thread { }`, a `() -> Unit`)
/// and for the adapters kotlinc puts around a lambda given for a generic Java interface (see
/// `interp::handoffs`): kotlinc (before 2.0, or with `-Xlambdas=class`) makes each a direct
/// subclass of `Lambda` implementing `FunctionN`, whose `invoke` with N parameters runs the
/// block (its captured outer instance in `this$0`); the generic bridge only forwards to it.
fn function_lambda_body(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    let header = table.get(class)?;
    if header.super_class?.as_str() != "kotlin.jvm.internal.Lambda" {
        return None;
    }
    let arity = header.interfaces.iter().find_map(|i| i.as_str().strip_prefix("kotlin.jvm.functions.Function")?.parse::<usize>().ok())?;
    header
        .methods
        .iter()
        .find(|m| m.name.as_str() == "invoke" && m.flags & (ACC_BRIDGE | ACC_STATIC) == 0 && params(m.descriptor.as_str()).count() == arity)
        .map(|m| MethodRef { class, name: m.name, descriptor: m.descriptor })
}

/// Whether a class is one kotlinc makes of a lambda: a direct subclass of `Lambda` or of
/// `SuspendLambda`.
pub fn is_kotlin_lambda_class(table: &ClassTable, class: Sym) -> bool {
    table.get(class).and_then(|h| h.super_class).is_some_and(|s| {
        matches!(s.as_str(), "kotlin.jvm.internal.Lambda" | "kotlin.coroutines.jvm.internal.SuspendLambda")
    })
}

/// `C.INSTANCE` of type `C`: the one instance kotlinc keeps of a lambda that captures nothing
/// (and of an `object`), read where the lambda is given instead of allocating it.
pub fn is_singleton_instance(f: &FieldRef) -> bool {
    f.name.as_str() == "INSTANCE"
        && crate::classfile::descriptor::is_object_of(f.descriptor.as_str(), f.class.as_str())
}

/// For an `AsyncTask` subclass, the `doInBackground` it runs (`None` inside: none of its own):
/// the one with the task's own parameter types, not the bridge javac adds for the erased
/// signature (found by name: its types are the task's type arguments). `None` for any other
/// class. One walk up the supertypes answers both.
fn do_in_background(table: &ClassTable, class: Sym) -> Option<Option<MethodRef>> {
    let mut typed = None;
    table.find_in_supertypes(class, |c| {
        if c.as_str() == ASYNC_TASK {
            return Some(());
        }
        if typed.is_none() {
            typed = table.get(c).and_then(|h| {
                h.methods
                    .iter()
                    .find(|m| m.name.as_str() == "doInBackground" && m.flags & (ACC_BRIDGE | ACC_ABSTRACT) == 0)
                    .map(|m| MethodRef { class: c, name: m.name, descriptor: m.descriptor })
            });
        }
        None
    })?;
    Some(typed)
}

/// What an executor kept in a field runs its tasks on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum ExecutorKind {
    /// Threads of a pool, or unknown.
    Pool,
    /// One thread, one task at a time (`Executors.newSingleThreadExecutor()`, a handler on a
    /// `HandlerThread`'s looper).
    Serial,
    /// The main thread (`context.getMainExecutor()`, a handler on the main looper).
    Main,
    /// A handler whose looper racer does not know: its tasks run as a post to such a handler
    /// does, on a thread racer does not follow.
    Looper,
    /// The calling thread: each task runs at once, before `execute` returns
    /// (`MoreExecutors.directExecutor()`, `Runnable::run`).
    Direct,
}

impl ExecutorKind {
    /// An executor posting to a handler whose looper runs on `target` (unknown: `None`).
    pub fn posting_to(target: Option<Target>) -> ExecutorKind {
        match target {
            Some(Target::Main) => ExecutorKind::Main,
            Some(Target::Background) => ExecutorKind::Serial,
            None => ExecutorKind::Looper,
        }
    }
}

/// Whether `insn` makes a reference to a handler's `post` (`handler::post`, given as an
/// `Executor`).
pub fn makes_handler_post_reference(table: &ClassTable, insn: &Insn) -> bool {
    matches!(insn, Insn::InvokeDynamic(call) if call.lambda.is_some_and(|m| handoff_model(table, &m) == Some(HandoffModel::HandlerPost)))
}

/// An executor stored into a field, as far as the instructions that made it say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExecutorValue {
    Known(ExecutorKind),
    /// Posts to a handler read from a field or returned by a method (`mHandler::post`,
    /// `new HandlerExecutor(BackgroundThread.getHandler())`; see `handler_fields::handler_read`):
    /// it runs its tasks where that handler does.
    OnHandler(Stored),
    /// The executor a constructor's parameter at this index is given by every call of its
    /// package (see [`executor_arguments`]).
    Param(MethodRef, u16),
}

/// Every store in `body` into a field typed as an executor, with what the value stored is when
/// a call just made it (`Executors.newSingleThreadExecutor()`, `getMainExecutor()`, an
/// executor posting to a handler) or a constructor's parameter holds it.
/// `handler_executors`: the descriptors of the executor classes posting to a handler (see
/// [`handler_executor_descriptors`]), whose fields are executor fields too.
pub fn executor_field_stores(table: &ClassTable, handler_executors: &[Sym], code: Code<'_>) -> Vec<(FieldRef, ExecutorValue)> {
    let executor_typed = |d: &str| is_executor_type(handler_executors, d);
    code.body.field_stores(executor_typed).map(|(f, before)| (*f, executor_made_at(table, handler_executors, code, before))).collect()
}

/// What every call in `code` of a constructor of its own package gives the constructor's
/// executor parameters, by constructor and parameter index (the package rule of
/// `handler_fields::handler_arguments`: a module alone sees the calls the whole build does).
pub fn executor_arguments(table: &ClassTable, handler_executors: &[Sym], code: Code<'_>) -> Vec<(MethodRef, u16, ExecutorValue)> {
    let insns = &code.body.insns;
    let package = package_of(code.method.class.as_str());
    let takes_executor = |at: usize| match &insns[at] {
        Insn::Invoke { method, .. } => {
            method.name.as_str() == "<init>"
                && package_of(method.class.as_str()) == package
                && params(method.descriptor.as_str()).any(|p| is_executor_type(handler_executors, p))
        }
        _ => false,
    };
    if !(0..insns.len()).any(takes_executor) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut calls: Vec<(usize, Vec<Option<usize>>)> = super::operands::argument_makers(code.body, takes_executor).into_iter().collect();
    calls.sort_unstable_by_key(|(at, _)| *at);
    for (at, makers) in calls {
        let Insn::Invoke { method, .. } = &insns[at] else { continue };
        for (index, (typed, maker)) in params(method.descriptor.as_str()).zip(makers).enumerate() {
            if is_executor_type(handler_executors, typed) {
                let value = maker.map_or(ExecutorValue::Known(ExecutorKind::Pool), |j| executor_made_at(table, handler_executors, code, Some(j)));
                out.push((**method, index as u16, value));
            }
        }
    }
    out
}

fn is_executor_type(handler_executors: &[Sym], descriptor: &str) -> bool {
    EXECUTOR_TYPES.contains(&descriptor) || handler_executors.iter().any(|h| h.as_str() == descriptor)
}

/// What the executor instruction `at` of `code` leaves is; unknown executors are a pool's.
fn executor_made_at(table: &ClassTable, handler_executors: &[Sym], code: Code<'_>, at: Option<usize>) -> ExecutorValue {
    let Some(j) = at else { return ExecutorValue::Known(ExecutorKind::Pool) };
    let body = code.body;
    if makes_direct_executor(table, &body.insns[j]) {
        return ExecutorValue::Known(ExecutorKind::Direct);
    }
    match &body.insns[j] {
        Insn::Invoke { method, .. } => match (method.class.as_str(), method.name.as_str()) {
            ("java.util.concurrent.Executors", "newSingleThreadExecutor" | "newSingleThreadScheduledExecutor") => {
                ExecutorValue::Known(ExecutorKind::Serial)
            }
            (_, "getMainExecutor") => ExecutorValue::Known(ExecutorKind::Main),
            _ if makes_handler_executor(table, method) => posted_handler(table, body, j, code.on_main),
            _ => match handler_field_of_executor(table, method) {
                Some(field) => ExecutorValue::OnHandler(Stored::Copied(field)),
                None => ExecutorValue::Known(ExecutorKind::Pool),
            },
        },
        insn if makes_handler_post_reference(table, insn) => posted_handler(table, body, j, code.on_main),
        Insn::Load { slot, .. } if code.method.name.as_str() == "<init>" => {
            let descriptor = code.method.descriptor.as_str();
            match param_at_slot(descriptor, *slot) {
                Some(index) if params(descriptor).nth(index).is_some_and(|p| is_executor_type(handler_executors, p)) => {
                    ExecutorValue::Param(*code.method, index as u16)
                }
                _ => ExecutorValue::Known(ExecutorKind::Pool),
            }
        }
        _ => ExecutorValue::Known(ExecutorKind::Pool),
    }
}

/// For a constructor of an executor class of the code's own whose `execute` posts to a
/// handler it keeps in a field (`new MainThreadExecutor()`, which posts to its
/// `mHandler = new Handler(Looper.getMainLooper())`): that field.
fn handler_field_of_executor(table: &ClassTable, constructor: &MethodRef) -> Option<&'static FieldRef> {
    if constructor.name.as_str() != "<init>" || !is_handler_executor(table, constructor.class) {
        return None;
    }
    let (name, descriptor) = *EXECUTE;
    let execute = table.resolve_method(&MethodRef { class: constructor.class, name, descriptor })?;
    let field = table.get(execute.class).and_then(|h| table.method(h, execute.name, execute.descriptor))?.posted_field?;
    Some(crate::interned::field_ref(FieldRef { class: execute.class, name: field, descriptor: Sym::new(HANDLER_DESCRIPTOR) }))
}

/// The field descriptors (`Lp/PostingExecutor;`) of the known executor classes whose own
/// `execute` posts to a handler; a few at most.
pub fn handler_executor_descriptors(table: &ClassTable) -> Vec<Sym> {
    let declares_posting_execute = |c: Sym| table.get(c).is_some_and(|h| h.methods.iter().any(|m| m.posts_to_handler));
    let mut out: Vec<Sym> = table
        .names()
        .filter(|&c| declares_posting_execute(c) && is_handler_executor(table, c))
        .map(|c| Sym::new(&format!("L{};", c.as_str().replace('.', "/"))))
        .collect();
    out.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
    out
}

/// The handler that the executor made at instruction `made_at` posts to: a handler field read
/// just before, one a method returns, or a handler made there on a looper of known thread.
fn posted_handler(table: &ClassTable, body: &Body, made_at: usize, on_main: bool) -> ExecutorValue {
    // `getfield`, then `dup`, `Objects.requireNonNull` and `pop` for a method reference; the
    // constructor's arguments for `new HandlerExecutor(...)`.
    const REACH: usize = 6;
    for insn in body.insns[made_at.saturating_sub(REACH)..made_at].iter().rev() {
        if let Some(handler) = handler_read(insn) {
            return ExecutorValue::OnHandler(handler);
        }
        if let Insn::Invoke { method, .. } = insn {
            if let Some(target) = looper_thread(table, method, on_main) {
                return ExecutorValue::Known(ExecutorKind::posting_to(Some(target)));
            }
            if on_main && makes_handler_on_calling_looper(method) {
                return ExecutorValue::Known(ExecutorKind::Main);
            }
        }
    }
    ExecutorValue::Known(ExecutorKind::posting_to(None))
}

/// `Handler.createAsync(looper, ...)` and androidx's `HandlerCompat.createAsync(looper, ...)`:
/// a new handler on the looper given, as `new Handler(looper)` (its messages skip the looper's
/// synchronization barriers, not its thread).
pub(crate) fn makes_handler_on_looper_given(method: &MethodRef) -> bool {
    matches!(method.class.as_str(), HANDLER | "androidx.core.os.HandlerCompat")
        && method.name.as_str() == "createAsync"
        && method.descriptor.as_str().starts_with("(Landroid/os/Looper;")
}

/// The looper a constructor of a `Handler` subclass makes its handler on, read from its code.
pub(super) fn handler_subclass_looper(table: &ClassTable, constructor: &MethodRef) -> Option<HandlerLooper> {
    if constructor.name.as_str() != "<init>" {
        return None;
    }
    let header = table.get(constructor.class)?;
    table.method(header, constructor.name, constructor.descriptor)?.handler_looper
}

/// `obtainMessage(...)` whose message is sent at once: the call at `at` is followed by the
/// message's `sendToTarget()`, which sends it to the handler that made it.
fn sent_to_target_at_once(insns: &[Insn], at: usize) -> bool {
    matches!(insns.get(at + 1), Some(Insn::Invoke { method, .. })
        if method.name.as_str() == "sendToTarget" && method.class.as_str() == "android.os.Message")
}

/// The `handleMessage(Message)` a `Handler` subclass overrides, which runs the messages sent to
/// its objects; `None` for a class that does not (the framework's own does nothing).
pub fn message_handler(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    static HANDLE_MESSAGE: once_cell::sync::Lazy<(Sym, Sym)> =
        once_cell::sync::Lazy::new(|| (Sym::new("handleMessage"), Sym::new("(Landroid/os/Message;)V")));
    let (name, descriptor) = *HANDLE_MESSAGE;
    if class.as_str() == HANDLER || !table.is_subtype_of_any(class, &[HANDLER]) {
        return None;
    }
    table.resolve_method(&MethodRef { class, name, descriptor }).filter(|m| m.class.as_str() != HANDLER)
}

/// `new Handler()`, `new Handler(callback)`: a handler on the looper of the thread making it.
pub(super) fn makes_handler_on_calling_looper(method: &MethodRef) -> bool {
    method.class.as_str() == HANDLER && method.name.as_str() == "<init>" && !method.descriptor.as_str().starts_with("(Landroid/os/Looper;")
}

/// Whether a method runs on the main thread from its start, so that the current thread's looper
/// is the main one there: it starts on the main thread (`initial`: a lifecycle callback, a
/// main-thread annotation), or, with the Android models, it is the constructor of a component
/// the framework makes on the main thread (see [`super::android::is_component_constructor`]).
pub fn starts_on_main_looper(table: &ClassTable, m: &MethodRef, initial: Threads, android_threads: bool) -> bool {
    initial == Threads::AnyThreadButSelf || (android_threads && super::android::is_component_constructor(table, m))
}

pub(super) const HANDLER_DESCRIPTOR: &str = "Landroid/os/Handler;";

const EXECUTOR_TYPES: &[&str] = &[
    "Ljava/util/concurrent/Executor;",
    "Ljava/util/concurrent/ExecutorService;",
    "Ljava/util/concurrent/ScheduledExecutorService;",
];

/// Every store in `body` into a field typed as a Kotlin `CoroutineScope`, with the thread of the
/// scope stored when a call just made it on a known dispatcher: `CoroutineScope(Dispatchers.IO)`
/// (or `Default`: a background pool; also with other elements, `SupervisorJob() +
/// Dispatchers.IO`), `CoroutineScope(Dispatchers.Main)`, `MainScope()`.
pub fn scope_fields(table: &ClassTable, kept: &KeptSchedulers, body: &Body) -> Vec<(FieldRef, Option<Target>)> {
    body.field_stores(|d| d == "Lkotlinx/coroutines/CoroutineScope;")
        .map(|(field, before)| {
            let target = match body.call_at(before).map(|m| (m.class.as_str(), m.name.as_str())) {
                Some(("kotlinx.coroutines.CoroutineScopeKt", "MainScope")) => Some(Target::Main),
                Some(("kotlinx.coroutines.CoroutineScopeKt", "CoroutineScope")) => context_dispatcher(table, kept, &body.insns[..before.unwrap_or(0)]),
                _ => None,
            };
            (*field, target)
        })
        .collect()
}

/// The thread of the dispatcher of the coroutine context the last of `insns` compute: a
/// dispatcher, possibly joined with `+` to elements that are not dispatchers (`SupervisorJob()`,
/// `Job()`, `CoroutineName(...)`, a field holding a job or an exception handler). `plus` keeps
/// the right-hand element of each kind, so the dispatcher computed last wins: walking back over
/// those elements only, the first dispatcher met is the context's. Anything else ends the
/// walk: what it computed is to the left of the rest, and no dispatcher met before it is known
/// to win. A dispatcher read from a field or got from a method that keeps one counts as made
/// there (`kept`).
pub fn context_dispatcher(table: &ClassTable, kept: &KeptSchedulers, insns: &[Insn]) -> Option<Target> {
    let mut at = insns.len();
    while at > 0 {
        at -= 1;
        if let Some(kept) = kept.read_by(table, &insns[at]) {
            return Some(kept.target);
        }
        match &insns[at] {
            Insn::Invoke { method, .. } => {
                let (class, name) = (method.class.as_str(), method.name.as_str());
                if let Some(thread) = dispatcher_thread(class, name) {
                    return Some(thread);
                }
                match (class, name) {
                    ("kotlinx.coroutines.SupervisorKt", "SupervisorJob" | "SupervisorJob$default")
                    | ("kotlinx.coroutines.JobKt", "Job" | "Job$default")
                    | ("kotlinx.coroutines.CoroutineName", "<init>") => {}
                    (_, "plus") if method.descriptor.as_str() == "(Lkotlin/coroutines/CoroutineContext;)Lkotlin/coroutines/CoroutineContext;" => {}
                    _ => return None,
                }
            }
            // A job or handler kept in a field of the object a local holds (`this.job`).
            Insn::GetField(f) if holds_context_element(f) => {
                if at > 0 && matches!(insns[at - 1], Insn::Load { .. }) {
                    at -= 1;
                }
            }
            Insn::GetStatic(f) if holds_context_element(f) => {}
            Insn::New { class } if class.as_str() == "kotlinx.coroutines.CoroutineName" => {}
            Insn::CheckCast | Insn::Const { .. } | Insn::Dup => {}
            _ => return None,
        }
    }
    None
}

/// A field typed as a coroutine context element that is no dispatcher: a job, an exception
/// handler, a name.
fn holds_context_element(f: &FieldRef) -> bool {
    matches!(
        f.descriptor.as_str(),
        "Lkotlinx/coroutines/Job;"
            | "Lkotlinx/coroutines/CompletableJob;"
            | "Lkotlinx/coroutines/CoroutineExceptionHandler;"
            | "Lkotlinx/coroutines/CoroutineName;"
    )
}

/// The thread of the looper that `method` returns: the main one (`Looper.getMainLooper()`, a
/// context's `getMainLooper()`), or a `HandlerThread`'s (its subclasses' too); the current
/// thread's (`Looper.myLooper()`) in code that runs on the main thread (`on_main`).
pub(crate) fn looper_thread(table: &ClassTable, method: &MethodRef, on_main: bool) -> Option<Target> {
    let is = |ancestor: &str| method.descriptor.as_str() == LOOPER_GETTER && table.is_subtype_of_any(method.class, &[ancestor]);
    match (method.class.as_str(), method.name.as_str()) {
        ("android.os.Looper", "getMainLooper") => Some(Target::Main),
        ("android.os.Looper", "myLooper") if on_main => Some(Target::Main),
        (_, "getMainLooper") if is(CONTEXT) => Some(Target::Main),
        (_, "getLooper") if is("android.os.HandlerThread") => Some(Target::Background),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generic action's bridge `run()Object` runs its typed `run()String`; a class with no
    /// bridge, or with two typed candidates, keeps the method asked for.
    #[test]
    fn handed_code_runs_the_method_a_bridge_forwards_to() {
        let class = |name: &str, methods: Vec<MethodHeader>| {
            std::sync::Arc::new(ClassHeader {
                name: Sym::new(name),
                flags: ACC_PUBLIC,
                super_class: Some(Sym::new("java.lang.Object")),
                interfaces: vec![Sym::new("java.security.PrivilegedAction")],
                annotations: Vec::new(),
                fields: Vec::new(),
                methods,
                source_file: None,
                kotlin_internal: false,
            })
        };
        let bridge = MethodHeader::plain("run", "()Ljava/lang/Object;", ACC_PUBLIC | ACC_BRIDGE | ACC_SYNTHETIC);
        let typed = |d: &str| MethodHeader::plain("run", d, ACC_PUBLIC);
        let mut table = ClassTable::new();
        table.insert(class("p.Typed", vec![bridge.clone(), typed("()Ljava/lang/String;")]), crate::hierarchy::Origin::Analysed);
        table.insert(class("p.Raw", vec![typed("()Ljava/lang/Object;")]), crate::hierarchy::Origin::Analysed);
        table.insert(class("p.Two", vec![bridge, typed("()Ljava/lang/String;"), typed("()Ljava/lang/Integer;")]), crate::hierarchy::Origin::Analysed);
        table.freeze();
        let body = |c: &str| body_of_class(&table, Sym::new(c)).map(|m| m.descriptor.as_str().to_owned());
        assert_eq!(body("p.Typed").as_deref(), Some("()Ljava/lang/String;"));
        assert_eq!(body("p.Raw").as_deref(), Some("()Ljava/lang/Object;"));
        assert_eq!(body("p.Two").as_deref(), Some("()Ljava/lang/Object;"));
    }

    fn call(class: &str, name: &str, descriptor: &str) -> Insn {
        let method = crate::interned::method_ref(MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) });
        Insn::Invoke { kind: InvokeKind::Static, method }
    }

    fn field(class: &str, name: &str, descriptor: &str) -> &'static FieldRef {
        crate::interned::field_ref(FieldRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) })
    }

    /// The thread of a context computed by `insns`, in code that keeps no dispatcher.
    fn dispatcher_of(insns: &[Insn]) -> Option<Target> {
        let mut table = ClassTable::new();
        table.freeze();
        context_dispatcher(&table, &KeptSchedulers::default(), insns)
    }

    const PLUS: &str = "(Lkotlin/coroutines/CoroutineContext;)Lkotlin/coroutines/CoroutineContext;";

    fn io() -> Insn {
        call("kotlinx.coroutines.Dispatchers", "getIO", "()Lkotlinx/coroutines/CoroutineDispatcher;")
    }

    fn main_dispatcher() -> Insn {
        call("kotlinx.coroutines.Dispatchers", "getMain", "()Lkotlinx/coroutines/MainCoroutineDispatcher;")
    }

    fn plus() -> Insn {
        call("kotlin.coroutines.CoroutineContext", "plus", PLUS)
    }

    fn job_field() -> Insn {
        Insn::GetField(field("p.C", "job", "Lkotlinx/coroutines/Job;"))
    }

    /// `plus` keeps the right-hand dispatcher: the one computed last wins, over jobs and names.
    #[test]
    fn the_dispatcher_computed_last_is_the_contexts() {
        let load_this = Insn::Load { slot: 0, wide: false };
        // Dispatchers.IO + this.job
        assert_eq!(dispatcher_of(&[io(), load_this.clone(), job_field(), Insn::CheckCast, plus()]), Some(Target::Background));
        // this.job + Dispatchers.Main
        assert_eq!(dispatcher_of(&[load_this.clone(), job_field(), main_dispatcher(), Insn::CheckCast, plus()]), Some(Target::Main));
        // Dispatchers.IO + Dispatchers.Main
        assert_eq!(dispatcher_of(&[io(), main_dispatcher(), plus()]), Some(Target::Main));
        // Dispatchers.IO + Jobs.SHARED, a job kept in a static field
        let shared_job = Insn::GetStatic(field("p.Jobs", "SHARED", "Lkotlinx/coroutines/CompletableJob;"));
        assert_eq!(dispatcher_of(&[io(), shared_job, plus()]), Some(Target::Background));
    }

    /// A context element racer does not know may be a dispatcher: after the last known one, it
    /// wins; before it, it loses.
    #[test]
    fn an_unknown_element_after_the_dispatcher_hides_it() {
        let other = call("p.C", "context", "()Lkotlin/coroutines/CoroutineContext;");
        assert_eq!(dispatcher_of(&[io(), other.clone(), plus()]), None);
        assert_eq!(dispatcher_of(&[other, io(), plus()]), Some(Target::Background));
        // A job read from something other than a local's object is not followed either.
        let holder = Insn::GetField(field("p.C", "holder", "Lp/Holder;"));
        assert_eq!(dispatcher_of(&[io(), Insn::Load { slot: 0, wide: false }, holder, job_field(), plus()]), None);
    }

    #[test]
    fn a_singleton_instance_holds_its_own_class() {
        assert!(is_singleton_instance(field("p.C$run$1", "INSTANCE", "Lp/C$run$1;")));
        assert!(!is_singleton_instance(field("p.C$run$1", "INSTANCE", "Lp/Other;")));
        assert!(!is_singleton_instance(field("p.C$run$1", "OTHER", "Lp/C$run$1;")));
    }
}
