//! The built-in API through a real client: kubectl v1.32, unmodified, against the server
//! started with no flags. Each test starts its own server; kubectl gets its own discovery
//! cache directory so no test sees another's.

mod harness;

use std::time::{Duration, Instant};

use harness::kubectl::Kubectl;
use harness::{require_tool, Server};

async fn setup() -> Option<(Server, Kubectl)> {
    if !require_tool("kubectl") {
        return None;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    Some((server, k))
}

const DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
        env:
        - name: A
          value: "1"
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_api_resources_and_bootstrapped_objects() {
    if !require_tool("kubectl") {
        return;
    }
    // The server listens on loopback; endpoints may not name a loopback address, so it
    // advertises a documentation address (nothing connects to it).
    let _server = Server::builder()
        .arg("--advertise-address=192.0.2.10")
        .start()
        .await;
    let k = Kubectl::new(&_server);
    let v = k.ok(&["version", "-o", "json"]);
    assert!(v.contains("\"gitVersion\": \"v1.33.0\""), "{v}");

    let res = k.ok(&["api-resources"]);
    for line in [
        "pods",
        "deployments",
        "services",
        "namespaces",
        "clusterroles",
        "priorityclasses",
        "leases",
        "endpointslices",
    ] {
        assert!(res.contains(line), "api-resources lacks {line}:\n{res}");
    }
    assert!(res.contains("deploy") && res.contains("apps/v1"), "{res}");

    let ns = k.ok(&["get", "namespaces"]);
    for n in ["default", "kube-system", "kube-public", "kube-node-lease"] {
        assert!(ns.contains(n), "{ns}");
    }
    assert!(ns.contains("Active"), "{ns}");
    let svc = k.ok(&["get", "service", "kubernetes", "-o", "wide"]);
    assert!(svc.contains("10.0.0.1") && svc.contains("443/TCP"), "{svc}");
    let ep = k.ok(&["get", "endpoints", "kubernetes"]);
    assert!(ep.contains("192.0.2.10:"), "{ep}");
    let slice = k.ok(&["get", "endpointslices", "kubernetes"]);
    assert!(
        slice.contains("IPv4") && slice.contains("192.0.2.10"),
        "{slice}"
    );
    let roles = k.ok(&["get", "clusterroles"]);
    assert!(
        roles.contains("cluster-admin") && roles.contains("system:discovery"),
        "{roles}"
    );
    let pcs = k.ok(&["get", "priorityclasses"]);
    assert!(
        pcs.contains("system-node-critical") && pcs.contains("2000001000"),
        "{pcs}"
    );
    // The service account controller gives every namespace its `default` account.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let out = k.run(&["get", "serviceaccount", "default", "-n", "kube-public"]);
        if out.status.success() {
            break;
        }
        assert!(Instant::now() < deadline, "no default service account");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_get_describe_and_output_formats() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let out = k.ok_stdin(&["create", "-f", "-"], DEPLOYMENT);
    assert!(out.contains("deployment.apps/web created"), "{out}");

    let table = k.ok(&["get", "deployments"]);
    assert!(table.starts_with("NAME"), "{table}");
    assert!(
        table.contains("READY") && table.contains("UP-TO-DATE") && table.contains("web"),
        "{table}"
    );
    let wide = k.ok(&["get", "deploy", "web", "-o", "wide"]);
    assert!(
        wide.contains("nginx:1.27") && wide.contains("app=web"),
        "{wide}"
    );

    let yaml = k.ok(&["get", "deploy", "web", "-o", "yaml"]);
    // Defaulting as upstream: strategy, revisionHistoryLimit, progressDeadlineSeconds.
    for want in [
        "revisionHistoryLimit: 10",
        "progressDeadlineSeconds: 600",
        "type: RollingUpdate",
        "maxSurge: 25%",
        "imagePullPolicy: IfNotPresent",
        "terminationMessagePath: /dev/termination-log",
        "restartPolicy: Always",
        "generation: 1",
        "uid:",
        "creationTimestamp:",
    ] {
        assert!(yaml.contains(want), "no {want:?} in\n{yaml}");
    }
    let json = k.ok(&["get", "deploy", "web", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["spec"]["template"]["spec"]["dnsPolicy"], "ClusterFirst");
    let jp = k.ok(&[
        "get",
        "deploy",
        "web",
        "-o",
        "jsonpath={.spec.template.spec.containers[0].image}",
    ]);
    assert_eq!(jp, "nginx:1.27");

    let d = k.ok(&["describe", "deployment", "web"]);
    assert!(
        d.contains("Name:") && d.contains("web") && d.contains("nginx:1.27"),
        "{d}"
    );

    // A second create is AlreadyExists, worded as upstream.
    let err = k.run_stdin(&["create", "-f", "-"], DEPLOYMENT);
    let stderr = String::from_utf8_lossy(&err.stderr);
    assert!(
        stderr.contains("Error from server (AlreadyExists)")
            && stderr.contains("deployments.apps \"web\" already exists"),
        "{stderr}"
    );
    let err = k.fails(&["get", "configmap", "nope"]);
    assert!(
        err.contains("Error from server (NotFound): configmaps \"nope\" not found"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_twice_keeps_fields_the_manifest_does_not_list_and_diff() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let out = k.ok_stdin(&["apply", "-f", "-"], DEPLOYMENT);
    assert!(out.contains("deployment.apps/web created"), "{out}");
    // Another client adds a label and an env var the manifest does not list.
    k.ok(&["label", "deployment", "web", "team=blue"]);
    let unchanged = k.ok_stdin(&["apply", "-f", "-"], DEPLOYMENT);
    assert!(
        unchanged.contains("deployment.apps/web unchanged"),
        "{unchanged}"
    );

    let changed = DEPLOYMENT
        .replace("replicas: 1", "replicas: 2")
        .replace("nginx:1.27", "nginx:1.28");
    // diff shows the change and exits 1.
    let diff = k.run_stdin(&["diff", "-f", "-"], &changed);
    assert_eq!(
        diff.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&diff.stderr)
    );
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(
        text.contains("+  replicas: 2") || text.contains("replicas: 2"),
        "{text}"
    );

    let out = k.ok_stdin(&["apply", "-f", "-"], &changed);
    assert!(out.contains("deployment.apps/web configured"), "{out}");
    let got = k.ok(&["get", "deploy", "web", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&got).expect("json");
    assert_eq!(v["spec"]["replicas"], 2);
    assert_eq!(
        v["metadata"]["labels"]["team"], "blue",
        "the label was kept"
    );
    assert_eq!(
        v["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.28"
    );
    assert_eq!(v["metadata"]["generation"], 2);
    assert!(
        v["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
            .is_string()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn patch_scale_label_annotate_and_selectors() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["create", "-f", "-"], DEPLOYMENT);
    // Strategic merge: containers merge by name, so the image changes and env stays.
    k.ok(&[
        "patch",
        "deployment",
        "web",
        "-p",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}"#,
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "deploy", "web", "-o", "json"])).expect("json");
    let c = &v["spec"]["template"]["spec"]["containers"];
    assert_eq!(c.as_array().map(Vec::len), Some(1), "{c}");
    assert_eq!(c[0]["image"], "nginx:2");
    assert_eq!(
        c[0]["env"][0]["name"], "A",
        "env kept by the strategic merge"
    );
    k.ok(&[
        "patch",
        "deployment",
        "web",
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"labels":{"tier":"front"}}}"#,
    ]);
    k.ok(&[
        "patch",
        "deployment",
        "web",
        "--type",
        "json",
        "-p",
        r#"[{"op":"replace","path":"/spec/revisionHistoryLimit","value":3}]"#,
    ]);
    k.ok(&["scale", "deployment", "web", "--replicas", "4"]);
    let v: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "deploy", "web", "-o", "json"])).expect("json");
    assert_eq!(v["metadata"]["labels"]["tier"], "front");
    assert_eq!(v["spec"]["revisionHistoryLimit"], 3);
    assert_eq!(v["spec"]["replicas"], 4);

    k.ok(&["create", "configmap", "one", "--from-literal", "a=1"]);
    k.ok(&["create", "configmap", "two", "--from-literal", "b=2"]);
    k.ok(&["label", "configmap", "one", "color=red"]);
    k.ok(&["annotate", "configmap", "one", "note=hello"]);
    let sel = k.ok(&["get", "configmaps", "-l", "color=red", "-o", "name"]);
    assert_eq!(sel.trim(), "configmap/one");
    let fs = k.ok(&[
        "get",
        "configmaps",
        "--field-selector",
        "metadata.name=two",
        "-o",
        "name",
    ]);
    assert_eq!(fs.trim(), "configmap/two");
    let ann = k.ok(&[
        "get",
        "cm",
        "one",
        "-o",
        "jsonpath={.metadata.annotations.note}",
    ]);
    assert_eq!(ann, "hello");
    let err = k.fails(&["get", "configmaps", "--field-selector", "spec.nope=1"]);
    assert!(
        err.contains(
            r#""spec.nope" is not a known field selector: only "metadata.name", "metadata.namespace""#
        ),
        "{err}"
    );
    let err = k.fails(&["get", "pods", "--field-selector", "spec.nope=1"]);
    assert!(
        err.contains("field label not supported: spec.nope"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_configmap_secret_namespace_and_token_send_protobuf() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok(&["create", "namespace", "team"]);
    k.ok(&[
        "create",
        "configmap",
        "cfg",
        "-n",
        "team",
        "--from-literal",
        "k=v",
    ]);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s",
        "-n",
        "team",
        "--from-literal",
        "password=hunter2",
    ]);
    k.ok(&["create", "serviceaccount", "robot", "-n", "team"]);
    let data = k.ok(&[
        "get",
        "secret",
        "s",
        "-n",
        "team",
        "-o",
        "jsonpath={.data.password}",
    ]);
    assert_eq!(data, "aHVudGVyMg==");
    let cm = k.ok(&["get", "cm", "cfg", "-n", "team", "-o", "jsonpath={.data.k}"]);
    assert_eq!(cm, "v");
    let token = k.ok(&["create", "token", "robot", "-n", "team"]);
    assert_eq!(token.trim().split('.').count(), 3, "a JWT: {token}");
    let can = k.ok(&["auth", "can-i", "create", "pods"]);
    assert_eq!(can.trim(), "yes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_sees_a_change_made_by_another_client() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok(&["create", "configmap", "watched", "--from-literal", "a=1"]);
    let (mut child, rx) = k.watch_lines(&[
        "get",
        "configmaps",
        "watched",
        "--watch",
        "--output-watch-events",
    ]);
    // A header, the existing object as ADDED, then the change as MODIFIED.
    let header = rx.recv_timeout(Duration::from_secs(20)).expect("header");
    assert!(
        header.starts_with("EVENT") && header.contains("NAME") && header.contains("DATA"),
        "{header}"
    );
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("first event");
    assert!(
        first.starts_with("ADDED") && first.contains("watched"),
        "{first}"
    );
    k.ok(&["label", "configmap", "watched", "seen=yes"]);
    let next = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("modified event");
    assert!(
        next.starts_with("MODIFIED") && next.contains("watched"),
        "{next}"
    );
    let _ = child.kill();
    let _ = child.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expose_explain_and_service_allocation() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["create", "-f", "-"], DEPLOYMENT);
    k.ok(&[
        "expose",
        "deployment",
        "web",
        "--port",
        "80",
        "--type",
        "NodePort",
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "svc", "web", "-o", "json"])).expect("json");
    let ip = v["spec"]["clusterIP"].as_str().unwrap_or("").to_owned();
    assert!(ip.starts_with("10.0.0.") && ip != "10.0.0.1", "{ip}");
    let node_port = v["spec"]["ports"][0]["nodePort"].as_i64().unwrap_or(0);
    assert!((30000..=32767).contains(&node_port), "{node_port}");
    assert_eq!(v["spec"]["selector"]["app"], "web");
    assert_eq!(v["spec"]["ports"][0]["targetPort"], 80);
    // The same IP cannot be taken twice.
    let svc = format!(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: dup\nspec:\n  clusterIP: {ip}\n  ports:\n  - port: 80\n"
    );
    let out = k.run_stdin(&["create", "-f", "-"], &svc);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("provided IP is already allocated"), "{err}");

    // A load balancer keeping traffic on the node gets a health check node port, which
    // is held while the policy is Local and given back when it changes.
    k.ok(&[
        "patch",
        "svc",
        "web",
        "-p",
        r#"{"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local"}}"#,
    ]);
    let check = |k: &Kubectl| {
        k.ok(&[
            "get",
            "svc",
            "web",
            "-o",
            "jsonpath={.spec.healthCheckNodePort}",
        ])
    };
    let port: i64 = check(&k).parse().expect("a health check node port");
    assert!(
        (30000..=32767).contains(&port) && port != node_port,
        "{port}"
    );
    k.ok(&["label", "svc", "web", "again=yes"]);
    assert_eq!(check(&k), port.to_string(), "kept by an update");
    let taken = format!(
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: hc\nspec:\n  type: NodePort\n  ports:\n  - port: 80\n    nodePort: {port}\n"
    );
    let out = k.run_stdin(&["create", "-f", "-"], &taken);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("provided port is already allocated"), "{err}");
    k.ok(&[
        "patch",
        "svc",
        "web",
        "-p",
        r#"{"spec":{"externalTrafficPolicy":"Cluster"}}"#,
    ]);
    assert_eq!(check(&k), "", "gone with the Local policy");
    k.ok_stdin(&["create", "-f", "-"], &taken);

    let explain = k.ok(&["explain", "pods.spec.containers"]);
    assert!(
        explain.contains("KIND:") && explain.contains("Pod") && explain.contains("image"),
        "{explain}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_namespace_deletes_its_contents() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok(&["create", "namespace", "doomed"]);
    k.ok(&[
        "create",
        "configmap",
        "c",
        "-n",
        "doomed",
        "--from-literal",
        "a=1",
    ]);
    k.ok_stdin(&["create", "-n", "doomed", "-f", "-"], DEPLOYMENT);
    let out = k.ok(&["delete", "namespace", "doomed", "--wait=false"]);
    assert!(out.contains("namespace \"doomed\" deleted"), "{out}");
    // Terminating (or already gone), then gone.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let out = k.run(&[
            "get",
            "namespace",
            "doomed",
            "-o",
            "jsonpath={.status.phase}",
        ]);
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("namespaces \"doomed\" not found"), "{err}");
            break;
        }
        assert_eq!(String::from_utf8_lossy(&out.stdout), "Terminating");
        assert!(Instant::now() < deadline, "namespace never went away");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let err = k.fails(&["create", "configmap", "late", "-n", "doomed"]);
    assert!(err.contains("namespaces \"doomed\" not found"), "{err}");
    k.ok(&["create", "configmap", "d", "--from-literal", "a=1"]);
    let out = k.ok(&["delete", "configmap", "d"]);
    assert!(out.contains("configmap \"d\" deleted"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_objects_get_upstreams_messages() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let bad = r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: bad
spec:
  selector:
    matchLabels:
      app: a
  template:
    metadata:
      labels:
        app: b
    spec:
      containers:
      - name: c
        image: nginx
"#;
    let out = k.run_stdin(&["create", "-f", "-"], bad);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("The Deployment \"bad\" is invalid")
            && err.contains("spec.template.metadata.labels")
            && err.contains("`selector` does not match template `labels`"),
        "{err}"
    );
    let typo = DEPLOYMENT.replace("replicas: 1", "replicas: 1\n  replicaz: 2");
    let out = k.run_stdin(&["create", "-f", "-"], &typo);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown field \"spec.replicaz\""), "{err}");
    let wrong_type = DEPLOYMENT.replace("replicas: 1", "replicas: \"one\"");
    let out = k.run_stdin(&["create", "-f", "-", "--validate=false"], &wrong_type);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"),
        "{err}"
    );
    // The legacy tolerations annotation is read as upstream's Go decoder reads it.
    for (value, want) in [
        (
            "[{\"key\": 7}]",
            "metadata.annotations: Invalid value: \"scheduler.alpha.kubernetes.io/tolerations\": json: cannot unmarshal number into Go struct field Toleration.key of type string",
        ),
        (
            "[{\"key\": \"k\", \"tolerationSeconds\": 5}]",
            "metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[0].effect: Invalid value: \"\": effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
    ] {
        let out = k.run(&[
            "run",
            "tolerates",
            "--image=nginx",
            &format!("--annotations=scheduler.alpha.kubernetes.io/tolerations={value}"),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
    }
    // So are a node's legacy taints and avoid-pods annotations, times included.
    for (annotation, want) in [
        (
            r#"scheduler.alpha.kubernetes.io/taints: '[{"key":"k","effect":"NoSchedule","timeAdded":"today"}]'"#,
            r#"metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/taints": parsing time "today" as "2006-01-02T15:04:05Z07:00": cannot parse "today" as "2006""#,
        ),
        (
            r#"scheduler.alpha.kubernetes.io/taints: '[{"key":"k"}]'"#,
            "metadata.annotations.scheduler.alpha.kubernetes.io/taints[0].effect: Required value",
        ),
        (
            r#"scheduler.alpha.kubernetes.io/preferAvoidPods: '{"preferAvoidPods":[{"podSignature":{}}]}'"#,
            "metadata.annotations.scheduler.alpha.kubernetes.io/preferAvoidPods[0].PodSignature: Required value",
        ),
    ] {
        let node =
            format!("apiVersion: v1\nkind: Node\nmetadata:\n  name: legacy\n  annotations:\n    {annotation}\n");
        let out = k.run_stdin(&["create", "-f", "-"], &node);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
    }
    // A MicroTime has six fractional digits, as Go's layout for it asks.
    let event = "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: short-time\neventTime: \"2024-01-01T00:00:00Z\"\nreportingController: example.com/c\nreportingInstance: i\naction: A\nreason: R\ntype: Normal\n";
    let out = k.run_stdin(&["create", "-f", "-", "--validate=false"], event);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(r#"parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000""#),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_stored_in_another_shape_read_back_converted() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let event = "apiVersion: v1\nkind: Event\nmetadata:\n  name: e1\ninvolvedObject:\n  kind: Pod\n  name: p\n  namespace: default\nreason: Started\nmessage: hello\ntype: Normal\ncount: 2\n";
    k.ok_stdin(&["create", "-f", "-"], event);
    let v: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "events.v1.events.k8s.io", "e1", "-o", "json"]))
            .expect("json");
    assert_eq!(v["apiVersion"], "events.k8s.io/v1");
    assert_eq!(v["note"], "hello");
    assert_eq!(v["regarding"]["name"], "p");
    assert_eq!(v["deprecatedCount"], 2);

    let hpa = "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  maxReplicas: 5\n  targetCPUUtilizationPercentage: 70\n";
    k.ok_stdin(&["create", "-f", "-"], hpa);
    let v2: serde_json::Value = serde_json::from_str(&k.ok(&[
        "get",
        "horizontalpodautoscalers.v2.autoscaling",
        "h",
        "-o",
        "json",
    ]))
    .expect("json");
    assert_eq!(
        v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
        70
    );
}

