//! `matchPolicy: Equivalent` with conversion, through kubectl: a Widget CRD whose v1
//! (storage) has `spec.size` and whose v2 has `spec.length`, converted by a webhook; an
//! admission webhook registered for v1 only is sent a v2 write as v1 (the object
//! converted, `kind`/`resource` v1, `requestKind`/`requestResource` v2), an Exact one
//! is not called, and a mutating webhook's v1 patch reaches the stored v2 object.

use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

use super::super::harness::https::ReviewWebhook;
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};

/// A Widget's spec in `version`: v1 `{size}`, v2 `{length}`.
fn convert_spec(spec: &Value, version: &str) -> Value {
    match version {
        "v2" => json!({"length": spec["size"]}),
        _ => json!({"size": spec["length"]}),
    }
}

/// The ConversionReview answer to `review`.
fn converted(review: &Value) -> Value {
    let request = &review["request"];
    let desired = request["desiredAPIVersion"].as_str().unwrap_or("");
    let version = desired.rsplit('/').next().unwrap_or("");
    let objects: Vec<Value> = request["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| {
            let mut out = o.clone();
            let from = o["apiVersion"].as_str().unwrap_or("");
            if from != desired {
                out["apiVersion"] = json!(desired);
                out["spec"] = convert_spec(&o["spec"], version);
            }
            out
        })
        .collect();
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
           "response": {"uid": request["uid"], "result": {"status": "Success"},
                        "convertedObjects": objects}})
}

/// The AdmissionReview answer of `path`: `/validate` refuses a v1 `spec.size` over 10
/// (it reads only v1's field), `/exact` refuses everything, `/mutate` sets `spec.size`.
fn admitted(path: &str, review: &Value) -> Value {
    let request = &review["request"];
    let mut response = json!({"uid": request["uid"], "allowed": true});
    match path {
        "/validate" if request["object"]["spec"]["size"].as_i64() > Some(10) => {
            response["allowed"] = json!(false);
            response["status"] = json!({"message": "size over 10"});
        }
        "/exact" => {
            response["allowed"] = json!(false);
            response["status"] = json!({"message": "exact refuses"});
        }
        "/mutate" => {
            let patch = json!([{"op": "replace", "path": "/spec/size", "value": 7}]);
            response["patch"] = json!(base64::engine::general_purpose::STANDARD
                .encode(serde_json::to_vec(&patch).unwrap_or_default()));
            response["patchType"] = json!("JSONPatch");
        }
        _ => {}
    }
    json!({"apiVersion": review["apiVersion"], "kind": "AdmissionReview", "response": response})
}

fn crd(url: &str, ca: &str) -> String {
    let schema = |field: &str| {
        json!({"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {field: {"type": "integer"}}}}}})
    };
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.equiv.example.com"},
        "spec": {
            "group": "equiv.example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": schema("size")},
                {"name": "v2", "served": true, "storage": false, "schema": schema("length")},
            ],
            "conversion": {"strategy": "Webhook", "webhook": {
                "clientConfig": {"url": url, "caBundle": ca},
                "conversionReviewVersions": ["v1"]}},
        },
    })
    .to_string()
}

/// A webhook for CREATE of v1 widgets at `path`.
fn hook(name: &str, url: &str, ca: &str, policy: &str) -> Value {
    json!({
        "name": name,
        "clientConfig": {"url": url, "caBundle": ca},
        "rules": [{"operations": ["CREATE"], "apiGroups": ["equiv.example.com"],
                   "apiVersions": ["v1"], "resources": ["widgets"]}],
        "matchPolicy": policy,
        "sideEffects": "None",
        "admissionReviewVersions": ["v1"],
    })
}

fn widget(version: &str, name: &str, field: &str, value: i64) -> String {
    json!({"apiVersion": format!("equiv.example.com/{version}"), "kind": "Widget",
           "metadata": {"name": name, "namespace": "default"},
           "spec": {field: value}})
    .to_string()
}

