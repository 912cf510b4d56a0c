//! `[T; N]` for every `N`, read as serde reads arrays: a tuple of `N` elements.

use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

use serde::Deserializer;
use serde::de::{Error, SeqAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::{ArenaDeserialize, BumpAllocator};

struct ArrayVisitor<'bump, T, A: ?Sized, const N: usize> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

impl<'de, 'bump, T, A, const N: usize> Visitor<'de> for ArrayVisitor<'bump, T, A, N>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Value = [T; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if N == 0 {
            f.write_str("an empty array")
        } else {
            write!(f, "an array of length {N}")
        }
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<[T; N], S::Error> {
        let mut out = [const { MaybeUninit::<T>::uninit() }; N];
        for (i, slot) in out.iter_mut().enumerate() {
            // On error the elements read so far are leaked, like every value in an arena.
            match seq.next_element_seed(NestedSeed::<T, A>::new(self.arena))? {
                Some(value) => {
                    slot.write(value);
                }
                None => return Err(S::Error::invalid_length(i, &self)),
            }
        }
        // SAFETY: the loop initialised all `N` slots; `[MaybeUninit<T>; N]` and `[T; N]` have
        // the same layout, and `out` is never dropped as `T`s (`MaybeUninit` drops nothing).
        Ok(unsafe { out.as_ptr().cast::<[T; N]>().read() })
    }
}

impl<'bump, T, A, const N: usize> ArenaDeserialize<'bump, A> for [T; N]
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(
            N,
            ArrayVisitor::<T, A, N> {
                arena,
                marker: PhantomData,
            },
        )
    }
}
