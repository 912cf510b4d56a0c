//! Support for the derive's differential tests: comparing an arena value with its owned twin
//! field by field, and running one serialized twin through serde_derive and the derive.
//!
//! The bar: for any type and any format, `#[derive(ArenaDeserialize)]` reads exactly
//! what serde_derive's `Deserialize` reads for the owned twin, and rejects what it rejects.
//! Where both reject, [`Errors`] says how their messages compare: the same message on the
//! typed paths, any message in the buffered representations.

use core::fmt;

use arena_core::{BumpAllocator, Value};
use serde::de::{Deserialize, DeserializeOwned, Deserializer, Error, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::Format;

/// An arena value that can be compared with its owned twin (`&str` with `String`, `&[T]` with
/// `Vec<T>` ...).
pub trait SameAs<Owned: ?Sized> {
    /// Whether `self` holds the same data as `owned`.
    fn same_as(&self, owned: &Owned) -> bool;
}

macro_rules! same_as_eq {
    ($($ty:ty),* $(,)?) => {$(
        impl SameAs<$ty> for $ty {
            fn same_as(&self, owned: &$ty) -> bool {
                self == owned
            }
        }
    )*};
}

same_as_eq!(
    uuid::Uuid,
    rust_decimal::Decimal,
    chrono::DateTime<chrono::Utc>,
    time::OffsetDateTime,
    std::net::IpAddr,
    std::net::SocketAddr,
    std::time::SystemTime,
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    i8,
    i16,
    i32,
    i64,
    i128,
    ()
);

macro_rules! same_as_float {
    ($($ty:ty),*) => {$(
        impl SameAs<$ty> for $ty {
            fn same_as(&self, owned: &$ty) -> bool {
                self.to_bits() == owned.to_bits() || (self.is_nan() && owned.is_nan())
            }
        }
    )*};
}

same_as_float!(f32, f64);

impl SameAs<String> for &str {
    fn same_as(&self, owned: &String) -> bool {
        *self == owned
    }
}

impl SameAs<std::path::PathBuf> for &std::path::Path {
    fn same_as(&self, owned: &std::path::PathBuf) -> bool {
        *self == owned
    }
}

impl SameAs<std::ffi::OsString> for &std::ffi::OsStr {
    fn same_as(&self, owned: &std::ffi::OsString) -> bool {
        *self == owned
    }
}

impl SameAs<camino::Utf8PathBuf> for &camino::Utf8Path {
    fn same_as(&self, owned: &camino::Utf8PathBuf) -> bool {
        *self == owned
    }
}

impl<'bump> SameAs<String> for bumpalo::collections::String<'bump> {
    fn same_as(&self, owned: &String) -> bool {
        self.as_str() == owned
    }
}

impl<T: SameAs<O>, O> SameAs<Vec<O>> for &[T] {
    fn same_as(&self, owned: &Vec<O>) -> bool {
        self.len() == owned.len() && self.iter().zip(owned).all(|(a, o)| a.same_as(o))
    }
}

impl<T: SameAs<O>, O> SameAs<Vec<O>> for bumpalo::collections::Vec<'_, T> {
    fn same_as(&self, owned: &Vec<O>) -> bool {
        self.as_slice().same_as(owned)
    }
}

impl<T: SameAs<O>, O> SameAs<Box<O>> for &T {
    fn same_as(&self, owned: &Box<O>) -> bool {
        (**self).same_as(&**owned)
    }
}

impl<T: SameAs<O>, O, const N: usize> SameAs<[O; N]> for [T; N] {
    fn same_as(&self, owned: &[O; N]) -> bool {
        self.iter().zip(owned).all(|(a, o)| a.same_as(o))
    }
}

impl<T: ?Sized> SameAs<core::marker::PhantomData<T>> for core::marker::PhantomData<T> {
    fn same_as(&self, _: &core::marker::PhantomData<T>) -> bool {
        true
    }
}

impl<T: SameAs<O>, O> SameAs<Option<O>> for Option<T> {
    fn same_as(&self, owned: &Option<O>) -> bool {
        match (self, owned) {
            (Some(a), Some(o)) => a.same_as(o),
            (None, None) => true,
            _ => false,
        }
    }
}

