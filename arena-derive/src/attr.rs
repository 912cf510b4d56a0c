//! The attributes of a container, variant or field, parsed from `#[arena(...)]` and
//! `#[serde(...)]` into typed values.
//!
//! Both namespaces take the same keys, so a type deriving `Serialize` and `ArenaDeserialize`
//! keeps one set of attributes. Serialize-only serde keys are accepted and ignored; serde
//! features this derive does not implement are errors that say so.
//!
//! This module holds what the models share: the values ([`Name`], [`Default`](enum@Default)),
//! the reading of keys ([`for_each_key`], [`Attr`]), the keys variants and fields both take
//! ([`Naming`]) and the messages for unknown and unsupported keys. Each model has its own
//! module: [`container`], [`variant`], [`field`].

mod container;
mod field;
mod variant;

pub use container::{Container, Tagging};
pub use field::{DeserializeWith, Field};
pub use variant::Variant;

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::Parse;
use syn::{Attribute, LitStr, Token};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;

/// A name on the wire, with the span of the tokens that chose it.
#[derive(Clone)]
pub struct Name {
    pub value: String,
    pub span: Span,
}

impl Name {
    fn from_lit(lit: &LitStr) -> Self {
        Self {
            value: lit.value(),
            span: lit.span(),
        }
    }
}

impl ToTokens for Name {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        LitStr::new(&self.value, self.span).to_tokens(tokens);
    }
}

/// Where a missing value comes from.
#[derive(Clone)]
pub enum Default {
    /// Nowhere: a missing value is an error (or `None` for an `Option`).
    None,
    /// `Default::default()`.
    Trait,
    /// A function returning the value.
    Path(syn::ExprPath),
}

impl Default {
    pub fn is_none(&self) -> bool {
        matches!(self, Self::None)
    }
}

/// One attribute value that may be given at most once.
struct Attr<'c, T> {
    cx: &'c Ctxt,
    key: &'static str,
    value: Option<T>,
}

impl<'c, T> Attr<'c, T> {
    fn none(cx: &'c Ctxt, key: &'static str) -> Self {
        Self {
            cx,
            key,
            value: None,
        }
    }

    /// Sets the value, or reports a duplicate at `tokens`.
    fn set<S: ToTokens>(&mut self, ns: Namespace, tokens: S, value: T) {
        if self.value.is_some() {
            self.cx.error_spanned_by(
                tokens,
                format!(
                    "duplicate {} attribute `{}`: give it once, in `#[arena(...)]` or `#[serde(...)]`",
                    ns.name(),
                    self.key
                ),
            );
        } else {
            self.value = Some(value);
        }
    }

    fn get(self) -> Option<T> {
        self.value
    }
}

/// Which attribute a key was read from, for messages.
#[derive(Clone, Copy)]
enum Namespace {
    Arena,
    Serde,
}

impl Namespace {
    fn of(attr: &Attribute) -> Option<Self> {
        if attr.path().is_ident("arena") {
            Some(Self::Arena)
        } else if attr.path().is_ident("serde") {
            Some(Self::Serde)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Arena => "arena",
            Self::Serde => "serde",
        }
    }
}

/// Runs `f` on every key of every `#[arena(...)]` and `#[serde(...)]` attribute, recording
/// parse errors and carrying on.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(Namespace, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs {
        let Some(ns) = Namespace::of(attr) else {
            continue;
        };
        if let syn::Meta::List(list) = &attr.meta
            && list.tokens.is_empty()
        {
            continue;
        }
        if let Err(err) = attr.parse_nested_meta(|meta| f(ns, &meta)) {
            cx.syn_error(err);
        }
    }
}

/// Parses `= "..."` after a key.
fn get_lit_str(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    let value = meta.value()?;
    value.parse().map_err(|err| {
        let key = key_name(meta);
        syn::Error::new(
            err.span(),
            format!("`{key}` takes a string, as in `{key} = \"...\"`"),
        )
    })
}

/// Parses `= "..."` and then the string's content as a `T`, with spans on the string.
fn parse_lit_into<T: Parse>(meta: &ParseNestedMeta) -> syn::Result<T> {
    get_lit_str(meta)?.parse()
}

