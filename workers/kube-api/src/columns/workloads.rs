//! Printer columns of the workload types: apps, batch, autoscaling, policy.

use kas_server::rest::{age, Column};
use serde_json::{json, Value};

use super::{
    arr, col, containers, i, images, map_string, none_if_empty, s, selector, short_duration, AGE,
    TEMPLATE_CONTAINERS, TEMPLATE_IMAGES,
};

/// Deployments.
pub(crate) const DEPLOYMENT: &[Column] = &[
    col("Ready", "string", 0, "Number of the pod with ready state", |o| json!(format!("{}/{}", i(o, "/status/readyReplicas"), i(o, "/spec/replicas")))),
    col("Up-to-date", "string", 0, "Total number of non-terminated pods targeted by this deployment that have the desired template spec.", |o| json!(i(o, "/status/updatedReplicas"))),
    col("Available", "string", 0, "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.", |o| json!(i(o, "/status/availableReplicas"))),
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
        "string",
        0,
        "Revision indicates the revision of the state represented by Data.",
        |o| json!(i(o, "/revision")),
    ),
    AGE,
];

/// HorizontalPodAutoscalers.
pub(crate) const HPA: &[Column] = &[
    col("Reference", "string", 0, "The target object to be scaled", |o| json!(format!("{}/{}", s(o, "/spec/scaleTargetRef/kind"), s(o, "/spec/scaleTargetRef/name")))),
    col("Targets", "string", 0, "The current and target metrics", |_| json!("<unknown>")),
    col("MinPods", "string", 0, "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.", |o| json!(o.pointer("/spec/minReplicas").and_then(Value::as_i64).unwrap_or(1).to_string())),
    col("MaxPods", "string", 0, "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.", |o| json!(i(o, "/spec/maxReplicas"))),
    col("Replicas", "string", 0, "currentReplicas is current number of replicas of pods managed by this autoscaler.", |o| json!(i(o, "/status/currentReplicas"))),
    AGE,
];
