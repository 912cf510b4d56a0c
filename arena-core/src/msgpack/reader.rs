//! The byte cursor under [`Deserializer`](super::Deserializer): markers, big-endian numbers,
//! lengths and borrowed slices read from the front of a `&'de [u8]`, each with one length
//! check, and the errors rmp-serde reports when the input ends early.

use std::io::{self, ErrorKind};

use rmp::Marker;
use rmp_serde::decode::Error;

/// A MessagePack input being read, front to back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reader<'de> {
    /// The input not read yet.
    rest: &'de [u8],
}

impl<'de> Reader<'de> {
    /// A reader at the start of `input`.
    #[inline]
    pub(super) const fn new(input: &'de [u8]) -> Self {
        Reader { rest: input }
    }

    /// The input not read yet.
    #[inline]
    pub(super) const fn rest(&self) -> &'de [u8] {
        self.rest
    }

    /// Reads the next marker byte. At the end of the input: `InvalidMarkerRead`, as rmp-serde
    /// reports a marker it cannot read.
    #[inline]
    pub(super) fn marker(&mut self) -> Result<u8, Error> {
        match self.rest.split_first() {
            Some((&byte, rest)) => {
                self.rest = rest;
                Ok(byte)
            }
            None => Err(Error::InvalidMarkerRead(read_exact_eof())),
        }
    }

    /// The next marker byte, left unread. At the end of the input: `InvalidMarkerRead`.
    #[inline]
    pub(super) fn peek_marker(&self) -> Result<u8, Error> {
        match self.rest.first() {
            Some(&byte) => Ok(byte),
            None => Err(Error::InvalidMarkerRead(read_exact_eof())),
        }
    }

    /// Reads a `fixstr` marker if one is next: the string's length; else reads nothing.
    #[inline]
    pub(super) fn fixstr(&mut self) -> Option<u32> {
        match self.rest.split_first() {
            Some((&marker @ 0xA0..=0xBF, rest)) => {
                self.rest = rest;
                Some(u32::from(marker & 0x1F))
            }
            _ => None,
        }
    }

    /// Reads an `f64` marker and its value if they are next; else reads nothing.
    #[inline(always)]
    pub(super) fn marked_f64(&mut self) -> Option<f64> {
        match self.rest.split_first_chunk::<9>() {
            Some((&[0xCB, ref bytes @ ..], rest)) => {
                self.rest = rest;
                Some(f64::from_be_bytes(*bytes))
            }
            _ => None,
        }
    }

    /// Reads an `f32` marker and its value if they are next; else reads nothing.
    #[inline(always)]
    pub(super) fn marked_f32(&mut self) -> Option<f32> {
        match self.rest.split_first_chunk::<5>() {
            Some((&[0xCA, ref bytes @ ..], rest)) => {
                self.rest = rest;
                Some(f32::from_be_bytes(*bytes))
            }
            _ => None,
        }
    }

    /// Reads a positive fixint if one is next: its value; else reads nothing.
    #[inline(always)]
    pub(super) fn fixint(&mut self) -> Option<u8> {
        match self.rest.split_first() {
            Some((&marker @ 0x00..=0x7F, rest)) => {
                self.rest = rest;
                Some(marker)
            }
            _ => None,
        }
    }

    /// Moves past the marker [`peek_marker`](Self::peek_marker) returned.
    #[inline]
    pub(super) fn skip_marker(&mut self) {
        self.rest = self.rest.get(1..).unwrap_or_default();
    }

    /// Reads the next `N` bytes of a number or a length. When fewer are left:
    /// `InvalidDataRead`, and the rest of the input is consumed, as `read_exact` on a slice
    /// (rmp-serde's reads) leaves it.
    #[inline]
    fn data<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        match self.rest.split_first_chunk::<N>() {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(*bytes)
            }
            None => {
                self.rest = &[];
                Err(Error::InvalidDataRead(read_exact_eof()))
            }
        }
    }

    /// Reads a `u8` of data.
    #[inline]
    pub(super) fn u8(&mut self) -> Result<u8, Error> {
        self.data::<1>().map(|[byte]| byte)
    }

    /// Reads a big-endian `u16` of data.
    #[inline]
    pub(super) fn u16(&mut self) -> Result<u16, Error> {
        self.data().map(u16::from_be_bytes)
    }

    /// Reads a big-endian `u32` of data.
    #[inline]
    pub(super) fn u32(&mut self) -> Result<u32, Error> {
        self.data().map(u32::from_be_bytes)
    }

    /// Reads a big-endian `u64` of data.
    #[inline]
    pub(super) fn u64(&mut self) -> Result<u64, Error> {
        self.data().map(u64::from_be_bytes)
    }

    /// Reads an `i8` of data.
    #[inline]
    pub(super) fn i8(&mut self) -> Result<i8, Error> {
        self.data().map(i8::from_be_bytes)
    }

    /// Reads a big-endian `i16` of data.
    #[inline]
    pub(super) fn i16(&mut self) -> Result<i16, Error> {
        self.data().map(i16::from_be_bytes)
    }

    /// Reads a big-endian `i32` of data.
    #[inline]
    pub(super) fn i32(&mut self) -> Result<i32, Error> {
        self.data().map(i32::from_be_bytes)
    }

    /// Reads a big-endian `i64` of data.
    #[inline]
    pub(super) fn i64(&mut self) -> Result<i64, Error> {
        self.data().map(i64::from_be_bytes)
    }

    /// Reads a big-endian `f32` of data.
    #[inline]
    pub(super) fn f32(&mut self) -> Result<f32, Error> {
        self.data().map(f32::from_be_bytes)
    }

    /// Reads a big-endian `f64` of data.
    #[inline]
    pub(super) fn f64(&mut self) -> Result<f64, Error> {
        self.data().map(f64::from_be_bytes)
    }

    /// Borrows the next `len` bytes (a string's, a bin's or an ext's). When fewer are left:
    /// `InvalidDataRead` and nothing consumed, as rmp-serde's slice reader does.
    #[inline]
    pub(super) fn slice(&mut self, len: u32) -> Result<&'de [u8], Error> {
        // A `u32` always fits a `usize` on the targets std supports (16-bit ones have no std).
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        match self.rest.split_at_checked(len) {
            Some((bytes, rest)) => {
                self.rest = rest;
                Ok(bytes)
            }
            None => Err(Error::InvalidDataRead(ErrorKind::UnexpectedEof.into())),
        }
    }

    /// Reads the length after a bin marker (`0xC4..=0xC6`).
    #[inline]
    pub(super) fn bin_len(&mut self, marker: u8) -> Result<u32, Error> {
        match marker {
            0xC4 => self.u8().map(u32::from),
            0xC5 => self.u16().map(u32::from),
            _ => self.u32(),
        }
    }

    /// Reads the data length after an ext marker: fixed for `fixext` (`0xD4..=0xD8`), read
    /// for `ext 8/16/32` (`0xC7..=0xC9`); any other marker is a `TypeMismatch`.
    #[inline]
    pub(super) fn ext_len(&mut self, marker: u8) -> Result<u32, Error> {
        Ok(match marker {
            0xD4 => 1,
            0xD5 => 2,
            0xD6 => 4,
            0xD7 => 8,
            0xD8 => 16,
            0xC7 => self.u8()?.into(),
            0xC8 => self.u16()?.into(),
            0xC9 => self.u32()?,
            _ => return Err(type_mismatch(marker)),
        })
    }
}

