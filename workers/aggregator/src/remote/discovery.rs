//! Discovery of remote groups, as kube-aggregator serves it. The legacy documents come
//! from the APIService objects alone (`/apis` lists every remote group-version, and
//! `/apis/<group>` of a group only remote servers serve lists its versions by priority),
//! so they never wait for a remote server. Aggregated discovery needs each remote
//! group-version's resources: they are fetched in the background (`/apis/<g>/<v>` as
//! `system:kube-aggregator`) when an APIService appears, changes or becomes available,
//! and every [`REFRESH`]; a group-version that cannot be fetched keeps its last
//! document marked `Stale`, and one never fetched is left out, as upstream does.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use http::HeaderValue;
use http_body_util::{BodyExt, Limited};
use serde_json::{json, Value};

use super::{Remotes, Target};
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
    /// Remote groups as `/apis` lists them (APIGroup), with each group's priority (the
    /// highest `groupPriorityMinimum` of its APIServices); groups `local` serves are
    /// left to the local documents.
    pub(crate) fn legacy_groups(&self, local: &dyn Fn(&str) -> bool) -> Vec<(Value, i64)> {
        by_group(&self.targets())
            .into_iter()
            .filter(|(group, _)| !local(group))
            .map(|(_, versions)| (api_group(&versions), group_priority(&versions)))
            .collect()
    }

    /// `/apis/<group>` for a group only remote servers serve.
    pub(crate) fn group_document(&self, group: &str) -> Option<Value> {
        let targets: Vec<Arc<Target>> = self
            .targets()
            .into_iter()
            .filter(|t| t.group == group)
            .collect();
        if targets.is_empty() {
            return None;
        }
        let mut doc = json!({"kind": "APIGroup", "apiVersion": "v1"});
        if let (Some(d), Value::Object(g)) =
            (doc.as_object_mut(), api_group(&sorted_versions(targets)))
        {
            d.extend(g);
        }
        Some(doc)
    }

    /// Remote groups as aggregated discovery lists them (APIGroupDiscovery), with their
    /// priorities; group-versions never fetched are left out.
    pub(crate) fn aggregated_groups(&self, local: &dyn Fn(&str) -> bool) -> Vec<(Value, i64)> {
        let fetched = self.fetched.read().map(|f| f.clone()).unwrap_or_default();
        by_group(&self.targets())
            .into_iter()
            .filter(|(group, _)| !local(group))
            .filter_map(|(group, versions)| {
                let entries: Vec<Value> = versions
                    .iter()
                    .filter_map(|t| {
                        let f = fetched.get(&format!("{}/{}", t.group, t.version))?;
                        let mut entry = f.entry.clone();
                        entry["freshness"] = json!(if f.current { "Current" } else { "Stale" });
                        Some(entry)
                    })
                    .collect();
                if entries.is_empty() {
                    return None;
                }
                let doc = json!({
                    "metadata": {"name": group, "creationTimestamp": null},
                    "versions": entries,
                });
                Some((doc, group_priority(&versions)))
            })
            .collect()
    }
}

impl Remotes {
    /// The highest `groupPriorityMinimum` among the APIServices (local or remote) of
    /// `group`.
    fn stored_group_priority(&self, group: &str) -> Option<i64> {
        let known = self.known.lock().ok()?;
        known
            .objects
            .values()
            .filter(|o| o.pointer("/spec/group").and_then(Value::as_str) == Some(group))
            .filter_map(|o| {
                o.pointer("/spec/groupPriorityMinimum")
                    .and_then(Value::as_i64)
            })
            .max()
    }