impl<A: SameAs<OA>, B: SameAs<OB>, OA, OB> SameAs<(OA, OB)> for (A, B) {
    fn same_as(&self, owned: &(OA, OB)) -> bool {
        self.0.same_as(&owned.0) && self.1.same_as(&owned.1)
    }
}

impl<A: SameAs<OA>, B: SameAs<OB>, C: SameAs<OC>, OA, OB, OC> SameAs<(OA, OB, OC)> for (A, B, C) {
    fn same_as(&self, owned: &(OA, OB, OC)) -> bool {
        self.0.same_as(&owned.0) && self.1.same_as(&owned.1) && self.2.same_as(&owned.2)
    }
}

impl<T: SameAs<O>, O> SameAs<Bytes<O>> for &[T] {
    fn same_as(&self, owned: &Bytes<O>) -> bool {
        self.same_as(&owned.0)
    }
}

impl<K: SameAs<OK>, V: SameAs<OV>, OK, OV> SameAs<Pairs<OK, OV>> for &[(K, V)] {
    fn same_as(&self, owned: &Pairs<OK, OV>) -> bool {
        self.same_as(&owned.0)
    }
}

/// The owned twin of `&'bump [u8]`: written as a sequence, read from serde bytes or a
/// sequence, as the arena slice reads it (serde's `Vec<u8>` reads only a sequence).
#[derive(Clone, Debug, PartialEq)]
pub struct Bytes<T>(pub Vec<T>);

impl<T: Serialize> Serialize for Bytes<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Bytes<u8> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BytesVisitor;
        impl<'de> Visitor<'de> for BytesVisitor {
            type Value = Bytes<u8>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a byte array")
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Bytes<u8>, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Bytes<u8>, S::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        deserializer.deserialize_bytes(BytesVisitor)
    }
}

/// The owned twin of `&'bump [(K, V)]`: written as a map, read from a map or a sequence of
/// pairs, as the arena slice reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairs<K, V>(pub Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Pairs<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PairsVisitor<K, V>(core::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for PairsVisitor<K, V> {
            type Value = Pairs<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map or a sequence of pairs")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Pairs(out))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
                let mut out = Vec::new();
                while let Some(entry) = seq.next_element()? {
                    out.push(entry);
                }
                Ok(Pairs(out))
            }
        }
        deserializer.deserialize_map(PairsVisitor(core::marker::PhantomData))
    }
}

impl proptest::arbitrary::Arbitrary for Bytes<u8> {
    type Parameters = ();
    type Strategy = proptest::strategy::Map<
        proptest::collection::VecStrategy<proptest::num::u8::Any>,
        fn(Vec<u8>) -> Self,
    >;

    fn arbitrary_with((): ()) -> Self::Strategy {
        use proptest::strategy::Strategy as _;
        proptest::collection::vec(proptest::num::u8::ANY, 0..16).prop_map(Bytes)
    }
}

impl<K, V> proptest::arbitrary::Arbitrary for Pairs<K, V>
where
    K: proptest::arbitrary::Arbitrary + fmt::Debug + 'static,
    V: proptest::arbitrary::Arbitrary + fmt::Debug + 'static,
{
    type Parameters = ();
    type Strategy = proptest::strategy::BoxedStrategy<Self>;

    fn arbitrary_with((): ()) -> Self::Strategy {
        use proptest::strategy::Strategy as _;
        proptest::collection::vec(proptest::arbitrary::any::<(K, V)>(), 0..6)
            .prop_map(Pairs)
            .boxed()
    }
}

/// What one input gave with serde_derive (the twin) and with the derive (the arena type).
#[derive(Debug)]
pub enum Outcome {
    /// Both read a value, and the values are the same.
    SameValue,
    /// Both failed, with these messages (serde's first).
    BothFailed(String, String),
}

/// How the derive's error must compare with serde_derive's when both refuse an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Errors {
    /// The same message (serde's, naming the twin's type without its `Owned`). For the typed
    /// paths: plain structs, tuple structs, externally tagged enums and newtypes, at the top
    /// level and not inside a buffered representation.
    SameMessage,
    /// An error, whatever its message. For the buffered representations (internally and
    /// adjacently tagged enums, untagged enums and variants, structs with flattened fields) and
    /// everything read inside them, where serde's buffer loses the input's position and the
    /// derive may report it; and for corrupted input, which each side may refuse at a different
    /// point.
    AnyMessage,
}

