//! A JSON Lines file counted and aggregated through `json::ReaderStream`, one arena reset per
//! batch of documents, with memory flat whatever the file's size (writes a sample file first
//! if none is given).
//!
//! ```sh
//! cargo run -p arena-core --example json_lines                            # a 4 MiB sample
//! cargo run --release -p arena-core --example json_lines -- --size-mb 1024 # a 1 GiB sample
//! cargo run --release -p arena-core --example json_lines -- path/to/events.jsonl
//! ```
//!
//! A given file must hold one [`Event`] per line (or whitespace-separated), as the sample does.
//!
//! The stream reads the file through a 1 MiB window ([`arena_core::json::DEFAULT_WINDOW`]) and
//! reads each event with the crate's JSON reader into a [`SlabArena`] that is reset after
//! every [`BATCH`] events, so the process holds the window and one batch's arena, not the
//! file. For comparison the same file is read with serde_json's `StreamDeserializer` into
//! owned types (`String`, `Vec`) through a `BufReader`. Each read runs in a fresh process of
//! its own (this example run again with `--measure`), so each peak resident size is that
//! read's alone.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use arena_core::json::ReaderStream;
use arena_core::{ArenaDeserialize, BumpAllocator, DocumentStream, SlabArena};
use serde::Deserialize;

#[path = "support/sample.rs"]
mod sample;
#[path = "support/peak_rss.rs"]
mod support;
use support::{mib, peak_rss};

/// One line of the file: a log event.
#[derive(ArenaDeserialize)]
struct Event<'bump> {
    id: u64,
    user: &'bump str,
    level: &'bump str,
    latency_ms: f64,
    tags: &'bump [&'bump str],
    msg: &'bump str,
}

/// The owned twin of [`Event`], for serde_json's stream.
#[derive(Deserialize)]
struct OwnedEvent {
    id: u64,
    user: String,
    level: String,
    latency_ms: f64,
    tags: Vec<String>,
    msg: String,
}

/// Events per arena: enough that a reset is rare, few enough that the arena stays small (a
/// batch of sample events is about 200 KiB).
const BATCH: usize = 1024;

/// The sample's size when `--size-mb` is not given: small, so CI runs it in a moment.
const DEFAULT_SIZE_MB: u64 = 4;

/// What a read adds up, the same for both reads.
#[derive(Debug, Default, PartialEq)]
struct Totals {
    events: u64,
    errors: u64,
    tags: u64,
    text_bytes: u64,
    max_id: u64,
    latency_ms: f64,
}

impl Totals {
    fn add(&mut self, id: u64, user: &str, level: &str, latency_ms: f64, tags: usize, msg: &str) {
        self.events += 1;
        self.errors += u64::from(level == "error");
        self.tags += tags as u64;
        self.text_bytes += (user.len() + msg.len()) as u64;
        self.max_id = self.max_id.max(id);
        self.latency_ms += latency_ms;
    }
}

/// Writes events to `path` until it holds at least `size_mb` MiB.
fn write_sample(path: &Path, size_mb: u64) -> std::io::Result<()> {
    const LEVELS: [&str; 4] = ["debug", "info", "warn", "error"];
    let mut out = BufWriter::new(File::create(path)?);
    let (mut written, target) = (0u64, size_mb << 20);
    let mut line = String::new();
    let mut id = 0u64;
    while written < target {
        use std::fmt::Write as _;
        line.clear();
        let tags: Vec<String> = (0..id % 4).map(|t| format!("\"tag-{t}\"")).collect();
        let _ = writeln!(
            line,
            r#"{{"id":{id},"user":"user-{}","level":"{}","latency_ms":{}.{},"tags":[{}],"msg":"request {id} served in \"{}\" mode"}}"#,
            id % 9973,
            LEVELS[(id % 7) as usize % 4],
            id % 500,
            id % 10,
            tags.join(","),
            if id.is_multiple_of(3) {
                "fast"
            } else {
                "normal"
            },
        );
        out.write_all(line.as_bytes())?;
        written += line.len() as u64;
        id += 1;
    }
    out.flush()
}

