//! Robustness: random JSON through every entry point must never panic.

use crate::*;
use serde_json::{json, Map, Value};

/// A small deterministic generator (no dependency needed).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() as usize) % xs.len()]
    }
    fn value(&mut self, depth: u32) -> Value {
        const KEYS: &[&str] = &[
            "type",
            "properties",
            "items",
            "additionalProperties",
            "required",
            "enum",
            "default",
            "nullable",
            "format",
            "pattern",
            "maxLength",
            "minimum",
            "maximum",
            "multipleOf",
            "anyOf",
            "allOf",
            "oneOf",
            "not",
            "x-kubernetes-list-type",
            "x-kubernetes-list-map-keys",
            "x-kubernetes-map-type",
            "x-kubernetes-int-or-string",
            "x-kubernetes-preserve-unknown-fields",
            "x-kubernetes-embedded-resource",
            "x-kubernetes-validations",
            "rule",
            "metadata",
            "spec",
            "name",
            "a",
            "b",
            "apiVersion",
            "kind",
            "maxItems",
            "minProperties",
            "fieldPath",
        ];
        const STRS: &[&str] = &[
            "object",
            "array",
            "string",
            "integer",
            "number",
            "boolean",
            "map",
            "set",
            "atomic",
            "date-time",
            "+0é00",
            "2024-01-01T00:00:00+0é00",
            "(",
            ".a",
            "self.a > 0",
            "",
            "é",
            "[0]",
        ];
        match (self.next() % if depth == 0 { 5 } else { 8 }, depth) {
            (0, _) => Value::Null,
            (1, _) => Value::Bool(self.next() & 1 == 0),
            (2, _) => json!(self.next() as i64 - (1 << 30)),
            (3, _) => json!((self.next() as f64) / 7.0),
            (4, _) => Value::String(self.pick(STRS).to_string()),
            (5, d) => Value::Array((0..self.next() % 4).map(|_| self.value(d - 1)).collect()),
            (_, d) => {
                let mut m = Map::new();
                for _ in 0..self.next() % 6 {
                    let k = self.pick(KEYS).to_string();
                    m.insert(k, self.value(d - 1));
                }
                Value::Object(m)
            }
        }
    }
}

#[test]
fn random_input_never_panics() {
    let mut g = Gen(42);
    for _ in 0..5000 {
        let schema = g.value(5);
        let mut obj = g.value(5);
        let old = g.value(4);
        let mut out = Vec::new();
        crate::validate::validate_value(&schema, &obj, "", &mut out);
        if let Ok(s) = Structural::from_json(&schema) {
            let _ = validate_object(&s, &obj, Some(&old));
            let _ = prune(&s, &mut obj);
            default(&s, &mut obj);
        }
        let crd = json!({"metadata": {"name": "a.b.c"}, "spec": {"group": "b.c", "scope": "Cluster",
            "names": {"plural": "a", "singular": "a", "kind": "A", "listKind": "AList"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                          "schema": {"openAPIV3Schema": schema}}, old]}});
        let _ = validate_crd(&crd, Some(&crd));
        let _ = non_structural_schema_message(&crd);
    }
}
