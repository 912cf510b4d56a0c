//! [`classify`]: the bytes of a 64-byte block that the cut scan of a window looks at, one mask
//! bit a byte (bit `i` for the block's byte `i`).
//!
//! The scan ([`Cuts`](super::Cuts)) reads a block whole when it holds no backslash: which bytes
//! are inside strings is then the running parity of its quotes ([`prefix_xor`]), and only the
//! brackets outside strings are looked at one by one. With SSE2 on x86_64 (every CPU of the
//! architecture has it) a block is four 16-byte compares per class; elsewhere eight bytes in a
//! `u64` at a time ([`swar`], always compiled, and checked against the byte model with the
//! vector form).

/// The bytes of a block the cut scan looks at, each a mask of the block's 64 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Classes {
    /// `"`.
    pub(super) quote: u64,
    /// `\`.
    pub(super) backslash: u64,
    /// `[` and `{`.
    pub(super) open: u64,
    /// `]` and `}`.
    pub(super) close: u64,
    /// `,` and `:`.
    pub(super) separator: u64,
}

/// The classes of `block`'s bytes.
#[inline(always)]
pub(super) fn classify(block: &[u8; 64]) -> Classes {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::classify(block)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        swar::classify(block)
    }
}

/// Bit `i` of the result is the XOR of `mask`'s bits `0..=i`: over a block's unescaped quotes,
/// the bytes from an opening quote up to (not including) its closing one.
#[inline(always)]
pub(super) const fn prefix_xor(mask: u64) -> u64 {
    let mut x = mask;
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// Eight bytes at a time in a `u64`: the fallback of every target without a vector form here.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
mod swar {
    use super::Classes;

    /// `0x80` in every byte of `word` equal to `byte`, `0` in the others (exact: the high bit
    /// is set only when all of the byte's bits match).
    #[inline(always)]
    const fn equal(word: u64, byte: u8) -> u64 {
        const LOW: u64 = u64::from_ne_bytes([0x7F; 8]);
        let t = word ^ u64::from_ne_bytes([byte; 8]);
        !(((t & LOW).wrapping_add(LOW)) | t) & !LOW
    }

    /// The high bits of `flags`' eight bytes, as eight bits, the first byte's lowest.
    #[inline(always)]
    const fn pack(flags: u64) -> u64 {
        // Byte `i`'s bit, at `8i` after the shift, moves to `56 + i`; no two land together.
        ((flags >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }

    #[inline(always)]
    pub(super) fn classify(block: &[u8; 64]) -> Classes {
        let mut classes = Classes::default();
        for (i, chunk) in block.chunks_exact(8).enumerate() {
            let mut bytes = [0; 8];
            bytes.copy_from_slice(chunk);
            let word = u64::from_le_bytes(bytes);
            // `[` and `{`, `]` and `}` differ in the bit 0x20 alone.
            let folded = word | u64::from_ne_bytes([0x20; 8]);
            let shift = 8 * i;
            classes.quote |= pack(equal(word, b'"')) << shift;
            classes.backslash |= pack(equal(word, b'\\')) << shift;
            classes.open |= pack(equal(folded, b'{')) << shift;
            classes.close |= pack(equal(folded, b'}')) << shift;
            classes.separator |= pack(equal(word, b',') | equal(word, b':')) << shift;
        }
        classes
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn pack_gathers_every_pattern_of_high_bits() {
            for bits in 0..=255_u64 {
                let flags = (0..8)
                    .filter(|i| bits >> i & 1 == 1)
                    .fold(0, |f, i| f | 0x80 << (8 * i));
                assert_eq!(super::pack(flags), bits, "{bits:08b}");
            }
        }
    }
}

/// SSE2, which every x86_64 CPU has: 16 bytes a compare, one mask bit a byte.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    use super::Classes;

    #[inline(always)]
    pub(super) fn classify(block: &[u8; 64]) -> Classes {
        let mut classes = Classes::default();
        for i in 0..4 {
            // SAFETY: an unaligned load reads the block's 16 bytes from `16 * i` (`i < 4`, the
            // block is 64 bytes). The other intrinsics only compute on registers, with SSE2,
            // which every x86_64 CPU has.
            unsafe {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * i).cast::<__m128i>());
                let mask = |m: __m128i| u64::from(_mm_movemask_epi8(m).cast_unsigned()) << (16 * i);
                let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b.cast_signed()));
                // `[` and `{`, `]` and `}` differ in the bit 0x20 alone.
                let folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
                let folded_is = |b: u8| _mm_cmpeq_epi8(folded, _mm_set1_epi8(b.cast_signed()));
                classes.quote |= mask(is(b'"'));
                classes.backslash |= mask(is(b'\\'));
                classes.open |= mask(folded_is(b'{'));
                classes.close |= mask(folded_is(b'}'));
                classes.separator |= mask(_mm_or_si128(is(b','), is(b':')));
            }
        }
        classes
    }
}

#[cfg(test)]
mod tests {
    use super::{Classes, prefix_xor, swar};

    /// The classes one byte at a time: the model.
    fn model(block: &[u8; 64]) -> Classes {
        let mask = |f: fn(u8) -> bool| {
            block
                .iter()
                .enumerate()
                .filter(|&(_, &b)| f(b))
                .fold(0, |m, (i, _)| m | 1 << i)
        };
        Classes {
            quote: mask(|b| b == b'"'),
            backslash: mask(|b| b == b'\\'),
            open: mask(|b| matches!(b, b'[' | b'{')),
            close: mask(|b| matches!(b, b']' | b'}')),
            separator: mask(|b| matches!(b, b',' | b':')),
        }
    }

    #[test]
    fn every_form_classifies_as_the_model_does() {
        // Every byte value at every place, among bytes that differ from the classes by a bit.
        let near = b"\"\\[]{},:!|;<{}[]\x02\x5a\x7a\x0c\x1a\xa2\xdb\xfb\x00\xff";
        for value in 0..=255_u8 {
            for at in 0..64 {
                let mut block = [0; 64];
                for (i, b) in block.iter_mut().enumerate() {
                    *b = near[(i * 7 + usize::from(value)) % near.len()];
                }
                block[at] = value;
                let expected = model(&block);
                assert_eq!(swar::classify(&block), expected, "{value:#x} at {at}");
                assert_eq!(super::classify(&block), expected, "{value:#x} at {at}");
            }
        }
    }

    #[test]
    fn prefix_xor_is_the_running_parity() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..1000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut parity = 0;
            let mut expected = 0;
            for i in 0..64 {
                parity ^= state >> i & 1;
                expected |= parity << i;
            }
            assert_eq!(prefix_xor(state), expected, "{state:#x}");
        }
    }
}
