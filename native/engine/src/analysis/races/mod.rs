//! Sections 8-9: class-level race reporting: the pool, its groups and the rules (8);
//! which candidates are reported (9.1, [`selection`]) and what a report says (9.2-9.5,
//! [`content`]).

mod content;
mod selection;
mod stability;
mod views;

pub use content::{render_method, render_path};
use selection::{SiteDetail, WriteClass};

use crate::fxhash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::issue::{Issue, IssueKind};
use crate::sym::Sym;

use super::annotations::is_compiler_named;
use super::callback_order::{Frameworks, OrderedCallbacks};
use super::dedup::{self, ClassReports, Decision, FirstPass, Selection};
use super::pool::{Entry, Group, GroupKey, Grouper};
use super::domain::*;
use super::extensions::Extensions;
use super::schedule::{Analysis, MethodEntry};

pub struct ReportConfig<'a> {
    pub table: &'a ClassTable,
    pub ignore_classes: &'a FxHashSet<Sym>,
    pub library_packages: &'a [String],
    /// Summaries of upstream methods (for the synchronized-field filter of upstream classes).
    pub upstream: &'a FxHashMap<MethodRef, Arc<Summary>>,
    pub thread_safe_aliases: &'a [String],
    pub extensions: Extensions,
    /// The source file of an upstream class whose header the context did not load (a trace
    /// step in a class that no loaded code or access path names), from the summary files.
    pub upstream_source_file: &'a (dyn Fn(Sym) -> Option<Sym> + Sync),
}

/// What the rules of one group look for among its entries, found once per group rather than
/// once per access (a field read in hundreds of methods would make that quadratic). All in
/// the group's order, so each rule still finds the first conflicting entry.
struct Conflicts<'g, 'a> {
    /// The writes.
    writes: Vec<&'g Entry<'a>>,
    /// The first write of a method that runs on any thread.
    any_thread_write: Option<&'g Entry<'a>>,
    /// The first entry of a method that runs on any thread showing the location is shared.
    shared_location: Option<&'g Entry<'a>>,
    /// The writes made under a known lock (lock identities): only they can be under another
    /// lock than a locked access's.
    known_lock_writes: Vec<&'g Entry<'a>>,
}

impl<'g, 'a> Conflicts<'g, 'a> {
    fn of(group: &'g [Entry<'a>], different_locks: bool, shows_shared_location: impl Fn(&Entry<'a>) -> bool) -> Self {
        let writes: Vec<&Entry<'a>> = group.iter().filter(|c| c.is_write()).collect();
        Conflicts {
            any_thread_write: writes.iter().copied().find(|c| c.t.is_any()),
            shared_location: group.iter().find(|c| c.t.is_any() && shows_shared_location(c)),
            known_lock_writes: if different_locks {
                writes.iter().copied().filter(|c| c.access.key.lock_on.is_some()).collect()
            } else {
                Vec::new()
            },
            writes,
        }
    }
}

pub fn report(analysis: &Analysis, classes: &[Arc<Class>], cfg: &ReportConfig<'_>) -> Vec<Issue> {
    let mut by_class: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, e) in analysis.methods.iter().enumerate() {
        by_class.entry(e.class).or_default().push(i);
    }
    let per_class: Vec<(usize, Vec<usize>)> = by_class.into_iter().collect();
    let reports = Reports { analysis, classes, cfg, per_class: &per_class };
    let mut issues: Vec<Issue> = if cfg.extensions.end_location_dedup {
        dedup::one_report_per_race(&reports)
    } else {
        (0..reports.per_class.len())
            .into_par_iter()
            .flat_map_iter(|c| {
                let reporter = reports.reporter(c);
                let candidates = reporter.candidates(&reporter.groups());
                reporter.issues(&candidates, &reporter.select(&candidates, &|_| Decision::UNDECIDED))
            })
            .collect()
    };
    issues.sort_by(|a, b| {
        (&a.class, a.line, &a.method, &a.descriptor, a.kind, &a.access_path)
            .cmp(&(&b.class, b.line, &b.method, &b.descriptor, b.kind, &b.access_path))
    });
    issues
}

/// The classes to report on, each with its analysed methods.
struct Reports<'a> {
    analysis: &'a Analysis,
    classes: &'a [Arc<Class>],
    cfg: &'a ReportConfig<'a>,
    per_class: &'a [(usize, Vec<usize>)],
}

impl<'a> Reports<'a> {
    fn reporter(&self, class: usize) -> ClassReporter<'a> {
        let (ci, methods) = &self.per_class[class];
        ClassReporter::new(self.analysis, &self.classes[*ci], methods, self.cfg)
    }
}

