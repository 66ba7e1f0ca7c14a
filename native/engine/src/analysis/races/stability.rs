//! The high-confidence mode (spec 11.1 and 11.3, RacerDX's stability): an access through a
//! field that its method assigns (itself or in a callee) may reach different objects at
//! different times, so two accesses of the same path need not touch the same memory. Such
//! accesses take no part in reporting. As the RacerDX authors suggest, `this` is never
//! unstable (it cannot be reassigned), nor are static roots, and only assignments destabilise
//! (a field read and stored elsewhere does not).

use crate::fxhash::FxHashSet;

use super::super::domain::*;

/// The paths a method assigns, by which its accesses through them are unstable.
pub(super) struct Assigned<'a>(FxHashSet<(Base, &'a [Step])>);

impl<'a> Assigned<'a> {
    pub(super) fn of(summary: &'a Summary) -> Assigned<'a> {
        Assigned(
            summary
                .accesses
                .iter()
                .filter_map(|a| match &a.key.kind {
                    AccessKind::Write(p) if p.base.formal_index().is_some() => Some((p.base, &p.steps[..])),
                    _ => None,
                })
                .collect(),
        )
    }

    /// Whether `path` goes through a field the method assigns (a proper prefix of it).
    pub(super) fn unstable(&self, path: &Path) -> bool {
        !self.0.is_empty() && (1..path.steps.len()).any(|k| self.0.contains(&(path.base, &path.steps[..k])))
    }
}
