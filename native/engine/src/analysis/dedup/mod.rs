//! End-location de-duplication (extension of 9.1, last paragraph): one report per race.
//! Some races belong to one place however they are reached: one that ends in another
//! top-level class than the reporting method's (a racy static cache in a helper class,
//! reached from every caller), one on a static location reached through a call (one
//! location, raced on in the method that accesses it), and one of code handed to another
//! thread reached through a call (the code's race, whoever calls the helper that hands it
//! over). Such reports are the same race when
//! their accesses end in the same method on the same location (whatever the line, the kind
//! of access and the conflicting access), and the race is reported once, from the entry
//! point with the shortest trace, which counts the other entry points that reach it. When
//! that is the method making the access (a trace of no call), each of its direct accesses
//! there keeps its report, and no caller reports the race again.
//!
//! A race on the object's own fields inside the reporting class is reported from each method
//! that reaches it while few do (RacerD's own de-duplication, 9.1, applies), and once, the same
//! way, from [`FOLDED_ENTRY_POINTS`] entry points up.
//!
//! The entry point of each race is chosen before any report takes its line (RacerD keeps
//! one report per method and call line): a report that is merged away never takes a line,
//! so it cannot hide another race reached through the same call. When the chosen report
//! finds its line taken all the same, a later candidate of its class, or else the next
//! entry point, takes the race over.

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::classfile::model::MethodRef;
use crate::fxhash::FxHashMap;
use crate::issue::{Issue, IssueKind};
use crate::sym::Sym;
use crate::timings::phase;

use super::domain::Path;

mod families;
pub(super) use families::Family;
use families::FamilyState;

/// A race reported once: the kind of report, the innermost method and the location, as a
/// path in the reporting method's terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct RaceKey {
    pub kind: IssueKind,
    pub method: MethodRef,
    pub location: Path,
    /// A race on the object's own fields, all of whose entry points are in the top-level class
    /// where it ends ([`Merge::IfMany`]): apart from the races reported once whoever reaches
    /// them, so that a module analysed alone reports as the whole build does.
    pub own_fields: bool,
}

/// Whether, and when, a candidate's race is reported once (see `ClassReporter::merges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Merge {
    /// Never: RacerD's own de-duplication (9.1) only.
    No,
    /// However few entry points reach it: a race that belongs to one place (see the module's
    /// comment).
    Always,
    /// When at least [`FOLDED_ENTRY_POINTS`] entry points reach it: a race on the object's own
    /// fields.
    IfMany,
}

/// The entry points from which a race on an object's own fields is reported once. A few each
/// name a way into the race worth seeing (`close()` and `closeQuietly()` reaching one helper);
/// a class whose every public method checks its state through one helper would repeat the
/// helper's race from each of them (an RIL, a JDBC connection: dozens to hundreds of reports
/// of one race).
pub(super) const FOLDED_ENTRY_POINTS: usize = 4;

/// The order in which a race's entry points are preferred: the shortest trace, then the
/// report order (class, line, method, descriptor).
pub(super) type Rank = (usize, Sym, u32, Sym, Sym);

/// A candidate of one class that reports a race reported once.
pub(super) struct Reached {
    pub key: RaceKey,
    /// The family of races it is one of, if any (see [`families`]).
    pub family: Option<Family>,
    pub rank: Rank,
    /// The reporting method (its index in the analysis).
    pub entry_point: usize,
    /// The candidate's index among its class's candidates.
    pub candidate: usize,
}

/// What becomes of a candidate of a race that is reported once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Decision {
    /// The race's index (`usize::MAX` before the races are known).
    pub race: usize,
    /// Whether the candidate is the race's chosen report; otherwise it is reported only when
    /// the chosen one, earlier in its class, lost its line.
    pub chosen: bool,
    /// The other entry points that reach the race.
    pub others: u32,
    /// Whether the race is reported directly where it ends: a direct report that finds its
    /// line taken (by the race's other direct report on that line, or by RacerD's one report
    /// per method and group there) hands it to no caller.
    pub direct: bool,
}

impl Decision {
    /// Before the races are known: no candidate of such a race is reported.
    pub const UNDECIDED: Decision = Decision { race: usize::MAX, chosen: false, others: 0, direct: false };
}

/// One class's first pass: its issues when it reaches no race reported once, else those
/// races and what its issues will be made from once the entry points are chosen.
pub(super) enum FirstPass<P> {
    Done(Vec<Issue>),
    Reaches(Vec<Reached>, P),
}

