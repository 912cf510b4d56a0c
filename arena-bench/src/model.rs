//! One data model, four representations: the [`model!`](crate::model!) macro.
//!
//! A benchmark comparing allocation strategies is only fair if every strategy reads the same
//! fields into the same shape. Each dataset describes its model once, in a small type language,
//! and `model!` writes the four representations from it, each in its own module:
//!
//! | type language | `owned` | `borrowed` | `arena` | `multi` |
//! |---|---|---|---|---|
//! | `str` | `String` | [`CowStr<'a>`] | `&'a str` | `multitude::Box<str>` |
//! | `[T]` | `Vec<T>` | `Vec<T>` | `&'a [T]` | `multitude::Box<[T]>` |
//! | `(opt T)` | `Option<T>` | `Option<T>` | `Option<T>` | `Option<T>` |
//! | `(map K V)` | `BTreeMap<K, V>` | `BTreeMap<K, V>` | `&'a [(K, V)]` | `BTreeMap<K, V>` |
//! | `(boxed T)` | `Box<T>` | `Box<T>` | `&'a T` | `multitude::Box<T>` |
//! | `(pair A B)` | `(A, B)` | `(A, B)` | `(A, B)` | `(A, B)` |
//! | `u64`, `f64`, `bool` ... | the same | the same | the same | the same |
//!
//! multitude has no arena map that serde fills, so its maps are `BTreeMap`s whose nodes live on
//! the global heap, as its documentation recommends.
//!
//! Every representation implements [`Digest`], which is how results are checked equal to the
//! owned result before they are timed; the arena one implements [`LiveSize`] as well.
//!
//! The borrowed and arena structs carry a skipped `PhantomData` field so that every one of them
//! has the lifetime, even a struct of numbers only.

use core::hash::Hasher;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::hash::DefaultHasher;

/// multitude's default allocator, which the multitude twins are read with
/// ([`Dataset::Multi`](crate::datasets::Dataset::Multi)).
pub type MultiAlloc = allocator_api2_04::alloc::Global;

/// A string borrowed from the input when the format allows it, copied when it does not (a JSON
/// string with escapes).
///
/// serde borrows a `Cow<str>` only when it is a struct field of its own; inside a `Vec` or an
/// `Option` it always copies. This newtype borrows wherever it appears, which is what the
/// zero-copy strategy needs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CowStr<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for CowStr<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                v: &'de str,
            ) -> Result<CowStr<'de>, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CowStr<'de>, E> {
                Ok(CowStr(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<CowStr<'de>, E> {
                Ok(CowStr(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// A 64-bit digest of a value's content, equal for equal content whatever the representation.
///
/// Strings hash as their length and bytes, sequences as their length and elements, options as
/// a tag and their content, and maps as their length and the wrapping sum of one digest per
/// entry, so that a map read in input order (an arena slice of pairs) and one read in key order
/// (a `BTreeMap`) agree. Computing it allocates nothing, so the check can run inside the child
/// process without disturbing its peak memory.
pub trait Digest {
    /// Feeds the value's content to `h`.
    fn digest(&self, h: &mut DefaultHasher);
}

/// The digest of `value`.
#[must_use]
pub fn digest_of<T: Digest + ?Sized>(value: &T) -> u64 {
    // `DefaultHasher::new()` uses fixed keys, so the parent and both child binaries (one
    // compiler, one build) agree on every digest.
    let mut h = DefaultHasher::new();
    value.digest(&mut h);
    h.finish()
}

fn digest_str(s: &str, h: &mut DefaultHasher) {
    h.write_usize(s.len());
    h.write(s.as_bytes());
}

fn digest_seq<'t, T: Digest + 't>(
    items: impl ExactSizeIterator<Item = &'t T>,
    h: &mut DefaultHasher,
) {
    h.write_usize(items.len());
    for item in items {
        item.digest(h);
    }
}

fn digest_map<'t, K: Digest + 't, V: Digest + 't>(
    entries: impl ExactSizeIterator<Item = (&'t K, &'t V)>,
    h: &mut DefaultHasher,
) {
    h.write_usize(entries.len());
    let mut sum = 0u64;
    for (k, v) in entries {
        let mut entry = DefaultHasher::new();
        k.digest(&mut entry);
        v.digest(&mut entry);
        sum = sum.wrapping_add(entry.finish());
    }
    h.write_u64(sum);
}

macro_rules! digest_primitives {
    ($($t:ty => |$v:ident, $h:ident| $e:expr;)*) => {$(
        impl Digest for $t {
            fn digest(&self, $h: &mut DefaultHasher) {
                let $v = *self;
                $e;
            }
        }
        impl LiveSize for $t {
            fn live_bytes(&self) -> usize {
                0
            }
        }
    )*};
}

digest_primitives! {
    bool => |v, h| h.write_u8(u8::from(v));
    u8 => |v, h| h.write_u8(v);
    u16 => |v, h| h.write_u16(v);
    u32 => |v, h| h.write_u32(v);
    u64 => |v, h| h.write_u64(v);
    i32 => |v, h| h.write_i32(v);
    i64 => |v, h| h.write_i64(v);
    f32 => |v, h| h.write_u32(v.to_bits());
    f64 => |v, h| h.write_u64(v.to_bits());
}

impl Digest for String {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_str(self, h);
    }
}

impl Digest for CowStr<'_> {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_str(&self.0, h);
    }
}

impl Digest for &str {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_str(self, h);
    }
}

