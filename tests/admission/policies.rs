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

/// A ValidatingAdmissionPolicy `name` matching `operations` on `resource` of `group`
/// v1, the rest of its spec (`rest`: YAML lines, matchConstraints' or spec's) after that.
fn policy(name: &str, group: &str, resource: &str, operations: &[&str], rest: &str) -> String {
    let operations = operations
        .iter()
        .map(|o| format!("\"{o}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {name}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["{group}"]
      apiVersions: ["v1"]
      operations: [{operations}]
      resources: ["{resource}"]
{rest}"#
    )
}

/// A ValidatingAdmissionPolicyBinding `name` of `policy` with `actions`, then `rest`
/// (YAML lines of its spec).
fn binding(name: &str, policy: &str, actions: &str, rest: &str) -> String {
    format!(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: {name}
spec:
  policyName: {policy}
  validationActions: [{actions}]
{rest}"#
    )
}

/// At most five replicas, on creates and updates of deployments.
fn replica_limit() -> String {
    policy(
        "replica-limit",
        "apps",
        "deployments",
        &["CREATE", "UPDATE"],
        r#"  validations:
  - expression: "object.spec.replicas <= 5"
"#,
    )
}

/// A team label wanted on created deployments (Warn and Audit), the replicas annotated.
fn team_label() -> String {
    let policy = policy(
        "team-label",
        "apps",
        "deployments",
        &["CREATE"],
        r#"  variables:
  - name: labels
    expression: "has(object.metadata.labels) ? object.metadata.labels : {}"
  validations:
  - expression: "'team' in variables.labels"
    messageExpression: "'deployment ' + object.metadata.name + ' has no team label'"
  auditAnnotations:
  - key: replicas
    valueExpression: "string(object.spec.replicas)"
"#,
    );
    let binding = binding("team-label-binding", "team-label", "Warn, Audit", "");
    format!("{policy}---{binding}")
}

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
    let Some((server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["apply", "-f", "-"], &replica_limit());
    k.ok(&[
        "create",
        "deployment",
        "before",
        "--image=nginx",
        "--replicas=6",
    ]);
    k.ok_stdin(
        &["apply", "-f", "-"],
        &binding("replica-limit-binding", "replica-limit", "Deny", ""),
    );
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
    k.ok_stdin(&["apply", "-f", "-"], &team_label());
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

    // kube-apiserver's policy series: each failed validation under each action of its
    // binding (a plain failed expression counts as invalid_error, as upstream has it).
    let text = crate::metrics::scrape(&server).await;
    let checks = |policy: &str, binding: &str, action: &str| {
        crate::metrics::value_with(
            &text,
            "apiserver_validating_admission_policy_check_total",
            &[
                &format!(r#"policy="{policy}""#),
                &format!(r#"policy_binding="{binding}""#),
                r#"error_type="invalid_error""#,
                &format!(r#"enforcement_action="{action}""#),
            ],
        )
    };
    let denials = checks("replica-limit", "replica-limit-binding", "deny");
    assert!(denials.is_some_and(|n| n >= 3.0), "{text}");
    let warned = checks("team-label", "team-label-binding", "warn");
    assert!(warned.is_some_and(|n| n >= 2.0), "{text}");
    assert!(
        text.contains("apiserver_validating_admission_policy_check_duration_seconds_bucket{"),
        "{text}"
    );
}

/// At most `data.max` of the ConfigMap default/limits replicas, outside the sandbox
/// namespace, denied without the ConfigMap.
fn param_limit() -> String {
    let policy = policy(
        "param-limit",
        "apps",
        "deployments",
        &["CREATE", "UPDATE"],
        r#"  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConditions:
  - name: not-sandbox
    expression: "object.metadata.namespace != 'sandbox'"
  validations:
  - expression: "object.spec.replicas <= int(params.data.max)"
    messageExpression: "'replicas must be at most ' + params.data.max"
    reason: Forbidden
"#,
    );
    let binding = binding(
        "param-limit-binding",
        "param-limit",
        "Deny",
        r#"  paramRef:
    name: limits
    namespace: default
    parameterNotFoundAction: Deny
"#,
    );
    format!("{policy}---{binding}")
}

/// A policy on labelled ConfigMaps whose expression fails at run time.
fn runtime_error(name: &str, failure_policy: &str) -> String {
    let policy = policy(
        name,
        "",
        "configmaps",
        &["CREATE"],
        &format!(
            r#"    objectSelector:
      matchLabels:
        test: {name}
  failurePolicy: {failure_policy}
  validations:
  - expression: "object.spec.nope == 1"
"#
        ),
    );
    let binding = binding(name, name, "Deny", "");
    format!("{policy}---{binding}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_conditions_and_failure_policies() {
    let Some((server, k)) = setup().await else {
        return;
    };
    k.ok(&["create", "configmap", "limits", "--from-literal=max=3"]);
    k.ok(&["create", "namespace", "sandbox"]);
    k.ok_stdin(&["apply", "-f", "-"], &param_limit());
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
    // Counted as upstream counts a policy's match conditions: the false one timed (kind
    // policy, type validate), no evaluation error, no exclusion (webhooks only).
    let text = crate::metrics::scrape(&server).await;
    let condition = |series: &str| {
        crate::metrics::value_with(
            &text,
            series,
            &[
                r#"name="param-limit""#,
                r#"kind="policy""#,
                r#"type="validate""#,
                r#"operation="CREATE""#,
            ],
        )
    };
    let timed = condition("apiserver_admission_match_condition_evaluation_seconds_count");
    assert!(timed.is_some_and(|n| n >= 1.0), "{text}");
    assert!(condition("apiserver_admission_match_condition_evaluation_errors_total").is_none());
    assert!(condition("apiserver_admission_match_condition_exclusions_total").is_none());
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
    let broken = replica_limit()
        .replace("replica-limit", "broken")
        .replace("object.spec.replicas <= 5", "object.spec.replicas <=");
    let err = k.fails_stdin(&["apply", "-f", "-"], &broken);
    assert!(
        err.contains("spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": compilation failed: ERROR: <input>:1:"),
        "{err}"
    );
    let err = k.fails_stdin(
        &["apply", "-f", "-"],
        &replica_limit().replace("object.spec.replicas <= 5", "params.max > 1"),
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
