//! The engine's internal hash maps use the Fx hasher of `rustc-hash`: keys are
//! interned-symbol pointers and small integers that no untrusted input chooses, so
//! SipHash's flooding resistance buys nothing here, and Fx is several times faster.
//! No map's iteration order reaches any output.

pub use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