/// The error `read_exact` on a slice returns when the slice is too short: rmp-serde reads
/// markers, numbers and lengths with it, so its errors carry this one.
#[cold]
fn read_exact_eof() -> io::Error {
    let mut empty: &[u8] = &[];
    io::Read::read_exact(&mut empty, &mut [0])
        .err()
        .unwrap_or_else(|| ErrorKind::UnexpectedEof.into())
}

/// `TypeMismatch` naming the marker `byte` decodes to.
#[cold]
pub(super) fn type_mismatch(byte: u8) -> Error {
    Error::TypeMismatch(Marker::from_u8(byte))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_big_endian_and_lengths_checked_once() {
        let mut reader = Reader::new(&[0x01, 0x02, 0x03, 0x04, 0x05]);
        assert_eq!(reader.u16().unwrap(), 0x0102);
        assert!(matches!(reader.u32(), Err(Error::InvalidDataRead(_))));
        // A short number consumes the rest, as `read_exact` on a slice does.
        assert!(reader.rest().is_empty());
        assert!(matches!(reader.marker(), Err(Error::InvalidMarkerRead(_))));
    }

    #[test]
    fn a_short_slice_consumes_nothing() {
        let mut reader = Reader::new(b"abc");
        assert!(matches!(reader.slice(4), Err(Error::InvalidDataRead(_))));
        assert_eq!(reader.slice(3).unwrap(), b"abc");
    }

    #[test]
    fn eof_errors_read_as_rmp_serde_writes_them() {
        let mut reader = Reader::new(&[]);
        assert_eq!(
            reader.u8().unwrap_err().to_string(),
            "IO error while reading data: failed to fill whole buffer"
        );
        assert_eq!(
            reader.slice(1).unwrap_err().to_string(),
            "IO error while reading data: unexpected end of file"
        );
    }
}
