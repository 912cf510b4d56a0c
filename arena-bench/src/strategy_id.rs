//! The strategies by name: [`StrategyId`] names a strategy, for the command line and the
//! report, and says which formats it reads and which [`GlobalAllocator`] it runs under.

use crate::format::FormatId;

/// Which global allocator a binary has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalAllocator {
    /// `std::alloc::System` (glibc malloc on Linux).
    System,
    /// mimalloc.
    Mimalloc,
}

impl GlobalAllocator {
    /// The name used in strategy names.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Mimalloc => "mimalloc",
        }
    }
}

/// One strategy as the command line and the report name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyId {
    /// 1. owned types, system allocator: the baseline every speedup is against.
    OwnedSystem,
    /// 2. owned types, mimalloc.
    OwnedMimalloc,
    /// 3. `deserialize_in_place` into a reused value, system allocator.
    InPlaceSystem,
    /// 3. `deserialize_in_place` into a reused value, mimalloc.
    InPlaceMimalloc,
    /// 4. strings borrowed from the input.
    Borrowed,
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `bumpalo::Bump` per document.
    BumpaloFresh,
    /// 5. `#[derive(ArenaDeserialize)]` into one `bumpalo::Bump`, reset between documents.
    BumpaloReused,
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `bump_scope::Bump` per document.
    BumpScopeFresh,
    /// 5. `#[derive(ArenaDeserialize)]` into one `bump_scope::Bump`, reset between documents.
    BumpScopeReused,
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `SlabArena` per document (global pool).
    SlabFresh,
    /// 5. `#[derive(ArenaDeserialize)]` into one `SlabArena`, reset between documents.
    SlabReused,
    /// 5. JSON only: an `arena_core::Value` parsed into a fresh `SlabArena` per document,
    ///    replayed into the `#[derive(ArenaDeserialize)]` model in the same arena.
    SlabFreshViaValue,
    /// 5. `#[derive(ArenaDeserialize)]` into a fresh `SlabArena` per document through the
    ///    format's own serde `Deserializer` (postcard's, bincode's, rmp-serde's, cbor4ii's)
    ///    and a default `ArenaSeed`, as a user whose format has no entry point in arena-core
    ///    reads it.
    SlabFreshViaSerde,
    /// 6. multitude, a fresh arena per document.
    MultitudeFresh,
    /// 6. multitude, one arena reset between documents.
    MultitudeReused,
    /// Value table: `serde_json::Value`, system allocator: the baseline of the value table.
    ValueSerdeSystem,
    /// Value table: `serde_json::Value`, mimalloc.
    ValueSerdeMimalloc,
    /// Value table: `arena_core::Value` in a fresh `SlabArena` per document.
    ValueSlabFresh,
    /// Value table: `arena_core::Value` in a fresh `bumpalo::Bump` per document.
    ValueBumpaloFresh,
    /// Value table: simd-json's borrowed value, from a copy of the input.
    ValueSimdJson,
    /// Value table: sonic-rs's `Value`.
    ValueSonicRs,
}

/// The formats [`StrategyId::SlabFreshViaSerde`] reads: those whose arena-core entry point has
/// a serde `Deserializer` of the format's own crate beside it (postcard, bincode, rmp-serde,
/// cbor4ii). JSON's is json-serde, which every strategy reads through serde_json.
pub const VIA_SERDE_FORMATS: [FormatId; 4] = [
    FormatId::Postcard,
    FormatId::Bincode,
    FormatId::MsgPack,
    FormatId::Cbor,
];

impl StrategyId {
    /// Every strategy, in report order: the typed matrix, then the value table.
    pub const ALL: [Self; 21] = [
        Self::OwnedSystem,
        Self::OwnedMimalloc,
        Self::InPlaceSystem,
        Self::InPlaceMimalloc,
        Self::Borrowed,
        Self::BumpaloFresh,
        Self::BumpaloReused,
        Self::BumpScopeFresh,
        Self::BumpScopeReused,
        Self::SlabFresh,
        Self::SlabReused,
        Self::SlabFreshViaValue,
        Self::SlabFreshViaSerde,
        Self::MultitudeFresh,
        Self::MultitudeReused,
        Self::ValueSerdeSystem,
        Self::ValueSerdeMimalloc,
        Self::ValueSlabFresh,
        Self::ValueBumpaloFresh,
        Self::ValueSimdJson,
        Self::ValueSonicRs,
    ];

