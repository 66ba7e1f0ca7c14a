//! 9.1: which candidates a class reports. RacerD's de-duplication (one report per method
//! and line, one read and one write report per method and group) and the extension's one
//! report per race (see [`super::super::dedup`]).

use crate::classfile::model::MethodRef;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::issue::{top_level_class, Issue, IssueKind};

use super::super::dedup::{self, Decision, Family, Merge, RaceKey, Reached, Selection};
use super::super::domain::*;
use super::super::pool::Entry;
use super::content::render_path;
use super::{Candidate, ClassReporter, Proposals};

impl<'a> ClassReporter<'a> {
    /// Adds a candidate; one sure to be reported settles its method's reports of that class in
    /// the group (the rules then skip the method's other entries there, as 9.1 drops them).
    pub(super) fn propose(&self, out: &mut Proposals<'a>, kind: IssueKind, e: &Entry<'a>, conflict: Option<&Entry<'a>>, class: WriteClass) {
        let line = e.access.site.outer_line();
        let fresh = out.sites.insert((e.method, line, self.site_detail(e, line)));
        let merge = self.merges(e);
        if fresh && (line != 0 || self.cfg.extensions.lineless_reports) && merge == Merge::No {
            match class {
                WriteClass::Write => out.settled.insert((e.method, true)),
                WriteClass::Read => out.settled.insert((e.method, false)),
                WriteClass::Interface => false,
            };
        }
        out.list.push(Candidate { group: out.group, kind, entry: *e, conflict: conflict.copied(), class, merge });
    }

    /// The race a candidate reaches, if it is reported once whichever entry point reaches it.
    pub(super) fn reached(&self, c: &Candidate<'a>, candidate: usize) -> Option<Reached> {
        if c.merge == Merge::No {
            return None;
        }
        let mref = self.analysis.methods[c.entry.method].mref;
        let site = &c.entry.access.site;
        Some(Reached {
            key: RaceKey {
                kind: c.kind,
                method: self.race_end_method(&c.entry),
                location: race_location(c.entry.access.key.kind.path()),
                own_fields: c.merge == Merge::IfMany,
            },
            family: self.family(c),
            rank: (site.trace.len(), mref.class, site.outer_line(), mref.name, mref.descriptor),
            entry_point: c.entry.method,
            candidate,
        })
    }

