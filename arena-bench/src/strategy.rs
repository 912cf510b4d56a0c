//! The allocation strategies: how one document is deserialized, and what is timed.
//!
//! A strategy reads one document with [`Strategy::once`]: the deserialization is timed, then
//! (in the check pass only) the result is observed, then the drop is timed on its own. State
//! that survives between documents (a reused value or arena) lives in [`Strategy::State`].
//! [`Code::of`](crate::cell::Code::of) is the one generic function instantiated per strategy,
//! and it only puts the strategy's [`Strategy::once`] behind a pointer: the harnesses are
//! compiled once.

use core::marker::PhantomData;
use std::hint::black_box;

use serde::de::{DeserializeSeed, Deserializer};

use arena_core::{ArenaDeserialize, ArenaSeed, BumpAllocator, LengthTrust, Value};

use crate::clock::{Duration, Instant};
use crate::datasets::Dataset;
use crate::format::{Format, Json};
use crate::model::{Digest, LiveSize, MultiAlloc, digest_of};

/// Time taken by one document.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// Deserializing it (including creating a fresh arena, for the fresh strategies).
    pub decode: Duration,
    /// Dropping the value (and the arena, or resetting it).
    pub drop: Duration,
    /// The part of `decode` spent replaying a parsed [`arena_core::Value`] into the typed
    /// model, for the strategies that read through one ([`ViaValue`]); `None` for the
    /// others.
    pub replay: Option<Duration>,
}

/// An arena's memory after one document.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArenaBytes {
    /// Bytes the arena took from its source of memory.
    pub reserved: u64,
    /// Bytes handed out, padding included, when the arena reports it.
    pub used: Option<u64>,
    /// Chunks it holds.
    pub chunks: u64,
}

/// What the check pass records about a deserialized value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Observed {
    /// [`digest_of`] the value.
    pub digest: u64,
    /// The document's live data, the [`LiveSize`] of its arena model,
    /// for the arena and multitude strategies.
    pub live_bytes: Option<u64>,
    /// The arena's memory, for arena strategies.
    pub arena: Option<ArenaBytes>,
    /// The bytes the value holds, for the value table's strategies (see
    /// [`value`](crate::value)).
    pub held_bytes: Option<u64>,
}

/// OS calls made so far on this thread outside the global allocator, by the arena machinery a
/// strategy uses: compare two snapshots to count a document's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OsCalls {
    /// Maps and unmaps of `SlabArena`'s chunk pool (every thread's: the pool is global).
    pub pool: u64,
    /// Page releases (`madvise`) of arena_core's scratch stack on this thread, where sequences
    /// collect before they move into the arena: a large sequence gives pages back as it moves.
    pub scratch: u64,
}

impl OsCalls {
    /// The calls arena_core's scratch stack made on this thread so far, and none of a pool.
    #[must_use]
    pub fn scratch_only() -> Self {
        Self {
            pool: 0,
            scratch: arena_core::thread_memory_stats().os_calls(),
        }
    }

    /// All of them.
    #[must_use]
    pub const fn total(self) -> u64 {
        self.pool + self.scratch
    }

    /// The calls made between `before` and `self`.
    #[must_use]
    pub const fn since(self, before: Self) -> Self {
        Self {
            pool: self.pool.saturating_sub(before.pool),
            scratch: self.scratch.saturating_sub(before.scratch),
        }
    }
}

/// One allocation strategy.
pub trait Strategy<D: Dataset> {
    /// What survives from one document to the next: nothing, a reused value or arena.
    type State;

    /// The state before the first document.
    fn new_state() -> Self::State;

    /// OS calls made so far outside the global allocator (see [`ArenaKind::os_calls`]), or
    /// `None` when all of the strategy's memory comes from the global allocator (whose calls
    /// are counted there, and whose OS calls cannot be told apart).
    fn os_calls() -> Option<OsCalls> {
        None
    }

    /// Reads one document from `input`, filling `observe` when given.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn once<F: Format>(
        state: &mut Self::State,
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String>;
}

/// Strategies 1 and 2: owned `String`/`Vec` types, serde `Deserialize`, with whatever global
/// allocator the binary has.
#[derive(Debug)]
pub struct Owned;

