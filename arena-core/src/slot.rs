//! [`Slot`]: the place a value is deserialized into, so that a derived struct is written where
//! its caller keeps it instead of returned through memory and copied there.
//!
//! A value returned from a call that is not inlined comes back through memory: the callee
//! stores it field by field into a return slot, and the caller copies it to where it belongs,
//! an element of a slice being read for instance. That copy loads the fields right after the
//! callee's stores, in wider pieces at other offsets, and such loads wait for the stores to
//! reach the cache instead of being forwarded from them. Per element of a large slice of
//! structs it is felt in every format. [`ArenaDeserialize::__deserialize_into`] takes the
//! element's place itself, as a `Slot`; the derive's struct visitor builds the struct there
//! ([`SlotVisitor`]), and the slice builder passes its block's next place.
//!
//! The place is branded with the lifetime `'s`, invariant, and a [`Filled<'s>`] is made only by
//! [`Slot::write`]: a function handed a `Slot<'s, T>` that returns `Ok(Filled<'s>)` has written
//! that slot, which is what lets [`read_via_slot`] and the slice builder read it afterwards
//! without `unsafe` in the derive's code.
//!
//! [`ArenaDeserialize::__deserialize_into`]: crate::ArenaDeserialize::__deserialize_into

use core::fmt;
use core::marker::PhantomData;
use core::mem::{ManuallyDrop, MaybeUninit};

use serde::de::{DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};

use crate::{ArenaDeserialize, BumpAllocator};

/// Makes `'s` invariant: a `Filled<'s>` proves the write to the one slot branded `'s`, and no
/// other lifetime may stand in for it.
type Brand<'s> = PhantomData<fn(&'s ()) -> &'s ()>;

/// The place a value of `T` is to be written, once; see the module docs.
///
/// Not public API.
pub struct Slot<'s, T> {
    place: &'s mut MaybeUninit<T>,
    brand: Brand<'s>,
}

/// Proof that the [`Slot`] branded `'s` was written. Not public API.
pub struct Filled<'s> {
    brand: Brand<'s>,
}

impl<'s, T> Slot<'s, T> {
    /// The slot `place`.
    ///
    /// Crate-private so that the caller owns the brand: every `Slot` is made for a place that
    /// is read only after a `Filled` of its brand comes back (see [`read_via_slot`] and the
    /// slice builder).
    #[inline(always)]
    pub(crate) fn new(place: &'s mut MaybeUninit<T>) -> Self {
        Self {
            place,
            brand: PhantomData,
        }
    }

    /// Writes `value` into the slot.
    #[inline(always)]
    pub fn write(self, value: T) -> Filled<'s> {
        self.place.write(value);
        Filled { brand: PhantomData }
    }
}

impl<T> fmt::Debug for Slot<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Slot")
    }
}

impl fmt::Debug for Filled<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Filled")
    }
}

/// The value `fill` writes into a slot of its own: how a derived struct's `deserialize_in`
/// returns what its `__deserialize_into` builds. Not public API.
///
/// # Errors
///
/// `fill`'s error.
#[inline(always)]
pub fn read_via_slot<T, E>(
    fill: impl for<'s> FnOnce(Slot<'s, T>) -> Result<Filled<'s>, E>,
) -> Result<T, E> {
    let mut place = MaybeUninit::uninit();
    fill(Slot::new(&mut place))?;
    // SAFETY: `fill` returned a `Filled` of the brand of the slot made for `place` here; its
    // lifetime is quantified in `fill`'s signature, so no other `Filled` has that brand, and
    // only `Slot::write` makes one: `place` was written.
    Ok(unsafe { place.assume_init() })
}

/// `T::deserialize_in` for a type built in a slot: what `T::__deserialize_into` builds into a
/// slot of its own ([`read_via_slot`]). The derive's `deserialize_in` is this one call, a
/// function shared by the derived types instead of a closure in each. Not public API.
///
/// # Errors
///
/// `T::__deserialize_into`'s error.
#[inline(always)]
pub fn deserialize_via_slot<'de, 'bump, T, A, D>(
    arena: &'bump A,
    deserializer: D,
) -> Result<T, D::Error>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
    D: Deserializer<'de>,
{
    read_via_slot(|slot| T::__deserialize_into(arena, deserializer, slot))
}

/// [`deserialize_via_slot`] for the direct JSON path: what `T::__deserialize_json_into` builds.
/// Not public API.
///
/// # Errors
///
/// `T::__deserialize_json_into`'s error.
#[cfg(feature = "json")]
#[inline(always)]
pub fn json_via_slot<'bump, T, A>(
    arena: &'bump A,
    reader: &mut crate::json::Reader<'_>,
) -> Result<T, crate::json::Refused>
where
    T: ArenaDeserialize<'bump, A>,
    A: BumpAllocator + ?Sized,
{
    read_via_slot(|slot| T::__deserialize_json_into(arena, reader, slot))
}

