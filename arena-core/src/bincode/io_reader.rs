//! [`IoReader`]: bincode's [`Reader`] over a [`std::io::Read`], for
//! [`from_reader`](super::from_reader).
//!
//! bincode's own (`OwnedSerdeDecoder::from_std_read`) names a private type in its signature, so
//! it cannot be called from outside bincode; this is the same adapter: one `read_exact` per
//! read, nothing read ahead, so the reader is left right after the message.

use std::io::Read;

use ::bincode::de::read::Reader;
use ::bincode::error::DecodeError;

/// Reads what bincode asks for from `R`, exactly.
pub(crate) struct IoReader<R>(pub(crate) R);

impl<R: Read> Reader for IoReader<R> {
    #[inline]
    fn read(&mut self, bytes: &mut [u8]) -> Result<(), DecodeError> {
        self.0.read_exact(bytes).map_err(|inner| DecodeError::Io {
            inner,
            additional: bytes.len(),
        })
    }
}
