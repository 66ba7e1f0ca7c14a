//! The class table: every class racer knows about (analysed, upstream,
//! classpath, bundled JDK), with hierarchy walks, member resolution and the
//! annotation lookup rules L1/L2/L3 of the spec (7.2).

mod jdk;

use crate::fxhash::{FxHashMap, FxHashSet};
use std::sync::Arc;


use crate::classfile::model::*;
use crate::sym::Sym;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Compiled from this module: analysed and reported on.
    Analysed,
    /// From an upstream summary file: summaries applied, never reported on.
    Upstream,
    /// Classpath or bundled JDK table: hierarchy and annotations only.
    Context,
}

/// Longest supertype closure kept in [`ClassTable`]'s cache; real hierarchies (classes and
/// all their interfaces) stay well below it.
const MAX_CACHED_CLOSURE: usize = 128;

thread_local! {
    static WALK_BUFFERS: std::cell::Cell<(FxHashSet<Sym>, Vec<Sym>)> = std::cell::Cell::new(Default::default());
}

pub struct ClassTable {
    classes: FxHashMap<Sym, (Arc<ClassHeader>, Origin)>,
    /// Each class followed by all its supertypes (DFS pre-order, declaration
    /// order, each once); filled by [`ClassTable::freeze`].
    closures: FxHashMap<Sym, Arc<[Sym]>>,
    /// Classes whose closure carries no annotation anywhere (class or method):
    /// annotation lookups on them answer at once.
    unannotated: crate::fxhash::FxHashSet<Sym>,
    /// The place of each method in its class's header, for classes with more methods than a
    /// short scan reads at once; filled by [`ClassTable::freeze`]. Calls are resolved up
    /// superclass chains, and framework classes have hundreds of methods.
    method_places: FxHashMap<Sym, MethodPlaces>,
    object: Sym,
}

/// Classes with more methods than this get an index of their methods (see
/// [`ClassTable::method`]).
const SCANNED_METHODS: usize = 8;

/// The index of one header's methods: by name and descriptor, the first such method's place.
struct MethodPlaces {
    /// The address of the header indexed: another header of the same name is scanned.
    header: usize,
    places: FxHashMap<(Sym, Sym), u32>,
}

/// What kind of hit rule L1 found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L1Hit {
    Direct,
    ClassLevel,
    Override,
}

impl ClassTable {
    pub fn new() -> ClassTable {
        let mut t = ClassTable { classes: FxHashMap::default(), closures: FxHashMap::default(), unannotated: Default::default(), method_places: FxHashMap::default(), object: Sym::new("java.lang.Object") };
        for header in jdk::bundled_headers() {
            t.classes.insert(header.name, (Arc::new(header), Origin::Context));
        }
        t
    }

    /// Adds a class; analysed and upstream classes replace context entries of the same name.
    pub fn insert(&mut self, header: Arc<ClassHeader>, origin: Origin) {
        match self.classes.get(&header.name) {
            Some((_, existing)) if *existing != Origin::Context && origin == Origin::Context => {}
            Some((_, Origin::Analysed)) => {}
            _ => {
                self.classes.insert(header.name, (header, origin));
            }
        }
    }

    pub fn get(&self, name: Sym) -> Option<&ClassHeader> {
        self.classes.get(&name).map(|(h, _)| &**h)
    }

    pub fn origin(&self, name: Sym) -> Option<Origin> {
        self.classes.get(&name).map(|(_, o)| *o)
    }

