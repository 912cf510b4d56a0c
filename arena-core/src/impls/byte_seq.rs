//! Strings and byte strings read as a sequence of `u8`, for a call reading from
//! [`Input::ByteSeq`]: bincode from a reader.
//!
//! bincode writes a string, a byte string and a `Vec<u8>` alike: the length as a `u64`, then
//! the bytes. Asked for a sequence, its reader decoder reads that length and hands the bytes
//! over one at a time; so the length the input claims is checked against the limits before
//! any byte is read. A claim up to 64 KiB is then allocated in the arena and filled in place;
//! a longer one collects on the scratch stack (whose memory is reused from one string to the
//! next), growing only with the bytes that arrive, before one copy into the arena. Asked for a string or a byte string instead, the same decoder allocates a buffer of
//! the claimed length before reading a byte of it (an input of a few bytes can claim a
//! terabyte), and a `String` or `Vec` per string.
//!
//! [`Input::ByteSeq`]: crate::call::strings::Input::ByteSeq

use core::fmt;

use serde::Deserializer;
use serde::de::{Error, SeqAccess, Visitor};

use crate::call;
use crate::limits::LimitHit;
use crate::scratch::ScratchVec;
use crate::{AllocError, BumpAllocator, BumpAllocatorExt};

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

    fn visit_seq<S: SeqAccess<'de>>(self, seq: S) -> Result<Self::Value, S::Error> {
        let claimed = seq.size_hint();
        if let Some(claimed) = claimed {
            call::check_str_len(claimed).map_err(LimitHit::into_de)?;
        }
        match claimed {
            Some(len) if len <= DIRECT_MAX => fill_in_place(self.0, seq, len),
            _ => collect(self.0, seq, claimed),
        }
    }
}

/// Claimed lengths up to this many bytes are allocated in the arena before their bytes are
/// read, and filled in place; longer ones collect on the scratch stack as they arrive. It
/// bounds what a claim alone can make the read allocate (an input claiming more fails at its
/// end, before the next claim is read, and its call rewinds).
const DIRECT_MAX: usize = 64 * 1024;

/// Reads exactly `len` bytes into a block of the arena: the sequence's own length, which a
/// format asked for a sequence of bytes states exactly (bincode).
#[expect(
    clippy::mut_from_ref,
    reason = "an arena hands out unique borrows of fresh memory, as bumpalo::Bump::alloc does"
)]
fn fill_in_place<'de, 'bump, A, S>(
    arena: &'bump A,
    mut seq: S,
    len: usize,
) -> Result<&'bump mut [u8], S::Error>
where
    A: BumpAllocator + ?Sized,
    S: SeqAccess<'de>,
{
    call::admit_str(len).map_err(LimitHit::into_de)?;
    let block = arena
        .try_alloc_uninit_slice::<u8>(len)
        .map_err(AllocError::into_de)?;
    for (i, slot) in block.iter_mut().enumerate() {
        match seq.next_element::<u8>()? {
            Some(byte) => {
                slot.write(byte);
            }
            None => return Err(S::Error::invalid_length(i, &ByteSeqVisitor(arena))),
        }
    }
    if seq.next_element::<u8>()?.is_some() {
        return Err(S::Error::invalid_length(len + 1, &ByteSeqVisitor(arena)));
    }
    // SAFETY: the loop wrote every one of the block's `len` bytes (it returns on the first it
    // cannot); `MaybeUninit<u8>` and `u8` have the same layout.
    Ok(unsafe { &mut *(core::ptr::from_mut(block) as *mut [u8]) })
}

/// Collects the bytes on the scratch stack as they arrive, then copies them into the arena.
fn collect<'de, 'bump, A, S>(
    arena: &'bump A,
    mut seq: S,
    claimed: Option<usize>,
) -> Result<&'bump mut [u8], S::Error>
where
    A: BumpAllocator + ?Sized,
    S: SeqAccess<'de>,
{
    // Reserves what the claim says within serde's cautious bound (1 MiB), no more.
    let mut bytes = ScratchVec::<u8>::new(claimed).map_err(AllocError::into_de)?;
    while let Some(byte) = seq.next_element::<u8>()? {
        bytes.push(byte).map_err(AllocError::into_de)?;
    }
    call::admit_str(bytes.len()).map_err(LimitHit::into_de)?;
    bytes.move_into(arena).map_err(AllocError::into_de)
}
