//! [`Deserializer`]: the crate's JSON reader, a serde `Deserializer` over a `&'de [u8]` that
//! reads what `serde_json::Deserializer::from_slice` reads, the same values by the same
//! visitor calls.
//!
//! It follows serde_json 1.0's `Deserializer` method by method (which visitor call each
//! `deserialize_*` makes, the 128 levels of nesting, keys read as numbers or booleans when a
//! number or a bool is asked for, an enum as a string or an object of one entry, a sequence or
//! map read to its end), with its numbers read as serde_json's `float_roundtrip` feature reads
//! them. What it does faster: a string's plain run is found 16 bytes at a time, a float is
//! rounded from the digits as they are read (see [`number`](super::number)), and errors carry
//! nothing ([`Refused`]): the entry points read a refused input again with serde_json for the
//! error the caller sees. It refuses what serde_json refuses, and nothing else (the
//! differential tests and the `json_differential` fuzz target hold it to that).

use core::ptr::NonNull;

use serde::de::{self, Visitor};

use super::map_access::{MapAccess, MapKey};
use super::number::{self, Number};
use super::refused::Refused;
use super::seq_access::SeqAccess;
use super::string;
use super::variant_access::{UnitVariantAccess, VariantAccess};
use super::whitespace;
use super::window::Source;
use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::call;
use crate::limits::LimitHit;
use crate::seed::ArenaSeed;
use crate::utf8;

/// How many levels of arrays and objects serde_json reads: the 128th is refused.
const DEPTH: u8 = 128;

/// The longest string [`Deserializer::string_in`] copies a whole window of input at a time.
const WINDOW: usize = 32;

/// A string as read: borrowed from the input when it has no escape, else decoded into the
/// reader's scratch buffer.
pub(super) enum Text<'de, 's, T: ?Sized> {
    /// Straight from the input.
    Borrowed(&'de T),
    /// Decoded into the scratch buffer.
    Copied(&'s T),
}

/// A serde `Deserializer` reading one JSON value from a `&'de [u8]`; see the module docs.
#[derive(Debug)]
pub struct Deserializer<'de> {
    input: &'de [u8],
    /// Where the next byte to read is: at most `input.len()`.
    pos: usize,
    /// How many more levels may open, as serde_json counts them.
    depth: u8,
    /// Whether a float is rounded to `f32` (a `deserialize_f32` is reading it).
    single: bool,
    /// Whether the call may have a byte budget, a length limit or a string length limit
    /// ([`call::limits_in_force`]): the direct paths admit strings and check lengths only
    /// then. Set when the reader is made, and cleared by the entry points once they know
    /// the call has none: the limits do not change while the direct paths read.
    limited: bool,
    /// The decoded text of a string with escapes.
    scratch: Vec<u8>,
    /// Where more input comes from when the reader reaches the end of `input`: `None` for a
    /// slice, which is the whole input. When set, `input` is a window of a stream that
    /// [`Source::refill`] replaces, and nothing borrowed from `input` outlives a refill: no
    /// string is handed to a visitor as borrowed (see [`visit_str`](Self::visit_str)).
    ///
    /// Always `None` or a pointer to a [`Source`] that outlives the reader and that nothing
    /// else uses while the reader lives (see [`from_window`](Self::from_window)).
    source: Option<NonNull<dyn Source + 'de>>,
}

impl<'de> Deserializer<'de> {
    /// A reader at the start of `input`.
    #[must_use]
    pub const fn from_slice(input: &'de [u8]) -> Self {
        Self {
            input,
            pos: 0,
            depth: DEPTH,
            single: false,
            limited: true,
            scratch: Vec::new(),
            source: None,
        }
    }

    /// A reader at the start of `input` that decodes into `scratch` (each use clears it): a
    /// stream of documents keeps one buffer for all of them.
    pub(super) fn with_scratch(input: &'de [u8], scratch: Vec<u8>) -> Self {
        Self {
            scratch,
            ..Self::from_slice(input)
        }
    }

