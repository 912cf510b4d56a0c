//! [`DocumentStream`]: a stream of documents (JSON Lines, concatenated records), each read into
//! an arena the caller passes for that document.
//!
//! A std `Iterator` cannot yield values that borrow an arena the loop resets between items: the
//! iterator would hold the arena's borrow for as long as it lives. A document stream instead
//! takes the arena (or a seed) per call, so the value borrows the arena for that call only,
//! and a `while let` loop may reset the arena between documents. For a batch of documents per
//! arena, [`DocumentStream::iter_in`] lends a std `Iterator` over the stream with one arena
//! for as long as the batch lasts.

use crate::allocator::BumpAllocator;
use crate::arena_deserialize::ArenaDeserialize;
use crate::seed::ArenaSeed;

/// A stream of documents, each read into an arena chosen per document.
///
/// Implemented by the streams of the format modules (each behind its format's feature):
/// `json::SliceStream` and `json::ReaderStream`, and [`RecordStream`](crate::RecordStream) as
/// `postcard::SliceStream`, `msgpack::SliceStream` and `cbor::SliceStream`.
///
/// # Examples
///
/// One arena reset per document:
///
/// ```
/// use arena_core::{DocumentStream, SlabArena};
///
/// let mut arena = SlabArena::new();
/// let mut stream = arena_core::json::SliceStream::new(b"[1, 2]\n[3]\n[4, 5, 6]\n");
/// let mut total = 0;
/// while let Some(numbers) = stream.next_in::<&[u32], _>(&arena) {
///     total += numbers?.iter().sum::<u32>();
///     arena.reset();
/// }
/// assert_eq!(total, 21);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// A batch of documents per arena, then one reset:
///
/// ```
/// use arena_core::{DocumentStream, SlabArena};
///
/// let text = "{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3}\n{\"n\": 4}\n{\"n\": 5}\n";
/// let mut arena = SlabArena::new();
/// let mut stream = arena_core::json::SliceStream::new(text.as_bytes());
/// let (mut documents, mut batches) = (0, 0);
/// loop {
///     let mut in_batch = 0;
///     for doc in stream.iter_in::<&[(&str, u32)], _>(&arena).take(2) {
///         assert_eq!(doc?[0].0, "n");
///         in_batch += 1;
///     }
///     if in_batch == 0 {
///         break;
///     }
///     documents += in_batch;
///     batches += 1;
///     arena.reset();
/// }
/// assert_eq!((documents, batches), (5, 3));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait DocumentStream {
    /// The error of one document (the format's error type).
    type Error;

    /// Reads the next document with `seed` (its arena, limits and trust apply to this document
    /// alone); `None` at the end of the stream, and after an error that ends it (see each
    /// stream's docs). A document that fails is an `Err`, and the arena is rewound to where it
    /// was before it.
    fn next_seed<'bump, T, A>(
        &mut self,
        seed: ArenaSeed<'bump, T, A>,
    ) -> Option<Result<T, Self::Error>>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized;

    /// Reads the next document into `arena`, as [`next_seed`](Self::next_seed) with
    /// [`ArenaSeed::new`].
    #[inline]
    fn next_in<'bump, T, A>(&mut self, arena: &'bump A) -> Option<Result<T, Self::Error>>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        self.next_seed(ArenaSeed::new(arena))
    }

    /// A std `Iterator` reading the next documents into `arena`, each with a copy of
    /// [`ArenaSeed::new`]`(arena)`: for a batch of documents in one arena (`.take(n)`).
    #[inline]
    fn iter_in<'bump, T, A>(&mut self, arena: &'bump A) -> Documents<'_, 'bump, Self, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        self.iter_seed(ArenaSeed::new(arena))
    }

    /// A std `Iterator` reading the next documents, each with a copy of `seed` (its limits
    /// and trust apply to each document alone).
    #[inline]
    fn iter_seed<'bump, T, A>(
        &mut self,
        seed: ArenaSeed<'bump, T, A>,
    ) -> Documents<'_, 'bump, Self, T, A>
    where
        T: ArenaDeserialize<'bump, A>,
        A: BumpAllocator + ?Sized,
    {
        Documents { stream: self, seed }
    }
}

/// The `Iterator` of [`DocumentStream::iter_in`] and [`DocumentStream::iter_seed`]: the
/// stream's documents, each read with a copy of one seed.
pub struct Documents<'s, 'bump, S: ?Sized, T, A: ?Sized> {
    stream: &'s mut S,
    seed: ArenaSeed<'bump, T, A>,
}

impl<'bump, S, T, A> Iterator for Documents<'_, 'bump, S, T, A>
where
    S: DocumentStream + ?Sized,
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    type Item = Result<T, S::Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.stream.next_seed(self.seed)
    }
}

impl<S: ?Sized, T, A: ?Sized> core::fmt::Debug for Documents<'_, '_, S, T, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Documents")
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}
