//! [`Records`]: how [`SliceStream`](super::SliceStream) reads one postcard record.

use ::postcard::{Deserializer, Error};
use serde::de::DeserializeSeed;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::record_stream::RecordFormat;
use crate::seed::ArenaSeed;

/// postcard's records, read as [`from_bytes_seed`](super::from_bytes_seed) reads one, the
/// rest of the input handed back as `take_from_bytes` does.
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
        let seed = seed
            .str_as_bytes_unless_set(true)
            .reading_slice(input.len());
        let mut de = Deserializer::from_bytes(input);
        let value = seed.deserialize(&mut de)?;
        let rest = de.finalize()?;
        Ok((value, input.len() - rest.len()))
    }
}
