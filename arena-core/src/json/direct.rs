//! [`Object`] and [`Array`]: the reader's direct paths, through which a derived struct reads an
//! object field by field and a slice reads an array element by element, with no serde visitor
//! in between.
//!
//! Through serde, a struct's keys come to it one `next_key` at a time: each key's string is
//! scanned for its end, handed to the field visitor as a `&str`, matched against the names,
//! and returned as a field index that the struct's loop then matches again. On this path the
//! struct first compares the entry of the field it expects next (the one after the field just
//! read: serializers write the fields in order) with the input, as a compact serializer writes
//! it: comma, quoted name and colon, `,"name":`, in one comparison of two words
//! ([`Object::next_field`]). A match is the entry, since a name that needs no escape is
//! written in JSON as its own bytes, and the quote after it ends the string there. Any other
//! entry (out of order, unknown, with whitespace or an escape in it, or for a name that needs
//! one) is read as serde reads it, its key compared with the expected name or read whole and
//! matched as the visitor would match it. Values are read with each field type's own direct
//! path (`ArenaDeserialize::__deserialize_json_in`).
//!
//! Both follow the reader's serde path step for step: the same bytes accepted in the same
//! order, the same depth counted. They refuse whatever they do not read the way that path
//! would, and the entry points then read the input with serde_json, which gives the value or
//! the error (see [`Refused`]).

use serde::de::Error as _;

use super::deserializer::{Deserializer, Text};
use super::refused::Refused;
use crate::{ArenaDeserialize, BumpAllocator};

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

    /// Moves to the next entry and tells whose it is: `Some(n)` for `fields`' field `n`,
    /// `Some(usize::MAX)` for a key no field takes, with the reading position at its value
    /// (the colon consumed); `None` at the object's `}` (not consumed).
    ///
    /// The entry of the field the struct expects next (`expected`, the one after the field
    /// just read: serializers write them in order) is tried first, comma, key and colon in one
    /// comparison ([`Fields::entries`]). Any other entry (out of order, unknown, with
    /// whitespace or an escape in it) is read as serde's `next_key` reads it, its key compared
    /// with the expected one ([`Fields::keys`]) or read whole and named by `field_of`.
    ///
    /// # Errors
    ///
    /// [`Refused`] where neither an entry nor the end follows.
    #[inline(always)]
    pub fn next_field<const N: usize>(
        &mut self,
        fields: &Fields<N>,
        expected: usize,
        field_of: impl FnOnce(&[u8]) -> usize,
    ) -> Result<Option<usize>, Refused> {
        // The first entry has no comma before it, and only the first field's entry is written
        // without one: a comma-less key after an entry is refused by the slow path.
        if self.first == (expected == 0)
            && let Some(entry) = fields.entries.get(expected)
            && self.consume(entry)
        {
            self.first = false;
            return Ok(Some(expected));
        }
        if self.de.peek_raw() == Some(b'}') {
            return Ok(None);
        }
        self.other_field(fields, expected, field_of)
    }

    /// [`next_field`](Self::next_field) past its first comparison.
    #[inline(never)]
    fn other_field<const N: usize>(
        &mut self,
        fields: &Fields<N>,
        expected: usize,
        field_of: impl FnOnce(&[u8]) -> usize,
    ) -> Result<Option<usize>, Refused> {
        if !self.de.next_entry(&mut self.first)? {
            return Ok(None);
        }
        self.de.eat();
        let field = match fields.keys.get(expected) {
            Some(key) if self.consume(key) => expected,
            _ => field_of(self.key()?),
        };
        self.de.colon()?;
        Ok(Some(field))
    }

    /// Consumes `key`'s bytes if they are at the reading position: two masked comparisons of
    /// words, with no branch on which key it is. `false` where fewer than 16 bytes of input
    /// are left.
    #[inline(always)]
    fn consume(&mut self, key: &Key) -> bool {
        let at = self.de.pos();
        let Some((lo, rest)) = self
            .de
            .input()
            .get(at..)
            .and_then(<[u8]>::split_first_chunk::<8>)
        else {
            return false;
        };
        let Some((hi, _)) = rest.split_first_chunk::<8>() else {
            return false;
        };
        let lo = u64::from_le_bytes(*lo);
        let hi = u64::from_le_bytes(*hi);
        let is = lo & key.masks[0] == key.words[0] && hi & key.masks[1] == key.words[1];
        if is {
            self.de.set_pos(at + key.len);
        }
        is
    }

    /// The key at the reading position (after its opening quote), read whole and decoded.
    #[inline(always)]
    fn key(&mut self) -> Result<&[u8], Refused> {
        Ok(match self.de.str()? {
            Text::Borrowed(key) => key.as_bytes(),
            Text::Copied(key) => key.as_bytes(),
        })
    }

    /// The reader at the value of the entry [`next_field`](Self::next_field) found.
    #[inline(always)]
    pub fn value(&mut self) -> &mut Deserializer<'de> {
        self.de
    }

    /// Reads the value of the entry [`next_field`](Self::next_field) found into `field`, the
    /// struct's variable for it, with the field type's direct path. One function per field
    /// type, shared by every struct with a field of that type, rather than the same statements
    /// in each struct's body: the derive's generated code stays small to compile.
    ///
    /// # Errors
    ///
    /// [`Refused`] where `field` holds a value already (a duplicate field, as serde's
    /// `duplicate_field`), or where its type's direct path refuses the value.
    #[inline(always)]
    pub fn read_field<'bump, A, T>(
        &mut self,
        arena: &'bump A,
        field: &mut Option<T>,
    ) -> Result<(), Refused>
    where
        A: BumpAllocator + ?Sized,
        T: ArenaDeserialize<'bump, A>,
    {
        if field.is_some() {
            return Err(Refused::duplicate_field(""));
        }
        *field = Some(T::__deserialize_json_in(arena, self.de)?);
        Ok(())
    }

    /// The value read for a field with no default, or [`Refused`] (serde's `missing_field`)
    /// where the object had no entry for it.
    ///
    /// # Errors
    ///
    /// [`Refused`] where `field` is `None`.
    #[inline(always)]
    pub fn required<T>(field: Option<T>) -> Result<T, Refused> {
        match field {
            Some(value) => Ok(value),
            None => Err(Refused::missing_field("")),
        }
    }

    /// Skips the value of the entry [`next_field`](Self::next_field) found, as serde skips the
    /// value of a field it ignores.
    ///
    /// # Errors
    ///
    /// [`Refused`] where no valid JSON value follows.
    #[inline(never)]
    pub fn skip_value(&mut self) -> Result<(), Refused> {
        self.de.skip_value()
    }

    /// Consumes the object's `}` (the last [`next_field`](Self::next_field) found it) and leaves
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

