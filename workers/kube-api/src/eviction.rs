//! `pods/eviction` as kube-apiserver's eviction REST (v1.33): a pod that is pending,
//! terminal or already being deleted is deleted at once; otherwise the one
//! PodDisruptionBudget selecting it must allow a disruption, which the eviction takes
//! (decrementing `disruptionsAllowed` and recording the pod in `disruptedPods`) before the
//! pod gets its `DisruptionTarget` condition and is deleted. Refusals are upstream's: 429
//! with a `DisruptionBudget` cause, 403 for a budget in a state only a broken controller
//! leaves, and the "more than one PodDisruptionBudget" failure (in a 201, as upstream).
//! `dryRun` (in the query or the body's deleteOptions) changes nothing.

use std::time::Duration;

use kas_server::rest::{revision_of, RestStore, WriteOptions};
use kas_server::selectors::{label_selector_string, LabelSelector};
use kas_server::status::{Reason, Status, StatusCause, StatusDetails};
use serde_json::{json, Map, Value};

/// Past this many pods in `disruptedPods` (evictions the disruption controller has not
/// yet seen) evictions are refused (upstream's MaxDisruptedPodSize).
const MAX_DISRUPTED_PODS: usize = 2000;

/// How often a write that lost a race (409) is tried again, and the pause between tries.
const RETRIES: usize = 20;
const RETRY_PAUSE: Duration = Duration::from_millis(20);

const VIOLATES: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// One eviction of pod `ns/name`, as posted in `body`.
pub(crate) struct Eviction<'a> {
    pub(crate) pods: &'a RestStore,
    pub(crate) budgets: &'a RestStore,
    pub(crate) namespace: &'a str,
    pub(crate) name: &'a str,
}

impl Eviction<'_> {
    /// Evicts the pod; the answer is the `Status` upstream returns in its 201.
    pub(crate) async fn run(&self, body: &Value, opts: &WriteOptions) -> Result<Value, Status> {
        check_type(body)?;
        if body.pointer("/metadata/name").and_then(Value::as_str) != Some(self.name) {
            return Err(Status::new(
                Reason::BadRequest,
                "name in URL does not match name in Eviction object",
            ));
        }
        let options = delete_options(body, opts.dry_run)?;
        let dry_run = options
            .get("dryRun")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|v| v == "All"));
        let rv_given = options
            .pointer("/preconditions/resourceVersion")
            .is_some_and(Value::is_string);
        // The pod's own writes are the server's: admission saw the eviction.
        let mut write = WriteOptions::server(&opts.manager);
        write.dry_run = dry_run;

        let mut tries = 0;
        let pod = loop {
            let pod = self.pods.read_object(self.namespace, self.name).await?;
            if !can_ignore_budgets(&pod) {
                break pod;
            }
            let mut o = options.clone();
            if !rv_given && enforce_resource_version(&pod) {
                set_precondition(&mut o, &pod);
            }
            match self.delete(o, &write).await {
                Ok(()) => return Ok(success()),
                Err(s) if s.reason == Reason::Conflict && !rv_given && tries < RETRIES => {
                    tries += 1;
                    tokio::time::sleep(RETRY_PAUSE).await;
                }
                Err(s) => return Err(s),
            }
        };

        let mut matching = self.budgets_of(&pod).await?;
        if matching.len() > 1 {
            return Ok(json!({
                "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                "code": 500,
            }));
        }
        let mut unhealthy_allowed = None;
        if let Some(pdb) = matching.pop() {
            let name = str_at(&pdb, "/metadata/name").to_owned();
            if !is_ready(&pod) && unhealthy_may_go(&pdb) {
                // Not ready: it counts towards no budget, nothing is taken from it.
                unhealthy_allowed = Some(name);
            } else {
                self.take_disruption(pdb, &write).await?;
            }
        }

        let mut o = options.clone();
        if unhealthy_allowed.is_some() {
            // The pod must not have become ready since it was judged.
            set_precondition(&mut o, &pod);
        }
        match self.delete(o, &write).await {
            Ok(()) => Ok(success()),
            Err(s) if s.reason == Reason::Conflict && !rv_given => match unhealthy_allowed {
                Some(name) => Err(still_processing(&name)),
                None => Err(s),
            },
            Err(s) => Err(s),
        }
    }

    /// The budgets in the pod's namespace whose selector matches it (an empty or invalid
    /// selector matches nothing).
    async fn budgets_of(&self, pod: &Value) -> Result<Vec<Value>, Status> {
        let (all, _) = self.budgets.list_objects(self.namespace).await?;
        Ok(all
            .into_iter()
            .filter(|pdb| {
                let Some(selector) = pdb.pointer("/spec/selector") else {
                    return false;
                };
                let text = label_selector_string(selector);
                LabelSelector::parse(&text).is_ok_and(|s| !s.is_empty() && s.matches(pod))
                    && selector_is_valid(selector)
            })
            .collect())
    }

    /// Checks the budget allows a disruption and takes one, again from a fresh read when
    /// its status write loses a race.
    async fn take_disruption(&self, mut pdb: Value, write: &WriteOptions) -> Result<(), Status> {
        let name = str_at(&pdb, "/metadata/name").to_owned();
        let mut tries = 0;
        loop {
            let decremented = check_and_decrement(pdb, self.name)?;
            if write.dry_run {
                return Ok(());
            }
            let expected = revision_of(&decremented);
            match self
                .budgets
                .update_object(
                    self.namespace,
                    &name,
                    "status",
                    decremented,
                    expected,
                    write,
                )
                .await
            {
                Ok(_) => return Ok(()),
                Err(s) if s.reason == Reason::Conflict && tries < RETRIES => {
                    tries += 1;
                    tokio::time::sleep(RETRY_PAUSE).await;
                    pdb = self.budgets.read_object(self.namespace, &name).await?;
                }
                Err(s) => return Err(s),
            }
        }
    }

    /// Marks the pod with `DisruptionTarget` (not on a dry run) and deletes it, under the
    /// preconditions of `options` checked against the pod as it is now.
    async fn delete(&self, mut options: Value, write: &WriteOptions) -> Result<(), Status> {
        if !write.dry_run {
            let mut pod = self.pods.read_object(self.namespace, self.name).await?;
            check_preconditions(&options, &pod, self.name)?;
            let rv_precondition = options.pointer("/preconditions/resourceVersion").is_some();
            if add_disruption_target(&mut pod) {
                let expected = revision_of(&pod);
                let updated = self
                    .pods
                    .update_object(self.namespace, self.name, "status", pod, expected, write)
                    .await?;
                if rv_precondition {
                    // The condition's write is ours: the delete expects its version.
                    set_precondition(&mut options, &updated);
                }
            }
        }
        self.pods
            .delete_object(self.namespace, self.name, Some(&options), write)
            .await
            .map(|_| ())
    }
}

fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn success() -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201})
}

/// The body must be a policy/v1 or policy/v1beta1 Eviction (type fields may be absent).
fn check_type(body: &Value) -> Result<(), Status> {
    if !body.is_object() {
        return Err(Status::new(
            Reason::BadRequest,
            "the body of the request must be a JSON object",
        ));
    }
    let version = str_at(body, "/apiVersion");
    if !matches!(version, "" | "policy/v1" | "policy/v1beta1") {
        return Err(Status::new(
            Reason::BadRequest,
            format!("the API version in the data ({version}) does not match the expected API version (policy/v1)"),
        ));
    }
    let kind = str_at(body, "/kind");
    if !matches!(kind, "" | "Eviction") {
        let version = if version.is_empty() {
            "policy/v1"
        } else {
            version
        };
        let v = version.rsplit('/').next().unwrap_or(version);
        return Err(Status::new(
            Reason::BadRequest,
            format!("{kind} in version \"{v}\" cannot be handled as a Eviction: no kind \"{kind}\" is registered for version \"{version}\" in scheme \"pkg/api/legacyscheme/scheme.go:30\""),
        ));
    }
    Ok(())
}

/// The eviction's DeleteOptions with the request's `dryRun` folded in; the two may not
/// disagree (upstream's propagateDryRun).
fn delete_options(body: &Value, query_dry_run: bool) -> Result<Value, Status> {
    let mut options = match body.get("deleteOptions") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(o @ Value::Object(_)) => o.clone(),
        Some(_) => {
            return Err(Status::new(
                Reason::BadRequest,
                "deleteOptions must be an object",
            ))
        }
    };
    let query: Vec<Value> = if query_dry_run {
        vec![json!("All")]
    } else {
        Vec::new()
    };
    let body_dry: Vec<Value> = options
        .get("dryRun")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if body_dry.is_empty() {
        if !query.is_empty() {
            options["dryRun"] = json!(query);
        }
    } else if !query.is_empty() && query != body_dry {
        let list = |v: &[Value]| {
            v.iter()
                .map(|s| s.as_str().unwrap_or("").to_owned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        return Err(Status::new(
            Reason::Unknown,
            format!(
                "Non-matching dry-run options in request and content: [{}] and [{}]",
                list(&query),
                list(&body_dry)
            ),
        ));
    }
    Ok(options)
}

/// Pending, terminal and terminating pods are deleted without asking their budget.
fn can_ignore_budgets(pod: &Value) -> bool {
    matches!(
        str_at(pod, "/status/phase"),
        "Succeeded" | "Failed" | "Pending"
    ) || pod.pointer("/metadata/deletionTimestamp").is_some()
}

/// Whether the delete must be of the version read (not for terminal or terminating pods).
fn enforce_resource_version(pod: &Value) -> bool {
    !matches!(str_at(pod, "/status/phase"), "Succeeded" | "Failed")
        && pod.pointer("/metadata/deletionTimestamp").is_none()
}

fn set_precondition(options: &mut Value, obj: &Value) {
    let rv = str_at(obj, "/metadata/resourceVersion").to_owned();
    if !options.get("preconditions").is_some_and(Value::is_object) {
        options["preconditions"] = json!({});
    }
    options["preconditions"]["resourceVersion"] = json!(rv);
}

/// The preconditions against the pod now, worded as upstream's eviction words them.
fn check_preconditions(options: &Value, pod: &Value, name: &str) -> Result<(), Status> {
    let conflict = |why: String| {
        Status::new(
            Reason::Conflict,
            format!("Operation cannot be fulfilled on Pod \"{name}\": {why}"),
        )
    };
    let uid = str_at(pod, "/metadata/uid");
    match options
        .pointer("/preconditions/uid")
        .and_then(Value::as_str)
    {
        Some(want) if !want.is_empty() && want != uid => {
            return Err(conflict(format!("the UID in the precondition ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated")));
        }
        _ => {}
    }
    let rv = str_at(pod, "/metadata/resourceVersion");
    match options
        .pointer("/preconditions/resourceVersion")
        .and_then(Value::as_str)
    {
        Some(want) if !want.is_empty() && want != rv => Err(conflict(format!("the ResourceVersion in the precondition ({want}) does not match the ResourceVersion in record ({rv}). The object might have been modified"))),
        _ => Ok(()),
    }
}

/// `status.conditions` gains (or updates to) DisruptionTarget=True by the eviction API;
/// false when it already says so.
fn add_disruption_target(pod: &mut Value) -> bool {
    let wanted = json!({
        "type": "DisruptionTarget",
        "status": "True",
        "reason": "EvictionByEvictionAPI",
        "message": "Eviction API: evicting",
    });
    if !pod.get("status").is_some_and(Value::is_object) {
        pod["status"] = json!({});
    }
    if !pod["status"].get("conditions").is_some_and(Value::is_array) {
        pod["status"]["conditions"] = json!([]);
    }
    let Some(conditions) = pod["status"]["conditions"].as_array_mut() else {
        return false;
    };
    let now = kas_server::rest::now();
    match conditions
        .iter_mut()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("DisruptionTarget"))
    {
        Some(c) => {
            let same = ["status", "reason", "message"]
                .iter()
                .all(|k| c.get(*k) == wanted.get(*k));
            if same {
                return false;
            }
            if c.get("status") != wanted.get("status") {
                c["lastTransitionTime"] = json!(now);
            }
            for k in ["status", "reason", "message"] {
                c[k] = wanted[k].clone();
            }
            true
        }
        None => {
            let mut c = wanted;
            c["lastTransitionTime"] = json!(now);
            conditions.push(c);
            true
        }
    }
}

