//! Size arithmetic of the arena: how big a chunk an allocation needs, which chunk size to ask
//! the pool for, and the bump step itself. Safe, checked and unit-tested; the unsafe core only
//! consumes the results.

use core::alloc::Layout;

use crate::chunk_pool::{Classes, PAGE};

/// Bytes a chunk must have so that an allocation of `layout` fits below its `header` bytes,
/// wherever the pool maps it (chunk starts are only guaranteed `PAGE` aligned, chunk sizes
/// are multiples of `PAGE`). `None` on overflow.
#[must_use]
pub(crate) fn chunk_bytes_needed(layout: Layout, header: usize) -> Option<usize> {
    let payload = if layout.align() <= PAGE {
        // The chunk end is `PAGE` aligned, so the allocation starts exactly
        // `round_up(size, align)` below it.
        crate::chunk_pool::round_up(layout.size(), layout.align())?
    } else {
        // Rounding down to a larger alignment can lose up to `align - 1` bytes.
        layout.size().checked_add(layout.align() - 1)?
    };
    payload.checked_add(header)
}

/// The chunk size to ask the pool for: a grown chunk (`next`) if it fits under `limit` with
/// the `reserved` bytes the arena already holds, else the smallest chunk that holds `needed`
/// bytes if that fits, else `None` (over the limit, or no such chunk).
#[must_use]
pub(crate) fn chunk_request(
    classes: Classes,
    needed: usize,
    next: usize,
    reserved: usize,
    limit: Option<usize>,
) -> Option<usize> {
    let fits = |size: usize| match limit {
        Some(limit) => reserved
            .checked_add(size)
            .is_some_and(|total| total <= limit),
        None => true,
    };
    let grown = classes.chunk_size_for(needed.max(next))?;
    if fits(grown) {
        return Some(grown);
    }
    let smallest = classes.chunk_size_for(needed)?;
    fits(smallest).then_some(smallest)
}

/// For an allocation too large for the arena's chunks (`needed > max_chunk`): the exact chunk
/// size to ask the pool for (page rounded) and the largest chunk the arena may take without
/// going over `limit`, or `None` when even the exact size is over it (or cannot exist).
#[must_use]
pub(crate) fn exact_request(
    classes: Classes,
    needed: usize,
    reserved: usize,
    limit: Option<usize>,
) -> Option<(usize, usize)> {
    let size = classes.fit_exact(needed)?.chunk_size(classes);
    let max = match limit {
        Some(limit) => limit.checked_sub(reserved)?,
        None => usize::MAX,
    };
    (size <= max).then_some((size, max))
}

/// The chunk for an arena expected to use `used` bytes (a fresh arena's first chunk, sized by
/// what the pool's latest arenas used; or the one chunk a reset keeps): `used` plus the
/// `header`, rounded up to a 32nd of the power of two at or below it (at least a page). At
/// most ~3% more than asked, and documents that vary by a few percent ask for the same size,
/// so the pool hands the same chunk back. `None` on overflow.
#[must_use]
pub(crate) fn sized_chunk(used: usize, header: usize) -> Option<usize> {
    let bytes = used.checked_add(header)?;
    let power = 1usize << (usize::BITS - 1 - bytes.max(1).leading_zeros());
    crate::chunk_pool::round_up(bytes, (power / SIZED_CHUNK_STEPS).max(PAGE))
}

/// Steps per power of two of [`sized_chunk`].
const SIZED_CHUNK_STEPS: usize = 32;

/// The arena's next chunk is about `1 / GROWTH_DIVISOR` of what it already holds: growth by
/// ~6% a chunk rather than doubling, so the partly used last chunk is a small part of the
/// whole (a doubling arena can hold twice its data).
pub(crate) const GROWTH_DIVISOR: usize = 16;

/// The size of the next chunk once the arena holds `reserved` bytes: `reserved / 16`, at
/// least `initial`, at most `max`.
#[must_use]
pub(crate) fn grow(reserved: usize, initial: usize, max: usize) -> usize {
    (reserved / GROWTH_DIVISOR).max(initial).min(max)
}

