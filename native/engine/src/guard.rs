//! Panics, kept out of the user's sight.
//!
//! racer runs inside build tools: a panic must never print a Rust message or a
//! backtrace into a build log. Bad input that trips a parser is expected and becomes
//! the one-line warning naming the file ([`quietly`]); anything else is an internal
//! error, turned by [`catch`] into one line that asks for a bug report. The backtrace
//! is printed only when `RACER_BACKTRACE=1` is set.

use std::any::Any;
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};

use crate::api::Error;
use crate::memory::MemoryExceeded;

thread_local! {
    /// Nesting depth of [`quietly`] on this thread: panics inside are expected.
    static QUIET: Cell<u32> = const { Cell::new(0) };
}

/// Where the last unexpected panic happened (the hook sees the location, `catch` does not).
static LAST_LOCATION: Mutex<Option<String>> = Mutex::new(None);

/// Set by the `racer` command and the JNI library: an internal error's panic prints
/// nothing (only [`catch`]'s one line), or a backtrace with `RACER_BACKTRACE=1`. A program
/// that merely links the library (a test) keeps its own panic output for its own panics.
static ONE_LINE_ERRORS: AtomicBool = AtomicBool::new(false);

/// Makes internal errors one line for the whole process (see [`ONE_LINE_ERRORS`]).
pub fn one_line_internal_errors() {
    ONE_LINE_ERRORS.store(true, Ordering::Relaxed);
    install_hook();
}

/// Installs (once per process) the hook that keeps expected panics silent.
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get() > 0) || info.payload().is::<MemoryExceeded>() {
                return;
            }
            if let Some(loc) = info.location() {
                *LAST_LOCATION.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{}:{}", loc.file(), loc.line()));
            }
            if !ONE_LINE_ERRORS.load(Ordering::Relaxed) {
                previous(info);
            } else if backtrace_requested() {
                eprintln!("racer: internal error: {}\n{}", payload_text(info.payload()), std::backtrace::Backtrace::force_capture());
            }
        }));
    });
}

fn backtrace_requested() -> bool {
    std::env::var_os("RACER_BACKTRACE").is_some_and(|v| v != "0")
}

/// Runs `f` where a panic is an expected reaction to bad input: it prints nothing and
/// comes back as `Err` with the panic's message.
pub fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    QUIET.with(|q| q.set(q.get() + 1));
    let outcome = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    outcome.map_err(|p| payload_text(&*p))
}

/// Runs a whole analysis: a panic becomes a one-line [`Error`] (the memory guard's
/// stop, or an internal error asking for a bug report).
pub fn catch<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    install_hook();
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(Error(describe(&*payload))),
    }
}

/// The one-line message for a caught panic payload.
pub fn describe(payload: &(dyn Any + Send)) -> String {
    if let Some(m) = payload.downcast_ref::<MemoryExceeded>() {
        return m.to_string();
    }
    let location = LAST_LOCATION.lock().unwrap_or_else(|e| e.into_inner()).take();
    let at = location.map(|l| format!(" at {l}")).unwrap_or_default();
    let hint = if backtrace_requested() { "" } else { "; run with RACER_BACKTRACE=1 for a backtrace" };
    format!(
        "racer: internal error, please report it with the input that caused it: {}{at}{hint}",
        payload_text(payload)
    )
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    text.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_error_is_one_line_with_its_location() {
        let err = catch::<()>(|| panic!("index out of range\nsecond line")).unwrap_err();
        assert!(err.0.starts_with("racer: internal error, please report it"), "{err}");
        assert!(err.0.contains("index out of range second line at native/engine/src/guard.rs:"), "{err}");
        assert!(!err.0.contains('\n'));
    }

    #[test]
    fn expected_panic_is_an_error_value() {
        assert_eq!(quietly(|| -> u8 { panic!("bad constant pool") }), Err("bad constant pool".to_string()));
        assert_eq!(quietly(|| 7), Ok(7));
    }

    #[test]
    fn memory_stop_is_its_own_message() {
        let err = catch::<()>(|| std::panic::panic_any(MemoryExceeded { limit: 64 << 20 })).unwrap_err();
        assert!(err.0.starts_with("racer: stopped: the analysis needs more than the memory limit of 64 MiB"), "{err}");
    }
}
