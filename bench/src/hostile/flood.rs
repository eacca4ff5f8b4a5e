//! A user flooding LISTs (issue 15's priority and fairness row): user `flooder`, whose
//! FlowSchema sends it to the `workload-low` priority level, LISTs every ConfigMap of
//! namespace `flood` from many connections in a loop, while the other client is user
//! `reader`, classified by the suggested `global-default` schema. Priority and fairness
//! keeps the flooder to its level's seats and queues and refuses the rest with 429 (the
//! flooder then waits the `Retry-After`, as client-go does: a client that ignores it
//! costs what any request flood costs); the reader must not be refused.
//!
//! The server needs [`TOKENS`] as its `--token-auth-file`; [`prepare`] (as the admin)
//! creates the objects, the users' permissions and the flooder's FlowSchema. The reader's
//! target must present no client certificate (the certificate would be the user, not
//! the token): build it from a TLS configuration without one, then [`Target::as_user`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http::{Method, StatusCode};
use serde_json::json;

use super::{Ctl, Facts, Size, Target};

/// The `--token-auth-file` the server must be started with.
pub const TOKENS: &str = "tok-flooder,flooder,5001\ntok-reader,reader,5002\n";
/// The reader's token: the other client's identity in this scenario.
pub const READER: &str = "tok-reader";
const FLOODER: &str = "tok-flooder";
const NAMESPACE: &str = "flood";
const SCHEMA: &str = "list-flooder";

fn io(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

/// As the admin behind `admin`: namespace `flood` with `objects` ConfigMaps of 256 bytes
/// each, `view` for both users, and the flooder's FlowSchema; returns once the front
/// door classifies the flooder by it. `reader` is the reader's target.
pub async fn prepare(
    admin: &Arc<Target>,
    reader: &Arc<Target>,
    objects: usize,
) -> std::io::Result<()> {
    let client = admin.client().await?;
    let post = |path: &'static str, body: serde_json::Value| {
        let client = client.clone();
        async move {
            let (status, text) = client
                .request(Method::POST, path, body.to_string().as_bytes())
                .await?;
            if status.is_success() || status == StatusCode::CONFLICT {
                Ok(())
            } else {
                Err(io(format!(
                    "POST {path}: {status} {}",
                    String::from_utf8_lossy(&text)
                )))
            }
        }
    };
    post(
        "/api/v1/namespaces",
        json!({"metadata": {"name": NAMESPACE}}),
    )
    .await?;
    for user in ["reader", "flooder"] {
        post(
            "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
            json!({"metadata": {"name": format!("hostile-{user}-view")},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
                "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}]}),
        )
        .await?;
    }
    post(
        "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
        json!({"metadata": {"name": SCHEMA},
            "spec": {"priorityLevelConfiguration": {"name": "workload-low"}, "matchingPrecedence": 1000,
                "distinguisherMethod": {"type": "ByUser"},
                "rules": [{"subjects": [{"kind": "User", "user": {"name": "flooder"}}],
                    "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"],
                        "namespaces": ["*"], "clusterScope": true}]}]}}),
    )
    .await?;

    // The objects, 32 POSTs at a time.
    let next = Arc::new(AtomicU64::new(0));
    let data = "x".repeat(256);
    let writers: Vec<_> = (0..32)
        .map(|_| {
            let (client, next, data) = (client.clone(), next.clone(), data.clone());
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    if i >= objects {
                        return Ok::<_, std::io::Error>(());
                    }
                    let body =
                        json!({"metadata": {"name": format!("cm-{i}")}, "data": {"d": data}});
                    let (status, _) = client
                        .request(
                            Method::POST,
                            &format!("/api/v1/namespaces/{NAMESPACE}/configmaps"),
                            body.to_string().as_bytes(),
                        )
                        .await?;
                    if !(status.is_success() || status == StatusCode::CONFLICT) {
                        return Err(io(format!("seeding: {status}")));
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.await.map_err(io)??;
    }

    // The front door learns of the bindings and the schema by watches: wait until both
    // users are let in and the flooder is classified by its schema.
    let (_, schema) = client
        .get(&format!(
            "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/{SCHEMA}"
        ))
        .await?;
    let uid = serde_json::from_slice::<serde_json::Value>(&schema)
        .map_err(io)?
        .pointer("/metadata/uid")
        .and_then(|u| u.as_str())
        .unwrap_or_default()
        .to_owned();
    let flooder = reader.as_user(FLOODER).client().await?;
    let reader = reader.client().await?;
    let probe = format!("/api/v1/namespaces/{NAMESPACE}/configmaps/cm-0");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, headers) = flooder.head_of(&probe).await?;
        let classified = headers
            .get("x-kubernetes-pf-flowschema-uid")
            .is_some_and(|v| v.as_bytes() == uid.as_bytes());
        let (reader_status, _) = reader.get(super::PROBE_PATH).await?;
        if status == StatusCode::OK && classified && reader_status == StatusCode::OK {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(io(
                "the users' bindings or the FlowSchema were not in force after 30 s",
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `size.count` connections of the flooder, each LISTing namespace `flood`'s ConfigMaps
/// one LIST after another. `target` is the reader's (the probe's); facts: LISTs answered
/// 200, refused with 429, failed otherwise.
pub async fn list_flood(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let flooder = target.as_user(FLOODER);
    let counts = Arc::new([AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)]);
    let connected = Arc::new(AtomicU64::new(0));
    let path = format!("/api/v1/namespaces/{NAMESPACE}/configmaps");
    let tasks: Vec<_> = (0..size.count)
        .map(|_| {
            let (flooder, counts, connected, path) = (
                flooder.clone(),
                counts.clone(),
                connected.clone(),
                path.clone(),
            );
            let stop = ctl.signal();
            tokio::spawn(async move {
                let mut first = true;
                while !stop.now() {
                    let Ok(client) = flooder.client().await else {
                        counts[2].fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    if std::mem::take(&mut first) {
                        connected.fetch_add(1, Ordering::Relaxed);
                    }
                    while !stop.now() {
                        match client.head_of(&path).await {
                            Ok((StatusCode::OK, _)) => {
                                counts[0].fetch_add(1, Ordering::Relaxed);
                            }
                            Ok((StatusCode::TOO_MANY_REQUESTS, headers)) => {
                                counts[1].fetch_add(1, Ordering::Relaxed);
                                // As client-go does: wait as long as the server asks.
                                let secs = headers
                                    .get("retry-after")
                                    .and_then(|v| v.to_str().ok()?.parse().ok())
                                    .unwrap_or(1u64);
                                tokio::time::sleep(Duration::from_secs(secs)).await;
                            }
                            _ => {
                                counts[2].fetch_add(1, Ordering::Relaxed);
                                break;
                            }
                        }
                    }
                }
            })
        })
        .collect();
    // Set up once every connection is open and LISTing.
    let deadline = Instant::now() + Duration::from_secs(30);
    while (connected.load(Ordering::Relaxed) as usize) < size.count && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ctl.ready();
    ctl.stopped().await;
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(15), t).await;
    }
    let mut facts = Facts::new();
    for (i, name) in ["lists_200", "lists_429", "lists_failed"]
        .iter()
        .enumerate()
    {
        facts.insert((*name).to_owned(), counts[i].load(Ordering::Relaxed));
    }
    let sent = format!(
        "{} connections of user flooder (FlowSchema {SCHEMA} → workload-low) LISTing every \
         ConfigMap of namespace {NAMESPACE}, one LIST after another (after a 429, waiting its \
         Retry-After, as client-go does); the other client is user reader (global-default)",
        size.count
    );
    (sent, facts)
}
