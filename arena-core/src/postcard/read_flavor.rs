//! [`ReadFlavor`]: postcard's input [`Flavor`] over a [`std::io::Read`], for
//! [`from_reader`](super::from_reader).
//!
//! postcard's own reader flavor (`postcard::from_io`, `de_flavors::io`) reads every string into
//! one buffer the caller provides, and never reuses a byte of it: the buffer must hold every
//! string of the message at once. Here the bytes postcard only looks at while it reads them
//! (`try_take_n_temp`: the strings and byte strings the arena asks for in their temporary
//! forms, chars, floats) go into one buffer reused from one to the next, and the bytes it
//! borrows for as long as the deserializer lives (`try_take_n`: `deserialize_str` and
//! `deserialize_bytes`, which only impls other than the arena's ask for here) are copied into
//! the arena, which outlives it.
//!
//! A length the input claims is never allocated before its bytes arrive: up to [`CHUNK`]
//! bytes are read in one piece, longer ones grow the buffer with what the reader hands over,
//! so an input of a few bytes claiming a terabyte fails at its end having allocated what it
//! held. A claim longer than the call's string length limit fails before anything is read.
//!
//! The flavor reads exactly the message, byte by byte where postcard asks for one (every
//! varint), so the reader is left right after it, as `postcard::from_io` leaves it, and each
//! of those bytes is one `read` call: a reader with a cost per call (a `File`, a socket) wants
//! a `BufReader` around it.

use std::io::Read;

use postcard::de_flavors::Flavor;
use postcard::{Error, Result};

use crate::call;
use crate::limits::LimitHit;
use crate::{AllocError, BumpAllocator, BumpAllocatorExt};

/// Claimed lengths up to this many bytes are read in one `read_exact` into the buffer, which is
/// sized for them first; longer ones grow it as their bytes arrive. It bounds what a claim
/// alone can make the flavor allocate.
const CHUNK: usize = 64 * 1024;

/// The longest item postcard takes with a length of its own choosing (an `f64`); a longer take
/// is a string or a byte string, checked against the string length limit before it is read.
const LONGEST_FIXED: usize = 8;

/// A postcard [`Flavor`] reading from `reader`, with a reusable buffer and the arena of the
/// call for the bytes postcard borrows.
pub(crate) struct ReadFlavor<'bump, R, A: ?Sized> {
    reader: R,
    arena: &'bump A,
    /// The bytes of the last take, at its front; reused by every take.
    buf: Vec<u8>,
}

impl<'bump, R: Read, A: BumpAllocator + ?Sized> ReadFlavor<'bump, R, A> {
    /// A flavor reading from `reader`, copying borrowed bytes into `arena`.
    pub(crate) const fn new(reader: R, arena: &'bump A) -> Self {
        Self {
            reader,
            arena,
            buf: Vec::new(),
        }
    }

    /// Reads the next `ct` bytes into the front of the buffer.
    fn fill(&mut self, ct: usize) -> Result<()> {
        if ct > LONGEST_FIXED {
            call::check_str_len(ct).map_err(LimitHit::into_de::<Error>)?;
        }
        if ct <= CHUNK {
            if self.buf.len() < ct {
                self.buf.resize(ct, 0);
            }
            return self
                .reader
                .read_exact(&mut self.buf[..ct])
                .map_err(io_error);
        }
        self.buf.clear();
        let limit = u64::try_from(ct).unwrap_or(u64::MAX);
        let read = (&mut self.reader)
            .take(limit)
            .read_to_end(&mut self.buf)
            .map_err(io_error)?;
        if read == ct {
            Ok(())
        } else {
            Err(Error::DeserializeUnexpectedEnd)
        }
    }
}

/// postcard's error for a reader that fails or ends early: `DeserializeUnexpectedEnd`, as its
/// own reader flavor reports both (postcard's error has no I/O variant).
fn io_error(_: std::io::Error) -> Error {
    Error::DeserializeUnexpectedEnd
}

impl<'de, 'bump: 'de, R, A> Flavor<'de> for ReadFlavor<'bump, R, A>
where
    R: Read + 'de,
    A: BumpAllocator + ?Sized,
{
    type Remainder = R;
    type Source = R;

    #[inline]
    fn pop(&mut self) -> Result<u8> {
        let mut byte = [0];
        self.reader.read_exact(&mut byte).map_err(io_error)?;
        Ok(byte[0])
    }

    /// Copies the bytes into the arena, charged to the call's budget: they must outlive the
    /// deserializer.
    fn try_take_n(&mut self, ct: usize) -> Result<&'de [u8]> {
        self.fill(ct)?;
        call::charge(ct).map_err(LimitHit::into_de::<Error>)?;
        let copy = self
            .arena
            .try_alloc_slice_copy(&self.buf[..ct])
            .map_err(AllocError::into_de::<Error>)?;
        Ok(copy)
    }

    #[inline]
    fn try_take_n_temp<'a>(&'a mut self, ct: usize) -> Result<&'a [u8]>
    where
        'de: 'a,
    {
        self.fill(ct)?;
        Ok(&self.buf[..ct])
    }

    fn finalize(self) -> Result<R> {
        Ok(self.reader)
    }
}
