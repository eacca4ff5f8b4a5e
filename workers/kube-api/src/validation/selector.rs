//! Label selectors: whether one selects a set of labels, its syntax rules, and how
//! upstream prints one in an error.

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

use super::causes::{
    arr, each_invalid, forbidden, go_list_or_nil, go_string_map, invalid, label_value_msgs, labels,
    obj, qualified_name_msgs, quote, required, s,
};

/// Whether a label selector (`matchLabels` and `matchExpressions`) selects `labels`.
/// A malformed requirement selects nothing.
pub(crate) fn selector_matches(sel: &Value, labels: Option<&Map<String, Value>>) -> bool {
    let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    let labels_ok = obj(sel, "matchLabels")
        .into_iter()
        .flatten()
        .all(|(k, v)| v.as_str().is_some() && get(k) == v.as_str());
    labels_ok
        && arr(sel, "matchExpressions").iter().all(|e| {
            let key = s(e, "key").unwrap_or("");
            let values: Vec<&str> = arr(e, "values").iter().filter_map(Value::as_str).collect();
            match s(e, "operator") {
                Some("In") => get(key).is_some_and(|v| values.contains(&v)),
                Some("NotIn") => get(key).is_none_or(|v| !values.contains(&v)),
                Some("Exists") => get(key).is_some(),
                Some("DoesNotExist") => get(key).is_none(),
                _ => false,
            }
        })
}

/// A selector as upstream prints it in a field error: `%#v` of the `metav1.LabelSelector`
/// the pointer points to (`v1.LabelSelector{MatchLabels:map[string]string{"a":"b"},
/// MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`).
pub(crate) fn show_selector(sel: &Value) -> String {
    let exprs = match sel.get("matchExpressions").and_then(Value::as_array) {
        None => "[]v1.LabelSelectorRequirement(nil)".to_owned(),
        Some(list) => {
            let items: Vec<String> = list
                .iter()
                .map(|e| {
                    format!(
                        "v1.LabelSelectorRequirement{{Key:{}, Operator:{}, Values:{}}}",
                        quote(s(e, "key").unwrap_or("")),
                        quote(s(e, "operator").unwrap_or("")),
                        go_list_or_nil("string", e.get("values")),
                    )
                })
                .collect();
            format!("[]v1.LabelSelectorRequirement{{{}}}", items.join(", "))
        }
    };
    format!(
        "v1.LabelSelector{{MatchLabels:{}, MatchExpressions:{exprs}}}",
        go_string_map(sel.get("matchLabels").and_then(Value::as_object))
    )
}

/// The syntax rules of a selector at `path` (apimachinery's ValidateLabelSelector):
/// label keys and values, then each expression.
pub(crate) fn selector_rules(sel: &Value, path: &str, out: &mut Vec<StatusCause>) {
    out.extend(labels(
        obj(sel, "matchLabels"),
        &format!("{path}.matchLabels"),
    ));
    for (i, e) in arr(sel, "matchExpressions").iter().enumerate() {
        requirement_rules(
            e,
            &format!("{path}.matchExpressions[{i}]"),
            false,
            true,
            out,
        );
    }
}

/// One requirement at `p`: its operator (`Gt`/`Lt` too in a node selector, `numeric`),
/// its key, and its values as label values when `check_values`.
pub(crate) fn requirement_rules(
    e: &Value,
    p: &str,
    numeric: bool,
    check_values: bool,
    out: &mut Vec<StatusCause>,
) {
    let values = arr(e, "values");
    match s(e, "operator").unwrap_or("") {
        "In" | "NotIn" if values.is_empty() => out.push(required(
            &format!("{p}.values"),
            "must be specified when `operator` is 'In' or 'NotIn'",
        )),
        "Exists" | "DoesNotExist" if !values.is_empty() => out.push(forbidden(
            &format!("{p}.values"),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        )),
        "Gt" | "Lt" if numeric && values.len() != 1 => out.push(required(
            &format!("{p}.values"),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
        )),
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        "Gt" | "Lt" if numeric => {}
        op => out.push(invalid(
            &format!("{p}.operator"),
            op,
            "not a valid selector operator",
        )),
    }
    let key = s(e, "key").unwrap_or("");
    out.extend(each_invalid(
        &format!("{p}.key"),
        key,
        qualified_name_msgs(key),
    ));
    if check_values {
        for (j, v) in values.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            out.extend(each_invalid(
                &format!("{p}.values[{j}]"),
                v,
                label_value_msgs(v),
            ));
        }
    }
}

/// Whether a selector has neither matchLabels nor matchExpressions.
pub(crate) fn is_empty(sel: &Value) -> bool {
    obj(sel, "matchLabels").is_none_or(Map::is_empty) && arr(sel, "matchExpressions").is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matching() {
        let l = json!({"app": "a", "tier": "web"});
        let l = l.as_object();
        assert!(selector_matches(&json!({"matchLabels": {"app": "a"}}), l));
        assert!(!selector_matches(&json!({"matchLabels": {"app": "b"}}), l));
        let expr = |k: &str, op: &str, v: Value| json!({"matchExpressions": [{"key": k, "operator": op, "values": v}]});
        assert!(selector_matches(&expr("tier", "In", json!(["web"])), l));
        assert!(selector_matches(&expr("x", "NotIn", json!(["web"])), l));
        assert!(selector_matches(&expr("x", "DoesNotExist", json!(null)), l));
        assert!(!selector_matches(&expr("x", "Exists", json!(null)), l));
        assert!(!selector_matches(&expr("x", "Bogus", json!(null)), l));
        assert!(is_empty(&json!({})));
        assert!(!is_empty(&expr("x", "Exists", json!(null))));
    }

    #[test]
    fn printing_and_rules() {
        assert_eq!(
            show_selector(&json!({"matchLabels": {"b": "2", "a": "1"}})),
            r#"v1.LabelSelector{MatchLabels:map[string]string{"a":"1", "b":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"#
        );
        let sel = json!({"matchExpressions": [
            {"key": "a", "operator": "In"},
            {"key": "b", "operator": "Exists", "values": ["x"]},
            {"key": "c", "operator": "Near"},
            {"key": "-d", "operator": "Exists"}
        ], "matchLabels": {"k": "a b"}});
        let mut out = Vec::new();
        selector_rules(&sel, "spec.selector", &mut out);
        let fields: Vec<&str> = out.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "spec.selector.matchLabels",
                "spec.selector.matchExpressions[0].values",
                "spec.selector.matchExpressions[1].values",
                "spec.selector.matchExpressions[2].operator",
                "spec.selector.matchExpressions[3].key",
            ]
        );
        assert_eq!(
            out[1].message,
            "Required value: must be specified when `operator` is 'In' or 'NotIn'"
        );
    }
}
