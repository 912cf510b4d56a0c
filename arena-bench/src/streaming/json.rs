//! The JSON tables of `--stream`: one large JSON city, and a JSON Lines file of citizens (one
//! per line), each read in a fresh process of its own, with its time per GB and peak RSS.
//!
//! The ways on the city ([`FILE_WAYS`]):
//! - `json-from-reader`: `arena_core::json::from_reader` into a fresh `SlabArena`, from the
//!   `File` (the reader has its own buffer);
//! - `json-from-slice`: the file read into memory, then `arena_core::json::from_slice`;
//! - `json-owned-from-reader`: serde_json's `from_reader` into owned types, through a
//!   `BufReader<File>`.
//!
//! The ways on the lines ([`LINES_WAYS`]), each reading every citizen:
//! - `lines-reader-stream`: `arena_core::json::ReaderStream` over the `File`, into one
//!   `SlabArena` reset after every [`BATCH`] citizens;
//! - `lines-slice-stream`: the file read into memory, then `arena_core::json::SliceStream`,
//!   the same batches;
//! - `lines-serde-stream`: serde_json's `StreamDeserializer` into owned citizens, through a
//!   `BufReader<File>`;
//! - `lines-sonic-stream`: sonic-rs's `StreamDeserializer` (`Deserializer::into_stream`) into
//!   owned citizens. sonic-rs 0.5 reads only input in memory (its `from_reader` reads the
//!   whole input first, and its stream has no `io::Read` form), so the file is read whole.
//!
//! Every read is checked: the city's digest, or the lines' count and the wrapping sum of their
//! citizens' digests.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write as _};
use std::path::Path;

use arena_core::json::{ReaderStream, SliceStream};
use arena_core::{BumpAllocator, DocumentStream, SlabArena};

use crate::datasets::city;
use crate::format::FormatId;
use crate::model::digest_of;

/// The ways of reading the JSON city, as `--child-stream WAY FILE DIGEST` takes them.
pub const FILE_WAYS: [&str; 3] = [
    "json-from-reader",
    "json-from-slice",
    "json-owned-from-reader",
];

/// The ways of reading the JSON Lines file.
pub const LINES_WAYS: [&str; 4] = [
    "lines-reader-stream",
    "lines-slice-stream",
    "lines-serde-stream",
    "lines-sonic-stream",
];

/// Citizens per arena between two resets: enough that a reset is rare, few enough that the
/// arena stays small (a citizen takes about 150 bytes of arena).
pub const BATCH: usize = 1024;

/// JSON bytes per postcard byte of the city (measured on generated cities: 4.3 MB of JSON for
/// 2 MB of postcard): turns the JSON size asked for into the generator's postcard size.
const JSON_PER_POSTCARD: f64 = 2.15;

/// Postcard bytes of the city whose citizens the lines file repeats: a few MB of JSON, so the
/// parent holds little, and the file is whole repeats of it.
const LINES_CHUNK_POSTCARD: usize = 4_000_000;

/// What one read of a child gives: the digest it checks, the documents or citizens it read,
/// and the arena's largest reserved bytes (arena ways only).
#[derive(Debug)]
pub struct Read {
    /// The digest compared with the parent's.
    pub digest: u64,
    /// Citizens read.
    pub citizens: u64,
    /// The arena's reserved bytes: after the read, or the most over the batches.
    pub reserved: Option<u64>,
}

/// Whether `way` is one of this module's.
#[must_use]
pub fn is_json_way(way: &str) -> bool {
    FILE_WAYS.contains(&way) || LINES_WAYS.contains(&way)
}

/// Reads `path` the way `way` says, in this (child) process.
///
/// # Errors
///
/// An unknown way, an unreadable file or a JSON error.
pub fn read(way: &str, path: &Path) -> Result<Read, String> {
    let open = || File::open(path).map_err(|e| format!("opening {}: {e}", path.display()));
    let slurp = || std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()));
    let err = |e: serde_json::Error| e.to_string();
    match way {
        "json-from-reader" | "json-from-slice" => {
            let arena = SlabArena::new();
            let bytes;
            let value: city::arena::City<'_> = if way == "json-from-reader" {
                arena_core::json::from_reader(&arena, open()?)
            } else {
                bytes = slurp()?;
                arena_core::json::from_slice(&arena, &bytes)
            }
            .map_err(err)?;
            let reserved = BumpAllocator::stats(&arena).reserved_bytes as u64;
            Ok(Read {
                digest: digest_of(&value),
                citizens: value.citizens.len() as u64,
                reserved: Some(reserved),
            })
        }
        "json-owned-from-reader" => {
            let value: city::owned::City =
                serde_json::from_reader(BufReader::new(open()?)).map_err(err)?;
            Ok(Read {
                digest: digest_of(&value),
                citizens: value.citizens.len() as u64,
                reserved: None,
            })
        }
        "lines-reader-stream" => in_batches(ReaderStream::new(open()?)),
        "lines-slice-stream" => in_batches(SliceStream::new(&slurp()?)),
        "lines-serde-stream" => {
            let reader = BufReader::new(open()?);
            let citizens = serde_json::Deserializer::from_reader(reader).into_iter();
            lines_of(citizens.map(|c: Result<city::owned::Citizen, _>| c.map_err(err)))
        }
        "lines-sonic-stream" => sonic_lines(&slurp()?),
        _ => Err(format!("unknown way `{way}`")),
    }
}

