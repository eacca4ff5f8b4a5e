//! A small reader of Go declarations, enough for the API packages of `k8s.io/api`,
//! `apimachinery`, `apiextensions-apiserver` and `kube-aggregator`: imports, `type`
//! declarations (structs with their tags, defined and alias types) and the receivers of
//! `MarshalJSON` methods. Function bodies, constants and variables are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const BUILTINS: &[&str] = &[
    "bool", "string", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
    "uint32", "uint64", "uintptr", "float32", "float64", "byte", "rune", "error", "any",
];

/// A Go type expression.
#[derive(Clone, Debug)]
pub(crate) enum GoType {
    Builtin(String),
    /// A defined or alias type, by import path and name.
    Named {
        pkg: String,
        name: String,
    },
    Pointer(Box<GoType>),
    /// Slices and arrays, with their element type.
    Slice(Box<GoType>),
    Map,
    Struct(Vec<GoField>),
    /// Interfaces, functions, channels.
    Other,
}

#[derive(Clone, Debug)]
pub(crate) struct GoField {
    /// `None` for an embedded field.
    pub(crate) name: Option<String>,
    pub(crate) ty: GoType,
    /// The `json` tag: name (empty if unnamed) and options; `None` without a tag.
    pub(crate) json: Option<(String, Vec<String>)>,
}

impl GoField {
    pub(crate) fn omitempty(&self) -> bool {
        self.json
            .as_ref()
            .is_some_and(|(_, o)| o.iter().any(|o| o == "omitempty"))
    }

    /// The JSON name of a field that is not flattened; `None` for `json:"-"`, unexported
    /// and flattened (embedded, unnamed) fields.
    pub(crate) fn json_name(&self) -> Option<String> {
        let tag = self.json.as_ref().map(|(n, _)| n.as_str()).unwrap_or("");
        if tag == "-" {
            return None;
        }
        let go = match &self.name {
            Some(n) => n.clone(),
            None if !tag.is_empty() => return Some(tag.to_string()),
            // Embedded without a name in its tag: flattened.
            None => return None,
        };
        if !go.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        Some(if tag.is_empty() { go } else { tag.to_string() })
    }
}

#[derive(Default)]
pub(crate) struct Package {
    /// Type name → (type, is an alias).
    pub(crate) decls: BTreeMap<String, (GoType, bool)>,
    /// Types with a `MarshalJSON` or `MarshalText` method.
    pub(crate) marshalers: BTreeSet<String>,
}

/// The declarations of the Go package in `dir` (import path `pkg`), if it is there.
pub(crate) fn load_package(dir: &Path, pkg: &str) -> Option<Package> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            n.ends_with(".go")
                && !n.ends_with("_test.go")
                && !n.starts_with("zz_generated")
                && n != "generated.pb.go"
        })
        .collect();
    files.sort();
    let mut out = Package::default();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read Go source");
        let toks = tokenize(&text);
        let mut p = Parser {
            toks: &toks,
            pos: 0,
            pkg,
            imports: BTreeMap::new(),
        };
        p.file(&mut out)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    }
    Some(out)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Punct(char),
    /// An explicit or inserted semicolon.
    Semi,
    /// Numbers and runes.
    Lit,
}

