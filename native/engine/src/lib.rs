//! racer: a RacerD-style compositional data-race detector for JVM bytecode.
//!
//! [`analyze`] is the whole product behind one call: the `racer` command and the
//! JNI bridge both use it.

pub mod analysis;
pub mod api;
pub mod classfile;
pub mod context;
pub mod hierarchy;
pub mod input;
pub mod interned;
pub mod issue;
pub mod pipeline;
mod prefetch;
mod recent;
pub mod report;
pub mod fxhash;
pub mod guard;
pub mod memory;
pub mod summaries;
pub mod sym;
pub mod timings;
pub mod triage;

pub use api::{Error, Request, Response};

/// Analyses the request's inputs and writes the requested report and summary files.
/// A panic (an internal error, or the memory guard stopping the run) comes back as a
/// one-line [`Error`].
pub fn analyze(request: &Request) -> Result<Response, Error> {
    guard::catch(|| pipeline::run(request))
}

/// JSON in, JSON out: the form the JNI bridge uses. Errors are one-line messages.
pub fn analyze_json(request_json: &str) -> Result<String, String> {
    let request = parse_request(request_json)?;
    let response = analyze(&request).map_err(|e| e.0)?;
    serde_json::to_string(&response).map_err(|e| format!("racer: cannot encode the result: {e}"))
}

/// Decodes and checks a request document (the first half of [`analyze_json`]).
pub fn parse_request(request_json: &str) -> Result<Request, String> {
    let request: Request = serde_json::from_str(request_json)
        .map_err(|e| format!("racer: malformed analysis request: {e}"))?;
    if request.request_version != api::REQUEST_VERSION {
        return Err(format!(
            "racer: analysis request version {} is not supported (this library speaks version {}); \
             the plugin and the native library do not match",
            request.request_version,
            api::REQUEST_VERSION
        ));
    }
    Ok(request)
}