/// The citizens of `stream`, read into one arena reset after every [`BATCH`].
fn in_batches<S>(mut stream: S) -> Result<Read, String>
where
    S: DocumentStream<Error = serde_json::Error>,
{
    let mut arena = SlabArena::new();
    let (mut lines, mut reserved) = (Lines::default(), 0);
    loop {
        let mut in_batch = 0;
        for citizen in stream
            .iter_in::<city::arena::Citizen<'_>, _>(&arena)
            .take(BATCH)
        {
            lines.add(&citizen.map_err(|e| e.to_string())?);
            in_batch += 1;
        }
        if in_batch == 0 {
            break;
        }
        reserved = reserved.max(BumpAllocator::stats(&arena).reserved_bytes);
        arena.reset();
    }
    Ok(lines.read(Some(reserved as u64)))
}

/// What the lines add up to: their count and the wrapping sum of their citizens' digests.
#[derive(Default)]
struct Lines {
    digest: u64,
    count: u64,
}

impl Lines {
    fn add<T: crate::model::Digest>(&mut self, citizen: &T) {
        self.digest = self.digest.wrapping_add(digest_of(citizen));
        self.count += 1;
    }

    fn read(self, reserved: Option<u64>) -> Read {
        Read {
            digest: self.digest,
            citizens: self.count,
            reserved,
        }
    }
}

/// The owned citizens of `citizens`, added up.
fn lines_of(
    citizens: impl Iterator<Item = Result<city::owned::Citizen, String>>,
) -> Result<Read, String> {
    let mut lines = Lines::default();
    for citizen in citizens {
        lines.add(&citizen?);
    }
    Ok(lines.read(None))
}

/// The citizens of `bytes` through sonic-rs's stream.
#[cfg(not(target_family = "wasm"))]
fn sonic_lines(bytes: &[u8]) -> Result<Read, String> {
    let stream = sonic_rs::Deserializer::from_slice(bytes).into_stream::<city::owned::Citizen>();
    let mut lines = Lines::default();
    for citizen in stream {
        match citizen {
            Ok(citizen) => lines.add(&citizen),
            // The stream reads a value after the last one's whitespace too, and ends with the
            // error of reading past the end (a line cut short is the same error: the parent's
            // count tells them apart).
            Err(e) if e.is_eof() => break,
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(lines.read(None))
}

/// sonic-rs has no wasm32 build.
#[cfg(target_family = "wasm")]
fn sonic_lines(_: &[u8]) -> Result<Read, String> {
    Err("sonic-rs has no wasm32 build".to_owned())
}

/// Writes a city of about `json_bytes` bytes of JSON to `path`; returns its digest.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_city(path: &Path, json_bytes: u64) -> Result<u64, String> {
    let postcard = (json_bytes as f64 / JSON_PER_POSTCARD) as usize;
    let owned = city::generate(postcard);
    let digest = digest_of(&owned);
    let bytes = FormatId::Json.encode(&owned)?;
    drop(owned);
    std::fs::write(path, &bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
    Ok(digest)
}

/// Writes at least `bytes` bytes of JSON Lines to `path`, one citizen per line: the citizens
/// of a small city again and again; returns their count and the wrapping sum of their digests.
///
/// # Errors
///
/// The file cannot be written.
pub fn write_lines(path: &Path, bytes: u64) -> Result<(u64, u64), String> {
    let chunk_city = city::generate(LINES_CHUNK_POSTCARD);
    let mut chunk = Vec::new();
    let mut lines = Lines::default();
    for citizen in &chunk_city.citizens {
        serde_json::to_writer(&mut chunk, citizen).map_err(|e| e.to_string())?;
        chunk.push(b'\n');
        lines.add(citizen);
    }
    let repeats = bytes.div_ceil(chunk.len() as u64).max(1);
    let failed = |e: std::io::Error| format!("writing {}: {e}", path.display());
    let mut out = BufWriter::new(File::create(path).map_err(failed)?);
    for _ in 0..repeats {
        out.write_all(&chunk).map_err(failed)?;
    }
    out.flush().map_err(failed)?;
    Ok((lines.count * repeats, lines.digest.wrapping_mul(repeats)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_reads_the_lines_and_the_city_the_writer_wrote() {
        let dir = std::env::temp_dir().join(format!("arena-bench-json-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (lines, city) = (dir.join("lines.jsonl"), dir.join("city.json"));
        let (count, digest) = write_lines(&lines, 1).unwrap();
        let city_digest = write_city(&city, 100_000).unwrap();
        for way in LINES_WAYS {
            let read = read(way, &lines).unwrap();
            assert_eq!((read.citizens, read.digest), (count, digest), "{way}");
        }
        for way in FILE_WAYS {
            assert_eq!(read(way, &city).unwrap().digest, city_digest, "{way}");
        }
        std::fs::write(&lines, b"{\"id\": 1}\n").unwrap();
        for way in LINES_WAYS {
            assert!(
                read(way, &lines).is_err(),
                "{way} takes a citizen with one field"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
