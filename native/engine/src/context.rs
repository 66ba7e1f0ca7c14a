//! What a run reads besides its inputs, and only as much as the analysed code reaches:
//! class headers from upstream summary files and from the classpath, and the upstream
//! summaries and inline shapes of the methods the analysed code calls.
//!
//! Upstream summaries already contain the effect of everything further upstream, so a
//! module needs, of its upstream modules, only: the classes its code names and their
//! supertypes; the summaries of the methods it calls (as named and as resolved, following
//! inlined forwarders); the classes those summaries name (field paths, container calls);
//! and the constructors of the upstream classes declaring the fields its code and those
//! summaries use containers through (the synchronized-container filter, 8.4, reads them).
//! That closure is computed here, round by round. The summaries of the methods the analysed
//! classes inherit from upstream classes and pool with their own (`inherited`) are loaded
//! too.

use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::domain::{AccessKind, Base, Path, Step, Summary};
use crate::analysis::extensions::Extensions;
use crate::api::{Diagnostic, Error};
use crate::classfile::aidl;
use crate::classfile::model::*;
use crate::fxhash::FxHashSet;
use crate::hierarchy::{ClassTable, Origin};
use crate::interned::ByAddress;
use crate::input::{self, ClasspathIndex};
use crate::summaries::{Upstream, UpstreamFiles};
use crate::sym::Sym;

/// What decides the inherited methods a class pools with its own (their upstream summaries
/// are loaded too): see [`crate::analysis::inherited::pooled_methods`].
#[derive(Clone, Copy)]
pub struct Inherited<'a> {
    pub extensions: Extensions,
    pub thread_safe_aliases: &'a [String],
}

