//! [`Object`] and [`Array`]: the reader's direct paths, through which a derived struct reads an
//! object field by field and a slice reads an array element by element, with no serde visitor
//! in between.
//!
//! Through serde, a struct's keys come to it one `next_key` at a time: each key's string is
//! scanned for its end, handed to the field visitor as a `&str`, matched against the names,
//! and returned as a field index that the struct's loop then matches again. On this path the
//! struct first compares the name of the field it expects next (the one after the field just
//! read: serializers write the fields in order), closing quote included, with the bytes after
//! the key's opening quote ([`Object::key_is_expected`]): a match is the key, since a name
//! that needs no escape is written in JSON as its own bytes, and the quote after it ends the
//! string there. Any other key (out of order, unknown, with an escape, or a name that needs
//! one) is read whole ([`Object::key`]) and matched as the visitor would match it. Values are
//! read with each field type's own direct path (`ArenaDeserialize::__deserialize_json_in`).
//!
//! Both follow the reader's serde path step for step: the same bytes accepted in the same
//! order, the same depth counted. They refuse whatever they do not read the way that path
//! would, and the entry points then read the input with serde_json, which gives the value or
//! the error (see [`Refused`]).

use super::deserializer::{Deserializer, Text};
use super::refused::Refused;

/// The entries of an object being read field by field by a derived struct; see the module
/// docs. Not public API.
#[derive(Debug)]
pub struct Object<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Whether no entry has been read: the next needs no comma before it.
    first: bool,
}

impl<'a, 'de> Object<'a, 'de> {
    /// The object at the reading position, its `{` consumed one level deeper, if an object is
    /// there; `Ok(None)`, nothing consumed, if another value is (the caller then reads it
    /// through serde, which reads a struct from an array too, or refuses it).
    ///
    /// # Errors
    ///
    /// [`Refused`] past serde_json's 128 levels.
    #[inline(always)]
    pub fn open(de: &'a mut Deserializer<'de>) -> Result<Option<Self>, Refused> {
        if de.peek() != Some(b'{') {
            return Ok(None);
        }
        de.open_level()?;
        Ok(Some(Self { de, first: true }))
    }

    /// Moves to the next key: `Ok(true)` with the reading position right after its opening
    /// quote, `Ok(false)` at the object's `}` (not consumed), as serde's `next_key` reads it.
    ///
    /// # Errors
    ///
    /// [`Refused`] where neither a key nor the end follows.
    #[inline(always)]
    pub fn next_key(&mut self) -> Result<bool, Refused> {
        if !self.de.next_entry(&mut self.first)? {
            return Ok(false);
        }
        self.de.eat();
        Ok(true)
    }

    /// Whether the key at the reading position (after its opening quote) is `keys[expected]`:
    /// a name with no byte JSON escapes (a quote, a backslash, a control character) followed
    /// by its closing quote, which then ends the key there. Two masked comparisons of words,
    /// and no branch on which key it is: the key the struct expects next (the one after the
    /// field just read) is tried this way. If it is, the key is consumed. `false` where
    /// `expected` is past `keys` or fewer than 16 bytes of input are left (the caller then
    /// reads the key whole).
    #[inline(always)]
    pub fn key_is_expected(&mut self, keys: &[Key], expected: usize) -> bool {
        let at = self.de.pos();
        let (Some(key), Some(bytes)) = (
            keys.get(expected),
            self.de
                .input()
                .get(at..)
                .and_then(<[u8]>::first_chunk::<16>),
        ) else {
            return false;
        };
        let (lo, hi) = bytes.split_at(8);
        let lo = u64::from_le_bytes(lo.try_into().unwrap_or_default());
        let hi = u64::from_le_bytes(hi.try_into().unwrap_or_default());
        let is = lo & key.masks[0] == key.words[0] && hi & key.masks[1] == key.words[1];
        if is {
            self.de.set_pos(at + key.len);
        }
        is
    }

    /// The key at the reading position (after its opening quote), read whole and decoded: for
    /// a key that is not the expected one ([`key_is_expected`](Self::key_is_expected)).
    ///
    /// # Errors
    ///
    /// [`Refused`] where the key is not a valid JSON string.
    #[inline(never)]
    pub fn key(&mut self) -> Result<&[u8], Refused> {
        Ok(match self.de.str()? {
            Text::Borrowed(key) => key.as_bytes(),
            Text::Copied(key) => key.as_bytes(),
        })
    }

