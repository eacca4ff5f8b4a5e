//! The Node authorizer's graph (upstream's `plugin/pkg/auth/authorizer/node/graph.go`):
//! which objects lead to which node. Upstream keeps a general directed graph whose edges
//! all point towards nodes (secret → pod → node, secret → pv → pvc → pod → node, …) and
//! walks it. Those paths are at most four steps long and have one shape, so here every
//! object a bound pod references directly counts the nodes it leads to (a pod added
//! adds one, a pod deleted takes one away), and the persistent volume steps are looked up
//! at decision time: a question is a few hash look-ups by `&str`, with no allocation.

use std::collections::HashMap;
use std::sync::Arc;

use crate::node_populator::{PodRefs, PvRefs};

/// The kinds of namespaced object a pod references (upstream's vertex types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    ConfigMap,
    Secret,
    Pvc,
    ServiceAccount,
    ResourceClaim,
}

const KINDS: usize = 5;

/// The nodes an object leads to, with how many pods lead there (usually one entry).
type Holders = Vec<(Arc<str>, u32)>;

/// namespace → name → T, looked up by `&str` without allocating.
type ByName<T> = HashMap<String, HashMap<String, T>>;

fn get<'a, T>(map: &'a ByName<T>, namespace: &str, name: &str) -> Option<&'a T> {
    map.get(namespace)?.get(name)
}

/// A bound pod as the graph holds it.
#[derive(Debug)]
struct Pod {
    node: Arc<str>,
    /// What the pod references (sorted, no duplicates), to undo on removal.
    refs: Vec<(Kind, String)>,
}

/// A persistent volume bound to a claim.
#[derive(Debug)]
struct Pv {
    claim: (String, String),
    /// The secrets kubelets may read for it (namespace, name).
    secrets: Vec<(String, String)>,
}

/// Who leads to which node.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    /// Pods bound to a node, by namespace and name.
    pods: ByName<Pod>,
    /// For each [`Kind`]: object → the nodes it leads to through pods.
    refs: [ByName<Holders>; KINDS],
    /// Persistent volumes with a claim, by name.
    pvs: HashMap<String, Pv>,
    /// Secret (namespace, name) → the persistent volumes that reference it.
    pv_secrets: ByName<Vec<String>>,
    /// VolumeAttachment name → its node.
    attachments: HashMap<String, Arc<str>>,
    /// ResourceSlice name → its node.
    slices: HashMap<String, Arc<str>>,
}

impl Graph {
    /// Adds (or replaces) the pod `namespace/name`; a pod without a node is only removed.
    pub(crate) fn set_pod(&mut self, namespace: &str, name: &str, pod: PodRefs) {
        self.remove_pod(namespace, name);
        let Some(node) = pod.node else {
            return;
        };
        let node: Arc<str> = node.into();
        for (kind, object) in &pod.refs {
            let holders = self.refs[*kind as usize]
                .entry(namespace.to_owned())
                .or_default()
                .entry(object.clone())
                .or_default();
            match holders.iter_mut().find(|(n, _)| *n == node) {
                Some((_, count)) => *count += 1,
                None => holders.push((node.clone(), 1)),
            }
        }
        self.pods.entry(namespace.to_owned()).or_default().insert(
            name.to_owned(),
            Pod {
                node,
                refs: pod.refs,
            },
        );
    }

    /// Removes the pod `namespace/name` and what it led to.
    pub(crate) fn remove_pod(&mut self, namespace: &str, name: &str) {
        let Some(pods) = self.pods.get_mut(namespace) else {
            return;
        };
        let Some(pod) = pods.remove(name) else {
            return;
        };
        if pods.is_empty() {
            self.pods.remove(namespace);
        }
        for (kind, object) in &pod.refs {
            let by_ns = &mut self.refs[*kind as usize];
            let Some(objects) = by_ns.get_mut(namespace) else {
                continue;
            };
            if let Some(holders) = objects.get_mut(object.as_str()) {
                if let Some(i) = holders.iter().position(|(n, _)| *n == pod.node) {
                    holders[i].1 -= 1;
                    if holders[i].1 == 0 {
                        holders.swap_remove(i);
                    }
                }
                if holders.is_empty() {
                    objects.remove(object.as_str());
                }
            }
            if objects.is_empty() {
                by_ns.remove(namespace);
            }
        }
    }

