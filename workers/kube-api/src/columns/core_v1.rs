//! Printer columns of the core (`v1`) types.

use kas_server::rest::{age, Column};
use serde_json::{json, Value};

use super::{
    arr, col, containers, count, i, images, map_string, none_if_empty, s, AGE, NAME_DESC,
    TEMPLATE_CONTAINERS, TEMPLATE_IMAGES,
};

fn pod_ready(o: &Value) -> Value {
    let total = arr(o, "/spec/containers").len();
    let ready = arr(o, "/status/containerStatuses")
        .iter()
        .filter(|c| c.get("ready").and_then(Value::as_bool) == Some(true))
        .count();
    json!(format!("{ready}/{total}"))
}

fn pod_status(o: &Value) -> Value {
    let mut reason = s(o, "/status/phase").to_owned();
    if !s(o, "/status/reason").is_empty() {
        reason = s(o, "/status/reason").to_owned();
    }
    let mut initializing = false;
    let inits = arr(o, "/status/initContainerStatuses");
    for (n, c) in inits.iter().enumerate() {
        let term = c.pointer("/state/terminated");
        if term.is_some_and(|t| i(t, "/exitCode") == 0) {
            continue;
        }
        initializing = true;
        reason = if let Some(t) = term {
            if s(t, "/reason").is_empty() {
                format!("Init:ExitCode:{}", i(t, "/exitCode"))
            } else {
                format!("Init:{}", s(t, "/reason"))
            }
        } else if !s(c, "/state/waiting/reason").is_empty()
            && s(c, "/state/waiting/reason") != "PodInitializing"
        {
            format!("Init:{}", s(c, "/state/waiting/reason"))
        } else {
            format!("Init:{n}/{}", arr(o, "/spec/initContainers").len())
        };
        break;
    }
    if !initializing {
        let mut has_running = false;
        for c in arr(o, "/status/containerStatuses").iter().rev() {
            if !s(c, "/state/waiting/reason").is_empty() {
                reason = s(c, "/state/waiting/reason").to_owned();
            } else if let Some(t) = c.pointer("/state/terminated") {
                reason = if !s(t, "/reason").is_empty() {
                    s(t, "/reason").to_owned()
                } else if i(t, "/signal") != 0 {
                    format!("Signal:{}", i(t, "/signal"))
                } else {
                    format!("ExitCode:{}", i(t, "/exitCode"))
                };
            } else if c.get("ready").and_then(Value::as_bool) == Some(true)
                && c.pointer("/state/running").is_some()
            {
                has_running = true;
            }
        }
        if reason == "Completed" && has_running {
            reason = "Running".into();
        }
    }
    if o.pointer("/metadata/deletionTimestamp").is_some() && s(o, "/status/reason") != "NodeLost" {
        reason = "Terminating".into();
    }
    json!(reason)
}

fn pod_restarts(o: &Value) -> Value {
    let n: i64 = arr(o, "/status/containerStatuses")
        .iter()
        .map(|c| i(c, "/restartCount"))
        .sum();
    json!(n.to_string())
}

/// Pods.
pub(crate) const POD: &[Column] = &[
    col("Ready", "string", 0, "The aggregate readiness state of this pod for accepting traffic.", pod_ready),
    col("Status", "string", 0, "The aggregate status of the containers in this pod.", pod_status),
    col("Restarts", "string", 0, "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.", pod_restarts),
    AGE,
    col("IP", "string", 1, "The IP address assigned to the pod", |o| none_if_empty(s(o, "/status/podIP").to_owned())),
    col("Node", "string", 1, "The node assigned to the pod", |o| none_if_empty(s(o, "/spec/nodeName").to_owned())),
    col("Nominated Node", "string", 1, "The nominated node for the pod", |o| none_if_empty(s(o, "/status/nominatedNodeName").to_owned())),
    col("Readiness Gates", "string", 1, "The readiness gates for the pod", |o| {
        let gates = arr(o, "/spec/readinessGates");
        if gates.is_empty() { json!("<none>") } else { json!(format!("0/{}", gates.len())) }
    }),
];

/// ConfigMaps.
pub(crate) const CONFIGMAP: &[Column] = &[
    col("Data", "string", 0, "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.", |o| {
        json!(count(o, "/data").as_u64().unwrap_or(0) + count(o, "/binaryData").as_u64().unwrap_or(0))
    }),
    AGE,
];

/// Secrets.
pub(crate) const SECRET: &[Column] = &[
    col("Type", "string", 0, "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types", |o| json!(s(o, "/type"))),
    col("Data", "string", 0, "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4", |o| json!(count(o, "/data").as_u64().unwrap_or(0).to_string())),
    AGE,
];