impl Errors {
    /// Checks `outcome` (what one arena read) against this rule.
    ///
    /// # Panics
    ///
    /// Under [`Errors::SameMessage`], when both failed with different messages.
    pub fn check(self, context: &dyn fmt::Display, outcome: &Outcome) {
        if let (Errors::SameMessage, Outcome::BothFailed(serde, derive)) = (self, outcome) {
            assert_eq!(
                serde.replace("Owned", ""),
                *derive,
                "{context}: different errors"
            );
        }
    }
}

/// Both serde_derive and the derive refused one input.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    /// serde_derive's message, naming the twin's type without its `Owned`. Under
    /// [`Errors::SameMessage`] it is the derive's message on every arena too; under
    /// [`Errors::AnyMessage`] it says why the input is refused, for a test to check that the
    /// input breaks the rule it is about.
    pub serde: String,
    /// The derive's message on each arena, in [`with_each_arena!`](crate::with_each_arena)'s
    /// order.
    pub derive: Vec<String>,
}

impl Refusal {
    /// Whether the derive's message contains `text` on every arena.
    #[must_use]
    pub fn derive_says(&self, text: &str) -> bool {
        self.derive.iter().all(|message| message.contains(text))
    }
}

/// What one input gave on every arena, from the [`Outcome`] of each: `None` when both read it
/// (the same value), or both refusals.
///
/// # Panics
///
/// When serde_derive read the input on one arena and refused it on another.
pub fn refusal(outcomes: Vec<Outcome>) -> Option<Refusal> {
    let mut serde = None;
    let mut derive = Vec::new();
    for outcome in &outcomes {
        if let Outcome::BothFailed(s, d) = outcome {
            serde.get_or_insert_with(|| s.replace("Owned", ""));
            derive.push(d.clone());
        }
    }
    assert!(
        derive.is_empty() || derive.len() == outcomes.len(),
        "serde_derive read the same input differently: {outcomes:?}"
    );
    serde.map(|serde| Refusal { serde, derive })
}

/// Compares the two results of reading one input: both values and equal, or both errors.
///
/// # Panics
///
/// When they disagree: one reads what the other rejects, or the values differ.
pub fn compare<A: SameAs<O> + fmt::Debug, O: fmt::Debug>(
    context: &dyn fmt::Display,
    owned: Result<O, String>,
    arena: Result<A, String>,
) -> Outcome {
    match (owned, arena) {
        (Ok(o), Ok(a)) => {
            assert!(
                a.same_as(&o),
                "{context}: values differ\n serde: {o:?}\n arena: {a:?}"
            );
            Outcome::SameValue
        }
        (Err(o), Err(a)) => Outcome::BothFailed(o, a),
        (Ok(o), Err(a)) => panic!("{context}: serde read {o:?}, the derive failed: {a}"),
        (Err(o), Ok(a)) => panic!("{context}: serde failed ({o}), the derive read {a:?}"),
    }
}

/// The owned type `O` read through serde's own buffer: serde_derive's code for an untagged enum
/// reads the input into serde's private `Content` and replays it into each variant with
/// `ContentRefDeserializer`, the rules [`Value`]'s replay follows.
///
/// The variant reads through [`replay_recording_error`], so the reason the replay failed is
/// known even though the untagged enum replaces its message.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Buffered<O: DeserializeOwned> {
    Value(#[serde(deserialize_with = "replay_recording_error")] O),
}

std::thread_local! {
    /// The message of the last failed replay in [`Buffered`], on this thread.
    static REPLAY_ERROR: core::cell::RefCell<Option<String>> = const { core::cell::RefCell::new(None) };
}

/// `O::deserialize`, recording the message of a failure in [`REPLAY_ERROR`].
fn replay_recording_error<'de, D: Deserializer<'de>, O: DeserializeOwned>(
    deserializer: D,
) -> Result<O, D::Error> {
    O::deserialize(deserializer).inspect_err(|e| {
        REPLAY_ERROR.with(|last| *last.borrow_mut() = Some(e.to_string()));
    })
}

