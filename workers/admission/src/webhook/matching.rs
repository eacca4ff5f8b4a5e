//! Whether a webhook is called for a request, as upstream's predicates decide: its
//! `rules` (operations, groups, versions, resources with subresources, scope), with
//! `matchPolicy: Equivalent` also the resource's equivalents in other versions; its
//! `namespaceSelector` (the namespace's labels, a Namespace's own); its `objectSelector`
//! (the object's or the old object's labels); and its `matchConditions`, CEL over
//! `object`, `oldObject`, `request` and `authorizer` (with the Kubernetes libraries).

use std::panic::{catch_unwind, AssertUnwindSafe};

use cel::{Context, Program, Value as Cel};
use kas_server::admission::{Operation, Request};
use kas_server::rest::Resource;
use serde_json::Value;

use super::config::{Hook, Rule};

/// Whether `rule` matches the request for `version` of its resource (upstream's
/// rules.Matcher).
pub(crate) fn rule_matches(rule: &Rule, req: &Request<'_>, version: &str) -> bool {
    let any = |items: &[String], wanted: &str| items.iter().any(|i| i == "*" || i == wanted);
    let is_namespace = req.resource.group.is_empty() && req.resource.plural == "namespaces";
    let scope = match rule.scope.as_str() {
        "*" | "" => true,
        "Namespaced" => !is_namespace && !req.namespace.is_empty(),
        "Cluster" => is_namespace || req.namespace.is_empty(),
        _ => false,
    };
    let operation = rule
        .operations
        .iter()
        .any(|o| o == "*" || o == req.operation.as_str());
    let resource = rule.resources.iter().any(|r| {
        let (res, sub) = r.split_once('/').unwrap_or((r.as_str(), ""));
        (res == "*" || res == req.resource.plural) && (sub == "*" || sub == req.subresource)
    });
    scope
        && operation
        && any(&rule.groups, req.resource.group)
        && any(&rule.versions, version)
        && resource
}

/// The resource the request is matched as by `rules`: its own when one matches it,
/// else (unless `exact`) the first of its equivalents (other versions and groups of the
/// same stored resource) one matches, rule by rule as upstream's Equivalent match
/// policy. `None` when nothing matches.
pub(crate) fn match_as<R>(
    rules: &[R],
    exact: bool,
    req: &Request<'_>,
    matches: impl Fn(&R, &Request<'_>) -> bool,
) -> Option<Resource> {
    if rules.iter().any(|r| matches(r, req)) {
        return Some(*req.resource);
    }
    if exact {
        return None;
    }
    let equivalents = req.versions.map(|v| v.equivalents()).unwrap_or(&[]);
    rules.iter().find_map(|r| {
        equivalents
            .iter()
            .find(|eq| {
                matches(
                    r,
                    &Request {
                        resource: eq,
                        ..*req
                    },
                )
            })
            .copied()
    })
}

/// The resource the webhook is called as, when its rules select the request.
pub(crate) fn rules_match(hook: &Hook, req: &Request<'_>) -> Option<Resource> {
    match_as(&hook.rules, hook.exact, req, |r, req| {
        rule_matches(r, req, req.resource.version)
    })
}

/// Whether the object selector selects the object or the old object.
pub(crate) fn object_selected(
    hook: &Hook,
    obj: &Value,
    old: Option<&Value>,
) -> Result<bool, String> {
    let selector = hook.object_selector.as_ref().map_err(Clone::clone)?;
    if selector.is_empty() {
        return Ok(true);
    }
    let labelled = |o: &Value| o.is_object() && selector.matches(o);
    Ok(labelled(obj) || old.is_some_and(labelled))
}

/// Whose labels the namespace selector looks at: `Ok(Some(labels' owner))` for a
/// Namespace written (itself), `Err(name)` for a namespace to look up, `Ok(None)` when
/// the selector does not apply (a cluster-scoped object).
pub(crate) fn namespace_of<'a>(
    req: &Request<'a>,
    obj: &'a Value,
) -> Result<Option<&'a Value>, &'a str> {
    let is_namespace = req.resource.group.is_empty() && req.resource.plural == "namespaces";
    if req.namespace.is_empty() && !is_namespace {
        return Ok(None);
    }
    if is_namespace
        && req.subresource.is_empty()
        && matches!(req.operation, Operation::Create | Operation::Update)
    {
        return Ok(Some(obj));
    }
    match req.namespace.is_empty() {
        true => Err(req.name),
        false => Err(req.namespace),
    }
}

