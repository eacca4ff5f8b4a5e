//! CRD versions as upstream sees them after converting v1 to its internal form: a schema,
//! subresources, printer columns or selectable fields identical in every version are
//! hoisted to `spec.validation`, `spec.subresources`, … and reported at those paths.

use crate::error::{quote, FieldError};
use crate::structural::{child, index, Structural};
use crate::validate::json_eq;
use serde_json::{Map, Value};

const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

fn s<'a>(m: Option<&'a Map<String, Value>>, k: &str) -> &'a str {
    m.and_then(|m| m.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn arr<'a>(m: Option<&'a Map<String, Value>>, k: &str) -> &'a [Value] {
    m.and_then(|m| m.get(k))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// A per-version field with its value, null when absent (empty lists count as absent).
fn field<'a>(v: &'a Value, k: &str) -> &'a Value {
    match v.get(k) {
        Some(Value::Array(a)) if a.is_empty() => &Value::Null,
        Some(x) => x,
        None => &Value::Null,
    }
}

/// The internal form of `spec.versions`: which fields are hoisted to the top level.
pub(crate) struct Hoisted<'a> {
    /// `spec.validation` (the `schema` wrapper), when identical in every version.
    pub(crate) schema: Option<&'a Value>,
    pub(crate) subresources: Option<&'a Value>,
    pub(crate) columns: Option<&'a Value>,
    pub(crate) selectable: Option<&'a Value>,
}

impl<'a> Hoisted<'a> {
    pub(crate) fn new(versions: &'a [Value]) -> Self {
        let identical = |k: &str| -> Option<&'a Value> {
            let first = field(versions.first()?, k);
            (!first.is_null() && versions.iter().all(|v| json_eq(field(v, k), first)))
                .then_some(first)
        };
        let schema = identical("schema");
        Hoisted {
            schema,
            subresources: identical("subresources"),
            columns: identical("additionalPrinterColumns"),
            // hoisted only along with the schema they refer to
            selectable: schema.and_then(|_| identical("selectableFields")),
        }
    }
}

fn status_enabled(sub: Option<&Value>) -> bool {
    sub.and_then(|s| s.get("status"))
        .is_some_and(|v| !v.is_null())
}

/// `schemas are required` for versions without one (when none is hoisted).
pub(crate) fn require_schemas(versions: &[Value], h: &Hoisted<'_>, errs: &mut Vec<FieldError>) {
    if h.schema
        .and_then(|s| s.get("openAPIV3Schema"))
        .is_some_and(|s| !s.is_null())
    {
        return;
    }
    for (i, v) in versions.iter().enumerate() {
        if v.get("schema")
            .and_then(|s| s.get("openAPIV3Schema"))
            .is_none_or(Value::is_null)
        {
            errs.push(FieldError::required(
                &format!("spec.versions[{i}].schema.openAPIV3Schema"),
                "schemas are required",
            ));
        }
    }
}

/// One version's own fields (those not hoisted).
pub(crate) fn validate_version(v: &Value, vp: &str, h: &Hoisted<'_>, errs: &mut Vec<FieldError>) {
    let vm = v.as_object();
    deprecation(vm, vp, errs);
    let own_sub = if h.subresources.is_some() {
        None
    } else {
        vm.and_then(|m| m.get("subresources"))
    };
    let mut structural = None;
    if h.schema.is_none() {
        if let Some(schema) = vm
            .and_then(|m| m.get("schema"))
            .and_then(|s| s.get("openAPIV3Schema"))
            .filter(|s| !s.is_null())
        {
            let path = child(vp, "schema.openAPIV3Schema");
            let status = status_enabled(own_sub.or(h.subresources));
            structural = crate::crd_schema::validate_schema(schema, &path, status, errs);
        }
    }
    if let Some(sub) = own_sub {
        validate_subresources(sub.as_object(), &child(vp, "subresources"), errs);
    }
    if h.columns.is_none() {
        for (i, col) in arr(vm, "additionalPrinterColumns").iter().enumerate() {
            validate_column(
                col.as_object(),
                &index(vp, "additionalPrinterColumns", i),
                errs,
            );
        }
    }
    let selectable = arr(vm, "selectableFields");
    if h.selectable.is_none() && !selectable.is_empty() {
        let sp = child(vp, "selectableFields");
        let hoisted_schema = h
            .schema
            .and_then(|s| s.get("openAPIV3Schema"))
            .and_then(|s| Structural::from_json(s).ok());
        let own = vm
            .and_then(|m| m.get("schema"))
            .is_some_and(|s| !s.is_null());
        if h.schema.is_none() && !own {
            errs.push(FieldError::invalid(
                &sp,
                quote(""),
                "selectableFields may only be set when version.schema.openAPIV3Schema is not included",
            ));
        } else {
            validate_selectable(
                selectable,
                structural.as_ref().or(hoisted_schema.as_ref()),
                &sp,
                errs,
            );
        }
    }
}