/// Whether serde's buffer failed, with `error`, where a [`Value`] deliberately holds more:
/// - a 128-bit integer (serde issue #1682): buffering one outside the 64-bit range fails
///   (``invalid type: integer `...` as i128``), and its replay refuses every `deserialize_i128`
///   and `deserialize_u128` whatever the value ("i128 is not supported");
/// - an identifier given as an integer of 16 or 32 bits: serde's buffer keeps the width and its
///   `deserialize_identifier` takes only `u8` and `u64` (``invalid type: integer `...`, expected
///   field identifier``), while a direct read takes any unsigned integer; a `Value` keeps every
///   unsigned integer as a `u64`, so its replay takes them as a direct read does.
///
/// The replay's own message is the one [`replay_recording_error`] recorded.
///
/// [`Value`]: arena_core::Value
fn buffer_holds_less(error: &str) -> bool {
    let buffering = error.contains("` as i128") || error.contains("` as u128");
    let replay = REPLAY_ERROR.with(|last| {
        last.borrow().as_deref().is_some_and(|m| {
            m == "i128 is not supported"
                || m == "u128 is not supported"
                || (m.starts_with("invalid type: integer `") && m.ends_with(" identifier"))
        })
    });
    buffering || replay
}

/// `owned`, serde's reading of `bytes`, or, where serde refused MessagePack the derive read,
/// what serde reads from the same value with every unsigned integer at 64 bits: the one input a
/// derive deliberately reads beyond serde's buffer that an untagged enum hides the message of
/// (`arena-core/docs/derive.md`: a field key given as a 16- or 32-bit integer names a field,
/// as in a direct read). The two are then compared as ever.
pub fn or_widened<O: DeserializeOwned, A>(
    format: Format,
    owned: Result<O, String>,
    arena: &Result<A, String>,
    bytes: &[u8],
) -> Result<O, String> {
    if owned.is_ok() || arena.is_err() || !matches!(format, Format::MsgPack | Format::MsgPackNamed)
    {
        return owned;
    }
    let bump = bumpalo::Bump::new();
    let Ok(value) = format.decode_in::<Value<'_>, _>(&bump, bytes) else {
        return owned;
    };
    match read_widened::<O>(format, &value) {
        Some(Ok(o)) => Ok(o),
        _ => owned,
    }
}

/// What serde reads as `T` from `value` written again with every unsigned integer at 64 bits,
/// for MessagePack (`None` for the other formats): `value` is written as CBOR, whose reader
/// hands every unsigned integer to serde as a `u64`. This is how the tests see the documented
/// difference of a field key given as a 16- or 32-bit integer (the second case of
/// [`buffer_holds_less`]) where an untagged enum hides serde's message.
fn read_widened<T: DeserializeOwned>(
    format: Format,
    value: &Value<'_>,
) -> Option<Result<T, String>> {
    matches!(format, Format::MsgPack | Format::MsgPackNamed)
        .then(|| Format::Cbor.decode_owned::<T>(&Format::Cbor.to_bytes(value)))
}

/// Whether `value`, read from CBOR with indefinite-length maps, written again with definite
/// lengths reads directly into what the replay read (`ours`). cbor4ii reads an enum only from a
/// definite-length map, so where serde's buffer cannot read a document of indefinite maps
/// (its replay answers `is_human_readable` with `true`: serde issue #2172), the direct read
/// fails too, and the same document with definite maps says what the replay should give.
fn definite_reads<O: DeserializeOwned + PartialEq + fmt::Debug>(
    format: Format,
    value: &Value<'_>,
    ours: &O,
) -> bool {
    format == Format::CborIndefinite
        && Format::Cbor
            .decode_owned::<O>(&Format::Cbor.to_bytes(value))
            .is_ok_and(|direct| same_value(&direct, ours))
}

/// Whether two values read are the same: equal, or written alike by `Debug`, so that a NaN the
/// bytes hold (which is not equal to itself) is the same as the NaN read the other way.
fn same_value<O: PartialEq + fmt::Debug>(a: &O, b: &O) -> bool {
    a == b || format!("{a:?}") == format!("{b:?}")
}