impl<'a> ClassReports for Reports<'a> {
    /// The class and its candidates.
    type Pending = (usize, Vec<Candidate<'a>>);

    fn classes(&self) -> usize {
        self.per_class.len()
    }

    fn first_pass(&self, class: usize) -> FirstPass<Self::Pending> {
        let reporter = self.reporter(class);
        let candidates = reporter.candidates(&reporter.groups());
        // Reports within the class take their lines first; a race that finds its line taken
        // by one of them is left to its other entry points.
        let selection = reporter.select(&candidates, &|_| Decision::UNDECIDED);
        let mut blocked = selection.lost.iter().copied().peekable();
        let mut reached = Vec::new();
        for (i, c) in candidates.iter().enumerate() {
            if blocked.next_if_eq(&i).is_none() {
                reached.extend(reporter.reached(c, i));
            }
        }
        if reached.is_empty() {
            FirstPass::Done(reporter.issues(&candidates, &selection))
        } else {
            FirstPass::Reaches(reached, (class, candidates))
        }
    }

    fn select(&self, (class, candidates): &Self::Pending, decide: &(dyn Fn(usize) -> Decision + Sync)) -> Selection {
        self.reporter(*class).select(candidates, decide)
    }

    fn issues(&self, (class, candidates): &Self::Pending, selection: &Selection) -> Vec<Issue> {
        self.reporter(*class).issues(candidates, selection)
    }
}

/// 8.2: whether a method contributes to its class's pool (the other methods' accesses count
/// only as their callers' accesses).
pub fn contributes_to_pool(e: &MethodEntry, class: &ClassHeader, h: &MethodHeader, ext: Extensions) -> bool {
    // A bridge only calls the method it stands for, which reports for itself.
    if ext.skip_bridges && h.flags & ACC_BRIDGE != 0 {
        return false;
    }
    if e.facts.thread_safe_method {
        return true;
    }
    // A method its callers call with a lock held: annotated `@GuardedBy` (a method "may only be
    // invoked while holding" the lock) or the Checker Framework's `@Holding`, or so named or
    // checking that it holds one, and taking no lock itself (an `addLocked` that locks names
    // what it does, not what it needs).
    let annotated = || h.has_annotation("GuardedBy") || h.has_annotation("Holding");
    if ext.lock_held_by_callers && (e.callers_hold_lock || annotated()) {
        return false;
    }
    h.flags & ACC_PRIVATE == 0
        && h.name.as_str() != "<clinit>"
        && !is_compiler_named(class, h, ext)
        && !h.has_annotation("VisibleForTesting")
}

/// Whether a method's name says that its callers hold a lock when they call it: the suffix
/// `Locked` (not the accessors of a `locked` property), or one of the Android framework's
/// suffixes naming the lock held (`LP`: the package lock, `LPr`/`LPw` for reading or writing
/// under it, `LI`: the install lock, `LIF`: that lock and the package frozen, `LSP`/`LOSP`:
/// the service and process locks), after a lower-case letter (`installPackageLI`, not `getCLI`).
pub(super) fn names_lock_held_by_caller(name: &str) -> bool {
    const ACCESSORS: [&str; 5] = ["isLocked", "setLocked", "getLocked", "hasLocked", "wasLocked"];
    const FRAMEWORK_SUFFIXES: [&str; 7] = ["LP", "LPr", "LPw", "LI", "LIF", "LSP", "LOSP"];
    if let Some(stem) = name.strip_suffix("Locked") {
        return !stem.is_empty() && !ACCESSORS.contains(&name);
    }
    FRAMEWORK_SUFFIXES.iter().any(|suffix| {
        name.strip_suffix(suffix).and_then(|stem| stem.chars().last()).is_some_and(|c| c.is_ascii_lowercase())
    })
}

struct ClassReporter<'a> {
    analysis: &'a Analysis,
    class: &'a Class,
    methods: &'a [usize],
    cfg: &'a ReportConfig<'a>,
    /// The callbacks the class's framework superclass orders, with the Android models (see
    /// [`ClassReporter::ordered_by_framework`]).
    ordered_callbacks: Option<OrderedCallbacks>,
}

/// A report a rule asks for; 9.1's de-duplication decides whether it is shown.
struct Candidate<'a> {
    /// The candidate's group, among the class's groups.
    group: usize,
    kind: IssueKind,
    entry: Entry<'a>,
    conflict: Option<Entry<'a>>,
    class: WriteClass,
    /// Whether, and when, it reports a race reported once (see `ClassReporter::merges`).
    merge: super::dedup::Merge,
}

/// The candidates of one class, as its rules ask for them.
struct Proposals<'a> {
    group: usize,
    list: Vec<Candidate<'a>>,
    /// The sites of the candidates so far.
    sites: FxHashSet<(usize, u32, Option<SiteDetail<'a>>)>,
    /// In the current group, the methods (with whether for writes) that have a candidate
    /// sure to be reported: one reported on a site no candidate had before, and not of a race
    /// reported once. 9.1 reports nothing more for them in the group.
    settled: FxHashSet<(usize, bool)>,
}

