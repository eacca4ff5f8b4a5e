//! The shape of the schema table: type and field descriptions, and the lookups over the
//! generated tables.

use crate::generated;

/// How a type is written in JSON.
///
/// Most types are plain objects whose fields are listed in [`TypeDef::fields`]; a few
/// apimachinery and apiextensions types have their own JSON (and protobuf) forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A JSON object with the fields of [`TypeDef::fields`].
    Object,
    /// `meta/v1.Time`: RFC 3339 string with whole seconds (`2024-01-02T03:04:05Z`);
    /// protobuf `{seconds=1, nanos=2}`.
    Time,
    /// `meta/v1.MicroTime`: RFC 3339 string with six fractional digits; protobuf as `Time`.
    MicroTime,
    /// `meta/v1.Duration`: a Go duration string (`1h0m0s`); protobuf `{duration=1}` in ns.
    Duration,
    /// `api/resource.Quantity`: a string in canonical form (`0.5` is written `500m`; a JSON
    /// number is accepted on input); protobuf `{string=1}`.
    Quantity,
    /// `util/intstr.IntOrString`: a JSON integer or string; protobuf
    /// `{type=1, intVal=2, strVal=3}`.
    IntOrString,
    /// `runtime.RawExtension`: any embedded JSON value; protobuf `{raw=1}` holding JSON.
    RawExtension,
    /// `meta/v1.FieldsV1`: a JSON object kept as is; protobuf `{Raw=1}` holding JSON.
    FieldsV1,
    /// apiextensions `JSON`: any JSON value; protobuf `{raw=1}` holding JSON.
    Json,
    /// apiextensions `JSONSchemaPropsOrArray`: a schema object or an array of them.
    JsonSchemaPropsOrArray,
    /// apiextensions `JSONSchemaPropsOrBool`: a schema object or a boolean.
    JsonSchemaPropsOrBool,
    /// apiextensions `JSONSchemaPropsOrStringArray`: a schema object or a string array.
    JsonSchemaPropsOrStringArray,
}

/// A scalar value type, named after its protobuf type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    String,
    Bool,
    Int32,
    Int64,
    Double,
    /// `[]byte`: a base64 string in JSON, `bytes` in protobuf.
    Bytes,
}

/// The type of one value: a field's value, a list item or a map value.
#[derive(Clone, Copy, Debug)]
pub enum Elem {
    Scalar(Scalar),
    /// A message type (an object, or one of the special [`Format`]s).
    Message(&'static TypeDef),
    /// A list of strings that protobuf wraps in a message `{repeated string items = 1}`
    /// (`ExtraValue`, `Verbs`); a JSON array of strings.
    StringList,
}

/// The shape of a field: one value, a list of values or a map from string keys.
#[derive(Clone, Copy, Debug)]
pub enum FieldKind {
    Single(Elem),
    List(Elem),
    Map(Elem),
}

impl FieldKind {
    /// The type of the field's value, list item or map value.
    pub fn elem(&self) -> Elem {
        match *self {
            FieldKind::Single(e) | FieldKind::List(e) | FieldKind::Map(e) => e,
        }
    }
}

/// Group, version and kind of a top-level type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gvk {
    /// Empty for the core group.
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
}

/// One type of the built-in API.
pub struct TypeDef {
    /// OpenAPI definition name, e.g. `io.k8s.api.core.v1.Pod`.
    pub name: &'static str,
    /// Fully qualified protobuf message name, e.g. `k8s.io.api.core.v1.Pod`.
    pub proto: &'static str,
    /// Set for the top-level kinds (and their lists).
    pub gvk: Option<Gvk>,
    pub format: Format,
    /// The fields as upstream's Go type declares them; embedded structs (Go `inline`,
    /// flattened in JSON) appear as one field with [`FieldDef::inline`][inline] set.
    ///
    /// [inline]: FieldDef#structfield.inline
    pub fields: &'static [FieldDef],
    /// The indices of [`TypeDef::fields`] (which are in protobuf tag order) in the order
    /// upstream's Go struct declares them, the order of its JSON; empty when it is the
    /// same. See [`TypeDef::fields_in_go_order`].
    pub go_order: &'static [u8],
    /// `+structType` on the Go type (a type-level `+mapType` would count too; upstream has
    /// none): `atomic` or `granular`; `None` when unmarked, which means granular.
    /// Upstream's OpenAPI carries it as `x-kubernetes-map-type` on the type's definition,
    /// and server-side apply then owns and replaces a value of the type as a whole
    /// (`LabelSelector`, `ObjectReference`). A field can override it: see
    /// [`FieldDef::map_type`][map_type].
    ///
    /// [map_type]: FieldDef#structfield.map_type
    pub struct_type: Option<&'static str>,
}

