//! Corrupted inputs for the differential tests: serialized bytes with a few bytes set, cut,
//! inserted or removed, which serde_derive and the derive must both read the same way (the same
//! value, or both an error, never a panic).

use proptest::prelude::*;

/// One corruption of serialized bytes.
#[derive(Clone, Debug)]
pub enum Corruption {
    /// Overwrites the byte at this index (modulo the length).
    Set(prop::sample::Index, u8),
    /// Cuts the input at this index.
    Truncate(prop::sample::Index),
    /// Inserts a byte at this index.
    Insert(prop::sample::Index, u8),
    /// Removes the byte at this index.
    Remove(prop::sample::Index),
}

/// Any one [`Corruption`].
pub fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Corruption::Set(i, b)),
        any::<prop::sample::Index>().prop_map(Corruption::Truncate),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Corruption::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Corruption::Remove),
    ]
}

/// `bytes` with every one of `corruptions` applied, in order.
#[must_use]
pub fn corrupt(mut bytes: Vec<u8>, corruptions: &[Corruption]) -> Vec<u8> {
    for c in corruptions {
        let len = bytes.len().max(1);
        match c {
            Corruption::Set(i, b) if !bytes.is_empty() => {
                let i = i.index(len);
                bytes[i] = *b;
            }
            Corruption::Truncate(i) => bytes.truncate(i.index(len)),
            Corruption::Insert(i, b) => bytes.insert(i.index(len + 1).min(bytes.len()), *b),
            Corruption::Remove(i) if !bytes.is_empty() => {
                bytes.remove(i.index(len));
            }
            _ => {}
        }
    }
    bytes
}

/// Serializes `$value` (a value of the twin `$owned_ty`) in every format, corrupts it, and
/// requires serde_derive and the derive (into `$arena_ty`) to agree: the same value, or both an
/// error (no panic). The messages may differ: a corrupted input can fail at different points.
#[macro_export]
macro_rules! corrupted {
    ($arena_ty:ty, $owned_ty:ty, $value:expr, $corruptions:expr) => {{
        let value: &$owned_ty = $value;
        for format in $crate::Format::ALL {
            let bytes = $crate::corruption::corrupt(format.to_bytes(value), $corruptions);
            $crate::differential!(
                @bytes format,
                $arena_ty,
                $owned_ty,
                &bytes,
                $crate::derive_support::Errors::AnyMessage
            );
        }
    }};
}
