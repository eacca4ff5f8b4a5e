//! NodeRestriction, as kube-apiserver v1.33's: what a kubelet (`system:node:<name>` in
//! `system:nodes`) may write. Pods: create only mirror pods bound to itself and owned by
//! its Node, referencing no account, secret, ConfigMap, PVC or ClusterTrustBundle; delete,
//! evict and update the status of only pods bound to itself (labels untouched). Its own
//! Node only, without a configSource, its taints untouched after creation, and labels
//! only outside the `kubernetes.io` / `k8s.io` namespaces or among the kubelet's own
//! (never `node-restriction.kubernetes.io`). PVCs: status only, nothing else changed.
//! Service account tokens only bound to a pod on itself. Leases only its own, in
//! `kube-node-lease`; CSINodes only its own; ResourceSlices only for itself.

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::Value;

const NODES_GROUP: &str = "system:nodes";
const NODE_PREFIX: &str = "system:node:";
const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";
/// The labels a kubelet may set on its Node besides those of its own namespaces.
const KUBELET_LABELS: [&str; 11] = [
    "kubernetes.io/hostname",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
    "node.kubernetes.io/instance-type",
    "beta.kubernetes.io/instance-type",
    "kubernetes.io/os",
    "kubernetes.io/arch",
    "beta.kubernetes.io/os",
    "beta.kubernetes.io/arch",
];

/// The NodeRestriction plugin.
pub struct NodeRestriction {
    pods: RestStore,
    nodes: RestStore,
}

impl NodeRestriction {
    /// The plugin, looking pods and nodes up in these stores.
    pub fn new(pods: RestStore, nodes: RestStore) -> NodeRestriction {
        NodeRestriction { pods, nodes }
    }
}

fn s<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The node a user is, when it is one: `Some("")` for a member of `system:nodes` whose
/// name says no node.
fn node_identity(req: &Request<'_>) -> Option<String> {
    let user = req.user?;
    if !user.groups.iter().any(|g| g == NODES_GROUP) {
        return None;
    }
    Some(user.name.strip_prefix(NODE_PREFIX).unwrap_or("").to_owned())
}

fn label_namespace(key: &str) -> &str {
    key.split_once('/').map_or("", |(ns, _)| ns)
}

fn in_namespace(ns: &str, domain: &str) -> bool {
    ns == domain || ns.ends_with(&format!(".{domain}"))
}

fn is_kubelet_label(key: &str) -> bool {
    let ns = label_namespace(key);
    KUBELET_LABELS.contains(&key)
        || in_namespace(ns, "kubelet.kubernetes.io")
        || in_namespace(ns, "node.kubernetes.io")
}

