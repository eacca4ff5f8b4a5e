//! The RBAC evaluator (kas-authz) over upstream's bootstrap policy.

use kas_authz::{Attributes, Decision, Policy};
use kas_proto::UserInfo;
use serde_json::json;

use crate::bootstrap_policy;

fn user(name: &str, groups: &[&str]) -> UserInfo {
    UserInfo {
        name: name.into(),
        groups: groups.iter().map(|g| (*g).to_owned()).collect(),
        ..Default::default()
    }
}

fn res(verb: &str, ns: &str, group: &str, resource: &str, sub: &str, name: &str) -> Attributes {
    Attributes {
        verb: verb.into(),
        namespace: ns.into(),
        group: group.into(),
        resource: resource.into(),
        subresource: sub.into(),
        name: name.into(),
        resource_request: true,
        ..Default::default()
    }
}

fn url(verb: &str, path: &str) -> Attributes {
    Attributes {
        verb: verb.into(),
        path: path.into(),
        ..Default::default()
    }
}

fn bootstrap() -> Policy {
    Policy::new(
        bootstrap_policy::roles(),
        bootstrap_policy::cluster_roles(),
        bootstrap_policy::role_bindings(),
        bootstrap_policy::cluster_role_bindings(),
    )
}

#[test]
fn bootstrap_policy_decisions() {
    let p = bootstrap();
    let admin = user(
        "kubernetes-admin",
        &["system:masters", "system:authenticated"],
    );
    let (d, reason) = p.authorize(
        &admin,
        &res("delete", "default", "apps", "deployments", "", "x"),
    );
    assert_eq!(d, Decision::Allow);
    assert_eq!(
        reason,
        "RBAC: allowed by ClusterRoleBinding \"cluster-admin\" of ClusterRole \"cluster-admin\" to Group \"system:masters\""
    );
    let bob = user("bob", &["system:authenticated"]);
    assert_eq!(
        p.authorize(&bob, &url("get", "/healthz")).0,
        Decision::Allow
    );
    assert_eq!(
        p.authorize(&bob, &url("get", "/apis/apps/v1")).0,
        Decision::Allow
    );
    assert_eq!(
        p.authorize(&bob, &url("post", "/healthz")).0,
        Decision::NoOpinion
    );
    assert_eq!(
        p.authorize(&bob, &res("list", "default", "", "pods", "", "")),
        (Decision::NoOpinion, String::new())
    );
    assert_eq!(
        p.authorize(
            &bob,
            &res(
                "create",
                "",
                "authorization.k8s.io",
                "selfsubjectaccessreviews",
                "",
                ""
            )
        )
        .0,
        Decision::Allow
    );
    let anon = user("system:anonymous", &["system:unauthenticated"]);
    assert_eq!(
        p.authorize(&anon, &url("get", "/version")).0,
        Decision::Allow
    );
    assert_eq!(
        p.authorize(&anon, &url("get", "/api")).0,
        Decision::NoOpinion
    );
}

#[test]
fn bindings_roles_and_aggregation() {
    let mut roles = bootstrap_policy::roles();
    let mut role_bindings = bootstrap_policy::role_bindings();
    role_bindings.push(json!({
        "metadata": {"name": "dev-edit", "namespace": "dev"},
        "roleRef": {"kind": "ClusterRole", "name": "edit"},
        "subjects": [{"kind": "ServiceAccount", "name": "ci"}],
    }));
    roles.push(json!({"metadata": {"name": "one", "namespace": "dev"},
        "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"]},
                  {"verbs": ["get"], "apiGroups": [""], "resources": ["*/status"]}]}));
    role_bindings.push(json!({
        "metadata": {"name": "one", "namespace": "dev"},
        "roleRef": {"kind": "Role", "name": "one"},
        "subjects": [{"kind": "User", "name": "carol"}],
    }));
    let mut cluster_roles = bootstrap_policy::cluster_roles();
    kas_authz::settle(&mut cluster_roles);
    let p = Policy::new(
        roles,
        cluster_roles,
        role_bindings,
        bootstrap_policy::cluster_role_bindings(),
    );
    let ci = user("system:serviceaccount:dev:ci", &[]);
    // edit aggregates system:aggregate-to-edit and, through it, view's rules.
    let (d, reason) = p.authorize(&ci, &res("create", "dev", "apps", "deployments", "", ""));
    assert_eq!(d, Decision::Allow);
    assert_eq!(
        reason,
        "RBAC: allowed by RoleBinding \"dev-edit/dev\" of ClusterRole \"edit\" to ServiceAccount \"ci/dev\""
    );
    assert_eq!(
        p.authorize(&ci, &res("get", "dev", "", "pods", "log", ""))
            .0,
        Decision::Allow
    );
    assert_eq!(
        p.authorize(&ci, &res("create", "prod", "apps", "deployments", "", ""))
            .0,
        Decision::NoOpinion
    );
    assert_eq!(
        p.authorize(
            &ci,
            &res(
                "create",
                "dev",
                "rbac.authorization.k8s.io",
                "roles",
                "",
                ""
            )
        )
        .0,
        Decision::NoOpinion
    );

    let carol = user("carol", &[]);
    assert_eq!(
        p.authorize(&carol, &res("get", "dev", "", "configmaps", "", "a"))
            .0,
        Decision::Allow
    );
    assert_eq!(
        p.authorize(&carol, &res("get", "dev", "", "configmaps", "", "b"))
            .0,
        Decision::NoOpinion
    );
    assert_eq!(
        p.authorize(&carol, &res("get", "dev", "", "configmaps", "", ""))
            .0,
        Decision::NoOpinion
    );
    assert_eq!(
        p.authorize(&carol, &res("get", "dev", "", "pods", "status", "p"))
            .0,
        Decision::Allow
    );
    let (resource, _) = p.rules_for(&carol, "dev");
    assert_eq!(resource.len(), 2);
    assert_eq!(resource[0]["resourceNames"], json!(["a"]));
}

#[test]
fn odd_objects_never_panic() {
    let p = Policy::new(
        vec![json!(null), json!({"rules": 1})],
        vec![
            json!([]),
            json!({"metadata": {"name": "x", "labels": 3}, "aggregationRule": {"clusterRoleSelectors": [{"matchExpressions": [{"key": "a", "operator": "Bogus"}]}]}}),
        ],
        vec![json!({"subjects": "x"})],
        vec![
            json!({"roleRef": {"kind": "ClusterRole", "name": "x"}, "subjects": [{"kind": "User", "name": "u"}]}),
        ],
    );
    let u = user("u", &[]);
    assert_eq!(
        p.authorize(&u, &res("get", "ns", "", "pods", "", "")).0,
        Decision::NoOpinion
    );
    assert_eq!(p.rules_for(&u, "ns"), (vec![], vec![]));
}