/// Runs `create` until it fails (the configuration is in force), for at most 5 s.
fn until_refused(k: &Kubectl, manifest: &str) -> String {
    let start = Instant::now();
    loop {
        let out = k.run_stdin(&["create", "--dry-run=server", "-f", "-"], manifest);
        if !out.status.success() {
            return String::from_utf8_lossy(&out.stderr).into_owned();
        }
        assert!(start.elapsed() < Duration::from_secs(5), "never refused");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spec_of(k: &Kubectl, resource: &str, name: &str) -> Value {
    let out = k.ok(&["get", resource, name, "-o", "json"]);
    let obj: Value = serde_json::from_str(&out).unwrap_or_default();
    obj["spec"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn equivalent_webhooks_see_the_version_they_registered_for() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let webhook = ReviewWebhook::start(|path, review| async move {
        match path.as_str() {
            "/convert" => converted(&review),
            _ => admitted(&path, &review),
        }
    })
    .await;
    let ca = webhook.ca_bundle();
    k.ok_stdin(&["apply", "-f", "-"], &crd(&webhook.url("/convert"), &ca));
    k.wait_established("widgets.equiv.example.com");

    let config = json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingWebhookConfiguration", "metadata": {"name": "equiv"},
        "webhooks": [hook("equivalent.example.com", &webhook.url("/validate"), &ca, "Equivalent"),
                     hook("exact.example.com", &webhook.url("/exact"), &ca, "Exact")]});
    k.ok_stdin(&["create", "-f", "-"], &config.to_string());

    // A v1 create meets the Exact webhook; a v2 create does not, and reaches the
    // Equivalent one as v1.
    let refused = until_refused(&k, &widget("v1", "probe", "size", 1));
    assert!(
        refused
            .contains("admission webhook \"exact.example.com\" denied the request: exact refuses"),
        "{refused}"
    );
    k.ok_stdin(&["create", "-f", "-"], &widget("v2", "a", "length", 3));
    assert!(
        webhook
            .reviews("/exact")
            .iter()
            .all(|(_, r)| r["request"]["name"] != "a"),
        "the Exact webhook is not called for v2"
    );
    let (_, review) = webhook
        .reviews("/validate")
        .into_iter()
        .find(|(_, r)| r["request"]["name"] == "a")
        .expect("the Equivalent webhook was called for a v2 create");
    let req = &review["request"];
    assert_eq!(
        req["kind"],
        json!({"group": "equiv.example.com", "version": "v1", "kind": "Widget"})
    );
    assert_eq!(
        req["resource"],
        json!({"group": "equiv.example.com", "version": "v1", "resource": "widgets"})
    );
    assert_eq!(
        req["requestKind"],
        json!({"group": "equiv.example.com", "version": "v2", "kind": "Widget"})
    );
    assert_eq!(
        req["requestResource"],
        json!({"group": "equiv.example.com", "version": "v2", "resource": "widgets"})
    );
    assert_eq!(req["object"]["apiVersion"], "equiv.example.com/v1");
    assert_eq!(req["object"]["spec"], json!({"size": 3}));

    // The webhook judges the converted field.
    let err = k.fails_stdin(&["create", "-f", "-"], &widget("v2", "big", "length", 20));
    assert!(
        err.contains(
            "admission webhook \"equivalent.example.com\" denied the request: size over 10"
        ),
        "{err}"
    );

    // A mutating webhook registered for v1 patches v1's field; the v2 write stores it.
    k.ok(&["delete", "validatingwebhookconfiguration", "equiv"]);
    let config = json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "MutatingWebhookConfiguration", "metadata": {"name": "equiv"},
        "webhooks": [hook("mutate.example.com", &webhook.url("/mutate"), &ca, "Equivalent")]});
    k.ok_stdin(&["create", "-f", "-"], &config.to_string());
    let start = Instant::now();
    loop {
        let out = k.ok_stdin(
            &["create", "--dry-run=server", "-o", "json", "-f", "-"],
            &widget("v2", "probe", "length", 1),
        );
        let obj: Value = serde_json::from_str(&out).unwrap_or_default();
        if obj["spec"] == json!({"length": 7}) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "never mutated: {out}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    k.ok_stdin(&["create", "-f", "-"], &widget("v2", "m", "length", 1));
    assert_eq!(
        spec_of(&k, "widgets.v2.equiv.example.com", "m"),
        json!({"length": 7})
    );
    assert_eq!(
        spec_of(&k, "widgets.v1.equiv.example.com", "m"),
        json!({"size": 7})
    );
    let (_, review) = webhook
        .reviews("/mutate")
        .into_iter()
        .find(|(_, r)| r["request"]["name"] == "m")
        .expect("the mutating webhook was called");
    assert_eq!(review["request"]["object"]["spec"], json!({"size": 1}));
    assert_eq!(review["request"]["requestKind"]["version"], "v2");

    // A ValidatingAdmissionPolicy matching v1 only sees a v2 write as v1: v1's field
    // is there (an unconverted object would fail on the missing field).
    k.ok(&["delete", "mutatingwebhookconfiguration", "equiv"]);
    let policy = json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy", "metadata": {"name": "small"},
        "spec": {"failurePolicy": "Fail", "matchConstraints": {"resourceRules": [
            {"operations": ["CREATE"], "apiGroups": ["equiv.example.com"],
             "apiVersions": ["v1"], "resources": ["widgets"]}]},
          "validations": [{"expression": "object.spec.size <= 10 && request.requestKind.version == 'v2' && request.kind.version == 'v1'"}]}});
    let binding = json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": "small"},
        "spec": {"policyName": "small", "validationActions": ["Deny"]}});
    k.ok_stdin(&["create", "-f", "-"], &policy.to_string());
    k.ok_stdin(&["create", "-f", "-"], &binding.to_string());
    let refused = until_refused(&k, &widget("v2", "big", "length", 20));
    assert!(
        refused.contains("failed expression: object.spec.size <= 10"),
        "{refused}"
    );
    k.ok_stdin(&["create", "-f", "-"], &widget("v2", "small", "length", 3));
}
