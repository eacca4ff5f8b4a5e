//! `--authorization-config` followed while serving: a valid change takes effect in the
//! front door and in the review APIs within seconds, with no restart; a broken file or
//! one that drops an authorizer type the server started with is logged and the chain in
//! force stays.

use super::harness::{require_tool, Server};
use super::rbac::{as_token_user, until};

fn config(authorizers: &str) -> String {
    format!(
        "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n{authorizers}"
    )
}

/// Replaces `path` at once (write aside, rename), as a config management tool does.
fn replace(path: &std::path::Path, text: &str) {
    let aside = path.with_extension("new");
    std::fs::write(&aside, text).expect("write");
    std::fs::rename(&aside, path).expect("rename");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorization_config_reloads() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-bob,bob,1002\n").expect("write");
    let path = dir.path().join("authz.yaml");
    let rbac_only = config("- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n");
    std::fs::write(&path, &rbac_only).expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg(format!("--authorization-config={}", path.display()))
        .start()
        .await;
    let workers = server.workers();
    let list = || as_token_user(&server, "tok-bob", &["get", "secrets", "-n", "default"]);
    let can_i = || {
        let out = as_token_user(&server, "tok-bob", &["auth", "can-i", "delete", "nodes"]);
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let refused = list();
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("secrets is forbidden: User \"bob\" cannot list resource \"secrets\""),
        "{refused:?}"
    );
    assert_eq!(can_i(), "no");

    // AlwaysAllow appended: bob may do anything, in the front door and in reviews.
    replace(
        &path,
        &config("- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n- type: AlwaysAllow\n  name: alwaysallow\n"),
    );
    let took = until("the new chain allows bob", || list().status.success());
    println!("a reloaded authorization config took effect in {took:?}");
    until("SelfSubjectAccessReview answers from the new chain", || {
        can_i() == "yes"
    });

    // Broken, then dropping the types the server started with: both refused, logged,
    // and the chain in force stays.
    replace(
        &path,
        "apiVersion: apiserver.config.k8s.io/v1\nkind: Nope\n",
    );
    until("the broken file is logged", || {
        server.log().contains("unexpected kind")
    });
    replace(&path, &config("- type: AlwaysAllow\n  name: alwaysallow\n"));
    until("the dropped types are logged", || {
        server.log().contains("missing required types: [Node RBAC]")
    });
    assert!(list().status.success(), "the last good chain stays");

    // Back to RBAC alone: bob is refused again.
    replace(&path, &rbac_only);
    until("the reverted chain refuses bob", || {
        !list().status.success()
    });
    until("reviews refuse bob again", || can_i() == "no");
    assert_eq!(server.workers(), workers, "no worker restarted to get here");
}
