//! Deserialize serde data straight into a bump arena.
//!
//! Reading a large document into `String`s and `Vec`s costs a `malloc` for every string and
//! sequence, and a `free` for each of them when the document is dropped. `arena-core`
//! deserializes into a bump arena instead: `&'bump str`, `&'bump [T]` and plain structs, laid
//! out in a few large chunks, built in one pass and freed in one step when the arena goes.
//!
//! - [`BumpAllocator`] unifies the arenas: `bumpalo::Bump` (feature `bumpalo`),
//!   `bump_scope::Bump`, and this crate's [`SlabArena`], whose chunks
//!   come from a shared [`ChunkPool`], so a fresh arena per document costs what a reused one
//!   does.
//! - [`ArenaDeserialize`] is serde's `Deserialize` with an arena; [`ArenaSeed`] drives it from
//!   any serde `Deserializer` (JSON, postcard, bincode, MessagePack, CBOR ...).
//! - Implemented for primitives, `&'bump str`, `&'bump [T]`, `&'bump T`, arrays, tuples,
//!   `Option`, [`BStr`], maps as `&'bump [(K, V)]` and `hashbrown` maps in the arena, the
//!   arena collections of bumpalo and bump-scope, `&'bump Path` and `&'bump OsStr` (Unix), the
//!   std addresses and `SystemTime`, and behind features the drop-free types of `uuid`,
//!   `chrono`, `time` and `rust_decimal` and camino's `&'bump Utf8Path`; any other type that
//!   needs no drop is read by its serde `Deserialize` with [`through_serde!`] or the derive's
//!   `#[arena(serde)]`. Porting a model written for owned types: [`_porting`].
//!
//! Sequences are collected outside the arena and copied in once at their exact size, so the
//! arena holds the live data and little else, whatever the format's size hints. [`ArenaVec`]
//! and [`ArenaString`] do the same for slices and strings built by hand: push, then freeze
//! into a `&'bump mut [T]` or `&'bump mut str`, on any arena.
//!
//! It runs on wasm32 (browsers, Node, WASI) and 32-bit targets too; what differs there, and how
//! JavaScript calls it: [`_wasm`].
//!
//! # Examples
//!
//! ```
//! use arena_core::{ArenaSeed, BStr};
//! use serde::de::DeserializeSeed;
//!
//! let bump = bumpalo::Bump::new();
//! let json = r#"[["Paris", [2148000, 75]], ["Lyon", [522000, 69]]]"#;
//! let mut de = serde_json::Deserializer::from_str(json);
//! let cities: &[(&str, (u32, u8))] = ArenaSeed::new(&bump).deserialize(&mut de)?;
//! assert_eq!(cities[1], ("Lyon", (522000, 69)));
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! # How the crate is built
//!
//! For contributors reading the source: each module uses only those listed before it, with one
//! step back: the content reads of `arena_deserialize` and `impls` (how a value reads as serde
//! reads it back from its buffer) use `derive_runtime::content`, which reads through the trait,
//! for the types they buffer as a [`Value`] and for the seed of a sequence's elements.
//! - `allocator` (the [`BumpAllocator`] trait), `limits` ([`Limits`]), `exhaustion` (their
//!   errors as serde errors, and the thread's count of them), `chunk_pool`, `utf8` (the
//!   UTF-8 check of every string read from bytes), `buffer_rules` (what serde's buffer answers
//!   each `deserialize_*`, for any input read with `deserialize_any`);
//! - `call`, the per-thread state of a deserialization call (limits in force, depth, byte
//!   budget, trust, open direct bytes, string mode), whose module docs follow one call from
//!   [`ArenaSeed`] to the arena; `arena_vec` and `arena_string`; `slab_arena` (on `chunk_pool`);
//! - `scratch`, the stack sequences collect on, `slot`, the place a value is written into,
//!   then `slice_builder`, where a sequence's elements go and the visitor that reads one;
//! - `arena_deserialize`, the trait (its slice hook uses `slice_builder`), then `seed`, which
//!   opens calls, `stream` ([`DocumentStream`], a stream of documents read one seed at a
//!   time, which the format modules implement), `impls` and `bstr`; `value` ([`Value`], a dynamic document, and
//!   [`ValueDeserializer`], which replays one under `buffer_rules`); `derive_runtime`, what the
//!   derive's code calls: the content reads of a stream under `buffer_rules` (`content`), the
//!   tagged enums and flatten (which buffer into a `Value` where they must);
//! - `thread_memory` ([`release_thread_scratch`], over `scratch`, the buffer of
//!   `derive_runtime` and `arena_vec`).

