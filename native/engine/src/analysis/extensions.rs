//! The analysis extensions beyond RacerD (spec 11.3), one switch each. All are on
//! by default; `racerd_compat` turns every one off and reproduces the reference.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extensions {
    /// Reporting: races on different fields of one line are all reported.
    pub report_per_field: bool,
    /// Reporting: one report per race (same access and conflicting site), with a
    /// count of the other entry points that reach it.
    pub end_location_dedup: bool,
    /// Reporting: accesses without a line (class files compiled without debug
    /// information) are reported with a null line instead of being dropped.
    pub lineless_reports: bool,
    /// Loops: accesses are recorded only from the converged states of the fixpoint.
    pub converged_loops: bool,
    /// Locks: must-hold at joins, a failed `tryLock` releases nothing, read-mode locks
    /// (`ReentrantReadWriteLock` read lock, `StampedLock` read stamp) do not protect
    /// writes, and subclasses of the modelled lock classes are locks.
    pub lock_precision: bool,
    /// Models: the JDK collections completed (queues, deques, sorted maps and sets,
    /// `compute*` as writes, `Vector` and the concurrent queues as thread-safe).
    pub collection_models: bool,
    /// Threads: Android background callbacks and thread annotations, main-looper checks.
    pub android_threads: bool,
    /// Reporting: compiler-generated bridge methods (generic overrides such as
    /// `doInBackground(Object[])`) are not reported; the methods they forward to are.
    pub skip_bridges: bool,
    /// Ownership: a fresh object stops being owned when it escapes (stored into a
    /// location that is not owned, added to a container, passed to a callee whose
    /// summary lets it escape, `this` leaked by a constructor); calls without code
    /// return values that are not owned.
    pub escape_ownership: bool,
    /// Locals: a local holding a copy of a field path is that path while it is not
    /// reassigned and the lock state has not changed; a reassigned parameter no longer
    /// names the caller's object.
    pub local_aliases: bool,
}

impl Extensions {
    pub fn from_compat(racerd_compat: bool) -> Extensions {
        if racerd_compat {
            Extensions::NONE
        } else {
            Extensions::ALL
        }
    }

    pub const ALL: Extensions = Extensions {
        report_per_field: true,
        end_location_dedup: true,
        lineless_reports: true,
        converged_loops: true,
        lock_precision: true,
        collection_models: true,
        android_threads: true,
        skip_bridges: true,
        escape_ownership: true,
        local_aliases: true,
    };

    pub const NONE: Extensions = Extensions {
        report_per_field: false,
        end_location_dedup: false,
        lineless_reports: false,
        converged_loops: false,
        lock_precision: false,
        collection_models: false,
        android_threads: false,
        skip_bridges: false,
        escape_ownership: false,
        local_aliases: false,
    };
}

impl Default for Extensions {
    fn default() -> Extensions {
        Extensions::ALL
    }
}
