//! [`Msg`]: MessagePack written by hand in any of its encodings (every width, strings that
//! are not UTF-8, ext values), and [`msg`], the proptest strategy that draws it.

use proptest::prelude::*;

/// A MessagePack value, with the encoding of each of its nodes chosen ([`Msg::encode`]).
#[derive(Clone, Debug)]
pub enum Msg {
    /// nil.
    Nil,
    /// The reserved marker `0xC1`.
    Reserved,
    /// A bool.
    Bool(bool),
    /// An integer and the width to write it at (0: the smallest, 1..=4: 8..64 bits, unsigned
    /// markers for a non-negative value when `unsigned`); a width too small for the value is
    /// widened.
    Int(i128, u8, bool),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A string's bytes (any, UTF-8 or not) and the length's width (0: fix, 1..=3: 8..32 bits).
    Str(Vec<u8>, u8),
    /// A bin's bytes and the length's width (1..=3: 8..32 bits).
    Bin(Vec<u8>, u8),
    /// An ext value: tag, data, and the length's width (0: fixext when the length allows).
    Ext(i8, Vec<u8>, u8),
    /// An array and its length's width (0: fix, 1: 16 bits, 2: 32 bits).
    Array(Vec<Msg>, u8),
    /// A map and its length's width.
    Map(Vec<(Msg, Msg)>, u8),
}

impl Msg {
    /// The value's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode(&mut out);
        out
    }

    /// Writes the value at the end of `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Msg::Nil => out.push(0xC0),
            Msg::Reserved => out.push(0xC1),
            Msg::Bool(b) => out.push(if *b { 0xC3 } else { 0xC2 }),
            Msg::Int(v, width, unsigned) => encode_int(*v, *width, *unsigned, out),
            Msg::F32(f) => {
                out.push(0xCA);
                out.extend_from_slice(&f.to_be_bytes());
            }
            Msg::F64(f) => {
                out.push(0xCB);
                out.extend_from_slice(&f.to_be_bytes());
            }
            Msg::Str(bytes, width) => {
                let len = bytes.len();
                match width {
                    0 if len < 32 => out.push(0xA0 | len as u8),
                    0 | 1 if len < 256 => out.extend_from_slice(&[0xD9, len as u8]),
                    0..=2 => push_len16(0xDA, len, out),
                    _ => push_len32(0xDB, len, out),
                }
                out.extend_from_slice(bytes);
            }
            Msg::Bin(bytes, width) => {
                let len = bytes.len();
                match width {
                    0 | 1 if len < 256 => out.extend_from_slice(&[0xC4, len as u8]),
                    0..=2 => push_len16(0xC5, len, out),
                    _ => push_len32(0xC6, len, out),
                }
                out.extend_from_slice(bytes);
            }
            Msg::Ext(tag, data, width) => {
                let len = data.len();
                match (width, len) {
                    (0, 1) => out.push(0xD4),
                    (0, 2) => out.push(0xD5),
                    (0, 4) => out.push(0xD6),
                    (0, 8) => out.push(0xD7),
                    (0, 16) => out.push(0xD8),
                    (0 | 1, _) if len < 256 => out.extend_from_slice(&[0xC7, len as u8]),
                    (0..=2, _) => push_len16(0xC8, len, out),
                    _ => push_len32(0xC9, len, out),
                }
                out.push(tag.cast_unsigned());
                out.extend_from_slice(data);
            }
            Msg::Array(items, width) => {
                let len = items.len();
                match width {
                    0 if len < 16 => out.push(0x90 | len as u8),
                    0 | 1 => push_len16(0xDC, len, out),
                    _ => push_len32(0xDD, len, out),
                }
                for item in items {
                    item.encode(out);
                }
            }
            Msg::Map(entries, width) => {
                let len = entries.len();
                match width {
                    0 if len < 16 => out.push(0x80 | len as u8),
                    0 | 1 => push_len16(0xDE, len, out),
                    _ => push_len32(0xDF, len, out),
                }
                for (key, value) in entries {
                    key.encode(out);
                    value.encode(out);
                }
            }
        }
    }
}