/// Reads `path` with the crate's stream: one arena reset per [`BATCH`] events.
fn read_arena(path: &Path) -> Result<(Totals, String), Box<dyn std::error::Error>> {
    let mut stream = ReaderStream::new(File::open(path)?);
    let mut arena = SlabArena::new();
    let mut totals = Totals::default();
    let mut reserved = 0;
    loop {
        let mut in_batch = 0;
        for event in stream.iter_in::<Event<'_>, _>(&arena).take(BATCH) {
            let e = event?;
            totals.add(e.id, e.user, e.level, e.latency_ms, e.tags.len(), e.msg);
            in_batch += 1;
        }
        if in_batch == 0 {
            break;
        }
        reserved = reserved.max(BumpAllocator::stats(&arena).reserved_bytes);
        arena.reset();
    }
    let note = format!("arena at most {:.1} MiB reserved", mib(reserved as u64));
    Ok((totals, note))
}

/// Reads `path` with serde_json's `StreamDeserializer` into owned events.
fn read_serde(path: &Path) -> Result<(Totals, String), Box<dyn std::error::Error>> {
    let reader = BufReader::new(File::open(path)?);
    let mut totals = Totals::default();
    for event in serde_json::Deserializer::from_reader(reader).into_iter::<OwnedEvent>() {
        let e = event?;
        totals.add(e.id, &e.user, &e.level, e.latency_ms, e.tags.len(), &e.msg);
    }
    Ok((totals, String::from("owned types")))
}

/// One read of `path` in this process (`--measure arena|serde PATH`): prints its lines.
fn measure(how: &str, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let file_len = std::fs::metadata(path)?.len();
    let start = Instant::now();
    let (totals, note) = if how == "arena" {
        read_arena(path)?
    } else {
        read_serde(path)?
    };
    let elapsed = start.elapsed().as_secs_f64();
    let label = if how == "arena" {
        "json::ReaderStream, SlabArena"
    } else {
        "serde_json StreamDeserializer"
    };
    let gb = file_len as f64 / 1e9;
    println!(
        "{label:<30} {} records ({} errors, {} tags, {} text bytes, max id {}, mean latency {:.3} ms)",
        totals.events,
        totals.errors,
        totals.tags,
        totals.text_bytes,
        totals.max_id,
        totals.latency_ms / totals.events.max(1) as f64,
    );
    let peak = peak_rss().map_or_else(
        || String::from("not available here"),
        |p| format!("{:.1} MiB", mib(p)),
    );
    println!(
        "{:<30} {:.1} MiB in {elapsed:.2} s: {:.2} s per GB ({:.0} MB/s); peak RSS {peak}; {note}",
        "",
        mib(file_len),
        elapsed / gb.max(1e-9),
        file_len as f64 / 1e6 / elapsed,
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, sample) = match sample::parse(&args, "--size-mb", DEFAULT_SIZE_MB, sample_path())? {
        sample::Run::Measure(how, path) => return measure(&how, &path),
        sample::Run::Read { path, sample } => (path, sample),
    };
    let write = |path: &Path, size_mb: u64| {
        println!("writing a {size_mb} MiB sample to {}", path.display());
        Ok(write_sample(path, size_mb)?)
    };
    sample::with_sample(&path, sample, write, |path| {
        let exe = std::env::current_exe()?;
        let mut totals = Vec::new();
        for how in ["arena", "serde"] {
            let output = Command::new(&exe)
                .args(["--measure", how])
                .arg(path)
                .output()?;
            let text = String::from_utf8_lossy(&output.stdout);
            print!("{text}");
            if !output.status.success() {
                eprint!("{}", String::from_utf8_lossy(&output.stderr));
                return Err(format!("the {how} read failed: {}", output.status).into());
            }
            // The first line's figures after the label: what the read added up.
            let first = text.lines().next().unwrap_or_default();
            totals.push(first.get(30..).unwrap_or_default().to_owned());
        }
        if totals[0] != totals[1] {
            return Err("the two reads added up differently".into());
        }
        Ok(())
    })
}

/// Where the sample goes: the temporary directory, named after this process.
fn sample_path() -> PathBuf {
    std::env::temp_dir().join(format!(
        "arena-core-json-lines-{}.jsonl",
        std::process::id()
    ))
}
