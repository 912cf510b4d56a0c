//! JSON strings: finding where a string's plain run ends, 16 bytes at a time, and decoding
//! its escapes.
//!
//! A string is read as serde_json's `SliceRead` reads it: a run of bytes up to the next quote,
//! backslash or control character is taken as it is (borrowed from the input when the whole
//! string is one run), an escape is decoded into a scratch buffer, and a string for `str` must
//! be UTF-8. A byte string is read as serde_json reads one: control characters kept, an
//! escaped lone surrogate written as WTF-8, and no UTF-8 check.
//!
//! The runs are scanned with a vector the build can count on, with no detection at run time:
//! SSE2 on x86_64 and NEON on aarch64 (every CPU of the architecture has it), `simd128` on
//! wasm32 when the build enables it (`-C target-feature=+simd128`), and 8 bytes in a `u64`
//! elsewhere, wasm32 without `simd128` included.

use core::cell::Cell;

use super::refused::Refused;
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

/// Where the first quote, backslash or control character at or after `from` is in `input`
/// (`input.len()` when there is none), and whether a byte above ASCII comes before it.
#[inline]
pub(super) fn plain_run(input: &[u8], from: usize) -> (usize, bool) {
    plain_run_by::<{ vector::WIDTH }, { vector::BITS }>(input, from, vector::plain_stops)
}

/// [`plain_run`] with the block scan `stops`, which returns the bytes that end the run and
/// those above ASCII.
#[inline(always)]
fn plain_run_by<const N: usize, const BITS: u32>(
    input: &[u8],
    from: usize,
    stops: impl Fn(&[u8; N]) -> (u64, u64),
) -> (usize, bool) {
    let above_ascii = Cell::new(false);
    let end = scan::first_stop::<N, BITS>(
        input,
        from,
        |block| {
            let (special, high) = stops(block);
            above_ascii.set(above_ascii.get() | (high & scan::before_first(special) != 0));
            special
        },
        // A byte that ends the run is ASCII: noting every byte above ASCII notes those before.
        |b| {
            above_ascii.set(above_ascii.get() | (b >= 0x80));
            ends_run(b)
        },
    );
    (end, above_ascii.get())
}

/// Where the first byte at or after `from` in `input` that is not plain ASCII is: a quote, a
/// backslash, a control character or a byte above ASCII (`input.len()` when there is none).
///
/// The first look at a string: most strings are ASCII without escapes, and for them this
/// finds the closing quote with nothing else to track; [`plain_run`] reads the others.
#[inline]
pub(super) fn ascii_run(input: &[u8], from: usize) -> usize {
    scan::first_stop::<{ vector::WIDTH }, { vector::BITS }>(
        input,
        from,
        vector::ascii_stops,
        ends_ascii_run,
    )
}

/// Whether `b` ends an ASCII run: a byte that ends a plain run, or one above ASCII.
#[inline(always)]
const fn ends_ascii_run(b: u8) -> bool {
    ends_run(b) || b >= 0x80
}

