//! [`DocumentEnd`]: whether a window holds the whole of the JSON value it starts with, found by
//! following brackets and strings, from where the last look stopped.
//!
//! [`ReaderStream`](super::ReaderStream) reads a document from its window; one that runs past
//! the window's end is read again once more input is in. Without a way to tell when that
//! input completes it, a reader that hands out a little at a time would have a long document
//! read again after every `read` call: work quadratic in its length. The stream asks this
//! instead, each byte looked at once however many refills the document spans, and reads the
//! document again only once it is complete (or, for input that is no JSON and may never look
//! complete, once its unconsumed bytes have doubled since the last read).
//!
//! It is a gate, not a parser: it does not check the text, and the reader decides what the
//! document is. It must only never say "incomplete" of text that holds a whole value followed
//! by at least one byte, or of a value that ends at a closing bracket, brace or quote.

/// How far the document at the start of a window has been followed; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DocumentEnd {
    /// Bytes of the document looked at: the next call starts there.
    scanned: usize,
    /// Arrays and objects open at `scanned`.
    depth: usize,
    /// Whether `scanned` is inside a string.
    in_string: bool,
    /// Whether the byte before `scanned` is a backslash inside a string.
    escaped: bool,
}

impl DocumentEnd {
    /// Whether `doc`, a document from its first byte (not whitespace) to the end of the window,
    /// holds a whole value: its closing bracket, brace or quote at depth 0, or for a value that
    /// is no array, object or string, any byte after its first that can end it (whitespace or
    /// one of `[]{}",:`). `doc` starts with the bytes the last call saw.
    pub(super) fn complete(&mut self, doc: &[u8]) -> bool {
        let scalar = !matches!(doc.first(), Some(b'[' | b'{' | b'"'));
        while let Some(&b) = doc.get(self.scanned) {
            let at = self.scanned;
            self.scanned += 1;
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                    if self.depth == 0 {
                        return true;
                    }
                }
                continue;
            }
            if scalar {
                if at > 0
                    && matches!(
                        b,
                        b' ' | b'\t'
                            | b'\n'
                            | b'\r'
                            | b'['
                            | b']'
                            | b'{'
                            | b'}'
                            | b'"'
                            | b','
                            | b':'
                    )
                {
                    return true;
                }
                if at == 0 && matches!(b, b']' | b'}' | b',' | b':') {
                    // No value starts so: the reader refuses it at once.
                    return true;
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'[' | b'{' => self.depth += 1,
                b']' | b'}' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `text` a byte more at a time; returns the length at which it was first complete.
    fn complete_at(text: &[u8]) -> Option<usize> {
        let mut end = DocumentEnd::default();
        (1..=text.len()).find(|&len| end.complete(&text[..len]))
    }

    #[test]
    fn a_value_is_complete_at_its_last_byte_or_the_byte_after_a_scalar() {
        for (text, at) in [
            (&br#"[1, [2], {"a": "]"}] x"#[..], Some(20)),
            (br#"{"a\"}": [] }"#, Some(13)),
            (br#""a\\" 1"#, Some(5)),
            (br#""\"]""#, Some(5)),
            (b"123 ", Some(4)),
            (b"true[", Some(5)),
            (b"1e5,", Some(4)),
            (b"null", None),
            (b"[[1]", None),
            (br#"{"a": "}"#, None),
            (b"]", Some(1)),
        ] {
            assert_eq!(complete_at(text), at, "{}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn each_byte_is_looked_at_once_across_calls() {
        let text = format!("[{}]", vec!["\"x\""; 1000].join(","));
        let mut end = DocumentEnd::default();
        for len in 1..text.len() {
            assert!(!end.complete(&text.as_bytes()[..len]));
            assert_eq!(end.scanned, len);
        }
        assert!(end.complete(text.as_bytes()));
    }
}
