//! The Node authorization mode (upstream's `plugin/pkg/auth/authorizer/node`, as a
//! default v1.33 kube-apiserver runs it: `AuthorizeNodeWithSelectors` on). Judges only
//! kubelets (`system:node:<name>` in `system:nodes`): the secrets, config maps, claims,
//! volumes, attachments and service account tokens of the pods bound to the node, as the
//! graph (`node_graph`) tells; its own Lease, CSINode, ResourceSlices, Node and Pods by
//! name or field selector; everything else by the static rules of the `system:node`
//! role ([`NODE_RULES`]). A decision reads the graph under a read lock and allocates only
//! the reason of a refusal.

use std::sync::{Arc, OnceLock};

use kas_proto::UserInfo;

use crate::node_graph::{Graph, Kind};
use crate::node_populator::NodeGraph;
use crate::rbac::Rule;
use crate::{Attributes, Decision};

/// The group every kubelet is in.
pub const NODES_GROUP: &str = "system:nodes";
/// The user name prefix of kubelets.
const NODE_USER_PREFIX: &str = "system:node:";
/// The namespace of node Leases.
const NODE_LEASE_NAMESPACE: &str = "kube-node-lease";

/// The rules of the bootstrap `system:node` ClusterRole, which the Node mode grants every
/// kubelet for what it does not subdivide (upstream's `bootstrappolicy.NodeRules()` at
/// v1.33 with default feature gates): verbs, API groups (`core` is the core group `""`)
/// and resources, each space-separated. The kube-api worker's bootstrap policy writes the
/// ClusterRole from this same table.
pub const NODE_RULES: &[(&str, &str, &str)] = &[
    ("create", "authentication.k8s.io", "tokenreviews"),
    (
        "create",
        "authorization.k8s.io",
        "localsubjectaccessreviews subjectaccessreviews",
    ),
    ("get list watch", "core", "services"),
    ("create get list watch", "core", "nodes"),
    ("patch update", "core", "nodes/status"),
    ("patch update", "core", "nodes"),
    ("create patch update", "core", "events"),
    ("get list watch", "core", "pods"),
    ("create delete", "core", "pods"),
    ("patch update", "core", "pods/status"),
    ("create", "core", "pods/eviction"),
    ("get list watch", "core", "configmaps secrets"),
    ("get", "core", "persistentvolumeclaims persistentvolumes"),
    ("get", "core", "endpoints"),
    (
        "create get list watch",
        "certificates.k8s.io",
        "certificatesigningrequests",
    ),
    (
        "create delete get patch update",
        "coordination.k8s.io",
        "leases",
    ),
    ("get", "storage.k8s.io", "volumeattachments"),
    ("create", "core", "serviceaccounts/token"),
    ("get patch update", "core", "persistentvolumeclaims/status"),
    ("get list watch", "storage.k8s.io", "csidrivers"),
    (
        "create delete get patch update",
        "storage.k8s.io",
        "csinodes",
    ),
    ("get list watch", "node.k8s.io", "runtimeclasses"),
];

/// [`NODE_RULES`] compiled once.
fn node_rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let list = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .map(|t| if t == "core" { "" } else { t }.to_owned())
                .collect()
        };
        NODE_RULES
            .iter()
            .map(|(verbs, groups, resources)| Rule {
                verbs: list(verbs),
                api_groups: list(groups),
                resources: list(resources),
                ..Rule::default()
            })
            .collect()
    })
}

/// The node a user is, as upstream's default node identifier tells: `None` for anyone
/// who is not a kubelet, `Some("")` for a kubelet without a name.
pub(crate) fn node_identity(user: &UserInfo) -> Option<&str> {
    let name = user.name.strip_prefix(NODE_USER_PREFIX)?;
    user.groups.iter().any(|g| g == NODES_GROUP).then_some(name)
}

/// The Node mode over a graph.
#[derive(Debug, Clone)]
pub(crate) struct NodeAuthorizer {
    graph: Arc<NodeGraph>,
}

/// An opinion and its reason (`""` for none).
type Answer = (Decision, String);

fn allow() -> Answer {
    (Decision::Allow, String::new())
}

fn no(reason: &str) -> Answer {
    (Decision::NoOpinion, reason.to_owned())
}

fn unrelated(node: &str) -> Answer {
    (
        Decision::NoOpinion,
        format!("no relationship found between node '{node}' and this object"),
    )
}

