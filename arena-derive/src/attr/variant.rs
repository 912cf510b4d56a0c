//! Variant attributes: `#[arena(...)]` and `#[serde(...)]` on an enum variant.

use std::collections::BTreeSet;

use proc_macro2::Span;

use super::{
    Attr, Name, Naming, SpanOf, for_each_key, get_de_lit_str, rename_rule, skip_value, unknown_key,
    unraw, unsupported_key,
};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// Variant attributes.
pub struct Variant {
    /// The name on the wire, after `rename` and `rename_all`.
    pub name: Name,
    renamed: bool,
    /// Every name the variant is read from: `name` and the aliases, sorted.
    pub aliases: BTreeSet<String>,
    pub rename_all: RenameRule,
    pub skip_deserializing: bool,
    /// The span of `other`, when given.
    pub other: Option<Span>,
    /// The span of `untagged`, when given: the variant is read as an untagged enum's, after
    /// the tagged variants failed.
    pub untagged: Option<Span>,
}

const VARIANT_KEYS: &str =
    "`rename`, `alias`, `rename_all`, `skip`, `skip_deserializing`, `other`, `untagged`";

impl Variant {
    pub fn from_ast(cx: &Ctxt, variant: &syn::Variant) -> Self {
        let mut naming = Naming::new(cx);
        let mut rename_all = Attr::none(cx, "rename_all");
        let mut other = Attr::none(cx, "other");
        let mut untagged = Attr::none(cx, "untagged");

        for_each_key(cx, &variant.attrs, |ns, meta| {
            let path = &meta.path;
            if naming.parse_key(ns, meta)? {
                // rename, alias, skip, skip_deserializing: see `Naming::parse_key`
            } else if path.is_ident("rename_all") {
                // #[arena(rename_all = "camelCase")]
                if let Some(lit) = get_de_lit_str(cx, meta, "rename_all")? {
                    rename_all.set(ns, path, rename_rule(cx, Some(lit)));
                }
            } else if path.is_ident("other") {
                // #[arena(other)]
                other.set(ns, path, path.span_of());
            } else if path.is_ident("untagged") {
                // #[arena(untagged)]
                untagged.set(ns, path, path.span_of());
            } else if path.is_ident("skip_serializing") || path.is_ident("serialize_with") {
                // #[serde(skip_serializing)], #[serde(serialize_with = "f")]: serialize only
                skip_value(meta)?;
            } else if path.is_ident("borrow") {
                // #[arena(borrow)]: accepted, everything is in the arena anyway
                skip_value(meta)?;
            } else if ["deserialize_with", "with", "bound"]
                .iter()
                .any(|key| path.is_ident(key))
            {
                // #[serde(deserialize_with = "f")] and the other unimplemented variant keys
                unsupported_key(cx, meta, "variant");
                skip_value(meta)?;
            } else {
                unknown_key(cx, ns, meta, "variant", VARIANT_KEYS);
                skip_value(meta)?;
            }
            Ok(())
        });

        let renamed = naming.name.value.is_some();
        Self {
            name: naming.name.get().unwrap_or_else(|| Name {
                value: unraw(&variant.ident),
                span: variant.ident.span(),
            }),
            renamed,
            aliases: naming.aliases,
            rename_all: rename_all.get().unwrap_or(RenameRule::None),
            skip_deserializing: naming.skip_deserializing.get().is_some(),
            other: other.get(),
            untagged: untagged.get(),
        }
    }

    /// Applies the container's `rename_all` unless the variant is renamed, and adds the final
    /// name to the aliases, as serde does.
    pub fn rename_by_rule(&mut self, rule: RenameRule) {
        if !self.renamed {
            self.name.value = rule.apply_to_variant(&self.name.value);
        }
        self.aliases.insert(self.name.value.clone());
    }
}
