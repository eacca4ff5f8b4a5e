//! An RBAC evaluator over Role, ClusterRole, RoleBinding and ClusterRoleBinding objects
//! (as JSON): who may do what, with upstream's rule matching (wildcards, `*/subresource`,
//! resource names, non-resource URL prefixes), ClusterRole aggregation by label, and
//! upstream's "allowed by" reasons.

use kas_proto::UserInfo;
use serde_json::{json, Value};

use super::access::{Attributes, Decision};
use super::str_at;

/// The RBAC objects of the cluster, as stored.
#[derive(Debug, Clone, Default)]
pub(crate) struct Policy {
    roles: Vec<Value>,
    cluster_roles: Vec<Value>,
    role_bindings: Vec<Value>,
    cluster_role_bindings: Vec<Value>,
}

fn strs<'a>(v: &'a Value, key: &str) -> Vec<&'a str> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether one PolicyRule allows `a`.
fn rule_allows(rule: &Value, a: &Attributes) -> bool {
    let verbs = strs(rule, "verbs");
    if !verbs.iter().any(|v| *v == "*" || *v == a.verb) {
        return false;
    }
    if !a.resource_request {
        return strs(rule, "nonResourceURLs").iter().any(|u| {
            *u == "*" || *u == a.path || u.strip_suffix('*').is_some_and(|p| a.path.starts_with(p))
        });
    }
    if !strs(rule, "apiGroups")
        .iter()
        .any(|g| *g == "*" || *g == a.group)
    {
        return false;
    }
    let combined = if a.subresource.is_empty() {
        a.resource.clone()
    } else {
        format!("{}/{}", a.resource, a.subresource)
    };
    let resource_ok = strs(rule, "resources").iter().any(|r| {
        *r == "*"
            || *r == combined
            || (!a.subresource.is_empty() && r.strip_prefix("*/") == Some(a.subresource.as_str()))
    });
    if !resource_ok {
        return false;
    }
    let names = strs(rule, "resourceNames");
    names.is_empty() || names.contains(&a.name.as_str())
}

/// Whether every `matchLabels` entry of a label selector holds for `labels` (and every
/// `matchExpressions` entry, for the operators In, NotIn, Exists, DoesNotExist).
fn selector_matches(selector: &Value, labels: &serde_json::Map<String, Value>) -> bool {
    let labels_ok = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .is_none_or(|m| m.iter().all(|(k, v)| labels.get(k) == Some(v)));
    let exprs_ok = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .is_none_or(|exprs| {
            exprs.iter().all(|e| {
                let key = str_at(e, "/key");
                let values = strs(e, "values");
                let have = labels.get(key).and_then(Value::as_str);
                match str_at(e, "/operator") {
                    "In" => have.is_some_and(|h| values.contains(&h)),
                    "NotIn" => !have.is_some_and(|h| values.contains(&h)),
                    "Exists" => have.is_some(),
                    "DoesNotExist" => have.is_none(),
                    _ => false,
                }
            })
        });
    labels_ok && exprs_ok
}

/// How a binding names its subject, as upstream's reasons describe it.
fn describe_subject(subject: &Value, binding_ns: &str) -> String {
    let kind = str_at(subject, "/kind");
    let name = str_at(subject, "/name");
    if kind == "ServiceAccount" {
        let ns = match str_at(subject, "/namespace") {
            "" => binding_ns,
            ns => ns,
        };
        format!("ServiceAccount \"{name}/{ns}\"")
    } else {
        format!("{kind} {name:?}")
    }
}

/// Whether `subject` of a binding in `binding_ns` (empty for cluster bindings) is `user`.
fn subject_matches(subject: &Value, binding_ns: &str, user: &UserInfo) -> bool {
    let name = str_at(subject, "/name");
    match str_at(subject, "/kind") {
        "User" => user.name == name,
        "Group" => user.groups.iter().any(|g| g == name),
        "ServiceAccount" => {
            let ns = match str_at(subject, "/namespace") {
                "" => binding_ns,
                ns => ns,
            };
            !ns.is_empty() && user.name == format!("system:serviceaccount:{ns}:{name}")
        }
        _ => false,
    }
}

