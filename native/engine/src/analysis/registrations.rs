//! Framework callback objects that run where their registration says (an extension, with the
//! Android models and thread handoffs; `docs/android.md`): a `ConnectivityManager.NetworkCallback`,
//! the camera's callbacks, an `ImageReader`'s listener, a `TelephonyCallback`, a location or
//! sensor listener, a view's or a dialog's listeners, a `LiveData`'s observer, a broadcast
//! receiver. The call that registers the object hands it over
//! (`handoffs::HandoffModel::Registration`): its callbacks run on the looper of the `Handler` or
//! `Looper` the call is given, one at a time, on the `Executor` it is given, or, given none, where
//! [`WithoutHandler`] says. They are main-thread `on*` methods (spec 4.1 matches them as
//! overrides of an `android*` class) only where [`Unseen`] says so. The callbacks and functions
//! given to a Guava future's listener registrations (`future_listeners.rs`) are listed here too:
//! what such an object runs when handed over.

use once_cell::sync::Lazy;

use crate::classfile::descriptor::param_types;
use crate::classfile::model::{MethodRef, ACC_ABSTRACT, ACC_BRIDGE, ACC_STATIC};
use crate::fxhash::FxHashSet;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::android::overrides;

/// A framework type whose subclasses' (or implementations') callbacks run where the object is
/// registered, matched by name: the framework's classes need not be on the classpath.
struct Callbacks {
    class: &'static str,
    methods: &'static [&'static str],
    unseen: Unseen,
}