    /// Every class name in the table, in no particular order.
    pub fn names(&self) -> impl Iterator<Item = Sym> + '_ {
        self.classes.keys().copied()
    }

    pub fn contains(&self, name: Sym) -> bool {
        self.classes.contains_key(&name)
    }

    /// Direct supertypes; classes without a known header (other than Object) still
    /// have Object as their superclass.
    fn direct_supers(&self, name: Sym) -> Vec<Sym> {
        match self.get(name) {
            Some(h) => h.supertypes().collect(),
            None if name != self.object => vec![self.object],
            None => vec![],
        }
    }

    /// Precomputes every known class's supertype closure; call once all classes are in.
    /// Closures longer than [`MAX_CACHED_CLOSURE`] are walked when asked for instead: a
    /// cache of every closure takes memory quadratic in the depth of a hierarchy.
    pub fn freeze(&mut self) {
        use rayon::prelude::*;
        let names: Vec<Sym> = self.classes.keys().copied().collect();
        let closures: FxHashMap<Sym, Arc<[Sym]>> = names
            .par_iter()
            .filter_map(|&n| {
                let mut list = Vec::new();
                self.walk_supertypes(n, |c| {
                    list.push(c);
                    (list.len() > MAX_CACHED_CLOSURE).then_some(())
                })
                .is_none()
                .then(|| (n, Arc::from(list)))
            })
            .collect();
        let has_annotations = |c: &Sym| {
            self.get(*c).map_or(false, |h| !h.annotations.is_empty() || h.methods.iter().any(|m| !m.annotations.is_empty()))
        };
        self.unannotated = closures
            .iter()
            .filter(|(_, list): &(&Sym, &Arc<[Sym]>)| !list.iter().any(has_annotations))
            .map(|(n, _)| *n)
            .collect();
        self.closures = closures;
        self.method_places = self
            .classes
            .par_iter()
            .filter(|(_, (h, _))| h.methods.len() > SCANNED_METHODS)
            .map(|(name, (h, _))| {
                let mut places = FxHashMap::with_capacity_and_hasher(h.methods.len(), Default::default());
                // The first of two same-named methods wins, as a scan finds it.
                for (i, m) in h.methods.iter().enumerate().rev() {
                    places.insert((m.name, m.descriptor), i as u32);
                }
                (*name, MethodPlaces { header: Arc::as_ptr(h) as usize, places })
            })
            .collect();
    }

    /// Method `name` `descriptor` of class `h` (a header of this table), as
    /// [`ClassHeader::method`] finds it.
    pub fn method<'h>(&self, h: &'h ClassHeader, name: Sym, descriptor: Sym) -> Option<&'h MethodHeader> {
        if h.methods.len() <= SCANNED_METHODS {
            return h.method(name, descriptor);
        }
        match self.method_places.get(&h.name) {
            // The index of this very header answers, a method it lacks included.
            Some(index) if index.header == h as *const ClassHeader as usize => {
                index.places.get(&(name, descriptor)).map(|&i| &h.methods[i as usize])
            }
            _ => h.method(name, descriptor),
        }
    }

    /// Visits `class` and all its supertypes depth-first, pre-order, in declaration
    /// order, each once; stops when `visit` returns `Some`.
    pub fn find_in_supertypes<T>(&self, class: Sym, mut visit: impl FnMut(Sym) -> Option<T>) -> Option<T> {
        if let Some(list) = self.closures.get(&class) {
            return list.iter().find_map(|c| visit(*c));
        }
        if let Some(found) = visit(class) {
            return Some(found);
        }
        let supers = self.direct_supers(class);
        for s in supers {
            if let Some(list) = self.closures.get(&s) {
                if let Some(found) = list.iter().find_map(|c| visit(*c)) {
                    return Some(found);
                }
            } else {
                return self.walk_supertypes(s, visit);
            }
        }
        None
    }

    fn walk_supertypes<T>(&self, class: Sym, mut visit: impl FnMut(Sym) -> Option<T>) -> Option<T> {
        // The walk's buffers are kept per thread: deep hierarchies are walked once per lookup,
        // and fresh buffers each time made the allocator hold memory growing with the depth.
        // Taken out while in use, so a `visit` that walks again gets buffers of its own.
        let (mut seen, mut stack) = WALK_BUFFERS.with(|b| b.take());
        stack.push(class);
        let mut found = None;
        while let Some(c) = stack.pop() {
            if !seen.insert(c) {
                continue;
            }
            if let Some(f) = visit(c) {
                found = Some(f);
                break;
            }
            match self.get(c) {
                Some(h) => {
                    let at = stack.len();
                    stack.extend(h.supertypes());
                    stack[at..].reverse();
                }
                None if c != self.object => stack.push(self.object),
                None => {}
            }
        }
        seen.clear();
        stack.clear();
        WALK_BUFFERS.with(|b| b.set((seen, stack)));
        found
    }

    pub fn is_subtype(&self, class: Sym, ancestor: Sym) -> bool {
        self.find_in_supertypes(class, |c| (c == ancestor).then_some(())).is_some()
    }

    /// True when `class` or a supertype has one of `names` (binary names).
    pub fn is_subtype_of_any(&self, class: Sym, names: &[&str]) -> bool {
        self.find_in_supertypes(class, |c| names.contains(&c.as_str()).then_some(())).is_some()
    }

    /// Resolves a call statically (2.5): superclass chain for a concrete method,
    /// then superinterfaces for a default method; `None` keeps the named class.
    pub fn resolve_method(&self, m: &MethodRef) -> Option<MethodRef> {
        let concrete = |h: &ClassHeader| {
            self.method(h, m.name, m.descriptor).filter(|mh| mh.flags & ACC_ABSTRACT == 0).map(|_| MethodRef {
                class: h.name,
                name: m.name,
                descriptor: m.descriptor,
            })
        };
        let mut c = Some(m.class);
        let mut guard = 0;
        while let Some(name) = c {
            guard += 1;
            if guard > 64 {
                break;
            }
            match self.get(name) {
                Some(h) => {
                    if let Some(found) = concrete(h) {
                        return Some(found);
                    }
                    c = h.super_class;
                }
                None => break,
            }
        }
        self.find_in_supertypes(m.class, |c| self.get(c).filter(|h| h.is_interface()).and_then(concrete))
    }

    /// The method a virtual or interface call `m` runs on an object of exact class `class`
    /// (spec 2.5, the precision step for a receiver allocated in the calling method), when
    /// `class` is a proper subtype of the named class and resolves the call elsewhere than the
    /// named class does.
    pub fn resolve_exact(&self, class: Sym, m: &MethodRef) -> Option<MethodRef> {
        if class == m.class || !self.is_subtype(class, m.class) {
            return None;
        }
        let exact = self.resolve_method(&MethodRef { class, ..*m })?;
        (Some(exact) != self.resolve_method(m)).then_some(exact)
    }

    /// The class declaring field `name` as seen from `class` (itself, superclasses,
    /// then interfaces); the named class when unknown.
    pub fn resolve_field(&self, class: Sym, name: Sym) -> Sym {
        self.find_in_supertypes(class, |c| self.get(c).and_then(|h| h.field(name)).map(|_| c)).unwrap_or(class)
    }

    pub fn field(&self, class: Sym, name: Sym) -> Option<&FieldHeader> {
        self.get(class).and_then(|h| h.field(name))
    }

    /// Rule L1: on the method itself, else walk the class and its supertypes:
    /// the type's own annotation, or a same-signature non-constructor method's.
    pub fn lookup_l1(&self, m: &MethodRef, pred: &dyn Fn(&Annotation) -> bool) -> Option<L1Hit> {
        let [hit] = self.lookup_l1_each(m, [pred]);
        hit
    }

    /// [`Self::lookup_l1`] for several predicates in one walk: each gets the hit it would get
    /// alone (the first in the same order).
    pub fn lookup_l1_each<const N: usize>(&self, m: &MethodRef, preds: [&dyn Fn(&Annotation) -> bool; N]) -> [Option<L1Hit>; N] {
        let mut hits = [None; N];
        if self.unannotated.contains(&m.class) {
            return hits;
        }
        let mut open = N;
        let mut hit = |hits: &mut [Option<L1Hit>; N], k: usize, how: L1Hit| {
            if hits[k].is_none() {
                hits[k] = Some(how);
                open -= 1;
            }
            open == 0
        };
        if let Some(h) = self.get(m.class).and_then(|h| self.method(h, m.name, m.descriptor)) {
            for (k, pred) in preds.iter().enumerate() {
                if h.annotations.iter().any(|a| pred(a)) && hit(&mut hits, k, L1Hit::Direct) {
                    return hits;
                }
            }
        }
        let params = m.params();
        let is_ctor = m.name.as_str() == "<init>";
        self.find_in_supertypes(m.class, |c| {
            let h = self.get(c)?;
            // The methods `m` overrides here, found once for all the predicates.
            let overridden: Vec<&MethodHeader> = if !is_ctor && c != m.class {
                h.methods.iter().filter(|om| om.name == m.name && om.param_types() == params).collect()
            } else {
                Vec::new()
            };
            for (k, pred) in preds.iter().enumerate() {
                if hits[k].is_some() {
                    continue;
                }
                if h.annotations.iter().any(|a| pred(a)) {
                    if hit(&mut hits, k, L1Hit::ClassLevel) {
                        return Some(());
                    }
                    continue;
                }
                let annotated = overridden.iter().any(|om| om.annotations.iter().any(|a| pred(a)));
                if annotated && hit(&mut hits, k, L1Hit::Override) {
                    return Some(());
                }
            }
            None
        });
        hits
    }

    /// Rule L2: the method or a method it overrides (same name and parameter types).
    pub fn lookup_l2(&self, m: &MethodRef, pred: &dyn Fn(&Annotation) -> bool) -> bool {
        if self.unannotated.contains(&m.class) {
            return false;
        }
        self.find_in_supertypes(m.class, |c| {
            let h = self.get(c)?;
            // Annotations first: most methods have none, and comparing parameters scans text.
            h.methods
                .iter()
                .any(|om| om.name == m.name && om.annotations.iter().any(|a| pred(a)) && om.param_types() == m.params())
                .then_some(())
        })
        .is_some()
    }
}

