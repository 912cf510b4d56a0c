//! The pool's memory on wasm32: linear memory, grown with `memory.grow` and never given back.
//!
//! A Wasm instance's memory only grows: no page can go back to the engine, so an "unmap" here
//! keeps the span for the next chunk of any pool in the process. The global allocator
//! (dlmalloc by default) grows the same memory for the rest of the program, so the spans this
//! module owns are the pieces of linear memory it grew itself, in address order, with the
//! free ones coalesced.
//!
//! Chunks are carved from free spans first fit, lowest address first. When none holds a
//! request, one `memory.grow` adds what the request lacks (the free span at the top of memory,
//! if any, counts towards it), and at least [`MIN_STEP`] and an eighth of what this module has
//! grown so far ([`STEP_DIVISOR`]). An arena that grows to `n` bytes through 1 MiB chunks
//! therefore costs `O(log n)` grows (about 38 for 250 MB, 61 to fill the whole 4 GiB), where a
//! grow per chunk would cost hundreds, and it holds at most an eighth (or 1 MiB) more linear
//! memory than its chunks. Each grow is an OS call in the pool's stats:
//! [`PoolStats::os_map_calls`](crate::PoolStats::os_map_calls) counts them.
//!
//! [`Spans`] is the bookkeeping alone, over addresses as integers and a [`Memory`] that grows:
//! safe code, tested natively against a model (`tests` below), with the real memory on wasm32
//! and a simulated one in the tests.

/// Size of a Wasm page, the unit of `memory.grow`.
pub(super) const WASM_PAGE: usize = 64 * 1024;

/// The least one grow adds: 1 MiB, so that the many small chunks of a fresh arena's first
/// megabytes (64 KiB each) take one grow, not sixteen.
pub(super) const MIN_STEP: usize = 1 << 20;

/// One grow adds at least `1 / STEP_DIVISOR` of what has been grown so far: growth is
/// geometric (a bounded number of grows for any size), and an eighth is what the memory may
/// hold beyond its chunks.
pub(super) const STEP_DIVISOR: usize = 8;

/// Linear memory as the bookkeeping sees it.
pub(super) trait Memory {
    /// Current size in Wasm pages.
    fn size_pages(&self) -> usize;
    /// Grows by `pages` pages: the previous size in pages, or `None` if the engine refuses.
    fn grow(&mut self, pages: usize) -> Option<usize>;
}

/// A span of linear memory, `start..end`, both multiples of `PAGE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    fn len(self) -> usize {
        self.end - self.start
    }
}

/// The free spans of the memory this module grew, and how much it grew.
#[derive(Debug)]
pub(super) struct Spans {
    /// Free spans in address order: disjoint, none empty, none adjacent to the next (adjacent
    /// ones are merged), each `PAGE`-aligned at both ends.
    free: Vec<Span>,
    /// Bytes grown by this module since the process started.
    grown: usize,
}

impl Spans {
    /// No memory yet.
    pub(super) const fn new() -> Self {
        Self {
            free: Vec::new(),
            grown: 0,
        }
    }

    /// Takes `size` bytes (a non-zero multiple of `PAGE`) from the lowest free span that holds
    /// them, growing `memory` when none does, each grow counted in `grows`. Returns the
    /// address of the first byte (`PAGE`-aligned), or `None` when the engine refuses to grow
    /// or the memory would pass the end of the address space.
    pub(super) fn take(
        &mut self,
        size: usize,
        memory: &mut impl Memory,
        grows: &mut u64,
    ) -> Option<usize> {
        debug_assert!(size > 0 && size.is_multiple_of(super::PAGE), "{size}");
        loop {
            if let Some(index) = self.free.iter().position(|span| span.len() >= size) {
                let span = &mut self.free[index];
                let start = span.start;
                span.start += size;
                if span.start == span.end {
                    self.free.remove(index);
                }
                return Some(start);
            }
            let (start, len) = self.grow(size, memory)?;
            *grows += 1;
            // New memory, which no span covers.
            self.give(start, len);
        }
    }

