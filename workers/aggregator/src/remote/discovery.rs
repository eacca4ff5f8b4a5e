//! Fetching the remote group-versions' discovery, as kube-aggregator's discovery manager
//! does: each remote server (Service) is asked once per round for its aggregated
//! discovery (`/apis` as `APIGroupDiscoveryList` v2, with the ETag of the last answer); a
//! server that does not offer it is asked for each group-version's APIResourceList
//! instead. Rounds run in the background as `system:kube-aggregator` when an APIService
//! appears or changes, and every [`REFRESH`]; a group-version that cannot be fetched
//! keeps its last entry marked `Stale` (see [`super::groups`] for what is listed). The
//! OpenAPI v3 index entry and v2 document of each server are fetched with it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use http::HeaderValue;
use http_body_util::{BodyExt, Limited};
use serde_json::{json, Value};

use super::{Remotes, ServiceRef, Target};
use crate::front::Front;

/// How often the remote documents are fetched again.
const REFRESH: Duration = Duration::from_secs(60);
/// The most a remote discovery document may weigh.
const MAX_DOCUMENT: usize = 8 << 20;
/// How long one fetch may take (upstream's discovery timeout).
const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// What was fetched of a remote group-version: its aggregated entry
/// (APIVersionDiscovery), its OpenAPI v3 index entry and v2 document (when the remote
/// server serves them), and whether it is as of the last fetch.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fetched {
    pub(crate) entry: Value,
    pub(crate) v3_entry: Option<Value>,
    pub(crate) v2: Option<Arc<Value>>,
    pub(crate) current: bool,
}

impl Remotes {
    /// The OpenAPI v3 index entries (`apis/<group>/<version>` → its server-relative URL)
    /// of the remote group-versions that serve one.
    pub(crate) fn openapi_v3_paths(&self) -> serde_json::Map<String, Value> {
        let fetched = self.fetched.read().map(|f| f.clone()).unwrap_or_default();
        fetched
            .iter()
            .filter_map(|(gv, f)| Some((format!("apis/{gv}"), f.v3_entry.clone()?)))
            .collect()
    }

    /// The OpenAPI v2 documents of the remote servers.
    pub(crate) fn openapi_v2_documents(&self) -> Vec<Arc<Value>> {
        let fetched = self.fetched.read().map(|f| f.clone()).unwrap_or_default();
        let mut documents: Vec<Arc<Value>> = Vec::new();
        // A server's document is shared by its group-versions: merged once.
        for d in fetched.values().filter_map(|f| f.v2.clone()) {
            if !documents.iter().any(|known| Arc::ptr_eq(known, &d)) {
                documents.push(d);
            }
        }
        documents
    }
}

impl Front {
    /// The remote discovery changed: the merged documents are built again.
    pub(crate) fn discovery_changed(&self) {
        if let Ok(mut routes) = self.routes.write() {
            routes.epoch += 1;
        }
    }
}

/// Keeps the aggregated entries of the remote group-versions fetched.
pub(crate) async fn run(front: Arc<Front>) {
    let remotes = front.remotes.clone();
    remotes.synced().await;
    let mut servers: BTreeMap<ServiceRef, Server> = BTreeMap::new();
    loop {
        let changed = remotes.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let mut by_server: BTreeMap<ServiceRef, Vec<Arc<Target>>> = BTreeMap::new();
        for t in remotes.targets() {
            by_server.entry(t.service.clone()).or_default().push(t);
        }
        let fetches = by_server
            .iter()
            .map(|(service, targets)| fetch_server(&front, targets, servers.get(service)));
        let results = futures_util::future::join_all(fetches).await;
        let before = remotes
            .fetched
            .read()
            .map(|f| f.clone())
            .unwrap_or_default();
        let mut next = BTreeMap::new();
        let mut asked = BTreeMap::new();
        for ((service, targets), (server, per_target)) in by_server.iter().zip(results) {
            if let Some(server) = server {
                asked.insert(service.clone(), server);
            }
            for (t, result) in targets.iter().zip(per_target) {
                let key = format!("{}/{}", t.group, t.version);
                match result {
                    Ok(fetched) => {
                        next.insert(key, fetched);
                    }
                    Err(e) => {
                        tracing::debug!(apiservice = %t.name, error = %e, "remote discovery not fetched");
                        if let Some(old) = before.get(&key) {
                            let stale = Fetched {
                                current: false,
                                ..old.clone()
                            };
                            next.insert(key, stale);
                        }
                    }
                }
            }
        }
        servers = asked;
        if next != before {
            if let Ok(mut f) = remotes.fetched.write() {
                *f = next;
            }
            front.discovery_changed();
        }
        tokio::select! {
            () = &mut changed => {}
            () = tokio::time::sleep(REFRESH) => {}
        }
    }
}