fn push_len16(marker: u8, len: usize, out: &mut Vec<u8>) {
    out.push(marker);
    out.extend_from_slice(
        &u16::try_from(len)
            .expect("test lengths are small")
            .to_be_bytes(),
    );
}

fn push_len32(marker: u8, len: usize, out: &mut Vec<u8>) {
    out.push(marker);
    out.extend_from_slice(
        &u32::try_from(len)
            .expect("test lengths are small")
            .to_be_bytes(),
    );
}

/// Writes `v` at `width` (see [`Msg::Int`]), widened until it fits.
fn encode_int(v: i128, width: u8, unsigned: bool, out: &mut Vec<u8>) {
    if width == 0 {
        if (0..128).contains(&v) {
            out.push(v as u8);
            return;
        }
        if (-32..0).contains(&v) {
            out.push(v as i8 as u8);
            return;
        }
    }
    let unsigned = unsigned && v >= 0 || v > i128::from(i64::MAX);
    for (w, bytes) in [(1u8, 1usize), (2, 2), (3, 4), (4, 8)] {
        if w < width {
            continue;
        }
        let bits = bytes * 8;
        let fits = if unsigned {
            v >= 0 && v < (1i128 << bits)
        } else {
            v >= -(1i128 << (bits - 1)) && v < (1i128 << (bits - 1))
        };
        if fits {
            let marker = if unsigned { 0xCB + w } else { 0xCF + w };
            out.push(marker);
            out.extend_from_slice(&v.to_be_bytes()[16 - bytes..]);
            return;
        }
    }
    // Out of every range: a u64 of its low bits.
    out.push(0xCF);
    out.extend_from_slice(&(v as u64).to_be_bytes());
}

/// Any [`Msg`], nested a few levels.
pub fn msg() -> impl Strategy<Value = Msg> {
    let bytes = || {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..20),
            "[a-zé]{0,12}".prop_map(String::into_bytes),
            Just(b"name".to_vec()),
        ]
    };
    let int = prop_oneof![
        any::<i8>().prop_map(i128::from),
        any::<i16>().prop_map(i128::from),
        any::<i64>().prop_map(i128::from),
        any::<u64>().prop_map(i128::from),
        -40i128..200,
    ];
    let leaf = prop_oneof![
        Just(Msg::Nil),
        Just(Msg::Reserved),
        any::<bool>().prop_map(Msg::Bool),
        (int, 0u8..5, any::<bool>()).prop_map(|(v, w, u)| Msg::Int(v, w, u)),
        any::<f32>().prop_map(Msg::F32),
        any::<f64>().prop_map(Msg::F64),
        (bytes(), 0u8..4).prop_map(|(b, w)| Msg::Str(b, w)),
        (bytes(), 1u8..4).prop_map(|(b, w)| Msg::Bin(b, w)),
        (
            any::<i8>(),
            prop_oneof![
                proptest::collection::vec(any::<u8>(), 0..20),
                proptest::collection::vec(any::<u8>(), 16..=16)
            ],
            0u8..4
        )
            .prop_map(|(t, d, w)| Msg::Ext(t, d, w)),
        // A u128 as rmp-serde writes it: bin 8 of 16 bytes.
        any::<u128>().prop_map(|v| Msg::Bin(v.to_be_bytes().to_vec(), 1)),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            (proptest::collection::vec(inner.clone(), 0..6), 0u8..3)
                .prop_map(|(items, w)| Msg::Array(items, w)),
            (
                proptest::collection::vec((inner.clone(), inner.clone()), 0..5),
                0u8..3
            )
                .prop_map(|(entries, w)| Msg::Map(entries, w)),
            // An externally tagged enum: a map of one entry.
            (bytes(), inner)
                .prop_map(|(name, content)| Msg::Map(vec![(Msg::Str(name, 0), content)], 0)),
        ]
    })
}
