//! The objects kube-apiserver creates at start when they are missing: the bootstrap RBAC
//! policy (ClusterRoles, ClusterRoleBindings, and the Roles and RoleBindings of
//! `kube-system` and `kube-public`) and the two system PriorityClasses. Pure data, written
//! compactly: one line per policy rule. The controller roles live in
//! [`controllers`](self::controllers).

mod controllers;

use serde_json::{json, Value};

/// The label every bootstrap RBAC object carries.
pub(crate) const BOOTSTRAP_LABEL: (&str, &str) = ("kubernetes.io/bootstrapping", "rbac-defaults");
/// The annotation that lets kube-apiserver reconcile the object at each start.
pub(crate) const AUTOUPDATE_ANNOTATION: (&str, &str) =
    ("rbac.authorization.kubernetes.io/autoupdate", "true");

const RBAC_V1: &str = "rbac.authorization.k8s.io/v1";
const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// Splits a space-separated list; the token `core` stands for the core API group `""`.
fn list(s: &str) -> Vec<&str> {
    s.split_whitespace()
        .map(|t| if t == "core" { "" } else { t })
        .collect()
}

/// A resource rule: verbs, API groups, resources (each space-separated).
fn r(verbs: &str, groups: &str, resources: &str) -> Value {
    json!({"verbs": list(verbs), "apiGroups": list(groups), "resources": list(resources)})
}

/// A resource rule limited to the named objects.
fn rn(verbs: &str, groups: &str, resources: &str, names: &str) -> Value {
    let mut rule = r(verbs, groups, resources);
    rule["resourceNames"] = json!(list(names));
    rule
}

/// A non-resource rule: verbs and URL paths.
fn u(verbs: &str, urls: &str) -> Value {
    json!({"verbs": list(verbs), "nonResourceURLs": list(urls)})
}

/// The events rule nearly every controller has.
fn events() -> Value {
    r("create patch update", "core events.k8s.io", "events")
}

/// Bootstrap metadata: name, optional namespace, the label (plus `labels`) and annotation.
fn meta(name: &str, namespace: Option<&str>, labels: &[(&str, &str)]) -> Value {
    let mut l = serde_json::Map::new();
    l.insert(BOOTSTRAP_LABEL.0.into(), json!(BOOTSTRAP_LABEL.1));
    for (k, v) in labels {
        l.insert((*k).into(), json!(v));
    }
    let mut m = json!({
        "name": name,
        "labels": l,
        "annotations": {AUTOUPDATE_ANNOTATION.0: AUTOUPDATE_ANNOTATION.1},
    });
    if let Some(ns) = namespace {
        m["namespace"] = json!(ns);
    }
    m
}

/// The `system:node` role's rules: the table the Node authorizer also grants from.
fn node_rules() -> Vec<Value> {
    kas_authz::NODE_RULES
        .iter()
        .map(|(verbs, groups, resources)| r(verbs, groups, resources))
        .collect()
}

/// A ClusterRole with these rules.
fn cluster_role(name: &str, rules: Vec<Value>) -> Value {
    labelled_cluster_role(name, &[], rules)
}

/// A ClusterRole with extra labels (the `aggregate-to-*` ones).
fn labelled_cluster_role(name: &str, labels: &[(&str, &str)], rules: Vec<Value>) -> Value {
    json!({
        "apiVersion": RBAC_V1,
        "kind": "ClusterRole",
        "metadata": meta(name, None, labels),
        "rules": rules,
    })
}

/// A ClusterRole whose rules are aggregated from the ClusterRoles labelled
/// `rbac.authorization.k8s.io/aggregate-to-<to>: "true"`.
fn aggregated_cluster_role(name: &str, to: &str, labels: &[(&str, &str)]) -> Value {
    let mut role = labelled_cluster_role(name, labels, Vec::new());
    role["aggregationRule"] = json!({"clusterRoleSelectors": [
        {"matchLabels": {format!("rbac.authorization.k8s.io/aggregate-to-{to}"): "true"}}
    ]});
    role
}

