//! What an object uses, in quota terms (upstream's quota evaluators): every object counts
//! as `count/<resource>[.<group>]`; pods, services, PVCs and the other core kinds also
//! under their legacy names (`pods`, `services`, …); pods their compute requests and
//! limits (`requests.cpu`, `limits.memory`, the bare `cpu` / `memory` meaning requests,
//! extended resources), services their node ports and load balancers, PVCs their storage
//! (also per storage class). And which quotas an object falls under (scopes).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::quantity::{Format, Quantity};

/// Resource name → amount.
pub(crate) type Usage = BTreeMap<String, Quantity>;

fn s<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn one() -> Quantity {
    Quantity::parse("1").unwrap_or(Quantity::zero(Format::DecimalSI))
}

fn count(n: usize) -> Quantity {
    Quantity::parse(&n.to_string()).unwrap_or(Quantity::zero(Format::DecimalSI))
}

fn add(usage: &mut Usage, name: &str, q: Quantity) {
    let sum = match usage.get(name) {
        Some(have) => *have + q,
        None => q,
    };
    usage.insert(name.to_owned(), sum);
}

/// The object-count name of a resource.
pub(crate) fn count_name(group: &str, plural: &str) -> String {
    match group {
        "" => format!("count/{plural}"),
        g => format!("count/{plural}.{g}"),
    }
}

/// Whether a pod has finished (terminal pods use nothing).
fn terminal(pod: &Value) -> bool {
    matches!(s(pod, "/status/phase"), "Succeeded" | "Failed")
}