/// Splits Go source into tokens, inserting semicolons at line ends as Go does.
fn tokenize(src: &str) -> Vec<Tok> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ends_statement = |out: &Vec<Tok>| {
        matches!(
            out.last(),
            Some(Tok::Ident(_) | Tok::Str(_) | Tok::Lit | Tok::Punct(')' | ']' | '}'))
        )
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            if ends_statement(&out) {
                out.push(Tok::Semi);
            }
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let start = i;
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            if chars[start..i.min(chars.len())].contains(&'\n') && ends_statement(&out) {
                out.push(Tok::Semi);
            }
        } else if c == '"' || c == '`' || c == '\'' {
            let mut s = String::new();
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' && c != '`' {
                    s.push(chars[i]);
                    i += 1;
                }
                s.push(chars[i]);
                i += 1;
            }
            i += 1;
            out.push(if c == '\'' { Tok::Lit } else { Tok::Str(s) });
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            out.push(Tok::Lit);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else {
            out.push(if c == ';' { Tok::Semi } else { Tok::Punct(c) });
            i += 1;
        }
    }
    out
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    pkg: &'a str,
    /// Import name → import path.
    imports: BTreeMap<String, String>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn is(&self, t: &Tok) -> bool {
        self.peek() == Some(t)
    }

    fn expect(&mut self, t: Tok) -> Result<(), String> {
        match self.next() {
            Some(got) if got == t => Ok(()),
            got => Err(format!(
                "expected {t:?}, found {got:?} at token {}",
                self.pos
            )),
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        match self.next() {
            Some(Tok::Ident(s)) => Ok(s),
            got => Err(format!(
                "expected a name, found {got:?} at token {}",
                self.pos
            )),
        }
    }

    /// Skips to the end of the current declaration: a semicolon outside brackets, or
    /// (not consumed) the bracket that closes the enclosing group.
    fn skip_decl(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') if depth == 0 => return,
                Tok::Punct(')' | ']' | '}') => depth -= 1,
                Tok::Semi if depth == 0 => {
                    self.pos += 1;
                    return;
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    fn file(&mut self, out: &mut Package) -> Result<(), String> {
        while let Some(t) = self.peek().cloned() {
            match t {
                Tok::Ident(k) if k == "import" => {
                    self.pos += 1;
                    if self.is(&Tok::Punct('(')) {
                        self.pos += 1;
                        while !self.is(&Tok::Punct(')')) && self.peek().is_some() {
                            self.import_spec()?;
                        }
                        self.pos += 1;
                    } else {
                        self.import_spec()?;
                    }
                }
                Tok::Ident(k) if k == "type" => {
                    self.pos += 1;
                    if self.is(&Tok::Punct('(')) {
                        self.pos += 1;
                        while !self.is(&Tok::Punct(')')) && self.peek().is_some() {
                            self.type_spec(out)?;
                        }
                        self.pos += 1;
                    } else {
                        self.type_spec(out)?;
                    }
                }
                Tok::Ident(k) if k == "func" => {
                    // Methods: `func (t T) MarshalJSON(` or `func (t *T) MarshalJSON(`.
                    if self.peek_at(1) == Some(&Tok::Punct('(')) {
                        let close = self.toks[self.pos..]
                            .iter()
                            .position(|t| *t == Tok::Punct(')'))
                            .map(|i| self.pos + i);
                        if let Some(close) = close {
                            let recv =
                                self.toks[self.pos..close]
                                    .iter()
                                    .rev()
                                    .find_map(|t| match t {
                                        Tok::Ident(s) => Some(s.clone()),
                                        _ => None,
                                    });
                            let method = self.toks.get(close + 1);
                            if let (Some(recv), Some(Tok::Ident(m))) = (recv, method) {
                                if m == "MarshalJSON" || m == "MarshalText" {
                                    out.marshalers.insert(recv);
                                }
                            }
                        }
                    }
                    self.skip_decl();
                }
                _ => self.skip_decl(),
            }
        }
        Ok(())
    }

    fn import_spec(&mut self) -> Result<(), String> {
        let alias = match self.peek().cloned() {
            Some(Tok::Ident(a)) => {
                self.pos += 1;
                Some(a)
            }
            Some(Tok::Punct('.')) => {
                self.pos += 1;
                Some(".".into())
            }
            _ => None,
        };
        let Some(Tok::Str(path)) = self.next() else {
            return Err("expected an import path".into());
        };
        let name = alias.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(&path).to_string());
        self.imports.insert(name, path);
        if self.is(&Tok::Semi) {
            self.pos += 1;
        }
        Ok(())
    }

    fn type_spec(&mut self, out: &mut Package) -> Result<(), String> {
        if self.is(&Tok::Semi) {
            self.pos += 1;
            return Ok(());
        }
        let name = self.ident()?;
        let alias = self.is(&Tok::Punct('='));
        if alias {
            self.pos += 1;
        }
        let ty = self.ty()?;
        out.decls.entry(name).or_insert((ty, alias));
        if self.is(&Tok::Semi) {
            self.pos += 1;
        }
        Ok(())
    }

    fn named(&mut self, first: String) -> Result<GoType, String> {
        if self.is(&Tok::Punct('.')) {
            self.pos += 1;
            let name = self.ident()?;
            let pkg = self.imports.get(&first).cloned().unwrap_or(first);
            return Ok(GoType::Named { pkg, name });
        }
        if BUILTINS.contains(&first.as_str()) {
            return Ok(GoType::Builtin(first));
        }
        Ok(GoType::Named {
            pkg: self.pkg.to_string(),
            name: first,
        })
    }

    /// Skips a bracketed group, the opening bracket next.
    fn skip_group(&mut self) {
        let mut depth = 0;
        while let Some(t) = self.next() {
            match t {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn ty(&mut self) -> Result<GoType, String> {
        match self.next() {
            Some(Tok::Punct('*')) => Ok(GoType::Pointer(Box::new(self.ty()?))),
            Some(Tok::Punct('(')) => {
                let t = self.ty()?;
                self.expect(Tok::Punct(')'))?;
                Ok(t)
            }
            Some(Tok::Punct('[')) => {
                while !self.is(&Tok::Punct(']')) && self.peek().is_some() {
                    self.pos += 1;
                }
                self.pos += 1;
                Ok(GoType::Slice(Box::new(self.ty()?)))
            }
            Some(Tok::Ident(k)) if k == "map" => {
                self.expect(Tok::Punct('['))?;
                self.ty()?;
                self.expect(Tok::Punct(']'))?;
                self.ty()?;
                Ok(GoType::Map)
            }
            Some(Tok::Ident(k)) if k == "struct" => self.struct_body(),
            Some(Tok::Ident(k)) if k == "interface" => {
                self.skip_group();
                Ok(GoType::Other)
            }
            Some(Tok::Ident(k)) if k == "chan" => {
                self.ty()?;
                Ok(GoType::Other)
            }
            Some(Tok::Ident(k)) if k == "func" => {
                self.skip_group();
                match self.peek() {
                    Some(Tok::Punct('(')) => self.skip_group(),
                    Some(Tok::Ident(_) | Tok::Punct('*' | '[')) => {
                        self.ty()?;
                    }
                    _ => {}
                }
                Ok(GoType::Other)
            }
            Some(Tok::Ident(first)) => self.named(first),
            got => Err(format!(
                "expected a type, found {got:?} at token {}",
                self.pos
            )),
        }
    }

    fn struct_body(&mut self) -> Result<GoType, String> {
        self.expect(Tok::Punct('{'))?;
        let mut fields = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Punct('}')) => {
                    self.pos += 1;
                    break;
                }
                Some(Tok::Semi) => {
                    self.pos += 1;
                    continue;
                }
                None => return Err("unterminated struct".into()),
                _ => {}
            }
            // `*T`, `pkg.T`, or `T` alone (before a tag or the end of the line).
            let embedded = matches!(
                (self.peek(), self.peek_at(1)),
                (Some(Tok::Punct('*')), _)
                    | (
                        Some(Tok::Ident(_)),
                        Some(Tok::Punct('.' | '}') | Tok::Semi | Tok::Str(_))
                    )
            );
            let mut names = Vec::new();
            if !embedded {
                names.push(self.ident()?);
                while self.is(&Tok::Punct(',')) {
                    self.pos += 1;
                    names.push(self.ident()?);
                }
            }
            let ty = self.ty()?;
            let json = match self.peek() {
                Some(Tok::Str(tag)) => {
                    let tag = tag.clone();
                    self.pos += 1;
                    json_tag(&tag)
                }
                _ => None,
            };
            if embedded {
                fields.push(GoField {
                    name: None,
                    ty,
                    json,
                });
            } else {
                for name in names {
                    fields.push(GoField {
                        name: Some(name),
                        ty: ty.clone(),
                        json: json.clone(),
                    });
                }
            }
        }
        Ok(GoType::Struct(fields))
    }
}

/// The `json:"name,opt,…"` part of a struct tag.
fn json_tag(tag: &str) -> Option<(String, Vec<String>)> {
    let at = tag.find("json:\"")? + "json:\"".len();
    let value = &tag[at..at + tag[at..].find('"')?];
    let mut parts = value.split(',');
    let name = parts.next().unwrap_or_default().to_string();
    Some((name, parts.map(str::to_string).collect()))
}