/// What one class reports given the decisions on its candidates.
#[derive(Default)]
pub(super) struct Selection {
    /// The reported candidates, with their other entry points.
    pub shown: Vec<(usize, u32)>,
    /// The candidates of races reported once that found their line taken, chosen or not,
    /// in order.
    pub lost: Vec<usize>,
    /// Candidates reported in place of their race's chosen one, which lost its line earlier
    /// in the class: (candidate, race).
    pub took_over: Vec<(usize, usize)>,
    /// The races whose chosen candidate lost its line and that no later candidate of the
    /// class took over.
    pub orphaned: Vec<usize>,
    /// Candidates on another location that found their call line taken by a shown one:
    /// (position in `shown`, candidate). The shown report names their locations.
    pub through_same_call: Vec<(usize, usize)>,
}

/// How the reporting of the classes is driven: a first pass per class, then, for the
/// classes that reach races reported once, the selection of their candidates given the
/// decisions on them, and at last their issues.
pub(super) trait ClassReports: Sync {
    type Pending: Send + Sync;
    fn classes(&self) -> usize;
    fn first_pass(&self, class: usize) -> FirstPass<Self::Pending>;
    fn select(&self, pending: &Self::Pending, decide: &(dyn Fn(usize) -> Decision + Sync)) -> Selection;
    fn issues(&self, pending: &Self::Pending, selection: &Selection) -> Vec<Issue>;
}

/// A candidate reaching a race: (rank, class, candidate, entry point).
type Reach = (Rank, usize, usize, usize);

/// One race's entry points, best first, and which one reports it.
struct Race {
    /// (rank, class, candidate, entry point), sorted.
    reaches: Vec<Reach>,
    /// The next of `reaches` to hand the race to when its report loses its line.
    next: usize,
    /// The chosen candidate: (class, candidate).
    current: Option<(usize, usize)>,
    /// Whether the race is reported directly where it ends (its direct accesses chosen).
    direct: bool,
    other_entry_points: u32,
}

/// Reports every class, each race that is reported once from one entry point.
pub(super) fn one_report_per_race<R: ClassReports>(reports: &R) -> Vec<Issue> {
    let start = std::time::Instant::now();
    let first: Vec<FirstPass<R::Pending>> = (0..reports.classes()).into_par_iter().map(|c| reports.first_pass(c)).collect();
    let mut issues: Vec<Vec<Issue>> = Vec::with_capacity(first.len());
    let mut pending_state: FxHashMap<usize, R::Pending> = FxHashMap::default();
    let mut races: FxHashMap<RaceKey, (Vec<Reach>, Option<Family>)> = FxHashMap::default();
    for (class, pass) in first.into_iter().enumerate() {
        match pass {
            FirstPass::Done(done) => issues.push(done),
            FirstPass::Reaches(reached, state) => {
                issues.push(Vec::new());
                pending_state.insert(class, state);
                for r in reached {
                    let race = races.entry(r.key).or_default();
                    race.0.push((r.rank, class, r.candidate, r.entry_point));
                    race.1 = race.1.or(r.family);
                }
            }
        }
    }
    // The race of each candidate, and the chosen candidate of each race, by (class,
    // candidate): the race's index.
    let mut race_of: FxHashMap<(usize, usize), usize> = FxHashMap::default();
    let mut chosen: FxHashMap<(usize, usize), usize> = FxHashMap::default();
    let mut race_list: Vec<Race> = Vec::with_capacity(races.len());
    let mut family_members: FxHashMap<Family, Vec<usize>> = FxHashMap::default();
    for (key, (mut reaches, family)) in races {
        if let Some(family) = family {
            family_members.entry(family).or_default().push(race_list.len());
        }
        race_of.extend(reaches.iter().map(|r| ((r.1, r.2), race_list.len())));
        reaches.sort_unstable();
        let mut entry_points: Vec<usize> = reaches.iter().map(|r| r.3).collect();
        entry_points.sort_unstable();
        entry_points.dedup();
        let other_entry_points = entry_points.len() as u32 - 1;
        // Few entry points reach a race on the object's own fields: each reports it, and one
        // that finds its line taken is dropped there, as RacerD's de-duplication drops it
        // (`direct`: the race is handed to no other entry point).
        if key.own_fields && entry_points.len() < FOLDED_ENTRY_POINTS {
            for &(_, class, candidate, _) in &reaches {
                chosen.insert((class, candidate), race_list.len());
            }
            let next = reaches.len();
            race_list.push(Race { reaches, next, current: None, direct: true, other_entry_points: 0 });
            continue;
        }
        // The method where the race ends reports it directly when it is an entry point: each
        // of its direct accesses there (a read and a write are RacerD's two reports) is
        // chosen, and the race is never handed to a caller.
        let direct = reaches.iter().take_while(|r| r.0 .0 == 0).count();
        for &(_, class, candidate, _) in &reaches[..direct.max(1)] {
            chosen.insert((class, candidate), race_list.len());
        }
        let (_, class, candidate, _) = reaches[0];
        let next = if direct > 0 { reaches.len() } else { 1 };
        race_list.push(Race { reaches, next, current: Some((class, candidate)), direct: direct > 0, other_entry_points });
    }
    let mut families: Vec<FamilyState> =
        family_members.into_values().filter_map(|members| FamilyState::report_from_one_class(&mut race_list, &mut chosen, members)).collect();
    // Each round selects again in the classes whose decisions changed. A chosen candidate
    // that loses its line passes the race to a later candidate of its class, or else to the
    // next entry point whose line was free in its class's last selection. Candidates move
    // forward in their class and in the race's order only, so this ends.
    phase(start, "  reporting: first pass");
    let mut selections: FxHashMap<usize, Selection> = FxHashMap::default();
    let mut pending: BTreeSet<usize> = pending_state.keys().copied().collect();
    let mut rounds = 0;
    while !pending.is_empty() {
        rounds += 1;
        let classes: Vec<usize> = std::mem::take(&mut pending).into_iter().collect();
        let results: Vec<Selection> = classes
            .par_iter()
            .map(|&class| {
                let decide = |candidate: usize| match race_of.get(&(class, candidate)) {
                    Some(&race) => Decision {
                        race,
                        chosen: chosen.contains_key(&(class, candidate)),
                        others: race_list[race].other_entry_points,
                        direct: race_list[race].direct,
                    },
                    None => Decision::UNDECIDED,
                };
                reports.select(&pending_state[&class], &decide)
            })
            .collect();
        for (&class, selection) in classes.iter().zip(results) {
            selections.insert(class, selection);
        }
        for &class in &classes {
            let selection = &selections[&class];
            for &(candidate, race) in &selection.took_over {
                let r = &mut race_list[race];
                if let Some(old) = r.current.replace((class, candidate)) {
                    chosen.remove(&old);
                }
                chosen.insert((class, candidate), race);
            }
            for &race in &selection.orphaned {
                let r = &mut race_list[race];
                if r.direct {
                    continue;
                }
                if let Some(old) = r.current.take() {
                    chosen.remove(&old);
                }
                let blocked = |&(_, c, candidate, _): &Reach| {
                    selections.get(&c).is_some_and(|s| s.lost.binary_search(&candidate).is_ok())
                };
                while r.reaches.get(r.next).is_some_and(blocked) {
                    r.next += 1;
                }
                if let Some(&(_, next_class, next_candidate, _)) = r.reaches.get(r.next) {
                    r.next += 1;
                    r.current = Some((next_class, next_candidate));
                    chosen.insert((next_class, next_candidate), race);
                    pending.insert(next_class);
                }
            }
        }
        for family in &mut families {
            pending.extend(family.revive_if_unreported(&mut race_list, &mut chosen));
        }
    }
    phase(start, &format!("  reporting: entry points chosen ({} races, {rounds} rounds)", race_list.len()));
    let built: Vec<(usize, Vec<Issue>)> =
        selections.par_iter().map(|(&class, selection)| (class, reports.issues(&pending_state[&class], selection))).collect();
    for (class, class_issues) in built {
        issues[class] = class_issues;
    }
    issues.into_iter().flatten().collect()
}

