//! Tests of `limit_ranger`.

use super::*;

fn limit_range(limits: Value) -> Vec<Item> {
    items(&json!({"spec": {"limits": limits}}))
}

#[test]
fn limit_range_defaults() {
    let items = limit_range(json!([
        {"type": "Container", "max": {"cpu": "2", "memory": "1Gi"}, "default": {"cpu": "1"}, "min": {"ephemeral-storage": "1Mi"}},
    ]));
    let item = &items[0];
    assert_eq!(item.default["cpu"].to_string(), "1");
    assert_eq!(item.default["memory"].to_string(), "1Gi");
    assert_eq!(item.default_request["cpu"].to_string(), "1");
    assert_eq!(item.default_request["memory"].to_string(), "1Gi");
    assert_eq!(item.default_request["ephemeral-storage"].to_string(), "1Mi");
    // Only Container items get defaults.
    let pod_item = &limit_range(json!([{"type": "Pod", "max": {"cpu": "2"}}]))[0];
    assert!(pod_item.default.is_empty());
}

#[test]
fn defaults_and_annotation() {
    let items = limit_range(json!([
        {"type": "Container", "default": {"cpu": "500m", "memory": "256Mi"}, "defaultRequest": {"cpu": "0.1", "memory": "128Mi"}},
    ]));
    let mut pod = json!({"metadata": {"name": "p"}, "spec": {
        "initContainers": [{"name": "init"}],
        "containers": [
            {"name": "a"},
            {"name": "b", "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "1", "memory": "1Gi"}}},
        ],
    }});
    default_pod(&mut pod, &items);
    assert_eq!(
        pod["spec"]["containers"][0]["resources"],
        json!({"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"cpu": "500m", "memory": "256Mi"}})
    );
    assert_eq!(
        pod["spec"]["containers"][1]["resources"],
        json!({"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "1", "memory": "256Mi"}})
    );
    assert_eq!(
            pod["metadata"]["annotations"][ANNOTATION],
            "LimitRanger plugin set: cpu, memory request for container a; cpu, memory limit for container a; memory limit for container b; cpu, memory request for init container init; cpu, memory limit for init container init"
        );
    // Nothing to set: no annotation, no empty maps.
    let mut full = json!({"metadata": {}, "spec": {"containers": [{"name": "x", "resources": {"limits": {"cpu": "1", "memory": "1"}, "requests": {"cpu": "1", "memory": "1"}}}]}});
    let before = full.clone();
    default_pod(&mut full, &items);
    assert_eq!(full, before);
}

#[test]
fn container_constraints() {
    let items = limit_range(json!([
        {"type": "Container", "max": {"cpu": "1"}, "min": {"memory": "64Mi"}, "maxLimitRequestRatio": {"cpu": "2"}},
    ]));
    let pod = |res: Value| json!({"spec": {"containers": [{"name": "c", "resources": res}]}});
    let ok = pod(
        json!({"limits": {"cpu": "1", "memory": "128Mi"}, "requests": {"cpu": "500m", "memory": "64Mi"}}),
    );
    assert!(validate_pod(&ok, &items).is_empty());
    let over = pod(
        json!({"limits": {"cpu": "2", "memory": "128Mi"}, "requests": {"cpu": "2", "memory": "64Mi"}}),
    );
    assert_eq!(
        validate_pod(&over, &items),
        ["maximum cpu usage per Container is 1, but limit is 2"]
    );
    let many = pod(json!({"limits": {"cpu": "1"}, "requests": {"cpu": "250m", "memory": "32Mi"}}));
    let errs = validate_pod(&many, &items);
    assert_eq!(
            aggregate(&errs),
            "[minimum memory usage per Container is 64Mi, but request is 32Mi, cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000]"
        );
    let none = pod(json!({}));
    assert_eq!(
            validate_pod(&none, &items),
            [
                "minimum memory usage per Container is 64Mi.  No request is specified",
                "maximum cpu usage per Container is 1.  No limit is specified",
                "cpu max limit to request ratio per Container is 2, but no request is specified or request is 0",
            ]
        );
}

#[test]
fn pod_totals_and_claims() {
    let items = limit_range(json!([{"type": "Pod", "max": {"cpu": "1"}}]));
    let pod = json!({"spec": {
        "initContainers": [
            {"name": "sidecar", "restartPolicy": "Always", "resources": {"limits": {"cpu": "300m"}}},
            {"name": "init", "resources": {"limits": {"cpu": "900m"}}},
        ],
        "containers": [
            {"name": "a", "resources": {"limits": {"cpu": "400m"}}},
            {"name": "b", "resources": {"limits": {"cpu": "200m"}}},
        ],
    }});
    // Sum 900m, but the init container needs 900m + the sidecar's 300m.
    assert_eq!(pod_total(&pod, "limits")["cpu"].to_string(), "1200m");
    assert_eq!(
        validate_pod(&pod, &items),
        ["maximum cpu usage per Pod is 1, but limit is 1200m"]
    );

    let items = limit_range(
        json!([{"type": "PersistentVolumeClaim", "min": {"storage": "1Gi"}, "max": {"storage": "10Gi"}}]),
    );
    let claim = |s: &str| json!({"spec": {"resources": {"requests": {"storage": s}}}});
    assert!(validate_claim(&claim("5Gi"), &items).is_empty());
    assert_eq!(
        validate_claim(&claim("20Gi"), &items),
        ["maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi"]
    );
    assert_eq!(
        validate_claim(&claim("500Mi"), &items),
        ["minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi"]
    );
}
