//! Filling the Node authorizer's graph from the cluster (upstream's
//! `graph_populator.go`): pods, persistent volumes, VolumeAttachments and ResourceSlices
//! followed from storage, each object reduced to the references upstream's graph records
//! (`VisitPodSecretNames`, `VisitPodConfigmapNames`, `VisitPVSecretNames`, v1.33). Reading
//! is lenient: a field of the wrong type or missing counts as absent, never a panic.

use std::sync::{Arc, RwLock, RwLockReadGuard};

use kas_server::storage::StorageConfig;
use serde_json::Value;

use crate::node_graph::{Graph, Kind};
use crate::str_at;
use kas_server::follow::{self, Follower, Synced};

/// The followed resources, by index.
const RESOURCES: [&str; 4] = [
    "pods",
    "persistentvolumes",
    "volumeattachments",
    "resourceslices",
];
const PODS: usize = 0;
const PVS: usize = 1;
const ATTACHMENTS: usize = 2;
const SLICES: usize = 3;

/// The annotation of a mirror pod (a static pod's reflection, created by its kubelet).
const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// What a pod contributes to the graph.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct PodRefs {
    /// `spec.nodeName`, when bound.
    pub(crate) node: Option<String>,
    /// The objects it references, sorted, without duplicates.
    pub(crate) refs: Vec<(Kind, String)>,
}

/// What a persistent volume contributes to the graph.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct PvRefs {
    /// `spec.claimRef` (namespace, name), when bound.
    pub(crate) claim: Option<(String, String)>,
    /// The secrets a kubelet reads for it (namespace, name).
    pub(crate) secrets: Vec<(String, String)>,
}

fn items<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter())
        .into_iter()
        .flatten()
}

fn present<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key).filter(|x| !x.is_null())
}

/// The first of `sources` the volume has (Go's `switch` over the volume source fields:
/// one source per volume), with its value.
fn source<'a>(volume: &'a Value, sources: &[&'static str]) -> Option<(&'static str, &'a Value)> {
    sources
        .iter()
        .find_map(|s| present(volume, s).map(|v| (*s, v)))
}

/// The references of the pod `name` upstream's graph records.
pub(crate) fn pod_refs(name: &str, pod: &Value) -> PodRefs {
    let node = str_at(pod, "/spec/nodeName");
    if node.is_empty() {
        return PodRefs::default();
    }
    let mut refs = Vec::new();
    let mirror = pod
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(MIRROR_POD_ANNOTATION));
    // A node must never gain access to other objects through a pod it could create.
    if !mirror {
        let spec = pod.get("spec").unwrap_or(&Value::Null);
        let mut add = |kind: Kind, name: &str| {
            if !name.is_empty() {
                refs.push((kind, name.to_owned()));
            }
        };
        add(Kind::ServiceAccount, str_at(spec, "/serviceAccountName"));
        for s in items(spec, "imagePullSecrets") {
            add(Kind::Secret, str_at(s, "/name"));
        }
        let containers = ["initContainers", "containers", "ephemeralContainers"];
        for c in containers.iter().flat_map(|k| items(spec, k)) {
            for e in items(c, "envFrom") {
                add(Kind::Secret, str_at(e, "/secretRef/name"));
                add(Kind::ConfigMap, str_at(e, "/configMapRef/name"));
            }
            for e in items(c, "env") {
                add(Kind::Secret, str_at(e, "/valueFrom/secretKeyRef/name"));
                add(
                    Kind::ConfigMap,
                    str_at(e, "/valueFrom/configMapKeyRef/name"),
                );
            }
        }
        for v in items(spec, "volumes") {
            volume_refs(name, v, &mut add);
        }
        for claim in items(spec, "resourceClaims") {
            add(Kind::ResourceClaim, &resource_claim_name(pod, claim));
        }
    }
    refs.sort();
    refs.dedup();
    PodRefs {
        node: Some(node.to_owned()),
        refs,
    }
}

