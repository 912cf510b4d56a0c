//! Externally tagged enums (`{"Variant": content}`, serde's default): the variant identifier,
//! then one arm per variant shape.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Form, enum_, field_i, field_seed, struct_, tuple, visitor};
use crate::ast::{Container, Style, Variant};
use crate::bound::Params;

/// The statements reading an enum with `deserialize_enum`, as one of `deserialized` (each with
/// its position among all the variants).
pub fn deserialize(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
) -> TokenStream {
    let cattrs = &cont.attrs;
    let expecting = cattrs
        .expecting
        .clone()
        .unwrap_or_else(|| format!("enum {}", cont.ident));
    let (variant_visitor, variants_const) = enum_::body_identifier(params, cont, deserialized);

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

    let (visitor, visitor_value) = visitor(
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
    );
    let name = &cattrs.name;
    let krate = &params.krate;
    let entry = if params.content {
        quote! {
            __serde::Deserializer::deserialize_any(
                __deserializer,
                #krate::__private::EnumRules(#visitor_value),
            )
        }
    } else {
        quote!(__serde::Deserializer::deserialize_enum(__deserializer, #name, VARIANTS, #visitor_value))
    };
    quote! {
        #variant_visitor

        #visitor

        #variants_const

        #entry
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
