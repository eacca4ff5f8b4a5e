//! Strings and floating-point numbers as Go's `encoding/json` writes them:
//!
//! * kube-apiserver's encoder (`json.NewEncoder`, HTML escaping on) writes `<`, `>` and
//!   `&` as `\u003c`, `\u003e`, `\u0026`, and the line and paragraph separators U+2028
//!   and U+2029 as `\u2028` and `\u2029`, where serde_json writes them as they are;
//!   everything else (control characters, quotes, backslashes) is escaped alike by both.
//! * A float is written in the shortest form that reads back the same, as plain digits
//!   (`3`, not serde_json's `3.0`; `100000000000000000000`, not `1e20`) unless its
//!   magnitude is below 1e-6 or at least 1e21, then with an exponent (`1e+21`, `1.5e-7`).
//!   Custom resources hold any JSON number, and upstream reads a non-integer one as a Go
//!   float64, so `1.0` comes back as `1`.
//!
//! [`go_json_vec`] and [`go_json_pretty`] serialize any value with serde_json's compact or
//! indented layout and Go's strings and floats.

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

/// `f` as Go's `encoding/json` writes a float64 (`floatEncoder`: `strconv` shortest 'f'
/// form, 'e' form outside [1e-6, 1e21) with the exponent's sign and no leading zero).
fn go_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let e = format!("{f:e}");
        return match e.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
            _ => e,
        };
    }
    // Display is the shortest round-trip form in plain digits; `-0` as Go writes it.
    format!("{f}")
}

/// A formatter writing string contents with Go's extra escapes and floats as Go does,
/// the layout of `F`.
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
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(go_float(value).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        writer.write_all(go_float(f64::from(value)).as_bytes())
    }

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
    fn floats_are_written_as_go_writes_them() {
        let cases = [
            (1.0, "1"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1e-6, "0.000001"),
            (1.5e-7, "1.5e-7"),
            (2e-10, "2e-10"),
            (0.0, "0"),
        ];
        for (f, go) in cases {
            assert_eq!(go_float(f), go, "{f}");
            let written = String::from_utf8(go_json_vec(&json!([f])).unwrap()).unwrap();
            assert_eq!(written, format!("[{go}]"));
            let back: Vec<f64> = serde_json::from_str(&written).unwrap();
            assert_eq!(back, [f]);
        }
    }

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
