//! The APIServices' share of discovery, as kube-aggregator lists it. The legacy `/apis`
//! and `/apis/<group>` come from the APIService objects (every group one names, remote or
//! local, its versions by priority), so they never wait for a remote server; a version an
//! APIService names that the back ends do not serve (a remote `v2alpha1.apps`, a local
//! APIService nobody serves) joins its group. Aggregated discovery takes each remote
//! group-version's entry from what [`super::discovery`] fetched, `Stale` and without
//! resources while nothing could be fetched, as upstream's discovery manager does; a
//! remote version of a group the back ends serve joins that group's entry.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde_json::{json, Value};

use super::{Remotes, Target};

/// The group kube-aggregator lists first and never takes from an APIService.
const OWN_GROUP: &str = "apiregistration.k8s.io";

/// One APIService as discovery orders it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Registered {
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) group_priority_minimum: i64,
    pub(crate) version_priority: i64,
    /// Written by this server for what a back end serves (automanaged, no service): it
    /// stands for the back end's own listing, which discovery follows directly (so a
    /// deleted custom resource version leaves at once, not when its APIService goes).
    pub(crate) mirrored: bool,
}

impl Registered {
    /// Whether discovery lists this version beside the back ends' `served` ones.
    fn shown(&self, served: &[String]) -> bool {
        !self.mirrored || served.contains(&self.version)
    }
}

impl Remotes {
    /// Every APIService by group (the legacy group and this server's own left out), each
    /// group's versions by priority.
    pub(crate) fn registered_groups(&self) -> BTreeMap<String, Vec<Registered>> {
        let mut groups: BTreeMap<String, Vec<Registered>> = BTreeMap::new();
        let Ok(known) = self.known.lock() else {
            return groups;
        };
        for object in known.objects.values() {
            let spec = |k: &str| object.pointer(&format!("/spec/{k}"));
            let text = |k: &str| spec(k).and_then(Value::as_str).unwrap_or("").to_owned();
            let int = |k: &str| spec(k).and_then(Value::as_i64).unwrap_or(0);
            let (group, version) = (text("group"), text("version"));
            if group.is_empty() || group == OWN_GROUP || version.is_empty() {
                continue;
            }
            let automanaged = object
                .pointer("/metadata/labels")
                .and_then(|l| l.get(crate::apiservices::AUTOMANAGED))
                .is_some();
            let local = spec("service").is_none_or(Value::is_null);
            groups.entry(group.clone()).or_default().push(Registered {
                group,
                version,
                group_priority_minimum: int("groupPriorityMinimum"),
                version_priority: int("versionPriority"),
                mirrored: automanaged && local,
            });
        }
        for versions in groups.values_mut() {
            sort_versions(versions, |r| (&r.version, r.version_priority));
        }
        groups
    }

    /// Moves on with every change of the APIServices (documents built from them are
    /// cached per generation).
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    /// `/apis` (APIGroups): `local`, the back ends' groups in order, with the versions
    /// only APIServices name added to their group, and a group of its own, placed by
    /// priority, for each group only APIServices name.
    pub(crate) fn legacy_groups(&self, mut local: Vec<Value>) -> Vec<Value> {
        let mut others = Vec::new();
        for (group, registered) in self.registered_groups() {
            match local.iter_mut().find(|g| g["name"] == group.as_str()) {
                Some(g) => {
                    let served = versions_of(g, "/versions");
                    let shown: Vec<Registered> = registered
                        .into_iter()
                        .filter(|r| r.shown(&served))
                        .collect();
                    if shown.iter().any(|r| !served.contains(&r.version)) {
                        *g = api_group(&group, &listed_versions(&shown, &served));
                    }
                }
                None => {
                    let registered: Vec<Registered> =
                        registered.into_iter().filter(|r| r.shown(&[])).collect();
                    if registered.is_empty() {
                        continue;
                    }
                    let versions: Vec<String> =
                        registered.iter().map(|r| r.version.clone()).collect();
                    others.push((
                        api_group(&group, &versions),
                        group_priority(&registered, |r| r.group_priority_minimum),
                    ));
                }
            }
        }
        self.merge_groups(local, "/name", others)
    }

