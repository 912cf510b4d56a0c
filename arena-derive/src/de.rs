//! Code generation: the `ArenaDeserialize` impl, from the model only.
//!
//! The generated code follows serde_derive's `Deserialize` closely (same visitors, same
//! identifiers, same errors), with the arena carried by every visitor and every value read
//! through `ArenaSeed`.

mod enum_;
mod enum_adjacently;
mod enum_externally;
mod enum_internally;
mod enum_untagged;
mod enum_variant;
mod field_check;
mod flatten;
mod identifier;
mod json;
mod no_drop;
mod struct_;
mod tuple;

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Container, Data, Field, Read, Style, deserialized_fields};
use crate::attr;
use crate::bound::Params;
use crate::check;
use crate::ctxt::Ctxt;

/// Parses, checks and expands the derive input: the impl, or every error found.
pub fn expand(input: &syn::DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::default();
    let Some(cont) = Container::from_ast(&cx, input) else {
        return cx.check().map(|()| TokenStream::new());
    };
    check::check(&cx, &cont);
    cx.check()?;
    let params = Params::new(&cont);

    let into_slot = builds_in_slot(&cont);
    let direct = Params {
        into_slot,
        ..params.clone()
    };
    // The two reads share one visitor where they can (see `shared`), declared beside the
    // impl; otherwise each body declares its own.
    let (shared_visitor, body, content) = match shared(&direct, &cont) {
        Some((visitor, body, content)) => (Some(visitor), body, Some(content)),
        None => (
            None,
            body(&direct, &cont),
            content_body(&params.content(), &cont),
        ),
    };
    let content = content.map(|body| {
        read_fn(
            &params,
            &quote!(#[inline]),
            &format_ident!("__deserialize_content_in"),
            &body,
        )
    });
    let flat_fields = flat_fields(&params.krate, &cont);
    let json = json::direct(&params, &cont);
    let (no_drop_items, no_drop_inline) = no_drop::assertions(&cont);
    let field_checks = field_check::checks(&params, &cont);
    let identifier = shared_identifier(&params, &cont);

    let Params {
        krate,
        bump,
        arena,
        impl_generics,
        this_ty,
        impl_where,
        ..
    } = &params;
    let deserialize_in = format_ident!("deserialize_in");
    let read = if into_slot {
        // The body builds the value in a slot: `deserialize_in` hands it one of its own.
        let via_slot = quote! {
            #krate::__private::deserialize_via_slot(__arena, __deserializer)
        };
        let deserialize_in = read_fn(&params, &TokenStream::new(), &deserialize_in, &via_slot);
        quote! {
            #deserialize_in

            fn __deserialize_into<'__de, '__s, __D>(
                __arena: &#bump #arena,
                __deserializer: __D,
                __slot: #krate::__private::Slot<'__s, Self>,
            ) -> ::core::result::Result<#krate::__private::Filled<'__s>, __D::Error>
            where
                __D: __serde::Deserializer<'__de>,
            {
                #no_drop_inline
                #body
            }
        }
    } else {
        let body = quote! {
            #no_drop_inline
            #body
        };
        read_fn(&params, &TokenStream::new(), &deserialize_in, &body)
    };
    Ok(quote! {
        #[doc(hidden)]
        #[allow(
            non_upper_case_globals,
            unused_attributes,
            unused_qualifications,
            clippy::absolute_paths,
            clippy::too_many_lines,
        )]
        const _: () = {
            use #krate::__private::serde as __serde;

            #no_drop_items

            #field_checks

            #identifier

            #shared_visitor

            #[automatically_derived]
            impl #impl_generics #krate::ArenaDeserialize<#bump, #arena> for #this_ty #impl_where {
                #read

                #content

                #flat_fields

                #json
            }
        };
    })
}

