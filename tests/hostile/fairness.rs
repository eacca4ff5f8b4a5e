//! API Priority and Fairness against a client that floods its own priority level: its
//! requests queue, then get 429 (`queue-full` at once when its queue is full,
//! `time-out` after a quarter of the request timeout in the queue), while another user's
//! requests, classified by a different FlowSchema, are served. Every classified response
//! names its FlowSchema and priority level by UID, as upstream's filter does. And the
//! engine's list flood, small: one user LISTing from many connections is shed with 429s
//! while another user, classified apart, keeps its GETs.

use std::time::{Duration, Instant};

use http::Method;
use serde_json::json;

use super::super::harness::{Reply, Server};
use super::engine::{self, flood, run};
use super::inflight::{held, with_token};
use super::setup::{check, serial, size, start};

const FLOODER: &str = "tok-flooder";
const OTHER: &str = "tok-other";

fn uid(server: &Server, kind: &str, name: &str) -> String {
    let out = server.kubectl(&["get", kind, name, "-o", "jsonpath={.metadata.uid}"]);
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn header<'a>(reply: &'a Reply, name: &str) -> &'a str {
    reply
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// The admin's view of one level in `dump_priority_levels`: (waiting, executing).
async fn level_counts(server: &Server, level: &str) -> Option<(u64, u64)> {
    let dump = server
        .get("/debug/api_priority_and_fairness/dump_priority_levels")
        .await;
    assert_eq!(dump.status, 200, "{}", dump.text());
    dump.text().lines().find_map(|line| {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if cells.first() != Some(&level) {
            return None;
        }
        Some((cells.get(4)?.parse().ok()?, cells.get(5)?.parse().ok()?))
    })
}

/// Polls until `done` holds, for up to 10 s.
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut done: impl FnMut() -> F) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done().await {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn metric(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|l| l.starts_with(name) && labels.iter().all(|lab| l.contains(lab)))
        .find_map(|l| l.rsplit(' ').next()?.parse().ok())
}

