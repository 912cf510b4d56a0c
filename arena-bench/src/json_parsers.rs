//! The JSON parsers side by side: every typed strategy measured on the same JSON document
//! through `json` (arena-core's reader for the arena strategies, serde_json for the others),
//! through serde_json alone (`json-serde`) and through sonic-rs (`json-sonic`), with the
//! speedups of the first over the two others.

use std::fmt::Write as _;

use crate::format::{Format, Json, JsonSerde, JsonSonic};
use crate::report_row::{BASELINE, ReportRow};

/// The median time per document of `row`, if it was measured.
fn total_ns(row: &ReportRow) -> Option<u64> {
    (row.row.error.is_none() && row.row.total_median_ns > 0).then_some(row.row.total_median_ns)
}

/// The table, in Markdown, or `None` when no strategy was measured through the three on one
/// dataset.
#[must_use]
pub fn markdown(rows: &[ReportRow]) -> Option<String> {
    let time = |format: &str, dataset: &str, strategy: &str| {
        rows.iter()
            .find(|r| {
                r.row.format == format && r.row.dataset == dataset && r.row.strategy == strategy
            })
            .and_then(total_ns)
    };
    let mut lines = String::new();
    for json in rows.iter().filter(|r| r.row.format == Json::NAME) {
        let (dataset, strategy) = (&json.row.dataset, &json.row.strategy);
        let (Some(ours), Some(serde), Some(sonic), Some(base)) = (
            total_ns(json),
            time(JsonSerde::NAME, dataset, strategy),
            time(JsonSonic::NAME, dataset, strategy),
            time(JsonSerde::NAME, dataset, BASELINE),
        ) else {
            continue;
        };
        let ms = |ns: u64| ns as f64 / 1e6;
        let ratio = |a: u64, b: u64| a as f64 / b as f64;
        let _ = writeln!(
            lines,
            "| {dataset}/{strategy} | {:.3} | {:.3} | {:.3} | {:.2}x | {:.2}x | {:.2}x |",
            ms(ours),
            ms(serde),
            ms(sonic),
            ratio(serde, ours),
            ratio(sonic, ours),
            ratio(base, ours),
        );
    }
    if lines.is_empty() {
        return None;
    }
    Some(format!(
        "\n## JSON parsers: arena-core's reader, serde_json and sonic-rs\n\nThe same JSON \
         documents read by each strategy through `{}` (arena-core's reader for the arena \
         strategies, serde_json for the others), through serde_json (`{}`) and through \
         sonic-rs's serde `Deserializer` (`{}`), ms per document (deserialization + drop); then \
         the speedup of `{0}` over the two others for that strategy, and over {BASELINE} \
         through serde_json.\n\n\
         | dataset/strategy | json ms | json-serde ms | json-sonic ms | over json-serde | over \
         json-sonic | over serde_json's {BASELINE} |\n\
         |---|--:|--:|--:|--:|--:|--:|\n{lines}",
        Json::NAME,
        JsonSerde::NAME,
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
    fn each_strategy_read_by_the_three_parsers_gets_a_line() {
        let rows = [
            row("json", "owned-system", 30_000_000, 1.0),
            row("json", "slab-fresh", 10_000_000, 3.0),
            row("json", "borrowed", 25_000_000, 1.2),
            row("json-serde", "owned-system", 30_000_000, 1.0),
            row("json-serde", "slab-fresh", 20_000_000, 1.5),
            row("json-sonic", "owned-system", 20_000_000, 1.0),
            row("json-sonic", "slab-fresh", 15_000_000, 1.33),
        ];
        let table = markdown(&rows).expect("a table");
        assert!(
            table.contains(
                "| city/owned-system | 30.000 | 30.000 | 20.000 | 1.00x | 0.67x | 1.00x |"
            ),
            "{table}"
        );
        assert!(
            table
                .contains("| city/slab-fresh | 10.000 | 20.000 | 15.000 | 2.00x | 1.50x | 3.00x |"),
            "{table}"
        );
        assert!(!table.contains("borrowed"), "{table}");
        assert_eq!(markdown(&rows[..5]), None);
    }
}
