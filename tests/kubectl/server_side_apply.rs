//! Server-side apply as kube-apiserver runs it (issue 17): field ownership per manager in
//! `managedFields`, conflicts with other managers (409, kubectl's message), forcing,
//! removal of fields an applier stops sending, and upstream's refusals of bad requests.

use http::Method;
use serde_json::{json, Value};

use crate::harness::kubectl::Kubectl;
use crate::harness::{require_tool, Server};

/// The kubectl tests' Deployment with a second label.
fn manifest() -> String {
    crate::DEPLOYMENT.replacen(
        "    app: web\nspec:",
        "    app: web\n    tier: front\nspec:",
        1,
    )
}

fn get(k: &Kubectl) -> Value {
    let out = k.ok(&[
        "get",
        "deploy",
        "web",
        "-o",
        "json",
        "--show-managed-fields",
    ]);
    serde_json::from_str(&out).expect("json")
}

fn entries(v: &Value) -> Vec<Value> {
    v["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn applier(v: &Value, manager: &str) -> Value {
    entries(v)
        .into_iter()
        .find(|e| e["manager"] == manager && e["operation"] == "Apply")
        .unwrap_or_else(|| panic!("no Apply entry for {manager}: {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_apply_owns_conflicts_forces_and_prunes() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let out = k.ok_stdin(&["apply", "--server-side", "-f", "-"], &manifest());
    assert!(
        out.contains("deployment.apps/web serverside-applied"),
        "{out}"
    );
    let v = get(&k);
    assert_eq!(entries(&v).len(), 1, "{v}");
    let mine = applier(&v, "kubectl");
    assert_eq!(mine["apiVersion"], "apps/v1");
    assert_eq!(mine["fieldsType"], "FieldsV1");
    let container = &mine["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]
        ["k:{\"name\":\"nginx\"}"];
    assert_eq!(
        container["f:ports"],
        json!({"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}),
        "{mine}"
    );
    assert_eq!(
        container["f:env"]["k:{\"name\":\"A\"}"],
        json!({".": {}, "f:name": {}, "f:value": {}})
    );
    assert_eq!(
        mine["fieldsV1"]["f:metadata"],
        json!({"f:labels": {"f:app": {}, "f:tier": {}}})
    );
    // Re-applying the same manifest changes nothing.
    let rv = v["metadata"]["resourceVersion"].clone();
    k.ok_stdin(&["apply", "--server-side", "-f", "-"], &manifest());
    assert_eq!(get(&k)["metadata"]["resourceVersion"], rv);

    // kubectl scale takes spec.replicas through the scale subresource.
    k.ok(&["scale", "deploy", "web", "--replicas=3"]);
    let scaled = get(&k);
    let scaler = entries(&scaled)
        .into_iter()
        .find(|e| e["subresource"] == "scale")
        .unwrap_or_else(|| panic!("no scale entry: {scaled}"));
    assert_eq!(scaler["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    let scale_manager = scaler["manager"].as_str().unwrap().to_owned();
    // Applying replicas: 1 again conflicts with it.
    let err = k.fails_stdin(&["apply", "--server-side", "-f", "-"], &manifest());
    let want = format!(
        "Apply failed with 1 conflict: conflict with \"{scale_manager}\" with subresource \"scale\" using apps/v1: .spec.replicas"
    );
    assert!(err.contains(&want), "{err}");
    assert_eq!(get(&k)["spec"]["replicas"], 3);
    // Forcing takes the field over.
    k.ok_stdin(
        &["apply", "--server-side", "--force-conflicts", "-f", "-"],
        &manifest(),
    );
    let forced = get(&k);
    assert_eq!(forced["spec"]["replicas"], 1);
    assert!(
        entries(&forced).iter().all(|e| e["subresource"] != "scale"),
        "{forced}"
    );

    // Another manager's label survives the applier; what the applier drops goes.
    k.ok(&["label", "deploy", "web", "team=blue"]);
    let trimmed = manifest().replace("    tier: front\n", "").replace(
        "        env:\n        - name: A\n          value: \"1\"\n",
        "",
    );
    k.ok_stdin(&["apply", "--server-side", "-f", "-"], &trimmed);
    let v = get(&k);
    assert_eq!(
        v["metadata"]["labels"],
        json!({"app": "web", "team": "blue"})
    );
    assert!(
        v["spec"]["template"]["spec"]["containers"][0]
            .get("env")
            .is_none(),
        "{v}"
    );

    // A second applier changing the image conflicts with the first.
    let other = trimmed.replace("nginx:1.27", "nginx:1.28");
    let err = k.fails_stdin(
        &["apply", "--server-side", "--field-manager=ci", "-f", "-"],
        &other,
    );
    assert!(
        err.contains(
            "conflict with \"kubectl\": .spec.template.spec.containers[name=\"nginx\"].image"
        ),
        "{err}"
    );
}

async fn apply(server: &Server, query: &str, ctype: &str, body: &Value) -> (u16, Value) {
    let path = format!("/apis/apps/v1/namespaces/default/deployments/web{query}");
    let reply = server
        .request_full(
            Method::PATCH,
            &path,
            &[("content-type", ctype)],
            body.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("patch");
    (reply.status.as_u16(), reply.json())
}

fn config() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}]}}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_apply_requests_get_upstreams_statuses() {
    let server = Server::builder().start().await;
    const APPLY: &str = "application/apply-patch+yaml";
    let (code, s) = apply(&server, "", APPLY, &config()).await;
    assert_eq!(code, 422, "{s}");
    assert_eq!(
        s["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );
    let (code, s) = apply(
        &server,
        "?force=true",
        "application/merge-patch+json",
        &json!({}),
    )
    .await;
    assert_eq!(code, 422, "{s}");
    assert_eq!(
        s["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
    let mut bad = config();
    bad["spec"]["bogus"] = json!(1);
    let (code, s) = apply(&server, "?fieldManager=a", APPLY, &bad).await;
    // Upstream answers 500 without a reason; a client's mistake is a 400 here (README).
    assert_eq!(code, 400, "{s}");
    assert_eq!(
        s["message"],
        "failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.bogus: field not declared in schema"
    );
    assert_eq!(s["reason"], "BadRequest", "{s}");
    let mut wrong = config();
    wrong["kind"] = json!("StatefulSet");
    let (code, s) = apply(&server, "?fieldManager=a", APPLY, &wrong).await;
    assert_eq!(code, 400, "{s}");
    assert_eq!(
        s["message"],
        "invalid object type: apps/v1, Kind=StatefulSet"
    );

    // Created by the first apply (201), then a conflict has its causes.
    let (code, created) = apply(&server, "?fieldManager=a", APPLY, &config()).await;
    assert_eq!(code, 201, "{created}");
    let mut more = config();
    more["spec"]["replicas"] = json!(4);
    let (code, s) = apply(&server, "?fieldManager=b", APPLY, &more).await;
    assert_eq!(code, 409, "{s}");
    assert_eq!(s["reason"], "Conflict");
    assert_eq!(
        s["message"],
        "Apply failed with 1 conflict: conflict with \"a\": .spec.replicas"
    );
    assert_eq!(
        s["details"]["causes"],
        json!([{"reason": "FieldManagerConflict", "message": "conflict with \"a\"", "field": ".spec.replicas"}])
    );
    let (code, s) = apply(&server, "?fieldManager=b&force=true", APPLY, &more).await;
    assert_eq!(code, 200, "{s}");
    assert_eq!(s["spec"]["replicas"], 4);
    let managers: Vec<&str> = s["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["manager"].as_str().unwrap())
        .collect();
    assert_eq!(managers, ["a", "b"], "{s}");
    // A dry run answers the merged object and stores nothing.
    let mut dry = config();
    dry["spec"]["replicas"] = json!(7);
    let (code, s) = apply(&server, "?fieldManager=b&dryRun=All", APPLY, &dry).await;
    assert_eq!(code, 200, "{s}");
    assert_eq!(s["spec"]["replicas"], 7);
    let (_, stored) = apply(&server, "?fieldManager=b", APPLY, &more).await;
    assert_eq!(stored["spec"]["replicas"], 4);
}

pub(crate) const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: routes.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: routes, singular: route, kind: Route}
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
              host: {type: string}
              rules:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [path]
                items:
                  type: object
                  required: [path]
                  properties:
                    path: {type: string}
                    backend: {type: string}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_resources_merge_by_their_schema() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    k.ok_stdin(&["apply", "-f", "-"], CRD);
    k.wait_established("routes.example.com");
    // Custom resources carry their storage version's hash in discovery too.
    let doc: Value =
        serde_json::from_str(&k.ok(&["get", "--raw", "/apis/example.com/v1"])).unwrap();
    assert_eq!(
        doc["resources"][0]["storageVersionHash"], "Vjmtpge9ZzI=",
        "{doc}"
    );
    let route = |manager: &str, rules: &str| {
        let rules = if rules.is_empty() {
            String::new()
        } else {
            format!("  rules:\n{rules}")
        };
        let body = format!(
            "apiVersion: example.com/v1\nkind: Route\nmetadata:\n  name: r\nspec:\n  host: a.example\n{rules}"
        );
        k.run_stdin(
            &[
                "apply",
                "--server-side",
                &format!("--field-manager={manager}"),
                "-f",
                "-",
            ],
            &body,
        )
    };
    let out = route("one", "  - path: /a\n    backend: svc-x\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A second applier adds its own rule to the keyed list; host is shared (same value).
    let out = route("two", "  - path: /b\n    backend: svc-y\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value =
        serde_json::from_str(&k.ok(&["get", "route", "r", "-o", "json", "--show-managed-fields"]))
            .unwrap();
    let rules: Vec<&str> = v["spec"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["/a", "/b"], "{v}");
    let two = applier(&v, "two");
    assert_eq!(
        two["fieldsV1"]["f:spec"]["f:rules"],
        json!({"k:{\"path\":\"/b\"}": {".": {}, "f:backend": {}, "f:path": {}}})
    );
    // Changing the other applier's rule conflicts; dropping its own removes it.
    let out = route("two", "  - path: /a\n    backend: svc-z\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("conflict with \"one\": .spec.rules[path=\"/a\"].backend"),
        "{err}"
    );
    let out = route("two", "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(&k.ok(&["get", "route", "r", "-o", "json"])).unwrap();
    assert_eq!(
        v["spec"]["rules"],
        json!([{"path": "/a", "backend": "svc-x"}]),
        "{v}"
    );
}

/// kubectl moving an object from client-side to server-side apply and back: no
/// conflicts with its own earlier client-side apply, the last-applied annotation kept in
/// step by the server, and client-side apply working on the result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_side_to_server_side_apply_and_back() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    k.ok_stdin(&["apply", "-f", "-"], &manifest());
    let csa = get(&k);
    assert!(
        entries(&csa)
            .iter()
            .any(|e| e["manager"] == "kubectl-client-side-apply" && e["operation"] == "Update"),
        "{csa}"
    );
    let v2 = manifest().replace("nginx:1.27", "nginx:1.28");
    let out = k.ok_stdin(&["apply", "--server-side", "-f", "-"], &v2);
    assert!(out.contains("serverside-applied"), "{out}");
    let ssa = get(&k);
    assert_eq!(
        ssa["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.28"
    );
    let mine = applier(&ssa, "kubectl");
    assert!(
        mine["fieldsV1"]["f:spec"].get("f:replicas").is_some(),
        "{mine}"
    );
    let last: Value = serde_json::from_str(
        ssa["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
            .as_str()
            .expect("annotation kept"),
    )
    .unwrap();
    assert_eq!(
        last["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.28"
    );
    // Back to client-side apply: a label removed from the manifest goes.
    let v3 = v2.replace("    tier: front\n", "");
    let out = k.ok_stdin(&["apply", "-f", "-"], &v3);
    assert!(out.contains("configured"), "{out}");
    let back = get(&k);
    assert_eq!(back["metadata"]["labels"], json!({"app": "web"}), "{back}");
}

/// Apply and update through the scale subresource: recorded on the parent under
/// subresource `scale` (an update's entry without a time, as upstream's scale handler
/// writes it), and an applier of the parent conflicts with the scale's applier.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scale_writes_own_the_parents_replicas() {
    let server = Server::builder().start().await;
    const APPLY: &str = "application/apply-patch+yaml";
    let (code, _) = apply(&server, "?fieldManager=deployer", APPLY, &config()).await;
    assert_eq!(code, 201);
    let scale = json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
        "metadata": {"name": "web"}, "spec": {"replicas": 3}});
    let reply = server
        .request_full(
            Method::PATCH,
            "/apis/apps/v1/namespaces/default/deployments/web/scale?fieldManager=scaler&force=true",
            &[("content-type", APPLY)],
            scale.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("scale apply");
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["spec"]["replicas"], 3);
    let d = server
        .get("/apis/apps/v1/namespaces/default/deployments/web")
        .await
        .json();
    assert_eq!(d["spec"]["replicas"], 3);
    let entries = d["metadata"]["managedFields"].as_array().unwrap().clone();
    let scaler = entries
        .iter()
        .find(|e| e["manager"] == "scaler")
        .unwrap_or_else(|| panic!("{d}"));
    assert_eq!(scaler["operation"], "Apply");
    assert_eq!(scaler["subresource"], "scale");
    assert_eq!(scaler["apiVersion"], "apps/v1");
    assert_eq!(scaler["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    let deployer = entries.iter().find(|e| e["manager"] == "deployer").unwrap();
    assert!(
        deployer["fieldsV1"]["f:spec"].get("f:replicas").is_none(),
        "{d}"
    );
    // The deployer applying its replicas again conflicts with the scale applier.
    let (code, s) = apply(&server, "?fieldManager=deployer", APPLY, &config()).await;
    assert_eq!(code, 409, "{s}");
    assert_eq!(
        s["message"],
        "Apply failed with 1 conflict: conflict with \"scaler\" with subresource \"scale\": .spec.replicas"
    );
    // An update of the scale (PUT) takes replicas over with an entry without a time.
    let put = json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
        "metadata": {"name": "web", "namespace": "default"}, "spec": {"replicas": 5}});
    let reply = server
        .request_full(
            Method::PUT,
            "/apis/apps/v1/namespaces/default/deployments/web/scale?fieldManager=hpa",
            &[("content-type", "application/json")],
            put.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("scale put");
    assert_eq!(reply.status, 200, "{}", reply.text());
    let d = server
        .get("/apis/apps/v1/namespaces/default/deployments/web")
        .await
        .json();
    let entries = d["metadata"]["managedFields"].as_array().unwrap();
    let hpa = entries.iter().find(|e| e["manager"] == "hpa").unwrap();
    assert_eq!(hpa["operation"], "Update");
    assert_eq!(hpa["subresource"], "scale");
    assert!(hpa.get("time").is_none(), "{hpa}");
    assert!(entries.iter().all(|e| e["manager"] != "scaler"), "{d}");
}

/// The official Python client: server-side apply through its dynamic client (conflict,
/// then forced), and a watch, which it asks for with `watch=True`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_client_applies_and_watches() {
    let Some(python) = crate::harness::python::python() else {
        return;
    };
    let server = Server::builder().start().await;
    let script = r#"
import json, sys
from kubernetes import client, config, dynamic, watch
from kubernetes.client.rest import ApiException
config.load_kube_config(sys.argv[1])
api = client.ApiClient()
cms = dynamic.DynamicClient(api).resources.get(api_version="v1", kind="ConfigMap")
def body(v):
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "py", "namespace": "default"}, "data": {"a": v}}
out = {}
r = cms.server_side_apply(body=body("1"), field_manager="py-one")
out["managers"] = [(e.manager, e.operation) for e in r.metadata.managedFields]
try:
    cms.server_side_apply(body=body("2"), field_manager="py-two")
    out["conflict"] = None
except ApiException as e:
    out["conflict"] = [e.status, json.loads(e.body)["message"]]
r = cms.server_side_apply(body=body("2"), field_manager="py-two", force_conflicts=True)
out["forced"] = r.data.a
seen = []
w = watch.Watch()
for ev in w.stream(client.CoreV1Api().list_namespaced_config_map, "default", timeout_seconds=5):
    seen.append([ev["type"], ev["object"].metadata.name])
    if ev["object"].metadata.name == "py":
        w.stop()
out["watch"] = seen
print(json.dumps(out))
"#;
    let out = crate::harness::python::run(&python, &server, script);
    let v: Value = serde_json::from_str(out.trim()).expect("script output");
    assert_eq!(v["managers"], json!([["py-one", "Apply"]]), "{v}");
    assert_eq!(
        v["conflict"],
        json!([
            409,
            "Apply failed with 1 conflict: conflict with \"py-one\": .data.a"
        ])
    );
    assert_eq!(v["forced"], "2");
    assert!(
        v["watch"]
            .as_array()
            .unwrap()
            .contains(&json!(["ADDED", "py"])),
        "{v}"
    );
}