/// What upstream's Go encoder (`encoding/json` on the Go type) writes for a field at its
/// zero value, i.e. a field the client never sent. A field that is `omitempty` (and not a
/// struct) has none: nothing is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zero {
    /// `null`: a pointer, slice or map without `omitempty`, or a struct whose `MarshalJSON`
    /// writes `null` when zero (`metav1.Time`, `MicroTime`, `runtime.RawExtension`,
    /// apiextensions `JSON`).
    Null,
    /// `false`: a `bool` without `omitempty`, or apiextensions `JSONSchemaPropsOrBool`.
    False,
    /// `0`: a number without `omitempty`, or `intstr.IntOrString`.
    Number,
    /// A string: `""` for a string without `omitempty`, `"0"` for `resource.Quantity`,
    /// `"0s"` for `metav1.Duration`.
    String(&'static str),
    /// `{}` with the always-written fields of the field's message type, recursively: a
    /// struct that is not a pointer (`omitempty` never drops a struct). On an inline
    /// field: the struct is embedded by value, so its fields are always there.
    Object,
}

/// One field of a type.
#[derive(Debug)]
pub struct FieldDef {
    /// JSON name (`hostIPC`); empty for an inline (embedded) field.
    pub json: &'static str,
    /// Protobuf tag; 0 for fields protobuf does not carry (`apiVersion`, `kind`).
    pub tag: u32,
    pub kind: FieldKind,
    /// Not in the OpenAPI `required` list.
    pub optional: bool,
    /// An embedded struct whose fields appear in the parent's JSON object.
    pub inline: bool,
    /// `+patchStrategy`, e.g. `merge` or `merge,retainKeys`.
    pub patch_strategy: Option<&'static str>,
    /// `+patchMergeKey`.
    pub patch_merge_key: Option<&'static str>,
    /// `+listType`: `atomic`, `set` or `map`.
    pub list_type: Option<&'static str>,
    /// `+listMapKey`, in declaration order.
    pub list_map_keys: &'static [&'static str],
    /// `+mapType` on the field (a map), or `+structType` on the field (a struct): `atomic`
    /// or `granular`. Upstream's OpenAPI carries either as `x-kubernetes-map-type` on the
    /// property, and server-side apply then treats the field's value as one unit (atomic)
    /// or key by key (granular). On a struct field it overrides the type's own
    /// [`TypeDef::struct_type`][struct_type] (`PersistentVolumeSpec.claimRef` is granular
    /// although `ObjectReference` is atomic). `None` when unmarked. See
    /// [`FieldDef::is_atomic_map`].
    ///
    /// [struct_type]: TypeDef#structfield.struct_type
    pub map_type: Option<&'static str>,
    /// What upstream writes when the field is absent; `None`: nothing (see
    /// [`crate::fill_zero_fields`]).
    pub zero: Option<Zero>,
    /// A string, bool or number that upstream's Go struct holds by value with `omitempty`:
    /// its zero (`""`, `false`, `0`) cannot be told from unset there, so decoding drops it
    /// (`hostNetwork: false`, `metadata.generation: 0`), from JSON and protobuf bodies alike.
    /// Pointer fields (`replicas`, `automountServiceAccountToken`,
    /// `storageClassName`) keep their zero.
    pub omits_zero: bool,
}

