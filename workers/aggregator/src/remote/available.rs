//! The `Available` condition of remote APIServices, as kube-aggregator's
//! `AvailableConditionController` decides it (1.34's, which reads EndpointSlices, as the
//! service resolver does): the service must exist; a ClusterIP service must listen on the
//! APIService's port and have a slice with a ready endpoint and a port named as it; and the remote server must answer discovery of its group-version (five tries at
//! once, any success will do, 5 s each). The reasons and messages are upstream's.
//! Each remote APIService is checked when it appears or changes, when a proxied request
//! could not reach it, and then every [`RESYNC`] (every [`RETRY`] while unavailable, so
//! a server that comes back is seen within seconds). The status is written only when it
//! changes.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use kas_server::storage::{ListOptions, ReadVersion, Storage, StorageConfig};
use serde_json::{json, Value};

use super::{innermost, Remotes, Target, APISERVICES};
use crate::front::Front;

/// How often an Available APIService is checked again.
const RESYNC: Duration = Duration::from_secs(10);
/// How often an unavailable one is.
const RETRY: Duration = Duration::from_secs(2);
/// Upstream's discovery client timeout.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);
/// Upstream's guard around one try (slow dials).
const TRY_TIMEOUT: Duration = Duration::from_secs(6);
/// Tries at once (the service may resolve to a different endpoint each time).
const TRIES: usize = 5;

/// The outcome of one check: status, reason, message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub(crate) status: &'static str,
    pub(crate) reason: &'static str,
    pub(crate) message: String,
}

impl Verdict {
    fn new(status: &'static str, reason: &'static str, message: String) -> Verdict {
        Verdict {
            status,
            reason,
            message,
        }
    }
}

