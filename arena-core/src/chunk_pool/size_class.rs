//! Size arithmetic of the pool: size classes, page rounding. Small, checked, safe functions;
//! the unsafe core only consumes their results.

/// Granularity of every chunk size and the alignment every chunk start is guaranteed to have
/// (the smallest page size of the platforms we map on).
pub(crate) const PAGE: usize = 4096;

/// Largest size a chunk may have: `Layout` and pointer offsets need sizes up to `isize::MAX`.
const MAX_CHUNK: usize = isize::MAX as usize - (PAGE - 1);

/// Rounds `n` up to a multiple of `align` (a power of two), or `None` on overflow.
#[must_use]
pub(crate) const fn round_up(n: usize, align: usize) -> Option<usize> {
    debug_assert!(align.is_power_of_two());
    match n.checked_add(align - 1) {
        Some(v) => Some(v & !(align - 1)),
        None => None,
    }
}

/// Where a chunk request of some size is served from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// The size class with this index (its chunks are `Classes::size(index)` bytes).
    Class(usize),
    /// A dedicated chunk of exactly this many bytes (a multiple of [`PAGE`]), for requests
    /// larger than the largest class.
    Dedicated(usize),
}

impl Fit {
    /// The chunk size this fit hands out.
    #[must_use]
    pub(crate) fn chunk_size(self, classes: Classes) -> usize {
        match self {
            Fit::Class(index) => classes.size(index),
            Fit::Dedicated(size) => size,
        }
    }
}

/// The pool's size classes: powers of two from `2^min_shift` to `2^max_shift` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Classes {
    /// `log2` of the smallest class; `2^min_shift >= PAGE`.
    min_shift: u32,
    /// `log2` of the largest class; `min_shift <= max_shift` and `2^max_shift <= MAX_CHUNK`.
    max_shift: u32,
}

