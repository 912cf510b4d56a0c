//! Allocation-free types, read by serde's own `Deserialize` (the scalars, `Duration`,
//! `SystemTime`, the `std::net` addresses), and `u8`'s byte-string hook.

use core::marker::PhantomData;
use core::num::Wrapping;
use core::time::Duration;

use serde::{Deserialize, Deserializer};

use super::bytes::deserialize_bytes_mut;
use crate::buffer_rules::Scalar;
use crate::{ArenaDeserialize, BumpAllocator};

/// The scalars: read by serde, and read as from serde's buffer through
/// [`Scalar`](crate::buffer_rules::Scalar), one visit each; `$json` reads one from the crate's
/// JSON reader (`integer` or `f64`, its direct reads), where one is given.
macro_rules! scalar_impls {
    ($($ty:ty $(=> $json:ident)?),* $(,)?) => {$(
        impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for $ty {
            #[inline]
            fn deserialize_in<'de, D: Deserializer<'de>>(
                _arena: &'bump A,
                deserializer: D,
            ) -> Result<Self, D::Error> {
                <$ty>::deserialize(deserializer)
            }

            #[inline]
            fn __deserialize_content_in<'de, D: Deserializer<'de>>(
                _arena: &'bump A,
                deserializer: D,
            ) -> Result<Self, D::Error> {
                <$ty>::deserialize(Scalar(deserializer))
            }

            $(
                #[cfg(feature = "json")]
                #[inline]
                fn __deserialize_json_in(
                    _arena: &'bump A,
                    reader: &mut crate::json::Reader<'_>,
                ) -> Result<Self, crate::json::Refused> {
                    reader.$json()
                }
            )?
        }
    )*};
}

scalar_impls! {
    bool, char, (),
    i8 => integer, i16 => integer, i32 => integer, i64 => integer, i128, isize => integer,
    u16 => integer, u32 => integer, u64 => integer, u128, usize => integer,
    f32, f64 => f64,
}

crate::through_serde! {
    core::num::NonZeroI8, core::num::NonZeroI16, core::num::NonZeroI32,
    core::num::NonZeroI64, core::num::NonZeroI128, core::num::NonZeroIsize,
    core::num::NonZeroU8, core::num::NonZeroU16, core::num::NonZeroU32,
    core::num::NonZeroU64, core::num::NonZeroU128, core::num::NonZeroUsize,
    Duration,
    std::time::SystemTime,
    std::net::IpAddr, std::net::Ipv4Addr, std::net::Ipv6Addr,
    std::net::SocketAddr, std::net::SocketAddrV4, std::net::SocketAddrV6,
}

impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for u8 {
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        _arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        u8::deserialize(deserializer)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        _arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        u8::deserialize(Scalar(deserializer))
    }

    #[cfg(feature = "json")]
    #[inline]
    fn __deserialize_json_in(
        _arena: &'bump A,
        reader: &mut crate::json::Reader<'_>,
    ) -> Result<Self, crate::json::Refused> {
        reader.integer()
    }

    const __SLICE_IS_SEQ: bool = false;

    /// `&'bump [u8]` asks for bytes, which every format can hand over in one piece; a sequence
    /// of `u8` (how serde writes `Vec<u8>`) is accepted too.
    fn __deserialize_slice<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<&'bump mut [Self], D::Error>
    where
        Self: 'bump,
    {
        deserialize_bytes_mut(arena, deserializer, false)
    }
}

impl<'bump, T: ?Sized, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for PhantomData<T> {
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        _arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        PhantomData::<T>::deserialize(deserializer)
    }
}

impl<'bump, T, A> ArenaDeserialize<'bump, A> for Wrapping<T>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    #[inline]
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::deserialize_in(arena, deserializer).map(Wrapping)
    }

    #[inline]
    fn __deserialize_content_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::__deserialize_content_in(arena, deserializer).map(Wrapping)
    }
}
