//! PodDisruptionBudgets and PriorityClasses as kube-apiserver 1.33 validates them: a
//! budget sets minAvailable or maxUnavailable (not both), each a count of at least zero
//! or a percentage up to 100%, with a valid selector and eviction policy; a priority
//! class of a user stays at or below 1000000000, `system-` names are the built-in
//! classes only, and its value and preemption policy never change.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    forbidden, invalid, invalid_int, invalid_shown, not_supported, quote, required, s, NEGATIVE_MSG,
};
use super::selector::selector_rules;

/// Go's `%#v` of an IntOrString holding a string.
fn int_or_string(v: &str) -> String {
    format!(
        "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
        quote(v)
    )
}

fn int_or_percent(field: &str, v: &Value, out: &mut Vec<StatusCause>) {
    match v {
        Value::Number(n) => {
            if let Some(n) = n.as_i64().filter(|n| *n < 0) {
                out.push(invalid_int(field, n, NEGATIVE_MSG));
            }
        }
        Value::String(p) => {
            let digits = p
                .strip_suffix('%')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            match digits {
                None => out.push(invalid_shown(
                    field,
                    &int_or_string(p),
                    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
                )),
                Some(d) if d.parse::<u64>().map_or(true, |n| n > 100) => {
                    out.push(invalid_shown(field, &int_or_string(p), "must not be greater than 100%"))
                }
                Some(_) => {}
            }
        }
        _ => {}
    }
}

/// A PodDisruptionBudget (the same rules on create and update).
pub(crate) fn pod_disruption_budget(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    let (min, max) = (spec.get("minAvailable"), spec.get("maxUnavailable"));
    if min.is_some() && max.is_some() {
        let policy = s(&spec, "unhealthyPodEvictionPolicy").map_or(
            "(*policy.UnhealthyPodEvictionPolicyType)(nil)".to_owned(),
            quote,
        );
        let shown = format!(
            "policy.PodDisruptionBudgetSpec{{MinAvailable:{}, Selector:{}, MaxUnavailable:{}, UnhealthyPodEvictionPolicy:{policy}}}",
            min.map_or_else(String::new, Value::to_string),
            spec.get("selector").map_or("(*v1.LabelSelector)(nil)".to_owned(), Value::to_string),
            max.map_or_else(String::new, Value::to_string),
        );
        causes.push(invalid_shown(
            "spec",
            &shown,
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (field, v) in [("spec.minAvailable", min), ("spec.maxUnavailable", max)] {
        if let Some(v) = v {
            int_or_percent(field, v, &mut causes);
        }
    }
    if let Some(sel) = spec.get("selector").filter(|s| s.is_object()) {
        selector_rules(sel, "spec.selector", &mut causes);
    }
    if let Some(p) = s(&spec, "unhealthyPodEvictionPolicy") {
        if !matches!(p, "AlwaysAllow" | "IfHealthyBudget") {
            causes.push(not_supported(
                "spec.unhealthyPodEvictionPolicy",
                p,
                &["AlwaysAllow", "IfHealthyBudget"],
            ));
        }
    }
    causes
}

/// The built-in classes: name and value.
const SYSTEM_CLASSES: [(&str, i64); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];
/// The highest value a user's class may have.
const USER_MAX: i64 = 1_000_000_000;

/// A PriorityClass: the create rules, or on update only what may not change.
pub(crate) fn priority_class(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let value = o.get("value").and_then(Value::as_i64).unwrap_or(0);
    let policy = s(o, "preemptionPolicy");
    if let Some(old) = old {
        let mut causes = Vec::new();
        if o.get("value") != old.get("value") {
            causes.push(forbidden("value", "may not be changed in an update."));
        }
        if policy != s(old, "preemptionPolicy") {
            causes.push(invalid(
                "preemptionPolicy",
                policy.unwrap_or(""),
                super::causes::IMMUTABLE_MSG,
            ));
        }
        return causes;
    }
    let mut causes = Vec::new();
    let name = o
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if name.starts_with("system-") {
        let global = o
            .get("globalDefault")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let why = match SYSTEM_CLASSES.iter().find(|(n, _)| *n == name) {
            None => Some(format!("{name} is not a known system priority class")),
            Some((_, v)) if *v != value => {
                Some(format!("value of {name} PriorityClass must be {v}"))
            }
            Some(_) if global => Some(format!(
                "globalDefault of {name} PriorityClass must be false"
            )),
            Some(_) => None,
        };
        if let Some(why) = why {
            causes.push(forbidden(
                "metadata.name",
                &format!("priority class names with 'system-' prefix are reserved for system use only. error: {why}"),
            ));
        }
    } else if value > USER_MAX {
        causes.push(forbidden(
            "value",
            "maximum allowed value of a user defined priority is 1000000000",
        ));
    }
    match policy {
        None | Some("") => causes.push(required("preemptionPolicy", "")),
        Some("PreemptLowerPriority" | "Never") => {}
        Some(p) => causes.push(not_supported(
            "preemptionPolicy",
            p,
            &["PreemptLowerPriority", "Never"],
        )),
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::super::causes::messages;
    use super::*;
    use serde_json::json;

    #[test]
    fn budgets_set_one_bound_in_range() {
        let both = json!({"spec": {"minAvailable": 1, "maxUnavailable": "150%"}});
        let got = messages(&pod_disruption_budget(&both, None));
        assert!(
            got[0].starts_with("spec: Invalid value: policy.PodDisruptionBudgetSpec{")
                && got[0].ends_with(": minAvailable and maxUnavailable cannot be both set"),
            "{got:?}"
        );
        assert_eq!(got[1], "spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}: must not be greater than 100%");
        let bad = json!({"spec": {"minAvailable": -1, "unhealthyPodEvictionPolicy": "Sometimes"}});
        assert_eq!(
            messages(&pod_disruption_budget(&bad, None)),
            [
                "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0",
                "spec.unhealthyPodEvictionPolicy: Unsupported value: \"Sometimes\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\""
            ]
        );
        assert!(
            pod_disruption_budget(&json!({"spec": {"maxUnavailable": "25%"}}), None).is_empty()
        );
    }

    #[test]
    fn user_classes_are_capped_and_keep_their_value() {
        let high = json!({"metadata": {"name": "pc"}, "value": 2_000_000_000i64, "preemptionPolicy": "PreemptLowerPriority"});
        assert_eq!(
            messages(&priority_class(&high, None)),
            ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]
        );
        let system =
            json!({"metadata": {"name": "system-mine"}, "value": 1, "preemptionPolicy": "Never"});
        assert_eq!(
            messages(&priority_class(&system, None)),
            ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"]
        );
        let old = json!({"metadata": {"name": "pc"}, "value": 10, "preemptionPolicy": "Never"});
        let new = json!({"metadata": {"name": "pc"}, "value": 11, "preemptionPolicy": "PreemptLowerPriority"});
        assert_eq!(
            messages(&priority_class(&new, Some(&old))),
            [
                "value: Forbidden: may not be changed in an update.",
                "preemptionPolicy: Invalid value: \"PreemptLowerPriority\": field is immutable"
            ]
        );
    }
}
