//! Asking the processor for memory before it is read. The loops over summaries' accesses
//! are bound by memory, not by work: each access's key and trace live apart from the list
//! (shared between summaries), a cache miss each. Asking for those of an access a few places
//! ahead lets the misses overlap.

/// How far ahead of the access being read the loops ask for its memory.
const AHEAD: usize = 6;

/// Asks for the memory `address` gives of the item `AHEAD` places after `items[n]`, if there
/// is one: called at each step of a loop over `items`.
#[inline(always)]
pub fn ahead<T, U>(items: &[T], n: usize, address: impl Fn(&T) -> *const U) {
    if let Some(item) = items.get(n + AHEAD) {
        prefetch(address(item));
    }
}

/// Asks for the cache line at `address`, without waiting for it. Only a hint: it reads
/// nothing and cannot fault, whatever the address.
#[inline(always)]
fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch instruction never faults, even on an invalid address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(address as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