/// A namespaced Role.
fn role(namespace: &str, name: &str, rules: Vec<Value>) -> Value {
    json!({
        "apiVersion": RBAC_V1,
        "kind": "Role",
        "metadata": meta(name, Some(namespace), &[]),
        "rules": rules,
    })
}

/// A binding subject: `User:name`, `Group:name` or `ServiceAccount:namespace/name`.
fn subject(s: &str) -> Value {
    let (kind, rest) = s.split_once(':').unwrap_or(("User", s));
    match (kind, rest.split_once('/')) {
        ("ServiceAccount", Some((ns, name))) => {
            json!({"kind": "ServiceAccount", "name": name, "namespace": ns})
        }
        _ => json!({"apiGroup": RBAC_GROUP, "kind": kind, "name": rest}),
    }
}

/// A ClusterRoleBinding of the ClusterRole `role` to `subjects` (see [`subject`]).
fn cluster_binding(name: &str, role: &str, subjects: &[&str]) -> Value {
    let mut b = json!({
        "apiVersion": RBAC_V1,
        "kind": "ClusterRoleBinding",
        "metadata": meta(name, None, &[]),
        "roleRef": {"apiGroup": RBAC_GROUP, "kind": "ClusterRole", "name": role},
    });
    if !subjects.is_empty() {
        b["subjects"] = subjects.iter().map(|s| subject(s)).collect();
    }
    b
}

/// A RoleBinding of the Role `role` in `namespace` to `subjects`.
fn role_binding(namespace: &str, name: &str, role: &str, subjects: &[&str]) -> Value {
    json!({
        "apiVersion": RBAC_V1,
        "kind": "RoleBinding",
        "metadata": meta(name, Some(namespace), &[]),
        "roleRef": {"apiGroup": RBAC_GROUP, "kind": "Role", "name": role},
        "subjects": subjects.iter().map(|s| subject(s)).collect::<Vec<_>>(),
    })
}

const RW: &str = "create delete deletecollection patch update";
const RWALL: &str = "create delete deletecollection get list patch update watch";
const READ: &str = "get list watch";

