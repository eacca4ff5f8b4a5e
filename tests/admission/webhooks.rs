//! MutatingAdmissionWebhook and ValidatingAdmissionWebhook through kubectl, against a
//! small HTTPS admission webhook on 127.0.0.1 (its own CA, made with rcgen) whose path
//! says how it answers: refuse names starting with "bad", add a label, answer late,
//! answer garbage, answer for another request.

use std::time::{Duration, Instant};

use base64::Engine;
use bytes::Bytes;
use http::Method;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{json, Value};

use super::super::harness::https::ReviewWebhook;
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};

/// The answer of `path` to `review`.
fn answer(path: &str, review: &Value) -> Value {
    let request = &review["request"];
    let uid = request["uid"].clone();
    let name = request["name"]
        .as_str()
        .or_else(|| request["object"]["metadata"]["name"].as_str())
        .unwrap_or("");
    let mut response = json!({"uid": uid, "allowed": true});
    match path {
        "/deny-bad" => {
            response["warnings"] = json!(["checked by deny-bad"]);
            response["auditAnnotations"] = json!({"checked": "yes"});
            if name.starts_with("bad") {
                response["allowed"] = json!(false);
                response["status"] = json!({"code": 403, "reason": "Forbidden",
                    "message": "names starting with bad are not allowed"});
            }
        }
        "/label" => {
            let has_labels = request["object"]["metadata"]["labels"].is_object();
            let patch = match has_labels {
                true => {
                    json!([{"op": "add", "path": "/metadata/labels/webhook", "value": "was-here"}])
                }
                false => {
                    json!([{"op": "add", "path": "/metadata/labels", "value": {"webhook": "was-here"}}])
                }
            };
            response["patch"] = json!(base64::engine::general_purpose::STANDARD
                .encode(serde_json::to_vec(&patch).unwrap_or_default()));
            response["patchType"] = json!("JSONPatch");
        }
        "/sidecar" => {
            let containers = request["object"]["spec"]["containers"].as_array();
            let has = containers.is_some_and(|c| c.iter().any(|c| c["name"] == "sidecar"));
            if !has {
                let patch = json!([{"op": "add", "path": "/spec/containers/-",
                                    "value": {"name": "sidecar", "image": "busybox"}}]);
                response["patch"] = json!(base64::engine::general_purpose::STANDARD
                    .encode(serde_json::to_vec(&patch).unwrap_or_default()));
                response["patchType"] = json!("JSONPatch");
            }
        }
        "/deny" => {
            response["allowed"] = json!(false);
            response["status"] = json!({"message": "selected and refused"});
        }
        "/garbage" => return json!({"hello": "world"}),
        "/wrong-uid" => response["uid"] = json!("not-the-uid"),
        _ => {}
    }
    json!({"apiVersion": review["apiVersion"], "kind": "AdmissionReview", "response": response})
}

/// The admission webhook on 127.0.0.1: answers as [`answer`], `/slow` five seconds late.
async fn start_webhook() -> ReviewWebhook {
    ReviewWebhook::start(|path, review| async move {
        if path == "/slow" {
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
        answer(&path, &review)
    })
    .await
}

/// One webhook of a configuration, as YAML list item (JSON is YAML).
fn hook(name: &str, url: &str, ca: &str, extra: Value) -> Value {
    let mut h = json!({
        "name": name,
        "clientConfig": {"url": url, "caBundle": ca},
        "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                   "resources": ["configmaps"]}],
        "sideEffects": "None",
        "admissionReviewVersions": ["v1"],
    });
    if let (Some(h), Some(extra)) = (h.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            h.insert(k.clone(), v.clone());
        }
    }
    h
}

fn configuration(kind: &str, name: &str, hooks: Vec<Value>) -> String {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
           "metadata": {"name": name}, "webhooks": hooks})
    .to_string()
}

fn configmap(name: &str, labels: Value) -> String {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": name, "namespace": "default", "labels": labels}})
    .to_string()
}

