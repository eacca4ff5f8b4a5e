//! How Go's `encoding/json` words a body it cannot read, for the errors kube-apiserver
//! sends back: its scanner's syntax errors (`invalid character 'o' in literal null
//! (expecting 'u')`, `unexpected end of JSON input`), and what apimachinery's
//! `SimpleMetaFactory.Interpret` says when the body is valid JSON but not an object it
//! can read `apiVersion` and `kind` from.

use serde_json::Value;

/// The anonymous struct apimachinery decodes `apiVersion` and `kind` into, as Go's
/// reflect prints its type.
const FIND_KIND: &str = "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }";

/// A byte as Go's scanner quotes it in a syntax error.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        b'\\' => r"'\\'".to_owned(),
        b'\n' => r"'\n'".to_owned(),
        b'\r' => r"'\r'".to_owned(),
        b'\t' => r"'\t'".to_owned(),
        0x07 => r"'\a'".to_owned(),
        0x08 => r"'\b'".to_owned(),
        0x0c => r"'\f'".to_owned(),
        0x0b => r"'\v'".to_owned(),
        c if c < 0x20 || c == 0x7f => format!("'\\x{c:02x}'"),
        c if c < 0x80 => format!("'{}'", c as char),
        // Go turns the byte into the rune of that number (Latin-1).
        c => match c {
            0x80..=0x9f | 0xad => format!("'\\u{c:04x}'"),
            _ => format!("'{}'", char::from(c)),
        },
    }
}

/// Go's limit on nesting (`maxNestingDepth`).
const MAX_DEPTH: usize = 10_000;

/// Go's scanner over `data`: the first syntax error, in its words. Iterative, with Go's
/// nesting limit, so no body can exhaust the stack.
pub fn syntax_error(data: &[u8]) -> Option<String> {
    Scanner { data, pos: 0 }.scan().err()
}

struct Scanner<'a> {
    data: &'a [u8],
    pos: usize,
}

type Scan = Result<(), String>;

const EOF: &str = "unexpected end of JSON input";

/// What the scanner is inside of.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    Object,
    Array,
}

