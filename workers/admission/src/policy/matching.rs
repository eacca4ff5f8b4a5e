//! Whether a policy's `matchConstraints` or a binding's `matchResources` select a
//! request, as upstream's policy matcher decides: the namespace selector (the
//! namespace's labels), the object selector (the object's or the old object's), the
//! excluded rules, then the rules (with `resourceNames`; `matchPolicy: Equivalent` also
//! the resource's equivalents in other versions, the version matched returned). A selector's error only counts when
//! the rest matches. The rules and selectors are the webhooks'.

use kas_server::admission::Request;
use serde_json::Value;

use super::model::{MatchResources, NamedRule};
use crate::webhook::matching::{match_as, rule_matches};
use kas_server::rest::Resource;

/// What a namespace selector is evaluated against.
pub(crate) enum NamespaceLabels<'a> {
    /// The request is for a cluster-scoped object: the selector does not apply.
    NotApplicable,
    /// The namespace (or the Namespace written), or why it could not be read.
    Found(Result<&'a Value, String>),
}

/// The resource `rules` select the request as: its own, or (unless `exact`) an
/// equivalent version's, with `resourceNames` checked as upstream's
/// matchesResourceRules.
fn rules_match(rules: &[NamedRule], exact: bool, req: &Request<'_>) -> Option<Resource> {
    match_as(rules, exact, req, |r, req| {
        rule_matches(&r.rule, req, req.resource.version)
            && (r.names.is_empty() || r.names.iter().any(|n| n == req.name))
    })
}

/// Upstream's Matcher.Matches for `m`: the resource the request is matched as (its
/// own, or an equivalent version under `matchPolicy: Equivalent`), or `None`.
pub(crate) fn matches(
    m: &MatchResources,
    req: &Request<'_>,
    obj: &Value,
    namespace: &NamespaceLabels<'_>,
) -> Result<Option<Resource>, String> {
    let ns_match = match (&m.namespace_selector, namespace) {
        (Err(e), _) => Err(e.clone()),
        (Ok(s), _) if s.is_empty() => Ok(true),
        (Ok(_), NamespaceLabels::NotApplicable) => Ok(true),
        (Ok(s), NamespaceLabels::Found(Ok(ns))) => Ok(s.matches(ns)),
        (Ok(_), NamespaceLabels::Found(Err(e))) => Err(e.clone()),
    };
    if ns_match == Ok(false) {
        return Ok(None);
    }
    let obj_match = match &m.object_selector {
        Err(e) => Err(e.clone()),
        Ok(s) if s.is_empty() => Ok(true),
        Ok(s) => {
            let labelled = |o: &Value| o.is_object() && s.matches(o);
            Ok(labelled(obj) || req.old_object.is_some_and(labelled))
        }
    };
    if obj_match == Ok(false) {
        return Ok(None);
    }
    if rules_match(&m.exclude, m.exact, req).is_some() {
        return Ok(None);
    }
    let matched = match m.rules.is_empty() {
        true => *req.resource,
        false => match rules_match(&m.rules, m.exact, req) {
            Some(r) => r,
            None => return Ok(None),
        },
    };
    ns_match?;
    obj_match?;
    Ok(Some(matched))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kas_server::admission::Operation;
    use kas_server::rest::Resource;
    use serde_json::json;

    use super::super::model::Policy;

    const DEPLOYMENTS: Resource =
        Resource::new("apps", "v1", "deployments", "deployment", "Deployment");

    fn req<'a>(name: &'a str, ns: &'a str) -> Request<'a> {
        Request {
            operation: Operation::Create,
            resource: &DEPLOYMENTS,
            subresource: "",
            namespace: ns,
            name,
            old_object: None,
            user: None,
            dry_run: false,
            options: None,
            versions: None,
        }
    }

    fn constraints(c: Value) -> MatchResources {
        let p = Policy::of(&json!({"metadata": {"name": "p"}, "spec": {"matchConstraints": c}}));
        p.constraints.unwrap_or_else(|| panic!("constraints"))
    }

    #[test]
    fn rules_names_exclusions_and_selectors() {
        let rule = json!({"operations": ["CREATE", "UPDATE"], "apiGroups": ["apps"],
                          "apiVersions": ["v1"], "resources": ["deployments"]});
        let obj = json!({"metadata": {"labels": {"app": "web"}}});
        let ns = json!({"metadata": {"labels": {"env": "prod"}}});
        let found = NamespaceLabels::Found(Ok(&ns));
        let version = |r: Result<Option<Resource>, String>| r.map(|m| m.map(|m| m.version));

        // Another version: matched as it under Equivalent, not under Exact.
        let beta = json!({"operations": ["CREATE"], "apiGroups": ["apps"],
                          "apiVersions": ["v1beta1"], "resources": ["deployments"]});
        let with_beta = Request {
            versions: Some(&crate::webhook::versioned::BetaDeployments),
            ..req("a", "x")
        };
        let m = constraints(json!({"resourceRules": [beta]}));
        assert_eq!(
            version(matches(&m, &with_beta, &obj, &found)),
            Ok(Some("v1beta1"))
        );
        assert_eq!(version(matches(&m, &req("a", "x"), &obj, &found)), Ok(None));
        let m = constraints(json!({"resourceRules": [beta], "matchPolicy": "Exact"}));
        assert_eq!(version(matches(&m, &with_beta, &obj, &found)), Ok(None));
        let m = constraints(json!({"resourceRules": [rule, beta]}));
        assert_eq!(
            version(matches(&m, &with_beta, &obj, &found)),
            Ok(Some("v1"))
        );

        let mut named = rule.clone();
        named["resourceNames"] = json!(["web"]);
        let m = constraints(json!({"resourceRules": [named]}));
        assert_eq!(
            matches(&m, &req("a", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(false)
        );
        assert_eq!(
            matches(&m, &req("web", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(true)
        );

        let m = constraints(json!({"resourceRules": [rule], "excludeResourceRules": [named]}));
        assert_eq!(
            matches(&m, &req("web", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(false)
        );
        assert_eq!(
            matches(&m, &req("a", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(true)
        );

        let m = constraints(json!({"resourceRules": [rule],
            "namespaceSelector": {"matchLabels": {"env": "dev"}}}));
        assert_eq!(
            matches(&m, &req("a", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(false)
        );
        assert_eq!(
            matches(&m, &req("a", ""), &obj, &NamespaceLabels::NotApplicable).map(|m| m.is_some()),
            Ok(true)
        );
        let missing = NamespaceLabels::Found(Err("namespaces \"x\" not found".into()));
        assert!(matches(&m, &req("a", "x"), &obj, &missing).is_err());

        let m = constraints(json!({"resourceRules": [rule],
            "objectSelector": {"matchLabels": {"app": "db"}}}));
        assert_eq!(
            matches(&m, &req("a", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(false)
        );
        // No rules (a binding's matchResources): everything.
        let m = constraints(json!({}));
        assert_eq!(
            matches(&m, &req("a", "x"), &obj, &found).map(|m| m.is_some()),
            Ok(true)
        );
    }
}
