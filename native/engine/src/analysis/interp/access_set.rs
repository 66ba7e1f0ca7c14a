//! The access snapshots a method records, each with its preferred site. Each entry keeps
//! its key's hash: large summaries add thousands of keys, and the hash of a key (its whole
//! access path) is then computed once, not again when the table grows nor when the key
//! is shared at the end. A callee's key applied unchanged at a call (most are: the same
//! field, thread and lock) is kept as the callee's shared key, with the hash it already has.


use hashbrown::HashTable;

use super::super::domain::{key_hash, Access, AccessKey, KeyRef, Site};
use super::super::shared_keys::SharedKeys;

/// A key to look up or add.
pub(super) enum NewKey {
    /// A key made in this method, with its hash.
    Made { hash: u64, key: AccessKey },
    /// A callee's shared key, unchanged.
    Shared(KeyRef),
}

impl NewKey {
    pub(super) fn made(key: AccessKey) -> NewKey {
        NewKey::Made { hash: key_hash(&key), key }
    }

    fn hash(&self) -> u64 {
        match self {
            NewKey::Made { hash, .. } => *hash,
            NewKey::Shared(k) => k.hash(),
        }
    }

    fn key(&self) -> &AccessKey {
        match self {
            NewKey::Made { key, .. } => key,
            NewKey::Shared(k) => k,
        }
    }

    /// The shared key when this one has the same content as `shared`.
    pub(super) fn or_shared(self, shared: &KeyRef) -> NewKey {
        match self {
            NewKey::Made { hash, key } if hash == shared.hash() && key == ***shared => NewKey::Shared(shared.clone()),
            other => other,
        }
    }

    /// Whether two keys of equal hashes are the same key (by address first: a callee's keys
    /// meet each other).
    fn same(&self, other: &NewKey) -> bool {
        match (self, other) {
            (NewKey::Shared(a), NewKey::Shared(b)) if KeyRef::ptr_eq(a, b) => true,
            _ => self.key() == other.key(),
        }
    }
}

/// The key's hash is kept beside it: a callee's shared key keeps its own behind a pointer,
/// which probing and growing the table would otherwise read, a cache miss each.
struct Entry {
    hash: u64,
    key: NewKey,
    site: Site,
}

#[derive(Default)]
pub(super) struct AccessSet {
    table: HashTable<Entry>,
}

impl AccessSet {
    /// The site kept for `key`, if any.
    pub(super) fn site_mut(&mut self, key: &NewKey) -> Option<&mut Site> {
        let hash = key.hash();
        self.table.find_mut(hash, |e| e.hash == hash && e.key.same(key)).map(|e| &mut e.site)
    }

    /// Makes room for `more` keys: a large callee summary then grows the table once, not
    /// by doubling after doubling (each moving every entry).
    pub(super) fn reserve(&mut self, more: usize) {
        self.table.reserve(more, |e| e.hash);
    }

    /// Adds a key not in the set.
    pub(super) fn insert(&mut self, key: NewKey, site: Site) {
        let hash = key.hash();
        self.table.insert_unique(hash, Entry { hash, key, site }, |e| e.hash);
    }

    /// Replaces the keys `f` gives a new key for, keeping the preferred site of keys that
    /// become one.
    pub(super) fn rewrite(&mut self, f: impl Fn(&AccessKey) -> Option<NewKey>) {
        let mut changed = Vec::new();
        self.table.retain(|e| match f(e.key.key()) {
            Some(key) => {
                changed.push((key, e.site.clone()));
                false
            }
            None => true,
        });
        for (key, site) in changed {
            match self.site_mut(&key) {
                Some(existing) => {
                    let old = std::mem::replace(existing, site.clone());
                    *existing = Site::preferred(old, site);
                }
                None => self.insert(key, site),
            }
        }
    }

    /// The accesses, in no particular order, with keys shared through `keys`.
    pub(super) fn into_accesses(self, keys: &SharedKeys) -> Vec<Access> {
        self.table
            .into_iter()
            .map(|e| {
                let key = match e.key {
                    NewKey::Made { hash, key } => keys.share_hashed(hash, key),
                    NewKey::Shared(k) => k,
                };
                Access { key, site: e.site }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::domain::{AccessKind, Base, Own, Path, Threads, Trace};
    use crate::sym::Sym;

    fn key(field: &str) -> AccessKey {
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new(field)).unwrap();
        AccessKey { kind: AccessKind::Write(path), thread: Threads::AnyThread, lock: false, lock_on: None, own_pre: Own::Unowned, handed: false, started: false, once: false, joined: None, during: false }
    }

    fn site(line: u32) -> Site {
        Site { line, trace: Trace::empty() }
    }

    #[test]
    fn a_callee_key_is_kept_as_shared_and_a_made_key_is_shared_at_the_end() {
        let keys = SharedKeys::default();
        let callee_f = keys.share(key("f"));
        let mut set = AccessSet::default();
        set.insert(NewKey::Shared(callee_f.clone()), site(1));
        // The same key made here finds the callee's entry.
        assert_eq!(set.site_mut(&NewKey::made(key("f"))).map(|s| s.line), Some(1));
        // A made key equal to the callee's is stored as the callee's.
        assert!(matches!(NewKey::made(key("f")).or_shared(&callee_f), NewKey::Shared(k) if KeyRef::ptr_eq(&k, &callee_f)));
        set.insert(NewKey::made(key("g")), site(2));
        let accesses = set.into_accesses(&keys);
        let of = |name: &str| accesses.iter().find(|a| **a.key == key(name)).unwrap().key.clone();
        assert!(KeyRef::ptr_eq(&of("f"), &callee_f), "the callee's key is not copied");
        assert!(KeyRef::ptr_eq(&of("g"), &keys.share(key("g"))), "a key made here is shared with the run");
    }
}
