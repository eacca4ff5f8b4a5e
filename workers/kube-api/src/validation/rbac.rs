//! RBAC objects as kube-apiserver 1.33 validates them: every rule names verbs, resource
//! rules name API groups and resources, non-resource URLs only in ClusterRoles and never
//! beside resources; an aggregation rule has selectors; a binding refers to a Role or
//! ClusterRole of rbac.authorization.k8s.io by a valid name, its subjects are Users,
//! Groups (that group) or ServiceAccounts (the core group, a DNS subdomain name, a
//! namespace in a ClusterRoleBinding); and a binding's roleRef never changes.

use kas_server::rest::path_segment_msgs;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, each_invalid, go_strings, invalid_shown, not_supported, required, s,
};
use super::selector::selector_rules;

const GROUP: &str = "rbac.authorization.k8s.io";

fn rules(o: &Value, namespaced: bool) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    for (i, rule) in arr(o, "rules").iter().enumerate() {
        let at = |f: &str| format!("rules[{i}].{f}");
        if arr(rule, "verbs").is_empty() {
            causes.push(required(
                &at("verbs"),
                "verbs must contain at least one value",
            ));
        }
        let urls = arr(rule, "nonResourceURLs");
        if !urls.is_empty() {
            let shown = go_strings(urls);
            if namespaced {
                causes.push(invalid_shown(
                    &at("nonResourceURLs"),
                    &shown,
                    "namespaced rules cannot apply to non-resource URLs",
                ));
            }
            let mixed = ["apiGroups", "resources", "resourceNames"]
                .iter()
                .any(|k| !arr(rule, k).is_empty());
            if mixed {
                causes.push(invalid_shown(
                    &at("nonResourceURLs"),
                    &shown,
                    "rules cannot apply to both regular resources and non-resource URLs",
                ));
            }
            continue;
        }
        if arr(rule, "apiGroups").is_empty() {
            causes.push(required(
                &at("apiGroups"),
                "resource rules must supply at least one api group",
            ));
        }
        if arr(rule, "resources").is_empty() {
            causes.push(required(
                &at("resources"),
                "resource rules must supply at least one resource",
            ));
        }
    }
    causes
}

/// A Role.
pub(crate) fn role(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    rules(o, true)
}

/// A ClusterRole.
pub(crate) fn cluster_role(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = rules(o, false);
    if let Some(rule) = o.get("aggregationRule").filter(|r| r.is_object()) {
        let selectors = arr(rule, "clusterRoleSelectors");
        if selectors.is_empty() {
            causes.push(required(
                "aggregationRule.clusterRoleSelectors",
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, sel) in selectors.iter().enumerate() {
            selector_rules(
                sel,
                &format!("aggregationRule.clusterRoleSelectors[{i}]"),
                &mut causes,
            );
        }
    }
    causes
}

fn binding(o: &Value, old: Option<&Value>, cluster: bool) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let role_ref = o.get("roleRef").cloned().unwrap_or(Value::Null);
    let group = s(&role_ref, "apiGroup").unwrap_or("");
    if group != GROUP {
        causes.push(not_supported("roleRef.apiGroup", group, &[GROUP]));
    }
    let kind = s(&role_ref, "kind").unwrap_or("");
    let kinds: &[&str] = if cluster {
        &["ClusterRole"]
    } else {
        &["Role", "ClusterRole"]
    };
    if !kinds.contains(&kind) {
        causes.push(not_supported("roleRef.kind", kind, kinds));
    }
    let name = s(&role_ref, "name").unwrap_or("");
    if name.is_empty() {
        causes.push(required("roleRef.name", ""));
    } else {
        causes.extend(each_invalid("roleRef.name", name, path_segment_msgs(name)));
    }
    for (i, subject) in arr(o, "subjects").iter().enumerate() {
        let at = |f: &str| format!("subjects[{i}].{f}");
        let name = s(subject, "name").unwrap_or("");
        if name.is_empty() {
            causes.push(required(&at("name"), ""));
        }
        let group = s(subject, "apiGroup").unwrap_or("");
        match s(subject, "kind").unwrap_or("") {
            "ServiceAccount" => {
                if !name.is_empty() {
                    causes.extend(each_invalid(&at("name"), name, dns_subdomain_msgs(name)));
                }
                if !group.is_empty() {
                    causes.push(not_supported(&at("apiGroup"), group, &[""]));
                }
                if cluster && s(subject, "namespace").unwrap_or("").is_empty() {
                    causes.push(required(&at("namespace"), ""));
                }
            }
            "User" | "Group" => {
                if group != GROUP {
                    causes.push(not_supported(&at("apiGroup"), group, &[GROUP]));
                }
            }
            other => causes.push(not_supported(
                &at("kind"),
                other,
                &["ServiceAccount", "User", "Group"],
            )),
        }
    }
    if let Some(old) = old {
        if old.get("roleRef") != o.get("roleRef") {
            let shown = format!(
                "rbac.RoleRef{{APIGroup:{}, Kind:{}, Name:{}}}",
                super::causes::quote(group),
                super::causes::quote(kind),
                super::causes::quote(name)
            );
            causes.push(invalid_shown("roleRef", &shown, "cannot change roleRef"));
        }
    }
    causes
}

/// A RoleBinding.
pub(crate) fn role_binding(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    binding(o, old, false)
}

/// A ClusterRoleBinding.
pub(crate) fn cluster_role_binding(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    binding(o, old, true)
}

#[cfg(test)]
mod tests {
    use super::super::causes::messages;
    use super::*;
    use serde_json::json;

    #[test]
    fn rules_need_verbs_groups_and_resources() {
        let role = json!({"rules": [{"resources": ["pods"]}, {"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]});
        assert_eq!(
            messages(&super::role(&role, None)),
            [
                "rules[0].verbs: Required value: verbs must contain at least one value",
                "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
                "rules[1].nonResourceURLs: Invalid value: []string{\"/healthz\"}: namespaced rules cannot apply to non-resource URLs"
            ]
        );
        assert!(cluster_role(
            &json!({"rules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]}),
            None
        )
        .is_empty());
    }

    #[test]
    fn bindings_refer_and_name_subjects_and_keep_their_role() {
        let b = json!({"roleRef": {"apiGroup": GROUP, "kind": "Role", "name": "r"},
            "subjects": [{"kind": "ServiceAccount", "name": "sa"}, {"kind": "Robot", "name": "x"}]});
        assert_eq!(
            messages(&cluster_role_binding(&b, None)),
            [
                "roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\"",
                "subjects[0].namespace: Required value",
                "subjects[1].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\""
            ]
        );
        let old = json!({"roleRef": {"apiGroup": GROUP, "kind": "ClusterRole", "name": "view"}});
        let new = json!({"roleRef": {"apiGroup": GROUP, "kind": "ClusterRole", "name": "edit"}});
        assert_eq!(
            messages(&role_binding(&new, Some(&old))),
            ["roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef"]
        );
    }
}
