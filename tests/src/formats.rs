//! The five formats (seven encodings: MessagePack both compact and with struct maps, CBOR both
//! as serde writes it and with every map of indefinite length), each
//! serializing with serde and driving a `DeserializeSeed` exactly as the format's own
//! `from_slice`-style helper does (so trailing-input rules match the format's); postcard and
//! bincode twice, the second time read with [`ArenaSeed::str_as_bytes`].

use core::fmt;
use core::marker::PhantomData;

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator};
use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed};

/// bincode's standard configuration with a decode limit of 64 MiB, far above any test document.
const BINCODE_DECODE: bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<{ 64 << 20 }>,
> = bincode::config::standard().with_limit::<{ 64 << 20 }>();

/// A serde format under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// serde_json.
    Json,
    /// postcard (varint lengths, no field names).
    Postcard,
    /// bincode 2 in serde mode, standard configuration.
    Bincode,
    /// rmp-serde, structs as arrays.
    MsgPack,
    /// rmp-serde, structs as maps with field names.
    MsgPackNamed,
    /// cbor4ii.
    Cbor,
    /// cbor4ii, every map written again with indefinite length
    /// ([`indefinite_maps`](crate::cbor_indefinite::indefinite_maps)).
    CborIndefinite,
    /// postcard, strings read by the arena as bytes ([`ArenaSeed::str_as_bytes`]).
    PostcardStrAsBytes,
    /// bincode, strings read by the arena as bytes ([`ArenaSeed::str_as_bytes`]).
    BincodeStrAsBytes,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 9] = [
        Format::Json,
        Format::Postcard,
        Format::Bincode,
        Format::MsgPack,
        Format::MsgPackNamed,
        Format::Cbor,
        Format::CborIndefinite,
        Format::PostcardStrAsBytes,
        Format::BincodeStrAsBytes,
    ];

    /// The encoding on the wire: the same for a `*StrAsBytes` variant and its format.
    pub const fn wire(self) -> Format {
        match self {
            Format::PostcardStrAsBytes => Format::Postcard,
            Format::BincodeStrAsBytes => Format::Bincode,
            other => other,
        }
    }

    /// Whether the format is CBOR, in either encoding.
    pub const fn is_cbor(self) -> bool {
        matches!(self, Format::Cbor | Format::CborIndefinite)
    }

    /// Whether the input describes its own types (everything but postcard and bincode).
    pub const fn is_self_describing(self) -> bool {
        !matches!(self.wire(), Format::Postcard | Format::Bincode)
    }

    /// The seed the arena reads this format with: [`ArenaSeed::str_as_bytes`] for the
    /// `*StrAsBytes` variants.
    pub const fn arena_seed<'bump, T, A: ?Sized>(self, arena: &'bump A) -> ArenaSeed<'bump, T, A> {
        let as_bytes = matches!(self, Format::PostcardStrAsBytes | Format::BincodeStrAsBytes);
        ArenaSeed::new(arena).str_as_bytes(as_bytes)
    }

    /// Serializes `value`.
    ///
    /// postcard and bincode write a map's length first, which serde's `Serialize` of a struct
    /// with a flattened field does not give: such a value is written through a
    /// `serde_json::Value`, whose maps have one, so that they still get a map to read (and fail
    /// to read it where they fail).
    ///
    /// # Panics
    ///
    /// When the format cannot serialize it (a test bug).
    pub fn to_bytes<T: Serialize>(self, value: &T) -> Vec<u8> {
        match self {
            Format::Json => serde_json::to_vec(value).expect("json serializes"),
            Format::Postcard | Format::PostcardStrAsBytes => match postcard::to_allocvec(value) {
                Err(postcard::Error::SerializeSeqLengthUnknown) => {
                    self.to_bytes(&serde_json::to_value(value).expect("json serializes"))
                }
                bytes => bytes.expect("postcard serializes"),
            },
            Format::Bincode | Format::BincodeStrAsBytes => {
                match bincode::serde::encode_to_vec(value, bincode::config::standard()) {
                    Err(bincode::error::EncodeError::Serde(
                        bincode::serde::EncodeError::SequenceMustHaveLength,
                    )) => self.to_bytes(&serde_json::to_value(value).expect("json serializes")),
                    bytes => bytes.expect("bincode serializes"),
                }
            }
            Format::MsgPack => rmp_serde::to_vec(value).expect("msgpack serializes"),
            Format::MsgPackNamed => rmp_serde::to_vec_named(value).expect("msgpack serializes"),
            Format::Cbor => cbor4ii::serde::to_vec(Vec::new(), value).expect("cbor serializes"),
            Format::CborIndefinite => {
                crate::cbor_indefinite::indefinite_maps(&Format::Cbor.to_bytes(value))
            }
        }
    }

    /// Drives `seed` over `bytes`; the error is the format's message.
    ///
    /// # Errors
    ///
    /// The format's error, as a string.
    pub fn decode_seed<'de, S: DeserializeSeed<'de>>(
        self,
        seed: S,
        bytes: &'de [u8],
    ) -> Result<S::Value, String> {
        match self {
            Format::Json => {
                let mut de = serde_json::Deserializer::from_slice(bytes);
                let value = seed.deserialize(&mut de).map_err(text)?;
                de.end().map_err(text)?;
                Ok(value)
            }
            Format::Postcard | Format::PostcardStrAsBytes => {
                let mut de = postcard::Deserializer::from_bytes(bytes);
                seed.deserialize(&mut de).map_err(text)
            }
            // A limit, as bincode documents for untrusted input: without one its own owned
            // `String` decode allocates whatever length the input claims and aborts on absurd
            // ones (found by the fuzzer: `tests/tests/fuzz_regressions/`). The arena path never
            // reaches that code (it borrows), but serde's baseline does, in corruption tests.
            Format::Bincode | Format::BincodeStrAsBytes => {
                bincode::serde::seed_decode_from_slice(seed, bytes, BINCODE_DECODE)
                    .map(|(value, _read)| value)
                    .map_err(text)
            }
            Format::MsgPack | Format::MsgPackNamed => {
                let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
                seed.deserialize(&mut de).map_err(text)
            }
            Format::Cbor | Format::CborIndefinite => {
                let reader = cbor4ii::core::utils::SliceReader::new(bytes);
                let mut de = cbor4ii::serde::Deserializer::new(reader);
                seed.deserialize(&mut de).map_err(text)
            }
        }
    }

    /// Deserializes an owned `T` with serde, as the baseline to compare with.
    ///
    /// # Errors
    ///
    /// The format's error, as a string.
    pub fn decode_owned<T: DeserializeOwned>(self, bytes: &[u8]) -> Result<T, String> {
        self.decode_seed(PhantomData::<T>, bytes)
    }

    /// Deserializes a `T` into `arena` through [`Format::arena_seed`]; MessagePack with
    /// `arena_core::msgpack::Deserializer`, the others as [`Format::decode_seed`] does.
    ///
    /// # Errors
    ///
    /// The format's error, as a string.
    pub fn decode_in<'bump, T, A>(self, arena: &'bump A, bytes: &[u8]) -> Result<T, String>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        let seed = self.arena_seed::<T, A>(arena);
        match self {
            // The arena reads through `arena_core::json`'s entry point, as
            // `arena_core::json::from_slice` does: the crate's reader (a derived struct through
            // its direct path), and serde_json where that reader refuses the input, which gives
            // the error.
            Format::Json => arena_core::json::from_slice_seed(seed, bytes).map_err(text),
            // The arena reads through `arena_core::msgpack`'s reader, as
            // `arena_core::msgpack::from_slice` does; serde's baseline (`decode_owned`) through
            // rmp-serde's: every comparison of the two is also one of the two readers.
            Format::MsgPack | Format::MsgPackNamed => seed
                .deserialize(&mut arena_core::msgpack::Deserializer::from_slice(bytes))
                .map_err(text),
            _ => self.decode_seed(seed, bytes),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

fn text(e: impl fmt::Display) -> String {
    e.to_string()
}
