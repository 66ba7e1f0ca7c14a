//! The RacerD analysis: domains, transfer functions, scheduling and reporting.
pub mod annotations;
pub mod cfg;
pub mod domain;
pub mod facts;
pub mod interp;
pub mod models;
pub mod races;
pub mod schedule;
