//! Scenarios checked against what kube-apiserver 1.33 answers for the same writes.

use serde_json::{json, Value};

use crate::{ApplyError, FieldManager, OpenApi, Set};

fn deployment_schema() -> Value {
    let labels = json!({"type": "object", "additionalProperties": {"type": "string"}});
    let port = json!({"type": "object", "properties": {
        "containerPort": {"type": "integer"},
        "protocol": {"type": "string", "default": "TCP"}}});
    let container = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "image": {"type": "string"},
        "args": {"type": "array", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["containerPort", "protocol"], "items": port}}});
    let pod_spec = json!({"type": "object", "properties": {
        "containers": {"type": "array", "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"], "items": container}}});
    let template = json!({"type": "object", "properties": {
        "metadata": {"type": "object", "properties": {
            "labels": labels, "creationTimestamp": {"type": "string"}}},
        "spec": pod_spec}});
    let metadata = json!({"type": "object", "properties": {
        "name": {"type": "string"}, "namespace": {"type": "string"},
        "uid": {"type": "string"}, "resourceVersion": {"type": "string"},
        "creationTimestamp": {"type": "string"}, "generation": {"type": "integer"},
        "labels": labels, "annotations": labels,
        "finalizers": {"type": "array", "items": {"type": "string"},
            "x-kubernetes-list-type": "set"},
        "managedFields": {"type": "array", "items": {"type": "object",
            "x-kubernetes-preserve-unknown-fields": true}}}});
    json!({"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "metadata": metadata,
        "spec": {"type": "object", "properties": {
            "replicas": {"type": "integer"},
            "selector": {"type": "object", "x-kubernetes-map-type": "atomic",
                "properties": {"matchLabels": labels}},
            "template": template}},
        "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}})
}

fn empty() -> Value {
    json!({"metadata": {"creationTimestamp": null}, "spec": {"selector": null,
        "template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": null}}},
        "status": {}})
}

fn with<'a>(schema: &'a OpenApi<'a>, reset: &'a Set) -> FieldManager<'a, OpenApi<'a>> {
    FieldManager {
        schema,
        api_version: "apps/v1",
        kind: "Deployment",
        subresource: "",
        reset,
    }
}

fn config(replicas: i64, image: &str) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "nginx", "image": image,
                    "ports": [{"containerPort": 80}]}]}}}})
}

fn stored(mut v: Value) -> Value {
    v["metadata"]["uid"] = json!("u1");
    v["metadata"]["creationTimestamp"] = json!("2024-01-01T00:00:00Z");
    v
}

fn entry<'a>(obj: &'a Value, manager: &str) -> &'a Value {
    obj["metadata"]["managedFields"]
        .as_array()
        .and_then(|a| a.iter().find(|e| e["manager"] == manager))
        .unwrap_or_else(|| panic!("no entry for {manager} in {obj}"))
}

#[test]
fn a_create_records_what_upstream_records() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let mut new = stored(config(2, "nginx:1"));
    new["apiVersion"] = json!("apps/v1");
    with(&schema, &reset).update(
        None,
        &empty(),
        &mut new,
        "kubectl-create",
        "2024-01-01T00:00:00Z",
    );
    let e = entry(&new, "kubectl-create");
    assert_eq!(e["operation"], "Update");
    assert_eq!(e["apiVersion"], "apps/v1");
    assert_eq!(
        e["fieldsV1"],
        json!({
            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:replicas": {}, "f:selector": {},
                "f:template": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                    "f:spec": {"f:containers": {"k:{\"name\":\"nginx\"}": {
                        ".": {}, "f:image": {}, "f:name": {},
                        "f:ports": {".": {}, "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {
                            ".": {}, "f:containerPort": {}}}}}}}}
        })
    );
}

