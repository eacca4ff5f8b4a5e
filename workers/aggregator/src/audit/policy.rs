//! The audit policy's verdict on one request: the first rule that matches decides the
//! level, the stages left out and whether managed fields are logged (upstream's
//! `pkg/audit/policy/checker.go` semantics). The policy sees the authenticated user, not
//! an impersonated one: auditing runs before impersonation.

use kas_proto::{AuditLevel, AuditPolicy, AuditRule, AuditStage, RequestInfo, UserInfo};

/// What the policy decided for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// How much the events record; `None` writes no event.
    pub(crate) level: AuditLevel,
    /// Stages without an event (the policy's and the rule's).
    pub(crate) omit_stages: Vec<AuditStage>,
    /// `metadata.managedFields` left out of logged objects.
    pub(crate) omit_managed_fields: bool,
}

impl Verdict {
    /// Whether an event is written at `stage`.
    pub(crate) fn records(&self, stage: AuditStage) -> bool {
        self.level != AuditLevel::None && !self.omit_stages.contains(&stage)
    }
}

/// Evaluates `policy` for a request by `user`.
pub(crate) fn evaluate(policy: &AuditPolicy, user: &UserInfo, info: &RequestInfo) -> Verdict {
    match policy.rules.iter().find(|r| matches(r, user, info)) {
        Some(rule) => {
            let mut omit_stages = policy.omit_stages.clone();
            for s in &rule.omit_stages {
                if !omit_stages.contains(s) {
                    omit_stages.push(*s);
                }
            }
            Verdict {
                level: rule.level,
                omit_stages,
                omit_managed_fields: rule
                    .omit_managed_fields
                    .unwrap_or(policy.omit_managed_fields),
            }
        }
        None => Verdict {
            level: AuditLevel::None,
            omit_stages: policy.omit_stages.clone(),
            omit_managed_fields: policy.omit_managed_fields,
        },
    }
}

fn matches(rule: &AuditRule, user: &UserInfo, info: &RequestInfo) -> bool {
    if !rule.users.is_empty() && !rule.users.contains(&user.name) {
        return false;
    }
    if !rule.user_groups.is_empty() && !user.groups.iter().any(|g| rule.user_groups.contains(g)) {
        return false;
    }
    if !rule.verbs.is_empty() && !rule.verbs.contains(&info.verb) {
        return false;
    }
    if !rule.namespaces.is_empty() || !rule.resources.is_empty() {
        return matches_resource(rule, info);
    }
    if !rule.non_resource_urls.is_empty() {
        return !info.is_resource_request
            && rule
                .non_resource_urls
                .iter()
                .any(|spec| path_matches(&info.path, spec));
    }
    true
}

/// `*` matches every path, `/prefix*` a prefix, anything else the path exactly.
fn path_matches(path: &str, spec: &str) -> bool {
    if spec == "*" || spec == path {
        return true;
    }
    spec.strip_suffix('*')
        .is_some_and(|prefix| path.starts_with(prefix.trim_end_matches('*')))
}

