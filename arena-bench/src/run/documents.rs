//! The documents of a dataset, one per format: the synthetic city is generated at the size
//! asked for, the corpus is read from `arena-bench/data/`.

use std::path::{Path, PathBuf};

use crate::datasets::{Dataset, DatasetId, canada, citm, city, twitter};
use crate::format::FormatId;
use crate::model::digest_of;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A dataset's documents, one per format, and the digest of its owned value (what every
/// strategy's result must reproduce).
#[derive(Debug)]
pub struct Documents {
    /// The dataset.
    pub dataset: DatasetId,
    /// [`digest_of`] the owned value.
    pub digest: u64,
    /// The document in each format.
    pub bytes: Vec<(FormatId, Vec<u8>)>,
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
    Ok(Documents {
        dataset,
        digest: digest_of(owned),
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