/// Whether `b` ends a plain run: a quote, a backslash or a control character.
#[inline(always)]
const fn ends_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };

    /// 16 bytes a block, one mask bit a byte.
    pub(super) const WIDTH: usize = 16;
    pub(super) const BITS: u32 = 1;

    /// The block's bytes that are a quote, a backslash, a control character or above ASCII: a
    /// byte below `0x20` as a signed byte is a control character or a byte above ASCII, so one
    /// signed comparison finds both.
    #[inline(always)]
    pub(super) fn ascii_stops(block: &[u8; WIDTH]) -> u64 {
        // SAFETY: an unaligned load reads exactly the block's 16 bytes. The other intrinsics
        // only compute on registers, with SSE2, which every x86_64 CPU has.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"'.cast_signed()));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\'.cast_signed()));
            let control_or_high = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
            let stop = _mm_or_si128(_mm_or_si128(quote, backslash), control_or_high);
            u64::from(_mm_movemask_epi8(stop).cast_unsigned())
        }
    }

    /// The block's bytes that are a quote, a backslash or a control character, and those above
    /// ASCII.
    #[inline(always)]
    pub(super) fn plain_stops(block: &[u8; WIDTH]) -> (u64, u64) {
        // SAFETY: as in `ascii_stops`: a 16-byte load of the block, then registers only.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"'.cast_signed()));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\'.cast_signed()));
            // max(b, 0x1F) == 0x1F exactly when b <= 0x1F (unsigned).
            let low = _mm_set1_epi8(0x1F);
            let control = _mm_cmpeq_epi8(_mm_max_epu8(v, low), low);
            let special = _mm_or_si128(_mm_or_si128(quote, backslash), control);
            (
                u64::from(_mm_movemask_epi8(special).cast_unsigned()),
                u64::from(_mm_movemask_epi8(v).cast_unsigned()),
            )
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon {
    use core::arch::aarch64::{vceqq_u8, vcgeq_u8, vcltq_u8, vdupq_n_u8, vld1q_u8, vorrq_u8};

    use super::super::neon_mask::nibbles;

    /// 16 bytes a block, four mask bits a byte ([`nibbles`]).
    pub(super) const WIDTH: usize = 16;
    pub(super) const BITS: u32 = 4;

    /// The block's bytes that are a quote, a backslash, a control character or above ASCII.
    #[inline(always)]
    pub(super) fn ascii_stops(block: &[u8; WIDTH]) -> u64 {
        // SAFETY: `vld1q_u8` reads exactly the block's 16 bytes, with no alignment needed.
        // The other intrinsics only compute on registers, with NEON, which every aarch64 CPU
        // has.
        unsafe {
            let v = vld1q_u8(block.as_ptr());
            let quote = vceqq_u8(v, vdupq_n_u8(b'"'));
            let backslash = vceqq_u8(v, vdupq_n_u8(b'\\'));
            let control = vcltq_u8(v, vdupq_n_u8(0x20));
            let high = vcgeq_u8(v, vdupq_n_u8(0x80));
            nibbles(vorrq_u8(
                vorrq_u8(quote, backslash),
                vorrq_u8(control, high),
            ))
        }
    }

    /// The block's bytes that are a quote, a backslash or a control character, and those above
    /// ASCII.
    #[inline(always)]
    pub(super) fn plain_stops(block: &[u8; WIDTH]) -> (u64, u64) {
        // SAFETY: as in `ascii_stops`: a 16-byte load of the block, then registers only.
        unsafe {
            let v = vld1q_u8(block.as_ptr());
            let quote = vceqq_u8(v, vdupq_n_u8(b'"'));
            let backslash = vceqq_u8(v, vdupq_n_u8(b'\\'));
            let control = vcltq_u8(v, vdupq_n_u8(0x20));
            (
                nibbles(vorrq_u8(vorrq_u8(quote, backslash), control)),
                nibbles(vcgeq_u8(v, vdupq_n_u8(0x80))),
            )
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use core::arch::wasm32::{
        i8x16_lt, u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_load, v128_or,
    };

    /// 16 bytes a block, one mask bit a byte.
    pub(super) const WIDTH: usize = 16;
    pub(super) const BITS: u32 = 1;

    /// The block's bytes that are a quote, a backslash, a control character or above ASCII: a
    /// byte below `0x20` as a signed byte is a control character or a byte above ASCII, so one
    /// signed comparison finds both.
    #[inline(always)]
    pub(super) fn ascii_stops(block: &[u8; WIDTH]) -> u64 {
        // SAFETY: `v128_load` reads exactly the block's 16 bytes, with no alignment needed.
        let v = unsafe { v128_load(block.as_ptr().cast::<v128>()) };
        // The other intrinsics compute on registers and are safe: the build enables `simd128`.
        let quote = u8x16_eq(v, u8x16_splat(b'"'));
        let backslash = u8x16_eq(v, u8x16_splat(b'\\'));
        let control_or_high = i8x16_lt(v, u8x16_splat(0x20));
        u64::from(u8x16_bitmask(v128_or(
            v128_or(quote, backslash),
            control_or_high,
        )))
    }

    /// The block's bytes that are a quote, a backslash or a control character, and those above
    /// ASCII (the bytes' high bits, which `u8x16_bitmask` collects).
    #[inline(always)]
    pub(super) fn plain_stops(block: &[u8; WIDTH]) -> (u64, u64) {
        // SAFETY: as in `ascii_stops`: `v128_load` reads exactly the block's 16 bytes.
        let v = unsafe { v128_load(block.as_ptr().cast::<v128>()) };
        let quote = u8x16_eq(v, u8x16_splat(b'"'));
        let backslash = u8x16_eq(v, u8x16_splat(b'\\'));
        let control = u8x16_lt(v, u8x16_splat(0x20));
        (
            u64::from(u8x16_bitmask(v128_or(v128_or(quote, backslash), control))),
            u64::from(u8x16_bitmask(v)),
        )
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
    const HIGH: u64 = 0x8080_8080_8080_8080;

    /// 8 bytes a block, in a `u64`, each flagged by its high bit.
    pub(super) const WIDTH: usize = 8;
    pub(super) const BITS: u32 = 8;

    /// The bytes of `w` that end a plain run (a quote, a backslash, a control character),
    /// each flagged by its high bit. A flag above the lowest may be false (a borrow carries
    /// into the next byte), but the lowest is exact, and so is the lowest of a union.
    #[inline(always)]
    const fn run_ends(w: u64) -> u64 {
        // A byte's high bit is set in `zero(x)` where the byte of `x` is zero, and in no
        // byte below the first such.
        const fn zero(x: u64) -> u64 {
            x.wrapping_sub(ONES) & !x & HIGH
        }
        let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        zero(w ^ (ONES * b'"' as u64)) | zero(w ^ (ONES * b'\\' as u64)) | control
    }

    /// The block's bytes that are a quote, a backslash, a control character or above ASCII.
    #[inline(always)]
    pub(super) const fn ascii_stops(block: &[u8; WIDTH]) -> u64 {
        let w = u64::from_le_bytes(*block);
        run_ends(w) | (w & HIGH)
    }

    /// The block's bytes that are a quote, a backslash or a control character, and those above
    /// ASCII.
    #[inline(always)]
    pub(super) const fn plain_stops(block: &[u8; WIDTH]) -> (u64, u64) {
        let w = u64::from_le_bytes(*block);
        (run_ends(w), w & HIGH)
    }
}

/// The four hex digits of a `\u` escape as a UTF-16 code unit.
#[inline]
fn hex4(digits: &[u8]) -> Result<u16, Refused> {
    let mut n = 0u16;
    for &d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return Err(Refused),
        };
        n = (n << 4) | u16::from(v);
    }
    Ok(n)
}

/// Decodes the escape after the backslash at `input[at - 1]` into `out`, and returns where
/// the input continues. In a string (`raw` unset) a surrogate must be a leading one followed
/// by an escaped trailing one; in a byte string (`raw`) a lone one is written as WTF-8, as
/// serde_json writes it.
#[inline]
pub(super) fn unescape(
    input: &[u8],
    at: usize,
    out: &mut Vec<u8>,
    raw: bool,
) -> Result<usize, Refused> {
    let byte = match input.get(at) {
        Some(&b'"') => b'"',
        Some(&b'\\') => b'\\',
        Some(&b'/') => b'/',
        Some(&b'b') => 0x08,
        Some(&b'f') => 0x0C,
        Some(&b'n') => b'\n',
        Some(&b'r') => b'\r',
        Some(&b't') => b'\t',
        Some(&b'u') => return unescape_unicode(input, at + 1, out, raw),
        _ => return Err(Refused),
    };
    out.push(byte);
    Ok(at + 1)
}

/// Decodes the code point of the `\u` escape whose hex digits start at `at`, following
/// serde_json's `parse_unicode_escape` step by step.
#[cold]
fn unescape_unicode(
    input: &[u8],
    mut at: usize,
    out: &mut Vec<u8>,
    raw: bool,
) -> Result<usize, Refused> {
    let mut unit = hex4(input.get(at..at + 4).ok_or(Refused)?)?;
    at += 4;
    if !raw && (0xDC00..=0xDFFF).contains(&unit) {
        return Err(Refused);
    }
    loop {
        if !(0xD800..=0xDBFF).contains(&unit) {
            push_wtf8(u32::from(unit), out);
            return Ok(at);
        }
        // A leading surrogate: a trailing one should follow, escaped.
        match input.get(at) {
            Some(b'\\') => at += 1,
            Some(_) if raw => {
                push_wtf8(u32::from(unit), out);
                return Ok(at);
            }
            _ => return Err(Refused),
        }
        match input.get(at) {
            Some(b'u') => at += 1,
            Some(_) if raw => {
                push_wtf8(u32::from(unit), out);
                return unescape(input, at, out, raw);
            }
            _ => return Err(Refused),
        }
        let low = hex4(input.get(at..at + 4).ok_or(Refused)?)?;
        at += 4;
        if !(0xDC00..=0xDFFF).contains(&low) {
            if !raw {
                return Err(Refused);
            }
            push_wtf8(u32::from(unit), out);
            unit = low;
            continue;
        }
        let c = 0x1_0000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        push_wtf8(c, out);
        return Ok(at);
    }
}

/// Writes the code point `n` (a surrogate too) as UTF-8 would encode it.
fn push_wtf8(n: u32, out: &mut Vec<u8>) {
    let mut buf = [0u8; 4];
    #[expect(
        clippy::cast_possible_truncation,
        reason = "each byte is masked to its bits"
    )]
    let bytes: &[u8] = match n {
        0..=0x7F => {
            buf[0] = n as u8;
            &buf[..1]
        }
        0x80..=0x7FF => {
            buf[0] = 0xC0 | (n >> 6) as u8;
            buf[1] = 0x80 | (n & 0x3F) as u8;
            &buf[..2]
        }
        0x800..=0xFFFF => {
            buf[0] = 0xE0 | (n >> 12) as u8;
            buf[1] = 0x80 | ((n >> 6) & 0x3F) as u8;
            buf[2] = 0x80 | (n & 0x3F) as u8;
            &buf[..3]
        }
        _ => {
            buf[0] = 0xF0 | (n >> 18) as u8;
            buf[1] = 0x80 | ((n >> 12) & 0x3F) as u8;
            buf[2] = 0x80 | ((n >> 6) & 0x3F) as u8;
            buf[3] = 0x80 | (n & 0x3F) as u8;
            &buf[..4]
        }
    };
    out.extend_from_slice(bytes);
}