impl Digest for multitude::Box<str> {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_str(self, h);
    }
}

impl<T: Digest> Digest for Vec<T> {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_seq(self.iter(), h);
    }
}

impl<T: Digest> Digest for &[T] {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_seq(self.iter(), h);
    }
}

impl<T: Digest> Digest for multitude::Box<[T]> {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_seq(self.iter(), h);
    }
}

impl<T: Digest> Digest for Option<T> {
    fn digest(&self, h: &mut DefaultHasher) {
        match self {
            None => h.write_u8(0),
            Some(v) => {
                h.write_u8(1);
                v.digest(h);
            }
        }
    }
}

impl<T: Digest> Digest for Box<T> {
    fn digest(&self, h: &mut DefaultHasher) {
        (**self).digest(h);
    }
}

impl<T: Digest> Digest for &T {
    fn digest(&self, h: &mut DefaultHasher) {
        (**self).digest(h);
    }
}

impl<T: Digest> Digest for multitude::Box<T> {
    fn digest(&self, h: &mut DefaultHasher) {
        (**self).digest(h);
    }
}

/// A JSON document read whole: what the value table checks every dynamic value against.
/// Numbers hash as serde_json tells them apart (unsigned, negative, float), so an integer read
/// as a float differs.
impl Digest for serde_json::Value {
    fn digest(&self, h: &mut DefaultHasher) {
        use serde_json::Value;
        match self {
            Value::Null => h.write_u8(0),
            Value::Bool(b) => {
                h.write_u8(1);
                b.digest(h);
            }
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    h.write_u8(2);
                    h.write_u64(u);
                } else if let Some(i) = n.as_i64() {
                    h.write_u8(3);
                    h.write_i64(i);
                } else {
                    h.write_u8(4);
                    n.as_f64().unwrap_or(f64::NAN).digest(h);
                }
            }
            Value::String(s) => {
                h.write_u8(5);
                digest_str(s, h);
            }
            Value::Array(items) => {
                h.write_u8(6);
                digest_seq(items.iter(), h);
            }
            Value::Object(map) => {
                h.write_u8(7);
                digest_map(map.iter(), h);
            }
        }
    }
}

impl<A: Digest, B: Digest> Digest for (A, B) {
    fn digest(&self, h: &mut DefaultHasher) {
        self.0.digest(h);
        self.1.digest(h);
    }
}

impl<K: Digest, V: Digest> Digest for BTreeMap<K, V> {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_map(self.iter(), h);
    }
}

/// A map read into an arena: `&'a [(K, V)]`, entries in input order.
///
/// A newtype only so that its [`Digest`] is the order-independent map digest rather than the
/// sequence digest of a slice; it reads exactly as `&'a [(K, V)]` does.
#[derive(Debug, Clone, Copy)]
pub struct MapSlice<'a, K, V>(pub &'a [(K, V)]);

impl<K: Digest, V: Digest> Digest for MapSlice<'_, K, V> {
    fn digest(&self, h: &mut DefaultHasher) {
        digest_map(self.0.iter().map(|(k, v)| (k, v)), h);
    }
}

/// A `multitude::Box<T>` field of a multitude model.
///
/// multitude's derive bounds every field type, so a recursive model (twitter's status holds a
/// boxed status) sends the trait solver round the cycle forever. This newtype's impl is bounded
/// by [`MultiBoxable`] instead, whose impls (one per model struct, written by `model!`) are
/// unconditional, which cuts the cycle. It deserializes exactly as `multitude::Box<T>`.
#[derive(Debug)]
pub struct MultiBox<T: MultiBoxable>(pub multitude::Box<T>);

