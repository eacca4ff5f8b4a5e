//! Go's `encoding/json` reading a JSON text into a typed Go value, for the legacy
//! annotations upstream decodes that way (`scheduler.alpha.kubernetes.io/tolerations`,
//! `…/taints`, `…/preferAvoidPods`) and refuses with the decoder's own error.
//!
//! What is kept of Go's decoder: syntax errors first (go_json's scanner); then the text
//! is walked in document order, each value read by the type it lands in: fields matched
//! exactly, then without regard to ASCII case, a repeated field read again; unknown
//! fields skipped unread; `null` leaves a field unset; a value of the wrong kind is
//! remembered and the walk goes on, the first such error reported at the end (`json:
//! cannot unmarshal string into Go struct field Taint.key of type string`, the struct
//! being the innermost one and the field the path of JSON names from the top; a number
//! that is no int64 shows its literal, `number 1e3`); a `metav1.Time`'s own unmarshaler
//! stops the walk at its error (`parsing time …`, or its inner string error given the
//! field's context).

use serde_json::{json, Map, Value};

use kas_server::go_json;

/// A Go type as the decoder sees it.
pub(super) enum Ty {
    /// A string kind, with the name an error gives it (`string`, `core.TaintEffect`).
    Str(&'static str),
    Int64,
    /// `bool` or `*bool`.
    Bool,
    /// `metav1.Time` or `*metav1.Time`: a string in RFC 3339.
    Time,
    /// A slice and its Go name (`[]core.Toleration`).
    Slice(&'static str, &'static Ty),
    /// A struct or a pointer to one.
    Struct(&'static Struct),
}

/// A struct: its Go name qualified (`core.Taint`) and its fields by JSON name.
pub(super) struct Struct {
    pub(super) go_type: &'static str,
    pub(super) fields: &'static [(&'static str, Ty)],
}

impl Struct {
    /// The name Go's errors give the struct a field belongs to (no package).
    fn name(&self) -> &'static str {
        self.go_type.rsplit('.').next().unwrap_or(self.go_type)
    }
}

impl Ty {
    fn go_name(&self) -> &'static str {
        match self {
            Ty::Str(n) => n,
            Ty::Int64 => "int64",
            Ty::Bool => "bool",
            Ty::Time => "v1.Time",
            Ty::Slice(n, _) => n,
            Ty::Struct(s) => s.go_type,
        }
    }
}

/// Where the decoder is: the innermost struct and the JSON names leading to the field.
#[derive(Clone, Default)]
struct Context {
    within: Option<&'static str>,
    path: Vec<&'static str>,
}

/// The walk over a text Go's scanner accepted.
struct Decoder<'a> {
    src: &'a [u8],
    pos: usize,
    /// The first value of the wrong kind, reported when nothing stops the walk.
    saved: Option<String>,
}

/// Decodes `text` as Go decodes it into a value of type `ty`: the value with its fields
/// under their JSON names (`null` for a top-level `null`), or Go's error text.
pub(super) fn decode(text: &str, ty: &'static Ty) -> Result<Value, String> {
    if let Some(e) = go_json::syntax_error(text.as_bytes()) {
        return Err(e);
    }
    let mut d = Decoder {
        src: text.as_bytes(),
        pos: 0,
        saved: None,
    };
    let out = d.value(ty, &Context::default())?;
    match d.saved {
        Some(e) => Err(e),
        None => Ok(out.unwrap_or(Value::Null)),
    }
}

/// A JSON kind by the first byte of its value, as Go's errors name it.
fn kind_of(first: u8) -> &'static str {
    match first {
        b'{' => "object",
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        b'n' => "null",
        _ => "number",
    }
}

