//! A differential probe for two serde `Deserializer`s given the same bytes (arena_core's
//! MessagePack and JSON readers against rmp-serde's and serde_json's): a seed that calls a
//! scripted `deserialize_*` method at every value, and a visitor that records every call it
//! gets, so that the two can be compared call for call.
//!
//! The script is a list of choices read in a cycle: which method to call, how many elements
//! of a sequence to read before stopping, which variant form to ask for, whether the visitor
//! refuses what it is given. Two readers that call the visitor the same way consume the same
//! choices, so their traces stay comparable to the end.

use core::cell::{Cell, RefCell};
use core::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// The choices and the trace of one probe run.
#[derive(Debug)]
pub struct Script {
    choices: Vec<u8>,
    at: Cell<usize>,
    trace: RefCell<Vec<String>>,
    /// Probes open now: past [`MAX_PROBE_DEPTH`], each reads with `deserialize_ignored_any`,
    /// which reads a marker every time (an `Option` or a newtype asks for the next value
    /// without reading one, so a script of them alone would never end).
    depth: Cell<usize>,
}

/// See [`Script::depth`]: above the 1023 levels both readers allow.
const MAX_PROBE_DEPTH: usize = 1100;

impl Script {
    /// A script of `choices` (read in a cycle; none reads as all zeros) and an empty trace.
    #[must_use]
    pub fn new(choices: &[u8]) -> Self {
        Script {
            choices: choices.to_vec(),
            at: Cell::new(0),
            trace: RefCell::new(Vec::new()),
            depth: Cell::new(0),
        }
    }

    /// The next choice.
    fn next(&self) -> u8 {
        let at = self.at.get();
        self.at.set(at + 1);
        if self.choices.is_empty() {
            0
        } else {
            self.choices[at % self.choices.len()]
        }
    }

    /// Records `event`; refuses it (an error from the visitor) when the script says so, one
    /// time in `one_in`.
    fn record<E: de::Error>(&self, event: String, one_in: u8) -> Result<(), E> {
        self.trace.borrow_mut().push(event);
        if self.next().is_multiple_of(one_in) {
            self.trace.borrow_mut().push("refused".to_owned());
            Err(E::custom("the probe refuses this"))
        } else {
            Ok(())
        }
    }

    /// The trace so far.
    #[must_use]
    pub fn trace(&self) -> Vec<String> {
        self.trace.borrow().clone()
    }
}

/// Reads up to `values` values with the probe, each by `read` (which drives one deserializer,
/// its error written with `Debug`), until one fails: the trace, and the error if one failed.
/// A second value shows where the first one ended.
pub fn probe(
    choices: &[u8],
    values: usize,
    mut read: impl FnMut(Probe<'_>) -> Result<(), String>,
) -> (Vec<String>, Option<String>) {
    let script = Script::new(choices);
    for _ in 0..values {
        if let Err(e) = read(Probe { script: &script }) {
            return (script.trace(), Some(e));
        }
    }
    (script.trace(), None)
}

/// [`probe`] of two values in a row from the reader `de`: the trace, and the error if one
/// failed.
pub fn probe_reader<'de, D>(choices: &[u8], mut de: D) -> (Vec<String>, Option<String>)
where
    for<'a> &'a mut D: Deserializer<'de>,
{
    probe(choices, 2, |p| {
        p.deserialize(&mut de).map_err(|e| format!("{e:?}"))
    })
}

/// Runs `f` on a thread with a stack large enough for 1023 levels of probed nesting (the
/// depth both readers allow).
///
/// On wasm32, which has no threads, `f` runs on the calling thread, whose stack is the one the
/// test binary was linked with (`-zstack-size`).
pub fn with_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    #[cfg(target_family = "wasm")]
    return f();
    #[cfg(not(target_family = "wasm"))]
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(scope, f)
            .expect("spawns a thread")
            .join()
            .expect("the probe thread does not panic")
    })
}

/// The seed: calls the `deserialize_*` method the script chooses, with a [`Recorder`].
#[derive(Clone, Copy, Debug)]
pub struct Probe<'s> {
    script: &'s Script,
}

impl<'de> DeserializeSeed<'de> for Probe<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        let script = self.script;
        let depth = script.depth.get();
        script.depth.set(depth + 1);
        let result = self.choose(de, depth);
        script.depth.set(depth);
        result
    }
}

