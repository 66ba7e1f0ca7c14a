#![no_main]
//! Fuzz target: see `racer_fuzz::summaries`.

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static SANDBOX: OnceLock<racer_fuzz::Sandbox> = OnceLock::new();
    racer_fuzz::summaries(SANDBOX.get_or_init(|| racer_fuzz::Sandbox::new("summaries")), data);
});
