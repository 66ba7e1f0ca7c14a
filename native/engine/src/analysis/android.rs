//! Android threading models beyond RacerD (spec 11.3, "more thread evidence"), on unless
//! `racerd_compat`: background callbacks and thread annotations, and main-looper checks.
//! `docs/android.md` lists them with the Android documentation each one follows.

use crate::classfile::aidl;
use crate::classfile::model::MethodRef;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::models::ThreadEffect;

/// Annotations (simple names: androidx.annotation, android.support.annotation,
/// android.annotation, android.webkit) saying a method may run off the main thread. A WebView
/// calls the methods of an object given to `addJavascriptInterface` on a background thread of
/// its own.
pub const BACKGROUND_ANNOTATIONS: &[&str] = &["WorkerThread", "AnyThread", "BinderThread", "JavascriptInterface"];

/// Framework callbacks documented to run on a background thread, one call at a time for their
/// object: (class, method).
const SERIAL_BACKGROUND_CALLBACKS: &[(&str, &str)] = &[
    ("android.os.AsyncTask", "doInBackground"),
    ("android.app.IntentService", "onHandleIntent"),
    ("androidx.core.app.JobIntentService", "onHandleWork"),
    ("android.support.v4.app.JobIntentService", "onHandleWork"),
    // "Called on a background thread"; a worker object does one piece of work.
    ("androidx.work.Worker", "doWork"),
    // A suspend function, on `Dispatchers.Default` unless the worker says otherwise.
    ("androidx.work.CoroutineWorker", "doWork"),
    // Runs on a thread the adapter starts for the sync, one sync at a time by default.
    ("android.content.AbstractThreadedSyncAdapter", "onPerformSync"),
    // A GLSurfaceView calls its renderer on its own rendering thread, not the main thread.
    ("android.opengl.GLSurfaceView$Renderer", "onSurfaceCreated"),
    ("android.opengl.GLSurfaceView$Renderer", "onSurfaceChanged"),
    ("android.opengl.GLSurfaceView$Renderer", "onDrawFrame"),
    // "Invoked on a special FileObserver thread", one for all observers.
    ("android.os.FileObserver", "onEvent"),
    // The desktop counterpart of `AsyncTask`.
    ("javax.swing.SwingWorker", "doInBackground"),
];

pub(super) const CONTENT_PROVIDER: &str = "android.content.ContentProvider";

/// The components the framework makes on the main thread (`ActivityThread` instantiates them
/// there, as `FragmentManager` does fragments), and views, made on a looper thread, the main
/// one (a view inflated on another thread may make no handler: `AsyncLayoutInflater`): their
/// constructors, and so the initializers of their fields, run on it.
const MAIN_THREAD_COMPONENTS: &[&str] = &[
    "android.app.Activity",
    "android.app.Service",
    "android.app.Application",
    "android.content.BroadcastReceiver",
    CONTENT_PROVIDER,
    "android.app.Fragment",
    "androidx.fragment.app.Fragment",
    "android.view.View",
];

/// Whether `m` is the constructor of a component the framework makes on the main thread.
pub fn is_component_constructor(table: &ClassTable, m: &MethodRef) -> bool {
    m.name.as_str() == "<init>" && table.is_subtype_of_any(m.class, MAIN_THREAD_COMPONENTS)
}

/// `ContentProvider`'s data access methods, which "may be called from many threads at once"
/// (binder threads, and the caller's thread in the same process); its other callbacks run on
/// the main thread.
const PROVIDER_DATA_METHODS: &[&str] = &[
    "query",
    "insert",
    "bulkInsert",
    "update",
    "delete",
    "applyBatch",
    "call",
    "getType",
    "getStreamTypes",
    "openFile",
    "openAssetFile",
    "openTypedAssetFile",
    "canonicalize",
    "uncanonicalize",
    "refresh",
];

/// Framework callbacks documented to run on background threads, several at once: (class,
/// methods).
const CONCURRENT_BACKGROUND_CALLBACKS: &[(&str, &[&str])] = &[
    (CONTENT_PROVIDER, PROVIDER_DATA_METHODS),
    // "Called on a thread other than the UI thread."
    ("android.webkit.WebViewClient", &["shouldInterceptRequest"]),
    // "The callbacks ... can be called from multiple threads."
    (
        "android.speech.tts.UtteranceProgressListener",
        &["onStart", "onDone", "onError", "onStop", "onBeginSynthesis", "onAudioAvailable", "onRangeStart"],
    ),
];

/// An override of a background callback. Matched by name in a subclass, whatever the
/// parameter types: `doInBackground(Params...)` is generic, so a subclass's own method
/// (`doInBackground(String[])`) has other parameter types than the erased one.
pub fn is_background_callback(table: &ClassTable, m: &MethodRef) -> bool {
    is_serial_background_callback(table, m)
        || CONCURRENT_BACKGROUND_CALLBACKS.iter().any(|(class, names)| overrides(table, m, class, names))
}

pub(super) const BINDER: &str = "android.os.Binder";
const BINDER_INTERFACE: &str = "android.os.IInterface";

