//! `SlabArena` as a deserialization arena: `ArenaDeserialize` types, hashbrown maps through
//! `&SlabArena: Allocator`, and the rewind of a failed deserialization.

use arena_core::{ArenaSeed, BumpAllocator, SlabArena};
use serde::de::DeserializeSeed;

type Map<'a> = hashbrown::HashMap<&'a str, &'a [u32], hashbrown::DefaultHashBuilder, &'a SlabArena>;

#[test]
fn documents_deserialize_into_a_slab_arena() {
    let mut arena = SlabArena::new();
    for round in 0..3 {
        let json = r#"{"one": [1], "two": [2, 2], "many": [1, 2, 3, 4, 5, 6, 7, 8]}"#;
        let mut de = serde_json::Deserializer::from_str(json);
        let map: Map<'_> = ArenaSeed::new(&arena).deserialize(&mut de).unwrap();
        assert_eq!(map.len(), 3, "round {round}");
        assert_eq!(map["two"], &[2, 2]);
        assert_eq!(map["many"].iter().sum::<u32>(), 36);
        assert!(arena.stats().used_bytes > 0);
        drop(map); // the map owns its table through `&arena`: done with it before reset
        arena.reset();
    }
}

#[test]
fn a_failed_deserialization_gives_its_bytes_back() {
    let arena = SlabArena::new();
    let kept: &[&str] = ArenaSeed::new(&arena)
        .deserialize(&mut serde_json::Deserializer::from_str(r#"["kept"]"#))
        .unwrap();
    let used = BumpAllocator::stats(&arena).used_bytes;
    // Large enough to take a new chunk before it fails.
    let long = "x".repeat(200_000);
    let bad = format!(r#"["{long}", "{long}", 17]"#);
    let result: Result<&[&str], _> =
        ArenaSeed::new(&arena).deserialize(&mut serde_json::Deserializer::from_str(&bad));
    assert!(result.is_err());
    assert_eq!(BumpAllocator::stats(&arena).used_bytes, used);
    assert_eq!(kept, ["kept"]);
    arena.check_invariants();
}
