//! End-to-end cases for objects: merging, nulls, `$patch` on objects, `$retainKeys`,
//! field strategies, bad input, and a no-panic sweep over generated patches.

use serde_json::{json, Value};

use crate::testschema::TestSchema;
use crate::{strategic_merge_patch, NoSchema, PatchError};

/// Applies `patch` to `original` with the test schema rooted at `kind`.
pub(crate) fn apply(kind: &str, original: Value, patch: Value) -> Result<Value, PatchError> {
    let out = strategic_merge_patch(&original, &patch, &TestSchema::root(kind))?;
    assert_no_directives(&out);
    Ok(out)
}

/// Like [`apply`], expecting success.
pub(crate) fn ok(kind: &str, original: Value, patch: Value) -> Value {
    match apply(kind, original, patch) {
        Ok(v) => v,
        Err(e) => panic!("patch failed: {e}"),
    }
}

/// Like [`apply`], expecting an error.
pub(crate) fn err(kind: &str, original: Value, patch: Value) -> PatchError {
    match apply(kind, original, patch) {
        Ok(v) => panic!("patch succeeded: {v}"),
        Err(e) => e,
    }
}

fn assert_no_directives(v: &Value) {
    match v {
        Value::Object(map) => {
            for (k, item) in map {
                assert!(
                    !crate::directives::is_directive_key(k),
                    "directive {k} leaked into {v}"
                );
                assert_no_directives(item);
            }
        }
        Value::Array(items) => items.iter().for_each(assert_no_directives),
        _ => {}
    }
}

#[test]
fn maps_merge_and_null_deletes() {
    let original = json!({"metadata": {"name": "p", "labels": {"a": "1", "b": "2"}}});
    let patch = json!({"metadata": {"labels": {"b": null, "c": "3", "zz": null}}});
    assert_eq!(
        ok("Pod", original, patch),
        json!({"metadata": {"name": "p", "labels": {"a": "1", "c": "3"}}})
    );
}

#[test]
fn deleting_every_field_and_adding_one() {
    let out = ok(
        "Widget",
        json!({"name": 1, "value": 1}),
        json!({"other": "a", "name": null, "value": null}),
    );
    assert_eq!(out, json!({"other": "a"}));
}

#[test]
fn new_values_lose_nulls_and_directive_objects() {
    let patch = json!({"spec": {"nodeSelector": {"x": null, "y": "1"},
        "affinity": {"nodeAffinity": {"$patch": "delete"}, "other": {"k": null}}}});
    assert_eq!(
        ok("Pod", json!({"spec": {}}), patch),
        json!({"spec": {"nodeSelector": {"y": "1"}, "affinity": {"other": {}}}})
    );
}

#[test]
fn patch_replace_on_an_object() {
    let original = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
    let patch = json!({"metadata": {"labels": {"$patch": "replace", "c": "3"}}});
    assert_eq!(
        ok("Pod", original, patch),
        json!({"metadata": {"labels": {"c": "3"}}})
    );
}

#[test]
fn patch_delete_on_an_object_empties_it() {
    let original = json!({"metadata": {"labels": {"a": "1"}, "name": "x"}});
    let patch = json!({"metadata": {"labels": {"$patch": "delete", "ignored": "y"}}});
    assert_eq!(
        ok("Pod", original, patch),
        json!({"metadata": {"labels": {}, "name": "x"}})
    );
    assert_eq!(
        ok("Pod", json!({"a": 1}), json!({"$patch": "delete"})),
        json!({})
    );
    assert_eq!(
        ok("Pod", json!({"a": 1}), json!({"$patch": "replace", "b": 2})),
        json!({"b": 2})
    );
}

#[test]
fn unknown_patch_directive_is_an_error() {
    let e = err(
        "Pod",
        json!({"metadata": {"labels": {}}}),
        json!({"metadata": {"labels": {"$patch": "foo", "c": "3"}}}),
    );
    assert_eq!(
        e.to_string(),
        "unknown patch type: foo in map: map[$patch:foo c:3]"
    );
    assert_eq!(e.http_status(), 400);
    let e = err("Pod", json!({}), json!({"$patch": 7}));
    assert_eq!(
        e.to_string(),
        "unknown patch type: %!s(int64=7) in map: map[$patch:7]"
    );
}

