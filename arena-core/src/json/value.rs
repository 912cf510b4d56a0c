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
//! The nodes of the open arrays and objects collect in one scratch frame, each level's above
//! those of the levels around it, as sonic-rs's DOM parser stacks its nodes: an array or object
//! that ends moves its own into the arena at their exact size and leaves the frame as its
//! parent left it. Opening a level is then a few register operations, not a frame of its own
//! and a slice builder. The frame is lent whole to the reading ([`LentFrame`]), so a node's
//! push is a compare and a store through pointers the reading holds, as sonic-rs's node buffer
//! is.
//!
//! It reads what the visitor path reads over the same reader, node for node: `null` as
//! `Unit`, a number as serde_json's visitor call makes it (`U64`, `I64` or `F64`), a string
//! (a key too) copied into the arena, arrays and objects at their exact size. The limits give
//! the same verdicts: serde_json's 128 levels (the reader's count) and the call's depth limit,
//! one level per array and object (its room asked once, and the levels counted here); when the
//! call has a byte budget, a length limit or a string length limit (asked once), a string's
//! length, charged to the budget, and an array's or object's length, checked as it grows and its
//! copy charged at its end. Whatever it refuses, a limit included, goes as every refusal of the reader does to
//! serde_json through the visitor path, whose value or error the caller gets; so does a
//! document nested deeper than [`DIRECT_LEVELS`].

use super::deserializer::Deserializer;
use super::number::Number;
use super::refused::Refused;
use crate::allocator::BumpAllocator;
use crate::call;
use crate::limits::LimitHit;
use crate::scratch::LentFrame;
use crate::value::Value;

/// How deep the direct path nests before it refuses, handing the document to the visitor path
/// (read again from its start by serde_json): a bound on its stack, whatever the build. Its
/// frames per level are larger than the visitor path's in a debug build (several calls per
/// level, none inlined), and larger still under AddressSanitizer, where a test thread's 2 MiB
/// holds about 80 of its levels, fewer than serde_json's 127; documents nest a few levels, so
/// the bound costs them nothing.
const DIRECT_LEVELS: u8 = 32;

/// What the reading of one value carries from level to level: where it builds, and the
/// call's limits, asked once.
struct Build<'bump, A: ?Sized> {
    arena: &'bump A,
    /// The elements of the open arrays and the entries of the open objects (a key, then its
    /// value), one level's above the last's: one scratch frame for the whole value, lent whole
    /// so that a push is a compare and a store, where an array or object that ends moves its
    /// own into the arena at their exact size, leaving those of the levels around it.
    nodes: LentFrame<Value<'bump>>,
    /// Whether the call may have a byte budget, a length limit or a string length limit (the
    /// reader's [`limited`](Deserializer::limited)): lengths are checked and charged only
    /// then.
    limited: bool,
    /// How many arrays and objects may be open at once: [`DIRECT_LEVELS`], or fewer when the
    /// call's depth limit says so.
    max_open: u8,
    /// How many may be open at once by the call's depth limit: at least `max_open`.
    limit_open: u8,
}

impl<'bump, A: BumpAllocator + ?Sized> Build<'bump, A> {
    /// The longest array or object of `T`s (a `Value` or an entry) that may open now: as
    /// long as the call allows at this point. The budget only shrinks while the value is
    /// read, so a longer one would fail at its end anyway; it fails as soon as it grows past
    /// this, as on the visitor path, instead of staging the rest of the input first.
    #[inline(always)]
    fn len_allowed<T>(&self) -> usize {
        if self.limited {
            call::len_allowed(size_of::<T>())
        } else {
            usize::MAX
        }
    }

    /// Charges a finished array or object of `n` `T`s to the byte budget, as its copy into the
    /// arena is charged on the visitor path.
    #[inline(always)]
    fn charge<T>(&self, n: usize) -> Result<(), Refused> {
        if self.limited {
            // No overflow: `n` values of `T`, or their halves, are on the scratch stack.
            call::charge(n * size_of::<T>()).map_err(LimitHit::into_refused)?;
        }
        Ok(())
    }

    /// The refusal of an array or object of `n` `T`s, longer than [`len_allowed`]
    /// (Self::len_allowed): the limit it broke, counted.
    #[cold]
    fn too_long<T>(n: usize) -> Refused {
        match call::check_len(n, size_of::<T>()) {
            Err(hit) => hit.into_refused(),
            Ok(()) => Refused,
        }
    }