/// A visitor that writes what `inner` builds into `slot`: every method is `inner`'s, its value
/// written into the slot. Not public API: the derive wraps its struct visitor in one in
/// `__deserialize_into`.
pub struct SlotVisitor<'s, V, T> {
    inner: V,
    slot: Slot<'s, T>,
}

impl<'s, V, T> SlotVisitor<'s, V, T> {
    /// `inner`, writing into `slot`.
    #[inline(always)]
    pub fn new(inner: V, slot: Slot<'s, T>) -> Self {
        Self { inner, slot }
    }
}

impl<V, T> fmt::Debug for SlotVisitor<'_, V, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SlotVisitor")
    }
}

/// The methods of `Visitor` that take a value: each calls `inner`'s and writes the result.
macro_rules! forward {
    ($($method:ident($ty:ty);)*) => {$(
        #[inline(always)]
        fn $method<E: serde::de::Error>(self, v: $ty) -> Result<Filled<'s>, E> {
            Ok(self.slot.write(self.inner.$method(v)?))
        }
    )*};
}

impl<'de, 's, V, T> Visitor<'de> for SlotVisitor<'s, V, T>
where
    V: Visitor<'de, Value = T>,
{
    type Value = Filled<'s>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(formatter)
    }

    forward! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    #[inline(always)]
    fn visit_none<E: serde::de::Error>(self) -> Result<Filled<'s>, E> {
        Ok(self.slot.write(self.inner.visit_none()?))
    }

    #[inline(always)]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Filled<'s>, D::Error> {
        Ok(self.slot.write(self.inner.visit_some(deserializer)?))
    }

    #[inline(always)]
    fn visit_unit<E: serde::de::Error>(self) -> Result<Filled<'s>, E> {
        Ok(self.slot.write(self.inner.visit_unit()?))
    }

    #[inline(always)]
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Filled<'s>, D::Error> {
        Ok(self
            .slot
            .write(self.inner.visit_newtype_struct(deserializer)?))
    }

    #[inline(always)]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Filled<'s>, A::Error> {
        Ok(self.slot.write(self.inner.visit_seq(seq)?))
    }

    #[inline(always)]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Filled<'s>, A::Error> {
        Ok(self.slot.write(self.inner.visit_map(map)?))
    }

    #[inline(always)]
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Filled<'s>, A::Error> {
        Ok(self.slot.write(self.inner.visit_enum(data)?))
    }
}

/// A seed that can write its value into a [`Slot`]: by default, the value it returns; the
/// seed of a derived struct, through its `__deserialize_into`. The slice builder reads every
/// element this way. Not public API.
pub trait SeedIntoSlot<'de>: DeserializeSeed<'de> {
    /// Deserializes the value into `slot`.
    ///
    /// # Errors
    ///
    /// The seed's error.
    #[inline(always)]
    fn deserialize_into<'s, D: Deserializer<'de>>(
        self,
        deserializer: D,
        slot: Slot<'s, Self::Value>,
    ) -> Result<Filled<'s>, D::Error> {
        Ok(slot.write(self.deserialize(deserializer)?))
    }
}

/// A field of a struct being read: empty until its value is read into it, in place. The
/// derive's `visit_map` and `visit_seq` keep one per field read into the arena instead of an
/// `Option`, so that a struct-typed field is built where the visitor holds it rather than
/// returned and copied there; the value is moved out once, into the struct, after the other
/// fields have been read. Not public API.
pub struct FieldSlot<T> {
    place: MaybeUninit<T>,
    filled: bool,
}

impl<T> FieldSlot<T> {
    /// An empty field.
    #[inline(always)]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            place: MaybeUninit::uninit(),
            filled: false,
        }
    }

    /// Whether the field's value was read.
    #[inline(always)]
    #[must_use]
    pub const fn is_filled(&self) -> bool {
        self.filled
    }

    /// A seed reading the field's value with `seed` into this slot (dropping the value it
    /// held, if any).
    #[inline(always)]
    pub fn seed<S>(&mut self, seed: S) -> FieldSeed<'_, T, S> {
        self.clear();
        FieldSeed { field: self, seed }
    }

    /// The value read, if any.
    #[inline(always)]
    #[must_use]
    pub fn take(self) -> Option<T> {
        let this = ManuallyDrop::new(self);
        // SAFETY: `filled` is set only after the place was written (`FieldSeed::deserialize`)
        // and cleared when its value is dropped; `this` is not dropped, so the value is read
        // out once.
        this.filled
            .then(|| unsafe { this.place.assume_init_read() })
    }

    /// Drops the value held, if any.
    #[inline(always)]
    fn clear(&mut self) {
        if self.filled {
            self.filled = false;
            // SAFETY: `filled` says the place holds a value; it is dropped once, as `filled`
            // is now false.
            unsafe { self.place.assume_init_drop() };
        }
    }
}

