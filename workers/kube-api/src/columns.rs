//! Printer columns of the common built-in types, as kube-apiserver's table printers
//! define them (names, types, priorities, descriptions) and compute their cells.

use kas_server::rest::{age, Column};
use serde_json::{json, Value};

const AGE_DESC: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const fn col(
    name: &'static str,
    kind: &'static str,
    priority: u8,
    description: &'static str,
    cell: fn(&Value) -> Value,
) -> Column {
    Column {
        name,
        kind,
        format: "",
        priority,
        description,
        cell,
    }
}

const AGE: Column = col("Age", "string", 0, AGE_DESC, |o| {
    age(o.pointer("/metadata/creationTimestamp"))
});

/// The container names of a workload's pod template (`-o wide`).
const TEMPLATE_CONTAINERS: Column = col(
    "Containers",
    "string",
    1,
    "Names of each container in the template.",
    |o| containers(o, "/spec/template/spec/containers"),
);

/// The images of a workload's pod template (`-o wide`).
const TEMPLATE_IMAGES: Column = col(
    "Images",
    "string",
    1,
    "Images referenced by each container in the template.",
    |o| images(o, "/spec/template/spec/containers"),
);

fn s<'a>(o: &'a Value, p: &str) -> &'a str {
    o.pointer(p).and_then(Value::as_str).unwrap_or("")
}

fn i(o: &Value, p: &str) -> i64 {
    o.pointer(p).and_then(Value::as_i64).unwrap_or(0)
}

fn arr<'a>(o: &'a Value, p: &str) -> &'a [Value] {
    o.pointer(p)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn none_if_empty(v: String) -> Value {
    if v.is_empty() {
        json!("<none>")
    } else {
        json!(v)
    }
}

fn map_string(o: &Value, p: &str) -> String {
    let mut pairs: Vec<String> = o
        .pointer(p)
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    pairs.sort();
    pairs.join(",")
}

fn count(o: &Value, p: &str) -> Value {
    let n = o
        .pointer(p)
        .map(|v| match v {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        })
        .unwrap_or(0);
    json!(n)
}

fn containers(o: &Value, p: &str) -> Value {
    json!(arr(o, p)
        .iter()
        .map(|c| s(c, "/name"))
        .collect::<Vec<_>>()
        .join(","))
}

fn images(o: &Value, p: &str) -> Value {
    json!(arr(o, p)
        .iter()
        .map(|c| s(c, "/image"))
        .collect::<Vec<_>>()
        .join(","))
}

fn selector(o: &Value) -> Value {
    match o.pointer("/spec/selector") {
        Some(sel) => none_if_empty(kas_server::selectors::label_selector_string(sel)),
        None => json!("<none>"),
    }
}