    /// One grow for a request of `size` bytes that no free span holds: the new span's start
    /// and length.
    fn grow(&mut self, size: usize, memory: &mut impl Memory) -> Option<(usize, usize)> {
        let end = memory.size_pages().checked_mul(WASM_PAGE)?;
        // The free span at the top of memory, if there is one, is extended by the grow.
        let top = self
            .free
            .last()
            .filter(|span| span.end == end)
            .map_or(0, |span| span.len());
        let lack = size - top;
        let step = lack
            .max(self.grown / STEP_DIVISOR)
            .max(MIN_STEP)
            .checked_next_multiple_of(WASM_PAGE)?;
        // The last page's end would be 2^32 on wasm32, no address: never grow into it.
        let room = (usize::MAX - end) / WASM_PAGE * WASM_PAGE;
        let step = step.min(room);
        if step < lack {
            return None;
        }
        let previous = memory.grow(step / WASM_PAGE)?;
        // `previous` is `end`'s page unless another thread grew the memory meanwhile; then the
        // new pages may lie past the last address, and are left unused.
        let start = previous.checked_mul(WASM_PAGE)?;
        start.checked_add(step)?;
        self.grown += step;
        Some((start, step))
    }

    /// Takes back `size` bytes at `start`, a span [`take`](Self::take) handed out (or a part
    /// of one), merging it with its free neighbours.
    pub(super) fn give(&mut self, start: usize, size: usize) {
        let end = start + size;
        let index = self.free.partition_point(|span| span.start < start);
        debug_assert!(
            index == self.free.len() || end <= self.free[index].start,
            "{start:#x}+{size:#x} overlaps a free span"
        );
        debug_assert!(
            index == 0 || self.free[index - 1].end <= start,
            "{start:#x}+{size:#x} overlaps a free span"
        );
        let joins_previous = index > 0 && self.free[index - 1].end == start;
        let joins_next = index < self.free.len() && self.free[index].start == end;
        match (joins_previous, joins_next) {
            (true, true) => {
                self.free[index - 1].end = self.free[index].end;
                self.free.remove(index);
            }
            (true, false) => self.free[index - 1].end = end,
            (false, true) => self.free[index].start = start,
            (false, false) => self.free.insert(index, Span { start, end }),
        }
    }

    /// Free bytes held.
    #[cfg(test)]
    fn free_bytes(&self) -> usize {
        self.free.iter().map(|span| span.len()).sum()
    }

    /// Asserts the field invariants of `free`.
    #[cfg(test)]
    fn check_invariants(&self) {
        for span in &self.free {
            assert!(span.start < span.end, "{span:?} is empty");
            assert!(span.start.is_multiple_of(super::PAGE) && span.end.is_multiple_of(super::PAGE));
        }
        for pair in self.free.windows(2) {
            assert!(
                pair[0].end < pair[1].start,
                "{pair:?} out of order, overlapping or adjacent"
            );
        }
        assert!(self.free_bytes() <= self.grown);
    }
}

#[cfg(test)]
mod tests {
    use super::super::PAGE;
    use super::*;
    use proptest::prelude::*;

    /// A linear memory of `pages` pages, of which `limit` at most; `foreign` grows made by
    /// someone else (the global allocator) are interleaved by the tests.
    struct Simulated {
        pages: usize,
        limit: usize,
    }

    impl Memory for Simulated {
        fn size_pages(&self) -> usize {
            self.pages
        }
        fn grow(&mut self, pages: usize) -> Option<usize> {
            let previous = self.pages;
            (previous + pages <= self.limit).then(|| {
                self.pages += pages;
                previous
            })
        }
    }

    fn memory() -> Simulated {
        // 17 pages of program (data, stack, the global allocator's first heap), 4 GiB at most.
        Simulated {
            pages: 17,
            limit: 1 << 16,
        }
    }

    #[test]
    fn an_arena_of_1_mib_chunks_grows_memory_a_few_dozen_times() {
        let (mut spans, mut memory, mut grows) = (Spans::new(), memory(), 0);
        let mut held = 0;
        while held < 250_000_000 {
            let chunk = if held < 16 << 20 { 64 << 10 } else { 1 << 20 };
            spans.take(chunk, &mut memory, &mut grows).unwrap();
            held += chunk;
        }
        spans.check_invariants();
        assert!(grows <= 40, "{grows} grows");
        // Linear memory beyond the program's is the chunks and at most an eighth more.
        let ours = (memory.pages - 17) * WASM_PAGE;
        assert!(ours <= held + held / 8 + MIN_STEP, "{ours} for {held}");
    }

