//! Android threading models beyond RacerD (spec 11.3, "more thread evidence"), on unless
//! `racerd_compat`: background callbacks and thread annotations, and main-looper checks.
//! `docs/android.md` lists them with the Android documentation each one follows.

use crate::classfile::model::MethodRef;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::models::ThreadEffect;

/// Annotations (simple names: androidx.annotation, android.support.annotation,
/// android.annotation) saying a method may run off the main thread.
pub const BACKGROUND_ANNOTATIONS: &[&str] = &["WorkerThread", "AnyThread", "BinderThread"];

/// Framework callbacks documented to run on a background thread: (class, method).
const BACKGROUND_CALLBACKS: &[(&str, &str)] = &[
    ("android.os.AsyncTask", "doInBackground"),
    ("android.app.IntentService", "onHandleIntent"),
    ("androidx.core.app.JobIntentService", "onHandleWork"),
    ("android.support.v4.app.JobIntentService", "onHandleWork"),
    // The desktop counterpart of `AsyncTask`.
    ("javax.swing.SwingWorker", "doInBackground"),
];

/// An override of a background callback. Matched by name in a subclass, whatever the
/// parameter types: `doInBackground(Params...)` is generic, so a subclass's own method
/// (`doInBackground(String[])`) has other parameter types than the erased one.
pub fn is_background_callback(table: &ClassTable, m: &MethodRef) -> bool {
    let name = m.name.as_str();
    BACKGROUND_CALLBACKS.iter().any(|(class, callback)| {
        *callback == name && m.class.as_str() != *class && table.is_subtype_of_any(m.class, &[class])
    })
}

const ASYNC_TASK: &str = "android.os.AsyncTask";

/// A subclass of `AsyncTask`.
pub fn is_async_task(table: &ClassTable, class: Sym) -> bool {
    class.as_str() != ASYNC_TASK && table.is_subtype_of_any(class, &[ASYNC_TASK])
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
pub fn is_task_callback_around_background(table: &ClassTable, m: &MethodRef) -> bool {
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