#[test]
fn a_flooding_flow_gets_429s_and_others_are_served() {
    serial(async {
        let dir = tempfile::tempdir().expect("dir");
        let tokens = dir.path().join("tokens.csv");
        std::fs::write(
            &tokens,
            format!("{FLOODER},flooder,4001\n{OTHER},other,4002\n"),
        )
        .expect("write");
        let server = Server::builder()
            .arg(format!("--token-auth-file={}", tokens.display()))
            // Two seats in all; a quarter of 4 s in a queue at most.
            .arg("--max-requests-inflight=1")
            .arg("--max-mutating-requests-inflight=1")
            .arg("--request-timeout=4s")
            .start()
            .await;
        for user in ["flooder", "other"] {
            let out = server.kubectl(&[
                "create",
                "clusterrolebinding",
                &format!("{user}-edit"),
                "--clusterrole=edit",
                &format!("--user={user}"),
            ]);
            assert!(out.status.success(), "{out:?}");
        }
        // The flooder's own level: one seat (it may not borrow), one queue of one.
        let objects = json!({"apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
             "metadata": {"name": "tiny"},
             "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 1,
                "borrowingLimitPercent": 0,
                "limitResponse": {"type": "Queue",
                    "queuing": {"queues": 1, "handSize": 1, "queueLengthLimit": 1}}}}},
            {"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
             "metadata": {"name": "flooder"},
             "spec": {"priorityLevelConfiguration": {"name": "tiny"}, "matchingPrecedence": 500,
                "distinguisherMethod": {"type": "ByUser"},
                "rules": [{"subjects": [{"kind": "User", "user": {"name": "flooder"}}],
                    "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"],
                        "namespaces": ["*"], "clusterScope": true}],
                    "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]}},
        ]});
        let path = dir.path().join("apf.json");
        std::fs::write(&path, objects.to_string()).expect("write");
        let out = server.kubectl(&["apply", "-f", path.to_str().expect("path")]);
        assert!(out.status.success(), "{out:?}");
        let (fs_uid, pl_uid) = (
            uid(&server, "flowschema", "flooder"),
            uid(&server, "prioritylevelconfiguration", "tiny"),
        );

        // Classified by the new schema once the front door has read it.
        let list = "/api/v1/namespaces/default/configmaps";
        until("the flooder's schema is in force", || async {
            let r = with_token(&server, FLOODER, Method::GET, list, b"").await;
            header(&r, "x-kubernetes-pf-flowschema-uid") == fs_uid
        })
        .await;
        let r = with_token(&server, FLOODER, Method::GET, list, b"").await;
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(header(&r, "x-kubernetes-pf-prioritylevel-uid"), pl_uid);
        // The other user falls to the suggested global-default schema and level.
        let r = with_token(&server, OTHER, Method::GET, list, b"").await;
        assert_eq!(
            header(&r, "x-kubernetes-pf-flowschema-uid"),
            uid(&server, "flowschema", "global-default")
        );
        assert_eq!(
            header(&r, "x-kubernetes-pf-prioritylevel-uid"),
            uid(&server, "prioritylevelconfiguration", "global-default")
        );

        // A POST whose body never comes holds the flooder's only seat.
        let slow_post = held(
            &server,
            format!(
                "POST {list} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {FLOODER}\r\n\
                 content-type: application/json\r\ncontent-length: 1000\r\n\r\n{{\"kind\":"
            ),
        )
        .await;
        until("the held POST runs", || async {
            level_counts(&server, "tiny").await == Some((0, 1))
        })
        .await;
        // The next one waits in the queue, …
        let queued = {
            let server = &server;
            async move {
                let started = Instant::now();
                let r = with_token(server, FLOODER, Method::GET, list, b"").await;
                (r, started.elapsed())
            }
        };
        let check = async {
            until("a request waits in the queue", || async {
                level_counts(&server, "tiny").await == Some((1, 1))
            })
            .await;
            // … the queue is full, so the next is refused at once, …
            let refused = with_token(&server, FLOODER, Method::GET, list, b"").await;
            assert_eq!(refused.status, 429, "{}", refused.text());
            assert_eq!(
                refused.text().trim_end(),
                "Too many requests, please try again later."
            );
            assert!(header(&refused, "retry-after")
                .parse::<u64>()
                .is_ok_and(|s| s >= 1));
            assert_eq!(header(&refused, "x-kubernetes-pf-flowschema-uid"), fs_uid);
            assert_eq!(
                header(&refused, "x-kubernetes-pf-prioritylevel-uid"),
                pl_uid
            );
            // … while the other user is served, and may not read the dumps.
            let served = with_token(&server, OTHER, Method::GET, list, b"").await;
            assert_eq!(served.status, 200, "{}", served.text());
            let dump = with_token(
                &server,
                OTHER,
                Method::GET,
                "/debug/api_priority_and_fairness/dump_queues",
                b"",
            )
            .await;
            assert_eq!(dump.status, 403, "{}", dump.text());
        };
        let ((waited, took), ()) = tokio::join!(queued, check);
        // The queued request gave up after a quarter of the 4 s request timeout.
        assert_eq!(waited.status, 429, "{}", waited.text());
        assert!(took >= Duration::from_millis(900), "{took:?}");

        let metrics = server.get("/metrics").await.text();
        for reason in ["queue-full", "time-out"] {
            let labels = [
                "flow_schema=\"flooder\"",
                "priority_level=\"tiny\"",
                &format!("reason=\"{reason}\""),
            ];
            assert_eq!(
                metric(
                    &metrics,
                    "apiserver_flowcontrol_rejected_requests_total",
                    &labels
                ),
                Some(1.0),
                "{reason}"
            );
        }
        // One seat, not lent or borrowed (borrowingLimitPercent 0, lendablePercent 0).
        for series in ["nominal", "lower", "upper", "current"] {
            assert_eq!(
                metric(
                    &metrics,
                    &format!("apiserver_flowcontrol_{series}_limit_seats"),
                    &["priority_level=\"tiny\""]
                ),
                Some(1.0),
                "{series}"
            );
        }

        // Once the seat is free the flooder is served again.
        drop(slow_post);
        until("the held seat is given back", || async {
            with_token(&server, FLOODER, Method::GET, list, b"")
                .await
                .status
                == 200
        })
        .await;
    });
}

#[test]
fn without_priority_and_fairness_nothing_is_classified() {
    serial(async {
        let server = Server::builder()
            .arg("--enable-priority-and-fairness=false")
            .start()
            .await;
        let r = server.get("/api/v1/namespaces").await;
        assert_eq!(r.status, 200);
        assert!(r.headers.get("x-kubernetes-pf-flowschema-uid").is_none());
        let dump = server
            .get("/debug/api_priority_and_fairness/dump_priority_levels")
            .await;
        assert_eq!(dump.status, 404, "{}", dump.text());
    });
}