    #[test]
    fn freed_spans_merge_and_serve_a_larger_chunk_without_growing() {
        let (mut spans, mut memory, mut grows) = (Spans::new(), memory(), 0);
        let chunks: Vec<usize> = (0..16)
            .map(|_| spans.take(64 << 10, &mut memory, &mut grows).unwrap())
            .collect();
        assert_eq!(grows, 1);
        // Given back in an order that needs both kinds of merge.
        for &chunk in chunks
            .iter()
            .rev()
            .step_by(2)
            .chain(chunks.iter().step_by(2))
        {
            spans.give(chunk, 64 << 10);
            spans.check_invariants();
        }
        assert_eq!(spans.free.len(), 1);
        assert_eq!(
            spans.take(1 << 20, &mut memory, &mut grows),
            Some(chunks[0])
        );
        assert_eq!(grows, 1);
    }

    #[test]
    fn a_refusing_engine_is_none_and_changes_nothing() {
        let mut memory = Simulated {
            pages: 17,
            limit: 17 + 16,
        };
        let (mut spans, mut grows) = (Spans::new(), 0);
        assert!(spans.take(1 << 20, &mut memory, &mut grows).is_some());
        assert_eq!(spans.take(PAGE, &mut memory, &mut grows), None);
        assert_eq!((grows, memory.pages), (1, 17 + 16));
        spans.check_invariants();
    }

    #[test]
    fn memory_never_reaches_the_end_of_the_address_space() {
        let mut memory = Simulated {
            pages: (usize::MAX / WASM_PAGE) - 10,
            limit: usize::MAX,
        };
        let (mut spans, mut grows) = (Spans::new(), 0);
        // 1 MiB (16 pages) would pass the last page: the step is cut to the 10 pages left.
        let start = spans.take(PAGE, &mut memory, &mut grows).unwrap();
        assert!(start.checked_add(spans.free_bytes() + PAGE).is_some());
        assert_eq!(spans.take(20 * WASM_PAGE, &mut memory, &mut grows), None);
        spans.check_invariants();
    }

    #[derive(Clone, Debug)]
    enum Op {
        /// Take a chunk of this many `PAGE`s.
        Take(usize),
        /// Give back the live chunk at this index (modulo their count).
        Give(usize),
        /// The global allocator grows the memory by this many Wasm pages.
        Foreign(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (1usize..600).prop_map(Op::Take),
            3 => any::<usize>().prop_map(Op::Give),
            1 => (1usize..40).prop_map(Op::Foreign),
        ]
    }

    proptest! {
        /// Against a model of which bytes are whose: every chunk lies in memory this module
        /// grew, no two chunks or a chunk and a free span overlap, free bytes plus live bytes
        /// are everything grown, and a grow happens only when no free span could serve.
        #[test]
        fn spans_follow_the_model(ops in proptest::collection::vec(op(), 1..120)) {
            let (mut spans, mut memory, mut grows) = (Spans::new(), memory(), 0u64);
            let mut live: Vec<(usize, usize)> = Vec::new();
            let mut ours: Vec<(usize, usize)> = Vec::new();
            for op in ops {
                match op {
                    Op::Take(pages) => {
                        let size = pages * PAGE;
                        let could_serve = spans.free.iter().any(|span| span.len() >= size);
                        let before = grows;
                        let pages_before = memory.pages;
                        let start = spans.take(size, &mut memory, &mut grows).unwrap();
                        prop_assert_eq!(grows > before, !could_serve);
                        if grows > before {
                            // Grown right after our top span, the new pages extend it.
                            let grown = (pages_before * WASM_PAGE, memory.pages * WASM_PAGE);
                            match ours.last_mut() {
                                Some(last) if last.1 == grown.0 => last.1 = grown.1,
                                _ => ours.push(grown),
                            }
                        }
                        prop_assert!(start.is_multiple_of(PAGE));
                        prop_assert!(ours.iter().any(|&(s, e)| s <= start && start + size <= e));
                        for &(s, len) in &live {
                            prop_assert!(start + size <= s || s + len <= start);
                        }
                        for span in &spans.free {
                            prop_assert!(start + size <= span.start || span.end <= start);
                        }
                        live.push((start, size));
                    }
                    Op::Give(index) if !live.is_empty() => {
                        let (start, size) = live.swap_remove(index % live.len());
                        spans.give(start, size);
                    }
                    Op::Give(_) => {}
                    Op::Foreign(pages) => {
                        memory.grow(pages).unwrap();
                    }
                }
                spans.check_invariants();
                let live_bytes: usize = live.iter().map(|&(_, len)| len).sum();
                prop_assert_eq!(live_bytes + spans.free_bytes(), spans.grown);
            }
        }
    }
}