/// `fn name(__arena, __deserializer) -> Result<Self, __D::Error> { body }`, a method of the
/// impl reading the type, with `attrs` (`#[inline]`) before it.
fn read_fn(
    params: &Params,
    attrs: &TokenStream,
    name: &syn::Ident,
    body: &TokenStream,
) -> TokenStream {
    let Params { bump, arena, .. } = params;
    quote! {
        #attrs
        fn #name<'__de, __D>(
            __arena: &#bump #arena,
            __deserializer: __D,
        ) -> ::core::result::Result<Self, __D::Error>
        where
            __D: __serde::Deserializer<'__de>,
        {
            #body
        }
    }
}

/// A type's two reads with one visitor, generic over the read mode (`arena_core`'s
/// `ReadMode`), where they can share it: a struct with named fields read as itself
/// ([`struct_::shares_visitor`]) or an externally tagged enum
/// ([`enum_externally::shares_visitor`]). The visitor's items, the serde path's body and the
/// content path's.
fn shared(params: &Params, cont: &Container) -> Option<(TokenStream, TokenStream, TokenStream)> {
    if cont.attrs.conversion.is_some() || cont.attrs.transparent.is_some() {
        return None;
    }
    match &cont.data {
        Data::Struct(Style::Struct, fields) if struct_::shares_visitor(fields) => {
            Some(struct_::shared(params, &cont.attrs, fields, cont.ident))
        }
        Data::Enum(_) if enum_externally::shares_visitor(cont) => {
            Some(enum_externally::shared(params, cont))
        }
        _ => None,
    }
}

/// Whether the type is built in a slot (`__deserialize_into`, see `arena_core`'s `slot`
/// module): a struct with named fields, none flattened, read as itself. Such structs are the
/// elements of the large slices of a document; the other shapes return their value.
fn builds_in_slot(cont: &Container) -> bool {
    if cont.attrs.conversion.is_some() || cont.attrs.transparent.is_some() {
        return false;
    }
    matches!(&cont.data, Data::Struct(Style::Struct, fields) if !flatten::has_flatten(fields))
}

/// The statements reading the type from `__deserializer` (into `__arena`), as `params` says:
/// straight from the format, or as serde reads back its buffer.
fn body(params: &Params, cont: &Container) -> TokenStream {
    match &cont.data {
        _ if cont.attrs.conversion.is_some() => conversion(params, cont),
        Data::Struct(_, fields) if cont.attrs.transparent.is_some() => transparent(params, fields),
        Data::Struct(Style::Struct, fields) => {
            struct_::deserialize(params, &cont.attrs, fields, &Form::Struct(cont.ident))
        }
        Data::Struct(Style::Tuple | Style::Newtype, fields) => {
            tuple::deserialize(params, &cont.attrs, fields, &Form::Struct(cont.ident))
        }
        Data::Struct(Style::Unit, _) => unit_struct(params, &cont.attrs),
        Data::Enum(_) => enum_::deserialize(params, cont),
    }
}

/// The identifier the bodies (the serde path's and the buffered content's) share: a struct
/// with named fields' field identifier, or an enum's variant identifier
/// ([`enum_::shares_identifier`]).
fn shared_identifier(params: &Params, cont: &Container) -> Option<TokenStream> {
    if cont.attrs.conversion.is_some() || cont.attrs.transparent.is_some() {
        return None;
    }
    match &cont.data {
        Data::Struct(Style::Struct, fields) => Some(struct_::identifier_items(
            &params.krate,
            &cont.attrs,
            fields,
        )),
        Data::Enum(_) => enum_::shared_identifier(params, cont),
        Data::Struct(..) => None,
    }
}

/// The body of `__deserialize_content_in`, reading as serde reads back its buffer, where it
/// differs from the trait's default (buffer the value, replay it): the structs and the
/// externally and adjacently tagged enums read straight from the input; internally tagged and
/// untagged enums read as they always do, which is already how they read from serde's buffer.
fn content_body(params: &Params, cont: &Container) -> Option<TokenStream> {
    if cont.attrs.conversion.is_some() || cont.attrs.transparent.is_some() {
        return None;
    }
    match &cont.data {
        Data::Struct(..) => Some(body(params, cont)),
        Data::Enum(variants) => {
            if variants.iter().any(|v| v.attrs.untagged.is_some()) {
                return match cont.attrs.tagging {
                    attr::Tagging::Untagged => Some(delegate_to_deserialize_in()),
                    _ => None,
                };
            }
            match cont.attrs.tagging {
                attr::Tagging::External | attr::Tagging::Adjacent { .. } => {
                    Some(body(params, cont))
                }
                attr::Tagging::Internal { .. } | attr::Tagging::Untagged => {
                    Some(delegate_to_deserialize_in())
                }
            }
        }
    }
}

