//! Upstream's Go types, for what `encoding/json` writes for a field a client never sent:
//! nothing (`omitempty`, or a nil pointer/slice/map with it), `null`, the zero of a scalar,
//! or an always-written struct (`omitempty` does not drop structs). The sources are read by
//! `go_parse.rs`; packages come from `<root>/<import path>` (`<root>/k8s.io/api/core/v1`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::go_parse::{load_package, GoField, GoType, Package};

/// What Go writes for a field at its zero value; rendered as `Z::…` in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Zero {
    Null,
    False,
    Number,
    String(&'static str),
    /// A struct: `{}` with its own always-written fields.
    Object,
}

impl Zero {
    pub(crate) fn render(self) -> String {
        match self {
            Zero::Null => "Z::Null".into(),
            Zero::False => "Z::False".into(),
            Zero::Number => "Z::Number".into(),
            Zero::String(s) => format!("Z::String({s:?})"),
            Zero::Object => "Z::Object".into(),
        }
    }
}

const META: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";
const APIEXT_V1: &str = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1";
const APIEXT_V1BETA1: &str = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1";

/// Structs with their own `MarshalJSON`, and what it writes for their zero value (read from
/// those methods at v1.33: a zero time is `null`, a zero quantity `"0"`, a zero int-or-string
/// the integer `0`, a zero duration `"0s"`, empty raw JSON `null`, a schema-or-bool with
/// neither `false`).
const CUSTOM: &[(&str, &str, Zero)] = &[
    (META, "Time", Zero::Null),
    (META, "MicroTime", Zero::Null),
    (META, "Duration", Zero::String("0s")),
    (META, "FieldsV1", Zero::Null),
    (META, "GroupVersion", Zero::String("")),
    (
        "k8s.io/apimachinery/pkg/api/resource",
        "Quantity",
        Zero::String("0"),
    ),
    (
        "k8s.io/apimachinery/pkg/util/intstr",
        "IntOrString",
        Zero::Number,
    ),
    (
        "k8s.io/apimachinery/pkg/runtime",
        "RawExtension",
        Zero::Null,
    ),
    ("k8s.io/apimachinery/pkg/runtime", "Unknown", Zero::Null),
    (APIEXT_V1, "JSON", Zero::Null),
    (APIEXT_V1, "JSONSchemaPropsOrArray", Zero::Null),
    (APIEXT_V1, "JSONSchemaPropsOrBool", Zero::False),
    (APIEXT_V1, "JSONSchemaPropsOrStringArray", Zero::Null),
    (APIEXT_V1BETA1, "JSON", Zero::Null),
    (APIEXT_V1BETA1, "JSONSchemaPropsOrArray", Zero::Null),
    (APIEXT_V1BETA1, "JSONSchemaPropsOrBool", Zero::False),
    (APIEXT_V1BETA1, "JSONSchemaPropsOrStringArray", Zero::Null),
];

/// One JSON field of a Go struct, embedded structs flattened.
#[derive(Clone, Debug)]
pub(crate) struct JsonField {
    pub(crate) json: String,
    /// What Go writes when the field is at its zero value; an error if that is unknown.
    pub(crate) zero: Result<Option<Zero>, String>,
    /// A scalar held by value with `omitempty`: Go cannot tell its zero from unset, so a
    /// decoded `false`, `0` or `""` is dropped on the way out.
    pub(crate) omits_zero: bool,
}

/// A JSON field of a Go struct where `encoding/json` writes it: in declaration order, the
/// fields of an embedded struct in the embedding field's place.
#[derive(Clone, Debug)]
pub(crate) struct Placed {
    pub(crate) json: String,
    /// The Go type name of the struct embedded in the outer one that the field comes from.
    pub(crate) embedded: Option<String>,
}

/// The Go packages under one root, read on demand.
pub(crate) struct GoTypes {
    root: PathBuf,
    packages: BTreeMap<String, Option<Package>>,
}

