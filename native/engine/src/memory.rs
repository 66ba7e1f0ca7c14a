//! The memory guard: `--max-memory` / `options.max_memory_mb`.
//!
//! [`Counting`] wraps the global allocator and keeps the number of live heap bytes
//! the engine holds. Work loops call [`check`] at safe points (per class read, per
//! method summarised); past the limit it unwinds with [`MemoryExceeded`], which
//! [`crate::guard::catch`] turns into a one-line error. Stopping at a safe point, not
//! inside the allocator, keeps every lock and file in a clean state; the overshoot is
//! what one class or method allocates.
//!
//! The count covers every analysis running in the process: in a build daemon with
//! several analyses at once, the limit applies to their sum.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// Live bytes counted so far by all threads; each thread adds its own changes in batches.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// A thread's changes are added to [`LIVE`] once they reach this many bytes either way:
/// one shared counter updated on every allocation made the two worker threads contend for
/// it (a tenth of the run). The count is then off by at most this much per thread.
const BATCH: isize = 256 << 10;

thread_local! {
    /// This thread's changes not yet added to [`LIVE`]. No destructor and a constant
    /// initialiser: it is safe to use inside the allocator.
    static PENDING: Cell<isize> = const { Cell::new(0) };
}

#[inline]
fn count(delta: isize) {
    // `try_with`: a thread being torn down may still free memory.
    let flushed = PENDING.try_with(|p| {
        let total = p.get() + delta;
        if total.abs() >= BATCH {
            p.set(0);
            LIVE.fetch_add(total, Ordering::Relaxed);
        } else {
            p.set(total);
        }
    });
    if flushed.is_err() {
        LIVE.fetch_add(delta, Ordering::Relaxed);
    }
}

/// A global allocator that counts live bytes on top of `A`.
pub struct Counting<A>(pub A);

unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = self.0.alloc(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = self.0.alloc_zeroed(layout);
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.0.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = self.0.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Live heap bytes, if the process's global allocator is [`Counting`] (else 0), give or
/// take [`BATCH`] per thread. (Frees counted by one thread before the allocations another
/// thread made can make the sum dip below zero for a moment: that reads as 0.)
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed).max(0) as usize
}

thread_local! {
    /// The limit of the analysis this thread works for, in bytes (0 = none).
    static LIMIT: Cell<usize> = const { Cell::new(0) };
}

/// Sets the limit for the analysis run on the current thread (0 = unlimited).
pub fn set_thread_limit(bytes: usize) {
    LIMIT.with(|l| l.set(bytes));
}

/// The panic payload of a run stopped by the guard.
#[derive(Debug, Clone, Copy)]
pub struct MemoryExceeded {
    pub limit: usize,
}

impl std::fmt::Display for MemoryExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "racer: stopped: the analysis needs more than the memory limit of {} MiB (raise --max-memory, maxMemory or racer.maxMemory)",
            self.limit >> 20
        )
    }
}

/// A safe point: stops the run if live memory is over this thread's limit.
#[inline]
pub fn check() {
    let limit = LIMIT.with(|l| l.get());
    if limit != 0 && live_bytes() > limit {
        std::panic::panic_any(MemoryExceeded { limit });
    }
}

/// Set by a process that ends with `_exit` as soon as its output is written (the `racer`
/// command): what a run drops at its end is then left for the kernel to take back whole.
static PROCESS_ENDS_AFTER_RUN: AtomicBool = AtomicBool::new(false);

/// Declares that the process ends right after the run (see [`free_off_path`]).
pub fn process_ends_after_run() {
    PROCESS_ENDS_AFTER_RUN.store(true, Ordering::Relaxed);
}

/// Frees what a run no longer needs without keeping its caller waiting: on another thread
/// (a large program model takes a noticeable time to free), or not at all in a process
/// that is about to end, where that thread would only take a core from the output.
pub fn free_off_path<T: Send + 'static>(value: T) {
    if PROCESS_ENDS_AFTER_RUN.load(Ordering::Relaxed) {
        std::mem::forget(value);
    } else {
        std::thread::spawn(move || drop(value));
    }
}

/// Parses a size such as `512m`, `2g`, `2G`, `1500M`, `4096k` or plain bytes into bytes.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let lower = lower.strip_suffix('b').filter(|s| s.ends_with(['k', 'm', 'g', 't'])).unwrap_or(&lower);
    let (digits, unit) = match lower.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => lower.split_at(i),
        None => (lower, ""),
    };
    let shift = match unit {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(format!("invalid size '{t}' (expected a number with an optional unit k, m, g: 512m, 2g)")),
    };
    let n: usize = digits.parse().map_err(|_| format!("invalid size '{t}' (expected a number with an optional unit k, m, g: 512m, 2g)"))?;
    n.checked_mul(1usize << shift).ok_or_else(|| format!("size '{t}' is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Says on a channel when it is dropped.
    struct Tells(std::sync::mpsc::Sender<()>);
    impl Drop for Tells {
        fn drop(&mut self) {
            let _ = self.0.send(());
        }
    }

    #[test]
    fn off_path_frees_on_another_thread_until_the_process_is_said_to_end() {
        let (tx, rx) = std::sync::mpsc::channel();
        free_off_path(Tells(tx.clone()));
        assert!(rx.recv_timeout(std::time::Duration::from_secs(10)).is_ok(), "freed");
        // The flag is for the whole process: other tests here only leak what they free.
        process_ends_after_run();
        free_off_path(Tells(tx));
        assert!(rx.recv_timeout(std::time::Duration::from_millis(200)).is_err(), "left to the exit");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("2gb"), Ok(2 << 30));
        assert_eq!(parse_size("4096k"), Ok(4096 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("2x").is_err());
        assert!(parse_size("").is_err());
    }
}