/// The label keys a kubelet may not add, remove or change, sorted.
fn forbidden_labels(new: &Value, old: Option<&Value>) -> Vec<String> {
    let labels = |v: Option<&Value>| {
        v.and_then(|o| o.pointer("/metadata/labels"))
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let (a, b) = (labels(Some(new)), labels(old));
    let mut out: Vec<String> = a
        .iter()
        .filter(|(k, v)| b.get(*k) != Some(*v))
        .chain(b.iter().filter(|(k, v)| a.get(*k) != Some(*v)))
        .map(|(k, _)| k.clone())
        .filter(|k| {
            let ns = label_namespace(k);
            let k8s = in_namespace(ns, "kubernetes.io") || in_namespace(ns, "k8s.io");
            in_namespace(ns, "node-restriction.kubernetes.io") || (k8s && !is_kubelet_label(k))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether a pod names anything of `kind` ("secret", "configMap").
fn pod_references(pod: &Value, kind: &str) -> bool {
    let spec = pod.get("spec").unwrap_or(&Value::Null);
    let arr = |v: &Value, k: &str| {
        v.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let volumes = arr(spec, "volumes");
    let in_volumes = volumes.iter().any(|v| {
        v.get(kind).is_some()
            || arr(v.get("projected").unwrap_or(&Value::Null), "sources")
                .iter()
                .any(|src| src.get(kind).is_some())
            || (kind == "secret"
                && [
                    "azureFile",
                    "cephfs",
                    "cinder",
                    "flexVolume",
                    "iscsi",
                    "rbd",
                    "scaleIO",
                    "storageos",
                    "csi",
                ]
                .iter()
                .any(|t| {
                    v.pointer(&format!("/{t}/secretRef")).is_some()
                        || v.pointer(&format!("/{t}/nodePublishSecretRef")).is_some()
                        || v.pointer(&format!("/{t}/secretName")).is_some()
                }))
    });
    let pull = kind == "secret" && !arr(spec, "imagePullSecrets").is_empty();
    let (key_ref, from_ref) = match kind {
        "secret" => ("secretKeyRef", "secretRef"),
        _ => ("configMapKeyRef", "configMapRef"),
    };
    let in_containers = ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|l| arr(spec, l))
        .any(|c| {
            arr(&c, "env")
                .iter()
                .any(|e| e.pointer(&format!("/valueFrom/{key_ref}")).is_some())
                || arr(&c, "envFrom").iter().any(|e| e.get(from_ref).is_some())
        });
    in_volumes || pull || in_containers
}

impl NodeRestriction {
    async fn pod(&self, req: &Request<'_>, name: &str) -> Result<Value, Status> {
        match self.pods.read_cached(req.namespace, name).await? {
            Some(p) => Ok(p),
            None => Err(Status::not_found("", "pods", name)),
        }
    }

    async fn admit_pod_create(
        &self,
        node: &str,
        req: &Request<'_>,
        pod: &Value,
    ) -> Result<(), Status> {
        let no = |why: String| Err(req.forbidden(pod, &why));
        if pod
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(MIRROR_ANNOTATION))
            .is_none()
        {
            return no(format!("pod does not have \"{MIRROR_ANNOTATION}\" annotation, node \"{node}\" can only create mirror pods"));
        }
        if s(pod, "/spec/nodeName") != node {
            return no(format!(
                "node \"{node}\" can only create pods with spec.nodeName set to itself"
            ));
        }
        let owners = pod
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        match owners.as_slice() {
            [] => {
                return no(format!(
                    "node \"{node}\" can only create pods with an owner reference set to itself"
                ))
            }
            [owner] => {
                if s(owner, "/apiVersion") != "v1"
                    || s(owner, "/kind") != "Node"
                    || s(owner, "/name") != node
                {
                    return no(format!("node \"{node}\" can only create pods with an owner reference set to itself"));
                }
                if owner.get("controller").and_then(Value::as_bool) != Some(true) {
                    return no(format!("node \"{node}\" can only create pods with a controller owner reference set to itself"));
                }
                if owner.get("blockOwnerDeletion").and_then(Value::as_bool) == Some(true) {
                    return no(format!(
                        "node \"{node}\" must not set blockOwnerDeletion on an owner reference"
                    ));
                }
                let Some(n) = self.nodes.read_cached("", node).await? else {
                    return Err(Status::not_found("", "nodes", node));
                };
                let (want, got) = (s(owner, "/uid"), s(&n, "/metadata/uid"));
                if want != got {
                    return no(format!(
                        "node {node} UID mismatch: expected {want} got {got}"
                    ));
                }
            }
            _ => {
                return no(format!(
                "node \"{node}\" can only create pods with a single owner reference set to itself"
            ))
            }
        }
        if !s(pod, "/spec/serviceAccountName").is_empty() {
            return no(format!(
                "node \"{node}\" can not create pods that reference a service account"
            ));
        }
        if pod_references(pod, "secret") {
            return no(format!(
                "node \"{node}\" can not create pods that reference secrets"
            ));
        }
        if pod_references(pod, "configMap") {
            return no(format!(
                "node \"{node}\" can not create pods that reference configmaps"
            ));
        }
        let volumes = pod
            .pointer("/spec/volumes")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let bundle = volumes.iter().any(|v| {
            v.pointer("/projected/sources")
                .and_then(Value::as_array)
                .is_some_and(|src| src.iter().any(|x| x.get("clusterTrustBundle").is_some()))
        });
        if bundle {
            return no(format!(
                "node \"{node}\" can not create pods that reference clustertrustbundles"
            ));
        }
        if volumes
            .iter()
            .any(|v| v.get("persistentVolumeClaim").is_some())
        {
            return no(format!(
                "node \"{node}\" can not create pods that reference persistentvolumeclaims"
            ));
        }
        Ok(())
    }

    async fn admit_pod(&self, node: &str, req: &Request<'_>, obj: &Value) -> Result<(), Status> {
        let no = |why: String| Err(req.forbidden(obj, &why));
        match (req.subresource, req.operation) {
            ("", Operation::Create) => self.admit_pod_create(node, req, obj).await,
            ("", Operation::Delete) => {
                let pod = self.pod(req, req.name).await?;
                match s(&pod, "/spec/nodeName") == node {
                    true => Ok(()),
                    false => no(format!("node \"{node}\" can only delete pods with spec.nodeName set to itself")),
                }
            }
            ("", op) => no(format!("unexpected operation \"{}\", node \"{node}\" can only create and delete mirror pods", op.as_str())),
            ("status", Operation::Update) => {
                let old = req.old_object.unwrap_or(&Value::Null);
                if s(old, "/spec/nodeName") != node {
                    return no(format!("node \"{node}\" can only update pod status for pods with spec.nodeName set to itself"));
                }
                if old.pointer("/metadata/labels") != obj.pointer("/metadata/labels") {
                    return no(format!("node \"{node}\" cannot update labels through pod status"));
                }
                if old.pointer("/status/resourceClaimStatuses") != obj.pointer("/status/resourceClaimStatuses") {
                    return no(format!("node \"{node}\" cannot update resource claim statues"));
                }
                Ok(())
            }
            ("status", op) => no(format!("unexpected operation \"{}\"", op.as_str())),
            ("eviction", Operation::Create) => {
                let name = match req.name {
                    "" => s(obj, "/metadata/name"),
                    n => n,
                };
                if name.is_empty() {
                    return no("could not determine pod from request data".to_owned());
                }
                let pod = self.pod(req, name).await?;
                match s(&pod, "/spec/nodeName") == node {
                    true => Ok(()),
                    false => no(format!("node {node} can only evict pods with spec.nodeName set to itself")),
                }
            }
            ("eviction", op) => no(format!("unexpected operation {}", op.as_str())),
            (sub, _) => no(format!("unexpected pod subresource \"{sub}\", only 'status' and 'eviction' are allowed")),
        }
    }

    fn admit_node(&self, node: &str, req: &Request<'_>, obj: &Value) -> Result<(), Status> {
        let requested = match (req.operation, req.name) {
            (Operation::Create, "") => s(obj, "/metadata/name"),
            (_, n) => n,
        };
        let no = |why: String| Err(req.forbidden(obj, &why));
        if requested != node {
            return no(format!(
                "node \"{node}\" is not allowed to modify node \"{requested}\""
            ));
        }
        match req.operation {
            Operation::Create => {
                if obj
                    .pointer("/spec/configSource")
                    .is_some_and(|c| !c.is_null())
                {
                    return no(format!(
                        "node \"{node}\" is not allowed to create pods with a non-nil configSource"
                    ));
                }
                let bad = forbidden_labels(obj, None);
                if !bad.is_empty() {
                    return no(format!(
                        "node \"{node}\" is not allowed to set the following labels: {}",
                        bad.join(", ")
                    ));
                }
            }
            Operation::Update => {
                let old = req.old_object.unwrap_or(&Value::Null);
                let source = obj.pointer("/spec/configSource").filter(|c| !c.is_null());
                if source.is_some() && source != old.pointer("/spec/configSource") {
                    return no(format!("node \"{node}\" is not allowed to update configSource to a new non-nil configSource"));
                }
                let taints = |v: &Value| {
                    v.pointer("/spec/taints")
                        .filter(|t| !t.is_null() && t.as_array().is_none_or(|a| !a.is_empty()))
                        .cloned()
                };
                if taints(obj) != taints(old) {
                    return no(format!("node \"{node}\" is not allowed to modify taints"));
                }
                let bad = forbidden_labels(obj, Some(old));
                if !bad.is_empty() {
                    return no(format!(
                        "is not allowed to modify labels: {}",
                        bad.join(", ")
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    async fn admit_token(&self, node: &str, req: &Request<'_>, tr: &Value) -> Result<(), Status> {
        if req.operation != Operation::Create || req.subresource != "token" {
            return Ok(());
        }
        let no = |why: &str| Err(req.forbidden(tr, why));
        let bound = tr.pointer("/spec/boundObjectRef").filter(|r| !r.is_null());
        let Some(bound) = bound.filter(|r| {
            s(r, "/apiVersion") == "v1" && s(r, "/kind") == "Pod" && !s(r, "/name").is_empty()
        }) else {
            return no("node requested token not bound to a pod");
        };
        let uid = s(bound, "/uid");
        if uid.is_empty() {
            return no("node requested token with a pod binding without a uid");
        }
        let pod = self.pod(req, s(bound, "/name")).await?;
        if s(&pod, "/metadata/uid") != uid {
            return Err(req.forbidden(tr, &format!("the UID in the bound object reference ({uid}) does not match the UID in record. The object might have been deleted and then recreated")));
        }
        if s(&pod, "/spec/nodeName") != node {
            return no("node requested token bound to a pod scheduled on a different node");
        }
        Ok(())
    }

    async fn admit_as_node(
        &self,
        node: &str,
        req: &Request<'_>,
        obj: &Value,
    ) -> Result<(), Status> {
        let named = |what: &str| -> Result<(), Status> {
            let name = match req.operation {
                Operation::Create => s(obj, "/metadata/name"),
                _ => req.name,
            };
            match name == node {
                true => Ok(()),
                false => Err(req.forbidden(
                    obj,
                    &format!("can only access {what} with the same name as the requesting node"),
                )),
            }
        };
        match (req.resource.group, req.resource.plural) {
            ("", "pods") => self.admit_pod(node, req, obj).await,
            ("", "nodes") => self.admit_node(node, req, obj),
            ("", "persistentvolumeclaims") => {
                if req.subresource != "status" {
                    return Err(req.forbidden(obj, "may only update PVC status"));
                }
                if req.operation != Operation::Update {
                    return Err(req.forbidden(
                        obj,
                        &format!("unexpected operation \"{}\"", req.operation.as_str()),
                    ));
                }
                let strip = |v: &Value| {
                    let mut v = v.clone();
                    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                        m.remove("resourceVersion");
                        m.remove("managedFields");
                    }
                    if let Some(st) = v.get_mut("status").and_then(Value::as_object_mut) {
                        for k in [
                            "capacity",
                            "conditions",
                            "allocatedResourceStatuses",
                            "allocatedResources",
                        ] {
                            st.remove(k);
                        }
                    }
                    v
                };
                match strip(obj) == strip(req.old_object.unwrap_or(&Value::Null)) {
                    true => Ok(()),
                    false => Err(req.forbidden(obj, &format!("node \"{node}\" is not allowed to update fields other than status.quantity and status.conditions"))),
                }
            }
            ("", "serviceaccounts") => self.admit_token(node, req, obj).await,
            ("coordination.k8s.io", "leases") => {
                if req.namespace != "kube-node-lease" {
                    return Err(req.forbidden(
                        obj,
                        "can only access leases in the \"kube-node-lease\" system namespace",
                    ));
                }
                named("node lease")
            }
            ("storage.k8s.io", "csinodes") => named("CSINode"),
            ("resource.k8s.io", "resourceslices") => {
                let (slice, verb) = match req.operation {
                    Operation::Create => (obj, "create"),
                    Operation::Delete => (req.old_object.unwrap_or(&Value::Null), "delete"),
                    _ => return Ok(()),
                };
                match s(slice, "/spec/nodeName") == node {
                    true => Ok(()),
                    false => Err(req.forbidden(obj, &format!("can only {verb} ResourceSlice with the same NodeName as the requesting node"))),
                }
            }
            _ => Ok(()),
        }
    }
}

impl Plugin for NodeRestriction {
    fn name(&self) -> &'static str {
        "NodeRestriction"
    }

    fn phases(&self) -> Phases {
        Phases::ADMIT
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if req.operation == Operation::Connect {
                return Ok(());
            }
            let Some(node) = node_identity(req) else {
                return Ok(());
            };
            if node.is_empty() {
                let name = req.user.map(|u| u.name.as_str()).unwrap_or("");
                return Err(req.forbidden(
                    obj,
                    &format!("could not determine node from user \"{name}\""),
                ));
            }
            self.admit_as_node(&node, req, obj).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_a_kubelet_may_set() {
        let new = json!({"metadata": {"labels": {
            "kubernetes.io/hostname": "n1", "node.kubernetes.io/exclude": "x",
            "team": "a", "node-role.kubernetes.io/master": "", "node-restriction.kubernetes.io/pci": "1",
            "example.k8s.io/x": "y"}}});
        assert_eq!(
            forbidden_labels(&new, None),
            [
                "example.k8s.io/x",
                "node-restriction.kubernetes.io/pci",
                "node-role.kubernetes.io/master"
            ]
        );
        // Unchanged ones do not count.
        assert!(forbidden_labels(&new, Some(&new)).is_empty());
    }

    #[test]
    fn references_in_pods() {
        let env = json!({"spec": {"containers": [{"env": [{"valueFrom": {"configMapKeyRef": {"name": "c"}}}]}]}});
        assert!(pod_references(&env, "configMap") && !pod_references(&env, "secret"));
        let projected =
            json!({"spec": {"volumes": [{"projected": {"sources": [{"secret": {"name": "s"}}]}}]}});
        assert!(pod_references(&projected, "secret"));
        let csi = json!({"spec": {"volumes": [{"csi": {"nodePublishSecretRef": {"name": "s"}}}]}});
        assert!(pod_references(&csi, "secret"));
        assert!(!pod_references(
            &json!({"spec": {"containers": [{"name": "c"}]}}),
            "secret"
        ));
    }
}