impl Proposals<'_> {
    fn settled(&self, method: usize, write: bool) -> bool {
        self.settled.contains(&(method, write))
    }
}

impl<'a> ClassReporter<'a> {
    fn new(analysis: &'a Analysis, class: &'a Class, methods: &'a [usize], cfg: &'a ReportConfig<'a>) -> Self {
        let ext = cfg.extensions;
        let frameworks = Frameworks { android: ext.android_threads, binders: ext.binder_services, servers: ext.request_threads };
        let ordered_callbacks = OrderedCallbacks::of(cfg.table, class.header.name, frameworks);
        ClassReporter { analysis, class, methods, cfg, ordered_callbacks }
    }

    fn is_reported_class(&self) -> bool {
        let name = self.class.header.name;
        if self.cfg.ignore_classes.contains(&name) {
            return false;
        }
        let n = name.as_str();
        if self.cfg.library_packages.iter().any(|p| n.starts_with(p.as_str())) {
            return false;
        }
        // 5.10: Kotlin coroutine classes.
        if self.class.header.supertypes().any(|s| s.as_str() == "kotlin.coroutines.jvm.internal.RestrictedSuspendLambda") {
            return false;
        }
        // Extension (suspend resumes): the state machine of a suspend function. Its
        // `invokeSuspend` resumes the function it belongs to, whose races are reported at the
        // function's own class: here they would be the same races again.
        !(self.cfg.extensions.suspend_resumes && self.class.header.super_class.is_some_and(super::models::is_function_continuation))
    }

    /// 8.2: does method `i` contribute to its class's pool?
    fn is_reportable(&self, i: usize) -> bool {
        let e = &self.analysis.methods[i];
        contributes_to_pool(e, &self.class.header, &self.class.methods[e.index].header, self.cfg.extensions)
    }

