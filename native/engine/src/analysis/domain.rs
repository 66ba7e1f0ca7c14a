//! The abstract domains of section 3: threads, locks, ownership, attributes,
//! access paths and access snapshots, and method summaries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::classfile::model::{FieldRef, MethodRef};
use crate::sym::Sym;

/// 3.3: which threads may run in parallel with the current one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Threads {
    NoThread,
    AnyThreadButSelf,
    AnyThread,
}

impl Threads {
    pub fn join(self, other: Threads) -> Threads {
        self.max(other)
    }
    pub fn is_any(self) -> bool {
        self == Threads::AnyThread
    }
    pub fn can_conflict(self, other: Threads) -> bool {
        self.join(other) == Threads::AnyThread
    }
}

/// 3.2: lock count, 0..=5.
pub const LOCK_TOP: u8 = 5;

/// 3.4: ownership. `OwnedIf(set)`: owned if all the formals in the set are owned
/// at the call site (the empty set is plain `Owned`). The set is a bitmask of
/// formal indexes (formals beyond 63 are treated as never owned).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Own {
    OwnedIf(u64),
    Unowned,
}

pub const OWNED: Own = Own::OwnedIf(0);

impl Own {
    pub fn formal(i: usize) -> Own {
        if i < 64 {
            Own::OwnedIf(1 << i)
        } else {
            Own::Unowned
        }
    }
    pub fn join(self, other: Own) -> Own {
        match (self, other) {
            (Own::OwnedIf(a), Own::OwnedIf(b)) => Own::OwnedIf(a | b),
            _ => Own::Unowned,
        }
    }
    pub fn is_owned(self) -> bool {
        self == OWNED
    }
}

/// 3.5: attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Attr {
    Functional,
    OnMainThread,
    LockHeld,
    Synchronized,
}

/// 2.1: the base of an access path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Base {
    /// Formal 0 of an instance method.
    This,
    /// Formal `i` other than `this` (formal indexes count `this` as 0).
    Param(u16),
    /// The static root of a class.
    Static(Sym),
    /// A named local slot that is not a parameter.
    Local(u16),
    /// A temporary: a call result or allocation, identified by its instruction.
    Temp(u32),
}