    /// Adds (or replaces) the persistent volume `name`; one without a claim is removed.
    pub(crate) fn set_pv(&mut self, name: &str, pv: PvRefs) {
        self.remove_pv(name);
        let Some(claim) = pv.claim else {
            return;
        };
        for (ns, secret) in &pv.secrets {
            let pvs = self
                .pv_secrets
                .entry(ns.clone())
                .or_default()
                .entry(secret.clone())
                .or_default();
            if !pvs.iter().any(|p| p == name) {
                pvs.push(name.to_owned());
            }
        }
        self.pvs.insert(
            name.to_owned(),
            Pv {
                claim,
                secrets: pv.secrets,
            },
        );
    }

    /// Removes the persistent volume `name`.
    pub(crate) fn remove_pv(&mut self, name: &str) {
        let Some(pv) = self.pvs.remove(name) else {
            return;
        };
        for (ns, secret) in &pv.secrets {
            let Some(secrets) = self.pv_secrets.get_mut(ns.as_str()) else {
                continue;
            };
            if let Some(pvs) = secrets.get_mut(secret.as_str()) {
                pvs.retain(|p| p != name);
                if pvs.is_empty() {
                    secrets.remove(secret.as_str());
                }
            }
            if secrets.is_empty() {
                self.pv_secrets.remove(ns.as_str());
            }
        }
    }

    /// Sets the node of the VolumeAttachment `name` (none: removed).
    pub(crate) fn set_attachment(&mut self, name: &str, node: Option<String>) {
        match node {
            Some(n) => self.attachments.insert(name.to_owned(), n.into()),
            None => self.attachments.remove(name),
        };
    }

    /// Sets the node of the ResourceSlice `name` (none: removed).
    pub(crate) fn set_slice(&mut self, name: &str, node: Option<String>) {
        match node {
            Some(n) => self.slices.insert(name.to_owned(), n.into()),
            None => self.slices.remove(name),
        };
    }

    /// Whether the object of `kind` leads to `node` through a pod bound to it.
    pub(crate) fn refers(&self, kind: Kind, namespace: &str, name: &str, node: &str) -> bool {
        get(&self.refs[kind as usize], namespace, name)
            .is_some_and(|h| h.iter().any(|(n, _)| &**n == node))
    }

    /// Whether the pod `namespace/name` is bound to `node`.
    pub(crate) fn pod_on(&self, namespace: &str, name: &str, node: &str) -> bool {
        get(&self.pods, namespace, name).is_some_and(|p| &*p.node == node)
    }

    /// Whether the persistent volume `name` is bound to a claim of a pod on `node`.
    pub(crate) fn pv_on(&self, name: &str, node: &str) -> bool {
        self.pvs.get(name).is_some_and(|pv| {
            let (ns, claim) = &pv.claim;
            self.refers(Kind::Pvc, ns, claim, node)
        })
    }

    /// Whether the secret leads to `node`: used by one of its pods, or by the persistent
    /// volume of one of its pods' claims.
    pub(crate) fn secret_on(&self, namespace: &str, name: &str, node: &str) -> bool {
        self.refers(Kind::Secret, namespace, name, node)
            || get(&self.pv_secrets, namespace, name)
                .is_some_and(|pvs| pvs.iter().any(|pv| self.pv_on(pv, node)))
    }

    /// Whether the VolumeAttachment `name` is for `node`.
    pub(crate) fn attachment_on(&self, name: &str, node: &str) -> bool {
        self.attachments.get(name).is_some_and(|n| &**n == node)
    }

    /// Whether the ResourceSlice `name` belongs to `node`.
    pub(crate) fn slice_on(&self, name: &str, node: &str) -> bool {
        self.slices.get(name).is_some_and(|n| &**n == node)
    }

    /// How many bound pods the graph holds.
    #[cfg(test)]
    pub(crate) fn pod_count(&self) -> usize {
        self.pods.values().map(HashMap::len).sum()
    }

    /// Whether nothing is referenced any more (every count back to zero).
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.pods.is_empty()
            && self.refs.iter().all(HashMap::is_empty)
            && self.pvs.is_empty()
            && self.pv_secrets.is_empty()
            && self.attachments.is_empty()
            && self.slices.is_empty()
    }
}