/// The user-facing and `system:` ClusterRoles (not the controllers').
fn system_cluster_roles() -> Vec<Value> {
    let to_admin = [("rbac.authorization.k8s.io/aggregate-to-admin", "true")];
    let to_edit = [("rbac.authorization.k8s.io/aggregate-to-edit", "true")];
    let to_view = [("rbac.authorization.k8s.io/aggregate-to-view", "true")];
    let approver = |signer: &str| {
        cluster_role(
            &format!(
                "system:certificates.k8s.io:{}-approver",
                signer.trim_start_matches("kubernetes.io/")
            ),
            vec![rn("approve", "certificates.k8s.io", "signers", signer)],
        )
    };
    vec![
        aggregated_cluster_role("admin", "admin", &[]),
        cluster_role("cluster-admin", vec![r("*", "*", "*"), u("*", "*")]),
        aggregated_cluster_role("edit", "edit", &to_admin),
        labelled_cluster_role("system:aggregate-to-admin", &to_admin, vec![
            r("create", "authorization.k8s.io", "localsubjectaccessreviews"),
            r(RWALL, "rbac.authorization.k8s.io", "rolebindings roles"),
        ]),
        labelled_cluster_role("system:aggregate-to-edit", &to_edit, vec![
            r(READ, "core", "pods/attach pods/exec pods/portforward pods/proxy secrets services/proxy"),
            r("impersonate", "core", "serviceaccounts"),
            r(RW, "core", "pods pods/attach pods/exec pods/portforward pods/proxy"),
            r("create", "core", "pods/eviction"),
            r(RW, "core", "configmaps events persistentvolumeclaims replicationcontrollers replicationcontrollers/scale secrets serviceaccounts services services/proxy"),
            r("create", "core", "serviceaccounts/token"),
            r(RW, "apps", "daemonsets deployments deployments/rollback deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale"),
            r(RW, "autoscaling", "horizontalpodautoscalers"),
            r(RW, "batch", "cronjobs jobs"),
            r(RW, "extensions", "daemonsets deployments deployments/rollback deployments/scale ingresses networkpolicies replicasets replicasets/scale replicationcontrollers/scale"),
            r(RW, "policy", "poddisruptionbudgets"),
            r(RW, "networking.k8s.io", "ingresses networkpolicies"),
            r(RWALL, "coordination.k8s.io", "leases"),
        ]),
        labelled_cluster_role("system:aggregate-to-view", &to_view, vec![
            r(READ, "core", "configmaps endpoints persistentvolumeclaims persistentvolumeclaims/status pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status"),
            r(READ, "core", "bindings events limitranges namespaces/status pods/log pods/status replicationcontrollers/status resourcequotas resourcequotas/status"),
            r(READ, "core", "namespaces"),
            r(READ, "discovery.k8s.io", "endpointslices"),
            r(READ, "apps", "controllerrevisions daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status statefulsets statefulsets/scale statefulsets/status"),
            r(READ, "autoscaling", "horizontalpodautoscalers horizontalpodautoscalers/status"),
            r(READ, "batch", "cronjobs cronjobs/status jobs jobs/status"),
            r(READ, "extensions", "daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status networkpolicies replicasets replicasets/scale replicasets/status replicationcontrollers/scale"),
            r(READ, "policy", "poddisruptionbudgets poddisruptionbudgets/status"),
            r(READ, "networking.k8s.io", "ingresses ingresses/status networkpolicies"),
        ]),
        cluster_role("system:auth-delegator", vec![
            r("create", "authentication.k8s.io", "tokenreviews"),
            r("create", "authorization.k8s.io", "subjectaccessreviews"),
        ]),
        cluster_role("system:basic-user", vec![
            r("create", "authorization.k8s.io", "selfsubjectaccessreviews selfsubjectrulesreviews"),
            r("create", "authentication.k8s.io", "selfsubjectreviews"),
        ]),
        cluster_role("system:certificates.k8s.io:certificatesigningrequests:nodeclient", vec![
            r("create", "certificates.k8s.io", "certificatesigningrequests/nodeclient"),
        ]),
        cluster_role("system:certificates.k8s.io:certificatesigningrequests:selfnodeclient", vec![
            r("create", "certificates.k8s.io", "certificatesigningrequests/selfnodeclient"),
        ]),
        approver("kubernetes.io/kube-apiserver-client"),
        approver("kubernetes.io/kube-apiserver-client-kubelet"),
        approver("kubernetes.io/kubelet-serving"),
        approver("kubernetes.io/legacy-unknown"),
        cluster_role("system:discovery", vec![u(
            "get",
            "/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/",
        )]),
        cluster_role("system:heapster", vec![
            r(READ, "core", "events namespaces nodes pods"),
            r(READ, "extensions", "deployments"),
        ]),
        cluster_role("system:kube-aggregator", vec![r(READ, "core", "endpoints services")]),
        cluster_role("system:kube-controller-manager", vec![
            events(),
            r("create", "coordination.k8s.io", "leases"),
            rn("get update", "coordination.k8s.io", "leases", "kube-controller-manager"),
            r("create", "core", "secrets serviceaccounts"),
            r("delete", "core", "secrets"),
            r("get", "core", "configmaps namespaces secrets serviceaccounts"),
            r("update", "core", "secrets serviceaccounts"),
            r("create", "authentication.k8s.io", "tokenreviews"),
            r("create", "authorization.k8s.io", "subjectaccessreviews"),
            r("list watch", "*", "*"),
            r("create", "core", "serviceaccounts/token"),
        ]),
        cluster_role("system:kube-dns", vec![r("list watch", "core", "endpoints services")]),
        cluster_role("system:kube-scheduler", vec![
            events(),
            r("create", "coordination.k8s.io", "leases"),
            rn("get update", "coordination.k8s.io", "leases", "kube-scheduler"),
            r(READ, "core", "nodes"),
            r("delete get list watch", "core", "pods"),
            r("create", "core", "bindings pods/binding"),
            r("patch update", "core", "pods/status"),
            r(READ, "core", "replicationcontrollers services"),
            r(READ, "apps extensions", "replicasets"),
            r(READ, "apps", "statefulsets"),
            r(READ, "policy", "poddisruptionbudgets"),
            r(READ, "core", "persistentvolumeclaims persistentvolumes"),
            r("create", "authentication.k8s.io", "tokenreviews"),
            r("create", "authorization.k8s.io", "subjectaccessreviews"),
            r(READ, "storage.k8s.io", "csinodes"),
            r(READ, "core", "namespaces"),
            r(READ, "storage.k8s.io", "csidrivers"),
            r(READ, "storage.k8s.io", "csistoragecapacities"),
        ]),
        cluster_role("system:kubelet-api-admin", vec![
            r(READ, "core", "nodes"),
            r("proxy", "core", "nodes"),
            r("*", "core", "nodes/log nodes/metrics nodes/proxy nodes/stats"),
        ]),
        cluster_role("system:monitoring", vec![u(
            "get",
            "/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*",
        )]),
        // The Node authorizer grants the same rules (kas_authz::NODE_RULES).
        cluster_role("system:node", node_rules()),
        cluster_role("system:node-bootstrapper", vec![
            r("create get list watch", "certificates.k8s.io", "certificatesigningrequests"),
        ]),
        cluster_role("system:node-problem-detector", vec![
            r("get", "core", "nodes"),
            r("patch", "core", "nodes/status"),
            events(),
        ]),
        cluster_role("system:node-proxier", vec![
            r("list watch", "core", "endpoints services"),
            r(READ, "core", "nodes"),
            events(),
            r("list watch", "discovery.k8s.io", "endpointslices"),
        ]),
        cluster_role("system:persistent-volume-provisioner", vec![
            r("create delete get list watch", "core", "persistentvolumes"),
            r("get list update watch", "core", "persistentvolumeclaims"),
            r(READ, "storage.k8s.io", "storageclasses"),
            r("watch", "core", "events"),
            events(),
        ]),
        cluster_role("system:public-info-viewer", vec![u(
            "get",
            "/healthz /livez /readyz /version /version/",
        )]),
        cluster_role("system:service-account-issuer-discovery", vec![u(
            "get",
            "/.well-known/openid-configuration /openid/v1/jwks",
        )]),
        cluster_role("system:volume-scheduler", vec![
            r("get list patch update watch", "core", "persistentvolumes"),
            r(READ, "storage.k8s.io", "storageclasses"),
            r("get list patch update watch", "core", "persistentvolumeclaims"),
        ]),
        aggregated_cluster_role("view", "view", &to_edit),
    ]
}

