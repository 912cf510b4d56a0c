//! The definition-site check that a field's type implements `ArenaDeserialize`, where the
//! derive can state it: for a field type with no lifetime and no type or const parameter.
//!
//! The impl's bounds are per field (`FieldType: ArenaDeserialize<'bump, A>`), and rustc reports
//! an unsatisfiable bound only where the impl is used. A type without a lifetime holds nothing
//! in an arena, so it is read into every arena alike (`Uuid`, an id newtype, a struct of
//! numbers); the derive asks for its impl on the impl's own arena in a function that is never
//! called, and a missing impl is an error at the field, when the type is derived. Types with a
//! lifetime may have impls for one arena only (`bumpalo::collections::Vec<'bump, T>`), so they
//! keep the bound alone; so does every field under a container `bound`, which replaces the
//! derive's bounds.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Container, Read};
use crate::bound::{Params, is_primitive, mentions};

/// The function holding one check per such field, each spanned on the field's type; empty
/// when there is none. Primitives (always implemented) and types naming the container (the
/// impl being defined proves them) are not checked.
pub fn checks(params: &Params, cont: &Container) -> TokenStream {
    if cont.attrs.bound.is_some() {
        return TokenStream::new();
    }
    let type_params: Vec<&Ident> = cont
        .generics
        .type_params()
        .map(|p| &p.ident)
        .chain(cont.generics.const_params().map(|p| &p.ident))
        .collect();
    let self_ident = Ident::new("Self", proc_macro2::Span::call_site());
    let krate = &params.krate;
    let (arena_param, arena) = match &cont.arena {
        Some(ty) => (TokenStream::new(), ty.to_token_stream()),
        None => (
            quote!(, __Arena: #krate::BumpAllocator + ?::core::marker::Sized),
            quote!(__Arena),
        ),
    };
    let calls: Vec<TokenStream> = cont
        .deserialized_fields()
        .into_iter()
        .filter(|field| matches!(field.read(), Read::Arena))
        .filter(|field| {
            let tokens = field.ty.to_token_stream();
            !is_primitive(field.ty)
                && !has_lifetime(&tokens)
                && !type_params
                    .iter()
                    .chain([&cont.ident, &&self_ident])
                    .any(|name| mentions(tokens.clone(), name))
        })
        .map(|field| {
            let ty = field.ty;
            quote_spanned! {ty.span()=>
                __field_type_implements::<'__check, #ty, #arena>();
            }
        })
        .collect();
    if calls.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[allow(dead_code)]
        fn __check_field_types<'__check #arena_param>() {
            fn __field_type_implements<'__b, __T, __A>()
            where
                __T: #krate::ArenaDeserialize<'__b, __A>,
                __A: #krate::BumpAllocator + ?::core::marker::Sized,
            {
            }
            #(#calls)*
        }
    }
}

/// Whether `tokens` hold a lifetime (`'a`).
fn has_lifetime(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        TokenTree::Punct(p) => p.as_char() == '\'',
        TokenTree::Group(group) => has_lifetime(&group.stream()),
        _ => false,
    })
}
