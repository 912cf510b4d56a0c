//! [`Records`]: how [`SliceStream`](super::SliceStream) reads one MessagePack value.

use ::rmp_serde::decode::Error;
use serde::de::DeserializeSeed;

use super::Deserializer;
use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::record_stream::RecordFormat;
use crate::seed::ArenaSeed;

/// MessagePack values, read as [`from_slice_seed`](super::from_slice_seed) reads one, the
/// reader's remaining slice the next one's start.
#[derive(Debug)]
pub struct Records;

impl RecordFormat for Records {
    type Error = Error;

    fn read_record<'bump, T, A>(
        seed: ArenaSeed<'bump, T, A>,
        input: &[u8],
    ) -> Result<(T, usize), Error>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        let mut de = Deserializer::from_slice(input);
        let value = seed.reading_slice(input.len()).deserialize(&mut de)?;
        Ok((value, input.len() - de.remaining_slice().len()))
    }
}
