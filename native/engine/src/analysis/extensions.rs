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
}

impl Extensions {
    pub fn from_compat(racerd_compat: bool) -> Extensions {
        if racerd_compat {
            Extensions::NONE
        } else {
            Extensions::ALL
        }
    }

    pub const ALL: Extensions =
        Extensions { report_per_field: true, end_location_dedup: true, lineless_reports: true, converged_loops: true };

    pub const NONE: Extensions =
        Extensions { report_per_field: false, end_location_dedup: false, lineless_reports: false, converged_loops: false };
}

impl Default for Extensions {
    fn default() -> Extensions {
        Extensions::ALL
    }
}