    /// The scratch buffer, for the next document's reader.
    pub(super) fn into_scratch(self) -> Vec<u8> {
        self.scratch
    }

    /// A reader at the start of the window `source` holds, which it refills when the reader
    /// reaches the window's end between two tokens.
    ///
    /// # Safety
    ///
    /// `source` outlives the reader, nothing else uses it while the reader lives, and no
    /// slice of the input the reader hands out (through [`input`](Self::input) or a string)
    /// is used after the reader's next call that may refill (any that reads past whitespace):
    /// a refill moves and overwrites the window's bytes.
    pub(super) unsafe fn from_window(source: &mut (dyn Source + 'de)) -> Self {
        // The pointer first, and the window through it, as `refill` takes the next one: the
        // window is then borrowed from the pointer the reader keeps, not from `source`.
        let source = NonNull::from(source);
        // SAFETY: `source` comes from a live reference. The window lives in its buffer, which
        // outlives the reader (the caller's guarantee); it is replaced before the buffer
        // changes, in `refill`, and nothing borrowed from it is used past that (the caller's
        // guarantee).
        let input = unsafe { &*core::ptr::from_ref::<[u8]>(source.as_ref().window()) };
        let mut reader = Self::from_slice(input);
        reader.source = Some(source);
        reader
    }

    /// Replaces the window, whose end the reading position reached between two tokens, with
    /// the next one from the source; `false` at the end of the stream and for a slice.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> bool {
        let Some(mut source) = self.source else {
            return false;
        };
        self.input = &[];
        // SAFETY: `source` outlives the reader and nothing else uses it while the reader
        // lives (`from_window`'s caller guarantees both); the old window was just dropped.
        let source = unsafe { source.as_mut() };
        let (pos, more) = source.refill(self.pos);
        // SAFETY: as in `from_window`: the new window lives in the source's buffer until the
        // next refill, and nothing borrowed from it is used past that.
        self.input = unsafe { &*core::ptr::from_ref::<[u8]>(source.window()) };
        self.pos = pos;
        more
    }

    /// [`peek`](Self::peek) at the end of the input: refills the window, if there is a
    /// stream behind it, and peeks again.
    #[cold]
    #[inline(never)]
    fn peek_at_end(&mut self) -> Option<u8> {
        if self.refill() { self.peek() } else { None }
    }