/// Whether a field selector (`a=b,c==d`) requires `field` to equal `value` exactly.
fn selects(selector: &str, field: &str, value: &str) -> bool {
    selector.split(',').any(|term| {
        if term.contains("!=") {
            return false;
        }
        let (k, v) = term
            .split_once("==")
            .or_else(|| term.split_once('='))
            .unwrap_or(("", ""));
        k.trim() == field && v.trim() == value
    })
}

/// What a graph question is about.
#[derive(Debug, Clone, Copy)]
enum Target {
    Ref(Kind),
    Pod,
    Pv,
    Secret,
    Attachment,
    Slice,
}

impl NodeAuthorizer {
    pub(crate) fn new(graph: Arc<NodeGraph>) -> NodeAuthorizer {
        NodeAuthorizer { graph }
    }

    /// Waits until the graph has been listed once.
    pub(crate) async fn synced(&self) {
        self.graph.synced().await;
    }

    /// Decides `a` for `user` (upstream's `NodeAuthorizer.Authorize`).
    pub(crate) fn authorize(&self, user: &UserInfo, a: &Attributes) -> Answer {
        let Some(node) = node_identity(user) else {
            return (Decision::NoOpinion, String::new());
        };
        if node.is_empty() {
            return (
                Decision::NoOpinion,
                format!("unknown node for user {:?}", user.name),
            );
        }
        if a.resource_request {
            let graph = self.graph.read();
            let answer = match (a.group.as_str(), a.resource.as_str()) {
                ("", "secrets") => read_namespaced(&graph, node, Target::Secret, a),
                ("", "configmaps") => {
                    read_namespaced(&graph, node, Target::Ref(Kind::ConfigMap), a)
                }
                ("", "persistentvolumeclaims") if a.subresource == "status" => {
                    match a.verb.as_str() {
                        "update" | "patch" => related(&graph, node, Target::Ref(Kind::Pvc), a),
                        _ => no("can only get/update/patch this type"),
                    }
                }
                ("", "persistentvolumeclaims") => get(&graph, node, Target::Ref(Kind::Pvc), a),
                ("", "persistentvolumes") => get(&graph, node, Target::Pv, a),
                ("resource.k8s.io", "resourceclaims") => {
                    get(&graph, node, Target::Ref(Kind::ResourceClaim), a)
                }
                ("storage.k8s.io", "volumeattachments") => get(&graph, node, Target::Attachment, a),
                ("", "serviceaccounts") => create_token(&graph, node, a),
                ("coordination.k8s.io", "leases") => lease(node, a),
                ("storage.k8s.io", "csinodes") => csi_node(node, a),
                ("resource.k8s.io", "resourceslices") => resource_slice(&graph, node, a),
                ("", "nodes") => node_object(node, a),
                ("", "pods") => pod(&graph, node, a),
                _ => return static_rules(a),
            };
            return answer;
        }
        static_rules(a)
    }
}

/// get, list or watch of one namespaced object.
fn read_namespaced(graph: &Graph, node: &str, target: Target, a: &Attributes) -> Answer {
    if !matches!(a.verb.as_str(), "get" | "list" | "watch") {
        return no("can only read resources of this type");
    }
    if !a.subresource.is_empty() {
        return no("cannot read subresource");
    }
    if a.namespace.is_empty() {
        return no("can only read namespaced object of this type");
    }
    related(graph, node, target, a)
}

fn static_rules(a: &Attributes) -> Answer {
    if node_rules().iter().any(|r| r.allows(a)) {
        allow()
    } else {
        (Decision::NoOpinion, String::new())
    }
}

/// A get of one object related to the node.
fn get(graph: &Graph, node: &str, target: Target, a: &Attributes) -> Answer {
    if a.verb != "get" {
        return no("can only get individual resources of this type");
    }
    if !a.subresource.is_empty() {
        return no("cannot get subresource");
    }
    related(graph, node, target, a)
}

/// Allowed when the named object leads to the node.
fn related(graph: &Graph, node: &str, target: Target, a: &Attributes) -> Answer {
    if a.name.is_empty() {
        return no("No Object name found");
    }
    if leads_to(graph, node, target, &a.namespace, &a.name) {
        allow()
    } else {
        unrelated(node)
    }
}

