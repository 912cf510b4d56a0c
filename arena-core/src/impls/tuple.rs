//! Tuples of 1 to 16 elements, read as serde reads them, and from the crate's JSON reader
//! straight from its array. A slice of pairs is a map: see [`map`](super::map).

use core::fmt;
use core::marker::PhantomData;

use serde::Deserializer;
use serde::de::{Error, SeqAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::slot::{Filled, Slot, SlotVisitor};
use crate::{ArenaDeserialize, BumpAllocator};

struct TupleVisitor<'bump, T, A: ?Sized> {
    arena: &'bump A,
    marker: PhantomData<fn() -> T>,
}

macro_rules! tuple_impl {
    ($len:literal => ($($name:ident $n:tt)+) $($hook:item)*) => {
        impl<'de, 'bump, A, $($name),+> Visitor<'de> for TupleVisitor<'bump, ($($name,)+), A>
        where
            A: BumpAllocator + ?Sized,
            $($name: ArenaDeserialize<'bump, A>,)+
        {
            type Value = ($($name,)+);

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!("a tuple of size ", $len))
            }

            #[allow(non_snake_case)]
            #[inline]
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
                $(
                    let $name = match seq.next_element_seed(NestedSeed::<$name, A>::new(self.arena))? {
                        Some(value) => value,
                        None => return Err(S::Error::invalid_length($n, &self)),
                    };
                )+
                Ok(($($name,)+))
            }
        }

        impl<'bump, A, $($name),+> ArenaDeserialize<'bump, A> for ($($name,)+)
        where
            A: BumpAllocator + ?Sized,
            $($name: ArenaDeserialize<'bump, A>,)+
        {
            #[inline]
            fn deserialize_in<'de, D: Deserializer<'de>>(
                arena: &'bump A,
                deserializer: D,
            ) -> Result<Self, D::Error> {
                deserializer.deserialize_tuple($len, TupleVisitor::<Self, A> { arena, marker: PhantomData })
            }

            /// Built in the slot: a slice of tuples (of pairs of floats, say) gets each element
            /// written in place by the call that reads it, not returned through memory and
            /// copied, which stalls on every element (see `slot`).
            #[inline]
            fn __deserialize_into<'de, 's, D: Deserializer<'de>>(
                arena: &'bump A,
                deserializer: D,
                slot: Slot<'s, Self>,
            ) -> Result<Filled<'s>, D::Error> {
                let visitor = TupleVisitor::<Self, A> { arena, marker: PhantomData };
                deserializer.deserialize_tuple($len, SlotVisitor::new(visitor, slot))
            }

            /// A JSON array of exactly the tuple's length, each element read with its type's
            /// direct path: what serde_json's `deserialize_tuple` accepts, read as it reads it.
            #[cfg(feature = "json")]
            #[allow(non_snake_case)]
            #[inline]
            fn __deserialize_json_in(
                arena: &'bump A,
                reader: &mut crate::json::Reader<'_>,
            ) -> Result<Self, crate::json::Refused> {
                use crate::json::{Array, Refused};

                let mut array = Array::open(reader)?.ok_or(Refused)?;
                $(
                    if !array.next()? {
                        return Err(Refused);
                    }
                    let $name = $name::__deserialize_json_in(arena, array.reader())?;
                )+
                array.end()?;
                Ok(($($name,)+))
            }

            $($hook)*
        }
    };
}

tuple_impl!(1 => (T0 0));
tuple_impl!(2 => (T0 0 T1 1)
    /// A slice of pairs reads a map (or a sequence of pairs): see [`super::map`].
    fn __deserialize_slice<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<&'bump mut [Self], D::Error>
    where
        Self: 'bump,
    {
        super::map::deserialize_pairs(arena, deserializer)
    }

    const __SLICE_IS_SEQ: bool = false;

    /// A JSON array of pairs reads as a sequence, each pair with its direct path.
    #[cfg(feature = "json")]
    const __JSON_ARRAY_IS_SEQ: bool = true;
);
tuple_impl!(3 => (T0 0 T1 1 T2 2));
tuple_impl!(4 => (T0 0 T1 1 T2 2 T3 3));
tuple_impl!(5 => (T0 0 T1 1 T2 2 T3 3 T4 4));
tuple_impl!(6 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5));
tuple_impl!(7 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6));
tuple_impl!(8 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7));
tuple_impl!(9 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8));
tuple_impl!(10 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9));
tuple_impl!(11 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10));
tuple_impl!(12 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11));
tuple_impl!(13 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12));
tuple_impl!(14 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12 T13 13));
tuple_impl!(15 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12 T13 13 T14 14));
tuple_impl!(16 => (T0 0 T1 1 T2 2 T3 3 T4 4 T5 5 T6 6 T7 7 T8 8 T9 9 T10 10 T11 11 T12 12 T13 13 T14 14 T15 15));