/// Loads into `table` the headers the analysed code reaches (upstream files first, then the
/// classpath), and returns the upstream summaries and shapes it reaches.
pub fn load(
    table: &mut ClassTable,
    index: &ClasspathIndex,
    classes: &[Arc<Class>],
    files: &UpstreamFiles,
    inherited: Inherited<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Upstream, Error> {
    let timing = std::env::var_os("RACER_TIMINGS").is_some();
    let started = std::time::Instant::now();
    // Without upstream files there are no summaries to find, and without a classpath either
    // there are no headers to load: the references are then not even merged.
    let want = Wanted { calls_and_fields: !files.is_empty(), names: !files.is_empty() || !index.is_empty() };
    let own = if want.calls_and_fields { OwnMembers::of(classes, files) } else { OwnMembers::default() };
    // Gathered per worker, then merged: a set per class would be built and merged again.
    let gathered = classes
        .par_iter()
        .fold(Gathered::default, |mut r, c| {
            r.add(c, want, own.platform_upstream);
            r
        })
        .reduce(Gathered::default, Gathered::merge);
    let References { names: mut wanted, mut calls, fields: field_refs, dispatched } = gathered.references(want, &own);
    if timing {
        eprintln!("racer: timing:   references of the analysed code: {:.4}s", started.elapsed().as_secs_f64());
    }
    let mut field_refs: Vec<FieldRef> = field_refs.into_iter().collect();
    let mut container_owners: FxHashSet<Sym> = FxHashSet::default();
    let mut ctors_done: FxHashSet<Sym> = FxHashSet::default();
    let mut up = Upstream::default();
    let mut tried: FxHashSet<Sym> = FxHashSet::default();
    let mut first_round = true;
    let mut asked: FxHashSet<MethodRef> = FxHashSet::default();
    let (mut headers, mut sums) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    loop {
        let t = std::time::Instant::now();
        let new_upstream = load_headers(table, index, files, &mut wanted, &mut tried, diagnostics)?;
        headers += t.elapsed();
        up.classes.extend(new_upstream);
        // The supertypes of the analysed classes are all in after the first round.
        if std::mem::take(&mut first_round) && !files.is_empty() {
            for c in classes {
                let pooled = crate::analysis::inherited::pooled_methods(table, inherited.extensions, inherited.thread_safe_aliases, &c.header);
                let from_upstream = pooled
                    .into_iter()
                    .filter(|m| table.origin(m.class) == Some(Origin::Upstream));
                calls.extend(from_upstream);
            }
            // Of the calls on objects the bodies allocate, those where the object's class is
            // a subtype of the named one (the others never dispatch there).
            let table = &*table;
            calls.par_extend(
                dispatched
                    .par_iter()
                    .filter(|(class, m)| table.is_subtype(*class, m.class))
                    .map(|(class, m)| MethodRef { class: *class, ..*m })
                    .filter(|m| own.call_may_reach_upstream(m)),
            );
        }
        // Constructors and class initialisers of the upstream classes declaring fields the
        // code reads or writes (resolved now that the supertypes are in), or that upstream
        // summaries use containers through (8.4 reads them).
        container_owners.extend(field_refs.drain(..).map(|f| table.resolve_field(f.class, f.name)));
        for owner in container_owners.drain() {
            if table.origin(owner) != Some(Origin::Upstream) || !ctors_done.insert(owner) {
                continue;
            }
            if let Some(h) = table.get(owner) {
                calls.extend(
                    h.methods
                        .iter()
                        .filter(|m| matches!(m.name.as_str(), "<init>" | "<clinit>"))
                        .map(|m| MethodRef { class: owner, name: m.name, descriptor: m.descriptor }),
                );
            }
        }
        // A call into the classpath or the JDK cannot resolve to an upstream module's class
        // (the classpath lies below the modules), so only these are resolved.
        let resolved: Vec<[MethodRef; 2]> = {
            let table = &*table;
            calls
                .par_drain()
                .filter(|m| matches!(table.origin(m.class), Some(Origin::Analysed | Origin::Upstream)))
                .map(|m| [m, table.resolve_method(&m).unwrap_or(m)])
                .collect()
        };
        let mut batch: Vec<MethodRef> = Vec::new();
        for r in resolved.into_iter().flatten() {
            if table.origin(r.class) == Some(Origin::Upstream) && asked.insert(r) {
                batch.push(r);
            }
        }
        if batch.is_empty() {
            if timing {
                eprintln!("racer: timing:   headers {:.4}s, summaries {:.4}s", headers.as_secs_f64(), sums.as_secs_f64());
            }
            return Ok(up);
        }
        batch.sort();
        let t = std::time::Instant::now();
        let found = batch.par_iter().map(|m| files.method(m)).collect::<Result<Vec<_>, Error>>()?;
        sums += t.elapsed();
        for (m, (summary, shape)) in batch.into_iter().zip(found) {
            if let Some(s) = summary {
                named_by(&s, &mut wanted, &mut container_owners);
                up.summaries.insert(m, s);
            }
            if let Some(shape) = shape {
                if let InlineShape::Forward(next, _) = &shape {
                    wanted.insert(next.class);
                    calls.insert(*next);
                }
                up.shapes.insert(m, shape);
            }
        }
    }
}

/// Headers of `wanted` and all their supertypes not yet in the table: from upstream files
/// first, then the classpath. With a binder stub comes its proxy, which says which of the
/// stub's calls are one-way. Returns the upstream headers added.
fn load_headers(
    table: &mut ClassTable,
    index: &ClasspathIndex,
    files: &UpstreamFiles,
    wanted: &mut FxHashSet<Sym>,
    tried: &mut FxHashSet<Sym>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<Arc<ClassHeader>>, Error> {
    let mut added = Vec::new();
    loop {
        let mut names: Vec<Sym> = wanted.drain().filter(|n| !table.contains(*n) && tried.insert(*n)).collect();
        if names.is_empty() {
            return Ok(added);
        }
        names.sort();
        let from_upstream = names.par_iter().map(|n| files.class(*n)).collect::<Result<Vec<_>, Error>>()?;
        let mut from_classpath: Vec<(Sym, input::Unit)> = Vec::new();
        for (n, h) in names.into_iter().zip(from_upstream) {
            match h {
                Some(h) => {
                    wanted.extend(h.supertypes().chain(aidl::proxy_of_stub(h.name)));
                    table.insert(h.clone(), Origin::Upstream);
                    added.push(h);
                }
                None => {
                    if let Some(u) = index.get(n.as_str()) {
                        from_classpath.push((n, u));
                    }
                }
            }
        }
        let loaded: Vec<_> = from_classpath.par_iter().map(|(_, u)| input::load_one(u, false)).collect();
        for r in loaded {
            match r {
                Ok(c) => {
                    wanted.extend(c.header.supertypes().chain(aidl::proxy_of_stub(c.header.name)));
                    table.insert(c.header, Origin::Context);
                }
                Err(d) => diagnostics.push(Diagnostic { file: d.file, message: format!("classpath: {}", d.message) }),
            }
        }
    }
}

/// Which references of the analysed code a run looks up.
#[derive(Clone, Copy)]
struct Wanted {
    names: bool,
    calls_and_fields: bool,
}

/// What the analysed code refers to: the classes it names (supertypes, field and method
/// owners), the methods it calls and the fields it reads or writes that may be upstream,
/// and the virtual calls on objects its bodies allocate.
#[derive(Default)]
struct References {
    names: FxHashSet<Sym>,
    calls: FxHashSet<MethodRef>,
    fields: FxHashSet<FieldRef>,
    dispatched: Vec<(Sym, MethodRef)>,
}

/// The references of some classes' code (noted when they were lowered), merged and made
/// distinct by address: a reference recurs in many classes, and is looked at once after
/// the merge.
#[derive(Default)]
struct Gathered {
    supertypes: FxHashSet<Sym>,
    methods: FxHashSet<ByAddress<MethodRef>>,
    fields: FxHashSet<ByAddress<FieldRef>>,
    /// Virtual calls with each other class their calling body allocates: on an object of
    /// that class (if it is a subtype), the call may run that class's method
    /// (fresh_receiver_dispatch), whose summary may then be wanted too.
    dispatched: FxHashSet<(Sym, ByAddress<MethodRef>)>,
}

impl Gathered {
    fn add(&mut self, class: &Class, want: Wanted, platform_upstream: bool) {
        if !want.names && !want.calls_and_fields {
            return;
        }
        self.supertypes.extend(class.header.supertypes());
        let refs = &class.references;
        self.methods.extend(refs.methods.iter().map(|m| ByAddress(*m)));
        self.fields.extend(refs.fields.iter().map(|f| ByAddress(*f)));
        if want.calls_and_fields {
            // Only an upstream module's class can have an upstream summary.
            let dispatched = refs.dispatched.iter().filter(|(c, _)| !is_platform(*c, platform_upstream));
            self.dispatched.extend(dispatched.map(|(c, m)| (*c, ByAddress(*m))));
        }
    }

    fn merge(mut self, other: Gathered) -> Gathered {
        self.supertypes.extend(other.supertypes);
        self.methods.extend(other.methods);
        self.fields.extend(other.fields);
        self.dispatched.extend(other.dispatched);
        self
    }

    fn references(self, want: Wanted, own: &OwnMembers) -> References {
        let mut names = self.supertypes;
        names.extend(self.fields.iter().map(|f| f.0.class));
        names.extend(self.methods.iter().map(|m| m.0.class));
        if !want.calls_and_fields {
            return References { names, ..References::default() };
        }
        // Filtered on all workers: each test looks a reference up by content.
        let methods: Vec<&'static MethodRef> = self.methods.into_iter().map(|m| m.0).collect();
        let fields: Vec<&'static FieldRef> = self.fields.into_iter().map(|f| f.0).collect();
        let (calls, fields) = rayon::join(
            || methods.par_iter().filter(|m| own.call_may_reach_upstream(m)).map(|m| **m).collect(),
            || fields.par_iter().filter(|f| own.field_may_be_upstream(f)).map(|f| **f).collect(),
        );
        References { names, calls, fields, dispatched: self.dispatched.into_iter().map(|(class, m)| (class, *m.0)).collect() }
    }
}

/// The methods and fields the analysed classes declare: a call or field reference naming
/// one of them resolves to it, so it needs nothing from upstream. Nor does one into
/// `java.*`, which only the platform defines, unless an upstream file has such classes (a
/// module made of the platform's own code).
#[derive(Default)]
struct OwnMembers {
    methods: FxHashSet<MethodRef>,
    fields: FxHashSet<(Sym, Sym)>,
    platform_upstream: bool,
}

impl OwnMembers {
    fn of(classes: &[Arc<Class>], files: &UpstreamFiles) -> OwnMembers {
        let (methods, fields) = rayon::join(
            || {
                classes
                    .par_iter()
                    .flat_map_iter(|c| {
                        let class = c.header.name;
                        c.header.methods.iter().map(move |m| MethodRef { class, name: m.name, descriptor: m.descriptor })
                    })
                    .collect()
            },
            || classes.par_iter().flat_map_iter(|c| c.header.fields.iter().map(|f| (c.header.name, f.name))).collect(),
        );
        OwnMembers { methods, fields, platform_upstream: files.has_packages_under("java.") }
    }

    fn call_may_reach_upstream(&self, m: &MethodRef) -> bool {
        !self.is_platform(m.class) && !self.methods.contains(m)
    }

    fn field_may_be_upstream(&self, f: &FieldRef) -> bool {
        !self.is_platform(f.class) && !self.fields.contains(&(f.class, f.name))
    }

    fn is_platform(&self, class: Sym) -> bool {
        is_platform(class, self.platform_upstream)
    }
}

/// A class of `java.*`, which only the platform defines unless an upstream file has such
/// classes.
fn is_platform(class: Sym, platform_upstream: bool) -> bool {
    !platform_upstream && class.as_str().starts_with("java.")
}

/// The classes the code of `class` names: supertypes, field and method owners.
pub fn names(class: &Class) -> FxHashSet<Sym> {
    let want = Wanted { names: true, calls_and_fields: false };
    let mut gathered = Gathered::default();
    gathered.add(class, want, false);
    gathered.references(want, &OwnMembers::default()).names
}

/// The classes an upstream summary names (static roots, field owners, container and
/// interface callees) into `out`, and the owners of the fields it uses containers through
/// into `container_owners`.
fn named_by(s: &Summary, out: &mut FxHashSet<Sym>, container_owners: &mut FxHashSet<Sym>) {
    let path = |p: &Path, out: &mut FxHashSet<Sym>| {
        if let Base::Static(c) = p.base {
            out.insert(c);
        }
        for step in p.steps.iter() {
            if let Step::Field { class, .. } = step {
                out.insert(*class);
            }
        }
    };
    for p in &s.synchronized_fields {
        path(p, out);
    }
    for a in &s.accesses {
        path(a.key.kind.path(), out);
        if let AccessKind::ContainerRead(_, c) | AccessKind::ContainerWrite(_, c) | AccessKind::InterfaceCall(_, c) =
            &a.key.kind
        {
            out.insert(c.class);
        }
        if let AccessKind::ContainerRead(p, _) | AccessKind::ContainerWrite(p, _) = &a.key.kind {
            if let Some(Step::Field { class, .. }) = p.steps.iter().rev().find(|s| !matches!(s, Step::Array)) {
                container_owners.insert(*class);
            }
        }
    }
}
