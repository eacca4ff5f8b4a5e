//! Which FlowSchema a request matches, and its flow: upstream's matching rules (a rule
//! matches when one of its subjects is the user and, for a resource request, one of its
//! resource rules, else one of its non-resource rules, covers the request), and the
//! flow's hash that picks the request's queues.

use kas_proto::{RequestInfo, UserInfo};

use super::config::{FlowSchema, NonResourceRule, ResourceRule, Subject};

/// Whether `schema` matches the request.
pub(crate) fn matches(schema: &FlowSchema, user: &UserInfo, info: &RequestInfo) -> bool {
    schema.spec.rules.iter().any(|rule| {
        rule.subjects.iter().any(|s| subject_matches(s, user))
            && if info.is_resource_request {
                rule.resource_rules
                    .iter()
                    .any(|r| resource_matches(r, info))
            } else {
                rule.non_resource_rules
                    .iter()
                    .any(|r| non_resource_matches(r, info))
            }
    })
}

fn subject_matches(subject: &Subject, user: &UserInfo) -> bool {
    match subject.kind.as_str() {
        "User" => subject
            .user
            .as_ref()
            .is_some_and(|u| u.name == "*" || u.name == user.name),
        "Group" => subject
            .group
            .as_ref()
            .is_some_and(|g| g.name == "*" || user.groups.contains(&g.name)),
        "ServiceAccount" => subject.service_account.as_ref().is_some_and(|sa| {
            let Some(rest) = user
                .name
                .strip_prefix("system:serviceaccount:")
                .and_then(|r| r.strip_prefix(sa.namespace.as_str()))
                .and_then(|r| r.strip_prefix(':'))
            else {
                return false;
            };
            sa.name == "*" || rest == sa.name
        }),
        _ => false,
    }
}

/// `x` is in `list`, or `list` is the wildcard alone.
fn listed(x: &str, list: &[String], wildcard: &str) -> bool {
    (list.len() == 1 && list[0] == wildcard) || list.iter().any(|y| y == x)
}

fn resource_matches(rule: &ResourceRule, info: &RequestInfo) -> bool {
    if !listed(&info.verb, &rule.verbs, "*") || !listed(&info.api_group, &rule.api_groups, "*") {
        return false;
    }
    let resource_ok = if info.subresource.is_empty() {
        listed(&info.resource, &rule.resources, "*")
    } else {
        listed(
            &format!("{}/{}", info.resource, info.subresource),
            &rule.resources,
            "*",
        )
    };
    if !resource_ok {
        return false;
    }
    if info.namespace.is_empty() {
        rule.cluster_scope
    } else {
        listed(&info.namespace, &rule.namespaces, "*")
    }
}

fn non_resource_matches(rule: &NonResourceRule, info: &RequestInfo) -> bool {
    if !listed(&info.verb, &rule.verbs, "*") {
        return false;
    }
    rule.non_resource_urls.iter().any(|url| {
        if url == "*" || *url == info.path {
            return true;
        }
        // `/apis/*` and `/apis` both cover everything under `/apis/`.
        let prefix = url.strip_suffix('*').unwrap_or(url);
        if prefix.ends_with('/') {
            info.path.starts_with(prefix)
        } else {
            info.path
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('/'))
        }
    })
}

/// The flow's distinguisher under the schema's method: the user's name, the request's
/// namespace, or nothing.
pub(crate) fn distinguisher<'a>(
    schema: &FlowSchema,
    user: &'a UserInfo,
    info: &'a RequestInfo,
) -> &'a str {
    match schema
        .spec
        .distinguisher_method
        .as_ref()
        .map(|d| d.kind.as_str())
    {
        Some("ByUser") => &user.name,
        Some("ByNamespace") => &info.namespace,
        _ => "",
    }
}

/// The flow's hash: the first 8 bytes (little-endian) of SHA-256 over the schema's name,
/// a zero byte and the distinguisher, as upstream hashes flows.
pub(crate) fn flow_hash(schema: &str, distinguisher: &str) -> u64 {
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    ctx.update(schema.as_bytes());
    ctx.update(&[0]);
    ctx.update(distinguisher.as_bytes());
    let digest = ctx.finish();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest.as_ref()[..8]);
    u64::from_le_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Method;
    use kas_server::request_info;
    use serde_json::json;

    fn schema(rules: serde_json::Value) -> FlowSchema {
        serde_json::from_value(json!({"metadata": {"name": "s"},
            "spec": {"priorityLevelConfiguration": {"name": "p"}, "rules": rules}}))
        .unwrap()
    }

    fn user(name: &str, groups: &[&str]) -> UserInfo {
        UserInfo {
            name: name.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            ..Default::default()
        }
    }

    fn get(path: &str) -> RequestInfo {
        request_info::parse(&Method::GET, path, None)
    }

    #[test]
    fn subjects() {
        let s = schema(json!([{"subjects": [
            {"kind": "ServiceAccount", "serviceAccount": {"namespace": "kube-system", "name": "*"}},
            {"kind": "User", "user": {"name": "alice"}},
        ], "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]));
        let info = get("/healthz");
        assert!(matches(&s, &user("alice", &[]), &info));
        assert!(matches(
            &s,
            &user("system:serviceaccount:kube-system:x", &[]),
            &info
        ));
        assert!(!matches(
            &s,
            &user("system:serviceaccount:kube-systemx:x", &[]),
            &info
        ));
        assert!(!matches(&s, &user("bob", &["alice"]), &info));
        let g = schema(
            json!([{"subjects": [{"kind": "Group", "group": {"name": "devs"}}],
            "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz"]}]}]),
        );
        assert!(matches(&g, &user("bob", &["devs"]), &info));
        assert!(!matches(&g, &user("bob", &["ops"]), &info));
    }

    #[test]
    fn resources_namespaces_and_urls() {
        let s = schema(
            json!([{"subjects": [{"kind": "Group", "group": {"name": "*"}}],
            "resourceRules": [{"verbs": ["get", "list"], "apiGroups": [""],
                "resources": ["pods", "pods/log"], "namespaces": ["default"]}],
            "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/apis/*", "/version"]}]}]),
        );
        let u = user("x", &[]);
        assert!(matches(&s, &u, &get("/api/v1/namespaces/default/pods")));
        assert!(matches(
            &s,
            &u,
            &get("/api/v1/namespaces/default/pods/p/log")
        ));
        assert!(!matches(&s, &u, &get("/api/v1/namespaces/other/pods")));
        // Cluster scope is not covered without clusterScope.
        assert!(!matches(&s, &u, &get("/api/v1/pods")));
        assert!(!matches(
            &s,
            &u,
            &get("/api/v1/namespaces/default/pods/p/exec")
        ));
        assert!(!matches(
            &s,
            &u,
            &get("/apis/apps/v1/namespaces/default/pods")
        ));
        assert!(matches(&s, &u, &get("/apis/foo")));
        assert!(matches(&s, &u, &get("/version")));
        assert!(!matches(&s, &u, &get("/versionx")));
        assert!(!matches(&s, &u, &get("/apis")));
    }

    #[test]
    fn hashes_as_upstream() {
        // Distinct flows hash apart, and the hash is stable.
        assert_eq!(flow_hash("a", "b"), flow_hash("a", "b"));
        assert_ne!(flow_hash("a", "b"), flow_hash("ab", ""));
    }
}
