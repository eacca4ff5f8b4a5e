//! Pruning of unknown fields (fields the structural schema does not specify) and structural
//! defaulting, as the apiextensions server applies them when it decodes a custom resource.

use crate::structural::{AdditionalProperties, Structural};
use serde_json::{Map, Value};

/// Drops every field `schema` does not specify, unless a node keeps unknown fields
/// (`x-kubernetes-preserve-unknown-fields`). `apiVersion`, `kind` and `metadata` are kept at the
/// root and in embedded resources. Returns the pruned paths (`spec.foo`, `spec.list[0].bar`),
/// sorted, for `unknown field "…"` warnings or strict errors.
pub fn prune(schema: &Structural, obj: &mut Value) -> Vec<String> {
    let mut pruned = Vec::new();
    prune_node(obj, Some(schema), true, "", &mut pruned);
    pruned.sort();
    pruned
}

/// Prunes `v` against `s`; `resource_root` keeps `apiVersion`, `kind` and `metadata`.
pub(crate) fn prune_value(s: &Structural, v: &mut Value, resource_root: bool) {
    prune_node(v, Some(s), resource_root, "", &mut Vec::new());
}

fn join(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_string()
    } else {
        format!("{path}.{k}")
    }
}

fn prune_node(
    x: &mut Value,
    s: Option<&Structural>,
    resource_root: bool,
    path: &str,
    pruned: &mut Vec<String>,
) {
    match x {
        Value::Object(m) => prune_object(m, s, resource_root, path, pruned),
        Value::Array(items) => {
            let item_schema = s.and_then(|s| s.items.as_deref());
            let keep_unknown = s.is_some_and(|s| s.preserve_unknown_fields);
            if item_schema.is_none() && keep_unknown {
                return;
            }
            for (i, item) in items.iter_mut().enumerate() {
                let embedded = item_schema.is_some_and(|s| s.embedded_resource);
                prune_node(item, item_schema, embedded, &format!("{path}[{i}]"), pruned);
            }
        }
        _ => {}
    }
}

fn prune_object(
    m: &mut Map<String, Value>,
    s: Option<&Structural>,
    resource_root: bool,
    path: &str,
    pruned: &mut Vec<String>,
) {
    let keep_unknown = s.is_some_and(|s| {
        s.preserve_unknown_fields
            || matches!(
                s.additional_properties,
                Some(AdditionalProperties::Bool(true))
            )
    });
    let mut drop = Vec::new();
    for (k, v) in m.iter_mut() {
        if resource_root && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        let sub = s.and_then(|s| s.property(k));
        let child_path = join(path, k);
        match sub {
            Some(sub) => prune_node(v, Some(sub), sub.embedded_resource, &child_path, pruned),
            None if keep_unknown => {}
            None => drop.push(k.clone()),
        }
    }
    for k in drop {
        m.remove(&k);
        pruned.push(join(path, &k));
    }
}

/// Fills in `default` values where fields are missing (or null while not nullable), as
/// upstream's structural defaulting; defaults are pruned by their own schema first.
pub fn default(schema: &Structural, obj: &mut Value) {
    default_node(obj, schema, 0);
}

/// Deeper than any sane object; stops runaway recursion on hostile input.
const MAX_DEPTH: usize = 512;

fn pruned_default(s: &Structural) -> Option<Value> {
    let mut d = s.default.clone()?;
    prune_node(&mut d, Some(s), s.embedded_resource, "", &mut Vec::new());
    Some(d)
}