/// A volume's secret, config map and claim references.
fn volume_refs(pod_name: &str, v: &Value, add: &mut impl FnMut(Kind, &str)) {
    const SECRET_SOURCES: [&str; 11] = [
        "azureFile",
        "cephfs",
        "cinder",
        "flexVolume",
        "projected",
        "rbd",
        "secret",
        "scaleIO",
        "iscsi",
        "storageos",
        "csi",
    ];
    match source(v, &SECRET_SOURCES) {
        Some(("azureFile", s)) => add(Kind::Secret, str_at(s, "/secretName")),
        Some(("projected", s)) => {
            for p in items(s, "sources") {
                add(Kind::Secret, str_at(p, "/secret/name"));
            }
        }
        Some(("secret", s)) => add(Kind::Secret, str_at(s, "/secretName")),
        Some(("csi", s)) => add(Kind::Secret, str_at(s, "/nodePublishSecretRef/name")),
        Some((_, s)) => add(Kind::Secret, str_at(s, "/secretRef/name")),
        None => {}
    }
    match source(v, &["projected", "configMap"]) {
        Some(("projected", s)) => {
            for p in items(s, "sources") {
                add(Kind::ConfigMap, str_at(p, "/configMap/name"));
            }
        }
        Some((_, s)) => add(Kind::ConfigMap, str_at(s, "/name")),
        None => {}
    }
    if let Some(pvc) = present(v, "persistentVolumeClaim") {
        add(Kind::Pvc, str_at(pvc, "/claimName"));
    } else if present(v, "ephemeral").is_some() {
        // The claim of a generic ephemeral volume is named `<pod>-<volume>`.
        let volume = str_at(v, "/name");
        add(Kind::Pvc, &format!("{pod_name}-{volume}"));
    }
}

/// The ResourceClaim a pod's claim entry names: its own, or the one made from its
/// template as the pod's status records it (none yet: empty).
fn resource_claim_name(pod: &Value, claim: &Value) -> String {
    let own = str_at(claim, "/resourceClaimName");
    if !own.is_empty() || present(claim, "resourceClaimTemplateName").is_none() {
        return own.to_owned();
    }
    let entry = str_at(claim, "/name");
    let status = pod.get("status").unwrap_or(&Value::Null);
    items(status, "resourceClaimStatuses")
        .find(|s| str_at(s, "/name") == entry)
        .map(|s| str_at(s, "/resourceClaimName").to_owned())
        .unwrap_or_default()
}

/// The references of a persistent volume upstream's graph records: its claim, and the
/// secrets a kubelet reads for its source (not the controller's CSI secrets).
pub(crate) fn pv_refs(pv: &Value) -> PvRefs {
    let spec = pv.get("spec").unwrap_or(&Value::Null);
    let Some(claim_ref) = present(spec, "claimRef") else {
        return PvRefs::default();
    };
    let claim_ns = str_at(claim_ref, "/namespace");
    let claim = (claim_ns.to_owned(), str_at(claim_ref, "/name").to_owned());
    let mut secrets = Vec::new();
    let mut add = |ns: &str, name: &str| {
        if !name.is_empty() {
            secrets.push((ns.to_owned(), name.to_owned()));
        }
    };
    // A secret reference without a namespace means the claim's (older objects).
    let ns_or_claim = |r: &Value| match str_at(r, "/namespace") {
        "" => claim_ns.to_owned(),
        ns => ns.to_owned(),
    };
    const SOURCES: [&str; 9] = [
        "azureFile",
        "cephfs",
        "cinder",
        "flexVolume",
        "rbd",
        "scaleIO",
        "iscsi",
        "storageos",
        "csi",
    ];
    match source(spec, &SOURCES) {
        Some(("azureFile", s)) => {
            let ns = match str_at(s, "/secretNamespace") {
                "" => claim_ns,
                ns => ns,
            };
            add(ns, str_at(s, "/secretName"));
        }
        Some(("cinder" | "storageos", s)) => {
            let r = s.get("secretRef").unwrap_or(&Value::Null);
            add(str_at(r, "/namespace"), str_at(r, "/name"));
        }
        Some(("csi", s)) => {
            for key in [
                "nodePublishSecretRef",
                "nodeStageSecretRef",
                "nodeExpandSecretRef",
            ] {
                let r = s.get(key).unwrap_or(&Value::Null);
                add(str_at(r, "/namespace"), str_at(r, "/name"));
            }
        }
        Some((_, s)) => {
            if let Some(r) = present(s, "secretRef") {
                add(&ns_or_claim(r), str_at(r, "/name"));
            }
        }
        None => {}
    }
    PvRefs {
        claim: Some(claim),
        secrets,
    }
}

