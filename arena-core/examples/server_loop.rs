//! A server-style loop: one [`ChunkPool`] shared by every request, a fresh [`SlabArena`] per
//! request, [`Limits`] on untrusted input, and the pool's statistics at the end.
//!
//! Each request's arena takes chunks from the pool and gives them back when it drops, so after
//! the first few requests the loop makes no system calls at all. Hostile requests (too many
//! bytes, too many elements, a string too long) fail with an error naming the limit, and their arena is
//! rewound and dropped like any other.
//!
//! ```sh
//! cargo run -p arena-core --example server_loop
//! ```

use std::sync::Arc;

use arena_core::{ArenaDeserialize, ArenaSeed, ChunkPool, Limits, SlabArena};

/// A request body: a batch of measurements from one device.
#[derive(ArenaDeserialize)]
struct Batch<'bump> {
    device: &'bump str,
    readings: &'bump [Reading<'bump>],
}

#[derive(ArenaDeserialize)]
struct Reading<'bump> {
    sensor: &'bump str,
    value: f64,
}

/// What one request may cost: these bound the arena whatever the body claims.
fn limits() -> Limits {
    Limits::default()
        .max_bytes(1 << 20)
        .max_depth(16)
        .max_len(10_000)
        .max_str_len(256)
}

/// A well-formed body with `n` readings.
fn body(device: usize, n: usize) -> String {
    let readings: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"sensor": "s{i}", "value": {}.5}}"#, i % 40))
        .collect();
    format!(
        r#"{{"device": "dev-{device}", "readings": [{}]}}"#,
        readings.join(",")
    )
}

fn main() {
    // One pool for the whole server (`ChunkPool::global()` is another choice).
    let pool = Arc::new(ChunkPool::new());

    let mut requests: Vec<String> = (0..200).map(|i| body(i, 1 + i % 50)).collect();
    // Three hostile bodies among them.
    let long_sensor = format!(r#"{{"sensor": "{}", "value": 1.0}}"#, "s".repeat(200));
    requests.push(format!(
        r#"{{"device": "big", "readings": [{}]}}"#,
        vec![long_sensor; 9_000].join(",")
    ));
    requests.push(format!(
        r#"{{"device": "{}", "readings": []}}"#,
        "x".repeat(1000)
    ));
    requests.push(body(999, 20_000));

    let (mut served, mut refused, mut readings) = (0, 0, 0);
    // What outlives a request is copied out of its arena.
    let mut hottest: Vec<String> = Vec::new();
    for request in &requests {
        let arena = SlabArena::with_pool(Arc::clone(&pool));
        let seed = ArenaSeed::new(&arena).with_limits(limits());
        match arena_core::json::from_str_seed::<Batch, _>(seed, request) {
            Ok(batch) => {
                served += 1;
                readings += batch.readings.len();
                // Strings read into the arena are plain `&str`s until the arena drops.
                let hot = batch.readings.iter().filter(|r| r.value > 39.0);
                hottest.extend(hot.map(|r| format!("{}/{}", batch.device, r.sensor)));
            }
            Err(error) => {
                refused += 1;
                println!("refused: {error}");
            }
        }
        // The arena drops here: its chunks go back to the pool for the next request.
    }
    println!("served {served} requests ({readings} readings), refused {refused}");
    println!(
        "{} readings above 39.0, first {:?}",
        hottest.len(),
        hottest.first()
    );
    println!("\n{}", pool.stats());
}
