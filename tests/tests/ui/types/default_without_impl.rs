//! A defaulted field whose type has no `Default`: the error points at the field's type.
use arena_core::ArenaDeserialize;

#[derive(Clone, Copy)]
struct NoDefault(u8);

impl<'de> serde::Deserialize<'de> for NoDefault {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <u8 as serde::Deserialize>::deserialize(d).map(NoDefault)
    }
}

arena_core::through_serde!(NoDefault);

#[derive(ArenaDeserialize)]
struct S {
    #[arena(default)]
    a: Option<u8>,
    #[arena(default)]
    b: NoDefault,
}

fn main() {}
