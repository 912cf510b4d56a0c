//! The documents of a dataset, one per format it can be written in: the synthetic city, event
//! streams and rows are generated at the size asked for, the corpus is read from
//! `arena-bench/data/`.

use std::path::{Path, PathBuf};

use crate::datasets::{Dataset, DatasetId, canada, citm, city, events, rows, twitter};
use crate::strategy_id::StrategyId;
use core::marker::PhantomData;

use crate::format::{Format, FormatId, JsonSonic};
use crate::model::digest_of;
use crate::value::{agree, document_digest, to_json_value};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A dataset's documents, one per format, and the digests every strategy's result must
/// reproduce.
#[derive(Debug)]
pub struct Documents {
    /// The dataset.
    pub dataset: DatasetId,
    /// Per format of [`Self::bytes`], [`digest_of`] the owned value that format reads: what the
    /// typed strategies must reproduce. It is the dataset's owned value for every format but
    /// [`JsonSonic`], whose owned result is checked against it with floats within one unit in
    /// the last place (serde_json's default float parsing is not always correctly rounded,
    /// sonic-rs's is) and gives its own digest.
    pub typed_digests: Vec<(FormatId, u64)>,
    /// [`document_digest`] of the JSON document, when JSON is among the formats: what the
    /// value table's strategies must reproduce.
    pub value_digest: Option<u64>,
    /// The document in each format asked for that the dataset can be written in
    /// ([`DatasetId::skipped_format`]).
    pub bytes: Vec<(FormatId, Vec<u8>)>,
}

impl Documents {
    /// The digest `strategy`'s result must have on the document in `format`, if there is one.
    #[must_use]
    pub fn expected_digest(&self, format: FormatId, strategy: StrategyId) -> Option<u64> {
        if strategy.is_value() {
            self.value_digest
        } else {
            self.typed_digests
                .iter()
                .find(|(f, _)| *f == format)
                .map(|&(_, digest)| digest)
        }
    }
}

/// [`digest_of`] `owned` as sonic-rs reads it from `json`, once checked to be `owned` with
/// floats equal or adjacent and everything else equal.
fn sonic_digest<D: Dataset>(json: &[u8], owned: &D::Owned) -> Result<u64, String> {
    let read: D::Owned = JsonSonic::decode_seed(json, PhantomData)?;
    agree(&to_json_value(&read)?, &to_json_value(owned)?)
        .map_err(|e| format!("sonic-rs reads {} unlike serde_json: {e}", D::NAME))?;
    Ok(digest_of(&read))
}

/// What [`documents_for`] computes besides the documents and their typed digests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDigest {
    /// The value table's digest of the JSON document, which parses it into a
    /// `serde_json::Value`.
    Computed,
    /// None: no strategy of the value table reads these documents (and a large JSON document
    /// would take seconds and several times its size in memory to parse into a
    /// `serde_json::Value`).
    Skipped,
}

/// The documents of `dataset`, whose value is `owned`, each written by `write`.
fn write_all<D: Dataset>(
    dataset: DatasetId,
    owned: &D::Owned,
    formats: &[FormatId],
    value: ValueDigest,
    write: impl Fn(FormatId) -> Result<Vec<u8>, String>,
) -> Result<Documents, String> {
    let mut bytes = Vec::new();
    let mut typed_digests = Vec::new();
    for &format in formats {
        if dataset.skipped_format(format).is_none() {
            let document = write(format)?;
            typed_digests.push((
                format,
                match format {
                    FormatId::JsonSonic => sonic_digest::<D>(&document, owned)?,
                    _ => digest_of(owned),
                },
            ));
            bytes.push((format, document));
        }
    }
    let value_digest = bytes
        .iter()
        .find(|(format, _)| *format == FormatId::Json && value == ValueDigest::Computed)
        .map(|(_, json)| document_digest(json))
        .transpose()?;
    Ok(Documents {
        dataset,
        typed_digests,
        value_digest,
        bytes,
    })
}

fn corpus<D: Dataset>(
    dataset: DatasetId,
    file: &str,
    formats: &[FormatId],
    value: ValueDigest,
) -> Result<Documents, String> {
    let path = data_dir().join(file);
    let json = std::fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let owned: D::Owned = serde_json::from_slice(&json)
        .map_err(|e| format!("{} does not match its model: {e}", path.display()))?;
    write_all::<D>(dataset, &owned, formats, value, |format| match format {
        // The real file, unmodeled fields and all, for JSON.
        FormatId::Json | FormatId::JsonSerde | FormatId::JsonSonic => Ok(json.clone()),
        _ => format.encode(&owned),
    })
}