/// The names of a struct's fields as [`Object::next_field`] compares them with the input, in
/// the order of the fields. Not public API.
///
/// The derive writes each field's bytes (see [`new`](Self::new)) rather than its name: packing
/// names into words in a `const fn` is work for the compiler's const evaluator, byte by byte:
/// about 4 ms of the user's build per struct.
#[derive(Clone, Copy, Debug)]
pub struct Fields<const N: usize> {
    /// Each field's entry as a compact serializer writes it: `"name":` for the first field,
    /// `,"name":` for the others.
    entries: [Key; N],
    /// Each field's key after its opening quote: `name"`.
    keys: [Key; N],
}

impl<const N: usize> Fields<N> {
    /// The fields, in order, each as the bytes of its entry and of its key, zero-padded to 16,
    /// with the length of each:
    /// - the entry as a compact serializer writes it: `"name":` for the first field,
    ///   `,"name":` for the others;
    /// - the key after its opening quote: `name"`.
    ///
    /// Only a name that JSON writes as its own bytes (no quote, backslash or control
    /// character) is compared so, and only in 16 bytes: the derive gives a length of 0 for any
    /// other, and for a field whose own name an earlier field takes (by its name or an alias),
    /// which is then never expected. A length of 0 matches nothing.
    #[must_use]
    pub const fn new(fields: [[(u64, u64, usize); 2]; N]) -> Self {
        let mut entries = [Key::NONE; N];
        let mut keys = [Key::NONE; N];
        let mut i = 0;
        while i < N {
            let [entry, key] = fields[i];
            entries[i] = Key::new(entry);
            keys[i] = Key::new(key);
            i += 1;
        }
        Self { entries, keys }
    }
}

