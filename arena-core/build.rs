//! Declares the `arena_asan` cfg (set with `RUSTFLAGS="--cfg arena_asan"` together with
//! `-Zsanitizer=address`), under which the chunk pool poisons free memory for
//! AddressSanitizer, so `unexpected_cfgs` knows it.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(arena_asan)");
}