/// A multitude model struct that [`MultiBox`] can hold.
pub trait MultiBoxable: Sized {
    /// `multitude::Box::<Self>::deserialize_in`.
    ///
    /// # Errors
    ///
    /// The format's error.
    fn deserialize_boxed<'de, D: serde::Deserializer<'de>>(
        arena: &multitude::Arena,
        deserializer: D,
    ) -> Result<multitude::Box<Self>, D::Error>;
}

impl<'de, T: MultiBoxable> multitude::de::DeserializeIn<'de, crate::model::MultiAlloc>
    for MultiBox<T>
{
    fn deserialize_in<D: serde::Deserializer<'de>>(
        arena: &multitude::Arena,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        T::deserialize_boxed(arena, deserializer).map(MultiBox)
    }
}

impl<T: MultiBoxable + Digest> Digest for MultiBox<T> {
    fn digest(&self, h: &mut DefaultHasher) {
        (*self.0).digest(h);
    }
}

/// The representation a dataset has not got, for a strategy that cannot read it (multitude
/// on the event streams: its derive refuses serde's tagged and untagged enums and `flatten`).
///
/// The parent and the child keep such cells out of the matrix
/// ([`DatasetId::skipped`](crate::datasets::DatasetId::skipped)); reading one anyway (the
/// criterion benches, the profiling example) fails with [`NO_MODEL`]. It has no values, so
/// its [`Digest`] and [`LiveSize`] are never called.
#[derive(Debug)]
pub enum NoModel {}

/// What reading a [`NoModel`] fails with.
pub const NO_MODEL: &str = "this dataset has no model for this strategy (see `--help`)";

impl<'de> serde::Deserialize<'de> for NoModel {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(NO_MODEL))
    }
}

impl<'de> multitude::de::DeserializeIn<'de, crate::model::MultiAlloc> for NoModel {
    fn deserialize_in<D: serde::Deserializer<'de>>(
        _: &multitude::Arena,
        _: D,
    ) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(NO_MODEL))
    }
}

impl Digest for NoModel {
    fn digest(&self, _: &mut DefaultHasher) {
        match *self {}
    }
}

/// The deep, exactly-sized heap footprint of a value: what it would hold if every string and
/// slice were allocated at exactly its length, with no padding, header or spare capacity.
///
/// Strings count their bytes, slices their elements (`len * size_of::<T>()`) plus what the
/// elements hold, references the value they point to plus what it holds. The root value itself
/// is not counted: it lives on the caller's stack. This is the "live data" the arena's reserved
/// and used bytes are compared against.
pub trait LiveSize {
    /// Heap bytes held by the value, recursively.
    fn live_bytes(&self) -> usize;
}

impl LiveSize for &str {
    fn live_bytes(&self) -> usize {
        self.len()
    }
}

impl<T: LiveSize> LiveSize for &[T] {
    fn live_bytes(&self) -> usize {
        size_of_val::<[T]>(*self) + self.iter().map(LiveSize::live_bytes).sum::<usize>()
    }
}

impl<T: LiveSize> LiveSize for &T {
    fn live_bytes(&self) -> usize {
        size_of::<T>() + (**self).live_bytes()
    }
}

impl<T: LiveSize> LiveSize for Option<T> {
    fn live_bytes(&self) -> usize {
        self.as_ref().map_or(0, LiveSize::live_bytes)
    }
}

impl<A: LiveSize, B: LiveSize> LiveSize for (A, B) {
    fn live_bytes(&self) -> usize {
        self.0.live_bytes() + self.1.live_bytes()
    }
}

impl<'a, A, K, V> arena_core::ArenaDeserialize<'a, A> for MapSlice<'a, K, V>
where
    A: arena_core::BumpAllocator + ?Sized,
    &'a [(K, V)]: arena_core::ArenaDeserialize<'a, A>,
{
    #[inline]
    fn deserialize_in<'de, D: serde::Deserializer<'de>>(
        arena: &'a A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        <&'a [(K, V)]>::deserialize_in(arena, deserializer).map(MapSlice)
    }
}

impl<K: LiveSize, V: LiveSize> LiveSize for MapSlice<'_, K, V> {
    fn live_bytes(&self) -> usize {
        self.0.live_bytes()
    }
}

