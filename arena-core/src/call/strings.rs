//! [`Strings`]: how the call's strings and byte strings are asked of the format, the part of
//! the call state the string impls (`&str`, `&[u8]`, `BStr`, the arena strings) follow.
//!
//! Three settings, each kept by a nested seed that does not set it:
//! - [`as_bytes`](Strings::as_bytes), the public [`ArenaSeed::str_as_bytes`]: a string is asked
//!   for as bytes and its UTF-8 checked by the arena;
//! - [`input`](Strings::input), set only by the format modules' `from_reader` entry points
//!   (a crate-private seed setting): whether the input outlives the call, and so whether the
//!   borrowed forms (`deserialize_str`, `deserialize_bytes`) or the temporary ones
//!   (`deserialize_string`, `deserialize_byte_buf`) are asked for; see [`Input`];
//! - [`either_form`](Strings::either_form), set only by the `cbor` entry points: byte strings
//!   and maps are asked for with `deserialize_any`, so that a strict self-describing format
//!   hands over whichever form the input holds.
//!
//! Human-readable formats are always asked for a string with `deserialize_str`: their byte
//! strings read differently, and serde_json, the one such format here, reads `deserialize_str`
//! and `deserialize_string` alike from a slice and from a reader.
//!
//! [`ArenaSeed::str_as_bytes`]: crate::ArenaSeed::str_as_bytes

/// What the call reads from, as far as its strings are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// Input that outlives the call (a slice): strings are asked for in their borrowed forms,
    /// which a zero-copy format answers with a slice of the input, copied once into the arena.
    Borrowed,
    /// Input that does not outlive the call (a reader): strings are asked for in their
    /// temporary forms. A format reading a stream holds a string in a buffer of its own, and
    /// the temporary form is what lets it hand over that buffer: postcard's
    /// `deserialize_str` must return input that lives as long as the deserializer (its
    /// reader flavor copies every string into the arena for that), `deserialize_string` does
    /// not, so each string is copied once, from the reader's buffer into the arena.
    /// MessagePack, CBOR and JSON read both forms alike from a reader.
    #[cfg(any(
        feature = "json",
        feature = "postcard",
        feature = "msgpack",
        feature = "cbor"
    ))]
    Transient,
    /// Input that does not outlive the call, in a format that writes a string and a byte string
    /// exactly as a sequence of `u8` (a `u64` length, then the bytes: bincode): strings and
    /// byte strings are asked for as sequences (`deserialize_seq`) and read byte by byte (see
    /// `impls/byte_seq.rs`). A length the input claims is checked against the limits before
    /// any byte is read, and at most 64 KiB of it is allocated before the bytes arrive:
    /// bincode's own reader decoder allocates the whole claimed length of a string before
    /// reading it, and builds a `String` for each one.
    #[cfg(feature = "bincode")]
    ByteSeq,
}

/// The call's string mode: [`ArenaSeed::str_as_bytes`] and the [`Input`].
///
/// [`ArenaSeed::str_as_bytes`]: crate::ArenaSeed::str_as_bytes
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Strings {
    /// Whether strings are asked for as bytes ([`ArenaSeed::str_as_bytes`]).
    ///
    /// [`ArenaSeed::str_as_bytes`]: crate::ArenaSeed::str_as_bytes
    pub(crate) as_bytes: bool,
    /// What the call reads from.
    pub(crate) input: Input,
    /// Whether `&[u8]`, `BStr` and `&[(K, V)]` ask for their data with `deserialize_any`. They
    /// read both serde forms of their data (bytes or a sequence of `u8`; a map or a sequence
    /// of pairs), and most self-describing formats hand over either form whatever was asked
    /// for; cbor4ii's deserializer reads only the form asked for (bytes: a CBOR byte string;
    /// a map: a CBOR map), while serde writes `Vec<u8>` and `Vec<(K, V)>`, the owned twins, as
    /// arrays. The CBOR entry points set it, so both forms read there.
    pub(crate) either_form: bool,
}

impl Strings {
    /// Outside any call: strings asked for as strings, from input that outlives the read.
    pub(crate) const IDLE: Self = Self {
        as_bytes: false,
        input: Input::Borrowed,
        either_form: false,
    };
}
