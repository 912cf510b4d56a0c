//! A `Some` or a newtype struct whose content is still in the input, answered as
//! `ContentDeserializer` answers `Content::Some` and `Content::Newtype`.

use serde::de::{Error, Unexpected, Visitor};

use super::{Answer, Ask, Live, Node, refuse};
use crate::BumpAllocator;

/// What wraps the content.
#[derive(Clone, Copy)]
pub(crate) enum Wrapper {
    /// `visit_some` (a format that tells a present option apart).
    Some,
    /// `visit_newtype_struct` (a format that names newtype structs).
    Newtype,
}

/// The content `inner`, as `wrapper` handed it over.
pub(super) struct Wrapped<'i, 'de, 'bump, A: ?Sized, E> {
    wrapper: Wrapper,
    inner: Live<'i, 'de, 'bump, A, E>,
}

impl<'i, 'de, 'bump, A: ?Sized, E> Wrapped<'i, 'de, 'bump, A, E> {
    /// The content `inner`, as `wrapper` handed it over.
    pub(super) const fn new(wrapper: Wrapper, inner: Live<'i, 'de, 'bump, A, E>) -> Self {
        Self { wrapper, inner }
    }
}

impl<'de, A, E> Answer<'de> for Wrapped<'_, 'de, '_, A, E>
where
    A: BumpAllocator + ?Sized,
    E: Error,
{
    type Error = E;

    fn answer<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        match (self.wrapper, ask) {
            (Wrapper::Some, Ask::Any | Ask::Option | Ask::UnitStruct) => {
                visitor.visit_some(Node(self.inner))
            }
            (Wrapper::Newtype, Ask::Any | Ask::NewtypeStruct | Ask::UnitStruct) => {
                visitor.visit_newtype_struct(Node(self.inner))
            }
            (Wrapper::Some, Ask::NewtypeStruct) => visitor.visit_newtype_struct(Node(self)),
            (Wrapper::Newtype, Ask::Option) => visitor.visit_some(Node(self)),
            (_, Ask::IgnoredAny) => {
                self.inner.input.skip(None)?;
                visitor.visit_unit()
            }
            (wrapper, _) => {
                self.inner.input.skip(None)?;
                let unexpected = match wrapper {
                    Wrapper::Some => Unexpected::Option,
                    Wrapper::Newtype => Unexpected::NewtypeStruct,
                };
                Err(refuse(ask, unexpected, &visitor))
            }
        }
    }

    fn human_readable(&self) -> bool {
        self.inner.cx.human_readable
    }
}
