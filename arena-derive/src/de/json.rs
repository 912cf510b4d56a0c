//! The direct JSON path of a struct with named fields: `__deserialize_json_into`, through which
//! `arena_core::json::from_slice` reads the struct's object key by key with no serde visitor in
//! between (see `arena_core::json::Object`).
//!
//! The entry of the field expected next (the one after the field just read: a serializer
//! writes them in order) is recognized by comparing the input with it as a compact serializer
//! writes it, `,"name":`, in two masked words (`arena_core::json::Fields`, whose words the
//! derive packs from the fields' names: [`packed`]). Any other key is read whole and matched as
//! the field visitor matches it, the first field a name belongs to taking it. Each field's
//! value is read by one call (`JsonObject::read_field`), a function per field type that every
//! struct shares. The path is written only for structs whose fields all read through
//! `ArenaDeserialize`, and it refuses (`Refused`) every input it does not read as the serde
//! path reads it: a duplicate field, an unknown field under `deny_unknown_fields`, a missing
//! field without a default. The entry point then reads the input through serde_json and the
//! serde path, which gives the value or serde's error. Any other value than an object (a
//! struct also reads from an array) goes to the serde path over the same reader.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{
    builds_in_slot, default_value, field_i, let_default, members, read_or_missing, refuses_missing,
};
use crate::ast::{Container, Data, Field, Read, Style, deserialized_fields};
use crate::bound::Params;

