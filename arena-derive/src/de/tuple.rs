//! Tuple structs, newtype structs and tuple variants: `visit_seq` (and `visit_newtype_struct`
//! for a newtype struct, as serde reads it).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Form, deserialize_field, visit_seq, visitor};
use crate::ast::{Field, deserialized_fields};
use crate::attr;
use crate::bound::Params;

/// The statements reading a tuple or newtype struct, or a tuple variant (on `__variant`).
pub fn deserialize(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    form: &Form,
) -> TokenStream {
    let path = form.path();
    let kind = match form {
        Form::Struct(_) => "tuple struct",
        Form::Variant(..) | Form::InternallyTagged(..) | Form::Untagged(..) => "tuple",
    };
    let expecting = form.expecting(kind, cattrs);
    let field_count = deserialized_fields(fields).count();
    let is_newtype = matches!(form, Form::Struct(_)) && fields.len() == 1;

    // The field is read here even when skipped, as serde_derive reads it (see
    // `Container::newtype_field`): the skip holds in `visit_seq`.
    let visit_newtype_struct = match fields {
        [field] if is_newtype => {
            let ty = field.ty;
            let value = deserialize_field(params, field, &quote!(__e));
            Some(quote! {
                #[inline]
                fn visit_newtype_struct<__E>(self, __e: __E) -> ::core::result::Result<Self::Value, __E::Error>
                where
                    __E: __serde::Deserializer<'__de>,
                {
                    let __arena = self.__arena;
                    let __field0: #ty = #value?;
                    ::core::result::Result::Ok(#path(__field0))
                }
            })
        }
        _ => None,
    };
    let visit_seq = visit_seq(params, cattrs, fields, &path, false, &expecting);

    let (visitor, visitor_value) = visitor(
        params,
        &expecting,
        &quote! {
            #visit_newtype_struct

            #visit_seq
        },
    );
    let name = &cattrs.name;
    let dispatch = match form {
        // serde's buffer hands a newtype struct itself to the visitor.
        Form::Struct(_) if is_newtype && params.content => quote! {
            __serde::de::Visitor::visit_newtype_struct(#visitor_value, __deserializer)
        },
        Form::Struct(_) if is_newtype => quote! {
            __serde::Deserializer::deserialize_newtype_struct(__deserializer, #name, #visitor_value)
        },
        Form::Struct(_) => params.entry(
            quote! {
                __serde::Deserializer::deserialize_tuple_struct(__deserializer, #name, #field_count, #visitor_value)
            },
            "Seq",
            &visitor_value,
        ),
        Form::Variant(..) => quote! {
            __serde::de::VariantAccess::tuple_variant(__variant, #field_count, #visitor_value)
        },
        // An internally tagged enum has no tuple variants (`check_tagging`).
        Form::InternallyTagged(..) | Form::Untagged(..) => params.entry(
            quote! {
                __serde::Deserializer::deserialize_tuple(__deserializer, #field_count, #visitor_value)
            },
            "Seq",
            &visitor_value,
        ),
    };

    quote! {
        #visitor

        #dispatch
    }
}
