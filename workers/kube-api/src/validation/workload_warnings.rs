//! The strategies' warnings (WarningsOnCreate/WarningsOnUpdate) of pods and of the
//! workloads with pod templates, as kube-apiserver 1.33 gives them: names that are not
//! DNS labels, the pod spec's warnings (`pod_warnings`) — a pod's on create only, a
//! template's on create and whenever the workload's generation moves — a StatefulSet's
//! claim sizes and negative history limit, an Indexed Job too large to track, a CronJob
//! schedule with a time zone.

use serde_json::Value;

use super::causes::{dns_label_msgs, s};
use super::pod_warnings::{fractional, go_list, q, spec_and_meta};

/// GetWarningsForPersistentVolumeClaimSpec: fractional storage sizes.
pub(crate) fn claim_spec_warnings(at: &str, spec: &Value, out: &mut Vec<String>) {
    for list in ["requests", "limits"] {
        if let Some(v) = fractional(spec.pointer(&format!("/resources/{list}/storage"))) {
            out.push(format!("{at}.resources.{list}[storage]: fractional byte value {} is invalid, must be an integer", q(&v)));
        }
    }
}

/// A name used for pods' names and host names that is not a DNS label.
fn name_warning(obj: &Value, what: &str, out: &mut Vec<String>) {
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let msgs = dns_label_msgs(name);
    if !msgs.is_empty() {
        out.push(format!("metadata.name: this is used in {what}, which can result in surprising behavior; a DNS label is recommended: {}", go_list(&msgs)));
    }
}

fn template_at(prefix: &str, template: Option<&Value>, out: &mut Vec<String>) {
    let Some(t) = template.filter(|t| t.is_object()) else {
        return;
    };
    let empty = Value::Null;
    let spec = t.get("spec").unwrap_or(&empty);
    let meta = t.get("metadata").unwrap_or(&empty);
    spec_and_meta(&format!("{prefix}."), spec, meta, out);
}

fn generation(o: &Value) -> Option<&Value> {
    o.pointer("/metadata/generation")
}

/// Pods: on create only.
pub(crate) fn pod_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    if old.is_some() {
        return out;
    }
    name_warning(obj, "the Pod's hostname", &mut out);
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let meta = obj.get("metadata").unwrap_or(&empty);
    spec_and_meta("", spec, meta, &mut out);
    out
}

/// Deployments, ReplicaSets, ReplicationControllers: the name, and the template on
/// create or when the generation moves.
pub(crate) fn workload_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    match old {
        None => {
            name_warning(obj, "Pod names and hostnames", &mut out);
            template_at("spec.template", obj.pointer("/spec/template"), &mut out);
        }
        Some(old) if generation(obj) != generation(old) => {
            // A ReplicationController warns about its old template (upstream's quirk).
            let rc = obj.get("kind").and_then(Value::as_str) == Some("ReplicationController");
            let from = if rc { old } else { obj };
            template_at("spec.template", from.pointer("/spec/template"), &mut out);
        }
        Some(_) => {}
    }
    out
}

/// DaemonSets: the template on create or when its templateGeneration moves.
pub(crate) fn daemonset_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    let generation = |o: &Value| {
        o.pointer("/metadata/annotations")
            .and_then(|a| a.get("deprecated.daemonset.template.generation"))
            .cloned()
    };
    let moved = old.is_none_or(|old| generation(obj) != generation(old));
    if moved {
        template_at("spec.template", obj.pointer("/spec/template"), &mut out);
    }
    out
}

/// StatefulSets: the template, the claim templates' sizes, a negative history limit.
pub(crate) fn statefulset_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    if old.is_none_or(|old| generation(obj) != generation(old)) {
        template_at("spec.template", obj.pointer("/spec/template"), &mut out);
    }
    let claims = obj
        .pointer("/spec/volumeClaimTemplates")
        .and_then(Value::as_array);
    for (i, c) in claims.into_iter().flatten().enumerate() {
        let empty = Value::Null;
        let at = match old {
            None => format!("spec.volumeClaimTemplates[{i}]"),
            Some(_) => format!("spec.volumeClaimTemplates[{i}].Spec"),
        };
        claim_spec_warnings(&at, c.get("spec").unwrap_or(&empty), &mut out);
    }
    if obj
        .pointer("/spec/revisionHistoryLimit")
        .and_then(Value::as_i64)
        .is_some_and(|l| l < 0)
    {
        out.push("spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended".to_owned());
    }
    out
}

/// WarningsForJobSpec at `at` (`spec`, or a CronJob's `spec.jobTemplate.spec`).
fn job_spec(at: &str, spec: Option<&Value>, out: &mut Vec<String>) {
    let Some(spec) = spec else {
        return;
    };
    if s(spec, "completionMode") == Some("Indexed") {
        let n = |k: &str| spec.get(k).and_then(Value::as_i64).unwrap_or(0);
        if n("completions") > 100_000 && n("parallelism") > 10_000 {
            out.push(format!("{at}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"));
        }
    }
    template_at(&format!("{at}.template"), spec.get("template"), out);
}

/// Jobs: the name on create, the spec on create or when the generation moves.
pub(crate) fn job_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    if old.is_none() {
        name_warning(obj, "Pod names and hostnames", &mut out);
    }
    if old.is_none_or(|old| generation(obj) != generation(old)) {
        job_spec("spec", obj.get("spec"), &mut out);
    }
    out
}

/// CronJobs: as Jobs for their job template; on update, a time zone in the schedule.
pub(crate) fn cronjob_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    let spec = obj.pointer("/spec/jobTemplate/spec");
    match old {
        None => {
            name_warning(obj, "Pod names and hostnames", &mut out);
            job_spec("spec.jobTemplate.spec", spec, &mut out);
        }
        Some(old) => {
            if generation(obj) != generation(old) {
                job_spec("spec.jobTemplate.spec", spec, &mut out);
            }
            let schedule = obj
                .pointer("/spec/schedule")
                .and_then(Value::as_str)
                .unwrap_or("");
            if schedule.contains("TZ") {
                out.push("cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".to_owned());
            }
        }
    }
    out
}

/// PodTemplates: the template on create or when the generation moves.
pub(crate) fn pod_template_warnings(obj: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    if old.is_none_or(|old| generation(obj) != generation(old)) {
        template_at("template", obj.get("template"), &mut out);
    }
    out
}

#[cfg(test)]
#[path = "workload_warnings_tests.rs"]
mod tests;
