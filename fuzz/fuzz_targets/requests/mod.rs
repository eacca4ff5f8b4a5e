//! What the request-decoder targets share: the built-in resources they decode bodies
//! and apply patches as, a stored object of each, and the check that a refusal is the
//! client's error (a 4xx `Status`), never the server's (500).
#![allow(dead_code)]

use kas_server::rest::Resource;
use kas_server::status::Status;
use serde_json::{json, Value};

/// (group, version, plural, singular, kind, OpenAPI definition).
const KINDS: &[(&str, &str, &str, &str, &str, &str)] = &[
    ("", "v1", "pods", "pod", "Pod", "io.k8s.api.core.v1.Pod"),
    (
        "apps",
        "v1",
        "deployments",
        "deployment",
        "Deployment",
        "io.k8s.api.apps.v1.Deployment",
    ),
    (
        "",
        "v1",
        "services",
        "service",
        "Service",
        "io.k8s.api.core.v1.Service",
    ),
    (
        "",
        "v1",
        "configmaps",
        "configmap",
        "ConfigMap",
        "io.k8s.api.core.v1.ConfigMap",
    ),
    (
        "batch",
        "v1",
        "cronjobs",
        "cronjob",
        "CronJob",
        "io.k8s.api.batch.v1.CronJob",
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "clusterroles",
        "clusterrole",
        "ClusterRole",
        "io.k8s.api.rbac.v1.ClusterRole",
    ),
];

fn make(i: usize) -> Resource {
    let (group, version, plural, singular, kind, def) = KINDS[i % KINDS.len()];
    Resource::new(group, version, plural, singular, kind).definition(def)
}

/// The resource a body names by `kind` (a Pod when it names none of ours), so mutated
/// kubectl bodies are decoded as their own type.
pub fn resource_for(body: &[u8]) -> Resource {
    let kind = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|v| v.get("kind").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default();
    let i = KINDS.iter().position(|k| k.4 == kind).unwrap_or(0);
    make(i)
}

/// Every resource with a stored object of it, as the patch handler reads it.
pub fn stored_objects() -> Vec<(Resource, Value)> {
    let meta = |name: &str| {
        json!({"name": name, "namespace": "default", "uid": "6f1c1a5e-1b2f-4c1e-9d7e-1a2b3c4d5e6f",
            "resourceVersion": "42", "creationTimestamp": "2026-01-02T03:04:05Z",
            "labels": {"app": "web"}, "annotations": {"note": "x"}, "finalizers": ["example.com/keep"]})
    };
    let pod_spec = json!({
        "containers": [{"name": "nginx", "image": "nginx:1.27",
            "ports": [{"containerPort": 80, "protocol": "TCP"}],
            "env": [{"name": "A", "value": "1"}],
            "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}}}],
        "volumes": [{"name": "data", "emptyDir": {}}],
        "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}]});
    vec![
        (
            make(0),
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta("web-0"),
            "spec": pod_spec.clone(), "status": {"phase": "Pending"}}),
        ),
        (
            make(1),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta("web"),
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod_spec}}}),
        ),
        (
            make(2),
            json!({"apiVersion": "v1", "kind": "Service", "metadata": meta("web"),
            "spec": {"selector": {"app": "web"}, "clusterIP": "10.0.0.10",
                "ports": [{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}]}}),
        ),
        (
            make(3),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("cfg"),
            "data": {"a": "1", "b": "2"}}),
        ),
    ]
}

/// A refusal of client input must be a 4xx `Status`.
pub fn assert_client_error(status: &Status, what: &str) {
    let code = status.code().as_u16();
    assert!(
        (400..500).contains(&code),
        "{what}: refused with {code}: {status:?}"
    );
}