impl<T> Default for FieldSlot<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Drop for FieldSlot<T> {
    fn drop(&mut self) {
        self.clear();
    }
}

impl<T> fmt::Debug for FieldSlot<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FieldSlot")
            .field("filled", &self.filled)
            .finish_non_exhaustive()
    }
}

/// The seed [`FieldSlot::seed`] returns: reads the value into the field. Not public API.
pub struct FieldSeed<'f, T, S> {
    field: &'f mut FieldSlot<T>,
    seed: S,
}

impl<'de, T, S: SeedIntoSlot<'de, Value = T>> DeserializeSeed<'de> for FieldSeed<'_, T, S> {
    type Value = ();

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // The field is empty (`seed` cleared it), and a `Filled` of this brand comes only from
        // writing its place.
        self.seed
            .deserialize_into(deserializer, Slot::new(&mut self.field.place))?;
        self.field.filled = true;
        Ok(())
    }
}

impl<T, S> fmt::Debug for FieldSeed<'_, T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("FieldSeed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_via_slot_returns_what_was_written_or_the_error() {
        let ok: Result<(u64, &str), ()> = read_via_slot(|slot| Ok(slot.write((7, "seven"))));
        assert_eq!(ok, Ok((7, "seven")));
        let err: Result<u64, &str> = read_via_slot(|_slot| Err("refused"));
        assert_eq!(err, Err("refused"));
    }

    #[test]
    fn a_slot_visitor_writes_the_inner_visitors_value_and_keeps_its_errors() {
        struct Count;
        impl<'de> Visitor<'de> for Count {
            type Value = u32;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u32, E> {
                u32::try_from(v).map_err(|_| E::custom("too many"))
            }
        }
        let read = |json: &str| {
            read_via_slot(|slot| {
                let mut de = serde_json::Deserializer::from_str(json);
                de.deserialize_any(SlotVisitor::new(Count, slot))
            })
        };
        assert_eq!(read("12").unwrap(), 12);
        assert_eq!(
            read("5000000000").unwrap_err().to_string(),
            "too many at line 1 column 10"
        );
        assert_eq!(
            read("\"x\"").unwrap_err().to_string(),
            "invalid type: string \"x\", expected a count at line 1 column 3"
        );
    }

    /// Counts its drops, to check that a field's value is dropped exactly once.
    struct Counted<'c>(&'c core::cell::Cell<u32>);

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    /// A seed of `Counted`, reading a unit.
    #[derive(Clone, Copy)]
    struct CountedSeed<'c>(&'c core::cell::Cell<u32>);

    impl<'de, 'c> DeserializeSeed<'de> for CountedSeed<'c> {
        type Value = Counted<'c>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Counted<'c>, D::Error> {
            <() as serde::Deserialize>::deserialize(d)?;
            Ok(Counted(self.0))
        }
    }

    impl<'de> SeedIntoSlot<'de> for CountedSeed<'_> {}

    #[test]
    fn a_field_slot_holds_what_was_read_and_drops_it_once() {
        use serde::de::value::{Error, U32Deserializer, UnitDeserializer};
        let drops = core::cell::Cell::new(0);
        let seed = CountedSeed(&drops);

        let empty = FieldSlot::<Counted<'_>>::new();
        assert!(!empty.is_filled());
        assert!(empty.take().is_none());

        let mut field = FieldSlot::new();
        field
            .seed(seed)
            .deserialize(UnitDeserializer::<Error>::new())
            .unwrap();
        assert!(field.is_filled());
        // Read again (a duplicate key): the first value is dropped.
        field
            .seed(seed)
            .deserialize(UnitDeserializer::<Error>::new())
            .unwrap();
        assert_eq!(drops.get(), 1);
        let taken = field.take().unwrap();
        assert_eq!(drops.get(), 1);
        drop(taken);
        assert_eq!(drops.get(), 2);

        // Dropped while filled (an error in a later field): its value is dropped.
        let mut field = FieldSlot::new();
        field
            .seed(seed)
            .deserialize(UnitDeserializer::<Error>::new())
            .unwrap();
        drop(field);
        assert_eq!(drops.get(), 3);

        // A failed read leaves the field empty.
        let mut field = FieldSlot::new();
        assert!(
            field
                .seed(seed)
                .deserialize(U32Deserializer::<Error>::new(1))
                .is_err()
        );
        assert!(!field.is_filled());
        drop(field);
        assert_eq!(drops.get(), 3);
    }
}
