use arena_core::ArenaDeserialize;
use core::marker::PhantomData;

// Neither a skipped field, nor one with a default, nor a `PhantomData` is read as the value.
#[derive(ArenaDeserialize)]
#[arena(transparent)]
struct S {
    #[arena(skip)]
    a: u8,
    #[arena(default)]
    b: u8,
    c: PhantomData<u8>,
}

fn main() {}