impl Classes {
    /// Classes from `min` to `max` bytes, both powers of two, `PAGE <= min <= max`, or a message
    /// saying what is wrong.
    pub(crate) fn new(min: usize, max: usize) -> Result<Self, &'static str> {
        if !min.is_power_of_two() || !max.is_power_of_two() {
            return Err("chunk sizes must be powers of two");
        }
        if min < PAGE {
            return Err("the smallest chunk size must be at least 4 KiB");
        }
        if min > max {
            return Err("the smallest chunk size must not exceed the largest");
        }
        if max > MAX_CHUNK {
            return Err("the largest chunk size must be below isize::MAX");
        }
        Ok(Self {
            min_shift: min.trailing_zeros(),
            max_shift: max.trailing_zeros(),
        })
    }

    /// Number of classes.
    #[must_use]
    pub(crate) fn count(self) -> usize {
        (self.max_shift - self.min_shift + 1) as usize
    }

    /// Chunk size of class `index` (`index < count()`).
    #[must_use]
    pub(crate) fn size(self, index: usize) -> usize {
        debug_assert!(index < self.count(), "class {index} out of range");
        1usize << (self.min_shift as usize + index)
    }

    /// The smallest class size.
    #[must_use]
    pub(crate) fn min(self) -> usize {
        1usize << self.min_shift
    }

    /// The largest class size.
    #[must_use]
    pub(crate) fn max(self) -> usize {
        1usize << self.max_shift
    }

    /// Where a request for at least `size` bytes is served from, or `None` when no chunk of
    /// that size can exist (rounding overflows or it exceeds `isize::MAX`).
    #[must_use]
    pub(crate) fn fit(self, size: usize) -> Option<Fit> {
        if size <= self.min() {
            return Some(Fit::Class(0));
        }
        if size <= self.max() {
            // `size <= max <= 2^62`, so the next power of two exists.
            let class = size.next_power_of_two();
            return Some(Fit::Class(
                (class.trailing_zeros() - self.min_shift) as usize,
            ));
        }
        let rounded = round_up(size, PAGE)?;
        (rounded <= MAX_CHUNK).then_some(Fit::Dedicated(rounded))
    }

    /// Where a chunk of exactly `size` bytes (rounded up to a page) comes from: the class of
    /// that size if it is one (or the smallest class for smaller sizes), else a dedicated chunk
    /// of the rounded size. `None` when no chunk of that size can exist. Every class chunk's
    /// size fits its own class, so this also tells where a chunk given back belongs.
    #[must_use]
    pub(crate) fn fit_exact(self, size: usize) -> Option<Fit> {
        let rounded = round_up(size, PAGE)?;
        if rounded <= self.min() || (rounded <= self.max() && rounded.is_power_of_two()) {
            return self.fit(rounded);
        }
        (rounded <= MAX_CHUNK).then_some(Fit::Dedicated(rounded))
    }

    /// The chunk size a request for `size` bytes gets, or `None` as for [`fit`](Self::fit).
    #[must_use]
    pub(crate) fn chunk_size_for(self, size: usize) -> Option<usize> {
        self.fit(size).map(|fit| fit.chunk_size(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_fits_are_classes_only_for_class_sizes() {
        let c = Classes::new(64 * 1024, 64 * 1024 * 1024).unwrap();
        assert_eq!(c.fit_exact(1), Some(Fit::Class(0)));
        assert_eq!(c.fit_exact(64 * 1024), Some(Fit::Class(0)));
        assert_eq!(c.fit_exact(4 << 20), Some(Fit::Class(6)));
        assert_eq!(c.fit_exact((4 << 20) - 1), Some(Fit::Class(6)));
        assert_eq!(
            c.fit_exact((4 << 20) + 1),
            Some(Fit::Dedicated((4 << 20) + PAGE))
        );
        assert_eq!(c.fit_exact(100_000), Some(Fit::Dedicated(25 * PAGE)));
        assert_eq!(c.fit_exact(usize::MAX), None);
        for index in 0..c.count() {
            assert_eq!(c.fit_exact(c.size(index)), Some(Fit::Class(index)));
        }
    }

    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;

    #[test]
    fn round_up_is_checked() {
        assert_eq!(round_up(0, 8), Some(0));
        assert_eq!(round_up(1, 8), Some(8));
        assert_eq!(round_up(8, 8), Some(8));
        assert_eq!(round_up(4097, PAGE), Some(2 * PAGE));
        assert_eq!(round_up(usize::MAX, 2), None);
        assert_eq!(round_up(usize::MAX - 6, 8), None);
        assert_eq!(round_up(usize::MAX - 7, 8), Some(usize::MAX - 7));
    }

    #[test]
    fn classes_reject_bad_ranges() {
        assert!(Classes::new(64 * KIB, 64 * MIB).is_ok());
        assert!(Classes::new(PAGE, PAGE).is_ok());
        assert!(Classes::new(3 * KIB, 64 * MIB).is_err());
        assert!(Classes::new(64 * KIB, 3 * MIB).is_err());
        assert!(Classes::new(2 * KIB, 64 * MIB).is_err());
        assert!(Classes::new(2 * MIB, MIB).is_err());
        assert!(Classes::new(64 * KIB, 1 << (usize::BITS - 1)).is_err());
    }

    #[test]
    fn requests_map_to_the_smallest_class_that_holds_them() {
        let c = Classes::new(64 * KIB, 64 * MIB).unwrap();
        assert_eq!(c.count(), 11);
        assert_eq!(c.size(0), 64 * KIB);
        assert_eq!(c.size(10), 64 * MIB);
        assert_eq!(c.fit(0), Some(Fit::Class(0)));
        assert_eq!(c.fit(64 * KIB), Some(Fit::Class(0)));
        assert_eq!(c.fit(64 * KIB + 1), Some(Fit::Class(1)));
        assert_eq!(c.fit(MIB), Some(Fit::Class(4)));
        assert_eq!(c.fit(64 * MIB), Some(Fit::Class(10)));
        assert_eq!(c.fit(64 * MIB + 1), Some(Fit::Dedicated(64 * MIB + PAGE)));
        assert_eq!(c.chunk_size_for(100 * MIB + 5), Some(100 * MIB + PAGE));
        assert_eq!(c.fit(usize::MAX), None);
        assert_eq!(c.fit(isize::MAX as usize), None);
    }

    #[test]
    fn every_size_fits_its_class() {
        let c = Classes::new(PAGE, 1 << 20).unwrap();
        for size in (0..(3 << 20)).step_by(997) {
            let chunk = c.chunk_size_for(size).unwrap();
            assert!(
                chunk >= size && chunk.is_multiple_of(PAGE),
                "{size} -> {chunk}"
            );
            if let Some(Fit::Class(i)) = c.fit(size) {
                assert!(
                    i == 0 || c.size(i - 1) < size,
                    "{size} not in smallest class"
                );
            }
        }
    }
}
