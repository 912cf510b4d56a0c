//! The clock the strategies time with: `std::time::Instant`, except on
//! `wasm32-unknown-unknown`, which has no clock (`Instant::now` panics there): there it is
//! `env.now` (milliseconds), which the Wasm bench's harness (`arena-bench/wasm/harness.mjs`)
//! provides: the engine's `performance.now()`, or in Node with `--clock=cpu` the process's CPU
//! time.

pub use core::time::Duration;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use engine::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod engine {
    use core::time::Duration;

    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        /// The harness's clock in milliseconds, never decreasing: `performance.now()` (since
        /// the page or process started), or the process's CPU time (`--clock=cpu`).
        safe fn now() -> f64;
    }

    /// A point in time, in the engine's milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        #[must_use]
        pub fn now() -> Self {
            Self(now())
        }

        /// The time since `self`.
        #[must_use]
        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((now() - self.0).max(0.0) / 1e3)
        }
    }
}