/// Polls `check` until it holds, for at most `limit`; returns how long.
fn until(limit: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < limit, "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

async fn setup() -> Option<(Server, Kubectl, ReviewWebhook)> {
    if !require_tool("kubectl") {
        return None;
    }
    let webhook = start_webhook().await;
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    Some((server, k, webhook))
}

/// A validating webhook refusing names: in effect within a second of being created, its
/// refusal shown by kubectl as upstream words it, its warnings printed, the review it
/// was sent filled as upstream's; server dry runs reach a webhook without side effects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validating_webhook_refuses_and_warns() {
    let Some((server, k, webhook)) = setup().await else {
        return;
    };
    let config = configuration(
        "ValidatingWebhookConfiguration",
        "deny-bad",
        vec![hook(
            "deny-bad.example.com",
            &webhook.url("/deny-bad"),
            &webhook.ca_bundle(),
            json!({"timeoutSeconds": 5}),
        )],
    );
    k.ok_stdin(&["create", "-f", "-"], &config);
    let created = Instant::now();
    let mut refusal = String::new();
    until(Duration::from_secs(5), "the webhook refuses", || {
        let out = k.run(&["create", "configmap", "bad-one", "--dry-run=server"]);
        refusal = String::from_utf8_lossy(&out.stderr).into_owned();
        !out.status.success()
    });
    let took = created.elapsed();
    eprintln!("validating webhook in effect {took:?} after its configuration was created");
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert!(
        refusal.contains(
            "admission webhook \"deny-bad.example.com\" denied the request: names starting with bad are not allowed"
        ),
        "{refusal}"
    );
    let err = k.fails(&["create", "configmap", "bad-two"]);
    assert!(
        err.contains("error: failed to create configmap: admission webhook \"deny-bad.example.com\" denied the request: names starting with bad are not allowed"),
        "{err}"
    );
    let out = k.run(&["create", "configmap", "good", "--from-literal=a=b"]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Warning: checked by deny-bad"), "{stderr}");

    let (path, review) = webhook
        .reviews("/deny-bad")
        .into_iter()
        .rev()
        .find(|(_, r)| r["request"]["name"] == "good")
        .expect("the review of good");
    assert_eq!(path, "/deny-bad?timeout=5s");
    assert_eq!(review["apiVersion"], "admission.k8s.io/v1");
    let req = &review["request"];
    assert!(req["uid"].as_str().is_some_and(|u| u.len() == 36), "{req}");
    assert_eq!(
        req["kind"],
        json!({"group": "", "version": "v1", "kind": "ConfigMap"})
    );
    assert_eq!(
        req["resource"],
        json!({"group": "", "version": "v1", "resource": "configmaps"})
    );
    assert_eq!(req["requestKind"], req["kind"]);
    assert_eq!(req["namespace"], "default");
    assert_eq!(req["operation"], "CREATE");
    assert_eq!(req["dryRun"], false);
    assert_eq!(req["object"]["data"], json!({"a": "b"}));
    assert_eq!(req["oldObject"], Value::Null);
    assert_eq!(req["options"]["kind"], "CreateOptions");
    assert!(
        req["userInfo"]["username"]
            .as_str()
            .is_some_and(|u| !u.is_empty()),
        "{req}"
    );
    // The dry runs were sent as such.
    assert!(webhook
        .reviews("/deny-bad")
        .iter()
        .any(|(_, r)| r["request"]["dryRun"] == true && r["request"]["name"] == "bad-one"));
    // Stored with upstream's defaults.
    let stored = k.ok(&[
        "get",
        "validatingwebhookconfiguration",
        "deny-bad",
        "-o",
        "jsonpath={.webhooks[0].failurePolicy} {.webhooks[0].matchPolicy} {.webhooks[0].rules[0].scope}",
    ]);
    assert_eq!(stored, "Fail Equivalent *");
    // Configurations that cannot work are refused with upstream's causes.
    let broken = configuration(
        "ValidatingWebhookConfiguration",
        "broken",
        vec![hook(
            "broken.example.com",
            "http://127.0.0.1/x?a=b",
            &webhook.ca_bundle(),
            json!({"timeoutSeconds": 60, "admissionReviewVersions": ["v9"],
                   "sideEffects": "Some",
                   "matchConditions": [{"name": "c", "expression": "object.x =="}]}),
        )],
    );
    let err = k.fails_stdin(&["create", "-f", "-"], &broken);
    for cause in [
        "The ValidatingWebhookConfiguration \"broken\" is invalid",
        "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"",
        "webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be between 1 and 30 seconds",
        "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
        "webhooks[0].clientConfig.url: Invalid value: \"a=b\": query parameters are not permitted in the URL",
        "webhooks[0].matchConditions[0].expression: Invalid value: \"object.x ==\": compilation failed",
        "webhooks[0].admissionReviewVersions: Invalid value: []string{\"v9\"}: must include at least one of v1, v1beta1",
    ] {
        assert!(err.contains(cause), "{cause}\n{err}");
    }
    // A namespace selector (the namespace's labels, from the cache or storage) and a
    // match condition (CEL over the object) choose what is sent.
    let selective = configuration(
        "ValidatingWebhookConfiguration",
        "selective",
        vec![hook(
            "selective.example.com",
            &webhook.url("/deny"),
            &webhook.ca_bundle(),
            json!({"namespaceSelector": {"matchLabels": {"webhooks": "on"}},
                   "matchConditions": [{"name": "cond-names",
                       "expression": "object.metadata.name.startsWith('cond')"}]}),
        )],
    );
    k.ok_stdin(&["create", "-f", "-"], &selective);
    k.ok(&["create", "namespace", "plain"]);
    k.ok(&["create", "namespace", "watched"]);
    k.ok(&["label", "namespace", "watched", "webhooks=on"]);
    until(
        Duration::from_secs(5),
        "the selective webhook refuses",
        || {
            let out = k.run(&[
                "create",
                "configmap",
                "cond-1",
                "-n",
                "watched",
                "--dry-run=server",
            ]);
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            !out.status.success()
            && err.contains("admission webhook \"selective.example.com\" denied the request: selected and refused")
        },
    );
    k.ok(&["create", "configmap", "other", "-n", "watched"]);
    k.ok(&["create", "configmap", "cond-2", "-n", "plain"]);
    k.ok(&["delete", "validatingwebhookconfiguration", "selective"]);
    // Gone: writes pass again.
    k.ok(&["delete", "validatingwebhookconfiguration", "deny-bad"]);
    until(Duration::from_secs(5), "the webhook is gone", || {
        k.run(&["create", "configmap", "bad-three", "--dry-run=server"])
            .status
            .success()
    });

    // kube-apiserver's webhook series: the denial (403: the webhook's result had no
    // code), the allowed calls, their latency.
    let text = crate::metrics::scrape(&server).await;
    let name = r#"name="deny-bad.example.com""#;
    let of = |series: &str, labels: &[&str]| {
        let mut all = vec![name, r#"type="validating""#, r#"operation="CREATE""#];
        all.extend_from_slice(labels);
        crate::metrics::value_with(&text, series, &all)
    };
    let denied = of(
        "apiserver_admission_webhook_rejection_count",
        &[r#"error_type="no_error""#, r#"rejection_code="403""#],
    );
    assert!(denied.is_some_and(|n| n >= 2.0), "{text}");
    let allowed = of(
        "apiserver_admission_webhook_request_total",
        &[r#"code="200""#, r#"rejected="false""#],
    );
    assert!(allowed.is_some_and(|n| n >= 1.0), "{text}");
    let refused = of(
        "apiserver_admission_webhook_request_total",
        &[r#"code="403""#, r#"rejected="true""#],
    );
    assert!(refused.is_some_and(|n| n >= 2.0), "{text}");
    let timed = of(
        "apiserver_admission_webhook_admission_duration_seconds_count",
        &[r#"rejected="false""#],
    );
    assert!(timed.is_some_and(|n| n >= 1.0), "{text}");
    // The selective webhook skipped for "other" by its match condition.
    let condition = |series: &str| {
        crate::metrics::value_with(
            &text,
            series,
            &[
                r#"name="selective.example.com""#,
                r#"kind="webhook""#,
                r#"type="validating""#,
                r#"operation="CREATE""#,
            ],
        )
    };
    let excluded = condition("apiserver_admission_match_condition_exclusions_total");
    assert!(excluded.is_some_and(|n| n >= 1.0), "{text}");
    let timed = condition("apiserver_admission_match_condition_evaluation_seconds_count");
    assert!(timed.is_some_and(|n| n >= 1.0), "{text}");
    assert!(condition("apiserver_admission_match_condition_evaluation_errors_total").is_none());
}

/// A mutating webhook adding a label: the label is stored; a reinvocable webhook before
/// it is called again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutating_webhook_adds_a_label() {
    let Some((_server, k, webhook)) = setup().await else {
        return;
    };
    let config = configuration(
        "MutatingWebhookConfiguration",
        "label",
        vec![
            hook(
                "again.example.com",
                &webhook.url("/allow"),
                &webhook.ca_bundle(),
                json!({"reinvocationPolicy": "IfNeeded"}),
            ),
            hook(
                "label.example.com",
                &webhook.url("/label"),
                &webhook.ca_bundle(),
                json!({}),
            ),
        ],
    );
    k.ok_stdin(&["create", "-f", "-"], &config);
    until(Duration::from_secs(5), "the label is added", || {
        let _ = k.run(&["delete", "configmap", "probe", "--ignore-not-found"]);
        k.ok(&["create", "configmap", "probe"]);
        k.ok(&[
            "get",
            "configmap",
            "probe",
            "-o",
            "jsonpath={.metadata.labels.webhook}",
        ]) == "was-here"
    });
    k.ok_stdin(
        &["create", "-f", "-"],
        &configmap("labelled", json!({"app": "x"})),
    );
    let yaml = k.ok(&["get", "configmap", "labelled", "-o", "yaml"]);
    assert!(yaml.contains("webhook: was-here"), "{yaml}");
    assert!(yaml.contains("app: x"), "{yaml}");
    // again.example.com: once, then once more after the label was added.
    let again: Vec<_> = webhook
        .reviews("/allow")
        .into_iter()
        .filter(|(_, r)| r["request"]["name"] == "labelled")
        .collect();
    assert_eq!(again.len(), 2, "{again:?}");
    assert_eq!(
        again[1].1["request"]["object"]["metadata"]["labels"]["webhook"],
        "was-here"
    );
}

/// A webhook's change makes the whole mutating chain run once more, as upstream's
/// reinvoker: a sidecar a webhook injects gets its LimitRange defaults from LimitRanger
/// (which runs before the webhooks), and the ServiceAccount plugin's second run does not
/// mount the token twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhooks_change_reruns_the_built_in_plugins() {
    let Some((_server, k, webhook)) = setup().await else {
        return;
    };
    k.ok_stdin(
        &["create", "-f", "-"],
        &json!({"apiVersion": "v1", "kind": "LimitRange",
                "metadata": {"name": "defaults", "namespace": "default"},
                "spec": {"limits": [{"type": "Container",
                                     "default": {"cpu": "300m", "memory": "64Mi"},
                                     "defaultRequest": {"cpu": "100m", "memory": "32Mi"}}]}})
        .to_string(),
    );
    let rules = json!({"rules": [{"operations": ["CREATE"], "apiGroups": [""],
                                  "apiVersions": ["v1"], "resources": ["pods"]}]});
    let config = configuration(
        "MutatingWebhookConfiguration",
        "sidecar",
        vec![hook(
            "sidecar.example.com",
            &webhook.url("/sidecar"),
            &webhook.ca_bundle(),
            rules,
        )],
    );
    k.ok_stdin(&["create", "-f", "-"], &config);
    let pod = |name: &str| {
        json!({"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": name, "namespace": "default"},
               "spec": {"containers": [{"name": "app", "image": "nginx"}]}})
        .to_string()
    };
    let mut n = 0;
    until(Duration::from_secs(5), "the sidecar is injected", || {
        n += 1;
        let name = format!("probe-{n}");
        k.ok_stdin(&["create", "-f", "-"], &pod(&name));
        k.ok(&[
            "get",
            "pod",
            &name,
            "-o",
            "jsonpath={.spec.containers[*].name}",
        ]) == "app sidecar"
    });
    k.ok_stdin(&["create", "-f", "-"], &pod("injected"));
    let got: Value =
        serde_json::from_str(&k.ok(&["get", "pod", "injected", "-o", "json"])).expect("json");
    let sidecar = &got["spec"]["containers"][1];
    assert_eq!(sidecar["name"], "sidecar");
    assert_eq!(sidecar["resources"]["limits"]["cpu"], "300m", "{sidecar}");
    assert_eq!(
        sidecar["resources"]["requests"]["memory"], "32Mi",
        "{sidecar}"
    );
    // Plugins that ran twice did their work once.
    let volumes = got["spec"]["volumes"].as_array().map(Vec::len).unwrap_or(0);
    assert_eq!(volumes, 1, "{}", got["spec"]["volumes"]);
    let mounts = sidecar["volumeMounts"]
        .as_array()
        .map(Vec::len)
        .unwrap_or(0);
    assert_eq!(mounts, 1, "{sidecar}");
    let tolerations = got["spec"]["tolerations"]
        .as_array()
        .map(Vec::len)
        .unwrap_or(0);
    assert_eq!(tolerations, 2, "{}", got["spec"]["tolerations"]);
    // The review the webhook was sent in the first run.
    let reviews = webhook.reviews("/sidecar");
    assert!(reviews
        .iter()
        .any(|(_, r)| r["request"]["object"]["metadata"]["name"] == "injected"));
}

/// Webhooks that cannot be called: down (Ignore passes, Fail refuses with a 500 naming
/// the webhook), too slow for `timeoutSeconds: 1` (refused within about a second),
/// answering garbage or for another request (500 naming the webhook).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failing_webhooks_and_failure_policy() {
    let Some((server, k, webhook)) = setup().await else {
        return;
    };
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let down_url = format!("https://{}/down", closed.local_addr().expect("addr"));
    drop(closed);
    let only = |scenario: &str| json!({"objectSelector": {"matchLabels": {"scenario": scenario}}});
    let with = |scenario: &str, more: Value| {
        let mut v = only(scenario);
        if let (Some(v), Some(more)) = (v.as_object_mut(), more.as_object()) {
            v.extend(more.clone());
        }
        v
    };
    let ca = &webhook.ca_bundle();
    let config = configuration(
        "ValidatingWebhookConfiguration",
        "failing",
        vec![
            hook(
                "down-ignore.example.com",
                &down_url,
                ca,
                with("down-ignore", json!({"failurePolicy": "Ignore"})),
            ),
            hook("down-fail.example.com", &down_url, ca, only("down-fail")),
            hook(
                "slow.example.com",
                &webhook.url("/slow"),
                ca,
                with("slow", json!({"timeoutSeconds": 1})),
            ),
            hook(
                "garbage.example.com",
                &webhook.url("/garbage"),
                ca,
                only("garbage"),
            ),
            hook(
                "wrong-uid.example.com",
                &webhook.url("/wrong-uid"),
                ca,
                only("wrong-uid"),
            ),
            hook(
                "allow.example.com",
                &webhook.url("/allow"),
                ca,
                only("allow"),
            ),
        ],
    );
    k.ok_stdin(&["create", "-f", "-"], &config);
    until(Duration::from_secs(5), "the webhooks are in effect", || {
        !k.run_stdin(
            &["create", "-f", "-", "--dry-run=server"],
            &configmap("probe", json!({"scenario": "down-fail"})),
        )
        .status
        .success()
    });

    k.ok_stdin(
        &["create", "-f", "-"],
        &configmap("ignored", json!({"scenario": "down-ignore"})),
    );
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &configmap("refused", json!({"scenario": "down-fail"})),
    );
    let port = down_url
        .trim_start_matches("https://127.0.0.1:")
        .trim_end_matches("/down");
    assert!(
        err.contains(&format!(
            "Error from server (InternalError): error when creating \"STDIN\": Internal error occurred: failed calling webhook \"down-fail.example.com\": failed to call webhook: Post \"{down_url}?timeout=10s\": dial tcp 127.0.0.1:{port}: connect: connection refused"
        )),
        "{err}"
    );

    let started = Instant::now();
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &configmap("slow", json!({"scenario": "slow"})),
    );
    let took = started.elapsed();
    eprintln!("a webhook past timeoutSeconds: 1 refused the request in {took:?}");
    assert!(took < Duration::from_millis(2500), "took {took:?}");
    assert!(
        err.contains("Internal error occurred: failed calling webhook \"slow.example.com\": failed to call webhook: Post"),
        "{err}"
    );
    assert!(err.contains("context deadline exceeded"), "{err}");
    assert_eq!(webhook.reviews("/slow")[0].0, "/slow?timeout=1s");

    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &configmap("garbage", json!({"scenario": "garbage"})),
    );
    assert!(
        err.contains("Error from server (InternalError): error when creating \"STDIN\": Internal error occurred: failed calling webhook \"garbage.example.com\": failed to call webhook: Object 'Kind' is missing in"),
        "{err}"
    );
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &configmap("wrong-uid", json!({"scenario": "wrong-uid"})),
    );
    assert!(
        err.contains("Internal error occurred: failed calling webhook \"wrong-uid.example.com\": received invalid webhook response: expected response.uid="),
        "{err}"
    );

    // The added latency of one no-op validating webhook, over loopback: server dry runs
    // of a ConfigMap the webhook selects and of one it does not, on one HTTP/2
    // connection; the medians compared.
    let (tls, _) = server.connect(&[b"h2"], false).await.expect("connect");
    tls.get_ref().0.set_nodelay(true).expect("nodelay");
    let (mut send, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tls))
            .await
            .expect("handshake");
    tokio::spawn(conn);
    let mut timed = |labels: Value| {
        let body = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "bench", "labels": labels}})
        .to_string();
        let req = Request::builder()
            .method(Method::POST)
            .uri(format!(
                "https://localhost:{}/api/v1/namespaces/default/configmaps?dryRun=All",
                server.port
            ))
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(body)))
            .expect("request");
        let sent = send.send_request(req);
        async move {
            let t = Instant::now();
            let resp = sent.await.expect("response");
            let status = resp.status();
            let _ = resp.into_body().collect().await;
            assert_eq!(status, 201);
            t.elapsed()
        }
    };
    let (mut with_hook, mut without) = (Vec::new(), Vec::new());
    for _ in 0..60 {
        with_hook.push(timed(json!({"scenario": "allow"})).await);
        without.push(timed(json!({"scenario": "none"})).await);
    }
    with_hook.sort();
    without.sort();
    let (w, wo) = (with_hook[with_hook.len() / 2], without[without.len() / 2]);
    let added = w.saturating_sub(wo);
    eprintln!("one no-op validating webhook: median {w:?} per request with, {wo:?} without, {added:?} added");
    assert!(added < Duration::from_millis(20), "added {added:?}");

    // Failing open is counted; failing closed is a rejection by a calling error (503:
    // the connection was refused).
    let text = crate::metrics::scrape(&server).await;
    let open = crate::metrics::value_with(
        &text,
        "apiserver_admission_webhook_fail_open_count",
        &[r#"name="down-ignore.example.com""#, r#"type="validating""#],
    );
    assert!(open.is_some_and(|n| n >= 1.0), "{text}");
    let closed = crate::metrics::value_with(
        &text,
        "apiserver_admission_webhook_rejection_count",
        &[
            r#"name="down-fail.example.com""#,
            r#"error_type="calling_webhook_error""#,
            r#"rejection_code="503""#,
        ],
    );
    assert!(closed.is_some_and(|n| n >= 1.0), "{text}");
}

