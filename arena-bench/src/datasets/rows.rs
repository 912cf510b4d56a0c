//! The rows: a large binary document of many small rows (an id, two short strings, a short list
//! of tags and an optional note each), the shape of a table export; deterministic, of any
//! number of rows.
//!
//! Per row, the arena's work is a few short strings and one short sequence, so what a read
//! costs per string and per sequence (staging, the copy at the sequence's end, the arena's
//! bookkeeping) is most of the document's time, as it is not on the city, whose citizens carry
//! numbers and tagged pairs besides.
//!
//! The rows are written in postcard and bincode only ([`SKIPPED_FORMAT`]).

use super::Dataset;
use super::splitmix::SplitMix;

crate::model! {
    /// A table of rows: one document.
    struct Rows {
        rows: [Row],
    }

    /// One row.
    struct Row {
        id: u64,
        name: str,
        email: str,
        tags: [str],
        note: (opt str),
    }
}

/// The rows dataset.
#[derive(Debug)]
pub struct Rows;

impl Dataset for Rows {
    const NAME: &'static str = "rows";
    type Owned = owned::Rows;
    type Borrowed<'a> = borrowed::Rows<'a>;
    type Arena<'a> = arena::Rows<'a>;
    type Multi = multi::Rows;
}

/// Why the rows have no document in the self-describing formats.
pub const SKIPPED_FORMAT: &str = "the rows are a large binary document, read through \
    postcard and bincode; every format and model measured adds to arena-bench's build time";

/// Bytes of `--size` per row: the default 2 MB gives 200,000 rows (about 9 MB of postcard,
/// four to five times the city's document), the size at which a large document of small rows
/// is read, and `--size` scales them with the other synthetic documents.
pub const SIZE_BYTES_PER_ROW: usize = 10;

/// The number of rows of a document sized by `size` (`--size`): at least one.
#[must_use]
pub const fn rows_for(size: usize) -> usize {
    let rows = size / SIZE_BYTES_PER_ROW;
    if rows == 0 { 1 } else { rows }
}

const SYLLABLES: [&str; 16] = [
    "ka", "lo", "mi", "ra", "ten", "vo", "sa", "li", "dor", "an", "el", "mar", "is", "ku", "be",
    "ny",
];
const DOMAINS: [&str; 4] = ["ex.org", "mail.io", "post.net", "a.example"];
const TAGS: [&str; 8] = ["new", "vip", "eu", "us", "beta", "ops", "dev", "paid"];
const NOTES: [&str; 6] = ["call", "late", "moved", "paid", "check", "refund"];

/// 2 or 3 syllables: 4 to 9 bytes.
fn word(rng: &mut SplitMix) -> String {
    let syllables = 2 + rng.below(2);
    (0..syllables).map(|_| rng.pick(&SYLLABLES)).collect()
}

/// A deterministic document of `count` rows; a shorter one is the start of a longer one.
#[must_use]
pub fn generate(count: usize) -> owned::Rows {
    // A fixed seed: the document depends on its number of rows only.
    let mut rng = SplitMix(0x0000_5EED_0000_0060);
    let rows = (0..count as u64)
        .map(|id| {
            // 9 to 19 bytes.
            let name = format!("{} {}", word(&mut rng), word(&mut rng));
            // 11 to 19 bytes.
            let email = format!("{}@{}", word(&mut rng), rng.pick(&DOMAINS));
            let tags = (0..rng.below(4))
                .map(|_| rng.pick(&TAGS).to_owned())
                .collect();
            // About one row in three has a note, of 6 to 9 bytes.
            let note =
                (rng.below(3) == 0).then(|| format!("{} {}", rng.pick(&NOTES), 10 + rng.below(90)));
            owned::Row {
                id,
                name,
                email,
                tags,
                note,
            }
        })
        .collect();
    owned::Rows { rows }
}

