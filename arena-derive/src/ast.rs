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
        Some(Self {
            ident: &item.ident,
            attrs,
            data,
            generics: &item.generics,
        })
    }
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
