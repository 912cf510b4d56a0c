//! [`PoolStats`]: what a [`ChunkPool`] holds, per size class: the snapshot
//! [`ChunkPool::stats`] takes under the pool's lock, and its `Display` table.

use core::fmt;

use super::ChunkPool;

/// Chunk counts of one size class (or of the dedicated chunks).
///
/// Counts of chunks add up: `in_use + free + released == ever_mapped`, and
/// `mapped == in_use + free`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassStats {
    /// Chunk size of the class, or `None` for the dedicated chunks: each of its own
    /// page-rounded size, one that is no class size (a request larger than the largest class,
    /// or an arena's allocation larger than its chunks).
    pub chunk_size: Option<usize>,
    /// Chunks currently mapped (in use or free).
    pub mapped: usize,
    /// Chunks currently held by arenas.
    pub in_use: usize,
    /// Chunks mapped and waiting in the free list.
    pub free: usize,
    /// Chunks given back to the OS since the pool was created.
    pub released: u64,
    /// Chunks mapped since the pool was created.
    pub ever_mapped: u64,
    /// Bytes currently mapped in this class.
    pub bytes_mapped: usize,
    /// Bytes currently held by arenas in this class.
    pub bytes_in_use: usize,
}

/// A snapshot of a [`ChunkPool`]: per class counts, bytes and OS calls.
///
/// `Display` prints it as a table with utilization and fragmentation in percent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// One entry per size class, smallest first.
    pub classes: Vec<ClassStats>,
    /// The dedicated chunks (sizes that are no class size).
    pub dedicated: ClassStats,
    /// Bytes currently mapped from the OS.
    pub bytes_mapped: usize,
    /// Bytes currently held by arenas.
    pub bytes_in_use: usize,
    /// Bytes mapped and free (`bytes_mapped - bytes_in_use`).
    pub bytes_free: usize,
    /// The largest `bytes_mapped` seen.
    pub peak_bytes_mapped: usize,
    /// Bytes given back to the OS since the pool was created.
    pub bytes_released: u64,
    /// Free bytes the pool keeps mapped right now before it starts giving memory back.
    pub reserve_bytes: usize,
    /// The pool-wide limit on mapped bytes, if any.
    pub limit: Option<usize>,
    /// Calls that mapped memory: `mmap` on unix, `memory.grow` on wasm32 (one grow serves
    /// many chunks), `std::alloc::alloc` elsewhere.
    pub os_map_calls: u64,
    /// Calls that gave memory back: `munmap` on unix, `std::alloc::dealloc` elsewhere; none on
    /// wasm32, where memory never shrinks (a released chunk's memory serves the next chunk of
    /// any pool, and no other allocation).
    pub os_unmap_calls: u64,
    /// `madvise` calls (huge pages).
    pub os_advise_calls: u64,
}

impl PoolStats {
    /// All OS calls made so far: map, unmap and advise. Compare two snapshots to count the
    /// calls of a piece of work.
    #[must_use]
    pub fn os_calls(&self) -> u64 {
        self.os_map_calls + self.os_unmap_calls + self.os_advise_calls
    }

    /// Chunks the pool has taken from its memory source since it was created, of every class:
    /// one `mmap` each on unix, where many share a `memory.grow` on wasm32.
    #[must_use]
    pub fn chunks_mapped(&self) -> u64 {
        self.each_class().map(|c| c.ever_mapped).sum()
    }

    /// Chunks the pool has given back to its memory source since it was created.
    #[must_use]
    pub fn chunks_released(&self) -> u64 {
        self.each_class().map(|c| c.released).sum()
    }

    /// The size classes' counts and the dedicated chunks'.
    fn each_class(&self) -> impl Iterator<Item = &ClassStats> {
        self.classes.iter().chain(core::iter::once(&self.dedicated))
    }

    /// Share of the mapped bytes held by arenas, in percent (100 for an empty pool).
    #[must_use]
    pub fn utilization_percent(&self) -> f64 {
        percent(self.bytes_in_use, self.bytes_mapped, 100.0)
    }

    /// External fragmentation of the free memory, in percent: `1 - largest free chunk / free
    /// bytes`. 0 when all free memory is one chunk (or there is none), close to 100 when it is
    /// spread over many small chunks.
    ///
    /// The stats keep only the total of the free dedicated chunks: with several of them, their
    /// mean size stands for the largest, so the figure is then an upper bound.
    #[must_use]
    pub fn fragmentation_percent(&self) -> f64 {
        if self.bytes_free == 0 {
            0.0
        } else {
            100.0 - percent(self.largest_free_chunk(), self.bytes_free, 0.0)
        }
    }

