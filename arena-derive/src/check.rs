//! Rules that span several items of the model, checked before any code is generated.

use crate::ast::{Container, Data, Read, Style};
use crate::attr::Tagging;
use crate::ctxt::Ctxt;
use crate::types::global_alloc_types;

/// Runs every check, recording errors in `cx`.
pub fn check(cx: &Ctxt, cont: &Container) {
    check_global_alloc_fields(cx, cont);
    check_transparent(cx, cont);
    check_default(cx, cont);
    check_rename_all_fields(cx, cont);
    check_other(cx, cont);
    check_tagging(cx, cont);
    check_untagged_variants(cx, cont);
    check_internal_tag_conflict(cx, cont);
    check_flatten(cx, cont);
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

/// `other` marks one unit variant, not skipped, the last: the one every unknown variant is read
/// as (serde_derive requires it last).
fn check_other(cx: &Ctxt, cont: &Container) {
    let Data::Enum(variants) = &cont.data else {
        return;
    };
    let mut seen = false;
    for (i, variant) in variants.iter().enumerate() {
        let Some(span) = variant.attrs.other else {
            continue;
        };
        if i + 1 < variants.len() {
            cx.syn_error(syn::Error::new(
                span,
                "`other` must be on the last variant: move this variant to the end",
            ));
        }
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

/// `tag`, `content` and `untagged` combine as serde_derive's `decide_tag` allows: `untagged` or
/// `tag` alone, or `tag` with `content`, on an enum; `tag` alone on a struct with named fields,
/// where it only names a key written by `Serialize` and reading ignores it. An internally
/// tagged enum has no tuple variants, and an adjacently tagged one two different keys.
fn check_tagging(cx: &Ctxt, cont: &Container) {
    let spans = &cont.attrs.tagging_spans;
    match (spans.untagged, spans.tag, spans.content) {
        (Some(untagged), Some(tag), _) => {
            for span in [untagged, tag] {
                cx.syn_error(syn::Error::new(
                    span,
                    "`untagged` and `tag` conflict: an enum is either untagged or tagged",
                ));
            }
        }
        (Some(untagged), None, Some(content)) => {
            for span in [untagged, content] {
                cx.syn_error(syn::Error::new(
                    span,
                    "`untagged` and `content` conflict: an untagged enum has no content key",
                ));
            }
        }
        (None, None, Some(content)) => cx.syn_error(syn::Error::new(
            content,
            "`content` needs `tag`: write `tag = \"...\", content = \"...\"` together",
        )),
        _ => {}
    }
    if let Data::Struct(style, _) = &cont.data {
        if let Some(untagged) = spans.untagged {
            cx.syn_error(syn::Error::new(
                untagged,
                "`untagged` is for enums, not structs",
            ));
        }
        if let Some(content) = spans.content {
            cx.syn_error(syn::Error::new(
                content,
                "`content` is for enums, not structs",
            ));
        }
        if let (Some(tag), Style::Tuple | Style::Newtype | Style::Unit) = (spans.tag, style) {
            cx.syn_error(syn::Error::new(
                tag,
                "`tag` is for enums and structs with named fields",
            ));
        }
        return;
    }
    let Data::Enum(variants) = &cont.data else {
        return;
    };
    match &cont.attrs.tagging {
        Tagging::Internal { .. } => {
            for variant in variants.iter().filter(|v| v.style == Style::Tuple) {
                cx.error_spanned_by(
                    variant.original,
                    "`tag` cannot be used with tuple variants: the variant's content is a map \
                     that holds the tag; make it a struct variant",
                );
            }
        }
        Tagging::Adjacent { tag, content } if tag == content => {
            if let Some(span) = spans.content {
                cx.syn_error(syn::Error::new(
                    span,
                    format!("`tag` and `content` are both `{tag}`: give them different keys"),
                ));
            }
        }
        _ => {}
    }
}

/// Variants marked `untagged` come after every other variant (they are tried after the tagged
/// ones fail, in order), and `other` has no place in an enum without tags.
fn check_untagged_variants(cx: &Ctxt, cont: &Container) {
    let Data::Enum(variants) = &cont.data else {
        return;
    };
    let mut seen_untagged = false;
    for variant in variants {
        if variant.attrs.untagged.is_some() {
            seen_untagged = true;
        } else if seen_untagged {
            cx.error_spanned_by(
                variant.ident,
                "variants marked `untagged` must come after every other variant: move this \
                 variant before them",
            );
        }
        let untagged =
            variant.attrs.untagged.is_some() || matches!(cont.attrs.tagging, Tagging::Untagged);
        if let (Some(span), true) = (variant.attrs.other, untagged) {
            cx.syn_error(syn::Error::new(
                span,
                "`other` cannot be on an untagged variant: there is no tag to be unknown",
            ));
        }
    }
}

/// The tag of an internally tagged enum is not also the name (or an alias) of a field of one
/// of its struct variants: the key would be ambiguous.
fn check_internal_tag_conflict(cx: &Ctxt, cont: &Container) {
    let (Tagging::Internal { tag }, Data::Enum(variants)) = (&cont.attrs.tagging, &cont.data)
    else {
        return;
    };
    let conflict = variants
        .iter()
        .filter(|v| v.style == Style::Struct && v.attrs.untagged.is_none())
        .filter(|v| !v.attrs.skip_deserializing)
        .flat_map(|v| &v.fields)
        .filter(|f| !f.attrs.skip_deserializing)
        .find(|f| f.attrs.aliases.contains(tag));
    if let Some(field) = conflict {
        cx.error_spanned_by(
            field.original,
            format!("this field's name `{tag}` is the enum's tag: rename the field or the tag"),
        );
    }
}

/// `flatten` is for fields with names: the fields of a struct or a struct variant.
fn check_flatten(cx: &Ctxt, cont: &Container) {
    let lists: Vec<(Style, &[crate::ast::Field])> = match &cont.data {
        Data::Struct(style, fields) => vec![(*style, fields.as_slice())],
        Data::Enum(variants) => variants
            .iter()
            .map(|v| (v.style, v.fields.as_slice()))
            .collect(),
    };
    for (style, fields) in lists {
        if !matches!(style, Style::Tuple | Style::Newtype) {
            continue;
        }
        for field in fields {
            if let Some(span) = field.attrs.flatten {
                cx.syn_error(syn::Error::new(
                    span,
                    "`flatten` is for named fields: a tuple's elements have no keys to merge",
                ));
            }
        }
    }
}