impl Policy {
    /// A policy over these objects (items of the four lists).
    pub(crate) fn new(
        roles: Vec<Value>,
        cluster_roles: Vec<Value>,
        role_bindings: Vec<Value>,
        cluster_role_bindings: Vec<Value>,
    ) -> Policy {
        Policy {
            roles,
            cluster_roles,
            role_bindings,
            cluster_role_bindings,
        }
    }

    fn cluster_role(&self, name: &str) -> Option<&Value> {
        self.cluster_roles
            .iter()
            .find(|r| str_at(r, "/metadata/name") == name)
    }

    /// A ClusterRole's rules: its own plus, with an aggregationRule, those of every
    /// ClusterRole its selectors match (transitively, each role once).
    fn cluster_role_rules(&self, role: &Value, seen: &mut Vec<String>) -> Vec<Value> {
        let name = str_at(role, "/metadata/name").to_owned();
        if seen.contains(&name) {
            return Vec::new();
        }
        seen.push(name);
        let mut rules: Vec<Value> = role
            .get("rules")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let selectors = role
            .pointer("/aggregationRule/clusterRoleSelectors")
            .and_then(Value::as_array);
        for selector in selectors.into_iter().flatten() {
            for other in &self.cluster_roles {
                let empty = serde_json::Map::new();
                let labels = other
                    .pointer("/metadata/labels")
                    .and_then(Value::as_object)
                    .unwrap_or(&empty);
                if selector_matches(selector, labels) {
                    rules.extend(self.cluster_role_rules(other, seen));
                }
            }
        }
        rules
    }

