//! RuntimeClasses as kube-apiserver 1.33 validates them: a handler that is a DNS label
//! (fixed once set), pod overhead of container resources (whose causes upstream files
//! under `overhead.limits`), and scheduling constraints: a node selector of labels and
//! valid, distinct tolerations (upstream's paths for these repeat `tolerations`).

use std::collections::BTreeSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{arr, dns_label_msgs, each_invalid, invalid, labels, quote, s, IMMUTABLE_MSG};
use super::limits::{container_resource_name, quantity_value};

/// `%#v` of a toleration's list key (TolerationSeconds left nil, as upstream builds it).
fn go_toleration(t: &Value) -> String {
    let f = |k: &str| quote(s(t, k).unwrap_or(""));
    format!(
        "core.Toleration{{Key:{}, Operator:{}, Value:{}, Effect:{}, TolerationSeconds:(*int64)(nil)}}",
        f("key"),
        f("operator"),
        f("value"),
        f("effect")
    )
}

/// A RuntimeClass; its handler is fixed once set.
pub(crate) fn runtime_class(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let handler = s(o, "handler").unwrap_or("");
    out.extend(each_invalid("handler", handler, dns_label_msgs(handler)));
    if let Some(fixed) = o.pointer("/overhead/podFixed").and_then(Value::as_object) {
        let mut names: Vec<&String> = fixed.keys().collect();
        names.sort();
        for name in names {
            let at = format!("overhead.limits[{name}]");
            out.extend(container_resource_name(name, &at));
            out.extend(quantity_value(name, &fixed[name.as_str()], &at));
        }
    }
    if let Some(sched) = o.get("scheduling").filter(|v| v.is_object()) {
        out.extend(labels(
            sched.get("nodeSelector").and_then(Value::as_object),
            "scheduling.nodeSelector",
        ));
        let list = arr(sched, "tolerations");
        super::pod_scheduling::tolerations(list, "scheduling.tolerations.tolerations", &mut out);
        let mut seen = BTreeSet::new();
        for (i, t) in list.iter().enumerate() {
            let key = go_toleration(t);
            if !seen.insert(key.clone()) {
                out.push(StatusCause {
                    reason: "FieldValueDuplicate".into(),
                    message: format!("Duplicate value: {key}"),
                    field: format!("scheduling.tolerations[{i}]"),
                });
            }
        }
    }
    if let Some(old) = old {
        if s(old, "handler").unwrap_or("") != handler {
            out.push(invalid("handler", handler, IMMUTABLE_MSG));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validation::causes::messages;

    #[test]
    fn runtime_class_rules() {
        let rc = json!({"handler": "a.b", "overhead": {"podFixed": {"cpu": "-1", "foo": "1"}},
        "scheduling": {"nodeSelector": {"bad key": "v"}, "tolerations": [
            {"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"},
            {"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"},
            {"operator": "Equal", "tolerationSeconds": 5, "effect": "Boom"},
        ]}});
        let got = messages(&runtime_class(&rc, None));
        assert_eq!(
            got[0],
            "handler: Invalid value: \"a.b\": must not contain dots"
        );
        assert_eq!(
            got[1],
            "overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"
        );
        assert!(got[2].starts_with(
            "overhead.limits[foo]: Invalid value: \"foo\": must be a standard resource type"
        ));
        assert_eq!(got[3], "overhead.limits[foo]: Invalid value: \"foo\": must be a standard resource for containers");
        assert!(got[4].starts_with(
            "scheduling.nodeSelector: Invalid value: \"bad key\": name part must consist of"
        ));
        assert_eq!(&got[5..], [
            "scheduling.tolerations.tolerations[2].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            "scheduling.tolerations.tolerations[2].effect: Invalid value: \"Boom\": effect must be 'NoExecute' when `tolerationSeconds` is set",
            "scheduling.tolerations.tolerations[2].effect: Unsupported value: \"Boom\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
            "scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:\"k\", Operator:\"Equal\", Value:\"v\", Effect:\"NoSchedule\", TolerationSeconds:(*int64)(nil)}",
        ]);
        let old = json!({"handler": "runc"});
        let new = json!({"handler": "crun"});
        assert_eq!(
            messages(&runtime_class(&new, Some(&old))),
            ["handler: Invalid value: \"crun\": field is immutable"]
        );
    }
}
