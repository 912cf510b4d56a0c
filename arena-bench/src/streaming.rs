//! The streaming table (`--stream SIZE`): peak resident memory of reading one large postcard
//! city from a file, each way in a fresh process of its own.
//!
//! The ways ([`WAYS`]):
//! - `slab-from-reader`: `arena_core::postcard::from_reader` into a fresh `SlabArena`, through a
//!   `BufReader<File>`. Every string and slice is copied into the arena anyway, so the input is
//!   never held whole: the process needs the arena and a small read buffer.
//! - `slab-from-slice`: the file read into memory, then `arena_core::postcard::from_bytes`.
//! - `borrowed`: the file read into memory, then serde's zero-copy read, which must keep the
//!   input for as long as the value lives.
//! - `owned-from-reader`: serde's owned types through `postcard::from_io`.
//! - `owned-from-slice`: the file read into memory, then `postcard::from_bytes` into owned types.
//!
//! Each read's value is checked against the owned city's digest. The peak is the child's whole
//! `VmHWM` (a fresh process: the read is its first document, so the arena's length trust starts
//! from the floor and the city's top-level array collects outside the arena before it moves in).
//! The target: `slab-from-reader` peaks at most 1.15x the arena's reserved
//! bytes plus 64 MiB, and below `borrowed`.

use std::fmt::Write as _;
use std::fs::File;
use std::hint::black_box;
use std::io::BufReader;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use arena_core::{BumpAllocator, SlabArena};
use serde::{Deserialize, Serialize};

use crate::datasets::city;
use crate::format::FormatId;
use crate::measure::proc_status_bytes;
use crate::model::digest_of;

/// The ways of reading the file, as `--child-stream WAY FILE DIGEST` takes them.
pub const WAYS: [&str; 5] = [
    "slab-from-reader",
    "slab-from-slice",
    "borrowed",
    "owned-from-reader",
    "owned-from-slice",
];

/// The factor and the allowance of the target: peak <= `FACTOR x reserved + ALLOWANCE`.
const TARGET_FACTOR: f64 = 1.15;
const TARGET_ALLOWANCE: u64 = 64 << 20;

/// Scratch buffer `postcard::from_io` reads each string through: larger than any string of the
/// city.
const OWNED_READ_SCRATCH: usize = 64 * 1024;

/// One way's read, as its child reports it.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct StreamRow {
    /// The way, one of [`WAYS`].
    pub way: String,
    /// Bytes of the file.
    pub file_bytes: u64,
    /// Citizens read.
    pub citizens: u64,
    /// Peak resident memory of the child process (`VmHWM`).
    pub peak_rss_bytes: u64,
    /// The arena's reserved bytes after the read (arena ways only).
    pub arena_reserved_bytes: Option<u64>,
    /// Wall time of the read, file opening included.
    pub seconds: f64,
}

/// Runs one way in this (child) process: `--child-stream WAY FILE DIGEST`; returns its row as
/// JSON.
///
/// # Errors
///
/// An unknown way, an unreadable file, a format error or a value whose digest differs.
pub fn child(args: &[String]) -> Result<String, String> {
    let [way, path, digest] = args else {
        return Err("usage: --child-stream WAY FILE DIGEST".to_owned());
    };
    let expect = u64::from_str_radix(digest, 16).map_err(|_| "bad digest")?;
    let path = Path::new(path);
    let file_bytes = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    let open = || {
        File::open(path)
            .map(BufReader::new)
            .map_err(|e| format!("opening {}: {e}", path.display()))
    };
    let slurp = || std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()));
    let start = Instant::now();
    let (got, citizens, reserved) = match way.as_str() {
        "slab-from-reader" | "slab-from-slice" => {
            let arena = SlabArena::new();
            let bytes;
            let value: city::arena::City<'_> = if way == "slab-from-reader" {
                arena_core::postcard::from_reader(&arena, open()?)
            } else {
                bytes = slurp()?;
                arena_core::postcard::from_bytes(&arena, &bytes)
            }
            .map_err(|e| e.to_string())?;
            let reserved = BumpAllocator::stats(&arena).reserved_bytes as u64;
            (digest_of(&value), value.citizens.len(), Some(reserved))
        }
        "borrowed" => {
            let bytes = slurp()?;
            let value: city::borrowed::City<'_> =
                postcard::from_bytes(&bytes).map_err(|e| e.to_string())?;
            (digest_of(&value), value.citizens.len(), None)
        }
        "owned-from-reader" => {
            let mut scratch = vec![0; OWNED_READ_SCRATCH];
            let (value, _): (city::owned::City, _) =
                postcard::from_io((open()?, &mut scratch)).map_err(|e| e.to_string())?;
            (digest_of(&value), value.citizens.len(), None)
        }
        "owned-from-slice" => {
            let value: city::owned::City =
                postcard::from_bytes(&slurp()?).map_err(|e| e.to_string())?;
            (digest_of(&value), value.citizens.len(), None)
        }
        _ => return Err(format!("unknown way `{way}`")),
    };
    let seconds = start.elapsed().as_secs_f64();
    if got != expect {
        return Err(format!("{way}: the value differs from the owned city"));
    }
    let row = StreamRow {
        way: way.clone(),
        file_bytes,
        citizens: citizens as u64,
        peak_rss_bytes: black_box(proc_status_bytes("VmHWM")),
        arena_reserved_bytes: reserved,
        seconds,
    };
    serde_json::to_string(&row).map_err(|e| e.to_string())
}

