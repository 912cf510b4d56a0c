//! A real published model ported: cargo_metadata 0.23's `Metadata`, every field of it and of its
//! packages, dependencies, targets and resolve graph, written with `#[derive(ArenaDeserialize)]`
//! and upstream's serde attributes, reading the output of `cargo metadata --format-version 1` on
//! this workspace (`real_model/cargo_metadata*.json`, saved from the real command). Each document
//! must read as cargo_metadata's own `Deserialize` reads it, field by field, on every arena, in
//! JSON and re-encoded as MessagePack (named fields) and CBOR.
//!
//! The port uses: `&'bump Utf8Path` (feature `camino`) for the paths, `arena_core::Value` with
//! `#[serde(default)]` for the `metadata` tables, `#[arena(serde)]` for upstream's `Edition`
//! and `DependencyKind`, and `#[arena(serde(deserialize_with = ...))]` for upstream's
//! serde-signature `parse_dependency_kind`; `semver::Version`, `VersionReq` and
//! `cargo_platform::Platform` own heap memory, so their text is kept and parsed on use.

use arena_core::{ArenaDeserialize, Value};
use arena_tests::derive_support::{Errors, SameAs};
use arena_tests::{Format, differential};
use camino::Utf8Path;
use cargo_metadata::{DependencyKind, Edition};
use serde::{Deserialize, Deserializer};

#[derive(ArenaDeserialize, Debug)]
struct Metadata<'bump> {
    packages: &'bump [Package<'bump>],
    /// `Vec<PackageId>` upstream; `PackageId` is a transparent `String`.
    workspace_members: &'bump [&'bump str],
    /// `WorkspaceDefaultMembers(Option<Vec<PackageId>>)` upstream, transparent.
    #[serde(default)]
    workspace_default_members: Option<&'bump [&'bump str]>,
    resolve: Option<Resolve<'bump>>,
    workspace_root: &'bump Utf8Path,
    target_directory: &'bump Utf8Path,
    build_directory: Option<&'bump Utf8Path>,
    #[serde(rename = "metadata", default)]
    workspace_metadata: Value<'bump>,
    version: usize,
}

#[derive(ArenaDeserialize, Debug)]
struct Resolve<'bump> {
    nodes: &'bump [Node<'bump>],
    root: Option<&'bump str>,
}

#[derive(ArenaDeserialize, Debug)]
struct Node<'bump> {
    id: &'bump str,
    #[serde(default)]
    deps: &'bump [NodeDep<'bump>],
    dependencies: &'bump [&'bump str],
    #[serde(default)]
    features: &'bump [&'bump str],
}

#[derive(ArenaDeserialize, Debug)]
struct NodeDep<'bump> {
    name: &'bump str,
    pkg: &'bump str,
    #[serde(default)]
    dep_kinds: &'bump [DepKindInfo<'bump>],
}

#[derive(ArenaDeserialize, Debug)]
struct DepKindInfo<'bump> {
    #[arena(serde(deserialize_with = "parse_dependency_kind"))]
    kind: DependencyKind,
    /// `cargo_platform::Platform` upstream (it owns heap memory): its text.
    target: Option<&'bump str>,
}

#[derive(ArenaDeserialize, Debug)]
struct Package<'bump> {
    name: &'bump str,
    /// `semver::Version` upstream: its text.
    version: &'bump str,
    #[serde(default)]
    authors: &'bump [&'bump str],
    id: &'bump str,
    source: Option<&'bump str>,
    description: Option<&'bump str>,
    dependencies: &'bump [Dependency<'bump>],
    license: Option<&'bump str>,
    license_file: Option<&'bump Utf8Path>,
    targets: &'bump [Target<'bump>],
    /// `BTreeMap<String, Vec<String>>` upstream.
    features: &'bump [(&'bump str, &'bump [&'bump str])],
    manifest_path: &'bump Utf8Path,
    #[serde(default)]
    categories: &'bump [&'bump str],
    #[serde(default)]
    keywords: &'bump [&'bump str],
    readme: Option<&'bump Utf8Path>,
    repository: Option<&'bump str>,
    homepage: Option<&'bump str>,
    documentation: Option<&'bump str>,
    #[serde(default)]
    #[arena(serde)]
    edition: Edition,
    #[serde(default)]
    metadata: Value<'bump>,
    links: Option<&'bump str>,
    publish: Option<&'bump [&'bump str]>,
    default_run: Option<&'bump str>,
    /// `Option<semver::Version>` upstream, read by `deserialize_rust_version` (which appends
    /// `.0` to `1.88`): the text, as written.
    #[serde(default)]
    rust_version: Option<&'bump str>,
}

