//! The documents of a dataset, one per format: the synthetic city is generated at the size
//! asked for, the corpus is read from `arena-bench/data/`.

use std::path::{Path, PathBuf};

use crate::datasets::{Dataset, DatasetId, canada, citm, city, twitter};
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
    /// The document in each format.
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

fn encode_all<D: Dataset>(
    dataset: DatasetId,
    owned: &D::Owned,
    json: Option<Vec<u8>>,
    formats: &[FormatId],
) -> Result<Documents, String> {
    let mut bytes = Vec::new();
    for &format in formats {
        let document = match (format, &json) {
            // The real file, unmodeled fields and all, for JSON.
            (FormatId::Json, Some(original)) => original.clone(),
            _ => format.encode(owned)?,
        };
        bytes.push((format, document));
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
    encode_all::<D>(dataset, &owned, Some(json), formats)
}

/// The documents of `dataset` in `formats`; `city_bytes` sizes the synthetic city.
///
/// # Errors
///
/// A corpus file that cannot be read or does not match its model.
pub fn documents(
    dataset: DatasetId,
    city_bytes: u64,
    formats: &[FormatId],
) -> Result<Documents, String> {
    match dataset {
        DatasetId::City => {
            let owned = city::generate(usize::try_from(city_bytes).unwrap_or(usize::MAX));
            encode_all::<city::City>(dataset, &owned, None, formats)
        }
        DatasetId::Twitter => corpus::<twitter::Twitter>(dataset, "twitter.json", formats),
        DatasetId::CitmCatalog => {
            corpus::<citm::CitmCatalog>(dataset, "citm_catalog.json", formats)
        }
        DatasetId::Canada => corpus::<canada::Canada>(dataset, "canada.json", formats),
    }
}
