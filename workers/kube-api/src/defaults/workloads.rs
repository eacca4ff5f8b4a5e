//! Defaults of the workload resources: apps/v1 Deployments, ReplicaSets, StatefulSets
//! and DaemonSets, batch/v1 Jobs (and their generated selector) and CronJobs, core/v1
//! ReplicationControllers and PodTemplates.

use serde_json::{json, Value};

use super::{each, entry, set, template_defaults};

/// Labels a Job's pods and selector get from the server (current and legacy names).
const CONTROLLER_UID: &str = "batch.kubernetes.io/controller-uid";
const LEGACY_CONTROLLER_UID: &str = "controller-uid";
const JOB_NAME: &str = "batch.kubernetes.io/job-name";
const LEGACY_JOB_NAME: &str = "job-name";
/// The annotation apps/v1 carries a DaemonSet's template generation in.
const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

fn spec(obj: &mut Value) -> Option<&mut Value> {
    entry(obj, "spec", json!({})).filter(|s| s.is_object())
}

/// apps/v1 Deployment.
pub(crate) fn deployment_defaults(obj: &mut Value) {
    let Some(spec) = spec(obj) else {
        return;
    };
    entry(spec, "replicas", json!(1));
    if let Some(strategy) = entry(spec, "strategy", json!({})).filter(|s| s.is_object()) {
        set(strategy, "type", json!("RollingUpdate"));
        if strategy["type"] == "RollingUpdate" {
            if let Some(ru) = entry(strategy, "rollingUpdate", json!({})).filter(|r| r.is_object())
            {
                entry(ru, "maxUnavailable", json!("25%"));
                entry(ru, "maxSurge", json!("25%"));
            }
        }
    }
    entry(spec, "revisionHistoryLimit", json!(10));
    entry(spec, "progressDeadlineSeconds", json!(600));
    template_defaults(spec.get_mut("template"));
}

/// apps/v1 ReplicaSet.
pub(crate) fn replicaset_defaults(obj: &mut Value) {
    let Some(spec) = spec(obj) else {
        return;
    };
    entry(spec, "replicas", json!(1));
    template_defaults(spec.get_mut("template"));
}

/// core/v1 ReplicationController: the selector and the object's labels come from the
/// template's labels when empty, one replica, and the template's pod defaults.
pub(crate) fn replication_controller_defaults(obj: &mut Value) {
    let labels = obj.pointer("/spec/template/metadata/labels").cloned();
    let Some(spec) = spec(obj) else {
        return;
    };
    if let Some(labels) = labels.as_ref().filter(|l| l.is_object()) {
        let selector = spec.get("selector").and_then(Value::as_object);
        if selector.is_none_or(|s| s.is_empty()) {
            spec["selector"] = labels.clone();
        }
    }
    entry(spec, "replicas", json!(1));
    template_defaults(spec.get_mut("template"));
    if let Some(labels) = labels.filter(|l| l.is_object()) {
        let Some(meta) = entry(obj, "metadata", json!({})).filter(|m| m.is_object()) else {
            return;
        };
        let own = meta.get("labels").and_then(Value::as_object);
        if own.is_none_or(|l| l.is_empty()) {
            meta["labels"] = labels;
        }
    }
}

/// core/v1 PodTemplate: the template's pod defaults.
pub(crate) fn pod_template_defaults(obj: &mut Value) {
    template_defaults(obj.get_mut("template"));
}

/// apps/v1 DaemonSet.
pub(crate) fn daemonset_defaults(obj: &mut Value) {
    // apps/v1 always shows the internal template generation as this annotation, "0"
    // until the strategy sets it; so the writer of a new DaemonSet manages it.
    if let Some(meta) = entry(obj, "metadata", json!({})).filter(|m| m.is_object()) {
        if let Some(a) = entry(meta, "annotations", json!({})).and_then(Value::as_object_mut) {
            a.entry(TEMPLATE_GENERATION).or_insert_with(|| json!("0"));
        }
    }
    let Some(spec) = spec(obj) else {
        return;
    };
    if let Some(us) = entry(spec, "updateStrategy", json!({})).filter(|s| s.is_object()) {
        set(us, "type", json!("RollingUpdate"));
        if us["type"] == "RollingUpdate" {
            if let Some(ru) = entry(us, "rollingUpdate", json!({})).filter(|r| r.is_object()) {
                entry(ru, "maxUnavailable", json!(1));
                entry(ru, "maxSurge", json!(0));
            }
        }
    }
    entry(spec, "revisionHistoryLimit", json!(10));
    template_defaults(spec.get_mut("template"));
}

