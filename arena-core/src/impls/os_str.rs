//! `&'bump OsStr` on Unix: the borrowed twin of `OsString`, in the arena, read from what serde
//! writes for it. Serde serializes `OsString` on Unix and Windows only, so this module is
//! compiled on Unix only (WASI is neither: serde has no `OsString` impl there).

use core::fmt;
use std::ffi::OsStr;

use serde::Deserializer;
use serde::de::{DeserializeSeed, EnumAccess, Error, VariantAccess, Visitor};

use crate::arena_deserialize::NestedSeed;
use crate::slice_builder::SliceVisitor;
use crate::{ArenaDeserialize, BumpAllocator};

/// Read as serde reads an `OsString` on Unix: the enum `OsString` whose variant `Unix` holds
/// the bytes as a sequence (`{"Unix": [47, 116]}` in JSON), and `Windows` an error, as
/// serde's. Not a plain string: that is serde's `PathBuf`, here `&'bump Path`.
///
/// # Examples
///
/// ```
/// use std::ffi::OsStr;
///
/// let arena = arena_core::SlabArena::new();
/// let json = serde_json::to_string(&std::ffi::OsString::from("/tmp"))?;
/// let name: &OsStr = arena_core::json::from_str(&arena, &json)?;
/// assert_eq!(name, "/tmp");
/// # Ok::<(), serde_json::Error>(())
/// ```
impl<'bump, A: BumpAllocator + ?Sized> ArenaDeserialize<'bump, A> for &'bump OsStr {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'bump A,
        deserializer: D,
    ) -> Result<Self, D::Error> {
        deserializer.deserialize_enum("OsString", &["Unix", "Windows"], OsStrVisitor(arena))
    }
}

struct OsStrVisitor<'bump, A: ?Sized>(&'bump A);

impl<'de, 'bump, A: BumpAllocator + ?Sized> Visitor<'de> for OsStrVisitor<'bump, A> {
    type Value = &'bump OsStr;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("os string")
    }

    fn visit_enum<E: EnumAccess<'de>>(self, data: E) -> Result<Self::Value, E::Error> {
        use std::os::unix::ffi::OsStrExt;
        match data.variant::<OsStringKind>()? {
            (OsStringKind::Unix, variant) => variant
                .newtype_variant_seed(ByteSeq(self.0))
                .map(OsStr::from_bytes),
            (OsStringKind::Windows, _) => Err(Error::custom(
                "cannot deserialize Windows OS string on Unix",
            )),
        }
    }
}

/// The bytes of a Unix `OsString`, read as serde reads its `Vec<u8>`: a sequence of `u8`.
struct ByteSeq<'bump, A: ?Sized>(&'bump A);

impl<'de, 'bump, A: BumpAllocator + ?Sized> DeserializeSeed<'de> for ByteSeq<'bump, A> {
    type Value = &'bump [u8];

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<&'bump [u8], D::Error> {
        let elem = NestedSeed::<u8, A>::new(self.0);
        deserializer
            .deserialize_seq(SliceVisitor::new(self.0, elem))
            .map(|bytes| &*bytes)
    }
}

/// The variant of serde's `OsString` enum, read as serde_derive reads a variant identifier
/// (by name, index or bytes), with its errors.
enum OsStringKind {
    Unix,
    Windows,
}

impl<'de> serde::Deserialize<'de> for OsStringKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(OsStringKindVisitor)
    }
}

struct OsStringKindVisitor;

impl Visitor<'_> for OsStringKindVisitor {
    type Value = OsStringKind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<OsStringKind, E> {
        match v {
            0 => Ok(OsStringKind::Unix),
            1 => Ok(OsStringKind::Windows),
            _ => Err(E::invalid_value(
                serde::de::Unexpected::Unsigned(v),
                &"variant index 0 <= i < 2",
            )),
        }
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<OsStringKind, E> {
        match v {
            "Unix" => Ok(OsStringKind::Unix),
            "Windows" => Ok(OsStringKind::Windows),
            _ => Err(E::unknown_variant(v, &["Unix", "Windows"])),
        }
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<OsStringKind, E> {
        match v {
            b"Unix" => Ok(OsStringKind::Unix),
            b"Windows" => Ok(OsStringKind::Windows),
            _ => Err(E::unknown_variant(
                &String::from_utf8_lossy(v),
                &["Unix", "Windows"],
            )),
        }
    }
}