impl GoTypes {
    pub(crate) fn new(root: PathBuf) -> Self {
        assert!(
            root.join("k8s.io/api/core/v1/types.go").is_file(),
            "{}: no k8s.io/api/core/v1/types.go (see examples/gen/main.rs)",
            root.display()
        );
        GoTypes {
            root,
            packages: BTreeMap::new(),
        }
    }

    fn package(&mut self, pkg: &str) -> Option<&Package> {
        if !self.packages.contains_key(pkg) {
            let loaded = load_package(&self.root.join(pkg), pkg);
            self.packages.insert(pkg.to_string(), loaded);
        }
        self.packages.get(pkg).and_then(Option::as_ref)
    }

    /// The declaration of `pkg.name`, aliases followed.
    pub(crate) fn resolve(&mut self, pkg: &str, name: &str) -> Option<(String, String, GoType)> {
        let (ty, alias) = self.package(pkg)?.decls.get(name)?.clone();
        match ty {
            GoType::Named { pkg: p, name: n } if alias => self.resolve(&p, &n),
            ty => Some((pkg.to_string(), name.to_string(), ty)),
        }
    }

    /// The fields of struct `pkg.name`, or why there are none.
    pub(crate) fn struct_fields(&mut self, pkg: &str, name: &str) -> Result<Vec<GoField>, String> {
        match self.resolve(pkg, name) {
            Some((_, _, GoType::Struct(fields))) => Ok(fields),
            // A defined type over another struct type (`type A v1.A`).
            Some((_, _, GoType::Named { pkg, name })) => self.struct_fields(&pkg, &name),
            Some(_) => Err(format!("Go type {pkg}.{name} is not a struct")),
            None => Err(format!("no Go type {pkg}.{name}")),
        }
    }

    /// What Go writes for a value of `ty` at its zero value (nothing if `omitempty` drops it).
    pub(crate) fn zero_of(&mut self, ty: &GoType, omitempty: bool) -> Result<Option<Zero>, String> {
        let unless_empty = |z| Ok(if omitempty { None } else { Some(z) });
        match ty {
            GoType::Pointer(_) | GoType::Slice(_) | GoType::Map | GoType::Other => {
                unless_empty(Zero::Null)
            }
            GoType::Builtin(b) => unless_empty(match b.as_str() {
                "string" => Zero::String(""),
                "bool" => Zero::False,
                "error" | "any" => Zero::Null,
                _ => Zero::Number,
            }),
            GoType::Struct(_) => Ok(Some(Zero::Object)),
            GoType::Named { pkg, name } => {
                if let Some((_, _, z)) = CUSTOM.iter().find(|(p, n, _)| p == pkg && n == name) {
                    return Ok(Some(*z));
                }
                if pkg == "time" && name == "Duration" {
                    return unless_empty(Zero::Number);
                }
                let Some((rpkg, rname, decl)) = self.resolve(pkg, name) else {
                    return Err(format!("no Go type {pkg}.{name}"));
                };
                if self
                    .package(&rpkg)
                    .is_some_and(|p| p.marshalers.contains(&rname))
                {
                    return Err(format!("{rpkg}.{rname} has its own MarshalJSON; not known"));
                }
                match decl {
                    GoType::Struct(_) => Ok(Some(Zero::Object)),
                    other => self.zero_of(&other, omitempty),
                }
            }
        }
    }

    /// Whether `ty` is a string, bool or number held by value (named types followed; the
    /// structs with their own `MarshalJSON` are not: `omitempty` never drops a struct).
    fn is_scalar(&mut self, ty: &GoType) -> bool {
        match ty {
            GoType::Builtin(b) => !matches!(b.as_str(), "error" | "any"),
            GoType::Named { pkg, name } => {
                if pkg == "time" && name == "Duration" {
                    return true;
                }
                if CUSTOM.iter().any(|(p, n, _)| p == pkg && n == name) {
                    return false;
                }
                match self.resolve(pkg, name) {
                    Some((_, _, GoType::Struct(_))) | None => false,
                    Some((_, _, decl)) => self.is_scalar(&decl),
                }
            }
            _ => false,
        }
    }

