//! Externally tagged enums (`{"Variant": content}`, serde's default): the variant identifier,
//! then one arm per variant shape.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Form, enum_, field_i, field_seed, struct_, tuple, visitor};
use crate::ast::{Container, Data, Read, Style, Variant, deserialized_fields};
use crate::attr::Tagging;
use crate::bound::Params;

/// The statements reading an enum with `deserialize_enum`, as one of `deserialized` (each with
/// its position among all the variants).
pub fn deserialize(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
) -> TokenStream {
    let (variant_visitor, variants_const) = enum_::body_identifier(params, cont, deserialized);
    let (visitor, visitor_value) = enum_visitor(params, cont, deserialized);
    let entry = entry(params, cont, &visitor_value);
    quote! {
        #variant_visitor

        #visitor

        #variants_const

        #entry
    }
}

/// Whether an externally tagged enum shares one visitor between its serde path and its content
/// path ([`shared`]): no `untagged` variant, and every field of every variant read through its
/// `ArenaDeserialize` impl (as for a struct, `struct_::shares_visitor`).
pub fn shares_visitor(cont: &Container) -> bool {
    let Data::Enum(all) = &cont.data else {
        return false;
    };
    matches!(cont.attrs.tagging, Tagging::External)
        && all.iter().all(|v| v.attrs.untagged.is_none())
        && cont.deserialized_variants().all(|(_, variant)| {
            deserialized_fields(&variant.fields)
                .all(|(_, field)| matches!(field.read(), Read::Arena))
        })
}

/// An externally tagged enum's two reads with one visitor, generic over the read mode (as
/// `struct_::shared` for a struct), for an enum that [`shares_visitor`]: the visitor's items
/// (declared beside the impl, with the variant identifier the enum shares), the serde path's
/// body (`deserialize_enum` with it in `Direct` mode) and the content path's
/// (`deserialize_any` under the enum's buffer rules with it in `Content` mode).
pub fn shared(params: &Params, cont: &Container) -> (TokenStream, TokenStream, TokenStream) {
    let deserialized: Vec<(usize, &Variant)> = cont.deserialized_variants().collect();
    let (visitor, _) = enum_visitor(&params.read_mode(), cont, &deserialized);
    let value = |mode: &str| super::mode_visitor_value(params, mode);
    let direct = entry(params, cont, &value("Direct"));
    let content = entry(&params.content(), cont, &value("Content"));
    (visitor, direct, content)
}

/// The enum's visitor (`visit_enum`, an arm per variant in `deserialized`) and the expression
/// building it.
fn enum_visitor(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
) -> (TokenStream, TokenStream) {
    let expecting = cont
        .attrs
        .expecting
        .clone()
        .unwrap_or_else(|| format!("enum {}", cont.ident));
    let match_variant = if deserialized.is_empty() {
        quote! {
            ::core::result::Result::map(
                __serde::de::EnumAccess::variant::<__Field>(__data),
                |(__impossible, _)| match __impossible {},
            )
        }
    } else {
        let arms = deserialized.iter().map(|&(i, variant)| {
            let var = field_i(i);
            let body = variant_body(params, cont, variant);
            quote! {
                ::core::result::Result::Ok((__Field::#var, __variant)) => { #body }
            }
        });
        quote! {
            match __serde::de::EnumAccess::variant(__data) {
                #(#arms)*
                ::core::result::Result::Err(__err) => ::core::result::Result::Err(__err),
            }
        }
    };
    visitor(
        params,
        &expecting,
        &quote! {
            fn visit_enum<__A>(self, __data: __A) -> ::core::result::Result<Self::Value, __A::Error>
            where
                __A: __serde::de::EnumAccess<'__de>,
            {
                let __arena = self.__arena;
                #match_variant
            }
        },
    )
}

/// `deserialize_enum` with `visitor`, or, reading as from serde's buffer, `deserialize_any`
/// under the enum's buffer rules.
fn entry(params: &Params, cont: &Container, visitor: &TokenStream) -> TokenStream {
    let name = &cont.attrs.name;
    let krate = &params.krate;
    if params.content {
        quote! {
            __serde::Deserializer::deserialize_any(
                __deserializer,
                #krate::__private::EnumRules(#visitor),
            )
        }
    } else {
        quote!(__serde::Deserializer::deserialize_enum(__deserializer, #name, VARIANTS, #visitor))
    }
}

/// The arm reading one variant's content from `__variant`.
fn variant_body(params: &Params, cont: &Container, variant: &Variant) -> TokenStream {
    let ident = cont.ident;
    let variant_ident = variant.ident;
    let form = Form::Variant(ident, variant_ident);
    match variant.style {
        Style::Unit => quote! {
            let _ = __arena;
            __serde::de::VariantAccess::unit_variant(__variant)?;
            ::core::result::Result::Ok(#ident::#variant_ident)
        },
        Style::Newtype => {
            let field = &variant.fields[0];
            if field.attrs.skip_deserializing {
                let value = super::default_value(field, &cont.attrs)
                    .unwrap_or_else(|| quote!(::core::default::Default::default()));
                return quote! {
                    __serde::de::VariantAccess::unit_variant(__variant)?;
                    ::core::result::Result::Ok(#ident::#variant_ident(#value))
                };
            }
            let seed = field_seed(params, field);
            quote! {
                ::core::result::Result::map(
                    __serde::de::VariantAccess::newtype_variant_seed(__variant, #seed),
                    #ident::#variant_ident,
                )
            }
        }
        Style::Tuple => tuple::deserialize(params, &cont.attrs, &variant.fields, &form),
        Style::Struct => struct_::deserialize(params, &cont.attrs, &variant.fields, &form),
    }
}