    /// The class's pool split into groups (8.6); none when no rule can report in it.
    fn groups(&self) -> Vec<Group<'a>> {
        if !self.is_reported_class() {
            return Vec::new();
        }
        // Without an AnyThread reportable method no group passes the gate (8.5), and
        // without a @GuardedBy field the checks before the gate find nothing.
        let inherited = self.inherited_summaries();
        let reportable: Vec<usize> = self.methods.iter().copied().filter(|&i| self.is_reportable(i)).collect();
        let any_thread = reportable.iter().any(|&i| {
            let s = &self.analysis.summaries[i];
            s.threads.is_any() || s.accesses.iter().any(|a| a.key.handed && a.key.thread.is_any())
        }) || inherited.iter().any(|(_, s)| s.threads.is_any());
        let guarded_fields = self.guarded_fields();
        if !any_thread && !guarded_fields {
            return Vec::new();
        }
        let own_entries: usize = reportable.iter().map(|&i| self.analysis.summaries[i].accesses.len()).sum();
        let inherited_entries: usize = inherited.iter().map(|(_, s)| s.accesses.len()).sum();
        let mut grouper = Grouper::with_capacity(own_entries + inherited_entries);
        let mut rank = 0u32;
        // The high-confidence mode leaves out each method's accesses through fields it assigns.
        let stable = |summary: &'a Summary| {
            let assigned = self.cfg.extensions.high_confidence.then(|| stability::Assigned::of(summary));
            move |a: &&'a Access| assigned.as_ref().map_or(true, |assigned| !assigned.unstable(a.key.kind.path()))
        };
        let own_filters: Vec<_> = reportable.iter().map(|&i| stable(&self.analysis.summaries[i])).collect();
        let inherited_filters: Vec<_> = inherited.iter().map(|(_, summary)| stable(summary)).collect();
        let on_this = |a: &&'a Access| a.key.kind.path().base == Base::This;
        let written = WrittenSteps::of(
            reportable.iter().zip(&own_filters).flat_map(|(&i, stable)| self.analysis.summaries[i].accesses.iter().filter(stable)),
            inherited.iter().zip(&inherited_filters).flat_map(|((_, summary), stable)| summary.accesses.iter().filter(on_this).filter(stable)),
        );
        for (&i, stable) in reportable.iter().zip(&own_filters) {
            let summary = &self.analysis.summaries[i];
            let params_own = self.arguments_are_calls_own(i);
            let shared = |a: &&'a Access| !(params_own && matches!(a.key.kind.path().base, Base::Param(_)));
            let class = self.analysis.methods[i].mref.class;
            let own_field = |p| super::given_fields::is_own_field_path(p, class, &self.analysis.given_fields);
            for a in summary.accesses.iter().filter(stable).filter(shared).filter(|a| written.may_race(a)) {
                // Only another object's lock says the method runs on any thread (foreign locks).
                let threads = if summary.own_fields_unshared && own_field(a.key.kind.path()) {
                    Threads::NoThread
                } else {
                    summary.threads
                };
                grouper.push_own(a, i, rank, threads);
            }
            rank += 1;
        }
        // After the class's own entries, so that their conflicts are found first.
        for ((mref, summary), stable) in inherited.iter().zip(&inherited_filters) {
            for a in summary.accesses.iter().filter(on_this).filter(stable).filter(|a| written.may_race(a)) {
                grouper.push_inherited(a, mref, rank, summary.threads);
            }
            rank += 1;
        }
        grouper.into_sorted(guarded_fields)
    }

    /// Whether method `i` gets arguments of its own on each call: a `ContentProvider`'s data
    /// access methods and a binder's interface methods, whose arguments are unmarshalled from
    /// each binder transaction. Decided here, for the method as an entry point, rather than by
    /// owning the formals in its summary: a caller in the same process passes its own objects,
    /// and must still see what the method does to them.
    fn arguments_are_calls_own(&self, i: usize) -> bool {
        self.ordered_callbacks
            .is_some_and(|order| order.serves_transactions(self.cfg.table, &self.analysis.methods[i].mref))
    }

    fn guarded_fields(&self) -> bool {
        self.class.header.fields.iter().any(|f| f.annotations.iter().any(|a| a.matches("GuardedBy")))
    }

    /// What the rules (8.7) ask to report, group by group in key order.
    fn candidates(&self, groups: &[Group<'a>]) -> Vec<Candidate<'a>> {
        let mut out = Proposals { group: 0, list: Vec::new(), sites: FxHashSet::default(), settled: FxHashSet::default() };
        for (g, Group { key, entries, any_thread: on_any_thread }) in groups.iter().enumerate() {
            if let GroupKey::Container(_, steps) = key {
                let view = self.is_synchronized_view_group(steps);
                if view && *on_any_thread {
                    out.group = g;
                    out.settled.clear();
                    self.view_iteration_rule(entries, &mut out);
                }
                if view || self.is_synchronized_container_group(steps) {
                    continue;
                }
            }
            out.group = g;
            out.settled.clear();
            for e in entries.iter().filter(|e| e.inherited.is_none()) {
                self.guarded_by(e, &mut out);
            }
            if !on_any_thread {
                continue;
            }
            let conflicts = Conflicts::of(entries, self.cfg.extensions.different_locks, |c| self.shows_shared_location(c));
            for e in entries.iter().filter(|e| e.inherited.is_none()) {
                match &e.access.key.kind {
                    AccessKind::InterfaceCall(..) => self.interface_rule(e, &mut out),
                    _ if e.is_write() => self.write_rule(e, &conflicts, &mut out),
                    _ => self.read_rule(e, &conflicts, &mut out),
                }
            }
        }
        out.list
    }

    /// The summaries of the methods the class inherits (analysed here or upstream).
    fn inherited_summaries(&self) -> Vec<(&'a MethodRef, &'a Summary)> {
        // A class declared not thread-safe is not used concurrently with what it inherits.
        if self.class.header.has_annotation("NotThreadSafe") {
            return Vec::new();
        }
        // Borrowed for 'a, not for as long as `self`: the pool's entries keep these references.
        let analysis: &'a Analysis = self.analysis;
        let Some(pooled) = analysis.pooled_inherited.get(&self.class.header.name) else { return Vec::new() };
        pooled
            .iter()
            .filter_map(|m| Some((m, self.summary_of(m)?)))
            .collect()
    }

    /// The summary of `m`, analysed here or upstream.
    fn summary_of(&self, m: &MethodRef) -> Option<&'a Summary> {
        let analysis: &'a Analysis = self.analysis;
        match analysis.by_ref.get(m) {
            Some(&i) => Some(&*analysis.summaries[i]),
            None => self.cfg.upstream.get(m).map(|s| &**s),
        }
    }

    fn mref_of(&self, e: &Entry<'a>) -> MethodRef {
        e.inherited.copied().unwrap_or_else(|| self.analysis.methods[e.method].mref)
    }

    /// Whether `e` and `c` are made in order by one thread, so never at once: both by a started
    /// thread's code on its object's own fields (on one location they are on one object, which
    /// only one thread runs), both by the code a constructor hands over once, or one by the
    /// `run()` a thread of this class starts itself on (`start()` in its own class) and the other
    /// by that `run()` itself, on one of the object's own fields. An `AsyncTask`'s
    /// `doInBackground` is such a thread (see `MethodFacts::runs_own_thread`), and what its
    /// task's callbacks run around it do is ordered with it (see [`Self::ordered_by_framework`]).
    /// So are two accesses of the constructors to the object's own fields (see
    /// [`Self::constructs_own_field`]).
    pub(super) fn made_in_order(&self, e: &Entry<'a>, c: &Entry<'a>) -> bool {
        let (a, b) = (&e.access.key, &c.access.key);
        (a.started && b.started && a.once == b.once)
            || (a.started && self.runs_started_body(c, e))
            || (b.started && self.runs_started_body(e, c))
            || self.ordered_by_framework(e, c)
            || (self.constructs_own_field(e) && self.constructs_own_field(c))
    }

    /// Whether `e` is made by a constructor of the class, on the thread running it, to a field
    /// of the object it builds. An object is built once, by one thread: whatever publishing
    /// `this` lets another thread do meanwhile (escape ownership), the constructors' own accesses
    /// to one field of it never race with each other (a `PackageManagerService(...)` that hands
    /// `this` to its injector first then reads back what it wrote). Not on the objects its
    /// fields hold, which may be shared with objects built at the same time.
    fn constructs_own_field(&self, e: &Entry<'a>) -> bool {
        let k = &e.access.key;
        let path = k.kind.path();
        self.cfg.extensions.escape_ownership
            && e.inherited.is_none()
            && self.analysis.methods[e.method].mref.name.as_str() == "<init>"
            && !k.handed
            && !k.started
            && k.joined.is_none()
            && path.base == Base::This
            && matches!(path.steps[..], [Step::Field { .. }])
    }

    /// Whether `e` and `c` are made by two callbacks the class's framework superclass runs one
    /// after the other (an `AsyncTask`'s `doInBackground` and its `onPostExecute`, a
    /// `ContentProvider`'s `onCreate` and its `query`, a binder's constructor and its interface
    /// methods), on a location reached from the object and not through its outer instance: each
    /// sees the other's memory effects.
    fn ordered_by_framework(&self, e: &Entry<'a>, c: &Entry<'a>) -> bool {
        let Some(order) = self.ordered_callbacks else { return false };
        let path = e.access.key.kind.path();
        let through_outer = path.steps.first().is_some_and(Step::is_outer_instance);
        if path.base != Base::This || through_outer {
            return false;
        }
        order.orders(self.cfg.table, &self.mref_of(e), &self.mref_of(c))
    }

    /// Whether `e` is an access of the body the started access `started` runs, to a field of
    /// `this` (the object that thread runs on).
    fn runs_started_body(&self, e: &Entry<'a>, started: &Entry<'a>) -> bool {
        let path = e.access.key.kind.path();
        path.base == Base::This
            && path.steps.len() == 1
            && started.access.site.trace.iter().next().is_some_and(|call| call.callee == self.mref_of(e))
    }

    /// Formal names for rendering an entry's path (inherited entries are rooted at `this`).
    fn formal_names_of(&self, e: &Entry<'a>) -> &[Sym] {
        if e.inherited.is_some() {
            &[]
        } else {
            self.formal_names(e.method)
        }
    }

    // ---- 8.4 ----

    fn synchronized_fields_of(&self, class: Sym) -> FxHashSet<Sym> {
        let mut out = FxHashSet::default();
        let header = match self.cfg.table.get(class) {
            Some(h) => h,
            None => return out,
        };
        for m in header.methods.iter().filter(|m| matches!(m.name.as_str(), "<init>" | "<clinit>")) {
            let r = MethodRef { class, name: m.name, descriptor: m.descriptor };
            if let Some(s) = self.summary_of(&r) {
                for p in &s.synchronized_fields {
                    if let Some((_, name)) = p.last_field() {
                        out.insert(name);
                    }
                }
            }
        }
        out
    }

    fn is_synchronized_container_group(&self, steps: &[Step]) -> bool {
        let mut steps = steps;
        // With the collection models, `this.m.[_]` is a value of the map `this.m`, as shared as
        // the map and no safer than the value's own class (an array field is never synchronized).
        while let (Some(Step::Array), false) = (steps.last(), self.cfg.extensions.collection_models) {
            steps = &steps[..steps.len() - 1];
        }
        match steps.last() {
            Some(Step::Field { class, name }) => self.synchronized_fields_of(*class).contains(name),
            _ => false,
        }
    }

    // ---- 8.7 rules ----

    fn guarded_by(&self, e: &Entry<'a>, out: &mut Proposals<'a>) {
        let k = &e.access.key;
        // A write under a lock breaks the annotation only when the lock is known to be another
        // than the one it names (lock identities).
        if !k.kind.is_write() || (k.lock && k.lock_on.is_none()) {
            return;
        }
        let p = k.kind.path();
        if p.steps.len() != 1 {
            return;
        }
        let (fclass, fname) = match p.steps[0] {
            Step::Field { class, name } => (class, name),
            Step::Array => return,
        };
        let me = self.class.header.name;
        let table = self.cfg.table;
        let base_type = match p.base {
            Base::This => Some(me),
            Base::Static(c) => Some(c),
            Base::Param(i) => self.param_type(e.method, i as usize),
            _ => None,
        };
        match base_type {
            Some(t) if table.is_subtype(t, me) => {}
            _ => return,
        }
        let field = match self.class.header.field(fname) {
            Some(f) if fclass == me || table.resolve_field(me, fname) == me => f,
            _ => return,
        };
        let guarded = field.annotations.iter().any(|a| {
            a.matches("GuardedBy")
                && a.element_count == 1
                && matches!(a.elements.first(), Some((_, AnnotationValue::Str(v)))
                    if !is_ui_thread_marker(v) && (!k.lock || k.lock_on.is_some_and(|l| names_another_lock(v, fname, l.path()))))
        });
        if guarded {
            self.propose(out, IssueKind::GuardedByViolation, e, None, WriteClass::Write);
        }
    }

    fn param_type(&self, method: usize, formal: usize) -> Option<Sym> {
        let h = &self.class.methods[self.analysis.methods[method].index].header;
        let offset = if h.is_static() { 0 } else { 1 };
        let d = h.descriptor.as_str();
        let params = crate::classfile::descriptor::param_types(d);
        let p = params.get(formal.checked_sub(offset)?)?;
        crate::classfile::descriptor::object_class(p).map(|c| Sym::new(&c))
    }

    fn interface_rule(&self, e: &Entry<'a>, out: &mut Proposals<'a>) {
        let marked = self.analysis.methods[e.method].facts.marked_thread_safe;
        if e.unprotected() && e.t.is_any() && marked {
            self.propose(out, IssueKind::InterfaceNotThreadSafe, e, None, WriteClass::Interface);
        }
    }

    fn write_rule(&self, e: &Entry<'a>, conflicts: &Conflicts<'_, 'a>, out: &mut Proposals<'a>) {
        if out.settled(e.method, true) {
            return;
        }
        if !e.unprotected() {
            // Lock identities: a write under one lock races with a write under another.
            let different_locks = self.cfg.extensions.different_locks;
            if let Some(c) = conflicts.known_lock_writes.iter().copied().find(|c| under_other_locks(e, c, different_locks)) {
                self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Write);
            }
            return;
        }
        if e.access.key.started && e.t.is_any() {
            // A started thread's own write races with the writes of the rest of the class, not
            // with itself.
            if let Some(c) = conflicts.writes.iter().copied().find(|c| !self.made_in_order(e, c)) {
                self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Write);
            }
        } else if e.t.is_any() {
            self.propose(out, IssueKind::ThreadSafetyViolation, e, None, WriteClass::Write);
        } else if let Some(c) = self.concurrent_write(e, conflicts) {
            self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Write);
        }
    }

    /// The first write of a method that runs on any thread, else the entry showing that the
    /// location is shared, leaving out those of `e`'s own started thread (searched for only
    /// when the first one is such: the group's writes are not walked once per entry).
    fn concurrent_write<'g>(&self, e: &Entry<'a>, conflicts: &Conflicts<'g, 'a>) -> Option<&'g Entry<'a>> {
        let write = match conflicts.any_thread_write {
            Some(c) if self.made_in_order(e, c) => {
                conflicts.writes.iter().copied().find(|c| c.t.is_any() && !self.made_in_order(e, c))
            }
            first => first,
        };
        write
            .or(conflicts.shared_location.filter(|c| !self.made_in_order(e, c)))
            .or_else(|| conflicts.writes.iter().copied().find(|c| parallel_in_call(e, c)))
    }

    /// An access of a concurrent method that makes an unprotected write to the same location
    /// a race even when the writer is not known to run concurrently: one made under a lock
    /// (the lock says the location is shared); in the narrow form, a read under a lock by an
    /// accessor (`synchronized int get() { return mValue; }` against a plain setter).
    fn shows_shared_location(&self, c: &Entry<'a>) -> bool {
        let ext = self.cfg.extensions;
        c.access.key.lock
            && (ext.locked_location_evidence
                || (ext.locked_getter_evidence && !c.access.key.kind.is_write() && self.is_getter(c)))
    }

    /// Whether `c`, a read, is made by the getter of its location: a method without parameters
    /// that returns a value and is named after the field, or returns the field as it read it
    /// (`synchronized int size() { return count; }`).
    fn is_getter(&self, c: &Entry<'a>) -> bool {
        let m = self.mref_of(c);
        let path = c.access.key.kind.path();
        let returns_it = c.inherited.is_none() && self.analysis.summaries[c.method].returned_field.as_ref() == Some(path);
        is_getter_of(&m, path) || (returns_it && m.descriptor.as_str().starts_with("()"))
    }

    fn read_rule(&self, e: &Entry<'a>, conflicts: &Conflicts<'_, 'a>, out: &mut Proposals<'a>) {
        if out.settled(e.method, false) {
            return;
        }
        let mut writes = conflicts.writes.iter().copied().filter(|c| !self.made_in_order(e, c));
        let conflict = if e.unprotected() {
            writes.find(|c| e.t.is_any() || c.t.is_any() || parallel_in_call(e, c))
        } else {
            writes.find(|c| {
                if c.unprotected() {
                    c.t.is_any() || parallel_in_call(e, c)
                } else {
                    // Both protected, by a lock or a thread: only two locks keep each other out.
                    !locks_exclude(e, c, self.cfg.extensions.different_locks) && e.access.key.thread.can_conflict(c.access.key.thread)
                }
            })
        };
        if let Some(c) = conflict {
            self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Read);
        }
    }

}

