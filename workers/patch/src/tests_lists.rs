//! End-to-end cases for lists: merge keys, `$patch` elements, primitive sets,
//! `$deleteFromPrimitiveList`, `$setElementOrder`, and list errors.

use serde_json::{json, Value};

use crate::tests::{err, ok};
use crate::PatchError;

fn pod_spec(spec: Value) -> Value {
    json!({"spec": spec})
}

#[test]
fn containers_merge_by_name() {
    let original =
        pod_spec(json!({"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}));
    let patch = pod_spec(json!({"containers": [{"name": "b", "image": "z"}]}));
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "z"}]}))
    );
}

#[test]
fn env_merges_by_name_inside_a_container() {
    let original = pod_spec(
        json!({"containers": [{"name": "a", "env": [{"name": "X", "value": "1"}, {"name": "Y", "value": "2"}]}]}),
    );
    let patch = pod_spec(
        json!({"containers": [{"name": "a", "env": [{"name": "Y", "value": "3"}, {"name": "Z", "value": "4"}]}]}),
    );
    let env = json!([{"name": "X", "value": "1"}, {"name": "Y", "value": "3"}, {"name": "Z", "value": "4"}]);
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"containers": [{"name": "a", "env": env}]}))
    );
}

#[test]
fn new_items_without_an_order_go_before_server_items() {
    let original = pod_spec(json!({"containers": [{"name": "a"}, {"name": "b"}]}));
    let patch = pod_spec(json!({"containers": [{"name": "c", "image": "i"}]}));
    let out = ok("Pod", original, patch);
    assert_eq!(
        out,
        pod_spec(
            json!({"containers": [{"name": "c", "image": "i"}, {"name": "a"}, {"name": "b"}]})
        )
    );
}

#[test]
fn kubectl_apply_style_order() {
    let original = pod_spec(json!({"containers": [{"name": "a", "image": "x"}]}));
    let patch = pod_spec(json!({
        "$setElementOrder/containers": [{"name": "a"}, {"name": "c"}],
        "containers": [{"name": "c", "image": "i"}]
    }));
    let out = ok("Pod", original, patch);
    assert_eq!(
        out,
        pod_spec(json!({"containers": [{"name": "a", "image": "x"}, {"name": "c", "image": "i"}]}))
    );
}

#[test]
fn ports_merge_by_container_port() {
    let original = pod_spec(
        json!({"containers": [{"name": "a", "ports": [{"containerPort": 80, "name": "http"}]}]}),
    );
    let patch = pod_spec(
        json!({"containers": [{"name": "a", "ports": [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 443}]}]}),
    );
    let ports =
        json!([{"containerPort": 80, "name": "http", "protocol": "TCP"}, {"containerPort": 443}]);
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"containers": [{"name": "a", "ports": ports}]}))
    );
}

#[test]
fn service_ports_and_host_aliases_use_their_keys() {
    let original = json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}, {"port": 81}]}});
    let patch = json!({"spec": {"ports": [{"port": 81, "targetPort": 9090}]}});
    assert_eq!(
        ok("Service", original, patch),
        json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}, {"port": 81, "targetPort": 9090}]}})
    );
    let original = pod_spec(json!({"hostAliases": [{"ip": "10.0.0.1", "hostnames": ["a"]}]}));
    let patch = pod_spec(json!({"hostAliases": [{"ip": "10.0.0.1", "hostnames": ["b"]}]}));
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"hostAliases": [{"ip": "10.0.0.1", "hostnames": ["b"]}]}))
    );
}

#[test]
fn patch_delete_removes_elements() {
    let original = pod_spec(
        json!({"containers": [{"name": "a", "env": [{"name": "X"}, {"name": "Y"}, {"name": "X", "dup": true}]}]}),
    );
    let patch = pod_spec(
        json!({"containers": [{"name": "a", "env": [{"name": "X", "$patch": "delete"}]}]}),
    );
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"containers": [{"name": "a", "env": [{"name": "Y"}]}]}))
    );
}

#[test]
fn patch_replace_inside_a_list_replaces_it() {
    let original = pod_spec(json!({"containers": [{"name": "a"}, {"name": "b"}]}));
    let patch = pod_spec(
        json!({"containers": [{"name": "c", "env": [{"name": "E", "$retainKeys": []}]}, {"$patch": "replace"}]}),
    );
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"containers": [{"name": "c", "env": [{"name": "E"}]}]}))
    );
}

