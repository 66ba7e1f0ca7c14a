#![no_main]
//! Fuzz target: see `racer_fuzz::request_json`.

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static SANDBOX: OnceLock<racer_fuzz::Sandbox> = OnceLock::new();
    racer_fuzz::request_json(SANDBOX.get_or_init(|| racer_fuzz::Sandbox::new("request_json")), data);
});
