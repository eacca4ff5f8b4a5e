//! Validation of a CustomResourceDefinition object on create and update: metadata name,
//! group, scope, names, versions, conversion, subresources, printer columns, selectable
//! fields and per-version schemas, with upstream's field paths and messages.

use crate::crd_version::Hoisted;
use crate::error::{quote, render, FieldError};
use crate::names::{dns1035_label, dns1123_subdomain};
use crate::structural::{child, index, Structural};
use serde_json::{Map, Value};

fn s<'a>(m: Option<&'a Map<String, Value>>, k: &str) -> &'a str {
    m.and_then(|m| m.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn obj<'a>(v: Option<&'a Value>, k: &str) -> Option<&'a Map<String, Value>> {
    v.and_then(|v| v.get(k)).and_then(Value::as_object)
}

fn arr<'a>(m: Option<&'a Map<String, Value>>, k: &str) -> &'a [Value] {
    m.and_then(|m| m.get(k))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// Checks a CRD as upstream does on create (`old` = None) or update. Returns every error.
pub fn validate_crd(new: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if !new.is_object() {
        errs.push(crate::structural::type_err("<nil>", new, "object"));
        return errs;
    }
    let spec = obj(Some(new), "spec");
    let names = spec.and_then(|s| s.get("names")).and_then(Value::as_object);
    metadata_name(new, names, spec, &mut errs);
    if spec.is_none() {
        errs.push(FieldError::required("spec", ""));
        return errs;
    }
    validate_spec(spec, &mut errs);
    if let Some(accepted) = obj(new.get("status"), "acceptedNames") {
        validate_names(Some(accepted), "status.acceptedNames", &mut errs);
    }
    if let Some(stored) = new.get("status").and_then(|s| s.get("storedVersions")) {
        stored_versions(stored, arr(spec, "versions"), &mut errs);
    }
    if let Some(old) = old {
        validate_update(spec, obj(Some(old), "spec"), old, &mut errs);
    }
    errs
}

/// The `NonStructuralSchema` condition message for a stored CRD whose schemas are not
/// structural (upstream's aggregate of the violations), or None when every schema is.
pub fn non_structural_schema_message(crd: &Value) -> Option<String> {
    let spec = obj(Some(crd), "spec");
    let mut errs = Vec::new();
    for (i, v) in arr(spec, "versions").iter().enumerate() {
        let Some(schema) = v.get("schema").and_then(|s| s.get("openAPIV3Schema")) else {
            continue;
        };
        if let Err(e) = Structural::from_json(schema) {
            let path = format!("spec.versions[{i}].schema.openAPIV3Schema");
            errs.extend(e.into_iter().map(|e| e.under(&path)));
        }
    }
    (!errs.is_empty()).then(|| Structural::non_structural_message(&errs))
}

fn metadata_name(
    new: &Value,
    names: Option<&Map<String, Value>>,
    spec: Option<&Map<String, Value>>,
    errs: &mut Vec<FieldError>,
) {
    let meta = obj(Some(new), "metadata");
    let name = s(meta, "name");
    if name.is_empty() {
        if s(meta, "generateName").is_empty() {
            errs.push(FieldError::required(
                "metadata.name",
                "name or generateName is required",
            ));
        }
        return;
    }
    for why in dns1123_subdomain(name) {
        errs.push(FieldError::invalid_str("metadata.name", name, &why));
    }
    if name != format!("{}.{}", s(names, "plural"), s(spec, "group")) {
        errs.push(FieldError::invalid_str(
            "metadata.name",
            name,
            "must be spec.names.plural+\".\"+spec.group",
        ));
    }
}

