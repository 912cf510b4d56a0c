//! Container attributes: `#[arena(...)]` and `#[serde(...)]` on the struct or enum itself.

use proc_macro2::Span;
use syn::Token;

use super::{
    Attr, Default, Name, Namespace, SpanOf, for_each_key, get_de_lit_str, get_lit_str,
    parse_lit_into, rename_rule, skip_value, unknown_key, unraw, unsupported_key,
};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// Container attributes.
pub struct Container {
    /// The name given to `deserialize_struct` / `deserialize_enum`.
    pub name: Name,
    pub rename_all: RenameRule,
    pub rename_all_fields: RenameRule,
    pub deny_unknown_fields: bool,
    pub default: Default,
    /// The span of `transparent`, when given.
    pub transparent: Option<Span>,
    pub bound: Option<Vec<syn::WherePredicate>>,
    pub expecting: Option<String>,
    pub krate: Option<syn::Path>,
    /// `#[arena(lifetime = "'a")]`: the arena lifetime, when the type has several.
    pub lifetime: Option<syn::Lifetime>,
    /// `#[arena(arena = "Type")]`: implement for this arena type only.
    pub arena: Option<syn::Type>,
    /// How an enum's variant is told on the wire: `tag`, `content` and `untagged`.
    pub tagging: Tagging,
    /// `from = "Type"` or `try_from = "Type"`: the value is read as `Type`, then converted.
    pub conversion: Option<Conversion>,
    /// The tokens of `#[arena(default)]` and `#[arena(rename_all_fields)]`, for checks.
    pub default_span: Option<Span>,
    pub rename_all_fields_span: Option<Span>,
    /// The tokens of `tag`, `content` and `untagged`, for checks.
    pub tagging_spans: TaggingSpans,
}

/// How an enum's variant is told on the wire, as serde_derive's `TagType` decides it.
#[derive(Clone)]
pub enum Tagging {
    /// `{"Variant": content}` (no attribute).
    External,
    /// `#[arena(tag = "t")]`: `{"t": "Variant", ...fields}`.
    Internal { tag: String },
    /// `#[arena(tag = "t", content = "c")]`: `{"t": "Variant", "c": content}`.
    Adjacent { tag: String, content: String },
    /// `#[arena(untagged)]`: the content alone, each variant tried in order.
    Untagged,
}

/// `#[arena(from = "Type")]` or `#[arena(try_from = "Type")]`: read a `Type` (which must be
/// `ArenaDeserialize`), then convert it with `From` or `TryFrom`, as serde_derive does.
#[derive(Clone)]
pub struct Conversion {
    /// The type read.
    pub ty: syn::Type,
    /// Whether the conversion is `TryFrom` (its error becomes the format's `custom` error).
    pub fallible: bool,
    /// The attribute's key, for checks.
    pub span: Span,
}

/// Where `tag`, `content` and `untagged` were written, when they were.
#[derive(Clone, Default)]
pub struct TaggingSpans {
    pub tag: Option<Span>,
    pub content: Option<Span>,
    pub untagged: Option<Span>,
}

const CONTAINER_KEYS: &str = "`rename`, `rename_all`, `rename_all_fields`, `deny_unknown_fields`, \
    `default`, `transparent`, `tag`, `content`, `untagged`, `from`, `try_from`, `bound`, \
    `expecting`, `crate`, `lifetime`, `arena`";

