//! The two JSON parsers side by side: every typed strategy measured on the same JSON document
//! through serde_json (`json`) and through sonic-rs (`json-sonic`), with its speedups over
//! `owned-system` through the same parser and through serde_json.

use std::fmt::Write as _;

use crate::format::{Format, Json, JsonSonic};
use crate::report_row::{BASELINE, ReportRow};

/// The median time per document of `row`, if it was measured.
fn total_ns(row: &ReportRow) -> Option<u64> {
    (row.row.error.is_none() && row.row.total_median_ns > 0).then_some(row.row.total_median_ns)
}

/// The table, in Markdown, or `None` when no strategy was measured through both parsers on one
/// dataset.
#[must_use]
pub fn markdown(rows: &[ReportRow]) -> Option<String> {
    let find = |format: &str, dataset: &str, strategy: &str| {
        rows.iter().find(|r| {
            r.row.format == format && r.row.dataset == dataset && r.row.strategy == strategy
        })
    };
    let mut lines = String::new();
    for sonic in rows.iter().filter(|r| r.row.format == JsonSonic::NAME) {
        let (dataset, strategy) = (&sonic.row.dataset, &sonic.row.strategy);
        let Some(json) = find(Json::NAME, dataset, strategy) else {
            continue;
        };
        let (Some(json_ns), Some(sonic_ns)) = (total_ns(json), total_ns(sonic)) else {
            continue;
        };
        let base = find(Json::NAME, dataset, BASELINE).and_then(total_ns);
        let ms = |ns: u64| ns as f64 / 1e6;
        let speedup = |s: Option<f64>| s.map_or_else(|| "n/a".to_owned(), |s| format!("{s:.2}x"));
        let _ = writeln!(
            lines,
            "| {dataset}/{strategy} | {:.3} | {} | {:.3} | {} | {:.2}x | {} |",
            ms(json_ns),
            speedup(json.speedup),
            ms(sonic_ns),
            speedup(sonic.speedup),
            json_ns as f64 / sonic_ns as f64,
            speedup(base.map(|b| b as f64 / sonic_ns as f64)),
        );
    }
    if lines.is_empty() {
        return None;
    }
    Some(format!(
        "\n## JSON parsers: serde_json and sonic-rs\n\nThe same JSON documents read by each \
         strategy through serde_json (`{}`) and through sonic-rs (`{}`), ms per document \
         (deserialization + drop) and speedup over {BASELINE} through the same parser; then \
         sonic-rs's speedup over serde_json for that strategy, and over {BASELINE} through \
         serde_json.\n\n\
         | dataset/strategy | serde_json ms | speedup | sonic-rs ms | speedup | sonic-rs / \
         serde_json | speedup over serde_json's {BASELINE} |\n\
         |---|--:|--:|--:|--:|--:|--:|\n{lines}",
        Json::NAME,
        JsonSonic::NAME,
    ))
}

#[cfg(test)]
mod tests {
    use super::markdown;
    use crate::measure::Row;
    use crate::report_row::ReportRow;

    /// A row as the report computes it: `speedup` over owned-system through the same parser.
    fn row(format: &str, strategy: &str, ns: u64, speedup: f64) -> ReportRow {
        ReportRow {
            name: format!("{format}/city/{strategy}"),
            row: Row {
                format: format.to_owned(),
                dataset: "city".to_owned(),
                strategy: strategy.to_owned(),
                input_bytes: 1_000,
                median_ns: ns,
                total_median_ns: ns,
                ..Row::default()
            },
            mb_per_s: None,
            speedup: Some(speedup),
            held_per_input: None,
        }
    }

    #[test]
    fn each_strategy_read_by_both_parsers_gets_a_line() {
        let rows = [
            row("json", "owned-system", 30_000_000, 1.0),
            row("json", "slab-fresh", 20_000_000, 1.5),
            row("json", "borrowed", 25_000_000, 1.2),
            row("json-sonic", "owned-system", 20_000_000, 1.0),
            row("json-sonic", "slab-fresh", 10_000_000, 2.0),
        ];
        let table = markdown(&rows).expect("a table");
        assert!(
            table.contains(
                "| city/owned-system | 30.000 | 1.00x | 20.000 | 1.00x | 1.50x | 1.50x |"
            ),
            "{table}"
        );
        assert!(
            table.contains("| city/slab-fresh | 20.000 | 1.50x | 10.000 | 2.00x | 2.00x | 3.00x |"),
            "{table}"
        );
        assert!(!table.contains("borrowed"), "{table}");
        assert_eq!(markdown(&rows[..3]), None);
    }
}