/// Every bootstrap ClusterRole: the system roles, then the controllers'.
pub(crate) fn cluster_roles() -> Vec<Value> {
    let mut all = system_cluster_roles();
    all.extend(controllers::cluster_roles());
    all
}

/// Every bootstrap ClusterRoleBinding: the system bindings, then one per controller role
/// to the controller's service account in `kube-system`.
pub(crate) fn cluster_role_bindings() -> Vec<Value> {
    let same = |name: &str, subjects: &[&str]| cluster_binding(name, name, subjects);
    let mut all = vec![
        same("cluster-admin", &["Group:system:masters"]),
        same("system:basic-user", &["Group:system:authenticated"]),
        same("system:discovery", &["Group:system:authenticated"]),
        same(
            "system:kube-controller-manager",
            &["User:system:kube-controller-manager"],
        ),
        same("system:kube-dns", &["ServiceAccount:kube-system/kube-dns"]),
        same("system:kube-scheduler", &["User:system:kube-scheduler"]),
        same("system:monitoring", &["Group:system:monitoring"]),
        // Nodes are authorized by the Node authorizer; the binding has no subjects.
        same("system:node", &[]),
        same("system:node-proxier", &["User:system:kube-proxy"]),
        same(
            "system:public-info-viewer",
            &["Group:system:authenticated", "Group:system:unauthenticated"],
        ),
        same(
            "system:service-account-issuer-discovery",
            &["Group:system:serviceaccounts"],
        ),
        same("system:volume-scheduler", &["User:system:kube-scheduler"]),
    ];
    for name in controllers::NAMES {
        let full = format!("system:controller:{name}");
        let sa = format!("ServiceAccount:kube-system/{name}");
        all.push(cluster_binding(&full, &full, &[&sa]));
    }
    all
}

