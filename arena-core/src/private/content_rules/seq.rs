//! A sequence still in the input, answered as `ContentDeserializer` answers a buffered one
//! (serde's `Content::Seq` and its `SeqDeserializer`).

use serde::de::{DeserializeSeed, Error, SeqAccess, Unexpected, Visitor};

use super::input::InputSeq;
use super::{Answer, Ask, Cx, Entries, Slot, answer_entries, finish, placeholder, replay};
use crate::{BumpAllocator, Value};

/// The elements of a sequence not read yet.
pub(crate) struct SeqNode<'s, 'de, 'bump, A: ?Sized, E> {
    seq: &'s mut dyn InputSeq<'de, 'bump, E>,
    cx: Cx<'bump, A, E>,
    /// Elements the visitor has taken (serde's count, in the length error).
    count: usize,
    /// The first element, read ahead to tell an empty sequence from another.
    peeked: Option<Value<'bump>>,
}

impl<'s, 'de, 'bump, A: ?Sized, E> SeqNode<'s, 'de, 'bump, A, E> {
    /// The elements `seq` has left.
    pub(crate) fn new(seq: &'s mut dyn InputSeq<'de, 'bump, E>, cx: Cx<'bump, A, E>) -> Self {
        Self {
            seq,
            cx,
            count: 0,
            peeked: None,
        }
    }
}

impl<'de, A, E> Answer<'de> for SeqNode<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    /// `ContentDeserializer`'s answers for `Content::Seq`.
    fn answer<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        match ask {
            Ask::Any
            | Ask::Seq
            | Ask::Struct
            | Ask::Bytes
            | Ask::TupleVariant
            | Ask::StructVariant => self.visit(visitor),
            _ => answer_entries(self, ask, visitor),
        }
    }

    fn human_readable(&self) -> bool {
        self.cx.human_readable
    }
}

impl<'de, A, E> Entries<'de> for SeqNode<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    const UNEXPECTED: Unexpected<'static> = Unexpected::Seq;

    fn visit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        let read = visitor.visit_seq(&mut self);
        if self.seq.failed() {
            return Err(placeholder());
        }
        let remaining = self.drain()?;
        finish(read, self.count, remaining, "sequence")
    }

    fn peek(&mut self) -> Result<bool, E> {
        self.peeked = self.seq.peek()?;
        Ok(self.peeked.is_some())
    }

    fn drain(&mut self) -> Result<usize, E> {
        let mut remaining = usize::from(self.peeked.take().is_some());
        while self.seq.skip()? {
            remaining += 1;
        }
        Ok(remaining)
    }
}

impl<'de, A, E> SeqAccess<'de> for SeqNode<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, E> {
        if let Some(first) = self.peeked.take() {
            self.count += 1;
            return replay(seed, &first, self.cx).map(Some);
        }
        if self.seq.failed() {
            return Err(placeholder());
        }
        let mut slot = Slot::new(seed, self.cx, None);
        if !self.seq.next(&mut slot)? {
            return Ok(None);
        }
        self.count += 1;
        slot.take().map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        let peeked = usize::from(self.peeked.is_some());
        self.seq.size_hint().map(|len| len + peeked)
    }
}