impl FieldDef {
    /// A field without markers (used by the generated table).
    pub(crate) const fn new(json: &'static str, tag: u32, kind: FieldKind, optional: bool) -> Self {
        FieldDef {
            json,
            tag,
            kind,
            optional,
            inline: false,
            patch_strategy: None,
            patch_merge_key: None,
            list_type: None,
            list_map_keys: &[],
            map_type: None,
            zero: None,
            omits_zero: false,
        }
    }

    pub(crate) const fn omits_zero(mut self) -> Self {
        self.omits_zero = true;
        self
    }

    /// Whether `v` is a value this field drops on decoding: the zero of a scalar held by
    /// value with `omitempty` ([`FieldDef::omits_zero`]), or an empty list or map of an
    /// `omitempty` field (one with no [`FieldDef::zero`]), which Go's encoder leaves out of
    /// every answer, what is stored and what server-side apply sees of the object.
    pub fn drops(&self, v: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (&self.kind, v) {
            (FieldKind::List(_), Value::Array(items)) => items.is_empty() && self.zero.is_none(),
            (FieldKind::Map(_), Value::Object(m)) => m.is_empty() && self.zero.is_none(),
            _ => {
                self.omits_zero
                    && match v {
                        Value::Bool(b) => !b,
                        Value::String(s) => s.is_empty(),
                        Value::Number(n) => n.as_f64() == Some(0.0),
                        _ => false,
                    }
            }
        }
    }

    pub(crate) const fn zero(mut self, zero: Zero) -> Self {
        self.zero = Some(zero);
        self
    }

    pub(crate) const fn inline(mut self) -> Self {
        self.inline = true;
        self
    }

    pub(crate) const fn patch(
        mut self,
        strategy: Option<&'static str>,
        key: Option<&'static str>,
    ) -> Self {
        self.patch_strategy = strategy;
        self.patch_merge_key = key;
        self
    }

    pub(crate) const fn list(
        mut self,
        list_type: Option<&'static str>,
        keys: &'static [&'static str],
    ) -> Self {
        self.list_type = list_type;
        self.list_map_keys = keys;
        self
    }

    /// `+mapType` / `+structType` on the field (see [`FieldDef::map_type`][map_type]).
    ///
    /// [map_type]: FieldDef#structfield.map_type
    pub(crate) const fn map_type(mut self, map_type: &'static str) -> Self {
        self.map_type = Some(map_type);
        self
    }

    /// Whether server-side apply treats the field's value, a map or a struct (both JSON
    /// objects), as one unit that the last applier owns and replaces whole: the field's
    /// own `x-kubernetes-map-type` if it has one (`PodSpec.nodeSelector` is atomic,
    /// `PersistentVolumeSpec.claimRef` granular), else, for a struct, its type's
    /// ([`TypeDef::is_atomic`]). Maps are granular unless marked; a list's topology is
    /// [`FieldDef::list_type`][list_type] and says nothing here. An inline (embedded)
    /// field is never atomic: its fields are the parent's, and upstream's OpenAPI does not
    /// carry the embedded type's marker over (`ConfigMapVolumeSource` embeds the atomic
    /// `LocalObjectReference` and stays granular).
    ///
    /// [list_type]: FieldDef#structfield.list_type
    pub fn is_atomic_map(&self) -> bool {
        match (self.map_type, self.kind) {
            _ if self.inline => false,
            (Some(map_type), _) => map_type == "atomic",
            (None, FieldKind::Single(Elem::Message(def))) => def.is_atomic(),
            (None, _) => false,
        }
    }

    /// The message type of the field, its list items or its map values, if any.
    pub fn message(&self) -> Option<&'static TypeDef> {
        match self.kind.elem() {
            Elem::Message(def) => Some(def),
            _ => None,
        }
    }
}

impl TypeDef {
    /// Whether the type is `+structType=atomic` upstream: server-side apply replaces a
    /// value of it as a whole (unless the field holding it says otherwise, see
    /// [`FieldDef::is_atomic_map`]).
    pub fn is_atomic(&self) -> bool {
        self.struct_type == Some("atomic")
    }