/// For a self-describing format: `bytes` read into an arena [`Value`] and replayed into the
/// owned twin `O` reads what serde's own buffer reads (see `Buffered`): the same value, or
/// both fail (serde's untagged enum replaces the message). `direct` is what reading the bytes
/// into `O` gave. Where serde's buffer fails and the bytes read directly, the replay must read
/// what they read. Where both fail because `Value` holds more than serde's buffer (see
/// `buffer_holds_less`), nothing says what the replay should give, and it is not compared (a
/// buffered document is more lenient than a strict format's direct read: a CBOR byte string
/// replays into a `String`, which cbor4ii refuses to read as one).
///
/// [`Value`]: arena_core::Value
pub fn compare_replay<O, A>(
    context: &dyn fmt::Display,
    format: Format,
    arena: &A,
    bytes: &[u8],
    direct: &Result<O, String>,
) where
    O: DeserializeOwned + PartialEq + fmt::Debug,
    A: BumpAllocator + ?Sized,
{
    if !format.is_self_describing() {
        return;
    }
    let value: Result<Value<'_>, String> = format.decode_in(arena, bytes);
    arena_core::__private::check_call_invariants();
    let Ok(value) = value else {
        return;
    };
    let ours =
        O::deserialize(value.deserializer::<serde::de::value::Error>(format == Format::Json))
            .map_err(|e| e.to_string());
    REPLAY_ERROR.with(|last| last.borrow_mut().take());
    let serde = format
        .decode_owned::<Buffered<O>>(bytes)
        .map(|Buffered::Value(o)| o);
    match (&ours, serde, direct) {
        (Ok(ours), Ok(serde), _) => assert!(
            same_value(ours, &serde),
            "{context}: a Value replays unlike serde's buffer: {ours:?} against {serde:?}"
        ),
        (Err(_), Err(_), _) => {}
        // serde's buffer could not read it: the replay reads what the bytes read.
        (Ok(ours), Err(_), Ok(direct)) => assert!(
            same_value(ours, direct),
            "{context}: a Value serde's buffer cannot hold replays unlike the bytes: \
             {ours:?} against {direct:?}"
        ),
        (_, Err(e), Err(_)) if buffer_holds_less(&e) => {}
        (Ok(ours), Err(_), Err(_)) if definite_reads(format, &value, ours) => {}
        (Ok(ours), Err(_), _)
            if read_widened::<Buffered<O>>(format, &value)
                .is_some_and(|r| r.is_ok_and(|Buffered::Value(o)| &o == ours)) => {}
        (ours, serde, _) => panic!(
            "{context}: a Value replays {ours:?}, serde's buffer {serde:?} ({:?})",
            REPLAY_ERROR.with(|last| last.borrow().clone())
        ),
    }
}

/// Runs `$owned` (a value of the twin) through every format and every arena: serialize with
/// serde, read back with serde_derive into the twin and with the derive into `$arena_ty`
/// (written with `'_`), and [`compare`]; where both fail, their messages compare as `$errors`
/// says (an [`Errors`], [`Errors::SameMessage`] when left out). In the self-describing
/// formats, also [`compare_replay`].
///
/// The `@bytes` form reads given bytes in one format, and gives their [`refusal`].
#[macro_export]
macro_rules! differential {
    ($arena_ty:ty, $owned_ty:ty, $owned:expr, $errors:expr) => {{
        let value: &$owned_ty = $owned;
        for format in $crate::Format::ALL {
            let bytes = format.to_bytes(value);
            $crate::differential!(@bytes format, $arena_ty, $owned_ty, &bytes, $errors);
        }
    }};
    ($arena_ty:ty, $owned_ty:ty, $owned:expr) => {
        $crate::differential!(
            $arena_ty,
            $owned_ty,
            $owned,
            $crate::derive_support::Errors::SameMessage
        )
    };
    (@bytes $format:expr, $arena_ty:ty, $owned_ty:ty, $bytes:expr, $errors:expr) => {{
        let format: $crate::Format = $format;
        let errors: $crate::derive_support::Errors = $errors;
        let mut outcomes = ::std::vec::Vec::new();
        $crate::with_each_arena!(|arena| {
            let owned = format.decode_owned::<$owned_ty>($bytes);
            let read: Result<$arena_ty, String> = format.decode_in(arena, $bytes);
            // Whatever happened, the call closed and left the thread's call state idle.
            $crate::__deps::arena_core::__private::check_call_invariants();
            let context = format!("{format} {} {:02x?}", stringify!($arena_ty), $bytes);
            $crate::derive_support::compare_replay(&context, format, arena, $bytes, &owned);
            let owned = $crate::derive_support::or_widened(format, owned, &read, $bytes);
            let outcome = $crate::derive_support::compare(&context, owned, read);
            errors.check(&context, &outcome);
            outcomes.push(outcome);
        });
        $crate::derive_support::refusal(outcomes)
    }};
}

