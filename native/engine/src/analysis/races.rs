//! Sections 8-9: class-level race reporting, de-duplication and report content.

use crate::fxhash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
use std::sync::Arc;

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::issue::{top_level_class, Conflict, FieldId, Issue, IssueKind, TraceElem};
use crate::sym::Sym;

use super::annotations::is_synthetic_name;
use super::dedup::{self, ClassReports, Decision, FirstPass, RaceKey, Reached, Selection};
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
pub fn contributes_to_pool(e: &MethodEntry, h: &MethodHeader, ext: Extensions) -> bool {
    // A bridge only calls the method it stands for, which reports for itself.
    if ext.skip_bridges && h.flags & ACC_BRIDGE != 0 {
        return false;
    }
    if e.facts.thread_safe_method {
        return true;
    }
    h.flags & ACC_PRIVATE == 0
        && h.name.as_str() != "<clinit>"
        && !is_synthetic_name(h.name)
        && !h.has_annotation("VisibleForTesting")
}

struct ClassReporter<'a> {
    analysis: &'a Analysis,
    class: &'a Class,
    methods: &'a [usize],
    cfg: &'a ReportConfig<'a>,
}

/// A report a rule asks for; 9.1's de-duplication decides whether it is shown.
struct Candidate<'a> {
    /// The candidate's group, among the class's groups.
    group: usize,
    kind: IssueKind,
    entry: Entry<'a>,
    conflict: Option<Entry<'a>>,
    class: WriteClass,
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
        ClassReporter { analysis, class, methods, cfg }
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
        !self.class.header.supertypes().any(|s| s.as_str() == "kotlin.coroutines.jvm.internal.RestrictedSuspendLambda")
    }

    /// 8.2: does method `i` contribute to its class's pool?
    fn is_reportable(&self, i: usize) -> bool {
        let e = &self.analysis.methods[i];
        contributes_to_pool(e, &self.class.methods[e.index].header, self.cfg.extensions)
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
        for &i in &reportable {
            let summary = &self.analysis.summaries[i];
            for a in summary.accesses.iter() {
                grouper.push_own(a, i, rank, summary.threads);
            }
            rank += 1;
        }
        // After the class's own entries, so that their conflicts are found first.
        for (mref, summary) in &inherited {
            for a in summary.accesses.iter().filter(|a| a.key.kind.path().base == Base::This) {
                grouper.push_inherited(a, mref, rank, summary.threads);
            }
            rank += 1;
        }
        grouper.into_sorted(guarded_fields)
    }

    fn guarded_fields(&self) -> bool {
        self.class.header.fields.iter().any(|f| f.annotations.iter().any(|a| a.matches("GuardedBy")))
    }

    /// What the rules (8.7) ask to report, group by group in key order.
    fn candidates(&self, groups: &[Group<'a>]) -> Vec<Candidate<'a>> {
        let mut out = Proposals { group: 0, list: Vec::new(), sites: FxHashSet::default(), settled: FxHashSet::default() };
        for (g, Group { key, entries, any_thread: on_any_thread }) in groups.iter().enumerate() {
            if let GroupKey::Container(_, steps) = key {
                if self.is_synchronized_container_group(steps) {
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

    fn propose(&self, out: &mut Proposals<'a>, kind: IssueKind, e: &Entry<'a>, conflict: Option<&Entry<'a>>, class: WriteClass) {
        let line = e.access.site.outer_line();
        let fresh = out.sites.insert((e.method, line, self.site_detail(e, line)));
        if fresh && (line != 0 || self.cfg.extensions.lineless_reports) && !self.merges(e) {
            match class {
                WriteClass::Write => out.settled.insert((e.method, true)),
                WriteClass::Read => out.settled.insert((e.method, false)),
                WriteClass::Interface => false,
            };
        }
        out.list.push(Candidate { group: out.group, kind, entry: *e, conflict: conflict.copied(), class });
    }

    /// The race a candidate reaches, if it is reported once whichever entry point reaches it.
    fn reached(&self, c: &Candidate<'a>, candidate: usize) -> Option<Reached> {
        if !self.merges(&c.entry) {
            return None;
        }
        let mref = self.analysis.methods[c.entry.method].mref;
        let site = &c.entry.access.site;
        Some(Reached {
            key: RaceKey { kind: c.kind, method: self.race_end_method(&c.entry), location: c.entry.access.key.kind.path().clone() },
            rank: (site.trace.len(), mref.class, site.outer_line(), mref.name, mref.descriptor),
            entry_point: c.entry.method,
            candidate,
        })
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
            .filter_map(|m| {
                let summary = match self.analysis.by_ref.get(m) {
                    Some(&i) => &*self.analysis.summaries[i],
                    None => &**self.cfg.upstream.get(m)?,
                };
                Some((m, summary))
            })
            .collect()
    }

    fn mref_of(&self, e: &Entry<'a>) -> MethodRef {
        e.inherited.copied().unwrap_or_else(|| self.analysis.methods[e.method].mref)
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
            let summary = match self.analysis.by_ref.get(&r) {
                Some(&i) => Some(self.analysis.summaries[i].clone()),
                None => self.cfg.upstream.get(&r).cloned(),
            };
            if let Some(s) = summary {
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
        while let Some(Step::Array) = steps.last() {
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
        if e.access.key.started {
            // A started thread's own write races with the writes of the rest of the class, not
            // with itself.
            if let Some(c) = conflicts.writes.iter().copied().find(|c| !same_started_thread(e, c)) {
                self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Write);
            }
        } else if e.t.is_any() {
            self.propose(out, IssueKind::ThreadSafetyViolation, e, None, WriteClass::Write);
        } else if let Some(c) = conflicts.any_thread_write.or(conflicts.shared_location) {
            self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Write);
        }
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
        let mut writes = conflicts.writes.iter().copied().filter(|c| !same_started_thread(e, c));
        let conflict = if e.unprotected() {
            writes.find(|c| e.t.is_any() || c.t.is_any())
        } else {
            writes.find(|c| {
                if c.unprotected() {
                    c.t.is_any()
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

    // ---- 9.1 de-duplication and 9.2-9.5 content ----

    /// The candidates that 9.1 keeps: one report per method and line (with its site detail),
    /// one write and one read report per method and group, one interface report per method; a
    /// race that ends in another class only where `decide` chooses it. Also the candidates of
    /// such races that found their line taken, chosen or not.
    fn select(&self, candidates: &[Candidate<'a>], decide: &dyn Fn(usize) -> Decision) -> Selection {
        let ext = self.cfg.extensions;
        let mut sites: FxHashSet<(usize, u32, Option<SiteDetail<'_>>)> = FxHashSet::default();
        let mut interface_methods: FxHashSet<usize> = FxHashSet::default();
        let (mut group_reads, mut group_writes): (FxHashSet<usize>, FxHashSet<usize>) = Default::default();
        let mut group = usize::MAX;
        let mut selection = Selection::default();
        let mut orphaned: FxHashSet<usize> = FxHashSet::default();
        for (i, c) in candidates.iter().enumerate() {
            if c.group != group {
                group = c.group;
                group_reads.clear();
                group_writes.clear();
            }
            let e = &c.entry;
            let line = e.access.site.outer_line();
            if line == 0 && !ext.lineless_reports {
                continue;
            }
            let decision = if self.merges(e) { Some(decide(i)) } else { None };
            let site = (e.method, line, self.site_detail(e, line));
            let taken = sites.contains(&site)
                || match c.class {
                    WriteClass::Write => group_writes.contains(&e.method),
                    WriteClass::Read => group_reads.contains(&e.method),
                    WriteClass::Interface => interface_methods.contains(&e.method),
                };
            // A candidate of a race reported once: the chosen one, or a later one of the class
            // when the chosen one lost its line.
            let takes_over = decision.is_some_and(|d| !d.chosen && orphaned.contains(&d.race));
            if let Some(d) = decision {
                if taken {
                    selection.lost.push(i);
                    if d.chosen {
                        orphaned.insert(d.race);
                    }
                }
                if !d.chosen && !takes_over {
                    continue;
                }
            }
            if taken {
                continue;
            }
            sites.insert(site);
            match c.class {
                WriteClass::Write => group_writes.insert(e.method),
                WriteClass::Read => group_reads.insert(e.method),
                WriteClass::Interface => interface_methods.insert(e.method),
            };
            let others = decision.map_or(0, |d| d.others);
            if let Some(d) = decision.filter(|_| takes_over) {
                orphaned.remove(&d.race);
                selection.took_over.push((i, d.race));
            }
            selection.shown.push((i, others));
        }
        selection.orphaned = orphaned.into_iter().collect();
        selection.orphaned.sort_unstable();
        selection
    }

    /// The issues of the selected candidates.
    fn issues(&self, candidates: &[Candidate<'a>], selection: &Selection) -> Vec<Issue> {
        let issue = |&(i, others): &(usize, u32)| {
            let c = &candidates[i];
            let mut issue = self.build_issue(c.kind, &c.entry, c.conflict.as_ref(), c.entry.access.site.outer_line());
            if others > 0 {
                issue.other_entry_points = others;
                issue.message.push_str(&dedup::other_entry_points_sentence(others));
            }
            issue
        };
        selection.shown.iter().map(issue).collect()
    }

    /// Is the access one race whichever entry point reaches it, reported once (see
    /// [`dedup`])? So it is when it ends in another top-level class, and when it reaches a
    /// static location through a call: one location, raced on in the method that accesses it.
    fn merges(&self, e: &Entry<'a>) -> bool {
        self.cfg.extensions.end_location_dedup
            && (self.ends_elsewhere(e)
                || (!e.access.site.trace.is_empty() && matches!(e.access.key.kind.path().base, Base::Static(_))))
    }

    /// Does the access end in another top-level class than this one?
    fn ends_elsewhere(&self, e: &Entry<'a>) -> bool {
        let end = self.race_end_method(e);
        top_level_class(end.class.as_str()) != top_level_class(self.class.header.name.as_str())
    }

    fn race_end_method(&self, e: &Entry<'a>) -> MethodRef {
        e.access.site.trace.iter().last().map_or_else(|| self.mref_of(e), |call| call.callee)
    }

    /// What tells reports on one line of a method apart, beyond the reference's (method, line):
    /// with `report_per_field`, the field of a direct access (each racing field stays visible;
    /// a call line still gives one report for everything reached through it). Without line
    /// numbers every access of a method is at line 0: the field or the first callee tells
    /// them apart.
    fn site_detail(&self, e: &Entry<'a>, line: u32) -> Option<SiteDetail<'a>> {
        let first_call = e.access.site.trace.iter().next();
        match first_call {
            None if self.cfg.extensions.report_per_field || line == 0 => Some(SiteDetail::Field(e.access.key.kind.path())),
            Some(call) if line == 0 => Some(SiteDetail::Call(call.callee)),
            _ => None,
        }
    }

    fn formal_names(&self, i: usize) -> &[Sym] {
        &self.class.methods[self.analysis.methods[i].index].formal_names
    }

    fn build_issue(&self, kind: IssueKind, e: &Entry<'a>, conflict: Option<&Entry<'a>>, line: u32) -> Issue {
        let mref = self.analysis.methods[e.method].mref;
        let path = render_path(e.access.key.kind.path(), self.formal_names(e.method));
        let trace = self.trace(e, &path, mref.class);
        let conflicts = conflict
            .map(|c| {
                let cref = self.mref_of(c);
                let cpath = render_path(c.access.key.kind.path(), self.formal_names_of(c));
                vec![Conflict {
                    class: cref.class.to_string(),
                    method: cref.name.to_string(),
                    descriptor: cref.descriptor.to_string(),
                    line: c.access.site.outer_line(),
                    access_path: cpath.clone(),
                    access: if c.is_write() { "write" } else { "read" }.into(),
                    locked: c.access.key.lock,
                    trace: self.trace(c, &cpath, mref.class),
                    source_file: self.other_source_file(cref.class, mref.class),
                }]
            })
            .unwrap_or_default();
        let message = self.message(kind, e, conflict, &path);
        Issue {
            kind,
            class: mref.class.to_string(),
            method: mref.name.to_string(),
            descriptor: mref.descriptor.to_string(),
            line,
            source_file: self.class.header.source_file.map(|s| s.to_string()).unwrap_or_default(),
            access_path: path,
            message,
            trace,
            conflicts,
            other_entry_points: 0,
            baseline: Default::default(),
            suppressed: None,
            field: last_field(e.access.key.kind.path()),
        }
    }

    /// [`TraceElem::source_file`]: the `SourceFile` of `class`, named in an issue of
    /// `issue_class`, when it is another top-level class (and its header is known).
    fn other_source_file(&self, class: Sym, issue_class: Sym) -> String {
        if top_level_class(class.as_str()) == top_level_class(issue_class.as_str()) {
            return String::new();
        }
        let upstream = || (self.cfg.upstream_source_file)(class);
        self.cfg.table.get(class).and_then(|h| h.source_file).or_else(upstream).map(|f| f.to_string()).unwrap_or_default()
    }

    fn trace(&self, e: &Entry<'a>, path: &str, issue_class: Sym) -> Vec<TraceElem> {
        let calls = e.access.site.trace.len();
        // A report lists at most REPORTED_CALLS calls (the outermost and innermost halves):
        // every report of a call chain thousands deep would otherwise repeat the whole
        // chain, and reports and memory would grow with the square of its depth.
        let skipped = calls.saturating_sub(REPORTED_CALLS);
        let mut out = Vec::with_capacity(calls.min(REPORTED_CALLS) + 1);
        let mut current = self.mref_of(e);
        for (k, call) in e.access.site.trace.iter().enumerate() {
            let hidden = skipped > 0 && k > REPORTED_CALLS / 2 && k <= REPORTED_CALLS / 2 + skipped;
            if !hidden {
                let mut description = format!("call to {}", render_method(&call.callee));
                if skipped > 0 && k == REPORTED_CALLS / 2 {
                    description.push_str(&format!(" ({skipped} further calls not shown)"));
                }
                out.push(TraceElem {
                    class: current.class.to_string(),
                    method: current.name.to_string(),
                    descriptor: current.descriptor.to_string(),
                    line: call.line,
                    description,
                    source_file: self.other_source_file(current.class, issue_class),
                });
            }
            current = call.callee;
        }
        let description = match &e.access.key.kind {
            AccessKind::Read(_) => format!("access to `{path}` (read)"),
            AccessKind::Write(_) => format!("access to `{path}` (write)"),
            AccessKind::ContainerRead(_, m) => format!("read of container `{path}` via call to `{}`", container_call(m)),
            AccessKind::ContainerWrite(_, m) => format!("write to container `{path}` via call to `{}`", container_call(m)),
            AccessKind::InterfaceCall(_, m) => format!("call to interface method {}", render_method(m)),
        };
        out.push(TraceElem {
            class: current.class.to_string(),
            method: current.name.to_string(),
            descriptor: current.descriptor.to_string(),
            line: e.access.site.line,
            description,
            source_file: self.other_source_file(current.class, issue_class),
        });
        out
    }

    fn message(&self, kind: IssueKind, e: &Entry<'a>, conflict: Option<&Entry<'a>>, path: &str) -> String {
        let mref = self.analysis.methods[e.method].mref;
        let who = render_method(&mref);
        let indirect = !e.access.site.trace.is_empty();
        let how = if indirect { " indirectly" } else { "" };
        let what = match &e.access.key.kind {
            AccessKind::ContainerRead(_, m) | AccessKind::ContainerWrite(_, m) => {
                format!("container `{path}` via call to `{}`", container_call(m))
            }
            _ => format!("`{path}`"),
        };
        let explanation = self.explanation(e);
        match kind {
            IssueKind::GuardedByViolation => match e.access.key.lock_on {
                Some(held) if e.access.key.lock => format!(
                    "Write under the wrong lock. Non-private method `{who}`{how} writes to field {what} holding `{}`. \
                     Reporting because the field is annotated `@GuardedBy`, so it should only be accessed while holding the lock it names.",
                    render_lock(held.path(), self.formal_names_of(e))
                ),
                _ => format!(
                    "Unprotected write. Non-private method `{who}`{how} writes to field {what} outside of synchronization. \
                     Reporting because the field is annotated `@GuardedBy`, so it should only be accessed while holding its lock."
                ),
            },
            IssueKind::InterfaceNotThreadSafe => {
                let (iface, m) = match &e.access.key.kind {
                    AccessKind::InterfaceCall(_, m) => (m.class.to_string(), render_method(m)),
                    _ => (String::new(), String::new()),
                };
                format!(
                    "Unprotected call to method `{m}` of un-annotated interface `{iface}`. Consider annotating the \
                     interface with `@ThreadSafe` or adding a lock. {}",
                    explanation.unwrap_or_default()
                )
            }
            IssueKind::ThreadSafetyViolation => {
                let why = self.race_reason(e, explanation) + &self.own_monitor_note(e);
                let verb = match &e.access.key.kind {
                    AccessKind::ContainerWrite(..) => "mutates",
                    _ => "writes to field",
                };
                let other_locks = conflict.filter(|c| under_other_locks(e, c, self.cfg.extensions.different_locks)).map(|c| self.other_locks(e, c));
                if let (true, Some((c, mine, theirs))) = (e.is_write(), &other_locks) {
                    format!(
                        "Write under a different lock. Non-private method `{who}`{how} {verb} {what} holding `{mine}`. \
                         Potentially races with write in method `{c}`, which holds `{theirs}` instead. {why}"
                    )
                } else if e.is_write() {
                    format!("Unprotected write. Non-private method `{who}`{how} {verb} {what} outside of synchronization. {why}")
                } else {
                    let sync = if e.access.key.lock { "with synchronization" } else { "without synchronization" };
                    let c = conflict.map(|c| render_method(&self.mref_of(c))).unwrap_or_default();
                    let tail = match &other_locks {
                        Some((_, mine, theirs)) => format!(" The read holds `{mine}` and the write `{theirs}`: different locks."),
                        None if e.access.key.lock => " The write is outside synchronization.".to_string(),
                        None => String::new(),
                    };
                    format!(
                        "Read/Write race. Non-private method `{who}`{how} reads {sync} from {what}. \
                         Potentially races with write in method `{c}`.{tail} {why}"
                    )
                }
            }
        }
    }

    /// For a message: the method of `c` and the locks `e` and `c` hold, as the code names them.
    fn other_locks(&self, e: &Entry<'a>, c: &Entry<'a>) -> (String, String, String) {
        let name = |x: &Entry<'a>| x.access.key.lock_on.map(|l| render_lock(l.path(), self.formal_names_of(x))).unwrap_or_default();
        (render_method(&self.mref_of(c)), name(e), name(c))
    }

    /// Object-monitors extension: an unprotected static access made under a monitor of `this`
    /// looks protected to a reader of the code; say why it is not.
    fn own_monitor_note(&self, e: &Entry<'a>) -> String {
        let path = e.access.key.kind.path();
        let own_monitor = e.inherited.is_none()
            && !e.access.key.lock
            && self.analysis.summaries[e.method].own_monitor_statics.binary_search(path).is_ok();
        if own_monitor {
            " The only locks held are monitors of `this` (a synchronized instance method, `synchronized (this)`): a \
             thread working on another object of the class does not wait for them, so they do not protect a static field."
                .into()
        } else {
            String::new()
        }
    }

    /// 9.4: why the method is considered to run concurrently, if an annotation says so.
    fn explanation(&self, e: &Entry<'a>) -> Option<String> {
        let facts = &self.analysis.methods[e.method].facts;
        let mref = self.analysis.methods[e.method].mref;
        if facts.thread_safe_method {
            return Some(format!("Reporting because `{}` is annotated `@ThreadSafe`", render_method(&mref)));
        }
        let table = self.cfg.table;
        let litho = ["MountSpec", "LayoutSpec", "DiffSectionSpec", "GroupSectionSpec"];
        let me = self.class.header.name;
        let found = table.find_in_supertypes(me, |c| {
            let h = table.get(c)?;
            h.annotations.iter().find(|a| litho.iter().any(|n| a.matches(n))).map(|a| (c, a.type_name))
        });
        if let Some((c, a)) = found {
            let simple = a.as_str().rsplit('.').next().unwrap_or("");
            let reason = if matches!(simple, "MountSpec" | "LayoutSpec") {
                "layout is computed on several threads"
            } else {
                "change sets are computed off the main thread"
            };
            let whose = if c == me { "the current class".to_string() } else { format!("a superclass `{c}`") };
            return Some(format!("Reporting because {whose} is annotated `@{simple}`, and {reason}"));
        }
        let found = table.find_in_supertypes(me, |c| {
            let h = table.get(c)?;
            h.annotations
                .iter()
                .any(|a| {
                    (a.matches("ThreadSafe") && !(a.element_count == 1 && a.elements.iter().any(|(n, v)| n.as_str() == "enableChecks" && *v == AnnotationValue::Bool(false))))
                        || self.cfg.thread_safe_aliases.iter().any(|n| a.matches(n))
                })
                .then_some(c)
        });
        found.map(|c| {
            if c == me {
                "Reporting because the current class is annotated `@ThreadSafe`".to_string()
            } else {
                format!("Reporting because a superclass `{c}` is annotated `@ThreadSafe`")
            }
        })
    }

    fn race_reason(&self, e: &Entry<'a>, explanation: Option<String>) -> String {
        match (explanation, e.t.is_any()) {
            (Some(x), true) => format!(
                "{x}, so we assume that this method can run in parallel with other non-private methods in the class (including itself)."
            ),
            (Some(x), false) => format!(
                "{x}. Although this access is not known to run on a background thread, it may happen in parallel with another access that does."
            ),
            (None, true) => "Reporting because this access may occur on a background thread.".into(),
            (None, false) => {
                "Reporting because another access to the same memory occurs on a background thread, although this access may not.".into()
            }
        }
    }
}

/// See `ClassReporter::site_detail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum SiteDetail<'a> {
    Field(&'a Path),
    Call(MethodRef),
}

#[derive(Clone, Copy)]
enum WriteClass {
    Read,
    Write,
    Interface,
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

/// 2.1 rendering: `this.f.g`, `param.[_]`, `pkg.Class.f` for statics.
pub fn render_path(p: &Path, formal_names: &[Sym]) -> String {
    let mut s = match p.base {
        Base::This => "this".to_string(),
        Base::Param(i) => formal_names.get(i as usize).map(|n| n.to_string()).unwrap_or_else(|| format!("arg{i}")),
        Base::Static(c) => render_static_root(c.as_str()),
        Base::Local(i) => format!("local{i}"),
        Base::Temp(_) => "tmp".into(),
    };
    for step in p.steps.iter() {
        s.push('.');
        match step {
            Step::Field { name, .. } => s.push_str(name.as_str()),
            Step::Array => s.push_str("[_]"),
        }
    }
    s
}

/// Two accesses of started threads to their objects' own fields (see `AccessKey::started`):
/// on one location, they are on one object, which only one thread runs, so they do not race.
fn same_started_thread(e: &Entry<'_>, c: &Entry<'_>) -> bool {
    e.access.key.started && c.access.key.started
}

/// Whether the locks `e` and `c` are made under keep each other out: both are locked, and (with
/// `different_locks`) not under two locks known to differ.
fn locks_exclude(e: &Entry<'_>, c: &Entry<'_>, different_locks: bool) -> bool {
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

/// A lock as the code names it: `this`, `Foo.class` for a class's monitor, or the path of the
/// object whose monitor or `Lock` it is.
fn render_lock(p: &Path, formal_names: &[Sym]) -> String {
    match p.base {
        Base::Static(c) if p.steps.is_empty() => format!("{}.class", c.as_str().rsplit('.').next().unwrap_or("")),
        _ => render_path(p, formal_names),
    }
}

/// The last field on `p` (`arr` in `this.arr.[_]`).
fn last_field(p: &Path) -> Option<FieldId> {
    p.steps.iter().rev().find_map(|step| match step {
        Step::Field { class, name } => Some(FieldId { class: class.to_string(), name: name.to_string() }),
        Step::Array => None,
    })
}

fn render_static_root(class: &str) -> String {
    let mut parts: Vec<&str> = class.split('.').collect();
    let simple = parts.pop().unwrap_or(class);
    match parts.last() {
        Some(pkg) => format!("{pkg}.{simple}"),
        None => simple.to_string(),
    }
}

/// `Class.method(...)`, `Class.method()`, or `Class(...)` for constructors.
pub fn render_method(m: &MethodRef) -> String {
    let simple = m.class.as_str().rsplit('.').next().unwrap_or("");
    let args = if m.params() == "()" { "()" } else { "(...)" };
    match m.name.as_str() {
        "<init>" => format!("{simple}{args}"),
        "<clinit>" => format!("{simple}.<clinit>()"),
        n => format!("{simple}.{n}{args}"),
    }
}

/// The call that reads or writes a container, as a message names it: the method's name, or
/// for a constructor given the container (`new ArrayList<>(items)`) the class's, as Java
/// writes it.
fn container_call(m: &MethodRef) -> String {
    match m.name.as_str() {
        "<init>" => format!("new {}", m.class.as_str().rsplit('.').next().unwrap_or("").replace('$', ".")),
        name => name.to_string(),
    }
}

/// Most calls a reported trace lists (see `trace`).
const REPORTED_CALLS: usize = 64;

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