/// Compiled `matchConditions`.
pub(crate) struct Conditions {
    /// (name, expression, program or why it does not compile).
    programs: Vec<(String, String, Result<Program, String>)>,
}

impl std::fmt::Debug for Conditions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.programs.iter().map(|(n, _, _)| n))
            .finish()
    }
}

/// Compiles a CEL expression (the parser's error; a parser panic is an error too).
pub fn compile(expression: &str) -> Result<Program, String> {
    catch_unwind(|| Program::compile(expression).map_err(|e| e.to_string()))
        .unwrap_or_else(|_| Err("the expression cannot be compiled".to_owned()))
}

/// A JSON value as CEL sees it.
/// A JSON value as a CEL value.
pub(crate) use kas_cel::json_to_cel as to_cel;

impl Conditions {
    /// Compiles `(name, expression)` pairs.
    pub(crate) fn compile(conditions: &[(String, String)]) -> Conditions {
        Conditions {
            programs: conditions
                .iter()
                .map(|(n, e)| (n.clone(), e.clone(), compile(e)))
                .collect(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.programs.is_empty()
    }

    /// Upstream's matcher: any condition false → no match; else any error → `Err`
    /// (the errors joined as an aggregate); else a match.
    /// `authorizer` holds the `authorizer` and `authorizer.requestResource` values.
    #[cfg(test)]
    pub(crate) fn evaluate(
        &self,
        object: &Value,
        old: &Value,
        request: &Value,
        authorizer: Option<&(Cel, Cel)>,
    ) -> Result<bool, String> {
        self.evaluate_counting(object, old, request, authorizer).0
    }

    /// The match as `evaluate` gives it, and how many conditions failed to evaluate
    /// before the answer was known (upstream counts each in its metrics).
    pub(crate) fn evaluate_counting(
        &self,
        object: &Value,
        old: &Value,
        request: &Value,
        authorizer: Option<&(Cel, Cel)>,
    ) -> (Result<bool, String>, usize) {
        let mut ctx = match kas_cel::library::env() {
            Some(env) => Context::with_env(env),
            None => Context::default(),
        };
        ctx.add_variable_from_value("object", to_cel(object));
        ctx.add_variable_from_value("oldObject", to_cel(old));
        ctx.add_variable_from_value("request", to_cel(request));
        if let Some((authorizer, request_resource)) = authorizer {
            ctx.add_variable_from_value("authorizer", authorizer.clone());
            ctx.add_variable_from_value("authorizer.requestResource", request_resource.clone());
        }
        let mut errors = Vec::new();
        for (_, expression, program) in &self.programs {
            let program = match program {
                Ok(p) => p,
                Err(e) => {
                    errors.push(format!("compilation failed: {e}"));
                    continue;
                }
            };
            let failed = |e: String| format!("expression '{expression}' resulted in error: {e}");
            match catch_unwind(AssertUnwindSafe(|| program.execute(&ctx))) {
                Ok(Ok(Cel::Bool(true))) => {}
                Ok(Ok(Cel::Bool(false))) => return (Ok(false), errors.len()),
                Ok(Ok(other)) => errors.push(failed(format!(
                    "expected boolean, got {}",
                    cel_type(&other)
                ))),
                Ok(Err(e)) => errors.push(failed(e.to_string())),
                Err(_) => errors.push(failed("evaluation failed".to_owned())),
            }
        }
        let count = errors.len();
        let result = match count {
            0 => Ok(true),
            1 => Err(errors.remove(0)),
            _ => Err(format!("[{}]", errors.join(", "))),
        };
        (result, count)
    }
}

pub(crate) fn cel_type(v: &Cel) -> &'static str {
    match v {
        Cel::Int(_) => "int",
        Cel::UInt(_) => "uint",
        Cel::Float(_) => "double",
        Cel::String(_) => "string",
        Cel::List(_) => "list",
        Cel::Map(_) => "map",
        Cel::Null => "null_type",
        _ => "value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kas_server::rest::Resource;
    use serde_json::json;

    const PODS: Resource = Resource::new("", "v1", "pods", "pod", "Pod");
    const NAMESPACES: Resource =
        Resource::new("", "v1", "namespaces", "namespace", "Namespace").cluster();
    const DEPLOYMENTS: Resource =
        Resource::new("apps", "v1", "deployments", "deployment", "Deployment");

    fn req<'a>(resource: &'a Resource, sub: &'a str, ns: &'a str, op: Operation) -> Request<'a> {
        Request {
            operation: op,
            resource,
            subresource: sub,
            namespace: ns,
            name: "x",
            old_object: None,
            user: None,
            dry_run: false,
            options: None,
            versions: None,
        }
    }

