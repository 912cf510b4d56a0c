//! Shared by the hostile-input tests: a thread with a small stack, and a document that fails
//! at its very end.

/// Runs `f` on a thread with a 2 MiB stack, the smallest common default (macOS secondary
/// threads use 512 KiB, Linux main threads 8 MiB), and returns what it returns: deep input
/// must not need more.
///
/// On wasm32, which has no threads, `f` runs on the calling thread: its stack is the module's
/// (1 MiB unless linked with another `-zstack-size`) and the engine's for the calls.
///
/// # Panics
///
/// When `f` panics.
pub fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    #[cfg(target_family = "wasm")]
    return f();
    #[cfg(not(target_family = "wasm"))]
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// A JSON array of a thousand strings that fails at its very end (a trailing comma): a read
/// that fails after allocating, for the rewind tests.
#[must_use]
pub fn failing_at_the_end() -> String {
    let mut bad = String::from("[");
    for i in 0..1000 {
        bad.push_str(&format!("\"string number {i}\","));
    }
    bad.push(']');
    bad
}