#[test]
fn bad_list_directives() {
    let original = pod_spec(json!({"containers": [{"name": "a"}]}));
    let e = err(
        "Pod",
        original.clone(),
        pod_spec(json!({"containers": [{"name": "a", "$patch": "merge"}]})),
    );
    assert_eq!(
        e.to_string(),
        "merging lists cannot yet be specified in the patch"
    );
    let e = err(
        "Pod",
        original.clone(),
        pod_spec(json!({"containers": [{"name": "a", "$patch": "bogus"}]})),
    );
    assert_eq!(
        e.to_string(),
        "unknown patch type: bogus in map: map[$patch:bogus name:a]"
    );
    let e = err(
        "Pod",
        original,
        pod_spec(json!({"containers": [{"$patch": "delete"}]})),
    );
    assert_eq!(
        e.to_string(),
        "map: map[$patch:delete] does not contain declared merge key: name"
    );
}

#[test]
fn missing_merge_keys() {
    let original = pod_spec(json!({"containers": [{"name": "a"}]}));
    let e = err(
        "Pod",
        original,
        pod_spec(json!({"containers": [{"image": "nginx"}]})),
    );
    assert_eq!(
        e.to_string(),
        "map: map[image:nginx] does not contain declared merge key: name"
    );
    assert_eq!((e.http_status(), e.status_reason()), (400, "BadRequest"));
    let original = pod_spec(json!({"containers": [{"image": "old"}]}));
    let e = err(
        "Pod",
        original,
        pod_spec(json!({"containers": [{"name": "a"}]})),
    );
    assert_eq!(
        e.to_string(),
        "map: map[image:old] does not contain declared merge key: name"
    );
}

#[test]
fn primitive_lists_merge_as_sets() {
    let original = json!({"metadata": {"finalizers": ["a", "b"]}});
    let patch = json!({"metadata": {"finalizers": ["b", "c"]}});
    assert_eq!(
        ok("Pod", original, patch),
        json!({"metadata": {"finalizers": ["a", "b", "c"]}})
    );
}

#[test]
fn delete_from_primitive_list() {
    let original = json!({"metadata": {"finalizers": ["a", "b", "c"]}});
    let patch = json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["b", "zz"]}});
    assert_eq!(
        ok("Pod", original.clone(), patch),
        json!({"metadata": {"finalizers": ["a", "c"]}})
    );
    let patch =
        json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["b"], "finalizers": ["d"]}});
    assert_eq!(
        ok("Pod", original, patch),
        json!({"metadata": {"finalizers": ["d", "a", "c"]}})
    );
    // Nothing to delete from: nothing happens, and the directive does not create the list.
    let patch = json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["b"]}});
    assert_eq!(
        ok("Pod", json!({"metadata": {}}), patch),
        json!({"metadata": {}})
    );
}

#[test]
fn primitive_order_delete_and_add() {
    let original = json!({"tags": ["x", "y", "z"]});
    let patch = json!({"$setElementOrder/tags": ["w", "y", "x"], "tags": ["w"], "$deleteFromPrimitiveList/tags": ["z"]});
    assert_eq!(
        ok("Widget", original, patch),
        json!({"tags": ["w", "y", "x"]})
    );
    let original = json!({"tags": [1, 2]});
    let patch = json!({"$setElementOrder/tags": [1, 2, 3], "tags": [3]});
    assert_eq!(
        ok("Widget", json!({"tags": [1, 2, 4]}), patch.clone()),
        json!({"tags": [1, 2, 3, 4]})
    );
    assert_eq!(ok("Widget", original, patch), json!({"tags": [1, 2, 3]}));
}

#[test]
fn primitive_order_with_server_only_items() {
    let original = json!({"tags": ["p", "q", "s", "u", "t", "r", "v"]});
    let patch = json!({"$setElementOrder/tags": ["q", "p", "v", "r"]});
    assert_eq!(
        ok("Widget", original, patch),
        json!({"tags": ["q", "p", "s", "u", "t", "v", "r"]})
    );
}

