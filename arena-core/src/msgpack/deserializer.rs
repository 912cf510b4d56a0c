//! [`Deserializer`]: a serde `Deserializer` over a MessagePack `&'de [u8]` that reads what
//! rmp-serde 1.3's `Deserializer::from_read_ref` reads, the same way.

use core::str;

use rmp_serde::MSGPACK_EXT_STRUCT_NAME;
use rmp_serde::decode::Error;
use serde::de::value::SeqDeserializer;
use serde::de::{self, Visitor};

use super::ext_deserializer::ExtDeserializer;
use super::map_access::MapAccess;
use super::reader::{Reader, type_mismatch};
use super::seq_access::SeqAccess;
use super::variant_access::{UnitVariantAccess, VariantAccess};
use crate::utf8::to_str;

/// The nesting depth rmp-serde's deserializer starts with: a value may nest 1023 arrays, maps
/// and ext values, the 1024th is `DepthLimitExceeded`.
const DEFAULT_DEPTH: u16 = 1024;

/// A serde `Deserializer` reading one MessagePack value from the front of a `&'de [u8]`.
///
/// It reads what `rmp_serde::Deserializer::from_read_ref` reads, with the same results and
/// errors ([`rmp_serde::decode::Error`]): the same visitor calls for each marker (strings and
/// bins borrowed from the input, a string that is not UTF-8 offered as bytes, integers at the
/// width they were written, structs as arrays or as maps with field names, enums as a map of
/// one entry or a bare variant, `u128`/`i128` as rmp-serde writes them, ext values as
/// `rmp_serde`'s `_ExtStruct`), the same size hints and length checks, and the same nesting
/// limit (1023 levels by default). It is not human readable. Bytes after the value are left
/// unread ([`remaining_slice`](Self::remaining_slice)).
///
/// Differences: an enum written as a map of one entry counts as a level of nesting here
/// (rmp-serde does not count it), so that no input can nest enums deep enough to overflow the
/// stack; inputs nesting such enums with arrays and maps past 1023 levels in all are refused
/// here (`DepthLimitExceeded`) where rmp-serde reads on. A limit of 0 refuses every array, map
/// and ext here (rmp-serde's counter underflows). A visitor handed `visit_some` that returns
/// without reading the value leaves its marker in the input here, where rmp-serde keeps it
/// aside for the next read: the two differ only if a unit variant's nil (which rmp-serde
/// reads past a kept marker) is read next.
///
/// # Examples
///
/// ```
/// use serde::Deserialize;
///
/// #[derive(Deserialize, PartialEq, Debug)]
/// struct Dog<'a> {
///     name: &'a str,
///     age: u8,
/// }
///
/// let bytes = rmp_serde::to_vec_named(&("Bobby", 8)).unwrap();
/// let mut de = arena_core::msgpack::Deserializer::from_slice(&bytes);
/// let dog = Dog::deserialize(&mut de)?;
/// assert_eq!(dog, Dog { name: "Bobby", age: 8 });
/// assert!(de.remaining_slice().is_empty());
/// # Ok::<(), rmp_serde::decode::Error>(())
/// ```
#[derive(Debug)]
pub struct Deserializer<'de> {
    /// Where the next value starts.
    pub(super) reader: Reader<'de>,
    /// How many more levels of arrays, maps and ext values may open: a level opens only while
    /// this is above 1 (it is decremented on the way in, restored when the level's visitor
    /// succeeds, as rmp-serde counts).
    depth: u16,
}

