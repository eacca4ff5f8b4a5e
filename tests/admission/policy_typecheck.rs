//! `status.typeChecking` of ValidatingAdmissionPolicies, through kubectl: a policy on
//! Deployments with a mistyped field and a string compared with an int gets both
//! warnings (cel-go's words) under the right fieldRefs, a correct one gets none, and a
//! policy matching a custom resource is checked against the CRD's schema.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::super::harness::kubectl::Kubectl;
use super::super::setup;

fn policy(name: &str, group: &str, resource: &str, validations: Value) -> String {
    json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy", "metadata": {"name": name},
        "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": [group],
            "apiVersions": ["v1"], "operations": ["CREATE"], "resources": [resource]}]},
          "validations": validations}})
    .to_string()
}

/// The policy's status once observedGeneration is 1 (at most 10 s).
fn status(k: &Kubectl, name: &str) -> Value {
    let start = Instant::now();
    loop {
        let out = k.ok(&["get", "validatingadmissionpolicy", name, "-o", "json"]);
        let obj: Value = serde_json::from_str(&out).unwrap_or_default();
        if obj["status"]["observedGeneration"] == 1 {
            return obj["status"].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no status: {out}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn type_checking_fills_the_status() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(
        &["create", "-f", "-"],
        &policy(
            "typos",
            "apps",
            "deployments",
            json!([{"expression": "object.spec.replicas <= 5"},
                   {"expression": "object.spec.replicaz > 1"},
                   {"expression": "object.metadata.name > 5",
                    "messageExpression": "'name ' + object.metadata.name"}]),
        ),
    );
    let s = status(&k, "typos");
    let warnings = s["typeChecking"]["expressionWarnings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(warnings.len(), 2, "{s}");
    assert_eq!(warnings[0]["fieldRef"], "spec.validations[1].expression");
    assert_eq!(
        warnings[0]["warning"],
        "apps/v1, Kind=Deployment: compilation failed: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz > 1\n | ...........^\n"
    );
    assert_eq!(warnings[1]["fieldRef"], "spec.validations[2].expression");
    assert_eq!(
        warnings[1]["warning"],
        "apps/v1, Kind=Deployment: compilation failed: ERROR: <input>:1:22: found no matching overload for '_>_' applied to '(string, int)'\n | object.metadata.name > 5\n | .....................^\n"
    );

    k.ok_stdin(
        &["create", "-f", "-"],
        &policy(
            "fine",
            "apps",
            "deployments",
            json!([{"expression": "object.spec.replicas <= 5 && object.spec.template.spec.containers.all(c, c.image != '')",
                    "messageExpression": "'too many: ' + string(object.spec.replicas)"}]),
        ),
    );
    assert_eq!(status(&k, "fine")["typeChecking"], json!({}));

    // A custom resource: its CRD's schema decides.
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "gizmos.typed.example.com"},
        "spec": {"group": "typed.example.com", "scope": "Namespaced",
            "names": {"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "size": {"type": "integer"},
                        "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}}]}});
    k.ok_stdin(&["create", "-f", "-"], &crd.to_string());
    k.wait_established("gizmos.typed.example.com");
    k.ok_stdin(
        &["create", "-f", "-"],
        &policy(
            "gizmo-sizes",
            "typed.example.com",
            "gizmos",
            json!([{"expression": "object.spec.size < 10 && object.spec.extra.whatever == 1"},
                   {"expression": "object.spec.sise < 10"},
                   {"expression": "object.spec.size == 'big'"}]),
        ),
    );
    let s = status(&k, "gizmo-sizes");
    let warnings = s["typeChecking"]["expressionWarnings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(warnings.len(), 2, "{s}");
    assert_eq!(warnings[0]["fieldRef"], "spec.validations[1].expression");
    assert!(
        warnings[0]["warning"].as_str().is_some_and(|w| w.starts_with(
            "typed.example.com/v1, Kind=Gizmo: compilation failed: ERROR: <input>:1:12: undefined field 'sise'"
        )),
        "{s}"
    );
    assert_eq!(warnings[1]["fieldRef"], "spec.validations[2].expression");
    assert!(
        warnings[1]["warning"].as_str().is_some_and(
            |w| w.contains("found no matching overload for '_==_' applied to '(int, string)'")
        ),
        "{s}"
    );
}
