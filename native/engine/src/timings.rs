//! `RACER_TIMINGS=1`: the wall time of each phase since the run started, the CPU time the
//! process has used by then (both cores busy: CPU grows twice as fast as wall), and the
//! heap then held, to stderr (for benchmarking).

use std::time::Instant;

pub fn phase(start: Instant, name: &str) {
    if std::env::var_os("RACER_TIMINGS").is_some() {
        let live = crate::memory::live_bytes() >> 20;
        eprintln!("racer: timing: {name}: {:.4}s, cpu {:.3}s ({live} MiB live)", start.elapsed().as_secs_f64(), cpu_seconds());
    }
}

/// User and system time of the whole process so far.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