/// `spec.nodeName` of a VolumeAttachment or ResourceSlice, when set.
fn node_name(v: &Value) -> Option<String> {
    Some(str_at(v, "/spec/nodeName"))
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

/// The graph of the cluster's objects, kept current by watches.
#[derive(Debug)]
pub struct NodeGraph {
    graph: RwLock<Graph>,
    synced: Synced,
}

impl NodeGraph {
    /// Connects to the storage of `config` and starts following pods, persistent
    /// volumes, VolumeAttachments and ResourceSlices. Until listed the graph is empty.
    pub fn start(config: StorageConfig) -> Arc<NodeGraph> {
        let (synced, tx) = Synced::new();
        let graph = Arc::new(NodeGraph {
            graph: RwLock::default(),
            synced,
        });
        follow::start(&graph, config, tx, Arc::default());
        graph
    }

    /// A graph fed by hand (tests, fixed objects), already synced.
    pub(crate) fn fixed() -> NodeGraph {
        let (synced, tx) = Synced::new();
        tx.send_replace(1);
        NodeGraph {
            graph: RwLock::default(),
            synced,
        }
    }

    /// Waits until the objects have been listed once.
    pub async fn synced(&self) {
        self.synced.wait().await;
    }

    /// The graph, for one decision.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, Graph> {
        self.graph.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Graph> {
        self.graph.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// `namespace/name` of a namespaced key, `("", name)` of a cluster-scoped one.
fn split_key(key: &str) -> (&str, &str) {
    key.split_once('/').unwrap_or(("", key))
}

/// Applies one object (or its deletion) of `resource` to `graph`.
pub(crate) fn apply(graph: &mut Graph, resource: usize, key: &str, object: Option<&Value>) {
    let (ns, name) = split_key(key);
    match (resource, object) {
        (PODS, Some(pod)) => graph.set_pod(ns, name, pod_refs(name, pod)),
        (PODS, None) => graph.remove_pod(ns, name),
        (PVS, Some(pv)) => graph.set_pv(name, pv_refs(pv)),
        (PVS, None) => graph.remove_pv(name),
        (ATTACHMENTS, o) => graph.set_attachment(name, o.and_then(node_name)),
        (SLICES, o) => graph.set_slice(name, o.and_then(node_name)),
        _ => {}
    }
}

#[cfg(test)]
impl NodeGraph {
    /// Feeds one watch event by hand.
    pub(crate) fn apply_for_test(&self, resource: usize, key: &str, object: Option<Value>) {
        Follower::apply(self, resource, key, object);
    }

    /// Feeds a listing by hand.
    pub(crate) fn reset_for_test(&self, listed: Vec<Vec<(String, Value)>>) {
        Follower::reset(self, listed);
    }
}

impl Follower for NodeGraph {
    const WHAT: &'static str = "Node authorizer";

    fn resources(&self) -> &'static [&'static str] {
        &RESOURCES
    }

    fn reset(&self, listed: Vec<Vec<(String, Value)>>) {
        // Built aside, so decisions keep the old graph meanwhile.
        let mut fresh = Graph::default();
        for (resource, objects) in listed.iter().enumerate() {
            for (key, object) in objects {
                apply(&mut fresh, resource, key, Some(object));
            }
        }
        *self.write() = fresh;
    }

    fn apply(&self, resource: usize, key: &str, object: Option<Value>) {
        apply(&mut self.write(), resource, key, object.as_ref());
    }
}