#[derive(ArenaDeserialize, Debug)]
struct Dependency<'bump> {
    name: &'bump str,
    source: Option<&'bump str>,
    /// `semver::VersionReq` upstream: its text.
    req: &'bump str,
    #[arena(serde(deserialize_with = "parse_dependency_kind"))]
    kind: DependencyKind,
    optional: bool,
    uses_default_features: bool,
    features: &'bump [&'bump str],
    target: Option<&'bump str>,
    rename: Option<&'bump str>,
    registry: Option<&'bump str>,
    path: Option<&'bump Utf8Path>,
}

#[derive(ArenaDeserialize, Debug)]
struct Target<'bump> {
    name: &'bump str,
    /// `Vec<TargetKind>` upstream, an enum with an `Unknown(String)` variant: its text.
    kind: &'bump [&'bump str],
    #[serde(default)]
    crate_types: &'bump [&'bump str],
    #[serde(default)]
    #[serde(rename = "required-features")]
    required_features: &'bump [&'bump str],
    src_path: &'bump Utf8Path,
    #[serde(default)]
    #[arena(serde)]
    edition: Edition,
    #[serde(default = "default_true")]
    doctest: bool,
    #[serde(default = "default_true")]
    test: bool,
    #[serde(default = "default_true")]
    doc: bool,
}

/// Upstream's `dependency::parse_dependency_kind` (private there), as written: serde's
/// signature, a `null` kind is `Normal`.
fn parse_dependency_kind<'de, D>(d: D) -> Result<DependencyKind, D::Error>
where
    D: Deserializer<'de>,
{
    Deserialize::deserialize(d).map(|x: Option<_>| x.unwrap_or_default())
}

fn default_true() -> bool {
    true
}

/// `text` is what upstream parsed into `owned` (a `FromStr` type kept as text in the port).
fn parses_to<T: std::str::FromStr + PartialEq>(text: &str, owned: &T) -> bool {
    text.parse::<T>().is_ok_and(|parsed| parsed == *owned)
}

fn strs<S: AsRef<str>>(ours: &[&str], theirs: &[S]) -> bool {
    ours.len() == theirs.len() && ours.iter().zip(theirs).all(|(a, b)| *a == b.as_ref())
}

/// The same JSON value (written through serde_json, whose maps sort their keys).
fn same_value(ours: &Value<'_>, theirs: &serde_json::Value) -> bool {
    serde_json::to_value(ours).is_ok_and(|ours| ours == *theirs)
}

impl SameAs<cargo_metadata::Metadata> for Metadata<'_> {
    fn same_as(&self, o: &cargo_metadata::Metadata) -> bool {
        let ids: Vec<&str> = o
            .workspace_members
            .iter()
            .map(|id| id.repr.as_str())
            .collect();
        let default_members = match self.workspace_default_members {
            Some(members) => {
                o.workspace_default_members.is_available()
                    && strs(
                        members,
                        &o.workspace_default_members
                            .iter()
                            .map(|id| id.repr.as_str())
                            .collect::<Vec<_>>(),
                    )
            }
            None => o.workspace_default_members.is_missing(),
        };
        self.packages.len() == o.packages.len()
            && self.packages.iter().zip(&o.packages).all(|(a, b)| a.same_as(b))
            && strs(self.workspace_members, &ids)
            && default_members
            && self.resolve.same_as(&o.resolve)
            && self.workspace_root == o.workspace_root
            && self.target_directory == o.target_directory
            && self.build_directory.map(Utf8Path::to_path_buf) == o.build_directory
            && same_value(&self.workspace_metadata, &o.workspace_metadata)
            // Private upstream; its serialized form says what it read.
            && serde_json::to_value(o).is_ok_and(|v| v["version"] == self.version)
    }
}

