//! The generics of the generated impl: the arena lifetime, the allocator parameter, one bound
//! per deserialized field, and `Self: Default` under a container `default`.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::parse_quote;
use syn::spanned::Spanned;

use crate::ast::{Container, Read};
use crate::attr;

/// Everything the code generator needs to name the type, the arena and the generics.
#[derive(Clone)]
pub struct Params {
    /// The path to `arena_core` (`::arena_core` unless `#[arena(crate = "...")]`).
    pub krate: TokenStream,
    /// The arena lifetime, [`Container::bump`].
    pub bump: syn::Lifetime,
    /// The allocator: `__Arena` (generic) or the type of [`Container::arena`].
    pub arena: TokenStream,
    /// `<'bump, T: Bound, const N: usize, __Arena: BumpAllocator + ?Sized>`.
    pub impl_generics: TokenStream,
    /// The same with `'__de` in front, for serde's visitor and seed impls.
    pub de_impl_generics: TokenStream,
    /// `<'bump, T, N, __Arena>`, for the helper structs.
    pub helper_ty_generics: TokenStream,
    /// `::<'bump, T, N, __Arena>`, to build a helper struct: its fields need not name every
    /// parameter, so the arguments are given rather than inferred.
    pub helper_turbofish: TokenStream,
    /// The type being derived: `City<'bump, T, N>`.
    pub this_ty: TokenStream,
    /// The type's own where clause, for the helper structs.
    pub struct_where: TokenStream,
    /// The type's where clause plus the inferred bounds (or `bound`), for the impls: one per
    /// field (see `field_bounds`), and `Self: Default` under a container `default`.
    pub impl_where: TokenStream,
    /// The type's name, for `expecting` messages.
    pub type_name: String,
    /// Whether the code reads as serde reads back its buffer (`__deserialize_content_in`):
    /// every value with `deserialize_any` under the buffer's rules, straight from the input.
    pub content: bool,
    /// Whether the code writes the value into the slot `__slot` (`__deserialize_into`) rather
    /// than return it; only ever set with `content` off.
    pub into_slot: bool,
    /// Whether the code is the body of a visitor generic over the read mode `__M` (an
    /// `arena_core::__private::ReadMode`), written once for both paths of a struct (see
    /// [`Params::read_mode`]); only ever set with `content` off.
    pub mode_param: bool,
    /// The generic arguments of the helper structs (`'bump`, `T`, `N`, `__Arena`), to which a
    /// visitor generic over the read mode adds the mode.
    pub helper_args: Vec<TokenStream>,
    /// [`impl_generics`](Self::impl_generics) and [`de_impl_generics`](Self::de_impl_generics)
    /// with `__M: ReadMode` last.
    pub mode_generics: (TokenStream, TokenStream),
}

impl Params {
    /// The same names, for the code reading as serde reads back its buffer.
    pub fn content(&self) -> Self {
        Self {
            content: true,
            into_slot: false,
            ..self.clone()
        }
    }