/// What a remote server last answered for its aggregated discovery: each
/// `group/version`'s entry, and the ETag that came with it.
#[derive(Debug, Clone, Default)]
struct Server {
    etag: Option<HeaderValue>,
    versions: BTreeMap<String, Value>,
}

/// Fetches the discovery of `targets`, the group-versions of one server (`last` is what
/// it answered before), with the server's OpenAPI v3 index entries and v2 document:
/// what the server answered for its aggregated discovery (None when it offers none or
/// could not be asked) and each target's result.
async fn fetch_server(
    front: &Front,
    targets: &[Arc<Target>],
    last: Option<&Server>,
) -> (Option<Server>, Vec<Result<Fetched, String>>) {
    let Some(first) = targets.first() else {
        return (None, Vec::new());
    };
    let server = match aggregated(front, first, last).await {
        Ok(server) => server,
        Err(e) => return (None, targets.iter().map(|_| Err(e.clone())).collect()),
    };
    let v3_index = get_json(front, first, "/openapi/v3").await.ok();
    let v2 = get_json(front, first, "/openapi/v2")
        .await
        .ok()
        .filter(|d| d.get("paths").is_some_and(Value::is_object))
        .map(Arc::new);
    let mut results = Vec::with_capacity(targets.len());
    for t in targets {
        let gv = format!("{}/{}", t.group, t.version);
        let entry = match &server {
            // A server that answered without this group-version: listed, no resources.
            Some(s) => Ok(s
                .versions
                .get(&gv)
                .cloned()
                .unwrap_or_else(|| json!({"version": t.version}))),
            None => get_json(front, t, &format!("/apis/{gv}"))
                .await
                .map(|list| aggregated_entry(&t.group, &t.version, &list)),
        };
        results.push(entry.map(|entry| {
            Fetched {
                entry,
                v3_entry: v3_index
                    .as_ref()
                    .and_then(|i| i.pointer(&format!("/paths/apis~1{}~1{}", t.group, t.version)))
                    .cloned(),
                v2: v2.clone(),
                current: true,
            }
        }));
    }
    (server, results)
}

/// The server's aggregated discovery (`/apis`, v2) as of now (`last` again when it
/// answers 304); None when it offers none, an error when it could not be asked or
/// answered 503 (upstream falls back to the legacy documents for any other answer).
async fn aggregated(
    front: &Front,
    t: &Target,
    last: Option<&Server>,
) -> Result<Option<Server>, String> {
    let etag = last.and_then(|s| s.etag.clone());
    let (status, headers, body) = get(front, t, "/apis", AGGREGATED_V2, etag).await?;
    match status {
        http::StatusCode::NOT_MODIFIED if last.is_some() => Ok(last.cloned()),
        http::StatusCode::SERVICE_UNAVAILABLE => Err(format!(
            "service {}/{} returned non-success response code: 503",
            t.service.namespace, t.service.name
        )),
        http::StatusCode::OK if is_aggregated_v2(&headers) => {
            let list: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
            let mut versions = BTreeMap::new();
            for group in list
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = group.pointer("/metadata/name").and_then(Value::as_str);
                let entries = group.get("versions").and_then(Value::as_array);
                for v in entries.into_iter().flatten() {
                    if let (Some(g), Some(version)) =
                        (name, v.get("version").and_then(Value::as_str))
                    {
                        versions.insert(format!("{g}/{version}"), v.clone());
                    }
                }
            }
            let etag = headers.get(http::header::ETAG).cloned();
            Ok(Some(Server { etag, versions }))
        }
        _ => Ok(None),
    }
}

/// What the aggregator asks a remote server's `/apis` for (client-go's `AcceptV2`).
const AGGREGATED_V2: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// Whether a response is an APIGroupDiscoveryList v2 (its parameters in any order).
fn is_aggregated_v2(headers: &http::HeaderMap) -> bool {
    let Some(ct) = headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let mut parts = ct.split(';').map(str::trim);
    if !parts
        .next()
        .is_some_and(|m| m.eq_ignore_ascii_case("application/json"))
    {
        return false;
    }
    let params: Vec<(&str, &str)> = parts.filter_map(|p| p.split_once('=')).collect();
    ["g=apidiscovery.k8s.io", "v=v2", "as=APIGroupDiscoveryList"]
        .iter()
        .filter_map(|want| want.split_once('='))
        .all(|want| params.contains(&want))
}

/// GETs `path` of `t`'s server as `system:kube-aggregator`, JSON.
async fn get_json(front: &Front, t: &Target, path: &str) -> Result<Value, String> {
    let (status, _, body) = get(front, t, path, "application/json", None).await?;
    if !status.is_success() {
        return Err(format!("bad status from {path}: {}", status.as_u16()));
    }
    serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string())
}