/// Whether `e` and `c` run at once within one call of their method (thread-joins extension):
/// two threads it joins (two of many, or two made apart), or one of them and what the method
/// does while it runs. Outside the call they run on the method's thread (see `pool`).
fn parallel_in_call(e: &Entry<'_>, c: &Entry<'_>) -> bool {
    if e.method != c.method || e.inherited.is_some() || c.inherited.is_some() {
        return false;
    }
    let (a, b) = (&e.access.key, &c.access.key);
    match (a.joined, b.joined) {
        (Some(x), Some(y)) => x != y || x.is_many(),
        (Some(_), None) => b.during && !b.handed,
        (None, Some(_)) => a.during && !a.handed,
        (None, None) => false,
    }
}

/// Whether `@GuardedBy(guard)` names another lock than `held`, a lock known by its path. Only
/// the simple forms are compared (`this`, `itself` for the guarded field's own object, a field
/// `mLock` or `this.mLock`); a field of that name further down the path is taken as the same
/// lock, shared (see `different_locks`).
fn names_another_lock(guard: &str, field: Sym, held: &Path) -> bool {
    // `@GuardedBy("itself")`: the object the field refers to.
    let guard = match guard.trim() {
        "itself" => field.as_str(),
        guard => guard,
    };
    let field = guard.strip_prefix("this.").unwrap_or(guard);
    let simple = !field.is_empty() && field.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if !simple || !matches!(held.base, Base::This | Base::Static(_)) {
        return false;
    }
    match held.steps.last() {
        None => !(held.base == Base::This && guard == "this"),
        Some(Step::Field { name, .. }) => guard == "this" || name.as_str() != field,
        Some(Step::Array) => false,
    }
}