impl<D: Dataset> Strategy<D> for Owned {
    type State = ();

    fn new_state() {}

    #[inline(never)]
    fn once<F: Format>(
        (): &mut (),
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String> {
        serde_value::<F, D::Owned>(input, observe)
    }
}

/// Deserializes a serde `T` from `input`, timing the deserialization and the drop apart.
#[inline]
fn serde_value<'de, F: Format, T: serde::Deserialize<'de> + Digest>(
    input: &'de [u8],
    observe: Option<&mut Observed>,
) -> Result<Sample, String> {
    let t0 = Instant::now();
    let value: T = F::decode_seed(input, PhantomData)?;
    let decode = t0.elapsed();
    black_box(&value);
    if let Some(o) = observe {
        o.digest = digest_of(&value);
    }
    let t1 = Instant::now();
    drop(value);
    Ok(Sample {
        decode,
        drop: t1.elapsed(),
        replay: None,
    })
}

/// A seed that calls serde's (hidden) `Deserialize::deserialize_in_place`.
struct InPlaceSeed<'p, T>(&'p mut T);

impl<'de, T: serde::Deserialize<'de>> DeserializeSeed<'de> for InPlaceSeed<'_, T> {
    type Value = ();

    #[inline]
    fn deserialize<De: Deserializer<'de>>(self, deserializer: De) -> Result<(), De::Error> {
        T::deserialize_in_place(deserializer, self.0)
    }
}

/// Strategy 3: serde_derive's `deserialize_in_place` into one value reused for every
/// document, so strings and vectors keep their capacity.
#[derive(Debug)]
pub struct InPlace;

impl<D: Dataset> Strategy<D> for InPlace {
    type State = D::Owned;

    fn new_state() -> D::Owned {
        D::Owned::default()
    }

    #[inline(never)]
    fn once<F: Format>(
        state: &mut D::Owned,
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String> {
        let t0 = Instant::now();
        F::decode_seed(input, InPlaceSeed(state))?;
        let decode = t0.elapsed();
        black_box(&*state);
        if let Some(o) = observe {
            o.digest = digest_of(state);
        }
        // Nothing is dropped: the value is kept for the next document.
        Ok(Sample {
            decode,
            drop: Duration::ZERO,
            replay: None,
        })
    }
}

/// Strategy 4: strings borrowed from the input (the floor of what serde parsing costs);
/// sequences are still `Vec`s.
#[derive(Debug)]
pub struct Borrowed;

impl<D: Dataset> Strategy<D> for Borrowed {
    type State = ();

    fn new_state() {}

    #[inline(never)]
    fn once<F: Format>(
        (): &mut (),
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String> {
        serde_value::<F, D::Borrowed<'_>>(input, observe)
    }
}

/// A bump arena the arena strategies can create and reset.
pub trait ArenaKind: BumpAllocator + Sized {
    /// A new, empty arena.
    fn create() -> Self;
    /// Frees everything allocated, keeping (some of) the memory for reuse.
    fn reset(&mut self);

    /// Calls to the OS (map, unmap, advise) made so far that bypass the global allocator: the
    /// pages arena_core's scratch stack gives back on this thread (every arena kind reads
    /// sequences through it), and the maps and unmaps of the kind's own pool, if it has one.
    fn os_calls() -> OsCalls {
        OsCalls::scratch_only()
    }

    /// Bytes mapped by the arena kind's own pool, when it has one.
    fn pool_mapped() -> Option<u64> {
        None
    }
}

impl ArenaKind for bumpalo::Bump {
    fn create() -> Self {
        Self::new()
    }

    fn reset(&mut self) {
        Self::reset(self);
    }
}

impl ArenaKind for bump_scope::Bump {
    fn create() -> Self {
        Self::new()
    }

    fn reset(&mut self) {
        Self::reset(self);
    }
}

impl ArenaKind for arena_core::SlabArena {
    fn create() -> Self {
        Self::new()
    }

    fn reset(&mut self) {
        Self::reset(self);
    }