fn default_node(x: &mut Value, s: &Structural, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match x {
        Value::Object(m) => {
            for (k, prop) in &s.properties {
                if prop.default.is_none() {
                    continue;
                }
                let missing = match m.get(k) {
                    None => true,
                    Some(Value::Null) => !prop.nullable,
                    Some(_) => false,
                };
                if missing {
                    if let Some(d) = pruned_default(prop) {
                        m.insert(k.clone(), d);
                    }
                }
            }
            let ap = match &s.additional_properties {
                Some(AdditionalProperties::Schema(ap)) => Some(&**ap),
                _ => None,
            };
            for (k, v) in m.iter_mut() {
                if let Some(prop) = s.properties.get(k) {
                    default_node(v, prop, depth + 1);
                } else if let Some(ap) = ap {
                    if v.is_null() && !ap.nullable {
                        if let Some(d) = pruned_default(ap) {
                            *v = d;
                        }
                    }
                    default_node(v, ap, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            let Some(item_schema) = s.items.as_deref() else {
                return;
            };
            for item in items.iter_mut() {
                if item.is_null() && !item_schema.nullable {
                    if let Some(d) = pruned_default(item_schema) {
                        *item = d;
                    }
                }
                default_node(item, item_schema, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Structural {
        Structural::from_json(&json!({
            "type": "object",
            "properties": {
                "spec": {"type": "object", "properties": {
                    "replicas": {"type": "integer", "default": 1},
                    "mode": {"type": "string", "default": "auto", "nullable": true},
                    "inner": {"type": "object", "default": {"a": "x", "junk": 1},
                              "properties": {"a": {"type": "string"}, "b": {"type": "string", "default": "bee"}}},
                    "list": {"type": "array", "items": {"type": "object",
                             "properties": {"name": {"type": "string"}, "port": {"type": "integer", "default": 80}}}},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                             "properties": {"known": {"type": "object", "properties": {"k": {"type": "string"}}}}},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                                 "properties": {"spec": {"type": "object"}}}
                }},
                "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
            }
        }))
        .unwrap()
    }

    #[test]
    fn prunes_unknown_fields() {
        let mut obj = json!({
            "apiVersion": "x.io/v1", "kind": "X", "metadata": {"name": "a", "whatever": 1},
            "junk": 1,
            "spec": {"replicas": 2, "extra": true,
                     "list": [{"name": "a", "nope": 1}],
                     "free": {"anything": 1, "known": {"k": "v", "drop": 2}},
                     "labels": {"a": "b"},
                     "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}, "bad": 1}},
            "status": {"ready": true, "bogus": 0}
        });
        let pruned = prune(&schema(), &mut obj);
        assert_eq!(
            pruned,
            vec![
                "junk",
                "spec.extra",
                "spec.free.known.drop",
                "spec.list[0].nope",
                "spec.template.bad",
                "status.bogus"
            ]
        );
        assert_eq!(obj["spec"]["free"]["anything"], json!(1));
        assert_eq!(obj["spec"]["template"]["kind"], json!("Pod"));
        assert_eq!(obj["metadata"]["whatever"], json!(1));
    }

    #[test]
    fn applies_defaults() {
        let mut obj =
            json!({"spec": {"mode": null, "list": [{"name": "a"}, {"name": "b", "port": 8080}]}});
        default(&schema(), &mut obj);
        assert_eq!(obj["spec"]["replicas"], json!(1));
        assert_eq!(obj["spec"]["mode"], json!(null), "nullable null is kept");
        assert_eq!(
            obj["spec"]["inner"],
            json!({"a": "x", "b": "bee"}),
            "default pruned, then defaulted"
        );
        assert_eq!(obj["spec"]["list"][0]["port"], json!(80));
        assert_eq!(obj["spec"]["list"][1]["port"], json!(8080));
        let mut obj = json!({"spec": {"replicas": null}});
        default(&schema(), &mut obj);
        assert_eq!(
            obj["spec"]["replicas"],
            json!(1),
            "null while not nullable is defaulted"
        );
    }

    #[test]
    fn odd_input_does_not_panic() {
        let s = schema();
        for mut v in [
            json!(null),
            json!(5),
            json!([1, 2]),
            json!({"spec": "str"}),
            json!({"spec": {"list": {"a": 1}}}),
        ] {
            prune(&s, &mut v);
            default(&s, &mut v);
        }
    }
}