impl Default for ClassTable {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn annotation(name: &str) -> Annotation {
        Annotation { type_name: Sym::new(name), elements: Vec::new(), element_count: 0 }
    }

    /// A class with `run()` annotated as given, under `super_class`.
    fn class(name: &str, super_class: Option<&str>, class_annotations: &[&str], run_annotations: &[&str]) -> Arc<ClassHeader> {
        let run = MethodHeader { annotations: run_annotations.iter().map(|a| annotation(a)).collect(), ..MethodHeader::plain("run", "()V", 0) };
        Arc::new(ClassHeader {
            name: Sym::new(name),
            flags: 0,
            super_class: super_class.map(Sym::new),
            interfaces: Vec::new(),
            annotations: class_annotations.iter().map(|a| annotation(a)).collect(),
            fields: Vec::new(),
            methods: vec![run],
            source_file: None,
            kotlin_internal: false,
        })
    }

    #[test]
    fn one_walk_gives_each_predicate_the_hit_it_gets_alone() {
        let mut table = ClassTable::new();
        table.insert(class("p.Base", Some("java.lang.Object"), &["p.ThreadSafe"], &["p.WorkerThread"]), Origin::Analysed);
        table.insert(class("p.Mid", Some("p.Base"), &[], &["p.ThreadConfined"]), Origin::Analysed);
        table.insert(class("p.Leaf", Some("p.Mid"), &[], &["p.UiThread"]), Origin::Analysed);
        table.freeze();
        let run = MethodRef { class: Sym::new("p.Leaf"), name: Sym::new("run"), descriptor: Sym::new("()V") };
        let named = |n: &'static str| move |a: &Annotation| a.matches(n);
        let (ui, confined, worker, safe, missing) =
            (named("UiThread"), named("ThreadConfined"), named("WorkerThread"), named("ThreadSafe"), named("Missing"));
        let each = table.lookup_l1_each(&run, [&ui, &confined, &worker, &safe, &missing]);
        assert_eq!(each, [Some(L1Hit::Direct), Some(L1Hit::Override), Some(L1Hit::Override), Some(L1Hit::ClassLevel), None]);
        let alone: Vec<Option<L1Hit>> =
            [&ui as &dyn Fn(&Annotation) -> bool, &confined, &worker, &safe, &missing].iter().map(|p| table.lookup_l1(&run, *p)).collect();
        assert_eq!(each.to_vec(), alone);
    }