/// Objects come back with the empty structs and zero fields upstream's Go types always
/// write (non-pointer structs, non-`omitempty` fields), as kube-apiserver v1.33 answers
/// them; re-applying the same manifest changes nothing (no generation bump).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_carry_the_fields_upstream_always_writes() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let manifests = r#"
apiVersion: v1
kind: Node
metadata: {name: bare-node}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: no-rules}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
"#;
    k.ok_stdin(&["apply", "-f", "-"], manifests);
    let out = k.ok_stdin(&["apply", "-f", "-"], manifests);
    assert!(
        out.lines().all(|l| l.ends_with(" unchanged")),
        "re-apply: {out}"
    );
    k.ok_stdin(&["apply", "-f", "-"], DEPLOYMENT);
    let get = |what: &[&str]| -> serde_json::Value {
        let mut args = vec!["get"];
        args.extend_from_slice(what);
        args.extend_from_slice(&["-o", "json"]);
        serde_json::from_str(&k.ok(&args)).expect("json")
    };
    let node = get(&["node", "bare-node"]);
    // TaintNodesByCondition taints a new node until it is seen ready, as upstream's.
    assert_eq!(
        node["spec"],
        serde_json::json!({"taints": [{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"}]})
    );
    assert_eq!(
        node["status"]["daemonEndpoints"],
        serde_json::json!({"kubeletEndpoint": {"Port": 0}})
    );
    assert_eq!(node["status"]["nodeInfo"]["kubeletVersion"], "");
    let role = get(&["clusterrole", "no-rules"]);
    assert!(
        role.as_object()
            .is_some_and(|o| o.get("rules") == Some(&serde_json::Value::Null)),
        "{role}"
    );
    let sts = get(&["statefulset", "db"]);
    assert_eq!(
        sts["status"],
        serde_json::json!({"replicas": 0, "availableReplicas": 0})
    );
    assert_eq!(sts["metadata"]["generation"], 1);
    assert_eq!(
        sts["spec"]["template"]["metadata"]["creationTimestamp"],
        serde_json::Value::Null
    );
    assert_eq!(
        sts["spec"]["template"]["spec"]["containers"][0]["resources"],
        serde_json::json!({})
    );
    let deploy = get(&["deployment", "web"]);
    assert_eq!(deploy["status"], serde_json::json!({}));
    assert_eq!(deploy["metadata"]["generation"], 1);
}

mod admission;
mod aggregation;
mod audit;
#[path = "security/authz_reload.rs"]
mod authz_reload;
#[path = "kubectl/component_status.rs"]
mod component_status;
#[path = "kubectl/defaults.rs"]
mod defaults;
mod encryption;
#[path = "kubectl/ephemeral.rs"]
mod ephemeral;
#[path = "kubectl/eviction.rs"]
mod eviction;
mod fidelity;
#[path = "kubectl/field_selectors.rs"]
mod field_selectors;
#[path = "kubectl/flowcontrol/mod.rs"]
mod flowcontrol;
#[path = "security/front_proxy.rs"]
mod front_proxy;
#[path = "kubectl/graceful.rs"]
mod graceful;
mod hostile;
mod metrics;
#[path = "security/node.rs"]
mod node;
#[path = "security/oidc.rs"]
mod oidc;
#[path = "kubectl/pod_logs.rs"]
mod pod_logs;
#[path = "kubectl/proxy.rs"]
mod proxy;
#[path = "security/rbac.rs"]
mod rbac;
#[path = "kubectl/server_side_apply.rs"]
mod server_side_apply;
#[path = "security/service_accounts.rs"]
mod service_accounts;
#[path = "kubectl/status_writes.rs"]
mod status_writes;
mod storage_format;
#[path = "security/token_review.rs"]
mod token_review;
#[path = "kubectl/validation_walk.rs"]
mod validation_walk;
#[path = "security/webhook.rs"]
mod webhook;
#[path = "kubectl/wire.rs"]
mod wire;
