//! Untagged enums (`#[arena(untagged)]`), and the variants marked `untagged` at the end of a
//! tagged enum: the input buffered once into a `Value` in the thread's buffer (given back once
//! the variant is read), then each variant tried on it in order, the first that reads winning
//! (serde_derive's `de/enum_untagged.rs`).
//!
//! Each try is an `attempt`: a variant that fails is rewound out of the arena, and out of the
//! call's byte budget, before the next one starts.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Form, deserialize_field, struct_, tuple};
use crate::ast::{Container, Style, Variant};
use crate::bound::Params;

/// The statements reading an enum as one of the untagged `variants` (each with its position
/// among all the variants), after `tagged` if given: the statements reading the enum of its
/// tagged variants from `__deserializer` (see [`super::enum_`]).
pub fn deserialize(
    params: &Params,
    cont: &Container,
    variants: &[(usize, &Variant)],
    tagged: Option<TokenStream>,
) -> TokenStream {
    let Params {
        krate,
        this_ty,
        type_name,
        ..
    } = params;
    let fallthrough =
        cont.attrs.expecting.clone().unwrap_or_else(|| {
            format!("data did not match any variant of untagged enum {type_name}")
        });
    let reads = tagged.into_iter().chain(
        variants
            .iter()
            .map(|&(_, variant)| read(params, cont, variant)),
    );
    // Each read is a function: it captures nothing (see `attempt`), and its `return`s and `?`s
    // end that read only, so that a mismatch falls through to the next. It replays the buffer
    // with `AttemptError`, which records nothing: a variant that does not match builds no
    // message. A read that hit a limit or failed to allocate ends the whole read with that
    // error, in the format's type (`attempt`'s `Err`).
    let attempts = reads.map(|read| {
        quote! {
            if let ::core::option::Option::Some(__ok) = #krate::__private::attempt(
                __arena,
                #krate::ValueDeserializer::<#krate::__private::AttemptError>::new(
                    &__value,
                    __human_readable,
                ),
                |__arena, __deserializer| -> ::core::result::Result<
                    #this_ty,
                    #krate::__private::AttemptError,
                > {
                    #read
                },
            )? {
                return ::core::result::Result::Ok(__ok);
            }
        }
    });
    quote! {
        // The replay answers what the source format answers (serde's buffer says `true`).
        let __human_readable = __serde::Deserializer::is_human_readable(&__deserializer);
        // The buffer is the thread's, given back once the variant is read: the arena keeps
        // the variant only.
        #krate::__private::with_buffer(|__buffer| -> ::core::result::Result<#this_ty, __D::Error> {
            let __value = <#krate::Value<'_> as #krate::ArenaDeserialize<'_, #krate::__private::Buffer>>::deserialize_in(
                __buffer,
                __deserializer,
            )?;
            #(#attempts)*
            ::core::result::Result::Err(<__D::Error as __serde::de::Error>::custom(#fallthrough))
        })
    }
}

/// The statements reading one untagged variant from `__deserializer`, the replayed buffer.
fn read(params: &Params, cont: &Container, variant: &Variant) -> TokenStream {
    let ident = cont.ident;
    let variant_ident = variant.ident;
    let form = Form::Untagged(ident, variant_ident);
    match variant.style {
        Style::Unit => unit(params, ident, variant_ident, None),
        // A newtype variant whose field is skipped is read as a unit variant, then built with
        // the field's default.
        Style::Newtype if variant.fields[0].attrs.skip_deserializing => {
            let value = super::default_value(&variant.fields[0], &cont.attrs)
                .unwrap_or_else(|| quote!(::core::default::Default::default()));
            unit(params, ident, variant_ident, Some(value))
        }
        Style::Newtype => {
            let value = deserialize_field(params, &variant.fields[0], &quote!(__deserializer));
            quote! {
                ::core::result::Result::map(#value, #ident::#variant_ident)
            }
        }
        Style::Tuple => tuple::deserialize(params, &cont.attrs, &variant.fields, &form),
        Style::Struct => struct_::deserialize(params, &cont.attrs, &variant.fields, &form),
    }
}

/// A unit variant: a unit or a `None`, as serde's `UntaggedUnitVisitor` reads it; `field` is
/// the value of a skipped newtype field.
fn unit(
    params: &Params,
    ident: &syn::Ident,
    variant_ident: &syn::Ident,
    field: Option<TokenStream>,
) -> TokenStream {
    let krate = &params.krate;
    let type_name = &params.type_name;
    let variant_name = variant_ident.to_string();
    let field = field.map(|value| quote!((#value)));
    quote! {
        ::core::result::Result::map(
            __serde::Deserializer::deserialize_any(
                __deserializer,
                #krate::__private::UntaggedUnitVisitor::new(#type_name, #variant_name),
            ),
            |()| #ident::#variant_ident #field,
        )
    }
}
