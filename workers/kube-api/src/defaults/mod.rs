//! Defaulting of the built-in resources, as upstream's `SetDefaults_*` functions (and the
//! few create-time strategy steps that fill fields in) do it. Every function leaves set
//! fields alone, so running one twice changes nothing.

mod autoscaling;
mod cluster;
mod core_v1;
mod decode;
mod flowcontrol;
mod prepare;
mod service_update;
mod volumes;
mod workloads;

pub(crate) use autoscaling::{cpu_metric, hpa_v1_defaults, hpa_v2_defaults, METRICS_ANNOTATION};
pub(crate) use cluster::{
    binding_defaults, ingress_class_defaults, network_policy_defaults, priority_class_defaults,
};
pub(crate) use core_v1::{
    base64_decode, endpoints_defaults, endpointslice_defaults, limit_range_defaults,
    namespace_defaults, node_defaults, resource_quota_defaults, secret_defaults, service_defaults,
    service_ip_families,
};
pub(crate) use decode::on_decode;
pub(crate) use flowcontrol::{flowschema_defaults, priority_level_defaults};
pub(crate) use prepare::{job_prepare, namespace_prepare, priority_class_prepare, service_prepare};
pub(crate) use volumes::{
    csi_driver_defaults, persistent_volume_claim_defaults, persistent_volume_defaults,
    storage_class_defaults,
};
pub(crate) use workloads::{
    cronjob_defaults, daemonset_defaults, deployment_defaults, job_defaults, job_generate_selector,
    pod_template_defaults, replicaset_defaults, replication_controller_defaults,
    statefulset_defaults,
};

use serde_json::{json, Map, Value};

use crate::validation::parse_quantity;

/// `v[key]`, inserted as `default` when missing or null. `None` when `v` is not an object.
pub(crate) fn entry<'a>(v: &'a mut Value, key: &str, default: Value) -> Option<&'a mut Value> {
    let m = v.as_object_mut()?;
    let slot = m.entry(key).or_insert(Value::Null);
    if slot.is_null() {
        *slot = default;
    }
    Some(slot)
}

/// Sets `v[key]` to `default` when it is missing, null or an empty string.
pub(crate) fn set(v: &mut Value, key: &str, default: Value) {
    if let Some(m) = v.as_object_mut() {
        let slot = m.entry(key).or_insert(Value::Null);
        if slot.is_null() || slot.as_str() == Some("") {
            *slot = default;
        }
    }
}

/// Each element of the array `v[key]`.
pub(crate) fn each<'a>(v: &'a mut Value, key: &str) -> impl Iterator<Item = &'a mut Value> {
    v.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// The pull policy upstream picks: Always for `:latest` or no tag, else IfNotPresent.
fn pull_policy(image: &str) -> &'static str {
    let (name, digest) = match image.split_once('@') {
        Some((n, _)) => (n, true),
        None => (image, false),
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    match last.split_once(':') {
        Some((_, "latest")) => "Always",
        Some(_) => "IfNotPresent",
        None if digest => "IfNotPresent",
        None => "Always",
    }
}

fn http_get(handler: &mut Value) {
    if let Some(get) = handler.get_mut("httpGet").filter(|g| g.is_object()) {
        set(get, "path", json!("/"));
        set(get, "scheme", json!("HTTP"));
    }
}

fn probe(p: &mut Value) {
    if !p.is_object() {
        return;
    }
    entry(p, "timeoutSeconds", json!(1));
    entry(p, "periodSeconds", json!(10));
    entry(p, "successThreshold", json!(1));
    entry(p, "failureThreshold", json!(3));
    http_get(p);
}

fn container(c: &mut Value) {
    if !c.is_object() {
        return;
    }
    let image = c
        .get("image")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    set(c, "imagePullPolicy", json!(pull_policy(&image)));
    set(c, "terminationMessagePath", json!("/dev/termination-log"));
    set(c, "terminationMessagePolicy", json!("File"));
    for list in ["limits", "requests"] {
        resource_list(c.pointer_mut(&format!("/resources/{list}")));
    }
    for port in each(c, "ports") {
        set(port, "protocol", json!("TCP"));
    }
    for e in each(c, "env") {
        if let Some(fr) = e
            .pointer_mut("/valueFrom/fieldRef")
            .filter(|f| f.is_object())
        {
            set(fr, "apiVersion", json!("v1"));
        }
    }
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = c.get_mut(key) {
            probe(p);
        }
    }
    for hook in ["postStart", "preStop"] {
        if let Some(h) = c.pointer_mut(&format!("/lifecycle/{hook}")) {
            http_get(h);
        }
    }
}

