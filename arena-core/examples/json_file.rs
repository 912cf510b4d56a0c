//! A large JSON file read into a [`SlabArena`] with `json::from_reader`, against `std::fs::read`
//! then `json::from_slice` and serde_json's owned `from_reader` (writes a sample city first if
//! no file is given).
//!
//! Each read runs in a fresh process of its own (this example run again with `--measure`), so
//! each peak resident size is that read's alone; the reads alternate, and each is run `--runs`
//! times.
//!
//! ```sh
//! cargo run -p arena-core --example json_file                          # 20 000 sample citizens
//! cargo run --release -p arena-core --example json_file -- --citizens 2000000 --runs 5
//! ```

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use arena_core::{ArenaDeserialize, SlabArena};
use serde::{Deserialize, Serialize};

#[path = "support/peak_rss.rs"]
mod support;
use support::{mib, peak_rss};

/// A city: arena-bench's synthetic city model.
#[derive(ArenaDeserialize)]
struct City<'bump> {
    name: &'bump str,
    founded: u32,
    citizens: &'bump [Citizen<'bump>],
}

/// One citizen of a [`City`].
#[derive(ArenaDeserialize)]
struct Citizen<'bump> {
    id: u64,
    name: &'bump str,
    email: &'bump str,
    age: u8,
    score: f64,
    tags: &'bump [Tag<'bump>],
    nickname: Option<&'bump str>,
}

/// A citizen's tag.
#[derive(ArenaDeserialize)]
struct Tag<'bump> {
    label: &'bump str,
    text: &'bump str,
}

/// The owned twin of [`City`], to write the sample and for serde_json's owned read.
#[derive(Serialize, Deserialize)]
struct OwnedCity {
    name: String,
    founded: u32,
    citizens: Vec<OwnedCitizen>,
}

/// The owned twin of [`Citizen`].
#[derive(Serialize, Deserialize)]
struct OwnedCitizen {
    id: u64,
    name: String,
    email: String,
    age: u8,
    score: f64,
    tags: Vec<OwnedTag>,
    nickname: Option<String>,
}

/// The owned twin of [`Tag`].
#[derive(Serialize, Deserialize)]
struct OwnedTag {
    label: String,
    text: String,
}

/// Citizens in the sample when `--citizens` is not given: small, so CI runs it in a moment.
const DEFAULT_CITIZENS: u64 = 20_000;

/// A splitmix64 step: the sample's words and numbers, the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn word(state: &mut u64, syllables: u64) -> String {
    const SYLLABLES: [&str; 8] = ["ka", "lo", "mi", "ra", "ten", "vo", "dor", "el"];
    (0..syllables)
        .map(|_| SYLLABLES[(next(state) % 8) as usize])
        .collect()
}

fn sample(citizens: u64) -> OwnedCity {
    let mut state = 1;
    OwnedCity {
        name: "Arenaville".to_owned(),
        founded: 1842,
        citizens: (0..citizens)
            .map(|id| {
                let n = 2 + next(&mut state) % 2;
                let first = word(&mut state, n);
                let n = 2 + next(&mut state) % 3;
                let last = word(&mut state, n);
                OwnedCitizen {
                    id,
                    email: format!("{first}.{last}@example.org"),
                    name: format!("{first} {last}"),
                    age: 18 + (next(&mut state) % 72) as u8,
                    score: (next(&mut state) % 10_000) as f64 / 100.0,
                    tags: (0..next(&mut state) % 4)
                        .map(|_| OwnedTag {
                            label: word(&mut state, 2),
                            text: format!("{} {}", word(&mut state, 3), next(&mut state) % 1000),
                        })
                        .collect(),
                    nickname: next(&mut state)
                        .is_multiple_of(3)
                        .then(|| word(&mut state, 2)),
                }
            })
            .collect(),
    }
}

/// Bytes and numbers of every field of a city, arena or owned, so that a read is checked
/// whole.
macro_rules! digest {
    ($city:expr) => {{
        let city = $city;
        let mut sum = city.name.len() + city.founded as usize;
        for c in city.citizens.iter() {
            sum += c.id as usize + c.name.len() + c.email.len() + usize::from(c.age);
            sum += c.score as usize + c.nickname.as_deref().map_or(0, str::len);
            sum += c
                .tags
                .iter()
                .map(|t| t.label.len() + t.text.len())
                .sum::<usize>();
        }
        sum
    }};
}

/// Reads `path` one way, in this process, and prints the time, a digest and the peak RSS.
fn measure(how: &str, path: &Path) {
    let start = Instant::now();
    let arena = SlabArena::new();
    let (citizens, bytes) = match how {
        "from_reader" => {
            let city: City<'_> =
                arena_core::json::from_reader(&arena, File::open(path).expect("the file opens"))
                    .expect("the file is a city");
            (city.citizens.len(), digest!(&city))
        }
        "from_slice" => {
            let input = std::fs::read(path).expect("the file reads");
            println!("fs::read {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
            let city: City<'_> =
                arena_core::json::from_slice(&arena, &input).expect("the file is a city");
            (city.citizens.len(), digest!(&city))
        }
        "serde_json" => {
            let city: OwnedCity =
                serde_json::from_reader(BufReader::new(File::open(path).expect("the file opens")))
                    .expect("the file is a city");
            (city.citizens.len(), digest!(&city))
        }
        _ => panic!("unknown read {how}"),
    };
    let elapsed = start.elapsed();
    let peak = peak_rss().map_or_else(|| "not known".to_owned(), |b| format!("{:.0} MiB", mib(b)));
    println!(
        "{how} {:.1} ms, {citizens} citizens (digest {bytes}), peak RSS {peak}",
        elapsed.as_secs_f64() * 1e3,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, how, path] = &args[..]
        && flag == "--measure"
    {
        measure(how, Path::new(path));
        return;
    }
    let mut citizens = DEFAULT_CITIZENS;
    let mut runs = 1;
    let mut path = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--citizens" => citizens = args.next().and_then(|n| n.parse().ok()).expect("a count"),
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("a count"),
            other => path = Some(PathBuf::from(other)),
        }
    }
    let path = path.unwrap_or_else(|| {
        let path = std::env::temp_dir().join(format!("arena-city-{citizens}.json"));
        if !path.exists() {
            let file = BufWriter::new(File::create(&path).expect("the sample is created"));
            serde_json::to_writer(file, &sample(citizens)).expect("the sample is written");
        }
        path
    });
    let size = std::fs::metadata(&path).expect("the file exists").len();
    println!("{} ({:.1} MB)", path.display(), size as f64 / 1e6);
    let exe = std::env::current_exe().expect("the example knows its path");
    for _ in 0..runs {
        for how in ["from_reader", "from_slice", "serde_json"] {
            let status = Command::new(&exe)
                .args(["--measure", how])
                .arg(&path)
                .status()
                .expect("the measuring process runs");
            assert!(status.success(), "{how} failed");
        }
    }
}