impl Scanner<'_> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.data.get(self.pos) {
            self.pos += 1;
        }
    }

    fn next(&mut self) -> Result<u8, String> {
        let c = *self.data.get(self.pos).ok_or(EOF)?;
        self.pos += 1;
        Ok(c)
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn invalid(c: u8, context: &str) -> String {
        format!("invalid character {} {context}", quote_char(c))
    }

    fn scan(&mut self) -> Scan {
        let mut stack: Vec<Open> = Vec::new();
        // Whether a value is due (else the end of one just read).
        let mut want_value = true;
        loop {
            if want_value {
                self.skip_ws();
                let c = self.next()?;
                match c {
                    b'{' | b'[' => {
                        let open = if c == b'{' { Open::Object } else { Open::Array };
                        stack.push(open);
                        if stack.len() > MAX_DEPTH {
                            return Err(Self::invalid(c, "exceeded max depth"));
                        }
                        self.skip_ws();
                        let close = if open == Open::Object { b'}' } else { b']' };
                        if self.peek() == Some(close) {
                            self.pos += 1;
                            stack.pop();
                            want_value = false;
                        } else if open == Open::Object {
                            self.key()?;
                        }
                        continue;
                    }
                    b'"' => self.string()?,
                    b'-' | b'0'..=b'9' => self.number(c)?,
                    b't' => self.literal("true")?,
                    b'f' => self.literal("false")?,
                    b'n' => self.literal("null")?,
                    c => return Err(Self::invalid(c, "looking for beginning of value")),
                }
                want_value = false;
                continue;
            }
            self.skip_ws();
            match stack.last() {
                None => {
                    return match self.peek() {
                        None => Ok(()),
                        Some(c) => Err(Self::invalid(c, "after top-level value")),
                    }
                }
                Some(Open::Object) => match self.next()? {
                    b',' => {
                        self.key()?;
                        want_value = true;
                    }
                    b'}' => {
                        stack.pop();
                    }
                    c => return Err(Self::invalid(c, "after object key:value pair")),
                },
                Some(Open::Array) => match self.next()? {
                    b',' => want_value = true,
                    b']' => {
                        stack.pop();
                    }
                    c => return Err(Self::invalid(c, "after array element")),
                },
            }
        }
    }

    /// An object's key and its colon; the value is due next.
    fn key(&mut self) -> Scan {
        self.skip_ws();
        match self.next()? {
            b'"' => self.string()?,
            c => {
                return Err(Self::invalid(
                    c,
                    "looking for beginning of object key string",
                ))
            }
        }
        self.skip_ws();
        match self.next()? {
            b':' => Ok(()),
            c => Err(Self::invalid(c, "after object key")),
        }
    }

    fn string(&mut self) -> Scan {
        loop {
            match self.next()? {
                b'"' => return Ok(()),
                b'\\' => match self.next()? {
                    b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {}
                    b'u' => {
                        for _ in 0..4 {
                            let c = self.next()?;
                            if !c.is_ascii_hexdigit() {
                                return Err(Self::invalid(
                                    c,
                                    "in \\u hexadecimal character escape",
                                ));
                            }
                        }
                    }
                    c => return Err(Self::invalid(c, "in string escape code")),
                },
                c if c < 0x20 => return Err(Self::invalid(c, "in string literal")),
                _ => {}
            }
        }
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn number(&mut self, first: u8) -> Scan {
        let first = if first == b'-' {
            match self.next()? {
                c @ b'0'..=b'9' => c,
                c => return Err(Self::invalid(c, "in numeric literal")),
            }
        } else {
            first
        };
        if first != b'0' {
            self.digits();
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            match self.next()? {
                b'0'..=b'9' => self.digits(),
                c => return Err(Self::invalid(c, "after decimal point in numeric literal")),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            let mut c = self.next()?;
            if c == b'+' || c == b'-' {
                c = self.next()?;
            }
            if !c.is_ascii_digit() {
                return Err(Self::invalid(c, "in exponent of numeric literal"));
            }
            self.digits();
        }
        Ok(())
    }

    fn literal(&mut self, word: &str) -> Scan {
        for want in word.bytes().skip(1) {
            let c = self.next()?;
            if c != want {
                return Err(Self::invalid(
                    c,
                    &format!("in literal {word} (expecting {})", quote_char(want)),
                ));
            }
        }
        Ok(())
    }
}

/// Go's name of a JSON value's kind in an UnmarshalTypeError.
pub fn go_kind(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

/// What apimachinery's Interpret says of a body that is valid JSON but not an object
/// with string `apiVersion` and `kind` (`null` reads as an empty object).
pub fn interpret_error(body: &Value) -> Option<String> {
    match body {
        Value::Object(m) => ["apiVersion", "kind"].iter().find_map(|k| match m.get(*k) {
            None | Some(Value::String(_) | Value::Null) => None,
            Some(v) => Some(format!(
                "json: cannot unmarshal {} into Go struct field .{k} of type string",
                go_kind(v)
            )),
        }),
        Value::Null => None,
        v => Some(format!(
            "json: cannot unmarshal {} into Go value of type {FIND_KIND}",
            go_kind(v)
        )),
    }
}

/// A body as upstream summarizes it in an error: up to 30 bytes, as text when it starts
/// like an object, else in hex.
pub fn summarize(data: &[u8]) -> String {
    const MAX: usize = 30;
    let cut = &data[..data.len().min(MAX)];
    let more = if data.len() > MAX { " ..." } else { "" };
    match data.first() {
        None => "<empty>".to_owned(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(cut)),
        Some(_) => {
            let hex: String = cut.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}{more}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn go_scanner_messages() {
        let cases: &[(&str, &str)] = &[
            (
                "not json",
                "invalid character 'o' in literal null (expecting 'u')",
            ),
            ("", "unexpected end of JSON input"),
            ("{", "unexpected end of JSON input"),
            (
                "{a",
                "invalid character 'a' looking for beginning of object key string",
            ),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\":1 \"b\"}",
                "invalid character '\"' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            (
                "{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            ("{} x", "invalid character 'x' after top-level value"),
            ("x", "invalid character 'x' looking for beginning of value"),
            ("\"a\\q\"", "invalid character 'q' in string escape code"),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            ("tru", "unexpected end of JSON input"),
            (
                "{'a':1}",
                "invalid character '\\'' looking for beginning of object key string",
            ),
            ("01", "invalid character '1' after top-level value"),
        ];
        for (input, want) in cases {
            assert_eq!(
                syntax_error(input.as_bytes()).as_deref(),
                Some(*want),
                "{input:?}"
            );
        }
        for ok in [
            "{}",
            " [1, -2.5e+3, \"\\u00e9\", true, null] ",
            "0",
            "{\"a\":{\"b\":[]}}",
        ] {
            assert_eq!(syntax_error(ok.as_bytes()), None, "{ok}");
        }
        // Deep nesting: Go's limit, and no recursion.
        let deep = "[".repeat(200_000);
        assert_eq!(
            syntax_error(deep.as_bytes()).as_deref(),
            Some("invalid character '[' exceeded max depth")
        );
        let fine = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(syntax_error(fine.as_bytes()), None);
    }

    #[test]
    fn interpret_and_summary() {
        assert!(interpret_error(&json!([1])).unwrap().starts_with(
            "json: cannot unmarshal array into Go value of type struct { APIVersion string"
        ));
        assert_eq!(
            interpret_error(&json!({"kind": 5})).as_deref(),
            Some("json: cannot unmarshal number into Go struct field .kind of type string")
        );
        assert_eq!(interpret_error(&json!({"kind": "Pod"})), None);
        assert_eq!(summarize(b"not json\n"), "6e6f74206a736f6e0a");
        assert_eq!(
            summarize(b"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}"),
            "{\"apiVersion\":\"v1\",\"kind\":\"Con ..."
        );
    }
}