fn leads_to(graph: &Graph, node: &str, target: Target, ns: &str, name: &str) -> bool {
    match target {
        Target::Ref(kind) => graph.refers(kind, ns, name, node),
        Target::Pod => graph.pod_on(ns, name, node),
        Target::Pv => graph.pv_on(name, node),
        Target::Secret => graph.secret_on(ns, name, node),
        Target::Attachment => graph.attachment_on(name, node),
        Target::Slice => graph.slice_on(name, node),
    }
}

/// `create serviceaccounts/token` for the service account of a pod on the node.
fn create_token(graph: &Graph, node: &str, a: &Attributes) -> Answer {
    if a.verb != "create" || a.name.is_empty() {
        return no("can only create tokens for individual service accounts");
    }
    if a.subresource != "token" {
        return no("can only create token subresource of serviceaccount");
    }
    if graph.refers(Kind::ServiceAccount, &a.namespace, &a.name, node) {
        allow()
    } else {
        unrelated(node)
    }
}

/// The node's own Lease in `kube-node-lease`.
fn lease(node: &str, a: &Attributes) -> Answer {
    let verb = a.verb.as_str();
    if !matches!(verb, "get" | "create" | "update" | "patch" | "delete") {
        return no("can only get, create, update, patch, or delete a node lease");
    }
    if a.namespace != NODE_LEASE_NAMESPACE {
        return (
            Decision::NoOpinion,
            format!("can only access leases in the {NODE_LEASE_NAMESPACE:?} system namespace"),
        );
    }
    // The name of a created object is unknown here; NodeRestriction admission checks it.
    if verb != "create" && a.name != node {
        return no("can only access node lease with the same name as the requesting node");
    }
    allow()
}

/// The node's own CSINode.
fn csi_node(node: &str, a: &Attributes) -> Answer {
    let verb = a.verb.as_str();
    if !matches!(verb, "get" | "create" | "update" | "patch" | "delete") {
        return no("can only get, create, update, patch, or delete a CSINode");
    }
    if !a.subresource.is_empty() {
        return no("cannot authorize CSINode subresources");
    }
    if verb != "create" && a.name != node {
        return no("can only access CSINode with the same name as the requesting node");
    }
    allow()
}

/// The node's ResourceSlices: by the graph, or listed with `nodeName=<node>`.
fn resource_slice(graph: &Graph, node: &str, a: &Attributes) -> Answer {
    if !a.subresource.is_empty() {
        return no("cannot authorize ResourceSlice subresources");
    }
    match a.verb.as_str() {
        "create" => allow(),
        "get" | "update" | "patch" | "delete" => related(graph, node, Target::Slice, a),
        "watch" | "list" | "deletecollection" => {
            if selects(&a.field_selector, "nodeName", node) {
                allow()
            } else {
                no("can only list/watch/deletecollection resourceslices with nodeName field selector")
            }
        }
        _ => no("only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection"),
    }
}

/// Node objects: create and update any (NodeRestriction limits them), read only its own.
fn node_object(node: &str, a: &Attributes) -> Answer {
    match (a.subresource.as_str(), a.verb.as_str()) {
        ("", "create" | "update" | "patch") | ("status", "update" | "patch") => allow(),
        ("", "get" | "list" | "watch") => match a.name.as_str() {
            n if n == node => allow(),
            "" => (
                Decision::NoOpinion,
                format!("node '{node}' cannot read all nodes, only its own Node object"),
            ),
            other => (
                Decision::NoOpinion,
                format!("node '{node}' cannot read '{other}', only its own Node object"),
            ),
        },
        _ => (Decision::NoOpinion, String::new()),
    }
}

/// Pods: its own by name or `spec.nodeName=<node>`; mirror pod create/delete, status and
/// evictions for any (NodeRestriction limits them).
fn pod(graph: &Graph, node: &str, a: &Attributes) -> Answer {
    match (a.subresource.as_str(), a.verb.as_str()) {
        ("", "get") => get(graph, node, Target::Pod, a),
        ("", "list" | "watch") => {
            if selects(&a.field_selector, "spec.nodeName", node) {
                allow()
            } else if !a.name.is_empty() {
                related(graph, node, Target::Pod, a)
            } else {
                no("can only list/watch pods with spec.nodeName field selector")
            }
        }
        ("", "create" | "delete") | ("status", "update" | "patch") | ("eviction", "create") => {
            allow()
        }
        _ => (Decision::NoOpinion, String::new()),
    }
}

#[cfg(test)]
#[path = "node_tests.rs"]
mod tests;