fn is_ui_thread_marker(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "ui thread" | "ui-thread" | "ui_thread" | "uithread")
}

/// Whether the locks `e` and `c` are made under keep each other out: both are locked, and (with
/// `different_locks`) not under two locks known to differ.
pub(super) fn locks_exclude(e: &Entry<'_>, c: &Entry<'_>, different_locks: bool) -> bool {
    let (a, b) = (&e.access.key, &c.access.key);
    if different_locks {
        a.locks_exclude(b)
    } else {
        a.lock && b.lock
    }
}

/// Lock identities: whether `e` and `c` are both made under a lock, two known to differ and
/// told apart (`different_locks`).
fn under_other_locks(e: &Entry<'_>, c: &Entry<'_>, different_locks: bool) -> bool {
    let (a, b) = (&e.access.key, &c.access.key);
    a.lock && b.lock && !locks_exclude(e, c, different_locks) && a.thread.can_conflict(b.thread)
}

/// Whether `m` is the getter of the field `path` ends at: a method without parameters that
/// returns a value, named after the field as JavaBeans name a property's getter (`getValue`,
/// `isOpen`, `hasNext`), or by the field's name alone (`value()`, as records do). Fields named
/// with a prefix (`mValue`, `fValue`, `_value`) are matched without it.
fn is_getter_of(m: &MethodRef, path: &Path) -> bool {
    let d = m.descriptor.as_str();
    if !d.starts_with("()") || d.ends_with(")V") {
        return false;
    }
    let Some((_, field)) = path.last_field() else { return false };
    let property = field_property(field.as_str());
    let name = m.name.as_str();
    ["get", "is", "has", ""].iter().any(|prefix| {
        name.strip_prefix(prefix).is_some_and(|rest| same_property(rest, property))
    })
}

