//! A dataset's documents, one per format, written inside the module by arena-bench's own
//! generators and formats, as the native bench writes them (`arena_bench::run::documents`,
//! which is native only: it reads the corpus from disk): the city and the event streams are
//! generated at the size asked for, the corpus is the JSON file the harness passes in, read
//! into its owned model and written in the other formats.
//!
//! Each document carries [`digest_of`] the owned value, which every strategy's result must
//! reproduce.

use arena_bench::datasets::{Dataset, DatasetId, canada, citm, city, events, twitter};
use arena_bench::format::FormatId;
use arena_bench::model::digest_of;

/// Why the module has no rows (`arena_bench::datasets::rows`): they are measured natively.
/// Each model the module reads is compiled for every format and strategy of the Wasm bench,
/// which adds to the module's size and build time, and the rows' case (a large binary document
/// on a server or a desktop) is the native one.
pub(crate) const NO_ROWS: &str = "the Wasm bench does not read the rows: they are measured \
    natively (arena-bench --dataset rows)";

/// One document.
#[derive(Debug)]
pub(crate) struct Document {
    /// Its format.
    pub format: FormatId,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// [`digest_of`] the owned value it holds.
    pub digest: u64,
}

/// The documents of the owned value `owned`, one per format of `formats` the dataset can be
/// written in, each written by `write`.
fn write_all<T: arena_bench::model::Digest>(
    dataset: DatasetId,
    owned: &T,
    formats: &[FormatId],
    write: impl Fn(FormatId) -> Result<Vec<u8>, String>,
) -> Result<Vec<Document>, String> {
    let digest = digest_of(owned);
    formats
        .iter()
        .filter(|f| dataset.skipped_format(**f).is_none())
        .map(|&format| {
            Ok(Document {
                format,
                bytes: write(format)?,
                digest,
            })
        })
        .collect()
}

/// The corpus dataset `D` from its JSON file: the file itself in JSON, its owned model written
/// in the other formats.
fn corpus<D: Dataset>(
    dataset: DatasetId,
    json: &[u8],
    formats: &[FormatId],
) -> Result<Vec<Document>, String> {
    let owned: D::Owned = serde_json::from_slice(json)
        .map_err(|e| format!("{}.json does not match its model: {e}", D::NAME))?;
    write_all(dataset, &owned, formats, |format| match format {
        // The real file, unmodeled fields and all, for JSON.
        FormatId::Json => Ok(json.to_vec()),
        _ => format.encode(&owned),
    })
}

/// The documents of `dataset` in `formats`; `size` sizes the synthetic ones (the city in
/// postcard bytes, the event streams in MessagePack bytes), `json` is the corpus file for the
/// corpus datasets.
///
/// # Errors
///
/// A corpus file that does not match its model, or a format's error.
pub(crate) fn generate(
    dataset: DatasetId,
    size: usize,
    json: &[u8],
    formats: &[FormatId],
) -> Result<Vec<Document>, String> {
    match dataset {
        DatasetId::City | DatasetId::CityLarge => {
            let owned = city::generate(size);
            write_all(dataset, &owned, formats, |f| f.encode(&owned))
        }
        DatasetId::Events => {
            let owned = events::generate(size);
            write_all(dataset, &owned, formats, |f| f.encode(&owned))
        }
        DatasetId::EventsTagLast => {
            let owned = events::generate(size);
            write_all(dataset, &owned, formats, |f| {
                events::write_tag_last(f, &owned)
            })
        }
        DatasetId::Twitter => corpus::<twitter::Twitter>(dataset, json, formats),
        DatasetId::CitmCatalog => corpus::<citm::CitmCatalog>(dataset, json, formats),
        DatasetId::Canada => corpus::<canada::Canada>(dataset, json, formats),
        DatasetId::Rows => Err(NO_ROWS.to_owned()),
    }
}
