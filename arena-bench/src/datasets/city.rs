//! The synthetic city: citizens with names, emails, ages, scores, a few tagged strings each and
//! optional nicknames; deterministic, from 1 KB to several hundred MB.

use super::Dataset;
use super::splitmix::SplitMix;

crate::model! {
    /// A city and all its citizens: one document.
    struct City {
        name: str,
        founded: u32,
        citizens: [Citizen],
    }

    /// One citizen.
    struct Citizen {
        id: u64,
        name: str,
        email: str,
        age: u8,
        score: f64,
        tags: [Tag],
        nickname: (opt str),
    }

    /// A tagged string.
    struct Tag {
        label: str,
        text: str,
    }
}

/// The city dataset.
#[derive(Debug)]
pub struct City;

impl Dataset for City {
    const NAME: &'static str = "city";
    type Owned = owned::City;
    type Borrowed<'a> = borrowed::City<'a>;
    type Arena<'a> = arena::City<'a>;
    type Multi = multi::City;
}

/// The name of the large city (`DatasetId::CityLarge`): the same model and generator as
/// [`City`], at the size `--large` asks for.
pub const LARGE_NAME: &str = "city-large";

/// Why the value table's strategies are not measured on the large city.
pub const SKIPPED_LARGE_VALUES: &str = "the large city is there for the typed strategies' \
    cliffs; the value table reads the 2 MB city and the corpus";

/// Average postcard bytes per citizen, measured on generated cities: turns a `--size` into a
/// number of citizens. The real sizes are reported per format.
///
/// Measured (postcard length / citizens): 82.5 at 200 KB, 83.1 at 2 MB, 83.6 at 20 MB and
/// 83.8 at 200 MB; it creeps up with size because ids are varints (3 bytes from 16,384
/// citizens, 4 from 2,097,152), so 200 MB comes out 0.9% over. The test below keeps
/// `generate(n)` within 5% of `n`.
pub const POSTCARD_BYTES_PER_CITIZEN: usize = 83;

const SYLLABLES: [&str; 16] = [
    "ka", "lo", "mi", "ra", "ten", "vo", "sa", "li", "dor", "an", "el", "mar", "is", "ku", "be",
    "ny",
];
const DOMAINS: [&str; 5] = [
    "example.org",
    "mail.example.com",
    "post.example.net",
    "city.example",
    "inbox.example.io",
];
const LABELS: [&str; 6] = ["job", "street", "hobby", "team", "pet", "school"];
const WORDS: [&str; 10] = [
    "harbour", "bakery", "garden", "river", "station", "library", "market", "bridge", "tower",
    "chess",
];

fn word(rng: &mut SplitMix, syllables: u64) -> String {
    let mut s = String::new();
    for _ in 0..syllables {
        s.push_str(rng.pick(&SYLLABLES));
    }
    s
}

/// A deterministic city of about `postcard_bytes` bytes in postcard (at least one citizen).
#[must_use]
pub fn generate(postcard_bytes: usize) -> owned::City {
    let count = (postcard_bytes / POSTCARD_BYTES_PER_CITIZEN).max(1);
    // A fixed seed: the document depends on its size only.
    let mut rng = SplitMix(0x00C1_7E5E_ED00_0001);
    let citizens = (0..count as u64)
        .map(|id| {
            let syllables = 2 + rng.below(2);
            let first = word(&mut rng, syllables);
            let syllables = 2 + rng.below(3);
            let last = word(&mut rng, syllables);
            let email = format!("{first}.{last}@{}", rng.pick(&DOMAINS));
            let tags = (0..rng.below(4))
                .map(|_| owned::Tag {
                    label: rng.pick(&LABELS).to_owned(),
                    text: format!("{} {}", rng.pick(&WORDS), rng.below(1000)),
                })
                .collect();
            // About one citizen in three has a nickname.
            let nickname = (rng.below(3) == 0).then(|| word(&mut rng, 2));
            owned::Citizen {
                id,
                name: format!("{first} {last}"),
                email,
                age: u8::try_from(18 + rng.below(72)).unwrap_or(18),
                // Two decimals, like a score someone typed; exact in every format.
                score: f64::from(u32::try_from(rng.below(10_000)).unwrap_or(0)) / 100.0,
                tags,
                nickname,
            }
        })
        .collect();
    owned::City {
        name: "Arenaville".to_owned(),
        founded: 1_842,
        citizens,
    }
}

#[cfg(test)]
mod tests {
    use crate::format::{Format, Postcard};

    #[test]
    fn generate_lands_within_5_percent_of_the_requested_postcard_size() {
        for requested in [200_000, 2_000_000] {
            let bytes = Postcard::encode(&super::generate(requested))
                .expect("a city encodes")
                .len();
            let ratio = bytes as f64 / requested as f64;
            assert!(
                (0.95..=1.05).contains(&ratio),
                "generate({requested}) is {bytes} bytes of postcard ({ratio:.3}x)"
            );
        }
    }
}
