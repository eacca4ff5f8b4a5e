//! ResourceQuotas as kube-apiserver 1.33 validates them: hard limits on standard or
//! fully qualified resources with valid quantities, and scopes (listed, or in a scope
//! selector) that fit those resources and each other; the scopes fixed once set, as a
//! set. Causes come in resource-name order (upstream's follow Go map order).

use std::collections::BTreeSet;

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

use super::causes::{
    arr, go_list_or_nil, go_strings, invalid, invalid_shown, required, s, show, IMMUTABLE_MSG,
};
use super::limits::{is_standard_for_quota, quantity_value, resource_name, QUOTA_SCOPES};

/// The quota resources a scope may apply to (`None`: any).
fn scope_resources(scope: &str) -> Option<&'static [&'static str]> {
    const POD_COMPUTE: &[&str] = &[
        "pods",
        "cpu",
        "memory",
        "requests.cpu",
        "requests.memory",
        "limits.cpu",
        "limits.memory",
    ];
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => Some(POD_COMPUTE),
        "BestEffort" => Some(&["pods"]),
        "VolumeAttributesClass" => Some(&["persistentvolumeclaims", "requests.storage"]),
        _ => None,
    }
}

/// The standard quota resources of `hard` a scope does not apply to (sorted).
fn misapplied(scope: &str, hard: &[&str]) -> usize {
    let Some(allowed) = scope_resources(scope) else {
        return 0;
    };
    hard.iter()
        .filter(|k| is_standard_for_quota(k) && !allowed.contains(k))
        .count()
}

fn conflicting(scopes: &BTreeSet<&str>) -> usize {
    [
        ("BestEffort", "NotBestEffort"),
        ("Terminating", "NotTerminating"),
    ]
    .iter()
    .filter(|(a, b)| scopes.contains(a) && scopes.contains(b))
    .count()
}

/// A ResourceQuota: its hard limits, scopes and scope selector; the scopes fixed once set.
pub(crate) fn resource_quota(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    let hard_map: Map<String, Value> = spec
        .get("hard")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut hard: Vec<&str> = hard_map.keys().map(String::as_str).collect();
    hard.sort_unstable();
    for k in &hard {
        let at = format!("spec.hard[{k}]");
        let mut causes = resource_name(k, &at);
        if !k.contains('/') && !is_standard_for_quota(k) {
            causes.push(invalid(&at, k, "must be a standard resource for quota"));
        }
        out.extend(causes);
        out.extend(quantity_value(k, &hard_map[*k], &at));
    }
    let scopes_value = spec.get("scopes");
    let scopes: Vec<&str> = arr(&spec, "scopes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if !scopes.is_empty() {
        let shown = go_list_or_nil("core.ResourceQuotaScope", scopes_value);
        for scope in &scopes {
            if !QUOTA_SCOPES.contains(scope) {
                out.push(invalid_shown("spec.scopes", &shown, "unsupported scope"));
            }
            for _ in 0..misapplied(scope, &hard) {
                out.push(invalid_shown(
                    "spec.scopes",
                    &shown,
                    "unsupported scope applied to resource",
                ));
            }
        }
        let set: BTreeSet<&str> = scopes.iter().copied().collect();
        for _ in 0..conflicting(&set) {
            out.push(invalid_shown("spec.scopes", &shown, "conflicting scopes"));
        }
    }
    if let Some(sel) = spec.get("scopeSelector").filter(|s| s.is_object()) {
        scope_selector(sel, &hard, scopes_value, &mut out);
    }
    if let Some(old) = old {
        let set = |o: &Value| -> BTreeSet<String> {
            o.pointer("/spec/scopes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        if set(o) != set(old) {
            out.push(invalid_shown(
                "spec.scopes",
                &go_list_or_nil("core.ResourceQuotaScope", scopes_value),
                IMMUTABLE_MSG,
            ));
        }
    }
    out
}

/// `%#v` of a scope selector, as the misapplied-scope cause prints it.
fn go_scope_selector(sel: &Value) -> String {
    let reqs: Vec<String> = arr(sel, "matchExpressions")
        .iter()
        .map(|e| {
            let values = go_list_or_nil("string", e.get("values"));
            format!(
                "core.ScopedResourceSelectorRequirement{{ScopeName:{}, Operator:{}, Values:{values}}}",
                show(e.get("scopeName").unwrap_or(&Value::String(String::new()))),
                show(e.get("operator").unwrap_or(&Value::String(String::new()))),
            )
        })
        .collect();
    format!(
        "core.ScopeSelector{{MatchExpressions:[]core.ScopedResourceSelectorRequirement{{{}}}}}",
        reqs.join(", ")
    )
}

fn scope_selector(sel: &Value, hard: &[&str], scopes: Option<&Value>, out: &mut Vec<StatusCause>) {
    const AT: &str = "spec.scopeSelector.matchExpressions";
    let mut names = BTreeSet::new();
    for e in arr(sel, "matchExpressions") {
        let name = s(e, "scopeName").unwrap_or("");
        names.insert(name);
        if !QUOTA_SCOPES.contains(&name) {
            out.push(invalid(
                &format!("{AT}.scopeName"),
                name,
                "unsupported scope",
            ));
        }
        for _ in 0..misapplied(name, hard) {
            out.push(invalid_shown(
                AT,
                &go_scope_selector(sel),
                "unsupported scope applied to resource",
            ));
        }
        let op = s(e, "operator").unwrap_or("");
        if matches!(
            name,
            "BestEffort"
                | "NotBestEffort"
                | "Terminating"
                | "NotTerminating"
                | "CrossNamespacePodAffinity"
        ) && op != "Exists"
        {
            out.push(invalid(
                &format!("{AT}.operator"),
                op,
                "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            ));
        }
        let values = arr(e, "values");
        match op {
            "In" | "NotIn" if values.is_empty() => out.push(required(
                &format!("{AT}.values"),
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            )),
            "In" | "NotIn" => {}
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                out.push(invalid_shown(
                    &format!("{AT}.values"),
                    &go_strings(values),
                    "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
                ));
            }
            "Exists" | "DoesNotExist" => {}
            other => out.push(invalid(
                &format!("{AT}.operator"),
                other,
                "not a valid selector operator",
            )),
        }
    }
    for _ in 0..conflicting(&names) {
        out.push(invalid_shown(
            AT,
            &go_list_or_nil("core.ResourceQuotaScope", scopes),
            "conflicting scopes",
        ));
    }
}

#[cfg(test)]
#[path = "quota_tests.rs"]
mod tests;