// ---- Pods ----

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
    col("Data", "integer", 0, "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.", |o| {
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

/// Deployments.
pub(crate) const DEPLOYMENT: &[Column] = &[
    col("Ready", "string", 0, "Number of the pod with ready state", |o| json!(format!("{}/{}", i(o, "/status/readyReplicas"), i(o, "/spec/replicas")))),
    col("Up-to-date", "integer", 0, "Total number of non-terminated pods targeted by this deployment that have the desired template spec.", |o| json!(i(o, "/status/updatedReplicas"))),
    col("Available", "integer", 0, "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.", |o| json!(i(o, "/status/availableReplicas"))),
    AGE,
    TEMPLATE_CONTAINERS,
    TEMPLATE_IMAGES,
    col("Selector", "string", 1, "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.", selector),
];

/// ReplicaSets.
pub(crate) const REPLICA_SET: &[Column] = &[
    col(
        "Desired",
        "integer",
        0,
        "Replicas is the number of desired pods.",
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
        "The number of ready replicas for this replica set.",
        |o| json!(i(o, "/status/readyReplicas")),
    ),
    AGE,
    TEMPLATE_CONTAINERS,
    TEMPLATE_IMAGES,
    col(
        "Selector",
        "string",
        1,
        "Selector is a label query over pods that should match the replica count.",
        selector,
    ),
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

/// StatefulSets.
pub(crate) const STATEFUL_SET: &[Column] = &[
    col(
        "Ready",
        "string",
        0,
        "Number of the pod with ready state",
        |o| {
            json!(format!(
                "{}/{}",
                i(o, "/status/readyReplicas"),
                i(o, "/spec/replicas")
            ))
        },
    ),
    AGE,
    TEMPLATE_CONTAINERS,
    TEMPLATE_IMAGES,
];

/// DaemonSets.
pub(crate) const DAEMON_SET: &[Column] = &[
    col("Desired", "integer", 0, "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).", |o| json!(i(o, "/status/desiredNumberScheduled"))),
    col("Current", "integer", 0, "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.", |o| json!(i(o, "/status/currentNumberScheduled"))),
    col("Ready", "integer", 0, "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.", |o| json!(i(o, "/status/numberReady"))),
    col("Up-to-date", "integer", 0, "The total number of nodes that are running updated daemon pod", |o| json!(i(o, "/status/updatedNumberScheduled"))),
    col("Available", "integer", 0, "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)", |o| json!(i(o, "/status/numberAvailable"))),
    col("Node Selector", "string", 0, "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/", |o| none_if_empty(map_string(o, "/spec/template/spec/nodeSelector"))),
    AGE,
    TEMPLATE_CONTAINERS,
    TEMPLATE_IMAGES,
    col("Selector", "string", 1, "A label query over pods that are managed by the daemon set.", selector),
];

fn job_status(o: &Value) -> Value {
    let conds = arr(o, "/status/conditions");
    let has = |t: &str| {
        conds
            .iter()
            .any(|c| s(c, "/type") == t && s(c, "/status") == "True")
    };
    let st = if has("Complete") {
        "Complete"
    } else if has("Failed") {
        "Failed"
    } else if o.pointer("/metadata/deletionTimestamp").is_some() {
        "Terminating"
    } else if has("SuccessCriteriaMet") {
        "SuccessCriteriaMet"
    } else if has("FailureTarget") {
        "FailureTarget"
    } else if o.pointer("/spec/suspend").and_then(Value::as_bool) == Some(true) {
        "Suspended"
    } else {
        "Running"
    };
    json!(st)
}

/// Jobs.
pub(crate) const JOB: &[Column] = &[
    col("Status", "string", 0, "Status of the job.", job_status),
    col(
        "Completions",
        "string",
        0,
        "The desired number of successfully finished pods the job should be run with.",
        |o| match o.pointer("/spec/completions").and_then(Value::as_i64) {
            Some(c) => json!(format!("{}/{c}", i(o, "/status/succeeded"))),
            None => {
                let p = o
                    .pointer("/spec/parallelism")
                    .and_then(Value::as_i64)
                    .unwrap_or(1);
                json!(format!("{}/1 of {p}", i(o, "/status/succeeded")))
            }
        },
    ),
    col(
        "Duration",
        "string",
        0,
        "Time required to complete the job.",
        |o| {
            let start = o
                .pointer("/status/startTime")
                .and_then(Value::as_str)
                .and_then(|t| humantime::parse_rfc3339_weak(t).ok());
            let end = o
                .pointer("/status/completionTime")
                .and_then(Value::as_str)
                .and_then(|t| humantime::parse_rfc3339_weak(t).ok());
            match start {
                None => json!(""),
                Some(st) => {
                    let end = end.unwrap_or_else(std::time::SystemTime::now);
                    let secs = end.duration_since(st).map(|d| d.as_secs()).unwrap_or(0);
                    json!(short_duration(secs))
                }
            }
        },
    ),
    AGE,
    TEMPLATE_CONTAINERS,
    TEMPLATE_IMAGES,
    col(
        "Selector",
        "string",
        1,
        "A label query over pods that should match the pod count.",
        selector,
    ),
];

fn short_duration(secs: u64) -> String {
    match secs {
        s if s < 60 * 2 => format!("{s}s"),
        s if s < 60 * 60 => format!("{}m", s / 60),
        s => format!("{}h", s / 3600),
    }
}

/// CronJobs.
pub(crate) const CRON_JOB: &[Column] = &[
    col("Schedule", "string", 0, "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.", |o| json!(s(o, "/spec/schedule"))),
    col("Timezone", "string", 0, "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones", |o| none_if_empty(s(o, "/spec/timeZone").to_owned())),
    col("Suspend", "boolean", 0, "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.", |o| json!(o.pointer("/spec/suspend").and_then(Value::as_bool).unwrap_or(false))),
    col("Active", "integer", 0, "A list of pointers to currently running jobs.", |o| json!(arr(o, "/status/active").len())),
    col("Last Schedule", "string", 0, "Information when was the last time the job was successfully scheduled.", |o| {
        match o.pointer("/status/lastScheduleTime") {
            Some(t) => age(Some(t)),
            None => json!("<none>"),
        }
    }),
    AGE,
    col("Containers", "string", 1, "Names of each container in the template.", |o| containers(o, "/spec/jobTemplate/spec/template/spec/containers")),
    col("Images", "string", 1, "Images referenced by each container in the template.", |o| images(o, "/spec/jobTemplate/spec/template/spec/containers")),
    col("Selector", "string", 1, "A label query over pods that should match the pod count.", |o| {
        match o.pointer("/spec/jobTemplate/spec/selector") {
            Some(sel) => none_if_empty(kas_server::selectors::label_selector_string(sel)),
            None => json!("<none>"),
        }
    }),
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

/// EndpointSlices.
pub(crate) const ENDPOINT_SLICE: &[Column] = &[
    col("AddressType", "string", 0, "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name. (Deprecated) The EndpointSlice controller only generates, and kube-proxy only processes, slices of addressType \"IPv4\" and \"IPv6\". No semantics are defined for the \"FQDN\" type.", |o| json!(s(o, "/addressType"))),
    col("Ports", "string", 0, "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. Each slice may include a maximum of 100 ports. Services always have at least 1 port, so EndpointSlices generated by the EndpointSlice controller will likewise always have at least 1 port. EndpointSlices used for other purposes may have an empty ports list.", |o| {
        let p: Vec<String> = arr(o, "/ports").iter().map(|p| i(p, "/port").to_string()).collect();
        none_if_empty(p.join(","))
    }),
    col("Endpoints", "string", 0, "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.", |o| {
        let a: Vec<String> = arr(o, "/endpoints").iter().flat_map(|e| arr(e, "/addresses").iter().filter_map(|a| a.as_str().map(str::to_owned))).collect();
        none_if_empty(a.join(","))
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

fn binding_subjects(o: &Value, kind: &str) -> Value {
    let v: Vec<String> = arr(o, "/subjects")
        .iter()
        .filter(|x| s(x, "/kind") == kind)
        .map(|x| {
            if kind == "ServiceAccount" {
                format!("{}/{}", s(x, "/namespace"), s(x, "/name"))
            } else {
                s(x, "/name").to_owned()
            }
        })
        .collect();
    json!(v.join(", "))
}

/// RoleBindings and ClusterRoleBindings.
pub(crate) const ROLE_BINDING: &[Column] = &[
    col("Role", "string", 0, "Role of the binding", |o| {
        json!(format!(
            "{}/{}",
            s(o, "/roleRef/kind"),
            s(o, "/roleRef/name")
        ))
    }),
    AGE,
    col("Users", "string", 1, "Users in the binding", |o| {
        binding_subjects(o, "User")
    }),
    col("Groups", "string", 1, "Groups in the binding", |o| {
        binding_subjects(o, "Group")
    }),
    col(
        "ServiceAccounts",
        "string",
        1,
        "ServiceAccounts in the binding",
        |o| binding_subjects(o, "ServiceAccount"),
    ),
];

/// Leases.
pub(crate) const LEASE: &[Column] = &[
    col("Holder", "string", 0, "The holder of the lease", |o| {
        none_if_empty(s(o, "/spec/holderIdentity").to_owned())
    }),
    AGE,
];

/// PriorityClasses.
pub(crate) const PRIORITY_CLASS: &[Column] = &[
    col("Value", "integer", 0, "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.", |o| json!(i(o, "/value"))),
    col("Global-Default", "boolean", 0, "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.", |o| json!(o.get("globalDefault").and_then(Value::as_bool).unwrap_or(false))),
    AGE,
    col("PreemptionPolicy", "string", 0, "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.", |o| json!(s(o, "/preemptionPolicy"))),
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

/// StorageClasses.
pub(crate) const STORAGE_CLASS: &[Column] = &[
    col("Provisioner", "string", 0, "provisioner indicates the type of the provisioner.", |o| json!(s(o, "/provisioner"))),
    col("ReclaimPolicy", "string", 0, "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.", |o| json!(s(o, "/reclaimPolicy"))),
    col("VolumeBindingMode", "string", 0, "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.", |o| json!(s(o, "/volumeBindingMode"))),
    col("AllowVolumeExpansion", "string", 0, "allowVolumeExpansion shows whether the storage class allow volume expand.", |o| json!(o.get("allowVolumeExpansion").and_then(Value::as_bool).unwrap_or(false).to_string())),
    AGE,
];

/// Ingresses.
pub(crate) const INGRESS: &[Column] = &[
    col(
        "Class",
        "string",
        0,
        "ingressClassName is the name of an IngressClass cluster resource.",
        |o| none_if_empty(s(o, "/spec/ingressClassName").to_owned()),
    ),
    col(
        "Hosts",
        "string",
        0,
        "Hosts that incoming requests are matched against before the ingress rule",
        |o| {
            let h: Vec<&str> = arr(o, "/spec/rules")
                .iter()
                .map(|r| s(r, "/host"))
                .filter(|h| !h.is_empty())
                .collect();
            json!(if h.is_empty() {
                "*".to_owned()
            } else {
                h.join(",")
            })
        },
    ),
    col(
        "Address",
        "string",
        0,
        "Address is a list containing ingress points for the load-balancer",
        |o| {
            let a: Vec<&str> = arr(o, "/status/loadBalancer/ingress")
                .iter()
                .map(|i| {
                    if s(i, "/ip").is_empty() {
                        s(i, "/hostname")
                    } else {
                        s(i, "/ip")
                    }
                })
                .collect();
            json!(a.join(","))
        },
    ),
    col(
        "Ports",
        "string",
        0,
        "Ports of TLS configurations that open",
        |o| {
            json!(if arr(o, "/spec/tls").is_empty() {
                "80"
            } else {
                "80, 443"
            })
        },
    ),
    AGE,
];

/// NetworkPolicies.
pub(crate) const NETWORK_POLICY: &[Column] = &[
    col(
        "Pod-Selector",
        "string",
        0,
        "podSelector selects the pods to which this NetworkPolicy object applies.",
        |o| match o.pointer("/spec/podSelector") {
            Some(sel) => none_if_empty(kas_server::selectors::label_selector_string(sel)),
            None => json!("<none>"),
        },
    ),
    AGE,
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

/// PodDisruptionBudgets.
pub(crate) const PDB: &[Column] = &[
    col("Min Available", "string", 0, "The minimum number of pods that must be available simultaneously.  This can be either an integer or a string specifying a percentage, e.g. \"28%\".", |o| match o.pointer("/spec/minAvailable") { Some(v) => json!(v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string())), None => json!("N/A") }),
    col("Max Unavailable", "string", 0, "The maximum number of pods that may be unavailable simultaneously.  This can be either an integer or a string specifying a percentage, e.g. \"28%\".", |o| match o.pointer("/spec/maxUnavailable") { Some(v) => json!(v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string())), None => json!("N/A") }),
    col("Allowed Disruptions", "integer", 0, "Number of pod disruptions that are currently allowed.", |o| json!(i(o, "/status/disruptionsAllowed"))),
    AGE,
];

/// ControllerRevisions.
pub(crate) const CONTROLLER_REVISION: &[Column] = &[
    col(
        "Controller",
        "string",
        0,
        "Controller of the object",
        |o| match arr(o, "/metadata/ownerReferences")
            .iter()
            .find(|r| r.get("controller").and_then(Value::as_bool) == Some(true))
        {
            Some(r) => json!(format!(
                "{}/{}",
                s(r, "/kind").to_lowercase(),
                s(r, "/name")
            )),
            None => json!("<none>"),
        },
    ),
    col(
        "Revision",
        "integer",
        0,
        "Revision indicates the revision of the state represented by Data.",
        |o| json!(i(o, "/revision")),
    ),
    AGE,
];

/// IngressClasses.
pub(crate) const INGRESS_CLASS: &[Column] = &[
    col("Controller", "string", 0, "controller refers to the name of the controller that should handle this class.", |o| json!(s(o, "/spec/controller"))),
    col("Parameters", "string", 0, "parameters is a link to a custom resource containing additional configuration for the controller.", |o| {
        match o.pointer("/spec/parameters") { Some(p) => json!(format!("{}/{}", s(p, "/kind"), s(p, "/name"))), None => json!("<none>") }
    }),
    AGE,
];

/// CertificateSigningRequests.
pub(crate) const CSR: &[Column] = &[
    AGE,
    col(
        "SignerName",
        "string",
        0,
        "signerName indicates the requested signer.",
        |o| json!(s(o, "/spec/signerName")),
    ),
    col(
        "Requestor",
        "string",
        0,
        "Name of the user that requested the certificate.",
        |o| json!(s(o, "/spec/username")),
    ),
    col(
        "RequestedDuration",
        "string",
        0,
        "expirationSeconds is the requested duration of validity of the issued certificate.",
        |o| match o.pointer("/spec/expirationSeconds").and_then(Value::as_u64) {
            Some(sec) => json!(short_duration(sec)),
            None => json!("<none>"),
        },
    ),
    col(
        "Condition",
        "string",
        0,
        "Condition indicates the current condition of the certificate signing request.",
        |o| {
            let c: Vec<&str> = arr(o, "/status/conditions")
                .iter()
                .map(|c| s(c, "/type"))
                .collect();
            json!(if c.is_empty() {
                "Pending".to_owned()
            } else {
                c.join(",")
            })
        },
    ),
];

/// HorizontalPodAutoscalers.
pub(crate) const HPA: &[Column] = &[
    col("Reference", "string", 0, "The target object to be scaled", |o| json!(format!("{}/{}", s(o, "/spec/scaleTargetRef/kind"), s(o, "/spec/scaleTargetRef/name")))),
    col("Targets", "string", 0, "The current and target metrics", |_| json!("<unknown>")),
    col("MinPods", "string", 0, "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.", |o| json!(o.pointer("/spec/minReplicas").and_then(Value::as_i64).unwrap_or(1).to_string())),
    col("MaxPods", "integer", 0, "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.", |o| json!(i(o, "/spec/maxReplicas"))),
    col("Replicas", "integer", 0, "currentReplicas is current number of replicas of pods managed by this autoscaler.", |o| json!(i(o, "/status/currentReplicas"))),
    AGE,
];

/// Events (core/v1).
pub(crate) const EVENT: &[Column] = &[
    col("Last Seen", "string", 0, "Time when this Event was last seen", |o| {
        let t = o.pointer("/lastTimestamp").filter(|v| !v.is_null()).or_else(|| o.pointer("/eventTime"));
        age(t)
    }),
    col("Type", "string", 0, "Type of this event (Normal, Warning), new types could be added in the future", |o| json!(s(o, "/type"))),
    col("Reason", "string", 0, "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", |o| json!(s(o, "/reason"))),
    col("Object", "string", 0, "The object that this event is about", |o| json!(format!("{}/{}", s(o, "/involvedObject/kind").to_lowercase(), s(o, "/involvedObject/name")))),
    col("Message", "string", 0, "A human-readable description of the status of this operation.", |o| json!(s(o, "/message"))),
];

/// An integer cell, or `<none>` when the field is absent (upstream prints the members of
/// a nil `limited` or `queuing` as `<none>`).
fn int_or_none(o: &Value, parent: &str, key: &str) -> Value {
    match o.pointer(parent).filter(|p| p.is_object()) {
        Some(p) => json!(p.get(key).and_then(Value::as_i64).unwrap_or(0)),
        None => json!("<none>"),
    }
}

/// FlowSchemas: MISSINGPL is the status of the `Dangling` condition, `?` without one.
pub(crate) const FLOW_SCHEMA: &[Column] = &[
    col("PriorityLevel", "string", 0, "`name` is the name of the priority level configuration being referenced Required.", |o| json!(s(o, "/spec/priorityLevelConfiguration/name"))),
    col("MatchingPrecedence", "string", 0, "`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.", |o| json!(i(o, "/spec/matchingPrecedence"))),
    col("DistinguisherMethod", "string", 0, "`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.", |o| {
        match o.pointer("/spec/distinguisherMethod").filter(|d| !d.is_null()) {
            Some(d) => json!(d.get("type").and_then(Value::as_str).unwrap_or("")),
            None => json!("<none>"),
        }
    }),
    AGE,
    col("MissingPL", "string", 0, "references a broken or non-existent PriorityLevelConfiguration", |o| {
        let dangling = arr(o, "/status/conditions")
            .iter()
            .find(|c| c.get("type").and_then(Value::as_str) == Some("Dangling"));
        match dangling {
            Some(c) => json!(c.get("status").and_then(Value::as_str).unwrap_or("")),
            None => json!("?"),
        }
    }),
];

/// FlowSchema rows as upstream's printer sorts them: by matching precedence, then name.
pub(crate) fn flow_schema_order(a: &Value, b: &Value) -> std::cmp::Ordering {
    let key = |o: &Value| {
        (
            i(o, "/spec/matchingPrecedence"),
            s(o, "/metadata/name").to_owned(),
        )
    };
    key(a).cmp(&key(b))
}

/// PriorityLevelConfigurations.
pub(crate) const PRIORITY_LEVEL: &[Column] = &[
    col("Type", "string", 0, "`type` indicates whether this priority level is subject to limitation on request execution.  A value of `\"Exempt\"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `\"Limited\"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server's limited capacity is made available exclusively to this priority level. Required.", |o| json!(s(o, "/spec/type"))),
    col("NominalConcurrencyShares", "string", 0, "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server's concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a \"jail\" for this priority level that is used to hold some request(s)", |o| {
        int_or_none(o, "/spec/limited", "nominalConcurrencyShares")
    }),
    col("Queues", "string", 0, "`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.", |o| int_or_none(o, "/spec/limited/limitResponse/queuing", "queues")),
    col("HandSize", "string", 0, "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.", |o| int_or_none(o, "/spec/limited/limitResponse/queuing", "handSize")),
    col("QueueLengthLimit", "string", 0, "`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.", |o| int_or_none(o, "/spec/limited/limitResponse/queuing", "queueLengthLimit")),
    AGE,
];
