//! Reading a [`Value`] straight from the JSON reader: each node built where it is read, with
//! no serde visitor in between.
//!
//! `Value`'s `ArenaDeserialize` reads any format through `deserialize_any` and a visitor, each
//! node handed back through the visitor's return value and each array and object through the
//! slice builder's seed. [`json::from_slice`](crate::json::from_slice) and
//! [`json::from_str`](crate::json::from_str) read a `Value` here instead
//! (`ArenaDeserialize::__deserialize_json_in`): scalars and strings are built in the loop that
//! reads an array's elements or an object's entries, and only arrays and objects are calls.
//!
//! It reads what the visitor path reads over the same reader, node for node: `null` as
//! `Unit`, a number as serde_json's visitor call makes it (`U64`, `I64` or `F64`), a string
//! (a key too) copied into the arena, arrays and objects staged by the same
//! [`SliceBuilder`] and copied into the arena at their exact size. The limits are the same
//! checks in the same places: serde_json's 128 levels (the reader's count) and the call's depth
//! limit, one level per array and object; a string's length, charged to the byte budget (both
//! skipped when the call has neither a string length limit nor a byte budget, which is asked
//! once per value); an array's or object's length, and its copy charged. Whatever it refuses,
//! a limit included, goes as every refusal of the reader does to serde_json through the visitor
//! path, whose value or error the caller gets; so does a document nested deeper than
//! [`DIRECT_LEVELS`].

use super::deserializer::{Deserializer, Text};
use super::number::Number;
use super::refused::Refused;
use crate::allocator::BumpAllocator;
use crate::call::{self, DepthGuard};
use crate::slice_builder::{self, SliceBuilder};
use crate::value::Value;

/// How deep the direct path nests before it refuses, handing the document to the visitor path
/// (read again from its start by serde_json): a bound on its stack, whatever the build. Its
/// frames per level are larger than the visitor path's in a debug build (several calls per
/// level, none inlined), and larger still under AddressSanitizer, where a test thread's 2 MiB
/// holds about 80 of its levels, fewer than serde_json's 127; documents nest a few levels, so
/// the bound costs them nothing.
const DIRECT_LEVELS: u8 = 32;

