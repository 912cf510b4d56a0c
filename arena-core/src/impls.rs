//! `ArenaDeserialize` for std types, arena collections and maps.
//!
//! Allocation-free types (integers, floats, `bool`, `char`, `()`, `NonZero*`, `Duration`,
//! `PhantomData`) go through serde's own `Deserialize`, so they read exactly what serde reads.
//! Global-allocator types (`String`, `Vec`, `Box`, `HashMap`, `Rc`, ...) get no impl: their
//! memory would never be freed from inside an arena.

mod array;
#[cfg(feature = "bump-scope")]
mod bump_scope;
#[cfg(feature = "bumpalo")]
mod bumpalo;
#[cfg(feature = "bincode")]
pub(crate) mod byte_seq;
pub(crate) mod bytes;
#[cfg(feature = "hashbrown")]
mod hashbrown;
mod map;
mod option;
mod primitives;
mod reference;
mod seq;
pub(crate) mod str;
mod tuple;