/// Where a callback object's callbacks run when its registration is not in the code analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unseen {
    /// On a background thread of the framework's, one call at a time: a network callback is
    /// registered on the connectivity thread unless it is given a handler.
    FrameworkThread,
    /// Unknown: the registration says (a sensor listener's events go to the main looper, a
    /// location listener's to the registering thread's, a camera callback's to its handler's).
    Unknown,
    /// On the main thread, wherever it is registered: a view's listeners (views dispatch their
    /// events on the user interface thread) and a `LiveData`'s observers ("the events are
    /// dispatched on the main thread").
    Main,
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
        unseen: Unseen::FrameworkThread,
    },
    Callbacks {
        class: "android.hardware.camera2.CameraDevice$StateCallback",
        methods: &["onOpened", "onDisconnected", "onError", "onClosed"],
        unseen: Unseen::Unknown,
    },
    Callbacks {
        class: "android.hardware.camera2.CameraCaptureSession$StateCallback",
        methods: &["onConfigured", "onConfigureFailed", "onReady", "onActive", "onCaptureQueueEmpty", "onClosed", "onSurfacePrepared"],
        unseen: Unseen::Unknown,
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
        unseen: Unseen::Unknown,
    },
    Callbacks {
        class: "android.media.ImageReader$OnImageAvailableListener",
        methods: &["onImageAvailable"],
        unseen: Unseen::Unknown,
    },
    Callbacks {
        class: "android.hardware.camera2.CameraManager$AvailabilityCallback",
        methods: &[
            "onCameraAvailable",
            "onCameraUnavailable",
            "onCameraAccessPrioritiesChanged",
            "onPhysicalCameraAvailable",
            "onPhysicalCameraUnavailable",
            "onCameraOpened",
            "onCameraClosed",
        ],
        unseen: Unseen::Unknown,
    },
    Callbacks {
        class: "android.hardware.camera2.CameraManager$TorchCallback",
        methods: &["onTorchModeUnavailable", "onTorchModeChanged", "onTorchStrengthLevelChanged"],
        unseen: Unseen::Unknown,
    },
    // The callbacks are those of the listener interfaces (`TelephonyCallback.CallStateListener`,
    // ...) that a subclass implements.
    Callbacks {
        class: "android.telephony.TelephonyCallback",
        methods: &[
            "onActiveDataSubscriptionIdChanged",
            "onAllowedNetworkTypesChanged",
            "onBarringInfoChanged",
            "onCallBackModeStarted",
            "onCallBackModeStopped",
            "onCallDisconnectCauseChanged",
            "onCallForwardingIndicatorChanged",
            "onCallStateChanged",
            "onCarrierNetworkChange",
            "onCellInfoChanged",
            "onCellLocationChanged",
            "onDataActivationStateChanged",
            "onDataActivity",
            "onDataConnectionStateChanged",
            "onDataEnabledChanged",
            "onDisplayInfoChanged",
            "onEmergencyNumberListChanged",
            "onImsCallDisconnectCauseChanged",
            "onLinkCapacityEstimateChanged",
            "onMediaQualityStatusChanged",
            "onMessageWaitingIndicatorChanged",
            "onOutgoingEmergencyCall",
            "onOutgoingEmergencySms",
            "onPhoneCapabilityChanged",
            "onPhysicalChannelConfigChanged",
            "onPreciseCallStateChanged",
            "onPreciseDataConnectionStateChanged",
            "onRadioPowerStateChanged",
            "onRegistrationFailed",
            "onServiceStateChanged",
            "onSignalStrengthsChanged",
            "onSrvccStateChanged",
            "onUserMobileDataStateChanged",
            "onVoiceActivationStateChanged",
        ],
        unseen: Unseen::Unknown,
    },
    Callbacks {
        class: "android.location.LocationListener",
        methods: &["onLocationChanged", "onFlushComplete", "onStatusChanged", "onProviderEnabled", "onProviderDisabled"],
        unseen: Unseen::Unknown,
    },
    Callbacks {
        class: "android.hardware.SensorEventListener",
        methods: &["onSensorChanged", "onAccuracyChanged", "onFlushCompleted"],
        unseen: Unseen::Unknown,
    },
    Callbacks { class: "android.view.View$OnClickListener", methods: &["onClick"], unseen: Unseen::Main },
    Callbacks { class: "android.view.View$OnLongClickListener", methods: &["onLongClick"], unseen: Unseen::Main },
    Callbacks { class: "android.view.View$OnTouchListener", methods: &["onTouch"], unseen: Unseen::Main },
    Callbacks { class: "android.view.View$OnKeyListener", methods: &["onKey"], unseen: Unseen::Main },
    Callbacks { class: "android.view.View$OnFocusChangeListener", methods: &["onFocusChange"], unseen: Unseen::Main },
    Callbacks { class: "android.view.View$OnLayoutChangeListener", methods: &["onLayoutChange"], unseen: Unseen::Main },
    Callbacks { class: "android.widget.CompoundButton$OnCheckedChangeListener", methods: &["onCheckedChanged"], unseen: Unseen::Main },
    Callbacks { class: "android.widget.AdapterView$OnItemClickListener", methods: &["onItemClick"], unseen: Unseen::Main },
    Callbacks { class: "android.widget.AdapterView$OnItemLongClickListener", methods: &["onItemLongClick"], unseen: Unseen::Main },
    Callbacks {
        class: "android.widget.AdapterView$OnItemSelectedListener",
        methods: &["onItemSelected", "onNothingSelected"],
        unseen: Unseen::Main,
    },
    Callbacks {
        class: "android.widget.SeekBar$OnSeekBarChangeListener",
        methods: &["onProgressChanged", "onStartTrackingTouch", "onStopTrackingTouch"],
        unseen: Unseen::Main,
    },
    Callbacks { class: "android.widget.TextView$OnEditorActionListener", methods: &["onEditorAction"], unseen: Unseen::Main },
    Callbacks { class: "android.text.TextWatcher", methods: &["beforeTextChanged", "onTextChanged", "afterTextChanged"], unseen: Unseen::Main },
    Callbacks { class: "androidx.lifecycle.Observer", methods: &["onChanged"], unseen: Unseen::Main },
    // A dialog's listeners: on the looper of the thread that made the dialog, the main thread
    // in practice (dialogs belong to the user interface).
    Callbacks { class: "android.content.DialogInterface$OnClickListener", methods: &["onClick"], unseen: Unseen::Main },
    Callbacks { class: "android.content.DialogInterface$OnMultiChoiceClickListener", methods: &["onClick"], unseen: Unseen::Main },
    Callbacks { class: "android.content.DialogInterface$OnCancelListener", methods: &["onCancel"], unseen: Unseen::Main },
    Callbacks { class: "android.content.DialogInterface$OnDismissListener", methods: &["onDismiss"], unseen: Unseen::Main },
    Callbacks { class: "android.content.DialogInterface$OnShowListener", methods: &["onShow"], unseen: Unseen::Main },
    // "The Handler identifying the thread that will receive the Intent. If null, the main thread
    // of the process will be used" (`Context.registerReceiver`); a receiver the manifest declares,
    // registered where racer does not see, receives on the main thread.
    Callbacks { class: "android.content.BroadcastReceiver", methods: &["onReceive"], unseen: Unseen::Main },
    // On the looper of the handler the observer is made with: main, as spec 4.1 reads an `on*`
    // override, unless it is known to be another (see `content_observers`).
    Callbacks { class: "android.database.ContentObserver", methods: &["onChange"], unseen: Unseen::Main },
    // The code a Guava future's listener registration runs (`future_listeners.rs`): a callback's
    // outcomes, a transformation's function.
    Callbacks { class: "com.google.common.util.concurrent.FutureCallback", methods: &["onSuccess", "onFailure"], unseen: Unseen::Unknown },
    Callbacks { class: "com.google.common.util.concurrent.AsyncFunction", methods: &["apply"], unseen: Unseen::Unknown },
    Callbacks { class: "com.google.common.base.Function", methods: &["apply"], unseen: Unseen::Unknown },
];