impl Decoder<'_> {
    fn peek(&mut self) -> u8 {
        while self.src.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
        self.src.get(self.pos).copied().unwrap_or(0)
    }

    /// Steps over `c` (and the white space before it) when it comes next.
    fn eat(&mut self, c: u8) -> bool {
        let found = self.peek() == c;
        if found {
            self.pos += 1;
        }
        found
    }

    /// The end of the string starting at `self.pos` (its opening quote).
    fn string_end(&self) -> usize {
        let mut i = self.pos + 1;
        while let Some(&c) = self.src.get(i) {
            match c {
                b'\\' => i += 2,
                b'"' => return i + 1,
                _ => i += 1,
            }
        }
        self.src.len()
    }

    /// Reads a string, unescaped as Go unescapes (a lone surrogate as U+FFFD).
    fn string(&mut self) -> String {
        self.peek();
        let end = self.string_end();
        let raw = &self.src[(self.pos + 1).min(end)..end.saturating_sub(1).max(self.pos + 1)];
        self.pos = end;
        unescape(raw)
    }

    /// Steps over one value unread.
    fn skip(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                b'"' => self.pos = self.string_end(),
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    self.pos += 1;
                }
                b',' | b':' => self.pos += 1,
                0 => return,
                _ => {
                    self.literal();
                }
            }
            if depth == 0 {
                return;
            }
        }
    }

    /// A literal (number, `true`, `false`, `null`) as written.
    fn literal(&mut self) -> &str {
        self.peek();
        let start = self.pos;
        while self
            .src
            .get(self.pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
        {
            self.pos += 1;
        }
        std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("")
    }

    /// A value of the wrong kind, already read: remembered if it is the first.
    fn note(&mut self, kind: &str, ty: &Ty, at: &Context) -> Result<Option<Value>, String> {
        if self.saved.is_none() {
            self.saved = Some(type_error(kind, ty.go_name(), at));
        }
        Ok(None)
    }

    /// A value of the wrong kind: skipped, and remembered if it is the first.
    fn mismatch(&mut self, kind: &str, ty: &Ty, at: &Context) -> Result<Option<Value>, String> {
        self.skip();
        self.note(kind, ty, at)
    }

    /// The value read, `None` when it leaves the target unset; `Err` stops the walk.
    fn value(&mut self, ty: &'static Ty, at: &Context) -> Result<Option<Value>, String> {
        let first = self.peek();
        if first == b'n' {
            self.literal();
            return Ok(None);
        }
        match (ty, first) {
            (Ty::Str(_), b'"') => Ok(Some(Value::String(self.string()))),
            (Ty::Bool, b't' | b'f') => Ok(Some(Value::Bool(self.literal() == "true"))),
            (Ty::Int64, b'-' | b'0'..=b'9') => {
                let text = self.literal().to_owned();
                match text.parse::<i64>() {
                    Ok(n) => Ok(Some(json!(n))),
                    Err(_) => self.note(&format!("number {text}"), ty, at),
                }
            }
            (Ty::Time, b'"') => {
                let s = self.string();
                kas_schema::parse_go_time(&s, kas_schema::RFC3339)?;
                Ok(Some(Value::String(s)))
            }
            // The unmarshaler's own `json.Unmarshal` into a string fails, and stops.
            (Ty::Time, other) => Err(type_error(kind_of(other), "string", at)),
            (Ty::Slice(_, elem), b'[') => {
                self.pos += 1;
                let mut out = Vec::new();
                while !self.eat(b']') {
                    self.eat(b',');
                    let read = match elem {
                        // A `null` element is the element's zero value.
                        Ty::Struct(_) if self.peek() == b'n' => {
                            self.literal();
                            Some(json!({}))
                        }
                        _ => self.value(elem, at)?,
                    };
                    out.push(read.unwrap_or(Value::Null));
                }
                Ok(Some(Value::Array(out)))
            }
            (Ty::Struct(s), b'{') => self.object(s, at).map(Some),
            (_, other) => self.mismatch(kind_of(other), ty, at),
        }
    }

    fn object(&mut self, s: &'static Struct, at: &Context) -> Result<Value, String> {
        self.pos += 1;
        let mut out = Map::new();
        while !self.eat(b'}') {
            self.eat(b',');
            let name = self.string();
            self.eat(b':');
            // An exact match first, then one ignoring ASCII case, as Go's decoder does.
            let field = s
                .fields
                .iter()
                .find(|(f, _)| *f == name)
                .or_else(|| s.fields.iter().find(|(f, _)| f.eq_ignore_ascii_case(&name)));
            let Some((field, ty)) = field else {
                self.skip();
                continue;
            };
            let mut inner = at.clone();
            inner.within = Some(s.name());
            inner.path.push(field);
            let null = self.peek() == b'n';
            match self.value(ty, &inner)? {
                Some(v) => {
                    out.insert((*field).to_owned(), v);
                }
                // `null` sets a pointer or slice to nil; a value of the wrong kind leaves
                // the field as it was.
                None if null => {
                    out.remove(*field);
                }
                None => {}
            }
        }
        Ok(Value::Object(out))
    }
}