impl<'de> Deserializer<'de> {
    /// A deserializer reading from the start of `input`, with rmp-serde's default depth limit.
    #[must_use]
    pub const fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            reader: Reader::new(input),
            depth: DEFAULT_DEPTH,
        }
    }

    /// Sets how deep arrays, maps and ext values may nest, as rmp-serde's `set_max_depth`
    /// does: at most `depth - 1` levels, `depth` capped at `u16::MAX`.
    pub fn set_max_depth(&mut self, depth: usize) {
        self.depth = u16::try_from(depth).unwrap_or(u16::MAX);
    }

    /// The input after what has been read.
    #[must_use]
    pub const fn remaining_slice(&self) -> &'de [u8] {
        self.reader.rest()
    }

    /// Opens a level of nesting, or `DepthLimitExceeded`.
    #[inline]
    fn enter(&mut self) -> Result<(), Error> {
        if self.depth <= 1 {
            self.depth = 0;
            return Err(Error::DepthLimitExceeded);
        }
        self.depth -= 1;
        Ok(())
    }

    /// Closes a level [`enter`](Self::enter) opened.
    #[inline]
    fn leave(&mut self) {
        self.depth = self.depth.saturating_add(1);
    }

    /// Reads any value, dispatching on its marker as rmp-serde's `any_inner` does: a bin is
    /// visited as bytes when `allow_bytes`, else as a sequence of `u8`s (what rmp-serde offers
    /// `deserialize_seq`, `tuple`, `struct` and `tuple_struct`).
    fn any<V: Visitor<'de>>(&mut self, visitor: V, allow_bytes: bool) -> Result<V::Value, Error> {
        let marker = self.reader.marker()?;
        match marker {
            0x00..=0x7F => visitor.visit_u8(marker),
            0x80..=0x8F => self.map(u32::from(marker & 0x0F), visitor),
            0x90..=0x9F => self.seq(u32::from(marker & 0x0F), visitor),
            0xA0..=0xBF => self.str(u32::from(marker & 0x1F), visitor),
            0xC0 => visitor.visit_unit(),
            0xC1 => Err(type_mismatch(marker)),
            0xC2 => visitor.visit_bool(false),
            0xC3 => visitor.visit_bool(true),
            0xC4..=0xC6 => {
                let len = self.reader.bin_len(marker)?;
                let bytes = self.reader.slice(len)?;
                if allow_bytes {
                    visitor.visit_borrowed_bytes(bytes)
                } else {
                    visitor.visit_seq(SeqDeserializer::new(bytes.iter().copied()))
                }
            }
            0xC7..=0xC9 | 0xD4..=0xD8 => {
                let len = self.reader.ext_len(marker)?;
                self.enter()?;
                let value =
                    visitor.visit_newtype_struct(ExtDeserializer::new(&mut self.reader, len));
                self.leave();
                value
            }
            0xCA => visitor.visit_f32(self.reader.f32()?),
            0xCB => visitor.visit_f64(self.reader.f64()?),
            0xCC => visitor.visit_u8(self.reader.u8()?),
            0xCD => visitor.visit_u16(self.reader.u16()?),
            0xCE => visitor.visit_u32(self.reader.u32()?),
            0xCF => visitor.visit_u64(self.reader.u64()?),
            0xD0 => visitor.visit_i8(self.reader.i8()?),
            0xD1 => visitor.visit_i16(self.reader.i16()?),
            0xD2 => visitor.visit_i32(self.reader.i32()?),
            0xD3 => visitor.visit_i64(self.reader.i64()?),
            0xD9 => {
                let len = self.reader.u8()?;
                self.str(len.into(), visitor)
            }
            0xDA => {
                let len = self.reader.u16()?;
                self.str(len.into(), visitor)
            }
            0xDB => {
                let len = self.reader.u32()?;
                self.str(len, visitor)
            }
            0xDC => {
                let len = self.reader.u16()?;
                self.seq(len.into(), visitor)
            }
            0xDD => {
                let len = self.reader.u32()?;
                self.seq(len, visitor)
            }
            0xDE => {
                let len = self.reader.u16()?;
                self.map(len.into(), visitor)
            }
            0xDF => {
                let len = self.reader.u32()?;
                self.map(len, visitor)
            }
            0xE0..=0xFF => visitor.visit_i8(marker.cast_signed()),
        }
    }

    /// Reads a nil, a bool or a number, as rmp-serde's `any_num` does for `deserialize_bool`
    /// and the number methods: any other marker is a `TypeMismatch`. Not inlined: the number
    /// methods read their most common marker inline first.
    #[inline(never)]
    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let marker = self.reader.marker()?;
        match marker {
            0x00..=0x7F => visitor.visit_u8(marker),
            0xE0..=0xFF => visitor.visit_i8(marker.cast_signed()),
            0xC0 => visitor.visit_unit(),
            0xC2 => visitor.visit_bool(false),
            0xC3 => visitor.visit_bool(true),
            0xCA => visitor.visit_f32(self.reader.f32()?),
            0xCB => visitor.visit_f64(self.reader.f64()?),
            0xCC => visitor.visit_u8(self.reader.u8()?),
            0xCD => visitor.visit_u16(self.reader.u16()?),
            0xCE => visitor.visit_u32(self.reader.u32()?),
            0xCF => visitor.visit_u64(self.reader.u64()?),
            0xD0 => visitor.visit_i8(self.reader.i8()?),
            0xD1 => visitor.visit_i16(self.reader.i16()?),
            0xD2 => visitor.visit_i32(self.reader.i32()?),
            0xD3 => visitor.visit_i64(self.reader.i64()?),
            _ => Err(type_mismatch(marker)),
        }
    }

    /// Reads what the struct, tuple and sequence methods ask for as `deserialize_any` does
    /// (a bin as a sequence of `u8`s), a `fixmap` or `fixarray` (how most structs and
    /// sequences are written) read inline: a struct read as an element of a sequence is then
    /// written where the sequence's loop is, not returned through memory from `any` (the copy
    /// reads back what `any` has just stored, field by field, and stalls on it).
    #[inline(always)]
    fn container<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        match self.reader.rest().first() {
            Some(&marker @ 0x80..=0x8F) => {
                self.reader.skip_marker();
                self.map(u32::from(marker & 0x0F), visitor)
            }
            Some(&marker @ 0x90..=0x9F) => {
                self.reader.skip_marker();
                self.seq(u32::from(marker & 0x0F), visitor)
            }
            _ => self.any(visitor, false),
        }
    }

    /// Reads a string's `len` bytes: visited as a borrowed `str` when they are UTF-8, else
    /// offered as borrowed bytes, and `Utf8Error` if the visitor refuses those too.
    #[inline]
    fn str<V: Visitor<'de>>(&mut self, len: u32, visitor: V) -> Result<V::Value, Error> {
        let bytes = self.reader.slice(len)?;
        match to_str(bytes) {
            Some(s) => visitor.visit_borrowed_str(s),
            None => not_utf8(bytes, visitor),
        }
    }

    /// Reads an array of `len` elements, one level deeper; `LengthMismatch` (the count read)
    /// when the visitor stops before the end.
    #[inline]
    fn seq<V: Visitor<'de>>(&mut self, len: u32, visitor: V) -> Result<V::Value, Error> {
        self.enter()?;
        let mut access = SeqAccess::new(self, len);
        let value = visitor.visit_seq(&mut access)?;
        let left = access.left();
        self.leave();
        match left {
            0 => Ok(value),
            left => Err(Error::LengthMismatch(len - left)),
        }
    }

    /// Reads a map of `len` entries, one level deeper; `LengthMismatch` (the count read) when
    /// the visitor stops before the end.
    #[inline]
    fn map<V: Visitor<'de>>(&mut self, len: u32, visitor: V) -> Result<V::Value, Error> {
        self.enter()?;
        let mut access = MapAccess::new(self, len);
        let value = visitor.visit_map(&mut access)?;
        let left = access.left();
        self.leave();
        match left {
            0 => Ok(value),
            left => Err(Error::LengthMismatch(len - left)),
        }
    }

    /// Reads a 128-bit integer as rmp-serde does: any integer marker, or 16 big-endian bytes
    /// after a `bin 8` or a `fixarray` marker of length 16 (rmp-serde writes a bin 8).
    fn int128(&mut self) -> Result<i128, Error> {
        let marker = self.reader.marker()?;
        Ok(match marker {
            0x00..=0x7F => marker.into(),
            0xE0..=0xFF => marker.cast_signed().into(),
            0xCC => self.reader.u8()?.into(),
            0xCD => self.reader.u16()?.into(),
            0xCE => self.reader.u32()?.into(),
            0xCF => self.reader.u64()?.into(),
            0xD0 => self.reader.i8()?.into(),
            0xD1 => self.reader.i16()?.into(),
            0xD2 => self.reader.i32()?.into(),
            0xD3 => self.reader.i64()?.into(),
            0xC4 => {
                let len = self.reader.u8()?;
                self.int128_bytes(len)?
            }
            0x90..=0x9F => self.int128_bytes(marker & 0x0F)?,
            _ => return Err(type_mismatch(marker)),
        })
    }

    /// The 16 bytes of a 128-bit integer written as bytes; `LengthMismatch(16)` for any other
    /// length.
    fn int128_bytes(&mut self, len: u8) -> Result<i128, Error> {
        if len != 16 {
            return Err(Error::LengthMismatch(16));
        }
        let bytes = self.reader.slice(16)?;
        let bytes = <[u8; 16]>::try_from(bytes).map_err(|_| Error::LengthMismatch(16))?;
        Ok(i128::from_be_bytes(bytes))
    }
}