/// GETs `path` of `t`'s server as `system:kube-aggregator`, accepting `accept`, with
/// `If-None-Match: etag` when given; the whole answer, bounded in size and time.
async fn get(
    front: &Front,
    t: &Target,
    path: &str,
    accept: &'static str,
    etag: Option<HeaderValue>,
) -> Result<(http::StatusCode, http::HeaderMap, bytes::Bytes), String> {
    let client = t.client.as_ref().map_err(Clone::clone)?;
    let address = front.resolve(&t.service)?;
    let url = format!("https://{address}{path}");
    let mut req = super::aggregator_get(&url)?;
    let headers = req.headers_mut();
    headers.insert(http::header::ACCEPT, HeaderValue::from_static(accept));
    if let Some(etag) = etag {
        headers.insert(http::header::IF_NONE_MATCH, etag);
    }
    let get = async {
        let resp = client.request(req).await.map_err(|e| e.to_string())?;
        let (parts, body) = resp.into_parts();
        let body = Limited::new(body, MAX_DOCUMENT)
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        Ok((parts.status, parts.headers, body))
    };
    tokio::time::timeout(FETCH_TIMEOUT, get)
        .await
        .map_err(|_| format!("timed out fetching {url}"))?
}

/// An APIResourceList as aggregated discovery's APIVersionDiscovery: one entry per
/// resource, its subresources (`pods/status`) inside it.
pub(crate) fn aggregated_entry(group: &str, version: &str, list: &Value) -> Value {
    let resources: Vec<&Value> = list
        .get("resources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let text = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut out: Vec<Value> = Vec::new();
    for r in resources.iter().filter(|r| !text(r, "name").contains('/')) {
        let name = text(r, "name");
        let mut entry = json!({
            "resource": name,
            "responseKind": {"group": group, "version": version, "kind": text(r, "kind")},
            "scope": if r.get("namespaced").and_then(Value::as_bool).unwrap_or(false) { "Namespaced" } else { "Cluster" },
            "singularResource": text(r, "singularName"),
            "verbs": r.get("verbs").cloned().unwrap_or(json!([])),
        });
        for k in ["shortNames", "categories"] {
            if let Some(v) = r
                .get(k)
                .filter(|v| v.as_array().is_some_and(|a| !a.is_empty()))
            {
                entry[k] = v.clone();
            }
        }
        let prefix = format!("{name}/");
        let subresources: Vec<Value> = resources
            .iter()
            .filter_map(|s| {
                let sub = text(s, "name").strip_prefix(&prefix)?.to_owned();
                Some(json!({
                    "subresource": sub,
                    "responseKind": {"group": group, "version": version, "kind": text(s, "kind")},
                    "verbs": s.get("verbs").cloned().unwrap_or(json!([])),
                }))
            })
            .collect();
        if !subresources.is_empty() {
            entry["subresources"] = json!(subresources);
        }
        out.push(entry);
    }
    json!({"version": version, "resources": out, "freshness": "Current"})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_resource_lists_become_aggregated_entries() {
        let list = json!({"kind": "APIResourceList", "groupVersion": "wardle.example.com/v1alpha1", "resources": [
            {"name": "flunders", "singularName": "flunder", "namespaced": true, "kind": "Flunder",
             "verbs": ["get", "list"], "shortNames": ["fl"], "categories": []},
            {"name": "flunders/status", "singularName": "", "namespaced": true, "kind": "Flunder", "verbs": ["get"]},
            {"name": "fischers", "singularName": "fischer", "namespaced": false, "kind": "Fischer", "verbs": ["get"]},
        ]});
        let entry = aggregated_entry("wardle.example.com", "v1alpha1", &list);
        assert_eq!(entry["version"], "v1alpha1");
        let r = &entry["resources"];
        assert_eq!(r.as_array().map(Vec::len), Some(2));
        assert_eq!(r[0]["resource"], "flunders");
        assert_eq!(r[0]["scope"], "Namespaced");
        assert_eq!(r[0]["shortNames"], json!(["fl"]));
        assert!(r[0].get("categories").is_none());
        assert_eq!(r[0]["subresources"][0]["subresource"], "status");
        assert_eq!(r[1]["scope"], "Cluster");
        assert_eq!(r[1]["responseKind"]["kind"], "Fischer");
    }

    #[test]
    fn aggregated_answers_are_known_by_their_type() {
        let with = |ct: &str| {
            let mut h = http::HeaderMap::new();
            h.insert(
                http::header::CONTENT_TYPE,
                HeaderValue::from_str(ct).expect("header"),
            );
            is_aggregated_v2(&h)
        };
        assert!(with(AGGREGATED_V2));
        assert!(with(
            "application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io"
        ));
        assert!(!with("application/json"));
        assert!(!with(
            "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"
        ));
        assert!(!with(
            "application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
        ));
        assert!(!is_aggregated_v2(&http::HeaderMap::new()));
    }
}
