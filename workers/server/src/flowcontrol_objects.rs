//! The API Priority and Fairness configuration kube-apiserver v1.33 keeps in every
//! cluster (k8s.io/apiserver `pkg/apis/flowcontrol/bootstrap`): the mandatory
//! PriorityLevelConfigurations and FlowSchemas (`exempt`, `catch-all`), which the server
//! always puts back, and the suggested ones, which operators may edit once they set the
//! auto-update annotation to "false". Pure data, each object carrying
//! `apf.kubernetes.io/autoupdate-spec: "true"`, in upstream's list order. The kube-api
//! worker keeps them in storage; the front door classifies by the mandatory ones while
//! they are missing there.

use serde_json::{json, Value};

/// The annotation that lets the server keep the object's spec as it ships it.
pub const AUTOUPDATE_ANNOTATION: &str = "apf.kubernetes.io/autoupdate-spec";

const API_VERSION: &str = "flowcontrol.apiserver.k8s.io/v1";

/// The groups and users upstream's objects name.
const MASTERS: &str = "system:masters";
const AUTHENTICATED: &str = "system:authenticated";
const UNAUTHENTICATED: &str = "system:unauthenticated";
const NODES: &str = "system:nodes";
const SERVICE_ACCOUNTS: &str = "system:serviceaccounts";
const CONTROLLER_MANAGER: &str = "system:kube-controller-manager";
const SCHEDULER: &str = "system:kube-scheduler";

fn plc(name: &str, spec: Value) -> Value {
    json!({
        "apiVersion": API_VERSION,
        "kind": "PriorityLevelConfiguration",
        "metadata": {"name": name, "annotations": {AUTOUPDATE_ANNOTATION: "true"}},
        "spec": spec,
    })
}

/// A Limited level that queues: shares, lendable percent, queues, hand size; every
/// suggested level has a queue length limit of 50.
fn queuing(name: &str, shares: i64, lendable: i64, queues: i64, hand: i64) -> Value {
    plc(
        name,
        json!({"type": "Limited", "limited": {
            "nominalConcurrencyShares": shares,
            "lendablePercent": lendable,
            "limitResponse": {"type": "Queue", "queuing": {
                "queues": queues, "handSize": hand, "queueLengthLimit": 50}},
        }}),
    )
}

/// A FlowSchema; `method` is the distinguisher method type, none when empty.
fn fs(name: &str, level: &str, precedence: i64, method: &str, rule: Value) -> Value {
    let mut spec = json!({
        "priorityLevelConfiguration": {"name": level},
        "matchingPrecedence": precedence,
        "rules": [rule],
    });
    if !method.is_empty() {
        spec["distinguisherMethod"] = json!({"type": method});
    }
    json!({
        "apiVersion": API_VERSION,
        "kind": "FlowSchema",
        "metadata": {"name": name, "annotations": {AUTOUPDATE_ANNOTATION: "true"}},
        "spec": spec,
    })
}

fn groups(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "Group", "group": {"name": n}}))
        .collect()
}

fn users(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "User", "user": {"name": n}}))
        .collect()
}

/// Service accounts of `kube-system`.
fn kube_system_accounts(names: &[&str]) -> Vec<Value> {
    names
        .iter()
        .map(|n| json!({"kind": "ServiceAccount", "serviceAccount": {"name": n, "namespace": "kube-system"}}))
        .collect()
}

/// A resource rule over every namespace (`*`), and cluster-scoped objects when `cluster`.
fn resources(verbs: &[&str], groups: &[&str], resources: &[&str], cluster: bool) -> Value {
    let mut rule = json!({"verbs": verbs, "apiGroups": groups, "resources": resources,
        "namespaces": ["*"]});
    if cluster {
        rule["clusterScope"] = json!(true);
    }
    rule
}

/// Every request: all resources everywhere and all non-resource URLs.
fn everything(subjects: Vec<Value>) -> Value {
    json!({
        "subjects": subjects,
        "resourceRules": [resources(&["*"], &["*"], &["*"], true)],
        "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
    })
}

