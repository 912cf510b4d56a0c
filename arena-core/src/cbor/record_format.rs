//! [`Records`]: how [`SliceStream`](super::SliceStream) reads one CBOR data item.

use core::convert::Infallible;

use ::cbor4ii::core::dec;
use ::cbor4ii::serde::{DecodeError, Deserializer};
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::record_stream::RecordFormat;
use crate::seed::ArenaSeed;

/// CBOR data items, read as [`from_slice_seed`](super::from_slice_seed) reads one, through a
/// slice reader that counts what it consumed (cbor4ii's `SliceReader` does not say).
#[derive(Debug)]
pub struct Records;

impl RecordFormat for Records {
    type Error = DecodeError<Infallible>;

    fn read_record<'bump, T, A>(
        seed: ArenaSeed<'bump, T, A>,
        input: &[u8],
    ) -> Result<(T, usize), Self::Error>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        let mut de = Deserializer::new(CountingSlice::new(input));
        let value = seed
            .reading_either_form()
            .reading_slice(input.len())
            .deserialize(&mut de)?;
        Ok((value, input.len() - de.into_inner().rest.len()))
    }
}

/// cbor4ii's `SliceReader` (the same reads, the same nesting limit of 256), whose rest is
/// known.
struct CountingSlice<'de> {
    /// What is left to read.
    rest: &'de [u8],
    /// How many more levels may open.
    limit: usize,
}

impl<'de> CountingSlice<'de> {
    const fn new(input: &'de [u8]) -> Self {
        Self {
            rest: input,
            limit: 256,
        }
    }
}

impl<'de> dec::Read<'de> for CountingSlice<'de> {
    type Error = Infallible;

    #[inline]
    fn fill<'short>(
        &'short mut self,
        want: usize,
    ) -> Result<dec::Reference<'de, 'short>, Infallible> {
        let len = self.rest.len().min(want);
        Ok(dec::Reference::Long(&self.rest[..len]))
    }

    #[inline]
    fn advance(&mut self, n: usize) {
        let len = self.rest.len().min(n);
        self.rest = &self.rest[len..];
    }

    #[inline]
    fn step_in(&mut self) -> bool {
        match self.limit.checked_sub(1) {
            Some(limit) => {
                self.limit = limit;
                true
            }
            None => false,
        }
    }

    #[inline]
    fn step_out(&mut self) {
        self.limit += 1;
    }
}