/// apps/v1 StatefulSet.
pub(crate) fn statefulset_defaults(obj: &mut Value) {
    let Some(spec) = spec(obj) else {
        return;
    };
    set(spec, "podManagementPolicy", json!("OrderedReady"));
    if let Some(us) = entry(spec, "updateStrategy", json!({})).filter(|s| s.is_object()) {
        // Only a defaulted type brings an empty rollingUpdate; a partition is given to a
        // rollingUpdate that is there.
        if us
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
        {
            us["type"] = json!("RollingUpdate");
            entry(us, "rollingUpdate", json!({}));
        }
        if us["type"] == "RollingUpdate" {
            if let Some(ru) = us.get_mut("rollingUpdate").filter(|r| r.is_object()) {
                entry(ru, "partition", json!(0));
            }
        }
    }
    let policy = entry(spec, "persistentVolumeClaimRetentionPolicy", json!({}));
    if let Some(p) = policy.filter(|p| p.is_object()) {
        set(p, "whenDeleted", json!("Retain"));
        set(p, "whenScaled", json!("Retain"));
    }
    entry(spec, "replicas", json!(1));
    entry(spec, "revisionHistoryLimit", json!(10));
    for pvc in each(spec, "volumeClaimTemplates") {
        set(pvc, "apiVersion", json!("v1"));
        set(pvc, "kind", json!("PersistentVolumeClaim"));
        if let Some(s) = pvc.get_mut("spec").filter(|s| s.is_object()) {
            set(s, "volumeMode", json!("Filesystem"));
        }
        if let Some(st) = entry(pvc, "status", json!({})).filter(|s| s.is_object()) {
            set(st, "phase", json!("Pending"));
        }
    }
    template_defaults(spec.get_mut("template"));
}

/// batch/v1 Job. The selector is generated separately, see [`job_generate_selector`].
pub(crate) fn job_defaults(obj: &mut Value) {
    let template_labels = obj.pointer("/spec/template/metadata/labels").cloned();
    let Some(spec) = spec(obj) else {
        return;
    };
    let unset = |s: &Value, k: &str| s.get(k).is_none_or(Value::is_null);
    if unset(spec, "completions") && unset(spec, "parallelism") {
        entry(spec, "completions", json!(1));
    }
    entry(spec, "parallelism", json!(1));
    let per_index = !unset(spec, "backoffLimitPerIndex");
    entry(
        spec,
        "backoffLimit",
        json!(if per_index { i32::MAX } else { 6 }),
    );
    set(spec, "completionMode", json!("NonIndexed"));
    entry(spec, "suspend", json!(false));
    let failure_policy = !unset(spec, "podFailurePolicy");
    let replacement = if failure_policy {
        "Failed"
    } else {
        "TerminatingOrFailed"
    };
    set(spec, "podReplacementPolicy", json!(replacement));
    entry(spec, "manualSelector", json!(false));
    let rules = spec
        .pointer_mut("/podFailurePolicy/rules")
        .and_then(Value::as_array_mut);
    for rule in rules.into_iter().flatten() {
        for pattern in each(rule, "onPodConditions") {
            set(pattern, "status", json!("True"));
        }
    }
    template_defaults(spec.get_mut("template"));
    copy_labels(obj, template_labels);
}

/// A Job's labels come from its pod template when it has none of its own.
pub(super) fn copy_labels(obj: &mut Value, labels: Option<Value>) {
    let Some(labels) = labels.filter(|l| l.as_object().is_some_and(|m| !m.is_empty())) else {
        return;
    };
    let Some(meta) = entry(obj, "metadata", json!({})).filter(|m| m.is_object()) else {
        return;
    };
    let own = meta.get("labels").and_then(Value::as_object);
    if own.is_none_or(|l| l.is_empty()) {
        meta["labels"] = labels;
    }
}