/// One downward bump step: the address of an allocation of `layout` just below `cursor`, if
/// it stays at or above `bottom`. The same computation as the arena's inlined fast path.
#[must_use]
#[inline(always)]
pub(crate) fn bump_down(cursor: usize, bottom: usize, layout: Layout) -> Option<usize> {
    let addr = cursor.checked_sub(layout.size())? & !(layout.align() - 1);
    (addr >= bottom).then_some(addr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_requests_round_to_pages_and_respect_the_limit() {
        let classes = Classes::new(64 * KIB, 64 * 1024 * KIB).unwrap();
        assert_eq!(
            exact_request(classes, 3 * 1024 * KIB + 1, 0, None),
            Some((3 * 1024 * KIB + PAGE, usize::MAX))
        );
        assert_eq!(
            exact_request(classes, 2 * 1024 * KIB, 0, None),
            Some((2 * 1024 * KIB, usize::MAX)),
            "a class size"
        );
        assert_eq!(
            exact_request(classes, 5 * PAGE, 10 * PAGE, Some(16 * PAGE)),
            None,
            "the smallest class is 64 KiB: over the limit"
        );
        assert_eq!(
            exact_request(classes, 100 * KIB, PAGE, Some(200 * KIB)),
            Some((100 * KIB, 200 * KIB - PAGE))
        );
        assert_eq!(
            exact_request(classes, 100 * KIB, 150 * KIB, Some(200 * KIB)),
            None
        );
        assert_eq!(exact_request(classes, usize::MAX, 0, None), None);
    }

    const KIB: usize = 1024;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn needed_bytes_cover_size_alignment_and_header() {
        assert_eq!(chunk_bytes_needed(layout(1, 1), 32), Some(33));
        assert_eq!(chunk_bytes_needed(layout(1, 8), 32), Some(40));
        assert_eq!(chunk_bytes_needed(layout(4097, 4096), 32), Some(8192 + 32));
        assert_eq!(
            chunk_bytes_needed(layout(10, 8192), 32),
            Some(10 + 8191 + 32)
        );
        let huge = layout(isize::MAX as usize - 7, 8);
        assert_eq!(chunk_bytes_needed(huge, usize::MAX / 2 + 9), None);
        let huge = layout(isize::MAX as usize - 8191, 4096);
        assert_eq!(
            chunk_bytes_needed(huge, 32),
            Some(isize::MAX as usize - 8191 + 32)
        );
    }

    #[test]
    fn needed_bytes_are_enough_at_any_page_aligned_chunk() {
        let header = 32;
        for size in [0, 1, 7, 100, 4095, 4096, 5000, 70_000] {
            for align_shift in 0..14 {
                let l = layout(size, 1 << align_shift);
                let needed = chunk_bytes_needed(l, header).unwrap();
                let chunk = crate::chunk_pool::round_up(needed, PAGE).unwrap();
                for start in (PAGE..16 * PAGE).step_by(PAGE) {
                    let addr = bump_down(start + chunk, start + header, l);
                    assert!(addr.is_some(), "{l:?} in {chunk} bytes at {start:#x}");
                }
            }
        }
    }

    #[test]
    fn requests_grow_until_the_limit() {
        let classes = Classes::new(64 * KIB, 1024 * KIB).unwrap();
        assert_eq!(
            chunk_request(classes, 100, 64 * KIB, 0, None),
            Some(64 * KIB)
        );
        assert_eq!(
            chunk_request(classes, 100, 256 * KIB, 0, None),
            Some(256 * KIB)
        );
        assert_eq!(
            chunk_request(classes, 300 * KIB, 64 * KIB, 0, None),
            Some(512 * KIB)
        );
        // The grown chunk would pass the limit: fall back to the smallest that fits.
        assert_eq!(
            chunk_request(classes, 100, 256 * KIB, 100 * KIB, Some(200 * KIB)),
            Some(64 * KIB)
        );
        assert_eq!(
            chunk_request(classes, 100, 256 * KIB, 150 * KIB, Some(200 * KIB)),
            None
        );
        assert_eq!(
            chunk_request(classes, 100, 64 * KIB, usize::MAX, Some(usize::MAX)),
            None
        );
        assert_eq!(chunk_request(classes, usize::MAX, 0, 0, None), None);
    }

    #[test]
    fn sized_chunks_round_up_by_a_32nd_at_most() {
        assert_eq!(sized_chunk(0, 32), Some(PAGE));
        assert_eq!(sized_chunk(PAGE - 32, 32), Some(PAGE));
        assert_eq!(sized_chunk(PAGE - 31, 32), Some(2 * PAGE));
        let mib = 1024 * KIB;
        // 5 MB + header: steps of 4 MiB / 32 = 128 KiB.
        assert_eq!(sized_chunk(5_000_000, 32), Some(4_992 * KIB));
        assert_eq!(sized_chunk(4 * mib - 32, 32), Some(4 * mib));
        assert_eq!(sized_chunk(4 * mib, 32), Some(4 * mib + 128 * KIB));
        for used in [1, 1000, 70_000, 999_999, 5_123_456, 300_000_000] {
            let size = sized_chunk(used, 32).unwrap();
            assert!(
                size >= used + 32 && size.is_multiple_of(PAGE),
                "{used} -> {size}"
            );
            assert!(size - used - 32 < (used / 32).max(PAGE), "{used} -> {size}");
        }
        assert_eq!(sized_chunk(usize::MAX, 32), None);
        assert_eq!(sized_chunk(usize::MAX - 40, 32), None);
    }

    #[test]
    fn growth_follows_the_held_bytes_between_initial_and_cap() {
        assert_eq!(grow(0, 64, 1024), 64);
        assert_eq!(grow(64 * 16, 64, 1024), 64);
        assert_eq!(grow(128 * 16, 64, 1024), 128);
        assert_eq!(grow(1000 * 16, 64, 1024), 1000);
        assert_eq!(grow(usize::MAX, 64, 1024), 1024);
    }

    #[test]
    fn bump_down_aligns_and_stops_at_bottom() {
        assert_eq!(bump_down(1000, 0, layout(10, 8)), Some(984));
        assert_eq!(bump_down(1000, 990, layout(10, 1)), Some(990));
        assert_eq!(bump_down(1000, 991, layout(10, 1)), None);
        assert_eq!(bump_down(1000, 0, layout(0, 1)), Some(1000));
        assert_eq!(bump_down(5, 0, layout(10, 1)), None);
        assert_eq!(bump_down(1, 1, layout(0, 1)), Some(1));
        assert_eq!(bump_down(1, 1, layout(0, 2)), None);
    }
}