impl Probe<'_> {
    /// Calls the method the script chooses at this `depth` of probes.
    fn choose<'de, D: Deserializer<'de>>(self, de: D, depth: usize) -> Result<(), D::Error> {
        let script = self.script;
        let choice = if depth > MAX_PROBE_DEPTH {
            39
        } else {
            script.next() % 40
        };
        script
            .trace
            .borrow_mut()
            .push(format!("call {choice} human {}", de.is_human_readable()));
        let r = Recorder { script };
        match choice {
            0..=5 => de.deserialize_any(r),
            6 => de.deserialize_bool(r),
            7 => de.deserialize_u8(r),
            8 => de.deserialize_u16(r),
            9 => de.deserialize_u32(r),
            10 => de.deserialize_u64(r),
            11 => de.deserialize_i8(r),
            12 => de.deserialize_i16(r),
            13 => de.deserialize_i32(r),
            14 => de.deserialize_i64(r),
            15 => de.deserialize_f32(r),
            16 => de.deserialize_f64(r),
            17 => de.deserialize_i128(r),
            18 => de.deserialize_u128(r),
            19 => de.deserialize_char(r),
            20 => de.deserialize_str(r),
            21 => de.deserialize_string(r),
            22 => de.deserialize_bytes(r),
            23 => de.deserialize_byte_buf(r),
            24 | 25 => de.deserialize_option(r),
            26 => de.deserialize_unit(r),
            27 => de.deserialize_unit_struct("Unit", r),
            28 => de.deserialize_newtype_struct("Newtype", r),
            29 => de.deserialize_newtype_struct("_ExtStruct", r),
            30 => de.deserialize_seq(r),
            31 => de.deserialize_tuple(usize::from(script.next() % 4), r),
            32 => de.deserialize_tuple_struct("Tuple", 2, r),
            33 => de.deserialize_map(r),
            34 => de.deserialize_struct("Struct", &["a", "b"], r),
            35 | 36 => de.deserialize_enum("Enum", &["A", "B"], r),
            37 => de.deserialize_identifier(r),
            _ => de.deserialize_ignored_any(r),
        }
    }
}

/// The visitor: records each call, descends with the [`Probe`] where a call hands over more.
#[derive(Clone, Copy, Debug)]
pub struct Recorder<'s> {
    script: &'s Script,
}

/// `visit_*` methods that record their value (`Debug`) and may refuse it.
macro_rules! record {
    ($($method:ident($ty:ty);)*) => {
        $(
            fn $method<E: de::Error>(self, v: $ty) -> Result<(), E> {
                self.script.record(format!("{} {v:?}", stringify!($method)), 16)
            }
        )*
    };
}

impl<'de> Visitor<'de> for Recorder<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("anything the probe asks for")
    }

    record! {
        visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64);
        visit_i128(i128); visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64);
        visit_u128(u128); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str);
        visit_string(String);
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<(), E> {
        self.script
            .record(format!("visit_f32 {:#x}", v.to_bits()), 16)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.script
            .record(format!("visit_f64 {:#x}", v.to_bits()), 16)
    }

    // Bytes are refused more often: a string that is not UTF-8 is offered as bytes, and
    // rmp-serde's error when they are refused is part of what is compared.
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        self.script.record(format!("visit_bytes {v:?}"), 3)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<(), E> {
        self.script.record(format!("visit_borrowed_bytes {v:?}"), 3)
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<(), E> {
        self.script.record(format!("visit_byte_buf {v:?}"), 3)
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.script.record("visit_none".to_owned(), 16)
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.script.record("visit_unit".to_owned(), 16)
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        self.script.record("visit_some".to_owned(), 64)?;
        Probe {
            script: self.script,
        }
        .deserialize(de)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        self.script.record("visit_newtype_struct".to_owned(), 64)?;
        Probe {
            script: self.script,
        }
        .deserialize(de)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let script = self.script;
        script.record(format!("visit_seq {:?}", seq.size_hint()), 64)?;
        // Stops early one time in eight, to see what an unread rest does.
        while !script.next().is_multiple_of(8) {
            if seq.next_element_seed(Probe { script })?.is_none() {
                script.trace.borrow_mut().push("end".to_owned());
                return Ok(());
            }
        }
        script.trace.borrow_mut().push("stop".to_owned());
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let script = self.script;
        script.record(format!("visit_map {:?}", map.size_hint()), 64)?;
        while !script.next().is_multiple_of(8) {
            if map.next_key_seed(Probe { script })?.is_none() {
                script.trace.borrow_mut().push("end".to_owned());
                return Ok(());
            }
            // Leaves a value unread one time in 32: the next key is read where it starts.
            if !script.next().is_multiple_of(32) {
                map.next_value_seed(Probe { script })?;
            }
        }
        script.trace.borrow_mut().push("stop".to_owned());
        Ok(())
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let script = self.script;
        script.record("visit_enum".to_owned(), 64)?;
        let ((), variant) = data.variant_seed(Probe { script })?;
        let recorder = Recorder { script };
        match script.next() % 4 {
            0 => variant.unit_variant(),
            1 => variant.newtype_variant_seed(Probe { script }),
            2 => variant.tuple_variant(2, recorder),
            _ => variant.struct_variant(&["a", "b"], recorder),
        }
    }
}
