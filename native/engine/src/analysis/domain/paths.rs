//! 2.1: access paths (a base and field or element steps), and the maps the analysis keeps
//! per path.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::sym::Sym;

/// 2.1: the base of an access path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Base {
    /// Formal 0 of an instance method.
    This,
    /// Formal `i` other than `this` (formal indexes count `this` as 0).
    Param(u16),
    /// The static root of a class.
    Static(Sym),
    /// The object an instance native method returns (`pkg.Class.method`), with the native-results
    /// extension: made by code the analysis cannot see and not owned, it is shared as a
    /// static root is, the same object for every call.
    NativeResult(Sym),
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
    /// 2.2 rule 1: only formal- and static-rooted accesses are kept (and, with the
    /// native-results extension, those through a native method's result).
    pub fn is_reportable(self) -> bool {
        matches!(self, Base::This | Base::Param(_) | Base::Static(_) | Base::NativeResult(_))
    }
}

/// Whether `p` is an element of an array a native method returned: native code makes the
/// arrays it returns (a `NewObjectArray` each call), so they are not the shared object
/// [`Base::NativeResult`] stands for.
pub fn is_native_array_element(p: &Path) -> bool {
    matches!(p.base, Base::NativeResult(_)) && matches!(p.steps.first(), Some(Step::Array))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Step {
    /// A field, identified by its declaring class and name.
    Field { class: Sym, name: Sym },
    /// Any element of an array.
    Array,
}

impl Step {
    /// The synthetic field (`this$0`) through which an inner object holds its outer instance.
    pub fn is_outer_instance(&self) -> bool {
        matches!(self, Step::Field { name, .. } if name.as_str().starts_with("this$"))
    }
}

/// The steps of a path: shared when non-empty (paths are copied far more often
/// than extended); the empty case holds no allocation, so copying a bare base never
/// touches a reference count that other threads also touch.
#[derive(Debug, Clone, Default)]
pub struct Steps(Option<Arc<[Step]>>);

impl std::ops::Deref for Steps {
    type Target = [Step];
    fn deref(&self) -> &[Step] {
        self.0.as_deref().unwrap_or(&[])
    }
}

impl From<Vec<Step>> for Steps {
    fn from(v: Vec<Step>) -> Steps {
        if v.is_empty() {
            Steps(None)
        } else {
            Steps(Some(Arc::from(v)))
        }
    }
}

impl From<&[Step]> for Steps {
    fn from(v: &[Step]) -> Steps {
        if v.is_empty() {
            Steps(None)
        } else {
            Steps(Some(Arc::from(v)))
        }
    }
}

impl FromIterator<Step> for Steps {
    fn from_iter<I: IntoIterator<Item = Step>>(iter: I) -> Steps {
        Steps::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl PartialEq for Steps {
    fn eq(&self, other: &Steps) -> bool {
        **self == **other
    }
}
impl Eq for Steps {}
impl PartialOrd for Steps {
    fn partial_cmp(&self, other: &Steps) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Steps {
    fn cmp(&self, other: &Steps) -> std::cmp::Ordering {
        (**self).cmp(&**other)
    }
}
impl std::hash::Hash for Steps {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}
impl Serialize for Steps {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}
impl<'de> Deserialize<'de> for Steps {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Steps, D::Error> {
        Ok(Steps::from(Vec::<Step>::deserialize(d)?))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Path {
    pub base: Base,
    pub steps: Steps,
}

/// Paths longer than this are not extended (guards against unbounded growth
/// through recursive data structures and summary substitution).
pub const MAX_PATH_STEPS: usize = 8;

impl Path {
    pub fn of(base: Base) -> Path {
        Path { base, steps: Steps::default() }
    }
    pub fn with(&self, step: Step) -> Option<Path> {
        if self.steps.len() >= MAX_PATH_STEPS {
            return None;
        }
        let mut steps = Vec::with_capacity(self.steps.len() + 1);
        steps.extend_from_slice(&self.steps);
        steps.push(step);
        Some(Path { base: self.base, steps: Steps::from(steps) })
    }
    /// This path extended by field `name` of class `declaring`.
    pub fn field(&self, declaring: Sym, name: Sym) -> Option<Path> {
        self.with(Step::Field { class: declaring, name })
    }
    pub fn prefix(&self, len: usize) -> Path {
        if len == self.steps.len() {
            return self.clone();
        }
        if len == 0 {
            return Path::of(self.base);
        }
        Path { base: self.base, steps: Steps::from(&self.steps[..len]) }
    }
    /// Whether the path is one of its object's own fields (`this.count`): not the outer
    /// instance's (`this.this$0.x`), nor a field of another object the object may share with
    /// others (`this.queue.size`).
    pub fn is_own_field(&self) -> bool {
        self.is_own_field_through(|_, _| false)
    }
    /// [`Path::is_own_field`], or a field of an object reached from it through fields that
    /// `kept` (by class and name) says the object on their left keeps to itself
    /// (`this.state.count`).
    pub fn is_own_field_through(&self, kept: impl Fn(Sym, Sym) -> bool) -> bool {
        let Some((last, through)) = self.steps.split_last() else { return false };
        let own = |step: &Step| matches!(step, Step::Field { .. }) && !step.is_outer_instance();
        let kept_here = |step: &Step| own(step) && matches!(step, Step::Field { class, name } if kept(*class, *name));
        self.base == Base::This && own(last) && through.iter().all(kept_here)
    }
    pub fn last_field(&self) -> Option<(Sym, Sym)> {
        match self.steps.last() {
            Some(Step::Field { class, name }) => Some((*class, *name)),
            _ => None,
        }
    }
}

/// A map from paths to values: a vector sorted by path (maps are small, and a
/// vector clones with one allocation). Deterministic iteration in path order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMap<V: Copy + Eq> {
    entries: Vec<(Base, Steps, V)>,
}

impl<V: Copy + Eq> Default for PathMap<V> {
    fn default() -> Self {
        PathMap { entries: Vec::new() }
    }
}

/// A total order on bases and steps by [`Sym::fast_cmp`]: cheaper than the content order
/// and the same in every run (path maps are iterated in this order).
fn base_cmp(a: &Base, b: &Base) -> std::cmp::Ordering {
    // Most comparisons in a path map are between paths on one base.
    if a == b {
        return std::cmp::Ordering::Equal;
    }
    base_rank(a).cmp(&base_rank(b)).then_with(|| match (a, b) {
        (Base::Static(x), Base::Static(y)) | (Base::NativeResult(x), Base::NativeResult(y)) => x.fast_cmp(*y),
        _ => std::cmp::Ordering::Equal,
    })
}

/// The kind of base, then its index, in one number (indexes are at most 32 bits).
fn base_rank(b: &Base) -> u64 {
    match *b {
        Base::This => 0,
        Base::Param(i) => 1 << 32 | u64::from(i),
        Base::Static(_) => 2 << 32,
        Base::NativeResult(_) => 3 << 32,
        Base::Local(i) => 4 << 32 | u64::from(i),
        Base::Temp(i) => 5 << 32 | u64::from(i),
    }
}

fn step_cmp(a: &Step, b: &Step) -> std::cmp::Ordering {
    match (a, b) {
        (Step::Field { class: c1, name: n1 }, Step::Field { class: c2, name: n2 }) => {
            c1.fast_cmp(*c2).then_with(|| n1.fast_cmp(*n2))
        }
        (Step::Field { .. }, Step::Array) => std::cmp::Ordering::Greater,
        (Step::Array, Step::Field { .. }) => std::cmp::Ordering::Less,
        (Step::Array, Step::Array) => std::cmp::Ordering::Equal,
    }
}

fn fast_cmp(b1: &Base, s1: &[Step], b2: &Base, s2: &[Step]) -> std::cmp::Ordering {
    base_cmp(b1, b2).then_with(|| {
        // Paths copied from one another share their steps: most of a join's comparisons.
        if std::ptr::eq(s1, s2) {
            return std::cmp::Ordering::Equal;
        }
        for (x, y) in s1.iter().zip(s2) {
            let o = step_cmp(x, y);
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        s1.len().cmp(&s2.len())
    })
}

impl<V: Copy + Eq> PathMap<V> {
    fn find(&self, base: Base, steps: &[Step]) -> Result<usize, usize> {
        self.entries.binary_search_by(|(b, s, _)| fast_cmp(b, s, &base, steps))
    }
    pub fn get(&self, p: &Path) -> Option<V> {
        self.get_parts(p.base, &p.steps)
    }
    pub fn get_parts(&self, base: Base, steps: &[Step]) -> Option<V> {
        self.find(base, steps).ok().map(|i| self.entries[i].2)
    }
    pub fn set(&mut self, p: &Path, v: Option<V>) {
        match (self.find(p.base, &p.steps), v) {
            (Ok(i), Some(v)) => self.entries[i].2 = v,
            (Ok(i), None) => {
                self.entries.remove(i);
            }
            (Err(i), Some(v)) => self.entries.insert(i, (p.base, p.steps.clone(), v)),
            (Err(_), None) => {}
        }
    }
    /// Keeps, of the entries on temporaries, those `live` keeps. Temporaries sort last (see
    /// [`base_cmp`]): the entries before them are not looked at.
    pub fn retain_temps(&mut self, live: impl Fn(u32) -> bool) {
        let start = self.entries.partition_point(|(b, _, _)| !matches!(b, Base::Temp(_)));
        let mut kept = start;
        for i in start..self.entries.len() {
            if matches!(self.entries[i].0, Base::Temp(t) if live(t)) {
                self.entries.swap(kept, i);
                kept += 1;
            }
        }
        self.entries.truncate(kept);
    }
    /// Drops the entry of `p` and of every path that extends it.
    pub fn remove_under(&mut self, p: &Path) {
        self.entries.retain(|(b, s, _)| !(*b == p.base && s.starts_with(&p.steps)));
    }
    /// Entries for one base (any steps), in step order.
    pub fn for_base(&self, base: Base) -> impl Iterator<Item = (&[Step], V)> {
        let start = self.entries.partition_point(|(b, _, _)| base_cmp(b, &base) == std::cmp::Ordering::Less);
        self.entries[start..].iter().take_while(move |(b, _, _)| *b == base).map(|(_, s, v)| (&**s, *v))
    }
    pub fn iter(&self) -> impl Iterator<Item = (Path, V)> + '_ {
        self.entries.iter().map(|(b, s, v)| (Path { base: *b, steps: s.clone() }, *v))
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Pointwise merge: `both` decides keys present on both sides, `keep_single`
    /// keeps keys present on one side only.
    pub fn merge(&self, other: &PathMap<V>, both: impl Fn(V, V) -> Option<V>, keep_single: bool) -> PathMap<V> {
        let (a, b) = (&self.entries, &other.entries);
        let mut out = Vec::with_capacity(a.len().max(b.len()));
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let order = if i == a.len() {
                std::cmp::Ordering::Greater
            } else if j == b.len() {
                std::cmp::Ordering::Less
            } else {
                fast_cmp(&a[i].0, &a[i].1, &b[j].0, &b[j].1)
            };
            match order {
                std::cmp::Ordering::Equal => {
                    if let Some(v) = both(a[i].2, b[j].2) {
                        out.push((a[i].0, a[i].1.clone(), v));
                    }
                    i += 1;
                    j += 1;
                }
                std::cmp::Ordering::Less => {
                    if keep_single {
                        out.push(a[i].clone());
                    }
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    if keep_single {
                        out.push(b[j].clone());
                    }
                    j += 1;
                }
            }
        }
        PathMap { entries: out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::domain::Own;

    #[test]
    fn bases_sort_by_kind_then_index_and_statics_by_their_class() {
        let (a, b) = (Sym::new("p.A"), Sym::new("p.B"));
        let (first, second) = if a.fast_cmp(b).is_lt() { (a, b) } else { (b, a) };
        let order = [
            Base::This,
            Base::Param(1),
            Base::Param(2),
            Base::Param(u16::MAX),
            Base::Static(first),
            Base::Static(second),
            Base::Local(0),
            Base::Local(u16::MAX),
            Base::Temp(0),
            Base::Temp(u32::MAX),
        ];
        for (i, x) in order.iter().enumerate() {
            for (j, y) in order.iter().enumerate() {
                assert_eq!(base_cmp(x, y), i.cmp(&j), "{x:?} against {y:?}");
            }
        }
    }

    #[test]
    fn own_fields_reach_through_kept_fields_only() {
        let c = Sym::new("p.Worker");
        let path = |base: Base, names: &[&str]| {
            names.iter().fold(Path::of(base), |p, n| p.field(c, Sym::new(n)).unwrap())
        };
        let kept = |_: Sym, name: Sym| name.as_str() == "state";
        assert!(path(Base::This, &["count"]).is_own_field_through(kept));
        assert!(path(Base::This, &["state", "count"]).is_own_field_through(kept));
        assert!(path(Base::This, &["state", "state", "count"]).is_own_field_through(kept));
        assert!(!path(Base::This, &["shared", "count"]).is_own_field_through(kept));
        assert!(!path(Base::This, &["state", "shared", "count"]).is_own_field_through(kept));
        assert!(!path(Base::This, &["this$0", "count"]).is_own_field_through(|_, _| true));
        assert!(!path(Base::Param(1), &["state", "count"]).is_own_field_through(kept));
        assert!(!path(Base::This, &[]).is_own_field_through(kept));
        assert!(!path(Base::This, &["state", "count"]).is_own_field());
    }

    #[test]
    fn only_the_temporaries_not_kept_are_dropped_and_the_order_stays() {
        let field = |base: Base| Path::of(base).field(Sym::new("p.C"), Sym::new("f")).unwrap();
        let paths = [
            Path::of(Base::This),
            field(Base::This),
            Path::of(Base::Param(1)),
            Path::of(Base::Static(Sym::new("p.C"))),
            Path::of(Base::Local(4)),
            Path::of(Base::Temp(1)),
            Path::of(Base::Temp(2)),
            field(Base::Temp(2)),
            Path::of(Base::Temp(3)),
        ];
        let mut map: PathMap<Own> = PathMap::default();
        for p in &paths {
            map.set(p, Some(Own::Unowned));
        }
        map.retain_temps(|t| t == 2);
        let kept: Vec<Path> = map.iter().map(|(p, _)| p).collect();
        let expected: Vec<Path> =
            paths.iter().filter(|p| !matches!(p.base, Base::Temp(1) | Base::Temp(3))).cloned().collect();
        let mut sorted = expected.clone();
        sorted.sort_by(|a, b| fast_cmp(&a.base, &a.steps, &b.base, &b.steps));
        assert_eq!(kept, sorted);
        assert_eq!(kept.len(), 7);
    }
}
