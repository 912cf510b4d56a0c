//! How many cases a property test runs.

/// The environment variable that caps every suite's case count: set by CI for the runs under
/// an emulator (qemu), where a case costs tens of times what it costs natively.
pub const MAX_CASES_VAR: &str = "ARENA_TESTS_MAX_CASES";

/// `normal`, or at most the count [`MAX_CASES_VAR`] gives when it is set to a number (at least
/// one case runs). `ProptestConfig::with_cases` ignores proptest's own `PROPTEST_CASES`, so a
/// suite that fixes its count passes it through this to stay adjustable.
///
/// ```
/// use proptest::prelude::*;
/// use proptest::test_runner::{Config, TestRunner};
///
/// // 4096 cases, or ARENA_TESTS_MAX_CASES if that is fewer.
/// let mut runner = TestRunner::new(Config::with_cases(arena_tests::cases(4096)));
/// runner
///     .run(&prop::collection::vec(any::<u8>(), 0..8), |v| {
///         let mut w = v.clone();
///         w.reverse();
///         w.reverse();
///         prop_assert_eq!(w, v);
///         Ok(())
///     })
///     .unwrap();
/// ```
pub fn cases(normal: u32) -> u32 {
    cap(normal, std::env::var(MAX_CASES_VAR).ok().as_deref())
}

/// `normal` capped by `max`, a decimal count; a `max` that is no number leaves it as it is.
fn cap(normal: u32, max: Option<&str>) -> u32 {
    match max.and_then(|max| max.trim().parse::<u32>().ok()) {
        Some(max) => normal.min(max.max(1)),
        None => normal,
    }
}

#[cfg(test)]
mod tests {
    use super::cap;

    #[test]
    fn a_cap_lowers_the_count_and_never_raises_it() {
        assert_eq!(cap(4096, None), 4096);
        assert_eq!(cap(4096, Some("512")), 512);
        assert_eq!(cap(32, Some("512")), 32);
        assert_eq!(cap(32, Some(" 8 ")), 8);
        assert_eq!(cap(32, Some("0")), 1);
        assert_eq!(cap(32, Some("many")), 32);
    }
}