impl SameAs<cargo_metadata::Resolve> for Resolve<'_> {
    fn same_as(&self, o: &cargo_metadata::Resolve) -> bool {
        self.root == o.root.as_ref().map(|id| id.repr.as_str())
            && self.nodes.len() == o.nodes.len()
            && self.nodes.iter().zip(&o.nodes).all(|(a, b)| {
                a.id == b.id.repr
                    && strs(
                        a.dependencies,
                        &b.dependencies.iter().map(|id| &id.repr).collect::<Vec<_>>(),
                    )
                    && strs(a.features, &b.features)
                    && a.deps.len() == b.deps.len()
                    && a.deps.iter().zip(&b.deps).all(|(x, y)| {
                        x.name == y.name
                            && x.pkg == y.pkg.repr
                            && x.dep_kinds.len() == y.dep_kinds.len()
                            && x.dep_kinds.iter().zip(&y.dep_kinds).all(|(k, l)| {
                                k.kind == l.kind
                                    && match (k.target, &l.target) {
                                        (Some(text), Some(platform)) => parses_to(text, platform),
                                        (None, None) => true,
                                        _ => false,
                                    }
                            })
                    })
            })
    }
}

impl SameAs<cargo_metadata::Package> for Package<'_> {
    fn same_as(&self, o: &cargo_metadata::Package) -> bool {
        let features_same = self.features.len() == o.features.len()
            && self
                .features
                .iter()
                .zip(&o.features)
                .all(|((name, list), (oname, olist))| name == oname && strs(list, olist));
        let rust_version_same = match (self.rust_version, &o.rust_version) {
            // Upstream appends `.0` to a version of two parts.
            (Some(text), Some(version)) => {
                let full = if text.matches('.').count() == 1 {
                    format!("{text}.0")
                } else {
                    text.to_owned()
                };
                parses_to(&full, version)
            }
            (None, None) => true,
            _ => false,
        };
        self.name == o.name.as_str()
            && parses_to(self.version, &o.version)
            && strs(self.authors, &o.authors)
            && self.id == o.id.repr
            && self.source == o.source.as_ref().map(|s| s.repr.as_str())
            && self.description == o.description.as_deref()
            && self.dependencies.len() == o.dependencies.len()
            && self
                .dependencies
                .iter()
                .zip(&o.dependencies)
                .all(|(a, b)| a.same_as(b))
            && self.license == o.license.as_deref()
            && self.license_file.map(Utf8Path::to_path_buf) == o.license_file
            && self.targets.len() == o.targets.len()
            && self
                .targets
                .iter()
                .zip(&o.targets)
                .all(|(a, b)| a.same_as(b))
            && features_same
            && self.manifest_path == o.manifest_path
            && strs(self.categories, &o.categories)
            && strs(self.keywords, &o.keywords)
            && self.readme.map(Utf8Path::to_path_buf) == o.readme
            && self.repository == o.repository.as_deref()
            && self.homepage == o.homepage.as_deref()
            && self.documentation == o.documentation.as_deref()
            && self.edition == o.edition
            && same_value(&self.metadata, &o.metadata)
            && self.links == o.links.as_deref()
            && match (self.publish, &o.publish) {
                (Some(a), Some(b)) => strs(a, b),
                (None, None) => true,
                _ => false,
            }
            && self.default_run == o.default_run.as_deref()
            && rust_version_same
    }
}