    /// The field with this JSON name, looking through inline (embedded) fields.
    pub fn field(&self, json: &str) -> Option<&'static FieldDef> {
        // `fields` is 'static; re-borrow through the table to hand out 'static refs.
        let fields: &'static [FieldDef] = self.fields;
        for f in fields {
            if f.inline {
                if let Some(inner) = f.message().and_then(|d| d.field(json)) {
                    return Some(inner);
                }
            } else if f.json == json {
                return Some(f);
            }
        }
        None
    }

    /// The fields in the order upstream's Go struct declares them (inline fields not
    /// looked through): the order of the JSON upstream writes.
    pub fn fields_in_go_order(&self) -> impl Iterator<Item = &'static FieldDef> {
        let fields: &'static [FieldDef] = self.fields;
        let order: &'static [u8] = self.go_order;
        let n = if order.is_empty() {
            fields.len()
        } else {
            order.len()
        };
        (0..n).filter_map(move |i| match order.get(i) {
            Some(&o) => fields.get(usize::from(o)),
            None => fields.get(i),
        })
    }

    /// The field with this protobuf tag (inline fields included, not looked through).
    pub fn field_by_tag(&self, tag: u32) -> Option<&'static FieldDef> {
        let fields: &'static [FieldDef] = self.fields;
        fields.iter().find(|f| f.tag == tag && tag != 0)
    }

    /// The Go struct name, as upstream's JSON errors print it (`DeploymentSpec`).
    pub fn go_name(&self) -> &'static str {
        self.name.rsplit('.').next().unwrap_or(self.name)
    }

    /// The Go type as `reflect` prints it: package name and type (`v1.PodSpec`,
    /// `resource.Quantity`).
    pub fn go_type(&self) -> String {
        let mut parts = self.name.rsplit('.');
        let name = parts.next().unwrap_or_default();
        match parts.next() {
            Some(pkg) => format!("{pkg}.{name}"),
            None => name.to_string(),
        }
    }
}

impl PartialEq for Elem {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Elem::Scalar(a), Elem::Scalar(b)) => a == b,
            (Elem::Message(a), Elem::Message(b)) => std::ptr::eq(*a, *b),
            (Elem::StringList, Elem::StringList) => true,
            _ => false,
        }
    }
}

impl std::fmt::Debug for TypeDef {
    /// The name only: types refer to each other, some in cycles (`JSONSchemaProps`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TypeDef({})", self.name)
    }
}

/// The type with this OpenAPI definition name (`io.k8s.api.core.v1.Pod`).
pub fn type_def(definition_name: &str) -> Option<&'static TypeDef> {
    generated::TYPES
        .binary_search_by(|t| t.name.cmp(definition_name))
        .ok()
        .map(|i| generated::TYPES[i])
}

/// Kinds of `meta.k8s.io/v1` that clients send under the group version of the resource
/// they act on (a `DeleteOptions` body for `apps/v1` is sent as `apps/v1`).
const META_KINDS: &[&str] = &["DeleteOptions", "Status", "WatchEvent"];

/// The top-level kind `group`/`version`/`kind` (core group: `""`), or its list
/// (`ConfigMapList`). The option kinds of `meta.k8s.io/v1` (`DeleteOptions`) are found under
/// any group version.
pub fn kind_def(group: &str, version: &str, kind: &str) -> Option<&'static TypeDef> {
    let found = generated::KINDS
        .binary_search_by(|(g, v, k, _)| (*g, *v, *k).cmp(&(group, version, kind)))
        .ok()
        .map(|i| generated::KINDS[i].3);
    found.or_else(|| {
        if META_KINDS.contains(&kind) {
            type_def(&format!("io.k8s.apimachinery.pkg.apis.meta.v1.{kind}"))
        } else {
            None
        }
    })
}

/// [`kind_def`] from an `apiVersion` string (`v1`, `apps/v1`).
pub fn kind_def_for_api_version(api_version: &str, kind: &str) -> Option<&'static TypeDef> {
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    kind_def(group, version, kind)
}

/// Every type of the table, sorted by definition name.
pub fn all_types() -> &'static [&'static TypeDef] {
    &generated::TYPES
}