    /// The JSON fields of struct `pkg.name` in Go's order, embedded structs flattened (the
    /// fields of an embedded pointer are written only when it is set: no zero).
    pub(crate) fn json_fields(&mut self, pkg: &str, name: &str) -> Result<Vec<JsonField>, String> {
        let fields = self.struct_fields(pkg, name)?;
        let mut out: Vec<JsonField> = Vec::new();
        let mut embedded = Vec::new();
        for f in &fields {
            if let Some(json) = f.json_name() {
                let zero = self.zero_of(&f.ty, f.omitempty());
                let omits_zero = f.omitempty() && self.is_scalar(&f.ty);
                out.push(JsonField {
                    json,
                    zero,
                    omits_zero,
                });
            } else if f.name.is_none() && f.json.as_ref().is_none_or(|(n, _)| n.is_empty()) {
                embedded.push(f.ty.clone());
            }
        }
        // Shallower fields win over those of embedded structs, as in encoding/json.
        for ty in embedded {
            let (target, pointer) = match ty {
                GoType::Pointer(inner) => (*inner, true),
                other => (other, false),
            };
            let GoType::Named { pkg, name } = target else {
                continue;
            };
            for mut f in self.json_fields(&pkg, &name)? {
                if out.iter().any(|o| o.json == f.json) {
                    continue;
                }
                if pointer {
                    f.zero = Ok(None);
                }
                out.push(f);
            }
        }
        Ok(out)
    }

    /// The JSON fields of struct `pkg.name` in the order `encoding/json` writes them:
    /// declaration order, an embedded struct's fields in its place (a name seen before
    /// is not repeated).
    pub(crate) fn json_order(&mut self, pkg: &str, name: &str) -> Result<Vec<Placed>, String> {
        let mut out: Vec<Placed> = Vec::new();
        for f in self.struct_fields(pkg, name)? {
            if let Some(json) = f.json_name() {
                if !out.iter().any(|p| p.json == json) {
                    out.push(Placed {
                        json,
                        embedded: None,
                    });
                }
                continue;
            }
            if f.name.is_some() || f.json.as_ref().is_some_and(|(n, _)| !n.is_empty()) {
                continue;
            }
            let target = match &f.ty {
                GoType::Pointer(inner) => &**inner,
                other => other,
            };
            let GoType::Named { pkg, name } = target else {
                continue;
            };
            for p in self.json_order(pkg, name)? {
                if !out.iter().any(|o| o.json == p.json) {
                    out.push(Placed {
                        json: p.json,
                        embedded: Some(name.clone()),
                    });
                }
            }
        }
        Ok(out)
    }

    /// The zero of the embedded struct `inner` of struct `pkg.name`: `Object` if it is
    /// embedded by value (always there), `None` if by pointer.
    pub(crate) fn embedded_zero(
        &mut self,
        pkg: &str,
        name: &str,
        inner: &str,
    ) -> Result<Option<Zero>, String> {
        for f in self.struct_fields(pkg, name)? {
            if f.name.is_some() {
                continue;
            }
            let (target, pointer) = match &f.ty {
                GoType::Pointer(p) => (&**p, true),
                other => (other, false),
            };
            if matches!(target, GoType::Named { name: n, .. } if n == inner) {
                return Ok(if pointer { None } else { Some(Zero::Object) });
            }
        }
        Err(format!("Go type {pkg}.{name} embeds no {inner}"))
    }
}

/// The Go package and type name of an OpenAPI definition name:
/// `io.k8s.api.apps.v1.StatefulSet` → (`k8s.io/api/apps/v1`, `StatefulSet`).
pub(crate) fn go_package(definition: &str) -> (String, String) {
    let rest = definition.strip_prefix("io.k8s.").unwrap_or(definition);
    let (path, name) = rest.rsplit_once('.').unwrap_or(("", rest));
    (
        format!("k8s.io/{}", path.replace('.', "/")),
        name.to_string(),
    )
}