fn service_ports(o: &Value) -> Value {
    let ports: Vec<String> = arr(o, "/spec/ports")
        .iter()
        .map(|p| {
            let port = i(p, "/port");
            let proto = match s(p, "/protocol") {
                "" => "TCP",
                x => x,
            };
            match i(p, "/nodePort") {
                0 => format!("{port}/{proto}"),
                n => format!("{port}:{n}/{proto}"),
            }
        })
        .collect();
    none_if_empty(ports.join(","))
}

fn external_ip(o: &Value) -> Value {
    let mut ips: Vec<String> = arr(o, "/spec/externalIPs")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    match s(o, "/spec/type") {
        "ExternalName" => return json!(s(o, "/spec/externalName")),
        "LoadBalancer" => {
            for ing in arr(o, "/status/loadBalancer/ingress") {
                let a = if s(ing, "/ip").is_empty() {
                    s(ing, "/hostname")
                } else {
                    s(ing, "/ip")
                };
                ips.push(a.to_owned());
            }
            if ips.is_empty() {
                return json!("<pending>");
            }
        }
        _ => {}
    }
    none_if_empty(ips.join(","))
}

/// Services.
pub(crate) const SERVICE: &[Column] = &[
    col("Type", "string", 0, "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.", |o| json!(s(o, "/spec/type"))),
    col("Cluster-IP", "string", 0, "clusterIP is the IP address of the service and is usually assigned randomly.", |o| none_if_empty(s(o, "/spec/clusterIP").to_owned())),
    col("External-IP", "string", 0, "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.", external_ip),
    col("Port(s)", "string", 0, "The list of ports that are exposed by this service.", service_ports),
    AGE,
    col("Selector", "string", 1, "Route service traffic to pods with label keys and values matching this selector.", |o| none_if_empty(map_string(o, "/spec/selector"))),
];

/// Namespaces.
pub(crate) const NAMESPACE: &[Column] = &[
    col("Status", "string", 0, "The status of the namespace", |o| {
        json!(s(o, "/status/phase"))
    }),
    AGE,
];

/// ServiceAccounts.
pub(crate) const SERVICE_ACCOUNT: &[Column] = &[
    col("Secrets", "string", 0, "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.", |o| json!(arr(o, "/secrets").len())),
    AGE,
];

/// ReplicationControllers.
pub(crate) const REPLICATION_CONTROLLER: &[Column] = &[
    col(
        "Desired",
        "integer",
        0,
        "Replicas is the number of desired replicas.",
        |o| json!(i(o, "/spec/replicas")),
    ),
    col(
        "Current",
        "integer",
        0,
        "Replicas is the most recently observed number of replicas.",
        |o| json!(i(o, "/status/replicas")),
    ),
    col(
        "Ready",
        "integer",
        0,
        "The number of ready replicas for this replication controller.",
        |o| json!(i(o, "/status/readyReplicas")),
    ),
    AGE,
    TEMPLATE_CONTAINERS,
    TEMPLATE_IMAGES,
    col(
        "Selector",
        "string",
        1,
        "Selector is a label query over pods that should match the Replicas count.",
        |o| none_if_empty(map_string(o, "/spec/selector")),
    ),
];

/// Endpoints.
pub(crate) const ENDPOINTS: &[Column] = &[
    col("Endpoints", "string", 0, "Endpoints of the service", |o| {
        let mut out = Vec::new();
        for sub in arr(o, "/subsets") {
            for a in arr(sub, "/addresses") {
                let ports = arr(sub, "/ports");
                if ports.is_empty() {
                    out.push(s(a, "/ip").to_owned());
                }
                for p in ports {
                    out.push(format!("{}:{}", s(a, "/ip"), i(p, "/port")));
                }
            }
        }
        none_if_empty(out.join(","))
    }),
    AGE,
];

