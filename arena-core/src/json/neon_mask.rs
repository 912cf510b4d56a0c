//! [`nibbles`]: NEON's stand-in for x86's `movemask`, shared by the string and whitespace
//! scans on aarch64.

use core::arch::aarch64::{
    uint8x16_t, vget_lane_u64, vreinterpret_u64_u8, vreinterpretq_u16_u8, vshrn_n_u16,
};

/// The bytes of `mask` (each `0x00` or `0xFF`) as 4 bits each of a `u64`, in order, by one
/// narrowing shift: the first set byte is `trailing_zeros() / 4`.
#[inline(always)]
pub(super) fn nibbles(mask: uint8x16_t) -> u64 {
    // SAFETY: register operations only, with NEON, which every aarch64 CPU has.
    unsafe {
        vget_lane_u64::<0>(vreinterpret_u64_u8(vshrn_n_u16::<4>(vreinterpretq_u16_u8(
            mask,
        ))))
    }
}
