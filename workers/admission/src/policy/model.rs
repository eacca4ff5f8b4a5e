//! ValidatingAdmissionPolicies and their bindings as the dispatcher uses them: read from
//! their JSON with upstream's v1 defaults (failurePolicy Fail, matchPolicy Equivalent,
//! empty selectors, rule scope `*`), selectors parsed and every expression compiled once
//! per version of the object.

use kas_server::selectors::LabelSelector;
use serde_json::Value;

use super::compile::{compile, Compiled, Scope};
use crate::webhook::config::{rule_of, selector, strings, text, Rule};

/// A rule of `resourceRules` / `excludeResourceRules` (NamedRuleWithOperations).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct NamedRule {
    pub rule: Rule,
    /// `resourceNames`: empty matches every name.
    pub names: Vec<String>,
}

/// `matchConstraints` of a policy or `matchResources` of a binding.
#[derive(Debug)]
pub(crate) struct MatchResources {
    pub rules: Vec<NamedRule>,
    pub exclude: Vec<NamedRule>,
    pub namespace_selector: Result<LabelSelector, String>,
    pub object_selector: Result<LabelSelector, String>,
    /// `matchPolicy: Exact`.
    pub exact: bool,
}

impl MatchResources {
    fn of(v: &Value) -> MatchResources {
        let named = |key: &str| -> Vec<NamedRule> {
            v.get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|r| NamedRule {
                    rule: rule_of(r),
                    names: strings(r, "resourceNames"),
                })
                .collect()
        };
        MatchResources {
            rules: named("resourceRules"),
            exclude: named("excludeResourceRules"),
            namespace_selector: selector(v.get("namespaceSelector")),
            object_selector: selector(v.get("objectSelector")),
            exact: text(v, "matchPolicy") == Some("Exact"),
        }
    }
}

/// One entry of `validations`.
#[derive(Debug)]
pub(crate) struct Validation {
    pub expression: Compiled,
    pub message: Option<String>,
    pub message_expression: Option<Compiled>,
    /// `reason` (Invalid when not given).
    pub reason: Option<String>,
}

/// A policy, compiled.
#[derive(Debug)]
pub(crate) struct Policy {
    pub name: String,
    /// `metadata.generation`, for the status.
    pub generation: i64,
    /// `failurePolicy: Ignore`.
    pub fail_open: bool,
    /// `paramKind` as (apiVersion, kind).
    pub param_kind: Option<(String, String)>,
    /// `None`: no matchConstraints, which matches nothing (upstream).
    pub constraints: Option<MatchResources>,
    pub conditions: Vec<Compiled>,
    /// (name, expression), in order; each may read the ones before it.
    pub variables: Vec<(String, Compiled)>,
    pub validations: Vec<Validation>,
    /// (key, valueExpression).
    pub audit_annotations: Vec<(String, Compiled)>,
}

/// `validationActions` of a binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Deny,
    Warn,
    Audit,
}

impl Action {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Action::Deny => "Deny",
            Action::Warn => "Warn",
            Action::Audit => "Audit",
        }
    }
}

/// `paramRef` of a binding.
#[derive(Debug)]
pub(crate) struct ParamRef {
    pub name: String,
    pub namespace: String,
    /// `selector`, when given (parsed).
    pub selector: Option<Result<LabelSelector, String>>,
    /// `parameterNotFoundAction: Deny`.
    pub deny_when_missing: bool,
}

/// A binding.
#[derive(Debug)]
pub(crate) struct Binding {
    pub name: String,
    pub policy: String,
    pub param_ref: Option<ParamRef>,
    /// `None`: every request the policy matches.
    pub resources: Option<MatchResources>,
    pub actions: Vec<Action>,
}

fn named_expressions<'v>(
    v: &'v Value,
    key: &str,
    name_key: &str,
    expr_key: &str,
) -> Vec<(&'v str, &'v str)> {
    v.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|e| {
            (
                text(e, name_key).unwrap_or(""),
                text(e, expr_key).unwrap_or(""),
            )
        })
        .collect()
}