    /// `local` (groups in `/apis` order, each named at `name_at`) with the `remote`
    /// groups placed by priority as kube-aggregator orders them: higher
    /// `groupPriorityMinimum` first, then by name.
    pub(crate) fn merge_groups(
        &self,
        mut local: Vec<Value>,
        name_at: &str,
        mut remote: Vec<(Value, i64)>,
    ) -> Vec<Value> {
        let name_of = |g: &Value| {
            g.pointer(name_at)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        remote.sort_by(|(a, pa), (b, pb)| pb.cmp(pa).then_with(|| name_of(a).cmp(&name_of(b))));
        let priorities: Vec<Option<i64>> = local
            .iter()
            .map(|g| self.stored_group_priority(&name_of(g)))
            .collect();
        let mut keyed: Vec<(Option<i64>, Value)> =
            priorities.into_iter().zip(local.drain(..)).collect();
        for (group, priority) in remote {
            let name = name_of(&group);
            let at = keyed
                .iter()
                .position(|(p, g)| match p {
                    Some(p) => *p < priority || (*p == priority && name_of(g) > name),
                    None => false,
                })
                .unwrap_or(keyed.len());
            keyed.insert(at, (Some(priority), group));
        }
        keyed.into_iter().map(|(_, g)| g).collect()
    }
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
        fetched.values().filter_map(|f| f.v2.clone()).collect()
    }
}

/// Targets by group, each group's versions by priority.
fn by_group(targets: &[Arc<Target>]) -> BTreeMap<String, Vec<Arc<Target>>> {
    let mut groups: BTreeMap<String, Vec<Arc<Target>>> = BTreeMap::new();
    for t in targets {
        groups.entry(t.group.clone()).or_default().push(t.clone());
    }
    groups
        .into_iter()
        .map(|(g, v)| (g, sorted_versions(v)))
        .collect()
}

/// Versions by `versionPriority` (highest first), then by Kubernetes version order.
fn sorted_versions(mut versions: Vec<Arc<Target>>) -> Vec<Arc<Target>> {
    versions.sort_by(|a, b| {
        b.version_priority
            .cmp(&a.version_priority)
            .then_with(|| kas_server::discovery::compare_versions(&a.version, &b.version))
    });
    versions
}

fn group_priority(versions: &[Arc<Target>]) -> i64 {
    versions
        .iter()
        .map(|t| t.group_priority_minimum)
        .max()
        .unwrap_or(0)
}

