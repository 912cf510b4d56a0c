//! [`first_stop`]: the loop every scan of the JSON reader runs, a vector block at a time.
//!
//! The reader scans runs of bytes for the first that ends them: a string's run for a quote, a
//! backslash or a control character ([`string`](super::string)), a run of whitespace for any
//! other byte ([`whitespace`](super::whitespace)). Each scan says, for one block of bytes,
//! which of them end the run, as a mask; this loop walks the blocks and finds the first. The
//! block is a vector the build can count on, so it needs no detection at run time: 16 bytes
//! with SSE2 on x86_64 (one mask bit per byte) and with NEON on aarch64 (four bits per byte,
//! NEON having no `movemask`), both in every CPU of their architecture; 16 bytes with
//! `simd128` on wasm32 when the build enables it (one bit per byte, from `u8x16_bitmask`; Wasm
//! has no detection at run time, and an engine without `simd128` refuses such a module); and
//! 8 bytes in a `u64` elsewhere, wasm32 without `simd128` included (the byte's high bit).
//!
//! Wider vectors chosen at run time (AVX2's 32 bytes) are slower here: most runs end within
//! 16 bytes (a key, a short value, one line's indentation), and code compiled for a feature
//! detected at run time cannot be inlined into the reader, so every scan would pay a call and
//! the check for fewer blocks only on long runs. [`first_stop`] takes any block width, should
//! a caller with long runs want one.

/// Where the first byte at or after `from` in `input` that `stops` marks is (`input.len()` when
/// there is none; `from` when `from` is past the end).
///
/// `stops` is handed each block of `N` bytes in turn and returns their mask: `BITS` bits per
/// byte, in order from the lowest, the lowest bit of a marked byte's group set, and no bit below
/// it set unless a byte before it is marked. The bytes after the last whole block are handed
/// one at a time to `stops_byte`, which marks the same bytes. (Copying them into a padded block
/// instead takes registers from every caller, or a call, for bytes only the input's end has.)
#[inline(always)]
pub(super) fn first_stop<const N: usize, const BITS: u32>(
    input: &[u8],
    from: usize,
    mut stops: impl FnMut(&[u8; N]) -> u64,
    mut stops_byte: impl FnMut(u8) -> bool,
) -> usize {
    let mut at = from;
    // One comparison per block: `at <= last` is `at + N <= input.len()`.
    let last = input.len().checked_sub(N);
    while last.is_some_and(|last| at <= last) {
        // SAFETY: `at + N <= input.len()` (the loop's condition), so the `N` bytes from
        // `input[at]` are inside `input`; an array of bytes has no alignment to keep.
        let block = unsafe { &*input.as_ptr().add(at).cast::<[u8; N]>() };
        let mask = stops(block);
        if mask != 0 {
            return at + (mask.trailing_zeros() / BITS) as usize;
        }
        at += N;
    }
    while input.get(at).is_some_and(|&b| !stops_byte(b)) {
        at += 1;
    }
    at
}

/// The bits of `mask` below its lowest set bit (all of them when none is set): in a scan's
/// mask, the bytes before the first it marks.
#[inline(always)]
pub(super) const fn before_first(mask: u64) -> u64 {
    (mask & mask.wrapping_neg()).wrapping_sub(1)
}

#[cfg(test)]
mod tests {
    use super::{before_first, first_stop};

    /// The first byte `stop` marks, one byte at a time: the model.
    fn model(input: &[u8], from: usize, stop: impl Fn(u8) -> bool) -> usize {
        (from..input.len())
            .find(|&at| stop(input[at]))
            .unwrap_or(input.len().max(from))
    }

    /// A mask of `BITS` bits per byte marking the bytes `stop` marks, the lowest bit of each
    /// group set, as the vector scans make it.
    fn mask<const N: usize, const BITS: u32>(block: &[u8; N], stop: impl Fn(u8) -> bool) -> u64 {
        block
            .iter()
            .enumerate()
            .filter(|&(_, &b)| stop(b))
            .fold(0, |m, (i, _)| m | 1 << (i as u32 * BITS))
    }

    fn check<const N: usize, const BITS: u32>() {
        let stop = |b: u8| b == b'!';
        for len in 0..3 * N {
            for marked in (0..len).map(Some).chain([None]) {
                let mut input = vec![b'a'; len];
                if let Some(at) = marked {
                    input[at] = b'!';
                }
                for from in 0..=len + 1 {
                    let found =
                        first_stop::<N, BITS>(&input, from, |b| mask::<N, BITS>(b, stop), stop);
                    assert_eq!(found, model(&input, from, stop), "{N} {input:?} {from}");
                }
            }
        }
    }

    #[test]
    fn finds_the_first_marked_byte_at_every_length_start_and_place() {
        check::<16, 1>();
        check::<16, 4>();
        check::<8, 8>();
        check::<32, 1>();
    }

    #[test]
    fn before_first_keeps_the_bits_below_the_lowest() {
        assert_eq!(before_first(0), u64::MAX);
        assert_eq!(before_first(1), 0);
        assert_eq!(before_first(0b1010_0000), 0b1_1111);
        assert_eq!(before_first(1 << 63), (1 << 63) - 1);
    }
}