fn is_ready(pod: &Value) -> bool {
    pod.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| {
            c.get("type").and_then(Value::as_str) == Some("Ready")
                && c.get("status").and_then(Value::as_str) == Some("True")
        })
}

/// An unready pod may go without taking from the budget: under AlwaysAllow always, else
/// (IfHealthyBudget, the default) while the application is as healthy as it must be.
fn unhealthy_may_go(pdb: &Value) -> bool {
    if str_at(pdb, "/spec/unhealthyPodEvictionPolicy") == "AlwaysAllow" {
        return true;
    }
    let (current, desired) = healthy(pdb);
    current >= desired && desired > 0
}

fn int_at(v: &Value, pointer: &str) -> i64 {
    v.pointer(pointer).and_then(Value::as_i64).unwrap_or(0)
}

fn healthy(pdb: &Value) -> (i64, i64) {
    (
        int_at(pdb, "/status/currentHealthy"),
        int_at(pdb, "/status/desiredHealthy"),
    )
}

/// A 429 telling the client to come back once the disruption controller caught up.
fn still_processing(name: &str) -> Status {
    too_many(
        format!("The disruption budget {name} is still being processed by the server."),
        10,
    )
}

fn too_many(cause: String, retry_after: u32) -> Status {
    Status {
        details: Some(StatusDetails {
            causes: vec![StatusCause {
                reason: "DisruptionBudget".into(),
                message: cause,
                field: String::new(),
            }],
            retry_after_seconds: (retry_after > 0).then_some(retry_after),
            ..Default::default()
        }),
        retry_after: (retry_after > 0).then_some(retry_after),
        ..Status::new(Reason::TooManyRequests, VIOLATES)
    }
}

