//! Framework callback objects that run where their registration says (an extension, with the
//! Android models and thread handoffs; `docs/android.md`): a `ConnectivityManager.NetworkCallback`,
//! the camera's state and capture callbacks, an `ImageReader`'s listener. The call that registers
//! the object hands it over (`handoffs::HandoffModel::Registration`): its callbacks run on the
//! looper of the `Handler` the call is given, one at a time, or, for a network callback given
//! none, on the process's connectivity thread. They are not main-thread `on*` methods (spec 4.1
//! matches them as overrides of an `android*` class).

use once_cell::sync::Lazy;

use crate::classfile::descriptor::param_types;
use crate::classfile::model::{MethodRef, ACC_ABSTRACT, ACC_BRIDGE, ACC_STATIC};
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::android::overrides;

/// A framework type whose subclasses' (or implementations') callbacks run where the object is
/// registered, matched by name: the framework's classes need not be on the classpath.
struct Callbacks {
    class: &'static str,
    methods: &'static [&'static str],
}

const CALLBACKS: &[Callbacks] = &[
    Callbacks {
        class: "android.net.ConnectivityManager$NetworkCallback",
        methods: &[
            "onPreCheck",
            "onAvailable",
            "onLosing",
            "onLost",
            "onUnavailable",
            "onCapabilitiesChanged",
            "onLinkPropertiesChanged",
            "onNetworkSuspended",
            "onNetworkResumed",
            "onBlockedStatusChanged",
        ],
    },
    Callbacks { class: "android.hardware.camera2.CameraDevice$StateCallback", methods: &["onOpened", "onDisconnected", "onError", "onClosed"] },
    Callbacks {
        class: "android.hardware.camera2.CameraCaptureSession$StateCallback",
        methods: &["onConfigured", "onConfigureFailed", "onReady", "onActive", "onCaptureQueueEmpty", "onClosed", "onSurfacePrepared"],
    },
    Callbacks {
        class: "android.hardware.camera2.CameraCaptureSession$CaptureCallback",
        methods: &[
            "onCaptureStarted",
            "onReadoutStarted",
            "onCaptureProgressed",
            "onCaptureCompleted",
            "onCaptureFailed",
            "onCaptureSequenceCompleted",
            "onCaptureSequenceAborted",
            "onCaptureBufferLost",
        ],
    },
    Callbacks { class: "android.media.ImageReader$OnImageAvailableListener", methods: &["onImageAvailable"] },
];

/// Where a registration runs the callbacks when the call is given no `Handler`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithoutHandler {
    /// On a background thread of the framework's, one callback at a time: "the callback is
    /// invoked on the default internal Handler" (`ConnectivityManager`).
    Background,
    /// Not followed: an `Executor` overload, whose executor is not modelled here.
    NotFollowed,
}

/// Calls that register a callback object of one of [`CALLBACKS`]' types.
struct Registration {
    class: &'static str,
    names: &'static [&'static str],
    without_handler: WithoutHandler,
}

const REGISTRATIONS: &[Registration] = &[
    Registration {
        class: "android.net.ConnectivityManager",
        names: &[
            "registerNetworkCallback",
            "registerDefaultNetworkCallback",
            "registerDefaultNetworkCallbackForUid",
            "registerSystemDefaultNetworkCallback",
            "registerBestMatchingNetworkCallback",
            "requestNetwork",
        ],
        without_handler: WithoutHandler::Background,
    },
    // A null handler means "the current thread's looper", which is not followed either.
    Registration { class: "android.hardware.camera2.CameraManager", names: &["openCamera"], without_handler: WithoutHandler::NotFollowed },
    Registration {
        class: "android.hardware.camera2.CameraDevice",
        names: &[
            "createCaptureSession",
            "createCaptureSessionByOutputConfigurations",
            "createReprocessableCaptureSession",
            "createReprocessableCaptureSessionByConfigurations",
            "createConstrainedHighSpeedCaptureSession",
        ],
        without_handler: WithoutHandler::NotFollowed,
    },
    Registration {
        class: "android.hardware.camera2.CameraCaptureSession",
        names: &["capture", "captureBurst", "setRepeatingRequest", "setRepeatingBurst"],
        without_handler: WithoutHandler::NotFollowed,
    },
    Registration { class: "android.media.ImageReader", names: &["setOnImageAvailableListener"], without_handler: WithoutHandler::NotFollowed },
];

