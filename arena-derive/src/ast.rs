//! The typed model of the input: a container with its variants or fields, each with its parsed
//! attributes and the syn node it came from (for spans).

use crate::attr;
use crate::ctxt::Ctxt;

/// The derive input.
pub struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Container,
    pub data: Data<'a>,
    pub generics: &'a syn::Generics,
    /// The arena lifetime, the `'bump` of `ArenaDeserialize<'bump, A>`: the lifetime named by
    /// `#[arena(lifetime = "'a")]`, else the parameter `'bump`, else the type's only lifetime,
    /// else `'__bump` (see `fresh_bump`). Several lifetimes, no `lifetime` attribute and none
    /// named `'bump` is an error, and `bump` is then the first of them.
    pub bump: syn::Lifetime,
    /// Whether `bump` is made up for the impl: the type has no lifetime parameter, so the impl
    /// declares `'__bump` itself and messages cannot name it.
    pub fresh_bump: bool,
    /// The arena type the impl is for: `#[arena(arena = "Type")]`, else `bumpalo::Bump` when a
    /// field read with `deserialize_with` has a bumpalo type (see `inferred_arena`). `None`
    /// leaves the impl generic over the arena.
    pub arena: Option<syn::Type>,
}

/// A struct's fields or an enum's variants.
pub enum Data<'a> {
    Enum(Vec<Variant<'a>>),
    Struct(Style, Vec<Field<'a>>),
}

/// The shape of a struct or variant.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `{ a: A, b: B }`
    Struct,
    /// `(A, B)`
    Tuple,
    /// `(A)`
    Newtype,
    /// no fields
    Unit,
}

pub struct Variant<'a> {
    pub ident: &'a syn::Ident,
    pub attrs: attr::Variant,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    pub original: &'a syn::Variant,
}

pub struct Field<'a> {
    /// `self.name` or `self.0`.
    pub member: syn::Member,
    pub attrs: attr::Field,
    pub ty: &'a syn::Type,
    pub original: &'a syn::Field,
}

impl<'a> Container<'a> {
    /// Builds the model, recording every attribute error in `cx`. `None` for a union.
    pub fn from_ast(cx: &Ctxt, item: &'a syn::DeriveInput) -> Option<Self> {
        let attrs = attr::Container::from_ast(cx, item);
        let data = match &item.data {
            syn::Data::Enum(data) => {
                let mut variants: Vec<Variant<'a>> = data
                    .variants
                    .iter()
                    .map(|variant| {
                        let (style, fields) = struct_from_ast(cx, &variant.fields);
                        Variant {
                            ident: &variant.ident,
                            attrs: attr::Variant::from_ast(cx, variant),
                            style,
                            fields,
                            original: variant,
                        }
                    })
                    .collect();
                for variant in &mut variants {
                    variant.attrs.rename_by_rule(attrs.rename_all);
                    let rule = variant.attrs.rename_all.or(attrs.rename_all_fields);
                    for field in &mut variant.fields {
                        field.attrs.rename_by_rule(rule);
                        default_skipped(field, &attrs);
                    }
                }
                Data::Enum(variants)
            }
            syn::Data::Struct(data) => {
                let (style, mut fields) = struct_from_ast(cx, &data.fields);
                for field in &mut fields {
                    field.attrs.rename_by_rule(attrs.rename_all);
                    default_skipped(field, &attrs);
                }
                Data::Struct(style, fields)
            }
            syn::Data::Union(_) => {
                cx.error_spanned_by(
                    item,
                    "`#[derive(ArenaDeserialize)]` does not support unions: use a struct or an enum",
                );
                return None;
            }
        };
        let (bump, fresh_bump) = arena_lifetime(cx, &attrs, &item.generics);
        let arena = attrs.arena.clone().or_else(|| inferred_arena(&data));
        Some(Self {
            ident: &item.ident,
            attrs,
            data,
            generics: &item.generics,
            bump,
            fresh_bump,
            arena,
        })
    }

    /// The variants read from the input: every variant but the `skip_deserializing` ones, each
    /// with its position among all the variants (the `i` of its `__field{i}`). None for a
    /// struct.
    pub fn deserialized_variants(&self) -> impl Iterator<Item = (usize, &Variant<'a>)> {
        let variants = match &self.data {
            Data::Enum(variants) => variants.as_slice(),
            Data::Struct(..) => &[],
        };
        variants
            .iter()
            .enumerate()
            .filter(|(_, variant)| !variant.attrs.skip_deserializing)
    }

