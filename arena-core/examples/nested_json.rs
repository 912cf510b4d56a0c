//! Nested structs from JSON: `#[derive(ArenaDeserialize)]` on a small model, one call to read
//! a document into an arena, and the arena's memory afterwards.
//!
//! ```sh
//! cargo run -p arena-core --example nested_json            # the built-in sample
//! cargo run -p arena-core --example nested_json -- FILE    # a JSON array of orders of your own
//! ```

use arena_core::{ArenaDeserialize, BumpAllocator, SlabArena};

/// An order, as a shop's API returns it: every string and list lives in the arena.
#[derive(ArenaDeserialize)]
#[arena(rename_all = "camelCase")]
struct Order<'bump> {
    id: u64,
    customer: Customer<'bump>,
    lines: &'bump [Line<'bump>],
    /// Absent from older orders.
    #[arena(default)]
    gift_note: Option<&'bump str>,
}

#[derive(ArenaDeserialize)]
struct Customer<'bump> {
    name: &'bump str,
    email: &'bump str,
    #[arena(rename = "tags")]
    labels: &'bump [&'bump str],
}

#[derive(ArenaDeserialize)]
struct Line<'bump> {
    sku: &'bump str,
    quantity: u32,
    unit_price: f64,
}

/// Two orders, the second without a gift note.
const SAMPLE: &str = r#"[
  {"id": 1, "customer": {"name": "Ada", "email": "ada@example.org", "tags": ["vip"]},
   "lines": [{"sku": "tea-01", "quantity": 2, "unit_price": 4.5},
             {"sku": "cup-07", "quantity": 1, "unit_price": 12.0}],
   "giftNote": "Happy birthday"},
  {"id": 2, "customer": {"name": "Grace", "email": "grace@example.org", "tags": []},
   "lines": [{"sku": "pot-02", "quantity": 1, "unit_price": 30.0}]}
]"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = match std::env::args_os().nth(1) {
        Some(path) => std::fs::read_to_string(path)?,
        None => SAMPLE.to_owned(),
    };

    // One arena per document: everything read below is freed at once when it drops.
    let arena = SlabArena::new();
    let orders: &[Order] = arena_core::json::from_str(&arena, &text)?;

    for order in orders {
        let total: f64 = order
            .lines
            .iter()
            .map(|line| f64::from(line.quantity) * line.unit_price)
            .sum();
        let skus: Vec<&str> = order.lines.iter().map(|line| line.sku).collect();
        println!(
            "order {} for {} <{}> {:?}: {skus:?}, {total:.2}{}",
            order.id,
            order.customer.name,
            order.customer.email,
            order.customer.labels,
            order
                .gift_note
                .map_or(String::new(), |note| format!(", note {note:?}")),
        );
    }
    let stats = BumpAllocator::stats(&arena);
    println!(
        "arena: {} bytes used of {} reserved, for {} bytes of JSON",
        stats.used_bytes,
        stats.reserved_bytes,
        text.len()
    );
    Ok(())
}
