//! Enums: which representation reads them, from `tag`, `content` and `untagged`.
//!
//! As in serde_derive (`de/enum_.rs`), an enum whose last variants are marked `untagged` is
//! read first as the enum of its other variants, in its representation, and then, when that
//! fails, as an untagged enum of the marked ones, all from one buffer of the input.

use proc_macro2::TokenStream;

use super::{enum_adjacently, enum_externally, enum_internally};
use crate::ast::{Container, Variant};
use crate::attr::Tagging;
use crate::bound::Params;

/// The statements reading an enum.
pub fn deserialize(params: &Params, cont: &Container) -> TokenStream {
    let variants: Vec<(usize, &Variant)> = cont.deserialized_variants().collect();
    match &cont.attrs.tagging {
        Tagging::External => enum_externally::deserialize(params, cont, &variants),
        Tagging::Internal { tag } => enum_internally::deserialize(params, cont, &variants, tag),
        Tagging::Adjacent { tag, content } => {
            enum_adjacently::deserialize(params, cont, &variants, tag, content)
        }
        // `check_not_generated_yet` rejects it before any code is generated.
        Tagging::Untagged => TokenStream::new(),
    }
}
