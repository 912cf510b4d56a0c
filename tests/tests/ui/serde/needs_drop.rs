//! A type read with `#[arena(serde)]` must need no drop: the error names the field and the type.
use arena_core::ArenaDeserialize;

#[derive(ArenaDeserialize)]
struct Release<'bump> {
    name: &'bump str,
    #[arena(serde)]
    version: semverish::Version,
}

mod semverish {
    /// Owns heap memory, as `semver::Version` does.
    #[derive(serde::Deserialize)]
    pub struct Version {
        pub pre: String,
    }
}

fn main() {}