/// What upstream does to a new Job without `manualSelector: true`: the pod template is
/// labelled with the job's name and `uid`, and the selector selects that uid. Call on
/// create, once the uid is known. The Job's own labels follow its template's when empty.
pub(crate) fn job_generate_selector(obj: &mut Value, uid: &str) {
    if obj.pointer("/spec/manualSelector") == Some(&Value::Bool(true)) {
        return;
    }
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let Some(spec) = spec(obj) else {
        return;
    };
    let labels = entry(spec, "template", json!({}))
        .filter(|t| t.is_object())
        .and_then(|t| entry(t, "metadata", json!({})))
        .filter(|m| m.is_object())
        .and_then(|m| entry(m, "labels", json!({})))
        .and_then(Value::as_object_mut);
    let Some(labels) = labels else {
        return;
    };
    for key in [LEGACY_JOB_NAME, JOB_NAME] {
        labels.entry(key).or_insert_with(|| json!(name));
    }
    for key in [LEGACY_CONTROLLER_UID, CONTROLLER_UID] {
        labels.entry(key).or_insert_with(|| json!(uid));
    }
    let template_labels = Value::Object(labels.clone());
    let match_labels = entry(spec, "selector", json!({}))
        .filter(|s| s.is_object())
        .and_then(|s| entry(s, "matchLabels", json!({})))
        .and_then(Value::as_object_mut);
    if let Some(ml) = match_labels {
        ml.entry(CONTROLLER_UID).or_insert_with(|| json!(uid));
    }
    copy_labels(obj, Some(template_labels));
}