    /// Checks that only whitespace follows the value, as `serde_json::Deserializer::end` does.
    ///
    /// # Errors
    ///
    /// [`Refused`] if anything else does.
    pub fn end(&mut self) -> Result<(), Refused> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(Refused),
        }
    }

    /// The next byte after whitespace, not consumed. Whitespace, when there is any, is
    /// skipped out of line, a vector at a time ([`whitespace::skip`]): most values in most
    /// documents follow no whitespace, and this stays small where it is inlined.
    #[inline(always)]
    pub(super) fn peek(&mut self) -> Option<u8> {
        match self.input.get(self.pos) {
            Some(&b) if !whitespace::is_whitespace(b) => Some(b),
            Some(_) => self.peek_after_whitespace(),
            None => None,
        }
    }

    /// [`peek`](Self::peek) from a whitespace byte at the reading position. A single one (a
    /// space between tokens; the one after a colon `colon` consumes itself) is checked before
    /// the vector loop. The end of a window is met here, out of line: a window ends in two
    /// spaces (see [`Source::window`]), so `peek` itself never meets it.
    #[inline(never)]
    fn peek_after_whitespace(&mut self) -> Option<u8> {
        self.pos += 1;
        let Some(&b) = self.input.get(self.pos) else {
            return self.peek_at_end();
        };
        if !whitespace::is_whitespace(b) {
            return Some(b);
        }
        self.pos = whitespace::skip(self.input, self.pos + 1);
        match self.input.get(self.pos) {
            Some(&b) => Some(b),
            None => self.peek_at_end(),
        }
    }

    /// The byte at the reading position, whitespace or not.
    #[inline(always)]
    pub(super) fn peek_raw(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// Consumes one byte, already peeked.
    #[inline(always)]
    pub(super) const fn eat(&mut self) {
        self.pos += 1;
    }

    /// Consumes `ident` (the rest of `null`, `true` or `false`) or refuses.
    #[inline]
    fn ident(&mut self, ident: &[u8]) -> Result<(), Refused> {
        if self.input.get(self.pos..self.pos + ident.len()) == Some(ident) {
            self.pos += ident.len();
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// Consumes `:` after whitespace, or refuses; and a space right after it, as
    /// pretty-printers write one: the value's [`peek`](Self::peek) then finds its first byte
    /// without the out-of-line whitespace call (once per key of a pretty-printed document).
    #[inline]
    pub(super) fn colon(&mut self) -> Result<(), Refused> {
        if self.peek() == Some(b':') {
            self.eat();
            // A branch, not an addition of the comparison: in a document without such spaces
            // the next read's address would wait on this byte's load.
            if self.input.get(self.pos) == Some(&b' ') {
                self.eat();
            }
            Ok(())
        } else {
            Err(Refused)
        }
    }

    /// Reads a number at the reading position.
    #[inline]
    pub(super) fn number(&mut self) -> Result<Number, Refused> {
        let (n, end) = number::parse(self.input, self.pos, self.single)?;
        self.pos = end;
        Ok(n)
    }

    /// Reads a number after whitespace and visits it, as serde_json's `deserialize_number`.
    #[inline]
    pub(super) fn visit_number<V: Visitor<'de>>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.number()?.visit(visitor),
            _ => Err(Refused),
        }
    }

    /// Reads a number at the reading position as [`number`](Self::number) does, with the
    /// number's reader inlined ([`number::parse_inlined`]).
    #[inline(always)]
    pub(super) fn number_inlined(&mut self) -> Result<Number, Refused> {
        let (n, end) = number::parse_inlined(self.input, self.pos, self.single)?;
        self.pos = end;
        Ok(n)
    }

    /// Reads a number after whitespace and visits it, as [`visit_number`](Self::visit_number)
    /// with the number's reader inlined.
    #[inline]
    pub(super) fn visit_float<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        self.value_number()?.visit(visitor)
    }

    /// Reads the number after whitespace with the number's reader inlined, refusing any other
    /// value: what `deserialize_f64` and the direct reads of integers and `f64` start with.
    #[inline(always)]
    fn value_number(&mut self) -> Result<Number, Refused> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.number_inlined(),
            _ => Err(Refused),
        }
    }

    /// Asks the call in force whether it has limits ([`call::limits_in_force`]), once, for the
    /// direct paths that read after this.
    #[inline]
    pub(super) fn ask_limits(&mut self) {
        self.limited = call::limits_in_force();
    }

    /// Reads one value through `seed`, as a call on its arena ([`ArenaSeed::read_with`]) with
    /// the limits asked once it is open: what every entry point reads a document with. What
    /// follows the value is the caller's to check.
    #[inline]
    pub(super) fn read_seed<'bump, T, A>(
        &mut self,
        seed: ArenaSeed<'bump, T, A>,
    ) -> Result<T, Refused>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        seed.read_with(|arena| {
            self.ask_limits();
            T::__deserialize_json_in(arena, self)
        })
    }

    /// Whether the input is a window of a stream (see [`from_window`](Self::from_window)),
    /// which cannot be read again: what the reader refuses is the answer.
    #[inline(always)]
    pub(super) const fn windowed(&self) -> bool {
        self.source.is_some()
    }

    /// Whether the call may have limits (see [`ask_limits`](Self::ask_limits)).
    #[inline(always)]
    pub(super) const fn limited(&self) -> bool {
        self.limited
    }

    /// Reads a string after whitespace into `arena`, as a `&str`'s visitor takes the string
    /// serde_json's `deserialize_str` reads: admitted by the call's limits, when it may have
    /// any, and copied at its exact length. Refuses anything else.
    #[inline(always)]
    pub(crate) fn str_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
    ) -> Result<&'bump str, Refused> {
        if self.peek() != Some(b'"') {
            return Err(Refused);
        }
        self.eat();
        self.string_in(arena)
    }

    /// The string whose opening quote was just consumed, admitted by the call's limits when it
    /// may have any, and copied into `arena`, as `&str`'s and `Value`'s visitors copy it.
    ///
    /// A plain ASCII string of at most [`WINDOW`] bytes, with that many bytes of input up to
    /// its end, is copied into a [`SlabArena`](crate::SlabArena) a whole window at a time,
    /// with no branch on its length (see `SlabArena::try_alloc_window_tail`).
    #[inline(always)]
    pub(super) fn string_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
    ) -> Result<&'bump str, Refused> {
        let limited = self.limited;
        let bytes = match self.ascii_str() {
            Ok((start, end)) => {
                let n = end - start;
                if limited {
                    call::admit_str(n).map_err(LimitHit::into_refused)?;
                }
                let window = end
                    .checked_sub(WINDOW)
                    .and_then(|from| self.input[from..].first_chunk::<WINDOW>());
                match (arena.as_slab_arena(), window) {
                    (Some(slab), Some(window)) if n <= WINDOW => {
                        slab.try_alloc_window_tail(window, n)
                    }
                    _ => arena.try_alloc_bytes(&self.input[start..end]),
                }
            }
            Err(ascii_to) => {
                let (Text::Borrowed(text) | Text::Copied(text)) =
                    self.str_with_escapes_or_utf8(ascii_to)?;
                if limited {
                    call::admit_str(text.len()).map_err(LimitHit::into_refused)?;
                }
                arena.try_alloc_bytes(text.as_bytes())
            }
        };
        let bytes = bytes.map_err(|_| Refused)?;
        // SAFETY: `bytes` is a byte-for-byte copy of ASCII text or of a `str`, so it is valid
        // UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    }

    /// Reads an integer of type `T` after whitespace, as serde's visitor for `T` takes the
    /// number serde_json's `deserialize_number` reads: a `u64` or an `i64` that fits `T`, and
    /// no float. Refuses anything else.
    #[inline(always)]
    pub(crate) fn integer<T: TryFrom<u64> + TryFrom<i64>>(&mut self) -> Result<T, Refused> {
        // The type refuses the number read: counted, for a window's error (see
        // [`Refused::by_value`]).
        match self.value_number()? {
            Number::U64(v) => T::try_from(v).ok(),
            Number::I64(v) => T::try_from(v).ok(),
            Number::F64(_) => None,
        }
        .ok_or_else(Refused::by_value)
    }

    /// Reads an `f64` after whitespace, as serde's visitor for `f64` takes the number
    /// serde_json's `deserialize_f64` reads: an integer converted with `as`, as the visitor
    /// converts it.
    #[inline(always)]
    pub(crate) fn f64(&mut self) -> Result<f64, Refused> {
        #[expect(
            clippy::cast_precision_loss,
            reason = "serde's f64 visitor converts integers with `as`"
        )]
        Ok(match self.value_number()? {
            Number::U64(v) => v as f64,
            Number::I64(v) => v as f64,
            Number::F64(v) => v,
        })
    }

    /// Reads a number rounding a float to `f32`, as serde_json's `deserialize_f32` with
    /// `float_roundtrip`.
    #[inline]
    pub(super) fn visit_f32<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        self.single = true;
        let value = self.visit_number(visitor);
        self.single = false;
        value
    }

    /// Reads an integer of up to 128 bits (`-`, then digits: no fraction or exponent), as
    /// serde_json's `deserialize_i128` and `deserialize_u128`.
    fn integer128(&mut self, signed: bool) -> Result<&'de str, Refused> {
        let start = self.pos;
        let negative = self.input.get(start) == Some(&b'-');
        if negative && !signed {
            return Err(Refused);
        }
        self.pos = number::integer_end(self.input, start + usize::from(negative))?;
        // A `-` and ASCII digits: always UTF-8.
        core::str::from_utf8(&self.input[start..self.pos]).map_err(|_| Refused)
    }

    /// Reads the string whose opening quote was just consumed, as `str` (UTF-8 checked).
    #[inline(always)]
    pub(super) fn str<'s>(&'s mut self) -> Result<Text<'de, 's, str>, Refused> {
        match self.ascii_str() {
            // SAFETY: every byte of the run is ASCII (`ascii_str`), so it is UTF-8.
            Ok((start, end)) => Ok(Text::Borrowed(unsafe {
                core::str::from_utf8_unchecked(&self.input[start..end])
            })),
            Err(ascii_to) => self.str_with_escapes_or_utf8(ascii_to),
        }
    }

    /// The string whose opening quote was just consumed when it is plain ASCII (no escape, no
    /// control character, no byte above ASCII), as most strings are: where its bytes start and
    /// end in the input, its closing quote consumed. Otherwise where its plain ASCII run ends,
    /// nothing consumed.
    #[inline(always)]
    fn ascii_str(&mut self) -> Result<(usize, usize), usize> {
        let start = self.pos;
        let end = string::ascii_run(self.input, start);
        if self.input.get(end) == Some(&b'"') {
            self.pos = end + 1;
            Ok((start, end))
        } else {
            Err(end)
        }
    }

    /// [`str`](Self::str) for a string with escapes or bytes above ASCII, whose bytes up to
    /// `ascii_to` are plain ASCII (where [`string::ascii_run`] stopped).
    #[inline(never)]
    fn str_with_escapes_or_utf8<'s>(
        &'s mut self,
        ascii_to: usize,
    ) -> Result<Text<'de, 's, str>, Refused> {
        let (text, above_ascii) = self.string_bytes(false, ascii_to)?;
        if !above_ascii {
            // SAFETY: every byte of the text is ASCII (`string_bytes` saw none above it, and
            // decoded escapes above ASCII set the flag too), so it is UTF-8.
            return Ok(unsafe { text_as_str_unchecked(text) });
        }
        match text {
            Text::Borrowed(b) => utf8::check(b).map(Text::Borrowed),
            Text::Copied(b) => utf8::check(b).map(Text::Copied),
        }
        .ok_or_else(super::refused::refused_utf8)
    }

    /// Reads the string whose opening quote was just consumed, as bytes: its runs as they
    /// are, its escapes decoded. Also says whether a byte above ASCII is in it. A `raw` string
    /// is read as serde_json reads a byte string: control characters are kept, and an escaped
    /// lone surrogate is written as its three bytes of WTF-8. The bytes from the reading
    /// position up to `ascii_to` are known to be plain ASCII (no quote, backslash, control
    /// character or byte above ASCII), and are not looked at again.
    #[inline]
    pub(super) fn string_bytes<'s>(
        &'s mut self,
        raw: bool,
        ascii_to: usize,
    ) -> Result<(Text<'de, 's, [u8]>, bool), Refused> {
        let start = self.pos;
        debug_assert!(start <= ascii_to && ascii_to <= self.input.len());
        let mut at = ascii_to;
        // Where the run not yet copied into the scratch buffer starts, once an escape is met.
        let mut copied_to = None;
        let mut above_ascii = false;
        loop {
            let (end, above) = string::plain_run(self.input, at);
            above_ascii |= above;
            match self.input.get(end) {
                Some(b'"') => {
                    self.pos = end + 1;
                    let Some(run) = copied_to else {
                        return Ok((Text::Borrowed(&self.input[start..end]), above_ascii));
                    };
                    self.scratch.extend_from_slice(&self.input[run..end]);
                    return Ok((Text::Copied(&self.scratch), above_ascii));
                }
                Some(b'\\') => {
                    let run = copied_to.unwrap_or_else(|| {
                        self.scratch.clear();
                        start
                    });
                    self.scratch.extend_from_slice(&self.input[run..end]);
                    let before = self.scratch.len();
                    at = string::unescape(self.input, end + 1, &mut self.scratch, raw)?;
                    above_ascii |= self.scratch[before..].iter().any(|&b| b >= 0x80);
                    copied_to = Some(at);
                }
                // A control character, which a byte string keeps.
                Some(_) if raw => at = end + 1,
                _ => return Err(Refused),
            }
        }
    }

    /// Skips the string whose opening quote was just consumed, as serde_json ignores one: its
    /// escapes checked, its UTF-8 not.
    #[inline]
    fn skip_str(&mut self) -> Result<(), Refused> {
        let mut at = self.pos;
        loop {
            let (end, _) = string::plain_run(self.input, at);
            match self.input.get(end) {
                Some(b'"') => {
                    self.pos = end + 1;
                    return Ok(());
                }
                Some(b'\\') => at = string::skip_escape(self.input, end + 1)?,
                _ => return Err(Refused),
            }
        }
    }

    /// Skips one value, as serde_json's `ignore_value`: without a nesting limit, and without
    /// recursion, the open arrays and objects kept in `self.scratch`.
    pub(super) fn skip_value(&mut self) -> Result<(), Refused> {
        let mut open = core::mem::take(&mut self.scratch);
        open.clear();
        let skipped = self.skip_value_in(&mut open);
        self.scratch = open;
        if skipped.is_err() {
            super::refused::refused_in_skip();
        }
        skipped
    }

    /// [`skip_value`](Self::skip_value), with `open` holding the open levels.
    fn skip_value_in(&mut self, open: &mut Vec<u8>) -> Result<(), Refused> {
        loop {
            // A value.
            match self.peek().ok_or(Refused)? {
                b'n' => self.literal(b"null")?,
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'-' | b'0'..=b'9' => self.pos = number::skip(self.input, self.pos)?,
                b'"' => {
                    self.eat();
                    self.skip_str()?;
                }
                frame @ (b'[' | b'{') => {
                    self.eat();
                    let close = if frame == b'[' { b']' } else { b'}' };
                    if self.peek() == Some(close) {
                        self.eat();
                    } else {
                        open.push(frame);
                        if frame == b'{' {
                            self.skip_key()?;
                        }
                        continue;
                    }
                }
                _ => return Err(Refused),
            }
            // After a value: a comma and the next, or the ends of the open levels.
            loop {
                let Some(&frame) = open.last() else {
                    return Ok(());
                };
                match (self.peek(), frame) {
                    (Some(b','), _) => {
                        self.eat();
                        if frame == b'{' {
                            self.skip_key()?;
                        }
                        break;
                    }
                    (Some(b']'), b'[') | (Some(b'}'), b'{') => {
                        self.eat();
                        open.pop();
                    }
                    _ => return Err(Refused),
                }
            }
        }
    }

    /// Skips an object's key and its colon.
    fn skip_key(&mut self) -> Result<(), Refused> {
        if self.peek() != Some(b'"') {
            return Err(Refused);
        }
        self.eat();
        self.skip_str()?;
        self.colon()
    }

    /// Consumes the literal `word` starting at the reading position.
    #[inline(always)]
    pub(super) fn literal(&mut self, word: &[u8]) -> Result<(), Refused> {
        self.eat();
        self.ident(&word[1..])
    }

    /// Consumes a `null` at the reading position, `Ok(true)`, or, where another value is,
    /// `Ok(false)`: an option's none, as serde_json's `deserialize_option` reads it.
    ///
    /// # Errors
    ///
    /// [`Refused`] where an `n` starts no `null`.
    #[inline(always)]
    pub(crate) fn null(&mut self) -> Result<bool, Refused> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Moves to an object's next entry, as serde_json's `MapAccess` does: `Ok(true)` with its
    /// key's `"` peeked (after a comma unless it is the `first`, which it then clears),
    /// `Ok(false)` at the object's `}`, not consumed.
    ///
    /// # Errors
    ///
    /// [`Refused`] where neither a key nor the end follows.
    #[inline(always)]
    pub(super) fn next_entry(&mut self, first: &mut bool) -> Result<bool, Refused> {
        match self.peek() {
            Some(b'}') => return Ok(false),
            Some(b'"') if *first => *first = false,
            Some(b',') if !*first => {
                self.eat();
                if self.peek() != Some(b'"') {
                    return Err(Refused);
                }
            }
            _ => return Err(Refused),
        }
        Ok(true)
    }

    /// Moves to an array's next element, as serde_json's `SeqAccess` does: `Ok(true)` at it
    /// (after a comma unless it is the `first`, which it then clears), `Ok(false)` at the
    /// array's `]`, not consumed.
    ///
    /// # Errors
    ///
    /// [`Refused`] where neither an element nor the end follows, and at a trailing comma.
    #[inline(always)]
    pub(super) fn next_element(&mut self, first: &mut bool) -> Result<bool, Refused> {
        match self.peek() {
            Some(b']') => return Ok(false),
            Some(_) if *first => *first = false,
            Some(b',') => {
                self.eat();
                // A comma before the `]` is refused, as serde_json refuses a trailing comma.
                if matches!(self.peek(), Some(b']') | None) {
                    return Err(Refused);
                }
            }
            _ => return Err(Refused),
        }
        Ok(true)
    }

    /// How many arrays and objects are open around the reading position.
    #[inline(always)]
    pub(super) const fn levels_open(&self) -> u8 {
        DEPTH - self.depth
    }

    /// Runs `read` one level deeper, refusing past serde_json's 128 levels.
    #[inline]
    pub(super) fn nested<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, Refused>,
    ) -> Result<T, Refused> {
        self.open_level()?;
        let value = read(self);
        self.depth += 1;
        value
    }

    /// Consumes the `[` or `{` at the reading position (peeked) one level deeper, refusing
    /// past serde_json's 128 levels; [`close_level`](Self::close_level) leaves the level.
    #[inline(always)]
    pub(super) fn open_level(&mut self) -> Result<(), Refused> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(Refused);
        }
        self.eat();
        Ok(())
    }

    /// Leaves the level [`open_level`](Self::open_level) entered.
    #[inline(always)]
    pub(super) const fn close_level(&mut self) {
        self.depth += 1;
    }

    /// The whole input.
    #[inline(always)]
    pub(super) const fn input(&self) -> &'de [u8] {
        self.input
    }

    /// The reading position.
    #[inline(always)]
    pub(super) const fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the reading position to `pos`, at most the input's length, past bytes a caller
    /// has read.
    #[inline(always)]
    pub(super) const fn set_pos(&mut self, pos: usize) {
        debug_assert!(pos <= self.input.len());
        self.pos = pos;
    }

    /// Visits the array at the reading position (its `[` peeked) and checks its end.
    #[inline]
    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        let value = self.nested(|de| visitor.visit_seq(SeqAccess::new(de)))?;
        match self.peek() {
            Some(b']') => {
                self.eat();
                Ok(value)
            }
            Some(_) => Err(super::refused::refused_by(
                super::refused::Grammar::Trailing(b']'),
            )),
            None => Err(Refused),
        }
    }

    /// Visits the object at the reading position (its `{` peeked) and checks its end.
    #[inline]
    fn visit_object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        let value = self.nested(|de| visitor.visit_map(MapAccess::new(de)))?;
        match self.peek() {
            Some(b'}') => {
                self.eat();
                Ok(value)
            }
            Some(_) => Err(super::refused::refused_by(
                super::refused::Grammar::Trailing(b'}'),
            )),
            None => Err(Refused),
        }
    }

    /// Visits the string at the reading position (its `"` peeked).
    #[inline]
    pub(super) fn visit_str<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        self.eat();
        let lasting = self.source.is_none();
        match self.str()? {
            Text::Borrowed(s) if lasting => visitor.visit_borrowed_str(s),
            // A window's text lasts until the next refill: handed over as temporary.
            Text::Borrowed(s) | Text::Copied(s) => visitor.visit_str(s),
        }
    }
}