#[test]
fn a_list_flood_is_shed_and_the_reader_is_served() {
    serial(async {
        let dir = tempfile::tempdir().expect("dir");
        let tokens = dir.path().join("tokens.csv");
        std::fs::write(&tokens, flood::TOKENS).expect("write");
        let token_file = format!("--token-auth-file={}", tokens.display());
        // Six seats in all; the flooder's level (workload-low) keeps its nominal three,
        // with one queue of two, as an operator may set a suggested level (the
        // annotation "false" keeps the server from putting it back).
        let (server, target) = start(&[
            &token_file,
            "--max-requests-inflight=4",
            "--max-mutating-requests-inflight=2",
        ])
        .await;
        let out = server.kubectl(&[
            "patch",
            "prioritylevelconfiguration",
            "workload-low",
            "--type=merge",
            "-p",
            r#"{"metadata": {"annotations": {"apf.kubernetes.io/autoupdate-spec": "false"}},
                "spec": {"limited": {"borrowingLimitPercent": 0, "limitResponse": {"type": "Queue",
                    "queuing": {"queues": 1, "handSize": 1, "queueLengthLimit": 2}}}}}"#,
        ]);
        assert!(out.status.success(), "{out:?}");
        let no_certificate = server.tls_config(&[], true);
        let reader =
            engine::Target::new(server.port, server.pid(), &no_certificate).as_user(flood::READER);
        flood::prepare(&target, &reader, 300)
            .await
            .expect("prepare");
        let o = run(&reader, "list flood", size(40), flood::list_flood).await;
        check(&server, &o, 512);
        // The flooder is refused past its seats and its queue; the reader never is.
        assert!(o.fact("lists_429") > 0, "{o:?}");
        assert!(o.fact("lists_200") > 0, "{o:?}");
        assert_eq!(o.probe_errors, 0, "{o:?}");
    });
}

#[test]
fn writes_watched_by_many_take_more_seats() {
    serial(async {
        let server = Server::builder().start().await;
        // 25 watches of every ConfigMap, never read (their heads are enough).
        let mut watches = Vec::new();
        for _ in 0..25 {
            let (mut tls, _) = server
                .connect(&[b"http/1.1"], false)
                .await
                .expect("connect");
            tokio::io::AsyncWriteExt::write_all(
                &mut tls,
                b"GET /api/v1/configmaps?watch=true HTTP/1.1\r\nhost: x\r\n\r\n",
            )
            .await
            .expect("send");
            watches.push(tls);
        }
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "watched"}, "data": {"n": "0"}});
        let path = "/api/v1/namespaces/default/configmaps";
        let created = server
            .request(Method::POST, path, cm.to_string().as_bytes(), false, false)
            .await
            .expect("answered");
        assert_eq!(created.status, 201, "{}", created.text());
        // Once the front door counts them, a write to a ConfigMap takes one seat per ten
        // watchers (3) for the events it sends, as upstream estimates it.
        let series = "apiserver_flowcontrol_watch_count_samples_bucket";
        let exempt = ["flow_schema=\"exempt\"", "priority_level=\"exempt\""];
        until("writes see the 25 watchers", || async {
            let patch = json!({"data": {"n": "1"}}).to_string();
            let r = server
                .request_full(
                    Method::PATCH,
                    &format!("{path}/watched"),
                    &[("content-type", "application/merge-patch+json")],
                    patch.as_bytes(),
                    false,
                    false,
                )
                .await
                .expect("answered");
            assert_eq!(r.status, 200, "{}", r.text());
            let metrics = server.get("/metrics").await.text();
            let below_10 = metric(&metrics, series, &[exempt[0], exempt[1], "le=\"10\""]);
            let below_100 = metric(&metrics, series, &[exempt[0], exempt[1], "le=\"100\""]);
            below_100 > below_10
        })
        .await;
        let metrics = server.get("/metrics").await.text();
        let seats = "apiserver_flowcontrol_work_estimated_seats_bucket";
        let two = metric(&metrics, seats, &[exempt[0], exempt[1], "le=\"2\""]);
        let four = metric(&metrics, seats, &[exempt[0], exempt[1], "le=\"4\""]);
        assert!(four > two, "no request of 3 or 4 seats: {two:?} {four:?}");
        drop(watches);
    });
}
