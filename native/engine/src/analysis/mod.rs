//! The RacerD analysis: domains, transfer functions, scheduling and reporting.
pub mod android;
pub mod annotations;
pub mod callgraph;
pub mod cfg;
pub mod dedup;
pub mod domain;
pub mod extensions;
pub mod facts;
pub mod handoffs;
pub mod inherited;
pub mod interp;
pub mod models;
mod pool;
pub mod races;
pub mod scc;
pub mod schedule;
pub mod shared_keys;
