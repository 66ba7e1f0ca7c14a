//! Families of races: one top-level class's own race (its access, and its conflicting access
//! if any, end in its code) reached on the objects of several reporting classes of one
//! package, each on its own (every class that runs a `HandlerThread` reaches
//! `HandlerThread.getLooper`'s race on its thread). Each reporting class's reach is a race of
//! its own (another object), but the code to fix is one: the family is reported by the class
//! of its best entry point only, each of that class's races once, counting the entry points
//! of the others. A class's races on two of its own objects stay two reports.
//!
//! When none of the kept races finds a line to be reported at, the others are reported as
//! they would be without the family, so that no race goes unreported.

use std::collections::BTreeSet;

use crate::classfile::model::MethodRef;
use crate::fxhash::FxHashMap;
use crate::issue::IssueKind;

use super::super::domain::Step;
use super::Race;

/// The kind of report, the innermost method and the field a family's races end at, and the
/// package of its reporting classes.
pub(in crate::analysis) type Family = (IssueKind, MethodRef, Step, &'static str);

/// A family reported by one class: its races (indices in the race list).
pub(super) struct FamilyState {
    kept: Vec<usize>,
    held_back: Vec<usize>,
}

impl FamilyState {
    /// Keeps the races of the class of the family's best entry point and holds back the
    /// others; `None` for a family of one class, or of a race reported where it ends.
    pub(super) fn report_from_one_class(race_list: &mut [Race], chosen: &mut FxHashMap<(usize, usize), usize>, members: Vec<usize>) -> Option<FamilyState> {
        let owner = |r: &Race| r.reaches[0].1;
        if members.iter().any(|&m| race_list[m].direct) {
            return None;
        }
        let best = *members.iter().min_by_key(|&&m| (race_list[m].reaches[0], m))?;
        let class = owner(&race_list[best]);
        let (kept, held): (Vec<usize>, Vec<usize>) = members.iter().partition(|&&m| owner(&race_list[m]) == class);
        if held.is_empty() {
            return None;
        }
        let held_entry_points = entry_points(race_list, &held);
        for &m in &held {
            if let Some(old) = race_list[m].current.take() {
                chosen.remove(&old);
            }
        }
        // A kept race counts the held-back races' entry points as its own other ones.
        for &m in &kept {
            let own = entry_points(race_list, &[m]);
            race_list[m].other_entry_points += held_entry_points.difference(&own).count() as u32;
        }
        Some(FamilyState { kept, held_back: held })
    }

    /// When every kept race has lost its report, the held-back races are chosen as without
    /// the family: the classes to select again.
    pub(super) fn revive_if_unreported(&mut self, race_list: &mut [Race], chosen: &mut FxHashMap<(usize, usize), usize>) -> Vec<usize> {
        if self.held_back.is_empty() || self.kept.iter().any(|&m| race_list[m].current.is_some()) {
            return Vec::new();
        }
        let mut classes = Vec::new();
        for m in std::mem::take(&mut self.held_back) {
            let r = &mut race_list[m];
            let (_, class, candidate, _) = r.reaches[0];
            r.current = Some((class, candidate));
            r.next = 1;
            chosen.insert((class, candidate), m);
            classes.push(class);
        }
        classes
    }
}

/// The entry points that reach `races`.
fn entry_points(race_list: &[Race], races: &[usize]) -> BTreeSet<usize> {
    races.iter().flat_map(|&m| race_list[m].reaches.iter().map(|r| r.3)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    /// A race reached once, from `class`'s candidate 0 through entry point `entry`, at a trace
    /// of `length` calls.
    fn race(length: usize, class: usize, entry: usize) -> Race {
        let name = Sym::new("m");
        let rank = (length, Sym::new(&format!("C{class}")), 1, name, name);
        Race { reaches: vec![(rank, class, 0, entry)], next: 1, current: Some((class, 0)), direct: false, other_entry_points: 0 }
    }

    fn chosen_of(races: &[Race]) -> FxHashMap<(usize, usize), usize> {
        races.iter().enumerate().map(|(m, r)| (r.current.unwrap(), m)).collect()
    }

    #[test]
    fn the_class_of_the_best_entry_point_reports_its_races_counting_the_others() {
        // Class 0 reaches the race on two objects of its own; class 1 on one, with a longer trace.
        let mut races = vec![race(2, 0, 10), race(2, 0, 11), race(3, 1, 20)];
        let mut chosen = chosen_of(&races);
        let family = FamilyState::report_from_one_class(&mut races, &mut chosen, vec![0, 1, 2]).unwrap();
        assert_eq!((family.kept.as_slice(), family.held_back.as_slice()), (&[0, 1][..], &[2][..]));
        assert_eq!(races[2].current, None);
        assert!(!chosen.contains_key(&(1, 0)));
        assert_eq!((races[0].other_entry_points, races[1].other_entry_points), (1, 1));
        // A family of one class is no family.
        let mut alone = vec![race(2, 0, 10), race(2, 0, 11)];
        let mut chosen = chosen_of(&alone);
        assert!(FamilyState::report_from_one_class(&mut alone, &mut chosen, vec![0, 1]).is_none());
    }

    #[test]
    fn the_others_are_reported_once_the_kept_races_lost_every_line() {
        let mut races = vec![race(2, 0, 10), race(3, 1, 20)];
        let mut chosen = chosen_of(&races);
        let mut family = FamilyState::report_from_one_class(&mut races, &mut chosen, vec![0, 1]).unwrap();
        assert!(family.revive_if_unreported(&mut races, &mut chosen).is_empty(), "the kept race is still reported");
        races[0].current = None;
        chosen.remove(&(0, 0));
        assert_eq!(family.revive_if_unreported(&mut races, &mut chosen), vec![1]);
        assert_eq!((races[1].current, chosen.get(&(1, 0))), (Some((1, 0)), Some(&1)));
        assert!(family.revive_if_unreported(&mut races, &mut chosen).is_empty(), "revived once");
    }
}
