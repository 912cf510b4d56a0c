//! The compile-time assertion that a field read with `#[arena(serde)]` needs no drop: the arena
//! never runs destructors, so a type owning heap memory would leak it.

use proc_macro2::{Group, Ident, Spacing, TokenStream, TokenTree};
use quote::{ToTokens, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Container, Field, Read};
use crate::bound::mentions;

/// The assertions for every field read with `#[arena(serde)]`, spanned on the field's type so
/// the error points at it: items for the `const _` block (field types that name no type or
/// const parameter, checked by `cargo check`), and statements for the body of `deserialize_in`
/// (the others, checked when the impl is instantiated).
pub fn assertions(cont: &Container) -> (TokenStream, TokenStream) {
    let params: Vec<&Ident> = cont
        .generics
        .type_params()
        .map(|p| &p.ident)
        .chain(cont.generics.const_params().map(|p| &p.ident))
        .collect();
    let mut items = TokenStream::new();
    let mut inline = TokenStream::new();
    for field in cont.deserialized_fields() {
        if !matches!(field.read(), Read::Serde(_)) {
            continue;
        }
        let message = message(field);
        let ty = field.ty.to_token_stream();
        let span = field.ty.span();
        if params.iter().any(|param| mentions(ty.clone(), param)) {
            inline.extend(quote_spanned! {span=>
                const {
                    ::core::assert!(!::core::mem::needs_drop::<#ty>(), #message);
                }
            });
        } else {
            // An item cannot name the impl's lifetimes; drop glue does not depend on them.
            let ty = static_lifetimes(ty);
            items.extend(quote_spanned! {span=>
                const _: () = ::core::assert!(!::core::mem::needs_drop::<#ty>(), #message);
            });
        }
    }
    (items, inline)
}

/// The panic message, a format string without arguments (braces doubled).
fn message(field: &Field) -> String {
    let member = match &field.member {
        syn::Member::Named(ident) => ident.to_string(),
        syn::Member::Unnamed(index) => index.index.to_string(),
    };
    let ty = pretty(&field.ty.to_token_stream().to_string());
    format!(
        "`#[arena(serde)]` on field `{member}` takes a type that needs no drop, and `{ty}` \
         needs drop: it owns memory the arena would never free; hold its text as `&'bump str` \
         and parse it where it is used, or give it an arena type"
    )
    .replace('{', "{{")
    .replace('}', "}}")
}

/// Token text with the spaces rustc would not print (`Vec < u8 >` is `Vec<u8>`).
fn pretty(tokens: &str) -> String {
    let mut s = tokens.to_owned();
    for (from, to) in [
        (" < ", "<"),
        ("< ", "<"),
        (" <", "<"),
        (" >", ">"),
        (" :: ", "::"),
        (":: ", "::"),
        (" ,", ","),
        ("& ", "&"),
        (" ;", ";"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// `tokens` with every lifetime replaced by `'static`.
fn static_lifetimes(tokens: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' && p.spacing() == Spacing::Joint => {
                out.push(TokenTree::Punct(p));
                if let Some(TokenTree::Ident(ident)) = iter.next() {
                    out.push(TokenTree::Ident(Ident::new("static", ident.span())));
                }
            }
            TokenTree::Group(group) => {
                let mut new = Group::new(group.delimiter(), static_lifetimes(group.stream()));
                new.set_span(group.span());
                out.push(TokenTree::Group(new));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}