impl Policy {
    /// The policy `obj` (a ValidatingAdmissionPolicy), compiled.
    pub(crate) fn of(obj: &Value) -> Policy {
        let spec = obj.get("spec").unwrap_or(&Value::Null);
        let param_kind = spec.get("paramKind").filter(|p| p.is_object()).map(|p| {
            (
                text(p, "apiVersion").unwrap_or("").to_owned(),
                text(p, "kind").unwrap_or("").to_owned(),
            )
        });
        let params = param_kind.is_some();
        let mut names: Vec<String> = Vec::new();
        let mut variables = Vec::new();
        for (name, expr) in named_expressions(spec, "variables", "name", "expression") {
            let compiled = compile(
                expr,
                Scope {
                    params,
                    variables: &names,
                },
            );
            variables.push((name.to_owned(), compiled));
            names.push(name.to_owned());
        }
        let scope = Scope {
            params,
            variables: &names,
        };
        // Match conditions see no variables (upstream compiles them without).
        let conditions = named_expressions(spec, "matchConditions", "name", "expression")
            .into_iter()
            .map(|(_, e)| {
                compile(
                    e,
                    Scope {
                        params,
                        variables: &[],
                    },
                )
            })
            .collect();
        let validations = spec
            .get("validations")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|v| Validation {
                expression: compile(text(v, "expression").unwrap_or(""), scope),
                message: text(v, "message").map(str::to_owned),
                message_expression: text(v, "messageExpression")
                    .filter(|m| !m.is_empty())
                    .map(|m| compile(m, scope)),
                reason: text(v, "reason")
                    .filter(|r| !r.is_empty())
                    .map(str::to_owned),
            })
            .collect();
        let audit_annotations =
            named_expressions(spec, "auditAnnotations", "key", "valueExpression")
                .into_iter()
                .map(|(k, e)| (k.to_owned(), compile(e, scope)))
                .collect();
        Policy {
            name: obj
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            generation: obj
                .pointer("/metadata/generation")
                .and_then(Value::as_i64)
                .unwrap_or(0),
            fail_open: text(spec, "failurePolicy") == Some("Ignore"),
            param_kind,
            constraints: spec
                .get("matchConstraints")
                .filter(|m| m.is_object())
                .map(MatchResources::of),
            conditions,
            variables,
            validations,
            audit_annotations,
        }
    }

    /// Every expression with the path of its field, for the type-checking status.
    pub(crate) fn expressions(&self) -> Vec<(String, &Compiled)> {
        let mut out = Vec::new();
        for (i, v) in self.validations.iter().enumerate() {
            out.push((format!("spec.validations[{i}].expression"), &v.expression));
            if let Some(m) = &v.message_expression {
                out.push((format!("spec.validations[{i}].messageExpression"), m));
            }
        }
        out
    }
}

impl Binding {
    /// The binding `obj` (a ValidatingAdmissionPolicyBinding).
    pub(crate) fn of(obj: &Value) -> Binding {
        let spec = obj.get("spec").unwrap_or(&Value::Null);
        let param_ref = spec
            .get("paramRef")
            .filter(|p| p.is_object())
            .map(|p| ParamRef {
                name: text(p, "name").unwrap_or("").to_owned(),
                namespace: text(p, "namespace").unwrap_or("").to_owned(),
                selector: p
                    .get("selector")
                    .filter(|s| s.is_object())
                    .map(|s| selector(Some(s))),
                deny_when_missing: text(p, "parameterNotFoundAction") == Some("Deny"),
            });
        let actions = strings(spec, "validationActions")
            .iter()
            .filter_map(|a| match a.as_str() {
                "Deny" => Some(Action::Deny),
                "Warn" => Some(Action::Warn),
                "Audit" => Some(Action::Audit),
                _ => None,
            })
            .collect();
        Binding {
            name: obj
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            policy: text(spec, "policyName").unwrap_or("").to_owned(),
            param_ref,
            resources: spec
                .get("matchResources")
                .filter(|m| m.is_object())
                .map(MatchResources::of),
            actions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_policies_and_bindings() {
        let p = Policy::of(&json!({
            "metadata": {"name": "p", "generation": 3},
            "spec": {
                "failurePolicy": "Ignore",
                "paramKind": {"apiVersion": "v1", "kind": "ConfigMap"},
                "matchConstraints": {"resourceRules": [{"operations": ["CREATE"],
                    "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"],
                    "resourceNames": ["web"]}], "matchPolicy": "Exact"},
                "variables": [{"name": "r", "expression": "object.spec.replicas"},
                              {"name": "max", "expression": "int(params.data.max)"}],
                "validations": [{"expression": "variables.r <= variables.max",
                                 "messageExpression": "'too many: ' + string(variables.r)",
                                 "reason": "Forbidden"}],
                "auditAnnotations": [{"key": "replicas", "valueExpression": "string(variables.r)"}]
            }
        }));
        assert_eq!(p.name, "p");
        assert_eq!(p.generation, 3);
        assert!(p.fail_open);
        assert_eq!(p.param_kind, Some(("v1".into(), "ConfigMap".into())));
        let c = p
            .constraints
            .as_ref()
            .map(|c| (c.exact, c.rules[0].names.clone()));
        assert_eq!(c, Some((true, vec!["web".to_owned()])));
        assert!(p.variables.iter().all(|(_, c)| c.program.is_ok()));
        assert_eq!(p.validations[0].expression.variables, [0, 1]);
        assert_eq!(p.validations[0].reason.as_deref(), Some("Forbidden"));
        assert_eq!(p.audit_annotations[0].0, "replicas");
        assert_eq!(p.expressions().len(), 2);

        let b = Binding::of(&json!({"metadata": {"name": "b"}, "spec": {
            "policyName": "p", "validationActions": ["Warn", "Audit"],
            "paramRef": {"name": "limits", "parameterNotFoundAction": "Deny"}}}));
        assert_eq!(b.actions, [Action::Warn, Action::Audit]);
        assert!(b.param_ref.as_ref().is_some_and(|r| r.deny_when_missing));
        assert!(b.resources.is_none());
    }
}
