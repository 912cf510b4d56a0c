//! JSON numbers, read to the values serde_json (with its `float_roundtrip` feature) reads.
//!
//! The grammar is RFC 8259's, as serde_json applies it: an optional `-`, then `0` or a digit
//! run not starting with `0`, then an optional fraction (`.` and at least one digit) and an
//! optional exponent (`e` or `E`, an optional sign, at least one digit). Its values:
//! - an integer without fraction or exponent is a `u64` when it fits, a negative one an `i64`
//!   when it fits, and `-0` is the float `-0.0`; a negative integer below `i64::MIN` whose
//!   magnitude fits a `u64` is that magnitude converted to `f64` and negated; a longer integer
//!   is a float;
//! - a float is the decimal correctly rounded to `f64` (to `f32` when an `f32` is asked for,
//!   rounded once, as serde_json's `float_roundtrip` reads it), and one that rounds to infinity
//!   is refused ("number out of range").
//!
//! Most floats in documents have at most 15 significant digits and a small exponent: their
//! digits and the power of ten are both exact in an `f64`, so one multiplication or division,
//! correctly rounded by IEEE 754, gives the correctly rounded value (Clinger's fast path). A
//! float of up to 19 digits otherwise goes through the Eisel-Lemire algorithm
//! ([`eisel_lemire`](super::eisel_lemire)) on the significand and exponent already read. Any
//! other float, and the rare one the algorithm cannot decide, is handed to the standard
//! library's parser (`str::parse`, correctly rounded for any number of digits).

use serde::de::Visitor;

use super::eisel_lemire;
use super::refused::Refused;

/// A number as read: serde_json's `ParserNumber`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Number {
    /// A non-negative integer that fits a `u64`.
    U64(u64),
    /// A negative integer that fits an `i64`.
    I64(i64),
    /// Anything else.
    F64(f64),
}

impl Number {
    /// Hands the number to `visitor` in its form, as serde_json's `ParserNumber::visit`.
    #[inline]
    pub(super) fn visit<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self {
            Self::U64(v) => visitor.visit_u64(v),
            Self::I64(v) => visitor.visit_i64(v),
            Self::F64(v) => visitor.visit_f64(v),
        }
    }
}

/// The powers of ten an `f64` holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The powers of ten an `f32` holds exactly.
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// Reads the number starting at `input[start]` (a `-` or a digit, else it is refused), with
/// floats rounded to `f32` when `single` is set. Returns it and where the input continues.
#[inline]
pub(super) fn parse(input: &[u8], start: usize, single: bool) -> Result<(Number, usize), Refused> {
    parse_inlined(input, start, single)
}

