//! [`Value`] as JSON text: `{}` compact, `{:#}` pretty (two spaces per level, as
//! `serde_json::to_string_pretty`).
//!
//! Every value has a text, written without allocating and the same every time:
//!
//! - `Unit` and `None` are `null`; `Some` and `Newtype` are their content;
//! - integers of every width are their digits; floats their shortest text that reads back as
//!   the same float (an `F32` as the same `f32`), with a `.0` or an exponent so they read back
//!   as floats; NaN and infinities are `null`, as serde_json writes them;
//! - a `Char` is a one-character string; `Bytes` an array of numbers, as serde_json writes a
//!   `Vec<u8>`;
//! - an `Enum` is what its `Serialize` writes: the variant alone for a unit variant, else an
//!   object of one entry;
//! - a map is an object, its entries in order, duplicates included. A key whose JSON text is a
//!   string (`Str`, `Char`, one inside `Some`/`Newtype`, a unit variant named by one) is written
//!   as that string; any other key is written as a string holding its compact JSON text: `1`
//!   as `"1"`, `true` as `"true"`, `[1,2]` as `"[1,2]"`. For integers and booleans this is what
//!   serde_json writes; for the keys serde_json refuses (null, bytes, arrays, maps, non-finite
//!   floats) it is still a text.
//!
//! Strings are escaped as serde_json escapes them: `"`, `\` and the control characters.
//! So a value serde_json can write (string keys) reads back, with serde_json, as the same
//! `serde_json::Value` that `serde_json::to_string` gives, floats to the bit.

use core::fmt::{self, Write};

use super::Value;

impl fmt::Display for Value<'_> {
    /// Writes the value as JSON: compact with `{}`, indented with `{:#}` (two spaces per level).
    ///
    /// Every value has a text, the same every time: `Unit` and `None` are `null`; `Some` and
    /// `Newtype` their content; floats their shortest text that reads back as the same float,
    /// NaN and infinities `null`; a `Char` a string; `Bytes` an array of numbers; an `Enum` the
    /// variant alone (unit) or an object of one entry. A map key whose JSON text is not a
    /// string is written as a string holding that text (`1` as `"1"`).
    ///
    /// # Errors
    ///
    /// Only the formatter's own error.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_core::Value;
    ///
    /// let bump = bumpalo::Bump::new();
    /// let doc = Value::object(&bump, [
    ///     ("id", Value::U64(7)),
    ///     ("tags", Value::array(&bump, [Value::str(&bump, "a\"b"), Value::F64(1.0)])),
    /// ]);
    /// assert_eq!(doc.to_string(), r#"{"id":7,"tags":["a\"b",1.0]}"#);
    /// assert_eq!(format!("{doc:#}"), "{\n  \"id\": 7,\n  \"tags\": [\n    \"a\\\"b\",\n    1.0\n  ]\n}");
    ///
    /// let keys = Value::map(&bump, [(Value::U64(1), Value::Bool(true)), (Value::Unit, Value::Unit)]);
    /// assert_eq!(keys.to_string(), r#"{"1":true,"null":null}"#);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let indent = if f.alternate() { Some(0) } else { None };
        write_value(f, *self, indent)
    }
}

