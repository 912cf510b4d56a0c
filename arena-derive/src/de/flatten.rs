//! Flattened fields (`#[arena(flatten)]`): what a struct or struct variant with one reads
//! differently, as serde_derive's `deserialize_map` with `has_flatten`.
//!
//! Such a struct is read as a map only (`deserialize_map`; a struct variant through
//! `newtype_variant_seed`, an internally tagged or untagged one with `deserialize_any`), with no
//! `visit_seq` and no `FIELDS`. Its field identifier keeps every key that is not one of its own
//! fields (`__Field::__other`, see `identifier`), and `visit_map` buffers those entries in a
//! `FlatCollector`. Once the map is read and its own fields extracted, each flattened field
//! reads from a `FlatMapDeserializer` over the entries, in declaration order; with
//! `deny_unknown_fields`, an entry none of them took is then an error. The runtime, and what each
//! kind of flattened type takes from the entries, is `arena_core::__private::flatten`'s.
//!
//! The visitor carries the source format's `is_human_readable`, read from the deserializer
//! before it is consumed, for the flattened fields to be asked it (serde answers `true`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Form, arena_seed, deserialize_field, field_i};
use crate::ast::{Field, deserialized_fields};
use crate::attr;
use crate::bound::Params;

/// Whether `fields` have a flattened field that is read (serde_derive's `has_flatten`): a
/// skipped one is built from its default like any skipped field.
pub fn has_flatten(fields: &[Field]) -> bool {
    deserialized_fields(fields).any(|(_, field)| is_flattened(field))
}

/// Whether `field` is flattened.
pub const fn is_flattened(field: &Field) -> bool {
    field.attrs.flatten.is_some()
}

/// `let mut __collect = ...;`: where `visit_map` buffers the entries that are not the struct's
/// own fields.
pub fn let_collect(params: &Params) -> TokenStream {
    let krate = &params.krate;
    quote! {
        let mut __collect = #krate::__private::FlatCollector::new::<__A::Error>(__arena)?;
    }
}

/// The next key of `__map`, read with the field identifier's seed (which keeps unknown keys in
/// the arena).
pub fn next_key() -> TokenStream {
    quote!(__serde::de::MapAccess::next_key_seed(
        &mut __map,
        __FieldSeed { __arena }
    )?)
}

/// The `visit_map` arm buffering an entry whose key is not one of the struct's own fields.
pub fn collect_arm() -> TokenStream {
    quote! {
        __Field::__other(__key) => {
            __collect.collect(&mut __map, __key)?;
        }
    }
}

/// After the struct's own fields are extracted: the buffered entries moved into the arena, each
/// flattened field read from them into its `__field{i}`, then, with `deny_unknown_fields`, an
/// error for the first entry left.
pub fn extract(params: &Params, cattrs: &attr::Container, fields: &[Field]) -> TokenStream {
    let krate = &params.krate;
    let reads = deserialized_fields(fields)
        .filter(|(_, field)| is_flattened(field))
        .map(|(i, field)| {
            let var = field_i(i);
            let ty = field.ty;
            let read = deserialize_field(
                params,
                field,
                &quote! {
                    #krate::__private::FlatMapDeserializer::<__A::Error>::new(
                        &mut *__collect,
                        __human_readable,
                    )
                },
            );
            quote!(let #var: #ty = #read?;)
        });
    let deny = cattrs.deny_unknown_fields.then(|| {
        quote! {
            #krate::__private::flat_deny_unknown_fields::<__A::Error>(__collect)?;
        }
    });
    quote! {
        let __collect = __collect.finish::<__A::Error>()?;
        #(#reads)*
        #deny
    }
}

/// The statements handing the input to `visitor` (built from the locals `__arena` and
/// `__human_readable`) as a map, for `form`.
pub fn dispatch(params: &Params, form: &Form, visitor: &TokenStream) -> TokenStream {
    let human_readable = quote! {
        let __human_readable = __serde::Deserializer::is_human_readable(&__deserializer);
    };
    let map = params.entry(
        quote!(__serde::Deserializer::deserialize_map(__deserializer, #visitor)),
        "Map",
        visitor,
    );
    match form {
        Form::Struct(_) => quote! {
            #human_readable
            #map
        },
        // serde_derive makes its visitor a seed; this one builds the visitor from the
        // deserializer it is given, whose `is_human_readable` it needs.
        Form::Variant(..) => {
            let (seed, seed_value) = arena_seed(
                params,
                "__Seed",
                &params.this_ty,
                &quote! {
                    #human_readable
                    #map
                },
            );
            quote! {
                #seed

                __serde::de::VariantAccess::newtype_variant_seed(__variant, #seed_value)
            }
        }
        Form::InternallyTagged(..) | Form::Untagged(..) => {
            let any = params.entry(
                quote!(__serde::Deserializer::deserialize_any(__deserializer, #visitor)),
                "Any",
                visitor,
            );
            quote! {
                #human_readable
                #any
            }
        }
    }
}
