//! batch/v1 rules: Jobs (counts, completion mode, selector and template, what may change)
//! and CronJobs (schedule, time zone, policies, the job template).

use std::path::Path;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    go_string_map, invalid, invalid_shown, max_len_msg, nonnegative, not_supported, obj, required,
    s, IMMUTABLE_MSG,
};
use super::cron;
use super::pod::pod_template;
use super::selector::{selector_matches, selector_rules, show_selector};

/// A job spec at `path` (`spec` or `spec.jobTemplate.spec`); the selector is required
/// only for a Job itself (a CronJob's jobs get theirs when created).
fn job_spec(spec: &Value, path: &str, need_selector: bool, out: &mut Vec<StatusCause>) {
    for key in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
    ] {
        out.extend(nonnegative(spec, key, &format!("{path}.{key}")));
    }
    match s(spec, "completionMode") {
        None | Some("NonIndexed") => {}
        Some("Indexed") => {
            if spec.get("completions").is_none_or(Value::is_null) {
                out.push(required(
                    &format!("{path}.completions"),
                    "when completion mode is Indexed",
                ));
            }
            if let Some(p) = spec.get("parallelism").and_then(Value::as_i64) {
                if p > 100_000 {
                    out.push(invalid_shown(
                        &format!("{path}.parallelism"),
                        &p.to_string(),
                        "must be less than or equal to 100000 when completion mode is Indexed",
                    ));
                }
            }
        }
        Some(m) => out.push(not_supported(
            &format!("{path}.completionMode"),
            m,
            &["NonIndexed", "Indexed"],
        )),
    }
    let template = spec.get("template");
    match spec.get("selector").filter(|v| v.is_object()) {
        None if need_selector => out.push(required(&format!("{path}.selector"), "")),
        None => {}
        Some(sel) => {
            selector_rules(sel, &format!("{path}.selector"), out);
            let labels = template
                .and_then(|t| t.pointer("/metadata/labels"))
                .and_then(Value::as_object);
            let empty = obj(sel, "matchLabels").is_none_or(|m| m.is_empty())
                && sel
                    .get("matchExpressions")
                    .and_then(Value::as_array)
                    .is_none_or(Vec::is_empty);
            if !empty && !selector_matches(sel, labels) {
                out.push(invalid_shown(
                    &format!("{path}.template.metadata.labels"),
                    &go_string_map(labels),
                    "`selector` does not match template `labels`",
                ));
            }
        }
    }
    let tpath = format!("{path}.template");
    out.extend(pod_template(template, &tpath));
    if let Some(tspec) = template.and_then(|t| t.get("spec")) {
        let rp = s(tspec, "restartPolicy").unwrap_or("");
        if rp != "OnFailure" && rp != "Never" {
            out.push(not_supported(
                &format!("{tpath}.spec.restartPolicy"),
                rp,
                &["OnFailure", "Never"],
            ));
        }
    }
}

/// batch/v1 Job.
pub(crate) fn job(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    job_spec(spec, "spec", true, &mut out);
    if let Some(old_spec) = old.and_then(|o| o.get("spec")) {
        if spec.get("selector") != old_spec.get("selector") {
            let shown = show_selector(spec.get("selector").unwrap_or(&null));
            out.push(invalid_shown("spec.selector", &shown, IMMUTABLE_MSG));
        }
        if spec.get("completionMode") != old_spec.get("completionMode") {
            let mode = s(spec, "completionMode").unwrap_or("");
            out.push(invalid("spec.completionMode", mode, IMMUTABLE_MSG));
        }
        let indexed = s(spec, "completionMode") == Some("Indexed");
        if !indexed && spec.get("completions") != old_spec.get("completions") {
            let shown = spec
                .get("completions")
                .map_or("null".into(), Value::to_string);
            out.push(invalid_shown("spec.completions", &shown, IMMUTABLE_MSG));
        }
        // A suspended job that never started may change its template's scheduling
        // directives (upstream's AllowMutableSchedulingDirectives); nothing else of it.
        let suspended = old_spec.get("suspend") == Some(&Value::Bool(true));
        let not_started = old.and_then(|o| o.pointer("/status/startTime")).is_none();
        let template = spec.get("template").unwrap_or(&null);
        let mut old_template = old_spec.get("template").cloned().unwrap_or(Value::Null);
        if suspended && not_started {
            with_scheduling_directives_of(template, &mut old_template);
        }
        if *template != old_template {
            out.push(invalid_shown(
                "spec.template",
                "core.PodTemplateSpec{...}",
                IMMUTABLE_MSG,
            ));
        }
    }
    out
}