    /// The rules a binding's roleRef grants (none when the role does not exist).
    fn binding_rules(&self, binding: &Value, binding_ns: &str) -> Vec<Value> {
        let name = str_at(binding, "/roleRef/name");
        match str_at(binding, "/roleRef/kind") {
            "ClusterRole" => self
                .cluster_role(name)
                .map(|r| self.cluster_role_rules(r, &mut Vec::new()))
                .unwrap_or_default(),
            "Role" if !binding_ns.is_empty() => self
                .roles
                .iter()
                .find(|r| {
                    str_at(r, "/metadata/name") == name
                        && str_at(r, "/metadata/namespace") == binding_ns
                })
                .and_then(|r| r.get("rules").and_then(Value::as_array).cloned())
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// The bindings that apply in `namespace` (cluster bindings first), with the
    /// namespace of each (empty for cluster bindings).
    fn bindings<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = (&'a Value, &'a str)> {
        let cluster = self.cluster_role_bindings.iter().map(|b| (b, ""));
        let local = self
            .role_bindings
            .iter()
            .filter(move |b| !namespace.is_empty() && str_at(b, "/metadata/namespace") == namespace)
            .map(move |b| (b, namespace));
        cluster.chain(local)
    }

    /// Decides `a` for `user`: allowed, with upstream's reason, or no opinion.
    pub(crate) fn authorize(&self, user: &UserInfo, a: &Attributes) -> (Decision, String) {
        for (binding, ns) in self.bindings(&a.namespace) {
            let subjects = binding.get("subjects").and_then(Value::as_array);
            let Some(subject) = subjects
                .into_iter()
                .flatten()
                .find(|s| subject_matches(s, ns, user))
            else {
                continue;
            };
            if self
                .binding_rules(binding, ns)
                .iter()
                .any(|r| rule_allows(r, a))
            {
                let name = str_at(binding, "/metadata/name");
                let role_kind = str_at(binding, "/roleRef/kind");
                let role = str_at(binding, "/roleRef/name");
                let who = describe_subject(subject, ns);
                let by = if ns.is_empty() {
                    format!("ClusterRoleBinding {name:?} of {role_kind} {role:?} to {who}")
                } else {
                    format!("RoleBinding \"{name}/{ns}\" of {role_kind} {role:?} to {who}")
                };
                return (Decision::Allow, format!("RBAC: allowed by {by}"));
            }
        }
        (Decision::NoOpinion, String::new())
    }

    /// Every rule granted to `user` in `namespace` (SelfSubjectRulesReview): resource
    /// rules and non-resource rules, as `authorization.k8s.io/v1` writes them.
    pub(crate) fn rules_for(&self, user: &UserInfo, namespace: &str) -> (Vec<Value>, Vec<Value>) {
        let mut resource = Vec::new();
        let mut non_resource = Vec::new();
        for (binding, ns) in self.bindings(namespace) {
            let subjects = binding.get("subjects").and_then(Value::as_array);
            if !subjects
                .into_iter()
                .flatten()
                .any(|s| subject_matches(s, ns, user))
            {
                continue;
            }
            for rule in self.binding_rules(binding, ns) {
                let verbs = strs(&rule, "verbs");
                let urls = strs(&rule, "nonResourceURLs");
                if !urls.is_empty() {
                    non_resource.push(json!({"verbs": verbs, "nonResourceURLs": urls}));
                }
                let resources = strs(&rule, "resources");
                if !resources.is_empty() {
                    let mut r = json!({
                        "verbs": verbs,
                        "apiGroups": strs(&rule, "apiGroups"),
                        "resources": resources,
                    });
                    let names = strs(&rule, "resourceNames");
                    if !names.is_empty() {
                        r["resourceNames"] = json!(names);
                    }
                    resource.push(r);
                }
            }
        }
        (resource, non_resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bootstrap_policy;

    fn user(name: &str, groups: &[&str]) -> UserInfo {
        UserInfo {
            name: name.into(),
            groups: groups.iter().map(|g| (*g).to_owned()).collect(),
            ..Default::default()
        }
    }

    fn res(verb: &str, ns: &str, group: &str, resource: &str, sub: &str, name: &str) -> Attributes {
        Attributes {
            verb: verb.into(),
            namespace: ns.into(),
            group: group.into(),
            resource: resource.into(),
            subresource: sub.into(),
            name: name.into(),
            resource_request: true,
            ..Default::default()
        }
    }

    fn url(verb: &str, path: &str) -> Attributes {
        Attributes {
            verb: verb.into(),
            path: path.into(),
            ..Default::default()
        }
    }

    fn bootstrap() -> Policy {
        Policy::new(
            bootstrap_policy::roles(),
            bootstrap_policy::cluster_roles(),
            bootstrap_policy::role_bindings(),
            bootstrap_policy::cluster_role_bindings(),
        )
    }

    #[test]
    fn bootstrap_policy_decisions() {
        let p = bootstrap();
        let admin = user(
            "kubernetes-admin",
            &["system:masters", "system:authenticated"],
        );
        let (d, reason) = p.authorize(
            &admin,
            &res("delete", "default", "apps", "deployments", "", "x"),
        );
        assert_eq!(d, Decision::Allow);
        assert_eq!(
            reason,
            "RBAC: allowed by ClusterRoleBinding \"cluster-admin\" of ClusterRole \"cluster-admin\" to Group \"system:masters\""
        );
        let bob = user("bob", &["system:authenticated"]);
        assert_eq!(
            p.authorize(&bob, &url("get", "/healthz")).0,
            Decision::Allow
        );
        assert_eq!(
            p.authorize(&bob, &url("get", "/apis/apps/v1")).0,
            Decision::Allow
        );
        assert_eq!(
            p.authorize(&bob, &url("post", "/healthz")).0,
            Decision::NoOpinion
        );
        assert_eq!(
            p.authorize(&bob, &res("list", "default", "", "pods", "", "")),
            (Decision::NoOpinion, String::new())
        );
        assert_eq!(
            p.authorize(
                &bob,
                &res(
                    "create",
                    "",
                    "authorization.k8s.io",
                    "selfsubjectaccessreviews",
                    "",
                    ""
                )
            )
            .0,
            Decision::Allow
        );
        let anon = user("system:anonymous", &["system:unauthenticated"]);
        assert_eq!(
            p.authorize(&anon, &url("get", "/version")).0,
            Decision::Allow
        );
        assert_eq!(
            p.authorize(&anon, &url("get", "/api")).0,
            Decision::NoOpinion
        );
    }

    #[test]
    fn bindings_roles_and_aggregation() {
        let mut p = bootstrap();
        p.role_bindings.push(json!({
            "metadata": {"name": "dev-edit", "namespace": "dev"},
            "roleRef": {"kind": "ClusterRole", "name": "edit"},
            "subjects": [{"kind": "ServiceAccount", "name": "ci"}],
        }));
        p.roles.push(json!({"metadata": {"name": "one", "namespace": "dev"},
            "rules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"]},
                      {"verbs": ["get"], "apiGroups": [""], "resources": ["*/status"]}]}));
        p.role_bindings.push(json!({
            "metadata": {"name": "one", "namespace": "dev"},
            "roleRef": {"kind": "Role", "name": "one"},
            "subjects": [{"kind": "User", "name": "carol"}],
        }));
        let ci = user("system:serviceaccount:dev:ci", &[]);
        // edit aggregates system:aggregate-to-edit and, through it, view's rules.
        let (d, reason) = p.authorize(&ci, &res("create", "dev", "apps", "deployments", "", ""));
        assert_eq!(d, Decision::Allow);
        assert_eq!(
            reason,
            "RBAC: allowed by RoleBinding \"dev-edit/dev\" of ClusterRole \"edit\" to ServiceAccount \"ci/dev\""
        );
        assert_eq!(
            p.authorize(&ci, &res("get", "dev", "", "pods", "log", ""))
                .0,
            Decision::Allow
        );
        assert_eq!(
            p.authorize(&ci, &res("create", "prod", "apps", "deployments", "", ""))
                .0,
            Decision::NoOpinion
        );
        assert_eq!(
            p.authorize(
                &ci,
                &res(
                    "create",
                    "dev",
                    "rbac.authorization.k8s.io",
                    "roles",
                    "",
                    ""
                )
            )
            .0,
            Decision::NoOpinion
        );

        let carol = user("carol", &[]);
        assert_eq!(
            p.authorize(&carol, &res("get", "dev", "", "configmaps", "", "a"))
                .0,
            Decision::Allow
        );
        assert_eq!(
            p.authorize(&carol, &res("get", "dev", "", "configmaps", "", "b"))
                .0,
            Decision::NoOpinion
        );
        assert_eq!(
            p.authorize(&carol, &res("get", "dev", "", "configmaps", "", ""))
                .0,
            Decision::NoOpinion
        );
        assert_eq!(
            p.authorize(&carol, &res("get", "dev", "", "pods", "status", "p"))
                .0,
            Decision::Allow
        );
        let (resource, _) = p.rules_for(&carol, "dev");
        assert_eq!(resource.len(), 2);
        assert_eq!(resource[0]["resourceNames"], json!(["a"]));
    }

    #[test]
    fn odd_objects_never_panic() {
        let p = Policy::new(
            vec![json!(null), json!({"rules": 1})],
            vec![
                json!([]),
                json!({"metadata": {"name": "x", "labels": 3}, "aggregationRule": {"clusterRoleSelectors": [{"matchExpressions": [{"key": "a", "operator": "Bogus"}]}]}}),
            ],
            vec![json!({"subjects": "x"})],
            vec![
                json!({"roleRef": {"kind": "ClusterRole", "name": "x"}, "subjects": [{"kind": "User", "name": "u"}]}),
            ],
        );
        let u = user("u", &[]);
        assert_eq!(
            p.authorize(&u, &res("get", "ns", "", "pods", "", "")).0,
            Decision::NoOpinion
        );
        assert_eq!(p.rules_for(&u, "ns"), (vec![], vec![]));
    }
}
