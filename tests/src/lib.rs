//! Helpers shared by the cross-crate tests: every format driven the same way, and every arena.

pub mod cases;
pub mod cbor_indefinite;
pub mod corruption;
pub mod derive_support;
pub mod formats;
pub mod hostile;
pub mod msgpack_encodings;
pub mod owned_value;
pub mod probe;
pub mod recursive;
pub mod shapes;
pub mod tagged;

pub use cases::cases;
pub use formats::Format;

/// Re-exports for the macros, so test files need not name these crates themselves.
#[doc(hidden)]
pub mod __deps {
    pub use arena_core;
    pub use bump_scope;
    pub use bumpalo;
}

/// Runs `$body` once per arena backend, with `$arena` bound to a fresh `&Arena`.
///
/// ```
/// arena_tests::with_each_arena!(|arena| {
///     let s = arena_core::BumpAllocator::try_alloc_str(arena, "hi").unwrap();
///     assert_eq!(s, "hi");
/// });
/// ```
#[macro_export]
macro_rules! with_each_arena {
    (|$arena:ident| $body:block) => {{
        {
            let __arena = $crate::__deps::bumpalo::Bump::new();
            let $arena = &__arena;
            $body
        }
        {
            let __arena: $crate::__deps::bump_scope::Bump = $crate::__deps::bump_scope::Bump::new();
            let $arena = &__arena;
            $body
        }
        {
            let __arena = $crate::__deps::arena_core::SlabArena::new();
            let $arena = &__arena;
            $body
        }
    }};
}