/// A field's property name: without a `m`, `f` or `s` prefix before a capital, or a `_`.
fn field_property(field: &str) -> &str {
    let field = field.trim_start_matches('_');
    let mut chars = field.chars();
    match (chars.next(), chars.next()) {
        (Some('m' | 'f' | 's'), Some(c)) if c.is_ascii_uppercase() => &field[1..],
        _ => field,
    }
}

/// `Value` and `value` name the same property; nothing else does.
fn same_property(a: &str, b: &str) -> bool {
    let mut x = a.chars();
    let mut y = b.chars();
    match (x.next(), y.next()) {
        (Some(p), Some(q)) => p.eq_ignore_ascii_case(&q) && x.as_str() == y.as_str(),
        _ => false,
    }
}

/// The last steps of the locations a class's pool writes. Every rule that reports a plain
/// read needs a write of the same location in its group (8.7.4, 8.7.5; the `@GuardedBy` check
/// looks at writes only), so a read whose last step no write of the pool ends with can race
/// with nothing: it is left out of the groups, which then hold fewer entries to place and sort.
struct WrittenSteps(FxHashSet<(usize, usize)>);

impl WrittenSteps {
    fn of<'a>(own: impl Iterator<Item = &'a Access>, inherited: impl Iterator<Item = &'a Access>) -> WrittenSteps {
        let last_written = |a: &'a Access| if a.key.kind.is_write() { a.key.kind.path().steps.last().map(step_identity) } else { None };
        WrittenSteps(own.chain(inherited).filter_map(last_written).collect())
    }

    fn may_race(&self, a: &Access) -> bool {
        match &a.key.kind {
            AccessKind::Read(path) => path.steps.last().map_or(true, |step| self.0.contains(&step_identity(step))),
            _ => true,
        }
    }
}

