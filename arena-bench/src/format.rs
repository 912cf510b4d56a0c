//! The formats: postcard, bincode 2, MessagePack, CBOR and JSON, each driving a serde seed; JSON
//! three times over the same bytes: `json`, what a user calls (the arena strategies through
//! `arena_core::json::from_slice` and its reader, the others through serde_json), `json-serde`
//! (every strategy through serde_json, the arena strategies through an `ArenaSeed` on it) and
//! `json-sonic` (every strategy through sonic-rs's serde `Deserializer`).
//!
//! Every strategy reaches a format through [`Format::decode_seed`], so the owned, in-place,
//! borrowed and arena strategies all read the same bytes through the same `Deserializer`; the
//! arena strategies through [`Format::decode_arena`], the format's one-call entry point where
//! arena-core has one (what a user calls), which drives that same `Deserializer`.

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator};
use serde::Serialize;
use serde::de::DeserializeSeed;

/// A serde format: how a document is written, and how a seed reads it back.
pub trait Format {
    /// The name in rows and on the command line.
    const NAME: &'static str;

    /// Whether the format writes a string exactly as a byte string (postcard, bincode), so the
    /// arena strategies read its strings with `ArenaSeed::str_as_bytes(true)`, as a user of the
    /// toolkit would.
    const STR_AS_BYTES: bool = false;

    /// Writes `value`.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String>;

    /// Reads one document from `input` with `seed`.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String>;

    /// Reads one document from `input` into an arena with `seed`, through the format's entry
    /// point in arena-core (`arena_core::postcard::from_bytes_seed`, ...), which knows the
    /// input's size: a sequence whose announced length the slice bounds goes straight into the
    /// arena. Formats without an entry point drive the seed as [`decode_seed`](Self::decode_seed)
    /// does.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn decode_arena<'bump, T, A>(input: &[u8], seed: ArenaSeed<'bump, T, A>) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        Self::decode_seed(input, seed)
    }
}

/// postcard: varint lengths, no field names.
#[derive(Debug)]
pub struct Postcard;

impl Format for Postcard {
    const NAME: &'static str = "postcard";
    const STR_AS_BYTES: bool = true;

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        postcard::to_allocvec(value).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        let mut de = postcard::Deserializer::from_bytes(input);
        seed.deserialize(&mut de).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_arena<'bump, T, A>(input: &[u8], seed: ArenaSeed<'bump, T, A>) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        arena_core::postcard::from_bytes_seed(seed, input).map_err(|e| e.to_string())
    }
}

/// bincode 2 (standard configuration: varint integers), through its serde support.
#[derive(Debug)]
pub struct Bincode;

impl Format for Bincode {
    const NAME: &'static str = "bincode";
    const STR_AS_BYTES: bool = true;

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        bincode::serde::encode_to_vec(value, bincode::config::standard()).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        bincode::serde::seed_decode_from_slice(seed, input, bincode::config::standard())
            .map(|(value, _)| value)
            .map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_arena<'bump, T, A>(input: &[u8], seed: ArenaSeed<'bump, T, A>) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        arena_core::bincode::from_slice_seed(seed, input).map_err(|e| e.to_string())
    }
}

/// MessagePack (rmp-serde), structs written as maps with their field names, as MessagePack is
/// used between programs that do not share a schema.
#[derive(Debug)]
pub struct MsgPack;

impl Format for MsgPack {
    const NAME: &'static str = "msgpack";

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        rmp_serde::to_vec_named(value).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        let mut de = rmp_serde::Deserializer::from_read_ref(input);
        seed.deserialize(&mut de).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_arena<'bump, T, A>(input: &[u8], seed: ArenaSeed<'bump, T, A>) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        arena_core::msgpack::from_slice_seed(seed, input).map_err(|e| e.to_string())
    }
}

/// CBOR (cbor4ii), structs written as maps with their field names. Every strategy reads it
/// through cbor4ii's serde `Deserializer`, the arena strategies through
/// `arena_core::cbor::from_slice` (arena-core has no CBOR reader of its own).
#[derive(Debug)]
pub struct Cbor;

impl Format for Cbor {
    const NAME: &'static str = "cbor";

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        cbor4ii::serde::to_vec(Vec::new(), value).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        let mut de =
            cbor4ii::serde::Deserializer::new(cbor4ii::core::utils::SliceReader::new(input));
        seed.deserialize(&mut de).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_arena<'bump, T, A>(input: &[u8], seed: ArenaSeed<'bump, T, A>) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        arena_core::cbor::from_slice_seed(seed, input).map_err(|e| e.to_string())
    }
}

/// JSON, read from bytes: by serde_json, and by arena-core's own reader for the arena
/// strategies (`arena_core::json::from_slice`, what a user of the toolkit calls).
#[derive(Debug)]
pub struct Json;

impl Format for Json {
    const NAME: &'static str = "json";

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        serde_json::to_vec(value).map_err(|e| e.to_string())
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        let mut de = serde_json::Deserializer::from_slice(input);
        let value = seed.deserialize(&mut de).map_err(|e| e.to_string())?;
        de.end().map_err(|e| e.to_string())?;
        Ok(value)
    }

    #[inline]
    fn decode_arena<'bump, T, A>(input: &[u8], seed: ArenaSeed<'bump, T, A>) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        arena_core::json::from_slice_seed(seed, input).map_err(|e| e.to_string())
    }
}

