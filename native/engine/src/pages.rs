//! Transparent huge pages for the command's own process.
//!
//! The allocator asks the kernel for transparent huge pages (2 MiB). On inputs of ordinary
//! size they make a run about 4% faster; but memory then grows in 2 MiB steps, and on very
//! large inputs the peak is some 3% higher (the Android framework jar with summaries:
//! 65 MiB, see docs/performance.md). Above [`LARGE_INPUT_BYTES`] of jars and class files the
//! peak matters more, so huge pages are turned off for the process. Only the `racer`
//! command does this: the JNI bridge runs inside a build's JVM, whose settings are not ours.

use std::path::PathBuf;

/// Inputs (jars and class files given directly, by size on disk) above which the process
/// runs without transparent huge pages. Class directories are one module's build output
/// and count nothing.
const LARGE_INPUT_BYTES: u64 = 64 << 20;

pub fn fit_to_input(inputs: &[PathBuf]) {
    let size: u64 = inputs.iter().filter_map(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len()).sum();
    if size > LARGE_INPUT_BYTES {
        disable_huge_pages();
    }
}

#[cfg(target_os = "linux")]
fn disable_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and changes no memory; a
    // kernel without it returns an error, which leaves things as they were.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn disable_huge_pages() {}