/// [`parse`], inlined into its caller: for the `f64` reads, whose numbers come in long arrays
/// (coordinates, series), where the call would cost about a tenth of the read.
#[inline(always)]
pub(super) fn parse_inlined(
    input: &[u8],
    start: usize,
    single: bool,
) -> Result<(Number, usize), Refused> {
    let digit = |at: usize| match input.get(at) {
        Some(&b) if b.is_ascii_digit() => Some(u64::from(b - b'0')),
        _ => None,
    };
    let negative = input.get(start) == Some(&b'-');
    let mut at = start + usize::from(negative);
    let mut significand = match digit(at) {
        Some(0) => {
            at += 1;
            if digit(at).is_some() {
                return Err(Refused);
            }
            0
        }
        Some(d) => {
            at += 1;
            let mut significand = d;
            while let Some(d) = digit(at) {
                match significand.checked_mul(10).and_then(|s| s.checked_add(d)) {
                    Some(s) => significand = s,
                    None => return float(input, start, skip(input, start)?, single),
                }
                at += 1;
            }
            significand
        }
        None => return Err(Refused),
    };
    if matches!(input.get(at), Some(b'.' | b'e' | b'E')) {
        // The fraction's digits join the significand while it stays exact in an `f64`.
        let mut exponent: i64 = 0;
        let mut exact = true;
        if input.get(at) == Some(&b'.') {
            at += 1;
            let first = at;
            // Fractions are often long (coordinates, measures), integers short: only the
            // fraction is read two words at a time, where the loads pay for themselves.
            if let Some((run, joined)) = sixteen_digits(input, at, significand) {
                significand = joined;
                #[expect(clippy::cast_possible_wrap, reason = "a run is at most 16 digits")]
                {
                    exponent -= run as i64;
                }
                at += run;
            }
            while let Some(d) = digit(at) {
                match significand.checked_mul(10).and_then(|s| s.checked_add(d)) {
                    Some(s) if exact => {
                        significand = s;
                        exponent -= 1;
                    }
                    _ => exact = false,
                }
                at += 1;
            }
            if at == first {
                return Err(Refused);
            }
        }
        if matches!(input.get(at), Some(b'e' | b'E')) {
            at += 1;
            let sign = match input.get(at) {
                Some(b'-') => {
                    at += 1;
                    -1
                }
                Some(b'+') => {
                    at += 1;
                    1
                }
                _ => 1,
            };
            let first = at;
            let mut written: i64 = 0;
            while let Some(d) = digit(at) {
                // Past a few digits the exponent is far outside any float's: only its sign
                // and the digits' presence matter, and the slow path reads them.
                if written < 1_000_000 {
                    written = written * 10 + d.cast_signed();
                } else {
                    exact = false;
                }
                at += 1;
            }
            if at == first {
                return Err(Refused);
            }
            exponent += sign * written;
        }
        if exact {
            let f = match fast_float(significand, exponent, single) {
                Some(f) => Some(f),
                None if !single => eisel_lemire::compute_float(exponent, significand),
                None => None,
            };
            if let Some(f) = f {
                if f.is_infinite() {
                    return Err(Refused);
                }
                return Ok((Number::F64(if negative { -f } else { f }), at));
            }
        }
        return float(input, start, at, single);
    }
    let number = if negative {
        let neg = significand.cast_signed().wrapping_neg();
        if neg >= 0 {
            // `-0`, or a magnitude past `i64::MIN`: serde_json's `-(significand as f64)`.
            #[expect(clippy::cast_precision_loss, reason = "serde_json rounds so")]
            Number::F64(-(significand as f64))
        } else {
            Number::I64(neg)
        }
    } else {
        Number::U64(significand)
    };
    Ok((number, at))
}

/// The eight bytes at `input[at..]` read as one little-endian word (the first byte low): how
/// many of them, from the first, are ASCII digits, and every byte's value as a digit (0 to 9
/// for `0` to `9`, above 9 for any other byte). `None` where fewer than eight bytes are left.
#[inline(always)]
fn digit_word(input: &[u8], at: usize) -> Option<(usize, u64)> {
    let bytes: [u8; 8] = input.get(at..at.wrapping_add(8))?.try_into().ok()?;
    let values = u64::from_le_bytes(bytes) ^ 0x3030_3030_3030_3030;
    // A byte's high bit set when its value is above 9: its low seven bits plus 0x76 reach
    // 0x80 from 10 (and never carry into the next byte: at most 0x7F + 0x76), and a value of
    // 0x80 or more has the bit already.
    let not_digit = (((values & 0x7F7F_7F7F_7F7F_7F7F) + 0x7676_7676_7676_7676) | values)
        & 0x8080_8080_8080_8080;
    Some(((not_digit.trailing_zeros() / 8) as usize, values))
}

/// The number whose digits' values (0 to 9) are the eight bytes of `values`, the first digit
/// in the low byte: in three multiplications (fast_float's `parse_eight_digits_unrolled`)
/// instead of eight steps.
#[inline(always)]
const fn combine(values: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 0x000F_4240_0000_0064; // 1,000,000 and 100
    const MUL2: u64 = 0x0000_2710_0000_0001; // 10,000 and 1
    // Pairs of digits: each byte pair's low byte becomes its two-digit value (at most 99).
    let v = values * 10 + (values >> 8);
    // The four pairs combined, the first digit the most significant.
    (v & MASK)
        .wrapping_mul(MUL1)
        .wrapping_add(((v >> 16) & MASK).wrapping_mul(MUL2))
        >> 32
}