/// Runs the controller until the aggregator stops.
pub(crate) async fn run(front: Arc<Front>) {
    let config = StorageConfig::for_worker(&front.config);
    let storage = loop {
        match Storage::new(&config).await {
            Ok(s) => break s,
            Err(e) => {
                tracing::debug!(error = %e, "APIService availability: storage not reachable yet");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    };
    let resolver =
        kas_server::service_resolver::ServiceResolver::start(&front.config, storage.clone());
    let _ = front.services.set(resolver.clone());
    let remotes: &Arc<Remotes> = &front.remotes;
    remotes.synced().await;
    resolver.wait_synced(Duration::from_secs(60)).await;
    // When each APIService was last checked, for which spec, and whether it passed.
    let mut last: BTreeMap<String, (Instant, String, bool)> = BTreeMap::new();
    loop {
        let changed = remotes.changed.notified();
        let failed = front.remote_failures.notified();
        tokio::pin!(changed, failed);
        changed.as_mut().enable();
        failed.as_mut().enable();

        let targets = remotes.targets();
        let now = Instant::now();
        let due: Vec<Arc<Target>> = targets
            .into_iter()
            .filter(|t| match last.get(&t.name) {
                None => true,
                Some((at, spec, ok)) => {
                    *spec != spec_key(t)
                        || now.duration_since(*at) >= if *ok { RESYNC } else { RETRY }
                }
            })
            .collect();
        let checks = due.iter().map(|t| check(&front, &storage, t));
        let verdicts = futures_util::future::join_all(checks).await;
        for (t, v) in due.iter().zip(verdicts) {
            last.insert(
                t.name.clone(),
                (Instant::now(), spec_key(t), v.status == "True"),
            );
            if let Err(e) = write_status(&storage, &t.name, &v).await {
                tracing::debug!(apiservice = %t.name, error = %e, "APIService status not written; retrying");
                last.remove(&t.name);
            }
        }
        let live: Vec<String> = remotes.targets().iter().map(|t| t.name.clone()).collect();
        last.retain(|name, _| live.contains(name));
        tokio::select! {
            () = &mut changed => {}
            () = &mut failed => {
                // A request could not reach a remote server: check them all again now.
                last.clear();
            }
            () = tokio::time::sleep(RETRY) => {}
        }
    }
}

/// What a change of the APIService must trigger a check for.
fn spec_key(t: &Target) -> String {
    format!(
        "{}/{}:{}:{}",
        t.service.namespace,
        t.service.name,
        t.service.port,
        t.client.is_ok()
    )
}

/// Checks one remote APIService.
pub(crate) async fn check(front: &Front, storage: &Storage, t: &Target) -> Verdict {
    let svc = &t.service;
    let (ns, name) = (&svc.namespace, &svc.name);
    let service = match read(storage, "services/specs", ns, name).await {
        Ok(s) => s,
        Err(e) => {
            return Verdict::new(
                "Unknown",
                "ServiceAccessError",
                format!("service/{name} in {ns:?} cannot be checked due to: {e}"),
            )
        }
    };
    let Some(service) = service else {
        return Verdict::new(
            "False",
            "ServiceNotFound",
            format!("service/{name} in {ns:?} is not present"),
        );
    };
    let kind = service
        .pointer("/spec/type")
        .and_then(Value::as_str)
        .unwrap_or("ClusterIP");
    if kind == "ClusterIP" {
        let port = service
            .pointer("/spec/ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|p| p.get("port").and_then(Value::as_u64) == Some(u64::from(svc.port)));
        let Some(port) = port else {
            return Verdict::new(
                "False",
                "ServicePortError",
                format!(
                    "service/{name} in {ns:?} is not listening on port {}",
                    svc.port
                ),
            );
        };
        let port_name = port.get("name").and_then(Value::as_str).unwrap_or("");
        let slices = match slices_of(storage, ns, name).await {
            Ok(e) => e,
            Err(e) => {
                return Verdict::new(
                    "Unknown",
                    "EndpointsAccessError",
                    format!("service/{name} in {ns:?} cannot be checked due to: {e}"),
                )
            }
        };
        if slices.is_empty() {
            return Verdict::new(
                "False",
                "EndpointsNotFound",
                format!("cannot find endpointslices for service/{name} in {ns:?}"),
            );
        }
        if !has_active_endpoints(&slices, port_name) {
            return Verdict::new(
                "False",
                "MissingEndpoints",
                format!(
                    "endpointslices for service/{name} in {ns:?} have no addresses with port name {port_name:?}"
                ),
            );
        }
    }
    let tries = (0..TRIES).map(|_| probe(front, t));
    let mut last_error = String::new();
    for outcome in futures_util::future::join_all(tries).await {
        match outcome {
            Ok(()) => return Verdict::new("True", "Passed", "all checks passed".into()),
            Err(e) => last_error = e,
        }
    }
    Verdict::new("False", "FailedDiscoveryCheck", last_error)
}

/// Whether one of `slices` has a ready endpoint (unset counts as ready) and a numbered
/// port named `port_name` (kube-aggregator 1.34's check).
fn has_active_endpoints(slices: &[Value], port_name: &str) -> bool {
    slices.iter().any(|slice| {
        let ready = slice
            .get("endpoints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|e| e.pointer("/conditions/ready") != Some(&Value::Bool(false)));
        ready
            && slice
                .get("ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|p| {
                    p.get("name").and_then(Value::as_str) == Some(port_name)
                        && p.get("port").is_some_and(Value::is_number)
                })
    })
}

/// Object `namespace/name` of the resource stored at `resource`.
async fn read(
    storage: &Storage,
    resource: &str,
    namespace: &str,
    name: &str,
) -> Result<Option<Value>, String> {
    let key = storage.key(resource, Some(namespace), name);
    let stored = storage
        .get(&key, ReadVersion::Latest)
        .await
        .map_err(|e| e.to_string())?;
    Ok(stored.and_then(|s| serde_json::from_slice(&s.value).ok()))
}

/// The EndpointSlices of service `namespace/name` (by their
/// `kubernetes.io/service-name` label).
async fn slices_of(storage: &Storage, namespace: &str, name: &str) -> Result<Vec<Value>, String> {
    let prefix = storage.list_prefix("endpointslices", Some(namespace));
    let page = storage
        .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
        .await
        .map_err(|e| e.to_string())?;
    Ok(page
        .items
        .iter()
        .filter_map(|i| serde_json::from_slice::<Value>(&i.value).ok())
        .filter(|s| {
            s.pointer("/metadata/labels/kubernetes.io~1service-name")
                .and_then(Value::as_str)
                == Some(name)
        })
        .collect())
}

/// One discovery request to the remote server as `system:kube-aggregator` in
/// `system:masters` (so it is always allowed).
async fn probe(front: &Front, t: &Target) -> Result<(), String> {
    let address = front.resolve(&t.service)?;
    let path = if t.name == "v1." {
        format!("/api/{}", t.version)
    } else {
        format!("/apis/{}/{}", t.group, t.version)
    };
    let url = format!("https://{address}{path}");
    let client = t.client.as_ref().map_err(Clone::clone)?;
    let req = super::aggregator_get(&url)?;
    let attempt = async {
        let resp = tokio::time::timeout(PROBE_TIMEOUT, client.request(req))
            .await
            .map_err(|_| {
                format!(
                    "Get {url:?}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
                )
            })?
            .map_err(|e| format!("Get {url:?}: {}", innermost(&e)))?;
        let code = resp.status();
        // Read the answer so the connection goes back to the pool.
        let _ = tokio::time::timeout(PROBE_TIMEOUT, resp.into_body().collect()).await;
        if !(200..300).contains(&code.as_u16()) && !code.is_redirection() {
            return Err(format!("bad status from {url}: {}", code.as_u16()));
        }
        Ok(())
    };
    match tokio::time::timeout(TRY_TIMEOUT, attempt).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) if e.starts_with("bad status") => Err(e),
        Ok(Err(e)) => Err(format!("failing or missing response from {url}: {e}")),
        Err(_) => Err(format!("timed out waiting for {url}")),
    }
}

/// Sets the `Available` condition of APIService `name` to `v` in storage, if it changed
/// (the transition time moves only when the status does).
async fn write_status(storage: &Storage, name: &str, v: &Verdict) -> Result<(), String> {
    let key = storage.key(APISERVICES, None, name);
    let Some(stored) = storage
        .get(&key, ReadVersion::Latest)
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(());
    };
    let mut object: Value = serde_json::from_slice(&stored.value).map_err(|e| e.to_string())?;
    if !set_condition(&mut object, v, &now_rfc3339()) {
        return Ok(());
    }
    if v.status != "True" {
        tracing::info!(apiservice = name, reason = v.reason, message = %v.message, "APIService not available");
    } else {
        tracing::info!(apiservice = name, "APIService available");
    }
    let bytes = serde_json::to_vec(&object).map_err(|e| e.to_string())?;
    storage
        .update(&key, bytes, stored.revision, None)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Sets the condition on `object`; false if nothing changed.
fn set_condition(object: &mut Value, v: &Verdict, now: &str) -> bool {
    if !object.get("status").is_some_and(Value::is_object) {
        object["status"] = json!({});
    }
    let status = &mut object["status"];
    if !status.get("conditions").is_some_and(Value::is_array) {
        status["conditions"] = json!([]);
    }
    let Some(conditions) = status["conditions"].as_array_mut() else {
        return false;
    };
    let fresh = json!({
        "type": "Available",
        "status": v.status,
        "lastTransitionTime": now,
        "reason": v.reason,
        "message": v.message,
    });
    match conditions.iter_mut().find(|c| c["type"] == "Available") {
        None => {
            conditions.push(fresh);
            true
        }
        Some(c) => {
            let same =
                c["status"] == v.status && c["reason"] == v.reason && c["message"] == v.message;
            if same {
                return false;
            }
            if c["status"] != v.status {
                c["lastTransitionTime"] = json!(now);
            }
            c["status"] = json!(v.status);
            c["reason"] = json!(v.reason);
            c["message"] = json!(v.message);
            true
        }
    }
}

fn now_rfc3339() -> String {
    kas_server::rest::now()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_need_a_ready_endpoint_and_a_named_port() {
        let slices = vec![
            json!({"ports": [{"name": "https", "port": 8443}],
                   "endpoints": [{"addresses": ["127.0.0.1"], "conditions": {"ready": false}}]}),
            json!({"ports": [{"name": "https", "port": 8443}, {"name": "none"}],
                   "endpoints": [{"addresses": ["127.0.0.2"]}]}),
        ];
        assert!(has_active_endpoints(&slices, "https"));
        assert!(!has_active_endpoints(&slices, ""));
        assert!(!has_active_endpoints(&slices, "none"));
        assert!(!has_active_endpoints(&slices[..1], "https"));
    }

    #[test]
    fn the_transition_time_moves_with_the_status_only() {
        let mut o = json!({"metadata": {"name": "v1.x"}});
        let down = Verdict::new("False", "ServiceNotFound", "gone".into());
        assert!(set_condition(&mut o, &down, "t1"));
        assert!(!set_condition(&mut o, &down, "t2"));
        let other = Verdict::new("False", "MissingEndpoints", "none".into());
        assert!(set_condition(&mut o, &other, "t3"));
        assert_eq!(o["status"]["conditions"][0]["lastTransitionTime"], "t1");
        let up = Verdict::new("True", "Passed", "all checks passed".into());
        assert!(set_condition(&mut o, &up, "t4"));
        assert_eq!(o["status"]["conditions"][0]["lastTransitionTime"], "t4");
        assert_eq!(o["status"]["conditions"].as_array().map(Vec::len), Some(1));
    }
}
