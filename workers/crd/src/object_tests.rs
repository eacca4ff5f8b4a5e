//! Tests of custom resource validation: embedded resources, list types, rule failures.

use super::*;
use serde_json::json;

/// Fails every rule whose text is `false`, echoing old values to check correlation.
struct Stub;

impl RuleEngine for Stub {
    fn evaluate(&self, node: &Structural, value: &Value, old: Option<&Value>) -> Vec<RuleFailure> {
        node.validations
            .iter()
            .filter(|r| r.rule == "false" || (r.rule == "old" && old.is_some()))
            .map(|r| RuleFailure {
                message: match old {
                    Some(o) if r.rule == "old" => format!("old {o} new {value}"),
                    _ => r
                        .message
                        .clone()
                        .unwrap_or_else(|| format!("failed rule: {}", r.rule)),
                },
                reason: r.reason.clone(),
                field_path: r.field_path.clone(),
            })
            .collect()
    }
}

fn schema(v: Value) -> Structural {
    Structural::from_json(&v).unwrap()
}

fn run(s: &Structural, obj: Value, old: Option<Value>) -> Vec<String> {
    validate_with(s, &obj, old.as_ref(), &Stub, false)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn embedded_resources() {
    let s = schema(
        json!({"type": "object", "properties": {"t": {"type": "object",
        "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}}),
    );
    assert_eq!(
        run(&s, json!({"t": {}}), None),
        vec![
            "t.apiVersion: Required value: must not be empty",
            "t.kind: Required value: must not be empty"
        ]
    );
    assert_eq!(
        run(&s, json!({"t": {"apiVersion": "a/b/c", "kind": "no_way", "metadata": {"name": "Bad"}}}), None),
        vec![
            "t.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
            "t.kind: Invalid value: \"no_way\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
            "t.metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ]
    );
    assert!(run(&s, json!({"t": {"apiVersion": "v1", "kind": "Pod"}}), None).is_empty());
}

#[test]
fn list_types() {
    let s = schema(json!({"type": "object", "properties": {
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
                  "items": {"type": "object", "required": ["port"], "properties": {
                      "port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}}}}}}));
    assert_eq!(
        run(
            &s,
            json!({"set": ["a", "b", "a", "a"], "ports": [{"port": 80}, {"port": 80, "protocol": "TCP"},
                   {"port": 80, "protocol": "TCP"}, {"port": 80}, null]}),
            None
        ),
        vec![
            "ports[2]: Duplicate value: map[string]interface {}{\"port\":80, \"protocol\":\"TCP\"}",
            "ports[3]: Duplicate value: map[string]interface {}{\"port\":80}",
            "ports[4]: Invalid value: \"null\": ports[4] in body must be of type object: \"null\"",
            "set[2]: Duplicate value: \"a\"",
        ]
    );
}

#[test]
fn rule_failures_and_correlation() {
    let s = schema(json!({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-validations": [{"rule": "false"}],
                 "properties": {"n": {"type": "integer"}}},
        "items": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                  "items": {"type": "object", "properties": {"name": {"type": "string"}, "v": {"type": "integer"}},
                            "required": ["name"],
                            "x-kubernetes-validations": [{"rule": "old"}]}},
        "r": {"type": "string", "x-kubernetes-validations": [{"rule": "false", "message": "nope", "reason": "FieldValueForbidden", "fieldPath": ".x"}]}
    }}));
    let got = run(
        &s,
        json!({"spec": {"n": 1}, "items": [{"name": "b", "v": 2}, {"name": "a", "v": 1}], "r": "x"}),
        Some(json!({"items": [{"name": "a", "v": 0}]})),
    );
    assert_eq!(
        got,
        vec![
            "items[1]: Invalid value: \"object\": old {\"name\":\"a\",\"v\":0} new {\"name\":\"a\",\"v\":1}",
            "r.x: Forbidden: nope",
            "spec: Invalid value: \"object\": failed rule: false",
        ]
    );
}

#[test]
fn real_cel_rules_run() {
    let s = schema(
        json!({"type": "object", "properties": {"spec": {"type": "object",
        "x-kubernetes-validations": [{"rule": "self.minReplicas <= self.maxReplicas", "message": "min must not exceed max"}],
        "properties": {"minReplicas": {"type": "integer"}, "maxReplicas": {"type": "integer"}}}}}),
    );
    let errs = crate::validate_object(
        &s,
        &json!({"spec": {"minReplicas": 3, "maxReplicas": 1}}),
        None,
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        errs[0].to_string(),
        "spec: Invalid value: \"object\": min must not exceed max"
    );
    assert!(crate::validate_object(
        &s,
        &json!({"spec": {"minReplicas": 1, "maxReplicas": 3}}),
        None
    )
    .is_empty());
    let root = schema(
        json!({"type": "object", "x-kubernetes-validations": [{"rule": "has(self.spec)"}],
        "properties": {"spec": {"type": "object"}}}),
    );
    let errs = crate::validate_object(&root, &json!({"kind": "X"}), None);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        errs[0].to_string(),
        "<nil>: Invalid value: \"object\": failed rule: has(self.spec)"
    );
}

#[test]
fn value_errors_come_first() {
    let s = schema(
        json!({"type": "object", "properties": {"spec": {"type": "object", "required": ["a"],
        "properties": {"a": {"type": "string"}}}}}),
    );
    assert_eq!(
        run(&s, json!({"spec": {}}), None),
        vec!["spec.a: Required value"]
    );
    for bad in [
        json!(null),
        json!(1),
        json!([{"spec": 1}]),
        json!({"spec": [1]}),
    ] {
        run(&s, bad, None);
    }
}
