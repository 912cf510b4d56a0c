//! [`ArenaSeed`]: the serde `DeserializeSeed` that carries the arena.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer};

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;

/// A [`DeserializeSeed`] that deserializes a `T` into an arena.
///
/// This is how a format is driven: `ArenaSeed::new(&arena).deserialize(&mut deserializer)`, the
/// same with every serde format. Inside a hand-written visitor, pass it to
/// `next_element_seed`, `next_value_seed` or `newtype_variant_seed`.
///
/// # Examples
///
/// ```
/// use arena_core::ArenaSeed;
/// use serde::de::DeserializeSeed;
///
/// let bump = bumpalo::Bump::new();
/// let bytes = postcard::to_allocvec(&vec!["a".to_owned(), "bc".to_owned()]).unwrap();
/// let mut de = postcard::Deserializer::from_bytes(&bytes);
/// let words: &[&str] = ArenaSeed::new(&bump).deserialize(&mut de)?;
/// assert_eq!(words, ["a", "bc"]);
/// # Ok::<(), postcard::Error>(())
/// ```
pub struct ArenaSeed<'bump, T, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

impl<'bump, T, A: ?Sized> ArenaSeed<'bump, T, A> {
    /// A seed that deserializes a `T` into `arena`.
    #[must_use]
    #[inline]
    pub const fn new(arena: &'bump A) -> Self {
        Self {
            arena,
            marker: PhantomData,
        }
    }

    /// The arena values are built in.
    #[must_use]
    #[inline]
    pub const fn arena(&self) -> &'bump A {
        self.arena
    }
}

impl<T, A: ?Sized> Clone for ArenaSeed<'_, T, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, A: ?Sized> Copy for ArenaSeed<'_, T, A> {}

impl<T, A: ?Sized> fmt::Debug for ArenaSeed<'_, T, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArenaSeed")
            .field("type", &core::any::type_name::<T>())
            .finish_non_exhaustive()
    }
}

impl<'de, 'bump, T, A> DeserializeSeed<'de> for ArenaSeed<'bump, T, A>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = T;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_in(self.arena, deserializer)
    }
}
