//! [`RecordStream`]: the records of a slice in a binary format (postcard, MessagePack, CBOR),
//! written one after another with nothing between them, each read into an arena.

use core::marker::PhantomData;

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;
use crate::stream::DocumentStream;

/// How a format reads one record from the front of a slice. Not public API: the format
/// modules implement it.
#[doc(hidden)]
pub trait RecordFormat {
    /// The format's error.
    type Error;

    /// Reads one record from the front of `input` with `seed`, and says how many bytes it
    /// took.
    ///
    /// # Errors
    ///
    /// The format's error when the front of `input` is no `T`.
    fn read_record<'bump, T, A>(
        seed: ArenaSeed<'bump, T, A>,
        input: &[u8],
    ) -> Result<(T, usize), Self::Error>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized;
}

/// The records of a slice written one after another in a binary format (a file of
/// concatenated postcard, MessagePack or CBOR messages), each read with the format's entry point's
/// reader into the arena [`next_in`](DocumentStream::next_in) or
/// [`next_seed`](DocumentStream::next_seed) is given (limits and trust per record). The
/// format modules name it: `postcard::SliceStream`, `msgpack::SliceStream`,
/// `cbor::SliceStream`.
///
/// The stream ends where the input does. A record that does not read (a truncated last
/// record, bytes that are no record) gives the format's error, the arena rewound, and ends the
/// stream: every later call returns `None`, since nothing says where the next record would
/// start. A record that takes no bytes (a postcard `()`) ends the stream after it, which
/// would otherwise not move. Memory: nothing beyond the arena.
///
/// # Examples
///
/// ```
/// use arena_core::{DocumentStream, SlabArena};
///
/// let mut bytes = postcard::to_allocvec(&("a", 1u32)).unwrap();
/// bytes.extend(postcard::to_allocvec(&("bc", 2u32)).unwrap());
/// let mut stream = arena_core::postcard::SliceStream::new(&bytes);
/// let mut arena = SlabArena::new();
/// let mut names = String::new();
/// while let Some(record) = stream.next_in::<(&str, u32), _>(&arena) {
///     names.push_str(record?.0);
///     arena.reset();
/// }
/// assert_eq!((names.as_str(), stream.byte_offset()), ("abc", bytes.len()));
/// # Ok::<(), postcard::Error>(())
/// ```
pub struct RecordStream<'de, F> {
    /// What is left to read.
    input: &'de [u8],
    /// How many bytes the records read so far took.
    offset: usize,
    /// Whether a record ended the stream.
    ended: bool,
    format: PhantomData<fn() -> F>,
}

impl<'de, F> RecordStream<'de, F> {
    /// A stream at the start of `input`.
    #[must_use]
    pub const fn new(input: &'de [u8]) -> Self {
        Self {
            input,
            offset: 0,
            ended: false,
            format: PhantomData,
        }
    }

    /// How many bytes of the input the records read so far took (the start of the record a
    /// failure ended the stream at).
    #[must_use]
    pub const fn byte_offset(&self) -> usize {
        self.offset
    }

    /// The input after the records read so far.
    #[must_use]
    pub const fn remaining(&self) -> &'de [u8] {
        self.input
    }
}

impl<F> core::fmt::Debug for RecordStream<'_, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RecordStream")
            .field("remaining", &self.input.len())
            .field("offset", &self.offset)
            .field("ended", &self.ended)
            .finish()
    }
}

impl<F: RecordFormat> DocumentStream for RecordStream<'_, F> {
    type Error = F::Error;

    fn next_seed<'bump, T, A>(
        &mut self,
        seed: ArenaSeed<'bump, T, A>,
    ) -> Option<Result<T, F::Error>>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        if self.ended || self.input.is_empty() {
            return None;
        }
        Some(match F::read_record(seed, self.input) {
            Ok((value, len)) => {
                self.ended = len == 0;
                self.input = &self.input[len..];
                self.offset += len;
                Ok(value)
            }
            Err(err) => {
                self.ended = true;
                Err(err)
            }
        })
    }
}
