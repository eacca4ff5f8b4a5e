//! ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: upstream's v1
//! defaults (failurePolicy Fail, matchPolicy Equivalent, empty selectors, rule scope
//! `*`) and the main validation rules, worded as kube-apiserver words them. Every CEL
//! expression must compile (`params` declared only with a `paramKind`; a variable may
//! read the ones before it): one that does not is refused here with a 422; what would
//! only fail against the matched kinds' schemas is left to the policy's status.

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::{json, Value};

use super::admission_rules::rule;
use super::causes::{
    arr, duplicate, each_invalid, invalid, not_supported, qualified_name_msgs, required, s,
};
use super::selector::selector_rules;

const REASONS: [&str; 4] = [
    "Unauthorized",
    "Forbidden",
    "Invalid",
    "RequestEntityTooLarge",
];
const ACTIONS: [&str; 3] = ["Deny", "Warn", "Audit"];

fn match_defaults(m: &mut Value) {
    if !m.is_object() {
        return;
    }
    for (key, v) in [
        ("matchPolicy", json!("Equivalent")),
        ("namespaceSelector", json!({})),
        ("objectSelector", json!({})),
    ] {
        if m.get(key).is_none_or(Value::is_null) {
            m[key] = v;
        }
    }
    for key in ["resourceRules", "excludeResourceRules"] {
        if let Some(rules) = m.get_mut(key).and_then(Value::as_array_mut) {
            for r in rules.iter_mut().filter(|r| r.is_object()) {
                if r.get("scope").is_none_or(Value::is_null) {
                    r["scope"] = json!("*");
                }
            }
        }
    }
}

/// Upstream's v1 defaults of a ValidatingAdmissionPolicy.
pub(crate) fn policy_defaults(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    if spec.get("failurePolicy").is_none_or(Value::is_null) {
        spec["failurePolicy"] = json!("Fail");
    }
    if let Some(m) = spec.get_mut("matchConstraints") {
        match_defaults(m);
    }
}

/// Upstream's v1 defaults of a ValidatingAdmissionPolicyBinding.
pub(crate) fn binding_defaults(obj: &mut Value) {
    if let Some(m) = obj.pointer_mut("/spec/matchResources") {
        match_defaults(m);
    }
}

fn match_resources(m: &Value, path: &str, out: &mut Vec<StatusCause>) {
    if let Some(p) = s(m, "matchPolicy") {
        if !["Exact", "Equivalent"].contains(&p) {
            out.push(not_supported(
                &format!("{path}.matchPolicy"),
                p,
                &["Equivalent", "Exact"],
            ));
        }
    }
    for key in ["namespaceSelector", "objectSelector"] {
        if let Some(sel) = m.get(key).filter(|v| v.is_object()) {
            selector_rules(sel, &format!("{path}.{key}"), out);
        }
    }
    for key in ["resourceRules", "excludeResourceRules"] {
        for (i, r) in arr(m, key).iter().enumerate() {
            rule(r, &format!("{path}.{key}[{i}]"), out);
        }
    }
}

/// Checks that `expression` at `field` is given and compiles.
fn expression(
    field: &str,
    expression: &str,
    params: bool,
    vars: &[String],
    out: &mut Vec<StatusCause>,
) {
    if expression.trim().is_empty() {
        out.push(required(field, ""));
    } else if let Err(e) = kas_admission::check_policy_expression(expression, params, vars) {
        out.push(invalid(
            field,
            expression,
            &format!("compilation failed: {e}"),
        ));
    }
}