/// The bootstrap Roles of `kube-system` and `kube-public`.
pub(crate) fn roles() -> Vec<Value> {
    controllers::roles()
}

/// The bootstrap RoleBindings of `kube-system` and `kube-public`.
pub(crate) fn role_bindings() -> Vec<Value> {
    let signer = "ServiceAccount:kube-system/bootstrap-signer";
    vec![
        role_binding(
            "kube-public",
            "system:controller:bootstrap-signer",
            "system:controller:bootstrap-signer",
            &[signer],
        ),
        role_binding(
            "kube-system",
            "system::extension-apiserver-authentication-reader",
            "extension-apiserver-authentication-reader",
            &[
                "User:system:kube-controller-manager",
                "User:system:kube-scheduler",
            ],
        ),
        role_binding(
            "kube-system",
            "system::leader-locking-kube-controller-manager",
            "system::leader-locking-kube-controller-manager",
            &[
                "User:system:kube-controller-manager",
                "ServiceAccount:kube-system/kube-controller-manager",
                "ServiceAccount:kube-system/leader-election-controller",
            ],
        ),
        role_binding(
            "kube-system",
            "system::leader-locking-kube-scheduler",
            "system::leader-locking-kube-scheduler",
            &[
                "User:system:kube-scheduler",
                "ServiceAccount:kube-system/kube-scheduler",
            ],
        ),
        role_binding(
            "kube-system",
            "system:controller:bootstrap-signer",
            "system:controller:bootstrap-signer",
            &[signer],
        ),
        role_binding(
            "kube-system",
            "system:controller:cloud-provider",
            "system:controller:cloud-provider",
            &["ServiceAccount:kube-system/cloud-provider"],
        ),
        role_binding(
            "kube-system",
            "system:controller:token-cleaner",
            "system:controller:token-cleaner",
            &["ServiceAccount:kube-system/token-cleaner"],
        ),
    ]
}

