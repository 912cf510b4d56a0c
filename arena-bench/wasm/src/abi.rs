//! The module's exports: buffers the harness writes into and reads from, and one call that
//! takes a JSON request and leaves a JSON response.
//!
//! The harness (`harness.mjs`) writes a request into the buffer [`ab_request`] returns, calls
//! [`ab_call`], and reads the response at [`ab_response_ptr`] / [`ab_response_len`]. A
//! document to read goes into the buffer [`ab_input`] returns, allocated at its exact size
//! once per instance. Requests:
//!
//! - `{"op":"info"}`: the build (`allocator`, `simd128`).
//! - `{"op":"generate","dataset":..,"size":..,"formats":[..]}`: writes the dataset's documents
//!   (the corpus from the JSON file in the input buffer) and answers where each is
//!   (`ptr`, `len`) with its owned digest; they stay until the next `generate`.
//! - `{"op":"cell",...}`: measures one cell over the input buffer ([`cell::CellRequest`]).
//!
//! A panic stores its message for [`ab_panic_ptr`] / [`ab_panic_len`] before the module traps.

use std::cell::RefCell;

use serde::Deserialize;
use serde_json::json;

use arena_bench::datasets::DatasetId;
use arena_bench::format::FormatId;

use crate::cell::{self, CellRequest};
use crate::documents::{self, Document};

thread_local! {
    /// The request the harness wrote.
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last response.
    static RESPONSE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The input document (or the corpus file to generate from).
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last generated documents.
    static DOCUMENTS: RefCell<Vec<Document>> = const { RefCell::new(Vec::new()) };
    /// The last panic's message.
    static PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A buffer of `len` bytes, zeroed, for the next request; its address.
#[unsafe(no_mangle)]
pub extern "C" fn ab_request(len: usize) -> *mut u8 {
    std::panic::set_hook(Box::new(|info| {
        PANIC.with_borrow_mut(|p| *p = info.to_string())
    }));
    REQUEST.with_borrow_mut(|r| {
        r.clear();
        r.resize(len, 0);
        r.as_mut_ptr()
    })
}

/// The input buffer, `len` bytes exactly (zeroed): its address.
#[unsafe(no_mangle)]
pub extern "C" fn ab_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|i| {
        *i = vec![0; len];
        i.as_mut_ptr()
    })
}

/// The last response's address.
#[unsafe(no_mangle)]
pub extern "C" fn ab_response_ptr() -> *const u8 {
    RESPONSE.with_borrow(Vec::as_ptr)
}

/// The last response's length.
#[unsafe(no_mangle)]
pub extern "C" fn ab_response_len() -> usize {
    RESPONSE.with_borrow(Vec::len)
}

/// The last panic's message: its address.
#[unsafe(no_mangle)]
pub extern "C" fn ab_panic_ptr() -> *const u8 {
    PANIC.with_borrow(|p| p.as_ptr())
}

/// The last panic's message: its length.
#[unsafe(no_mangle)]
pub extern "C" fn ab_panic_len() -> usize {
    PANIC.with_borrow(String::len)
}

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Request {
    Info,
    Generate {
        dataset: String,
        size: usize,
        formats: Vec<String>,
    },
    Cell(CellRequest),
}

/// Runs the request in the request buffer; the response is JSON: 0 for a result, 1 for
/// `{"error": ...}`.
#[unsafe(no_mangle)]
pub extern "C" fn ab_call() -> u32 {
    let response = REQUEST
        .with_borrow(|r| serde_json::from_slice::<Request>(r))
        .map_err(|e| format!("bad request: {e}"))
        .and_then(|request| answer(&request));
    let (code, body) = match response {
        Ok(body) => (0, body),
        Err(error) => (1, json!({ "error": error })),
    };
    RESPONSE.with_borrow_mut(|r| {
        *r = serde_json::to_vec(&body).unwrap_or_default();
    });
    code
}

fn answer(request: &Request) -> Result<serde_json::Value, String> {
    match request {
        Request::Info => Ok(json!({
            "allocator": crate::ALLOCATOR,
            "simd128": cfg!(target_feature = "simd128"),
            "pointer_width": usize::BITS,
        })),
        Request::Generate {
            dataset,
            size,
            formats,
        } => {
            let dataset = DatasetId::from_name(dataset)
                .ok_or_else(|| format!("unknown dataset {dataset}"))?;
            let formats = formats
                .iter()
                .map(|f| FormatId::from_name(f).ok_or_else(|| format!("unknown format {f}")))
                .collect::<Result<Vec<_>, _>>()?;
            DOCUMENTS.with_borrow_mut(|d| d.clear());
            let docs =
                INPUT.with_borrow(|json| documents::generate(dataset, *size, json, &formats))?;
            INPUT.with_borrow_mut(|i| *i = Vec::new());
            let listed: Vec<_> = docs
                .iter()
                .map(|d| {
                    json!({
                        "format": d.format.name(),
                        "ptr": d.bytes.as_ptr() as usize,
                        "len": d.bytes.len(),
                        "digest": format!("{:016x}", d.digest),
                    })
                })
                .collect();
            DOCUMENTS.with_borrow_mut(|d| *d = docs);
            Ok(json!({ "documents": listed }))
        }
        Request::Cell(req) => {
            let result = INPUT.with_borrow(|input| cell::run(req, input))?;
            serde_json::to_value(result).map_err(|e| e.to_string())
        }
    }
}