#[cfg(test)]
mod tests {
    use super::{SIZE_BYTES_PER_ROW, SKIPPED_FORMAT, generate, rows_for};
    use crate::datasets::DatasetId;
    use crate::dispatch;
    use crate::format::{Bincode, Format, FormatId, Postcard};
    use crate::run::documents;
    use crate::strategy::Observed;
    use crate::strategy_id::StrategyId;

    #[test]
    fn the_default_size_is_200_000_rows_and_any_size_at_least_one() {
        let default = usize::try_from(crate::run::DEFAULT_CITY_BYTES).unwrap();
        assert_eq!(rows_for(default), 200_000);
        assert_eq!(rows_for(SIZE_BYTES_PER_ROW - 1), 1);
        assert_eq!(rows_for(0), 1);
        assert_eq!(rows_for(20_000), 2_000);
    }

    #[test]
    fn the_rows_are_short_deterministic_and_a_short_document_starts_a_long_one() {
        let (short, long) = (generate(2_000), generate(6_000));
        assert_eq!(generate(2_000), short);
        assert_eq!(long.rows[..short.rows.len()], short.rows[..]);
        let rows = &long.rows;
        for row in rows {
            assert!((5..=20).contains(&row.name.len()), "{row:?}");
            assert!((5..=20).contains(&row.email.len()), "{row:?}");
            assert!(row.tags.len() <= 3, "{row:?}");
            assert!(
                row.tags.iter().all(|t| (2..=4).contains(&t.len())),
                "{row:?}"
            );
            assert!(row.note.as_ref().is_none_or(|n| n.len() <= 20), "{row:?}");
        }
        let notes = rows.iter().filter(|r| r.note.is_some()).count() as f64 / rows.len() as f64;
        assert!(
            (0.30..0.37).contains(&notes),
            "{notes:.3} of the rows have a note"
        );
        for tags in 0..=3 {
            assert!(
                rows.iter().any(|r| r.tags.len() == tags),
                "no row of {tags} tags"
            );
        }
    }

    #[test]
    fn every_typed_strategy_reads_the_rows_to_the_owned_digest_in_postcard_and_bincode() {
        let docs = documents(DatasetId::Rows, 20_000, &FormatId::ALL).unwrap();
        let formats: Vec<FormatId> = docs.bytes.iter().map(|(f, _)| *f).collect();
        assert_eq!(formats, [FormatId::Postcard, FormatId::Bincode]);
        let mut read = 0;
        for (format, input) in &docs.bytes {
            for strategy in StrategyId::ALL {
                if !strategy.reads(*format) {
                    continue;
                }
                let name = format!("{}/rows/{}", format.name(), strategy.name());
                let cell = dispatch::cell(*format, DatasetId::Rows, strategy)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let mut observed = Observed::default();
                cell.code
                    .start()
                    .once(input, Some(&mut observed))
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                let expected = docs.expected_digest(*format, strategy).unwrap();
                assert_eq!(observed.digest, expected, "{name}");
                read += 1;
            }
        }
        // The 13 strategies that read every format, multitude's included, and
        // slab-fresh-via-serde, in both formats.
        assert_eq!(read, 28);
        for format in [FormatId::MsgPack, FormatId::Cbor, FormatId::Json] {
            let error = dispatch::cell(format, DatasetId::Rows, StrategyId::SlabFresh).unwrap_err();
            assert!(error.contains(SKIPPED_FORMAT), "{error}");
        }
    }

    #[test]
    fn a_row_is_about_45_bytes_of_postcard_and_of_bincode() {
        let rows = generate(20_000);
        for (name, bytes) in [
            ("postcard", Postcard::encode(&rows).unwrap().len()),
            ("bincode", Bincode::encode(&rows).unwrap().len()),
        ] {
            let per_row = bytes as f64 / rows.rows.len() as f64;
            assert!(
                (35.0..55.0).contains(&per_row),
                "{name}: {per_row:.1} bytes per row"
            );
        }
    }
}
