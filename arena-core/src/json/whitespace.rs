//! JSON whitespace: finding where a run of it ends, 16 bytes at a time.
//!
//! Whitespace between tokens is a space, a line feed, a tab or a carriage return (RFC 8259, as
//! serde_json reads it); any other byte ends the run. Minified documents have little of it,
//! but a pretty-printed one is mostly indentation (about 70% of citm_catalog's bytes, in runs
//! of 16 on average), which a byte-at-a-time loop spends several instructions per byte on.
//!
//! The vector is one the build can count on, so it needs no detection at run time ([`scan`]):
//! SSE2 on x86_64 and NEON on aarch64 (every CPU of the architecture has it), `simd128` on
//! wasm32 when the build enables it (`-C target-feature=+simd128`), and 8 bytes in a `u64`
//! elsewhere, wasm32 without `simd128` included.

use super::scan;

/// The block scans of this architecture (see [`scan`]).
#[cfg(target_arch = "aarch64")]
use neon as vector;
/// The block scans of this architecture (see [`scan`]).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use simd128 as vector;
/// The block scans of this architecture (see [`scan`]).
#[cfg(target_arch = "x86_64")]
use sse2 as vector;
/// The block scans of this architecture (see [`scan`]).
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
use swar as vector;

/// Where the first byte that is not whitespace at or after `from` is in `input`
/// (`input.len()` when there is none).
#[inline(always)]
pub(super) fn skip(input: &[u8], from: usize) -> usize {
    scan::first_stop::<{ vector::WIDTH }, { vector::BITS }>(input, from, vector::other, |b| {
        !is_whitespace(b)
    })
}

/// Whether `b` is JSON whitespace.
#[inline(always)]
pub(super) const fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    /// 16 bytes a block, one mask bit a byte.
    pub(super) const WIDTH: usize = 16;
    pub(super) const BITS: u32 = 1;

    /// The block's bytes that are not whitespace: 16 bytes compared against the four
    /// whitespace bytes at once.
    #[inline(always)]
    pub(super) fn other(block: &[u8; WIDTH]) -> u64 {
        // SAFETY: an unaligned load reads exactly the block's 16 bytes. The other intrinsics
        // only compute on registers, with SSE2, which every x86_64 CPU has.
        let whitespace = unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b.cast_signed()));
            let any = _mm_or_si128(
                _mm_or_si128(is(b' '), is(b'\n')),
                _mm_or_si128(is(b'\t'), is(b'\r')),
            );
            _mm_movemask_epi8(any).cast_unsigned()
        };
        u64::from(!whitespace & 0xFFFF)
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::{vceqq_u8, vdupq_n_u8, vld1q_u8, vmvnq_u8, vorrq_u8};

    use super::super::neon_mask::nibbles;

    /// 16 bytes a block, four mask bits a byte ([`nibbles`]).
    pub(super) const WIDTH: usize = 16;
    pub(super) const BITS: u32 = 4;

    /// The block's bytes that are not whitespace: 16 bytes compared against the four
    /// whitespace bytes at once.
    #[inline(always)]
    pub(super) fn other(block: &[u8; WIDTH]) -> u64 {
        // SAFETY: `vld1q_u8` reads exactly the block's 16 bytes, with no alignment needed.
        // The other intrinsics only compute on registers, with NEON, which every aarch64 CPU
        // has.
        unsafe {
            let v = vld1q_u8(block.as_ptr());
            let is = |b: u8| vceqq_u8(v, vdupq_n_u8(b));
            let any = vorrq_u8(
                vorrq_u8(is(b' '), is(b'\n')),
                vorrq_u8(is(b'\t'), is(b'\r')),
            );
            nibbles(vmvnq_u8(any))
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_load, v128_or};

    /// 16 bytes a block, one mask bit a byte.
    pub(super) const WIDTH: usize = 16;
    pub(super) const BITS: u32 = 1;

    /// The block's bytes that are not whitespace: 16 bytes compared against the four
    /// whitespace bytes at once.
    #[inline(always)]
    pub(super) fn other(block: &[u8; WIDTH]) -> u64 {
        // SAFETY: `v128_load` reads exactly the block's 16 bytes, with no alignment needed.
        let v = unsafe { v128_load(block.as_ptr().cast::<v128>()) };
        // The other intrinsics compute on registers and are safe: the build enables `simd128`.
        let is = |b: u8| u8x16_eq(v, u8x16_splat(b));
        let any = v128_or(v128_or(is(b' '), is(b'\n')), v128_or(is(b'\t'), is(b'\r')));
        u64::from(!u8x16_bitmask(any))
    }
}

#[cfg(any(
    test,
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))
))]
mod swar {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

    /// 8 bytes a block, in a `u64`, each flagged by its high bit.
    pub(super) const WIDTH: usize = 8;
    pub(super) const BITS: u32 = 8;

    /// The block's bytes that are not whitespace.
    #[inline(always)]
    pub(super) fn other(block: &[u8; WIDTH]) -> u64 {
        // The high bit of each byte of `zero(x)` is set exactly where that byte of `x` is
        // zero (no borrow crosses bytes: the low seven bits are added apart).
        const fn zero(x: u64) -> u64 {
            !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
        }
        let w = u64::from_le_bytes(*block);
        let is = |b: u8| zero(w ^ (ONES * b as u64));
        let whitespace = is(b' ') | is(b'\n') | is(b'\t') | is(b'\r');
        !whitespace & !LOW7
    }
}

#[cfg(test)]
mod tests {
    use super::{is_whitespace, scan, swar};

    /// The first byte that is not whitespace, one byte at a time: the model.
    fn model(input: &[u8], from: usize) -> usize {
        (from..input.len())
            .find(|&at| !is_whitespace(input[at]))
            .unwrap_or(input.len().max(from))
    }

    /// Checks that [`skip`](super::skip) over the build's vector (SSE2, NEON or `simd128`) and
    /// over `u64` blocks (which the other builds use) finds `want`.
    fn check(input: &[u8], from: usize, want: usize) {
        let swar =
            scan::first_stop::<{ swar::WIDTH }, { swar::BITS }>(input, from, swar::other, |b| {
                !is_whitespace(b)
            });
        assert_eq!(
            [super::skip(input, from), swar],
            [want; 2],
            "{input:?} from {from}"
        );
    }

    /// Every length below 72 (several blocks and a tail) and every start, with each byte
    /// value placed after runs of each whitespace byte and of mixed whitespace.
    #[test]
    fn skips_as_the_byte_model_at_every_offset() {
        let runs: [&[u8]; 5] = [b" ", b"\n", b"\t", b"\r", b" \n\t\r"];
        for run in runs {
            for len in 0..72 {
                for stop in 0..=255u8 {
                    let mut input: Vec<u8> = run.iter().copied().cycle().take(len).collect();
                    input.push(stop);
                    input.extend_from_slice(b"   x");
                    for from in 0..input.len() {
                        check(&input, from, model(&input, from));
                    }
                    if !is_whitespace(stop) {
                        assert_eq!(model(&input, 0), len);
                    }
                }
            }
        }
    }

    #[test]
    fn only_the_four_whitespace_bytes_are_skipped() {
        let skipped: Vec<u8> = (0..=255u8).filter(|&b| is_whitespace(b)).collect();
        assert_eq!(skipped, b"\t\n\r ");
        let all_whitespace = b" \n\t\r".repeat(20);
        for from in [0, 3, 40] {
            check(&all_whitespace, from, all_whitespace.len());
        }
    }
}
