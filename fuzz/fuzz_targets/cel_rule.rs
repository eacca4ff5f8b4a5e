//! A CEL validation rule (`x-kubernetes-validations`) as kas-crd compiles it (parse,
//! type check against the schema, static cost bound) and evaluates it against custom
//! resources: input is the rule, optionally `\0` and a messageExpression. Any text is
//! a compile error with a message (reported in the CRD's 422), or a program whose
//! evaluation ends within the cost limit's time with a verdict; never a panic of ours.
#![no_main]

#[path = "common/cel_panics.rs"]
mod cel_panics;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use kas_crd::cel::{compile, Rule};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

/// The longest an evaluation within the cost limit may take (generous: the machine is
/// shared, and the fuzzer's build is instrumented).
const EVAL_LIMIT: Duration = Duration::from_secs(5);

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "maxLength": 63},
                "replicas": {"type": "integer", "minimum": 0},
                "ratio": {"type": "number"},
                "enabled": {"type": "boolean"},
                "tags": {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 32}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "ports": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string"}, "port": {"type": "integer"}}}},
                "size": {"x-kubernetes-int-or-string": true},
                "created": {"type": "string", "format": "date-time"},
                "timeout": {"type": "string", "format": "duration"},
                "data": {"type": "string", "format": "byte"},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            },
        })
    })
}

fn objects() -> &'static [Value; 2] {
    static OBJECTS: OnceLock<[Value; 2]> = OnceLock::new();
    OBJECTS.get_or_init(|| {
        [
            json!({"name": "web", "replicas": 3, "ratio": 0.5, "enabled": true,
                "tags": ["a", "b"], "labels": {"app": "web"},
                "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
                "size": "10Gi", "created": "2024-01-02T03:04:05Z", "timeout": "1m30s",
                "data": "aGVsbG8=", "extra": {"x": [1, 2, {"y": null}]}}),
            json!({"name": "", "replicas": 0, "tags": [], "labels": {}, "ports": [], "size": 7}),
        ]
    })
}

fuzz_target!(init: cel_panics::tolerate_caught_cel_panics(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (rule, message_expression) = match text.split_once('\0') {
        Some((r, m)) => (r, Some(m.to_owned())),
        None => (text, None),
    };
    for optional_old_self in [false, true] {
        let rules = [Rule {
            rule: rule.to_owned(),
            message_expression: message_expression.clone(),
            optional_old_self,
            ..Default::default()
        }];
        let compiled = match compile(&rules, schema()) {
            Ok(c) => c,
            Err(errors) => {
                assert!(!errors.is_empty());
                for (i, message) in errors {
                    assert_eq!(i, 0);
                    assert!(!message.is_empty(), "a compile error without a message");
                }
                continue;
            }
        };
        let [a, b] = objects();
        for (obj, old) in [(a, None), (a, Some(b)), (b, Some(a))] {
            let start = Instant::now();
            let failures = compiled.evaluate(obj, old);
            let took = start.elapsed();
            assert!(
                took < EVAL_LIMIT,
                "evaluation took {took:?} within the cost limit: {rule:?}"
            );
            for f in failures {
                assert_eq!(f.rule_index, 0);
                assert!(!f.message.is_empty(), "a failure without a message");
            }
        }
    }
});