/// Upstream's checkAndDecrement: the budget as it is after this eviction takes a
/// disruption from it (`disruptedPods` gains the pod), or why it may not.
fn check_and_decrement(mut pdb: Value, pod: &str) -> Result<Value, Status> {
    let name = str_at(&pdb, "/metadata/name").to_owned();
    let generation = int_at(&pdb, "/metadata/generation");
    let observed = int_at(&pdb, "/status/observedGeneration");
    if observed < generation {
        return Err(still_processing(&name));
    }
    let allowed = int_at(&pdb, "/status/disruptionsAllowed");
    if allowed < 0 {
        return Err(Status::forbidden(
            "policy",
            "poddisruptionbudget",
            &name,
            "pdb disruptions allowed is negative",
        ));
    }
    let disrupted = pdb
        .pointer("/status/disruptedPods")
        .and_then(Value::as_object)
        .map_or(0, Map::len);
    if disrupted > MAX_DISRUPTED_PODS {
        return Err(Status::forbidden(
            "policy",
            "poddisruptionbudget",
            &name,
            "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
        ));
    }
    if allowed == 0 {
        let (current, desired) = healthy(&pdb);
        return Err(too_many(
            format!("The disruption budget {name} needs {desired} healthy pods and has {current} currently"),
            0,
        ));
    }
    let now = kas_server::rest::now();
    let status = &mut pdb["status"];
    status["disruptionsAllowed"] = json!(allowed - 1);
    if allowed - 1 == 0 {
        set_disruption_allowed(status, observed, &now);
    }
    if !status.get("disruptedPods").is_some_and(Value::is_object) {
        status["disruptedPods"] = json!({});
    }
    status["disruptedPods"][pod] = json!(now);
    Ok(pdb)
}

/// The DisruptionAllowed condition as upstream's helper sets it when no disruption is
/// left: False, InsufficientPods.
fn set_disruption_allowed(status: &mut Value, observed: i64, now: &str) {
    if !status.get("conditions").is_some_and(Value::is_array) {
        status["conditions"] = json!([]);
    }
    let Some(conditions) = status["conditions"].as_array_mut() else {
        return;
    };
    let found = conditions
        .iter_mut()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("DisruptionAllowed"));
    match found {
        Some(c) => {
            if c.get("status").and_then(Value::as_str) != Some("False") {
                c["status"] = json!("False");
                c["lastTransitionTime"] = json!(now);
            }
            c["reason"] = json!("InsufficientPods");
            c["observedGeneration"] = json!(observed);
            if c.get("message").is_none() {
                c["message"] = json!("");
            }
        }
        None => conditions.push(json!({
            "type": "DisruptionAllowed",
            "status": "False",
            "observedGeneration": observed,
            "lastTransitionTime": now,
            "reason": "InsufficientPods",
            "message": "",
        })),
    }
}

/// `In`/`NotIn` need values and `Exists`/`DoesNotExist` none; an unknown operator is
/// invalid: such a selector selects nothing (upstream's LabelSelectorAsSelector errs).
fn selector_is_valid(selector: &Value) -> bool {
    selector
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .all(|e| {
            let n = e
                .get("values")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            match e.get("operator").and_then(Value::as_str) {
                Some("In" | "NotIn") => n > 0,
                Some("Exists" | "DoesNotExist") => n == 0,
                _ => false,
            }
        })
}

#[cfg(test)]
#[path = "eviction_tests.rs"]
mod tests;