    /// Size of the largest free chunk: a class chunk, or a dedicated one (exact when one is
    /// free, else their mean, which the largest is at least).
    fn largest_free_chunk(&self) -> usize {
        let class = self
            .classes
            .iter()
            .filter(|c| c.free > 0)
            .filter_map(|c| c.chunk_size)
            .max()
            .unwrap_or(0);
        let d = &self.dedicated;
        let dedicated = match d.free {
            0 => 0,
            free => d.bytes_mapped.saturating_sub(d.bytes_in_use).div_ceil(free),
        };
        class.max(dedicated)
    }
}

#[expect(
    clippy::cast_precision_loss,
    reason = "a percentage for display; a relative error of 2^-52 is invisible"
)]
fn percent(part: usize, whole: usize, if_empty: f64) -> f64 {
    if whole == 0 {
        if_empty
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// `n` bytes in the largest binary unit that keeps it at least 1, with one decimal.
pub(crate) struct Bytes(pub(crate) u64);

impl fmt::Display for Bytes {
    #[expect(
        clippy::cast_precision_loss,
        reason = "a size for display, one decimal"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
        let mut unit = 0;
        let mut scaled = self.0 as f64;
        while scaled >= 1024.0 && unit < UNITS.len() - 1 {
            scaled /= 1024.0;
            unit += 1;
        }
        let text = if unit == 0 {
            format!("{} B", self.0)
        } else if scaled.fract() == 0.0 {
            format!("{scaled:.0} {}", UNITS[unit])
        } else {
            format!("{scaled:.1} {}", UNITS[unit])
        };
        f.pad(&text)
    }
}

impl fmt::Display for PoolStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:>10} {:>7} {:>7} {:>7} {:>9} {:>7} {:>11} {:>11}",
            "class", "mapped", "in use", "free", "released", "ever", "bytes mapped", "bytes in use"
        )?;
        let rows = self.each_class();
        for c in rows {
            if c.ever_mapped == 0 && c.chunk_size.is_none() {
                continue;
            }
            let class = match c.chunk_size {
                Some(size) => Bytes(size as u64).to_string(),
                None => "dedicated".to_owned(),
            };
            writeln!(
                f,
                "{:>10} {:>7} {:>7} {:>7} {:>9} {:>7} {:>12} {:>12}",
                class,
                c.mapped,
                c.in_use,
                c.free,
                c.released,
                c.ever_mapped,
                Bytes(c.bytes_mapped as u64),
                Bytes(c.bytes_in_use as u64),
            )?;
        }
        writeln!(
            f,
            "mapped {} (peak {}), in use {}, free {}, reserve {}, released {}{}",
            Bytes(self.bytes_mapped as u64),
            Bytes(self.peak_bytes_mapped as u64),
            Bytes(self.bytes_in_use as u64),
            Bytes(self.bytes_free as u64),
            Bytes(self.reserve_bytes as u64),
            Bytes(self.bytes_released),
            match self.limit {
                Some(limit) => format!(", limit {}", Bytes(limit as u64)),
                None => String::new(),
            }
        )?;
        write!(
            f,
            "utilization {:.1}%, fragmentation {:.1}%, OS calls: {} map, {} unmap, {} advise",
            self.utilization_percent(),
            self.fragmentation_percent(),
            self.os_map_calls,
            self.os_unmap_calls,
            self.os_advise_calls
        )
    }
}