impl Base {
    pub fn formal_index(self) -> Option<usize> {
        match self {
            Base::This => Some(0),
            Base::Param(i) => Some(i as usize),
            _ => None,
        }
    }
    /// 2.2 rule 1: only formal- and static-rooted accesses are kept.
    pub fn is_reportable(self) -> bool {
        matches!(self, Base::This | Base::Param(_) | Base::Static(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Step {
    /// A field, identified by its declaring class and name.
    Field { class: Sym, name: Sym },
    /// Any element of an array.
    Array,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Path {
    pub base: Base,
    pub steps: Vec<Step>,
}

/// Paths longer than this are not extended (guards against unbounded growth
/// through recursive data structures and summary substitution).
pub const MAX_PATH_STEPS: usize = 12;

impl Path {
    pub fn of(base: Base) -> Path {
        Path { base, steps: Vec::new() }
    }
    pub fn with(&self, step: Step) -> Option<Path> {
        if self.steps.len() >= MAX_PATH_STEPS {
            return None;
        }
        let mut steps = Vec::with_capacity(self.steps.len() + 1);
        steps.extend_from_slice(&self.steps);
        steps.push(step);
        Some(Path { base: self.base, steps })
    }
    pub fn field(&self, f: &FieldRef, declaring: Sym) -> Option<Path> {
        let _ = f;
        self.with(Step::Field { class: declaring, name: f.name })
    }
    pub fn prefix(&self, len: usize) -> Path {
        Path { base: self.base, steps: self.steps[..len].to_vec() }
    }
    pub fn last_field(&self) -> Option<(Sym, Sym)> {
        match self.steps.last() {
            Some(Step::Field { class, name }) => Some((*class, *name)),
            _ => None,
        }
    }
}

/// A map from paths to values, organised by base (most keys are bare bases).
/// Deterministic: iteration follows path order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMap<V: Copy + Eq> {
    entries: std::collections::BTreeMap<Base, Vec<(Vec<Step>, V)>>,
}

impl<V: Copy + Eq> Default for PathMap<V> {
    fn default() -> Self {
        PathMap { entries: std::collections::BTreeMap::new() }
    }
}

impl<V: Copy + Eq> PathMap<V> {
    pub fn get(&self, p: &Path) -> Option<V> {
        self.get_parts(p.base, &p.steps)
    }
    pub fn get_parts(&self, base: Base, steps: &[Step]) -> Option<V> {
        self.entries.get(&base)?.iter().find(|(s, _)| s.as_slice() == steps).map(|(_, v)| *v)
    }
    pub fn set(&mut self, p: &Path, v: Option<V>) {
        let list = self.entries.entry(p.base).or_default();
        match (list.iter().position(|(s, _)| *s == p.steps), v) {
            (Some(i), Some(v)) => list[i].1 = v,
            (Some(i), None) => {
                list.remove(i);
            }
            (None, Some(v)) => list.push((p.steps.clone(), v)),
            (None, None) => {}
        }
        if list.is_empty() {
            self.entries.remove(&p.base);
        }
    }
    /// Entries for one base (any steps).
    pub fn for_base(&self, base: Base) -> &[(Vec<Step>, V)] {
        self.entries.get(&base).map(|v| v.as_slice()).unwrap_or(&[])
    }
    pub fn iter(&self) -> impl Iterator<Item = (Path, V)> + '_ {
        self.entries
            .iter()
            .flat_map(|(b, list)| list.iter().map(move |(s, v)| (Path { base: *b, steps: s.clone() }, *v)))
    }
    pub fn len(&self) -> usize {
        self.entries.values().map(|l| l.len()).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Pointwise merge: `both` decides keys present on both sides, `one` keys on one side.
    pub fn merge(&self, other: &PathMap<V>, both: impl Fn(V, V) -> Option<V>, keep_single: bool) -> PathMap<V> {
        let mut out = PathMap { entries: std::collections::BTreeMap::new() };
        for (base, list) in &self.entries {
            for (steps, v) in list {
                let merged = match other.get_parts(*base, steps) {
                    Some(w) => both(*v, w),
                    None if keep_single => Some(*v),
                    None => None,
                };
                if let Some(m) = merged {
                    out.entries.entry(*base).or_default().push((steps.clone(), m));
                }
            }
        }
        if keep_single {
            for (base, list) in &other.entries {
                for (steps, v) in list {
                    if self.get_parts(*base, steps).is_none() {
                        out.entries.entry(*base).or_default().push((steps.clone(), *v));
                    }
                }
            }
        }
        out
    }
}

/// The kind of an access snapshot (3.6).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AccessKind {
    Read(Path),
    Write(Path),
    ContainerRead(Path, MethodRef),
    ContainerWrite(Path, MethodRef),
    InterfaceCall(Path, MethodRef),
}

impl AccessKind {
    pub fn path(&self) -> &Path {
        match self {
            AccessKind::Read(p)
            | AccessKind::Write(p)
            | AccessKind::ContainerRead(p, _)
            | AccessKind::ContainerWrite(p, _)
            | AccessKind::InterfaceCall(p, _) => p,
        }
    }
    pub fn is_write(&self) -> bool {
        matches!(self, AccessKind::Write(_) | AccessKind::ContainerWrite(..))
    }
    pub fn with_path(&self, p: Path) -> AccessKind {
        match self {
            AccessKind::Read(_) => AccessKind::Read(p),
            AccessKind::Write(_) => AccessKind::Write(p),
            AccessKind::ContainerRead(_, m) => AccessKind::ContainerRead(p, *m),
            AccessKind::ContainerWrite(_, m) => AccessKind::ContainerWrite(p, *m),
            AccessKind::InterfaceCall(_, m) => AccessKind::InterfaceCall(p, *m),
        }
    }
}

/// The identity of a snapshot (3.6: location and trace are not part of it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AccessKey {
    pub kind: AccessKind,
    pub thread: Threads,
    pub lock: bool,
    pub own_pre: Own,
}

/// A call site on the way from a summary's method to an access.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CallSite {
    pub callee: MethodRef,
    pub line: u32,
}

/// Where a snapshot happens: the access line in the innermost method, and the
/// call sites from the summary's method down to it (outermost first).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Site {
    pub line: u32,
    #[serde(default, skip_serializing_if = "<[CallSite]>::is_empty", with = "arc_slice")]
    pub trace: Arc<[CallSite]>,
}

impl Site {
    /// The line shown in the summary's own method.
    pub fn outer_line(&self) -> u32 {
        self.trace.first().map_or(self.line, |c| c.line)
    }
    /// Deterministic preference between two sites of the same snapshot: the
    /// earliest in the method, then the shortest trace.
    pub fn preferred(a: Site, b: Site) -> Site {
        let ka = (a.outer_line(), a.trace.len(), a.line);
        let kb = (b.outer_line(), b.trace.len(), b.line);
        if kb < ka || (kb == ka && b.trace < a.trace) {
            b
        } else {
            a
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    #[serde(flatten)]
    pub key: AccessKey,
    pub site: Site,
}

/// 3.7: a method summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub threads: Threads,
    pub locks: u8,
    /// Sorted by key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accesses: Vec<Access>,
    pub return_ownership: Own,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_attribute: Option<Attr>,
    /// Constructors and class initialisers only: fields holding synchronized containers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synchronized_fields: Vec<Path>,
}

impl Summary {
    /// The summary of a method that is not analysed (4.3).
    pub fn empty() -> Summary {
        Summary {
            threads: Threads::NoThread,
            locks: 0,
            accesses: Vec::new(),
            return_ownership: Own::Unowned,
            return_attribute: None,
            synchronized_fields: Vec::new(),
        }
    }
}

mod arc_slice {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::CallSite;

    pub fn serialize<S: Serializer>(v: &Arc<[CallSite]>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<[CallSite]>, D::Error> {
        Ok(Arc::from(Vec::<CallSite>::deserialize(d)?))
    }
}