    /// The same names, for a visitor generic over the read mode `__M`: its struct and impl have
    /// `__M: ReadMode` after the other parameters, and it is built (see
    /// [`Params::mode_turbofish`]) with `Direct` by the serde path and with `Content` by
    /// `__deserialize_content_in`.
    pub fn read_mode(&self) -> Self {
        let args = &self.helper_args;
        Self {
            content: false,
            into_slot: false,
            mode_param: true,
            impl_generics: self.mode_generics.0.clone(),
            de_impl_generics: self.mode_generics.1.clone(),
            helper_ty_generics: quote!(<#(#args,)* __M>),
            helper_turbofish: quote!(::<#(#args,)* __M>),
            ..self.clone()
        }
    }

    /// `::<'bump, T, N, __Arena, mode>`: the turbofish building a visitor generic over the read
    /// mode, with `mode` (`Direct` or `Content`).
    pub fn mode_turbofish(&self, mode: &str) -> TokenStream {
        let krate = &self.krate;
        let args = &self.helper_args;
        let mode = quote::format_ident!("{}", mode);
        quote!(::<#(#args,)* #krate::__private::#mode>)
    }

    /// `<Mode as ReadMode>`: the read mode of the code being written, whose provided methods
    /// read a field through its `ArenaDeserialize` impl: the visitor's `__M`, or `Content` or
    /// `Direct` for a body that reads in one mode only.
    pub fn mode(&self) -> TokenStream {
        let krate = &self.krate;
        let mode = if self.mode_param {
            quote!(__M)
        } else if self.content {
            quote!(#krate::__private::Content)
        } else {
            quote!(#krate::__private::Direct)
        };
        quote!(<#mode as #krate::__private::ReadMode>)
    }

    /// The same names, for the code reading straight from the format.
    pub fn direct(&self) -> Self {
        Self {
            content: false,
            ..self.clone()
        }
    }

    /// `entry` (a `deserialize_*` call on `__deserializer` with `visitor`), or, reading as
    /// from serde's buffer, `deserialize_any` with `visitor` under the rules of `ask` (an
    /// `arena_core::__private::Ask` variant).
    pub fn entry(&self, entry: TokenStream, ask: &str, visitor: &TokenStream) -> TokenStream {
        if !self.content {
            return entry;
        }
        let krate = &self.krate;
        let ask = quote::format_ident!("{}", ask);
        quote::quote! {
            __serde::Deserializer::deserialize_any(
                __deserializer,
                #krate::__private::Rules::new(#krate::__private::Ask::#ask, #visitor),
            )
        }
    }
}

impl Params {
    pub fn new(cont: &Container) -> Self {
        let krate = cont
            .attrs
            .krate
            .as_ref()
            .map_or_else(|| quote!(::arena_core), ToTokens::to_token_stream);
        let bump = cont.bump.clone();

        let mut generics = cont.generics.clone();
        if cont.fresh_bump {
            generics.params.insert(
                0,
                syn::GenericParam::Lifetime(syn::LifetimeParam::new(bump.clone())),
            );
        }
        let arena = match &cont.arena {
            Some(ty) => ty.to_token_stream(),
            None => {
                generics.params.push(parse_quote!(
                    __Arena: #krate::BumpAllocator + ?::core::marker::Sized
                ));
                quote!(__Arena)
            }
        };
        let mut de_generics = generics.clone();
        de_generics.params.insert(0, parse_quote!('__de));

        let helper_args = generics
            .params
            .iter()
            .map(|param| match param {
                syn::GenericParam::Lifetime(lt) => lt.lifetime.to_token_stream(),
                syn::GenericParam::Type(ty) => ty.ident.to_token_stream(),
                syn::GenericParam::Const(c) => c.ident.to_token_stream(),
            })
            .collect();
        let mode_generics = {
            let mode: syn::GenericParam = parse_quote!(__M: #krate::__private::ReadMode);
            let mut generics = generics.clone();
            generics.params.push(mode.clone());
            let mut de_generics = de_generics.clone();
            de_generics.params.push(mode);
            (
                generics.split_for_impl().0.to_token_stream(),
                de_generics.split_for_impl().0.to_token_stream(),
            )
        };
        let (impl_generics, helper_ty_generics, _) = generics.split_for_impl();
        let (de_impl_generics, _, _) = de_generics.split_for_impl();
        let (_, ty_generics, where_clause) = cont.generics.split_for_impl();
        let ident = cont.ident;
        let this_ty = quote!(#ident #ty_generics);

        let mut predicates: Vec<TokenStream> = where_clause
            .map(|w| w.predicates.iter().map(ToTokens::to_token_stream).collect())
            .unwrap_or_default();
        match &cont.attrs.bound {
            Some(bound) => predicates.extend(bound.iter().map(ToTokens::to_token_stream)),
            None => {
                // A container `default` builds the whole value with `Default::default()`: serde
                // bounds the impl by `Self: Default` (serde_derive's `with_self_bound`), which
                // holds for the arguments that have a `Default` impl, not for every `T`.
                if matches!(cont.attrs.default, attr::Default::Trait) {
                    predicates.push(quote!(#this_ty: ::core::default::Default));
                }
                predicates.extend(field_bounds(cont, &krate, &bump, &arena));
            }
        }
        let struct_where = where_clause
            .map(ToTokens::to_token_stream)
            .unwrap_or_default();
        let impl_where = if predicates.is_empty() {
            TokenStream::new()
        } else {
            quote!(where #(#predicates,)*)
        };

        Self {
            krate,
            bump,
            arena,
            impl_generics: impl_generics.to_token_stream(),
            de_impl_generics: de_impl_generics.to_token_stream(),
            helper_ty_generics: helper_ty_generics.to_token_stream(),
            helper_turbofish: helper_ty_generics.as_turbofish().to_token_stream(),
            this_ty,
            struct_where,
            impl_where,
            type_name: ident.to_string(),
            content: false,
            into_slot: false,
            mode_param: false,
            helper_args,
            mode_generics,
        }
    }
}

/// One bound per field read from the input ([`Container::deserialized_fields`]) with
/// [`Read::Arena`]: `FieldType: ArenaDeserialize<'bump, A>`, and `FieldType: Default` for each field built with
/// `Default::default()`, `FieldType: DeserializeOwned` for each field read by serde
/// (`#[arena(serde)]`); for a value converted `from` (or `try_from`) a type, that type's
/// `ArenaDeserialize` instead. Fields whose type names the container itself get none: the impl being
/// defined proves them, and the bound would make the trait solver loop.
fn field_bounds(
    cont: &Container,
    krate: &TokenStream,
    bump: &syn::Lifetime,
    arena: &TokenStream,
) -> Vec<TokenStream> {
    let not_recursive = |ty: &syn::Type| !mentions(ty.to_token_stream(), cont.ident);
    // Each bound carries its field type's span: an unsatisfied one points at the field.
    let read = cont
        .deserialized_fields()
        .into_iter()
        .filter(|field| matches!(field.read(), Read::Arena))
        .map(|field| field.ty)
        .filter(|ty| not_recursive(ty) && !is_primitive(ty))
        .map(|ty| {
            let bound = respan(quote!(#krate::ArenaDeserialize<#bump, #arena>), ty.span());
            quote_spanned!(ty.span()=> #ty: #bound)
        });
    // `#[arena(serde)]` without a function: serde's `Deserialize`, for every input lifetime
    // (the impl's `deserialize_in` is generic over it).
    let through_serde = cont
        .deserialized_fields()
        .into_iter()
        .filter(|field| matches!(field.read(), Read::Serde(None)))
        .map(|field| field.ty)
        .filter(|ty| not_recursive(ty))
        .map(|ty| {
            let bound = respan(
                quote!(#krate::__private::serde::de::DeserializeOwned),
                ty.span(),
            );
            quote_spanned!(ty.span()=> #ty: #bound)
        });
    let defaulted = cont
        .built_fields()
        .filter(|field| matches!(field.attrs.default, attr::Default::Trait))
        .map(|field| field.ty)
        .filter(|ty| not_recursive(ty))
        .map(|ty| quote_spanned!(ty.span()=> #ty: ::core::default::Default));
    // `from` / `try_from`: the type read instead of the fields.
    let converted = cont.attrs.conversion.as_ref().map(|conversion| {
        let ty = &conversion.ty;
        quote!(#ty: #krate::ArenaDeserialize<#bump, #arena>)
    });
    read.chain(through_serde)
        .chain(defaulted)
        .chain(converted)
        .collect()
}

/// `tokens` with every token given `span`, so that rustc, which cannot join spans of
/// different origins, points a whole predicate at the field. The derive's own names (`'bump`
/// made up, `__Arena`) resolve at the user's tokens as at the call site: a derive's input and
/// its call site share their hygiene.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(group) = &tt {
                let mut new =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                new.set_span(span);
                tt = proc_macro2::TokenTree::Group(new);
            }
            tt.set_span(span);
            tt
        })
        .collect()
}

/// Whether `tokens` contain the identifier `ident`.
pub fn mentions(tokens: TokenStream, ident: &syn::Ident) -> bool {
    tokens.into_iter().any(|tt| match tt {
        proc_macro2::TokenTree::Ident(i) => i == *ident,
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), ident),
        _ => false,
    })
}

/// Whether `ty` is a primitive, implemented by `arena_core` for every arena: its bound would
/// always hold, so it is left out.
pub fn is_primitive(ty: &syn::Type) -> bool {
    const PRIMITIVES: &[&str] = &[
        "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
        "i128", "isize", "f32", "f64",
    ];
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .get_ident()
            .is_some_and(|ident| PRIMITIVES.iter().any(|prim| ident == prim)),
        syn::Type::Tuple(t) => t.elems.is_empty(),
        _ => false,
    }
}