/// The number the first `run` (0 to 8) digits of a [`digit_word`] write: the run moved to the
/// word's high end, so that zeros lead it, and combined as eight digits.
#[inline(always)]
fn leading(values: u64, run: usize) -> u64 {
    #[expect(clippy::cast_possible_truncation, reason = "a run is at most 8")]
    let shift = 8 * (8 - run as u32);
    // A run of 0 shifts the whole word out: a shift by 64 bits is `None`, and the number 0.
    combine(values.checked_shl(shift).unwrap_or(0))
}

/// `10^n` for the lengths of a run [`sixteen_digits`] joins.
const POW10_U64: [u64; 17] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100_000_000_000,
    1_000_000_000_000,
    10_000_000_000_000,
    100_000_000_000_000,
    1_000_000_000_000_000,
    10_000_000_000_000_000,
];

/// The run of up to sixteen ASCII digits at `input[at..]` joined to `significand` as that many
/// steps of `significand × 10 + digit` would join them: how many digits (a run of sixteen may
/// go on) and the significand. `None` where fewer than sixteen bytes are left, and where the
/// significand would overflow a `u64`: the caller's steps read those.
///
/// Both words are read and their digits counted without a branch on each digit: a run of eight
/// or more is the first word combined whole and the second word's leading digits, a shorter
/// run the first word's leading digits.
#[inline(always)]
fn sixteen_digits(input: &[u8], at: usize, significand: u64) -> Option<(usize, u64)> {
    let (low_run, low) = digit_word(input, at)?;
    let (high_run, high) = digit_word(input, at.wrapping_add(8))?;
    let (run, digits) = if low_run < 8 {
        (low_run, leading(low, low_run))
    } else {
        // At most 99,999,999 × 10⁸ + 99,999,999: no overflow.
        (
            8 + high_run,
            combine(low) * POW10_U64[high_run] + leading(high, high_run),
        )
    };
    let joined = significand
        .checked_mul(POW10_U64[run])?
        .checked_add(digits)?;
    Some((run, joined))
}

/// Clinger's fast path: `significand × 10^exponent` when both are exact in the float asked for,
/// so that one correctly rounded operation gives the correctly rounded value.
#[inline(always)]
#[expect(
    clippy::cast_precision_loss,
    reason = "the significand is checked to be exact"
)]
fn fast_float(significand: u64, exponent: i64, single: bool) -> Option<f64> {
    let power = usize::try_from(exponent.unsigned_abs()).ok()?;
    if single {
        if significand > 1 << 24 {
            return None;
        }
        let pow = *POW10_F32.get(power)?;
        let s = significand as f32;
        return Some(f64::from(if exponent < 0 { s / pow } else { s * pow }));
    }
    if significand > 1 << 53 {
        return None;
    }
    let pow = *POW10.get(power)?;
    let s = significand as f64;
    Some(if exponent < 0 { s / pow } else { s * pow })
}

