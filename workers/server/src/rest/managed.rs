//! `metadata.managedFields` for writes: each manager's fields as a FieldsV1 set (`f:`
//! keys, `.` for a node owned itself). A write adds the fields it changed to its
//! manager's entry (keyed by manager, operation and subresource) and takes them away
//! from every other manager; entries left empty are dropped.
//!
//! Lists are recorded as leaves (atomic), which is exact for atomic lists and coarser
//! than upstream for associative ones.

use serde_json::{json, Map, Value};

/// The fields of `v` (without metadata bookkeeping) as a FieldsV1 tree.
fn fields_of(v: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(obj) = v.as_object() {
        for (k, child) in obj {
            let sub = match child {
                Value::Object(m) if !m.is_empty() => Value::Object(fields_of(child)),
                _ => json!({}),
            };
            out.insert(format!("f:{k}"), sub);
        }
    }
    out
}

/// The fields whose values differ between `old` and `new` (present in `new`).
fn changed(old: Option<&Value>, new: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    let Some(n) = new.as_object() else {
        return out;
    };
    for (k, nv) in n {
        let ov = old.and_then(|o| o.get(k));
        if ov == Some(nv) {
            continue;
        }
        let sub = match (ov, nv) {
            (Some(o @ Value::Object(_)), Value::Object(m)) if !m.is_empty() => {
                Value::Object(changed(Some(o), nv))
            }
            (None, Value::Object(m)) if !m.is_empty() => Value::Object(fields_of(nv)),
            _ => json!({}),
        };
        out.insert(format!("f:{k}"), sub);
    }
    out
}

/// `a ∪ b`.
fn union(a: &mut Map<String, Value>, b: &Map<String, Value>) {
    for (k, bv) in b {
        match (a.get_mut(k), bv) {
            (Some(Value::Object(am)), Value::Object(bm)) => union(am, bm),
            (None, _) => {
                a.insert(k.clone(), bv.clone());
            }
            _ => {}
        }
    }
}

/// `a ∖ b`: leaves of `b` are removed from `a`, with everything under them.
fn subtract(a: &mut Map<String, Value>, b: &Map<String, Value>) {
    for (k, bv) in b {
        let remove = match (a.get_mut(k), bv) {
            (Some(Value::Object(am)), Value::Object(bm)) if !bm.is_empty() => {
                subtract(am, bm);
                am.is_empty()
            }
            (Some(_), _) => true,
            (None, _) => false,
        };
        if remove {
            a.remove(k);
        }
    }
}

/// The object without the fields no manager owns (metadata bookkeeping).
fn owned_view(obj: &Value) -> Value {
    let mut v = obj.clone();
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in [
            "managedFields",
            "resourceVersion",
            "uid",
            "creationTimestamp",
            "generation",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "selfLink",
        ] {
            m.remove(k);
        }
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("apiVersion");
        o.remove("kind");
    }
    v
}

/// Records a write by `manager` in `new`'s managedFields, given the stored object.
pub(crate) fn record(
    new: &mut Value,
    old: Option<&Value>,
    manager: &str,
    operation: &str,
    subresource: &str,
    api_version: &str,
    now: &str,
) {
    let old_entries: Vec<Value> = old
        .and_then(|o| o.pointer("/metadata/managedFields"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let old_view = old.map(owned_view);
    let new_view = owned_view(new);
    let diff = changed(old_view.as_ref(), &new_view);
    let mut entries: Vec<Value> = Vec::new();
    let mut mine: Option<Value> = None;
    for mut e in old_entries {
        let same = e.get("manager").and_then(Value::as_str) == Some(manager)
            && e.get("operation").and_then(Value::as_str) == Some(operation)
            && e.get("subresource").and_then(Value::as_str).unwrap_or("") == subresource;
        if same {
            mine = Some(e);
            continue;
        }
        if let Some(Value::Object(f)) = e.get_mut("fieldsV1") {
            subtract(f, &diff);
            if f.is_empty() {
                continue;
            }
        }
        entries.push(e);
    }
    if diff.is_empty() && mine.is_none() {
        set(new, entries);
        return;
    }
    let mut fields = mine
        .as_ref()
        .and_then(|e| e.get("fieldsV1"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    union(&mut fields, &diff);
    let time = if diff.is_empty() {
        mine.as_ref()
            .and_then(|e| e.get("time"))
            .cloned()
            .unwrap_or(json!(now))
    } else {
        json!(now)
    };
    let mut entry = json!({
        "manager": manager,
        "operation": operation,
        "apiVersion": api_version,
        "time": time,
        "fieldsType": "FieldsV1",
        "fieldsV1": fields,
    });
    if !subresource.is_empty() {
        entry["subresource"] = json!(subresource);
    }
    entries.push(entry);
    set(new, entries);
}

fn set(obj: &mut Value, entries: Vec<Value>) {
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        if entries.is_empty() {
            m.remove("managedFields");
        } else {
            m.insert("managedFields".into(), Value::Array(entries));
        }
    }
}

/// The manager of a request with no `fieldManager`: the user agent up to its first `/`,
/// as upstream derives it.
pub(crate) fn manager_from_user_agent(ua: &str) -> String {
    let name: String = ua
        .split('/')
        .next()
        .unwrap_or("")
        .chars()
        .take(128)
        .collect();
    if name.is_empty() {
        "unknown".into()
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_create_records_every_field() {
        let mut obj = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a", "labels": {"x": "1"}}, "data": {"k": "v"}});
        record(&mut obj, None, "kubectl-create", "Update", "", "v1", "t0");
        let mf = &obj["metadata"]["managedFields"][0];
        assert_eq!(mf["manager"], "kubectl-create");
        assert_eq!(
            mf["fieldsV1"],
            json!({"f:data": {"f:k": {}}, "f:metadata": {"f:labels": {"f:x": {}}, "f:name": {}}})
        );
    }

    #[test]
    fn an_update_takes_fields_from_other_managers() {
        let mut old = json!({"metadata": {"name": "a"}, "data": {"k": "v", "j": "w"}});
        record(&mut old, None, "one", "Update", "", "v1", "t0");
        let mut new = old.clone();
        new["data"]["k"] = json!("changed");
        record(&mut new, Some(&old), "two", "Update", "", "v1", "t1");
        let mf = new["metadata"]["managedFields"].as_array().unwrap();
        assert_eq!(mf.len(), 2);
        assert_eq!(
            mf[0]["fieldsV1"],
            json!({"f:data": {"f:j": {}}, "f:metadata": {"f:name": {}}})
        );
        assert_eq!(mf[1]["fieldsV1"], json!({"f:data": {"f:k": {}}}));
    }

    #[test]
    fn a_no_op_update_changes_nothing() {
        let mut old = json!({"metadata": {"name": "a"}, "data": {"k": "v"}});
        record(&mut old, None, "one", "Update", "", "v1", "t0");
        let mut new = old.clone();
        record(&mut new, Some(&old), "one", "Update", "", "v1", "t1");
        assert_eq!(new, old);
    }
}