/// Where a registration runs the callbacks when the call is given no `Handler`, `Looper` or
/// `Executor` (or a null one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithoutHandler {
    /// On a background thread of the framework's, one callback at a time: "the callback is
    /// invoked on the default internal Handler" (`ConnectivityManager`).
    Background,
    /// On the main thread: `SensorManager` delivers its events to the main looper then; views
    /// and `LiveData` always do.
    Main,
    /// On the looper of the thread that registers the object: followed when that is the main
    /// thread (a lifecycle callback's, a method asserting it), not otherwise.
    CallingLooper,
    /// On the main thread when the registered content observer was made with a handler on the
    /// main looper (see `content_observers`); not followed otherwise: an observer made to run
    /// elsewhere runs its `onChange` there itself, one made with an unknown handler is main code
    /// by spec 4.1 wherever it is registered.
    Observer,
    /// On the thread that completes the future a listener is registered with: a Guava future's
    /// listener given no executor (`future_listeners.rs`; the deprecated `addCallback(future,
    /// callback)` runs it so).
    CompletingThread,
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
    Registration {
        class: "android.hardware.camera2.CameraManager",
        names: &["openCamera", "registerAvailabilityCallback", "registerTorchCallback"],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration {
        class: "android.hardware.camera2.CameraDevice",
        names: &[
            "createCaptureSession",
            "createCaptureSessionByOutputConfigurations",
            "createReprocessableCaptureSession",
            "createReprocessableCaptureSessionByConfigurations",
            "createConstrainedHighSpeedCaptureSession",
        ],
        without_handler: WithoutHandler::CallingLooper,
    },
    // The session's callbacks given with the configuration run on the executor given with them.
    Registration {
        class: "android.hardware.camera2.params.SessionConfiguration",
        names: &["<init>"],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration {
        class: "android.hardware.camera2.CameraCaptureSession",
        names: &[
            "capture",
            "captureBurst",
            "setRepeatingRequest",
            "setRepeatingBurst",
            "captureSingleRequest",
            "captureBurstRequests",
            "setSingleRepeatingRequest",
            "setRepeatingBurstRequests",
        ],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration {
        class: "android.media.ImageReader",
        names: &["setOnImageAvailableListener", "setOnImageAvailableListenerWithExecutor"],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration {
        class: "android.telephony.TelephonyManager",
        names: &["registerTelephonyCallback"],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration {
        class: "android.location.LocationManager",
        names: &["requestLocationUpdates", "requestSingleUpdate"],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration { class: "android.hardware.SensorManager", names: &["registerListener"], without_handler: WithoutHandler::Main },
    // A view's listeners (its subclasses' too: `CompoundButton`, `AdapterView`, `SeekBar`,
    // `TextView`).
    Registration {
        class: "android.view.View",
        names: &[
            "setOnClickListener",
            "setOnLongClickListener",
            "setOnTouchListener",
            "setOnKeyListener",
            "setOnFocusChangeListener",
            "addOnLayoutChangeListener",
            "setOnCheckedChangeListener",
            "setOnItemClickListener",
            "setOnItemLongClickListener",
            "setOnItemSelectedListener",
            "setOnSeekBarChangeListener",
            "setOnEditorActionListener",
            "addTextChangedListener",
        ],
        without_handler: WithoutHandler::Main,
    },
    Registration { class: "androidx.lifecycle.LiveData", names: &["observe", "observeForever"], without_handler: WithoutHandler::Main },
    // A dialog runs its listeners on the looper of the thread that made it: followed where that
    // thread is main (a dialog built in a lifecycle callback).
    Registration {
        class: "android.app.AlertDialog$Builder",
        names: &[
            "setPositiveButton",
            "setNegativeButton",
            "setNeutralButton",
            "setItems",
            "setAdapter",
            "setSingleChoiceItems",
            "setMultiChoiceItems",
            "setOnCancelListener",
            "setOnDismissListener",
        ],
        without_handler: WithoutHandler::CallingLooper,
    },
    Registration { class: "android.content.ContentResolver", names: &["registerContentObserver"], without_handler: WithoutHandler::Observer },
    // A dynamically registered receiver, on the scheduler `Handler` it is given, or on the main
    // thread (`ContextCompat` passes both on; `LocalBroadcastManager` delivers on the main looper).
    Registration {
        class: "android.content.Context",
        names: &["registerReceiver", "registerReceiverAsUser", "registerReceiverForAllUsers"],
        without_handler: WithoutHandler::Main,
    },
    Registration { class: "androidx.core.content.ContextCompat", names: &["registerReceiver"], without_handler: WithoutHandler::Main },
    Registration {
        class: "androidx.localbroadcastmanager.content.LocalBroadcastManager",
        names: &["registerReceiver"],
        without_handler: WithoutHandler::Main,
    },
    Registration {
        class: "android.support.v4.content.LocalBroadcastManager",
        names: &["registerReceiver"],
        without_handler: WithoutHandler::Main,
    },
    Registration {
        class: "android.app.Dialog",
        names: &["setOnCancelListener", "setOnDismissListener", "setOnShowListener"],
        without_handler: WithoutHandler::CallingLooper,
    },
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

/// Whether `m` is a callback of one of [`CALLBACKS`]' types, with where it runs when its
/// registration is not seen: it runs where its object is registered, which is no main-thread
/// `on*` method's rule.
pub fn registered_callback(table: &ClassTable, m: &MethodRef) -> Option<Unseen> {
    // Asked of every method: most are known not to be callbacks by their name alone.
    static NAMES: Lazy<FxHashSet<&str>> = Lazy::new(|| CALLBACKS.iter().flat_map(|c| c.methods.iter().copied()).collect());
    if !NAMES.contains(m.name.as_str()) {
        return None;
    }
    CALLBACKS.iter().find(|c| overrides(table, m, c.class, c.methods)).map(|c| c.unseen)
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
    use super::*;

    /// A receiver's registrations are known by name, androidx's and the support library's
    /// included, with or without the framework on the classpath; given no receiver, none is.
    #[test]
    fn receivers_are_registered_by_context_compat_and_local_broadcasts() {
        let table = ClassTable::new();
        let call = |class: &str, name: &str, descriptor: &str| MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) };
        let receiver = "(Landroid/content/BroadcastReceiver;Landroid/content/IntentFilter;)V";
        let compat = "(Landroid/content/Context;Landroid/content/BroadcastReceiver;Landroid/content/IntentFilter;Ljava/lang/String;Landroid/os/Handler;I)Landroid/content/Intent;";
        let as_user = "(Landroid/content/BroadcastReceiver;Landroid/os/UserHandle;Landroid/content/IntentFilter;Ljava/lang/String;Landroid/os/Handler;)Landroid/content/Intent;";
        let cases = [
            call("android.content.Context", "registerReceiverAsUser", as_user),
            call("androidx.core.content.ContextCompat", "registerReceiver", compat),
            call("androidx.localbroadcastmanager.content.LocalBroadcastManager", "registerReceiver", receiver),
            call("android.support.v4.content.LocalBroadcastManager", "registerReceiver", receiver),
        ];
        for named in cases {
            assert_eq!(registration(&table, &named), Some(WithoutHandler::Main), "{named:?}");
        }
        let pending = "(Landroid/content/IntentFilter;Landroid/app/PendingIntent;)V";
        assert_eq!(registration(&table, &call("android.content.Context", "registerReceiver", pending)), None);
    }

    #[test]
    fn descriptors_name_their_classes() {
        assert!(is_descriptor_of("Landroid/net/ConnectivityManager$NetworkCallback;", "android.net.ConnectivityManager$NetworkCallback"));
        assert!(!is_descriptor_of("Landroid/app/PendingIntent;", "android.net.ConnectivityManager$NetworkCallback"));
        assert!(!is_descriptor_of("Landroid/net/ConnectivityManager$NetworkCallbackX;", "android.net.ConnectivityManager$NetworkCallback"));
        assert!(!is_descriptor_of("I", "android.net.ConnectivityManager$NetworkCallback"));
    }
}
