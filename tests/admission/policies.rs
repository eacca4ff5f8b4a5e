//! ValidatingAdmissionPolicy through kubectl: a policy and its binding refuse (Deny),
//! warn (Warn) or only record (Audit) what their CEL validations reject, within about
//! a second of being written; params from a ConfigMap; messageExpression and reason;
//! a matchCondition leaving a namespace out; failurePolicy Fail and Ignore on a runtime
//! error; expressions that do not compile refused at create; the status written.

use std::time::{Duration, Instant};

use super::super::harness::kubectl::Kubectl;
use super::super::setup;

const DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: NAME
spec:
  replicas: REPLICAS
  selector:
    matchLabels: {app: NAME}
  template:
    metadata:
      labels: {app: NAME}
    spec:
      containers:
      - name: c
        image: nginx
"#;

const REPLICA_LIMIT: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
"#;

const REPLICA_LIMIT_BINDING: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-binding
spec:
  policyName: replica-limit
  validationActions: [Deny]
"#;

const TEAM_LABEL: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: team-label
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  variables:
  - name: labels
    expression: "has(object.metadata.labels) ? object.metadata.labels : {}"
  validations:
  - expression: "'team' in variables.labels"
    messageExpression: "'deployment ' + object.metadata.name + ' has no team label'"
  auditAnnotations:
  - key: replicas
    valueExpression: "string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: team-label-binding
spec:
  policyName: team-label
  validationActions: [Warn, Audit]
"#;

/// Runs kubectl until `done` holds for (success, stdout, stderr), up to 10 s.
fn poll(k: &Kubectl, args: &[&str], done: impl Fn(bool, &str, &str) -> bool) -> (String, Duration) {
    poll_stdin(k, args, None, done)
}