/// With host networking, a pod's container ports default their host port to the
/// container port (pods only: upstream stopped doing it for templates in v1.28).
fn host_network_ports(spec: &mut Value) {
    for key in ["containers", "initContainers"] {
        for c in each(spec, key) {
            for port in each(c, "ports") {
                let unset = port
                    .get("hostPort")
                    .is_none_or(|h| h.is_null() || h.as_i64() == Some(0));
                let cp = port.get("containerPort").cloned().unwrap_or(Value::Null);
                if let Some(m) = port.as_object_mut().filter(|_| unset) {
                    m.insert("hostPort".into(), cp);
                }
            }
        }
    }
}

/// Every quantity of the resource list at `list` rounded up to thousandths, as upstream's
/// `SetDefaults_ResourceList` does (`100u` becomes `1m`).
pub(crate) fn resource_list(list: Option<&mut Value>) {
    let Some(list) = list.and_then(Value::as_object_mut) else {
        return;
    };
    for v in list.values_mut() {
        if let Some(q) = kas_schema::quantity::Quantity::of(v) {
            let rounded = q.round_up_milli();
            if rounded != q {
                *v = json!(rounded.to_string());
            }
        }
    }
}

/// Defaults of a pod spec (also the spec of every pod template).
pub(crate) fn pod_spec_defaults(spec: &mut Value) {
    if !spec.is_object() {
        return;
    }
    set(spec, "dnsPolicy", json!("ClusterFirst"));
    set(spec, "restartPolicy", json!("Always"));
    entry(spec, "terminationGracePeriodSeconds", json!(30));
    entry(spec, "securityContext", json!({}));
    set(spec, "schedulerName", json!("default-scheduler"));
    for key in ["containers", "initContainers", "ephemeralContainers"] {
        for c in each(spec, key) {
            container(c);
        }
    }
    for v in each(spec, "volumes") {
        volumes::volume(v);
    }
    resource_list(spec.get_mut("overhead"));
}

/// Defaults of the pod template at `template` (its spec, when it has one).
pub(crate) fn template_defaults(template: Option<&mut Value>) {
    if let Some(spec) = template.and_then(|t| t.get_mut("spec")) {
        pod_spec_defaults(spec);
    }
}

