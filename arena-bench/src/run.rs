//! The command: the parent that prepares the data and starts one child process per cell, and
//! the child that measures it.
//!
//! Both binaries call [`main`] with their global allocator; its arguments say whether this
//! process is the parent or a child. `cli` parses the parent's [`Options`], `documents` makes
//! each dataset's [`Documents`], `parent` runs the matrix and writes the reports, `sweep` runs
//! the size sweep (`--sizes`) with the same children, `child` measures one cell.

mod child;
mod cli;
mod documents;
mod parent;
mod sweep;

pub use child::{LARGE_DOCUMENT_BYTES, LARGE_MIN_RUNS, MAX_RUNS, MIN_RUNS, min_runs};
pub use cli::{
    DEFAULT_BUDGET_MS, DEFAULT_CITY_BYTES, DEFAULT_LARGE_BYTES, DEFAULT_ROUNDS, FULL_ROUNDS,
    Options, SWEEP_FORMATS, SWEEP_STRATEGIES, parse_size, parse_sizes,
};
pub use documents::{Documents, ValueDigest, documents, documents_for};

use crate::strategy_id::GlobalAllocator;

/// A child that runs one measurement and returns it as JSON, or why it failed.
type JsonChild = fn(&[String]) -> Result<String, String>;

/// The binary's entry point: `arena_bench::run::main(GlobalAllocator::System)`.
pub fn main(allocator: GlobalAllocator) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        std::process::exit(child::child(allocator, &args[1..]));
    }
    let json_child: Option<JsonChild> = match args.first().map(String::as_str) {
        Some("--child-stream") => Some(crate::streaming::child),
        Some("--child-figure") => Some(crate::figures::child_figure),
        _ => None,
    };
    if let Some(run) = json_child {
        // A child that prints one JSON value, or its error on stderr.
        match run(&args[1..]) {
            Ok(json) => println!("{json}"),
            Err(why) => {
                eprintln!("{why}");
                std::process::exit(1);
            }
        }
        return;
    }
    let options = match Options::parse(&args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    if let Err(message) = parent::parent(&options, &args) {
        eprintln!("arena-bench: {message}");
        std::process::exit(1);
    }
}
