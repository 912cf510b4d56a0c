//! One cell's code behind pointers: a [`Cell`] is all a harness needs of a format, a dataset
//! and a strategy, so that the harnesses (the child's [`measure`](crate::measure::measure),
//! the criterion benchmarks, the profiling example) are compiled once, not once per cell.
//!
//! [`dispatch::cell`](crate::dispatch::cell) makes the cells. The code behind a cell is the
//! strategy's [`Strategy::once`] for that format and model, monomorphic and with the read
//! inlined in it, as a user's code would be; a document costs one indirect call more, outside
//! what `once` times, which is nothing beside a document's read.

use core::marker::PhantomData;

use crate::datasets::{Dataset, DatasetId};
use crate::format::{Format, FormatId};
use crate::strategy::{Observed, OsCalls, Sample, Strategy};
use crate::strategy_id::StrategyId;

/// One cell: its names and its code.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    /// The format read.
    pub format: FormatId,
    /// The dataset read (the model its code reads may be another dataset's, the same types).
    pub dataset: DatasetId,
    /// The strategy reading it.
    pub strategy: StrategyId,
    /// The code.
    pub code: Code,
}

/// A strategy's code for one format and model, behind pointers.
#[derive(Clone, Copy, Debug)]
pub struct Code {
    /// A reader with its state before the first document ([`Strategy::new_state`]).
    start: fn() -> Box<dyn Reader>,
    /// [`Strategy::os_calls`].
    os_calls: fn() -> Option<OsCalls>,
}

impl Code {
    /// The code of strategy `S` reading format `F` into the model of dataset `D`.
    #[must_use]
    pub fn of<F, D, S>() -> Self
    where
        F: Format + 'static,
        D: Dataset + 'static,
        S: Strategy<D> + 'static,
        S::State: 'static,
    {
        Self {
            start: || Box::new(Typed::<F, D, S>(S::new_state(), PhantomData)),
            os_calls: S::os_calls,
        }
    }

    /// A reader with its state before the first document: one per worker.
    #[must_use]
    pub fn start(&self) -> Box<dyn Reader> {
        (self.start)()
    }

    /// OS calls made so far outside the global allocator ([`Strategy::os_calls`]).
    #[must_use]
    pub fn os_calls(&self) -> Option<OsCalls> {
        (self.os_calls)()
    }
}

/// One strategy's state and its [`Strategy::once`] for one format and model.
pub trait Reader {
    /// Reads one document from `input`, filling `observe` when given ([`Strategy::once`]).
    ///
    /// # Errors
    ///
    /// The format's error, as text.
    fn once(&mut self, input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String>;
}

/// The [`Reader`] of strategy `S` on format `F` and the model of dataset `D`.
struct Typed<F, D: Dataset, S: Strategy<D>>(S::State, Types<F, D, S>);

/// The types a [`Typed`] reader stands for (it holds none of them).
type Types<F, D, S> = PhantomData<fn() -> (F, D, S)>;

impl<F: Format, D: Dataset, S: Strategy<D>> Reader for Typed<F, D, S> {
    fn once(&mut self, input: &[u8], observe: Option<&mut Observed>) -> Result<Sample, String> {
        S::once::<F>(&mut self.0, input, observe)
    }
}
