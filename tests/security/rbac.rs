//! Authentication, authorization and impersonation through kubectl: RBAC by default,
//! the impersonation headers, the static token file.

use std::time::{Duration, Instant};

use super::harness::{self, require_tool, Server};
use super::setup;

/// kubectl as a user that authenticates with `token` only (no client certificate). The
/// discovery cache is kept per server (kubectl cannot read discovery while impersonating
/// someone it may not: client-go reports that 403 as "unknown", as against
/// kube-apiserver).
pub(super) fn as_token_user(
    server: &harness::Server,
    token: &str,
    args: &[&str],
) -> std::process::Output {
    let empty = tempfile::NamedTempFile::new().expect("empty kubeconfig");
    let cache = server
        .kubeconfig()
        .with_file_name("token-user-kubectl-cache");
    let url = format!("https://127.0.0.1:{}", server.port);
    std::process::Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(empty.path())
        .arg("--cache-dir")
        .arg(&cache)
        .args([
            "--server",
            &url,
            "--token",
            token,
            "--certificate-authority",
        ])
        .arg(server.pki("ca.crt"))
        .args(args)
        .output()
        .expect("run kubectl")
}

/// Polls `check` (a kubectl run) until it holds, for at most 10 s; returns how long.
pub(super) fn until(what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(10), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

/// With no flags, RBAC decides every request (`--authorization-mode=Node,RBAC`, as under
/// kubeadm): anonymous reaches health and version only, a service account only what is
/// bound to it, a binding takes effect as soon as it is written and stops when it is
/// deleted, and the admin kubeconfig (system:masters) may do everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rbac_decides_every_request_by_default() {
    let Some((server, k)) = setup().await else {
        return;
    };
    for path in ["/version", "/healthz", "/livez", "/readyz"] {
        let r = server
            .request(http::Method::GET, path, b"", true, true)
            .await
            .expect("anonymous");
        assert_eq!(r.status, 200, "anonymous GET {path}: {}", r.text());
    }
    let r = server
        .request(
            http::Method::GET,
            "/api/v1/namespaces/kube-system/secrets",
            b"",
            true,
            true,
        )
        .await
        .expect("anonymous");
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json()["message"],
        "secrets is forbidden: User \"system:anonymous\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\""
    );
    let ns = br#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"sneaky"}}"#;
    let r = server
        .request(http::Method::POST, "/api/v1/namespaces", ns, true, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 403, "{}", r.text());
    let r = server
        .request(http::Method::GET, "/api", b"", true, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 403, "discovery is for authenticated users");

    k.ok(&["create", "namespace", "team"]);
    k.ok(&["create", "serviceaccount", "robot", "-n", "team"]);
    let token = k.ok(&["create", "token", "robot", "-n", "team"]);
    let token = token.trim();
    let get_pods = || as_token_user(&server, token, &["get", "pods", "-n", "team"]);
    let out = get_pods();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "pods is forbidden: User \"system:serviceaccount:team:robot\" cannot list resource \"pods\" in API group \"\" in the namespace \"team\""
        ),
        "{out:?}"
    );
    let can_i = |verb: &str| {
        let out = as_token_user(
            &server,
            token,
            &["auth", "can-i", verb, "pods", "-n", "team"],
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    assert_eq!(can_i("list"), "no");

    k.ok(&[
        "create",
        "rolebinding",
        "robot-view",
        "--clusterrole=view",
        "--serviceaccount=team:robot",
        "-n",
        "team",
    ]);
    let took = until("the binding allows", || get_pods().status.success());
    println!("a new RoleBinding took effect after {took:?}");
    assert_eq!(can_i("list"), "yes");
    assert_eq!(can_i("delete"), "no");
    let out = as_token_user(&server, token, &["create", "configmap", "x", "-n", "team"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "configmaps is forbidden: User \"system:serviceaccount:team:robot\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"team\""
        ),
        "view does not create: {out:?}"
    );

    k.ok(&["delete", "rolebinding", "robot-view", "-n", "team"]);
    until("the deleted binding stops allowing", || {
        !get_pods().status.success()
    });
    // The admin (system:masters) may do everything.
    k.ok(&["get", "secrets", "-n", "kube-system"]);
}

/// `kubectl --as` / `--as-group`: impersonation is authorized with the `impersonate` verb
/// for the real user, then the request runs as the impersonated one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impersonation_needs_the_impersonate_verb() {
    let Some((server, k)) = setup().await else {
        return;
    };
    // The admin (system:masters) may impersonate anyone; alice may do nothing herself.
    let whoami = k.ok(&[
        "auth",
        "whoami",
        "--as=alice",
        "--as-group=devs",
        "-o",
        "json",
    ]);
    let review: serde_json::Value = serde_json::from_str(&whoami).expect("json");
    assert_eq!(review["status"]["userInfo"]["username"], "alice");
    assert_eq!(
        review["status"]["userInfo"]["groups"],
        serde_json::json!(["devs", "system:authenticated"])
    );
    let err = k.fails(&["get", "pods", "--as=alice"]);
    assert!(
        err.contains("pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""),
        "{err}"
    );

    k.ok(&["create", "serviceaccount", "robot"]);
    let token = k.ok(&["create", "token", "robot"]);
    let token = token.trim();
    // Discovery as robot itself (authenticated users may read it), cached for the rest.
    as_token_user(&server, token, &["api-resources"]);
    let out = as_token_user(&server, token, &["get", "pods", "--as=bob"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "users \"bob\" is forbidden: User \"system:serviceaccount:default:robot\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope"
        ),
        "{out:?}"
    );
    k.ok(&[
        "create",
        "clusterrole",
        "impersonate-bob",
        "--verb=impersonate",
        "--resource=users",
        "--resource-name=bob",
    ]);
    k.ok(&[
        "create",
        "clusterrolebinding",
        "robot-as-bob",
        "--clusterrole=impersonate-bob",
        "--serviceaccount=default:robot",
    ]);
    until("robot may impersonate bob", || {
        let out = as_token_user(&server, token, &["get", "pods", "--as=bob"]);
        String::from_utf8_lossy(&out.stderr).contains("User \"bob\" cannot list resource \"pods\"")
    });
    // Only bob: another user, or a group, is still refused.
    let out = as_token_user(&server, token, &["get", "pods", "--as=carol"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("users \"carol\" is forbidden"),
        "{out:?}"
    );
    let out = as_token_user(
        &server,
        token,
        &["get", "pods", "--as=bob", "--as-group=system:masters"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("groups \"system:masters\" is forbidden"),
        "{out:?}"
    );

    // Groups without a user: upstream's plain-text 500.
    let r = server
        .request_with(
            http::Method::GET,
            "/api/v1/namespaces",
            &[("impersonate-group", "devs")],
            true,
            false,
        )
        .await
        .expect("request");
    assert_eq!(r.status, 500);
    assert_eq!(
        r.text(),
        "Internal Server Error: \"/api/v1/namespaces\": requested [{Group  devs    }] without impersonating a user\n"
    );
}

/// `--token-auth-file`: each token authenticates its user (in `system:authenticated` and
/// the file's groups); RBAC then decides; an unknown token is 401, never anonymous.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_token_file_users() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "s3cr3t-alice,alice,1001,\"devs,ops\"\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;
    let whoami = as_token_user(&server, "s3cr3t-alice", &["auth", "whoami", "-o", "json"]);
    assert!(whoami.status.success(), "{whoami:?}");
    let review: serde_json::Value = serde_json::from_slice(&whoami.stdout).expect("json");
    let info = &review["status"]["userInfo"];
    assert_eq!(
        (info["username"].as_str(), info["uid"].as_str()),
        (Some("alice"), Some("1001"))
    );
    assert_eq!(
        info["groups"],
        serde_json::json!(["devs", "ops", "system:authenticated"])
    );
    let out = as_token_user(
        &server,
        "s3cr3t-alice",
        &["get", "secrets", "-n", "kube-system"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "secrets is forbidden: User \"alice\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\""
        ),
        "{out:?}"
    );
    let out = as_token_user(&server, "wrong", &["get", "--raw", "/version"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
        "{out:?}"
    );
}

/// RBAC escalation prevention: a user who may write Roles and RoleBindings still cannot
/// grant what they do not hold, unless they have `escalate` (roles) or `bind` (the role);
/// an aggregationRule needs everything. The refusal names what is missing, as upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escalation_needs_the_permissions_or_escalate_and_bind() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-bob,bob,2001\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;
    let admin = harness::kubectl::Kubectl::new(&server);
    admin.ok(&["create", "namespace", "team"]);
    admin.ok(&[
        "create",
        "role",
        "pod-reader",
        "-n",
        "team",
        "--verb=get,list",
        "--resource=pods",
    ]);
    admin.ok(&[
        "create",
        "role",
        "rbac-writer",
        "-n",
        "team",
        "--verb=create,update,patch,get",
        "--resource=roles,rolebindings",
    ]);
    admin.ok(&[
        "create",
        "rolebinding",
        "bob-rbac",
        "-n",
        "team",
        "--role=rbac-writer",
        "--user=bob",
    ]);
    let bob = |args: &[&str]| as_token_user(&server, "tok-bob", args);
    let refused = |out: &std::process::Output, what: &str| {
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !out.status.success() && err.contains(what),
            "want {what:?}, got {out:?}"
        );
    };
    until("bob may create roles", || {
        bob(&["auth", "can-i", "create", "roles", "-n", "team"])
            .status
            .success()
    });

    let out = bob(&[
        "create",
        "role",
        "r1",
        "-n",
        "team",
        "--verb=get",
        "--resource=pods",
    ]);
    refused(&out, "roles.rbac.authorization.k8s.io \"r1\" is forbidden: user \"bob\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\"]}");
    let out = bob(&[
        "create",
        "rolebinding",
        "rb1",
        "-n",
        "team",
        "--role=pod-reader",
        "--user=carol",
    ]);
    refused(&out, "rolebindings.rbac.authorization.k8s.io \"rb1\" is forbidden: user \"bob\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"get\" \"list\"]}");
    let out = bob(&[
        "create",
        "rolebinding",
        "rb2",
        "-n",
        "team",
        "--role=missing",
        "--user=carol",
    ]);
    refused(
        &out,
        "roles.rbac.authorization.k8s.io \"missing\" not found",
    );

    // Once bob holds the permissions, he may grant them, and no more.
    admin.ok(&[
        "create",
        "rolebinding",
        "bob-reads",
        "-n",
        "team",
        "--role=pod-reader",
        "--user=bob",
    ]);
    until("bob may grant what he holds", || {
        bob(&[
            "create",
            "role",
            "r1",
            "-n",
            "team",
            "--verb=get",
            "--resource=pods",
        ])
        .status
        .success()
    });
    bob(&[
        "create",
        "rolebinding",
        "rb1",
        "-n",
        "team",
        "--role=pod-reader",
        "--user=carol",
    ]);
    assert!(admin
        .run(&["get", "rolebinding", "rb1", "-n", "team"])
        .status
        .success());
    let grow = r#"[{"op":"add","path":"/rules/0/verbs/-","value":"delete"}]"#;
    let out = bob(&[
        "patch",
        "role",
        "r1",
        "-n",
        "team",
        "--type=json",
        "-p",
        grow,
    ]);
    refused(
        &out,
        "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\"]}",
    );
    // Finalizers alone are not a grant.
    let fin = r#"{"metadata":{"finalizers":["example.com/keep"]}}"#;
    let out = bob(&[
        "patch",
        "rolebinding",
        "bob-reads",
        "-n",
        "team",
        "--type=merge",
        "-p",
        fin,
    ]);
    assert!(out.status.success(), "{out:?}");

    // `escalate` on roles lets bob write any rules; `bind` on a role lets him bind it.
    admin.ok(&[
        "create",
        "role",
        "escalator",
        "-n",
        "team",
        "--verb=escalate",
        "--resource=roles",
    ]);
    admin.ok(&[
        "create",
        "rolebinding",
        "bob-escalates",
        "-n",
        "team",
        "--role=escalator",
        "--user=bob",
    ]);
    until("escalate takes effect", || {
        bob(&[
            "patch",
            "role",
            "r1",
            "-n",
            "team",
            "--type=json",
            "-p",
            grow,
        ])
        .status
        .success()
    });
    let out = bob(&[
        "create",
        "rolebinding",
        "rb3",
        "-n",
        "team",
        "--clusterrole=admin",
        "--user=carol",
    ]);
    refused(
        &out,
        "is attempting to grant RBAC permissions not currently held",
    );
    admin.ok(&[
        "create",
        "role",
        "admin-binder",
        "-n",
        "team",
        "--verb=bind",
        "--resource=clusterroles",
        "--resource-name=admin",
    ]);
    admin.ok(&[
        "create",
        "rolebinding",
        "bob-binds",
        "-n",
        "team",
        "--role=admin-binder",
        "--user=bob",
    ]);
    until("bind takes effect", || {
        bob(&[
            "create",
            "rolebinding",
            "rb3",
            "-n",
            "team",
            "--clusterrole=admin",
            "--user=carol",
        ])
        .status
        .success()
    });
    let out = bob(&[
        "create",
        "rolebinding",
        "rb4",
        "-n",
        "team",
        "--clusterrole=edit",
        "--user=carol",
    ]);
    refused(
        &out,
        "is attempting to grant RBAC permissions not currently held",
    );

    // An aggregationRule can gather anything: only someone holding everything may set it.
    admin.ok(&[
        "create",
        "clusterrole",
        "cr-writer",
        "--verb=create",
        "--resource=clusterroles",
    ]);
    admin.ok(&[
        "create",
        "clusterrolebinding",
        "bob-cr",
        "--clusterrole=cr-writer",
        "--user=bob",
    ]);
    let aggregated = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: gatherer\naggregationRule:\n  clusterRoleSelectors:\n  - matchLabels:\n      gather: \"yes\"\nrules: []\n";
    let file = dir.path().join("aggregated.yaml");
    std::fs::write(&file, aggregated).expect("write");
    let path = file.display().to_string();
    until("bob may create clusterroles", || {
        bob(&["auth", "can-i", "create", "clusterroles"])
            .status
            .success()
    });
    let out = bob(&["create", "-f", &path]);
    refused(&out, "clusterroles.rbac.authorization.k8s.io \"gatherer\" is forbidden: must have cluster-admin privileges to use the aggregationRule");
}

/// ClusterRole aggregation: `admin`, `edit` and `view` hold the rules of the roles
/// labeled to aggregate into them (kubectl shows them), a new labeled role adds its rules
/// to all three at once, and deleting it takes them away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aggregated_cluster_roles_follow_labeled_roles() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let rules_of = |role: &str| -> String {
        let json: serde_json::Value =
            serde_json::from_str(&k.ok(&["get", "clusterrole", role, "-o", "json"])).expect("json");
        json["rules"].to_string()
    };
    let secrets = "\"resources\":[\"secrets\"]";
    until("view holds pod reading", || {
        rules_of("view").contains("\"pods\"")
    });
    assert!(!rules_of("view").contains(secrets));
    k.ok_stdin(
        &["apply", "-f", "-"],
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: secret-reader\n  labels:\n    rbac.authorization.k8s.io/aggregate-to-view: \"true\"\nrules:\n- apiGroups: [\"\"]\n  resources: [\"secrets\"]\n  verbs: [\"get\", \"list\"]\n",
    );
    let took = until("view, edit and admin gather secrets", || {
        ["view", "edit", "admin"]
            .iter()
            .all(|r| rules_of(r).contains(secrets))
    });
    println!("aggregation reached admin in {took:?}");
    k.ok(&["create", "namespace", "shop"]);
    k.ok(&[
        "create",
        "rolebinding",
        "ci-view",
        "-n",
        "shop",
        "--clusterrole=view",
        "--serviceaccount=shop:ci",
    ]);
    let can = |verb: &str| {
        let out = k.run(&[
            "auth",
            "can-i",
            verb,
            "secrets",
            "-n",
            "shop",
            "--as=system:serviceaccount:shop:ci",
        ]);
        out.status.success()
    };
    until("the view binding grants secrets", || can("list"));
    assert!(!can("delete"));
    k.ok(&["delete", "clusterrole", "secret-reader"]);
    until("secrets leave view, edit and admin", || {
        ["view", "edit", "admin"]
            .iter()
            .all(|r| !rules_of(r).contains(secrets))
    });
    until("the view binding no longer grants secrets", || !can("list"));
}