/// A string's `bytes` that are not UTF-8, offered to `visitor` as borrowed bytes;
/// `Utf8Error` if it refuses them.
#[cold]
fn not_utf8<'de, V: Visitor<'de>>(bytes: &'de [u8], visitor: V) -> Result<V::Value, Error> {
    match str::from_utf8(bytes) {
        // Unreachable: `to_str` refused them. Read as UTF-8 they are a string.
        Ok(s) => visitor.visit_borrowed_str(s),
        Err(err) => visitor
            .visit_borrowed_bytes::<Error>(bytes)
            .map_err(|_| Error::Utf8Error(err)),
    }
}

/// Forwards each listed `deserialize_*` method to `self.any(visitor, true)`: a bin is visited
/// as bytes (the struct, tuple and sequence methods go through `container` instead).
macro_rules! forward_to_any {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                self.any(visitor, true)
            }
        )*
    };
}

/// Defines each listed number method: the marker `$reader` reads (a positive fixint, or a
/// float at its width) visited inline with `$visit`, anything else by `self.number(visitor)`.
/// Inline, so that a number read into a sequence or a struct field is not returned through
/// memory.
macro_rules! number_methods {
    ($($method:ident: $reader:ident => $visit:ident;)*) => {
        $(
            #[inline(always)]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                match self.reader.$reader() {
                    Some(v) => visitor.$visit(v),
                    None => self.number(visitor),
                }
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    forward_to_any! {
        deserialize_any deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_map deserialize_string deserialize_char deserialize_ignored_any
    }

    /// As `deserialize_any`, a `fixstr` (how field names and most
    /// strings are written) read first.
    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.reader.fixstr() {
            Some(len) => self.str(len, visitor),
            None => self.any(visitor, true),
        }
    }

    /// As `deserialize_identifier`.
    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_identifier(visitor)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.container(visitor)
    }

    number_methods! {
        deserialize_u8: fixint => visit_u8;
        deserialize_u16: fixint => visit_u8;
        deserialize_u32: fixint => visit_u8;
        deserialize_u64: fixint => visit_u8;
        deserialize_i8: fixint => visit_u8;
        deserialize_i16: fixint => visit_u8;
        deserialize_i32: fixint => visit_u8;
        deserialize_i64: fixint => visit_u8;
        deserialize_f32: marked_f32 => visit_f32;
        deserialize_f64: marked_f64 => visit_f64;
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.number(visitor)
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container(visitor)
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container(visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container(visitor)
    }

    /// Nil is `None`; anything else is `Some`, its marker left for the value to read (so a
    /// nested `Option` reads nil as the outer `None`, as rmp-serde does).
    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.reader.peek_marker()? == 0xC0 {
            self.reader.skip_marker();
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// Nil or an empty array (how rmp-serde writes a unit struct) is the unit struct; anything
    /// else goes to the visitor as `deserialize_any` reads it.
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.reader.peek_marker()? {
            0xC0 | 0x90 => {
                self.reader.skip_marker();
                visitor.visit_unit()
            }
            _ => self.any(visitor, true),
        }
    }

    /// `_ExtStruct` (rmp-serde's name for an ext value) reads an ext marker and offers the
    /// visitor a sequence of its tag (`i8`) and data (borrowed bytes); any other newtype struct
    /// is its content.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == MSGPACK_EXT_STRUCT_NAME {
            let marker = self.reader.marker()?;
            let len = self.reader.ext_len(marker)?;
            return visitor.visit_newtype_struct(ExtDeserializer::new(&mut self.reader, len));
        }
        visitor.visit_newtype_struct(self)
    }

    /// A map of one entry is a variant and its content (any other map length is
    /// `LengthMismatch`); anything else is a unit variant, read by the variant's identifier
    /// (a name, or an index as an integer).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let marker = self.reader.peek_marker()?;
        let mut after = self.reader;
        after.skip_marker();
        let len = match marker {
            0x80..=0x8F => Ok(u32::from(marker & 0x0F)),
            0xDE => after.u16().map(u32::from),
            0xDF => after.u32(),
            _ => Err(type_mismatch(marker)),
        };
        match len {
            Ok(1) => {
                self.reader = after;
                self.enter()?;
                let value = visitor.visit_enum(VariantAccess::new(self))?;
                self.leave();
                Ok(value)
            }
            Ok(len) => Err(Error::LengthMismatch(len)),
            // Not a map (or a map whose length is cut off): the marker is the variant's, read
            // again by its identifier.
            Err(_) => visitor.visit_enum(UnitVariantAccess::new(self)),
        }
    }

    #[inline]
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_i128(self.int128()?)
    }

    /// As rmp-serde: the value read as an `i128`, then cast (a negative integer wraps).
    #[inline]
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_u128(self.int128()?.cast_unsigned())
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        false
    }
}
