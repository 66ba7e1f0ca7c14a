//! Interned strings: class, field and method names are compared and hashed by
//! pointer, ordered by content (so sorted output never depends on interning order).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use once_cell::sync::Lazy;

use crate::fxhash::{FxHashSet, FxHasher};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

const SHARDS: usize = 32;

static INTERNER: Lazy<Vec<Mutex<FxHashSet<&'static str>>>> =
    Lazy::new(|| (0..SHARDS).map(|_| Mutex::new(FxHashSet::default())).collect());

/// An interned string. Equality and hashing are by address; ordering by content.
#[derive(Clone, Copy)]
pub struct Sym(&'static str);

impl Sym {
    pub fn new(text: &str) -> Sym {
        let mut hasher = FxHasher::default();
        text.hash(&mut hasher);
        let shard = &INTERNER[(hasher.finish() >> 59) as usize % SHARDS];
        let mut set = shard.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(existing) = set.get(text) {
            return Sym(existing);
        }
        // Names live for the process: the set of distinct names is bounded by the code seen.
        let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
        set.insert(leaked);
        Sym(leaked)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl PartialEq for Sym {
    fn eq(&self, other: &Sym) -> bool {
        std::ptr::eq(self.0.as_ptr(), other.0.as_ptr()) && self.0.len() == other.0.len()
    }
}
impl Eq for Sym {}

impl Hash for Sym {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.0.as_ptr() as usize).hash(state)
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
            self.0.cmp(other.0)
        }
    }
}

impl fmt::Debug for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}
impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Sym {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}
impl<'de> Deserialize<'de> for Sym {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sym, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        Ok(Sym::new(&text))
    }
}
