//! An RBAC evaluator over Role, ClusterRole, RoleBinding and ClusterRoleBinding objects
//! (as JSON): who may do what, with upstream's rule matching (wildcards, `*/subresource`,
//! resource names, non-resource URL prefixes) and upstream's "allowed by" reasons. The objects are compiled once per change into typed
//! bindings that share their roles' rules, so a decision allocates nothing and looks at
//! the cluster bindings and its namespace's only.

use std::collections::HashMap;
use std::sync::Arc;

use kas_proto::UserInfo;
use serde_json::{json, Value};

use crate::{str_at, Attributes, Decision};

/// The RBAC objects of the cluster, compiled for decisions.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    cluster_bindings: Vec<Binding>,
    /// Namespace → its RoleBindings.
    role_bindings: HashMap<String, Vec<Binding>>,
}

/// One PolicyRule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) verbs: Vec<String>,
    pub(crate) api_groups: Vec<String>,
    pub(crate) resources: Vec<String>,
    pub(crate) resource_names: Vec<String>,
    pub(crate) urls: Vec<String>,
}

/// Who a binding names.
#[derive(Debug, Clone)]
enum Subject {
    User(String),
    Group(String),
    /// `system:serviceaccount:<namespace>:<name>`, with the parts for the reason.
    ServiceAccount {
        user: String,
        namespace: String,
        name: String,
    },
    Other,
}

/// A RoleBinding or ClusterRoleBinding with its role's rules.
#[derive(Debug, Clone)]
struct Binding {
    name: String,
    /// Empty for a ClusterRoleBinding.
    namespace: String,
    role_kind: String,
    role_name: String,
    subjects: Vec<Subject>,
    rules: Arc<Vec<Rule>>,
}

fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl Rule {
    pub(crate) fn new(v: &Value) -> Rule {
        Rule {
            verbs: strings(v, "verbs"),
            api_groups: strings(v, "apiGroups"),
            resources: strings(v, "resources"),
            resource_names: strings(v, "resourceNames"),
            urls: strings(v, "nonResourceURLs"),
        }
    }

    /// Whether this rule allows `a`.
    pub(crate) fn allows(&self, a: &Attributes) -> bool {
        if !self.verbs.iter().any(|v| v == "*" || *v == a.verb) {
            return false;
        }
        if !a.resource_request {
            return self.urls.iter().any(|u| {
                u == "*"
                    || *u == a.path
                    || u.strip_suffix('*').is_some_and(|p| a.path.starts_with(p))
            });
        }
        if !self.api_groups.iter().any(|g| g == "*" || *g == a.group) {
            return false;
        }
        let resource_ok = self.resources.iter().any(|r| {
            if r == "*" {
                return true;
            }
            if a.subresource.is_empty() {
                return *r == a.resource;
            }
            if r.strip_prefix("*/") == Some(a.subresource.as_str()) {
                return true;
            }
            r.split_once('/')
                .is_some_and(|(res, sub)| res == a.resource && sub == a.subresource)
        });
        resource_ok && (self.resource_names.is_empty() || self.resource_names.contains(&a.name))
    }
}

impl Subject {
    fn new(v: &Value, binding_ns: &str) -> Subject {
        let name = str_at(v, "/name").to_owned();
        match str_at(v, "/kind") {
            "User" => Subject::User(name),
            "Group" => Subject::Group(name),
            "ServiceAccount" => {
                let namespace = match str_at(v, "/namespace") {
                    "" => binding_ns.to_owned(),
                    ns => ns.to_owned(),
                };
                if namespace.is_empty() {
                    return Subject::Other;
                }
                Subject::ServiceAccount {
                    user: format!("system:serviceaccount:{namespace}:{name}"),
                    namespace,
                    name,
                }
            }
            _ => Subject::Other,
        }
    }

    fn matches(&self, user: &UserInfo) -> bool {
        match self {
            Subject::User(name) => user.name == *name,
            Subject::Group(name) => user.groups.iter().any(|g| g == name),
            Subject::ServiceAccount { user: sa, .. } => user.name == *sa,
            Subject::Other => false,
        }
    }

    /// How upstream's reasons name the subject.
    fn describe(&self) -> String {
        match self {
            Subject::User(n) => format!("User {n:?}"),
            Subject::Group(n) => format!("Group {n:?}"),
            Subject::ServiceAccount {
                namespace, name, ..
            } => format!("ServiceAccount \"{name}/{namespace}\""),
            Subject::Other => String::new(),
        }
    }
}

