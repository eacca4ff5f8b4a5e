//! Defaults of the small policy objects of a cluster: networking.k8s.io/v1
//! NetworkPolicies and IngressClasses, rbac.authorization.k8s.io/v1 bindings and
//! scheduling.k8s.io/v1 PriorityClasses.

use serde_json::{json, Value};

use super::{each, entry, set};

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// NetworkPolicy: every port's protocol is TCP; without policy types, Ingress (and
/// Egress when egress rules are given).
pub(crate) fn network_policy_defaults(obj: &mut Value) {
    let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) else {
        return;
    };
    for direction in ["ingress", "egress"] {
        for rule in each(spec, direction) {
            for port in each(rule, "ports") {
                entry(port, "protocol", json!("TCP"));
            }
        }
    }
    let stated = |s: &Value, key: &str| {
        s.get(key)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    };
    if !stated(spec, "policyTypes") {
        spec["policyTypes"] = if stated(spec, "egress") {
            json!(["Ingress", "Egress"])
        } else {
            json!(["Ingress"])
        };
    }
}

/// IngressClass: parameters without a scope are cluster-scoped.
pub(crate) fn ingress_class_defaults(obj: &mut Value) {
    if let Some(p) = obj
        .pointer_mut("/spec/parameters")
        .filter(|p| p.is_object())
    {
        entry(p, "scope", json!("Cluster"));
    }
}

/// A RoleBinding or ClusterRoleBinding: the role reference's group is RBAC's; a
/// subject's group is RBAC's for users and groups (a service account's stays empty,
/// which Go's encoding leaves out).
pub(crate) fn binding_defaults(obj: &mut Value) {
    if let Some(r) = entry(obj, "roleRef", json!({})).filter(|r| r.is_object()) {
        set(r, "apiGroup", json!(RBAC_GROUP));
    }
    for s in each(obj, "subjects") {
        if matches!(
            s.get("kind").and_then(Value::as_str),
            Some("User" | "Group")
        ) {
            set(s, "apiGroup", json!(RBAC_GROUP));
        }
    }
}

/// PriorityClass: lower-priority pods may be preempted.
pub(crate) fn priority_class_defaults(obj: &mut Value) {
    if obj.is_object() {
        entry(obj, "preemptionPolicy", json!("PreemptLowerPriority"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies() {
        let mut np = json!({"spec": {"podSelector": {}, "ingress": [{"ports": [{"port": 80}]}]}});
        network_policy_defaults(&mut np);
        assert_eq!(np["spec"]["policyTypes"], json!(["Ingress"]));
        assert_eq!(np["spec"]["ingress"][0]["ports"][0]["protocol"], "TCP");
        let mut np = json!({"spec": {"egress": [{"ports": [{"protocol": "UDP"}]}]}});
        network_policy_defaults(&mut np);
        assert_eq!(np["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
        assert_eq!(np["spec"]["egress"][0]["ports"][0]["protocol"], "UDP");
        let mut ic = json!({"spec": {"controller": "c", "parameters": {"kind": "K", "name": "n"}}});
        ingress_class_defaults(&mut ic);
        assert_eq!(ic["spec"]["parameters"]["scope"], "Cluster");
        let mut rb = json!({"roleRef": {"kind": "Role", "name": "r"}, "subjects": [
            {"kind": "User", "name": "u"}, {"kind": "ServiceAccount", "name": "s", "namespace": "n"},
            {"kind": "Group", "name": "g", "apiGroup": "x"}, {"kind": "Other", "name": "o"}]});
        binding_defaults(&mut rb);
        assert_eq!(rb["roleRef"]["apiGroup"], RBAC_GROUP);
        assert_eq!(rb["subjects"][0]["apiGroup"], RBAC_GROUP);
        assert!(rb["subjects"][1].get("apiGroup").is_none());
        assert_eq!(rb["subjects"][2]["apiGroup"], "x");
        assert!(rb["subjects"][3].get("apiGroup").is_none());
        let mut pc = json!({"value": 5});
        priority_class_defaults(&mut pc);
        assert_eq!(pc["preemptionPolicy"], "PreemptLowerPriority");
        for mut bad in [
            json!(null),
            json!({"spec": 1, "roleRef": 2, "subjects": [3]}),
        ] {
            network_policy_defaults(&mut bad);
            ingress_class_defaults(&mut bad);
            binding_defaults(&mut bad);
            priority_class_defaults(&mut bad);
        }
    }
}