/// `const __FLAT_BY_NAME` and `fn __flat_field`, for a struct with named fields and none
/// flattened, read as itself: flattened into another struct, it takes the entries named in its
/// `FIELDS` (aliases included), as serde's flattened deserializer hands them to it, and tells
/// them apart by the names (`arena_core`'s `flat_field_in`, shared by every struct).
fn flat_fields(krate: &TokenStream, cont: &Container) -> Option<TokenStream> {
    if cont.attrs.conversion.is_some() || cont.attrs.transparent.is_some() {
        return None;
    }
    let Data::Struct(Style::Struct, fields) = &cont.data else {
        return None;
    };
    if flatten::has_flatten(fields) {
        return None;
    }
    let names: Vec<&String> = deserialized_fields(fields)
        .flat_map(|(_, field)| field.attrs.aliases.iter())
        .collect();
    Some(quote! {
        const __FLAT_BY_NAME: bool = true;

        #[inline]
        fn __flat_field(__key: &[u8]) -> ::core::option::Option<&'static str> {
            #krate::__private::flat_field_in(&[#(#names),*], __key)
        }
    })
}

/// `Self::deserialize_in(__arena, __deserializer)`.
fn delegate_to_deserialize_in() -> TokenStream {
    quote! {
        <Self>::deserialize_in(__arena, __deserializer)
    }
}

/// What is being built, and from what: a struct (its name) or an enum variant
/// (`Enum::Variant`), read as its representation reads it.
pub enum Form<'a> {
    /// A struct, from the deserializer `__deserializer`.
    Struct(&'a syn::Ident),
    /// A variant whose content comes from the `VariantAccess` `__variant` (externally tagged
    /// enums).
    Variant(&'a syn::Ident, &'a syn::Ident),
    /// A struct variant of an internally tagged enum: `deserialize_any` on `__deserializer`,
    /// the rest of the map (or sequence) the tag was found in.
    InternallyTagged(&'a syn::Ident, &'a syn::Ident),
    /// An untagged variant, or an adjacently tagged variant's content: `deserialize_any` on
    /// `__deserializer`, with no `visit_seq` for a struct variant (serde_derive's
    /// `StructForm::Untagged`).
    Untagged(&'a syn::Ident, &'a syn::Ident),
}

impl Form<'_> {
    /// The path to construct the value with.
    fn path(&self) -> TokenStream {
        match self {
            Self::Struct(ident) => quote!(#ident),
            Self::Variant(ident, variant)
            | Self::InternallyTagged(ident, variant)
            | Self::Untagged(ident, variant) => quote!(#ident::#variant),
        }
    }

    /// `struct City`, `struct variant Shape::Circle` (with `kind` = "struct").
    fn expecting(&self, kind: &str, cattrs: &attr::Container) -> String {
        if let Some(expecting) = &cattrs.expecting {
            return expecting.clone();
        }
        match self {
            Self::Struct(ident) => format!("{kind} {ident}"),
            Self::Variant(ident, variant)
            | Self::InternallyTagged(ident, variant)
            | Self::Untagged(ident, variant) => format!("{kind} variant {ident}::{variant}"),
        }
    }
}

/// `__field0`, `__field1` ...: the local holding field (or variant) `i`.
fn field_i(i: usize) -> syn::Ident {
    format_ident!("__field{}", i)
}

/// Declares the visitor (or seed) struct `name`, carrying the arena, the type's generics and
/// `fields` (`name: Type,` each).
fn visitor_struct(params: &Params, name: &syn::Ident, fields: &TokenStream) -> TokenStream {
    // A visitor generic over the read mode carries it (see `Params::read_mode`).
    let mode = params
        .mode_param
        .then(|| quote!(__mode: ::core::marker::PhantomData<fn() -> __M>,));
    let Params {
        bump,
        arena,
        impl_generics,
        this_ty,
        struct_where,
        ..
    } = params;
    quote! {
        #[doc(hidden)]
        struct #name #impl_generics #struct_where {
            __arena: &#bump #arena,
            #mode
            #fields
            __marker: ::core::marker::PhantomData<fn() -> #this_ty>,
        }
    }
}