/// A step as the addresses of its names: hashed without reading them.
fn step_identity(step: &Step) -> (usize, usize) {
    match step {
        Step::Field { class, name } => (class.address(), name.address()),
        Step::Array => (0, 0),
    }
}

#[cfg(test)]
mod written_steps_tests {
    use super::*;
    use crate::analysis::domain::{Base, Own, Path, SharedKey, Trace};

    fn access(kind: fn(Path) -> AccessKind, base: Base, field: Option<&str>) -> Access {
        let path = match field {
            Some(name) => Path::of(base).field(Sym::new("p.C"), Sym::new(name)).expect("a one-field path"),
            None => Path::of(base),
        };
        let key = AccessKey { kind: kind(path), thread: Threads::AnyThread, lock: false, lock_on: None, own_pre: Own::Unowned, handed: false, started: false, once: false, joined: None, during: false };
        Access { key: KeyRef::new(SharedKey::new(key)), site: Site { line: 1, trace: Trace::empty() } }
    }

    #[test]
    fn a_read_is_grouped_only_when_the_pool_writes_a_location_ending_like_it() {
        let own = [access(AccessKind::Write, Base::This, Some("f")), access(AccessKind::Read, Base::This, Some("g"))];
        // An inherited method's write counts as the class's own writes do.
        let inherited = [access(AccessKind::Write, Base::This, Some("h"))];
        let written = WrittenSteps::of(own.iter(), inherited.iter());
        // Kept whatever its base: the last steps are coarser than the groups.
        assert!(written.may_race(&access(AccessKind::Read, Base::Static(Sym::new("p.C")), Some("f"))));
        assert!(written.may_race(&access(AccessKind::Read, Base::This, Some("h"))));
        assert!(!written.may_race(&access(AccessKind::Read, Base::This, Some("g"))));
        // Writes are always grouped, and so is a read of no field.
        assert!(written.may_race(&access(AccessKind::Write, Base::This, Some("g"))));
        assert!(written.may_race(&access(AccessKind::Read, Base::This, None)));
    }
}

#[cfg(test)]
mod getter_tests {
    use super::*;
    use crate::analysis::domain::{Base, Path};

    fn getter(name: &str, descriptor: &str, field: &str) -> bool {
        let m = MethodRef { class: Sym::new("p.C"), name: Sym::new(name), descriptor: Sym::new(descriptor) };
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new(field)).expect("a one-field path");
        is_getter_of(&m, &path)
    }

    #[test]
    fn a_getter_is_named_after_its_field_and_takes_nothing() {
        assert!(getter("getValue", "()I", "mValue"));
        assert!(getter("getValue", "()I", "value"));
        assert!(getter("isOpen", "()Z", "open"));
        assert!(getter("hasNext", "()Z", "_next"));
        assert!(getter("current", "()Ljava/lang/Object;", "mCurrent"));
        assert!(getter("getURL", "()Ljava/lang/String;", "fURL"));
        // Not getters of that field: parameters, no result, another name.
        assert!(!getter("getValue", "(I)I", "mValue"));
        assert!(!getter("getValue", "()V", "mValue"));
        assert!(!getter("start", "()Z", "mPort"));
        assert!(!getter("getConnection", "()Ljava/sql/Connection;", "m_url"));
        assert!(!getter("getValues", "()I", "mValue"));
        assert!(!getter("get", "()I", "mValue"));
    }
}

#[cfg(test)]
mod lock_held_name_tests {
    use super::names_lock_held_by_caller;

    #[test]
    fn a_name_says_its_caller_holds_a_lock_by_its_suffix_after_a_lower_case_letter() {
        for held in ["updateLocked", "registerTableAsLocked", "writeSettingsLPw", "getPackageLPr", "installPackageLI", "freezeLIF", "updateOomAdjLSP", "getUidRecordLOSP"] {
            assert!(names_lock_held_by_caller(held), "{held}");
        }
        for not_held in ["Locked", "isLocked", "setLocked", "unlocked", "isUnlocked", "LI", "getCLI", "startLIST", "lockedWrite", "update"] {
            assert!(!names_lock_held_by_caller(not_held), "{not_held}");
        }
    }
}
