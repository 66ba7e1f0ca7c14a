//! Recording accesses (5.1) and assignment (5.2).

use crate::issue::top_level_class;
use crate::sym::Sym;

use super::super::domain::*;
use super::super::facts;
use super::locks::protects;
use super::ownership::{escape_value, escaped_bound, holder_own, own, own_e, Holders};
use super::state::*;
use super::access_set::NewKey;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    pub(super) fn record(&mut self, kind: AccessKind, st: &State, own_pre: Own, trace: Trace, line: u32) {
        self.record_held(kind, st, own_pre, trace, line, false);
    }

    /// [`Interp::record`], for an access made under a lock the callee takes itself when
    /// `callee_locks` (a collection that locks itself): protected whatever the caller holds.
    pub(super) fn record_held(&mut self, kind: AccessKind, st: &State, own_pre: Own, trace: Trace, line: u32, callee_locks: bool) {
        let path = kind.path();
        if !self.recording || !path.base.is_reportable() || own_pre.is_owned() || has_switch_map(path) || is_native_array_element(path) {
            return;
        }
        // A read-mode lock excludes writers only: it protects reads, not writes.
        let held = protects(st, path) || (st.read_locks > 0 && !kind.is_write());
        self.note_own_monitor_static(st, path, held);
        let lock = held || callee_locks;
        let lock_on = if held { st.lock_on } else { None };
        // A thread's own `run()` on its object's own fields: that thread's, one per object.
        let started = self.is_thread_own(path);
        let thread = if started { Threads::AnyThread } else { st.threads };
        let during = st.running.any();
        let key = NewKey::made(AccessKey { kind, thread, lock, lock_on, own_pre, handed: started, started, once: false, joined: None, during });
        let site = Site { line, trace };
        match self.accesses.site_mut(&key) {
            Some(existing) => {
                let old = std::mem::replace(existing, site.clone());
                *existing = Site::preferred(old, site);
            }
            None => self.accesses.insert(key, site),
        }
    }

    /// The accesses whose paths go through a helper's field back to its holder, named from the
    /// holder (see `back_references`): once the method is seen, so that its callers and the
    /// reporting meet them at the holder's own paths.
    pub(super) fn shorten_back_references(&mut self) {
        let back = &self.env.facts.back_references;
        if back.is_empty() {
            return;
        }
        let (table, class) = (self.env.table, self.input.mref.class);
        self.accesses.rewrite(|key| {
            let shorter = back.shortened(table, class, key.kind.path())?;
            Some(NewKey::made(AccessKey { kind: key.kind.with_path(shorter), ..key.clone() }))
        });
    }

    pub(super) fn record_path(&mut self, st: &State, p: &Path, is_write: bool) {
        self.record_path_beyond(st, p, is_write, 0);
    }

    /// Records the accesses of `p` past its first `read` steps, whose reads were recorded
    /// when the object they lead to was read (a snapshot: see [`Compound::snapshot`]).
    pub(super) fn record_path_beyond(&mut self, st: &State, p: &Path, is_write: bool, read: usize) {
        if !self.recording || !p.base.is_reportable() {
            return;
        }
        for k in read + 1..=p.steps.len() {
            if let Step::Field { class, name } = p.steps[k - 1] {
                if self.is_safe_step(class, name) {
                    continue;
                }
                if name.as_str() == "$assertionsDisabled" {
                    continue;
                }
                // Set once, before any other thread sees the class: no write to race with.
                let read = !(is_write && k == p.steps.len());
                if read && k == 1 && matches!(p.base, Base::Static(_)) && self.env.facts.statics.init_only.contains(&(class, name)) {
                    continue;
                }
            }
            let prefix = p.prefix(k - 1);
            let access = p.prefix(k);
            let kind = if is_write && k == p.steps.len() { AccessKind::Write(access) } else { AccessKind::Read(access) };
            let own_pre = own(st, &prefix);
            let line = self.line;
            self.record(kind, st, own_pre, Trace::empty(), line);
        }
    }

    pub(super) fn read_expr(&mut self, st: &State, e: &Expr) {
        for p in e.paths() {
            self.record_path(st, p, false);
        }
    }

    pub(super) fn assign(&mut self, st: &mut State, lhs: &Path, rhs: &Expr, lhs_wide_type: bool) {
        self.assign_beyond(st, lhs, rhs, lhs_wide_type, 0);
    }

    /// [`Self::assign`] to a location reached through a snapshot of `lhs`'s first `read`
    /// steps: those are not read again.
    pub(super) fn assign_beyond(&mut self, st: &mut State, lhs: &Path, rhs: &Expr, lhs_wide_type: bool, read: usize) {
        self.read_expr(st, rhs);
        let rhs_paths = rhs.paths();
        let functional = !rhs_paths.is_empty()
            && rhs_paths.iter().all(|p| st.attrs.get(p) == Some(Attr::Functional))
            && !lhs_wide_type;
        if !functional {
            self.record_path_beyond(st, lhs, true, read);
        }
        if self.env.extensions.escape_ownership {
            self.escape_on_assign(st, lhs, rhs);
        }
        if !matches!(lhs.base, Base::Static(_)) {
            let o = own_e(st, rhs);
            st.own.set(lhs, Some(o));
        }
        let a = self.stored_attr(st, rhs);
        st.attrs.set(lhs, a);
    }

    /// The attribute a location (or a method's result) takes from the value stored into it.
    /// The reference takes a constant for a functional value: `int x = 5; this.f = x` is then
    /// not recorded while `this.f = 5` is. With `constant_values`, only a value computed from
    /// at least one path (a functional call's result) is functional.
    pub(super) fn stored_attr(&self, st: &State, value: &Expr) -> Option<Attr> {
        let a = attr_e(st, value);
        if self.env.extensions.constant_values && a == Some(Attr::Functional) && value.paths().is_empty() {
            return None;
        }
        a
    }

    /// Escape-ownership extension: `lhs` holds a new object, and a value stored into
    /// the heap escapes to the object that holds the location.
    fn escape_on_assign(&mut self, st: &mut State, lhs: &Path, rhs: &Expr) {
        let carried = match rhs {
            Expr::Path(p) => escaped_bound(st, p),
            _ => None,
        };
        st.escaped.remove_under(lhs);
        let heap = !lhs.steps.is_empty();
        if heap {
            // Stored into a fresh object of this method: it leaves with that object.
            if let Some(holder) = Holders::holder_of(&Path::of(lhs.base)) {
                st.holders.hold(holder, rhs);
            }
            let bound = holder_own(st, lhs);
            escape_value(st, rhs, bound);
        } else if let Some(local) = Holders::holder_of(lhs) {
            st.holders.assigned(local, rhs);
        }
        // The location now holds an escaped object: what is reached through it is too.
        if let Some(b) = carried.map(|c| if heap { c.join(holder_own(st, lhs)) } else { c }) {
            if !b.is_owned() {
                st.escaped.set(lhs, Some(b));
            }
        }
    }

    /// Whether `path`, accessed in a thread's own `run()`, is that thread's alone: a field of
    /// its object, or (`thread_kept_objects`) of an object one of its fields keeps, made for
    /// that field. Only fields of the method's own top-level class and the classes nested in it
    /// count: those are compiled together, so their stores are all in the module analysed,
    /// wherever the module boundaries are.
    #[inline]
    pub(super) fn is_thread_own(&self, path: &Path) -> bool {
        if !self.input.facts.runs_own_thread {
            return false;
        }
        let file = top_level_class(self.input.mref.class.as_str());
        let kept = |class: Sym, name: Sym| {
            self.env.extensions.thread_kept_objects
                && top_level_class(class.as_str()) == file
                && self.env.facts.fresh_fields.contains(&(class, name))
        };
        path.is_own_field_through(kept)
    }

    pub(super) fn is_safe_step(&self, class: Sym, name: Sym) -> bool {
        match self.env.facts.safe_steps.get(&(class, name)) {
            Some(safe) => *safe,
            None => facts::is_safe_field(self.env.table, class, name, self.env.extensions),
        }
    }
}

pub(super) fn has_switch_map(p: &Path) -> bool {
    p.steps.iter().any(|s| matches!(s, Step::Field { name, .. } if name.as_str().contains("$SwitchMap")))
}