/// An APIGroup of `versions` (sorted), the first preferred.
fn api_group(versions: &[Arc<Target>]) -> Value {
    let gv = |t: &Target| json!({"groupVersion": format!("{}/{}", t.group, t.version), "version": t.version});
    let name = versions
        .first()
        .map(|t| t.group.clone())
        .unwrap_or_default();
    json!({
        "name": name,
        "versions": versions.iter().map(|t| gv(t)).collect::<Vec<_>>(),
        "preferredVersion": versions.first().map(|t| gv(t)).unwrap_or(Value::Null),
    })
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
    loop {
        let changed = remotes.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let targets = remotes.targets();
        let fetches = targets.iter().map(|t| fetch(&front, t));
        let results = futures_util::future::join_all(fetches).await;
        let mut next = BTreeMap::new();
        let before = remotes
            .fetched
            .read()
            .map(|f| f.clone())
            .unwrap_or_default();
        for (t, result) in targets.iter().zip(results) {
            let key = format!("{}/{}", t.group, t.version);
            match result {
                Ok(fetched) => {
                    next.insert(key, fetched);
                }
                Err(e) => {
                    tracing::debug!(apiservice = %t.name, error = %e, "remote discovery not fetched");
                    if let Some(old) = before.get(&key) {
                        next.insert(
                            key,
                            Fetched {
                                current: false,
                                ..old.clone()
                            },
                        );
                    }
                }
            }
        }
        let differs = next != before;
        if differs {
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

/// Fetches `/apis/<group>/<version>` of `t` (its aggregated entry) and, when served,
/// its OpenAPI v3 index entry and v2 document.
async fn fetch(front: &Front, t: &Target) -> Result<Fetched, String> {
    if !t.available {
        return Err("not available".into());
    }
    let list = get_json(front, t, &format!("/apis/{}/{}", t.group, t.version)).await?;
    let v3_entry = match get_json(front, t, "/openapi/v3").await {
        Ok(index) => index
            .pointer(&format!("/paths/apis~1{}~1{}", t.group, t.version))
            .cloned(),
        Err(_) => None,
    };
    let v2 = get_json(front, t, "/openapi/v2")
        .await
        .ok()
        .filter(|d| d.get("paths").is_some_and(Value::is_object))
        .map(Arc::new);
    Ok(Fetched {
        entry: aggregated_entry(&t.group, &t.version, &list),
        v3_entry,
        v2,
        current: true,
    })
}

/// GETs `path` of `t`'s server as `system:kube-aggregator`, JSON.
async fn get_json(front: &Front, t: &Target, path: &str) -> Result<Value, String> {
    let client = t.client.as_ref().map_err(Clone::clone)?;
    let address = front.resolve(&t.service)?;
    let url = format!("https://{address}{path}");
    let mut req = super::aggregator_get(&url)?;
    req.headers_mut().insert(
        http::header::ACCEPT,
        HeaderValue::from_static("application/json"),
    );
    let get = async {
        let resp = client.request(req).await.map_err(|e| e.to_string())?;
        if !resp.status().is_success() {
            return Err(format!("bad status from {url}: {}", resp.status().as_u16()));
        }
        let body = Limited::new(resp.into_body(), MAX_DOCUMENT)
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string())
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

    fn apiservice(name: &str, priority: i64, version_priority: i64, remote: bool) -> Value {
        let (version, group) = name.split_once('.').unwrap_or((name, ""));
        let mut spec = json!({"group": group, "version": version,
                              "groupPriorityMinimum": priority, "versionPriority": version_priority});
        if remote {
            spec["service"] = json!({"namespace": "ns", "name": group, "port": 443});
            spec["insecureSkipTLSVerify"] = json!(true);
        }
        json!({"metadata": {"name": name}, "spec": spec})
    }

    #[test]
    fn remote_groups_take_their_place_by_priority() {
        let remotes = Remotes::fixed(vec![
            apiservice("v1.", 18000, 1, false),
            apiservice("v1.apps", 17800, 15, false),
            apiservice("v1.batch", 17400, 15, false),
            apiservice("v1.high.example.com", 17500, 15, true),
            apiservice("v1alpha1.wardle.example.com", 1000, 15, true),
            apiservice("v1beta1.wardle.example.com", 1000, 20, true),
            apiservice("v1.aardvark.example.com", 1000, 15, true),
            apiservice("v1.stable.example.com", 1000, 100, false),
        ]);
        let local: Vec<Value> = ["apps", "batch", "stable.example.com"]
            .iter()
            .map(|g| json!({"name": g}))
            .collect();
        let remote = remotes.legacy_groups(&|g| g == "apps" || g == "batch");
        let merged = remotes.merge_groups(local, "/name", remote);
        let names: Vec<&str> = merged.iter().filter_map(|g| g["name"].as_str()).collect();
        // The stored priorities decide, then the names.
        assert_eq!(
            names,
            [
                "apps",
                "high.example.com",
                "batch",
                "aardvark.example.com",
                "stable.example.com",
                "wardle.example.com"
            ]
        );
        let wardle = remotes.group_document("wardle.example.com").expect("group");
        assert_eq!(wardle["kind"], "APIGroup");
        assert_eq!(wardle["preferredVersion"]["version"], "v1beta1");
        assert_eq!(wardle["versions"][1]["version"], "v1alpha1");
        assert!(remotes.group_document("apps").is_none());
        let target = remotes
            .target_for("/apis/wardle.example.com/v1alpha1/namespaces/x/flunders")
            .expect("a remote target");
        assert_eq!(target.name, "v1alpha1.wardle.example.com");
        assert!(remotes.target_for("/apis/apps/v1/deployments").is_none());
        assert!(remotes
            .target_for("/openapi/v3/apis/wardle.example.com/v1beta1")
            .is_some());
    }

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
}