/// Checks the escape after the backslash at `input[at - 1]` without decoding it, as serde_json
/// skips a string it ignores (any four hex digits after `\u`), and returns where the input
/// continues.
#[inline]
pub(super) fn skip_escape(input: &[u8], at: usize) -> Result<usize, Refused> {
    match input.get(at) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 1),
        Some(b'u') => {
            hex4(input.get(at + 1..at + 5).ok_or(Refused)?)?;
            Ok(at + 5)
        }
        _ => Err(Refused),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first run end, byte by byte, and whether a byte above ASCII comes before it: the
    /// model `plain_run` must agree with.
    fn model(input: &[u8], from: usize) -> (usize, bool) {
        let end = (from..input.len())
            .find(|&at| matches!(input[at], b'"' | b'\\' | 0..0x20))
            .unwrap_or(input.len());
        let before = input.get(from..end).unwrap_or_default();
        (end.max(from), before.iter().any(|&b| b >= 0x80))
    }

    /// The first byte that ends an ASCII run, byte by byte: the model `ascii_run` must agree
    /// with.
    fn ascii_model(input: &[u8], from: usize) -> usize {
        (from..input.len())
            .find(|&at| matches!(input[at], b'"' | b'\\' | 0..0x20 | 0x80..))
            .unwrap_or(input.len().max(from))
    }

    /// Checks that `plain_run` over the build's vector (SSE2, NEON or `simd128`) and over `u64`
    /// blocks (which the other builds use) finds `want`.
    fn check_plain_run(input: &[u8], from: usize, want: (usize, bool)) {
        let swar = plain_run_by::<{ swar::WIDTH }, { swar::BITS }>(input, from, swar::plain_stops);
        assert_eq!(
            [plain_run(input, from), swar],
            [want; 2],
            "{input:?} from {from}"
        );
    }

    /// Checks that `ascii_run` over the build's vector (SSE2, NEON or `simd128`) and over `u64`
    /// blocks (which the other builds use) finds `want`.
    fn check_ascii_run(input: &[u8], from: usize, want: usize) {
        let swar = scan::first_stop::<{ swar::WIDTH }, { swar::BITS }>(
            input,
            from,
            swar::ascii_stops,
            ends_ascii_run,
        );
        assert_eq!(
            [ascii_run(input, from), swar],
            [want; 2],
            "{input:?} from {from}"
        );
    }

    /// Runs `check` on `input` and every start in it, for every input of fewer than 72 plain
    /// bytes (several blocks and a tail) with one of `stops` placed at each position.
    fn each_placement(stops: &[&[u8]], check: impl Fn(&[u8], usize)) {
        for len in 0..72 {
            for at in 0..len {
                for stop in stops {
                    let mut input = vec![b'a'; len];
                    input.splice(at..at + 1, stop.iter().copied());
                    for from in 0..input.len() {
                        check(&input, from);
                    }
                }
            }
        }
    }

    #[test]
    fn plain_run_agrees_with_the_bytes_at_every_offset_and_length() {
        let specials: [&[u8]; 6] = [b"\"", b"\\", b"\x00", b"\x1f", "é".as_bytes(), b"\x7f"];
        each_placement(&specials, |input, from| {
            check_plain_run(input, from, model(input, from));
        });
    }

    /// A byte above ASCII counts only before the run's end: each placement of one and of a
    /// stop after or before it, in and across the vector blocks.
    #[test]
    fn plain_run_notes_bytes_above_ascii_only_before_its_end() {
        for len in 2..40 {
            for high in 0..len - 1 {
                for stop in 0..len {
                    if (high..high + 2).contains(&stop) {
                        continue;
                    }
                    let mut input = vec![b'a'; len];
                    input[high..high + 2].copy_from_slice("é".as_bytes());
                    input[stop] = b'"';
                    for from in 0..input.len() {
                        check_plain_run(&input, from, model(&input, from));
                    }
                }
            }
        }
    }

    #[test]
    fn ascii_run_agrees_with_the_bytes_at_every_offset_and_length() {
        let stops: [&[u8]; 8] = [
            b"\"",
            b"\\",
            b"\x00",
            b"\x1f",
            "é".as_bytes(),
            b"\x80",
            b"\xff",
            b"\x7f",
        ];
        each_placement(&stops, |input, from| {
            check_ascii_run(input, from, ascii_model(input, from));
        });
        // Every byte value, alone after a run: only printable ASCII other than the quote and
        // the backslash continues it.
        for b in 0..=255u8 {
            let mut input = b"abcdefghijklmnopq".to_vec();
            input.push(b);
            input.extend_from_slice(b"rstuvwxyz0123456789\"");
            let stops_at_b = !(0x20..0x80).contains(&b) || b == b'"' || b == b'\\';
            let want = if stops_at_b { 17 } else { input.len() - 1 };
            check_ascii_run(&input, 0, want);
        }
    }

    #[test]
    fn escapes_decode_as_json_says() {
        let mut out = Vec::new();
        let input = br#"n\u00e9\ud83d\ude00\u0000"#;
        let mut at = unescape(input, 0, &mut out, false).unwrap();
        while at < input.len() {
            at = unescape(input, at + 1, &mut out, false).unwrap();
        }
        assert_eq!(out, "\né😀\0".as_bytes());
        for lone in [
            &br"ud800"[..],
            br"udc00",
            br"ud800\u0041",
            br"ud83d",
            br"u12",
            br"x",
        ] {
            assert_eq!(
                unescape(lone, 0, &mut Vec::new(), false),
                Err(Refused),
                "{lone:?}"
            );
        }
        // In a byte string, a lone surrogate is its WTF-8.
        let mut out = Vec::new();
        assert_eq!(unescape(br"ud800\u0041", 0, &mut out, true), Ok(11));
        assert_eq!(out, [0xED, 0xA0, 0x80, b'A']);
        assert_eq!(skip_escape(br"ud800", 0), Ok(5));
        assert_eq!(skip_escape(br"uxyzw", 0), Err(Refused));
    }
}