#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly) marks every item a feature gates with that feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod allocator;
mod arena_deserialize;
mod arena_string;
mod arena_vec;
#[cfg(feature = "bincode")]
pub mod bincode;
mod bstr;
mod buffer_rules;
mod call;
#[cfg(feature = "cbor")]
pub mod cbor;
mod chunk_pool;
mod derive_runtime;
mod exhaustion;
mod impls;
#[cfg(feature = "json")]
pub mod json;
mod limits;
#[cfg(feature = "msgpack")]
pub mod msgpack;
#[cfg(feature = "postcard")]
pub mod postcard;
mod record_stream;
mod scratch;
mod seed;
mod slab_arena;
mod slice_builder;
mod slot;
mod stream;
mod thread_memory;
mod through_serde;
mod utf8;
mod value;

pub use allocator::{AllocError, ArenaStats, BumpAllocator, BumpAllocatorExt, Checkpoint};
pub use arena_deserialize::ArenaDeserialize;
pub use arena_string::ArenaString;
pub use arena_vec::ArenaVec;
pub use bstr::BStr;
pub use call::trust::LengthTrust;
pub use chunk_pool::{
    ChunkPool, ChunkPoolBuilder, ClassStats, HugePages, PoolConfigError, PoolStats, Reserve,
};
pub use limits::{DEFAULT_MAX_DEPTH, DEFAULT_ZERO_SIZED_LEN, Limits};
pub use record_stream::{RecordFormat, RecordStream};
pub use seed::ArenaSeed;
pub use slab_arena::{SlabArena, SlabArenaBuilder, SlabCheckpoint, SlabStats};
pub use stream::{DocumentStream, Documents};
pub use thread_memory::{ThreadMemoryStats, release_thread_scratch, thread_memory_stats};
pub use value::{Value, ValueDeserializer, ValueError, ValueIndex};

/// `#[derive(ArenaDeserialize)]` (feature `derive`).
#[cfg(feature = "derive")]
pub use arena_derive::ArenaDeserialize;

#[doc = include_str!("../docs/types.md")]
pub mod _types {}

#[doc = include_str!("../docs/derive.md")]
pub mod _derive {}

#[doc = include_str!("../docs/untrusted.md")]
pub mod _untrusted {}

#[doc = include_str!("../docs/porting.md")]
pub mod _porting {}

#[doc = include_str!("../docs/slab_arena.md")]
pub mod _slab_arena {}

#[doc = include_str!("../docs/wasm.md")]
pub mod _wasm {}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// Not public API: what the derive's generated code names.
#[doc(hidden)]
pub mod __private {
    pub use core;
    pub use serde;

    pub use crate::arena_deserialize::NestedSeed;
    pub use crate::buffer_rules::{Ask, IdentifierSeed, IgnoredContent, Rules, Scalar};
    pub use crate::call::attempt::{AttemptError, attempt};
    pub use crate::call::check_invariants as check_call_invariants;
    pub use crate::derive_runtime::{
        AdjacentKey, AdjacentVariantSeed, Buffer, BufferedSeed, Content, ContentSeed, Direct,
        EnumRules, FlatCollector, FlatDriver, FlatEntry, FlatMapDeserializer, FlatNext,
        InternallyTaggedUnitVisitor, ReadMode, UntaggedUnitVisitor, deserialize_internally_tagged,
        finish_adjacent, flat_deny_unknown_fields, flat_field_in, flat_key_bytes, flat_key_str,
        from_utf8_lossy, missing_field, missing_field_serde, next_adjacent_key, no_flat_field,
        replay_content, with_buffer,
    };
    #[cfg(feature = "json")]
    pub use crate::json::{
        Fields as JsonFields, Object as JsonObject, Reader as JsonReader, Refused as JsonRefused,
    };
    pub use crate::scratch::thread_scratch_capacity;
    #[cfg(feature = "json")]
    pub use crate::slot::json_via_slot;
    pub use crate::slot::{
        FieldSeed, FieldSlot, Filled, SeedIntoSlot, Slot, SlotVisitor, deserialize_via_slot,
        read_via_slot,
    };

    /// The items given, where arena-core reads JSON (feature `json`), else nothing: how the
    /// derive writes a struct's direct JSON path (`__deserialize_json_into`) without knowing
    /// arena-core's features.
    #[cfg(feature = "json")]
    #[macro_export]
    #[doc(hidden)]
    macro_rules! __json_direct {
        ($($item:tt)*) => { $($item)* };
    }

    /// The items given, where arena-core reads JSON (feature `json`), else nothing.
    #[cfg(not(feature = "json"))]
    #[macro_export]
    #[doc(hidden)]
    macro_rules! __json_direct {
        ($($item:tt)*) => {};
    }

    pub use __json_direct as json_direct;
}
