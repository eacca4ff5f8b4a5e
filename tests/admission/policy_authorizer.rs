//! `authorizer` in ValidatingAdmissionPolicy expressions, through kubectl: a policy
//! refuses a ConfigMap labelled `guard: <name>` unless the requesting user may update
//! the Deployment of that name, as the worker's authorizer chain (RBAC) decides for the
//! admin and for a user the admin impersonates (`--as`); `authorizer.requestResource`,
//! `reason()`, `errored()` and `authorizer.serviceAccount` answer too.

use std::time::{Duration, Instant};

use super::super::harness::kubectl::Kubectl;
use super::super::setup;

const POLICY: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: guarded
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  variables:
  - name: guard
    expression: "has(object.metadata.labels) && 'guard' in object.metadata.labels ? object.metadata.labels['guard'] : ''"
  validations:
  - expression: "variables.guard == '' || authorizer.group('apps').resource('deployments').namespace(object.metadata.namespace).name(variables.guard).check('update').allowed()"
    messageExpression: "'may not update deployment ' + variables.guard"
  - expression: "authorizer.requestResource.check('create').allowed() && !authorizer.requestResource.check('create').errored()"
  - expression: "object.metadata.name != 'robot' || authorizer.serviceAccount('default', 'robot').group('').resource('configmaps').namespace('default').check('delete').allowed()"
    messageExpression: "'robot may not delete configmaps'"
  auditAnnotations:
  - key: reason
    valueExpression: "authorizer.requestResource.check('create').reason()"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: guarded
spec:
  policyName: guarded
  validationActions: [Deny]
"#;

/// Alice may create ConfigMaps and update the Deployment `web` only.
const ALICE: &str = r#"
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: alice
  namespace: default
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["create"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  resourceNames: ["web"]
  verbs: ["update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: alice
  namespace: default
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: alice
subjects:
- kind: User
  name: alice
"#;

fn configmap(name: &str, guard: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: default\n  labels:\n    guard: {guard}\n"
    )
}

/// Creates `manifest` (as `user`, when given); Ok(stdout) or Err(stderr).
fn create(k: &Kubectl, user: Option<&str>, manifest: &str) -> Result<String, String> {
    let mut args = vec!["create", "-f", "-"];
    let as_user = user.map(|u| format!("--as={u}"));
    if let Some(a) = &as_user {
        args.push(a);
    }
    let out = k.run_stdin(&args, manifest);
    match out.status.success() {
        true => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorizer_checks_decide_for_the_requesting_user() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["apply", "-f", "-"], ALICE);
    k.ok_stdin(&["create", "-f", "-"], POLICY);
    // In force once a guard alice may not update is refused.
    let start = Instant::now();
    let refused = loop {
        let dry = k.run_stdin(
            &["create", "--as=alice", "--dry-run=server", "-f", "-"],
            &configmap("probe", "db"),
        );
        if !dry.status.success() {
            break String::from_utf8_lossy(&dry.stderr).into_owned();
        }
        assert!(start.elapsed() < Duration::from_secs(10), "never in force");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        refused.contains(
            "The configmaps \"probe\" is invalid: : ValidatingAdmissionPolicy 'guarded' with binding 'guarded' denied request: may not update deployment db"
        ),
        "{refused}"
    );
    // Alice may update `web`, not `db`; the admin may update both.
    create(&k, Some("alice"), &configmap("alice-web", "web")).expect("alice guards web");
    let err = create(&k, Some("alice"), &configmap("alice-db", "db")).expect_err("not db");
    assert!(err.contains("may not update deployment db"), "{err}");
    create(&k, None, &configmap("admin-db", "db")).expect("the admin guards db");

    // The service account `robot` may not delete ConfigMaps until a binding says so.
    let err = create(&k, None, &configmap("robot", "web")).expect_err("robot");
    assert!(err.contains("robot may not delete configmaps"), "{err}");
    k.ok(&[
        "create",
        "rolebinding",
        "robot-edit",
        "--clusterrole=edit",
        "--serviceaccount=default:robot",
    ]);
    let start = Instant::now();
    while create(&k, None, &configmap("robot", "web")).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "robot never allowed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // An expression with three checks is over the cost limit, as upstream's.
    let costly = POLICY.replace(
        "variables.guard == '' || authorizer",
        "authorizer.path('/a').check('get').allowed() || authorizer.path('/b').check('get').allowed() || authorizer",
    )
    .replace("name: guarded", "name: costly")
    .replace("policyName: guarded", "policyName: costly");
    k.ok_stdin(&["create", "-f", "-"], &costly);
    let start = Instant::now();
    let err = loop {
        match create(&k, None, &configmap("costly", "web")) {
            Err(e) if e.contains("costly") => break e,
            Err(e) => panic!("{e}"),
            Ok(_) => {
                k.ok(&["delete", "configmap", "costly"]);
                assert!(start.elapsed() < Duration::from_secs(10), "never in force");
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    };
    assert!(err.contains("actual cost limit exceeded"), "{err}");
}

const WIDGETS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              guard: {type: string}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: guarded-widgets
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["example.com"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["widgets"]
  validations:
  - expression: "authorizer.group('apps').resource('deployments').namespace(object.metadata.namespace).name(object.spec.guard).check('update').allowed()"
    messageExpression: "'may not update deployment ' + object.spec.guard"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: guarded-widgets
spec:
  policyName: guarded-widgets
  validationActions: [Deny]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: widget-maker
  namespace: default
rules:
- apiGroups: ["example.com"]
  resources: ["widgets"]
  verbs: ["create"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: widget-maker
  namespace: default
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: widget-maker}
subjects:
- {kind: User, name: alice}
"#;

fn widget(name: &str, guard: &str) -> String {
    format!(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {name}\n  namespace: default\nspec:\n  guard: {guard}\n"
    )
}

/// Custom resources are admitted in the extensions worker, which asks its own copy of
/// the authorizer chain.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorizer_checks_decide_for_custom_resources_too() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["apply", "-f", "-"], ALICE);
    k.ok_stdin(&["apply", "-f", "-"], WIDGETS);
    k.wait_established("widgets.example.com");
    let start = Instant::now();
    let refused = loop {
        match create(&k, Some("alice"), &widget("w-db", "db")) {
            Err(e) if e.contains("may not update deployment db") => break e,
            Err(e) if e.contains("the server could not find the requested resource") => {}
            Err(e) => panic!("{e}"),
            Ok(_) => {
                k.ok(&["delete", "widget", "w-db"]);
            }
        }
        assert!(start.elapsed() < Duration::from_secs(20), "never in force");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(refused.contains("guarded-widgets"), "{refused}");
    create(&k, Some("alice"), &widget("w-web", "web")).expect("alice may update web");
    create(&k, None, &widget("w-admin", "db")).expect("the admin may update db");
}
