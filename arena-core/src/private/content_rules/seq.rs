//! A sequence still in the input, answered as `ContentDeserializer` answers a buffered one
//! (serde's `Content::Seq` and its `SeqDeserializer`).

use core::cell::Cell;

use serde::de::{DeserializeSeed, Error, SeqAccess, Unexpected, Visitor};

use super::skip::Skip;
use super::{
    Answer, Ask, Cx, Entries, Held, RulesSeed, answer_entries, finish, hold, is_held, lift,
    placeholder, replay,
};
use crate::arena_deserialize::NestedSeed;
use crate::{BumpAllocator, Value};

/// The elements of a sequence not read yet, from the access `seq` whose errors `held` holds.
pub(crate) struct SeqNode<'h, 'bump, Q, S, A: ?Sized, E> {
    seq: Q,
    held: &'h Cell<Held<S>>,
    cx: Cx<'bump, A, E>,
    /// Elements the visitor has taken (serde's count, in the length error).
    count: usize,
    /// The first element, read ahead to tell an empty sequence from another (see `answer`).
    peeked: Option<Value<'bump>>,
}

impl<'h, 'bump, Q, S, A: ?Sized, E> SeqNode<'h, 'bump, Q, S, A, E> {
    /// The rest of `seq`, its errors held in `held`.
    pub(crate) const fn new(seq: Q, held: &'h Cell<Held<S>>, cx: Cx<'bump, A, E>) -> Self {
        Self {
            seq,
            held,
            cx,
            count: 0,
            peeked: None,
        }
    }
}

impl<'de, Q, S, A, E> Answer<'de> for SeqNode<'_, '_, Q, S, A, E>
where
    Q: SeqAccess<'de, Error = S>,
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

impl<'de, 'bump, Q, S, A, E> Entries<'de> for SeqNode<'_, 'bump, Q, S, A, E>
where
    Q: SeqAccess<'de, Error = S>,
    A: BumpAllocator + ?Sized,
    E: Error,
{
    const UNEXPECTED: Unexpected<'static> = Unexpected::Seq;

    fn visit<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, E> {
        let read = visitor.visit_seq(&mut self);
        if is_held(self.held) {
            return Err(placeholder());
        }
        let remaining = self.drain()?;
        finish(read, self.count, remaining, "sequence")
    }

    fn peek(&mut self) -> Result<bool, E> {
        let first = self
            .seq
            .next_element_seed(NestedSeed::<Value<'bump>, A>::new(self.cx.arena))
            .map_err(|error| hold(self.held, error))?;
        self.peeked = first;
        Ok(self.peeked.is_some())
    }

    fn drain(&mut self) -> Result<usize, E> {
        let mut remaining = usize::from(self.peeked.take().is_some());
        loop {
            match self.seq.next_element_seed(Skip::new(None)) {
                Ok(Some(_)) => remaining += 1,
                Ok(None) => return Ok(remaining),
                Err(error) => return Err(hold(self.held, error)),
            }
        }
    }
}

impl<'de, Q, S, A, E> SeqAccess<'de> for SeqNode<'_, '_, Q, S, A, E>
where
    Q: SeqAccess<'de, Error = S>,
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
        if is_held(self.held) {
            return Err(placeholder());
        }
        match self
            .seq
            .next_element_seed(RulesSeed::new(seed, self.cx, None))
        {
            Ok(Some(read)) => {
                self.count += 1;
                lift(self.held, Ok(read)).map(Some)
            }
            Ok(None) => Ok(None),
            Err(error) => Err(hold(self.held, error)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        let peeked = usize::from(self.peeked.is_some());
        self.seq.size_hint().map(|len| len + peeked)
    }
}