/// Declares the visitor `__Visitor` for the type being derived, with `methods` after
/// `expecting`, and returns it with the expression that builds it from `__arena`.
fn visitor(params: &Params, expecting: &str, methods: &TokenStream) -> (TokenStream, TokenStream) {
    let none = TokenStream::new();
    visitor_with(params, expecting, methods, (&none, &none))
}

/// [`visitor`], the struct carrying `fields` too (`name: Type,` each), built with `values`
/// (`name: value,` each).
fn visitor_with(
    params: &Params,
    expecting: &str,
    methods: &TokenStream,
    (fields, values): (&TokenStream, &TokenStream),
) -> (TokenStream, TokenStream) {
    let Params {
        de_impl_generics,
        helper_ty_generics,
        impl_where,
        this_ty,
        ..
    } = params;
    let name = format_ident!("__Visitor");
    let decl = visitor_struct(params, &name, fields);
    let items = quote! {
        #decl

        #[automatically_derived]
        impl #de_impl_generics __serde::de::Visitor<'__de> for #name #helper_ty_generics #impl_where {
            type Value = #this_ty;

            fn expecting(&self, __formatter: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                ::core::fmt::Formatter::write_str(__formatter, #expecting)
            }

            #methods
        }
    };
    (items, visitor_value(params, &name, values))
}

/// Builds the visitor struct `name` with the arena in `__arena` and `values` (`name: value,`
/// each), naming every type argument: a `DeserializeSeed`'s `Value` (a field type) may not
/// name them all, as serde_derive's `__DeserializeWith` is named with all the container's
/// generics.
fn visitor_value(params: &Params, name: &syn::Ident, values: &TokenStream) -> TokenStream {
    let turbofish = &params.helper_turbofish;
    let mode = params
        .mode_param
        .then(|| quote!(__mode: ::core::marker::PhantomData,));
    quote! {
        #name #turbofish {
            __arena,
            #mode
            #values
            __marker: ::core::marker::PhantomData,
        }
    }
}

/// Builds the visitor `__Visitor` generic over the read mode (see `Params::read_mode`) in
/// `mode` (`Direct` or `Content`), as [`visitor_value`] builds any other.
fn mode_visitor_value(params: &Params, mode: &str) -> TokenStream {
    let params = Params {
        helper_turbofish: params.mode_turbofish(mode),
        mode_param: true,
        ..params.clone()
    };
    visitor_value(&params, &format_ident!("__Visitor"), &TokenStream::new())
}