/// The mandatory priority levels: `catch-all` (5 shares, Reject) and `exempt`.
pub fn mandatory_priority_levels() -> Vec<Value> {
    vec![
        plc(
            "catch-all",
            json!({"type": "Limited", "limited": {
                "nominalConcurrencyShares": 5, "lendablePercent": 0,
                "limitResponse": {"type": "Reject"}}}),
        ),
        plc(
            "exempt",
            json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 0, "lendablePercent": 0}}),
        ),
    ]
}

/// The mandatory FlowSchemas: `exempt` (system:masters, precedence 1) and `catch-all`.
pub fn mandatory_flow_schemas() -> Vec<Value> {
    vec![
        fs("exempt", "exempt", 1, "", everything(groups(&[MASTERS]))),
        fs(
            "catch-all",
            "catch-all",
            10000,
            "ByUser",
            everything(groups(&[UNAUTHENTICATED, AUTHENTICATED])),
        ),
    ]
}

/// The suggested priority levels.
pub fn suggested_priority_levels() -> Vec<Value> {
    vec![
        queuing("system", 30, 33, 64, 6),
        queuing("node-high", 40, 25, 64, 6),
        queuing("leader-election", 10, 0, 16, 4),
        queuing("workload-high", 40, 50, 128, 6),
        queuing("workload-low", 100, 90, 128, 6),
        queuing("global-default", 20, 50, 128, 6),
    ]
}

/// The suggested FlowSchemas.
pub fn suggested_flow_schemas() -> Vec<Value> {
    let leases = |verbs: &[&str]| resources(verbs, &["coordination.k8s.io"], &["leases"], false);
    let get_create_update = ["get", "create", "update"];
    vec![
        fs(
            "system-nodes",
            "system",
            500,
            "ByUser",
            everything(groups(&[NODES])),
        ),
        fs(
            "system-node-high",
            "node-high",
            400,
            "ByUser",
            json!({
                "subjects": groups(&[NODES]),
                "resourceRules": [
                    resources(&["*"], &[""], &["nodes", "nodes/status"], true),
                    leases(&["*"]),
                ],
            }),
        ),
        fs(
            "probes",
            "exempt",
            2,
            "",
            json!({
                "subjects": groups(&[UNAUTHENTICATED, AUTHENTICATED]),
                "nonResourceRules": [{"verbs": ["get"],
                    "nonResourceURLs": ["/healthz", "/readyz", "/livez"]}],
            }),
        ),
        fs(
            "system-leader-election",
            "leader-election",
            100,
            "ByUser",
            json!({
                "subjects": ([users(&[CONTROLLER_MANAGER, SCHEDULER]), kube_system_accounts(&["*"])]
                    .concat()),
                "resourceRules": [leases(&get_create_update)],
            }),
        ),
        fs(
            "workload-leader-election",
            "leader-election",
            200,
            "ByUser",
            json!({
                "subjects": kube_system_accounts(&["*"]),
                "resourceRules": [
                    resources(&get_create_update, &[""], &["endpoints", "configmaps"], false),
                    leases(&get_create_update),
                ],
            }),
        ),
        fs(
            "endpoint-controller",
            "workload-high",
            150,
            "ByUser",
            json!({
                "subjects": ([
                    users(&[CONTROLLER_MANAGER]),
                    kube_system_accounts(&["endpoint-controller", "endpointslicemirroring-controller"]),
                ].concat()),
                "resourceRules": [resources(&get_create_update, &[""], &["endpoints"], false)],
            }),
        ),
        fs(
            "kube-controller-manager",
            "workload-high",
            800,
            "ByNamespace",
            everything(users(&[CONTROLLER_MANAGER])),
        ),
        fs(
            "kube-scheduler",
            "workload-high",
            800,
            "ByNamespace",
            everything(users(&[SCHEDULER])),
        ),
        fs(
            "kube-system-service-accounts",
            "workload-high",
            900,
            "ByNamespace",
            everything(kube_system_accounts(&["*"])),
        ),
        fs(
            "service-accounts",
            "workload-low",
            9000,
            "ByUser",
            everything(groups(&[SERVICE_ACCOUNTS])),
        ),
        fs(
            "global-default",
            "global-default",
            9900,
            "ByUser",
            everything(groups(&[UNAUTHENTICATED, AUTHENTICATED])),
        ),
    ]
}

