//! Recognises field types that allocate with the global allocator, and names the arena type to
//! use instead.

/// Crates whose collections allocate in the arena (their paths are never flagged).
const ARENA_CRATES: &[&str] = &["bumpalo", "bump_scope", "hashbrown", "arena_core"];

/// A global-allocator type found in a field type: the tokens to point at and what to use.
pub struct GlobalAllocType<'a> {
    pub ty: &'a syn::Type,
    pub name: String,
    pub instead: String,
}

/// Every global-allocator type in `ty`, looking through references, slices, arrays, tuples,
/// and the generic arguments of paths (`Option<String>`, `&'bump [Vec<u8>]` ...).
pub fn global_alloc_types<'a>(ty: &'a syn::Type, bump: &str, out: &mut Vec<GlobalAllocType<'a>>) {
    match ty {
        syn::Type::Reference(r) => global_alloc_types(&r.elem, bump, out),
        syn::Type::Slice(s) => global_alloc_types(&s.elem, bump, out),
        syn::Type::Array(a) => global_alloc_types(&a.elem, bump, out),
        syn::Type::Paren(p) => global_alloc_types(&p.elem, bump, out),
        syn::Type::Group(g) => global_alloc_types(&g.elem, bump, out),
        syn::Type::Tuple(t) => {
            for elem in &t.elems {
                global_alloc_types(elem, bump, out);
            }
        }
        syn::Type::Path(p) => {
            if let Some(found) = classify(ty, &p.path, bump) {
                out.push(found);
            }
            for segment in &p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(inner) = arg {
                            global_alloc_types(inner, bump, out);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

fn classify<'a>(ty: &'a syn::Type, path: &syn::Path, bump: &str) -> Option<GlobalAllocType<'a>> {
    let first = path.segments.first()?.ident.to_string();
    if path.segments.len() > 1 && ARENA_CRATES.contains(&first.as_str()) {
        return None;
    }
    let last = path.segments.last()?;
    let args: Vec<&syn::GenericArgument> = match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => args.args.iter().collect(),
        _ => Vec::new(),
    };
    // The arena collections (bumpalo's `Vec<'bump, T>`, `String<'bump>`, `Box<'bump, T>`) take
    // a lifetime where the global ones take none; `Cow` is the exception.
    let has_lifetime = args
        .iter()
        .any(|arg| matches!(arg, syn::GenericArgument::Lifetime(_)));
    let types: Vec<String> = args
        .iter()
        .filter_map(|arg| match arg {
            syn::GenericArgument::Type(t) => Some(
                quote::ToTokens::to_token_stream(t)
                    .to_string()
                    .replace(' ', ""),
            ),
            _ => None,
        })
        .collect();
    let arg = |i: usize, default: &str| types.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let name = last.ident.to_string();
    let instead = match name.as_str() {
        "String" if !has_lifetime => {
            format!("`&{bump} str` or `bumpalo::collections::String<{bump}>`")
        }
        "Vec" if !has_lifetime => {
            let t = arg(0, "T");
            format!("`&{bump} [{t}]` or `bumpalo::collections::Vec<{bump}, {t}>`")
        }
        "Box" if !has_lifetime => format!("`&{bump} {}`", arg(0, "T")),
        "Rc" | "Arc" => format!("`&{bump} {}`", arg(0, "T")),
        "HashMap" if types.len() < 4 => format!(
            "`&{bump} [({k}, {v})]` or `hashbrown::HashMap<{k}, {v}, S, &{bump} A>`",
            k = arg(0, "K"),
            v = arg(1, "V")
        ),
        "HashSet" if types.len() < 3 => format!(
            "`&{bump} [{t}]` or `hashbrown::HashSet<{t}, S, &{bump} A>`",
            t = arg(0, "T")
        ),
        "BTreeMap" => format!("`&{bump} [({}, {})]`", arg(0, "K"), arg(1, "V")),
        "BTreeSet" | "VecDeque" | "BinaryHeap" | "LinkedList" => {
            format!("`&{bump} [{}]`", arg(0, "T"))
        }
        "Cow" => format!("`&{bump} {}`", arg(0, "T")),
        _ => return None,
    };
    Some(GlobalAllocType { ty, name, instead })
}
