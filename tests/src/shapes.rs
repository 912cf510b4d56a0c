//! `Shape`: an arena enum with every variant kind, its owned twin and a proptest strategy,
//! shared by the suites that compare the derive and serde_derive (`derive_differential`) and a
//! replay with a direct read (`value_replay`).

use arena_core::ArenaDeserialize;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

use crate::derive_support::SameAs;

/// Every variant kind, renamed variants and fields, aliases, and a recursive variant.
#[derive(ArenaDeserialize, Debug)]
#[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum Shape<'bump> {
    Empty,
    #[serde(rename = "circle", alias = "round")]
    Circle(f64),
    Rect(u32, u32),
    Labelled {
        label_text: &'bump str,
        #[serde(default)]
        side_count: u8,
    },
    #[serde(rename_all = "UPPERCASE")]
    Polygon {
        corner_points: &'bump [[i16; 2]],
    },
    Nested(Option<&'bump Shape<'bump>>),
}

/// The owned twin of [`Shape`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum OwnedShape {
    Empty,
    #[serde(rename = "circle", alias = "round")]
    Circle(f64),
    Rect(u32, u32),
    Labelled {
        label_text: String,
        #[serde(default)]
        side_count: u8,
    },
    #[serde(rename_all = "UPPERCASE")]
    Polygon {
        corner_points: Vec<[i16; 2]>,
    },
    Nested(Option<Box<OwnedShape>>),
}

impl SameAs<OwnedShape> for Shape<'_> {
    fn same_as(&self, o: &OwnedShape) -> bool {
        match (self, o) {
            (Shape::Empty, OwnedShape::Empty) => true,
            (Shape::Circle(a), OwnedShape::Circle(b)) => a.same_as(b),
            (Shape::Rect(a, b), OwnedShape::Rect(c, d)) => a == c && b == d,
            (
                Shape::Labelled {
                    label_text,
                    side_count,
                },
                OwnedShape::Labelled {
                    label_text: t,
                    side_count: c,
                },
            ) => label_text.same_as(t) && side_count == c,
            (Shape::Polygon { corner_points }, OwnedShape::Polygon { corner_points: c }) => {
                corner_points.same_as(c)
            }
            (Shape::Nested(a), OwnedShape::Nested(b)) => a.same_as(b),
            _ => false,
        }
    }
}

/// Any [`OwnedShape`], nested up to 3 deep.
pub fn shape() -> impl Strategy<Value = OwnedShape> {
    let leaf = prop_oneof![
        Just(OwnedShape::Empty),
        any::<f64>().prop_map(OwnedShape::Circle),
        any::<(u32, u32)>().prop_map(|(a, b)| OwnedShape::Rect(a, b)),
        (any::<String>(), any::<u8>()).prop_map(|(label_text, side_count)| {
            OwnedShape::Labelled {
                label_text,
                side_count,
            }
        }),
        any::<Vec<[i16; 2]>>().prop_map(|corner_points| OwnedShape::Polygon { corner_points }),
        Just(OwnedShape::Nested(None)),
    ];
    leaf.prop_recursive(3, 8, 1, |inner| {
        inner.prop_map(|s| OwnedShape::Nested(Some(Box::new(s))))
    })
}
