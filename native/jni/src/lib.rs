//! JNI bridge: `dev.racer.bridge.RacerNative` natives over the racer engine.
//!
//! Every export runs its body inside `catch_unwind`; an engine error, a malformed
//! request or a panic becomes a `dev.racer.bridge.RacerException` in Java and never
//! unwinds into the JVM.

use std::panic::{catch_unwind, AssertUnwindSafe};

use jni::objects::{JClass, JString};
use jni::sys::jstring;
use jni::JNIEnv;

const EXCEPTION_CLASS: &str = "dev/racer/bridge/RacerException";

// The count of live bytes backs the request's `max_memory_mb`.
#[global_allocator]
static GLOBAL: racer::memory::Counting<std::alloc::System> = racer::memory::Counting(std::alloc::System);

/// Runs `body`, turning an `Err` or a panic into a pending Java exception.
fn guarded<'l>(
    env: &mut JNIEnv<'l>,
    body: impl FnOnce(&mut JNIEnv<'l>) -> Result<String, String>,
) -> jstring {
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)));
    let message = match outcome {
        Ok(Ok(text)) => match env.new_string(text) {
            Ok(s) => return s.into_raw(),
            Err(e) => format!("racer: cannot return the result to Java: {e}"),
        },
        Ok(Err(message)) => message,
        Err(panic) => racer::guard::describe(&*panic),
    };
    // If an exception is already pending (e.g. from a failed JNI call), keep it.
    if !env.exception_check().unwrap_or(true) {
        if env.throw_new(EXCEPTION_CLASS, &message).is_err() {
            eprintln!("racer: could not throw {EXCEPTION_CLASS}: {message}");
        }
    }
    std::ptr::null_mut()
}

/// `static native String version()`: the engine version, for the jar/library check.
#[no_mangle]
pub extern "system" fn Java_dev_racer_bridge_RacerNative_version<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jstring {
    guarded(&mut env, |_| Ok(racer::api::TOOL_VERSION.to_string()))
}

/// `static native String analyze(String requestJson)`: runs one analysis request.
#[no_mangle]
pub extern "system" fn Java_dev_racer_bridge_RacerNative_analyze<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    request_json: JString<'l>,
) -> jstring {
    racer::guard::one_line_internal_errors();
    guarded(&mut env, |env| {
        if request_json.is_null() {
            return Err("racer: the analysis request is null".into());
        }
        let text: String = env
            .get_string(&request_json)
            .map_err(|e| format!("racer: cannot read the request string: {e}"))?
            .into();
        racer::analyze_json(&text)
    })
}