    /// The fields the impl builds: a struct's, or those of every deserialized variant. A
    /// skipped field is among them: it is built from its default.
    pub fn built_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        self.built_field_lists().flatten()
    }

    /// The fields read from the input: the [`deserialized_fields`] of the struct, or of every
    /// deserialized variant; of a `transparent` struct, the [`transparent_fields`] only; of a
    /// newtype struct, its field even when skipped (see [`newtype_field`]); none when the value
    /// is converted from another type (`from`, `try_from`).
    ///
    /// [`transparent_fields`]: Self::transparent_fields
    /// [`newtype_field`]: Self::newtype_field
    pub fn deserialized_fields(&self) -> Vec<&Field<'a>> {
        if self.attrs.conversion.is_some() {
            return Vec::new();
        }
        if self.attrs.transparent.is_some() {
            return self.transparent_fields().collect();
        }
        if let Some(field) = self.newtype_field() {
            return vec![field];
        }
        self.built_field_lists()
            .flat_map(|fields| deserialized_fields(fields).map(|(_, field)| field))
            .collect()
    }

    /// The field of a newtype struct (one unnamed field), which `visit_newtype_struct` reads
    /// even when it is `skip_deserializing`, as serde_derive's does (`deserialize_newtype_struct`
    /// in `de/tuple.rs`): the skip holds in `visit_seq` only. None for any other shape.
    pub fn newtype_field(&self) -> Option<&Field<'a>> {
        match &self.data {
            Data::Struct(Style::Newtype, fields) => fields.first(),
            _ => None,
        }
    }

    /// The fields of a struct that `transparent` may read the whole value as (see
    /// [`Field::allows_transparent`]); `check_transparent` requires exactly one. None for an
    /// enum.
    pub fn transparent_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        let fields = match &self.data {
            Data::Struct(_, fields) => fields.as_slice(),
            Data::Enum(_) => &[],
        };
        fields.iter().filter(|field| field.allows_transparent())
    }

    /// A struct's fields, or the fields of each deserialized variant; none when the value is
    /// converted from another type (`from`, `try_from`), which builds it.
    fn built_field_lists(&self) -> impl Iterator<Item = &[Field<'a>]> {
        let converted = self.attrs.conversion.is_some();
        let struct_fields = match &self.data {
            Data::Struct(_, fields) if !converted => Some(fields.as_slice()),
            Data::Struct(..) | Data::Enum(_) => None,
        };
        struct_fields.into_iter().chain(
            self.deserialized_variants()
                .filter(move |_| !converted)
                .map(|(_, variant)| variant.fields.as_slice()),
        )
    }
}

/// How a field's value is read from the input.
pub enum Read<'f> {
    /// `ArenaDeserialize`, into the arena: the field type needs the bound.
    Arena,
    /// The `deserialize_with` (or `with`) function.
    With(&'f attr::DeserializeWith),
    /// `#[arena(serde)]`: serde's `Deserialize` of the field type, or the function of
    /// `serde(deserialize_with = "...")` with serde's signature; nothing goes into the arena,
    /// and the type must need no drop (`expand` asserts it at compile time).
    Serde(Option<&'f attr::DeserializeWith>),
    /// serde's own `Deserialize` for `[T; 0]`, which needs nothing of `T`, as in serde. An
    /// empty array allocates nothing; arena-core's `[T; N]` impl needs `T: ArenaDeserialize`
    /// for every `N` (a separate impl for `[T; 0]` would overlap it), so the derive reads a
    /// field written `[T; 0]` this way. Inside another type (`Option<[T; 0]>`) it is arena-core's.
    EmptyArray,
}

impl Field<'_> {
    /// How the field is read when it is read (see [`Read`]).
    pub fn read(&self) -> Read<'_> {
        if let Some(with) = &self.attrs.deserialize_with {
            return Read::With(with);
        }
        if let Some(through_serde) = &self.attrs.through_serde {
            return Read::Serde(through_serde.with.as_ref());
        }
        match ungroup(self.ty) {
            syn::Type::Array(array) if is_zero(&array.len) => Read::EmptyArray,
            _ => Read::Arena,
        }
    }

    /// Whether `transparent` may read the whole value as this field, by serde_derive's rule
    /// (`allow_transparent`): it is not skipped, has no default, and is not a `PhantomData`.
    /// The other fields are built from their defaults.
    pub fn allows_transparent(&self) -> bool {
        let phantom = match ungroup(self.ty) {
            syn::Type::Path(path) => path
                .path
                .segments
                .last()
                .is_some_and(|segment| segment.ident == "PhantomData"),
            _ => false,
        };
        !phantom && !self.attrs.skip_deserializing && self.attrs.default.is_none()
    }
}