/// Parses `= "..."` or `(serialize = "...", deserialize = "...")` and keeps the deserialize
/// side.
fn get_de_lit_str(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return get_lit_str(meta).map(Some);
    }
    let mut de = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("deserialize") {
            // #[arena(key(deserialize = "x"))]
            de = Some(get_lit_str(&inner)?);
        } else if inner.path.is_ident("serialize") {
            // #[arena(key(serialize = "x"))]: serialize only, ignored
            get_lit_str(&inner)?;
        } else {
            cx.error_spanned_by(
                &inner.path,
                format!("malformed `{key}` attribute, expected `{key}(serialize = \"...\", deserialize = \"...\")`"),
            );
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(de)
}

/// Consumes whatever value follows a key that is ignored.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// The key as written, for messages.
fn key_name(meta: &ParseNestedMeta) -> String {
    meta.path.get_ident().map_or_else(
        || meta.path.to_token_stream().to_string(),
        ToString::to_string,
    )
}

fn unknown_key(cx: &Ctxt, ns: Namespace, meta: &ParseNestedMeta, what: &str, expected: &str) {
    cx.error_spanned_by(
        &meta.path,
        format!(
            "unknown {} {what} attribute `{}`, expected one of {expected}",
            ns.name(),
            key_name(meta)
        ),
    );
}

fn unsupported_key(cx: &Ctxt, meta: &ParseNestedMeta, what: &str) {
    cx.error_spanned_by(
        &meta.path,
        format!(
            "`{}` is not supported by `#[derive(ArenaDeserialize)]` on a {what}: \
             deserialize this type by hand, or remove the attribute",
            key_name(meta)
        ),
    );
}

fn rename_rule(cx: &Ctxt, lit: Option<LitStr>) -> RenameRule {
    lit.map_or(RenameRule::None, |lit| {
        RenameRule::from_name(&lit.value()).unwrap_or_else(|| {
            cx.error_spanned_by(
                &lit,
                format!(
                    "unknown rule in `rename_all = {:?}`, expected one of {}",
                    lit.value(),
                    RenameRule::expected()
                ),
            );
            RenameRule::None
        })
    })
}

/// The keys variants and fields share: how they are named and whether they are read.
struct Naming<'c> {
    cx: &'c Ctxt,
    name: Attr<'c, Name>,
    aliases: BTreeSet<String>,
    skip_deserializing: Attr<'c, ()>,
}

impl<'c> Naming<'c> {
    fn new(cx: &'c Ctxt) -> Self {
        Self {
            cx,
            name: Attr::none(cx, "rename"),
            aliases: BTreeSet::new(),
            skip_deserializing: Attr::none(cx, "skip_deserializing"),
        }
    }

    /// Parses `meta` if it is one of the shared keys; `false` if it is another key.
    fn parse_key(&mut self, ns: Namespace, meta: &ParseNestedMeta) -> syn::Result<bool> {
        let path = &meta.path;
        if path.is_ident("rename") {
            // #[arena(rename = "name")] or #[arena(rename(deserialize = "name"))]
            if let Some(lit) = get_de_lit_str(self.cx, meta, "rename")? {
                self.name.set(ns, path, Name::from_lit(&lit));
            }
        } else if path.is_ident("alias") {
            // #[arena(alias = "name")], repeatable
            self.aliases.insert(get_lit_str(meta)?.value());
        } else if path.is_ident("skip") || path.is_ident("skip_deserializing") {
            // #[arena(skip)] or #[arena(skip_deserializing)]
            self.skip_deserializing.set(ns, path, ());
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

/// An identifier as serde names it: `r#type` is `type`.
fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#")
        .map_or_else(|| s.clone(), ToOwned::to_owned)
}

/// The span of a path, for checks that point back at an attribute key.
trait SpanOf {
    fn span_of(&self) -> Span;
}

impl SpanOf for syn::Path {
    fn span_of(&self) -> Span {
        syn::spanned::Spanned::span(self)
    }
}
