//! JSON whitespace: finding where a run of it ends, 16 bytes at a time.
//!
//! Whitespace between tokens is a space, a line feed, a tab or a carriage return (RFC 8259, as
//! serde_json reads it); any other byte ends the run. Minified documents have little of it,
//! but a pretty-printed one is mostly indentation (about 70% of citm_catalog's bytes, in runs
//! of 16 on average), which a byte-at-a-time loop spends several instructions per byte on.
//!
//! The vector is the one every CPU of the architecture has, so it needs no detection at run
//! time: SSE2 on x86_64, NEON on aarch64, and 8 bytes in a `u64` elsewhere.

/// Where the first byte that is not whitespace at or after `from` is in `input`
/// (`input.len()` when there is none).
#[inline(always)]
pub(super) fn skip(input: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::skip(input, from)
    }
    #[cfg(target_arch = "aarch64")]
    {
        neon::skip(input, from)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        swar::skip(input, from)
    }
}

/// Whether `b` is JSON whitespace.
#[inline(always)]
pub(super) const fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

/// The bytes from `at`, one at a time: the tail shorter than a vector.
#[inline(always)]
fn skip_bytes(input: &[u8], mut at: usize) -> usize {
    while input.get(at).copied().is_some_and(is_whitespace) {
        at += 1;
    }
    at
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    /// [`skip`](super::skip) with SSE2, which every x86_64 CPU has: 16 bytes are compared
    /// against the four whitespace bytes at once.
    #[inline(always)]
    pub(super) fn skip(input: &[u8], from: usize) -> usize {
        let mut at = from;
        // One comparison per block: `at <= last` is `at + 16 <= input.len()`.
        let last = input.len().checked_sub(16);
        while last.is_some_and(|last| at <= last) {
            // SAFETY: `at + 16 <= input.len()` (the loop's condition), and an unaligned load
            // reads exactly 16 bytes from `input[at]`. The other intrinsics only compute on
            // registers, with SSE2, which every x86_64 CPU has.
            let whitespace = unsafe {
                let v = _mm_loadu_si128(input.as_ptr().add(at).cast::<__m128i>());
                let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b.cast_signed()));
                let any = _mm_or_si128(
                    _mm_or_si128(is(b' '), is(b'\n')),
                    _mm_or_si128(is(b'\t'), is(b'\r')),
                );
                _mm_movemask_epi8(any).cast_unsigned()
            };
            let other = !whitespace & 0xFFFF;
            if other != 0 {
                return at + other.trailing_zeros() as usize;
            }
            at += 16;
        }
        super::skip_bytes(input, at)
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::{vceqq_u8, vdupq_n_u8, vld1q_u8, vmvnq_u8, vorrq_u8};

    use super::super::neon_mask::nibbles;

    /// [`skip`](super::skip) with NEON, which every aarch64 CPU has: 16 bytes are compared
    /// against the four whitespace bytes at once.
    #[inline(always)]
    pub(super) fn skip(input: &[u8], from: usize) -> usize {
        let mut at = from;
        // One comparison per block: `at <= last` is `at + 16 <= input.len()`.
        let last = input.len().checked_sub(16);
        while last.is_some_and(|last| at <= last) {
            // SAFETY: `at + 16 <= input.len()` (the loop's condition), and `vld1q_u8` reads
            // exactly 16 bytes from `input[at]`, with no alignment needed. The other
            // intrinsics only compute on registers, with NEON, which every aarch64 CPU has.
            let other = unsafe {
                let v = vld1q_u8(input.as_ptr().add(at));
                let is = |b: u8| vceqq_u8(v, vdupq_n_u8(b));
                let any = vorrq_u8(
                    vorrq_u8(is(b' '), is(b'\n')),
                    vorrq_u8(is(b'\t'), is(b'\r')),
                );
                // The bytes that are not whitespace, 4 bits each.
                nibbles(vmvnq_u8(any))
            };
            if other != 0 {
                return at + (other.trailing_zeros() / 4) as usize;
            }
            at += 16;
        }
        super::skip_bytes(input, at)
    }
}

#[cfg(any(test, not(any(target_arch = "x86_64", target_arch = "aarch64"))))]
mod swar {
    /// [`skip`](super::skip) on 8 bytes at a time in a `u64`.
    #[inline(always)]
    pub(super) fn skip(input: &[u8], from: usize) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let mut at = from;
        while let Some(block) = input.get(at..at.wrapping_add(8)) {
            let mut word = [0; 8];
            word.copy_from_slice(block);
            let w = u64::from_le_bytes(word);
            // The high bit of each byte of `zero(x)` is set exactly where that byte of `x` is
            // zero (no borrow crosses bytes: the low seven bits are added apart).
            let zero = |x: u64| !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
            let is = |b: u8| zero(w ^ (ONES * u64::from(b)));
            let whitespace = is(b' ') | is(b'\n') | is(b'\t') | is(b'\r');
            let other = !whitespace & !LOW7;
            if other != 0 {
                return at + (other.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
        super::skip_bytes(input, at)
    }
}

#[cfg(test)]
mod tests {
    use super::{is_whitespace, skip_bytes};

    /// The first byte that is not whitespace, one byte at a time: the model.
    fn model(input: &[u8], from: usize) -> usize {
        skip_bytes(input, from)
    }

    /// Every length below 40 and every start, with each byte value placed after runs of each
    /// whitespace byte and of mixed whitespace.
    #[test]
    fn skips_as_the_byte_model_at_every_offset() {
        let runs: [&[u8]; 5] = [b" ", b"\n", b"\t", b"\r", b" \n\t\r"];
        for run in runs {
            for len in 0..40 {
                for stop in 0..=255u8 {
                    let mut input: Vec<u8> = run.iter().copied().cycle().take(len).collect();
                    input.push(stop);
                    input.extend_from_slice(b"   x");
                    for from in 0..input.len() {
                        let want = model(&input, from);
                        assert_eq!(super::skip(&input, from), want, "{input:?} from {from}");
                        assert_eq!(
                            super::swar::skip(&input, from),
                            want,
                            "{input:?} from {from}"
                        );
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
        let all_whitespace = b" \n\t\r".repeat(10);
        assert_eq!(super::skip(&all_whitespace, 0), all_whitespace.len());
        assert_eq!(super::swar::skip(&all_whitespace, 3), all_whitespace.len());
    }
}
