//! CRD checks of the list and map extensions of a schema node (`x-kubernetes-list-type`,
//! `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`) with upstream's messages.

use crate::error::{quote, render, FieldError};
use crate::structural::{child, key};
use serde_json::{Map, Value};

/// Go's `%#v` of a `[]string`.
fn go_strings(v: &[&str]) -> String {
    let q: Vec<String> = v.iter().map(|s| quote(s)).collect();
    format!("[]string{{{}}}", q.join(", "))
}

/// List and map type extensions.
pub(crate) fn extensions(m: &Map<String, Value>, path: &str, errs: &mut Vec<FieldError>) {
    let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
    let list_type = m.get("x-kubernetes-list-type").and_then(Value::as_str);
    let map_type = m.get("x-kubernetes-map-type").and_then(Value::as_str);
    let keys: Vec<&str> = m
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let tp = child(path, "type");
    if map_type.is_some() && ty != "object" {
        let msg = "must be object if x-kubernetes-map-type is specified";
        errs.push(if ty.is_empty() {
            FieldError::required(&tp, msg)
        } else {
            FieldError::invalid_str(&tp, ty, msg)
        });
    }
    if let Some(mt) = map_type.filter(|t| *t != "atomic" && *t != "granular") {
        errs.push(FieldError::not_supported(
            &child(path, "x-kubernetes-map-type"),
            quote(mt),
            &["atomic", "granular"],
        ));
    }
    let items = m.get("items").and_then(Value::as_object);
    let item_type = items
        .and_then(|i| i.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if list_type.is_some() && ty != "array" {
        let msg = "must be array if x-kubernetes-list-type is specified";
        errs.push(if ty.is_empty() {
            FieldError::required(&tp, msg)
        } else {
            FieldError::invalid_str(&tp, ty, msg)
        });
    } else if list_type == Some("set") {
        let sub = |k: &str| items.and_then(|i| i.get(k)).and_then(Value::as_str);
        let msg = "must be atomic as item of a list with x-kubernetes-list-type=set";
        let ip = child(path, "items");
        match item_type {
            "array" if sub("x-kubernetes-list-type").is_some_and(|t| t != "atomic") => {
                errs.push(FieldError::invalid_str(
                    &child(&ip, "x-kubernetes-list-type"),
                    sub("x-kubernetes-list-type").unwrap_or(""),
                    msg,
                ))
            }
            "object" if sub("x-kubernetes-map-type") != Some("atomic") => {
                let v = sub("x-kubernetes-list-type")
                    .map(quote)
                    .unwrap_or_else(|| "null".into());
                errs.push(FieldError::invalid(
                    &child(&ip, "x-kubernetes-map-type"),
                    v,
                    msg,
                ));
            }
            _ => {}
        }
    }
    let lt_path = child(path, "x-kubernetes-list-type");
    if let Some(lt) = list_type.filter(|t| !["atomic", "set", "map"].contains(t)) {
        errs.push(FieldError::not_supported(
            &lt_path,
            quote(lt),
            &["atomic", "set", "map"],
        ));
    }
    if !keys.is_empty() {
        let msg = "must be map if x-kubernetes-list-map-keys is non-empty";
        match list_type {
            None => errs.push(FieldError::required(&lt_path, msg)),
            Some(lt) if lt != "map" => errs.push(FieldError::invalid_str(&lt_path, lt, msg)),
            _ => {}
        }
    }
    let keys_path = child(path, "x-kubernetes-list-map-keys");
    if list_type == Some("map") {
        if keys.is_empty() {
            errs.push(FieldError::required(
                &keys_path,
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        match m.get("items") {
            None | Some(Value::Null) => errs.push(FieldError::required(
                &child(path, "items"),
                "must have a schema if x-kubernetes-list-type is map",
            )),
            Some(Value::Array(a)) => errs.push(FieldError::invalid(
                &child(path, "items"),
                render(&Value::Array(a.clone())),
                "must only have a single schema if x-kubernetes-list-type is map",
            )),
            Some(_) if item_type != "object" => errs.push(FieldError::invalid_str(
                &child(&child(path, "items"), "type"),
                item_type,
                "must be object if parent array's x-kubernetes-list-type is map",
            )),
            Some(_) => {
                let iprops = items
                    .and_then(|i| i.get("properties"))
                    .and_then(Value::as_object);
                for (i, k) in keys.iter().enumerate() {
                    match iprops.and_then(|p| p.get(*k)) {
                        Some(p) => {
                            let pt = p.get("type").and_then(Value::as_str).unwrap_or("");
                            if pt == "array" || pt == "object" {
                                errs.push(FieldError::invalid_str(
                                    &child(&key(&child(path, "items"), "properties", k), "type"),
                                    item_type,
                                    "must be a scalar type if parent array's x-kubernetes-list-type is map",
                                ));
                            }
                        }
                        None => errs.push(FieldError::invalid(
                            &keys_path,
                            go_strings(&keys),
                            "entries must all be names of item properties",
                        )),
                    }
                    if keys[..i].contains(k) {
                        errs.push(FieldError::invalid(
                            &keys_path,
                            go_strings(&keys),
                            "must not contain duplicate entries",
                        ));
                    }
                }
            }
        }
    }
    map_list_keys_set(items, list_type, &keys, path, errs);
}

/// `validateMapListKeysMapSet`: set/map items not nullable, map keys required or defaulted.
fn map_list_keys_set(
    items: Option<&Map<String, Value>>,
    list_type: Option<&str>,
    keys: &[&str],
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let (Some(items), Some(lt)) = (items, list_type) else {
        return;
    };
    if lt != "set" && lt != "map" {
        return;
    }
    let ip = child(path, "items");
    if items.get("nullable") == Some(&Value::Bool(true)) {
        errs.push(FieldError::forbidden(
            &child(&ip, "nullable"),
            &format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
        ));
    }
    if lt != "map" {
        return;
    }
    let required: Vec<&str> = items
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for k in keys {
        let Some(p) = items.get("properties").and_then(|p| p.get(*k)) else {
            continue;
        };
        let kp = key(&ip, "properties", k);
        if !required.contains(k) && p.get("default").is_none_or(Value::is_null) {
            errs.push(FieldError::required(
                &child(&kp, "default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if p.get("nullable") == Some(&Value::Bool(true)) {
            errs.push(FieldError::forbidden(
                &child(&kp, "nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}
