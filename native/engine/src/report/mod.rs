//! Issues and their renderings.
pub mod issue;

pub use issue::{Conflict, Issue, IssueKind, TraceElem};