/// At each start the default RBAC policy is reconciled as upstream does: a default role
/// that lost rules gets them back and a binding its subjects, an operator's additions
/// stay, and an object annotated `autoupdate: "false"` is left alone. Untouched defaults
/// are not rewritten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn default_policy_is_reconciled_at_start() {
    if !require_tool("kubectl") {
        return;
    }
    let data = tempfile::tempdir().expect("tempdir");
    let dir = data.path().join("state");
    let json = |server: &Server, what: &[&str]| -> serde_json::Value {
        let mut args = vec!["get"];
        args.extend_from_slice(what);
        args.extend_from_slice(&["-o", "json"]);
        let out = server.kubectl(&args);
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice(&out.stdout).expect("json")
    };
    {
        let mut server = Server::builder().data_dir(&dir).start().await;
        let ok = |args: &[&str]| {
            let out = server.kubectl(args);
            assert!(out.status.success(), "{args:?}: {out:?}");
        };
        let no_rules = r#"[{"op":"replace","path":"/rules","value":[]}]"#;
        ok(&[
            "patch",
            "clusterrole",
            "system:basic-user",
            "--type=json",
            "-p",
            no_rules,
        ]);
        ok(&[
            "patch",
            "clusterrole",
            "system:public-info-viewer",
            "--type=json",
            "-p",
            no_rules,
        ]);
        ok(&[
            "annotate",
            "--overwrite",
            "clusterrole",
            "system:public-info-viewer",
            "rbac.authorization.kubernetes.io/autoupdate=false",
        ]);
        ok(&[
            "patch",
            "clusterrolebinding",
            "system:discovery",
            "--type=json",
            "-p",
            r#"[{"op":"replace","path":"/subjects","value":[]}]"#,
        ]);
        ok(&["label", "clusterrole", "edit", "team=platform"]);
        server.signal(nix::sys::signal::Signal::SIGTERM);
        assert!(server.wait_exit(Duration::from_secs(20)).await.is_some());
    }
    let server = Server::builder().data_dir(&dir).start().await;
    // The lost rules come back one permission each, as upstream's reconciliation adds them.
    let piece = |group: &str, resource: &str| serde_json::json!({"apiGroups": [group], "resources": [resource], "verbs": ["create"]});
    assert_eq!(
        json(&server, &["clusterrole", "system:basic-user"])["rules"],
        serde_json::json!([
            piece("authorization.k8s.io", "selfsubjectaccessreviews"),
            piece("authorization.k8s.io", "selfsubjectrulesreviews"),
            piece("authentication.k8s.io", "selfsubjectreviews"),
        ])
    );
    // Emptied and protected: still empty. Stored as protobuf, an empty list reads back as
    // Go's nil slice, `null`, as kube-apiserver serves it.
    assert_eq!(
        json(&server, &["clusterrole", "system:public-info-viewer"])["rules"],
        serde_json::Value::Null
    );
    assert_eq!(
        json(&server, &["clusterrolebinding", "system:discovery"])["subjects"],
        serde_json::json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "system:authenticated"}])
    );
    assert_eq!(
        json(&server, &["clusterrole", "edit"])["metadata"]["labels"]["team"],
        "platform"
    );
    let log = server.log();
    let updated = log
        .lines()
        .filter(|l| l.contains("updated default RBAC object"))
        .count();
    assert_eq!(
        updated, 2,
        "only the two changed defaults are rewritten:\n{log}"
    );
    assert!(
        log.contains("skipped reconcile-protected default RBAC object"),
        "{log}"
    );
}