    fn os_calls() -> OsCalls {
        OsCalls {
            pool: arena_core::ChunkPool::global().stats().os_calls(),
            ..OsCalls::scratch_only()
        }
    }

    fn pool_mapped() -> Option<u64> {
        Some(arena_core::ChunkPool::global().stats().bytes_mapped as u64)
    }
}

/// `arena`'s memory, from its stats.
pub(crate) fn arena_bytes<K: BumpAllocator>(arena: &K) -> ArenaBytes {
    let stats = arena.stats();
    ArenaBytes {
        reserved: stats.reserved_bytes as u64,
        used: Some(stats.used_bytes as u64),
        chunks: stats.chunks as u64,
    }
}

/// How an arena strategy reads a document into the arena model: [`Direct`] from the format,
/// or [`ViaValue`] through a dynamic value.
pub trait ArenaRead {
    /// Reads the arena model of `D` from `input` (in format `F`) into `arena`, with the
    /// stream's `trust`; returns it and, when the read replays a value, the replay's time.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn read<'a, F: Format, D: Dataset, K: ArenaKind>(
        arena: &'a K,
        trust: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(D::Arena<'a>, Option<Duration>), String>
    where
        D::Arena<'a>: ArenaDeserialize<'a, K>;
}

/// `#[derive(ArenaDeserialize)]` straight from the format.
#[derive(Debug)]
pub struct Direct;

impl ArenaRead for Direct {
    #[inline]
    fn read<'a, F: Format, D: Dataset, K: ArenaKind>(
        arena: &'a K,
        trust: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(D::Arena<'a>, Option<Duration>), String>
    where
        D::Arena<'a>: ArenaDeserialize<'a, K>,
    {
        let seed = ArenaSeed::new(arena)
            .str_as_bytes(F::STR_AS_BYTES)
            .with_trust(trust);
        Ok((F::decode_arena(input, seed)?, None))
    }
}

/// Through the format's own serde `Deserializer` ([`Format::decode_seed`]: postcard's,
/// bincode's, rmp-serde's, cbor4ii's) with a default [`ArenaSeed`], as a user reads a format
/// that has no entry point in arena-core: no `str_as_bytes`, no bound on announced lengths
/// from the input's size, and a trust of its own per document (a new seed, as a user would
/// write it, not the stream's). What the entry point adds over this is the difference
/// between this strategy's rows and `slab-fresh`'s.
#[derive(Debug)]
pub struct ViaSerde;

impl ArenaRead for ViaSerde {
    #[inline]
    fn read<'a, F: Format, D: Dataset, K: ArenaKind>(
        arena: &'a K,
        _: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(D::Arena<'a>, Option<Duration>), String>
    where
        D::Arena<'a>: ArenaDeserialize<'a, K>,
    {
        Ok((F::decode_seed(input, ArenaSeed::new(arena))?, None))
    }
}

/// JSON only: the document parsed into an [`arena_core::Value`] in the arena, then replayed
/// (`Value::deserializer`) into the `#[derive(ArenaDeserialize)]` model in the same arena,
/// which holds both when the document is done. The replay's announced lengths are the value's
/// own and always prove true, so the stream's [`LengthTrust`] reads its large sequences
/// straight into the arena, as a binary format's would.
#[derive(Debug)]
pub struct ViaValue;

impl ArenaRead for ViaValue {
    #[inline]
    fn read<'a, F: Format, D: Dataset, K: ArenaKind>(
        arena: &'a K,
        trust: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(D::Arena<'a>, Option<Duration>), String>
    where
        D::Arena<'a>: ArenaDeserialize<'a, K>,
    {
        if F::NAME != Json::NAME {
            return Err(format!(
                "reading through a value reads JSON, not {}",
                F::NAME
            ));
        }
        let value = Json::decode_arena(input, ArenaSeed::<Value<'a>, K>::new(arena))?;
        let replay_started = Instant::now();
        let seed = ArenaSeed::new(arena)
            .str_as_bytes(Json::STR_AS_BYTES)
            .with_trust(trust);
        // JSON is human-readable: the replay says so, as serde_json does.
        let typed = seed
            .deserialize(value.deserializer::<serde_json::Error>(true))
            .map_err(|e| e.to_string())?;
        Ok((typed, Some(replay_started.elapsed())))
    }
}

/// The arena an arena strategy reads each document into: one of the toolkit's, [`Ours`], or
/// multitude's, [`Multitude`]. [`Fresh`] and [`Reused`] make the strategies of each.
pub trait Backend<D: Dataset> {
    /// The arena.
    type Arena;
    /// A document read into an arena that lives for `'a`.
    type Value<'a>;

    /// A new, empty arena.
    fn create() -> Self::Arena;

    /// Frees everything allocated, keeping (some of) the memory for reuse.
    fn reset(arena: &mut Self::Arena);

    /// OS calls made so far outside the global allocator (see [`ArenaKind::os_calls`]), or
    /// `None` when all of the arena's memory comes from the global allocator.
    fn os_calls() -> Option<OsCalls>;

    /// Reads the document `input` (in format `F`) into `arena`, with the stream's `trust`;
    /// returns it and, when the read replays a value, the replay's time.
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn read<'a, F: Format>(
        arena: &'a Self::Arena,
        trust: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(Self::Value<'a>, Option<Duration>), String>;

    /// Fills `o` from the document `value` read from `input` (in format `F`) into `arena`.
    ///
    /// # Errors
    ///
    /// The format's error, as text, when the live data is measured by reading `input` again.
    fn observe<F: Format>(
        value: &Self::Value<'_>,
        arena: &Self::Arena,
        input: &[u8],
        o: &mut Observed,
    ) -> Result<(), String>;
}

/// `#[derive(ArenaDeserialize)]` into the toolkit's arena `K`, read the way `R` does (by
/// default straight from the format).
#[derive(Debug)]
pub struct Ours<K, R = Direct>(PhantomData<(K, R)>);

impl<D: Dataset, K: ArenaKind, R: ArenaRead> Backend<D> for Ours<K, R>
where
    for<'a> D::Arena<'a>: ArenaDeserialize<'a, K>,
{
    type Arena = K;
    type Value<'a> = D::Arena<'a>;

    fn create() -> K {
        K::create()
    }

    fn reset(arena: &mut K) {
        arena.reset();
    }

    fn os_calls() -> Option<OsCalls> {
        Some(K::os_calls())
    }

    #[inline]
    fn read<'a, F: Format>(
        arena: &'a K,
        trust: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(D::Arena<'a>, Option<Duration>), String> {
        R::read::<F, D, K>(arena, trust, input)
    }

    fn observe<F: Format>(
        value: &D::Arena<'_>,
        arena: &K,
        _: &[u8],
        o: &mut Observed,
    ) -> Result<(), String> {
        o.digest = digest_of(value);
        o.live_bytes = Some(value.live_bytes() as u64);
        o.arena = Some(arena_bytes(arena));
        Ok(())
    }
}

fn multitude_bytes(arena: &multitude::Arena) -> ArenaBytes {
    let stats = arena.stats();
    ArenaBytes {
        // Chunk headers and alignment included: multitude reports no finer figure.
        reserved: stats.total_bytes_allocated,
        used: None,
        chunks: stats.normal_chunks_allocated + stats.oversized_chunks_allocated,
    }
}

/// The live data of the document `input`: the [`LiveSize`] of its arena model, read into a
/// scratch arena.
///
/// The multitude rows report it too: it is the document's data in the same model, which
/// multitude's value holds as well, and multitude has no measure of its own.
fn document_live_bytes<F: Format, D: Dataset>(input: &[u8]) -> Result<u64, String> {
    let scratch = bumpalo::Bump::new();
    let value: D::Arena<'_> = F::decode_seed(
        input,
        ArenaSeed::new(&scratch).str_as_bytes(F::STR_AS_BYTES),
    )?;
    Ok(value.live_bytes() as u64)
}

/// multitude's `#[derive(DeserializeIn)]` into a `multitude::Arena`. Announced lengths are
/// multitude's to judge: the stream's trust is not used.
#[derive(Debug)]
pub struct Multitude;

impl<D: Dataset> Backend<D> for Multitude {
    type Arena = multitude::Arena;
    type Value<'a> = D::Multi;

    fn create() -> multitude::Arena {
        multitude::Arena::new()
    }

    fn reset(arena: &mut multitude::Arena) {
        arena.reset();
    }

    fn os_calls() -> Option<OsCalls> {
        None
    }

    #[inline]
    fn read<'a, F: Format>(
        arena: &'a multitude::Arena,
        _: &'a LengthTrust,
        input: &[u8],
    ) -> Result<(D::Multi, Option<Duration>), String> {
        let seed = multitude::de::DeserializeInSeed::<D::Multi, MultiAlloc>::new(arena);
        Ok((F::decode_seed(input, seed)?, None))
    }

    fn observe<F: Format>(
        value: &D::Multi,
        arena: &multitude::Arena,
        input: &[u8],
        o: &mut Observed,
    ) -> Result<(), String> {
        o.digest = digest_of(value);
        o.live_bytes = Some(document_live_bytes::<F, D>(input)?);
        o.arena = Some(multitude_bytes(arena));
        Ok(())
    }
}

/// Reads one document into `arena` the way `B` does and times it from `started`, observing it
/// when asked. `trust` is the stream's: each worker reads its documents as one stream, as a
/// user reading a file or a connection of similar documents would (see
/// `arena_core::LengthTrust`). Returns the value, the time and the replay's time (if any).
#[inline]
fn read_timed<'a, F: Format, D: Dataset, B: Backend<D>>(
    started: Instant,
    arena: &'a B::Arena,
    trust: &'a LengthTrust,
    input: &[u8],
    observe: Option<&mut Observed>,
) -> Result<(B::Value<'a>, Duration, Option<Duration>), String> {
    let (value, replay) = B::read::<F>(arena, trust, input)?;
    let decode = started.elapsed();
    black_box(&value);
    if let Some(o) = observe {
        B::observe::<F>(&value, arena, input, o)?;
    }
    Ok((value, decode, replay))
}

/// Strategies 5 and 6, fresh: a new arena of `B` per document, created inside the timed part
/// and dropped inside the drop part.
#[derive(Debug)]
pub struct Fresh<B>(PhantomData<B>);

impl<D: Dataset, B: Backend<D>> Strategy<D> for Fresh<B> {
    /// The stream's trust in announced lengths, carried from one document to the next.
    type State = LengthTrust;

