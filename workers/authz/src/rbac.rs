//! An RBAC evaluator over Role, ClusterRole, RoleBinding and ClusterRoleBinding objects
//! (as JSON): who may do what, with upstream's rule matching (wildcards, `*/subresource`,
//! resource names, non-resource URL prefixes), ClusterRole aggregation by label, and
//! upstream's "allowed by" reasons.

use std::collections::HashMap;
use std::sync::Arc;

use kas_proto::UserInfo;
use serde_json::{json, Value};

use crate::{str_at, Attributes, Decision};

/// The RBAC objects of the cluster, indexed for decisions: every role's rules resolved
/// once (ClusterRole aggregation included), bindings grouped by namespace. A decision
/// looks only at the cluster bindings and those of the request's namespace.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// ClusterRole name → its rules, aggregated ones included.
    cluster_rules: HashMap<String, Arc<Vec<Value>>>,
    /// (namespace, Role name) → its rules.
    role_rules: HashMap<(String, String), Arc<Vec<Value>>>,
    cluster_role_bindings: Vec<Value>,
    /// Namespace → its RoleBindings.
    role_bindings: HashMap<String, Vec<Value>>,
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

/// A ClusterRole's rules: its own plus, with an aggregationRule, those of every
/// ClusterRole its selectors match (transitively, each role once).
fn aggregated_rules(all: &[Value], role: &Value, seen: &mut Vec<String>) -> Vec<Value> {
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
        for other in all {
            let empty = serde_json::Map::new();
            let labels = other
                .pointer("/metadata/labels")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            if selector_matches(selector, labels) {
                rules.extend(aggregated_rules(all, other, seen));
            }
        }
    }
    rules
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
    pub fn new(
        roles: Vec<Value>,
        cluster_roles: Vec<Value>,
        role_bindings: Vec<Value>,
        cluster_role_bindings: Vec<Value>,
    ) -> Policy {
        let cluster_rules = cluster_roles
            .iter()
            .map(|r| {
                let rules = aggregated_rules(&cluster_roles, r, &mut Vec::new());
                (str_at(r, "/metadata/name").to_owned(), Arc::new(rules))
            })
            .collect();
        let role_rules = roles
            .iter()
            .map(|r| {
                let key = (
                    str_at(r, "/metadata/namespace").to_owned(),
                    str_at(r, "/metadata/name").to_owned(),
                );
                let rules = r.get("rules").and_then(Value::as_array).cloned();
                (key, Arc::new(rules.unwrap_or_default()))
            })
            .collect();
        let mut by_namespace: HashMap<String, Vec<Value>> = HashMap::new();
        for b in role_bindings {
            let ns = str_at(&b, "/metadata/namespace").to_owned();
            if !ns.is_empty() {
                by_namespace.entry(ns).or_default().push(b);
            }
        }
        Policy {
            cluster_rules,
            role_rules,
            cluster_role_bindings,
            role_bindings: by_namespace,
        }
    }

    /// The rules a binding's roleRef grants (none when the role does not exist).
    fn binding_rules(&self, binding: &Value, binding_ns: &str) -> &[Value] {
        let name = str_at(binding, "/roleRef/name");
        let rules = match str_at(binding, "/roleRef/kind") {
            "ClusterRole" => self.cluster_rules.get(name),
            "Role" if !binding_ns.is_empty() => self
                .role_rules
                .get(&(binding_ns.to_owned(), name.to_owned())),
            _ => None,
        };
        rules.map(|r| r.as_slice()).unwrap_or(&[])
    }

    /// The bindings that apply in `namespace` (cluster bindings first), with the
    /// namespace of each (empty for cluster bindings).
    fn bindings<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = (&'a Value, &'a str)> {
        let cluster = self.cluster_role_bindings.iter().map(|b| (b, ""));
        let local = self
            .role_bindings
            .get(namespace)
            .into_iter()
            .flatten()
            .map(move |b| (b, namespace));
        cluster.chain(local)
    }

    /// Decides `a` for `user`: allowed, with upstream's reason, or no opinion.
    pub fn authorize(&self, user: &UserInfo, a: &Attributes) -> (Decision, String) {
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
    pub fn rules_for(&self, user: &UserInfo, namespace: &str) -> (Vec<Value>, Vec<Value>) {
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
                let verbs = strs(rule, "verbs");
                let urls = strs(rule, "nonResourceURLs");
                if !urls.is_empty() {
                    non_resource.push(json!({"verbs": verbs, "nonResourceURLs": urls}));
                }
                let resources = strs(rule, "resources");
                if !resources.is_empty() {
                    let mut r = json!({
                        "verbs": verbs,
                        "apiGroups": strs(rule, "apiGroups"),
                        "resources": resources,
                    });
                    let names = strs(rule, "resourceNames");
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

    fn sa(ns: &str, name: &str) -> UserInfo {
        UserInfo {
            name: format!("system:serviceaccount:{ns}:{name}"),
            groups: vec![
                "system:serviceaccounts".into(),
                "system:authenticated".into(),
            ],
            ..Default::default()
        }
    }

    fn list_pods(ns: &str) -> Attributes {
        Attributes {
            verb: "list".into(),
            resource_request: true,
            namespace: ns.into(),
            resource: "pods".into(),
            ..Default::default()
        }
    }

    /// Many namespaces' bindings: only the request's namespace's count, a Role binding
    /// reaches only its own namespace's Role, and a binding to a missing role grants
    /// nothing.
    #[test]
    fn bindings_are_looked_up_by_namespace() {
        let reader = json!({"metadata": {"name": "reader"},
            "rules": [{"verbs": ["list"], "apiGroups": [""], "resources": ["pods"]}]});
        let local = |ns: &str| {
            json!({"metadata": {"name": "local", "namespace": ns},
            "rules": [{"verbs": ["list"], "apiGroups": [""], "resources": ["pods"]}]})
        };
        let binding = |ns: &str, kind: &str, role: &str, who: &str| {
            json!({
            "metadata": {"name": format!("b-{who}"), "namespace": ns},
            "roleRef": {"kind": kind, "name": role},
            "subjects": [{"kind": "ServiceAccount", "name": who}]})
        };
        let mut bindings: Vec<Value> = (0..1000)
            .map(|i| binding(&format!("ns-{i}"), "ClusterRole", "reader", "bot"))
            .collect();
        bindings.push(binding("ns-0", "Role", "local", "other"));
        bindings.push(binding("ns-1", "Role", "missing", "ghost"));
        let p = Policy::new(vec![local("ns-0")], vec![reader], bindings, Vec::new());

        let (d, why) = p.authorize(&sa("ns-7", "bot"), &list_pods("ns-7"));
        assert_eq!(d, Decision::Allow);
        assert_eq!(
            why,
            "RBAC: allowed by RoleBinding \"b-bot/ns-7\" of ClusterRole \"reader\" to ServiceAccount \"bot/ns-7\""
        );
        assert_eq!(
            p.authorize(&sa("ns-7", "bot"), &list_pods("elsewhere")).0,
            Decision::NoOpinion
        );
        assert_eq!(
            p.authorize(&sa("ns-0", "other"), &list_pods("ns-0")).0,
            Decision::Allow
        );
        assert_eq!(
            p.authorize(&sa("ns-1", "ghost"), &list_pods("ns-1")).0,
            Decision::NoOpinion
        );
    }
}