/// The streaming table's verdict on its rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// `slab-from-reader`'s peak.
    pub peak: u64,
    /// `TARGET_FACTOR x reserved + TARGET_ALLOWANCE`.
    pub target: u64,
    /// `borrowed`'s peak, if measured.
    pub borrowed: Option<u64>,
}

impl Verdict {
    /// The verdict of `rows`, if `slab-from-reader` is among them.
    #[must_use]
    pub fn of(rows: &[StreamRow]) -> Option<Self> {
        let reader = rows.iter().find(|r| r.way == "slab-from-reader")?;
        let reserved = reader.arena_reserved_bytes?;
        Some(Self {
            peak: reader.peak_rss_bytes,
            target: (reserved as f64 * TARGET_FACTOR) as u64 + TARGET_ALLOWANCE,
            borrowed: rows
                .iter()
                .find(|r| r.way == "borrowed")
                .map(|r| r.peak_rss_bytes),
        })
    }

    /// Whether the target is met: at most the target, and below `borrowed` when it was measured.
    #[must_use]
    pub fn met(&self) -> bool {
        self.peak <= self.target && self.borrowed.is_none_or(|b| self.peak < b)
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

/// The table of `rows`, in Markdown, with the verdict line.
#[must_use]
pub fn markdown(rows: &[StreamRow]) -> String {
    let mut out = String::new();
    let file = rows.first().map_or(0, |r| r.file_bytes);
    let _ = writeln!(
        out,
        "## Streaming: one {:.1} MiB postcard city read from a file, each way in a fresh process\n",
        mib(file)
    );
    out.push_str("| way | peak RSS (MiB) | arena reserved (MiB) | peak / reserved | time (s) |\n");
    out.push_str("|---|--:|--:|--:|--:|\n");
    for r in rows {
        let (reserved, ratio) = match r.arena_reserved_bytes {
            Some(b) => (
                format!("{:.1}", mib(b)),
                format!("{:.2}", r.peak_rss_bytes as f64 / b.max(1) as f64),
            ),
            None => ("-".to_owned(), "-".to_owned()),
        };
        let _ = writeln!(
            out,
            "| {} | {:.1} | {reserved} | {ratio} | {:.2} |",
            r.way,
            mib(r.peak_rss_bytes),
            r.seconds
        );
    }
    if let Some(v) = Verdict::of(rows) {
        let borrowed = v
            .borrowed
            .map_or_else(String::new, |b| format!(", borrowed {:.1} MiB", mib(b)));
        let _ = writeln!(
            out,
            "\nslab-from-reader peaks at {:.1} MiB; target {TARGET_FACTOR} x reserved + {} MiB = \
             {:.1} MiB{borrowed}: {}",
            mib(v.peak),
            TARGET_ALLOWANCE >> 20,
            mib(v.target),
            if v.met() { "met" } else { "NOT met" }
        );
    }
    out
}

/// Writes a city of about `size` postcard bytes to `data/city-stream.postcard` and reads it
/// each way with `exe --child-stream`; returns the rows, or the first failure.
///
/// # Errors
///
/// The file cannot be written, or a child fails.
pub fn run(exe: &Path, data: &Path, size: u64) -> Result<Vec<StreamRow>, String> {
    let owned = city::generate(usize::try_from(size).unwrap_or(usize::MAX));
    let digest = digest_of(&owned);
    let path = data.join("city-stream.postcard");
    let bytes = FormatId::Postcard.encode(&owned)?;
    drop(owned);
    std::fs::write(&path, &bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
    drop(bytes);
    let mut rows = Vec::new();
    for way in WAYS {
        eprint!("\r\x1b[2Kstreaming: {way}");
        let output = Command::new(exe)
            .arg("--child-stream")
            .arg(way)
            .arg(&path)
            .arg(format!("{digest:016x}"))
            .output()
            .map_err(|e| format!("starting {}: {e}", exe.display()))?;
        if !output.status.success() {
            return Err(format!(
                "streaming {way}: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let row =
            serde_json::from_slice(&output.stdout).map_err(|e| format!("streaming {way}: {e}"))?;
        rows.push(row);
    }
    eprintln!("\r\x1b[2Kstreaming: done");
    let _ = std::fs::remove_file(&path);
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(way: &str, peak: u64, reserved: Option<u64>) -> StreamRow {
        StreamRow {
            way: way.to_owned(),
            peak_rss_bytes: peak,
            arena_reserved_bytes: reserved,
            ..StreamRow::default()
        }
    }

    #[test]
    fn the_verdict_needs_the_target_and_borrowed() {
        let mib = 1 << 20;
        let reserved = 400 * mib;
        let target = (reserved as f64 * 1.15) as u64 + 64 * mib;
        let at = |peak, borrowed| {
            let mut rows = vec![row("slab-from-reader", peak, Some(reserved))];
            if let Some(b) = borrowed {
                rows.push(row("borrowed", b, None));
            }
            Verdict::of(&rows).unwrap().met()
        };
        assert!(at(target, None));
        assert!(!at(target + 1, None));
        assert!(at(target, Some(target + 1)));
        assert!(!at(target - mib, Some(target - mib)), "not below borrowed");
        assert_eq!(Verdict::of(&[row("borrowed", 1, None)]), None);
    }
}
