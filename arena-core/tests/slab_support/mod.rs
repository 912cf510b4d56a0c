//! Helpers shared by the slab tests (and the `slab_ops` fuzz target, which includes this
//! module by path): patterned contents, a registry of live allocations that catches overlaps,
//! the process's resident memory, and the slab model ([`model`]).

#![allow(dead_code, reason = "each test file uses part of the helpers")]

pub mod model;

use std::collections::BTreeMap;

/// The byte at `offset` of the allocation tagged `tag`: depends on both, so a shifted or
/// overwritten range shows.
pub fn pattern_byte(tag: u64, offset: usize) -> u8 {
    let x = tag
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(offset as u64 / 64);
    (x ^ (x >> 29)) as u8
}

/// Fills `bytes` with the pattern of `tag`.
pub fn fill(bytes: &mut [u8], tag: u64) {
    // One value per 64-byte line keeps filling and checking at memset speed.
    for (line, chunk) in bytes.chunks_mut(64).enumerate() {
        chunk.fill(pattern_byte(tag, line * 64));
    }
}

/// Whether `bytes` still hold the pattern of `tag`.
pub fn holds(bytes: &[u8], tag: u64) -> bool {
    bytes
        .chunks(64)
        .enumerate()
        .all(|(line, chunk)| chunk.iter().all(|&b| b == pattern_byte(tag, line * 64)))
}

/// All non-empty live allocations of every arena, by address: inserting one that overlaps
/// another fails.
#[derive(Debug, Default)]
pub struct LiveSet {
    by_addr: BTreeMap<usize, usize>,
}

impl LiveSet {
    /// Records `[addr, addr + len)`; panics if it overlaps a live allocation.
    pub fn insert(&mut self, addr: usize, len: usize) {
        if len == 0 {
            return;
        }
        if let Some((&prev, &prev_len)) = self.by_addr.range(..=addr).next_back() {
            assert!(
                prev + prev_len <= addr,
                "{addr:#x}+{len} overlaps live {prev:#x}+{prev_len}"
            );
        }
        if let Some((&next, &next_len)) = self.by_addr.range(addr..).next() {
            assert!(
                addr + len <= next,
                "{addr:#x}+{len} overlaps live {next:#x}+{next_len}"
            );
        }
        self.by_addr.insert(addr, len);
    }

    /// Forgets `[addr, addr + len)`.
    pub fn remove(&mut self, addr: usize, len: usize) {
        if len > 0 {
            assert_eq!(self.by_addr.remove(&addr), Some(len), "not live: {addr:#x}");
        }
    }
}

/// Resident memory of this process in bytes, from `/proc/self/statm` (Linux).
pub fn resident_bytes() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let resident_pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(resident_pages * 4096)
}

/// Proptest case count: smaller under AddressSanitizer, where every byte costs more.
pub fn cases(normal: u32) -> u32 {
    if cfg!(arena_asan) {
        (normal / 4).max(16)
    } else {
        normal
    }
}
