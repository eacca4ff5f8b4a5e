//! ClusterRole aggregation: the rules an aggregated ClusterRole should hold are those of
//! every other ClusterRole its `aggregationRule.clusterRoleSelectors` match, in name
//! order, each distinct rule once (upstream's clusterrole-aggregation controller). An
//! aggregated role that gathers another aggregated role gets that role's stored rules, so
//! chains settle over successive passes, as upstream's do.

use serde_json::{Map, Value};

use crate::str_at;

/// The field manager of the aggregation controller's writes.
pub const AGGREGATION_MANAGER: &str = "clusterrole-aggregation-controller";

/// Whether every `matchLabels` entry of a label selector holds for `labels` (and every
/// `matchExpressions` entry, for the operators In, NotIn, Exists, DoesNotExist).
fn selector_matches(selector: &Value, labels: &Map<String, Value>) -> bool {
    let labels_ok = selector
        .get("matchLabels")
        .and_then(Value::as_object)
        .is_none_or(|m| m.iter().all(|(k, v)| labels.get(k) == Some(v)));
    let exprs_ok = selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .is_none_or(|exprs| {
            exprs.iter().all(|e| {
                let key = str_at(e, "/key");
                let values: Vec<&str> = e
                    .get("values")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let have = labels.get(key).and_then(Value::as_str);
                let listed = |h: &str| values.contains(&h);
                match str_at(e, "/operator") {
                    "In" => have.is_some_and(listed),
                    "NotIn" => !have.is_some_and(listed),
                    "Exists" => have.is_some(),
                    "DoesNotExist" => have.is_none(),
                    _ => false,
                }
            })
        });
    labels_ok && exprs_ok
}

/// The rules `role` should hold, or None when it has no aggregationRule. `all` is every
/// ClusterRole.
pub fn aggregated_rules(all: &[Value], role: &Value) -> Option<Vec<Value>> {
    let selectors = role
        .get("aggregationRule")
        .filter(|a| !a.is_null())?
        .get("clusterRoleSelectors")
        .and_then(Value::as_array);
    let name = str_at(role, "/metadata/name");
    let mut rules: Vec<Value> = Vec::new();
    for selector in selectors.into_iter().flatten() {
        let mut matched: Vec<&Value> = all
            .iter()
            .filter(|other| str_at(other, "/metadata/name") != name)
            .filter(|other| {
                let empty = Map::new();
                let labels = other
                    .pointer("/metadata/labels")
                    .and_then(Value::as_object)
                    .unwrap_or(&empty);
                selector_matches(selector, labels)
            })
            .collect();
        matched.sort_by_key(|r| str_at(r, "/metadata/name"));
        for other in matched {
            for rule in other
                .get("rules")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if !rules.contains(rule) {
                    rules.push(rule.clone());
                }
            }
        }
    }
    Some(rules)
}

/// Applies aggregation to `all` until nothing changes (at most one pass per role), as the
/// controller's successive writes would: for tests and for policies built from objects
/// that no controller has seen.
pub fn settle(all: &mut [Value]) {
    for _ in 0..=all.len() {
        let mut changed = false;
        for i in 0..all.len() {
            if let Some(rules) = aggregated_rules(all, &all[i]) {
                if all[i].get("rules") != Some(&Value::Array(rules.clone())) {
                    all[i]["rules"] = Value::Array(rules);
                    changed = true;
                }
            }
        }
        if !changed {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn role(name: &str, labels: Value, rules: Value) -> Value {
        json!({"metadata": {"name": name, "labels": labels}, "rules": rules})
    }

    #[test]
    fn gathers_matching_roles_in_name_order_once_each() {
        let get = json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]});
        let list = json!({"verbs": ["list"], "apiGroups": [""], "resources": ["pods"]});
        let mut all = vec![
            json!({"metadata": {"name": "top", "labels": {}},
                   "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"to-top": "true"}}]},
                   "rules": [{"verbs": ["delete"], "apiGroups": [""], "resources": ["pods"]}]}),
            role(
                "b",
                json!({"to-top": "true"}),
                json!([list.clone(), get.clone()]),
            ),
            role("a", json!({"to-top": "true"}), json!([get.clone()])),
            role("c", json!({"to-top": "false"}), json!([{"verbs": ["*"]}])),
        ];
        assert_eq!(
            aggregated_rules(&all, &all[0]),
            Some(vec![get.clone(), list.clone()])
        );
        assert_eq!(aggregated_rules(&all, &all[1]), None);
        // A chain: `mid` gathers `a` and is gathered by `top2`.
        all.push(json!({"metadata": {"name": "mid", "labels": {"to-top2": "true"}},
            "aggregationRule": {"clusterRoleSelectors": [{"matchExpressions": [{"key": "to-top", "operator": "In", "values": ["true"]}]}]}}));
        all.push(json!({"metadata": {"name": "top2"},
            "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"to-top2": "true"}}]}}));
        settle(&mut all);
        assert_eq!(all[5]["rules"], json!([get, list]));
        assert_eq!(all[0]["rules"], all[5]["rules"]);
    }
}