    /// The reader at the value of the key just read, its colon consumed.
    ///
    /// # Errors
    ///
    /// [`Refused`] where no colon follows the key.
    #[inline(always)]
    pub fn value(&mut self) -> Result<&mut Deserializer<'de>, Refused> {
        self.de.colon()?;
        Ok(&mut *self.de)
    }

    /// Skips the value of the key just read, as serde skips the value of a field it ignores.
    ///
    /// # Errors
    ///
    /// [`Refused`] where no colon and valid JSON value follow the key.
    #[inline(never)]
    pub fn skip_value(&mut self) -> Result<(), Refused> {
        self.de.colon()?;
        self.de.skip_value()
    }

    /// Consumes the object's `}` (the last [`next_key`](Self::next_key) found it) and leaves
    /// its level.
    ///
    /// # Errors
    ///
    /// Never in practice: [`Refused`] if the `}` is not there.
    #[inline(always)]
    pub fn close(self) -> Result<(), Refused> {
        if self.de.peek() != Some(b'}') {
            return Err(Refused);
        }
        self.de.eat();
        self.de.close_level();
        Ok(())
    }
}

/// A field name and its closing quote, as [`Object::key_is_expected`] compares them: the
/// bytes as two little-endian words, with the masks of the bytes each holds. Not public API.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    words: [u64; 2],
    masks: [u64; 2],
    /// The bytes compared: the name's and its quote's.
    len: usize,
}

impl Key {
    /// `quoted`, a name JSON writes as its own bytes followed by its closing quote; one of more
    /// than 16 bytes matches no key, and the struct tells it by its other comparisons.
    #[must_use]
    pub const fn new(quoted: &[u8]) -> Self {
        if quoted.len() > 16 {
            return Self::NONE;
        }
        let mut words = [0; 2];
        let mut masks = [0; 2];
        let mut i = 0;
        while i < quoted.len() {
            words[i / 8] |= (quoted[i] as u64) << (8 * (i % 8));
            masks[i / 8] |= 0xff << (8 * (i % 8));
            i += 1;
        }
        Self {
            words,
            masks,
            len: quoted.len(),
        }
    }

    /// A key that matches nothing: its first byte would have to be 256. For a name JSON
    /// escapes, which [`Object::key`] reads.
    pub const NONE: Self = Self {
        words: [0x100, 0],
        masks: [0xff, 0],
        len: 0,
    };
}

/// The elements of an array being read into a slice; see the module docs.
#[derive(Debug)]
pub(crate) struct Array<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// Whether no element has been read: the next needs no comma before it.
    first: bool,
}

impl<'a, 'de> Array<'a, 'de> {
    /// The array at the reading position, its `[` consumed one level deeper, if an array is
    /// there; `Ok(None)`, nothing consumed, if another value is.
    ///
    /// # Errors
    ///
    /// [`Refused`] past serde_json's 128 levels.
    #[inline(always)]
    pub(crate) fn open(de: &'a mut Deserializer<'de>) -> Result<Option<Self>, Refused> {
        if de.peek() != Some(b'[') {
            return Ok(None);
        }
        de.open_level()?;
        Ok(Some(Self { de, first: true }))
    }

    /// Moves to the next element: `Ok(true)` with the reading position at it, `Ok(false)` at
    /// the array's `]` (not consumed), as serde's `next_element` reads it.
    ///
    /// # Errors
    ///
    /// [`Refused`] where neither an element nor the end follows, and at a trailing comma.
    #[inline(always)]
    pub(crate) fn next(&mut self) -> Result<bool, Refused> {
        self.de.next_element(&mut self.first)
    }

    /// The reader, at the element [`next`](Self::next) found.
    #[inline(always)]
    pub(crate) fn reader(&mut self) -> &mut Deserializer<'de> {
        self.de
    }

    /// Consumes the array's `]` (the last [`next`](Self::next) found it) and leaves its level.
    ///
    /// # Errors
    ///
    /// Never in practice: [`Refused`] if the `]` is not there.
    #[inline(always)]
    pub(crate) fn close(self) -> Result<(), Refused> {
        if self.de.peek() != Some(b']') {
            return Err(Refused);
        }
        self.de.eat();
        self.de.close_level();
        Ok(())
    }
}
