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

const PRIVILEGED: &str = "    securityContext:\n      privileged: true\n";

fn stderr_of(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pod_security_enforce_warn_and_namespace_labels() {
    if !require_tool("kubectl") {
        return;
    }
    // Privileged containers allowed, as kubeadm runs kube-apiserver: PodSecurity decides.
    let server = Server::builder()
        .arg("--allow-privileged=true")
        .start()
        .await;
    let k = Kubectl::new(&server);

    // enforce=restricted: a privileged pod refused with upstream's message, dry run too.
    k.ok(&["create", "namespace", "strict"]);
    k.ok(&[
        "label",
        "namespace",
        "strict",
        "pod-security.kubernetes.io/enforce=restricted",
    ]);
    let privileged = pod("root", PRIVILEGED);
    let want = "pods \"root\" is forbidden: violates PodSecurity \"restricted:latest\": privileged (container \"c\" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")";
    for extra in [&[][..], &["--dry-run=server"][..]] {
        let mut args = vec!["create", "-n", "strict", "-f", "-"];
        args.extend_from_slice(extra);
        let err = k.fails_stdin(&args, &privileged);
        assert!(err.contains(want), "{err}");
    }
    // A pod that follows the restricted profile is admitted.
    let hardened = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: hardened\nspec:\n  securityContext:\n    runAsNonRoot: true\n    runAsUser: 1000\n    seccompProfile:\n      type: RuntimeDefault\n  containers:\n  - name: c\n    image: nginx\n    securityContext:\n      allowPrivilegeEscalation: false\n      capabilities:\n        drop: [ALL]\n";
    k.ok_stdin(&["create", "-n", "strict", "-f", "-"], hardened);

    // warn=baseline: a Deployment with a privileged template is stored, with a warning.
    k.ok(&["create", "namespace", "watched"]);
    k.ok(&[
        "label",
        "namespace",
        "watched",
        "pod-security.kubernetes.io/warn=baseline",
    ]);
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      hostNetwork: true\n      containers:\n      - name: c\n        image: nginx\n        securityContext:\n          privileged: true\n";
    for extra in [&["--dry-run=server"][..], &[][..]] {
        let mut args = vec!["apply", "-n", "watched", "-f", "-"];
        args.extend_from_slice(extra);
        let stderr = stderr_of(&k.run_stdin(&args, deployment));
        assert!(
            stderr.contains("Warning: would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true), privileged (container \"c\" must not set securityContext.privileged=true)"),
            "{stderr}"
        );
    }
    k.ok(&["get", "deployment", "web", "-n", "watched"]);
    // A pod there is admitted with the same warning (warn does not refuse).
    let stderr = stderr_of(&k.run_stdin(&["create", "-n", "watched", "-f", "-"], &privileged));
    assert!(
        stderr.contains("Warning: would violate PodSecurity \"baseline:latest\": privileged (container \"c\" must not set securityContext.privileged=true)"),
        "{stderr}"
    );
    // Metadata-only updates of that pod are not checked again.
    let out = k.run(&["label", "pod", "root", "-n", "watched", "x=y"]);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("PodSecurity"),
        "{out:?}"
    );

    // Labels are validated; making enforce stricter warns about existing pods.
    let err = k.fails(&[
        "label",
        "namespace",
        "watched",
        "pod-security.kubernetes.io/enforce=strict",
    ]);
    assert!(
        err.contains("Namespace \"watched\" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"strict\": must be one of privileged, baseline, restricted"),
        "{err}"
    );
    let stderr = stderr_of(&k.run(&[
        "label",
        "namespace",
        "watched",
        "pod-security.kubernetes.io/enforce=baseline",
    ]));
    assert!(
        stderr.contains("Warning: existing pods in namespace \"watched\" violate the new PodSecurity enforce level \"baseline:latest\"")
            && stderr.contains("Warning: root: privileged"),
        "{stderr}"
    );
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: typo\n  labels:\n    pod-security.kubernetes.io/audit-version: \"1.30\"\n",
    );
    assert!(
        err.contains("Namespace \"typo\" is invalid: metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: \"1.30\": must be \"latest\" or \"v1.x\""),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pod_security_configuration_defaults_and_exemptions() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let psa = dir.path().join("pod-security.yaml");
    std::fs::write(
        &psa,
        "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\nexemptions:\n  usernames: [kubernetes-admin]\n  namespaces: [free]\n",
    )
    .expect("write");
    let admission = dir.path().join("admission.yaml");
    std::fs::write(
        &admission,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: {}\n",
            psa.display()
        ),
    )
    .expect("write");
    let server = Server::builder()
        .arg(format!(
            "--admission-control-config-file={}",
            admission.display()
        ))
        .arg("--allow-privileged=true")
        .start()
        .await;
    let k = Kubectl::new(&server);
    // The admin is exempt: a privileged pod under the baseline default is admitted.
    k.ok_stdin(&["create", "-f", "-"], &pod("admin-root", PRIVILEGED));
    // Another user (the admin impersonating one, granted edit) is held to the default.
    k.ok(&[
        "create",
        "rolebinding",
        "bob-edit",
        "--clusterrole=edit",
        "--user=bob",
    ]);
    let err = k.fails_stdin(
        &["create", "--as=bob", "-f", "-"],
        &pod("bob-root", PRIVILEGED),
    );
    assert!(
        err.contains("pods \"bob-root\" is forbidden: violates PodSecurity \"baseline:latest\": privileged (container \"c\" must not set securityContext.privileged=true)"),
        "{err}"
    );
    let err = k.fails_stdin(
        &["create", "--as=bob", "--dry-run=server", "-f", "-"],
        &pod("bob-root", PRIVILEGED),
    );
    assert!(
        err.contains("violates PodSecurity \"baseline:latest\""),
        "{err}"
    );
    // An exempt namespace admits it, and warns that labels there are ignored.
    k.ok(&["create", "namespace", "free"]);
    k.ok(&[
        "create",
        "rolebinding",
        "bob-edit",
        "-n",
        "free",
        "--clusterrole=edit",
        "--user=bob",
    ]);
    k.ok_stdin(
        &["create", "--as=bob", "-n", "free", "-f", "-"],
        &pod("bob-root", PRIVILEGED),
    );
    let stderr = stderr_of(&k.run(&[
        "label",
        "namespace",
        "free",
        "pod-security.kubernetes.io/enforce=restricted",
    ]));
    assert!(
        stderr.contains("Warning: namespace \"free\" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored"),
        "{stderr}"
    );
}
