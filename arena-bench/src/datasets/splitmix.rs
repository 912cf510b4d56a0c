//! A small deterministic generator (splitmix64): the synthetic datasets come out the same on
//! every machine and run.

/// splitmix64's state.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// One of `items` (not empty).
    pub(crate) fn pick<'t>(&mut self, items: &[&'t str]) -> &'t str {
        items[usize::try_from(self.below(items.len() as u64)).unwrap_or(0)]
    }
}
