//! Structs with named fields and struct variants: `visit_map` and `visit_seq`, or `visit_map`
//! only with a flattened field (see `flatten`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::flatten::{self, has_flatten, is_flattened};
use super::identifier::{self, Unknown};
use super::{
    Form, field_i, field_seed, in_field_slot, let_default, missing_in_map, visit_seq, visitor_with,
};
use crate::ast::{Field, Read, deserialized_fields};
use crate::attr;
use crate::bound::Params;

/// The statements reading a struct (`deserialize_struct`) or a struct variant
/// (`VariantAccess::struct_variant` on `__variant`) with `fields`; with a flattened field,
/// as a map (see [`flatten::dispatch`]).
pub fn deserialize(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    form: &Form,
) -> TokenStream {
    let flatten = has_flatten(fields);

    // A struct's identifier is the impl's (see [`identifier_items`]), shared by its bodies.
    let identifier =
        (!matches!(form, Form::Struct(_))).then(|| identifier_items(&params.krate, cattrs, fields));
    let (visitor, visitor_value) = visitor(params, cattrs, fields, form);
    let dispatch = match form {
        _ if flatten => flatten::dispatch(params, form, &visitor_value),
        Form::Struct(_) => {
            let name = &cattrs.name;
            let visitor_value = if params.into_slot {
                let krate = &params.krate;
                quote!(#krate::__private::SlotVisitor::new(#visitor_value, __slot))
            } else {
                visitor_value
            };
            params.entry(
                quote! {
                    __serde::Deserializer::deserialize_struct(__deserializer, #name, FIELDS, #visitor_value)
                },
                "Struct",
                &visitor_value,
            )
        }
        Form::Variant(..) => quote! {
            __serde::de::VariantAccess::struct_variant(__variant, FIELDS, #visitor_value)
        },
        Form::InternallyTagged(..) | Form::Untagged(..) => params.entry(
            quote! {
                __serde::Deserializer::deserialize_any(__deserializer, #visitor_value)
            },
            "Any",
            &visitor_value,
        ),
    };

    quote! {
        #identifier

        #visitor

        #dispatch
    }
}

/// Whether a struct with named `fields` shares one visitor between its serde path and its
/// content path ([`shared`]): none flattened, and every field read through its
/// `ArenaDeserialize` impl (a field read by serde or a `deserialize_with` function is read
/// through a buffer on the content path, which its seed does not say).
pub fn shares_visitor(fields: &[Field]) -> bool {
    !has_flatten(fields)
        && deserialized_fields(fields).all(|(_, field)| matches!(field.read(), Read::Arena))
}

/// A struct's two reads with one visitor, generic over the read mode (`__M`, see
/// `arena_core`'s `read_mode` module), for a struct that [`shares_visitor`]: the visitor's
/// items (declared beside the impl), the serde path's body (`deserialize_struct` with it in
/// `Direct` mode, into `__slot` when `params.into_slot`) and the content path's
/// (`deserialize_any` under the buffer's rules with it in `Content` mode).
pub fn shared(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    ident: &syn::Ident,
) -> (TokenStream, TokenStream, TokenStream) {
    let krate = &params.krate;
    let form = Form::Struct(ident);
    let mode = params.read_mode();
    let (visitor, _) = visitor(&mode, cattrs, fields, &form);
    let value = |mode: &str| super::mode_visitor_value(params, mode);
    let direct = value("Direct");
    let direct = if params.into_slot {
        quote!(#krate::__private::SlotVisitor::new(#direct, __slot))
    } else {
        direct
    };
    let name = &cattrs.name;
    let direct = quote! {
        __serde::Deserializer::deserialize_struct(__deserializer, #name, FIELDS, #direct)
    };
    let content = params
        .content()
        .entry(TokenStream::new(), "Struct", &value("Content"));
    (visitor, direct, content)
}

/// The visitor reading a struct or struct variant with `fields` (`visit_seq` unless it reads a
/// map only, and `visit_map`), and the expression building it.
fn visitor(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    form: &Form,
) -> (TokenStream, TokenStream) {
    let path = form.path();
    let expecting = form.expecting("struct", cattrs);
    let flatten = has_flatten(fields);

    // An untagged struct variant reads only a map, as serde_derive's does, and so does a
    // struct with a flattened field.
    let visit_seq = (!matches!(form, Form::Untagged(..)) && !flatten)
        .then(|| visit_seq(params, cattrs, fields, &path, true, &expecting));
    let visit_map = visit_map_body(params, cattrs, fields, &path, flatten);
    let human_readable = flatten.then(|| quote!(let __human_readable = self.__human_readable;));
    // The flattened fields read after the deserializer is gone: the visitor carries the
    // format's `is_human_readable` (the local `__human_readable`) to them.
    let (carried, carried_values) = if flatten {
        (quote!(__human_readable: bool,), quote!(__human_readable,))
    } else {
        (TokenStream::new(), TokenStream::new())
    };

    visitor_with(
        params,
        &expecting,
        &quote! {
            #visit_seq

            #[inline]
            fn visit_map<__A>(self, mut __map: __A) -> ::core::result::Result<Self::Value, __A::Error>
            where
                __A: __serde::de::MapAccess<'__de>,
            {
                let __arena = self.__arena;
                #human_readable
                #visit_map
            }
        },
        (&carried, &carried_values),
    )
}

/// The field identifier of a struct with named `fields` (the `__Field` enum, its visitor and
/// its `Deserialize` impl) and `const FIELDS` (none with a flattened field): the same for every
/// body reading the struct, so a struct declares them once, beside its impl, and a struct
/// variant in its body.
pub fn identifier_items(
    krate: &TokenStream,
    cattrs: &attr::Container,
    fields: &[Field],
) -> TokenStream {
    let flatten = has_flatten(fields);
    // The flattened fields have no key of their own.
    let idents: Vec<identifier::Ident> = deserialized_fields(fields)
        .filter(|(_, field)| !is_flattened(field))
        .map(|(i, field)| identifier::Ident {
            ident: field_i(i),
            aliases: &field.attrs.aliases,
        })
        .collect();
    let unknown = if flatten {
        Unknown::Collect
    } else if cattrs.deny_unknown_fields {
        Unknown::Error
    } else {
        Unknown::Ignore
    };
    let field_visitor = identifier::generate(krate, &idents, false, &unknown);
    let fields_const = (!flatten).then(|| identifier::names_const(&idents, false));
    quote! {
        #field_visitor

        #fields_const
    }
}

/// The body of `visit_map`: one `Option` (or `FieldSlot`) per field, filled key by key, then
/// the missing ones; with a flattened field (`flatten`), the other entries buffered, then the flattened fields
/// read from them.
fn visit_map_body(
    params: &Params,
    cattrs: &attr::Container,
    fields: &[Field],
    path: &TokenStream,
    flatten: bool,
) -> TokenStream {
    let deserialized: Vec<(usize, &Field)> = deserialized_fields(fields).collect();
    // The fields read from their own keys.
    let own: Vec<(usize, &Field)> = deserialized
        .iter()
        .copied()
        .filter(|(_, field)| !is_flattened(field))
        .collect();

    let krate = &params.krate;
    let let_values = own.iter().map(|&(i, field)| {
        let var = field_i(i);
        let ty = field.ty;
        if in_field_slot(params, field) {
            quote!(let mut #var = #krate::__private::FieldSlot::<#ty>::new();)
        } else {
            quote!(let mut #var: ::core::option::Option<#ty> = ::core::option::Option::None;)
        }
    });
    let mode = params.mode();
    let arms = own.iter().map(|&(i, field)| {
        let var = field_i(i);
        let name = &field.attrs.name;
        // Through the mode's `next_value` where the field reads through `ArenaDeserialize`:
        // a call per field, shared by every struct with a field of the type.
        let arena_read = matches!(field.read(), Read::Arena);
        let ty = field.ty;
        let seed = (!arena_read).then(|| field_seed(params, field));
        let (is_read, read) = if in_field_slot(params, field) {
            let read = if arena_read {
                let next =
                    quote_spanned!(field.original.span()=> #mode::next_value_in_slot::<#ty, _, _>);
                quote!(#next(&mut __map, __arena, &mut #var)?;)
            } else {
                quote! {
                    __serde::de::MapAccess::next_value_seed(
                        &mut __map,
                        #krate::__private::FieldSlot::seed(&mut #var, #seed),
                    )?;
                }
            };
            (quote!(#krate::__private::FieldSlot::is_filled(&#var)), read)
        } else {
            let value = if arena_read {
                let next = quote_spanned!(field.original.span()=> #mode::next_value::<#ty, _, _>);
                quote!(#next(&mut __map, __arena)?)
            } else {
                quote!(__serde::de::MapAccess::next_value_seed(&mut __map, #seed)?)
            };
            (
                quote!(::core::option::Option::is_some(&#var)),
                quote!(#var = ::core::option::Option::Some(#value);),
            )
        };
        quote! {
            __Field::#var => {
                if #is_read {
                    return ::core::result::Result::Err(
                        <__A::Error as __serde::de::Error>::duplicate_field(#name),
                    );
                }
                #read
            }
        }
    });
    let ignored_arm = if flatten {
        Some(flatten::collect_arm(params))
    } else {
        // serde's buffer read an unknown field's value whole, so reading as from it does too
        // (the `Content` mode's `skip_value`).
        (!cattrs.deny_unknown_fields).then(|| {
            quote! {
                _ => {
                    let _ = #mode::skip_value(&mut __map)?;
                }
            }
        })
    };
    let next_key = if flatten {
        let krate = &params.krate;
        flatten::next_key(&quote!(#krate::__private::no_flat_field))
    } else {
        // What serde's `MapAccess::next_key` does, spelled out: through serde's wrapper,
        // formats whose `next_key_seed` is large (sonic-rs's) leave the wrapper out of line, a
        // call per key.
        quote! {
            __serde::de::MapAccess::next_key_seed(
                &mut __map,
                #mode::key::<__Field>(),
            )?
        }
    };
    let arms: Vec<TokenStream> = arms.collect();
    let match_keys = if cattrs.deny_unknown_fields && deserialized.is_empty() {
        quote! {
            ::core::option::Option::map(
                __serde::de::MapAccess::next_key::<__Field>(&mut __map)?,
                |__impossible| match __impossible {},
            );
        }
    } else {
        quote! {
            while let ::core::option::Option::Some(__key) = #next_key {
                match __key {
                    #(#arms)*
                    #ignored_arm
                }
            }
        }
    };
    let extract = own.iter().map(|&(i, field)| {
        let var = field_i(i);
        let value = if in_field_slot(params, field) {
            quote!(#krate::__private::FieldSlot::take(#var))
        } else {
            quote!(#var)
        };
        let missing =
            super::default_value(field, cattrs).unwrap_or_else(|| missing_in_map(params, field));
        super::read_or_missing(&var, &value, &missing)
    });
    let members = super::members(fields, cattrs);
    let let_default = let_default(cattrs, &params.this_ty);
    let let_values: Vec<TokenStream> = let_values.collect();
    let extract: Vec<TokenStream> = extract.collect();
    let (let_collect, extract_flattened) = if flatten {
        (
            Some(flatten::let_collect(params)),
            Some(flatten::extract(params, cattrs, fields)),
        )
    } else {
        (None, None)
    };
    // With a flattened field, the first one may read its entries as the map is read.
    let match_keys = if flatten {
        flatten::drive_first(params, fields, &arms, &match_keys)
    } else {
        match_keys
    };
    quote! {
        #(#let_values)*
        #let_collect
        #match_keys
        #let_default
        #(#extract)*
        #extract_flattened
        ::core::result::Result::Ok(#path { #(#members),* })
    }
}