    fn rule(ops: &[&str], groups: &[&str], versions: &[&str], res: &[&str], scope: &str) -> Rule {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect();
        Rule {
            operations: v(ops),
            groups: v(groups),
            versions: v(versions),
            resources: v(res),
            scope: scope.to_owned(),
        }
    }

    #[test]
    fn rules_as_upstream() {
        let create_pod = req(&PODS, "", "default", Operation::Create);
        assert!(rule_matches(
            &rule(&["CREATE"], &[""], &["v1"], &["pods"], "*"),
            &create_pod,
            "v1"
        ));
        assert!(rule_matches(
            &rule(&["*"], &["*"], &["*"], &["*"], "Namespaced"),
            &create_pod,
            "v1"
        ));
        assert!(!rule_matches(
            &rule(&["UPDATE"], &[""], &["v1"], &["pods"], "*"),
            &create_pod,
            "v1"
        ));
        assert!(!rule_matches(
            &rule(&["*"], &["apps"], &["v1"], &["pods"], "*"),
            &create_pod,
            "v1"
        ));
        assert!(!rule_matches(
            &rule(&["*"], &["*"], &["*"], &["*"], "Cluster"),
            &create_pod,
            "v1"
        ));
        // `*` alone does not match subresources; `*/*` and `pods/status` do.
        let status = req(&PODS, "status", "default", Operation::Update);
        assert!(!rule_matches(
            &rule(&["*"], &["*"], &["*"], &["*"], "*"),
            &status,
            "v1"
        ));
        assert!(!rule_matches(
            &rule(&["*"], &["*"], &["*"], &["pods"], "*"),
            &status,
            "v1"
        ));
        assert!(rule_matches(
            &rule(&["*"], &["*"], &["*"], &["*/*"], "*"),
            &status,
            "v1"
        ));
        assert!(rule_matches(
            &rule(&["*"], &["*"], &["*"], &["pods/status"], "*"),
            &status,
            "v1"
        ));
        assert!(rule_matches(
            &rule(&["*"], &["*"], &["*"], &["pods/*"], "*"),
            &status,
            "v1"
        ));
        // A Namespace is cluster-scoped even with its own name as namespace.
        let ns = req(&NAMESPACES, "", "x", Operation::Create);
        assert!(rule_matches(
            &rule(&["*"], &["*"], &["*"], &["*"], "Cluster"),
            &ns,
            "v1"
        ));
        assert!(!rule_matches(
            &rule(&["*"], &["*"], &["*"], &["*"], "Namespaced"),
            &ns,
            "v1"
        ));
    }

    #[test]
    fn match_policy_equivalent_and_exact() {
        let source = super::super::config::Source::fixed(&[json!({
        "metadata": {"name": "c"},
        "webhooks": [
            {"name": "equivalent", "rules": [{"operations": ["*"], "apiGroups": ["apps"],
              "apiVersions": ["v1beta1"], "resources": ["deployments"]}]},
            {"name": "exact", "matchPolicy": "Exact", "rules": [{"operations": ["*"],
              "apiGroups": ["apps"], "apiVersions": ["v1beta1"], "resources": ["deployments"]}]},
            {"name": "own", "rules": [{"operations": ["*"],
              "apiGroups": ["apps"], "apiVersions": ["*"], "resources": ["deployments"]}]}
        ]})]);
        let hooks = source.hooks();
        let r = Request {
            versions: Some(&super::super::versioned::BetaDeployments),
            ..req(&DEPLOYMENTS, "", "default", Operation::Create)
        };
        assert_eq!(
            rules_match(&hooks[0], &r).map(|m| m.version),
            Some("v1beta1")
        );
        assert!(rules_match(&hooks[1], &r).is_none());
        assert_eq!(rules_match(&hooks[2], &r).map(|m| m.version), Some("v1"));
        // Without equivalents, only the request's own version matches.
        let alone = req(&DEPLOYMENTS, "", "default", Operation::Create);
        assert!(rules_match(&hooks[0], &alone).is_none());
    }

