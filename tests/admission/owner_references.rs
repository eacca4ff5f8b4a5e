//! OwnerReferencesPermissionEnforcement (when enabled): setting owner references needs
//! delete on the object; blocking an owner's deletion needs update on its finalizers.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};
use super::super::rbac::as_token_user;

fn owned(name: &str, uid: &str, block: bool) -> String {
    format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: default\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: Deployment\n    name: web\n    uid: {uid}\n    blockOwnerDeletion: {block}\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owner_references_need_permissions() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-bob,bob,1002\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg("--enable-admission-plugins=OwnerReferencesPermissionEnforcement")
        .start()
        .await;
    let admin = Kubectl::new(&server);
    admin.ok(&["create", "deployment", "web", "--image=nginx"]);
    let uid = admin.ok(&["get", "deployment", "web", "-o", "jsonpath={.metadata.uid}"]);
    let role = |verbs: &str| {
        format!("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: cm\n  namespace: default\nrules:\n- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [{verbs}]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: bob-cm\n  namespace: default\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: cm\nsubjects:\n- kind: User\n  name: bob\n")
    };
    let create = |yaml: &str| {
        let file = dir.path().join("cm.yaml");
        std::fs::write(&file, yaml).expect("write");
        as_token_user(
            &server,
            "tok-bob",
            &["create", "-f", &file.display().to_string()],
        )
    };
    admin.ok_stdin(&["apply", "-f", "-"], &role("get, create"));
    let out = create(&owned("a", &uid, false));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "configmaps \"a\" is forbidden: cannot set an ownerRef on a resource you can't delete"
        ),
        "{out:?}"
    );
    admin.ok_stdin(&["apply", "-f", "-"], &role("get, create, delete"));
    let out = create(&owned("b", &uid, true));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("configmaps \"b\" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on"),
        "{out:?}"
    );
    let out = create(&owned("c", &uid, false));
    assert!(out.status.success(), "{out:?}");
}