#[test]
fn apply_owns_its_fields_and_conflicts_with_an_updater() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let fm = with(&schema, &reset);
    let applied = fm
        .apply(
            None,
            &empty(),
            &config(2, "nginx:1"),
            "kubectl",
            false,
            "t1",
        )
        .unwrap();
    let applied = stored(applied);
    let e = entry(&applied, "kubectl");
    assert_eq!(e["operation"], "Apply");
    assert_eq!(
        applied["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        e["fieldsV1"]["f:metadata"],
        json!({"f:labels": {"f:app": {}}})
    );
    // Another manager scales the deployment with an update.
    let mut scaled = applied.clone();
    scaled["spec"]["replicas"] = json!(5);
    fm.update(Some(&applied), &empty(), &mut scaled, "hpa", "t2");
    assert_eq!(
        entry(&scaled, "hpa")["fieldsV1"],
        json!({"f:spec": {"f:replicas": {}}})
    );
    assert!(entry(&scaled, "kubectl")["fieldsV1"]["f:spec"]
        .get("f:replicas")
        .is_none());
    // Applying replicas 2 again conflicts with hpa's.
    let err = fm
        .apply(
            Some(&scaled),
            &empty(),
            &config(2, "nginx:1"),
            "kubectl",
            false,
            "t3",
        )
        .unwrap_err();
    assert_eq!(
        err,
        ApplyError::Conflict {
            message:
                "Apply failed with 1 conflict: conflict with \"hpa\" using apps/v1: .spec.replicas"
                    .into(),
            causes: vec![(
                ".spec.replicas".into(),
                "conflict with \"hpa\" using apps/v1".into()
            )],
        }
    );
    // Applying the same value as the live object is no conflict; forcing takes the field.
    let same = fm
        .apply(
            Some(&scaled),
            &empty(),
            &config(5, "nginx:1"),
            "kubectl",
            false,
            "t3",
        )
        .unwrap();
    assert_eq!(same["spec"]["replicas"], 5);
    let forced = fm
        .apply(
            Some(&scaled),
            &empty(),
            &config(3, "nginx:2"),
            "kubectl",
            true,
            "t3",
        )
        .unwrap();
    assert_eq!(forced["spec"]["replicas"], 3);
    assert_eq!(
        forced["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:2"
    );
    assert!(forced["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["manager"] != "hpa"));
}

#[test]
fn fields_no_longer_applied_are_removed_unless_someone_else_owns_them() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let fm = with(&schema, &reset);
    let mut c = config(2, "nginx:1");
    c["metadata"]["labels"]["tier"] = json!("front");
    c["spec"]["template"]["spec"]["containers"][0]["args"] = json!(["-v"]);
    let live = stored(
        fm.apply(None, &empty(), &c, "kubectl", false, "t1")
            .unwrap(),
    );
    // Someone else adds an annotation and a second container.
    let mut edited = live.clone();
    edited["metadata"]["annotations"] = json!({"note": "x"});
    edited["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "sidecar", "image": "busybox"}));
    fm.update(Some(&live), &empty(), &mut edited, "editor", "t2");
    // The applier drops its tier label and args.
    let next = fm
        .apply(
            Some(&edited),
            &empty(),
            &config(2, "nginx:1"),
            "kubectl",
            false,
            "t3",
        )
        .unwrap();
    assert_eq!(next["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(next["metadata"]["annotations"], json!({"note": "x"}));
    let containers = next["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap();
    assert_eq!(containers.len(), 2);
    assert!(containers[0].get("args").is_none());
    assert_eq!(containers[1]["name"], "sidecar");
    // A field the editor also set survives the applier dropping it.
    let mut both = c.clone();
    both["metadata"]["labels"]["tier"] = json!("front");
    let l2 = stored(
        fm.apply(Some(&next), &empty(), &both, "kubectl", false, "t4")
            .unwrap(),
    );
    let mut e2 = l2.clone();
    e2["metadata"]["labels"]["owner"] = json!("me");
    fm.update(Some(&l2), &empty(), &mut e2, "editor", "t5");
    let mut e3 = e2.clone();
    e3["metadata"]["labels"]["tier"] = json!("front");
    let shared = fm
        .apply(
            Some(&e3),
            &empty(),
            &config(2, "nginx:1"),
            "other",
            false,
            "t6",
        )
        .unwrap();
    assert_eq!(shared["metadata"]["labels"]["tier"], "front");
}

#[test]
fn bad_configurations_are_refused_as_upstream_refuses_them() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let fm = with(&schema, &reset);
    let mut c = config(2, "nginx:1");
    c["spec"]["bogus"] = json!(1);
    c["spec"]["replicas"] = json!("two");
    assert_eq!(
        fm.apply(None, &empty(), &c, "kubectl", false, "t").unwrap_err(),
        ApplyError::Typed(
            "failed to create typed patch object (/web; apps/v1, Kind=Deployment): errors:\n  .spec.bogus: field not declared in schema\n  .spec.replicas: expected numeric (int or float), got string".into()
        )
    );
    let mut c = config(2, "nginx:1");
    c["kind"] = json!("StatefulSet");
    assert_eq!(
        fm.apply(None, &empty(), &c, "kubectl", false, "t")
            .unwrap_err(),
        ApplyError::BadRequest("invalid object type: apps/v1, Kind=StatefulSet".into())
    );
    let mut c = config(2, "nginx:1");
    c["metadata"]["managedFields"] = json!([]);
    assert_eq!(
        fm.apply(None, &empty(), &c, "kubectl", false, "t")
            .unwrap_err(),
        ApplyError::BadRequest("metadata.managedFields must be nil".into())
    );
    let mut c = config(2, "nginx:1");
    c["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "nginx"}));
    assert!(matches!(
        fm.apply(None, &empty(), &c, "kubectl", false, "t").unwrap_err(),
        ApplyError::Typed(m) if m.ends_with(".spec.template.spec.containers: duplicate entries for key [name=\"nginx\"]")
    ));
}

#[test]
fn the_first_apply_over_an_untracked_object_keeps_the_old_fields_apart() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let fm = with(&schema, &reset);
    let live = stored(config(2, "nginx:1"));
    let out = fm
        .apply(
            Some(&live),
            &empty(),
            &config(2, "nginx:1"),
            "kubectl",
            false,
            "t",
        )
        .unwrap();
    let before = entry(&out, "before-first-apply");
    assert_eq!(before["operation"], "Update");
    // Same values: both own them (shared ownership), as upstream.
    assert!(before["fieldsV1"]["f:spec"].get("f:replicas").is_some());
    assert!(entry(&out, "kubectl")["fieldsV1"]["f:spec"]
        .get("f:replicas")
        .is_some());
}

#[test]
fn more_than_ten_update_managers_fold_into_ancient_changes() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let fm = with(&schema, &reset);
    let mut live = stored(config(2, "nginx:1"));
    fm.update(None, &empty(), &mut live, "creator", "2024-01-01T00:00:00Z");
    for i in 0..11 {
        let mut next = live.clone();
        next["metadata"]["labels"][format!("l{i}")] = json!("x");
        fm.update(
            Some(&live),
            &empty(),
            &mut next,
            &format!("m{i:02}"),
            &format!("2024-01-01T00:00:{:02}Z", i + 1),
        );
        live = next;
    }
    let entries = live["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(entries.len(), 10);
    let ancient = entry(&live, "ancient-changes");
    assert!(ancient["fieldsV1"]["f:spec"].get("f:replicas").is_some());
    assert!(ancient["fieldsV1"]["f:metadata"]["f:labels"]
        .get("f:l0")
        .is_some());
}

#[test]
fn kubectl_takes_over_what_its_client_side_apply_set() {
    let s = deployment_schema();
    let schema = OpenApi(&s);
    let reset = Set::new();
    let fm = with(&schema, &reset);
    let last = config(2, "nginx:1");
    let mut created = stored(config(2, "nginx:1"));
    created["metadata"]["annotations"] = json!({
        "kubectl.kubernetes.io/last-applied-configuration": format!("{last}\n")
    });
    fm.update(
        None,
        &empty(),
        &mut created,
        "kubectl-client-side-apply",
        "t1",
    );
    // The same manifest with a new image, applied server-side by kubectl: no conflicts.
    let out = fm
        .apply(
            Some(&created),
            &empty(),
            &config(2, "nginx:2"),
            "kubectl",
            false,
            "t2",
        )
        .unwrap();
    assert_eq!(
        out["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:2"
    );
    let annotation = out["metadata"]["annotations"]
        ["kubectl.kubernetes.io/last-applied-configuration"]
        .as_str()
        .unwrap();
    assert!(annotation.ends_with("}\n"));
    let kept: Value = serde_json::from_str(annotation).unwrap();
    assert_eq!(kept, config(2, "nginx:2"));
    // Another manager for the same apply still conflicts.
    assert!(matches!(
        fm.apply(
            Some(&created),
            &empty(),
            &config(2, "nginx:2"),
            "ci",
            false,
            "t2"
        ),
        Err(ApplyError::Conflict { .. })
    ));
    // A field someone changed since the client-side apply still conflicts for kubectl.
    let mut scaled = created.clone();
    scaled["spec"]["replicas"] = json!(5);
    fm.update(
        Some(&created),
        &empty(),
        &mut scaled,
        "kubectl-client-side-apply",
        "t3",
    );
    let err = fm
        .apply(
            Some(&scaled),
            &empty(),
            &config(2, "nginx:2"),
            "kubectl",
            false,
            "t4",
        )
        .unwrap_err();
    assert!(
        matches!(&err, ApplyError::Conflict { message, .. } if message.ends_with(".spec.replicas")),
        "{err:?}"
    );
}
