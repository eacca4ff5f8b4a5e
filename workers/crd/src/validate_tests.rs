//! Tests of kube-openapi-style value validation: messages and paths as upstream reports them.

use super::*;
use serde_json::json;

fn run(schema: Value, data: Value) -> Vec<String> {
    let mut out = Vec::new();
    validate_value(&schema, &data, "", &mut out);
    out.iter()
        .map(|e| format!("{} [{}]", e, e.reason()))
        .collect()
}

fn spec(props: Value) -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object", "properties": props}}})
}

#[test]
fn type_errors() {
    assert_eq!(
        run(spec(json!({"replicas": {"type": "integer"}})), json!({"spec": {"replicas": "three"}})),
        vec!["spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\" [FieldValueTypeInvalid]"]
    );
    assert_eq!(
        run(spec(json!({"replicas": {"type": "integer"}})), json!({"spec": {"replicas": null}})),
        vec!["spec.replicas: Invalid value: \"null\": spec.replicas in body must be of type integer: \"null\" [FieldValueTypeInvalid]"]
    );
    assert!(run(
        spec(json!({"r": {"type": "integer", "nullable": true}})),
        json!({"spec": {"r": null}})
    )
    .is_empty());
    assert!(run(
        spec(json!({"r": {"type": "integer"}})),
        json!({"spec": {"r": 2.0}})
    )
    .is_empty());
    assert!(run(
        spec(json!({"r": {"type": "number"}})),
        json!({"spec": {"r": 2}})
    )
    .is_empty());
    assert_eq!(
        run(spec(json!({"p": {"x-kubernetes-int-or-string": true}})), json!({"spec": {"p": true}})),
        vec!["spec.p: Invalid value: \"boolean\": spec.p in body must be of type integer,string: \"boolean\" [FieldValueTypeInvalid]"]
    );
}

#[test]
fn required_enum_and_bounds() {
    let s = spec(json!({
        "mode": {"type": "string", "enum": ["a", "b"]},
        "n": {"type": "integer", "minimum": 1, "maximum": 10, "exclusiveMaximum": true, "multipleOf": 2},
        "f": {"type": "number", "minimum": 0.5, "exclusiveMinimum": true}
    }));
    let mut s = s;
    s["properties"]["spec"]["required"] = json!(["mode", "need"]);
    assert_eq!(
        run(s.clone(), json!({"spec": {"mode": "c", "n": 10, "f": 0.5}})),
        vec![
            "spec.f: Invalid value: 0.5: spec.f in body should be greater than 0.5 [FieldValueInvalid]",
            "spec.mode: Unsupported value: \"c\": supported values: \"a\", \"b\" [FieldValueNotSupported]",
            "spec.n: Invalid value: 10: spec.n in body should be less than 10 [FieldValueInvalid]",
            "spec.need: Required value [FieldValueRequired]",
        ]
    );
    assert_eq!(
        run(s, json!({"spec": {"mode": "a", "need": 1, "n": 3, "f": 1}})),
        vec!["spec.n: Invalid value: 3: spec.n in body should be a multiple of 2 [FieldValueInvalid]"]
    );
}

#[test]
fn strings_arrays_objects() {
    let s = spec(json!({
        "name": {"type": "string", "maxLength": 3, "minLength": 2, "pattern": "^[a-z]+$"},
        "when": {"type": "string", "format": "date-time"},
        "list": {"type": "array", "maxItems": 1, "minItems": 1, "items": {"type": "string", "maxLength": 1}},
        "m": {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "integer"}},
        "few": {"type": "object", "minProperties": 2, "additionalProperties": {"type": "string"}}
    }));
    let got = run(
        s,
        json!({"spec": {"name": "ABCD", "when": "yesterday", "list": ["ab", "c"],
                        "m": {"a": 1, "b": 2}, "few": {"x": "y"}}}),
    );
    assert_eq!(
        got,
        vec![
            "spec.few: Invalid value: 1: spec.few in body should have at least 2 properties [FieldValueInvalid]",
            "spec.list[0]: Too long: may not be more than 1 byte [FieldValueTooLong]",
            "spec.list: Too many: 2: must have at most 1 item [FieldValueTooMany]",
            "spec.m: Too many: 2: must have at most 1 item [FieldValueTooMany]",
            "spec.name: Too long: may not be more than 3 bytes [FieldValueTooLong]",
            "spec.name: Invalid value: \"ABCD\": spec.name in body should match '^[a-z]+$' [FieldValueInvalid]",
            "spec.when: Invalid value: \"yesterday\": spec.when in body must be of type date-time: \"yesterday\" [FieldValueTypeInvalid]",
        ]
    );
    assert_eq!(
        run(spec(json!({"m": {"type": "object", "additionalProperties": {"type": "integer"}}})), json!({"spec": {"m": {"k": "v"}}})),
        vec!["spec.m.k: Invalid value: \"string\": spec.m.k in body must be of type integer: \"string\" [FieldValueTypeInvalid]"]
    );
}

#[test]
fn junctors() {
    let s = json!({"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"maxLength": 1}, {"pattern": "^x"}]}}});
    let got = run(s, json!({"a": "long"}));
    assert_eq!(got[0], "<nil>: Invalid value: \"\": \"a\" must validate at least one schema (anyOf) [FieldValueInvalid]");
    assert_eq!(got.len(), 2);
    let s =
        json!({"type": "object", "properties": {"a": {"type": "integer", "not": {"minimum": 5}}}});
    assert_eq!(run(s.clone(), json!({"a": 2})).len(), 0);
    assert_eq!(
        run(s, json!({"a": 7})),
        vec!["<nil>: Invalid value: \"\": \"a\" must not validate the schema (not) [FieldValueInvalid]"]
    );
    let s = json!({"type": "object", "properties": {"a": {"type": "integer", "oneOf": [{"minimum": 1}, {"minimum": 2}]}}});
    assert_eq!(
        run(s, json!({"a": 3})),
        vec!["<nil>: Invalid value: \"\": \"a\" must validate one and only one schema (oneOf). Found 2 valid alternatives [FieldValueInvalid]"]
    );
}

#[test]
fn odd_schemas_never_panic() {
    for schema in [
        json!(null),
        json!([]),
        json!({"type": 5, "enum": 3, "items": [], "pattern": "("}),
        json!({"maxLength": "x", "properties": 4, "required": [1]}),
        json!({"multipleOf": 0}),
    ] {
        for data in [
            json!(null),
            json!("s"),
            json!(1),
            json!([1]),
            json!({"a": 1}),
        ] {
            let mut out = Vec::new();
            validate_value(&schema, &data, "", &mut out);
        }
    }
}
