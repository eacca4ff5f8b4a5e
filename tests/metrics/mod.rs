//! `/metrics` at the front door: kube-apiserver's request series with its labels, the
//! audit series, the storage and etcd series, every worker's `process_*` apart by a
//! `worker` label; the text format by default and OpenMetrics on request;
//! authorization as upstream (anonymous refused, `system:monitoring` allowed); and the
//! whole exposition accepted by Prometheus' own `promtool check metrics`.

use std::io::Write;
use std::process::{Command, Stdio};

use http::Method;

use super::harness::{require_tool, Server};

/// The value of the sample `series` (name and labels exactly as exposed) in `text`.
pub(crate) fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

/// The value of the first sample of `name` whose labels include every one of `labels`
/// (each `key="value"`), whatever its other labels.
pub(crate) fn value_with(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines().find_map(|l| {
        let rest = l.strip_prefix(name)?.strip_prefix('{')?;
        let (set, value) = rest.split_once("} ")?;
        let set: Vec<&str> = set.split(',').collect();
        labels
            .iter()
            .all(|want| set.contains(want))
            .then(|| value.trim().parse().ok())?
    })
}

/// Scrapes `/metrics` as the admin (text format).
pub(crate) async fn scrape(server: &Server) -> String {
    let reply = server.get("/metrics").await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.text()
}

