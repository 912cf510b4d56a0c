//! Strings and byte strings read as a sequence of `u8`, for a call reading from
//! [`Input::ByteSeq`]: bincode from a reader.
//!
//! bincode writes a string, a byte string and a `Vec<u8>` alike: the length as a `u64`, then
//! the bytes. Asked for a sequence, its reader decoder reads that length and hands the bytes
//! over one at a time; so the length the input claims is checked against the limits before
//! any byte is read, and the bytes collect on the scratch stack (whose memory is reused from
//! one string to the next), growing only with the bytes that arrive, before one copy into the
//! arena. Asked for a string or a byte string instead, the same decoder allocates a buffer of
//! the claimed length before reading a byte of it (an input of a few bytes can claim a
//! terabyte), and a `String` or `Vec` per string.
//!
//! [`Input::ByteSeq`]: crate::call::strings::Input::ByteSeq

use core::fmt;

use serde::Deserializer;
use serde::de::{SeqAccess, Visitor};

use crate::call;
use crate::limits::LimitHit;
use crate::scratch::ScratchVec;
use crate::{AllocError, BumpAllocator};

/// Reads a sequence of `u8` into the arena, as a string's or a byte string's bytes (charged to
/// the budget and checked against the string length limit like them).
pub(crate) fn deserialize<'de, 'bump, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<&'bump mut [u8], D::Error>
where
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    deserializer.deserialize_seq(ByteSeqVisitor(arena))
}

struct ByteSeqVisitor<'bump, A: ?Sized>(&'bump A);

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for ByteSeqVisitor<'bump, A> {
    type Value = &'bump mut [u8];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence of bytes")
    }

    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
        let claimed = seq.size_hint();
        if let Some(claimed) = claimed {
            call::check_str_len(claimed).map_err(LimitHit::into_de)?;
        }
        // Reserves what the claim says within serde's cautious bound (1 MiB), no more.
        let mut bytes = ScratchVec::<u8>::new(claimed).map_err(AllocError::into_de)?;
        while let Some(byte) = seq.next_element::<u8>()? {
            bytes.push(byte).map_err(AllocError::into_de)?;
        }
        call::admit_str(bytes.len()).map_err(LimitHit::into_de)?;
        bytes.finish_in(self.0).map_err(AllocError::into_de)
    }
}