fn validate_spec(spec: Option<&Map<String, Value>>, errs: &mut Vec<FieldError>) {
    let group = s(spec, "group");
    if group.is_empty() {
        errs.push(FieldError::required("spec.group", ""));
    } else {
        let why = dns1123_subdomain(group);
        if !why.is_empty() {
            errs.push(FieldError::invalid_str("spec.group", group, &why.join(",")));
        } else if !group.contains('.') {
            errs.push(FieldError::invalid_str(
                "spec.group",
                group,
                "should be a domain with at least one dot",
            ));
        }
    }
    match s(spec, "scope") {
        "" => errs.push(FieldError::required("spec.scope", "")),
        "Cluster" | "Namespaced" => {}
        other => errs.push(FieldError::not_supported(
            "spec.scope",
            quote(other),
            &["Cluster", "Namespaced"],
        )),
    }

    let versions = arr(spec, "versions");
    let hoisted = Hoisted::new(versions);
    crate::crd_version::require_schemas(versions, &hoisted, errs);
    let preserve = spec
        .and_then(|m| m.get("preserveUnknownFields"))
        .and_then(Value::as_bool)
        == Some(true);
    if preserve && crate::crd_version::has_defaults(versions) {
        errs.push(FieldError::invalid(
            "spec.preserveUnknownFields",
            "true".into(),
            "must be false in order to use defaults in the schema",
        ));
    }
    let rendered = spec
        .and_then(|s| s.get("versions"))
        .map(render)
        .unwrap_or_else(|| "null".into());
    let mut storage = 0;
    let mut seen: Vec<&str> = Vec::new();
    let mut unique = true;
    for (i, v) in versions.iter().enumerate() {
        let vp = index("spec", "versions", i);
        let vm = v.as_object();
        if vm.and_then(|m| m.get("storage")).and_then(Value::as_bool) == Some(true) {
            storage += 1;
        }
        let name = s(vm, "name");
        if seen.contains(&name) {
            unique = false;
        } else {
            seen.push(name);
        }
        let why = dns1035_label(name);
        if !why.is_empty() {
            errs.push(FieldError::invalid_str(
                &child(&vp, "name"),
                name,
                &why.join(","),
            ));
        }
        crate::crd_version::validate_version(v, &vp, &hoisted, errs);
    }
    if !unique {
        errs.push(FieldError::invalid(
            "spec.versions",
            rendered.clone(),
            "must contain unique version names",
        ));
    }
    if storage != 1 {
        errs.push(FieldError::invalid(
            "spec.versions",
            rendered,
            "must have exactly one version marked as storage version",
        ));
    }
    // the internal form's `spec.version` is the first version's name
    if let Some(first) = versions.first() {
        let name = s(first.as_object(), "name");
        let why = dns1035_label(name);
        if !name.is_empty() && !why.is_empty() {
            errs.push(FieldError::invalid_str(
                "spec.version",
                name,
                &why.join(","),
            ));
        }
    }

    for k in ["plural", "singular", "kind", "listKind"] {
        if s(names(spec), k).is_empty() {
            errs.push(FieldError::required(&format!("spec.names.{k}"), ""));
        }
    }
    validate_names(names(spec), "spec.names", errs);
    crate::crd_version::validate_hoisted(&hoisted, crate::crd_version::any_status(versions), errs);

    let conversion = spec
        .and_then(|m| m.get("conversion"))
        .and_then(Value::as_object);
    let strategy = s(conversion, "strategy");
    if conversion.is_some() && strategy != "None" && preserve {
        errs.push(FieldError::invalid_str(
            "spec.conversion.strategy",
            strategy,
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    crate::crd_conversion::validate_conversion(conversion, errs);
    if preserve {
        errs.push(FieldError::invalid(
            "spec.preserveUnknownFields",
            "true".into(),
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
}

fn validate_names(names: Option<&Map<String, Value>>, path: &str, errs: &mut Vec<FieldError>) {
    for k in ["plural", "singular"] {
        let v = s(names, k);
        let why = dns1035_label(v);
        if !v.is_empty() && !why.is_empty() {
            errs.push(FieldError::invalid_str(&child(path, k), v, &why.join(",")));
        }
    }
    for k in ["kind", "listKind"] {
        let v = s(names, k);
        let why = dns1035_label(&v.to_lowercase());
        if !v.is_empty() && !why.is_empty() {
            errs.push(FieldError::invalid_str(
                &child(path, k),
                v,
                &format!(
                    "may have mixed case, but should otherwise match: {}",
                    why.join(",")
                ),
            ));
        }
    }
    for k in ["shortNames", "categories"] {
        for (i, v) in arr(names, k).iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            let why = dns1035_label(v);
            if !why.is_empty() {
                errs.push(FieldError::invalid_str(
                    &index(path, k, i),
                    v,
                    &why.join(","),
                ));
            }
        }
    }
    let kind = s(names, "kind");
    if !kind.is_empty() && kind == s(names, "listKind") {
        errs.push(FieldError::invalid_str(
            &child(path, "listKind"),
            kind,
            "kind and listKind may not be the same",
        ));
    }
}

/// `status.storedVersions` against `spec.versions` (checked when the caller has filled it in,
/// as upstream's create and update strategies do before validation).
fn stored_versions(stored: &Value, versions: &[Value], errs: &mut Vec<FieldError>) {
    let path = "status.storedVersions";
    let list: Vec<&str> = stored
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if list.is_empty() {
        errs.push(FieldError::invalid(
            path,
            render(stored),
            "must have at least one stored version",
        ));
        return;
    }
    let mut missing: Vec<(usize, &str)> = Vec::new();
    for (i, v) in list.iter().enumerate() {
        // upstream keeps the last index of a repeated name
        missing.retain(|(_, m)| m != v);
        missing.push((i, v));
    }
    for v in versions {
        let name = v.get("name").and_then(Value::as_str).unwrap_or("");
        let known = missing.iter().any(|(_, m)| *m == name) || list.contains(&name);
        if v.get("storage").and_then(Value::as_bool) == Some(true) && !known {
            errs.push(FieldError::invalid(
                path,
                render(stored),
                &format!("must have the storage version {name}"),
            ));
        }
        missing.retain(|(_, m)| *m != name);
    }
    for (i, v) in missing {
        errs.push(FieldError::invalid_str(
            &format!("{path}[{i}]"),
            v,
            &format!("missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"),
        ));
    }
}

fn names(m: Option<&Map<String, Value>>) -> Option<&Map<String, Value>> {
    m.and_then(|m| m.get("names")).and_then(Value::as_object)
}

fn established(old: &Value) -> bool {
    old.get("status")
        .and_then(|s| s.get("conditions"))
        .and_then(Value::as_array)
        .is_some_and(|c| {
            c.iter().any(|c| {
                c.get("type").and_then(Value::as_str) == Some("Established")
                    && c.get("status").and_then(Value::as_str) == Some("True")
            })
        })
}

fn validate_update(
    spec: Option<&Map<String, Value>>,
    old_spec: Option<&Map<String, Value>>,
    old: &Value,
    errs: &mut Vec<FieldError>,
) {
    let mut immutable = |path: &str, new: &str, old: &str| {
        if new != old {
            errs.push(FieldError::invalid_str(path, new, "field is immutable"));
        }
    };
    if established(old) {
        immutable("spec.scope", s(spec, "scope"), s(old_spec, "scope"));
        immutable(
            "spec.names.kind",
            s(names(spec), "kind"),
            s(names(old_spec), "kind"),
        );
    }
    immutable("spec.group", s(spec, "group"), s(old_spec, "group"));
    immutable(
        "spec.names.plural",
        s(names(spec), "plural"),
        s(names(old_spec), "plural"),
    );
}

#[cfg(test)]
#[path = "crd_tests.rs"]
mod tests;
