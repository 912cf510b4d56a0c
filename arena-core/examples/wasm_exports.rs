//! Calling arena-core from JavaScript: a Wasm module that reads a JSON document handed over by
//! JavaScript into a [`SlabArena`] and answers from it, with no binding generator.
//!
//! ```sh
//! cargo build --release -p arena-core --example wasm_exports --target wasm32-unknown-unknown
//! node arena-core/examples/wasm_exports.mjs target/wasm32-unknown-unknown/release/examples/wasm_exports.wasm
//! ```
//!
//! JavaScript asks the module for an input buffer in its linear memory ([`input_buffer`]),
//! copies the document's bytes into it and calls [`largest`], then reads the answer's bytes
//! from linear memory. The read puts every string in the arena, which the call drops (its
//! chunks stay in the pool for the next call: Wasm memory never shrinks). Built for the host,
//! the exports are plain C functions and `main` makes the same call on a built-in document.

use arena_core::{ArenaDeserialize, SlabArena};

/// The document: a city and its districts.
#[derive(ArenaDeserialize)]
struct City<'bump> {
    name: &'bump str,
    districts: &'bump [District<'bump>],
}

/// One district.
#[derive(ArenaDeserialize)]
struct District<'bump> {
    #[serde(rename = "n")]
    name: &'bump str,
    population: u64,
}

/// A buffer of `len` bytes for JavaScript to copy a document into, freed by [`largest`].
#[unsafe(no_mangle)]
pub extern "C" fn input_buffer(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

std::thread_local! {
    /// The answer of the latest [`largest`] call, which JavaScript reads from linear memory.
    static ANSWER: core::cell::RefCell<String> = const { core::cell::RefCell::new(String::new()) };
}

/// Reads the JSON city in the buffer `ptr..ptr + len` from [`input_buffer`], frees the buffer,
/// and writes "DISTRICT of CITY" for its most populous district where [`answer_ptr`] and
/// [`answer_len`] find it. Returns the city's population, or -1 if the document is not a city
/// (the answer is then the error's message).
///
/// # Safety
///
/// `ptr` and `len` must be a buffer [`input_buffer`] returned for that `len`, not freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn largest(ptr: *mut u8, len: usize) -> f64 {
    // SAFETY: the caller passes a buffer `input_buffer` made, with its length: the box it
    // leaked.
    let input = unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(ptr, len)) };
    let arena = SlabArena::new();
    let (answer, population) = match arena_core::json::from_slice::<City, _>(&arena, &input) {
        Ok(city) => {
            let top = city.districts.iter().max_by_key(|d| d.population);
            let name = top.map_or("none", |d| d.name);
            let total: u64 = city.districts.iter().map(|d| d.population).sum();
            (format!("{name} of {}", city.name), total as f64)
        }
        Err(error) => (error.to_string(), -1.0),
    };
    ANSWER.with(|a| *a.borrow_mut() = answer);
    population
}

/// Where the latest answer's UTF-8 bytes start.
#[unsafe(no_mangle)]
pub extern "C" fn answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// How many bytes the latest answer has.
#[unsafe(no_mangle)]
pub extern "C" fn answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}

fn main() {
    let doc = br#"{"name": "Lyon", "districts": [{"n": "1er", "population": 29000}, {"n": "3e", "population": 103000}]}"#;
    let buffer = input_buffer(doc.len());
    // SAFETY: `buffer` holds `doc.len()` bytes (just made) and `doc` is another allocation.
    unsafe { core::ptr::copy_nonoverlapping(doc.as_ptr(), buffer, doc.len()) };
    // SAFETY: the buffer `input_buffer` just returned, with its length.
    let population = unsafe { largest(buffer, doc.len()) };
    let answer = ANSWER.with(|a| a.borrow().clone());
    assert_eq!((population, answer.as_str()), (132_000.0, "3e of Lyon"));
    println!("{answer}: {population}");
}
