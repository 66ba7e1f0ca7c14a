//! Interned strings: class, field and method names are compared and hashed by
//! pointer, ordered by content (so sorted output never depends on interning order).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use once_cell::sync::Lazy;

use crate::fxhash::{FxHashMap, FxHasher};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

const SHARDS: usize = 32;

static INTERNER: Lazy<Vec<Mutex<FxHashMap<&'static str, &'static Box<str>>>>> =
    Lazy::new(|| (0..SHARDS).map(|_| Mutex::new(FxHashMap::default())).collect());

/// An interned string. Equality and hashing are by address; ordering by content.
/// A thin pointer (to a leaked `Box<str>`), so references built from symbols stay small.
#[derive(Clone, Copy)]
pub struct Sym(&'static Box<str>);

impl Sym {
    pub fn new(text: &str) -> Sym {
        let mut hasher = FxHasher::default();
        text.hash(&mut hasher);
        let shard = &INTERNER[(hasher.finish() >> 59) as usize % SHARDS];
        let mut set = shard.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(existing) = set.get(text) {
            return Sym(*existing);
        }
        // Names live for the process: the set of distinct names is bounded by the code seen.
        let leaked: &'static Box<str> = Box::leak(Box::new(text.to_owned().into_boxed_str()));
        set.insert(&**leaked, leaked);
        Sym(leaked)
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// Address of the interned string: a cheap, run-local identity.
    pub fn addr(self) -> usize {
        self.0 as *const Box<str> as usize
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
        self.addr().hash(state)
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
