use super::*;
use crate::validation::causes::messages;
use serde_json::json;

const QNAME: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABELVAL: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

#[test]
fn tolerations_follow_upstream() {
    let mut out = Vec::new();
    tolerations(
        &[
            json!({"key": "", "operator": "Equal", "value": "x"}),
            json!({"key": "a b", "operator": "Exists", "value": "v", "effect": "NoSchedule", "tolerationSeconds": 10}),
            json!({"key": "k", "operator": "In"}),
            json!({"key": "k", "effect": "Sometimes"}),
        ],
        "spec.tolerations",
        &mut out,
    );
    assert_eq!(
        messages(&out),
        [
            "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"".to_owned(),
            format!("spec.tolerations[1].key: Invalid value: \"a b\": {QNAME}"),
            "spec.tolerations[1].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set".to_owned(),
            "spec.tolerations[1].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'".to_owned(),
            "spec.tolerations[2].operator: Unsupported value: \"In\": supported values: \"Equal\", \"Exists\"".to_owned(),
            "spec.tolerations[3].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"".to_owned(),
        ]
    );
}

#[test]
fn node_affinity_follows_upstream() {
    let mut out = Vec::new();
    affinity(
        &json!({"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{
                "matchExpressions": [
                    {"key": "zone", "operator": "In"},
                    {"key": "a/b/c", "operator": "Exists", "values": ["x"]},
                    {"key": "gpu", "operator": "Gt", "values": ["1", "2"]},
                    {"key": "tier", "operator": "Foo", "values": ["bad value"]}],
                "matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": ["Node_1"]},
                    {"key": "spec.nodeName", "operator": "Exists"}]}]},
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0,
                "preference": {"matchExpressions": [{"key": "k", "operator": "In", "values": ["bad value"]}]}}]}}),
        "spec.affinity",
        &mut out,
    );
    let r = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";
    let got = messages(&out);
    assert_eq!(got.len(), 10, "{got:#?}");
    assert_eq!(got[0], format!("{r}.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"));
    assert_eq!(got[1], format!("{r}.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    assert!(
        got[2].starts_with(&format!(
            "{r}.matchExpressions[1].key: Invalid value: \"a/b/c\": a qualified name must consist"
        )),
        "{}",
        got[2]
    );
    assert_eq!(got[3], format!("{r}.matchExpressions[2].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"));
    assert_eq!(got[4], format!("{r}.matchExpressions[3].operator: Invalid value: \"Foo\": not a valid selector operator"));
    assert_eq!(
        got[5],
        format!("{r}.matchExpressions[3].values[0]: Invalid value: \"bad value\": {LABELVAL}")
    );
    assert!(got[6].starts_with(&format!(
        "{r}.matchFields[0].values[0]: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain"
    )));
    assert_eq!(
        got[7],
        format!(
            "{r}.matchFields[1].operator: Invalid value: \"Exists\": not a valid selector operator"
        )
    );
    assert_eq!(got[8], format!("{r}.matchFields[1].key: Invalid value: \"spec.nodeName\": not a valid field selector key"));
    assert_eq!(got[9], "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100");
}

#[test]
fn pod_affinity_terms_follow_upstream() {
    let mut out = Vec::new();
    affinity(
        &json!({"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
            "labelSelector": {"matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]}]},
            "matchLabelKeys": ["app"], "mismatchLabelKeys": ["app"],
            "namespaces": ["Bad_NS"], "topologyKey": ""}]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 101,
                "podAffinityTerm": {"matchLabelKeys": ["x"], "topologyKey": "zone"}}]}}),
        "spec.affinity",
        &mut out,
    );
    let t = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
    let got = messages(&out);
    assert!(
        got[0].starts_with(&format!(
            "{t}.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label"
        )),
        "{got:#?}"
    );
    assert_eq!(
        got[1..],
        [
            format!("{t}[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"),
            format!("{t}.matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and mismatchLabelKeys"),
            format!("{t}.topologyKey: Required value: can not be empty"),
            format!("{t}.topologyKey: Invalid value: \"\": name part must be non-empty"),
            format!("{t}.topologyKey: Invalid value: \"\": {QNAME}"),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100".to_owned(),
            "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set".to_owned(),
        ]
    );
}

#[test]
fn topology_spread_follows_upstream() {
    let mut out = Vec::new();
    topology_spread(
        &[
            json!({"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "minDomains": 0,
                "labelSelector": {"matchLabels": {"app": "web"}}, "matchLabelKeys": ["app"]}),
            json!({"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "nodeAffinityPolicy": "Maybe"}),
            json!({"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2,
                "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In"}]}}),
        ],
        "spec.topologySpreadConstraints",
        &mut out,
    );
    let c = "spec.topologySpreadConstraints";
    assert_eq!(
        messages(&out),
        [
            format!("{c}[0].maxSkew: Invalid value: 0: must be greater than zero"),
            format!("{c}[0].{{topologyKey, whenUnsatisfiable}}: Duplicate value: \"{{zone, DoNotSchedule}}\""),
            format!("{c}[0].minDomains: Invalid value: 0: must be greater than zero"),
            format!("{c}[0].matchLabelKeys[0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"),
            format!("{c}[1].nodeAffinityPolicy: Unsupported value: \"Maybe\": supported values: \"Honor\", \"Ignore\""),
            format!("{c}[2].topologyKey: Required value: can not be empty"),
            format!("{c}[2].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"),
            format!("{c}[2].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
        ]
    );
}