/// The Rust type of a field in one representation; see the module documentation.
#[doc(hidden)]
#[macro_export]
macro_rules! model_ty {
    ($v:ident $l:lifetime; bool) => { bool };
    ($v:ident $l:lifetime; u8) => { u8 };
    ($v:ident $l:lifetime; u16) => { u16 };
    ($v:ident $l:lifetime; u32) => { u32 };
    ($v:ident $l:lifetime; u64) => { u64 };
    ($v:ident $l:lifetime; i32) => { i32 };
    ($v:ident $l:lifetime; i64) => { i64 };
    ($v:ident $l:lifetime; f32) => { f32 };
    ($v:ident $l:lifetime; f64) => { f64 };
    (owned $l:lifetime; str) => { ::std::string::String };
    (borrowed $l:lifetime; str) => { $crate::model::CowStr<$l> };
    (arena $l:lifetime; str) => { &$l str };
    (multi $l:lifetime; str) => { ::multitude::Box<str> };
    (owned $l:lifetime; [$($t:tt)+]) => { ::std::vec::Vec<$crate::model_ty!(owned $l; $($t)+)> };
    (borrowed $l:lifetime; [$($t:tt)+]) => { ::std::vec::Vec<$crate::model_ty!(borrowed $l; $($t)+)> };
    (arena $l:lifetime; [$($t:tt)+]) => { &$l [$crate::model_ty!(arena $l; $($t)+)] };
    (multi $l:lifetime; [$($t:tt)+]) => { ::multitude::Box<[$crate::model_ty!(multi $l; $($t)+)]> };
    ($v:ident $l:lifetime; (opt $t:tt)) => { ::core::option::Option<$crate::model_ty!($v $l; $t)> };
    ($v:ident $l:lifetime; (pair $a:tt $b:tt)) => { ($crate::model_ty!($v $l; $a), $crate::model_ty!($v $l; $b)) };
    (arena $l:lifetime; (map $k:tt $val:tt)) => {
        $crate::model::MapSlice<$l, $crate::model_ty!(arena $l; $k), $crate::model_ty!(arena $l; $val)>
    };
    ($v:ident $l:lifetime; (map $k:tt $val:tt)) => {
        ::std::collections::BTreeMap<$crate::model_ty!($v $l; $k), $crate::model_ty!($v $l; $val)>
    };
    (arena $l:lifetime; (boxed $t:tt)) => { &$l $crate::model_ty!(arena $l; $t) };
    (multi $l:lifetime; (boxed $t:tt)) => { $crate::model::MultiBox<$crate::model_ty!(multi $l; $t)> };
    ($v:ident $l:lifetime; (boxed $t:tt)) => { ::std::boxed::Box<$crate::model_ty!($v $l; $t)> };
    (owned $l:lifetime; $s:ident) => { $s };
    (multi $l:lifetime; $s:ident) => { $s };
    (borrowed $l:lifetime; $s:ident) => { $s<$l> };
    (arena $l:lifetime; $s:ident) => { $s<$l> };
}

/// Writes the representations of a data model, each in a module of its own, with their
/// [`Digest`] impls (and, for `arena`, [`LiveSize`]): `owned`, `borrowed`, `arena` and
/// `multi`, or only those listed first, as in `model! { [owned borrowed arena] ... }`, for a
/// model one of them cannot read.
///
/// The items are structs and enums. An enum's variants are unit (`Name`), newtype
/// (`Name(T)`) or struct (`Name { field: T }`); every representation but `owned` has a
/// lifetime, which Rust refuses unused, so some variant of an enum must hold a string, a
/// sequence, a map, a box or an enum or struct of the model. `multi` is written for structs
/// only: multitude's derive refuses serde's internally, adjacently tagged and untagged enums,
/// which are what a model's enums are for. Attributes on items, variants and fields are
/// serde's, and given to every representation.
#[doc(hidden)]
#[macro_export]
macro_rules! model {
    (@each [$($rep:ident)*] $items:tt) => {
        $( $crate::model_module!($rep $items); )*
    };
    ([$($rep:ident)*] $($items:tt)*) => {
        $crate::model!(@each [$($rep)*] { $($items)* });
    };
    ($($items:tt)*) => {
        $crate::model!([owned borrowed arena multi] $($items)*);
    };
}