    /// Pushes `node`, an element or half an entry of the innermost open array or object.
    #[inline(always)]
    fn push(&mut self, node: Value<'bump>) -> Result<(), Refused> {
        self.nodes.push(node).map_err(|_| Refused)
    }
}

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
        let levels = u8::try_from(call::levels_left()).unwrap_or(u8::MAX);
        let limit_open = self.levels_open().saturating_add(levels);
        let mut build = Build {
            arena,
            nodes: LentFrame::new().map_err(|_| Refused)?,
            limited: self.limited(),
            // A window cannot be read again by the visitor path: there the direct path reads
            // as deep as the visitor path would.
            max_open: if self.windowed() {
                u8::MAX
            } else {
                DIRECT_LEVELS
            }
            .min(limit_open),
            limit_open,
        };
        self.node(&mut build, |_, node| Ok(node))
    }

    /// Reads the node at the reading position and hands it to `put`, which stores it.
    ///
    /// Scalars and strings are built here, where this is inlined, and each arm calls `put`
    /// with its own variant, so the node is stored where it goes, field by field. A `Value`
    /// built by a `match` and stored afterwards is copied through the stack in pieces (its
    /// variants keep fields at different offsets), and the copy's wide loads stall on the
    /// narrow stores just before them. Arrays and objects are read out of line.
    #[inline(always)]
    fn node<'bump, A: BumpAllocator + ?Sized, R>(
        &mut self,
        build: &mut Build<'bump, A>,
        put: impl FnOnce(&mut Build<'bump, A>, Value<'bump>) -> Result<R, Refused>,
    ) -> Result<R, Refused> {
        match self.peek().ok_or(Refused)? {
            b'"' => {
                self.eat();
                let text = self.string_in(build.arena)?;
                put(build, Value::Str(text))
            }
            b'-' | b'0'..=b'9' => match self.number_inlined()? {
                Number::U64(v) => put(build, Value::U64(v)),
                Number::I64(v) => put(build, Value::I64(v)),
                Number::F64(v) => put(build, Value::F64(v)),
            },
            b'n' => {
                self.literal(b"null")?;
                put(build, Value::Unit)
            }
            b't' => {
                self.literal(b"true")?;
                put(build, Value::Bool(true))
            }
            b'f' => {
                self.literal(b"false")?;
                put(build, Value::Bool(false))
            }
            b'[' => {
                let items = self.array_in(build)?;
                put(build, Value::Array(items))
            }
            b'{' => {
                let entries = self.object_in(build)?;
                put(build, Value::Map(entries))
            }
            _ => Err(Refused),
        }
    }

    /// The elements of the array at the reading position (its `[` peeked), one level deeper.
    #[inline(never)]
    fn array_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        build: &mut Build<'bump, A>,
    ) -> Result<&'bump [Value<'bump>], Refused> {
        self.level(
            build,
            b']',
            #[inline(always)]
            |de, build| de.elements(build),
        )
    }

    /// The elements of the array whose `[` was just consumed, up to its `]` (not consumed).
    #[inline(always)]
    fn elements<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        build: &mut Build<'bump, A>,
    ) -> Result<&'bump [Value<'bump>], Refused> {
        let base = build.nodes.len();
        let allowed = build.len_allowed::<Value<'bump>>();
        let mut n = 0;
        if self.peek() != Some(b']') {
            loop {
                n += 1;
                if n > allowed {
                    return Err(Build::<A>::too_long::<Value<'bump>>(n));
                }
                // After a comma, a `]` is no value: a trailing comma is refused here.
                self.node(
                    build,
                    #[inline(always)]
                    |build, node| build.push(node),
                )?;
                match self.peek() {
                    Some(b',') => self.eat(),
                    Some(b']') => break,
                    _ => return Err(Refused),
                }
            }
        }
        build.charge::<Value<'bump>>(n)?;
        let items = build.nodes.move_tail_into(base, build.arena);
        items.map_err(|_| Refused)
    }

    /// The entries of the object at the reading position (its `{` peeked), one level deeper.
    #[inline(never)]
    fn object_in<'bump, A: BumpAllocator + ?Sized>(
        &mut self,
        build: &mut Build<'bump, A>,
    ) -> Result<&'bump [(Value<'bump>, Value<'bump>)], Refused> {
        self.level(
            build,
            b'}',
            #[inline(always)]
            |de, build| de.entries(build),
        )
    }

    /// Runs `read` on the array or object whose opening bracket is peeked, one level deeper
    /// for serde_json's count and for the call's depth limit (counted here, against the levels
    /// the limit had left when the value began), then consumes its `close`. Refuses past
    /// [`DIRECT_LEVELS`]. In a [`SlabArena`](crate::SlabArena), it first asks the cache for
    /// the lines the level will write (`SlabArena::prefetch_below_cursor`).
    #[inline(always)]
    fn level<'bump, A: BumpAllocator + ?Sized, T>(
        &mut self,
        build: &mut Build<'bump, A>,
        close: u8,
        read: impl FnOnce(&mut Self, &mut Build<'bump, A>) -> Result<T, Refused>,
    ) -> Result<T, Refused> {
        if self.levels_open() >= build.max_open {
            if self.levels_open() >= build.limit_open {
                return Err(call::depth_hit().into_refused());
            }
            return Err(Refused);
        }
        // The level's strings and then its nodes are written below the arena's cursor: their
        // lines are fetched while the level is parsed.
        if let Some(slab) = build.arena.as_slab_arena() {
            slab.prefetch_below_cursor();
        }
        let inner = self.nested(|de| read(de, build))?;
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
        build: &mut Build<'bump, A>,
    ) -> Result<&'bump [(Value<'bump>, Value<'bump>)], Refused> {
        let base = build.nodes.len();
        let allowed = build.len_allowed::<(Value<'bump>, Value<'bump>)>();
        let mut n = 0;
        if self.peek() != Some(b'}') {
            loop {
                if self.peek() != Some(b'"') {
                    return Err(Refused);
                }
                n += 1;
                if n > allowed {
                    return Err(Build::<A>::too_long::<(Value<'bump>, Value<'bump>)>(n));
                }
                self.eat();
                // The key goes first, its value's own nodes (an array's or object's) above it.
                let key = self.string_in(build.arena)?;
                build.push(Value::Str(key))?;
                self.colon()?;
                self.node(
                    build,
                    #[inline(always)]
                    |build, node| build.push(node),
                )?;
                match self.peek() {
                    Some(b',') => self.eat(),
                    Some(b'}') => break,
                    _ => return Err(Refused),
                }
            }
        }
        build.charge::<(Value<'bump>, Value<'bump>)>(n)?;
        let entries = build.nodes.move_pairs_into(base, build.arena);
        entries.map_err(|_| Refused)
    }
}