/// The spec a mandatory object of `kind` named `name` must have, if it is one.
pub fn mandatory_spec(kind: &str, name: &str) -> Option<Value> {
    let all = match kind {
        "FlowSchema" => mandatory_flow_schemas(),
        "PriorityLevelConfiguration" => mandatory_priority_levels(),
        _ => return None,
    };
    all.into_iter()
        .find(|o| o.pointer("/metadata/name").and_then(Value::as_str) == Some(name))
        .and_then(|mut o| o.get_mut("spec").map(Value::take))
}

/// `v` with what Go's semantic equality does not tell apart removed: null, false, empty
/// strings and empty lists are all a Go zero value or a nil slice. Zero numbers and empty
/// objects stay (they may be set pointers).
pub fn normalized(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !is_zeroish(x))
                .map(|(k, x)| (k.clone(), normalized(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalized).collect()),
        other => other.clone(),
    }
}

fn is_zeroish(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// Whether two specs are equal as upstream's semantic equality sees them.
pub fn specs_equal(a: &Value, b: &Value) -> bool {
    normalized(a) == normalized(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(objs: &[Value]) -> Vec<&str> {
        objs.iter()
            .map(|o| o["metadata"]["name"].as_str().unwrap_or(""))
            .collect()
    }

    #[test]
    fn upstream_lists() {
        assert_eq!(names(&mandatory_priority_levels()), ["catch-all", "exempt"]);
        assert_eq!(names(&mandatory_flow_schemas()), ["exempt", "catch-all"]);
        assert_eq!(
            names(&suggested_priority_levels()),
            [
                "system",
                "node-high",
                "leader-election",
                "workload-high",
                "workload-low",
                "global-default"
            ]
        );
        assert_eq!(
            names(&suggested_flow_schemas()),
            [
                "system-nodes",
                "system-node-high",
                "probes",
                "system-leader-election",
                "workload-leader-election",
                "endpoint-controller",
                "kube-controller-manager",
                "kube-scheduler",
                "kube-system-service-accounts",
                "service-accounts",
                "global-default"
            ]
        );
        for o in mandatory_flow_schemas()
            .iter()
            .chain(&suggested_flow_schemas())
            .chain(&mandatory_priority_levels())
            .chain(&suggested_priority_levels())
        {
            assert_eq!(o["metadata"]["annotations"][AUTOUPDATE_ANNOTATION], "true");
        }
    }

    #[test]
    fn mandatory_specs_and_equality() {
        let exempt = mandatory_spec("FlowSchema", "exempt").expect("exempt");
        assert_eq!(exempt["matchingPrecedence"], 1);
        assert!(exempt.get("distinguisherMethod").is_none());
        assert!(mandatory_spec("FlowSchema", "probes").is_none());
        assert!(mandatory_spec("Pod", "exempt").is_none());
        let mut same = exempt.clone();
        same["rules"][0]["resourceRules"][0]["x"] = json!(null);
        same["rules"][0]["subjects"][0]["user"] = json!(null);
        assert!(specs_equal(&exempt, &same));
        same["distinguisherMethod"] = json!({"type": "ByUser"});
        assert!(!specs_equal(&exempt, &same));
        let a = json!({"limited": {"borrowingLimitPercent": 0}});
        assert!(!specs_equal(&a, &json!({"limited": {}})));
        assert!(specs_equal(
            &json!({"rules": [], "x": false}),
            &json!({"y": ""})
        ));
    }
}