#[test]
fn non_object_inputs() {
    let e = strategic_merge_patch(&json!({}), &json!([1]), &NoSchema).unwrap_err();
    assert_eq!(e, PatchError::PatchNotObject { found: "array" });
    assert_eq!(e.http_status(), 400);
    for (p, found) in [
        (json!("x"), "string"),
        (json!(1), "number"),
        (json!(true), "bool"),
    ] {
        assert_eq!(
            strategic_merge_patch(&json!({}), &p, &NoSchema),
            Err(PatchError::PatchNotObject { found })
        );
    }
    assert_eq!(
        strategic_merge_patch(&json!([]), &json!({}), &NoSchema),
        Err(PatchError::BadJsonDocument)
    );
    assert_eq!(
        strategic_merge_patch(&json!({"a": 1}), &Value::Null, &NoSchema),
        Ok(json!({"a": 1}))
    );
    assert_eq!(
        strategic_merge_patch(&Value::Null, &json!({"a": 1}), &NoSchema),
        Ok(json!({"a": 1}))
    );
}

#[test]
fn type_changes_take_the_patch_value() {
    let out = ok(
        "Widget",
        json!({"child": "text", "n": 1, "f": 1.5}),
        json!({"child": {"a": null, "b": 1}, "n": 2.5, "f": 2}),
    );
    assert_eq!(out, json!({"child": {"b": 1}, "n": 2.5, "f": 2}));
    let out = ok("Widget", json!({"child": null}), json!({"child": [1]}));
    assert_eq!(out, json!({"child": [1]}));
}

#[test]
fn replace_strategy_replaces_objects() {
    let out = ok(
        "Widget",
        json!({"fixed": {"a": 1, "b": 2}, "child": {"a": 1, "b": 2}}),
        json!({"fixed": {"a": 3}, "child": {"a": 3}}),
    );
    assert_eq!(out, json!({"fixed": {"a": 3}, "child": {"a": 3, "b": 2}}));
}