/// One representation's module, for [`model!`](crate::model!).
#[doc(hidden)]
#[macro_export]
macro_rules! model_module {
    (owned { $( $(#[$attr:meta])* $kind:ident $name:ident $body:tt )* }) => {
        /// Owned representation: `String`, `Vec`, `BTreeMap`, `Box`; serde `Deserialize`
        /// (with serde_derive's `deserialize_in_place`) and `Serialize`.
        pub mod owned {
            $( $crate::model_item!(owned $(#[$attr])* $kind $name $body); )*
        }
    };
    (borrowed { $( $(#[$attr:meta])* $kind:ident $name:ident $body:tt )* }) => {
        /// Zero-copy representation: strings borrowed from the input where the format allows.
        pub mod borrowed {
            $( $crate::model_item!(borrowed $(#[$attr])* $kind $name $body); )*
        }
    };
    (arena { $( $(#[$attr:meta])* $kind:ident $name:ident $body:tt )* }) => {
        /// Arena representation: `#[derive(ArenaDeserialize)]`, everything in the arena.
        pub mod arena {
            $( $crate::model_item!(arena $(#[$attr])* $kind $name $body); )*
        }
    };
    (multi { $( $(#[$attr:meta])* $kind:ident $name:ident $body:tt )* }) => {
        /// multitude's representation: `#[derive(DeserializeIn)]` into a `multitude::Arena`.
        pub mod multi {
            $( $crate::model_item!(multi $(#[$attr])* $kind $name $body); )*
        }
    };
}

/// One struct or enum of one representation, for [`model!`](crate::model!).
#[doc(hidden)]
#[macro_export]
macro_rules! model_item {
    (owned $(#[$cattr:meta])* struct $name:ident {
        $( $(#[$fattr:meta])* $field:ident : $ty:tt ),* $(,)?
    }) => {
        #[derive(Debug, Clone, PartialEq, Default, ::serde::Serialize, ::serde::Deserialize)]
        $(#[$cattr])*
        #[allow(missing_docs)]
        pub struct $name { $( $(#[$fattr])* pub $field: $crate::model_ty!(owned 'a; $ty), )* }

        $crate::model_item!(@struct_digest [$name] $($field)*);
    };
    (owned $(#[$cattr:meta])* enum $name:ident $body:tt) => {
        $crate::model_item!(@enum owned [
            #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
            $(#[$cattr])*
        ] [$name] [$name] $body);
    };
    (borrowed $(#[$cattr:meta])* struct $name:ident {
        $( $(#[$fattr:meta])* $field:ident : $ty:tt ),* $(,)?
    }) => {
        #[derive(Debug, ::serde::Deserialize)]
        #[serde(bound(deserialize = "'de: 'a"))]
        $(#[$cattr])*
        #[allow(missing_docs)]
        pub struct $name<'a> {
            $( $(#[$fattr])* pub $field: $crate::model_ty!(borrowed 'a; $ty), )*
            #[serde(skip)]
            pub _input: ::core::marker::PhantomData<&'a ()>,
        }

        $crate::model_item!(@struct_digest [$name<'_>] $($field)*);
    };
    (borrowed $(#[$cattr:meta])* enum $name:ident $body:tt) => {
        $crate::model_item!(@enum borrowed [
            #[derive(Debug, ::serde::Deserialize)]
            #[serde(bound(deserialize = "'de: 'a"))]
            $(#[$cattr])*
        ] [$name<'a>] [$name<'_>] $body);
    };
    (arena $(#[$cattr:meta])* struct $name:ident {
        $( $(#[$fattr:meta])* $field:ident : $ty:tt ),* $(,)?
    }) => {
        #[derive(Debug, ::arena_core::ArenaDeserialize)]
        $(#[$cattr])*
        #[allow(missing_docs)]
        pub struct $name<'a> {
            $( $(#[$fattr])* pub $field: $crate::model_ty!(arena 'a; $ty), )*
            // Every arena struct has the arena lifetime, even one of numbers only.
            #[serde(skip)]
            pub _arena: ::core::marker::PhantomData<&'a ()>,
        }

        $crate::model_item!(@struct_digest [$name<'_>] $($field)*);

        impl $crate::model::LiveSize for $name<'_> {
            fn live_bytes(&self) -> usize {
                0 $( + $crate::model::LiveSize::live_bytes(&self.$field) )*
            }
        }
    };
    (arena $(#[$cattr:meta])* enum $name:ident $body:tt) => {
        $crate::model_item!(@enum arena [
            #[derive(Debug, ::arena_core::ArenaDeserialize)]
            $(#[$cattr])*
        ] [$name<'a>] [$name<'_>] $body);
    };
    (multi $(#[$cattr:meta])* struct $name:ident {
        $( $(#[$fattr:meta])* $field:ident : $ty:tt ),* $(,)?
    }) => {
        #[derive(Debug, ::multitude::de::DeserializeIn)]
        $(#[$cattr])*
        #[allow(missing_docs)]
        pub struct $name { $( $(#[$fattr])* pub $field: $crate::model_ty!(multi 'a; $ty), )* }

        $crate::model_item!(@struct_digest [$name] $($field)*);

        impl $crate::model::MultiBoxable for $name {
            fn deserialize_boxed<'de, D: ::serde::Deserializer<'de>>(
                arena: &::multitude::Arena,
                deserializer: D,
            ) -> ::core::result::Result<::multitude::Box<Self>, D::Error> {
                <::multitude::Box<Self> as ::multitude::de::DeserializeIn<'de, $crate::model::MultiAlloc>>::deserialize_in(arena, deserializer)
            }
        }
    };
    // An enum of representation `$rep`: its attributes, how it is declared, its `Self` type
    // with an anonymous lifetime, and its variants.
    (@enum $rep:ident [$($attr:tt)*] [$($decl:tt)+] [$($self_ty:tt)+] {
        $(
            $(#[$vattr:meta])* $variant:ident
            $({ $( $(#[$fattr:meta])* $field:ident : $ty:tt ),* $(,)? })?
            $(( $nty:tt ))?
        ),* $(,)?
    }) => {
        $($attr)*
        #[allow(missing_docs)]
        pub enum $($decl)+ {
            $(
                $(#[$vattr])* $variant
                $({ $( $(#[$fattr])* $field: $crate::model_ty!($rep 'a; $ty) ),* })?
                $(( $crate::model_ty!($rep 'a; $nty) ))?
            ),*
        }

        $crate::model_item!(@enum_digest [$($self_ty)+] $( $variant $({ $($field)* })? $(( $nty ))? ),*);
        $crate::model_item!(@enum_live_size $rep [$($self_ty)+] $( $variant $({ $($field)* })? $(( $nty ))? ),*);
    };
    // An arena enum's live size: its variant's fields'.
    (@enum_live_size arena [$($self_ty:tt)+] $( $variant:ident $({ $($field:ident)* })? $(( $nty:tt ))? ),*) => {
        impl $crate::model::LiveSize for $($self_ty)+ {
            fn live_bytes(&self) -> usize {
                match self {
                    $(
                        Self::$variant $({ $($field),* })? $(( $crate::model_bind!($nty value) ))? => {
                            0 $( $( + $crate::model::LiveSize::live_bytes($field) )* )?
                              $( + $crate::model::LiveSize::live_bytes($crate::model_bind!($nty value)) )?
                        }
                    )*
                }
            }
        }
    };
    (@enum_live_size $rep:ident $($rest:tt)*) => {};
    // A struct's digest: its fields in order.
    (@struct_digest [$($self_ty:tt)+] $($field:ident)*) => {
        impl $crate::model::Digest for $($self_ty)+ {
            fn digest(&self, _h: &mut ::std::hash::DefaultHasher) {
                $( $crate::model::Digest::digest(&self.$field, _h); )*
            }
        }
    };
    // An enum's digest: the variant's name, then its fields in order.
    (@enum_digest [$($self_ty:tt)+] $( $variant:ident $({ $($field:ident)* })? $(( $nty:tt ))? ),*) => {
        impl $crate::model::Digest for $($self_ty)+ {
            fn digest(&self, h: &mut ::std::hash::DefaultHasher) {
                match self {
                    $(
                        Self::$variant $({ $($field),* })? $(( $crate::model_bind!($nty value) ))? => {
                            $crate::model::Digest::digest(&stringify!($variant), h);
                            $( $( $crate::model::Digest::digest($field, h); )* )?
                            $( $crate::model::Digest::digest($crate::model_bind!($nty value), h); )?
                        }
                    )*
                }
            }
        }
    };
}

/// `$binding`, whatever the type before it: names a newtype variant's content in the patterns
/// and expressions [`model_item!`](crate::model_item!) writes, where only the type says that
/// the variant has one.
#[doc(hidden)]
#[macro_export]
macro_rules! model_bind {
    ($ty:tt $binding:ident) => {
        $binding
    };
}
