//! A dynamic document: JSON read into an [`arena_core::Value`] with no model, a few paths
//! looked up, and one sub-tree handed to typed code without reparsing.
//!
//! ```sh
//! cargo run -p arena-core --example value_document
//! ```

use arena_core::{ArenaDeserialize, ArenaSeed, SlabArena, Value};
use serde::de::DeserializeSeed;

/// The one part of the document this program has a model for.
#[derive(ArenaDeserialize)]
struct Author<'bump> {
    name: &'bump str,
    followers: u64,
}

/// A response from an API whose shape is only partly known.
const RESPONSE: &str = r#"{
  "status": "ok",
  "meta": {"took_ms": 12, "region": "eu-west"},
  "items": [
    {"kind": "post", "author": {"name": "Ada", "followers": 1200}, "likes": 31},
    {"kind": "ad", "sponsor": "Teapots Inc."},
    {"kind": "post", "author": {"name": "Grace", "followers": 980}, "likes": 7}
  ]
}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arena = SlabArena::new();
    let doc: Value = arena_core::json::from_str(&arena, RESPONSE)?;

    // Look-ups by key, index and JSON pointer, as with `serde_json::Value`.
    println!("status: {:?}", doc["status"].as_str());
    println!(
        "took: {:?} ms",
        doc.pointer("/meta/took_ms").and_then(Value::as_u64)
    );

    let items = doc["items"].as_array().unwrap_or_default();
    for item in items {
        if item["kind"].as_str() != Some("post") {
            continue;
        }
        // Replay the sub-tree into a typed value in the same arena: no text is parsed again.
        // A `&Value` is a `Deserializer` (human-readable, as JSON is; its error an
        // `arena_core::ValueError`).
        let author: Author = ArenaSeed::new(&arena).deserialize(&item["author"])?;
        println!(
            "{} ({} followers): {} likes",
            author.name,
            author.followers,
            item["likes"].as_u64().unwrap_or(0)
        );
    }

    // A `Value` writes back with serde, here as compact JSON.
    println!("meta: {}", serde_json::to_string(&doc["meta"])?);
    println!(
        "{} bytes of arena for {} bytes of JSON",
        arena_core::BumpAllocator::stats(&arena).used_bytes,
        RESPONSE.len()
    );
    Ok(())
}
