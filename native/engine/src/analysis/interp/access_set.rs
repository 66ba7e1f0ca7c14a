//! The access snapshots a method records, each with its preferred site. Each entry keeps
//! its key's hash: large summaries add thousands of keys, and the hash of a key (its whole
//! access path) is then computed once, not again when the table grows nor when the key
//! is shared at the end.

use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use super::super::domain::{Access, AccessKey, Site};
use super::super::shared_keys::SharedKeys;

struct Entry {
    hash: u64,
    key: AccessKey,
    site: Site,
    /// The shared copy of the key when it is a callee's key unchanged (most are: the same
    /// field, thread and lock), which then need not be looked up in the run's shared keys.
    shared: Option<Arc<AccessKey>>,
}

#[derive(Default)]
pub(super) struct AccessSet {
    table: HashTable<Entry>,
}

/// A key with its hash, computed once.
pub(super) struct Hashed {
    hash: u64,
    key: AccessKey,
}

impl Hashed {
    pub(super) fn new(key: AccessKey) -> Hashed {
        Hashed { hash: FxBuildHasher.hash_one(&key), key }
    }

    pub(super) fn key(&self) -> &AccessKey {
        &self.key
    }
}

impl AccessSet {
    /// The site kept for `key`, if any.
    pub(super) fn site_mut(&mut self, key: &Hashed) -> Option<&mut Site> {
        self.table.find_mut(key.hash, |e| e.hash == key.hash && e.key == key.key).map(|e| &mut e.site)
    }

    /// Adds a key not in the set.
    pub(super) fn insert(&mut self, key: Hashed, site: Site, shared: Option<Arc<AccessKey>>) {
        self.table.insert_unique(key.hash, Entry { hash: key.hash, key: key.key, site, shared }, |e| e.hash);
    }

    /// The accesses, in no particular order, with keys shared through `keys`.
    pub(super) fn into_accesses(self, keys: &SharedKeys) -> Vec<Access> {
        self.table
            .into_iter()
            .map(|e| Access { key: e.shared.unwrap_or_else(|| keys.share_hashed(e.hash, e.key)), site: e.site })
            .collect()
    }
}