/// A pod's QoS class from its containers' cpu and memory requests and limits.
pub(crate) fn qos_class(spec: &Value) -> &'static str {
    let mut requests: Map<String, Value> = Map::new();
    let mut limits: Map<String, Value> = Map::new();
    let mut guaranteed = true;
    let add = |sum: &mut Map<String, Value>, name: &str, q: f64| {
        let cur = sum.get(name).and_then(Value::as_f64).unwrap_or(0.0);
        sum.insert(name.to_owned(), json!(cur + q));
    };
    let all = ["containers", "initContainers"]
        .iter()
        .flat_map(|k| spec.get(*k).and_then(Value::as_array).into_iter().flatten());
    for c in all {
        let positive = |kind: &str| -> Vec<(String, f64)> {
            c.pointer(&format!("/resources/{kind}"))
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter(|(n, _)| *n == "cpu" || *n == "memory")
                .filter_map(|(n, v)| {
                    Some((
                        n.clone(),
                        v.as_str().and_then(parse_quantity).or_else(|| v.as_f64())?,
                    ))
                })
                .filter(|(_, q)| *q > 0.0)
                .collect()
        };
        for (n, q) in positive("requests") {
            add(&mut requests, &n, q);
        }
        let lims = positive("limits");
        let found = |r: &str| lims.iter().any(|(n, _)| n == r);
        if !found("cpu") || !found("memory") {
            guaranteed = false;
        }
        for (n, q) in lims {
            add(&mut limits, &n, q);
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed
        && requests.iter().all(|(n, q)| limits.get(n) == Some(q))
        && requests.len() == limits.len()
    {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// Pod: the spec defaults, requests taken from limits where unset, service links on.
/// (The create's status — a Pending phase and the QoS class — is the strategy's
/// PrepareForCreate: `validation::pod_prepare`.)
pub(crate) fn pod_defaults(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    pod_spec_defaults(spec);
    entry(spec, "enableServiceLinks", json!(true));
    if spec.get("hostNetwork").and_then(Value::as_bool) == Some(true) {
        host_network_ports(spec);
    }
    for key in ["containers", "initContainers"] {
        for c in each(spec, key) {
            let Some(res) = c.get_mut("resources").filter(|r| r.is_object()) else {
                continue;
            };
            let limits = res.get("limits").and_then(Value::as_object).cloned();
            let Some(limits) = limits.filter(|l| !l.is_empty()) else {
                continue;
            };
            if let Some(req) = entry(res, "requests", json!({})).and_then(Value::as_object_mut) {
                for (k, v) in limits {
                    req.entry(k).or_insert(v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_policies() {
        assert_eq!(pull_policy("nginx"), "Always");
        assert_eq!(pull_policy("nginx:latest"), "Always");
        assert_eq!(pull_policy("nginx:1.25"), "IfNotPresent");
        assert_eq!(pull_policy("localhost:5000/nginx"), "Always");
        assert_eq!(pull_policy("localhost:5000/nginx:1"), "IfNotPresent");
        assert_eq!(pull_policy("nginx@sha256:abc"), "IfNotPresent");
        assert_eq!(pull_policy("nginx:latest@sha256:abc"), "Always");
    }

    #[test]
    fn pods() {
        let mut pod = json!({"spec": {
            "containers": [{"name": "a", "image": "nginx:1", "ports": [{"containerPort": 80}],
                            "livenessProbe": {"httpGet": {"port": 80}},
                            "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]}],
            "volumes": [{"name": "v"}, {"name": "s", "secret": {"secretName": "x"}}]
        }});
        pod_defaults(&mut pod);
        let again = pod.clone();
        pod_defaults(&mut pod);
        assert_eq!(pod, again);
        let spec = &pod["spec"];
        assert_eq!(spec["restartPolicy"], "Always");
        assert_eq!(spec["dnsPolicy"], "ClusterFirst");
        assert_eq!(spec["schedulerName"], "default-scheduler");
        assert_eq!(spec["terminationGracePeriodSeconds"], 30);
        assert_eq!(spec["securityContext"], json!({}));
        assert_eq!(spec["enableServiceLinks"], true);
        let c = &spec["containers"][0];
        assert_eq!(c["imagePullPolicy"], "IfNotPresent");
        assert_eq!(c["terminationMessagePath"], "/dev/termination-log");
        assert_eq!(c["terminationMessagePolicy"], "File");
        assert_eq!(c["ports"][0]["protocol"], "TCP");
        assert_eq!(
            c["livenessProbe"],
            json!({"httpGet": {"port": 80, "path": "/", "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
        );
        assert_eq!(c["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
        assert_eq!(spec["volumes"][0]["emptyDir"], json!({}));
        assert_eq!(spec["volumes"][1]["secret"]["defaultMode"], 420);
        assert!(pod.get("status").is_none(), "{pod}");
        let mut host = json!({"spec": {"hostNetwork": true, "containers": [{"image": "x", "ports": [{"containerPort": 80}]}]}});
        pod_defaults(&mut host);
        assert_eq!(host["spec"]["containers"][0]["ports"][0]["hostPort"], 80);
        for mut v in [
            json!(null),
            json!({"spec": 1}),
            json!({"spec": {"containers": [1, {"resources": 2}], "volumes": [3]}, "status": 4}),
        ] {
            pod_defaults(&mut v);
        }
    }

    #[test]
    fn qos() {
        let res = |r: Value| json!({"containers": [{"resources": r}]});
        assert_eq!(qos_class(&res(json!({}))), "BestEffort");
        assert_eq!(
            qos_class(&res(json!({"requests": {"cpu": "100m"}}))),
            "Burstable"
        );
        assert_eq!(
            qos_class(&res(
                json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1000m", "memory": "1Gi"}})
            )),
            "Guaranteed"
        );
        assert_eq!(
            qos_class(&res(
                json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}})
            )),
            "Burstable"
        );
        assert_eq!(
            qos_class(&res(json!({"requests": {"ephemeral-storage": "1Gi"}}))),
            "BestEffort"
        );
        let mut pod = json!({"spec": {"containers": [{"image": "x", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]}});
        pod_defaults(&mut pod);
        assert_eq!(
            pod["spec"]["containers"][0]["resources"]["requests"],
            json!({"cpu": "1", "memory": "1Gi"})
        );
        assert_eq!(qos_class(&pod["spec"]), "Guaranteed");
    }
}
