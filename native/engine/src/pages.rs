//! How the command's own process uses memory pages, fitted to the size of its input and to
//! whether it writes a summary file.
//!
//! - **Huge pages** are off for the process. A transparent huge page is zeroed in full (2 MiB)
//!   when first touched. Where memory a process freed has gone back to the host (a virtual
//!   machine with free page reporting), that first touch costs some five times what it costs
//!   with 4 KiB pages: on the corpus the run then spent a third of its time zeroing pages
//!   (docs/performance.md). With memory still warm, huge pages are only about 4% faster, and
//!   they make the peak grow in 2 MiB steps.
//! - **Freed pages.** By default the allocator gives freed pages back to the kernel after a
//!   delay, and the kernel zeroes them again when they are reused: on the corpus that is a
//!   tenth of the run, on the Android framework jar about 3% of it. The process keeps its
//!   freed pages (it exits at the end of the run anyway), except when its input is above
//!   [`LARGE_INPUT_BYTES`] and it writes a summary file too: that run holds the most, and
//!   giving the pages back keeps its peak up to 50 MB lower (on the Android framework jar,
//!   under 2 GiB either way in report mode, within 70 MB of it in plugin mode).
//!
//! Only the `racer` command does this: the JNI bridge runs inside a build's JVM, which lives
//! on after the run and whose memory settings are not ours.

use std::path::PathBuf;

/// Inputs (jars and class files given directly, by size on disk) above which a run that
/// writes a summary file gives freed pages back. Class directories are one module's build
/// output and count nothing.
const LARGE_INPUT_BYTES: u64 = 64 << 20;

/// Call before any other thread starts: the allocator's options are not thread-safe.
pub fn fit_to_run(inputs: &[PathBuf], writes_summaries: bool) {
    disable_huge_pages();
    if keeps_freed_pages(inputs, writes_summaries) {
        keep_freed_pages();
    }
}

/// Whether a run keeps the pages it frees (see the module's comment).
fn keeps_freed_pages(inputs: &[PathBuf], writes_summaries: bool) -> bool {
    !(writes_summaries && is_large(inputs))
}

fn is_large(inputs: &[PathBuf]) -> bool {
    let size: u64 = inputs.iter().filter_map(|p| std::fs::metadata(p).ok()).filter(|m| m.is_file()).map(|m| m.len()).sum();
    size > LARGE_INPUT_BYTES
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

/// `mi_option_purge_delay` (the same index in mimalloc v2 and v3; the Rust bindings leave it
/// out of their constants). -1 means freed pages are never given back.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn keep_freed_pages() {
    // SAFETY: sets one integer option; called before other threads exist.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

#[cfg(test)]
fn purge_delay() -> i64 {
    // SAFETY: reads one integer option.
    unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) as i64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new directory (named after `test`) holding a small jar and a jar just above the size
    /// of a large input.
    fn small_and_large_jars(test: &str) -> (PathBuf, PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("racer-pages-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (small, big) = (dir.join("small.jar"), dir.join("big.jar"));
        std::fs::write(&small, b"PK").unwrap();
        // Sparse: the size is what counts, nothing is written.
        std::fs::File::create(&big).unwrap().set_len(LARGE_INPUT_BYTES + 1).unwrap();
        (dir, small, big)
    }

    #[test]
    fn only_files_given_as_inputs_count_toward_a_large_input() {
        let (dir, small, big) = small_and_large_jars("size");
        assert!(!is_large(&[small.clone(), dir.clone()]));
        assert!(is_large(&[small, big]));
        assert!(!is_large(&[dir.join("missing.jar")]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_large_input_that_also_writes_summaries_gives_freed_pages_back() {
        let (dir, small, big) = small_and_large_jars("rule");
        assert!(keeps_freed_pages(&[small.clone()], false));
        assert!(keeps_freed_pages(&[small], true));
        assert!(keeps_freed_pages(&[big.clone()], false));
        assert!(!keeps_freed_pages(&[big], true));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn keeping_freed_pages_sets_the_purge_delay_to_never() {
        // A nonzero default shows the index names the purge delay (0 would be another option
        // left at its default); the setting of the runs that keep their pages then reads back.
        assert!(purge_delay() > 0, "default purge delay {}", purge_delay());
        keep_freed_pages();
        assert_eq!(purge_delay(), -1);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_kernel_sees_huge_pages_turned_off() {
        disable_huge_pages();
        // SAFETY: reads the process's flag; integer arguments only.
        assert_eq!(unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) }, 1);
    }
}
