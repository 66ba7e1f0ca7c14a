//! The issue record: what every output format (text, JSON, SARIF, HTML) renders.
//!
//! Plain data with no dependencies inside the crate, so that the request/response
//! types (`api`), the analysis and the report emitters can all share it.

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

    pub const ALL: [IssueKind; 3] =
        [IssueKind::ThreadSafetyViolation, IssueKind::InterfaceNotThreadSafe, IssueKind::GuardedByViolation];

    /// The kind named `name` (`THREAD_SAFETY_VIOLATION`, ...), ignoring case.
    pub fn parse(name: &str) -> Option<IssueKind> {
        IssueKind::ALL.into_iter().find(|k| k.as_str().eq_ignore_ascii_case(name.trim()))
    }
}

/// Whether an issue was already recorded in the baseline file given with the request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BaselineState {
    /// Not in the baseline (or no baseline given): this issue fails a build.
    #[default]
    New,
    /// Found in the baseline: reported, but does not fail a build.
    Unchanged,
}

/// The in-code annotation that silences an issue.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Suppression {
    /// Simple name of the annotation (`SuppressRace`, `SuppressLint`).
    pub annotation: String,
    /// The value that matched: an issue kind, `racer` or `all`.
    pub value: String,
    /// The annotation's `reason`, when given.
    pub reason: Option<String>,
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
    /// The `SourceFile` of `class` when it is another top-level class than the issue's
    /// (a Kotlin file's functions, a class in a file of another name); empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source_file: String,
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
    /// As [`TraceElem::source_file`], for `class`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source_file: String,
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
    /// Set from the request's baseline; `new` when none is given.
    #[serde(default)]
    pub baseline: BaselineState,
    /// The annotation that suppresses this issue, if any. Suppressed issues are
    /// reported but never fail a build.
    #[serde(default)]
    pub suppressed: Option<Suppression>,
    /// The field the racy access ends at (declaring class, name), for field-level
    /// suppressions, filters and grouping. Not part of the serialised record.
    #[serde(skip)]
    pub field: Option<FieldId>,
}

/// A field by declaring class (binary name) and name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldId {
    pub class: String,
    pub name: String,
}

impl Issue {
    /// Fails a build: neither baselined nor suppressed.
    pub fn is_new(&self) -> bool {
        self.baseline == BaselineState::New && self.suppressed.is_none()
    }
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

/// `a.b.Foo` for `a.b.Foo$Inner$1`: the class whose source file holds it.
pub fn top_level_class(class: &str) -> &str {
    let start = class.rfind('.').map_or(0, |i| i + 1);
    match class[start..].find('$') {
        Some(0) | None => class,
        Some(i) => &class[..start + i],
    }
}
