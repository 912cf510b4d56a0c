//! What the representations share: the variant identifier, and the seed reading the content of
//! the variant a tag named from `__deserializer` (serde_derive's `__Seed` of adjacently tagged
//! enums, and the arms of `deserialize_internally_tagged_variant` and
//! `enum_untagged::deserialize_variant`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::identifier::{self, Unknown};
use super::{
    Form, default_value, deserialize_field, field_i, struct_, tuple, visitor_struct, visitor_value,
};
use crate::ast::{Container, Style, Variant};
use crate::bound::Params;

/// The variant identifier `__Field` of `deserialized` (each with its position among all the
/// variants), read by name, bytes or index, unknown names going to the `other` variant if there
/// is one; and the `VARIANTS` const.
pub fn identifier(
    params: &Params,
    deserialized: &[(usize, &Variant)],
) -> (TokenStream, TokenStream) {
    let idents: Vec<identifier::Ident> = deserialized
        .iter()
        .map(|&(i, variant)| identifier::Ident {
            ident: field_i(i),
            aliases: &variant.attrs.aliases,
        })
        .collect();
    let unknown = deserialized
        .iter()
        .find(|(_, variant)| variant.attrs.other.is_some())
        .map_or(Unknown::Error, |&(i, _)| Unknown::Other(field_i(i)));
    (
        identifier::generate(&params.krate, &idents, true, &unknown),
        identifier::names_const(&idents, true),
    )
}

/// How a variant's content is read once its tag is known.
#[derive(Clone, Copy)]
pub enum Content {
    /// The rest of the map or sequence the tag was in: a unit variant reads past it, a struct
    /// variant reads it as a map or a sequence (`deserialize_any`).
    InternallyTagged,
    /// A value of its own (adjacently tagged): a unit variant reads a unit, a struct variant a
    /// map (`deserialize_any`, serde's untagged struct form), a tuple variant a sequence.
    Adjacent,
}

/// Declares `__Seed`, the `DeserializeSeed` reading from `__deserializer` the content of the
/// variant in its field `__variant` (a `__Field`), for any deserializer lifetime; returns it
/// with the expression that builds it from `__arena` and `variant`.
pub fn seed(
    params: &Params,
    cont: &Container,
    deserialized: &[(usize, &Variant)],
    content: Content,
) -> (TokenStream, impl Fn(&TokenStream) -> TokenStream) {
    let Params {
        bump,
        arena,
        de_impl_generics,
        helper_ty_generics,
        impl_where,
        this_ty,
        ..
    } = params;
    let name = format_ident!("__Seed");
    let decl = visitor_struct(params, &name, &quote!(__variant: __Field,));
    let arms = deserialized.iter().map(|&(i, variant)| {
        let var = field_i(i);
        let body = variant_content(params, cont, variant, content);
        quote!(__Field::#var => { #body })
    });
    let items = quote! {
        #decl

        #[automatically_derived]
        impl #de_impl_generics __serde::de::DeserializeSeed<'__de> for #name #helper_ty_generics #impl_where {
            type Value = #this_ty;

            fn deserialize<__D>(self, __deserializer: __D) -> ::core::result::Result<#this_ty, __D::Error>
            where
                __D: __serde::Deserializer<'__de>,
            {
                let __arena: &#bump #arena = self.__arena;
                let _ = __arena;
                match self.__variant {
                    #(#arms)*
                }
            }
        }
    };
    let value =
        move |variant: &TokenStream| visitor_value(params, &name, &quote!(__variant: #variant,));
    (items, value)
}

/// The statements reading `variant`'s content from `__deserializer`.
fn variant_content(
    params: &Params,
    cont: &Container,
    variant: &Variant,
    content: Content,
) -> TokenStream {
    let krate = &params.krate;
    let ident = cont.ident;
    let variant_ident = variant.ident;
    let cattrs = &cont.attrs;
    // A newtype variant whose field is skipped is read as a unit variant (serde_derive's
    // `effective_style`).
    let style = match variant.style {
        Style::Newtype if variant.fields[0].attrs.skip_deserializing => Style::Unit,
        style => style,
    };
    match style {
        Style::Unit => {
            let type_name = &params.type_name;
            let variant_name = variant_ident.to_string();
            let visitor = match content {
                Content::InternallyTagged => quote!(InternallyTaggedUnitVisitor),
                Content::Adjacent => quote!(UntaggedUnitVisitor),
            };
            let default = variant.fields.first().map(|field| {
                let value = default_value(field, cattrs)
                    .unwrap_or_else(|| quote!(::core::default::Default::default()));
                quote!((#value))
            });
            quote! {
                __serde::Deserializer::deserialize_any(
                    __deserializer,
                    #krate::__private::#visitor::new(#type_name, #variant_name),
                )?;
                ::core::result::Result::Ok(#ident::#variant_ident #default)
            }
        }
        Style::Newtype => {
            let value = deserialize_field(params, &variant.fields[0], &quote!(__deserializer));
            quote!(::core::result::Result::map(#value, #ident::#variant_ident))
        }
        Style::Struct => {
            let form = match content {
                Content::InternallyTagged => Form::InternallyTagged(ident, variant_ident),
                Content::Adjacent => Form::Untagged(ident, variant_ident),
            };
            struct_::deserialize(params, cattrs, &variant.fields, &form)
        }
        // Internally tagged enums have no tuple variants (`check_tagging`).
        Style::Tuple => tuple::deserialize(
            params,
            cattrs,
            &variant.fields,
            &Form::Untagged(ident, variant_ident),
        ),
    }
}
