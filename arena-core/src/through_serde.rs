//! [`through_serde!`](crate::through_serde): `ArenaDeserialize` for a type that needs no drop,
//! by its own serde `Deserialize`.

/// Implements [`ArenaDeserialize`](crate::ArenaDeserialize) for each type given, by calling the
/// type's serde `Deserialize`, for every arena.
///
/// For a type of your crate that implements serde's `Deserialize` (derived or by hand) and
/// needs no drop: an id newtype around a `u64`, an enum of unit variants, a struct of numbers.
/// The value is read exactly as serde reads it, with serde's errors, and stored inline where
/// the field is: it allocates nothing in the arena, so the call's byte budget is not charged
/// for it (its serde impl may use the global allocator for a moment, as a `String` read from a
/// reader does, and frees it before returning). The call's depth limit counts the levels
/// around it, not those inside it.
///
/// Each type must need no drop (`core::mem::needs_drop` is `false`): the arena never runs
/// destructors, so a type that owns heap memory (`String`, `Vec`, `semver::Version`,
/// `url::Url`) would leak it. This is checked at compile time, and the error names the type;
/// keep such a type's text as `&'bump str` and parse it where it is used.
///
/// The trait and the type must not both be foreign (Rust's orphan rule): for a type of another
/// crate, read the field with `#[arena(serde)]` instead (see `_derive`), or use the impls
/// behind `arena-core`'s features (`uuid`, `chrono`, `time`, `rust_decimal`). Types with
/// generic parameters are not taken: write their impl by hand, as this macro's expansion does.
///
/// # Examples
///
/// ```
/// use arena_core::{ArenaDeserialize, SlabArena};
///
/// /// An id with serde's `Deserialize` written by hand: it reads a number or a numeric string.
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// struct UserId(u64);
///
/// impl<'de> serde::Deserialize<'de> for UserId {
///     fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
///         #[derive(serde::Deserialize)]
///         #[serde(untagged)]
///         enum Repr<'a> { Number(u64), Text(&'a str) }
///         match Repr::deserialize(d)? {
///             Repr::Number(n) => Ok(UserId(n)),
///             Repr::Text(s) => s.parse().map(UserId).map_err(serde::de::Error::custom),
///         }
///     }
/// }
///
/// arena_core::through_serde!(UserId);
///
/// #[derive(ArenaDeserialize)]
/// struct User<'bump> {
///     id: UserId,
///     login: &'bump str,
/// }
///
/// let arena = SlabArena::new();
/// let user: User = arena_core::json::from_str(&arena, r#"{"id": "42", "login": "ada"}"#)?;
/// assert_eq!((user.id, user.login), (UserId(42), "ada"));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// A type that owns heap memory does not compile:
///
/// ```compile_fail
/// #[derive(serde::Deserialize)]
/// struct Tags(Vec<String>);
///
/// arena_core::through_serde!(Tags);
/// ```
#[macro_export]
macro_rules! through_serde {
    ($($ty:ty),+ $(,)?) => {$(
        const _: () = ::core::assert!(
            !::core::mem::needs_drop::<$ty>(),
            ::core::concat!(
                "`through_serde!` takes types that need no drop, and `",
                ::core::stringify!($ty),
                "` needs drop: it owns memory the arena would never free; keep its text as \
                 `&'bump str` and parse it where it is used",
            ),
        );

        impl<'bump, A> $crate::ArenaDeserialize<'bump, A> for $ty
        where
            A: $crate::BumpAllocator + ?::core::marker::Sized,
        {
            #[inline]
            fn deserialize_in<'de, D>(
                _arena: &'bump A,
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error>
            where
                D: $crate::__private::serde::Deserializer<'de>,
            {
                <$ty as $crate::__private::serde::Deserialize<'de>>::deserialize(deserializer)
            }
        }
    )+};
}