/// `old` (a pod template) with the scheduling directives of `new`: node selector,
/// tolerations, labels, annotations, scheduling gates, and the node affinity (an affinity
/// that held nothing else may go).
fn with_scheduling_directives_of(new: &Value, old: &mut Value) {
    let take = |old: &mut Value, parent: &str, field: &str| {
        let value = new.pointer(&format!("{parent}/{field}")).cloned();
        if value.is_some() && old.pointer(parent).is_none() {
            if let Some(o) = old.as_object_mut() {
                o.insert(parent[1..].to_owned(), serde_json::json!({}));
            }
        }
        let Some(obj) = old.pointer_mut(parent).and_then(Value::as_object_mut) else {
            return;
        };
        match value {
            Some(v) => obj.insert(field.to_owned(), v),
            None => obj.remove(field),
        };
    };
    for field in ["labels", "annotations"] {
        take(old, "/metadata", field);
    }
    for field in ["nodeSelector", "tolerations", "schedulingGates"] {
        take(old, "/spec", field);
    }
    let new_affinity = new.pointer("/spec/affinity");
    let Some(spec) = old.pointer_mut("/spec").and_then(Value::as_object_mut) else {
        return;
    };
    match (new_affinity, spec.get_mut("affinity")) {
        (None, Some(old_affinity)) => {
            if let Some(a) = old_affinity.as_object_mut() {
                a.remove("nodeAffinity");
                if a.is_empty() {
                    spec.remove("affinity");
                }
            }
        }
        (Some(new_affinity), None) => {
            let mut a = serde_json::Map::new();
            if let Some(node) = new_affinity.get("nodeAffinity") {
                a.insert("nodeAffinity".into(), node.clone());
            }
            spec.insert("affinity".into(), Value::Object(a));
        }
        (Some(new_affinity), Some(old_affinity)) => {
            if let Some(a) = old_affinity.as_object_mut() {
                match new_affinity.get("nodeAffinity") {
                    Some(node) => a.insert("nodeAffinity".into(), node.clone()),
                    None => a.remove("nodeAffinity"),
                };
            }
        }
        (None, None) => {}
    }
}

/// Whether `tz` names a zone the system's time zone database knows (any well-formed
/// name when the machine has no database).
fn known_zone(tz: &str) -> bool {
    let well_formed = !tz.starts_with('/')
        && !tz.contains("..")
        && tz
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_+-".contains(&b));
    let db = Path::new("/usr/share/zoneinfo");
    well_formed && (tz == "UTC" || !db.is_dir() || db.join(tz).is_file())
}

