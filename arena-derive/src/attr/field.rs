//! Field attributes: `#[arena(...)]` and `#[serde(...)]` on a struct or variant field.

use std::collections::BTreeSet;

use proc_macro2::Span;
use quote::ToTokens;
use syn::Token;

use super::{
    Attr, Default, Name, Naming, SpanOf, for_each_key, parse_lit_into, skip_value, unknown_key,
    unraw, unsupported_key,
};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// How a field is deserialized when `deserialize_with` or `with` is given.
#[derive(Clone)]
pub struct DeserializeWith {
    /// The function to call as `path(deserializer, arena)`.
    pub path: syn::ExprPath,
}

/// `#[arena(serde)]`: the field is read by its type's serde `Deserialize` (or a function with
/// serde's signature), not into the arena; the type must need no drop.
#[derive(Clone)]
pub struct ThroughSerde {
    /// The span of the `serde` key, for conflicts.
    pub span: Span,
    /// `serde(deserialize_with = "f")` or `serde(with = "m")`: the function to call as
    /// `path(deserializer)`, with serde's signature.
    pub with: Option<DeserializeWith>,
}

/// Field attributes.
pub struct Field {
    pub name: Name,
    renamed: bool,
    /// Every name the field is read from: `name` and the aliases, sorted.
    pub aliases: BTreeSet<String>,
    pub default: Default,
    pub skip_deserializing: bool,
    pub deserialize_with: Option<DeserializeWith>,
    /// `#[arena(serde)]`, when given (never together with `deserialize_with`).
    pub through_serde: Option<ThroughSerde>,
    /// The span of `flatten`, when given: the field's own fields (or entries) are read from
    /// the enclosing map.
    pub flatten: Option<Span>,
}

const FIELD_KEYS: &str = "`rename`, `alias`, `default`, `skip`, `skip_deserializing`, \
    `deserialize_with`, `with`, `serde`, `flatten`, `borrow`";

impl Field {
    pub fn from_ast(cx: &Ctxt, index: usize, field: &syn::Field) -> Self {
        let mut naming = Naming::new(cx);
        let mut default = Attr::none(cx, "default");
        let mut deserialize_with = Attr::none(cx, "deserialize_with");
        let mut with = Attr::none(cx, "with");
        let mut flatten = Attr::none(cx, "flatten");
        let mut through_serde = Attr::none(cx, "serde");

        for_each_key(cx, &field.attrs, |ns, meta| {
            let path = &meta.path;
            if naming.parse_key(ns, meta)? {
                // rename, alias, skip, skip_deserializing: see `Naming::parse_key`
            } else if path.is_ident("default") {
                // #[arena(default)] or #[arena(default = "path::to::function")]
                if meta.input.peek(Token![=]) {
                    default.set(ns, path, Default::Path(parse_lit_into(meta)?));
                } else {
                    default.set(ns, path, Default::Trait);
                }
            } else if path.is_ident("deserialize_with") {
                // #[arena(deserialize_with = "path::to::function")]
                let path_value: syn::ExprPath = parse_lit_into(meta)?;
                deserialize_with.set(ns, path, DeserializeWith { path: path_value });
            } else if path.is_ident("with") {
                // #[arena(with = "path::to::module")]: calls `module::deserialize`
                let mut module: syn::ExprPath = parse_lit_into(meta)?;
                module
                    .path
                    .segments
                    .push(syn::Ident::new("deserialize", Span::call_site()).into());
                with.set(ns, path, (DeserializeWith { path: module }, path.span_of()));
            } else if path.is_ident("serde") {
                // #[arena(serde)], #[arena(serde(deserialize_with = "path::to::function"))] or
                // #[arena(serde(with = "path::to::module"))]
                let with = serde_with(cx, meta)?;
                through_serde.set(
                    ns,
                    path,
                    ThroughSerde {
                        span: path.span_of(),
                        with,
                    },
                );
            } else if path.is_ident("borrow") {
                // #[arena(borrow)] or #[arena(borrow = "'a")]: accepted, no effect
                skip_value(meta)?;
            } else if [
                "skip_serializing",
                "skip_serializing_if",
                "serialize_with",
                "getter",
            ]
            .iter()
            .any(|key| path.is_ident(key))
            {
                // #[serde(skip_serializing_if = "f")] and the other serialize-only keys: ignored
                skip_value(meta)?;
            } else if path.is_ident("flatten") {
                // #[arena(flatten)]
                flatten.set(ns, path, path.span_of());
            } else if path.is_ident("bound") {
                // #[serde(bound = "...")] on a field: not implemented
                unsupported_key(cx, meta, "field");
                skip_value(meta)?;
            } else {
                unknown_key(cx, ns, meta, "field", FIELD_KEYS);
                skip_value(meta)?;
            }
            Ok(())
        });

        let renamed = naming.name.value.is_some();
        let deserialize_with = match (deserialize_with.get(), with.get()) {
            (Some(_), Some((with, span))) => {
                cx.syn_error(syn::Error::new(
                    span,
                    "`with` and `deserialize_with` conflict: `with = \"m\"` means \
                     `deserialize_with = \"m::deserialize\"`, give one of them",
                ));
                Some(with)
            }
            (one, other) => one.or(other.map(|(with, _)| with)),
        };
        let through_serde = through_serde.get();
        if let (Some(through_serde), Some(_)) = (&through_serde, &deserialize_with) {
            cx.syn_error(syn::Error::new(
                through_serde.span,
                "`serde` and `deserialize_with` conflict: for a function with serde's signature \
                 (no arena), write `serde(deserialize_with = \"...\")` and drop \
                 `deserialize_with`",
            ));
        }
        Self {
            name: naming.name.get().unwrap_or_else(|| match &field.ident {
                Some(ident) => Name {
                    value: unraw(ident),
                    span: ident.span(),
                },
                None => Name {
                    value: index.to_string(),
                    span: Span::call_site(),
                },
            }),
            renamed,
            aliases: naming.aliases,
            default: default.get().unwrap_or(Default::None),
            skip_deserializing: naming.skip_deserializing.get().is_some(),
            flatten: flatten.get(),
            deserialize_with,
            through_serde,
        }
    }