    /// The candidates that 9.1 keeps: one report per method and line (with its site detail),
    /// one write and one read report per method and group, one interface report per method; a
    /// race reported once (see [`Self::merges`]) only where `decide` chooses it. Also the
    /// candidates of such races that found their line taken, chosen or not.
    pub(super) fn select(&self, candidates: &[Candidate<'a>], decide: &dyn Fn(usize) -> Decision) -> Selection {
        let ext = self.cfg.extensions;
        let mut sites: FxHashSet<(usize, u32, Option<SiteDetail<'_>>)> = FxHashSet::default();
        let mut interface_methods: FxHashSet<usize> = FxHashSet::default();
        let (mut group_reads, mut group_writes): (FxHashSet<usize>, FxHashSet<usize>) = Default::default();
        let mut group = usize::MAX;
        let mut selection = Selection::default();
        let mut orphaned: FxHashSet<usize> = FxHashSet::default();
        // The shown candidate holding each call line: another location a call there reaches
        // is named in its report rather than hidden (one report per call line).
        let mut call_sites: FxHashMap<(usize, u32), usize> = FxHashMap::default();
        // The decision on each candidate of a race reported once, asked once.
        let decisions: Vec<Option<Decision>> =
            candidates.iter().enumerate().map(|(i, c)| (c.merge != Merge::No).then(|| decide(i))).collect();
        let pinned = self.pinned_sites(candidates, &decisions);
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
            let decision = decisions[i];
            let site = (e.method, line, self.site_detail(e, line));
            // A candidate of a race reported once: the chosen one, or a later one of the class
            // when the chosen one lost its line.
            let takes_over = decision.is_some_and(|d| !d.chosen && orphaned.contains(&d.race));
            let yields = decision.is_some_and(|d| (d.chosen || takes_over) && can_move(d))
                && pinned.get(&site).is_some_and(|&p| p != i && candidates[p].entry.access.key.kind.path() == e.access.key.kind.path());
            let taken = yields
                || sites.contains(&site)
                || match c.class {
                    WriteClass::Write => group_writes.contains(&e.method),
                    WriteClass::Read => group_reads.contains(&e.method),
                    WriteClass::Interface => interface_methods.contains(&e.method),
                };
            if let Some(d) = decision {
                if taken {
                    selection.lost.push(i);
                    if d.chosen && !d.direct {
                        orphaned.insert(d.race);
                    }
                }
                if !d.chosen && !takes_over {
                    continue;
                }
            }
            if taken {
                let through_call = ext.report_per_field && decision.map_or(true, |d| d.chosen) && site.2.is_none() && !e.access.site.trace.is_empty();
                if let Some(&shown) = call_sites.get(&(e.method, line)).filter(|_| through_call) {
                    let same_location = candidates[selection.shown[shown].0].entry.access.key.kind.path() == e.access.key.kind.path();
                    if !same_location {
                        selection.through_same_call.push((shown, i));
                    }
                }
                continue;
            }
            if site.2.is_none() && !e.access.site.trace.is_empty() {
                call_sites.insert((e.method, line), selection.shown.len());
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

    /// The sites wanted by the chosen report of a race reported once that no other entry point
    /// reaches, each with the first such candidate: the race is shown there or nowhere. The
    /// chosen report of another race on the same location that can move on (another entry
    /// point reaches it) yields such a site and moves on, so that both races are shown:
    /// `hits++` in a lambda reads through one call and writes through another on one line, and
    /// the read's race is also reached from a getter, which then reports it. (A race on another
    /// location keeps the site: the report shown there names it.)
    fn pinned_sites(&self, candidates: &[Candidate<'a>], decisions: &[Option<Decision>]) -> FxHashMap<(usize, u32, Option<SiteDetail<'a>>), usize> {
        let mut pinned = FxHashMap::default();
        for (i, c) in candidates.iter().enumerate() {
            if decisions[i].is_some_and(|d| d.chosen && !can_move(d)) {
                let line = c.entry.access.site.outer_line();
                pinned.entry((c.entry.method, line, self.site_detail(&c.entry, line))).or_insert(i);
            }
        }
        pinned
    }

    /// The issues of the selected candidates.
    pub(super) fn issues(&self, candidates: &[Candidate<'a>], selection: &Selection) -> Vec<Issue> {
        let issue = |(position, &(i, others)): (usize, &(usize, u32))| {
            let c = &candidates[i];
            let mut issue = self.build_issue(c.kind, &c.entry, c.conflict.as_ref());
            let mut also: Vec<String> = Vec::new();
            for &(_, j) in selection.through_same_call.iter().filter(|(shown, _)| *shown == position) {
                let e = &candidates[j].entry;
                let path = render_path(e.access.key.kind.path(), self.formal_names(e.method));
                if path != issue.access_path && !also.contains(&path) {
                    also.push(path);
                }
            }
            if !also.is_empty() {
                issue.message.push_str(&dedup::same_call_sentence(&also));
            }
            if others > 0 {
                issue.other_entry_points = others;
                issue.message.push_str(&dedup::other_entry_points_sentence(others));
            }
            issue
        };
        selection.shown.iter().enumerate().map(issue).collect()
    }

    /// Is the access one race whichever entry point reaches it, reported once (see
    /// [`dedup`])? So it is when it ends in another top-level class, when it is on a static
    /// location (one location, raced on in the method that accesses it, which, when it is an
    /// entry point itself, reports it directly), and when it is handed code's reached through
    /// a call (the helper that hands the code over reports it). One on the object's own fields
    /// is, when many entry points reach it.
    pub(super) fn merges(&self, e: &Entry<'a>) -> Merge {
        let base = e.access.key.kind.path().base;
        if !self.cfg.extensions.end_location_dedup {
            Merge::No
        } else if self.ends_elsewhere(e) || matches!(base, Base::Static(_)) || (e.access.key.handed && !e.access.site.trace.is_empty()) {
            Merge::Always
        } else if base == Base::This {
            Merge::IfMany
        } else {
            Merge::No
        }
    }

    /// The family of a race on an object's field that is another top-level class's own race:
    /// the access, and its conflicting access if any, end in that class's code, which takes a
    /// lock itself around one of them (`HandlerThread.run` sets `mLooper` under its own
    /// monitor, `getLooper` returns it without). Reached on the objects of several reporting
    /// classes of one package (each one's `HandlerThread`), it is one race in that code,
    /// reported by one class (see `dedup::families`). A race on a class that takes no lock
    /// itself is its callers' to avoid, each a race of its own. Within a package only: a
    /// module is made of whole packages, so one analysed alone reports its families as the
    /// whole build does.
    fn family(&self, c: &Candidate<'a>) -> Option<Family> {
        let path = c.entry.access.key.kind.path();
        if matches!(path.base, Base::Static(_)) || !self.ends_elsewhere(&c.entry) {
            return None;
        }
        let field = *path.steps.last()?;
        let end = self.race_end_method(&c.entry);
        let conflict = c.conflict.as_ref()?;
        let conflict_end = self.race_end_method(conflict);
        let in_end_class = !conflict.access.site.trace.is_empty() && top_level_class(conflict_end.class.as_str()) == top_level_class(end.class.as_str());
        let guarded = in_end_class && (self.locks_field_itself(&end, field) || self.locks_field_itself(&conflict_end, field));
        guarded.then(|| (c.kind, end, field, self.class.header.package()))
    }

    /// Whether `method`'s own summary (analysed here or upstream) has an access to `field`
    /// made under a lock it takes.
    fn locks_field_itself(&self, method: &MethodRef, field: Step) -> bool {
        self.summary_of(method).is_some_and(|s| s.accesses.iter().any(|a| a.key.lock && a.key.kind.path().steps.last() == Some(&field)))
    }

    /// Does the access end in another top-level class than this one?
    pub(super) fn ends_elsewhere(&self, e: &Entry<'a>) -> bool {
        let end = self.race_end_method(e);
        top_level_class(end.class.as_str()) != top_level_class(self.class.header.name.as_str())
    }

    /// The method an access ends in: its innermost callee, or the reporting method.
    pub(super) fn race_end_method(&self, e: &Entry<'a>) -> MethodRef {
        e.access.site.trace.iter().last().map_or_else(|| self.mref_of(e), |call| call.callee)
    }

    /// What tells reports on one line of a method apart, beyond the reference's (method, line):
    /// with `report_per_field`, the field of a direct access (each racing field stays visible;
    /// a call line still gives one report for everything reached through it). Without line
    /// numbers every access of a method is at line 0: the field or the first callee tells
    /// them apart.
    pub(super) fn site_detail(&self, e: &Entry<'a>, line: u32) -> Option<SiteDetail<'a>> {
        let first_call = e.access.site.trace.iter().next();
        match first_call {
            None if self.cfg.extensions.report_per_field || line == 0 => Some(SiteDetail::Field(e.access.key.kind.path())),
            Some(call) if line == 0 => Some(SiteDetail::Call(call.callee)),
            _ => None,
        }
    }
}

/// The location a race is known by: the access's path, without the outer-instance steps an
/// inner class's code starts it with (`this.this$0.f`; `this.this$1.this$0.f` two classes
/// deep). That is the outer class's `this.f`: a
/// listener's callback and the method that registers it, reporting one race in the outer
/// object, are two entry points to it, not two races.
fn race_location(path: &Path) -> Path {
    let outer_steps = path.steps.iter().take_while(|s| s.is_outer_instance()).count();
    if path.base != Base::This || outer_steps == 0 {
        return path.clone();
    }
    Path { base: Base::This, steps: Steps::from(&path.steps[outer_steps..]) }
}

/// Whether a race reported once may be handed to another entry point when its report loses
/// its line.
fn can_move(d: Decision) -> bool {
    d.others > 0 && !d.direct
}

/// See `ClassReporter::site_detail`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum SiteDetail<'a> {
    Field(&'a Path),
    Call(MethodRef),
}

#[derive(Clone, Copy)]
pub(super) enum WriteClass {
    Read,
    Write,
    Interface,
}