/// The documents of `dataset` in those of `formats` it can be written in; `size` sizes the
/// synthetic documents (`--size`): the city in postcard bytes, the event streams in MessagePack
/// bytes, the rows at one row per [`rows::SIZE_BYTES_PER_ROW`] bytes.
///
/// # Errors
///
/// A corpus file that cannot be read or does not match its model.
pub fn documents(dataset: DatasetId, size: u64, formats: &[FormatId]) -> Result<Documents, String> {
    documents_for(dataset, size, formats, ValueDigest::Computed)
}

/// [`documents`], with the value table's digest only when `value` asks for it.
///
/// # Errors
///
/// See [`documents`].
pub fn documents_for(
    dataset: DatasetId,
    size: u64,
    formats: &[FormatId],
    value: ValueDigest,
) -> Result<Documents, String> {
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    match dataset {
        DatasetId::City | DatasetId::CityLarge => {
            let owned = city::generate(size);
            write_all::<city::City>(dataset, &owned, formats, value, |f| f.encode(&owned))
        }
        DatasetId::Events => {
            let owned = events::generate(size);
            write_all::<events::Events>(dataset, &owned, formats, value, |f| f.encode(&owned))
        }
        DatasetId::EventsTagLast => {
            let owned = events::generate(size);
            write_all::<events::EventsTagLast>(dataset, &owned, formats, value, |f| {
                events::write_tag_last(f, &owned)
            })
        }
        DatasetId::Rows => {
            let owned = rows::generate(rows::rows_for(size));
            write_all::<rows::Rows>(dataset, &owned, formats, value, |f| f.encode(&owned))
        }
        DatasetId::Twitter => corpus::<twitter::Twitter>(dataset, "twitter.json", formats, value),
        DatasetId::CitmCatalog => {
            corpus::<citm::CitmCatalog>(dataset, "citm_catalog.json", formats, value)
        }
        DatasetId::Canada => corpus::<canada::Canada>(dataset, "canada.json", formats, value),
    }
}

#[cfg(test)]
mod tests {
    use core::marker::PhantomData;

    use super::{ValueDigest, corpus, data_dir};
    use crate::datasets::canada;
    use crate::format::{Format, FormatId, Json, JsonSonic};
    use crate::model::digest_of;
    use crate::strategy_id::StrategyId;

    /// Every number of a JSON text, in order (canada.json's strings hold no digits).
    fn numbers(json: &str) -> Vec<&str> {
        json.split(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
            .filter(|token| token.starts_with(|c: char| c == '-' || c.is_ascii_digit()))
            .collect()
    }

    #[test]
    fn sonic_rs_reads_every_float_of_canada_correctly_rounded() {
        let json = std::fs::read_to_string(data_dir().join("canada.json")).unwrap();
        let read: canada::owned::Canada =
            JsonSonic::decode_seed(json.as_bytes(), PhantomData).unwrap_or_else(|e| panic!("{e}"));
        let floats: Vec<f64> = read
            .features
            .iter()
            .flat_map(|f| f.geometry.coordinates.iter().flatten())
            .flat_map(|&(x, y)| [x, y])
            .collect();
        let text = numbers(&json);
        assert_eq!(floats.len(), text.len());
        assert!(floats.len() > 100_000, "{} numbers", floats.len());
        for (float, text) in floats.iter().zip(text) {
            // Rust's `str::parse` rounds correctly.
            assert_eq!(
                float.to_bits(),
                text.parse::<f64>().unwrap().to_bits(),
                "{text}"
            );
        }
    }

    #[test]
    fn the_sonic_documents_are_the_json_ones_with_their_own_owned_digest() {
        let formats = [FormatId::Json, FormatId::JsonSonic];
        let docs = corpus::<canada::Canada>(
            crate::datasets::DatasetId::Canada,
            "canada.json",
            &formats,
            ValueDigest::Skipped,
        )
        .unwrap();
        assert_eq!(docs.bytes[0].1, docs.bytes[1].1);
        let owned = StrategyId::OwnedSystem;
        let (json, sonic) = (
            docs.expected_digest(FormatId::Json, owned).unwrap(),
            docs.expected_digest(FormatId::JsonSonic, owned).unwrap(),
        );
        // Each is the digest of what its own parser reads: serde_json reads a few of canada's
        // floats one unit in the last place away unless its `float_roundtrip` feature is on
        // (arena-bench turns it on), sonic-rs never does.
        let read = |format| -> canada::owned::Canada {
            match format {
                FormatId::Json => Json::decode_seed(&docs.bytes[0].1, PhantomData),
                _ => JsonSonic::decode_seed(&docs.bytes[1].1, PhantomData),
            }
            .unwrap()
        };
        assert_eq!(json, digest_of(&read(FormatId::Json)));
        assert_eq!(sonic, digest_of(&read(FormatId::JsonSonic)));
        assert_eq!(docs.expected_digest(FormatId::Postcard, owned), None);
    }
}