#[test]
fn non_merging_lists_are_replaced() {
    let original = pod_spec(
        json!({"tolerations": [{"key": "a"}], "containers": [{"name": "c", "args": ["1", "2"]}]}),
    );
    let patch = pod_spec(
        json!({"tolerations": [{"key": "b", "$patch": "delete"}], "containers": [{"name": "c", "args": ["3"]}]}),
    );
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(
            json!({"tolerations": [{"key": "b"}], "containers": [{"name": "c", "args": ["3"]}]})
        )
    );
    assert_eq!(
        ok("Widget", json!({"sizes": [1, 2]}), json!({"sizes": []})),
        json!({"sizes": []})
    );
}

#[test]
fn empty_patch_list_leaves_a_merging_list_alone() {
    let original = pod_spec(json!({"containers": [{"name": "a"}]}));
    assert_eq!(
        ok("Pod", original.clone(), pod_spec(json!({"containers": []}))),
        original
    );
    let out = ok(
        "Pod",
        pod_spec(json!({"containers": []})),
        pod_spec(json!({"containers": [{"name": "n", "x": null}]})),
    );
    assert_eq!(
        out,
        pod_spec(json!({"containers": [{"name": "n", "x": null}]}))
    );
}

#[test]
fn volumes_with_retain_keys() {
    let original = pod_spec(
        json!({"volumes": [{"name": "v", "emptyDir": {}}, {"name": "w", "secret": {"secretName": "s"}}]}),
    );
    let patch = pod_spec(json!({
        "$setElementOrder/volumes": [{"name": "v"}, {"name": "w"}],
        "volumes": [{"name": "v", "$retainKeys": ["configMap", "name"], "configMap": {"name": "cm"}}]
    }));
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(
            json!({"volumes": [{"name": "v", "configMap": {"name": "cm"}}, {"name": "w", "secret": {"secretName": "s"}}]})
        )
    );
}

fn parts(names: &[(u64, &str)]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|(n, extra)| {
                if extra.is_empty() {
                    json!({"name": n})
                } else {
                    json!({"name": n, "other": extra})
                }
            })
            .collect(),
    )
}

fn order(names: &[u64]) -> Value {
    Value::Array(names.iter().map(|n| json!({"name": n})).collect())
}

#[test]
fn element_order_cases() {
    // Added item placed per the order.
    let current = json!({"parts": parts(&[(1, "a"), (2, "b")])});
    let patch =
        json!({"$setElementOrder/parts": order(&[3, 1, 2]), "parts": [{"name": 3, "value": 3}]});
    let out = ok("Widget", current.clone(), patch);
    assert_eq!(
        out,
        json!({"parts": [{"name": 3, "value": 3}, {"name": 1, "other": "a"}, {"name": 2, "other": "b"}]})
    );
    // Several added items interleaved.
    let patch = json!({"$setElementOrder/parts": order(&[1, 4, 2, 3]), "parts": [{"name": 4}, {"name": 3}]});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"parts": [{"name": 1, "other": "a"}, {"name": 4}, {"name": 2, "other": "b"}, {"name": 3}]})
    );
    // Deletion plus reorder.
    let current = json!({"parts": parts(&[(1, "a"), (2, "b"), (3, "c")])});
    let patch = json!({"$setElementOrder/parts": order(&[2, 1]), "parts": [{"name": 3, "$patch": "delete"}]});
    assert_eq!(
        ok("Widget", current.clone(), patch),
        json!({"parts": parts(&[(2, "b"), (1, "a")])})
    );
    // Change plus reorder.
    let patch =
        json!({"$setElementOrder/parts": order(&[2, 3, 1]), "parts": [{"name": 3, "other": "x"}]});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"parts": parts(&[(2, "b"), (3, "x"), (1, "a")])})
    );
}

#[test]
fn element_order_with_server_only_items() {
    let current = json!({"parts": parts(&[(1, ""), (3, ""), (4, ""), (2, ""), (9, "s")])});
    let patch = json!({"$setElementOrder/parts": order(&[4, 2, 3, 1])});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"parts": parts(&[(4, ""), (2, ""), (3, ""), (1, ""), (9, "s")])})
    );
    let current = json!({"parts": parts(&[(1, ""), (2, ""), (7, "s"), (9, "s"), (8, "s"), (3, ""), (4, "")])});
    let patch = json!({"$setElementOrder/parts": order(&[2, 1, 4, 3])});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"parts": parts(&[(2, ""), (1, ""), (7, "s"), (9, "s"), (8, "s"), (4, ""), (3, "")])})
    );
}