    /// A class with more methods than a scan reads gets an index: calls resolve as by the
    /// scan (the first of a name and descriptor, abstract ones skipped for the superclass's),
    /// before and after `freeze` builds it.
    #[test]
    fn indexed_methods_resolve_as_a_scan_finds_them() {
        let method = |name: &str, flags: u16| MethodHeader::plain(name, "()V", flags);
        let mut base = (*class("p.Base", Some("java.lang.Object"), &[], &[])).clone();
        base.methods.push(method("m3", 0));
        let mut big = (*class("p.Big", Some("p.Base"), &[], &[])).clone();
        big.methods.extend((0..3 * SCANNED_METHODS).map(|i| method(&format!("m{i}"), if i == 3 { ACC_ABSTRACT } else { 0 })));
        big.methods.push(method("m5", ACC_STATIC));
        let mut table = ClassTable::new();
        table.insert(Arc::new(base), Origin::Analysed);
        table.insert(Arc::new(big), Origin::Analysed);
        let resolve = |table: &ClassTable, name: &str| {
            let m = MethodRef { class: Sym::new("p.Big"), name: Sym::new(name), descriptor: Sym::new("()V") };
            let found = table.resolve_method(&m).map(|r| r.class.as_str());
            let h = table.get(m.class).unwrap();
            (found, table.method(h, m.name, m.descriptor).map(|mh| mh.flags))
        };
        let names = ["m0", "m3", "m5", "m23", "run", "missing"];
        let scanned: Vec<_> = names.iter().map(|n| resolve(&table, n)).collect();
        table.freeze();
        assert!(table.method_places.contains_key(&Sym::new("p.Big")) && !table.method_places.contains_key(&Sym::new("p.Base")));
        let indexed: Vec<_> = names.iter().map(|n| resolve(&table, n)).collect();
        assert_eq!(indexed, scanned);
        assert_eq!(
            indexed,
            [
                (Some("p.Big"), Some(0)),
                (Some("p.Base"), Some(ACC_ABSTRACT)),
                (Some("p.Big"), Some(0)),
                (Some("p.Big"), Some(0)),
                (Some("p.Big"), Some(0)),
                (None, None)
            ]
        );
    }
}