/// Where the number starting at `input[start]` ends, its grammar checked and its value not
/// computed, as serde_json skips a number it ignores (one out of a float's range included).
pub(super) fn skip(input: &[u8], start: usize) -> Result<usize, Refused> {
    let digits = |at: usize| match digit_run_end(input, at) {
        end if end == at => Err(Refused),
        end => Ok(end),
    };
    let mut at = integer_end(input, start + usize::from(input.get(start) == Some(&b'-')))?;
    if input.get(at) == Some(&b'.') {
        at = digits(at + 1)?;
    }
    if matches!(input.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(input.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        at = digits(at)?;
    }
    Ok(at)
}

/// The end of the integer part that starts at `at` (after any `-`): a `0` not followed by a
/// digit, or a run of digits not starting with `0`. Anything else is refused.
pub(super) fn integer_end(input: &[u8], at: usize) -> Result<usize, Refused> {
    match input.get(at) {
        Some(b'0') if input.get(at + 1).is_some_and(u8::is_ascii_digit) => Err(Refused),
        Some(b'0') => Ok(at + 1),
        Some(b'1'..=b'9') => Ok(digit_run_end(input, at + 1)),
        _ => Err(Refused),
    }
}

/// The end of the run of ASCII digits that starts at `at` (`at` itself when there is none).
fn digit_run_end(input: &[u8], mut at: usize) -> usize {
    while input.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    at
}

/// The number `input[start..end]`, whose grammar was checked, as a correctly rounded float,
/// refused if it rounds to infinity: the numbers the fast path does not take, and integers too
/// long for a `u64`.
#[cold]
fn float(input: &[u8], start: usize, end: usize, single: bool) -> Result<(Number, usize), Refused> {
    let text = &input[start..end];
    debug_assert!(text.is_ascii(), "a number's grammar admits ASCII only");
    // SAFETY: the grammar of a number admits ASCII digits, `-`, `+`, `.`, `e` and `E` only, all
    // ASCII, so the bytes are UTF-8.
    let text = unsafe { core::str::from_utf8_unchecked(text) };
    let f = if single {
        f64::from(text.parse::<f32>().map_err(|_| Refused)?)
    } else {
        text.parse::<f64>().map_err(|_| Refused)?
    };
    if f.is_infinite() {
        return Err(Refused);
    }
    Ok((Number::F64(f), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Number, Refused> {
        let (n, end) = parse(text.as_bytes(), 0, false)?;
        assert_eq!(end, text.len(), "{text}");
        Ok(n)
    }

    #[test]
    fn integers_floats_and_their_edges_read_as_serde_json_reads_them() {
        assert_eq!(read("0"), Ok(Number::U64(0)));
        assert_eq!(read("18446744073709551615"), Ok(Number::U64(u64::MAX)));
        assert_eq!(
            read("18446744073709551616"),
            Ok(Number::F64(18_446_744_073_709_551_616.0))
        );
        assert_eq!(read("-9223372036854775808"), Ok(Number::I64(i64::MIN)));
        assert_eq!(
            read("-9223372036854775809"),
            Ok(Number::F64(-9_223_372_036_854_775_809.0))
        );
        match read("-0") {
            Ok(Number::F64(f)) => assert!(f == 0.0 && f.is_sign_negative()),
            other => panic!("{other:?}"),
        }
        assert_eq!(read("1.5"), Ok(Number::F64(1.5)));
        assert_eq!(read("-2.5e-3"), Ok(Number::F64(-0.0025)));
        assert_eq!(read("1E+2"), Ok(Number::F64(100.0)));
        assert_eq!(
            read("123456789012345678901234567890.5e-10"),
            Ok(Number::F64(1.2345678901234568e19))
        );
        assert_eq!(read("0.1e99999999999999999999999"), Err(Refused));
        assert_eq!(read("0e99999999999999999999999"), Ok(Number::F64(0.0)));
        assert_eq!(read("1e-99999999999999999999"), Ok(Number::F64(0.0)));
        assert_eq!(read("1e309"), Err(Refused));
        for bad in ["01", "-", "-a", "1.", "1.e5", "1e", "1e+", ".5", "+1", "00"] {
            assert!(parse(bad.as_bytes(), 0, false).is_err(), "{bad}");
        }
        // A number ends where its grammar does; what follows is the caller's.
        assert_eq!(parse(b"12,", 0, false), Ok((Number::U64(12), 2)));
        assert_eq!(parse(b"1.5]", 0, false), Ok((Number::F64(1.5), 3)));
        // A fraction's every digit counts once, read in words or one at a time.
        for (text, value) in [
            ("0.0000000000000009, ", 9e-16),
            ("0.00000000000000009, ", 9e-17),
            ("0.0000000009]", 9e-10),
        ] {
            let end = text.find([',', ']']).unwrap();
            assert_eq!(
                parse(text.as_bytes(), 0, false),
                Ok((Number::F64(value), end))
            );
        }
    }

    #[test]
    fn a_word_of_digits_is_counted_and_combined_as_steps_of_one_digit() {
        assert_eq!(digit_word(b"1234567", 0), None);
        assert_eq!(combine(digit_word(b"12345678", 0).unwrap().1), 12_345_678);
        assert_eq!(combine(digit_word(b"99999999", 0).unwrap().1), 99_999_999);
        // Any byte that is not a digit, at any place, ends the run there.
        for place in 0..8 {
            for b in (0..=255u8).filter(|b| !b.is_ascii_digit()) {
                let mut word = *b"01234567";
                word[place] = b;
                let (run, values) = digit_word(&word, 0).unwrap();
                assert_eq!(run, place, "{word:?}");
                let steps = word[..place]
                    .iter()
                    .fold(0, |s, &d| s * 10 + u64::from(d - b'0'));
                assert_eq!(leading(values, run), steps, "{word:?}");
            }
        }
    }

    #[test]
    fn sixteen_digits_are_read_as_steps_of_one_digit_read_them() {
        let by_steps = |input: &[u8], significand: u64| -> Option<(usize, u64)> {
            let run = input
                .iter()
                .take(16)
                .take_while(|b| b.is_ascii_digit())
                .count();
            if input.len() < 16 {
                return None;
            }
            input[..run]
                .iter()
                .try_fold(significand, |s, &b| {
                    s.checked_mul(10)?.checked_add(u64::from(b - b'0'))
                })
                .map(|s| (run, s))
        };
        let digits = b"98765432109876543210";
        for run in 0..=18 {
            for end in (0..=255u8).filter(|b| !b.is_ascii_digit()) {
                let mut text = digits.to_vec();
                text[run] = end;
                for significand in [0, 7, 1_844, 1_845, u64::MAX / 10_000, u64::MAX] {
                    for len in [15, 16, 17, 20] {
                        let input = &text[..len];
                        assert_eq!(
                            sixteen_digits(input, 0, significand),
                            by_steps(input, significand),
                            "{input:?} {significand}"
                        );
                    }
                }
            }
        }
        assert_eq!(
            sixteen_digits(b"x1234x678901234567", 1, 5),
            Some((4, 51_234))
        );
        assert_eq!(sixteen_digits(b"0000000000000001]", 0, 1_845), None);
    }

    /// Numbers of every length of integer and fraction, against serde_json (with
    /// `float_roundtrip`, as arena-core's tests build it), where whole words of digits are
    /// folded at once and where they cross the overflow bound.
    #[test]
    fn digit_runs_of_every_length_read_as_serde_json_reads_them() {
        let digits = "98765432109876543210987654321098765432";
        for int_len in 1..=digits.len() {
            for frac_len in 0..=24 {
                for sign in ["", "-"] {
                    let text = if frac_len == 0 {
                        format!("{sign}{}", &digits[..int_len])
                    } else {
                        format!("{sign}{}.{}", &digits[..int_len], &digits[..frac_len])
                    };
                    let theirs: serde_json::Number = serde_json::from_str(&text).unwrap();
                    // Followed by more of a document, the fraction is read in whole words.
                    let followed = format!("{text}, 0.5, 1, 2, 3]");
                    assert_eq!(
                        parse(followed.as_bytes(), 0, false),
                        read(&text).map(|n| (n, text.len())),
                        "{followed}"
                    );
                    let ours = match read(&text).unwrap() {
                        Number::U64(v) => serde_json::Number::from(v),
                        Number::I64(v) => serde_json::Number::from(v),
                        Number::F64(v) => serde_json::Number::from_f64(v).unwrap(),
                    };
                    assert_eq!(ours, theirs, "{text}");
                }
            }
        }
    }

    #[test]
    fn floats_are_rounded_once_to_the_width_asked_for() {
        for text in [
            "0.1",
            "3.4028235e38",
            "1.00000011920928955078125",
            "7.038531e-26",
            "2.2250738585072011e-308",
            "4.9e-324",
            "9007199254740993",
            "9007199254740993.0",
            "1.7976931348623157e308",
            "123.456e-7",
        ] {
            let (n, _) = parse(text.as_bytes(), 0, false).unwrap();
            let expected = text.parse::<f64>().unwrap();
            match n {
                Number::F64(f) => assert_eq!(f.to_bits(), expected.to_bits(), "{text}"),
                Number::U64(u) => assert_eq!(u.to_string(), text),
                Number::I64(_) => unreachable!(),
            }
            let expected = text.parse::<f32>().unwrap();
            match parse(text.as_bytes(), 0, true) {
                Ok((Number::F64(f), _)) => assert_eq!(f, f64::from(expected), "{text} as f32"),
                Ok((Number::U64(_), _)) => {}
                // Past `f32::MAX`: out of range, as serde_json says.
                other => assert!(
                    expected.is_infinite() && other.is_err(),
                    "{text}: {other:?}"
                ),
            }
        }
    }
}
