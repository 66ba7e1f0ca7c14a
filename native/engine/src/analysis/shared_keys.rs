//! One copy of each distinct access snapshot key per analysis run. Summaries repeat the same
//! keys many times over (a static field read reaches every caller up the call graph with the
//! same thread, lock and ownership), so sharing them keeps summaries of large code small: on
//! the Android framework, 18.8 million accesses have 1.6 million distinct keys.

use std::sync::Mutex;

use hashbrown::HashTable;

use super::domain::{key_hash, AccessKey, KeyRef, SharedKey};

const SHARDS: usize = 64;

/// Sharded so that the analysis threads rarely wait on each other. Each key keeps its hash,
/// so a key is hashed once when shared and never again; the tables keep it too, beside the
/// key, so that probing and growing them read no key: growing a shard of a large run
/// otherwise reads every key in it, a cache miss each, while the other threads wait for the
/// shard. Dropped with the run, so a long-lived process (a build daemon) keeps nothing.
pub struct SharedKeys {
    shards: Vec<Mutex<HashTable<(u64, KeyRef)>>>,
}

impl Default for SharedKeys {
    fn default() -> Self {
        SharedKeys { shards: (0..SHARDS).map(|_| Mutex::new(HashTable::new())).collect() }
    }
}

impl SharedKeys {
    /// The shared copy of `key`.
    pub fn share(&self, key: AccessKey) -> KeyRef {
        self.share_hashed(key_hash(&key), key)
    }

    /// The shared copy of `key`, whose [`key_hash`] is `hash`.
    pub fn share_hashed(&self, hash: u64, key: AccessKey) -> KeyRef {
        // Middle bits pick the shard: the table itself uses the low and the top ones.
        let mut table = self.shards[(hash >> 32) as usize % SHARDS].lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, shared)) = table.find(hash, |(h, k)| *h == hash && ***k == key) {
            return shared.clone();
        }
        let shared = KeyRef::new(SharedKey::with_hash(hash, key));
        table.insert_unique(hash, (hash, shared.clone()), |(h, _)| *h);
        shared
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::domain::{AccessKind, Base, Own, Path, Threads};
    use crate::sym::Sym;

    fn key(field: &str, lock: bool) -> AccessKey {
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new(field)).unwrap();
        AccessKey { kind: AccessKind::Write(path), thread: Threads::AnyThread, lock, lock_on: None, own_pre: Own::Unowned, handed: false, started: false, once: false, joined: None, during: false }
    }

    #[test]
    fn equal_keys_share_one_copy_and_different_ones_do_not() {
        let keys = SharedKeys::default();
        let a = keys.share(key("f", false));
        assert!(KeyRef::ptr_eq(&a, &keys.share(key("f", false))));
        assert!(!KeyRef::ptr_eq(&a, &keys.share(key("f", true))));
        assert!(!KeyRef::ptr_eq(&a, &keys.share(key("g", false))));
        assert_eq!(**a, key("f", false));
    }
}