/// `__deserialize_json_in` and `__deserialize_json_into` for a struct built in a slot whose
/// fields all read through `ArenaDeserialize`, inside `json_direct!` (nothing where
/// arena-core reads no JSON); `None` for every other type, which keeps the trait's defaults.
pub fn direct(params: &Params, cont: &Container) -> Option<TokenStream> {
    if !builds_in_slot(cont) {
        return None;
    }
    let Data::Struct(Style::Struct, fields) = &cont.data else {
        return None;
    };
    let own: Vec<(usize, &Field)> = deserialized_fields(fields).collect();
    if own
        .iter()
        .any(|(_, field)| !matches!(field.read(), Read::Arena))
    {
        return None;
    }
    let cattrs = &cont.attrs;
    let Params {
        krate, bump, arena, ..
    } = params;
    let refused = quote!(#krate::__private::JsonRefused);

    let let_values = own.iter().map(|&(i, field)| {
        let var = field_i(i);
        let ty = field.ty;
        quote!(let mut #var: ::core::option::Option<#ty> = ::core::option::Option::None;)
    });

    // Every name of every field (its own first, then its aliases), in the order of the
    // fields: the first field a name belongs to takes it, as in the field visitor's `match`.
    let names: Vec<(usize, &str)> = own
        .iter()
        .enumerate()
        .flat_map(|(n, &(_, field))| {
            let own_name = field.attrs.name.value.as_str();
            core::iter::once((n, own_name)).chain(
                field
                    .attrs
                    .aliases
                    .iter()
                    .filter(move |alias| alias.as_str() != own_name)
                    .map(move |alias| (n, alias.as_str())),
            )
        })
        .collect();
    // Each field's entry and key as the reader compares them (see `arena_core::json::Fields`),
    // for its own name; none where the name, or an alias of an earlier field, is taken by an
    // earlier field, which the name then means.
    let expected = own.iter().enumerate().map(|(n, &(_, field))| {
        let name = field.attrs.name.value.as_str();
        let first_owner = names
            .iter()
            .find(|&&(_, taken)| taken == name)
            .map(|&(m, _)| m);
        let owned = first_owner == Some(n);
        let before: &[u8] = if n == 0 { b"\"" } else { b",\"" };
        let entry = packed(owned, before, name.as_bytes(), b"\":");
        let key = packed(owned, b"", name.as_bytes(), b"\"");
        quote!([#entry, #key])
    });
    let count = own.len();
    let whole = names.iter().map(|&(n, name)| {
        let name = Literal::byte_string(name.as_bytes());
        quote!(#name => #n,)
    });

    // Each field's arm is one call, instantiated once per field type (not per struct).
    let arms = own.iter().enumerate().map(|(n, &(i, _))| {
        let var = field_i(i);
        // `__expected` set to a constant in each arm: computed from `__field` after the
        // `match`, it cost the city 2% more instructions.
        quote! {
            #n => {
                #krate::__private::JsonObject::read_field(&mut __object, __arena, &mut #var)?;
                __expected = #n + 1;
            }
        }
    });
    let unknown = if cattrs.deny_unknown_fields {
        quote!(return ::core::result::Result::Err(#refused);)
    } else {
        quote!(#krate::__private::JsonObject::skip_value(&mut __object)?;)
    };

    let extract = own.iter().map(|&(i, field)| {
        let var = field_i(i);
        let ty = field.ty;
        match default_value(field, cattrs) {
            Some(default) => read_or_missing(&var, &quote!(#var), &default),
            None if refuses_missing(field) => quote! {
                let #var = #krate::__private::JsonObject::required(#var)?;
            },
            None => {
                let name = &field.attrs.name;
                let missing = quote! {
                    #krate::__private::missing_field::<#ty, #arena, #refused>(__arena, #name)?
                };
                read_or_missing(&var, &quote!(#var), &missing)
            }
        }
    });
    let members = members(fields, cattrs);
    let let_default = let_default(cattrs, &params.this_ty);

    Some(quote! {
        #krate::__private::json_direct! {
            #[inline]
            fn __deserialize_json_in(
                __arena: &#bump #arena,
                __reader: &mut #krate::__private::JsonReader<'_>,
            ) -> ::core::result::Result<Self, #refused> {
                #krate::__private::json_via_slot(__arena, __reader)
            }

            #[allow(unreachable_patterns)]
            fn __deserialize_json_into<'__s>(
                __arena: &#bump #arena,
                __reader: &mut #krate::__private::JsonReader<'_>,
                __slot: #krate::__private::Slot<'__s, Self>,
            ) -> ::core::result::Result<#krate::__private::Filled<'__s>, #refused> {
                let ::core::option::Option::Some(mut __object) =
                    #krate::__private::JsonObject::open(&mut *__reader)?
                else {
                    return <Self as #krate::ArenaDeserialize<#bump, #arena>>::__deserialize_into(
                        __arena,
                        __reader,
                        __slot,
                    );
                };
                const __FIELDS: #krate::__private::JsonFields<#count> =
                    #krate::__private::JsonFields::new([#(#expected),*]);
                #(#let_values)*
                // The field after the one just read: a serializer writes them in order.
                let mut __expected: usize = 0;
                while let ::core::option::Option::Some(__field) =
                    #krate::__private::JsonObject::next_field(
                        &mut __object,
                        &__FIELDS,
                        __expected,
                        |__key| match __key {
                            #(#whole)*
                            _ => usize::MAX,
                        },
                    )?
                {
                    match __field {
                        #(#arms)*
                        _ => {
                            #unknown
                        }
                    }
                }
                #let_default
                #(#extract)*
                #krate::__private::JsonObject::close(__object)?;
                ::core::result::Result::Ok(__slot.write(Self { #(#members),* }))
            }
        }
    })
}

/// `before`, `name` and `after` in a row as `arena_core::json::Fields::new` takes them: a byte
/// string of 16, padded with zeros, and the length. The length is 0 (compared with nothing)
/// where the name is not `owned`, where the bytes are more than 16, or where JSON does not write
/// `name` as its own bytes (a quote, a backslash or a control character in it): only a name
/// with no escape is, and the quote after it then ends the string there.
fn packed(owned: bool, before: &[u8], name: &[u8], after: &[u8]) -> TokenStream {
    let bytes = [before, name, after].concat();
    let escaped = name.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20);
    let len = if !owned || escaped || bytes.len() > 16 {
        0
    } else {
        bytes.len()
    };
    let mut padded = [0u8; 16];
    padded[..len].copy_from_slice(&bytes[..len]);
    let (lo, hi) = padded.split_at(8);
    let lo = Literal::u64_unsuffixed(u64::from_le_bytes(lo.try_into().unwrap_or_default()));
    let hi = Literal::u64_unsuffixed(u64::from_le_bytes(hi.try_into().unwrap_or_default()));
    quote!((#lo, #hi, #len))
}
