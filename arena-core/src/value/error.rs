//! [`ValueError`]: the error of reading a type out of a [`Value`](crate::Value) through
//! `&Value`'s `Deserializer`.

use core::fmt;

/// Why a [`Value`](crate::Value) did not read as the type asked of it: the error of the
/// `Deserializer` a `&Value` is (`T::deserialize(&value)`,
/// `ArenaSeed::new(&arena).deserialize(&value)`), as `serde_json::Error` is for a
/// `&serde_json::Value`.
///
/// It holds the message the type or the replay gave (serde's wording: ``invalid type: string
/// "a", expected u8``). A replay with another error type, the format's own for example, goes
/// through [`Value::deserializer`](crate::Value::deserializer).
///
/// # Examples
///
/// ```
/// use arena_core::{Value, ValueError};
/// use serde::Deserialize;
///
/// let bump = bumpalo::Bump::new();
/// let doc: Value = arena_core::json::from_str(&bump, r#"{"x": "one"}"#).unwrap();
/// #[derive(Deserialize, Debug)]
/// struct P {
///     x: u8,
/// }
/// let err: ValueError = P::deserialize(&doc).unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid type: string "one", expected u8"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    message: Box<str>,
}

impl ValueError {
    /// The message, as [`Display`](fmt::Display) writes it.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ValueError {}

impl serde::de::Error for ValueError {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self {
            message: msg.to_string().into_boxed_str(),
        }
    }
}