/// `kubectl auth can-i` as four kinds of user against the default policy: the admin
/// certificate (system:masters), a static-token user bound to `view`, a service account
/// (token from `kubectl create token`) bound to `edit`, and anonymous (a kubeconfig with
/// no credentials), whom RBAC refuses everything but health, version and discovery.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn can_i_matrix_for_four_kinds_of_user() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-alice,alice,3001\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;
    let admin = harness::kubectl::Kubectl::new(&server);
    admin.ok(&["create", "namespace", "team"]);
    admin.ok(&["create", "serviceaccount", "robot", "-n", "team"]);
    admin.ok(&[
        "create",
        "rolebinding",
        "alice-view",
        "-n",
        "team",
        "--clusterrole=view",
        "--user=alice",
    ]);
    admin.ok(&[
        "create",
        "rolebinding",
        "robot-edit",
        "-n",
        "team",
        "--clusterrole=edit",
        "--serviceaccount=team:robot",
    ]);
    let robot = admin
        .ok(&["create", "token", "robot", "-n", "team"])
        .trim()
        .to_owned();

    let can = |token: Option<&str>, args: &[&str]| -> String {
        let mut all = vec!["auth", "can-i"];
        all.extend_from_slice(args);
        let out = match token {
            None => admin.run(&all),
            Some(t) => as_token_user(&server, t, &all),
        };
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let matrix: &[(&[&str], [&str; 3])] = &[
        (&["get", "pods", "-n", "team"], ["yes", "yes", "yes"]),
        (
            &["create", "deployments.apps", "-n", "team"],
            ["yes", "no", "yes"],
        ),
        (&["get", "secrets", "-n", "team"], ["yes", "no", "yes"]),
        (&["get", "pods", "-n", "default"], ["yes", "no", "no"]),
        (&["list", "nodes"], ["yes", "no", "no"]),
        (&["delete", "namespaces"], ["yes", "no", "no"]),
        (
            &[
                "create",
                "rolebindings.rbac.authorization.k8s.io",
                "-n",
                "team",
            ],
            ["yes", "no", "no"],
        ),
    ];
    until("the bindings are in force", || {
        can(Some("tok-alice"), &["get", "pods", "-n", "team"]) == "yes"
    });
    for (args, [as_admin, as_alice, as_robot]) in matrix {
        assert_eq!(can(None, args), *as_admin, "admin {args:?}");
        assert_eq!(can(Some("tok-alice"), args), *as_alice, "alice {args:?}");
        assert_eq!(can(Some(&robot), args), *as_robot, "robot {args:?}");
    }

    // Anonymous: kubectl prompts for a user name when it has no credentials at all, so
    // it is given basic-auth ones, which kube-apiserver (since 1.19) and this server
    // ignore: the request is anonymous.
    let anon = |args: &[&str]| {
        std::process::Command::new("kubectl")
            .args(["--kubeconfig", "/dev/null", "--server"])
            .arg(format!("https://127.0.0.1:{}", server.port))
            .arg("--certificate-authority")
            .arg(server.pki("ca.crt"))
            .args(["--username=nobody", "--password=nothing"])
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("kubectl")
    };
    let out = anon(&["get", "--raw", "/version"]);
    assert!(out.status.success(), "{out:?}");
    // (`get --raw`: kubectl's discovery is itself forbidden to anonymous, as upstream.)
    let out = anon(&["get", "--raw", "/api/v1/namespaces/team/secrets"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "secrets is forbidden: User \"system:anonymous\" cannot list resource \"secrets\" in API group \"\" in the namespace \"team\""
        ),
        "{out:?}"
    );
    let out = anon(&["auth", "can-i", "get", "pods"]);
    assert!(!out.status.success(), "anonymous may not even ask: {out:?}");
}
