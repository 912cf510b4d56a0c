//! `&'bump camino::Utf8Path` (feature `camino`): the borrowed twin of `Utf8PathBuf`, read as
//! camino's serde impl reads one: as a string, with "a UTF-8 path string" in its errors.

use ::camino::Utf8Path;
use serde::Deserializer;

use super::str::deserialize_str_mut_expecting;
use crate::{ArenaDeserialize, BumpAllocator};

/// Read as camino reads a `Utf8PathBuf`: a string (or bytes that are valid UTF-8), copied into
/// the arena at its exact length.
///
/// # Examples
///
/// ```
/// use camino::Utf8Path;
///
/// let arena = arena_core::SlabArena::new();
/// let path: &Utf8Path = arena_core::json::from_str(&arena, r#""/work/Cargo.toml""#)?;
/// assert_eq!(path.file_name(), Some("Cargo.toml"));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for &'bump Utf8Path {
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_str_mut_expecting(arena, deserializer, &"a UTF-8 path string")
            .map(|s| Utf8Path::new(&*s))
    }
}
