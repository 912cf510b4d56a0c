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
/// the arena), telling apart the names `wanted` finds (a `fn(&[u8]) -> Option<&'static str>`).
pub fn next_key(wanted: &TokenStream) -> TokenStream {
    quote!(__serde::de::MapAccess::next_key_seed(
        &mut __map,
        __FieldSeed { __arena, __wanted: #wanted }
    )?)
}

/// The `visit_map` arms buffering an entry whose key is not one of the struct's own fields.
pub fn collect_arm(params: &Params) -> TokenStream {
    let krate = &params.krate;
    quote! {
        __Field::__wanted(__name) => {
            __collect.collect(&mut __map, #krate::Value::Str(__name))?;
        }
        __Field::__other(__key) => {
            __collect.collect(&mut __map, __key)?;
        }
    }
}

/// The reading of the map's keys, `match_keys` (the loop over `__map` with the arms `arms`
/// reading the struct's own fields), unless the first flattened field is a struct reading its
/// entries by name (`ArenaDeserialize::__FLAT_BY_NAME`): then that struct reads from a
/// `FlatDriver` over the map, which hands it the entries named in its fields as the map is read,
/// the struct's own keys to `arms`, and the rest to `__collect`; the struct is left in
/// `__first_flat` for [`extract`].
pub fn drive_first(
    params: &Params,
    fields: &[Field],
    arms: &[TokenStream],
    match_keys: &TokenStream,
) -> TokenStream {
    let Params {
        krate, bump, arena, ..
    } = params;
    let Some((_, first)) = deserialized_fields(fields).find(|(_, field)| is_flattened(field))
    else {
        return match_keys.clone();
    };
    let ty = first.ty;
    let next_key =
        next_key(&quote!(<#ty as #krate::ArenaDeserialize<#bump, #arena>>::__flat_field));
    let other = quote! {
        __Field::__wanted(__name) => {
            return ::core::result::Result::Ok(#krate::__private::FlatNext::Wanted(__name));
        }
        __Field::__other(__key) => {
            return ::core::result::Result::Ok(#krate::__private::FlatNext::Other(__key));
        }
    };
    // With no field of its own, every key is another's: the match has nothing after it.
    let dispatch = if arms.is_empty() {
        quote!(match __key { #other })
    } else {
        quote! {
            match __key {
                #(#arms)*
                #other
            }
            ::core::result::Result::Ok(#krate::__private::FlatNext::Own)
        }
    };
    // A field read by serde or by a function is read from the buffered entries.
    if !matches!(first.read(), crate::ast::Read::Arena) {
        return quote! {
            #match_keys
            let __first_flat: ::core::option::Option<#ty> = ::core::option::Option::None;
        };
    }
    quote! {
        let __first_flat: ::core::option::Option<#ty> =
            if <#ty as #krate::ArenaDeserialize<#bump, #arena>>::__FLAT_BY_NAME {
                let __driver = #krate::__private::FlatDriver::new(
                    &mut __map,
                    &mut __collect,
                    __human_readable,
                    |mut __map: &mut __A| -> ::core::result::Result<#krate::__private::FlatNext<#bump>, __A::Error> {
                        let ::core::option::Option::Some(__key) = #next_key else {
                            return ::core::result::Result::Ok(#krate::__private::FlatNext::End);
                        };
                        #dispatch
                    },
                );
                ::core::option::Option::Some(
                    <#ty as #krate::ArenaDeserialize<#bump, #arena>>::__deserialize_content_in(
                        __arena,
                        __driver,
                    )?,
                )
            } else {
                #match_keys
                ::core::option::Option::None
            };
    }
}

/// After the struct's own fields are extracted: the buffered entries moved into the arena, each
/// flattened field read from them into its `__field{i}` (the first one unless [`drive_first`]
/// read it already), then, with `deny_unknown_fields`, an error for the first entry left.
///
/// serde reads a flattened field from its buffer of the entries, with `deserialize_in` here: the
/// flattened deserializer answers as serde's does, whatever the struct reads in.
pub fn extract(params: &Params, cattrs: &attr::Container, fields: &[Field]) -> TokenStream {
    let krate = &params.krate;
    let direct = params.direct();
    let mut first = true;
    let reads = deserialized_fields(fields)
        .filter(|(_, field)| is_flattened(field))
        .map(|(i, field)| {
            let var = field_i(i);
            let ty = field.ty;
            let read = deserialize_field(
                &direct,
                field,
                &quote! {
                    #krate::__private::FlatMapDeserializer::<__A::Error>::new(
                        &mut *__collect,
                        __human_readable,
                    )
                },
            );
            if core::mem::take(&mut first) {
                quote! {
                    let #var: #ty = match __first_flat {
                        ::core::option::Option::Some(__value) => __value,
                        ::core::option::Option::None => #read?,
                    };
                }
            } else {
                quote!(let #var: #ty = #read?;)
            }
        });
    let reads: Vec<TokenStream> = reads.collect();
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
