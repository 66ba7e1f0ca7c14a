//! Interned strings: class, field and method names are compared by pointer, hashed by
//! a hash of their content computed once, and ordered by content. Hash-map iteration and
//! the fast order of [`Sym::fast_cmp`] therefore never depend on interning order, which
//! varies with thread timing and with other analyses running in the same process.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use once_cell::sync::Lazy;

use hashbrown::HashTable;

use crate::fxhash::FxHasher;
use crate::recent::Recent;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

const SHARDS: usize = 32;

// Each shard finds a name by the content hash the symbol keeps, so a name is hashed once.
static INTERNER: Lazy<Vec<Mutex<HashTable<&'static Interned>>>> =
    Lazy::new(|| (0..SHARDS).map(|_| Mutex::new(HashTable::new())).collect());

// The symbols this thread made last (see `crate::recent`).
thread_local! {
    static RECENT: Recent<Sym> = const { Recent::new() };
}

/// An interned string. Equality is by address, hashing by content hash, ordering by
/// content. A thin pointer (to a leaked [`Interned`]), so references built from symbols
/// stay small.
#[derive(Clone, Copy)]
pub struct Sym(&'static Interned);

struct Interned {
    hash: u64,
    text: Box<str>,
}

impl Sym {
    pub fn new(text: &str) -> Sym {
        let mut hasher = FxHasher::default();
        text.hash(&mut hasher);
        let hash = hasher.finish();
        if let Some(sym) = RECENT.with(|r| r.find(hash, |s| s.0.hash == hash && &*s.0.text == text)) {
            return sym;
        }
        let sym = Sym::interned(hash, text);
        RECENT.with(|r| r.remember(hash, sym));
        sym
    }

    fn interned(hash: u64, text: &str) -> Sym {
        // Middle bits pick the shard: the table itself uses the low and the top ones.
        let shard = &INTERNER[(hash >> 32) as usize % SHARDS];
        let mut set = shard.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(existing) = set.find(hash, |i| i.hash == hash && &*i.text == text) {
            return Sym(existing);
        }
        // Names live for the process: the set of distinct names is bounded by the code seen.
        let leaked: &'static Interned = Box::leak(Box::new(Interned { hash, text: text.into() }));
        set.insert_unique(hash, leaked, |i| i.hash);
        Sym(leaked)
    }

    /// The symbol's identity as a number (one per content, see [`Sym::new`]), for lookups
    /// that need not read the symbol. It changes from run to run: never an order.
    pub fn address(self) -> usize {
        self.0 as *const Interned as usize
    }

    pub fn as_str(self) -> &'static str {
        &self.0.text
    }

    /// A total order as cheap as comparing addresses, the same in every run: by content
    /// hash, then (on a collision) by content. Not alphabetical.
    pub fn fast_cmp(self, other: Sym) -> std::cmp::Ordering {
        if self == other {
            std::cmp::Ordering::Equal
        } else {
            self.0.hash.cmp(&other.0.hash).then_with(|| self.as_str().cmp(other.as_str()))
        }
    }
}

impl PartialEq for Sym {
    fn eq(&self, other: &Sym) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Sym {}

impl Hash for Sym {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash)
    }
}

impl PartialOrd for Sym {
    fn partial_cmp(&self, other: &Sym) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Sym {
    fn cmp(&self, other: &Sym) -> std::cmp::Ordering {
        if self == other {
            std::cmp::Ordering::Equal
        } else {
            self.as_str().cmp(other.as_str())
        }
    }
}

impl fmt::Debug for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Sym {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
impl<'de> Deserialize<'de> for Sym {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sym, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        Ok(Sym::new(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More names than a thread's cache has slots, interned again in the other order and on
    /// another thread: each name keeps one symbol, whatever the caches hold.
    #[test]
    fn a_name_has_one_symbol_whatever_the_thread_caches_hold() {
        let names: Vec<String> = (0..3 * crate::recent::SLOTS).map(|i| format!("p.Cached{i}")).collect();
        let first: Vec<Sym> = names.iter().map(|n| Sym::new(n)).collect();
        let again: Vec<Sym> = names.iter().rev().map(|n| Sym::new(n)).collect();
        let elsewhere: Vec<Sym> = std::thread::scope(|s| s.spawn(|| names.iter().map(|n| Sym::new(n)).collect()).join().unwrap());
        for (i, name) in names.iter().enumerate() {
            assert_eq!(first[i].as_str(), name);
            assert_eq!(first[i], again[names.len() - 1 - i], "{name}");
            assert_eq!(first[i], elsewhere[i], "{name}");
        }
    }
}
