//! The documents of a dataset, one per format it can be written in: the synthetic city and
//! event streams are generated at the size asked for, the corpus is read from
//! `arena-bench/data/`.

use std::path::{Path, PathBuf};

use crate::datasets::{Dataset, DatasetId, canada, citm, city, events, twitter};
use crate::dispatch::StrategyId;
use crate::format::FormatId;
use crate::model::digest_of;
use crate::value::document_digest;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A dataset's documents, one per format, and the digests every strategy's result must
/// reproduce.
#[derive(Debug)]
pub struct Documents {
    /// The dataset.
    pub dataset: DatasetId,
    /// [`digest_of`] the owned value: what the typed strategies must reproduce.
    pub digest: u64,
    /// [`document_digest`] of the JSON document, when JSON is among the formats: what the
    /// value table's strategies must reproduce.
    pub value_digest: Option<u64>,
    /// The document in each format asked for that the dataset can be written in
    /// ([`DatasetId::skipped_format`]).
    pub bytes: Vec<(FormatId, Vec<u8>)>,
}

impl Documents {
    /// The digest `strategy`'s result must have, if it reads any of these documents.
    #[must_use]
    pub fn expected_digest(&self, strategy: StrategyId) -> Option<u64> {
        if strategy.is_value() {
            self.value_digest
        } else {
            Some(self.digest)
        }
    }
}

/// The documents of `dataset`, whose value is `owned`, each written by `write`.
fn write_all<D: Dataset>(
    dataset: DatasetId,
    owned: &D::Owned,
    formats: &[FormatId],
    write: impl Fn(FormatId) -> Result<Vec<u8>, String>,
) -> Result<Documents, String> {
    let mut bytes = Vec::new();
    for &format in formats {
        if dataset.skipped_format(format).is_none() {
            bytes.push((format, write(format)?));
        }
    }
    let value_digest = bytes
        .iter()
        .find(|(format, _)| *format == FormatId::Json)
        .map(|(_, json)| document_digest(json))
        .transpose()?;
    Ok(Documents {
        dataset,
        digest: digest_of(owned),
        value_digest,
        bytes,
    })
}

fn corpus<D: Dataset>(
    dataset: DatasetId,
    file: &str,
    formats: &[FormatId],
) -> Result<Documents, String> {
    let path = data_dir().join(file);
    let json = std::fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let owned: D::Owned = serde_json::from_slice(&json)
        .map_err(|e| format!("{} does not match its model: {e}", path.display()))?;
    write_all::<D>(dataset, &owned, formats, |format| match format {
        // The real file, unmodeled fields and all, for JSON.
        FormatId::Json => Ok(json.clone()),
        _ => format.encode(&owned),
    })
}

/// The documents of `dataset` in those of `formats` it can be written in; `size` sizes the
/// synthetic documents (`--size`): the city in postcard bytes, the event streams in MessagePack
/// bytes.
///
/// # Errors
///
/// A corpus file that cannot be read or does not match its model.
pub fn documents(dataset: DatasetId, size: u64, formats: &[FormatId]) -> Result<Documents, String> {
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    match dataset {
        DatasetId::City => {
            let owned = city::generate(size);
            write_all::<city::City>(dataset, &owned, formats, |f| f.encode(&owned))
        }
        DatasetId::Events => {
            let owned = events::generate(size);
            write_all::<events::Events>(dataset, &owned, formats, |f| f.encode(&owned))
        }
        DatasetId::EventsTagLast => {
            let owned = events::generate(size);
            write_all::<events::EventsTagLast>(dataset, &owned, formats, |f| {
                events::write_tag_last(f, &owned)
            })
        }
        DatasetId::Twitter => corpus::<twitter::Twitter>(dataset, "twitter.json", formats),
        DatasetId::CitmCatalog => {
            corpus::<citm::CitmCatalog>(dataset, "citm_catalog.json", formats)
        }
        DatasetId::Canada => corpus::<canada::Canada>(dataset, "canada.json", formats),
    }
}