    #[test]
    fn selectors() {
        let source = super::super::config::Source::fixed(&[json!({
            "metadata": {"name": "c"},
            "webhooks": [{"name": "w", "objectSelector": {"matchLabels": {"a": "b"}}},
                         {"name": "none"},
                         {"name": "not", "objectSelector": {"matchExpressions": [
                            {"key": "skip", "operator": "DoesNotExist"}]}}]})]);
        let hooks = source.hooks();
        let labelled = json!({"metadata": {"labels": {"a": "b"}}});
        let plain = json!({"metadata": {}});
        assert_eq!(object_selected(&hooks[0], &labelled, None), Ok(true));
        assert_eq!(object_selected(&hooks[0], &plain, None), Ok(false));
        assert_eq!(
            object_selected(&hooks[0], &plain, Some(&labelled)),
            Ok(true)
        );
        assert_eq!(object_selected(&hooks[1], &plain, None), Ok(true));
        // A delete: no object, the old one decides; no object at all never matches.
        assert_eq!(object_selected(&hooks[2], &Value::Null, None), Ok(false));
        assert_eq!(
            object_selected(&hooks[2], &Value::Null, Some(&plain)),
            Ok(true)
        );

        let obj = json!({"metadata": {"labels": {"env": "prod"}}});
        let ns = req(&NAMESPACES, "", "", Operation::Create);
        assert_eq!(namespace_of(&ns, &obj), Ok(Some(&obj)));
        let del = req(&NAMESPACES, "", "", Operation::Delete);
        assert_eq!(namespace_of(&del, &obj), Err("x"));
        let pod = req(&PODS, "", "team", Operation::Create);
        assert_eq!(namespace_of(&pod, &obj), Err("team"));
        let cluster = req(&NAMESPACES, "", "", Operation::Create);
        let node = Request {
            resource: &PODS,
            ..cluster
        };
        assert_eq!(namespace_of(&node, &obj), Ok(None));
    }

    #[test]
    fn conditions_as_upstream() {
        let c = Conditions::compile(&[
            ("labelled".into(), "has(object.metadata.labels)".into()),
            ("creates".into(), "request.operation == 'CREATE'".into()),
        ]);
        let request = json!({"operation": "CREATE"});
        let obj = json!({"metadata": {"labels": {"a": "b"}}});
        assert_eq!(c.evaluate(&obj, &Value::Null, &request, None), Ok(true));
        assert_eq!(
            c.evaluate(&json!({"metadata": {}}), &Value::Null, &request, None),
            Ok(false)
        );
        // An error and a false: no match, no error.
        let c = Conditions::compile(&[
            ("bad".into(), "object.spec.missing == 1".into()),
            ("no".into(), "false".into()),
        ]);
        assert_eq!(c.evaluate(&obj, &Value::Null, &request, None), Ok(false));
        let c = Conditions::compile(&[("bad".into(), "object.spec.missing == 1".into())]);
        let err = c
            .evaluate(&obj, &Value::Null, &request, None)
            .expect_err("error");
        assert!(
            err.starts_with("expression 'object.spec.missing == 1' resulted in error"),
            "{err}"
        );
        let c = Conditions::compile(&[("str".into(), "'a'".into())]);
        assert!(c.evaluate(&obj, &Value::Null, &request, None).is_err());
        assert!(compile("object ==").is_err());
        assert_eq!(
            Conditions::compile(&[]).evaluate(&obj, &obj, &request, None),
            Ok(true)
        );
        assert!(Conditions::compile(&[]).is_empty());
    }
}