/// The hoisted fields, at their top-level paths.
pub(crate) fn validate_hoisted(h: &Hoisted<'_>, any_status: bool, errs: &mut Vec<FieldError>) {
    let mut structural = None;
    if let Some(schema) = h
        .schema
        .and_then(|s| s.get("openAPIV3Schema"))
        .filter(|s| !s.is_null())
    {
        structural = crate::crd_schema::validate_schema(
            schema,
            "spec.validation.openAPIV3Schema",
            any_status,
            errs,
        );
    }
    if let Some(sub) = h.subresources {
        validate_subresources(sub.as_object(), "spec.subresources", errs);
    }
    for (i, col) in h
        .columns
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        validate_column(
            col.as_object(),
            &index("spec", "additionalPrinterColumns", i),
            errs,
        );
    }
    if let Some(sel) = h.selectable.and_then(Value::as_array) {
        if h.schema.is_none() {
            errs.push(FieldError::invalid(
                "spec.selectableFields",
                quote(""),
                "selectableFields may only be set when validations.schema is included",
            ));
        } else {
            validate_selectable(sel, structural.as_ref(), "spec.selectableFields", errs);
        }
    }
}

/// Whether any version (or the hoisted subresources) enables the status subresource.
pub(crate) fn any_status(versions: &[Value]) -> bool {
    versions
        .iter()
        .any(|v| status_enabled(v.get("subresources")))
}

fn deprecation(vm: Option<&Map<String, Value>>, vp: &str, errs: &mut Vec<FieldError>) {
    let deprecated = vm
        .and_then(|m| m.get("deprecated"))
        .and_then(Value::as_bool)
        == Some(true);
    let Some(w) = vm
        .and_then(|m| m.get("deprecationWarning"))
        .and_then(Value::as_str)
    else {
        return;
    };
    let wp = child(vp, "deprecationWarning");
    let mut add = |msg: &str| errs.push(FieldError::invalid_str(&wp, w, msg));
    if !deprecated {
        add("can only be set for deprecated versions");
        return;
    }
    if w.len() > 256 {
        add("must be <= 256 characters long");
    }
    if w.is_empty() {
        add("must not be an empty string");
    }
    if let Some((i, _)) = w.char_indices().find(|(_, c)| c.is_control()) {
        add(&format!(
            "must only contain printable UTF-8 characters; control character found at index {i}"
        ));
    }
}

/// `validateSimpleJSONPath`.
fn simple_json_path(p: &str, path: &str, errs: &mut Vec<FieldError>) -> bool {
    if p.is_empty() {
        errs.push(FieldError::invalid_str(path, p, "must not be empty"));
        false
    } else if !p.starts_with('.') {
        errs.push(FieldError::invalid_str(
            path,
            p,
            "must be a simple json path starting with .",
        ));
        false
    } else {
        true
    }
}