/// [`poll`] with `input` on stdin.
fn poll_stdin(
    k: &Kubectl,
    args: &[&str],
    input: Option<&str>,
    done: impl Fn(bool, &str, &str) -> bool,
) -> (String, Duration) {
    let start = Instant::now();
    loop {
        let out = match input {
            Some(i) => k.run_stdin(args, i),
            None => k.run(args),
        };
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        if done(out.status.success(), &stdout, &stderr) {
            return (format!("{stdout}{stderr}"), start.elapsed());
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "kubectl {args:?} never got there: {stdout}{stderr}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny_warn_and_audit() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["apply", "-f", "-"], REPLICA_LIMIT);
    k.ok(&[
        "create",
        "deployment",
        "before",
        "--image=nginx",
        "--replicas=6",
    ]);
    k.ok_stdin(&["apply", "-f", "-"], REPLICA_LIMIT_BINDING);
    let written = Instant::now();
    let big = DEPLOYMENT.replace("NAME", "big").replace("REPLICAS", "6");
    let create = ["create", "-f", "-", "--dry-run=server"];
    let (err, _) = poll_stdin(&k, &create, Some(&big), |ok, _, _| !ok);
    let took = written.elapsed();
    eprintln!("the binding took effect within {took:?} (kubectl calls included)");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert!(
        err.contains(
            "The deployments \"big\" is invalid: : ValidatingAdmissionPolicy 'replica-limit' \
             with binding 'replica-limit-binding' denied request: failed expression: \
             object.spec.replicas <= 5"
        ),
        "{err}"
    );
    let err = k.fails(&[
        "create",
        "deployment",
        "big",
        "--image=nginx",
        "--replicas=6",
    ]);
    assert!(
        err.contains(
            "error: failed to create deployment: deployments.apps \"big\" is forbidden: \
             ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' \
             denied request: failed expression: object.spec.replicas <= 5"
        ),
        "{err}"
    );
    k.ok(&[
        "create",
        "deployment",
        "small",
        "--image=nginx",
        "--replicas=3",
    ]);
    // Updates are checked too.
    let err = k.fails(&[
        "patch",
        "deployment",
        "small",
        "--type=merge",
        "-p",
        r#"{"spec":{"replicas":7}}"#,
    ]);
    assert!(err.contains("denied request: failed expression"), "{err}");
    let code = k.run(&[
        "create",
        "deployment",
        "big",
        "--image=nginx",
        "--replicas=6",
        "-v=6",
    ]);
    let log = String::from_utf8_lossy(&code.stderr);
    assert!(log.contains("422 Unprocessable Entity"), "{log}");

    // Warn and Audit: the write goes through, with a warning.
    k.ok_stdin(&["apply", "-f", "-"], TEAM_LABEL);
    let warning = "Warning: Validation failed for ValidatingAdmissionPolicy 'team-label' with \
                   binding 'team-label-binding': deployment web has no team label";
    let args = [
        "create",
        "deployment",
        "web",
        "--image=nginx",
        "--replicas=2",
        "--dry-run=server",
    ];
    poll(&k, &args, |ok, _, err| ok && err.contains(warning));
    let out = k.run(&[
        "create",
        "deployment",
        "web",
        "--image=nginx",
        "--replicas=2",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(warning));
    // A labelled one passes silently.
    let out = k.run(&[
        "create",
        "deployment",
        "labelled",
        "--image=nginx",
        "--dry-run=server",
        "-o",
        "name",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(warning.replace("web", "labelled").as_str())
    );

    // The binding gone, the limit is gone (within about a second again).
    k.ok(&[
        "delete",
        "validatingadmissionpolicybinding",
        "replica-limit-binding",
    ]);
    let (_, took) = poll_stdin(&k, &create, Some(&big), |ok, _, _| ok);
    assert!(took < Duration::from_millis(1500), "{took:?}");
}

const PARAM_LIMIT: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: param-limit
spec:
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  matchConditions:
  - name: not-sandbox
    expression: "object.metadata.namespace != 'sandbox'"
  validations:
  - expression: "object.spec.replicas <= int(params.data.max)"
    messageExpression: "'replicas must be at most ' + params.data.max"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: param-limit-binding
spec:
  policyName: param-limit
  validationActions: [Deny]
  paramRef:
    name: limits
    namespace: default
    parameterNotFoundAction: Deny
"#;

/// A policy on labelled ConfigMaps whose expression fails at run time.
fn runtime_error(name: &str, failure_policy: &str) -> String {
    format!(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {name}
spec:
  failurePolicy: {failure_policy}
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
    objectSelector:
      matchLabels:
        test: {name}
  validations:
  - expression: "object.spec.nope == 1"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: {name}
spec:
  policyName: {name}
  validationActions: [Deny]
"#
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_conditions_and_failure_policies() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok(&["create", "configmap", "limits", "--from-literal=max=3"]);
    k.ok(&["create", "namespace", "sandbox"]);
    k.ok_stdin(&["apply", "-f", "-"], PARAM_LIMIT);
    let create = [
        "create",
        "deployment",
        "d4",
        "--image=nginx",
        "--replicas=4",
        "--dry-run=server",
    ];
    let (err, _) = poll(&k, &create, |ok, _, _| !ok);
    assert!(
        err.contains(
            "error: failed to create deployment: deployments.apps \"d4\" is forbidden: \
             ValidatingAdmissionPolicy 'param-limit' with binding 'param-limit-binding' denied \
             request: replicas must be at most 3"
        ),
        "{err}"
    );
    // The match condition leaves the sandbox out.
    k.ok(&[
        "create",
        "deployment",
        "d4",
        "--image=nginx",
        "--replicas=4",
        "-n",
        "sandbox",
    ]);
    // A new limit in the ConfigMap applies at once.
    k.ok(&[
        "patch",
        "configmap",
        "limits",
        "-p",
        r#"{"data":{"max":"5"}}"#,
    ]);
    poll(&k, &create, |ok, _, _| ok);
    // No params, parameterNotFoundAction Deny.
    k.ok(&["delete", "configmap", "limits"]);
    let (err, _) = poll(&k, &create, |ok, _, _| !ok);
    assert!(
        err.contains(
            "ValidatingAdmissionPolicy 'param-limit' with binding 'param-limit-binding' denied \
             request: failed to configure binding: no params found for policy binding with \
             `Deny` parameterNotFoundAction"
        ),
        "{err}"
    );

    // A runtime error: refused under Fail, let through under Ignore.
    k.ok_stdin(&["apply", "-f", "-"], &runtime_error("fails", "Fail"));
    k.ok_stdin(&["apply", "-f", "-"], &runtime_error("ignores", "Ignore"));
    let labelled = |name: &str| {
        format!("{{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"{name}\",\"labels\":{{\"test\":\"{name}\"}}}}}}")
    };
    let start = Instant::now();
    let err = loop {
        let out = k.run_stdin(&["create", "-f", "-"], &labelled("fails"));
        if !out.status.success() {
            break String::from_utf8_lossy(&out.stderr).into_owned();
        }
        k.ok(&["delete", "configmap", "fails"]);
        assert!(start.elapsed() < Duration::from_secs(10), "never refused");
    };
    assert!(
        err.contains(
            "ValidatingAdmissionPolicy 'fails' with binding 'fails' denied request: expression \
             'object.spec.nope == 1' resulted in error: no such key: spec"
        ),
        "{err}"
    );
    k.ok_stdin(&["create", "-f", "-"], &labelled("ignores"));

    // An expression that does not compile is refused at create.
    let broken = REPLICA_LIMIT
        .replace("replica-limit", "broken")
        .replace("object.spec.replicas <= 5", "object.spec.replicas <=");
    let err = k.fails_stdin(&["apply", "-f", "-"], &broken);
    assert!(
        err.contains("spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": compilation failed: ERROR: <input>:1:"),
        "{err}"
    );
    let err = k.fails_stdin(
        &["apply", "-f", "-"],
        &REPLICA_LIMIT.replace("object.spec.replicas <= 5", "params.max > 1"),
    );
    assert!(err.contains("undeclared reference to 'params'"), "{err}");

    // The status: the generation observed, nothing to warn about.
    poll(
        &k,
        &[
            "get",
            "validatingadmissionpolicy",
            "param-limit",
            "-o",
            "jsonpath={.status.observedGeneration}",
        ],
        |ok, out, _| ok && out == "1",
    );
}