/// The sentence a chosen report adds for the other entry points of its race.
/// The sentence naming the other locations a call raced on reaches, which its line's one
/// report stands for (`this.b`, `this.list`): the first few, then how many more.
pub(super) fn same_call_sentence(paths: &[String]) -> String {
    const NAMED: usize = 5;
    let named: Vec<String> = paths.iter().take(NAMED).map(|p| format!("`{p}`")).collect();
    let list = match (named.split_last(), paths.len().saturating_sub(NAMED)) {
        (Some((last, [])), 0) => last.clone(),
        (Some((last, rest)), 0) => format!("{} and {last}", rest.join(", ")),
        (_, more) => format!("{} and {more} more location{}", named.join(", "), if more == 1 { "" } else { "s" }),
    };
    format!(" The same call also races on {list}.")
}

pub(super) fn other_entry_points_sentence(n: u32) -> String {
    format!(" The same race is also reached from {n} other entry point{}.", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_call_names_a_few_other_locations_then_counts_the_rest() {
        let paths = |n: usize| (0..n).map(|i| format!("this.f{i}")).collect::<Vec<_>>();
        assert_eq!(super::same_call_sentence(&paths(1)), " The same call also races on `this.f0`.");
        assert_eq!(super::same_call_sentence(&paths(2)), " The same call also races on `this.f0` and `this.f1`.");
        assert_eq!(
            super::same_call_sentence(&paths(5)),
            " The same call also races on `this.f0`, `this.f1`, `this.f2`, `this.f3` and `this.f4`."
        );
        assert_eq!(
            super::same_call_sentence(&paths(7)),
            " The same call also races on `this.f0`, `this.f1`, `this.f2`, `this.f3`, `this.f4` and 2 more locations."
        );
    }
}