fn validate_subresources(sub: Option<&Map<String, Value>>, base: &str, errs: &mut Vec<FieldError>) {
    let Some(scale) = sub.and_then(|m| m.get("scale")).filter(|v| !v.is_null()) else {
        return;
    };
    let sm = scale.as_object();
    for (k, prefix, msg) in [
        (
            "specReplicasPath",
            ".spec.",
            "should be a json path under .spec",
        ),
        (
            "statusReplicasPath",
            ".status.",
            "should be a json path under .status",
        ),
    ] {
        let p = s(sm, k);
        let fp = child(base, &format!("scale.{k}"));
        if p.is_empty() {
            errs.push(FieldError::required(&fp, ""));
        } else if simple_json_path(p, &fp, errs) && !p.starts_with(prefix) {
            errs.push(FieldError::invalid_str(&fp, p, msg));
        }
    }
    let lp = s(sm, "labelSelectorPath");
    let fp = child(base, "scale.labelSelectorPath");
    if !lp.is_empty()
        && simple_json_path(lp, &fp, errs)
        && !lp.starts_with(".spec.")
        && !lp.starts_with(".status.")
    {
        errs.push(FieldError::invalid_str(
            &fp,
            lp,
            "should be a json path under either .spec or .status",
        ));
    }
}

fn validate_column(col: Option<&Map<String, Value>>, cp: &str, errs: &mut Vec<FieldError>) {
    if s(col, "name").is_empty() {
        errs.push(FieldError::required(&child(cp, "name"), ""));
    }
    let ty = s(col, "type");
    let types_msg = format!("must be one of {COLUMN_TYPES}");
    if ty.is_empty() {
        errs.push(FieldError::required(&child(cp, "type"), &types_msg));
    } else if !COLUMN_TYPES.split(',').any(|t| t == ty) {
        errs.push(FieldError::invalid_str(&child(cp, "type"), ty, &types_msg));
    }
    let format = s(col, "format");
    if !format.is_empty() && !COLUMN_FORMATS.split(',').any(|f| f == format) {
        errs.push(FieldError::invalid_str(
            &child(cp, "format"),
            format,
            &format!("must be one of {COLUMN_FORMATS}"),
        ));
    }
    let jp = s(col, "jsonPath");
    if jp.is_empty() {
        errs.push(FieldError::required(&child(cp, "JSONPath"), ""));
    } else {
        simple_json_path(jp, &child(cp, "JSONPath"), errs);
    }
}

fn validate_selectable(
    fields: &[Value],
    schema: Option<&Structural>,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let mut unique: Vec<String> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let jp_path = child(&format!("{path}[{i}]"), "jsonPath");
        let jp = s(f.as_object(), "jsonPath");
        if jp.is_empty() {
            errs.push(FieldError::required(&jp_path, ""));
            continue;
        }
        let Some(node) = schema.and_then(|s| crate::fieldpath::resolve(s, jp, false)) else {
            if schema.is_some() {
                errs.push(FieldError::invalid_str(
                    &jp_path,
                    jp,
                    "is an invalid path: does not refer to a valid field",
                ));
            }
            continue;
        };
        let root = jp.trim_start_matches(['.', '[', '\'', '"']);
        if root.starts_with("metadata")
            && root[8..]
                .chars()
                .next()
                .is_none_or(|c| matches!(c, '.' | '[' | '\'' | '"'))
        {
            errs.push(FieldError::invalid_str(
                &jp_path,
                jp,
                "must not point to fields in metadata",
            ));
        }
        if !matches!(node.type_.as_str(), "string" | "boolean" | "integer") {
            errs.push(FieldError::invalid_str(
                &jp_path,
                jp,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if unique.iter().any(|u| u == jp) {
            errs.push(FieldError::duplicate(&jp_path, quote(jp)));
        } else {
            unique.push(jp.to_string());
        }
    }
    if unique.len() > 8 {
        errs.push(FieldError::too_many(path, unique.len() as i64, 8));
    }
}

/// Whether any schema of the spec carries a `default`.
pub(crate) fn has_defaults(versions: &[Value]) -> bool {
    fn walk(v: &Value) -> bool {
        let Some(m) = v.as_object() else { return false };
        if m.get("default").is_some_and(|d| !d.is_null()) {
            return true;
        }
        let props = m
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|p| p.values());
        let lists = ["allOf", "anyOf", "oneOf"]
            .into_iter()
            .flat_map(|k| m.get(k).and_then(Value::as_array).into_iter().flatten());
        let singles = ["items", "additionalProperties", "not"]
            .into_iter()
            .filter_map(|k| m.get(k));
        props.chain(lists).chain(singles).any(walk)
    }
    versions.iter().any(|v| {
        v.get("schema")
            .and_then(|s| s.get("openAPIV3Schema"))
            .is_some_and(walk)
    })
}
