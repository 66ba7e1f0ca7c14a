//! A thread's cache of the values it interned last, one slot per low bits of their hash.
//! Class after class names the same classes, methods and descriptors: a hit takes none of
//! the interner's locks. A slot's value is only a guess, checked by the caller.

use std::cell::Cell;

/// Slots per cache: 32 KiB of pointers per thread and kind of value.
pub const SLOTS: usize = 4096;

pub struct Recent<T: Copy + 'static>([Cell<Option<T>>; SLOTS]);

impl<T: Copy + 'static> Recent<T> {
    pub const fn new() -> Recent<T> {
        Recent([const { Cell::new(None) }; SLOTS])
    }

    /// The value last remembered for `hash`'s slot, if `matches` accepts it.
    pub fn find(&self, hash: u64, matches: impl Fn(T) -> bool) -> Option<T> {
        self.0[hash as usize % SLOTS].get().filter(|v| matches(*v))
    }

    pub fn remember(&self, hash: u64, value: T) {
        self.0[hash as usize % SLOTS].set(Some(value));
    }
}