/// `ty` without the invisible groups a `macro_rules!` expansion wraps around a `$ty`.
fn ungroup(mut ty: &syn::Type) -> &syn::Type {
    while let syn::Type::Group(group) = ty {
        ty = &group.elem;
    }
    ty
}

/// Whether an array length is the literal `0`.
fn is_zero(len: &syn::Expr) -> bool {
    match len {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) => int.base10_parse::<usize>().is_ok_and(|len| len == 0),
        syn::Expr::Group(group) => is_zero(&group.expr),
        _ => false,
    }
}

/// The fields read from the input: every field but the `skip_deserializing` ones, each with
/// its position among all `fields` (the `i` of its `__field{i}`).
pub fn deserialized_fields<'f, 'a>(
    fields: &'f [Field<'a>],
) -> impl Iterator<Item = (usize, &'f Field<'a>)> {
    fields
        .iter()
        .enumerate()
        .filter(|(_, field)| !field.attrs.skip_deserializing)
}

fn struct_from_ast<'a>(cx: &Ctxt, fields: &'a syn::Fields) -> (Style, Vec<Field<'a>>) {
    let fields_model = fields
        .iter()
        .enumerate()
        .map(|(i, field)| Field {
            member: field
                .ident
                .clone()
                .map_or_else(|| syn::Member::Unnamed(i.into()), syn::Member::Named),
            attrs: attr::Field::from_ast(cx, i, field),
            ty: &field.ty,
            original: field,
        })
        .collect();
    let style = match fields {
        syn::Fields::Named(_) => Style::Struct,
        syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => Style::Newtype,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    (style, fields_model)
}

/// A skipped field is `Default::default()` unless a default is given on the field or the
/// container, as in serde.
fn default_skipped(field: &mut Field, cattrs: &attr::Container) {
    if field.attrs.skip_deserializing && field.attrs.default.is_none() && cattrs.default.is_none() {
        field.attrs.default = attr::Default::Trait;
    }
}

/// [`Container::bump`] and [`Container::fresh_bump`], by the rule stated there, recording the
/// error of a `lifetime` naming no parameter or of an ambiguous choice in `cx`.
fn arena_lifetime(
    cx: &Ctxt,
    cattrs: &attr::Container,
    generics: &syn::Generics,
) -> (syn::Lifetime, bool) {
    let lifetimes: Vec<&syn::Lifetime> = generics.lifetimes().map(|l| &l.lifetime).collect();
    if let Some(chosen) = &cattrs.lifetime {
        if !lifetimes.iter().any(|l| l.ident == chosen.ident) {
            cx.error_spanned_by(
                chosen,
                format!("`lifetime = \"{chosen}\"` names no lifetime parameter of this type"),
            );
        }
        return (chosen.clone(), false);
    }
    if let Some(bump) = lifetimes.iter().find(|l| l.ident == "bump") {
        return ((*bump).clone(), false);
    }
    match lifetimes.as_slice() {
        [] => (
            syn::Lifetime::new("'__bump", proc_macro2::Span::call_site()),
            true,
        ),
        [only] => ((*only).clone(), false),
        [_, second, ..] => {
            cx.error_spanned_by(
                second,
                "cannot tell which lifetime is the arena's: name it `'bump`, or add \
                 `#[arena(lifetime = \"'a\")]`",
            );
            ((*lifetimes[0]).clone(), false)
        }
    }
}

/// The arena a `deserialize_with` function must be given when its field is a bumpalo
/// collection (`bumpalo::collections::Vec<'bump, T>` is only ever built in a `bumpalo::Bump`):
/// the impl is then for `bumpalo::Bump` only, so a function taking `&'bump bumpalo::Bump`
/// type-checks. `None` leaves the impl generic over the allocator. The fields of every variant
/// are looked at, those of a skipped variant included.
fn inferred_arena(data: &Data) -> Option<syn::Type> {
    let field_lists: Vec<&[Field]> = match data {
        Data::Struct(_, fields) => vec![fields],
        Data::Enum(variants) => variants.iter().map(|v| v.fields.as_slice()).collect(),
    };
    field_lists
        .into_iter()
        .flat_map(deserialized_fields)
        .filter(|(_, f)| f.attrs.deserialize_with.is_some())
        .find_map(|(_, f)| match f.ty {
            syn::Type::Path(p) if p.qself.is_none() && p.path.segments.len() > 1 => {
                let first = p.path.segments.first()?;
                if first.ident != "bumpalo" {
                    return None;
                }
                let leading = p.path.leading_colon;
                Some(syn::parse_quote!(#leading #first::Bump))
            }
            _ => None,
        })
}