/// Reads hand-written `$bytes` in `$format` with serde_derive into `$owned_ty` and with the
/// derive into `$arena_ty` on every arena, as [`differential!`] does, their errors compared as
/// `$errors` says: `None` when both read the same value, else the [`Refusal`].
#[macro_export]
macro_rules! same_reading {
    ($format:expr, $arena_ty:ty, $owned_ty:ty, $bytes:expr, $errors:expr) => {{
        let bytes: &[u8] = $bytes;
        $crate::differential!(@bytes $format, $arena_ty, $owned_ty, bytes, $errors)
    }};
}

/// [`same_reading!`] of JSON text (a `&str` or a `String`) that both must read: the same value
/// on every arena. With `in $arena`, gives the value the derive reads into `$arena`, to look
/// into.
#[macro_export]
macro_rules! json_reads {
    ($arena_ty:ty, $owned_ty:ty, $json:expr) => {{
        let json: &str = &$json;
        let refusal = $crate::same_reading!(
            $crate::Format::Json,
            $arena_ty,
            $owned_ty,
            json.as_bytes(),
            $crate::derive_support::Errors::AnyMessage
        );
        assert_eq!(refusal, None, "{json}");
    }};
    (in $arena:expr, $arena_ty:ty, $owned_ty:ty, $json:expr) => {{
        let json: &str = &$json;
        $crate::json_reads!($arena_ty, $owned_ty, json);
        let read: $arena_ty = $crate::Format::Json
            .decode_in($arena, json.as_bytes())
            .expect("read above");
        read
    }};
}

/// [`same_reading!`] of JSON text (a `&str` or a `String`) that both must refuse, their errors
/// compared as `$errors` says: the [`Refusal`].
#[macro_export]
macro_rules! json_refuses {
    ($arena_ty:ty, $owned_ty:ty, $json:expr, $errors:expr) => {{
        let json: &str = &$json;
        $crate::same_reading!(
            $crate::Format::Json,
            $arena_ty,
            $owned_ty,
            json.as_bytes(),
            $errors
        )
        .unwrap_or_else(|| panic!("both read {json}"))
    }};
}

/// Declares an arena type and its owned twin from one definition (the same attributes on
/// both), the field-by-field comparison, and a proptest strategy for the twin.
///
/// Each field is `name: ArenaType => OwnedType`. A visibility before `struct` applies to both
/// types and to their fields.
#[macro_export]
macro_rules! twins {
    (
        $(#[$attr:meta])*
        $vis:vis struct $arena:ident<$lt:lifetime> / $owned:ident {
            $( $(#[$fattr:meta])* $field:ident : $aty:ty => $oty:ty ),+ $(,)?
        }
    ) => {
        #[derive(arena_core::ArenaDeserialize, Debug)]
        $(#[$attr])*
        #[allow(dead_code)]
        $vis struct $arena<$lt> { $( $(#[$fattr])* $vis $field: $aty ),+ }

        #[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
        $(#[$attr])*
        $vis struct $owned { $( $(#[$fattr])* $vis $field: $oty ),+ }

        impl $crate::derive_support::SameAs<$owned> for $arena<'_> {
            fn same_as(&self, owned: &$owned) -> bool {
                true $(&& $crate::derive_support::SameAs::same_as(&self.$field, &owned.$field))+
            }
        }

        impl proptest::arbitrary::Arbitrary for $owned {
            type Parameters = ();
            type Strategy = proptest::strategy::BoxedStrategy<Self>;

            fn arbitrary_with((): ()) -> Self::Strategy {
                use proptest::strategy::Strategy as _;
                ($(proptest::arbitrary::any::<$oty>(),)+)
                    .prop_map(|($($field,)+)| $owned { $($field),+ })
                    .boxed()
            }
        }
    };
}
