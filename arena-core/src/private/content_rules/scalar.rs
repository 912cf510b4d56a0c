//! A value the format handed over whole (a number, a string, a unit ...), answered as
//! `ContentDeserializer` answers it.

use core::marker::PhantomData;

use serde::de::{DeserializeSeed, EnumAccess, Error, Unexpected, VariantAccess, Visitor};

use super::{Answer, Ask, Node, refuse};
use crate::value::wide;

/// What the format visited, at the width it visited it (serde's buffer keeps the width: an
/// identifier is read from an 8-bit or a 64-bit integer only).
#[derive(Clone, Copy)]
pub(crate) enum ScalarValue<'a, 'de> {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(f32),
    F64(f64),
    Char(char),
    Str(&'a str),
    BorrowedStr(&'de str),
    Bytes(&'a [u8]),
    BorrowedBytes(&'de [u8]),
    Unit,
    None,
}

impl ScalarValue<'_, '_> {
    /// An integer of any width and sign.
    const fn is_integer(self) -> bool {
        matches!(
            self,
            Self::I8(_)
                | Self::I16(_)
                | Self::I32(_)
                | Self::I64(_)
                | Self::I128(_)
                | Self::U8(_)
                | Self::U16(_)
                | Self::U32(_)
                | Self::U64(_)
                | Self::U128(_)
        )
    }

    /// A string.
    const fn is_str(self) -> bool {
        matches!(self, Self::Str(_) | Self::BorrowedStr(_))
    }

    /// A string or bytes.
    const fn is_text(self) -> bool {
        matches!(
            self,
            Self::Str(_) | Self::BorrowedStr(_) | Self::Bytes(_) | Self::BorrowedBytes(_)
        )
    }
}

/// A scalar node: its value and the source's `is_human_readable`.
pub(super) struct Scalar<'a, 'de, E> {
    value: ScalarValue<'a, 'de>,
    human_readable: bool,
    error: PhantomData<fn() -> E>,
}

impl<'a, 'de, E: Error> Scalar<'a, 'de, E> {
    /// The node of `value`, from a source answering `human_readable`.
    pub(super) const fn new(value: ScalarValue<'a, 'de>, human_readable: bool) -> Self {
        Self {
            value,
            human_readable,
            error: PhantomData,
        }
    }

    /// The visit the format made (serde's `deserialize_any` of the buffer).
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.value {
            ScalarValue::Bool(v) => visitor.visit_bool(v),
            ScalarValue::I8(v) => visitor.visit_i8(v),
            ScalarValue::I16(v) => visitor.visit_i16(v),
            ScalarValue::I32(v) => visitor.visit_i32(v),
            ScalarValue::I64(v) => visitor.visit_i64(v),
            ScalarValue::I128(v) => visitor.visit_i128(v),
            ScalarValue::U8(v) => visitor.visit_u8(v),
            ScalarValue::U16(v) => visitor.visit_u16(v),
            ScalarValue::U32(v) => visitor.visit_u32(v),
            ScalarValue::U64(v) => visitor.visit_u64(v),
            ScalarValue::U128(v) => visitor.visit_u128(v),
            ScalarValue::F32(v) => visitor.visit_f32(v),
            ScalarValue::F64(v) => visitor.visit_f64(v),
            ScalarValue::Char(v) => visitor.visit_char(v),
            ScalarValue::Str(v) => visitor.visit_str(v),
            ScalarValue::BorrowedStr(v) => visitor.visit_borrowed_str(v),
            ScalarValue::Bytes(v) => visitor.visit_bytes(v),
            ScalarValue::BorrowedBytes(v) => visitor.visit_borrowed_bytes(v),
            ScalarValue::Unit => visitor.visit_unit(),
            ScalarValue::None => visitor.visit_none(),
        }
    }

    /// serde's `invalid_type` for this value (`content_unexpected`; a 128-bit integer out of the
    /// 64-bit range in the words of serde's own visitors).
    #[cold]
    fn refuse<V: Visitor<'de>>(self, ask: Ask, visitor: &V) -> E {
        let unexpected = match self.value {
            ScalarValue::Bool(v) => Unexpected::Bool(v),
            ScalarValue::I8(v) => Unexpected::Signed(v.into()),
            ScalarValue::I16(v) => Unexpected::Signed(v.into()),
            ScalarValue::I32(v) => Unexpected::Signed(v.into()),
            ScalarValue::I64(v) => Unexpected::Signed(v),
            ScalarValue::I128(v) => match i64::try_from(v) {
                Ok(v) => Unexpected::Signed(v),
                Err(_) => return refuse(ask, Unexpected::Other(&wide("i128", v)), visitor),
            },
            ScalarValue::U8(v) => Unexpected::Unsigned(v.into()),
            ScalarValue::U16(v) => Unexpected::Unsigned(v.into()),
            ScalarValue::U32(v) => Unexpected::Unsigned(v.into()),
            ScalarValue::U64(v) => Unexpected::Unsigned(v),
            ScalarValue::U128(v) => match u64::try_from(v) {
                Ok(v) => Unexpected::Unsigned(v),
                Err(_) => return refuse(ask, Unexpected::Other(&wide("u128", v)), visitor),
            },
            ScalarValue::F32(v) => Unexpected::Float(v.into()),
            ScalarValue::F64(v) => Unexpected::Float(v),
            ScalarValue::Char(v) => Unexpected::Char(v),
            ScalarValue::Str(v) => Unexpected::Str(v),
            ScalarValue::BorrowedStr(v) => Unexpected::Str(v),
            ScalarValue::Bytes(v) => Unexpected::Bytes(v),
            ScalarValue::BorrowedBytes(v) => Unexpected::Bytes(v),
            ScalarValue::Unit => Unexpected::Unit,
            ScalarValue::None => Unexpected::Option,
        };
        refuse(ask, unexpected, visitor)
    }
}

impl<'de, E: Error> Answer<'de> for Scalar<'_, 'de, E> {
    type Error = E;

    /// `ContentDeserializer`'s answers, method by method; an integer of 128 bits is an integer
    /// (and a float) like any other.
    fn answer<V: Visitor<'de>>(self, ask: Ask, visitor: V) -> Result<V::Value, E> {
        let value = self.value;
        match ask {
            Ask::Any | Ask::UnitStruct => self.visit(visitor),
            Ask::Bool if matches!(value, ScalarValue::Bool(_)) => self.visit(visitor),
            Ask::Integer if value.is_integer() => self.visit(visitor),
            Ask::Float
                if value.is_integer()
                    || matches!(value, ScalarValue::F32(_) | ScalarValue::F64(_)) =>
            {
                self.visit(visitor)
            }
            Ask::Char if value.is_str() || matches!(value, ScalarValue::Char(_)) => {
                self.visit(visitor)
            }
            Ask::Str | Ask::Bytes if value.is_text() => self.visit(visitor),
            Ask::Identifier
                if value.is_text() || matches!(value, ScalarValue::U8(_) | ScalarValue::U64(_)) =>
            {
                self.visit(visitor)
            }
            Ask::Option => match value {
                ScalarValue::None => visitor.visit_none(),
                ScalarValue::Unit => visitor.visit_unit(),
                _ => visitor.visit_some(Node(self)),
            },
            Ask::Unit if matches!(value, ScalarValue::Unit) => visitor.visit_unit(),
            Ask::NewtypeStruct => visitor.visit_newtype_struct(Node(self)),
            Ask::Enum if value.is_str() => visitor.visit_enum(UnitVariant(self)),
            Ask::IgnoredAny => visitor.visit_unit(),
            _ => Err(self.refuse(ask, &visitor)),
        }
    }

    fn human_readable(&self) -> bool {
        self.human_readable
    }
}

/// A string read as an enum: a variant without content (serde's `EnumDeserializer` with no
/// value).
struct UnitVariant<'a, 'de, E>(Scalar<'a, 'de, E>);

impl<'de, E: Error> EnumAccess<'de> for UnitVariant<'_, 'de, E> {
    type Error = E;
    type Variant = NoContent<E>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, NoContent<E>), E> {
        let variant = seed.deserialize(Node(self.0))?;
        Ok((variant, NoContent(PhantomData)))
    }
}

/// The content of a variant given by its name alone.
struct NoContent<E>(PhantomData<fn() -> E>);

impl<'de, E: Error> VariantAccess<'de> for NoContent<E> {
    type Error = E;

    fn unit_variant(self) -> Result<(), E> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, E> {
        Err(E::invalid_type(Unexpected::UnitVariant, &"newtype variant"))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, E> {
        Err(E::invalid_type(Unexpected::UnitVariant, &"tuple variant"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, E> {
        Err(E::invalid_type(Unexpected::UnitVariant, &"struct variant"))
    }
}
