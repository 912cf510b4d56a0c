//! Enums: which representation reads them, from `tag`, `content` and `untagged`.
//!
//! As in serde_derive (`de/enum_.rs`), an enum whose last variants are marked `untagged` is
//! read first as the enum of its other variants, in its representation, and then, when that
//! fails, as an untagged enum of the marked ones, all from one buffer of the input.

use proc_macro2::TokenStream;
use quote::quote;

use super::{enum_adjacently, enum_externally, enum_internally, enum_untagged, enum_variant};
use crate::ast::{Container, Data, Variant};
use crate::attr::Tagging;
use crate::bound::Params;

/// The statements reading an enum.
pub fn deserialize(params: &Params, cont: &Container) -> TokenStream {
    let variants: Vec<(usize, &Variant)> = cont.deserialized_variants().collect();
    // The first variant marked `untagged`, among all of them (`check_untagged_variants` keeps
    // the marked ones last): a skipped one counts, as in serde_derive. In an untagged enum the
    // mark changes nothing: every variant is tried in order either way.
    let first_untagged = match &cont.data {
        Data::Enum(all) => all.iter().position(|v| v.attrs.untagged.is_some()),
        Data::Struct(..) => None,
    };
    match first_untagged {
        Some(split) if !matches!(cont.attrs.tagging, Tagging::Untagged) => {
            let at = variants.partition_point(|&(i, _)| i < split);
            let (tagged, untagged) = variants.split_at(at);
            // The tagged enum's code reads from `__deserializer`, here the replayed buffer.
            let tagged = homogeneous(params, cont, tagged);
            enum_untagged::deserialize(params, cont, untagged, Some(tagged))
        }
        _ => homogeneous(params, cont, &variants),
    }
}

/// Whether the enum's variant identifier (the `__Field` enum, its visitor, `const VARIANTS`)
/// is declared once beside the impl rather than in each body: an externally or adjacently
/// tagged enum with no `untagged` variant reads the same variants in its serde path and in its
/// buffered-content read, with the same identifier.
pub fn shares_identifier(cont: &Container) -> bool {
    let Data::Enum(all) = &cont.data else {
        return false;
    };
    all.iter().all(|v| v.attrs.untagged.is_none())
        && matches!(
            cont.attrs.tagging,
            Tagging::External | Tagging::Adjacent { .. }
        )
}

/// The variant identifier the enum's bodies share ([`shares_identifier`]), if they do.
pub fn shared_identifier(params: &Params, cont: &Container) -> Option<TokenStream> {
    if !shares_identifier(cont) {
        return None;
    }
    let variants: Vec<(usize, &Variant)> = cont.deserialized_variants().collect();
    let (variant_visitor, variants_const) = enum_variant::identifier(params, &variants);
    Some(quote! {
        #variant_visitor

        #variants_const
    })
}

/// The variant identifier of a body reading `variants`: none where the enum declares it
/// beside the impl ([`shares_identifier`]).
pub fn body_identifier(
    params: &Params,
    cont: &Container,
    variants: &[(usize, &Variant)],
) -> (TokenStream, TokenStream) {
    if shares_identifier(cont) {
        (TokenStream::new(), TokenStream::new())
    } else {
        enum_variant::identifier(params, variants)
    }
}

/// The statements reading an enum from `__deserializer` as one of `variants`, all in the
/// container's representation. They may `return` early.
fn homogeneous(params: &Params, cont: &Container, variants: &[(usize, &Variant)]) -> TokenStream {
    match &cont.attrs.tagging {
        Tagging::External => enum_externally::deserialize(params, cont, variants),
        Tagging::Untagged => enum_untagged::deserialize(params, cont, variants, None),
        Tagging::Internal { tag } => enum_internally::deserialize(params, cont, variants, tag),
        Tagging::Adjacent { tag, content } => {
            enum_adjacently::deserialize(params, cont, variants, tag, content)
        }
    }
}
