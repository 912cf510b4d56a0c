//! `ArenaDeserialize` for std types, arena collections and maps.
//!
//! Allocation-free types (integers, floats, `bool`, `char`, `()`, `NonZero*`, `Duration`,
//! `SystemTime`, the `std::net` addresses, `PhantomData`, and behind features the types of
//! `uuid`, `chrono`, `time` and `rust_decimal`) go through serde's own `Deserialize`, so they
//! read exactly what serde reads. `&'bump Path`, `&'bump OsStr` (Unix) and `&'bump Utf8Path`
//! (feature `camino`) are the borrowed twins of `PathBuf`, `OsString` and `Utf8PathBuf`.
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
#[cfg(feature = "camino")]
mod camino;
#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "hashbrown")]
mod hashbrown;
mod map;
mod option;
#[cfg(unix)]
mod os_str;
mod path;
mod primitives;
mod reference;
#[cfg(feature = "rust_decimal")]
mod rust_decimal;
mod seq;
pub(crate) mod str;
#[cfg(feature = "time")]
mod time;
mod tuple;
#[cfg(feature = "uuid")]
mod uuid;