/// Up to 16 bytes of input that name one field, as [`Object::consume`] compares them: the bytes
/// as two little-endian words, with the masks of the bytes each holds.
#[derive(Clone, Copy, Debug)]
struct Key {
    words: [u64; 2],
    masks: [u64; 2],
    /// How many bytes are compared.
    len: usize,
}

impl Key {
    /// The first `len` bytes of the words `lo` and `hi`; [`NONE`](Self::NONE) where `len` is
    /// 0 (or past 16).
    const fn new((lo, hi, len): (u64, u64, usize)) -> Self {
        if len == 0 || len > 16 {
            return Self::NONE;
        }
        let masks = [mask(len), mask(len.saturating_sub(8))];
        Self {
            words: [lo & masks[0], hi & masks[1]],
            masks,
            len,
        }
    }

    /// Bytes that match nothing: the first would have to be 256.
    const NONE: Self = Self {
        words: [0x100, 0],
        masks: [0xff, 0],
        len: 0,
    };
}

/// The mask of a word's first `len` bytes (all of them from 8 on).
const fn mask(len: usize) -> u64 {
    if len >= 8 {
        u64::MAX
    } else {
        (1 << (8 * len)) - 1
    }
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

    /// Whether the array has no element: its `]` follows its `[` (after whitespace). Asked
    /// before the first [`next`](Self::next), which then finds the `]`.
    #[inline(always)]
    pub(crate) fn is_empty(&mut self) -> bool {
        self.first && self.de.peek() == Some(b']')
    }

    /// The reader, at the element [`next`](Self::next) found.
    #[inline(always)]
    pub(crate) fn reader(&mut self) -> &mut Deserializer<'de> {
        self.de
    }

    /// Closes an array whose elements are all read (a tuple's, say): [`close`](Self::close) at
    /// its `]`, refused at anything else, where serde_json says "trailing characters" or
    /// "trailing comma".
    ///
    /// # Errors
    ///
    /// [`Refused`] where another element or anything but the `]` follows.
    #[inline(always)]
    pub(crate) fn end(self) -> Result<(), Refused> {
        match self.de.peek() {
            Some(b']') => self.close(),
            Some(_) => Err(super::refused::refused_by(
                super::refused::Grammar::Trailing(b']'),
            )),
            None => Err(Refused),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_covers_the_first_bytes_of_a_word() {
        assert_eq!(mask(0), 0);
        assert_eq!(mask(1), 0xff);
        assert_eq!(mask(3), 0x00ff_ffff);
        assert_eq!(mask(7), 0x00ff_ffff_ffff_ffff);
        assert_eq!(mask(8), u64::MAX);
        assert_eq!(mask(16), u64::MAX);
    }

    #[test]
    fn a_key_compares_its_first_bytes_and_a_length_of_0_matches_nothing() {
        // `,"name":` (8 bytes) and `,"a_longer":` (12), as the derive packs them, with bytes
        // past the length that the key must ignore.
        let word = |bytes: &[u8]| {
            let mut padded = [0; 8];
            padded[..bytes.len()].copy_from_slice(bytes);
            u64::from_le_bytes(padded)
        };
        let short = Key::new((word(b",\"name\":"), word(b"junk"), 8));
        assert_eq!(
            (short.words, short.masks, short.len),
            ([word(b",\"name\":"), 0], [u64::MAX, 0], 8)
        );
        let long = Key::new((word(b",\"a_long"), word(b"er\":junk"), 12));
        assert_eq!(long.words, [word(b",\"a_long"), word(b"er\":")]);
        assert_eq!(long.masks, [u64::MAX, 0xffff_ffff]);
        let none = Key::new((word(b",\"name\":"), 0, 0));
        assert_eq!(
            (none.words, none.masks, none.len),
            (Key::NONE.words, Key::NONE.masks, 0)
        );
        // A word's byte is at most 0xff: NONE's first word, 0x100 under the mask 0xff, is never
        // an input's.
        assert_ne!(Key::NONE.words[0] & Key::NONE.masks[0], Key::NONE.words[0]);
    }
}