    /// The name in rows and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::OwnedSystem => "owned-system",
            Self::OwnedMimalloc => "owned-mimalloc",
            Self::InPlaceSystem => "in-place-system",
            Self::InPlaceMimalloc => "in-place-mimalloc",
            Self::Borrowed => "borrowed",
            Self::BumpaloFresh => "bumpalo-fresh",
            Self::BumpaloReused => "bumpalo-reused",
            Self::BumpScopeFresh => "bump-scope-fresh",
            Self::BumpScopeReused => "bump-scope-reused",
            Self::SlabFresh => "slab-fresh",
            Self::SlabReused => "slab-reused",
            Self::SlabFreshViaValue => "slab-fresh-via-value",
            Self::SlabFreshViaSerde => "slab-fresh-via-serde",
            Self::MultitudeFresh => "multitude-fresh",
            Self::MultitudeReused => "multitude-reused",
            Self::ValueSerdeSystem => "value-serde-system",
            Self::ValueSerdeMimalloc => "value-serde-mimalloc",
            Self::ValueSlabFresh => "value-slab-fresh",
            Self::ValueBumpaloFresh => "value-bumpalo-fresh",
            Self::ValueSimdJson => "value-simd-json",
            Self::ValueSonicRs => "value-sonic-rs",
        }
    }

    /// Whether the strategy is one of the value table's: a dynamic value, of JSON only.
    #[must_use]
    pub const fn is_value(self) -> bool {
        matches!(
            self,
            Self::ValueSerdeSystem
                | Self::ValueSerdeMimalloc
                | Self::ValueSlabFresh
                | Self::ValueBumpaloFresh
                | Self::ValueSimdJson
                | Self::ValueSonicRs
        )
    }

    /// Whether the strategy is one of this toolkit's own arenas (bumpalo, bump-scope or
    /// `SlabArena`, fresh or reused, through the derive): the product, which the verdicts
    /// measure `slab-fresh` against only as context, not as competition.
    #[must_use]
    pub const fn is_ours(self) -> bool {
        matches!(
            self,
            Self::BumpaloFresh
                | Self::BumpaloReused
                | Self::BumpScopeFresh
                | Self::BumpScopeReused
                | Self::SlabFresh
                | Self::SlabReused
                | Self::SlabFreshViaValue
                | Self::SlabFreshViaSerde
        )
    }

    /// Whether the strategy reads JSON only: the value table's, and the typed strategy that
    /// parses a `Value` first.
    #[must_use]
    pub const fn json_only(self) -> bool {
        self.is_value() || matches!(self, Self::SlabFreshViaValue)
    }

    /// Whether the strategy reads documents in `format`: JSON only (see [`Self::json_only`]),
    /// the formats with a serde `Deserializer` of their own beside arena-core's entry point
    /// ([`Self::SlabFreshViaSerde`]), or every format.
    #[must_use]
    pub fn reads(self, format: FormatId) -> bool {
        match self {
            Self::SlabFreshViaSerde => VIA_SERDE_FORMATS.contains(&format),
            _ => !self.json_only() || format == FormatId::Json,
        }
    }

    /// The formats the strategy reads, in words, for the error of a cell it does not read.
    #[must_use]
    pub const fn reads_what(self) -> &'static str {
        match self {
            Self::SlabFreshViaSerde => "postcard, bincode, msgpack and cbor",
            _ if self.json_only() => "JSON only",
            _ => "every format",
        }
    }

    /// The strategy whose time every speedup of this one is against: owned types for the typed
    /// matrix, `serde_json::Value` for the value table, both under the system allocator.
    #[must_use]
    pub const fn baseline(self) -> Self {
        if self.is_value() {
            Self::ValueSerdeSystem
        } else {
            Self::OwnedSystem
        }
    }

    /// The strategy called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The global allocator the strategy runs under (and so which binary runs it).
    #[must_use]
    pub const fn allocator(self) -> GlobalAllocator {
        match self {
            Self::OwnedMimalloc | Self::InPlaceMimalloc | Self::ValueSerdeMimalloc => {
                GlobalAllocator::Mimalloc
            }
            _ => GlobalAllocator::System,
        }
    }
}
