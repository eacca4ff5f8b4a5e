//! Strings escaped as Go's `encoding/json` escapes them: kube-apiserver's encoder
//! (`json.NewEncoder`, HTML escaping on) writes `<`, `>` and `&` as `\u003c`, `\u003e`,
//! `\u0026`, and the line and paragraph separators U+2028 and U+2029 as `\u2028` and
//! `\u2029`, where serde_json writes them as they are. Everything else (control
//! characters, quotes, backslashes) is escaped alike by both.
//!
//! [`go_json_vec`] and [`go_json_pretty`] serialize any value with serde_json's compact or
//! indented layout and Go's escapes.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// `value` as compact JSON with Go's escapes.
pub fn go_json_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    write(value, CompactFormatter)
}

/// `value` indented by two spaces (Go's `json.MarshalIndent(v, "", "  ")`) with Go's
/// escapes.
pub fn go_json_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    write(value, PrettyFormatter::with_indent(b"  "))
}

fn write<T: Serialize + ?Sized, F: Formatter>(value: &T, f: F) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, GoEscapes(f));
    value.serialize(&mut ser)?;
    Ok(out)
}

/// A formatter writing string contents with Go's extra escapes, the layout of `F`.
struct GoEscapes<F>(F);

/// Go's escape of `bytes[i..]` if it starts with a character Go escapes and serde_json
/// does not, with the length of that character.
fn go_escape(bytes: &[u8], i: usize) -> Option<(&'static [u8], usize)> {
    match bytes[i] {
        b'<' => Some((b"\\u003c", 1)),
        b'>' => Some((b"\\u003e", 1)),
        b'&' => Some((b"\\u0026", 1)),
        0xE2 if bytes.get(i + 1) == Some(&0x80) => match bytes.get(i + 2) {
            Some(0xA8) => Some((b"\\u2028", 3)),
            Some(0xA9) => Some((b"\\u2029", 3)),
            _ => None,
        },
        _ => None,
    }
}

impl<F: Formatter> Formatter for GoEscapes<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        let (mut start, mut i) = (0, 0);
        while i < bytes.len() {
            match go_escape(bytes, i) {
                Some((escaped, len)) => {
                    // `start..i` ends before an ASCII byte or a 3-byte character's lead.
                    self.0.write_string_fragment(writer, &fragment[start..i])?;
                    writer.write_all(escaped)?;
                    i += len;
                    start = i;
                }
                None => i += 1,
            }
        }
        self.0.write_string_fragment(writer, &fragment[start..])
    }

    // The layout is `F`'s.
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn html_characters_and_separators_are_escaped_as_go_does() {
        let v = json!({"a<b": "x > y && z\u{2028}é\u{2029}\"\n", "k": ["<", 1]});
        let out = String::from_utf8(go_json_vec(&v).unwrap()).unwrap();
        assert_eq!(
            out,
            r#"{"a\u003cb":"x \u003e y \u0026\u0026 z\u2028é\u2029\"\n","k":["\u003c",1]}"#
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, v);
        let pretty = String::from_utf8(go_json_pretty(&json!({"a": ["&"]})).unwrap()).unwrap();
        assert_eq!(pretty, "{\n  \"a\": [\n    \"\\u0026\"\n  ]\n}");
        // Other characters with a 0xE2 lead pass as they are.
        let other = String::from_utf8(go_json_vec(&json!("€ → ‰")).unwrap()).unwrap();
        assert_eq!(other, "\"€ → ‰\"");
    }
}