#[tokio::test]
async fn request_series_as_kube_apiserver_names_them() {
    let server = Server::builder().start().await;
    for _ in 0..3 {
        let r = server.get("/api/v1/namespaces/default/configmaps").await;
        assert_eq!(r.status, 200);
    }
    let r = server
        .get("/apis/apps/v1/namespaces/default/deployments/none")
        .await;
    assert_eq!(r.status, 404);
    // Paths nothing routes add no series (their labels would come from the URL alone).
    for path in [
        "/apis/apps/v1/foobars",
        "/apis/nope.example/v1/things",
        "/nowhere",
    ] {
        assert_eq!(server.get(path).await.status, 404, "{path}");
    }

    // A watch that gets one ADDED event (then times out after a second).
    let cm =
        br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"watched"},"data":{"k":"v"}}"#;
    let created = server
        .request(
            Method::POST,
            "/api/v1/namespaces/default/configmaps",
            cm,
            true,
            false,
        )
        .await
        .expect("answered");
    assert_eq!(created.status, 201, "{}", created.text());
    let watch = server
        .get("/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dwatched")
        .await;
    assert!(watch.text().contains("\"ADDED\""), "{}", watch.text());

    let reply = server.get("/metrics").await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.headers["content-type"],
        "text/plain; version=0.0.4; charset=utf-8"
    );
    let text = reply.text();
    let lists = value(
        &text,
        r#"apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"}"#,
    );
    assert!(lists.is_some_and(|n| n >= 3.0), "{text}");
    let missing = value(
        &text,
        r#"apiserver_request_total{code="404",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="",verb="GET",version="v1"}"#,
    );
    assert_eq!(missing, Some(1.0), "{text}");
    assert!(
        !text.contains("foobars") && !text.contains("nope.example"),
        "{text}"
    );
    assert!(text.contains("# HELP apiserver_request_total [STABLE] Counter of apiserver requests"));
    assert!(text.contains(r#"apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1",le="0.005"}"#), "{text}");
    assert!(text.contains(r#"apiserver_response_sizes_bucket{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1",le="1000"}"#), "{text}");
    for family in [
        "apiserver_current_inflight_requests",
        "apiserver_audit_event_total",
        "apiserver_audit_requests_rejected_total",
        "process_resident_memory_bytes",
        "process_open_fds",
    ] {
        assert!(
            text.contains(&format!("# TYPE {family} ")),
            "{family} missing:\n{text}"
        );
    }

    // The storage layer's: objects per resource from the watch caches, etcd calls by
    // operation and group-qualified resource.
    let objects = value_with(
        &text,
        "apiserver_storage_objects",
        &[r#"resource="namespaces""#],
    );
    assert!(objects.is_some_and(|n| n >= 4.0), "{text}");
    let rbac = value_with(
        &text,
        "apiserver_storage_objects",
        &[r#"resource="clusterroles.rbac.authorization.k8s.io""#],
    );
    assert!(rbac.is_some_and(|n| n >= 50.0), "{text}");
    let creates = value_with(
        &text,
        "etcd_requests_total",
        &[r#"operation="create""#, r#"type="namespaces""#],
    );
    assert!(creates.is_some_and(|n| n >= 4.0), "{text}");
    assert!(
        text.contains("etcd_request_duration_seconds_bucket{"),
        "{text}"
    );

    // The watch handler's, by group, version and kind.
    let events = value_with(
        &text,
        "apiserver_watch_events_total",
        &[r#"group="""#, r#"kind="ConfigMap""#, r#"version="v1""#],
    );
    assert!(events.is_some_and(|n| n >= 1.0), "{text}");
    let small = value_with(
        &text,
        "apiserver_watch_events_sizes_bucket",
        &[r#"kind="ConfigMap""#, r#"le="1024""#],
    );
    assert!(small.is_some_and(|n| n >= 1.0), "{text}");

    // This project's own: the front door's time to a worker's response head.
    let hops = value_with(
        &text,
        "kube_apiserver_rs_delegation_duration_seconds_count",
        &[r#"worker="kube-api""#],
    );
    assert!(hops.is_some_and(|n| n >= 4.0), "{text}");

    // Every process's own series, apart by worker.
    for worker in ["aggregator", "kube-api", "extensions"] {
        let rss = value(
            &text,
            &format!(r#"process_resident_memory_bytes{{worker="{worker}"}}"#),
        );
        assert!(rss.is_some_and(|b| b > 1e6), "{worker}: {text}");
    }

    // OpenMetrics when asked for: counter families without `_total`, `# EOF` at the end.
    let om = server
        .get_accepting(
            "/metrics",
            "application/openmetrics-text;version=1.0.0,text/plain;q=0.5",
        )
        .await;
    assert_eq!(
        om.headers["content-type"],
        "application/openmetrics-text; version=1.0.0; charset=utf-8"
    );
    let om = om.text();
    assert!(om.contains("# TYPE apiserver_request counter\n"), "{om}");
    assert!(om.ends_with("# EOF\n"));

    if require_tool("promtool") {
        let mut child = Command::new("promtool")
            .args(["check", "metrics"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("promtool");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("promtool");
        assert!(
            out.status.success(),
            "promtool check metrics:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[tokio::test]
async fn only_monitoring_may_scrape() {
    let server = Server::builder().start().await;
    let anonymous = server
        .request(Method::GET, "/metrics", b"", true, true)
        .await
        .expect("GET");
    assert_eq!(anonymous.status, 403, "{}", anonymous.text());
    let nobody = server
        .request_with(
            Method::GET,
            "/metrics",
            &[("impersonate-user", "jane")],
            true,
            false,
        )
        .await
        .expect("GET");
    assert_eq!(nobody.status, 403, "{}", nobody.text());
    // The bootstrap role system:monitoring, bound to the group of that name.
    let monitoring = server
        .request_with(
            Method::GET,
            "/metrics",
            &[
                ("impersonate-user", "prometheus"),
                ("impersonate-group", "system:monitoring"),
            ],
            true,
            false,
        )
        .await
        .expect("GET");
    assert_eq!(monitoring.status, 200, "{}", monitoring.text());
}

/// The admission latency histograms: each phase as a whole and each built-in plugin in
/// the phases it takes part in, with upstream's names, labels and STABLE mark.
#[tokio::test]
async fn admission_steps_and_plugins_are_timed() {
    let server = Server::builder().start().await;
    let ns = br#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"timed"}}"#;
    let r = server
        .request(Method::POST, "/api/v1/namespaces", ns, true, false)
        .await
        .expect("create");
    assert_eq!(r.status, 201, "{}", r.text());
    // NamespaceLifecycle refuses an object in a namespace that does not exist.
    let cm = br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#;
    let r = server
        .request(
            Method::POST,
            "/api/v1/namespaces/missing/configmaps",
            cm,
            true,
            false,
        )
        .await
        .expect("create");
    assert_eq!(r.status, 404, "{}", r.text());

    let text = scrape(&server).await;
    let step = "apiserver_admission_step_admission_duration_seconds_count";
    for (kind, refused) in [("admit", "false"), ("validate", "false"), ("admit", "true")] {
        let n = value_with(
            &text,
            step,
            &[
                &format!(r#"type="{kind}""#),
                r#"operation="CREATE""#,
                &format!(r#"rejected="{refused}""#),
            ],
        );
        assert!(n.is_some_and(|n| n >= 1.0), "{kind} {refused}:\n{text}");
    }
    let plugin = "apiserver_admission_controller_admission_duration_seconds_count";
    let refused = value_with(
        &text,
        plugin,
        &[
            r#"name="NamespaceLifecycle""#,
            r#"type="admit""#,
            r#"operation="CREATE""#,
            r#"rejected="true""#,
        ],
    );
    assert!(refused.is_some_and(|n| n >= 1.0), "{text}");
    // A mutating-only plugin has no validate series; a validating one no admit series.
    assert!(value_with(
        &text,
        plugin,
        &[r#"name="NamespaceLifecycle""#, r#"type="validate""#]
    )
    .is_none());
    assert!(
        value_with(
            &text,
            plugin,
            &[r#"name="ResourceQuota""#, r#"type="validate""#]
        )
        .is_some(),
        "{text}"
    );
    assert!(value_with(
        &text,
        plugin,
        &[r#"name="ResourceQuota""#, r#"type="admit""#]
    )
    .is_none());
    assert!(text.contains(
        "# HELP apiserver_admission_controller_admission_duration_seconds [STABLE] Admission controller latency histogram in seconds"
    ));
    // Upstream's buckets: 5 ms to 2.5 s.
    let bucket = "apiserver_admission_step_admission_duration_seconds_bucket";
    for le in ["0.005", "0.025", "0.1", "0.5", "1", "2.5", "+Inf"] {
        let n = value_with(
            &text,
            bucket,
            &[&format!(r#"le="{le}""#), r#"type="admit""#],
        );
        assert!(n.is_some(), "le={le}:\n{text}");
    }
}