/// JSON read by serde_json for every strategy, the arena strategies through an `ArenaSeed` on
/// `serde_json::Deserializer`: the same documents as [`Json`], so that the gain of arena-core's
/// reader over serde_json shows.
#[derive(Debug)]
pub struct JsonSerde;

impl Format for JsonSerde {
    const NAME: &'static str = "json-serde";

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        Json::encode(value)
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        Json::decode_seed(input, seed)
    }
}

/// The name of [`JsonSonic`].
const JSON_SONIC: &str = "json-sonic";

/// JSON read by sonic-rs's serde `Deserializer` (SIMD string scanning, the whole input's UTF-8
/// checked once up front), written by serde_json: the same documents as [`Json`].
///
/// sonic-rs picks its SIMD code at compile time: built without `-C target-cpu=native`, as this
/// workspace builds, it runs its SSE2 code on x86_64. It rounds every float correctly, as
/// serde_json does with its `float_roundtrip` feature (which arena-bench turns on); the owned
/// result of this format is checked against serde_json's with floats within one unit (see
/// [`documents`](crate::run::documents)), a tolerance for a serde_json built without the
/// feature, and each strategy of this format against its owned result exactly.
#[derive(Debug)]
///
/// sonic-rs does not build for wasm32, so neither does this format's [`Format`] impl; the
/// variant [`FormatId::JsonSonic`] names it everywhere.
pub struct JsonSonic;

#[cfg(not(target_family = "wasm"))]
impl Format for JsonSonic {
    const NAME: &'static str = JSON_SONIC;

    fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
        Json::encode(value)
    }

    #[inline]
    fn decode_seed<'de, S: DeserializeSeed<'de>>(
        input: &'de [u8],
        seed: S,
    ) -> Result<S::Value, String> {
        let mut de = sonic_rs::Deserializer::from_slice(input);
        let value = seed.deserialize(&mut de).map_err(|e| e.to_string())?;
        de.end().map_err(|e| e.to_string())?;
        Ok(value)
    }
}

/// Identifies a format at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatId {
    /// [`Postcard`].
    Postcard,
    /// [`Bincode`].
    Bincode,
    /// [`MsgPack`].
    MsgPack,
    /// [`Json`].
    Json,
    /// [`JsonSerde`].
    JsonSerde,
    /// [`JsonSonic`].
    JsonSonic,
    /// [`Cbor`].
    Cbor,
}

impl FormatId {
    /// Every format, in report order: the matrix's four, then the formats read through
    /// parsers arena-core does not own.
    pub const ALL: [Self; 7] = [
        Self::Postcard,
        Self::Bincode,
        Self::MsgPack,
        Self::Json,
        Self::JsonSerde,
        Self::JsonSonic,
        Self::Cbor,
    ];

    /// The name in rows and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Postcard => Postcard::NAME,
            Self::Bincode => Bincode::NAME,
            Self::MsgPack => MsgPack::NAME,
            Self::Cbor => Cbor::NAME,
            Self::Json => Json::NAME,
            Self::JsonSerde => JsonSerde::NAME,
            Self::JsonSonic => JSON_SONIC,
        }
    }

    /// The format called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Writes `value` in this format.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    pub fn encode<T: Serialize>(self, value: &T) -> Result<Vec<u8>, String> {
        match self {
            Self::Postcard => Postcard::encode(value),
            Self::Bincode => Bincode::encode(value),
            Self::MsgPack => MsgPack::encode(value),
            Self::Cbor => Cbor::encode(value),
            // sonic-rs reads the JSON serde_json writes.
            Self::Json | Self::JsonSerde | Self::JsonSonic => Json::encode(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use core::marker::PhantomData;
    use std::borrow::Cow;

    use super::{Format, FormatId, Json, JsonSonic};
    use crate::model::CowStr;

    #[test]
    fn both_json_parsers_read_escapes_alike_and_lend_unescaped_strings() {
        let json = br#"["plain", "tab\t quote\" slash\/ \u00e9 \ud83d\ude00", "caf\u00e9"]"#;
        let by_json: Vec<CowStr<'_>> = Json::decode_seed(json, PhantomData).unwrap();
        let by_sonic: Vec<CowStr<'_>> = JsonSonic::decode_seed(json, PhantomData).unwrap();
        assert_eq!(by_sonic, by_json);
        assert_eq!(by_sonic[1].0, "tab\t quote\" slash/ \u{e9} \u{1f600}");
        assert!(matches!(by_sonic[0].0, Cow::Borrowed("plain")));
        assert!(matches!(by_sonic[2].0, Cow::Owned(_)));
    }

    #[test]
    fn every_format_is_found_by_its_name() {
        for format in FormatId::ALL {
            assert_eq!(FormatId::from_name(format.name()), Some(format));
        }
        assert_eq!(FormatId::from_name("json-sonic"), Some(FormatId::JsonSonic));
        assert_eq!(FormatId::from_name("sonic"), None);
    }

    #[test]
    fn json_sonic_rejects_trailing_input_and_invalid_utf8() {
        assert!(JsonSonic::decode_seed(b"[1] [2]", PhantomData::<Vec<u8>>).is_err());
        assert!(JsonSonic::decode_seed(b"[1]  \n", PhantomData::<Vec<u8>>).is_ok());
        assert!(JsonSonic::decode_seed(b"[\"\xff\"]", PhantomData::<Vec<String>>).is_err());
    }
}