/// A `Result<FieldType, _>` expression reading `field` from `deserializer` into the arena
/// `__arena`, as [`Field::read`] says.
fn deserialize_field(params: &Params, field: &Field, deserializer: &TokenStream) -> TokenStream {
    let Params {
        krate, bump, arena, ..
    } = params;
    let ty = field.ty;
    if params.content && !matches!(field.read(), Read::Arena) {
        let seed = field_seed(params, field);
        return quote!(__serde::de::DeserializeSeed::deserialize(#seed, #deserializer));
    }
    match field.read() {
        Read::Arena if params.content => {
            let deserialize_in = quote_spanned! {field.original.span()=>
                <#ty as #krate::ArenaDeserialize<#bump, #arena>>::__deserialize_content_in
            };
            quote!(#deserialize_in(__arena, #deserializer))
        }
        Read::Arena => {
            let deserialize_in = quote_spanned! {field.original.span()=>
                <#ty as #krate::ArenaDeserialize<#bump, #arena>>::deserialize_in
            };
            quote!(#deserialize_in(__arena, #deserializer))
        }
        Read::With(with) => call_with(with, deserializer),
        Read::EmptyArray | Read::Serde(None) => {
            let deserialize = quote_spanned! {field.original.span()=>
                <#ty as __serde::Deserialize>::deserialize
            };
            quote!(#deserialize(#deserializer))
        }
        Read::Serde(Some(with)) => {
            let path = &with.path;
            quote!(#path(#deserializer))
        }
    }
}

/// A `DeserializeSeed` expression reading `field` into the arena `__arena`, preceded by the
/// items it needs (a wrapper calling the `deserialize_with` function).
fn field_seed(params: &Params, field: &Field) -> TokenStream {
    let Params { krate, arena, .. } = params;
    let ty = field.ty;
    if params.content && !matches!(field.read(), Read::Arena) {
        // A field the derive cannot see into is buffered and its replay read as usual.
        let seed = field_seed(&params.direct(), field);
        return quote!(#krate::__private::BufferedSeed::new(__arena, #seed));
    }
    match field.read() {
        Read::Arena if params.content => {
            let new = quote_spanned!(field.original.span()=> #krate::__private::ContentSeed::<#ty, #arena>::new);
            quote!(#new(__arena))
        }
        Read::Arena if params.mode_param => {
            let new = quote_spanned!(field.original.span()=> <__M as #krate::__private::ReadMode>::seed::<#ty, #arena>);
            quote!(#new(__arena))
        }
        Read::Arena => {
            let new = quote_spanned!(field.original.span()=> #krate::__private::NestedSeed::<#ty, #arena>::new);
            quote!(#new(__arena))
        }
        // serde's `PhantomData<T>` seed reads a `T: Deserialize`.
        Read::EmptyArray | Read::Serde(None) => quote!(::core::marker::PhantomData::<#ty>),
        Read::Serde(Some(with)) => {
            let path = &with.path;
            let call = quote! {
                let _ = __arena;
                #path(__deserializer)
            };
            let (wrapper, value) = arena_seed(params, "__DeserializeWith", &quote!(#ty), &call);
            quote!({
                #wrapper

                #value
            })
        }
        Read::With(with) => {
            let call = call_with(with, &quote!(__deserializer));
            let (wrapper, value) = arena_seed(params, "__DeserializeWith", &quote!(#ty), &call);
            quote!({
                #wrapper

                #value
            })
        }
    }
}

/// Whether `field` is read into a `FieldSlot` (see `arena_core`'s `slot` module) rather than
/// returned into an `Option` or a local: a field read into the arena through its
/// `ArenaDeserialize` impl, straight from the format, unless it is a primitive or a reference
/// (a string, a slice), which come back in registers.
fn in_field_slot(params: &Params, field: &Field) -> bool {
    !params.content
        && matches!(field.read(), Read::Arena)
        && !crate::bound::is_primitive(field.ty)
        && !matches!(field.ty, syn::Type::Reference(_))
}

/// Declares the seed struct `name`, carrying the arena and the type's generics, whose
/// `deserialize` evaluates `body` to a `Result<value_ty, __D::Error>`, with the arena in
/// `__arena` and the deserializer in `__deserializer`; returns it with the expression that
/// builds it from `__arena`.
fn arena_seed(
    params: &Params,
    name: &str,
    value_ty: &TokenStream,
    body: &TokenStream,
) -> (TokenStream, TokenStream) {
    let Params {
        bump,
        arena,
        de_impl_generics,
        helper_ty_generics,
        impl_where,
        ..
    } = params;
    let name = format_ident!("{}", name);
    let decl = visitor_struct(params, &name, &TokenStream::new());
    let items = quote! {
        #decl

        #[automatically_derived]
        impl #de_impl_generics __serde::de::DeserializeSeed<'__de> for #name #helper_ty_generics #impl_where {
            type Value = #value_ty;

            fn deserialize<__D>(self, __deserializer: __D) -> ::core::result::Result<#value_ty, __D::Error>
            where
                __D: __serde::Deserializer<'__de>,
            {
                let __arena: &#bump #arena = self.__arena;
                #body
            }
        }
    };
    (items, visitor_value(params, &name, &TokenStream::new()))
}

/// `path(deserializer, __arena)`, the path keeping its span so a wrong signature points at it.
///
/// Only paths and types carry the user's spans in generated code: a local variable spanned on
/// tokens from a `macro_rules!` expansion would not resolve.
fn call_with(with: &attr::DeserializeWith, deserializer: &TokenStream) -> TokenStream {
    let path = &with.path;
    quote!(#path(#deserializer, __arena))
}

/// The value of field `field` when the input lacks it, in a `visit_map`.
fn missing_in_map(params: &Params, field: &Field) -> TokenStream {
    if let Some(default) = explicit_default(field) {
        return default;
    }
    let name = &field.attrs.name;
    let Params { krate, arena, .. } = params;
    let ty = field.ty;
    // serde's `missing_field` is an error for every type but `Option`, and for these types
    // there and then, with no `missing_field` call compiled for the type.
    if refuses_missing(field) {
        return quote! {
            return ::core::result::Result::Err(
                <__A::Error as __serde::de::Error>::missing_field(#name),
            )
        };
    }
    if let Read::Serde(None) = field.read() {
        let missing_field = quote_spanned! {field.original.span()=>
            #krate::__private::missing_field_serde::<#ty, __A::Error>
        };
        return quote!(#missing_field(#name)?);
    }
    let missing_field = quote_spanned! {field.original.span()=>
        #krate::__private::missing_field::<#ty, #arena, __A::Error>
    };
    quote!(#missing_field(__arena, #name)?)
}

/// Whether a missing `field` is serde's `missing_field` error whatever it reads: a field read
/// by anything but its `ArenaDeserialize` or `Deserialize` impl, or one whose type reads no
/// `Option` (`MissingFieldDeserializer` answers only `deserialize_option` with a value): a
/// primitive, a `&str` or a reference to a slice.
pub fn refuses_missing(field: &Field) -> bool {
    if !matches!(field.read(), Read::Arena | Read::Serde(None)) {
        return true;
    }
    if crate::bound::is_primitive(field.ty) {
        return true;
    }
    let syn::Type::Reference(reference) = field.ty else {
        return false;
    };
    match &*reference.elem {
        syn::Type::Slice(_) => true,
        syn::Type::Path(path) => path.qself.is_none() && path.path.is_ident("str"),
        _ => false,
    }
}

/// The field's own default, or the container's, if there is one.
fn explicit_default(field: &Field) -> Option<TokenStream> {
    match &field.attrs.default {
        attr::Default::Trait => Some(quote_spanned! {field.original.span()=>
            ::core::default::Default::default()
        }),
        attr::Default::Path(path) => Some(quote_spanned!(path.span()=> #path())),
        attr::Default::None => None,
    }
}

/// The value of a skipped field, or of a field missing from the input, when the field or the
/// container gives a default.
fn default_value(field: &Field, cattrs: &attr::Container) -> Option<TokenStream> {
    explicit_default(field).or_else(|| {
        if cattrs.default.is_none() {
            None
        } else {
            let member = &field.member;
            Some(quote!(__default.#member))
        }
    })
}

/// `let var = ...;`: the field's value from `value` (an `Option` of it), or `missing` when the
/// input lacked it.
fn read_or_missing(var: &syn::Ident, value: &TokenStream, missing: &TokenStream) -> TokenStream {
    quote! {
        let #var = match #value {
            ::core::option::Option::Some(#var) => #var,
            ::core::option::Option::None => #missing,
        };
    }
}

/// The members of a struct with named `fields` (`member: value`): a deserialized field from
/// its variable (`__field{i}`), a skipped one from its default.
fn members(fields: &[Field], cattrs: &attr::Container) -> Vec<TokenStream> {
    fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let member = &field.member;
            if field.attrs.skip_deserializing {
                let value = default_value(field, cattrs)
                    .unwrap_or_else(|| quote!(::core::default::Default::default()));
                quote!(#member: #value)
            } else {
                let var = field_i(i);
                quote!(#member: #var)
            }
        })
        .collect()
}

/// `let __default = ...;` when the container has a default.
fn let_default(cattrs: &attr::Container, this_ty: &TokenStream) -> TokenStream {
    match &cattrs.default {
        attr::Default::None => TokenStream::new(),
        attr::Default::Trait => quote! {
            let __default: #this_ty = ::core::default::Default::default();
        },
        attr::Default::Path(path) => quote! {
            let __default: #this_ty = #path();
        },
    }
}

/// The `visit_seq` method reading `fields` in order; `expecting` names the whole value.
fn visit_seq(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    path: &TokenStream,
    is_struct: bool,
    expecting: &str,
) -> TokenStream {
    let seq_var = if deserialized_fields(fields).next().is_none() {
        quote!(_)
    } else {
        quote!(mut __seq)
    };
    let body = visit_seq_body(params, cattrs, fields, path, is_struct, expecting);
    quote! {
        #[inline]
        fn visit_seq<__A>(self, #seq_var: __A) -> ::core::result::Result<Self::Value, __A::Error>
        where
            __A: __serde::de::SeqAccess<'__de>,
        {
            let __arena = self.__arena;
            #body
        }
    }
}

/// The body of `visit_seq`.
fn visit_seq_body(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    path: &TokenStream,
    is_struct: bool,
    expecting: &str,
) -> TokenStream {
    let deserialized = deserialized_fields(fields).count();
    let expecting = cattrs.expecting.clone().unwrap_or_else(|| {
        if deserialized == 1 {
            format!("{expecting} with 1 element")
        } else {
            format!("{expecting} with {deserialized} elements")
        }
    });
    let mut index_in_seq = 0_usize;
    // The fields read into slots, moved out once all are read.
    let mut take = Vec::new();
    let lets = fields.iter().enumerate().map(|(i, field)| {
        let var = field_i(i);
        if field.attrs.skip_deserializing {
            let value = default_value(field, cattrs)
                .unwrap_or_else(|| quote!(::core::default::Default::default()));
            return quote!(let #var = #value;);
        }
        let index = index_in_seq;
        index_in_seq += 1;
        let default = default_value(field, cattrs);
        // Through the mode's `next_element` where the field reads through `ArenaDeserialize`:
        // a call per field, shared by every struct with a field of the type.
        let arena_read = matches!(field.read(), Read::Arena);
        let mode = params.mode();
        let ty = field.ty;
        let seed = (!arena_read).then(|| field_seed(params, field));
        let missing_error = quote! {
            return ::core::result::Result::Err(
                __serde::de::Error::invalid_length(#index, &#expecting),
            )
        };
        // Read in its slot, and moved out of it only to build the value: with no default, a
        // missing element is an error there and then, so the slot is filled once past it.
        if in_field_slot(params, field) && default.is_none() {
            let krate = &params.krate;
            let error = &missing_error;
            take.push(quote! {
                let #var = match #krate::__private::FieldSlot::take(#var) {
                    ::core::option::Option::Some(__value) => __value,
                    ::core::option::Option::None => #error,
                };
            });
            let next = if arena_read {
                let next = quote_spanned!(field.original.span()=> #mode::next_element_in_slot::<#ty, _, _>);
                quote!(#next(&mut __seq, __arena, &mut #var))
            } else {
                quote! {
                    __serde::de::SeqAccess::next_element_seed(
                        &mut __seq,
                        #krate::__private::FieldSlot::seed(&mut #var, #seed),
                    )
                }
            };
            return quote! {
                let mut #var = #krate::__private::FieldSlot::<#ty>::new();
                if #next?.is_none() {
                    #error;
                }
            };
        }
        let missing = default.unwrap_or(missing_error);
        let next = if arena_read {
            let next = quote_spanned!(field.original.span()=> #mode::next_element::<#ty, _, _>);
            quote!(#next(&mut __seq, __arena))
        } else {
            quote!(__serde::de::SeqAccess::next_element_seed(&mut __seq, #seed))
        };
        quote! {
            let #var = match #next? {
                ::core::option::Option::Some(__value) => __value,
                ::core::option::Option::None => #missing,
            };
        }
    });
    let lets: Vec<TokenStream> = lets.collect();
    let vars = (0..fields.len()).map(field_i);
    let result = if is_struct {
        let members = fields.iter().map(|f| &f.member);
        quote!(#path { #(#members: #vars),* })
    } else {
        quote!(#path ( #(#vars),* ))
    };
    let let_default = let_default(cattrs, &params.this_ty);
    quote! {
        #let_default
        #(#lets)*
        #(#take)*
        ::core::result::Result::Ok(#result)
    }
}

/// `#[arena(transparent)]`: the one field that allows it ([`Field::allows_transparent`]) is
/// read as the whole value, the others are built from their defaults.
fn transparent(params: &Params, fields: &[Field]) -> TokenStream {
    let mut read = None;
    let members = fields.iter().map(|field| {
        let member = &field.member;
        if !field.allows_transparent() {
            // Without a default of its own (a `PhantomData`, or a skipped field of a container
            // with a `default`): `Default::default()`.
            let value = explicit_default(field)
                .unwrap_or_else(|| quote!(::core::default::Default::default()));
            quote!(#member: #value)
        } else {
            read = Some(deserialize_field(params, field, &quote!(__deserializer)));
            quote!(#member: __transparent)
        }
    });
    let members: Vec<TokenStream> = members.collect();
    quote! {
        ::core::result::Result::map(#read, |__transparent| Self { #(#members),* })
    }
}

/// `from = "Type"` / `try_from = "Type"`: a `Type` read into the arena, then converted with
/// `From` or `TryFrom` (whose error becomes the format's `custom` error), as serde_derive does.
fn conversion(params: &Params, cont: &Container) -> TokenStream {
    let Params {
        krate, bump, arena, ..
    } = params;
    let Some(conversion) = &cont.attrs.conversion else {
        return TokenStream::new();
    };
    let ty = &conversion.ty;
    let read = quote_spanned! {ty.span()=>
        <#ty as #krate::ArenaDeserialize<#bump, #arena>>::deserialize_in(__arena, __deserializer)
    };
    if conversion.fallible {
        quote! {
            ::core::result::Result::and_then(#read, |__value| {
                ::core::result::Result::map_err(
                    ::core::convert::TryFrom::try_from(__value),
                    <__D::Error as __serde::de::Error>::custom,
                )
            })
        }
    } else {
        quote!(::core::result::Result::map(#read, ::core::convert::From::from))
    }
}

/// A unit struct: `deserialize_unit_struct`, accepting a unit.
fn unit_struct(params: &Params, cattrs: &attr::Container) -> TokenStream {
    let expecting = Form::Struct(&syn::Ident::new(
        &params.type_name,
        proc_macro2::Span::call_site(),
    ))
    .expecting("unit struct", cattrs);
    let name = &cattrs.name;
    let entry = params.entry(
        quote!(__serde::Deserializer::deserialize_unit_struct(__deserializer, #name, __Visitor)),
        "UnitStruct",
        &quote!(__Visitor),
    );
    quote! {
        #[doc(hidden)]
        struct __Visitor;

        #[automatically_derived]
        impl<'__de> __serde::de::Visitor<'__de> for __Visitor {
            type Value = ();

            fn expecting(&self, __formatter: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                ::core::fmt::Formatter::write_str(__formatter, #expecting)
            }

            #[inline]
            fn visit_unit<__E>(self) -> ::core::result::Result<(), __E>
            where
                __E: __serde::de::Error,
            {
                ::core::result::Result::Ok(())
            }
        }

        let _ = __arena;
        #entry?;
        ::core::result::Result::Ok(Self)
    }
}
