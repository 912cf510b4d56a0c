//! UTF-8 validation, the one check of every string read from bytes: [`to_str`] for the strings
//! of the binary formats and byte strings read as text (short ASCII without a loop over
//! bytes), [`check`] for everything else (simdutf8, with SIMD chosen at run time).

/// `v` as a `str`, if it is UTF-8: ASCII checked without a loop over bytes (up to 64 bytes),
/// anything else by [`check`]. The MessagePack reader checks its strings with it.
#[inline(always)]
pub(crate) fn to_str(v: &[u8]) -> Option<&str> {
    if is_ascii(v) {
        // SAFETY: ASCII is UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(v) })
    } else {
        check(v)
    }
}

/// `v` as a `str`, if it is UTF-8, checked by simdutf8: 32 or 16 bytes at a time from 64 bytes
/// on (AVX2 or SSE4.2, chosen at run time on x86; NEON on aarch64), the standard library's
/// check below that. The standard library decodes text above ASCII (most non-Latin text) a
/// character at a time, several times slower.
#[inline]
pub(crate) fn check(v: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(v).ok()
}

/// Whether every byte of `v` is ASCII. Up to 64 bytes, with no loop over bytes: two
/// overlapping loads of 4 or 8 bytes, or 8-byte words and an overlapping last one (the
/// standard library's `is_ascii` goes byte by byte through the tail of a short slice); past
/// that, the standard library's vectorized loop.
#[inline(always)]
fn is_ascii(v: &[u8]) -> bool {
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const HIGH4: u32 = u32::from_ne_bytes([0x80; 4]);
    let n = v.len();
    if n < 4 {
        v.iter().fold(0, |acc, &b| acc | b) < 0x80
    } else if n < 8 {
        let head = u32::from_ne_bytes([v[0], v[1], v[2], v[3]]);
        let tail = u32::from_ne_bytes([v[n - 4], v[n - 3], v[n - 2], v[n - 1]]);
        (head | tail) & HIGH4 == 0
    } else if n <= 64 {
        let (words, _) = v.as_chunks::<8>();
        // The last 8 bytes, overlapping the words when `n` is not a multiple of 8.
        let last = v.last_chunk::<8>().map_or(0, |w| u64::from_ne_bytes(*w));
        let any = words
            .iter()
            .fold(last, |acc, w| acc | u64::from_ne_bytes(*w));
        any & HIGH == 0
    } else {
        v.is_ascii()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{is_ascii, to_str};

    #[test]
    fn one_high_byte_anywhere_is_not_ascii() {
        for n in 0..=80 {
            let plain = vec![b'a'; n];
            assert!(is_ascii(&plain), "{n} ASCII bytes");
            for at in 0..n {
                for high in [0x80, 0xC3, 0xFF] {
                    let mut v = plain.clone();
                    v[at] = high;
                    assert!(!is_ascii(&v), "{n} bytes, {high:#x} at {at}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn to_str_agrees_with_from_utf8(v in prop::collection::vec(any::<u8>(), 0..100)) {
            prop_assert_eq!(to_str(&v), core::str::from_utf8(&v).ok());
            prop_assert_eq!(is_ascii(&v), v.is_ascii());
        }

        /// Text past 64 bytes, where the SIMD check runs, valid and with one byte changed.
        #[test]
        fn utf8_agrees_with_from_utf8_on_text(
            text in "\\PC{0,200}",
            at in any::<prop::sample::Index>(),
            byte in any::<u8>(),
        ) {
            let mut v = text.into_bytes();
            prop_assert_eq!(to_str(&v), core::str::from_utf8(&v).ok());
            if !v.is_empty() {
                let at = at.index(v.len());
                v[at] = byte;
                prop_assert_eq!(to_str(&v), core::str::from_utf8(&v).ok());
                prop_assert_eq!(super::check(&v), core::str::from_utf8(&v).ok());
            }
        }

        #[test]
        fn to_str_reads_every_string(s in ".{0,80}") {
            prop_assert_eq!(to_str(s.as_bytes()), Some(s.as_str()));
        }
    }
}
