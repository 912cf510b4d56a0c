//! Rules that span several items of the model, checked before any code is generated.

use crate::ast::{Container, Data, Read, Style};
use crate::ctxt::Ctxt;
use crate::types::global_alloc_types;

/// Runs every check, recording errors in `cx`.
pub fn check(cx: &Ctxt, cont: &Container) {
    check_global_alloc_fields(cx, cont);
    check_transparent(cx, cont);
    check_default(cx, cont);
    check_rename_all_fields(cx, cont);
    check_other(cx, cont);
}

/// A deserialized field holds no type that allocates with the global allocator, unless it is
/// read with `deserialize_with` or is an empty array (see [`Read`]).
fn check_global_alloc_fields(cx: &Ctxt, cont: &Container) {
    // A type without lifetime has none to suggest (the impl's own is internal): name `'bump`,
    // and say where it goes.
    let (bump, add_lifetime) = if cont.fresh_bump {
        (
            "'bump".to_owned(),
            format!(" (add the lifetime to the type: `{}<'bump>`)", cont.ident),
        )
    } else {
        (cont.bump.to_string(), String::new())
    };
    for field in cont.deserialized_fields() {
        if !matches!(field.read(), Read::Arena) {
            continue;
        }
        let mut found = Vec::new();
        global_alloc_types(field.ty, &bump, &mut found);
        for found in found {
            cx.error_spanned_by(
                found.ty,
                format!(
                    "`{}` allocates with the global allocator, not in the arena: use {} instead\
                     {add_lifetime}, or read it with `#[arena(deserialize_with = \"...\")]`",
                    found.name, found.instead
                ),
            );
        }
    }
}

/// `transparent` is for a struct with exactly one field that is neither skipped, nor has a
/// default, nor is a `PhantomData` (serde_derive's `check_transparent`): the whole value is read
/// as that field.
fn check_transparent(cx: &Ctxt, cont: &Container) {
    let Some(span) = cont.attrs.transparent else {
        return;
    };
    let message = match &cont.data {
        Data::Enum(_) => "`transparent` is for structs, not enums",
        Data::Struct(Style::Unit, _) => {
            "`transparent` is for structs with a field, not unit structs"
        }
        Data::Struct(..) => match cont.transparent_fields().count() {
            1 => return,
            0 => {
                "`transparent` needs one field that is neither skipped, nor has a default, nor \
                 is a `PhantomData`: the value is read as that field"
            }
            _ => {
                "`transparent` needs at most one field that is neither skipped, nor has a \
                 default, nor is a `PhantomData`: skip the others, or give them a default"
            }
        },
    };
    cx.syn_error(syn::Error::new(span, message));
}

/// A container `default` fills the missing fields of a struct, so it needs a struct with
/// fields.
fn check_default(cx: &Ctxt, cont: &Container) {
    let Some(span) = cont.attrs.default_span else {
        return;
    };
    match &cont.data {
        Data::Enum(_) => cx.syn_error(syn::Error::new(
            span,
            "`default` on a container is for structs, not enums: put it on fields",
        )),
        Data::Struct(Style::Unit, _) => cx.syn_error(syn::Error::new(
            span,
            "`default` on a container is for structs with fields, not unit structs",
        )),
        Data::Struct(..) => {}
    }
}

/// `rename_all_fields` renames the fields of enum variants, so it needs an enum.
fn check_rename_all_fields(cx: &Ctxt, cont: &Container) {
    if let (Some(span), Data::Struct(..)) = (cont.attrs.rename_all_fields_span, &cont.data) {
        cx.syn_error(syn::Error::new(
            span,
            "`rename_all_fields` is for enums: on a struct, use `rename_all`",
        ));
    }
}

/// `other` marks one unit variant, not skipped: the one every unknown variant is read as.
fn check_other(cx: &Ctxt, cont: &Container) {
    let Data::Enum(variants) = &cont.data else {
        return;
    };
    let mut seen = false;
    for variant in variants {
        let Some(span) = variant.attrs.other else {
            continue;
        };
        if variant.style != Style::Unit {
            let mut error = syn::Error::new(
                span,
                "`other` must be on a unit variant: the unknown variant's content is not kept",
            );
            error.combine(syn::Error::new_spanned(
                &variant.original.fields,
                "remove these fields, or `other`",
            ));
            cx.syn_error(error);
        }
        if variant.attrs.skip_deserializing {
            cx.syn_error(syn::Error::new(
                span,
                "`other` and `skip` conflict: a skipped variant is never read, so unknown \
                 variants would have nowhere to go",
            ));
        }
        if seen {
            cx.syn_error(syn::Error::new(span, "`other` may be on one variant only"));
        }
        seen = true;
    }
}
