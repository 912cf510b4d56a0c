//! `#[derive(ArenaDeserialize)]`: serde_derive's `Deserialize`, with the arena threaded through.
//!
//! The generated impl reads exactly what serde_derive's `Deserialize` reads for the owned twin
//! of the type, from any serde format. See the `arena-core` README for the attributes.
//!
//! Three stages: [`ast`] and [`attr`] build a typed model of the input, [`check`] validates the
//! rules that span several items, [`de`] generates code from the model.

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

/// Derives `arena_core::ArenaDeserialize`: see the crate documentation of `arena-core`.
#[proc_macro_derive(ArenaDeserialize, attributes(arena, serde))]
pub fn derive_arena_deserialize(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    de::expand(&input)
        .unwrap_or_else(|errors| errors.to_compile_error())
        .into()
}
