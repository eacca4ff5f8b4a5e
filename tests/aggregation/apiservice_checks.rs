//! What APIService writes must pass: upstream's validation (422s with field causes) and
//! the admission chain.

use std::time::{Duration, Instant};

use super::super::setup;
use super::apiservices::REMOTE;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_apiservices_get_upstreams_422s() {
    let Some((server, k)) = setup().await else {
        return;
    };
    let bad = |name: &str, spec: &str| {
        let doc = format!(
            "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {{name: \"{name}\"}}\nspec: {spec}\n"
        );
        k.fails_stdin(&["create", "-f", "-"], &doc)
    };
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "v1.other.example.com",
            "{group: wardle.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10}",
            &["The APIService \"v1.other.example.com\" is invalid: metadata.name: Invalid value: \"v1.other.example.com\": must be `spec.version+\".\"+spec.group`: \"v1.wardle.example.com\""],
        ),
        (
            "v1.wardle.example.com",
            "{group: wardle.example.com, version: v1, groupPriorityMinimum: 0, versionPriority: 1001}",
            &[
                "* spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
                "* spec.versionPriority: Invalid value: 1001: must be positive and less than 1000",
            ],
        ),
        (
            "v1.wardle.example.com",
            "{group: wardle.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10, service: {namespace: a, name: b}, caBundle: AAECAwQ=, insecureSkipTLSVerify: true}",
            &["spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present"],
        ),
        (
            "v1.wardle.example.com",
            "{group: wardle.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10, caBundle: AAECAwQ=}",
            &["spec.caBundle: Invalid value: \"5 bytes\": local APIServices may not have a caBundle"],
        ),
        (
            "v1.wardle.example.com",
            "{group: wardle.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10, service: {namespace: a, name: b, port: 70000}}",
            &["spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive"],
        ),
        (
            "v2.",
            "{version: v2, groupPriorityMinimum: 100, versionPriority: 10}",
            &["spec.group: Required value: only v1 may have an empty group and it better be legacy kube"],
        ),
    ];
    for (name, spec, wanted) in cases {
        let err = bad(name, spec);
        for w in *wanted {
            assert!(err.contains(w), "{name} {spec}: {w:?} missing from:\n{err}");
        }
    }
    // The 422 itself: Invalid, the group-qualified kind, one cause per field.
    let doc = br#"{"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1.x.example.com"},"spec":{"group":"y.example.com","version":"v1","groupPriorityMinimum":1,"versionPriority":0}}"#;
    let r = server
        .request(
            http::Method::POST,
            "/apis/apiregistration.k8s.io/v1/apiservices",
            doc,
            true,
            false,
        )
        .await
        .expect("POST");
    assert_eq!(r.status, 422, "{}", r.text());
    let status = r.json();
    assert_eq!(status["reason"], "Invalid");
    assert_eq!(status["details"]["group"], "apiregistration.k8s.io");
    assert_eq!(status["details"]["kind"], "APIService");
    let fields: Vec<&str> = status["details"]["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .filter_map(|c| c["field"].as_str())
        .collect();
    assert_eq!(fields, ["metadata.name", "spec.versionPriority"]);
    assert!(status["message"].as_str().is_some_and(|m| m.starts_with(
        "APIService.apiregistration.k8s.io \"v1.x.example.com\" is invalid: [metadata.name: "
    )));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_apiservice_writes_pass_admission() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(
        &["apply", "-f", "-"],
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: low-versions
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apiregistration.k8s.io"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["apiservices"]
  validations:
  - expression: "object.spec.versionPriority <= 500"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: low-versions
spec:
  policyName: low-versions
  validationActions: [Deny]
"#,
    );
    let high = REMOTE.replace("versionPriority: 15", "versionPriority: 600");
    // The policy reaches the aggregator by watch: poll with a dry run until it holds.
    let start = Instant::now();
    let err = loop {
        let out = k.run_stdin(&["create", "-f", "-", "--dry-run=server"], &high);
        if !out.status.success() {
            break String::from_utf8_lossy(&out.stderr).into_owned();
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "policy never applied"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        err.contains(
            "ValidatingAdmissionPolicy 'low-versions' with binding 'low-versions' denied \
             request: failed expression: object.spec.versionPriority <= 500"
        ),
        "{err}"
    );
    k.ok_stdin(&["create", "-f", "-"], REMOTE);
}