/// The text as `str`.
///
/// # Safety
///
/// The bytes must be UTF-8.
#[inline(always)]
unsafe fn text_as_str_unchecked<'de, 's>(text: Text<'de, 's, [u8]>) -> Text<'de, 's, str> {
    // SAFETY: the caller guarantees the bytes are UTF-8.
    unsafe {
        match text {
            Text::Borrowed(b) => Text::Borrowed(core::str::from_utf8_unchecked(b)),
            Text::Copied(b) => Text::Copied(core::str::from_utf8_unchecked(b)),
        }
    }
}

/// `deserialize_*` methods reading a number, as serde_json's `deserialize_number`.
macro_rules! numbers {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
            self.visit_number(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Refused;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.peek().ok_or(Refused)? {
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'-' | b'0'..=b'9' => self.number()?.visit(visitor),
            b'"' => self.visit_str(visitor),
            b'[' => self.visit_array(visitor),
            b'{' => self.visit_object(visitor),
            _ => Err(Refused),
        }
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(Refused),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
    }

    #[inline]
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.visit_float(visitor)
    }

    #[inline]
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.visit_f32(visitor)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.peek().ok_or(Refused)?;
        let text = self.integer128(true)?;
        visitor.visit_i128(text.parse().map_err(|_| Refused)?)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.peek().ok_or(Refused)?;
        let text = self.integer128(false)?;
        visitor.visit_u128(text.parse().map_err(|_| Refused)?)
    }

    #[inline]
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'"') => self.visit_str(visitor),
            _ => Err(Refused),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'"') => {
                self.eat();
                let lasting = self.source.is_none();
                match self.string_bytes(true, self.pos)?.0 {
                    Text::Borrowed(b) if lasting => visitor.visit_borrowed_bytes(b),
                    // As in `visit_str`.
                    Text::Borrowed(b) | Text::Copied(b) => visitor.visit_bytes(b),
                }
            }
            Some(b'[') => self.visit_array(visitor),
            _ => Err(Refused),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_bytes(visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        if self.null()? {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_unit()
        } else {
            Err(Refused)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'[') => self.visit_array(visitor),
            _ => Err(Refused),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Refused> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'{') => self.visit_object(visitor),
            _ => Err(Refused),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'{') => self.visit_object(visitor),
            Some(b'[') => self.visit_array(visitor),
            _ => Err(Refused),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Refused> {
        match self.peek() {
            Some(b'{') => {
                let value = self.nested(|de| visitor.visit_enum(VariantAccess::new(de)))?;
                match self.peek() {
                    Some(b'}') => {
                        self.eat();
                        Ok(value)
                    }
                    Some(_) => Err(super::refused::refused_by(super::refused::Grammar::Enum)),
                    None => Err(Refused),
                }
            }
            Some(b'"') => visitor.visit_enum(UnitVariantAccess::new(self)),
            Some(_) => Err(super::refused::refused_by(super::refused::Grammar::Enum)),
            None => Err(Refused),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}

impl<'de> Deserializer<'de> {
    /// The key at the reading position (its `"` peeked), for [`MapKey`].
    pub(super) const fn key(&mut self) -> MapKey<'_, 'de> {
        MapKey::new(self)
    }
}
