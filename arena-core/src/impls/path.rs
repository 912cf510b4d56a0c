//! `&'bump Path`: the borrowed twin of `PathBuf`, in the arena, read from what serde writes
//! for it.

use std::path::Path;

use serde::Deserializer;

use super::str::deserialize_str_mut_expecting;
use crate::{ArenaDeserialize, BumpAllocator};

/// Read as serde reads a `PathBuf`: a string, or bytes that are valid UTF-8, with serde's
/// "path string" in type errors. A path that is not UTF-8 cannot be read, as with serde.
///
/// # Examples
///
/// ```
/// use std::path::Path;
///
/// let arena = arena_core::SlabArena::new();
/// let path: &Path = arena_core::json::from_str(&arena, r#""/srv/data/cities.json""#)?;
/// assert_eq!(path.extension(), Some("json".as_ref()));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for &'bump Path {
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserialize_str_mut_expecting(arena, deserializer, &"path string").map(|s| Path::new(&*s))
    }
}