/// The system PriorityClasses. Upstream creates them without the RBAC bootstrap label and
/// annotation, and so do we.
pub(crate) fn priority_classes() -> Vec<Value> {
    let class = |name: &str, value: i64, description: &str| {
        json!({
            "apiVersion": "scheduling.k8s.io/v1",
            "kind": "PriorityClass",
            "metadata": {"name": name},
            "value": value,
            "globalDefault": false,
            "preemptionPolicy": "PreemptLowerPriority",
            "description": description,
        })
    };
    vec![
        class(
            "system-node-critical",
            2_000_001_000,
            "Used for system critical pods that must not be moved from their current node.",
        ),
        class(
            "system-cluster-critical",
            2_000_000_000,
            "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(objects: &[Value]) -> Vec<&str> {
        objects
            .iter()
            .filter_map(|o| o.pointer("/metadata/name").and_then(Value::as_str))
            .collect()
    }

    fn find<'a>(objects: &'a [Value], name: &str) -> &'a Value {
        objects
            .iter()
            .find(|o| o["metadata"]["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing"))
    }

    #[test]
    fn counts() {
        assert_eq!(system_cluster_roles().len(), 31);
        assert_eq!(controllers::cluster_roles().len(), controllers::NAMES.len());
        assert_eq!(cluster_roles().len(), 31 + 38);
        assert_eq!(cluster_role_bindings().len(), 12 + 38);
        assert_eq!(roles().len(), 7);
        assert_eq!(role_bindings().len(), 7);
        assert_eq!(priority_classes().len(), 2);
    }

    #[test]
    fn names_are_unique_and_every_object_is_marked() {
        for set in [cluster_roles(), cluster_role_bindings()] {
            let mut n = names(&set);
            let len = n.len();
            n.sort_unstable();
            n.dedup();
            assert_eq!(n.len(), len, "duplicate names");
        }
        for o in cluster_roles()
            .iter()
            .chain(&cluster_role_bindings())
            .chain(&roles())
            .chain(&role_bindings())
        {
            let m = &o["metadata"];
            assert_eq!(
                m["labels"]["kubernetes.io/bootstrapping"], "rbac-defaults",
                "{m}"
            );
            assert_eq!(
                m["annotations"]["rbac.authorization.kubernetes.io/autoupdate"],
                "true"
            );
        }
    }

    #[test]
    fn every_binding_points_at_a_role() {
        let crs = cluster_roles();
        let cluster_role_names = names(&crs);
        for b in cluster_role_bindings() {
            let role = b["roleRef"]["name"].as_str().unwrap_or("");
            assert!(cluster_role_names.contains(&role), "{role}");
        }
        let rs = roles();
        for b in role_bindings() {
            let ns = &b["metadata"]["namespace"];
            let role = &b["roleRef"]["name"];
            assert!(
                rs.iter()
                    .any(|r| r["metadata"]["namespace"] == *ns && r["metadata"]["name"] == *role),
                "{b}"
            );
        }
    }

    #[test]
    fn spot_checks() {
        let crs = cluster_roles();
        assert_eq!(
            find(&crs, "cluster-admin")["rules"],
            json!([
                {"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]},
                {"verbs": ["*"], "nonResourceURLs": ["*"]},
            ])
        );
        let admin = find(&crs, "admin");
        assert_eq!(
            admin["aggregationRule"]["clusterRoleSelectors"][0]["matchLabels"]
                ["rbac.authorization.k8s.io/aggregate-to-admin"],
            "true"
        );
        assert_eq!(
            find(&crs, "edit")["metadata"]["labels"]
                ["rbac.authorization.k8s.io/aggregate-to-admin"],
            "true"
        );
        assert_eq!(
            find(&crs, "view")["metadata"]["labels"]["rbac.authorization.k8s.io/aggregate-to-edit"],
            "true"
        );
        assert_eq!(
            find(&crs, "system:certificates.k8s.io:kubelet-serving-approver")["rules"][0],
            json!({"verbs": ["approve"], "apiGroups": ["certificates.k8s.io"], "resources": ["signers"], "resourceNames": ["kubernetes.io/kubelet-serving"]})
        );
        assert_eq!(
            find(&crs, "system:node-proxier")["rules"][2]["apiGroups"],
            json!(["", "events.k8s.io"])
        );
        let crbs = cluster_role_bindings();
        assert_eq!(
            find(&crbs, "cluster-admin")["subjects"],
            json!([{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "system:masters"}])
        );
        assert!(find(&crbs, "system:node").get("subjects").is_none());
        assert_eq!(
            find(&crbs, "system:controller:job-controller")["subjects"],
            json!([{"kind": "ServiceAccount", "name": "job-controller", "namespace": "kube-system"}])
        );
        let pcs = priority_classes();
        assert_eq!(find(&pcs, "system-node-critical")["value"], 2_000_001_000);
        assert_eq!(
            find(&pcs, "system-cluster-critical")["value"],
            2_000_000_000
        );
    }
}