mod services;

/// A match condition asking `authorizer`: the webhook (which refuses everything) is called
/// only for users who may update Deployments, as the worker's authorizer chain decides
/// for the requesting user (the admin; alice, impersonated, may create ConfigMaps only).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn match_conditions_ask_the_authorizer() {
    let Some((_server, k, webhook)) = setup().await else {
        return;
    };
    k.ok(&[
        "create",
        "role",
        "cm-maker",
        "--verb=create",
        "--resource=configmaps",
    ]);
    k.ok(&[
        "create",
        "rolebinding",
        "cm-maker",
        "--role=cm-maker",
        "--user=alice",
    ]);
    let guarded = configuration(
        "ValidatingWebhookConfiguration",
        "deployers-only",
        vec![hook(
            "deployers.example.com",
            &webhook.url("/deny"),
            &webhook.ca_bundle(),
            json!({"matchConditions": [{"name": "deployers",
                "expression": "authorizer.group('apps').resource('deployments').namespace(object.metadata.namespace).check('update').allowed() && authorizer.requestResource.check('create').allowed()"}]}),
        )],
    );
    k.ok_stdin(&["create", "-f", "-"], &guarded);
    until(
        Duration::from_secs(5),
        "the admin's create goes to the webhook",
        || {
            let out = k.run(&["create", "configmap", "by-admin", "--dry-run=server"]);
            String::from_utf8_lossy(&out.stderr)
                .contains("admission webhook \"deployers.example.com\" denied the request")
        },
    );
    k.ok(&["create", "configmap", "by-alice", "--as=alice"]);
}