/// Writes `value` to `out`: compact when `indent` is `None`, else pretty at that depth.
fn write_value(out: &mut dyn Write, value: Value<'_>, indent: Option<usize>) -> fmt::Result {
    match value {
        Value::Unit | Value::None => out.write_str("null"),
        Value::Some(v) | Value::Newtype(v) => write_value(out, *v, indent),
        Value::Bool(v) => out.write_str(if v { "true" } else { "false" }),
        Value::I64(v) => write!(out, "{v}"),
        Value::U64(v) => write!(out, "{v}"),
        Value::I128(v) => write!(out, "{v}"),
        Value::U128(v) => write!(out, "{v}"),
        // `Debug` is the shortest text that reads back as the same float, with a `.0` or an
        // exponent (`1.0`, `1e-7`); `Display` would write `1` and `0.0000001`.
        Value::F32(v) if v.is_finite() => write!(out, "{v:?}"),
        Value::F64(v) if v.is_finite() => write!(out, "{v:?}"),
        Value::F32(_) | Value::F64(_) => out.write_str("null"),
        Value::Char(v) => write_str(out, v.encode_utf8(&mut [0; 4])),
        Value::Str(v) => write_str(out, v),
        Value::Bytes(v) => write_items(out, "[]", v.iter(), indent, |out, byte, _| {
            write!(out, "{byte}")
        }),
        Value::Array(items) => write_items(out, "[]", items.iter(), indent, |out, item, indent| {
            write_value(out, *item, indent)
        }),
        Value::Map(entries) => write_object(out, entries.iter().map(|(k, v)| (*k, *v)), indent),
        Value::Enum(&(variant, Value::Unit)) => write_value(out, variant, indent),
        Value::Enum(&entry) => write_object(out, core::iter::once(entry), indent),
    }
}

/// Writes `items` between `brackets` (`"[]"` or `"{}"`), separated by commas, each with
/// `write_item` at one level deeper.
fn write_items<T>(
    out: &mut dyn Write,
    brackets: &str,
    items: impl ExactSizeIterator<Item = T>,
    indent: Option<usize>,
    mut write_item: impl FnMut(&mut dyn Write, T, Option<usize>) -> fmt::Result,
) -> fmt::Result {
    let (open, close) = brackets.split_at(1);
    if items.len() == 0 {
        return out.write_str(brackets);
    }
    let inner = indent.map(|depth| depth + 1);
    out.write_str(open)?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        new_line(out, inner)?;
        write_item(out, item, inner)?;
    }
    new_line(out, indent)?;
    out.write_str(close)
}

/// Writes `entries` as a JSON object (keys as the module documentation says).
fn write_object<'bump>(
    out: &mut dyn Write,
    entries: impl ExactSizeIterator<Item = (Value<'bump>, Value<'bump>)>,
    indent: Option<usize>,
) -> fmt::Result {
    write_items(out, "{}", entries, indent, |out, (key, value), inner| {
        write_key(out, key)?;
        out.write_str(if inner.is_some() { ": " } else { ":" })?;
        write_value(out, value, inner)
    })
}

/// Writes a map key as a JSON string: the key itself when its text is a string, else its
/// compact text escaped into one.
fn write_key(out: &mut dyn Write, key: Value<'_>) -> fmt::Result {
    match key {
        Value::Some(v) | Value::Newtype(v) => write_key(out, *v),
        Value::Str(s) => write_str(out, s),
        Value::Char(c) => write_str(out, c.encode_utf8(&mut [0; 4])),
        Value::Enum(&(variant, Value::Unit)) => write_key(out, variant),
        other => {
            out.write_char('"')?;
            write_value(&mut Escaping(out), other, None)?;
            out.write_char('"')
        }
    }
}

/// In pretty mode, a new line indented two spaces per level of `indent`.
fn new_line(out: &mut dyn Write, indent: Option<usize>) -> fmt::Result {
    if let Some(depth) = indent {
        out.write_char('\n')?;
        for _ in 0..depth {
            out.write_str("  ")?;
        }
    }
    Ok(())
}

/// Writes `s` as a JSON string, quoted and escaped.
fn write_str(out: &mut dyn Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    Escaping(out).write_str(s)?;
    out.write_char('"')
}

/// A writer that escapes what goes through it as the inside of a JSON string, as serde_json
/// does: `"` and `\` with a backslash, control characters as `\n`-like short forms or `\u00XX`.
struct Escaping<'a>(&'a mut dyn Write);

impl Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut start = 0;
        for (i, byte) in s.bytes().enumerate() {
            let short = match byte {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..0x20 => "",
                _ => continue,
            };
            self.0.write_str(&s[start..i])?;
            start = i + 1;
            if short.is_empty() {
                write!(self.0, "\\u{byte:04x}")?;
            } else {
                self.0.write_str(short)?;
            }
        }
        self.0.write_str(&s[start..])
    }
}
