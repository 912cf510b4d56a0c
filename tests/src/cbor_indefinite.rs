//! [`indefinite_maps`] and [`indefinite`]: a CBOR document written again with its maps (and
//! arrays) of indefinite length, the encoding a CBOR writer uses when it does not know a
//! container's length up front (serde's `serialize_map(None)`, which a struct with a flattened
//! field makes, `serialize_seq(None)`, and streaming encoders generally).
//!
//! Such a container ends with a break byte (`0xFF`) instead of announcing its length, and a
//! reader finds its end only by reading that byte: cbor4ii's `MapAccess` and `SeqAccess`
//! consume it when they hand out `None`. A reader that asks for another entry after that reads
//! past the container, which the definite encoding (a count, answered `None` again) hides.
//! [`Format::CborIndefinite`](crate::Format::CborIndefinite) runs every differential test with
//! indefinite maps. Arrays are left to the tests that write them indefinite on purpose: cbor4ii
//! reads a tuple, and a unit written as an empty array, only from a definite array, so serde
//! could not read back most documents with every array rewritten.

/// `bytes`, one CBOR data item and nothing after it, with every definite-length map (at any
/// depth, inside arrays and tags too) written with indefinite length; everything else is kept
/// as it is.
///
/// # Panics
///
/// When `bytes` is not one well-formed data item (a test bug: the input is a serializer's
/// output).
#[must_use]
pub fn indefinite_maps(bytes: &[u8]) -> Vec<u8> {
    rewrite_all(bytes, Rewrite { arrays: false })
}

/// [`indefinite_maps`], arrays too.
///
/// # Panics
///
/// As [`indefinite_maps`].
#[must_use]
pub fn indefinite(bytes: &[u8]) -> Vec<u8> {
    rewrite_all(bytes, Rewrite { arrays: true })
}

/// Which definite containers are written again with indefinite length: maps always.
#[derive(Clone, Copy)]
struct Rewrite {
    arrays: bool,
}

fn rewrite_all(bytes: &[u8], which: Rewrite) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8 + 8);
    let end = rewrite(bytes, 0, which, &mut out).expect("one well-formed CBOR data item");
    assert_eq!(end, bytes.len(), "bytes after the CBOR data item");
    out
}

/// The break byte that ends an indefinite-length item.
const BREAK: u8 = 0xFF;

/// Rewrites the data item at `at` into `out`; the position after it, or `None` when the input
/// ends early or holds a reserved encoding.
fn rewrite(bytes: &[u8], at: usize, which: Rewrite, out: &mut Vec<u8>) -> Option<usize> {
    let head = *bytes.get(at)?;
    let (major, info) = (head >> 5, head & 0x1F);
    if info == 31 {
        // Already indefinite (strings, arrays, maps): its items up to the break, rewritten.
        if !(2..=5).contains(&major) {
            return None;
        }
        out.push(head);
        let mut at = at + 1;
        while *bytes.get(at)? != BREAK {
            at = rewrite(bytes, at, which, out)?;
        }
        out.push(BREAK);
        return Some(at + 1);
    }
    let (arg, body) = argument(bytes, at, info)?;
    match major {
        // Integers, simple values and floats: the head is the whole item.
        0 | 1 | 7 => {
            out.extend_from_slice(bytes.get(at..body)?);
            Some(body)
        }
        // Byte and text strings: the head and the bytes it counts.
        2 | 3 => {
            let end = body.checked_add(usize::try_from(arg).ok()?)?;
            out.extend_from_slice(bytes.get(at..end)?);
            Some(end)
        }
        // Arrays and maps: the items (twice the count for a map) rewritten, between an
        // indefinite head and a break, or after the definite head for an array kept as it is.
        4 | 5 => {
            let indefinite = major == 5 || which.arrays;
            if indefinite {
                out.push((major << 5) | 31);
            } else {
                out.extend_from_slice(bytes.get(at..body)?);
            }
            let items = if major == 4 { arg } else { arg.checked_mul(2)? };
            let mut at = body;
            for _ in 0..items {
                at = rewrite(bytes, at, which, out)?;
            }
            if indefinite {
                out.push(BREAK);
            }
            Some(at)
        }
        // A tag: its head, then the tagged item rewritten.
        6 => {
            out.extend_from_slice(bytes.get(at..body)?);
            rewrite(bytes, body, which, out)
        }
        _ => unreachable!("a major type has three bits"),
    }
}

/// The head's argument (`info` below 24, or the 1, 2, 4 or 8 bytes after the head) and the
/// position after the head.
fn argument(bytes: &[u8], at: usize, info: u8) -> Option<(u64, usize)> {
    let width = match info {
        0..=23 => return Some((u64::from(info), at + 1)),
        24 => 1,
        25 => 2,
        26 => 4,
        27 => 8,
        _ => return None,
    };
    let field = bytes.get(at + 1..at + 1 + width)?;
    let arg = field.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    Some((arg, at + 1 + width))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{indefinite, indefinite_maps};

    #[test]
    fn arrays_and_maps_at_every_depth_become_indefinite_and_scalars_stay() {
        // {"a": [1, "xy"], "b": tag 1 ([])}
        let definite = [
            0xA2, 0x61, b'a', 0x82, 0x01, 0x62, b'x', b'y', 0x61, b'b', 0xC1, 0x80,
        ];
        let expected = [
            0xBF, 0x61, b'a', 0x9F, 0x01, 0x62, b'x', b'y', 0xFF, 0x61, b'b', 0xC1, 0x9F, 0xFF,
            0xFF,
        ];
        assert_eq!(indefinite(&definite), expected);
        let maps_only = [
            0xBF, 0x61, b'a', 0x82, 0x01, 0x62, b'x', b'y', 0x61, b'b', 0xC1, 0x80, 0xFF,
        ];
        assert_eq!(indefinite_maps(&definite), maps_only);
        // Already indefinite, and wide heads: kept.
        assert_eq!(indefinite(&expected), expected);
        let wide = [0x1B, 0, 0, 0, 0, 0, 0, 1, 0];
        assert_eq!(indefinite(&wide), wide);
        let float = [0xFB, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0];
        assert_eq!(indefinite(&float), float);
    }

    #[test]
    fn cbor4ii_reads_the_rewritten_document_as_the_original() {
        type Owned = BTreeMap<String, Vec<Option<Vec<u32>>>>;
        let value: Owned = BTreeMap::from([
            ("a".to_owned(), vec![Some(vec![1, 2, 3]), None]),
            ("b".to_owned(), vec![]),
        ]);
        let definite = cbor4ii::serde::to_vec(Vec::new(), &value).unwrap();
        for rewritten in [indefinite(&definite), indefinite_maps(&definite)] {
            assert_ne!(rewritten, definite);
            let read: Owned = cbor4ii::serde::from_slice(&rewritten).unwrap();
            assert_eq!(read, value);
        }
    }
}