#[test]
fn element_order_with_duplicates() {
    let current = json!({"parts": parts(&[(1, ""), (2, "d1"), (3, ""), (2, "d2"), (4, "")])});
    let patch = json!({"$setElementOrder/parts": order(&[2, 1, 4, 3, 2])});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"parts": parts(&[(2, "d1"), (2, "d2"), (1, ""), (4, ""), (3, "")])})
    );
    let patch = json!({"$setElementOrder/tags": [2, 1, 4, 3, 2]});
    assert_eq!(
        ok("Widget", json!({"tags": [1, 2, 3, 2, 4]}), patch),
        json!({"tags": [2, 2, 1, 4, 3]})
    );
}

#[test]
fn element_order_for_a_new_list_drops_directive_items() {
    let patch = pod_spec(json!({
        "$setElementOrder/containers": [{"name": "b"}, {"name": "a"}],
        "containers": [{"name": "b", "env": [{"name": "x", "$patch": "delete"}]}, {"name": "z", "$patch": "delete"}, {"name": "a"}]
    }));
    let out = ok("Pod", pod_spec(json!({})), patch);
    assert_eq!(
        out,
        pod_spec(json!({"containers": [{"name": "b", "env": []}, {"name": "a"}]}))
    );
}

#[test]
fn element_order_must_agree_with_the_patch_list() {
    let current = json!({"parts": parts(&[(1, "")])});
    let patch = json!({"$setElementOrder/parts": order(&[1]), "parts": [{"name": 5}]});
    let e = err("Widget", current.clone(), patch);
    assert_eq!(e.to_string(), "the order in patch list:\n[map[name:5]]\n doesn't match $setElementOrder list:\n[map[name:1]]");
    let patch = json!({"$setElementOrder/parts": [{"id": 1}], "parts": [{"name": 1}]});
    let e = err("Widget", current, patch);
    assert_eq!(
        e.to_string(),
        "map: map[id:1] does not contain declared merge key: name"
    );
}

#[test]
fn list_errors() {
    assert_eq!(
        err("Widget", json!({"tags": []}), json!({"tags": [[1]]})),
        PatchError::ListOfLists
    );
    assert_eq!(
        err("Widget", json!({"tags": []}), json!({"tags": [[1]]})).http_status(),
        422
    );
    let e = err("Widget", json!({"tags": ["a"]}), json!({"tags": [1]}));
    assert_eq!(
        e.to_string(),
        "list element types are not identical: [[a] [1]]"
    );
    assert_eq!((e.http_status(), e.status_reason()), (400, "BadRequest"));
    let e = err(
        "Widget",
        json!({"keyless": [{"a": 1}]}),
        json!({"keyless": [{"a": 2}]}),
    );
    assert_eq!(e.to_string(), "cannot merge lists without merge key");
    let e = err(
        "Widget",
        json!({"parts": [{"name": 1}]}),
        json!({"parts": ["x"]}),
    );
    assert!(
        e.to_string()
            .starts_with("list element types are not identical"),
        "{e}"
    );
}

#[test]
fn new_elements_lose_directives() {
    let original = pod_spec(json!({"containers": [{"name": "a"}]}));
    let patch = pod_spec(json!({
        "$setElementOrder/containers": [{"name": "a"}, {"name": "n"}],
        "containers": [{"name": "n", "$retainKeys": ["name", "env"], "$setElementOrder/env": [{"name": "E"}], "env": [{"name": "E", "$patch": "delete"}]}]
    }));
    assert_eq!(
        ok("Pod", original, patch),
        pod_spec(json!({"containers": [{"name": "a"}, {"name": "n", "env": [{"name": "E"}]}]}))
    );
}

#[test]
fn duplicate_patch_elements_merge_together() {
    let out = ok(
        "Widget",
        json!({"parts": []}),
        json!({"parts": [{"name": "a", "v": 1}, {"name": "a", "w": 2}]}),
    );
    assert_eq!(out, json!({"parts": [{"name": "a", "v": 1, "w": 2}]}));
}

#[test]
fn map_values_use_their_type() {
    let original = json!({"byName": {"k": {"parts": [{"name": "a", "v": 1}]}}});
    let patch = json!({"byName": {"k": {"parts": [{"name": "a", "w": 2}]}}});
    assert_eq!(
        ok("Widget", original, patch),
        json!({"byName": {"k": {"parts": [{"name": "a", "v": 1, "w": 2}]}}})
    );
}

