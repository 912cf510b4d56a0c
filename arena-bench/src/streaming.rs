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
//!
//! The same run reads a large JSON city and a JSON Lines file of citizens ([`json`]), each
//! way in a fresh process too, for their time per GB and peak RSS.

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

pub mod json;

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

/// Runs one way in this (child) process: `--child-stream WAY FILE DIGEST`, a way of [`WAYS`],
/// [`json::FILE_WAYS`] or [`json::LINES_WAYS`]; returns its row as JSON.
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
    let start = Instant::now();
    let (got, citizens, reserved) = if json::is_json_way(way) {
        let read = json::read(way, path)?;
        (read.digest, read.citizens, read.reserved)
    } else {
        postcard_read(way, path)?
    };
    let seconds = start.elapsed().as_secs_f64();
    if got != expect {
        return Err(format!("{way}: the value differs from the one written"));
    }
    let row = StreamRow {
        way: way.clone(),
        file_bytes,
        citizens,
        peak_rss_bytes: black_box(proc_status_bytes("VmHWM")),
        arena_reserved_bytes: reserved,
        seconds,
    };
    serde_json::to_string(&row).map_err(|e| e.to_string())
}

/// Reads the postcard city at `path` the way `way` says: its digest, its citizens and the
/// arena's reserved bytes (arena ways only).
fn postcard_read(way: &str, path: &Path) -> Result<(u64, u64, Option<u64>), String> {
    let open = || {
        File::open(path)
            .map(BufReader::new)
            .map_err(|e| format!("opening {}: {e}", path.display()))
    };
    let slurp = || std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()));
    let (got, citizens, reserved) = match way {
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
    Ok((got, citizens as u64, reserved))
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
    let rows = WAYS
        .iter()
        .map(|way| run_way(exe, way, &path, digest))
        .collect::<Result<Vec<_>, _>>()?;
    eprintln!("\r\x1b[2Kstreaming: done");
    let _ = std::fs::remove_file(&path);
    Ok(rows)
}

/// Reads `path` the way `way` says with `exe --child-stream`, which checks `digest`.
fn run_way(exe: &Path, way: &str, path: &Path, digest: u64) -> Result<StreamRow, String> {
    eprint!("\r\x1b[2Kstreaming: {way}");
    let output = Command::new(exe)
        .arg("--child-stream")
        .arg(way)
        .arg(path)
        .arg(format!("{digest:016x}"))
        .output()
        .map_err(|e| format!("starting {}: {e}", exe.display()))?;
    if !output.status.success() {
        return Err(format!(
            "streaming {way}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("streaming {way}: {e}"))
}

/// Writes a JSON city of about `json_bytes` bytes and a JSON Lines file of about `lines_bytes`
/// bytes to `data`, and reads them each way of [`json::FILE_WAYS`] and [`json::LINES_WAYS`]
/// with `exe --child-stream`; returns the city's rows and the lines' rows.
///
/// # Errors
///
/// A file cannot be written, a child fails, or a read of the lines counts other citizens.
pub fn run_json(
    exe: &Path,
    data: &Path,
    json_bytes: u64,
    lines_bytes: u64,
) -> Result<(Vec<StreamRow>, Vec<StreamRow>), String> {
    let path = data.join("city-stream.json");
    eprint!("\r\x1b[2Kstreaming: writing {}", path.display());
    let digest = json::write_city(&path, json_bytes)?;
    let file_rows = json::FILE_WAYS
        .iter()
        .map(|way| run_way(exe, way, &path, digest))
        .collect::<Result<Vec<_>, _>>();
    let _ = std::fs::remove_file(&path);
    let path = data.join("citizens-stream.jsonl");
    eprint!("\r\x1b[2Kstreaming: writing {}", path.display());
    let (count, digest) = json::write_lines(&path, lines_bytes)?;
    let lines_rows = json::LINES_WAYS
        .iter()
        .map(|way| {
            let row = run_way(exe, way, &path, digest)?;
            if row.citizens == count {
                Ok(row)
            } else {
                Err(format!("{way}: {} citizens of {count}", row.citizens))
            }
        })
        .collect::<Result<Vec<_>, _>>();
    let _ = std::fs::remove_file(&path);
    eprintln!("\r\x1b[2Kstreaming: done");
    Ok((file_rows?, lines_rows?))
}

/// The JSON tables of `file_rows` (the city) and `lines_rows` (the lines), in Markdown: each
/// way's time, time per GB and peak RSS, and the arena streams' speed over serde_json's.
#[must_use]
pub fn json_markdown(file_rows: &[StreamRow], lines_rows: &[StreamRow]) -> String {
    let mut out = String::new();
    for (rows, what) in [
        (file_rows, "one JSON city"),
        (lines_rows, "JSON Lines, one citizen a line,"),
    ] {
        let file = rows.first().map_or(0, |r| r.file_bytes);
        let citizens = rows.first().map_or(0, |r| r.citizens);
        let _ = writeln!(
            out,
            "\n## Streaming: {what} {:.1} MiB ({citizens} citizens) read from a file, each way \
             in a fresh process\n",
            mib(file)
        );
        out.push_str("| way | time (s) | s per GB | peak RSS (MiB) | arena reserved (MiB) |\n");
        out.push_str("|---|--:|--:|--:|--:|\n");
        for r in rows {
            let reserved = r
                .arena_reserved_bytes
                .map_or_else(|| "-".to_owned(), |b| format!("{:.1}", mib(b)));
            let _ = writeln!(
                out,
                "| {} | {:.2} | {:.2} | {:.1} | {reserved} |",
                r.way,
                r.seconds,
                r.seconds / (r.file_bytes.max(1) as f64 / 1e9),
                mib(r.peak_rss_bytes),
            );
        }
    }
    let seconds = |way: &str| {
        file_rows
            .iter()
            .chain(lines_rows)
            .find(|r| r.way == way)
            .map(|r| r.seconds)
    };
    out.push('\n');
    for (ours, serde) in [
        ("json-from-reader", "json-owned-from-reader"),
        ("lines-reader-stream", "lines-serde-stream"),
    ] {
        if let (Some(mine), Some(theirs)) = (seconds(ours), seconds(serde)) {
            let _ = writeln!(out, "- {ours}: {:.2}x {serde}'s speed", theirs / mine);
        }
    }
    out.push_str(
        "- lines-sonic-stream reads the file whole: sonic-rs 0.5's stream reads only input in \
         memory (its from_reader reads the whole input first)\n",
    );
    out
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