impl ChunkPool {
    /// A snapshot of the pool's counts, bytes and OS calls.
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        let state = self.lock();
        let classes = state
            .classes
            .iter()
            .enumerate()
            .map(|(index, class)| {
                let size = self.classes.size(index);
                let free = class.free.len();
                ClassStats {
                    chunk_size: Some(size),
                    mapped: class.counts.in_use + free,
                    in_use: class.counts.in_use,
                    free,
                    released: class.counts.released,
                    ever_mapped: class.counts.ever_mapped,
                    bytes_mapped: (class.counts.in_use + free) * size,
                    bytes_in_use: class.counts.in_use * size,
                }
            })
            .collect();
        PoolStats {
            classes,
            dedicated: ClassStats {
                chunk_size: None,
                mapped: state.dedicated.in_use + state.dedicated_free.len(),
                in_use: state.dedicated.in_use,
                free: state.dedicated_free.len(),
                released: state.dedicated.released,
                ever_mapped: state.dedicated.ever_mapped,
                bytes_mapped: state.dedicated_bytes
                    + state.dedicated_free.iter().map(|f| f.size).sum::<usize>(),
                bytes_in_use: state.dedicated_bytes,
            },
            bytes_mapped: state.bytes_mapped,
            bytes_in_use: state.bytes_in_use,
            bytes_free: state.bytes_free,
            peak_bytes_mapped: state.peak_bytes_mapped,
            bytes_released: state.bytes_released,
            reserve_bytes: self.reserve_bytes(&state),
            limit: self.limit,
            os_map_calls: state.os.maps,
            os_unmap_calls: state.os.unmaps,
            os_advise_calls: state.os.advises,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_print_in_binary_units() {
        assert_eq!(Bytes(0).to_string(), "0 B");
        assert_eq!(Bytes(1023).to_string(), "1023 B");
        assert_eq!(Bytes(64 * 1024).to_string(), "64 KiB");
        assert_eq!(Bytes(3 * 512 * 1024).to_string(), "1.5 MiB");
        assert_eq!(format!("{:>8}", Bytes(1 << 30)), "   1 GiB");
    }

    #[test]
    fn percentages() {
        let mut s = PoolStats::default();
        assert!((s.utilization_percent() - 100.0).abs() < f64::EPSILON);
        assert!(s.fragmentation_percent().abs() < f64::EPSILON);
        s.bytes_mapped = 4 << 20;
        s.bytes_in_use = 1 << 20;
        s.bytes_free = 3 << 20;
        s.classes = vec![
            ClassStats {
                chunk_size: Some(1 << 20),
                free: 1,
                ..ClassStats::default()
            },
            ClassStats {
                chunk_size: Some(2 << 20),
                free: 1,
                ..ClassStats::default()
            },
        ];
        assert!((s.utilization_percent() - 25.0).abs() < 1e-9);
        // Largest free chunk 2 MiB of 3 MiB free: a third is fragmented.
        assert!((s.fragmentation_percent() - 100.0 / 3.0).abs() < 1e-9);
        let table = s.to_string();
        assert!(table.contains("utilization 25.0%"), "{table}");
        assert!(table.contains("fragmentation 33.3%"), "{table}");
        assert!(table.contains("1 MiB"), "{table}");
    }

    /// `free` dedicated chunks of `bytes` in all, all free, as `ChunkPool::stats` reports them.
    fn dedicated_free(free: usize, bytes: usize) -> ClassStats {
        ClassStats {
            mapped: free,
            free,
            bytes_mapped: bytes,
            ..ClassStats::default()
        }
    }

    #[test]
    fn free_dedicated_chunks_count_as_free_chunks() {
        const MIB: usize = 1 << 20;
        // The only free memory is one dedicated chunk: one piece, no fragmentation.
        let mut s = PoolStats {
            bytes_mapped: 3 * MIB + 4096,
            bytes_free: 3 * MIB + 4096,
            dedicated: dedicated_free(1, 3 * MIB + 4096),
            ..PoolStats::default()
        };
        assert!(s.fragmentation_percent().abs() < 1e-9, "{s}");
        // Beside a free 1 MiB class chunk, the 3 MiB dedicated one is the largest: 1/4 apart.
        s.bytes_free = 4 * MIB;
        s.bytes_mapped = 4 * MIB;
        s.dedicated = dedicated_free(1, 3 * MIB);
        s.classes = vec![ClassStats {
            chunk_size: Some(MIB),
            mapped: 1,
            free: 1,
            bytes_mapped: MIB,
            ..ClassStats::default()
        }];
        assert!((s.fragmentation_percent() - 25.0).abs() < 1e-9, "{s}");
        // Two dedicated chunks (2 + 5 MiB): only their total is known, the mean stands for the
        // largest (3.5 of 8 MiB free), above the 5/8 the largest really is.
        s.bytes_free = 8 * MIB;
        s.bytes_mapped = 8 * MIB;
        s.dedicated = dedicated_free(2, 7 * MIB);
        assert!((s.fragmentation_percent() - 56.25).abs() < 1e-9, "{s}");
        assert!(s.fragmentation_percent() >= 100.0 * 3.0 / 8.0);
    }
}