/// The resources of one list of containers: the sum (containers) or the largest
/// (init containers), per resource name, of `requests` or `limits`.
fn containers_total(
    pod: &Value,
    list: &str,
    kind: &str,
    largest: bool,
) -> BTreeMap<String, Quantity> {
    let mut out: BTreeMap<String, Quantity> = BTreeMap::new();
    for c in pod
        .pointer(&format!("/spec/{list}"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(res) = c
            .pointer(&format!("/resources/{kind}"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (name, v) in res {
            let Some(q) = Quantity::of(v) else { continue };
            let merged = match (out.get(name), largest) {
                (Some(have), true) => (*have).max(q),
                (Some(have), false) => *have + q,
                (None, _) => q,
            };
            out.insert(name.clone(), merged);
        }
    }
    out
}

/// A pod's effective requests or limits: the larger of its containers' sum and its
/// largest init container, plus the pod overhead.
fn pod_resources(pod: &Value, kind: &str) -> BTreeMap<String, Quantity> {
    let mut total = containers_total(pod, "containers", kind, false);
    for (name, q) in containers_total(pod, "initContainers", kind, true) {
        let merged = match total.get(&name) {
            Some(have) => (*have).max(q),
            None => q,
        };
        total.insert(name, merged);
    }
    if let Some(overhead) = pod.pointer("/spec/overhead").and_then(Value::as_object) {
        for (name, v) in overhead {
            if let Some(q) = Quantity::of(v) {
                let merged = match total.get(name) {
                    Some(have) => *have + q,
                    None => q,
                };
                total.insert(name.clone(), merged);
            }
        }
    }
    total
}

/// Whether a pod is BestEffort: no container requests or limits anything.
pub(crate) fn best_effort(pod: &Value) -> bool {
    ["containers", "initContainers"].iter().all(|list| {
        pod.pointer(&format!("/spec/{list}"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .all(|c| {
                ["requests", "limits"].iter().all(|k| {
                    c.pointer(&format!("/resources/{k}"))
                        .and_then(Value::as_object)
                        .is_none_or(|m| m.is_empty())
                })
            })
    })
}

/// What `obj` (of `group`/`plural`) uses.
pub(crate) fn usage(group: &str, plural: &str, obj: &Value) -> Usage {
    let mut u = Usage::new();
    if group.is_empty() && plural == "pods" && terminal(obj) {
        return u;
    }
    u.insert(count_name(group, plural), one());
    if !group.is_empty() {
        return u;
    }
    match plural {
        "pods" => {
            u.insert("pods".into(), one());
            for (kind, prefix) in [("requests", "requests."), ("limits", "limits.")] {
                for (name, q) in pod_resources(obj, kind) {
                    add(&mut u, &format!("{prefix}{name}"), q);
                    if kind == "requests"
                        && matches!(name.as_str(), "cpu" | "memory" | "ephemeral-storage")
                    {
                        add(&mut u, &name, q);
                    }
                }
            }
        }
        "services" => {
            u.insert("services".into(), one());
            let kind = s(obj, "/spec/type");
            let ports = obj
                .pointer("/spec/ports")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            if matches!(kind, "NodePort" | "LoadBalancer") {
                u.insert("services.nodeports".into(), count(ports));
            }
            if kind == "LoadBalancer" {
                u.insert("services.loadbalancers".into(), one());
            }
        }
        "persistentvolumeclaims" => {
            u.insert("persistentvolumeclaims".into(), one());
            let class = s(obj, "/spec/storageClassName");
            if !class.is_empty() {
                u.insert(
                    format!("{class}.storageclass.storage.k8s.io/persistentvolumeclaims"),
                    one(),
                );
            }
            if let Some(q) = obj
                .pointer("/spec/resources/requests/storage")
                .and_then(Quantity::of)
            {
                u.insert("requests.storage".into(), q);
                if !class.is_empty() {
                    u.insert(
                        format!("{class}.storageclass.storage.k8s.io/requests.storage"),
                        q,
                    );
                }
            }
        }
        "configmaps" | "secrets" | "replicationcontrollers" | "resourcequotas" => {
            u.insert(plural.to_owned(), one());
        }
        _ => {}
    }
    u
}

/// Whether a pod falls under one scope selector requirement.
fn scope_matches(pod: &Value, scope: &str, operator: &str, values: &[&str]) -> bool {
    let terminating = pod
        .pointer("/spec/activeDeadlineSeconds")
        .is_some_and(|v| !v.is_null());
    match scope {
        "Terminating" => terminating,
        "NotTerminating" => !terminating,
        "BestEffort" => best_effort(pod),
        "NotBestEffort" => !best_effort(pod),
        "PriorityClass" => {
            let class = s(pod, "/spec/priorityClassName");
            match operator {
                "In" => values.contains(&class),
                "NotIn" => !values.contains(&class),
                "Exists" => !class.is_empty(),
                "DoesNotExist" => class.is_empty(),
                _ => false,
            }
        }
        "CrossNamespacePodAffinity" => {
            let terms = ["podAffinity", "podAntiAffinity"].iter().any(|a| {
                [
                    "requiredDuringSchedulingIgnoredDuringExecution",
                    "preferredDuringSchedulingIgnoredDuringExecution",
                ]
                .iter()
                .flat_map(|k| {
                    pod.pointer(&format!("/spec/affinity/{a}/{k}"))
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default()
                })
                .any(|t| {
                    let term = t.get("podAffinityTerm").unwrap_or(&t);
                    term.get("namespaceSelector").is_some_and(|v| !v.is_null())
                        || term
                            .get("namespaces")
                            .and_then(Value::as_array)
                            .is_some_and(|n| !n.is_empty())
                })
            });
            terms
        }
        _ => false,
    }
}

/// Whether a quota covers `obj`: with no scopes, everything; with scopes (pods only),
/// objects every scope matches.
pub(crate) fn quota_matches(quota: &Value, group: &str, plural: &str, obj: &Value) -> bool {
    let mut scopes: Vec<(String, String, Vec<String>)> = quota
        .pointer("/spec/scopes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|sc| (sc.to_owned(), "Exists".to_owned(), Vec::new()))
        .collect();
    for r in quota
        .pointer("/spec/scopeSelector/matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let values = r
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        scopes.push((
            s(r, "/scopeName").to_owned(),
            s(r, "/operator").to_owned(),
            values,
        ));
    }
    if scopes.is_empty() {
        return true;
    }
    group.is_empty()
        && plural == "pods"
        && scopes.iter().all(|(scope, op, values)| {
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            scope_matches(obj, scope, op, &values)
        })
}

/// A pod's containers that do not state what a quota on `required` needs (upstream's
/// pod constraints): resource → container names, for `must specify …`.
pub(crate) fn missing_for_quota(pod: &Value, required: &[String]) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in required {
        let (kind, res) = match name.as_str() {
            "cpu" | "requests.cpu" => ("requests", "cpu"),
            "memory" | "requests.memory" => ("requests", "memory"),
            "limits.cpu" => ("limits", "cpu"),
            "limits.memory" => ("limits", "memory"),
            _ => continue,
        };
        for list in ["initContainers", "containers"] {
            for c in pod
                .pointer(&format!("/spec/{list}"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if c.pointer(&format!("/resources/{kind}/{res}")).is_none() {
                    out.entry(name.clone())
                        .or_default()
                        .push(s(c, "/name").to_owned());
                }
            }
        }
    }
    for names in out.values_mut() {
        names.sort();
        names.dedup();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).expect("quantity")
    }

    #[test]
    fn pod_usage_sums_containers_and_takes_the_largest_init() {
        let pod = json!({"spec": {
            "containers": [
                {"name": "a", "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "1"}}},
                {"name": "b", "resources": {"requests": {"cpu": "200m"}}},
            ],
            "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "500m"}}}],
        }});
        let u = usage("", "pods", &pod);
        assert_eq!(u["pods"], q("1"));
        assert_eq!(u["count/pods"], q("1"));
        assert_eq!(u["requests.cpu"], q("500m"));
        assert_eq!(u["cpu"], q("500m"));
        assert_eq!(u["requests.memory"], q("64Mi"));
        assert_eq!(u["limits.cpu"], q("1"));
        assert!(!best_effort(&pod));
        let done = json!({"status": {"phase": "Succeeded"}});
        assert!(usage("", "pods", &done).is_empty());
    }

    #[test]
    fn services_claims_and_custom_resources() {
        let svc = json!({"spec": {"type": "LoadBalancer", "ports": [{"port": 80}, {"port": 443}]}});
        let u = usage("", "services", &svc);
        assert_eq!(u["services.nodeports"], q("2"));
        assert_eq!(u["services.loadbalancers"], q("1"));
        let pvc = json!({"spec": {"storageClassName": "fast", "resources": {"requests": {"storage": "5Gi"}}}});
        let u = usage("", "persistentvolumeclaims", &pvc);
        assert_eq!(
            u["fast.storageclass.storage.k8s.io/requests.storage"],
            q("5Gi")
        );
        let u = usage("example.com", "widgets", &json!({}));
        assert_eq!(u.keys().collect::<Vec<_>>(), ["count/widgets.example.com"]);
    }

    #[test]
    fn scopes_and_constraints() {
        let quota = json!({"spec": {"scopes": ["BestEffort"]}});
        let pod = json!({"spec": {"containers": [{"name": "c"}]}});
        assert!(quota_matches(&quota, "", "pods", &pod));
        assert!(!quota_matches(&quota, "", "services", &json!({})));
        let pc = json!({"spec": {"scopeSelector": {"matchExpressions": [
            {"scopeName": "PriorityClass", "operator": "In", "values": ["high"]}]}}});
        assert!(!quota_matches(&pc, "", "pods", &pod));
        let missing = missing_for_quota(&pod, &["limits.cpu".to_owned(), "pods".to_owned()]);
        assert_eq!(
            missing.get("limits.cpu").map(Vec::as_slice),
            Some(&["c".to_owned()][..])
        );
    }
}