/// Whether `name` is a CEL identifier (`[_a-zA-Z][_a-zA-Z0-9]*`).
fn cel_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// ValidatingAdmissionPolicy.
pub(crate) fn policy(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    if let Some(f) = s(spec, "failurePolicy") {
        if !["Fail", "Ignore"].contains(&f) {
            out.push(not_supported("spec.failurePolicy", f, &["Fail", "Ignore"]));
        }
    }
    let params = match spec.get("paramKind").filter(|p| p.is_object()) {
        Some(p) => {
            for key in ["apiVersion", "kind"] {
                if s(p, key).unwrap_or("").is_empty() {
                    out.push(required(&format!("spec.paramKind.{key}"), ""));
                }
            }
            true
        }
        None => false,
    };
    match spec.get("matchConstraints").filter(|m| m.is_object()) {
        None => out.push(required("spec.matchConstraints", "")),
        Some(m) => {
            match_resources(m, "spec.matchConstraints", &mut out);
            if arr(m, "resourceRules").is_empty() {
                out.push(required("spec.matchConstraints.resourceRules", ""));
            }
        }
    }
    if arr(spec, "validations").is_empty() && arr(spec, "auditAnnotations").is_empty() {
        let why = "validations or auditAnnotations must contain at least one item";
        out.push(required("spec.validations", why));
        out.push(required("spec.auditAnnotations", why));
    }
    let mut names = HashSet::new();
    for (i, c) in arr(spec, "matchConditions").iter().enumerate() {
        let p = format!("spec.matchConditions[{i}]");
        let name = s(c, "name").unwrap_or("");
        if name.is_empty() {
            out.push(required(&format!("{p}.name"), ""));
        } else {
            out.extend(each_invalid(
                &format!("{p}.name"),
                name,
                qualified_name_msgs(name),
            ));
            if !names.insert(name) {
                out.push(duplicate(&format!("{p}.name"), name));
            }
        }
        expression(
            &format!("{p}.expression"),
            s(c, "expression").unwrap_or(""),
            params,
            &[],
            &mut out,
        );
    }
    let mut declared: Vec<String> = Vec::new();
    for (i, v) in arr(spec, "variables").iter().enumerate() {
        let p = format!("spec.variables[{i}]");
        let name = s(v, "name").unwrap_or("");
        if name.is_empty() {
            out.push(required(&format!("{p}.name"), ""));
        } else if !cel_identifier(name) {
            out.push(invalid(
                &format!("{p}.name"),
                name,
                "name is not a valid CEL identifier",
            ));
        }
        expression(
            &format!("{p}.expression"),
            s(v, "expression").unwrap_or(""),
            params,
            &declared,
            &mut out,
        );
        declared.push(name.to_owned());
    }
    for (i, v) in arr(spec, "validations").iter().enumerate() {
        let p = format!("spec.validations[{i}]");
        expression(
            &format!("{p}.expression"),
            s(v, "expression").unwrap_or(""),
            params,
            &declared,
            &mut out,
        );
        if let Some(m) = s(v, "message") {
            if m.trim().is_empty() && !m.is_empty() {
                out.push(invalid(
                    &format!("{p}.message"),
                    m,
                    "message must be non-empty if specified",
                ));
            } else if m.contains('\n') {
                out.push(invalid(
                    &format!("{p}.message"),
                    m,
                    "message must not contain line breaks",
                ));
            }
        }
        if let Some(m) = s(v, "messageExpression").filter(|m| !m.is_empty()) {
            expression(
                &format!("{p}.messageExpression"),
                m,
                params,
                &declared,
                &mut out,
            );
        }
        if let Some(r) = s(v, "reason") {
            if !REASONS.contains(&r) {
                out.push(not_supported(&format!("{p}.reason"), r, &REASONS));
            }
        }
    }
    let mut keys = HashSet::new();
    for (i, a) in arr(spec, "auditAnnotations").iter().enumerate() {
        let p = format!("spec.auditAnnotations[{i}]");
        let key = s(a, "key").unwrap_or("");
        if key.is_empty() {
            out.push(required(&format!("{p}.key"), ""));
        } else if !keys.insert(key) {
            out.push(duplicate(&format!("{p}.key"), key));
        }
        expression(
            &format!("{p}.valueExpression"),
            s(a, "valueExpression").unwrap_or(""),
            params,
            &declared,
            &mut out,
        );
    }
    out
}

