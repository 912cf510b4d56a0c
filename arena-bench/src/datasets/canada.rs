//! json-benchmark's `canada.json`: the outline of Canada, one feature whose polygons hold
//! about 111,000 coordinate pairs: almost only floats.

use super::Dataset;

crate::model! {
    /// A GeoJSON feature collection: one document.
    struct Canada {
        #[serde(rename = "type")]
        kind: str,
        features: [Feature],
    }

    /// A feature.
    struct Feature {
        #[serde(rename = "type")]
        kind: str,
        properties: Properties,
        geometry: Geometry,
    }

    /// The feature's properties.
    struct Properties {
        name: str,
    }

    /// Polygons: rings of (longitude, latitude) pairs.
    struct Geometry {
        #[serde(rename = "type")]
        kind: str,
        coordinates: [[(pair f64 f64)]],
    }
}

/// The canada dataset.
#[derive(Debug)]
pub struct Canada;

impl Dataset for Canada {
    const NAME: &'static str = "canada";
    type Owned = owned::Canada;
    type Borrowed<'a> = borrowed::Canada<'a>;
    type Arena<'a> = arena::Canada<'a>;
    type Multi = multi::Canada;
}