impl<'de> Deserializer<'de> {
    /// Reads the JSON value at the reading position into `arena`.
    ///
    /// # Errors
    ///
    /// [`Refused`] where the visitor path over this reader fails: text serde_json refuses, a
    /// limit, the arena out of memory.
    pub(crate) fn value_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
    ) -> Result<Value<'bump>, Refused> {
        self.node(arena, call::strings_limited(), Ok)
    }

    /// Reads the node at the reading position and hands it to `put`, which stores it.
    /// `limited` is [`call::strings_limited`], asked once for the whole value.
    ///
    /// Scalars and strings are built here, where this is inlined, and each arm calls `put`
    /// with its own variant, so the node is stored where it goes, field by field. A `Value`
    /// built by a `match` and stored afterwards is copied through the stack in pieces (its
    /// variants keep fields at different offsets), and the copy's wide loads stall on the
    /// narrow stores just before them. Arrays and objects are read out of line.
    #[inline(always)]
    fn node<'bump, A: BumpAllocator + ?Sized, R>(
        &mut self,
        arena: &'bump A,
        limited: bool,
        put: impl FnOnce(Value<'bump>) -> Result<R, Refused>,
    ) -> Result<R, Refused> {
        match self.peek().ok_or(Refused)? {
            b'"' => {
                self.eat();
                put(Value::Str(self.string_in(arena, limited)?))
            }
            b'-' | b'0'..=b'9' => match self.number_inlined()? {
                Number::U64(v) => put(Value::U64(v)),
                Number::I64(v) => put(Value::I64(v)),
                Number::F64(v) => put(Value::F64(v)),
            },
            b'n' => {
                self.literal(b"null")?;
                put(Value::Unit)
            }
            b't' => {
                self.literal(b"true")?;
                put(Value::Bool(true))
            }
            b'f' => {
                self.literal(b"false")?;
                put(Value::Bool(false))
            }
            b'[' => put(Value::Array(self.array_in(arena, limited)?)),
            b'{' => put(Value::Map(self.object_in(arena, limited)?)),
            _ => Err(Refused),
        }
    }

    /// The string whose opening quote was just consumed, admitted (when `limited`) and copied
    /// into the arena as `ValueVisitor::visit_str` does.
    #[inline(always)]
    fn string_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
        limited: bool,
    ) -> Result<&'bump str, Refused> {
        let (Text::Borrowed(text) | Text::Copied(text)) = self.str()?;
        if limited {
            call::admit_str(text.len()).map_err(|_| Refused)?;
        }
        arena.try_alloc_str(text).map_err(|_| Refused)
    }

    /// The elements of the array at the reading position (its `[` peeked), one level deeper.
    #[inline(never)]
    fn array_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
        limited: bool,
    ) -> Result<&'bump [Value<'bump>], Refused> {
        self.level(b']', |de| de.elements(arena, limited))
    }

    /// The elements of the array whose `[` was just consumed, up to its `]` (not consumed).
    #[inline(always)]
    fn elements<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
        limited: bool,
    ) -> Result<&'bump [Value<'bump>], Refused> {
        let mut items = SliceBuilder::new(arena, None, true).map_err(|_| Refused)?;
        if self.peek() != Some(b']') {
            loop {
                // After a comma, a `]` is no value: a trailing comma is refused here.
                self.node(
                    arena,
                    limited,
                    #[inline(always)]
                    |item| items.push(item).map_err(|_| Refused),
                )?;
                match self.peek() {
                    Some(b',') => self.eat(),
                    Some(b']') => break,
                    _ => return Err(Refused),
                }
            }
        }
        slice_builder::finish(&mut items, arena).map(|items| &*items)
    }

    /// The entries of the object at the reading position (its `{` peeked), one level deeper.
    #[inline(never)]
    fn object_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
        limited: bool,
    ) -> Result<&'bump [(Value<'bump>, Value<'bump>)], Refused> {
        self.level(b'}', |de| de.entries(arena, limited))
    }

    /// Runs `read` on the array or object whose opening bracket is peeked, one level deeper
    /// for serde_json's count and for the call's depth limit, then consumes its `close`.
    /// Refuses past [`DIRECT_LEVELS`].
    #[inline(always)]
    fn level<T>(
        &mut self,
        close: u8,
        read: impl FnOnce(&mut Self) -> Result<T, Refused>,
    ) -> Result<T, Refused> {
        if self.levels_open() >= DIRECT_LEVELS {
            return Err(Refused);
        }
        let _level = DepthGuard::enter::<Refused>()?;
        let inner = self.nested(read)?;
        if self.peek() != Some(close) {
            return Err(Refused);
        }
        self.eat();
        Ok(inner)
    }

    /// The entries of the object whose `{` was just consumed, up to its `}` (not consumed).
    #[inline(always)]
    fn entries<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        arena: &'bump A,
        limited: bool,
    ) -> Result<&'bump [(Value<'bump>, Value<'bump>)], Refused> {
        let mut entries = SliceBuilder::new(arena, None, true).map_err(|_| Refused)?;
        if self.peek() != Some(b'}') {
            loop {
                if self.peek() != Some(b'"') {
                    return Err(Refused);
                }
                self.eat();
                // The key is kept as a `&str`, two words, while the value is read: a `Value`
                // kept across the calls there is spilled, and copied into the entry in pieces.
                let key = self.string_in(arena, limited)?;
                self.colon()?;
                self.node(
                    arena,
                    limited,
                    #[inline(always)]
                    |value| entries.push((Value::Str(key), value)).map_err(|_| Refused),
                )?;
                match self.peek() {
                    Some(b',') => self.eat(),
                    Some(b'}') => break,
                    _ => return Err(Refused),
                }
            }
        }
        slice_builder::finish(&mut entries, arena).map(|entries| &*entries)
    }
}
