//! Collection models: the synchronized views (`Collections.synchronizedMap(m)` and its kin).
//! Each call of a view takes the view's own lock, so its calls do not race with each other
//! (6.6); an iteration is many calls, and the view's documentation asks its callers to hold
//! the view's lock for all of it. An iteration without that lock races with its writes.

use super::super::domain::*;
use super::super::models;
use super::super::pool::Entry;
use super::selection::WriteClass;
use super::{locks_exclude, ClassReporter, Proposals};
use crate::issue::IssueKind;

impl<'a> ClassReporter<'a> {
    /// Whether a group of container accesses ends at a field only ever given a synchronized view.
    pub(super) fn is_synchronized_view_group(&self, steps: &[Step]) -> bool {
        if !self.cfg.extensions.collection_models {
            return false;
        }
        match steps.last() {
            Some(&Step::Field { class, name }) => {
                self.analysis.synchronized_views.contains(&(self.cfg.table.resolve_field(class, name), name))
            }
            _ => false,
        }
    }

    /// Whether `e` iterates a synchronized view (its group is one).
    pub(super) fn iterates_view(&self, e: &Entry<'a>) -> bool {
        match &e.access.key.kind {
            AccessKind::ContainerRead(path, m) => models::iterates_outside_its_lock(m) && self.is_synchronized_view_group(&path.steps),
            _ => false,
        }
    }

    /// In a synchronized view's group: each iteration made without the view's lock races with
    /// the view's writes (each made under that lock).
    pub(super) fn view_iteration_rule(&self, entries: &[Entry<'a>], out: &mut Proposals<'a>) {
        let writes: Vec<&Entry<'a>> = entries.iter().filter(|c| c.is_write()).collect();
        for e in entries.iter().filter(|e| e.inherited.is_none()) {
            let AccessKind::ContainerRead(path, m) = &e.access.key.kind else { continue };
            if !models::iterates_outside_its_lock(m) || holds_lock_of(e, path) || e.access.key.own_pre.is_owned() {
                continue;
            }
            if out.settled(e.method, false) {
                continue;
            }
            // A lock both hold besides the view's keeps them apart all the same.
            let different_locks = self.cfg.extensions.different_locks;
            let conflict = writes.iter().copied().find(|c| {
                (e.t.is_any() || c.t.is_any())
                    && !self.made_in_order(e, c)
                    && !locks_exclude(e, c, different_locks)
                    && e.access.key.thread.can_conflict(c.access.key.thread)
            });
            if let Some(c) = conflict {
                self.propose(out, IssueKind::ThreadSafetyViolation, e, Some(c), WriteClass::Read);
            }
        }
    }
}

/// Whether `e` is made holding the lock of the object at `path`; a lock of unknown identity
/// is taken for it.
fn holds_lock_of(e: &Entry<'_>, path: &Path) -> bool {
    e.access.key.lock && e.access.key.lock_on.map_or(true, |held| held.path() == path)
}