impl Binding {
    fn new(v: &Value, namespace: &str, rules: Arc<Vec<Rule>>) -> Binding {
        let subjects = v
            .get("subjects")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(|s| Subject::new(s, namespace)).collect())
            .unwrap_or_default();
        Binding {
            name: str_at(v, "/metadata/name").to_owned(),
            namespace: namespace.to_owned(),
            role_kind: str_at(v, "/roleRef/kind").to_owned(),
            role_name: str_at(v, "/roleRef/name").to_owned(),
            subjects,
            rules,
        }
    }

    /// The first subject that is `user`.
    fn subject_for(&self, user: &UserInfo) -> Option<&Subject> {
        self.subjects.iter().find(|s| s.matches(user))
    }

    /// Upstream's reason for an allowed request.
    fn reason(&self, subject: &Subject) -> String {
        let (name, kind, role, who) = (
            &self.name,
            &self.role_kind,
            &self.role_name,
            subject.describe(),
        );
        if self.namespace.is_empty() {
            format!("RBAC: allowed by ClusterRoleBinding {name:?} of {kind} {role:?} to {who}")
        } else {
            let ns = &self.namespace;
            format!("RBAC: allowed by RoleBinding \"{name}/{ns}\" of {kind} {role:?} to {who}")
        }
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
        let compile = |rules: &[Value]| Arc::new(rules.iter().map(Rule::new).collect::<Vec<_>>());
        // An aggregated ClusterRole grants the rules stored in it, which the aggregation
        // controller keeps up to date, as upstream.
        let cluster_rules: HashMap<&str, Arc<Vec<Rule>>> = cluster_roles
            .iter()
            .map(|r| {
                let rules = r.get("rules").and_then(Value::as_array);
                let rules = compile(rules.map(Vec::as_slice).unwrap_or(&[]));
                (str_at(r, "/metadata/name"), rules)
            })
            .collect();
        let role_rules: HashMap<(&str, &str), Arc<Vec<Rule>>> = roles
            .iter()
            .map(|r| {
                let key = (
                    str_at(r, "/metadata/namespace"),
                    str_at(r, "/metadata/name"),
                );
                let rules = r.get("rules").and_then(Value::as_array);
                (key, compile(rules.map(Vec::as_slice).unwrap_or(&[])))
            })
            .collect();
        let rules_of = |b: &Value, ns: &str| {
            let name = str_at(b, "/roleRef/name");
            let rules = match str_at(b, "/roleRef/kind") {
                "ClusterRole" => cluster_rules.get(name),
                "Role" if !ns.is_empty() => role_rules.get(&(ns, name)),
                _ => None,
            };
            rules.cloned().unwrap_or_default()
        };
        let cluster_bindings = cluster_role_bindings
            .iter()
            .map(|b| Binding::new(b, "", rules_of(b, "")))
            .collect();
        let mut by_namespace: HashMap<String, Vec<Binding>> = HashMap::new();
        for b in &role_bindings {
            let ns = str_at(b, "/metadata/namespace");
            if !ns.is_empty() {
                let binding = Binding::new(b, ns, rules_of(b, ns));
                by_namespace.entry(ns.to_owned()).or_default().push(binding);
            }
        }
        Policy {
            cluster_bindings,
            role_bindings: by_namespace,
        }
    }

    /// The bindings that apply in `namespace`, cluster bindings first.
    fn bindings<'a>(&'a self, namespace: &str) -> impl Iterator<Item = &'a Binding> + Clone {
        let local = self.role_bindings.get(namespace).into_iter().flatten();
        self.cluster_bindings.iter().chain(local)
    }

    /// Decides `a` for `user`: allowed, with upstream's reason, or no opinion.
    pub fn authorize(&self, user: &UserInfo, a: &Attributes) -> (Decision, String) {
        for binding in self.bindings(&a.namespace) {
            let Some(subject) = binding.subject_for(user) else {
                continue;
            };
            if binding.rules.iter().any(|r| r.allows(a)) {
                return (Decision::Allow, binding.reason(subject));
            }
        }
        (Decision::NoOpinion, String::new())
    }

    /// The rules granted to `user` in `namespace` (cluster bindings' first).
    pub(crate) fn rules_of<'a>(
        &'a self,
        user: &'a UserInfo,
        namespace: &str,
    ) -> impl Iterator<Item = &'a Rule> + Clone + 'a {
        self.bindings(namespace)
            .filter(move |b| b.subject_for(user).is_some())
            .flat_map(|b| b.rules.iter())
    }

    /// Every rule granted to `user` in `namespace` (SelfSubjectRulesReview): resource
    /// rules and non-resource rules, as `authorization.k8s.io/v1` writes them.
    pub fn rules_for(&self, user: &UserInfo, namespace: &str) -> (Vec<Value>, Vec<Value>) {
        let mut resource = Vec::new();
        let mut non_resource = Vec::new();
        for binding in self.bindings(namespace) {
            if binding.subject_for(user).is_none() {
                continue;
            }
            for rule in binding.rules.iter() {
                if !rule.urls.is_empty() {
                    non_resource.push(json!({"verbs": rule.verbs, "nonResourceURLs": rule.urls}));
                }
                if !rule.resources.is_empty() {
                    let mut r = json!({
                        "verbs": rule.verbs,
                        "apiGroups": rule.api_groups,
                        "resources": rule.resources,
                    });
                    if !rule.resource_names.is_empty() {
                        r["resourceNames"] = json!(rule.resource_names);
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