    fn new_state() -> LengthTrust {
        LengthTrust::new()
    }

    fn os_calls() -> Option<OsCalls> {
        B::os_calls()
    }

    #[inline(never)]
    fn once<F: Format>(
        trust: &mut LengthTrust,
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String> {
        let t0 = Instant::now();
        let arena = B::create();
        let (value, decode, replay) = read_timed::<F, D, B>(t0, &arena, trust, input, observe)?;
        let t1 = Instant::now();
        drop(value);
        drop(arena);
        Ok(Sample {
            decode,
            drop: t1.elapsed(),
            replay,
        })
    }
}

/// Strategies 5 and 6, reused: one arena of `B`, reset after each document (the reset is the
/// drop part).
#[derive(Debug)]
pub struct Reused<B>(PhantomData<B>);

impl<D: Dataset, B: Backend<D>> Strategy<D> for Reused<B> {
    /// The arena, and the stream's trust in announced lengths.
    type State = (B::Arena, LengthTrust);

    fn new_state() -> (B::Arena, LengthTrust) {
        (B::create(), LengthTrust::new())
    }

    fn os_calls() -> Option<OsCalls> {
        B::os_calls()
    }

    #[inline(never)]
    fn once<F: Format>(
        (arena, trust): &mut (B::Arena, LengthTrust),
        input: &[u8],
        observe: Option<&mut Observed>,
    ) -> Result<Sample, String> {
        let started = Instant::now();
        let (value, decode, replay) = read_timed::<F, D, B>(started, arena, trust, input, observe)?;
        let t1 = Instant::now();
        drop(value);
        B::reset(arena);
        Ok(Sample {
            decode,
            drop: t1.elapsed(),
            replay,
        })
    }
}
