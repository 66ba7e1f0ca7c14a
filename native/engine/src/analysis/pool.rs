//! A class's pool (8.2): the snapshots of its reportable methods, split into groups by the
//! location they access (8.6), which the rules of [`super::races`] visit in key order.


use crate::classfile::model::MethodRef;
use crate::fxhash::FxHashMap;
use crate::sym::Sym;

use super::domain::*;

/// One pooled entry: a snapshot of a reportable method.
#[derive(Clone, Copy)]
pub(super) struct Entry<'a> {
    pub(super) access: &'a Access,
    /// The method's index in the analysis (`usize::MAX` for an inherited method).
    pub(super) method: usize,
    /// `T(m)`: the method's summary thread value; for handed code, the thread it is handed to.
    pub(super) t: Threads,
    /// A method inherited from a superclass (extensions `inherited_accesses`,
    /// `thread_safe_inherited`): its entries
    /// are conflicts and concurrency evidence only, reported in their own class.
    pub(super) inherited: Option<&'a MethodRef>,
    /// The method's place in processing order (8.6): the class's reportable methods in
    /// declaration order, then the inherited ones.
    pub(super) rank: u32,
}

impl Entry<'_> {
    pub(super) fn unprotected(&self) -> bool {
        self.access.key.thread != Threads::AnyThreadButSelf && !self.access.key.lock && !self.access.key.own_pre.is_owned()
    }
    pub(super) fn is_write(&self) -> bool {
        self.access.key.kind.is_write()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum BaseKey {
    This,
    Static(Sym),
    NativeResult(Sym),
    Param(usize, u16),
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum GroupKey {
    Location(BaseKey, Steps),
    Container(BaseKey, Steps),
    Call(MethodRef),
}

fn base_key(base: Base, method: usize) -> BaseKey {
    match base {
        Base::This => BaseKey::This,
        Base::Static(c) => BaseKey::Static(c),
        Base::NativeResult(m) => BaseKey::NativeResult(m),
        Base::Param(i) => BaseKey::Param(method, i),
        _ => BaseKey::Other,
    }
}

fn group_key(a: &Access, method: usize) -> GroupKey {
    let p = a.key.kind.path();
    match &a.key.kind {
        AccessKind::Read(_) | AccessKind::Write(_) => GroupKey::Location(base_key(p.base, method), p.steps.clone()),
        AccessKind::ContainerRead(..) | AccessKind::ContainerWrite(..) => {
            GroupKey::Container(base_key(p.base, method), p.steps.clone())
        }
        AccessKind::InterfaceCall(_, callee) => GroupKey::Call(**callee),
    }
}

/// A class's pool split into groups by location (8.6), visited in key order.
#[derive(Default)]
pub(super) struct Grouper<'a> {
    keys: Vec<GroupKey>,
    by_group: FxHashMap<GroupKey, u32>,
    /// What is known of an access key already met, by the key's address: callers carry their
    /// callees' shared keys, so most entries are placed without reading their key at all.
    by_key: FxHashMap<usize, KeyInfo>,
    /// The group of a key on a formal, by the key's address and the method: the same formal
    /// of two methods is two locations.
    by_formal: FxHashMap<(usize, usize), u32>,
    /// The entries with their groups, in the order pushed; split into groups at the end,
    /// when the sizes are known.
    pending: Vec<(u32, Entry<'a>)>,
}

/// An access key met before: its group (none for a key on a formal, see
/// [`Grouper::by_formal`]) and, for an access of handed code, the thread it is handed to
/// (unless its method joins that thread).
#[derive(Clone, Copy)]
struct KeyInfo {
    group: Option<u32>,
    handed_thread: Option<Threads>,
}

pub(super) struct Group<'a> {
    pub(super) key: GroupKey,
    pub(super) entries: Vec<Entry<'a>>,
    /// Whether an entry runs on any thread: without one, only the @GuardedBy check (before
    /// the gate, 8.5) can report in the group.
    pub(super) any_thread: bool,
}

impl<'a> Grouper<'a> {
    /// A grouper for `entries` entries: its tables are sized once, not grown step by step
    /// (each step moving every entry).
    pub(super) fn with_capacity(entries: usize) -> Grouper<'a> {
        Grouper {
            by_key: FxHashMap::with_capacity_and_hasher(entries, Default::default()),
            pending: Vec::with_capacity(entries),
            ..Grouper::default()
        }
    }

    /// Pools an access of method `method` (rank `rank`) of the class, whose summary runs on
    /// `threads`.
    pub(super) fn push_own(&mut self, a: &'a Access, method: usize, rank: u32, threads: Threads) {
        let (g, handed_thread) = self.key_info(a, method);
        let t = handed_thread.unwrap_or(threads);
        self.pending.push((g, Entry { access: a, method, t, inherited: None, rank }));
    }

    /// Pools an access of inherited method `inherited`, whose summary runs on `threads`.
    pub(super) fn push_inherited(&mut self, a: &'a Access, inherited: &'a MethodRef, rank: u32, threads: Threads) {
        let (g, _) = self.key_info(a, usize::MAX);
        self.pending.push((g, Entry { access: a, method: usize::MAX, t: threads, inherited: Some(inherited), rank }));
    }

    /// The group of access `a` of `method`, and the thread its code is handed to if it is
    /// handed code's.
    fn key_info(&mut self, a: &Access, method: usize) -> (u32, Option<Threads>) {
        let address = KeyRef::as_ptr(&a.key) as usize;
        let info = match self.by_key.get(&address) {
            Some(info) => *info,
            None => {
                let on_formal = matches!(a.key.kind.path().base, Base::Param(_));
                // A thread its method joins runs within the method's call, on its thread.
                let handed_thread = (a.key.handed && a.key.joined.is_none()).then_some(a.key.thread);
                let group = (!on_formal).then(|| self.group_of(a, method));
                let info = KeyInfo { group, handed_thread };
                self.by_key.insert(address, info);
                info
            }
        };
        let g = match info.group {
            Some(g) => g,
            None => match self.by_formal.get(&(address, method)) {
                Some(&g) => g,
                None => {
                    let g = self.group_of(a, method);
                    self.by_formal.insert((address, method), g);
                    g
                }
            },
        };
        (g, info.handed_thread)
    }

    fn group_of(&mut self, a: &Access, method: usize) -> u32 {
        let key = group_key(a, method);
        match self.by_group.get(&key) {
            Some(&g) => g,
            None => {
                self.keys.push(key.clone());
                self.by_group.insert(key, self.keys.len() as u32 - 1);
                self.keys.len() as u32 - 1
            }
        }
    }

    /// The groups that can report, in key order, each in processing order: by method (the
    /// entries were pushed in rank order), then line, then key (8.6). A summary holds a key
    /// once, so the order is total; only the runs of one method need sorting, and most are
    /// one entry long. Without `@GuardedBy` fields in the class, a group with no entry on
    /// any thread reports nothing and is left out.
    pub(super) fn into_sorted(self, guarded_fields: bool) -> Vec<Group<'a>> {
        let kept = |any_thread: bool| any_thread || guarded_fields;
        let mut sizes = vec![0usize; self.keys.len()];
        let mut any_thread = vec![false; self.keys.len()];
        for (g, e) in &self.pending {
            sizes[*g as usize] += 1;
            // Threads a method joins run at once with each other, whatever the method's thread.
            any_thread[*g as usize] |= e.t.is_any() || (e.access.key.joined.is_some() && e.inherited.is_none());
        }
        let mut groups: Vec<Group<'a>> = self
            .keys
            .into_iter()
            .zip(sizes)
            .zip(any_thread)
            .map(|((key, size), any_thread)| {
                Group { key, entries: Vec::with_capacity(if kept(any_thread) { size } else { 0 }), any_thread }
            })
            .collect();
        for (g, e) in self.pending {
            let group = &mut groups[g as usize];
            if kept(group.any_thread) {
                group.entries.push(e);
            }
        }
        groups.retain(|g| kept(g.any_thread));
        for group in &mut groups {
            for run in group.entries.chunk_by_mut(|a, b| a.rank == b.rank) {
                if run.len() > 1 {
                    run.sort_unstable_by(|a, b| {
                        let (x, y) = (&a.access, &b.access);
                        (x.site.outer_line(), x.site.line).cmp(&(y.site.outer_line(), y.site.line)).then_with(|| x.key.cmp(&y.key))
                    });
                }
            }
        }
        groups.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        groups
    }
}