impl SameAs<cargo_metadata::Dependency> for Dependency<'_> {
    fn same_as(&self, o: &cargo_metadata::Dependency) -> bool {
        self.name == o.name
            && self.source == o.source.as_ref().map(|s| s.repr.as_str())
            && parses_to(self.req, &o.req)
            && self.kind == o.kind
            && self.optional == o.optional
            && self.uses_default_features == o.uses_default_features
            && strs(self.features, &o.features)
            && match (self.target, &o.target) {
                (Some(text), Some(platform)) => parses_to(text, platform),
                (None, None) => true,
                _ => false,
            }
            && self.rename == o.rename.as_deref()
            && self.registry == o.registry.as_deref()
            && self.path.map(Utf8Path::to_path_buf) == o.path
    }
}

impl SameAs<cargo_metadata::Target> for Target<'_> {
    fn same_as(&self, o: &cargo_metadata::Target) -> bool {
        let kinds: Vec<String> = o.kind.iter().map(ToString::to_string).collect();
        let crate_types: Vec<String> = o.crate_types.iter().map(ToString::to_string).collect();
        self.name == o.name
            && strs(self.kind, &kinds)
            && strs(self.crate_types, &crate_types)
            && strs(self.required_features, &o.required_features)
            && self.src_path == o.src_path
            && self.edition == o.edition
            && self.doctest == o.doctest
            && self.test == o.test
            && self.doc == o.doc
    }
}

/// The documents: `cargo metadata --format-version 1` on this workspace, with and without
/// `--no-deps` (no resolve graph, every package a workspace member).
const DOCUMENTS: [(&str, &str); 2] = [
    ("full", include_str!("real_model/cargo_metadata.json")),
    (
        "no-deps",
        include_str!("real_model/cargo_metadata_no_deps.json"),
    ),
];

#[test]
fn cargo_metadata_reads_as_upstream_reads_it() {
    for (name, json) in DOCUMENTS {
        let owned: cargo_metadata::Metadata =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{name}: upstream reads it: {e}"));
        assert!(
            owned.packages.len() >= 4,
            "{name}: the workspace's packages"
        );
        differential!(@bytes Format::Json, Metadata<'_>, cargo_metadata::Metadata, json.as_bytes(), Errors::SameMessage);
        // The same document re-encoded by upstream's `Serialize` (the formats that keep field
        // names: upstream skips empty fields when writing).
        for format in [Format::MsgPackNamed, Format::Cbor] {
            let bytes = format.to_bytes(&owned);
            differential!(@bytes format, Metadata<'_>, cargo_metadata::Metadata, &bytes, Errors::SameMessage);
        }
    }
}

/// The port reads what the model needs without the types that own heap memory: the versions
/// parse where they are used.
#[test]
fn the_port_answers_what_upstream_answers() {
    let arena = arena_core::SlabArena::new();
    let (_, json) = DOCUMENTS[0];
    let ours: Metadata = arena_core::json::from_str(&arena, json).expect("reads");
    let theirs: cargo_metadata::Metadata = serde_json::from_str(json).expect("reads");
    let core = ours
        .packages
        .iter()
        .find(|p| p.name == "arena-core")
        .expect("arena-core is a package");
    let version: cargo_metadata::semver::Version = core.version.parse().expect("a version");
    assert_eq!(
        version,
        theirs
            .packages
            .iter()
            .find(|p| p.name.as_str() == "arena-core")
            .expect("upstream too")
            .version
    );
    assert_eq!(core.edition, Edition::E2024);
    assert_eq!(core.manifest_path.file_name(), Some("Cargo.toml"));
    assert!(core.features.iter().any(|(name, _)| *name == "camino"));
    assert!(ours.workspace_metadata.is_null());
    let root = ours.workspace_root;
    assert!(
        ours.packages
            .iter()
            .filter(|p| p.source.is_none())
            .all(|p| p.manifest_path.starts_with(root))
    );
}
