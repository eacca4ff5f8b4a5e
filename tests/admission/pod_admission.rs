//! LimitRanger and PodSecurity through kubectl: a namespace's LimitRange fills in
//! containers' requests and limits and refuses pods outside its bounds; the namespace's
//! pod-security labels refuse, warn about and audit pods and pod templates, with the
//! exemptions and defaults of `--admission-control-config-file`.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};

fn pod(name: &str, container: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n  - name: c\n    image: nginx\n{container}"
    )
}

fn json(k: &Kubectl, args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&k.ok(args)).expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limit_ranger_defaults_and_bounds() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    k.ok(&["create", "namespace", "limited"]);
    k.ok_stdin(
        &["create", "-n", "limited", "-f", "-"],
        "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: bounds\nspec:\n  limits:\n  - type: Container\n    default:\n      cpu: 500m\n      memory: 256Mi\n    defaultRequest:\n      cpu: 100m\n    max:\n      cpu: \"1\"\n",
    );

    // Defaults filled in and noted in the annotation, as kubectl shows them.
    k.ok_stdin(&["create", "-n", "limited", "-f", "-"], &pod("plain", ""));
    let p = json(&k, &["get", "pod", "plain", "-n", "limited", "-o", "json"]);
    let res = &p["spec"]["containers"][0]["resources"];
    assert_eq!(
        res["limits"],
        serde_json::json!({"cpu": "500m", "memory": "256Mi"})
    );
    assert_eq!(
        res["requests"],
        serde_json::json!({"cpu": "100m", "memory": "256Mi"})
    );
    assert_eq!(
        p["metadata"]["annotations"]["kubernetes.io/limit-ranger"],
        "LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c"
    );
    let yaml = k.ok(&["get", "pod", "plain", "-n", "limited", "-o", "yaml"]);
    assert!(
        yaml.contains("kubernetes.io/limit-ranger: 'LimitRanger plugin set: cpu, memory request for container"),
        "{yaml}"
    );
    assert!(yaml.contains("        memory: 256Mi"), "{yaml}");

    // Over the max: refused with upstream's message, on a dry run too.
    let big = pod("big", "    resources:\n      limits:\n        cpu: \"2\"\n");
    for extra in [&[][..], &["--dry-run=server"][..]] {
        let mut args = vec!["create", "-n", "limited", "-f", "-"];
        args.extend_from_slice(extra);
        let err = k.fails_stdin(&args, &big);
        assert!(
            err.contains(
                "pods \"big\" is forbidden: maximum cpu usage per Container is 1, but limit is 2"
            ),
            "{err}"
        );
    }

    // Other namespaces are not limited.
    k.ok_stdin(&["create", "-f", "-"], &big);
    let p = json(&k, &["get", "pod", "big", "-o", "json"]);
    assert!(p["metadata"]["annotations"]["kubernetes.io/limit-ranger"].is_null());

    // Claims: a storage max.
    k.ok_stdin(
        &["create", "-n", "limited", "-f", "-"],
        "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: storage\nspec:\n  limits:\n  - type: PersistentVolumeClaim\n    max:\n      storage: 1Gi\n",
    );
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 2Gi\n";
    let err = k.fails_stdin(&["create", "-n", "limited", "-f", "-"], claim);
    assert!(
        err.contains("persistentvolumeclaims \"data\" is forbidden: maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 2Gi"),
        "{err}"
    );
}
