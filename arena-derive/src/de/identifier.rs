//! The field and variant identifier enums (`__Field`), read by name, bytes and index exactly as
//! serde_derive reads them.

use std::collections::BTreeSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// One identifier: the local name of its `__Field` variant and every name it is read from.
pub struct Ident<'a> {
    pub ident: syn::Ident,
    pub aliases: &'a BTreeSet<String>,
}

/// What an unknown identifier becomes.
pub enum Unknown {
    /// `__Field::__ignore`: the value is skipped (structs without `deny_unknown_fields`).
    Ignore,
    /// An error (`unknown_field` / `unknown_variant`, or `invalid_value` for an index).
    Error,
    /// `__Field::<ident>`: the `#[arena(other)]` variant.
    Other(syn::Ident),
}

/// The `__Field` enum, its visitor and its `Deserialize` impl; the error arms name `FIELDS` or
/// `VARIANTS` (see [`names_const`]).
pub fn generate(
    krate: &TokenStream,
    idents: &[Ident],
    is_variant: bool,
    unknown: &Unknown,
) -> TokenStream {
    let names_const = if is_variant {
        quote!(VARIANTS)
    } else {
        quote!(FIELDS)
    };
    let variant_idents = idents.iter().map(|i| &i.ident);
    let ignore_variant = matches!(unknown, Unknown::Ignore).then(|| quote!(__ignore,));

    let str_arms = idents.iter().flat_map(|i| {
        let ident = &i.ident;
        i.aliases
            .iter()
            .map(move |alias| quote!(#alias => ::core::result::Result::Ok(__Field::#ident),))
    });
    let bytes_arms = idents.iter().flat_map(|i| {
        let ident = &i.ident;
        i.aliases.iter().map(move |alias| {
            let bytes = Literal::byte_string(alias.as_bytes());
            quote!(#bytes => ::core::result::Result::Ok(__Field::#ident),)
        })
    });
    let u64_arms = idents.iter().enumerate().map(|(index, i)| {
        let index = index as u64;
        let ident = &i.ident;
        quote!(#index => ::core::result::Result::Ok(__Field::#ident),)
    });

    let (fallthrough, u64_fallthrough, bytes_to_str) = match unknown {
        Unknown::Ignore => {
            let ok = quote!(::core::result::Result::Ok(__Field::__ignore));
            (ok.clone(), ok, None)
        }
        Unknown::Other(ident) => {
            let ok = quote!(::core::result::Result::Ok(__Field::#ident));
            (ok.clone(), ok, None)
        }
        Unknown::Error => {
            let (kind, error) = if is_variant {
                ("variant", quote!(unknown_variant))
            } else {
                ("field", quote!(unknown_field))
            };
            let message = format!("{kind} index 0 <= i < {}", idents.len());
            (
                quote! {
                    ::core::result::Result::Err(__serde::de::Error::#error(__value, #names_const))
                },
                quote! {
                    ::core::result::Result::Err(__serde::de::Error::invalid_value(
                        __serde::de::Unexpected::Unsigned(__value),
                        &#message,
                    ))
                },
                Some(quote! {
                    let __value = &#krate::__private::from_utf8_lossy(__value);
                }),
            )
        }
    };
    let expecting = if is_variant {
        "variant identifier"
    } else {
        "field identifier"
    };

    quote! {
        #[allow(non_camel_case_types)]
        #[doc(hidden)]
        enum __Field {
            #(#variant_idents,)*
            #ignore_variant
        }

        #[doc(hidden)]
        struct __FieldVisitor;

        #[automatically_derived]
        impl<'__de> __serde::de::Visitor<'__de> for __FieldVisitor {
            type Value = __Field;

            fn expecting(&self, __formatter: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                ::core::fmt::Formatter::write_str(__formatter, #expecting)
            }

            fn visit_u64<__E>(self, __value: u64) -> ::core::result::Result<__Field, __E>
            where
                __E: __serde::de::Error,
            {
                match __value {
                    #(#u64_arms)*
                    _ => #u64_fallthrough,
                }
            }

            fn visit_str<__E>(self, __value: &str) -> ::core::result::Result<__Field, __E>
            where
                __E: __serde::de::Error,
            {
                match __value {
                    #(#str_arms)*
                    _ => #fallthrough,
                }
            }

            fn visit_bytes<__E>(self, __value: &[u8]) -> ::core::result::Result<__Field, __E>
            where
                __E: __serde::de::Error,
            {
                match __value {
                    #(#bytes_arms)*
                    _ => {
                        #bytes_to_str
                        #fallthrough
                    }
                }
            }
        }

        #[automatically_derived]
        impl<'__de> __serde::Deserialize<'__de> for __Field {
            #[inline]
            fn deserialize<__D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
            where
                __D: __serde::Deserializer<'__de>,
            {
                __serde::Deserializer::deserialize_identifier(__deserializer, __FieldVisitor)
            }
        }
    }
}

/// `const FIELDS` / `const VARIANTS`: every name read, aliases included, as serde lists them.
pub fn names_const(idents: &[Ident], is_variant: bool) -> TokenStream {
    let names = idents.iter().flat_map(|i| i.aliases.iter());
    let name = if is_variant {
        quote!(VARIANTS)
    } else {
        quote!(FIELDS)
    };
    quote! {
        #[doc(hidden)]
        const #name: &'static [&'static str] = &[#(#names),*];
    }
}
