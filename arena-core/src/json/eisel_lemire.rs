//! The Eisel-Lemire algorithm: the `f64` nearest `w × 10^q` for a significand `w` of at most
//! 19 digits, from one (rarely two) 64×64-bit multiplications by a 128-bit power of five, or
//! `None` in the rare cases it cannot decide, which the caller hands to a slower exact parser.
//!
//! It is Rust's `core::num::dec2flt::lemire::compute_float` for `f64` (after Daniel Lemire,
//! "Number Parsing at a Gigabyte per Second", 2021), which the standard library's parser runs
//! after reading the digits from text: the reader has read them already, so it calls the
//! algorithm on its significand and exponent directly.

use super::pow5::{LARGEST, POWERS, SMALLEST};

/// Bits of an `f64`'s significand after its hidden bit.
const MANTISSA_BITS: i32 = 52;
/// The biased exponent of `f64` infinity.
const INFINITE_POWER: i32 = 0x7FF;
/// The smallest binary exponent of a normal `f64`, less one (the bias, negated).
const MINIMUM_EXPONENT: i32 = -1023;
/// The decimal exponents where a product can fall exactly halfway between two `f64`s.
const ROUND_TO_EVEN: core::ops::RangeInclusive<i64> = -4..=23;

/// The `f64` nearest `w × 10^q`, or `None` when the product's approximation cannot tell.
#[inline(always)]
pub(super) fn compute_float(q: i64, w: u64) -> Option<f64> {
    if w == 0 || q < SMALLEST {
        return Some(0.0);
    }
    if q > LARGEST {
        return Some(f64::INFINITY);
    }
    let lz = w.leading_zeros();
    let w = w << lz;
    let (lo, hi) = product_approx(q, w);
    // An approximation whose low bits are all ones may be one unit short, which may cross a
    // halfway point; outside this range of exponents it cannot be told from the exact product.
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upperbit = i32::from(hi >> 63 == 1);
    let shift = upperbit + 64 - MANTISSA_BITS - 3;
    let mut mantissa = hi >> shift;
    #[expect(clippy::cast_possible_truncation, reason = "q is within -342..=308")]
    let mut power2 = power(q as i32) + upperbit - lz.cast_signed() - MINIMUM_EXPONENT;
    if power2 <= 0 {
        if -power2 + 1 >= 64 {
            return Some(0.0);
        }
        // A subnormal.
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        power2 = i32::from(mantissa >= (1 << MANTISSA_BITS));
        return Some(from_parts(mantissa, power2));
    }
    // Exactly halfway: round to even, down when the bit kept is even.
    if lo <= 1 && ROUND_TO_EVEN.contains(&q) && mantissa & 3 == 1 && (mantissa << shift) == hi {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= (2 << MANTISSA_BITS) {
        mantissa = 1 << MANTISSA_BITS;
        power2 += 1;
    }
    mantissa &= !(1 << MANTISSA_BITS);
    if power2 >= INFINITE_POWER {
        return Some(f64::INFINITY);
    }
    Some(from_parts(mantissa, power2))
}

/// The `f64` of biased exponent `power2` and significand bits `mantissa`.
#[inline(always)]
fn from_parts(mantissa: u64, power2: i32) -> f64 {
    f64::from_bits(mantissa | (u64::from(power2.cast_unsigned()) << MANTISSA_BITS))
}

/// `⌊log2(10^q)⌋ + 63`, exact over the table's range.
#[inline(always)]
const fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

/// The top 128 bits of `w × 5^q` as (low, high), the second multiplication made only when the
/// first leaves the bits that decide the rounding unknown.
#[inline(always)]
fn product_approx(q: i64, w: u64) -> (u64, u64) {
    // Enough bits for the significand, its hidden bit, the rounding bit and a leading zero.
    const MASK: u64 = u64::MAX >> (MANTISSA_BITS + 3);
    #[expect(
        clippy::cast_possible_truncation,
        reason = "q is within the table's range"
    )]
    let (high5, low5) = POWERS[(q - SMALLEST) as usize];
    let (mut first_lo, mut first_hi) = full_multiplication(w, high5);
    if first_hi & MASK == MASK {
        let (_, second_hi) = full_multiplication(w, low5);
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi += 1;
        }
    }
    (first_lo, first_hi)
}

/// `a × b` as (low, high) 64 bits.
#[inline]
#[expect(clippy::cast_possible_truncation, reason = "the halves of a u128")]
const fn full_multiplication(a: u64, b: u64) -> (u64, u64) {
    let r = (a as u128) * (b as u128);
    (r as u64, (r >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (splitmix64).
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Checks `w × 10^q` against the standard library's parser, where the algorithm decides.
    fn check(w: u64, q: i64) -> bool {
        let expected: f64 = format!("{w}e{q}").parse().unwrap();
        match compute_float(q, w) {
            Some(f) => {
                assert_eq!(
                    f.to_bits(),
                    expected.to_bits(),
                    "{w}e{q}: {f:e} against {expected:e}"
                );
                true
            }
            None => false,
        }
    }

    #[test]
    fn the_table_starts_and_turns_where_fast_float_s_does() {
        assert_eq!(POWERS[0], (0xeef4_53d6_923b_d65a, 0x113f_aa29_06a1_3b3f));
        assert_eq!(POWERS[342], (0x8000_0000_0000_0000, 0));
        assert_eq!(POWERS[343], (0xa000_0000_0000_0000, 0));
        assert_eq!(
            POWERS.len(),
            usize::try_from(LARGEST - SMALLEST + 1).unwrap()
        );
    }

    #[test]
    fn products_round_as_the_standard_library_rounds() {
        let mut state = 7;
        let mut decided = 0;
        for i in 0..400_000u32 {
            let digits = next(&mut state) % 20;
            let w = next(&mut state) % 10u64.pow(u32::try_from(digits).unwrap()).max(1);
            let q = i64::try_from(next(&mut state) % 700).unwrap() - 350;
            // Every tenth near the ends of the range and the halfway band.
            let q = if i % 10 == 0 { q % 30 } else { q };
            decided += u32::from(check(w, q));
        }
        assert!(decided > 390_000, "{decided}");
        // Halfway cases and the edges of the range.
        for (w, q) in [
            (9_007_199_254_740_993, 0),
            (9_007_199_254_740_995, 0),
            (22_517_998_136_852_481, -1),
            (1, -324),
            (25, -325),
            (24_703_282_292_062_327, -343),
            (17_976_931_348_623_157, 292),
            (17_976_931_348_623_159, 292),
            (22_250_738_585_072_011, -324),
            (u64::MAX, 0),
            (u64::MAX, -19),
            (1, 308),
            (1, 309),
        ] {
            check(w, q);
        }
    }
}