fn matches_resource(rule: &AuditRule, info: &RequestInfo) -> bool {
    if !info.is_resource_request {
        return false;
    }
    // A cluster-scoped request has the empty namespace, which `""` in the rule names.
    if !rule.namespaces.is_empty() && !rule.namespaces.contains(&info.namespace) {
        return false;
    }
    if rule.resources.is_empty() {
        return true;
    }
    let combined = if info.subresource.is_empty() {
        info.resource.clone()
    } else {
        format!("{}/{}", info.resource, info.subresource)
    };
    rule.resources
        .iter()
        .filter(|gr| gr.group == info.api_group)
        .any(|gr| {
            if gr.resources.is_empty() {
                return true;
            }
            if !gr.resource_names.is_empty() && !gr.resource_names.contains(&info.name) {
                return false;
            }
            gr.resources.iter().any(|res| {
                res == "*"
                    || *res == combined
                    || (!info.subresource.is_empty()
                        && res.strip_prefix("*/") == Some(info.subresource.as_str()))
                    || res.strip_suffix("/*") == Some(info.resource.as_str())
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::Method;
    use kas_proto::AuditGroupResources;

    fn rule(level: AuditLevel) -> AuditRule {
        AuditRule {
            level,
            users: vec![],
            user_groups: vec![],
            verbs: vec![],
            resources: vec![],
            namespaces: vec![],
            non_resource_urls: vec![],
            omit_stages: vec![],
            omit_managed_fields: None,
        }
    }

    fn info(method: Method, path: &str) -> RequestInfo {
        kas_server::request_info::parse(&method, path, None)
    }

    fn user(name: &str, groups: &[&str]) -> UserInfo {
        UserInfo {
            name: name.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            ..Default::default()
        }
    }

    fn level(p: &AuditPolicy, u: &UserInfo, method: Method, path: &str) -> AuditLevel {
        evaluate(p, u, &info(method, path)).level
    }

    #[test]
    fn first_matching_rule_wins() {
        let admin = user("admin", &["system:masters"]);
        let mut secrets = rule(AuditLevel::Metadata);
        secrets.resources = vec![AuditGroupResources {
            group: String::new(),
            resources: vec!["secrets".into(), "configmaps".into()],
            resource_names: vec![],
        }];
        let mut health = rule(AuditLevel::None);
        health.non_resource_urls = vec!["/healthz*".into(), "/version".into()];
        let mut masters = rule(AuditLevel::RequestResponse);
        masters.user_groups = vec!["system:masters".into()];
        let p = AuditPolicy {
            rules: vec![secrets, health, masters, rule(AuditLevel::Request)],
            omit_stages: vec![AuditStage::RequestReceived],
            omit_managed_fields: false,
        };
        let get = Method::GET;
        assert_eq!(
            level(&p, &admin, get.clone(), "/api/v1/namespaces/a/secrets/s"),
            AuditLevel::Metadata
        );
        assert_eq!(
            level(&p, &admin, get.clone(), "/healthz/etcd"),
            AuditLevel::None
        );
        assert_eq!(level(&p, &admin, get.clone(), "/version"), AuditLevel::None);
        assert_eq!(
            level(&p, &admin, get.clone(), "/versions"),
            AuditLevel::RequestResponse
        );
        assert_eq!(
            level(&p, &admin, get.clone(), "/api/v1/pods"),
            AuditLevel::RequestResponse
        );
        let bob = user("bob", &["system:authenticated"]);
        assert_eq!(
            level(&p, &bob, get.clone(), "/api/v1/pods"),
            AuditLevel::Request
        );
        let v = evaluate(&p, &bob, &info(get, "/api/v1/pods"));
        assert!(!v.records(AuditStage::RequestReceived));
        assert!(v.records(AuditStage::ResponseComplete));
    }

    #[test]
    fn no_rule_is_level_none() {
        let mut only_bob = rule(AuditLevel::Metadata);
        only_bob.users = vec!["bob".into()];
        only_bob.verbs = vec!["delete".into()];
        let p = AuditPolicy {
            rules: vec![only_bob],
            ..Default::default()
        };
        let bob = user("bob", &[]);
        assert_eq!(
            level(&p, &bob, Method::GET, "/api/v1/pods"),
            AuditLevel::None
        );
        assert_eq!(
            level(&p, &bob, Method::DELETE, "/api/v1/namespaces/a/pods/p"),
            AuditLevel::Metadata
        );
        assert_eq!(
            level(
                &p,
                &user("amy", &[]),
                Method::DELETE,
                "/api/v1/namespaces/a/pods/p"
            ),
            AuditLevel::None
        );
        assert!(!evaluate(&p, &bob, &info(Method::GET, "/")).records(AuditStage::ResponseComplete));
    }

    #[test]
    fn resources_subresources_names_and_namespaces() {
        let gr = |resources: &[&str], names: &[&str]| AuditGroupResources {
            group: "apps".into(),
            resources: resources.iter().map(|r| r.to_string()).collect(),
            resource_names: names.iter().map(|r| r.to_string()).collect(),
        };
        let u = user("u", &[]);
        let with = |g: AuditGroupResources| AuditPolicy {
            rules: vec![AuditRule {
                resources: vec![g],
                ..rule(AuditLevel::Metadata)
            }],
            ..Default::default()
        };
        let scale = "/apis/apps/v1/namespaces/a/deployments/web/scale";
        let plain = "/apis/apps/v1/namespaces/a/deployments/web";
        let m = AuditLevel::Metadata;
        let n = AuditLevel::None;
        assert_eq!(
            level(&with(gr(&["deployments"], &[])), &u, Method::GET, plain),
            m
        );
        assert_eq!(
            level(&with(gr(&["deployments"], &[])), &u, Method::GET, scale),
            n
        );
        assert_eq!(
            level(
                &with(gr(&["deployments/scale"], &[])),
                &u,
                Method::GET,
                scale
            ),
            m
        );
        assert_eq!(
            level(&with(gr(&["*/scale"], &[])), &u, Method::GET, scale),
            m
        );
        assert_eq!(
            level(&with(gr(&["*/scale"], &[])), &u, Method::GET, plain),
            n
        );
        assert_eq!(
            level(&with(gr(&["deployments/*"], &[])), &u, Method::GET, scale),
            m
        );
        assert_eq!(level(&with(gr(&["*"], &[])), &u, Method::GET, scale), m);
        assert_eq!(level(&with(gr(&[], &[])), &u, Method::GET, scale), m);
        assert_eq!(
            level(
                &with(gr(&["deployments"], &["web"])),
                &u,
                Method::GET,
                plain
            ),
            m
        );
        assert_eq!(
            level(&with(gr(&["deployments"], &["db"])), &u, Method::GET, plain),
            n
        );
        // Another group, a non-resource path: no match.
        assert_eq!(
            level(&with(gr(&["*"], &[])), &u, Method::GET, "/api/v1/pods"),
            n
        );
        assert_eq!(
            level(&with(gr(&["*"], &[])), &u, Method::GET, "/healthz"),
            n
        );

        let ns = |names: &[&str]| AuditPolicy {
            rules: vec![AuditRule {
                namespaces: names.iter().map(|r| r.to_string()).collect(),
                ..rule(AuditLevel::Metadata)
            }],
            ..Default::default()
        };
        assert_eq!(
            level(
                &ns(&["kube-system"]),
                &u,
                Method::GET,
                "/api/v1/namespaces/kube-system/pods"
            ),
            m
        );
        assert_eq!(
            level(
                &ns(&["kube-system"]),
                &u,
                Method::GET,
                "/api/v1/namespaces/a/pods"
            ),
            n
        );
        assert_eq!(level(&ns(&[""]), &u, Method::GET, "/api/v1/nodes"), m);
        assert_eq!(level(&ns(&[""]), &u, Method::GET, "/healthz"), n);
    }

    #[test]
    fn omit_managed_fields_rule_overrides_policy() {
        let mut r = rule(AuditLevel::Request);
        r.omit_managed_fields = Some(false);
        r.omit_stages = vec![AuditStage::Panic];
        let p = AuditPolicy {
            rules: vec![r, rule(AuditLevel::Metadata)],
            omit_stages: vec![AuditStage::RequestReceived],
            omit_managed_fields: true,
        };
        let v = evaluate(&p, &user("u", &[]), &info(Method::GET, "/api"));
        assert!(!v.omit_managed_fields);
        assert_eq!(
            v.omit_stages,
            [AuditStage::RequestReceived, AuditStage::Panic]
        );
        let p = AuditPolicy {
            rules: vec![rule(AuditLevel::Metadata)],
            ..p
        };
        assert!(evaluate(&p, &user("u", &[]), &info(Method::GET, "/api")).omit_managed_fields);
    }
}
