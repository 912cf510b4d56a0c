//! arena-bench: one command that compares allocation strategies for serde deserialization,
//! on real and large data, with time and memory.
//!
//! `cargo run --release -p arena-bench` generates a synthetic city and two synthetic event
//! streams (serde's tagged and untagged enums and `flatten`: each event's tag first, and the
//! same events with each tag last, in the self-describing formats only), reads the
//! json-benchmark corpus, writes every document in postcard, bincode 2, MessagePack, CBOR and
//! JSON, and measures
//! every strategy on every document: owned types under the system allocator and mimalloc,
//! serde's `deserialize_in_place`, zero-copy borrowing, `#[derive(ArenaDeserialize)]` into
//! bump arenas (for JSON also through an `arena_core::Value`, parsed and then replayed into the
//! arena model), and multitude's `#[derive(DeserializeIn)]` (not on the event streams, which
//! it cannot read). Each cell runs in its own child
//! process (so peak resident memory is per strategy); every result is checked equal to the
//! owned result before it is timed. The value table compares parsing each JSON document into a
//! dynamic value: `arena_core::Value` in an arena against `serde_json::Value`, simd-json and
//! sonic-rs.
//!
//! The pieces: [`model`] writes one data model in four representations, [`datasets`] holds
//! the models and documents, [`format`](mod@format) the formats, [`strategy`] the strategies,
//! [`strategy_id`] their names, [`json_parsers`] the table of JSON's two parsers, [`value`] the
//! value table's strategies, [`cell`] a cell's code behind pointers, [`dispatch`] the dispatch
//! from names to that code, [`measure`] the measurement, [`report_row`] a measured row with its speedup, [`figures`] the slab
//! arena's figures, [`streaming`] the memory of reading a large file, [`sweep`] the size
//! sweep, [`verdict`] the per-cell verdicts on `slab-fresh`, [`report`] the outputs,
//! [`results`] the dated results file, [`provenance`] the date and machine it states, and
//! [`run`] the command.
//!
//! On wasm32 (`target_family = "wasm"`) the library builds its models, datasets, formats,
//! strategies and their names only ([`model`], [`datasets`], [`format`](mod@format),
//! [`strategy`], [`strategy_id`], [`provenance`], and [`clock`], which the strategies time
//! with): the Wasm bench (`arena-bench/wasm/`) measures those there, and the rest (child
//! processes, mimalloc, simd-json and sonic-rs) is native.

pub mod clock;
pub mod datasets;
pub mod format;
pub mod model;
pub mod provenance;
pub mod strategy;
pub mod strategy_id;

#[cfg(not(target_family = "wasm"))]
pub mod cell;
#[cfg(not(target_family = "wasm"))]
pub mod counting;
#[cfg(not(target_family = "wasm"))]
pub mod dispatch;
#[cfg(not(target_family = "wasm"))]
pub mod figures;
#[cfg(not(target_family = "wasm"))]
pub mod json_parsers;
#[cfg(not(target_family = "wasm"))]
pub mod measure;
#[cfg(not(target_family = "wasm"))]
pub mod report;
#[cfg(not(target_family = "wasm"))]
pub mod report_row;
#[cfg(not(target_family = "wasm"))]
pub mod results;
#[cfg(not(target_family = "wasm"))]
pub mod run;
#[cfg(not(target_family = "wasm"))]
pub mod streaming;
#[cfg(not(target_family = "wasm"))]
pub mod sweep;
#[cfg(not(target_family = "wasm"))]
pub mod value;
#[cfg(not(target_family = "wasm"))]
pub mod verdict;