/// batch/v1 CronJob.
pub(crate) fn cronjob_defaults(obj: &mut Value) {
    let Some(spec) = spec(obj) else {
        return;
    };
    set(spec, "concurrencyPolicy", json!("Allow"));
    entry(spec, "suspend", json!(false));
    entry(spec, "successfulJobsHistoryLimit", json!(3));
    entry(spec, "failedJobsHistoryLimit", json!(1));
    if let Some(job) = spec.pointer_mut("/jobTemplate/spec") {
        template_defaults(job.get_mut("template"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template() -> Value {
        json!({"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}})
    }

    fn twice(f: fn(&mut Value), mut v: Value) -> Value {
        f(&mut v);
        let once = v.clone();
        f(&mut v);
        assert_eq!(v, once);
        v
    }

    #[test]
    fn apps() {
        let d = twice(
            deployment_defaults,
            json!({"spec": {"template": template()}}),
        );
        assert_eq!(d["spec"]["replicas"], 1);
        assert_eq!(
            d["spec"]["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
        );
        assert_eq!(d["spec"]["revisionHistoryLimit"], 10);
        assert_eq!(d["spec"]["progressDeadlineSeconds"], 600);
        assert_eq!(d["spec"]["template"]["spec"]["restartPolicy"], "Always");
        let d = twice(
            deployment_defaults,
            json!({"spec": {"strategy": {"type": "Recreate"}}}),
        );
        assert_eq!(d["spec"]["strategy"], json!({"type": "Recreate"}));
        let r = twice(
            replicaset_defaults,
            json!({"spec": {"replicas": 0, "template": template()}}),
        );
        assert_eq!(r["spec"]["replicas"], 0);
        let ds = twice(daemonset_defaults, json!({}));
        assert_eq!(
            ds["spec"]["updateStrategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})
        );
        let ss = twice(
            statefulset_defaults,
            json!({"spec": {"volumeClaimTemplates": [{"spec": {}}]}}),
        );
        assert_eq!(ss["spec"]["podManagementPolicy"], "OrderedReady");
        assert_eq!(
            ss["spec"]["updateStrategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}})
        );
        assert_eq!(
            ss["spec"]["persistentVolumeClaimRetentionPolicy"],
            json!({"whenDeleted": "Retain", "whenScaled": "Retain"})
        );
        assert_eq!(
            ss["spec"]["volumeClaimTemplates"][0],
            json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "spec": {"volumeMode": "Filesystem"}, "status": {"phase": "Pending"}})
        );
        // A type given without rollingUpdate gets none.
        let given = twice(
            statefulset_defaults,
            json!({"spec": {"updateStrategy": {"type": "RollingUpdate"}}}),
        );
        assert_eq!(
            given["spec"]["updateStrategy"],
            json!({"type": "RollingUpdate"})
        );
        for f in [
            deployment_defaults,
            replicaset_defaults,
            daemonset_defaults,
            statefulset_defaults,
            job_defaults,
            cronjob_defaults,
        ] {
            for mut v in [
                json!(null),
                json!({"spec": 1}),
                json!({"spec": {"strategy": 1, "updateStrategy": [], "template": 2, "volumeClaimTemplates": [1]}}),
            ] {
                f(&mut v);
            }
        }
    }

    #[test]
    fn replication_controllers_and_templates() {
        let rc = twice(
            replication_controller_defaults,
            json!({"spec": {"template": template()}}),
        );
        assert_eq!(rc["spec"]["selector"], json!({"app": "a"}));
        assert_eq!(rc["metadata"]["labels"], json!({"app": "a"}));
        assert_eq!(rc["spec"]["replicas"], 1);
        assert_eq!(rc["spec"]["template"]["spec"]["dnsPolicy"], "ClusterFirst");
        let rc = twice(
            replication_controller_defaults,
            json!({"metadata": {"labels": {"x": "y"}}, "spec": {"replicas": 0, "selector": {"app": "a"}, "template": {"metadata": {"labels": {"app": "a", "b": "c"}}}}}),
        );
        assert_eq!(rc["spec"]["selector"], json!({"app": "a"}));
        assert_eq!(rc["metadata"]["labels"], json!({"x": "y"}));
        assert_eq!(rc["spec"]["replicas"], 0);
        let rc = twice(replication_controller_defaults, json!({"spec": {}}));
        assert_eq!(rc, json!({"spec": {"replicas": 1}}));
        let pt = twice(pod_template_defaults, json!({"template": template()}));
        assert_eq!(pt["template"]["spec"]["schedulerName"], "default-scheduler");
        for mut v in [
            json!(null),
            json!({"spec": {"template": {"metadata": {"labels": 1}}}}),
            json!({"template": 1}),
        ] {
            replication_controller_defaults(&mut v);
            pod_template_defaults(&mut v);
        }
    }

    #[test]
    fn jobs() {
        let j = twice(
            job_defaults,
            json!({"metadata": {"name": "j"}, "spec": {"template": template()}}),
        );
        let s = &j["spec"];
        assert_eq!(
            (
                s["completions"].clone(),
                s["parallelism"].clone(),
                s["backoffLimit"].clone()
            ),
            (json!(1), json!(1), json!(6))
        );
        assert_eq!(
            (s["completionMode"].as_str(), s["suspend"].as_bool()),
            (Some("NonIndexed"), Some(false))
        );
        assert_eq!(s["podReplacementPolicy"], "TerminatingOrFailed");
        assert_eq!(s["template"]["spec"]["restartPolicy"], "Always");
        assert_eq!(j["metadata"]["labels"], json!({"app": "a"}));
        let j = twice(job_defaults, json!({"spec": {"parallelism": 3}}));
        assert!(j["spec"].get("completions").is_none());
        let mut j = json!({"metadata": {"name": "j"}, "spec": {"template": {"spec": {}}}});
        job_generate_selector(&mut j, "u1");
        assert_eq!(
            j["spec"]["selector"],
            json!({"matchLabels": {CONTROLLER_UID: "u1"}})
        );
        assert_eq!(
            j["spec"]["template"]["metadata"]["labels"],
            json!({CONTROLLER_UID: "u1", LEGACY_CONTROLLER_UID: "u1", JOB_NAME: "j", LEGACY_JOB_NAME: "j"})
        );
        assert_eq!(
            j["metadata"]["labels"],
            j["spec"]["template"]["metadata"]["labels"]
        );
        let mut manual = json!({"spec": {"manualSelector": true}});
        job_generate_selector(&mut manual, "u");
        assert_eq!(manual, json!({"spec": {"manualSelector": true}}));
        let c = twice(
            cronjob_defaults,
            json!({"spec": {"jobTemplate": {"spec": {"template": template()}}}}),
        );
        assert_eq!(c["spec"]["concurrencyPolicy"], "Allow");
        assert_eq!(
            (
                c["spec"]["successfulJobsHistoryLimit"].clone(),
                c["spec"]["failedJobsHistoryLimit"].clone()
            ),
            (json!(3), json!(1))
        );
        assert_eq!(
            c["spec"]["jobTemplate"]["spec"]["template"]["spec"]["dnsPolicy"],
            "ClusterFirst"
        );
        assert!(c["spec"]["jobTemplate"]["spec"]
            .get("backoffLimit")
            .is_none());
    }
}