/// Nodes.
pub(crate) const NODE: &[Column] = &[
    col("Status", "string", 0, "The status of the node", |o| {
        let ready = arr(o, "/status/conditions").iter().find(|c| s(c, "/type") == "Ready").map(|c| s(c, "/status"));
        let mut st = match ready { Some("True") => "Ready".to_owned(), _ => "NotReady".to_owned() };
        if o.pointer("/spec/unschedulable").and_then(Value::as_bool) == Some(true) {
            st.push_str(",SchedulingDisabled");
        }
        json!(st)
    }),
    col("Roles", "string", 0, "The roles of the node", |o| {
        let mut roles: Vec<String> = o.pointer("/metadata/labels").and_then(Value::as_object).map(|m| {
            m.keys().filter_map(|k| k.strip_prefix("node-role.kubernetes.io/").map(str::to_owned)).filter(|r| !r.is_empty()).collect()
        }).unwrap_or_default();
        roles.sort();
        none_if_empty(roles.join(","))
    }),
    AGE,
    col("Version", "string", 0, "Kubelet Version reported by the node.", |o| json!(s(o, "/status/nodeInfo/kubeletVersion"))),
    col("Internal-IP", "string", 1, "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).", |o| {
        none_if_empty(arr(o, "/status/addresses").iter().find(|a| s(a, "/type") == "InternalIP").map(|a| s(a, "/address").to_owned()).unwrap_or_default())
    }),
    col("External-IP", "string", 1, "List of addresses reachable to the node.", |o| {
        none_if_empty(arr(o, "/status/addresses").iter().find(|a| s(a, "/type") == "ExternalIP").map(|a| s(a, "/address").to_owned()).unwrap_or_default())
    }),
    col("OS-Image", "string", 1, "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", |o| json!(s(o, "/status/nodeInfo/osImage"))),
    col("Kernel-Version", "string", 1, "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", |o| json!(s(o, "/status/nodeInfo/kernelVersion"))),
    col("Container-Runtime", "string", 1, "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", |o| json!(s(o, "/status/nodeInfo/containerRuntimeVersion"))),
];

/// PersistentVolumeClaims.
pub(crate) const PVC: &[Column] = &[
    col("Status", "string", 0, "phase represents the current phase of PersistentVolumeClaim.", |o| json!(s(o, "/status/phase"))),
    col("Volume", "string", 0, "volumeName is the binding reference to the PersistentVolume backing this claim.", |o| json!(s(o, "/spec/volumeName"))),
    col("Capacity", "string", 0, "capacity represents the actual resources of the underlying volume.", |o| json!(s(o, "/status/capacity/storage"))),
    col("Access Modes", "string", 0, "accessModes contains the actual access modes the volume backing the PVC has.", |o| json!(access_modes(arr(o, "/status/accessModes")))),
    col("StorageClass", "string", 0, "storageClassName is the name of the StorageClass required by the claim.", |o| none_if_empty(s(o, "/spec/storageClassName").to_owned())),
    col("VolumeAttributesClass", "string", 0, "volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.", |o| none_if_empty(s(o, "/spec/volumeAttributesClassName").to_owned())),
    AGE,
    col("VolumeMode", "string", 1, "volumeMode defines what type of volume is required by the claim.", |o| json!(s(o, "/spec/volumeMode"))),
];