impl Container {
    pub fn from_ast(cx: &Ctxt, item: &syn::DeriveInput) -> Self {
        let mut name = Attr::none(cx, "rename");
        let mut rename_all = Attr::none(cx, "rename_all");
        let mut rename_all_fields = Attr::none(cx, "rename_all_fields");
        let mut deny_unknown_fields = Attr::none(cx, "deny_unknown_fields");
        let mut default = Attr::none(cx, "default");
        let mut transparent = Attr::none(cx, "transparent");
        let mut bound = Attr::none(cx, "bound");
        let mut expecting = Attr::none(cx, "expecting");
        let mut krate = Attr::none(cx, "crate");
        let mut lifetime = Attr::none(cx, "lifetime");
        let mut arena = Attr::none(cx, "arena");
        let mut tag = Attr::none(cx, "tag");
        let mut content = Attr::none(cx, "content");
        let mut untagged = Attr::none(cx, "untagged");
        let mut from = Attr::none(cx, "from");
        let mut try_from = Attr::none(cx, "try_from");
        let mut rename_all_fields_span = None;

        for_each_key(cx, &item.attrs, |ns, meta| {
            let path = &meta.path;
            if path.is_ident("rename") {
                // #[arena(rename = "name")] or #[arena(rename(deserialize = "name"))]
                if let Some(lit) = get_de_lit_str(cx, meta, "rename")? {
                    name.set(ns, path, Name::from_lit(&lit));
                }
            } else if path.is_ident("rename_all") {
                // #[arena(rename_all = "camelCase")] or #[arena(rename_all(deserialize = "..."))]
                if let Some(lit) = get_de_lit_str(cx, meta, "rename_all")? {
                    rename_all.set(ns, path, rename_rule(cx, Some(lit)));
                }
            } else if path.is_ident("rename_all_fields") {
                // #[arena(rename_all_fields = "camelCase")]
                if let Some(lit) = get_de_lit_str(cx, meta, "rename_all_fields")? {
                    rename_all_fields_span = Some(path.span_of());
                    rename_all_fields.set(ns, path, rename_rule(cx, Some(lit)));
                }
            } else if path.is_ident("deny_unknown_fields") {
                // #[arena(deny_unknown_fields)]
                deny_unknown_fields.set(ns, path, ());
            } else if path.is_ident("default") {
                // #[arena(default)] or #[arena(default = "path::to::function")]
                if meta.input.peek(Token![=]) {
                    default.set(
                        ns,
                        path,
                        (Default::Path(parse_lit_into(meta)?), path.span_of()),
                    );
                } else {
                    default.set(ns, path, (Default::Trait, path.span_of()));
                }
            } else if path.is_ident("transparent") {
                // #[arena(transparent)]
                transparent.set(ns, path, path.span_of());
            } else if path.is_ident("bound") && matches!(ns, Namespace::Serde) {
                // #[serde(bound = "T: Deserialize<'de>")]: bounds on serde's traits, ignored
                skip_value(meta)?;
            } else if path.is_ident("bound") {
                // #[arena(bound = "T: Trait")] or #[arena(bound(deserialize = "T: Trait"))]
                if let Some(lit) = get_de_lit_str(cx, meta, "bound")? {
                    let predicates = lit.parse_with(
                        syn::punctuated::Punctuated::<syn::WherePredicate, Token![,]>::parse_terminated,
                    )?;
                    bound.set(ns, path, predicates.into_iter().collect());
                }
            } else if path.is_ident("expecting") {
                // #[arena(expecting = "a description")]
                expecting.set(ns, path, get_lit_str(meta)?.value());
            } else if path.is_ident("crate") {
                // #[arena(crate = "path::to::arena_core")]
                krate.set(ns, path, parse_lit_into(meta)?);
            } else if path.is_ident("lifetime") {
                // #[arena(lifetime = "'a")]
                lifetime.set(ns, path, parse_lit_into(meta)?);
            } else if path.is_ident("arena") {
                // #[arena(arena = "bumpalo::Bump")]
                arena.set(ns, path, parse_lit_into(meta)?);
            } else if path.is_ident("tag") {
                // #[arena(tag = "type")]
                tag.set(ns, path, (get_lit_str(meta)?.value(), path.span_of()));
            } else if path.is_ident("content") {
                // #[arena(content = "data")]
                content.set(ns, path, (get_lit_str(meta)?.value(), path.span_of()));
            } else if path.is_ident("untagged") {
                // #[arena(untagged)]
                untagged.set(ns, path, path.span_of());
            } else if path.is_ident("from") {
                // #[arena(from = "Type")]
                from.set(ns, path, (parse_lit_into(meta)?, path.span_of()));
            } else if path.is_ident("try_from") {
                // #[arena(try_from = "Type")]
                try_from.set(ns, path, (parse_lit_into(meta)?, path.span_of()));
            } else if path.is_ident("into") {
                // #[serde(into = "Type")]: serialize only, ignored
                skip_value(meta)?;
            } else if ["remote"]
                .iter()
                .chain(&["field_identifier", "variant_identifier"])
                .any(|key| path.is_ident(key))
            {
                // #[serde(remote = "T")] and the other unimplemented container keys
                unsupported_key(cx, meta, "container");
                skip_value(meta)?;
            } else {
                unknown_key(cx, ns, meta, "container", CONTAINER_KEYS);
                skip_value(meta)?;
            }
            Ok(())
        });

        let (tag, content, untagged) = (tag.get(), content.get(), untagged.get());
        let tagging_spans = TaggingSpans {
            tag: tag.as_ref().map(|(_, span)| *span),
            content: content.as_ref().map(|(_, span)| *span),
            untagged,
        };
        // Conflicting combinations are reported by `check_tagging`.
        let tagging = match (tag, content, untagged) {
            (_, _, Some(_)) => Tagging::Untagged,
            (Some((tag, _)), Some((content, _)), None) => Tagging::Adjacent { tag, content },
            (Some((tag, _)), None, None) => Tagging::Internal { tag },
            (None, _, None) => Tagging::External,
        };
        let conversion = match (from.get(), try_from.get()) {
            (Some(_), Some((_, span))) => {
                cx.syn_error(syn::Error::new(
                    span,
                    "`from` and `try_from` conflict: the value is converted from one type only",
                ));
                None
            }
            (Some((ty, span)), None) => Some(Conversion {
                ty,
                fallible: false,
                span,
            }),
            (None, Some((ty, span))) => Some(Conversion {
                ty,
                fallible: true,
                span,
            }),
            (None, None) => None,
        };
        let (default, default_span) = default
            .get()
            .map_or((Default::None, None), |(d, s)| (d, Some(s)));
        Self {
            name: name.get().unwrap_or_else(|| Name {
                value: unraw(&item.ident),
                span: item.ident.span(),
            }),
            rename_all: rename_all.get().unwrap_or(RenameRule::None),
            rename_all_fields: rename_all_fields.get().unwrap_or(RenameRule::None),
            deny_unknown_fields: deny_unknown_fields.get().is_some(),
            default,
            transparent: transparent.get(),
            bound: bound.get(),
            expecting: expecting.get(),
            krate: krate.get(),
            lifetime: lifetime.get(),
            arena: arena.get(),
            tagging,
            conversion,
            default_span,
            rename_all_fields_span,
            tagging_spans,
        }
    }
}
