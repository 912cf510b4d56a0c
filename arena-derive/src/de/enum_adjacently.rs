//! Adjacently tagged enums (`#[arena(tag = "t", content = "c")]`): `{"t": variant, "c":
//! content}` in either order, or `[variant, content]`, read through `deserialize_struct` as
//! serde_derive's `enum_adjacently.rs` reads them. The tag first, the content streams into the
//! variant; the content first, it is buffered into a `Value` in the thread's buffer and replayed
//! once the tag is known.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::enum_variant::{self, Content};
use super::{enum_, field_i, visitor_with};
use crate::ast::{Container, Read, Style, Variant};
use crate::bound::Params;

/// The statements reading an adjacently tagged enum with keys `tag` and `content` from
/// `__deserializer`, as one of `deserialized` (each with its position among all the variants).
#[expect(
    clippy::too_many_lines,
    reason = "one visitor, in serde_derive's order"
)]
pub fn deserialize(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
    tag: &str,
    content: &str,
) -> TokenStream {
    let Params {
        krate, bump, arena, ..
    } = params;
    let cattrs = &cont.attrs;
    let (variant_visitor, variants_const) = enum_::body_identifier(params, cont, deserialized);
    let (seed, seed_value) = enum_variant::seed(params, cont, deserialized, Content::Adjacent);
    let seed_of_field = seed_value(&quote!(__field));
    let seed_of_variant = seed_value(&quote!(__variant));

    let rust_name = &params.type_name;
    let expecting = cattrs
        .expecting
        .clone()
        .unwrap_or_else(|| format!("adjacently tagged enum {rust_name}"));
    let type_name = &cattrs.name;
    let deny_unknown_fields = cattrs.deny_unknown_fields;
    let content_read = params.content;

    let missing_content = missing_content(params, cont, deserialized, content);

    let next_key = quote! {
        #krate::__private::next_adjacent_key(&mut __map, #tag, #content, #deny_unknown_fields, #content_read)?
    };
    let variant_from_map = quote! {
        __serde::de::MapAccess::next_value_seed(
            &mut __map,
            #krate::__private::AdjacentVariantSeed::<__Field>::new(#rust_name, VARIANTS),
        )?
    };
    let finish = quote! {
        #krate::__private::finish_adjacent(&mut __map, #tag, #content, #deny_unknown_fields, #content_read, __ret)
    };
    let key = quote!(#krate::__private::AdjacentKey);
    let finish_content_then_tag = if deserialized.is_empty() {
        quote!(match #variant_from_map {})
    } else {
        quote! {
            let __field: __Field = #variant_from_map;
            let __ret = #krate::__private::replay_content(
                #seed_of_field,
                &__content,
                self.__human_readable,
            )?;
            #finish
        }
    };

    let methods = quote! {
            fn visit_map<__A>(self, mut __map: __A) -> ::core::result::Result<Self::Value, __A::Error>
            where
                __A: __serde::de::MapAccess<'__de>,
            {
                let __arena: &#bump #arena = self.__arena;
                match #next_key {
                    // The tag first: the content streams into the variant.
                    ::core::option::Option::Some(#key::Tag) => {
                        let __field: __Field = #variant_from_map;
                        match #next_key {
                            ::core::option::Option::Some(#key::Tag) => ::core::result::Result::Err(
                                <__A::Error as __serde::de::Error>::duplicate_field(#tag),
                            ),
                            ::core::option::Option::Some(#key::Content) => {
                                let __ret = __serde::de::MapAccess::next_value_seed(
                                    &mut __map,
                                    #seed_of_field,
                                )?;
                                #finish
                            }
                            ::core::option::Option::None => #missing_content,
                        }
                    }
                    // The content first: buffered in the thread's buffer until the tag says
                    // what it is, then given back.
                    ::core::option::Option::Some(#key::Content) => #krate::__private::with_buffer(
                        |__buffer| -> ::core::result::Result<Self::Value, __A::Error> {
                            let __content = __serde::de::MapAccess::next_value_seed(
                                &mut __map,
                                #krate::__private::NestedSeed::<#krate::Value<'_>, #krate::__private::Buffer>::new(__buffer),
                            )?;
                            match #next_key {
                                ::core::option::Option::Some(#key::Tag) => {
                                    #finish_content_then_tag
                                }
                                ::core::option::Option::Some(#key::Content) => ::core::result::Result::Err(
                                    <__A::Error as __serde::de::Error>::duplicate_field(#content),
                                ),
                                ::core::option::Option::None => ::core::result::Result::Err(
                                    <__A::Error as __serde::de::Error>::missing_field(#tag),
                                ),
                            }
                        },
                    ),
                    ::core::option::Option::None => ::core::result::Result::Err(
                        <__A::Error as __serde::de::Error>::missing_field(#tag),
                    ),
                }
            }

            fn visit_seq<__A>(self, mut __seq: __A) -> ::core::result::Result<Self::Value, __A::Error>
            where
                __A: __serde::de::SeqAccess<'__de>,
            {
                let __arena: &#bump #arena = self.__arena;
                // The tag, then the content.
                match __serde::de::SeqAccess::next_element::<__Field>(&mut __seq)? {
                    ::core::option::Option::Some(__variant) => {
                        match __serde::de::SeqAccess::next_element_seed(&mut __seq, #seed_of_variant)? {
                            ::core::option::Option::Some(__ret) => ::core::result::Result::Ok(__ret),
                            ::core::option::Option::None => ::core::result::Result::Err(
                                __serde::de::Error::invalid_length(1, &self),
                            ),
                        }
                    }
                    ::core::option::Option::None => ::core::result::Result::Err(
                        __serde::de::Error::invalid_length(0, &self),
                    ),
                }
            }
    };
    // The source's `is_human_readable`, for a content replayed from the buffer.
    let (visitor, visitor_value) = visitor_with(
        params,
        &expecting,
        &methods,
        (&quote!(__human_readable: bool,), &quote!(__human_readable,)),
    );

    let entry = params.entry(
        quote!(__serde::Deserializer::deserialize_struct(__deserializer, #type_name, FIELDS, #visitor_value)),
        "Struct",
        &visitor_value,
    );
    quote! {
        #variant_visitor

        #variants_const

        #seed

        #visitor

        #[doc(hidden)]
        const FIELDS: &'static [&'static str] = &[#tag, #content];

        let __human_readable = __serde::Deserializer::is_human_readable(&__deserializer);
        #entry
    }
}

/// The value when the map has the tag and no content: a unit variant is read, a newtype
/// variant is read as a missing field (`None` for an `Option`), any other is serde's
/// ``missing field `c` ``.
fn missing_content(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
    content: &str,
) -> TokenStream {
    let Params { krate, arena, .. } = params;
    let ident = cont.ident;
    let error = quote! {
        ::core::result::Result::Err(<__A::Error as __serde::de::Error>::missing_field(#content))
    };
    let mut fallthrough = None;
    let mut arms = Vec::new();
    for &(i, variant) in deserialized {
        let var = field_i(i);
        let variant_ident = variant.ident;
        let arm = match variant.style {
            Style::Unit => quote!(::core::result::Result::Ok(#ident::#variant_ident)),
            Style::Newtype => {
                let field = &variant.fields[0];
                let ty = field.ty;
                match field.read() {
                    // serde reads the field's type from a missing value (`None` for an
                    // `Option`, else its error), whatever reads the field when present; a
                    // field read with `deserialize_with` or `[T; 0]` has no `ArenaDeserialize`
                    // to ask, and gets serde's error.
                    Read::With(_) | Read::EmptyArray | Read::Serde(Some(_)) => error.clone(),
                    Read::Serde(None) => {
                        let missing = quote_spanned! {variant.original.span()=>
                            #krate::__private::missing_field_serde::<#ty, __A::Error>
                        };
                        quote! {
                            ::core::result::Result::map(
                                #missing(#content),
                                #ident::#variant_ident,
                            )
                        }
                    }
                    Read::Arena => {
                        let missing = quote_spanned! {variant.original.span()=>
                            #krate::__private::missing_field::<#ty, #arena, __A::Error>
                        };
                        quote! {
                            ::core::result::Result::map(
                                #missing(__arena, #content),
                                #ident::#variant_ident,
                            )
                        }
                    }
                }
            }
            Style::Tuple | Style::Struct => {
                fallthrough = Some(quote!(_ => #error,));
                continue;
            }
        };
        arms.push(quote!(__Field::#var => #arm,));
    }
    if arms.is_empty() {
        return error;
    }
    quote! {
        match __field {
            #(#arms)*
            #fallthrough
        }
    }
}