fn access_modes(modes: &[Value]) -> String {
    modes
        .iter()
        .filter_map(Value::as_str)
        .map(|m| match m {
            "ReadWriteOnce" => "RWO",
            "ReadOnlyMany" => "ROX",
            "ReadWriteMany" => "RWX",
            "ReadWriteOncePod" => "RWOP",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// PersistentVolumes.
pub(crate) const PV: &[Column] = &[
    col("Capacity", "string", 0, "capacity is the description of the persistent volume's resources and capacity.", |o| json!(s(o, "/spec/capacity/storage"))),
    col("Access Modes", "string", 0, "accessModes contains all ways the volume can be mounted.", |o| json!(access_modes(arr(o, "/spec/accessModes")))),
    col("Reclaim Policy", "string", 0, "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.", |o| json!(s(o, "/spec/persistentVolumeReclaimPolicy"))),
    col("Status", "string", 0, "phase indicates if a volume is available, bound to a claim, or released by a claim.", |o| json!(s(o, "/status/phase"))),
    col("Claim", "string", 0, "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.", |o| {
        match o.pointer("/spec/claimRef") { Some(c) => json!(format!("{}/{}", s(c, "/namespace"), s(c, "/name"))), None => json!("") }
    }),
    col("StorageClass", "string", 0, "storageClassName is the name of StorageClass to which this persistent volume belongs.", |o| json!(s(o, "/spec/storageClassName"))),
    col("VolumeAttributesClass", "string", 0, "Name of VolumeAttributesClass to which this persistent volume belongs.", |o| none_if_empty(s(o, "/spec/volumeAttributesClassName").to_owned())),
    col("Reason", "string", 0, "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.", |o| json!(s(o, "/status/reason"))),
    AGE,
    col("VolumeMode", "string", 1, "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.", |o| json!(s(o, "/spec/volumeMode"))),
];

/// The Healthy condition of a ComponentStatus.
fn healthy(o: &Value) -> Option<&Value> {
    arr(o, "/conditions")
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("Healthy"))
}

/// ComponentStatuses.
pub(crate) const COMPONENT_STATUS: &[Column] = &[
    col(
        "Status",
        "string",
        0,
        "Status of the component conditions",
        |o| {
            json!(match healthy(o) {
                Some(c) if s(c, "/status") == "True" => "Healthy",
                Some(_) => "Unhealthy",
                None => "Unknown",
            })
        },
    ),
    col(
        "Message",
        "string",
        0,
        "Message of the component conditions",
        |o| json!(healthy(o).map_or("", |c| s(c, "/message"))),
    ),
    col(
        "Error",
        "string",
        0,
        "Error of the component conditions",
        |o| json!(healthy(o).map_or("", |c| s(c, "/error"))),
    ),
];

/// When an event was first seen: `firstTimestamp`, else `eventTime`.
fn event_first_seen(o: &Value) -> Value {
    match o.pointer("/firstTimestamp").filter(|t| is_set(t)) {
        Some(t) => age(Some(t)),
        None => age(o.pointer("/eventTime")),
    }
}

/// When an event was last seen: its series' last observation, else `lastTimestamp`, else
/// when it was first seen.
fn event_last_seen(o: &Value) -> Value {
    if let Some(series) = o.pointer("/series").filter(|v| v.is_object()) {
        return age(series.get("lastObservedTime"));
    }
    match o.pointer("/lastTimestamp").filter(|t| is_set(t)) {
        Some(t) => age(Some(t)),
        None => event_first_seen(o),
    }
}

/// How often an event happened: its series' count, else `count`, 1 for a singleton.
fn event_count(o: &Value) -> Value {
    if let Some(series) = o.pointer("/series").filter(|v| v.is_object()) {
        return json!(series.get("count").and_then(Value::as_i64).unwrap_or(0));
    }
    match i(o, "/count") {
        0 => json!(1),
        n => json!(n),
    }
}

/// `kind/name` of the object an event is about (`kind` alone without a name).
fn event_object(o: &Value) -> Value {
    let kind = s(o, "/involvedObject/kind").to_lowercase();
    match s(o, "/involvedObject/name") {
        "" => json!(kind),
        name => json!(format!("{kind}/{name}")),
    }
}

/// The reporting component and instance, `component, instance`.
fn event_source(o: &Value) -> Value {
    let first = |a: &str, b: &str| {
        if a.is_empty() {
            s(o, b).to_owned()
        } else {
            a.to_owned()
        }
    };
    let component = first(s(o, "/source/component"), "/reportingComponent");
    let instance = first(s(o, "/source/host"), "/reportingInstance");
    if instance.is_empty() {
        json!(component)
    } else {
        json!(format!("{component}, {instance}"))
    }
}

fn is_set(t: &Value) -> bool {
    t.as_str().is_some_and(|t| !t.is_empty())
}

/// An events.k8s.io/v1 Event in its core/v1 form, which the columns read.
fn as_core(o: &Value) -> Value {
    let mut core = o.clone();
    crate::conversions::event_to_core(&mut core);
    core
}

fn same(o: &Value) -> &Value {
    o
}

/// Event columns over objects seen through `$view` (core/v1 form): upstream prints both
/// groups' events with one printer, the object's name last and only with `-o wide`.
macro_rules! event_columns {
    ($view:path) => {
        &[
            col("Last Seen", "string", 0, "The time at which the most recent occurrence of this event was recorded.", |o| event_last_seen(&$view(o))),
            col("Type", "string", 0, "Type of this event (Normal, Warning), new types could be added in the future", |o| json!(s(&$view(o), "/type"))),
            col("Reason", "string", 0, "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", |o| json!(s(&$view(o), "/reason"))),
            col("Object", "string", 0, "The object that this event is about.", |o| event_object(&$view(o))),
            col("Subobject", "string", 1, "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].", |o| json!(s(&$view(o), "/involvedObject/fieldPath"))),
            col("Source", "string", 1, "The component reporting this event. Should be a short machine understandable string.", |o| event_source(&$view(o))),
            col("Message", "string", 0, "A human-readable description of the status of this operation.", |o| json!(s(&$view(o), "/message").trim())),
            col("First Seen", "string", 1, "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", |o| event_first_seen(&$view(o))),
            col("Count", "string", 1, "The number of times this event has occurred.", |o| event_count(&$view(o))),
            Column { format: "name", ..col("Name", "string", 1, NAME_DESC, |o| json!(s(o, "/metadata/name"))) },
        ]
    };
}

/// Events (core/v1).
pub(crate) const EVENT: &[Column] = event_columns!(same);

/// Events (events.k8s.io/v1), printed as their core/v1 form.
pub(crate) const EVENT_V1: &[Column] = event_columns!(as_core);

/// Pod templates: their containers, images and pod labels.
pub(crate) const POD_TEMPLATE: &[Column] = &[
    col(
        "Containers",
        "string",
        0,
        "Names of each container in the template.",
        |o| containers(o, "/template/spec/containers"),
    ),
    col(
        "Images",
        "string",
        0,
        "Images referenced by each container in the template.",
        |o| images(o, "/template/spec/containers"),
    ),
    col(
        "Pod Labels",
        "string",
        0,
        "The labels for the pod template.",
        |o| none_if_empty(map_string(o, "/template/metadata/labels")),
    ),
];

/// `resource: used/hard` for each hard limit of a quota, in name order, split into the
/// `limits.*` resources and the others.
fn quota_usage(o: &Value, limits: bool) -> Value {
    let Some(hard) = o.pointer("/status/hard").and_then(Value::as_object) else {
        return json!("");
    };
    let mut names: Vec<&String> = hard.keys().collect();
    names.sort();
    let parts: Vec<String> = names
        .into_iter()
        .filter(|n| {
            let mut pieces = n.split('.');
            (pieces.next() == Some("limits") && pieces.next().is_some()) == limits
        })
        .map(|n| {
            let used = o
                .pointer("/status/used")
                .and_then(|u| u.get(n.as_str()))
                .and_then(Value::as_str)
                .unwrap_or("0");
            format!("{n}: {used}/{}", hard[n.as_str()].as_str().unwrap_or("0"))
        })
        .collect();
    json!(parts.join(", "))
}

/// Resource quotas: usage against the hard limits.
pub(crate) const RESOURCE_QUOTA: &[Column] = &[
    col("Request", "string", 0, "Request represents a minimum amount of cpu/memory that a container may consume.", |o| quota_usage(o, false)),
    col("Limit", "string", 0, "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.", |o| quota_usage(o, true)),
    AGE,
];

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(columns: &[Column], o: &Value) -> Vec<Value> {
        columns.iter().map(|c| (c.cell)(o)).collect()
    }

    #[test]
    fn events_print_alike_in_both_groups() {
        let core = json!({
            "metadata": {"name": "web.1"},
            "involvedObject": {"kind": "Pod", "name": "web", "fieldPath": "spec.containers{a}"},
            "reason": "Pulled", "message": " done \n", "type": "Normal",
            "source": {"component": "kubelet", "host": "n1"},
        });
        let got = cells(EVENT, &core);
        assert_eq!(got[3], json!("pod/web"));
        assert_eq!(got[4], json!("spec.containers{a}"));
        assert_eq!(got[5], json!("kubelet, n1"));
        assert_eq!(got[6], json!("done"));
        assert_eq!(got[8], json!(1), "a singleton counts once");
        assert_eq!(got[9], json!("web.1"));
        assert_eq!(got[0], json!("<unknown>"));
        let v1 = json!({
            "apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "web.2"},
            "regarding": {"kind": "Node"},
            "note": "hi", "reason": "R", "type": "Warning",
            "reportingController": "ctl", "reportingInstance": "",
            "series": {"count": 4, "lastObservedTime": "2020-01-01T00:00:00.000000Z"},
        });
        let got = cells(EVENT_V1, &v1);
        assert_eq!(got[3], json!("node"));
        assert_eq!(got[5], json!("ctl"));
        assert_eq!(got[6], json!("hi"));
        assert_eq!(got[8], json!(4));
        assert_ne!(got[0], json!("<unknown>"), "the series' last observation");
    }

    #[test]
    fn quota_usage_splits_limits() {
        let q = json!({"status": {
            "hard": {"pods": "10", "limits.cpu": "2", "requests.memory": "1Gi", "limits": "1"},
            "used": {"pods": "3", "limits.cpu": "500m"},
        }});
        let got = cells(RESOURCE_QUOTA, &q);
        assert_eq!(
            got[0],
            json!("limits: 0/1, pods: 3/10, requests.memory: 0/1Gi")
        );
        assert_eq!(got[1], json!("limits.cpu: 500m/2"));
        assert_eq!(cells(RESOURCE_QUOTA, &json!({}))[0], json!(""));
    }
}
