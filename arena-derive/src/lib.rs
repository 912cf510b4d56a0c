//! `#[derive(ArenaDeserialize)]`: serde_derive's `Deserialize`, with the arena threaded through.
//!
//! The generated impl reads exactly what serde_derive's `Deserialize` reads for the owned twin
//! of the type, from any serde format. The attributes, shapes and
//! differences from serde_derive are documented in `arena_core::_derive`
//! (`arena-core/docs/derive.md`).
//!
//! Three stages: `ast` and `attr` build a typed model of the input, `check` validates the
//! rules that span several items, `de` generates code from the model.

#![warn(missing_docs)]

mod ast;
mod attr;
mod bound;
mod case;
mod check;
mod ctxt;
mod de;
mod types;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `arena_core::ArenaDeserialize`: the reference is `arena_core::_derive`
/// (`arena-core/docs/derive.md`).
#[proc_macro_derive(ArenaDeserialize, attributes(arena, serde))]
pub fn derive_arena_deserialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    de::expand(&input)
        .unwrap_or_else(|errors| errors.to_compile_error())
        .into()
}
