//! The command's global allocator: mimalloc, asked for plain blocks whenever a plain block
//! is aligned enough.
//!
//! The `mimalloc` crate's allocator passes every request to `mi_malloc_aligned`. In
//! mimalloc 3 that call takes a longer path than `mi_malloc`, and for a block above 1 KiB
//! whose size is not a power of two it over-allocates to meet the alignment, although a
//! plain block would meet it. On the corpus that made allocation an eighth of the run's
//! instructions (docs/performance.md). Every mimalloc block is a whole number of words from
//! a page start aligned to 16 bytes, so a plain block is word-aligned: requests aligned to a
//! word or less take the plain calls, and only the rare stricter ones the aligned calls.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every plain mimalloc block has.
const PLAIN_ALIGN: usize = std::mem::size_of::<usize>();

pub struct Mimalloc;

fn plain(align: usize) -> bool {
    align <= PLAIN_ALIGN
}

// SAFETY: each call hands mimalloc a layout the GlobalAlloc contract made valid, and
// frees or resizes only blocks mimalloc returned; plain blocks meet every alignment up
// to `PLAIN_ALIGN` (see the module comment).
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align()) {
            mi::mi_malloc(layout.size()) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(layout.align()) {
            mi::mi_zalloc(layout.size()) as *mut u8
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr as *mut c_void)
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain(layout.align()) {
            mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
        } else {
            mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size class mimalloc has below its huge blocks, at every alignment Rust asks
    /// for: the block is aligned, holds what was written, and keeps it when resized.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes_when_resized() {
        let sizes = (1..=4096).chain((4097..=1 << 20).step_by(4093));
        for size in sizes {
            for align in [1, 2, 4, 8, 16, 64, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let p = Mimalloc.alloc(layout);
                    assert!(!p.is_null() && p as usize % align == 0, "size {size}, align {align}");
                    p.write_bytes(0xA5, size);
                    let grown = Mimalloc.realloc(p, layout, size * 2 + 3);
                    assert!(grown as usize % align == 0, "grown: size {size}, align {align}");
                    assert!(std::slice::from_raw_parts(grown, size).iter().all(|b| *b == 0xA5));
                    Mimalloc.dealloc(grown, Layout::from_size_align(size * 2 + 3, align).unwrap());
                    let z = Mimalloc.alloc_zeroed(layout);
                    assert!(z as usize % align == 0 && std::slice::from_raw_parts(z, size).iter().all(|b| *b == 0));
                    Mimalloc.dealloc(z, layout);
                }
            }
        }
    }
}