/// ValidatingAdmissionPolicyBinding.
pub(crate) fn binding(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = obj.get("spec").unwrap_or(&Value::Null);
    if s(spec, "policyName").unwrap_or("").is_empty() {
        out.push(required("spec.policyName", ""));
    }
    let actions = arr(spec, "validationActions");
    if actions.is_empty() {
        out.push(required(
            "spec.validationActions",
            "at least one validation action is required",
        ));
    }
    let mut seen = HashSet::new();
    for (i, a) in actions.iter().enumerate() {
        let a = a.as_str().unwrap_or("");
        let field = format!("spec.validationActions[{i}]");
        if !ACTIONS.contains(&a) {
            out.push(not_supported(&field, a, &["Audit", "Deny", "Warn"]));
        } else if !seen.insert(a) {
            out.push(duplicate(&field, a));
        }
    }
    if seen.contains("Deny") && seen.contains("Warn") {
        out.push(invalid_list(
            "spec.validationActions",
            actions,
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if let Some(r) = spec.get("paramRef").filter(|r| r.is_object()) {
        let named = !s(r, "name").unwrap_or("").is_empty();
        let selected = r.get("selector").is_some_and(Value::is_object);
        match (named, selected) {
            (true, true) => out.push(StatusCause {
                reason: "FieldValueForbidden".into(),
                message: "Forbidden: name and selector are mutually exclusive".into(),
                field: "spec.paramRef.name".into(),
            }),
            (false, false) => out.push(required(
                "spec.paramRef",
                "one of name or selector must be specified",
            )),
            _ => {}
        }
        if let Some(sel) = r.get("selector").filter(|v| v.is_object()) {
            selector_rules(sel, "spec.paramRef.selector", &mut out);
        }
        match s(r, "parameterNotFoundAction") {
            None => out.push(required("spec.paramRef.parameterNotFoundAction", "")),
            Some(a) if !["Allow", "Deny"].contains(&a) => out.push(not_supported(
                "spec.paramRef.parameterNotFoundAction",
                a,
                &["Allow", "Deny"],
            )),
            Some(_) => {}
        }
    }
    if let Some(m) = spec.get("matchResources").filter(|m| m.is_object()) {
        match_resources(m, "spec.matchResources", &mut out);
    }
    out
}

fn invalid_list(field: &str, items: &[Value], why: &str) -> StatusCause {
    let quoted: Vec<String> = items
        .iter()
        .map(|v| super::causes::quote(v.as_str().unwrap_or("")))
        .collect();
    super::causes::invalid_shown(
        field,
        &format!("[]v1.ValidationAction{{{}}}", quoted.join(", ")),
        why,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(causes: &[StatusCause]) -> Vec<String> {
        causes
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect()
    }

    #[test]
    fn policies_as_upstream() {
        let mut p = json!({"metadata": {"name": "p"}, "spec": {
            "matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["apps"],
                "apiVersions": ["v1"], "resources": ["deployments"]}]},
            "variables": [{"name": "r", "expression": "object.spec.replicas"}],
            "validations": [{"expression": "variables.r <= 5", "reason": "Forbidden"}]}});
        policy_defaults(&mut p);
        assert_eq!(p["spec"]["failurePolicy"], "Fail");
        assert_eq!(p["spec"]["matchConstraints"]["matchPolicy"], "Equivalent");
        assert_eq!(
            p["spec"]["matchConstraints"]["resourceRules"][0]["scope"],
            "*"
        );
        assert_eq!(fields(&policy(&p, None)), Vec::<String>::new());

        let bad = json!({"spec": {"validations": [
            {"expression": "object.spec.replicas <= params.max"},
            {"expression": "object.x ==", "reason": "Teapot"}],
            "variables": [{"name": "1x", "expression": "variables.later"}, {"name": "later", "expression": "1"}]}});
        let got = fields(&policy(&bad, None));
        assert!(
            got.contains(&"spec.matchConstraints: Required value".to_owned()),
            "{got:?}"
        );
        assert!(got.iter().any(|c| c.starts_with("spec.validations[0].expression: Invalid value: \"object.spec.replicas <= params.max\": compilation failed: ERROR: <input>:1:25: undeclared reference to 'params'")), "{got:?}");
        assert!(got.iter().any(|c| c.starts_with("spec.validations[1].expression: Invalid value: \"object.x ==\": compilation failed: ERROR: <input>:1:")), "{got:?}");
        assert!(got.iter().any(|c| c.starts_with("spec.validations[1].reason: Unsupported value: \"Teapot\"")), "{got:?}");
        assert!(
            got.iter().any(|c| c.starts_with(
                "spec.variables[0].name: Invalid value: \"1x\": name is not a valid CEL identifier"
            )),
            "{got:?}"
        );
        assert!(
            got.iter().any(
                |c| c.starts_with("spec.variables[0].expression: Invalid value")
                    && c.contains("undefined field 'later'")
            ),
            "{got:?}"
        );
        let empty = json!({"spec": {"matchConstraints": {"resourceRules": []}}});
        let got = fields(&policy(&empty, None));
        assert!(got.contains(&"spec.validations: Required value: validations or auditAnnotations must contain at least one item".to_owned()), "{got:?}");
        assert!(
            got.contains(&"spec.matchConstraints.resourceRules: Required value".to_owned()),
            "{got:?}"
        );
    }

    #[test]
    fn bindings_as_upstream() {
        let ok = json!({"spec": {"policyName": "p", "validationActions": ["Deny", "Audit"],
            "paramRef": {"name": "x", "parameterNotFoundAction": "Deny"}}});
        assert_eq!(fields(&binding(&ok, None)), Vec::<String>::new());
        let bad = json!({"spec": {"validationActions": ["Deny", "Warn", "Deny", "Nope"],
            "paramRef": {"name": "x", "selector": {}}}});
        let got = fields(&binding(&bad, None));
        assert!(
            got.contains(&"spec.policyName: Required value".to_owned()),
            "{got:?}"
        );
        assert!(
            got.contains(&"spec.validationActions[2]: Duplicate value: \"Deny\"".to_owned()),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|c| c.starts_with("spec.validationActions[3]: Unsupported value: \"Nope\"")),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|c| c.contains("must not contain both Deny and Warn")),
            "{got:?}"
        );
        assert!(
            got.contains(
                &"spec.paramRef.name: Forbidden: name and selector are mutually exclusive"
                    .to_owned()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(&"spec.paramRef.parameterNotFoundAction: Required value".to_owned()),
            "{got:?}"
        );
    }
}