    /// Applies `rename_all` unless the field is renamed, and adds the final name to the
    /// aliases, as serde does.
    pub fn rename_by_rule(&mut self, rule: RenameRule) {
        if !self.renamed {
            self.name.value = rule.apply_to_field(&self.name.value);
        }
        self.aliases.insert(self.name.value.clone());
    }
}

/// The function inside `serde(...)`: none for a bare `serde`, else the one named by
/// `deserialize_with = "f"` (called as `f(deserializer)`) or `with = "m"` (`m::deserialize`).
fn serde_with(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta,
) -> syn::Result<Option<DeserializeWith>> {
    if !meta.input.peek(syn::token::Paren) {
        return Ok(None);
    }
    let mut with: Option<DeserializeWith> = None;
    meta.parse_nested_meta(|inner| {
        if with.is_some()
            && (inner.path.is_ident("deserialize_with") || inner.path.is_ident("with"))
        {
            cx.error_spanned_by(
                &inner.path,
                "`serde(...)` takes one function: `deserialize_with = \"f\"` or `with = \"m\"` \
                 (which means `deserialize_with = \"m::deserialize\"`), not both",
            );
            skip_value(&inner)?;
        } else if inner.path.is_ident("deserialize_with") {
            // #[arena(serde(deserialize_with = "path::to::function"))]
            let path: syn::ExprPath = parse_lit_into(&inner)?;
            with = Some(DeserializeWith { path });
        } else if inner.path.is_ident("with") {
            // #[arena(serde(with = "path::to::module"))]: calls `module::deserialize`
            let mut module: syn::ExprPath = parse_lit_into(&inner)?;
            module
                .path
                .segments
                .push(syn::Ident::new("deserialize", Span::call_site()).into());
            with = Some(DeserializeWith { path: module });
        } else {
            cx.error_spanned_by(
                &inner.path,
                format!(
                    "unknown key `{}` in `serde(...)`, expected `deserialize_with` or `with`",
                    inner.path.to_token_stream()
                ),
            );
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(with)
}
