//! Internally tagged enums (`#[arena(tag = "t")]`): the variant named by the key `t` of a map,
//! or by the first element of a sequence, its content the rest (serde_derive's
//! `enum_internally.rs`). The reading itself is arena-core's `deserialize_internally_tagged`:
//! the rest streams into the variant when the tag is the map's first key, and is buffered
//! otherwise.

use proc_macro2::TokenStream;
use quote::quote;

use super::enum_variant::{self, Content};
use crate::ast::{Container, Variant};
use crate::bound::Params;

/// The statements reading an internally tagged enum with tag `tag` from `__deserializer`, as
/// one of `deserialized` (each with its position among all the variants).
pub fn deserialize(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
    tag: &str,
) -> TokenStream {
    let krate = &params.krate;
    let (variant_visitor, variants_const) = enum_variant::identifier(params, deserialized);
    // serde replays the variant's content from its buffer: the seed reads it that way.
    let content = params.content();
    let (seed, seed_value) =
        enum_variant::seed(&content, cont, deserialized, Content::InternallyTagged);
    let seed_value = seed_value(&quote!(__variant));
    let expecting = cont
        .attrs
        .expecting
        .clone()
        .unwrap_or_else(|| format!("internally tagged enum {}", params.type_name));
    quote! {
        #variant_visitor

        #variants_const

        #seed

        #krate::__private::deserialize_internally_tagged(
            __deserializer,
            #tag,
            #expecting,
            |__variant: __Field| #seed_value,
        )
    }
}