#[test]
fn retain_keys_clears_unlisted_fields() {
    let original = json!({"spec": {"replicas": 1, "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}});
    let patch = json!({"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate", "rollingUpdate": null}}});
    assert_eq!(
        ok("Deployment", original, patch),
        json!({"spec": {"replicas": 1, "strategy": {"type": "Recreate"}}})
    );
}

#[test]
fn retain_keys_clears_defaulted_fields() {
    let out = ok(
        "Widget",
        json!({"options": {"value": "foo"}}),
        json!({"options": {"$retainKeys": ["other"], "other": "bar"}}),
    );
    assert_eq!(out, json!({"options": {"other": "bar"}}));
    // Listed but absent keys are kept when the original has them.
    let out = ok(
        "Widget",
        json!({"options": {"value": "foo", "x": 1}}),
        json!({"options": {"$retainKeys": ["other", "value"], "other": "bar"}}),
    );
    assert_eq!(out, json!({"options": {"value": "foo", "other": "bar"}}));
}

#[test]
fn retain_keys_errors() {
    let e = err(
        "Widget",
        json!({"options": {}}),
        json!({"options": {"$retainKeys": ["a"], "b": 1}}),
    );
    assert_eq!(e, PatchError::RetainKeysFormat);
    assert_eq!(
        (e.http_status(), e.to_string().as_str()),
        (400, "invalid patch format of retainKeys")
    );
    let e = err(
        "Widget",
        json!({"options": {}}),
        json!({"options": {"$retainKeys": "a"}}),
    );
    assert_eq!(e, PatchError::RetainKeysFormat);
    // Directives and nulls need not be listed.
    let out = ok(
        "Widget",
        json!({"options": {"tags": ["a"], "b": 1}}),
        json!({"options": {"$retainKeys": ["tags"], "b": null, "$setElementOrder/tags": ["a"]}}),
    );
    assert_eq!(out, json!({"options": {"tags": ["a"]}}));
}

#[test]
fn no_schema_merges_objects_and_replaces_lists() {
    let original = json!({"a": {"x": 1, "y": [1, 2]}, "list": [{"name": "a", "v": 1}]});
    let patch = json!({"a": {"x": null, "z": 2, "y": [3]}, "list": [{"name": "b"}]});
    let out = strategic_merge_patch(&original, &patch, &NoSchema).unwrap();
    assert_eq!(
        out,
        json!({"a": {"z": 2, "y": [3]}, "list": [{"name": "b"}]})
    );
}

#[test]
fn unknown_fields_merge_plainly() {
    let original = json!({"spec": {"mystery": {"a": 1, "l": [1]}}});
    let patch = json!({"spec": {"mystery": {"b": 2, "l": [2]}}});
    assert_eq!(
        ok("Pod", original, patch),
        json!({"spec": {"mystery": {"a": 1, "b": 2, "l": [2]}}})
    );
}

#[test]
fn dollar_keys_that_are_not_directives_are_fields() {
    let out = ok(
        "Widget",
        json!({}),
        json!({"$ref": "x", "child": {"$id": 1}}),
    );
    assert_eq!(out, json!({"$ref": "x", "child": {"$id": 1}}));
}

#[test]
fn malformed_parallel_list_keys() {
    let e = err(
        "Widget",
        json!({"tags": ["a"]}),
        json!({"$deleteFromPrimitiveList": ["a"]}),
    );
    assert_eq!(
        (e.http_status(), e.to_string().as_str()),
        (400, "invalid patch format of primitive list")
    );
    let e = err(
        "Widget",
        json!({"tags": ["a"]}),
        json!({"$setElementOrder": ["a"]}),
    );
    assert_eq!(
        (e.http_status(), e.to_string().as_str()),
        (400, "invalid patch format of setElementOrder list")
    );
    let e = err(
        "Widget",
        json!({"tags": ["a"]}),
        json!({"$setElementOrder/tags": "a"}),
    );
    assert_eq!(
        e.to_string(),
        "expected a []interface {}, but received a string"
    );
}

#[test]
fn bad_schema_markers_surface_when_used() {
    let e = err(
        "Widget",
        json!({"odd": [{"name": "a"}]}),
        json!({"odd": [{"name": "b"}]}),
    );
    assert_eq!(e.to_string(), "unexpected patch strategy: [merge replace]");
    // Not looked up when the original has no value to merge into.
    assert_eq!(
        ok("Widget", json!({}), json!({"odd": [{"name": "b"}]})),
        json!({"odd": [{"name": "b"}]})
    );
}

#[test]
fn originals_are_not_modified() {
    let original = json!({"metadata": {"labels": {"a": "1"}}});
    let patch = json!({"metadata": {"labels": {"a": null}}});
    let before = (original.clone(), patch.clone());
    ok("Pod", original.clone(), patch.clone());
    assert_eq!((original, patch), before);
}

#[test]
fn json_merge_patch_follows_rfc7386() {
    use crate::json_merge_patch;
    let original = json!({"a": "b", "c": {"d": "e", "f": "g"}, "l": [1]});
    let patch = json!({"a": "z", "c": {"f": null}, "l": [2], "n": {"x": null}});
    assert_eq!(
        json_merge_patch(&original, &patch),
        json!({"a": "z", "c": {"d": "e"}, "l": [2], "n": {}})
    );
    assert_eq!(json_merge_patch(&json!({"a": 1}), &json!([1])), json!([1]));
    assert_eq!(
        json_merge_patch(&json!([1]), &json!({"a": 1})),
        json!({"a": 1})
    );
}

/// A small deterministic generator (xorshift) of JSON values built from field names the
/// schemas know, directive keys and odd values.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }

    fn value(&mut self, depth: u32) -> Value {
        const KEYS: &[&str] = &[
            "parts",
            "tags",
            "sizes",
            "items",
            "options",
            "fixed",
            "child",
            "byName",
            "keyless",
            "odd",
            "name",
            "value",
            "$patch",
            "$retainKeys",
            "$setElementOrder/parts",
            "$setElementOrder/tags",
            "$deleteFromPrimitiveList/tags",
            "$deleteFromPrimitiveList/parts",
            "$setElementOrder",
            "$deleteFromPrimitiveList",
            "$setElementOrder/sizes",
            "$setElementOrder/nope",
        ];
        const WORDS: &[&str] = &[
            "replace", "delete", "merge", "a", "b", "name", "tags", "parts",
        ];
        let choice = if depth == 0 {
            self.next() % 5
        } else {
            self.next() % 8
        };
        match choice {
            0 => Value::Null,
            1 => json!(self.next() % 3),
            2 => json!(self.pick(WORDS)),
            3 => json!(self.next() & 1 == 0),
            4 => json!(1.5),
            5 | 6 => {
                let n = self.next() % 4;
                Value::Object(
                    (0..n)
                        .map(|_| (self.pick(KEYS).to_owned(), self.value(depth - 1)))
                        .collect(),
                )
            }
            _ => {
                let n = self.next() % 4;
                Value::Array((0..n).map(|_| self.value(depth - 1)).collect())
            }
        }
    }
}

#[test]
fn generated_patches_never_panic() {
    let mut g = Gen(0x9e37_79b9_7f4a_7c15);
    let schema = TestSchema::root("Widget");
    let mut applied = 0;
    for _ in 0..4000 {
        // Originals come from storage and never hold directives.
        let original = crate::directives::strip(g.value(4));
        let patch = g.value(4);
        if let Ok(out) = strategic_merge_patch(&original, &patch, &schema) {
            assert_no_directives(&out);
            applied += 1;
        }
        let _ = strategic_merge_patch(&original, &patch, &NoSchema);
    }
    assert!(applied > 100, "only {applied} generated patches applied");
}
