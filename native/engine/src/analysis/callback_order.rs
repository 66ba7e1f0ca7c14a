//! The frameworks that order some of their subclasses' callbacks (Android's with the
//! `android_threads` extension, servers' with `request_threads`): a callback that
//! runs wholly before or after another sees its memory effects, so the two do not race on the
//! object's own fields.

use crate::classfile::model::MethodRef;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::android::{
    extends, is_async_task, is_binder_interface_method, is_provider_data_method, is_task_background,
    is_task_callback_around_background, BINDER, CONTENT_PROVIDER,
};
use super::requests::Server;

/// A framework type that orders some of its subclasses' callbacks: one runs wholly before or
/// after the other, and each sees the other's memory effects.
#[derive(Clone, Copy)]
pub enum OrderedCallbacks {
    /// `doInBackground` runs after `onPreExecute` and before `onPostExecute` or `onCancelled`.
    AsyncTask,
    /// `attachInfo(...)`, and the `onCreate()` it calls, run on the main thread when the
    /// application starts, before the provider is handed to any caller: before every data
    /// access method.
    ContentProvider,
    /// A binder object serves its interface's methods once it is handed out, after its
    /// constructor has run.
    Binder,
    /// An object that serves requests (a servlet, a filter, a controller) serves them after its
    /// configuration (its `init`, its injection, its bean properties' setters) and before its
    /// destruction.
    Requests(Server),
}

/// The frameworks whose orderings apply (their extensions).
#[derive(Clone, Copy)]
pub struct Frameworks {
    pub android: bool,
    /// A binder's ordering (`binder_services`, with `android`).
    pub binders: bool,
    /// Servlets', filters' and controllers' (`request_threads`).
    pub servers: bool,
}

impl OrderedCallbacks {
    /// The ordering `class`'s framework supertype gives its callbacks, if any, among the
    /// frameworks that apply.
    pub fn of(table: &ClassTable, class: Sym, frameworks: Frameworks) -> Option<OrderedCallbacks> {
        let android = frameworks.android;
        if android && is_async_task(table, class) {
            Some(OrderedCallbacks::AsyncTask)
        } else if android && extends(table, class, CONTENT_PROVIDER) {
            Some(OrderedCallbacks::ContentProvider)
        } else if android && frameworks.binders && extends(table, class, BINDER) {
            Some(OrderedCallbacks::Binder)
        } else if let Some(server) = Server::of(table, class).filter(|_| frameworks.servers) {
            Some(OrderedCallbacks::Requests(server))
        } else {
            None
        }
    }

    /// Whether the framework runs `m` and `n` (in either order) one wholly before the other.
    pub fn orders(self, table: &ClassTable, m: &MethodRef, n: &MethodRef) -> bool {
        let one_way = |first: &MethodRef, second: &MethodRef| match self {
            OrderedCallbacks::AsyncTask => {
                is_task_background(table, first) && is_task_callback_around_background(table, second)
            }
            OrderedCallbacks::ContentProvider => is_provider_setup(first) && is_provider_data_method(table, second),
            OrderedCallbacks::Binder => first.name.as_str() == "<init>" && is_binder_interface_method(table, second),
            OrderedCallbacks::Requests(server) => server.configures(table, first) && server.serves(table, second),
        };
        one_way(m, n) || one_way(n, m)
    }

    /// Whether `m` serves transactions from other processes, each with arguments of its own
    /// (unmarshalled from the transaction): a provider's data access methods, a binder's
    /// interface methods; or requests, each with a request and a response of its own.
    pub fn serves_transactions(self, table: &ClassTable, m: &MethodRef) -> bool {
        match self {
            OrderedCallbacks::AsyncTask => false,
            OrderedCallbacks::ContentProvider => is_provider_data_method(table, m),
            OrderedCallbacks::Binder => is_binder_interface_method(table, m),
            OrderedCallbacks::Requests(server) => server.serves(table, m),
        }
    }
}

/// A provider's set-up: `onCreate()`, or the `attachInfo(Context, ProviderInfo)` that calls it
/// (which framework providers override to read their authority before `onCreate`), or the
/// framework's `attachInfoForTesting`, which tests call in its place.
fn is_provider_setup(m: &MethodRef) -> bool {
    match m.name.as_str() {
        "onCreate" => m.descriptor.as_str() == "()Z",
        "attachInfo" | "attachInfoForTesting" => {
            m.descriptor.as_str() == "(Landroid/content/Context;Landroid/content/pm/ProviderInfo;)V"
        }
        _ => false,
    }
}