/// The registration `named` is, if it is one: a call of [`REGISTRATIONS`] given a callback object
/// (not a `PendingIntent`).
pub fn registration(table: &ClassTable, named: &MethodRef) -> Option<WithoutHandler> {
    let name = named.name.as_str();
    let r = REGISTRATIONS.iter().find(|r| r.names.contains(&name) && table.is_subtype_of_any(named.class, &[r.class]))?;
    let is_callback = |param: &str| CALLBACKS.iter().any(|c| is_descriptor_of(param, c.class));
    param_types(named.descriptor.as_str()).iter().any(|p| is_callback(p)).then_some(r.without_handler)
}

/// Whether `descriptor` (`Landroid/net/ConnectivityManager$NetworkCallback;`) names `class`
/// (`android.net.ConnectivityManager$NetworkCallback`).
fn is_descriptor_of(descriptor: &str, class: &str) -> bool {
    descriptor.strip_prefix('L').and_then(|d| d.strip_suffix(';')).is_some_and(|d| {
        d.len() == class.len() && d.bytes().zip(class.bytes()).all(|(a, b)| a == b || (a == b'/' && b == b'.'))
    })
}

/// A callback of one of [`CALLBACKS`]' types: it runs where its object is registered, not on the
/// main thread, and one call at a time for its object (one looper runs them).
pub fn is_registered_callback(table: &ClassTable, m: &MethodRef) -> bool {
    CALLBACKS.iter().any(|c| overrides(table, m, c.class, c.methods))
}

/// The callbacks an object of `class` overrides, when it is of one of [`CALLBACKS`]' types (a
/// strict subtype): what registering it runs, the most derived override of each. Empty for any
/// other class.
pub fn registered_callbacks(table: &ClassTable, class: Sym) -> Vec<MethodRef> {
    // Asked of every class allocated without a `run()`: one walk of its supertypes answers most.
    static TYPES: Lazy<Vec<&str>> = Lazy::new(|| CALLBACKS.iter().map(|c| c.class).collect());
    if !table.is_subtype_of_any(class, &TYPES) {
        return Vec::new();
    }
    let Some(callbacks) = CALLBACKS.iter().find(|c| c.class != class.as_str() && table.is_subtype_of_any(class, &[c.class])) else {
        return Vec::new();
    };
    let mut found: Vec<MethodRef> = Vec::new();
    table.find_in_supertypes(class, |c| {
        if c.as_str() == callbacks.class {
            return Some(());
        }
        for m in table.get(c).map_or(&[][..], |h| &h.methods[..]) {
            let callback = callbacks.methods.contains(&m.name.as_str()) && m.flags & (ACC_ABSTRACT | ACC_BRIDGE | ACC_STATIC) == 0;
            if callback && !found.iter().any(|f| f.name == m.name && f.descriptor == m.descriptor) {
                found.push(MethodRef { class: c, name: m.name, descriptor: m.descriptor });
            }
        }
        None
    });
    found
}

#[cfg(test)]
mod tests {
    use super::is_descriptor_of;

    #[test]
    fn descriptors_name_their_classes() {
        assert!(is_descriptor_of("Landroid/net/ConnectivityManager$NetworkCallback;", "android.net.ConnectivityManager$NetworkCallback"));
        assert!(!is_descriptor_of("Landroid/app/PendingIntent;", "android.net.ConnectivityManager$NetworkCallback"));
        assert!(!is_descriptor_of("Landroid/net/ConnectivityManager$NetworkCallbackX;", "android.net.ConnectivityManager$NetworkCallback"));
        assert!(!is_descriptor_of("I", "android.net.ConnectivityManager$NetworkCallback"));
    }
}
