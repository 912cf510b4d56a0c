//! A large postcard file streamed into a [`SlabArena`] (writes a sample file first if none is
//! given).
//!
//! `postcard::from_reader` reads the file through a `BufReader`: every string and slice is
//! copied into the arena anyway, so the input is not needed after the call, and the process
//! holds the arena and a small read buffer rather than the file and the value. For comparison
//! the same file is read the borrowed way, `std::fs::read` then `postcard::from_bytes`. Each
//! read runs in a fresh process of its own (this example run again with `--measure`), so each
//! peak resident size is that read's alone.
//!
//! ```sh
//! cargo run -p arena-core --example postcard_file                      # 20 000 sample records
//! cargo run --release -p arena-core --example postcard_file -- --records 2000000
//! cargo run --release -p arena-core --example postcard_file -- path/to/records.postcard
//! ```
//!
//! A given file must hold a postcard `Vec` of [`Record`]s, as the sample does.
//!
//! From a reader, the top-level array's announced length is past what a fresh call trusts
//! (16 KiB) and the input's size is unknown, so its elements collect on the scratch stack
//! outside the arena and move into it at the end (`records x size_of::<Record>()` bytes,
//! printed as "top-level array"); the stack gives its pages back as they move, so the array is
//! resident about once and the peak stays close to the arena's reserved bytes. A
//! `LengthTrust` carried from earlier documents (`ArenaSeed::with_trust`) lets such an array
//! fill the arena in place; `from_bytes` does so anyway, the slice's size bounding the length.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use arena_core::{ArenaDeserialize, BumpAllocator, SlabArena};
use serde::Serialize;

#[path = "support/sample.rs"]
mod sample;
#[path = "support/peak_rss.rs"]
mod support;
use support::{mib, peak_rss};

/// One record of the file.
#[derive(ArenaDeserialize)]
struct Record<'bump> {
    id: u64,
    name: &'bump str,
    email: &'bump str,
    tags: &'bump [&'bump str],
    scores: &'bump [u32],
}

/// The owned twin of [`Record`], to write the sample.
#[derive(Serialize)]
struct OwnedRecord {
    id: u64,
    name: String,
    email: String,
    tags: Vec<String>,
    scores: Vec<u32>,
}

/// Records in the sample when `--records` is not given: small, so CI runs it in a moment.
const DEFAULT_RECORDS: usize = 20_000;

fn record(i: usize) -> OwnedRecord {
    OwnedRecord {
        id: i as u64,
        name: format!("user number {i}"),
        email: format!("user.{i}@example.org"),
        tags: (0..i % 4).map(|t| format!("tag-{t}")).collect(),
        scores: (0..i % 7).map(|s| (i * s) as u32).collect(),
    }
}

/// Writes `n` records as one postcard `Vec<OwnedRecord>`, one record at a time (a postcard
/// sequence is its length as a varint, then its elements), so the writer never holds them all.
fn write_sample(path: &Path, n: usize) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = BufWriter::new(File::create(path)?);
    out = postcard::to_io(&n, out)?;
    for i in 0..n {
        out = postcard::to_io(&record(i), out)?;
    }
    out.flush()?;
    Ok(())
}

/// One read of `path` in this process (`--measure reader|bytes PATH`): prints one line.
fn measure(how: &str, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let file_len = std::fs::metadata(path)?.len();
    let arena = SlabArena::new();
    let start = Instant::now();
    let bytes;
    let records: &[Record<'_>] = if how == "reader" {
        let file = BufReader::new(File::open(path)?);
        arena_core::postcard::from_reader(&arena, file)?
    } else {
        bytes = std::fs::read(path)?;
        arena_core::postcard::from_bytes(&arena, &bytes)?
    };
    let elapsed = start.elapsed();
    // Touch what was read, so it is checked and counted.
    let tags: usize = records.iter().map(|r| r.tags.len()).sum();
    let scores: u64 = records
        .iter()
        .flat_map(|r| r.scores)
        .map(|&s| u64::from(s))
        .sum();
    let last = records
        .last()
        .map_or(0, |r| r.id + (r.name.len() + r.email.len()) as u64);
    let stats = BumpAllocator::stats(&arena);
    let reserved = stats.reserved_bytes as u64;
    let label = if how == "reader" {
        "from_reader (BufReader<File>)"
    } else {
        "fs::read + from_bytes"
    };
    println!(
        "{label:<30} {} records ({tags} tags, score sum {scores}, last {last}) in {:.2?}",
        records.len(),
        elapsed,
    );
    println!(
        "{:<30} file {:.1} MiB; arena {:.1} MiB used of {:.1} MiB reserved in {} chunks; \
         top-level array {:.1} MiB",
        "",
        mib(file_len),
        mib(stats.used_bytes as u64),
        mib(reserved),
        stats.chunks,
        mib(size_of_val(records) as u64),
    );
    match peak_rss() {
        Some(peak) => println!(
            "{:<30} peak RSS {:.1} MiB = {:.2} x reserved + {:.1} MiB; target (1.15 x reserved + 64 MiB) {:.1} MiB",
            "",
            mib(peak),
            peak as f64 / reserved.max(1) as f64,
            mib(peak.saturating_sub(reserved)),
            mib(reserved) * 1.15 + 64.0,
        ),
        None => println!("{:<30} peak RSS not available here", ""),
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let records = DEFAULT_RECORDS as u64;
    let (path, sample) = match sample::parse(&args, "--records", records, sample_path())? {
        sample::Run::Measure(how, path) => return measure(&how, &path),
        sample::Run::Read { path, sample } => (path, sample),
    };
    let write = |path: &Path, n: u64| {
        println!("writing {n} sample records to {}", path.display());
        write_sample(path, usize::try_from(n)?)
    };
    sample::with_sample(&path, sample, write, |path| {
        let exe = std::env::current_exe()?;
        for how in ["reader", "bytes"] {
            let status = Command::new(&exe)
                .args(["--measure", how])
                .arg(path)
                .status()?;
            if !status.success() {
                return Err(format!("the {how} read failed: {status}").into());
            }
        }
        Ok(())
    })
}

/// Where the sample goes: the temporary directory, named after this process.
fn sample_path() -> PathBuf {
    std::env::temp_dir().join(format!(
        "arena-core-postcard-file-{}.postcard",
        std::process::id()
    ))
}