    /// `/apis/<group>` when APIServices name a version of `group` that the back ends
    /// (serving `served`) do not, answered from the APIServices as kube-aggregator's group
    /// handler does; None leaves it to the back end that serves the group.
    pub(crate) fn group_document(&self, group: &str, served: &[String]) -> Option<Value> {
        let registered: Vec<Registered> = self
            .registered_groups()
            .remove(group)?
            .into_iter()
            .filter(|r| r.shown(served))
            .collect();
        if registered.iter().all(|r| served.contains(&r.version)) {
            return None;
        }
        let mut doc = json!({"kind": "APIGroup", "apiVersion": "v1"});
        if let (Some(d), Value::Object(g)) = (
            doc.as_object_mut(),
            api_group(group, &listed_versions(&registered, served)),
        ) {
            d.extend(g);
        }
        Some(doc)
    }

    /// Aggregated discovery's groups (APIGroupDiscovery): `local`, the back ends', with
    /// each remote group-version's entry in its group (a group of its own, placed by
    /// priority, when the back ends do not serve the group).
    pub(crate) fn aggregated_groups(&self, mut local: Vec<Value>) -> Vec<Value> {
        let fetched = self.fetched.read().map(|f| f.clone()).unwrap_or_default();
        let registered = self.registered_groups();
        let mut others = Vec::new();
        for (group, targets) in by_group(&self.targets()) {
            if group == OWN_GROUP {
                continue;
            }
            let entries: Vec<Value> = targets
                .iter()
                .map(
                    |t| match fetched.get(&format!("{}/{}", t.group, t.version)) {
                        Some(f) => {
                            let mut entry = f.entry.clone();
                            entry["freshness"] = json!(if f.current { "Current" } else { "Stale" });
                            entry
                        }
                        None => json!({"version": t.version, "freshness": "Stale"}),
                    },
                )
                .collect();
            match local
                .iter_mut()
                .find(|g| g.pointer("/metadata/name") == Some(&json!(group)))
            {
                Some(item) => {
                    let priorities = registered.get(&group).map(Vec::as_slice).unwrap_or(&[]);
                    join_versions(item, entries, priorities);
                }
                None => {
                    let doc = json!({
                        "metadata": {"name": group, "creationTimestamp": null},
                        "versions": entries,
                    });
                    others.push((doc, group_priority(&targets, |t| t.group_priority_minimum)));
                }
            }
        }
        self.merge_groups(local, "/metadata/name", others)
    }

    /// The highest `groupPriorityMinimum` among the APIServices of `group`.
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