/// A JSON string's contents unescaped; a `\u` escape that is half a surrogate pair
/// reads as U+FFFD, as Go reads it.
fn unescape(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    if !text.contains('\\') {
        return text.into_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let hex = |chars: &mut std::iter::Peekable<std::str::Chars>| -> Option<u32> {
        let digits: String = chars.by_ref().take(4).collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let Some(u) = hex(&mut chars) else {
                    out.push('\u{fffd}');
                    continue;
                };
                if (0xD800..0xDC00).contains(&u) {
                    // A high surrogate: a low one must follow as another escape.
                    let mut ahead = chars.clone();
                    if ahead.next() == Some('\\') && ahead.next() == Some('u') {
                        if let Some(low) = hex(&mut ahead).filter(|l| (0xDC00..0xE000).contains(l))
                        {
                            chars = ahead;
                            let c = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                            out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                            continue;
                        }
                    }
                }
                out.push(char::from_u32(u).unwrap_or('\u{fffd}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// Go's UnmarshalTypeError: the JSON kind found, where, and the Go type wanted.
fn type_error(kind: &str, go_type: &str, at: &Context) -> String {
    match at.within {
        Some(within) => format!(
            "json: cannot unmarshal {kind} into Go struct field {within}.{} of type {go_type}",
            at.path.join(".")
        ),
        None => format!("json: cannot unmarshal {kind} into Go value of type {go_type}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static OWNER: Struct = Struct {
        go_type: "v1.OwnerReference",
        fields: &[("uid", Ty::Str("types.UID")), ("controller", Ty::Bool)],
    };
    static ENTRY: Struct = Struct {
        go_type: "v1.Entry",
        fields: &[
            ("owner", Ty::Struct(&OWNER)),
            ("at", Ty::Time),
            ("n", Ty::Int64),
        ],
    };
    static TOP: Struct = Struct {
        go_type: "v1.Top",
        fields: &[("entries", Ty::Slice("[]v1.Entry", &Ty::Struct(&ENTRY)))],
    };
    static DOC: Ty = Ty::Struct(&TOP);

    #[test]
    fn nested_fields_name_the_innermost_struct_and_the_whole_path() {
        assert_eq!(
            decode(
                r#"{"Entries":[null,{"owner":{"UID":"u","controller":true},"x":1}]}"#,
                &DOC
            ),
            Ok(json!({"entries": [{}, {"owner": {"uid": "u", "controller": true}}]}))
        );
        assert_eq!(
            decode(r#"{"entries":[{"owner":{"uid":1}}]}"#, &DOC),
            Err("json: cannot unmarshal number into Go struct field OwnerReference.entries.owner.uid of type types.UID".into())
        );
        assert_eq!(
            decode(r#"{"entries":{}}"#, &DOC),
            Err(
                "json: cannot unmarshal object into Go struct field Top.entries of type []v1.Entry"
                    .into()
            )
        );
        assert_eq!(
            decode(r#"[]"#, &DOC),
            Err("json: cannot unmarshal array into Go value of type v1.Top".into())
        );
    }

    #[test]
    fn a_time_stops_the_decoding_where_a_kind_error_does_not() {
        // The first kind error wins over later ones...
        assert_eq!(
            decode(
                r#"{"entries":[{"n":"1","owner":{"controller":"x"}}]}"#,
                &DOC
            ),
            Err(
                "json: cannot unmarshal string into Go struct field Entry.entries.n of type int64"
                    .into()
            )
        );
        // ...but a time's error stops the decoding and is the one reported.
        assert_eq!(
            decode(r#"{"entries":[{"n":"1","at":"yesterday"}]}"#, &DOC),
            Err(r#"parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006""#.into())
        );
        assert_eq!(
            decode(r#"{"entries":[{"at":5}]}"#, &DOC),
            Err("json: cannot unmarshal number into Go struct field Entry.entries.at of type string".into())
        );
        assert_eq!(
            decode(r#"{"entries":[{"at":null,"n":2}]}"#, &DOC),
            Ok(json!({"entries": [{"n": 2}]}))
        );
    }
}