/// batch/v1 CronJob.
pub(crate) fn cronjob(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    if let Some(name) = obj.pointer("/metadata/name").and_then(Value::as_str) {
        if name.len() > 52 {
            out.push(invalid("metadata.name", name, &max_len_msg(52)));
        }
    }
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    let schedule = s(spec, "schedule").unwrap_or("");
    let tz = spec.get("timeZone").and_then(Value::as_str);
    if schedule.is_empty() {
        out.push(required("spec.schedule", ""));
    } else {
        if let Err(e) = cron::parse(schedule) {
            out.push(invalid("spec.schedule", schedule, &e));
        }
        if tz.is_some() && schedule.contains("TZ") {
            out.push(invalid(
                "spec.schedule",
                schedule,
                "cannot use both timeZone field and TZ or CRON_TZ in schedule",
            ));
        }
    }
    if let Some(tz) = tz {
        if tz.is_empty() {
            out.push(invalid(
                "spec.timeZone",
                tz,
                "timeZone must be nil or non-empty string",
            ));
        } else if tz.eq_ignore_ascii_case("local") {
            out.push(invalid(
                "spec.timeZone",
                tz,
                "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
            ));
        } else if !known_zone(tz) {
            out.push(invalid(
                "spec.timeZone",
                tz,
                &format!("unknown time zone {tz}"),
            ));
        }
    }
    match s(spec, "concurrencyPolicy") {
        None | Some("Allow" | "Forbid" | "Replace") => {}
        Some("") => out.push(required("spec.concurrencyPolicy", "")),
        Some(p) => out.push(not_supported(
            "spec.concurrencyPolicy",
            p,
            &["Allow", "Forbid", "Replace"],
        )),
    }
    for key in [
        "startingDeadlineSeconds",
        "successfulJobsHistoryLimit",
        "failedJobsHistoryLimit",
    ] {
        out.extend(nonnegative(spec, key, &format!("spec.{key}")));
    }
    let job = spec.pointer("/jobTemplate/spec").unwrap_or(&null);
    job_spec(job, "spec.jobTemplate.spec", false, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(c: &[StatusCause]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect()
    }

    fn a_job() -> Value {
        json!({"spec": {
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u"}},
            "template": {"metadata": {"labels": {"batch.kubernetes.io/controller-uid": "u"}},
                         "spec": {"terminationGracePeriodSeconds": 30, "containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Never"}},
            "completions": 1, "parallelism": 1, "backoffLimit": 6, "completionMode": "NonIndexed"
        }})
    }

    #[test]
    fn a_suspended_job_not_started_may_change_scheduling_directives_only() {
        let mut old = a_job();
        old["spec"]["suspend"] = json!(true);
        let mut moved = old.clone();
        moved["spec"]["template"]["spec"]["nodeSelector"] = json!({"zone": "a"});
        moved["spec"]["template"]["metadata"]["annotations"] = json!({"x": "y"});
        assert!(job(&moved, Some(&old)).is_empty());
        moved["spec"]["template"]["spec"]["containers"][0]["image"] = json!("other");
        assert_eq!(pairs(&job(&moved, Some(&old)))[0].0, "spec.template");
        let mut started = old.clone();
        started["status"] = json!({"startTime": "2024-01-01T00:00:00Z"});
        let mut moved = started.clone();
        moved["spec"]["template"]["spec"]["nodeSelector"] = json!({"zone": "a"});
        assert_eq!(pairs(&job(&moved, Some(&started)))[0].0, "spec.template");
    }

    #[test]
    fn jobs() {
        let ok = a_job();
        assert!(job(&ok, None).is_empty(), "{:?}", job(&ok, None));
        assert!(job(&ok, Some(&ok)).is_empty());
        let mut j = ok.clone();
        j["spec"]["template"]["spec"]["restartPolicy"] = json!("Always");
        j["spec"]["backoffLimit"] = json!(-1);
        j["spec"]["completionMode"] = json!("Indexed");
        j["spec"].as_object_mut().unwrap().remove("completions");
        assert_eq!(
            pairs(&job(&j, None)),
            vec![
                (
                    "spec.backoffLimit",
                    "Invalid value: -1: must be greater than or equal to 0"
                ),
                (
                    "spec.completions",
                    "Required value: when completion mode is Indexed"
                ),
                (
                    "spec.template.spec.restartPolicy",
                    "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""
                ),
            ]
        );
        let mut j = ok.clone();
        j["spec"]["completionMode"] = json!("Indexed");
        j["spec"]["parallelism"] = json!(100_001);
        assert_eq!(
            pairs(&job(&j, None)),
            vec![(
                "spec.parallelism",
                "Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed"
            )]
        );
        let mut j = ok.clone();
        j["spec"]["template"]["metadata"]["labels"] = json!({"x": "y"});
        assert_eq!(job(&j, None)[0].field, "spec.template.metadata.labels");
        j["spec"].as_object_mut().unwrap().remove("selector");
        assert_eq!(
            pairs(&job(&j, None)),
            vec![("spec.selector", "Required value")]
        );
        let mut j = ok.clone();
        j["spec"]["template"]["spec"]["containers"][0]["image"] = json!("y");
        j["spec"]["completions"] = json!(2);
        let causes = job(&j, Some(&ok));
        let got: Vec<&str> = causes.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(got, vec!["spec.completions", "spec.template"]);
        // Suspended, the image still may not change (only scheduling directives).
        let mut old = ok.clone();
        old["spec"]["suspend"] = json!(true);
        j["spec"]["completions"] = json!(1);
        assert_eq!(pairs(&job(&j, Some(&old)))[0].0, "spec.template");
    }

    #[test]
    fn cronjobs() {
        let mut cj = json!({"metadata": {"name": "c"}, "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": a_job()["spec"].clone()}}});
        cj["spec"]["jobTemplate"]["spec"]
            .as_object_mut()
            .unwrap()
            .remove("selector");
        assert!(cronjob(&cj, None).is_empty(), "{:?}", cronjob(&cj, None));
        cj["spec"]["timeZone"] = json!("Europe/Paris");
        assert!(cronjob(&cj, None).is_empty());
        let mut bad = cj.clone();
        bad["metadata"]["name"] = json!("c".repeat(53));
        bad["spec"]["schedule"] = json!("TZ=UTC 61 * * * *");
        bad["spec"]["timeZone"] = json!("Mars/Olympus");
        bad["spec"]["concurrencyPolicy"] = json!("Sometimes");
        bad["spec"]["failedJobsHistoryLimit"] = json!(-1);
        bad["spec"]["jobTemplate"]["spec"]["template"]["spec"]["restartPolicy"] = json!("Always");
        let got = cronjob(&bad, None);
        assert_eq!(pairs(&got), vec![
            ("metadata.name", &*format!("Invalid value: \"{}\": must be no more than 52 characters", "c".repeat(53))),
            ("spec.schedule", "Invalid value: \"TZ=UTC 61 * * * *\": end of range (61) above maximum (59): 61"),
            ("spec.schedule", "Invalid value: \"TZ=UTC 61 * * * *\": cannot use both timeZone field and TZ or CRON_TZ in schedule"),
            ("spec.timeZone", "Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"),
            ("spec.concurrencyPolicy", "Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\""),
            ("spec.failedJobsHistoryLimit", "Invalid value: -1: must be greater than or equal to 0"),
            ("spec.jobTemplate.spec.template.spec.restartPolicy", "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""),
        ]);
        let c = cronjob(&json!({"spec": {"timeZone": "Local"}}), None);
        assert_eq!(c[0], required("spec.schedule", ""));
        assert!(c[1].message.contains("explicit time zone"));
        assert!(!known_zone("../etc/passwd"));
        for v in [
            json!(null),
            json!({"spec": {"schedule": 5, "jobTemplate": 1}}),
        ] {
            let _ = (cronjob(&v, Some(&v)), job(&v, Some(&v)));
        }
    }
}
