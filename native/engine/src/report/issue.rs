//! The issue record: what every output format (text, JSON, SARIF, HTML) renders.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum IssueKind {
    #[serde(rename = "THREAD_SAFETY_VIOLATION")]
    ThreadSafetyViolation,
    #[serde(rename = "INTERFACE_NOT_THREAD_SAFE")]
    InterfaceNotThreadSafe,
    #[serde(rename = "GUARDEDBY_VIOLATION")]
    GuardedByViolation,
}

impl IssueKind {
    pub fn as_str(self) -> &'static str {
        match self {
            IssueKind::ThreadSafetyViolation => "THREAD_SAFETY_VIOLATION",
            IssueKind::InterfaceNotThreadSafe => "INTERFACE_NOT_THREAD_SAFE",
            IssueKind::GuardedByViolation => "GUARDEDBY_VIOLATION",
        }
    }
}

/// One step of a trace: a call site or the access itself.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TraceElem {
    /// Binary class name (`a.b.Outer$Inner`) of the method containing this step.
    pub class: String,
    pub method: String,
    pub descriptor: String,
    pub line: u32,
    pub description: String,
}

/// The other side of a race: the conflicting access and the method it is reached from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Conflict {
    pub class: String,
    pub method: String,
    pub descriptor: String,
    pub line: u32,
    pub access_path: String,
    /// "read" or "write".
    pub access: String,
    pub locked: bool,
    pub trace: Vec<TraceElem>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Issue {
    pub kind: IssueKind,
    /// Binary name with `.` and `$`.
    pub class: String,
    pub method: String,
    pub descriptor: String,
    /// 0 when the class has no line numbers; written as `null`.
    #[serde(with = "line_or_null")]
    pub line: u32,
    /// The `SourceFile` attribute, or "" when absent.
    pub source_file: String,
    pub access_path: String,
    pub message: String,
    pub trace: Vec<TraceElem>,
    pub conflicts: Vec<Conflict>,
    /// Other reporting methods that reach the same race (end-location de-duplication).
    #[serde(default)]
    pub other_entry_points: u32,
}

/// A line number, with 0 (no line number table) written as `null`.
mod line_or_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(line: &u32, s: S) -> Result<S::Ok, S::Error> {
        match line {
            0 => s.serialize_none(),
            n => s.serialize_u32(*n),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        Ok(Option::<u32>::deserialize(d)?.unwrap_or(0))
    }
}
