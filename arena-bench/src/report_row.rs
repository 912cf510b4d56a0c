//! [`ReportRow`]: a measured row with the figures computed across the rows of its run, and the
//! strategies its speedups are measured against. The report, the figures and the JSON parsers'
//! table all read it.

use crate::measure::Row;

/// The strategy every speedup of the typed matrix is measured against.
pub const BASELINE: &str = "owned-system";

/// The strategy every speedup of the value table is measured against: `serde_json::Value`
/// under the system allocator.
pub const VALUE_BASELINE: &str = "value-serde-system";

/// A row with the figures computed across rows of one run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ReportRow {
    /// `{format}/{dataset}/{strategy}`.
    pub name: String,
    /// The measured row.
    #[serde(flatten)]
    pub row: Row,
    /// Input megabytes (10^6) per second at the median time.
    pub mb_per_s: Option<f64>,
    /// Median per-document time (deserialization plus drop) of the strategy's baseline
    /// ([`BASELINE`], or [`VALUE_BASELINE`] in the value table) on the same format and dataset
    /// over this row's.
    pub speedup: Option<f64>,
    /// The value table: the bytes the value holds (`held_bytes`) over the input's size.
    #[serde(default)]
    pub held_per_input: Option<f64>,
}