    /// `local` (groups in `/apis` order, each named at `name_at`) with the `others`
    /// placed by priority as kube-aggregator orders groups: higher
    /// `groupPriorityMinimum` first, then by name.
    fn merge_groups(
        &self,
        mut local: Vec<Value>,
        name_at: &str,
        mut others: Vec<(Value, i64)>,
    ) -> Vec<Value> {
        let name_of = |g: &Value| {
            g.pointer(name_at)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        others.sort_by(|(a, pa), (b, pb)| pb.cmp(pa).then_with(|| name_of(a).cmp(&name_of(b))));
        let priorities: Vec<Option<i64>> = local
            .iter()
            .map(|g| self.stored_group_priority(&name_of(g)))
            .collect();
        let mut keyed: Vec<(Option<i64>, Value)> =
            priorities.into_iter().zip(local.drain(..)).collect();
        for (group, priority) in others {
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

/// Adds the remote `entries` to a back end's APIGroupDiscovery `item` (replacing a
/// version it serves itself: the remote APIService routes it) and orders its versions by
/// the APIServices' priorities, unregistered versions last.
fn join_versions(item: &mut Value, entries: Vec<Value>, registered: &[Registered]) {
    let Some(versions) = item.get_mut("versions").and_then(Value::as_array_mut) else {
        return;
    };
    for entry in entries {
        match versions
            .iter_mut()
            .find(|v| v["version"] == entry["version"])
        {
            Some(v) => *v = entry,
            None => versions.push(entry),
        }
    }
    let priority = |v: &Value| {
        let name = v["version"].as_str().unwrap_or("");
        let p = registered
            .iter()
            .find(|r| r.version == name)
            .map_or(i64::MIN, |r| r.version_priority);
        (name.to_owned(), p)
    };
    versions.sort_by(|a, b| {
        let (a, b) = (priority(a), priority(b));
        by_priority((&a.0, a.1), (&b.0, b.1))
    });
}

/// The version names of the list at `at` in `group`.
fn versions_of(group: &Value, at: &str) -> Vec<String> {
    group
        .pointer(at)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.get("version").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The registered versions by priority, then the served ones no APIService names yet (a
/// custom resource version served a moment before its APIService is written).
fn listed_versions(registered: &[Registered], served: &[String]) -> Vec<String> {
    let mut versions: Vec<String> = registered.iter().map(|r| r.version.clone()).collect();
    for v in served {
        if !versions.contains(v) {
            versions.push(v.clone());
        }
    }
    versions
}

/// Higher `versionPriority` first, then Kubernetes version order.
fn by_priority(a: (&str, i64), b: (&str, i64)) -> std::cmp::Ordering {
    b.1.cmp(&a.1)
        .then_with(|| kas_server::discovery::compare_versions(a.0, b.0))
}

/// Remote targets by group, each group's versions by priority.
pub(crate) fn by_group(targets: &[Arc<Target>]) -> BTreeMap<String, Vec<Arc<Target>>> {
    let mut groups: BTreeMap<String, Vec<Arc<Target>>> = BTreeMap::new();
    for t in targets {
        groups.entry(t.group.clone()).or_default().push(t.clone());
    }
    for versions in groups.values_mut() {
        sort_versions(versions, |t| (&t.version, t.version_priority));
    }
    groups
}

/// `versions` by priority, each given as (version, versionPriority) by `key`.
fn sort_versions<T>(versions: &mut [T], key: impl Fn(&T) -> (&str, i64)) {
    versions.sort_by(|a, b| by_priority(key(a), key(b)));
}

/// The highest `groupPriorityMinimum` of a group's versions, each given by `of`.
fn group_priority<T>(versions: &[T], of: impl Fn(&T) -> i64) -> i64 {
    versions.iter().map(of).max().unwrap_or(0)
}

/// An APIGroup of `versions` (in order), the first preferred.
fn api_group(group: &str, versions: &[String]) -> Value {
    let gv = |v: &str| json!({"groupVersion": format!("{group}/{v}"), "version": v});
    json!({
        "name": group,
        "versions": versions.iter().map(|v| gv(v)).collect::<Vec<_>>(),
        "preferredVersion": versions.first().map(|v| gv(v)).unwrap_or(Value::Null),
    })
}

#[cfg(test)]
mod tests {
    use super::super::discovery::Fetched;
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

    fn names<'a>(groups: &'a [Value], at: &str) -> Vec<&'a str> {
        groups
            .iter()
            .filter_map(|g| g.pointer(at).and_then(Value::as_str))
            .collect()
    }

    fn local_group(name: &str, versions: &[&str]) -> Value {
        let versions: Vec<String> = versions.iter().map(|v| v.to_string()).collect();
        api_group(name, &versions)
    }

    #[test]
    fn groups_take_their_place_by_priority() {
        let remotes = Remotes::fixed(vec![
            apiservice("v1.", 18000, 1, false),
            apiservice("v1.apps", 17800, 15, false),
            apiservice("v1.batch", 17400, 15, false),
            apiservice("v1.high.example.com", 17500, 15, true),
            apiservice("v1alpha1.wardle.example.com", 1000, 15, true),
            apiservice("v1beta1.wardle.example.com", 1000, 20, true),
            apiservice("v1.aardvark.example.com", 1000, 15, true),
            apiservice("v1.stable.example.com", 1000, 100, false),
            // A local APIService of a group nobody serves is listed all the same.
            apiservice("v1.nobody.example.com", 900, 15, false),
            // One this server wrote for a custom resource version no longer served is not.
            {
                let mut a = apiservice("v1.gone.example.com", 1000, 100, false);
                a["metadata"]["labels"] =
                    json!({"kube-aggregator.kubernetes.io/automanaged": "true"});
                a
            },
        ]);
        let local = vec![
            local_group("apps", &["v1"]),
            local_group("batch", &["v1"]),
            local_group("stable.example.com", &["v1"]),
        ];
        let merged = remotes.legacy_groups(local);
        // The stored priorities decide, then the names.
        assert_eq!(
            names(&merged, "/name"),
            [
                "apps",
                "high.example.com",
                "batch",
                "aardvark.example.com",
                "stable.example.com",
                "wardle.example.com",
                "nobody.example.com"
            ]
        );
        let wardle = remotes
            .group_document("wardle.example.com", &[])
            .expect("group");
        assert_eq!(wardle["kind"], "APIGroup");
        assert_eq!(wardle["preferredVersion"]["version"], "v1beta1");
        assert_eq!(wardle["versions"][1]["version"], "v1alpha1");
        assert!(remotes.group_document("apps", &["v1".into()]).is_none());
        let nobody = remotes
            .group_document("nobody.example.com", &[])
            .expect("group");
        assert_eq!(
            nobody["versions"][0]["groupVersion"],
            "nobody.example.com/v1"
        );
        assert!(remotes.group_document("unknown.example.com", &[]).is_none());
        assert!(remotes.group_document("gone.example.com", &[]).is_none());
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
    fn a_remote_version_of_a_local_group_joins_it() {
        let remotes = Remotes::fixed(vec![
            apiservice("v1.apps", 17800, 15, false),
            apiservice("v1beta1.apps", 17800, 9, false),
            apiservice("v2alpha1.apps", 17800, 20, true),
        ]);
        let merged = remotes.legacy_groups(vec![local_group("apps", &["v1", "v1beta1"])]);
        assert_eq!(
            names(&merged[0..1], "/preferredVersion/version"),
            ["v2alpha1"]
        );
        let versions: Vec<&str> = merged[0]["versions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v["version"].as_str())
            .collect();
        assert_eq!(versions, ["v2alpha1", "v1", "v1beta1"]);
        let served = ["v1".to_owned(), "v1beta1".to_owned()];
        let doc = remotes
            .group_document("apps", &served)
            .expect("answered here");
        assert_eq!(doc["versions"][0]["groupVersion"], "apps/v2alpha1");

        // Aggregated: never fetched is Stale with no resources; fetched is as fetched.
        let local_item = json!({"metadata": {"name": "apps"}, "versions": [
            {"version": "v1", "resources": [], "freshness": "Current"},
            {"version": "v1beta1", "resources": [], "freshness": "Current"}]});
        let items = remotes.aggregated_groups(vec![local_item.clone()]);
        assert_eq!(items.len(), 1);
        assert_eq!(
            items[0]["versions"][0],
            json!({"version": "v2alpha1", "freshness": "Stale"})
        );
        assert_eq!(items[0]["versions"][1]["version"], "v1");
        if let Ok(mut f) = remotes.fetched.write() {
            f.insert(
                "apps/v2alpha1".into(),
                Fetched {
                    entry: json!({"version": "v2alpha1", "resources": [{"resource": "things"}]}),
                    v3_entry: None,
                    v2: None,
                    current: true,
                },
            );
        }
        let items = remotes.aggregated_groups(vec![local_item]);
        assert_eq!(items[0]["versions"][0]["freshness"], "Current");
        assert_eq!(
            items[0]["versions"][0]["resources"][0]["resource"],
            "things"
        );
    }
}