/// A method a binder object serves: in a subclass of `Binder` (an AIDL `Stub`'s implementation),
/// a method of an interface extending `IInterface`. Calls from other processes come on the
/// process's binder thread pool, several at once ("an implementation of an AIDL interface must
/// be completely thread-safe").
pub fn is_binder_interface_method(table: &ClassTable, m: &MethodRef) -> bool {
    binder_interface_of(table, m).is_some()
}

/// How a binder object serves one of its interface methods.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum BinderCall {
    /// Several calls at once, on the binder thread pool.
    TwoWay,
    /// A method declared `oneway`: "calls [to] the same IBinder object ... will be dispatched in
    /// the other process one at a time" (`IBinder.FLAG_ONEWAY`), so its object serves them,
    /// whichever they are, one after the other, as a thread's `run()`; not in order with the
    /// interface's two-way methods. Known from the interface's proxy.
    OneWay,
}

/// How `m` is served, when it is a method a binder object serves (see
/// [`is_binder_interface_method`]).
pub fn binder_call(table: &ClassTable, m: &MethodRef) -> Option<BinderCall> {
    let interface = binder_interface_of(table, m)?;
    let oneway = table
        .get(aidl::proxy_of_interface(interface))
        .and_then(|proxy| table.method(proxy, m.name, m.descriptor))
        .is_some_and(|pm| pm.sends_oneway);
    Some(if oneway { BinderCall::OneWay } else { BinderCall::TwoWay })
}

/// The interface extending `IInterface` that declares `m`, a method of a `Binder` subclass.
fn binder_interface_of(table: &ClassTable, m: &MethodRef) -> Option<Sym> {
    let name = m.name.as_str();
    if name == "asBinder" || name.starts_with('<') || !table.is_subtype_of_any(m.class, &[BINDER]) {
        return None;
    }
    table.find_in_supertypes(m.class, |c| {
        let h = table.get(c)?;
        (h.is_interface()
            && h.methods.iter().any(|om| om.name == m.name && om.descriptor == m.descriptor)
            && extends(table, c, BINDER_INTERFACE))
        .then_some(c)
    })
}

/// A background callback that runs one call at a time for its object, as a thread's `run()`.
pub fn is_serial_background_callback(table: &ClassTable, m: &MethodRef) -> bool {
    SERIAL_BACKGROUND_CALLBACKS.iter().any(|(class, callback)| overrides(table, m, class, &[callback]))
}

/// A data access method of a `ContentProvider` subclass: runs on any thread, alongside itself.
pub(super) fn is_provider_data_method(table: &ClassTable, m: &MethodRef) -> bool {
    overrides(table, m, CONTENT_PROVIDER, PROVIDER_DATA_METHODS)
}

/// Whether `m` is one of `names` in a strict subtype of `class`.
pub(super) fn overrides(table: &ClassTable, m: &MethodRef, class: &str, names: &[&str]) -> bool {
    names.contains(&m.name.as_str()) && extends(table, m.class, class)
}

/// Whether `class` is a strict subtype of the framework class `ancestor`: the framework's own
/// methods are not its subclasses' callbacks.
pub(super) fn extends(table: &ClassTable, class: Sym, ancestor: &str) -> bool {
    class.as_str() != ancestor && table.is_subtype_of_any(class, &[ancestor])
}

const ASYNC_TASK: &str = "android.os.AsyncTask";

/// A subclass of `AsyncTask`.
pub fn is_async_task(table: &ClassTable, class: Sym) -> bool {
    extends(table, class, ASYNC_TASK)
}

/// An `AsyncTask` subclass's `doInBackground`: the code a task runs once, on a background
/// thread, between its `onPreExecute` and its `onPostExecute` or `onCancelled`.
pub fn is_task_background(table: &ClassTable, m: &MethodRef) -> bool {
    m.name.as_str() == "doInBackground" && is_async_task(table, m.class)
}

/// An `AsyncTask` subclass's callbacks that the task runs on the main thread before its
/// background code starts or after it ends, seeing its memory effects and seen by it (the
/// task's documented memory observability). `onProgressUpdate` is not one: the background
/// code goes on while it runs.
pub(super) fn is_task_callback_around_background(table: &ClassTable, m: &MethodRef) -> bool {
    matches!(m.name.as_str(), "onPreExecute" | "onPostExecute" | "onCancelled") && is_async_task(table, m.class)
}

const LOOPER: &str = "android.os.Looper";

/// Main-thread checks: `Looper.myLooper() == Looper.getMainLooper()`,
/// `Looper.getMainLooper().isCurrentThread()` and
/// `Looper.getMainLooper().getThread() == Thread.currentThread()`.
pub fn looper_effect(callee: &MethodRef) -> Option<ThreadEffect> {
    match (callee.class.as_str(), callee.name.as_str()) {
        (LOOPER, "getMainLooper") => Some(ThreadEffect::MainThreadHandle),
        (LOOPER, "myLooper") | ("java.lang.Thread", "currentThread") => Some(ThreadEffect::CurrentThreadHandle),
        (LOOPER, "getThread") => Some(ThreadEffect::HandleThread),
        (LOOPER, "isCurrentThread") => Some(ThreadEffect::IsCurrentThread),
        _ => None,
    }
}