#[test]
fn deployment_template_containers() {
    let original = json!({"spec": {"replicas": 2, "template": {"metadata": {"labels": {"app": "x"}},
        "spec": {"containers": [{"name": "app", "image": "nginx:1", "ports": [{"containerPort": 80}]}]}}}});
    let patch = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "app", "image": "nginx:2"}]}}}});
    let out = ok("Deployment", original, patch);
    assert_eq!(
        out,
        json!({"spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "x"}},
            "spec": {"containers": [{"name": "app", "image": "nginx:2", "ports": [{"containerPort": 80}]}]}}}})
    );
}

#[test]
fn retain_keys_with_nested_primitive_directives() {
    let current = json!({"options": {"name": "foo", "value": "v", "tags": [1, 2, 3, 4]}});
    let patch = json!({"options": {"$retainKeys": ["tags", "name"], "tags": [5],
        "$deleteFromPrimitiveList/tags": [2], "$setElementOrder/tags": [1, 3, 5]}});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"options": {"name": "foo", "tags": [1, 3, 5, 4]}})
    );
    let current = json!({"options": {"name": "foo", "tags": [1, 2, 3]}});
    let patch = json!({"options": {"$retainKeys": ["tags", "name", "value"], "$setElementOrder/tags": [1, 2], "value": "bar"}});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"options": {"name": "foo", "value": "bar", "tags": [1, 2, 3]}})
    );
}

#[test]
fn retain_keys_with_nested_merging_list() {
    let current =
        json!({"options": {"name": "foo", "parts": [{"name": "a"}, {"name": "b"}, {"name": "x"}]}});
    let patch = json!({"options": {"$retainKeys": ["parts", "name"],
        "$setElementOrder/parts": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "parts": [{"name": "c"}]}});
    assert_eq!(
        ok("Widget", current.clone(), patch),
        json!({"options": {"name": "foo", "parts": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "x"}]}})
    );
    let patch = json!({"options": {"$retainKeys": ["parts", "name"],
        "$setElementOrder/parts": [{"name": "a"}], "parts": [{"name": "b", "$patch": "delete"}]}});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"options": {"name": "foo", "parts": [{"name": "a"}, {"name": "x"}]}})
    );
}

#[test]
fn two_lists_reordered_in_one_patch() {
    let current = json!({"parts": [{"name": "a"}, {"name": "b"}], "child": {"parts": [{"name": "c"}, {"name": "d"}]},
        "tags": ["c", "d"]});
    let patch = json!({"$setElementOrder/parts": [{"name": "b"}], "parts": [{"name": "a", "$patch": "delete"}],
        "$setElementOrder/tags": ["d", "c"], "child": {"$setElementOrder/parts": [{"name": "d"}, {"name": "c"}]}});
    assert_eq!(
        ok("Widget", current, patch),
        json!({"parts": [{"name": "b"}], "child": {"parts": [{"name": "d"}, {"name": "c"}]}, "tags": ["d", "c"]})
    );
}

#[test]
fn large_lists_stay_fast() {
    let n = 20_000u64;
    let current: Vec<Value> = (0..n).map(|i| json!({"name": i, "v": i})).collect();
    let additions: Vec<Value> = (n..n + n / 2).map(|i| json!({"name": i})).collect();
    let deletions: Vec<Value> = (0..n / 4)
        .map(|i| json!({"name": i, "$patch": "delete"}))
        .collect();
    let order: Vec<Value> = (n / 4..n + n / 2)
        .rev()
        .map(|i| json!({"name": i}))
        .collect();
    let mut items = additions;
    items.reverse();
    items.extend(deletions);
    let patch = json!({"$setElementOrder/parts": order, "parts": items});
    let started = std::time::Instant::now();
    let out = ok("Widget", json!({"parts": current}), patch);
    let parts = out["parts"].as_array().map(Vec::len);
    assert_eq!(parts, Some((n + n / 2 - n / 4) as usize));
    assert_eq!(out["parts"][0], json!({"name": n + n / 2 - 1}));
    // Items missing from an (empty) order list take the replayed-sort path.
    let fresh: Vec<Value> = (0..n).map(|i| json!({"name": i})).collect();
    let out = ok(
        "Widget",
        json!({}),
        json!({"$setElementOrder/parts": [], "parts": fresh}),
    );
    assert_eq!(out["parts"].as_array().map(Vec::len), Some(n as usize));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}
