#![no_main]
//! Fuzz target: see `racer_fuzz::classfile`.

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static SANDBOX: OnceLock<racer_fuzz::Sandbox> = OnceLock::new();
    racer_fuzz::classfile(SANDBOX.get_or_init(|| racer_fuzz::Sandbox::new("classfile")), data);
});
