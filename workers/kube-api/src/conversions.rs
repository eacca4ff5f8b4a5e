//! Versions served from another version's storage shape, as upstream converts them:
//! `events.k8s.io/v1` Events are stored as core/v1 Events, and `autoscaling/v1`
//! HorizontalPodAutoscalers as `autoscaling/v2` ones (the CPU target as a Resource
//! metric; upstream keeps v2-only fields in an annotation, which is left out here).

use serde_json::{json, Map, Value};

/// Moves `from` to `to` in `o`, when present.
fn rename(o: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = o.remove(from) {
        o.insert(to.to_owned(), v);
    }
}

/// (events.k8s.io/v1 name, core/v1 name) of the fields that differ.
const EVENT_FIELDS: &[(&str, &str)] = &[
    ("note", "message"),
    ("regarding", "involvedObject"),
    ("reportingController", "reportingComponent"),
    ("deprecatedSource", "source"),
    ("deprecatedFirstTimestamp", "firstTimestamp"),
    ("deprecatedLastTimestamp", "lastTimestamp"),
    ("deprecatedCount", "count"),
];

/// events.k8s.io/v1 → core/v1.
pub(crate) fn event_to_core(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        for (new, old) in EVENT_FIELDS {
            rename(o, new, old);
        }
    }
}

/// core/v1 → events.k8s.io/v1.
pub(crate) fn event_from_core(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        for (new, old) in EVENT_FIELDS {
            rename(o, old, new);
        }
    }
}

/// autoscaling/v1 → autoscaling/v2: the CPU target becomes a Resource metric.
pub(crate) fn hpa_v1_to_v2(v: &mut Value) {
    if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
        if let Some(cpu) = spec.remove("targetCPUUtilizationPercentage") {
            spec.insert(
                "metrics".into(),
                json!([{"type": "Resource", "resource": {"name": "cpu",
                    "target": {"type": "Utilization", "averageUtilization": cpu}}}]),
            );
        }
    }
    if let Some(status) = v.get_mut("status").and_then(Value::as_object_mut) {
        if let Some(cpu) = status.remove("currentCPUUtilizationPercentage") {
            status.insert(
                "currentMetrics".into(),
                json!([{"type": "Resource", "resource": {"name": "cpu",
                    "current": {"averageUtilization": cpu}}}]),
            );
        }
    }
}

/// autoscaling/v2 → autoscaling/v1: the CPU utilization metric, if any, becomes the
/// CPU target; other metrics have no v1 form.
pub(crate) fn hpa_v2_to_v1(v: &mut Value) {
    let is_cpu = |m: &Value| {
        m.get("type").and_then(Value::as_str) == Some("Resource")
            && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
    };
    if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
        if let Some(metrics) = spec.remove("metrics") {
            let cpu = metrics
                .as_array()
                .into_iter()
                .flatten()
                .find(|m| is_cpu(m))
                .and_then(|m| m.pointer("/resource/target/averageUtilization").cloned());
            if let Some(cpu) = cpu {
                spec.insert("targetCPUUtilizationPercentage".into(), cpu);
            }
        }
        spec.remove("behavior");
    }
    if let Some(status) = v.get_mut("status").and_then(Value::as_object_mut) {
        if let Some(metrics) = status.remove("currentMetrics") {
            let cpu = metrics
                .as_array()
                .into_iter()
                .flatten()
                .find(|m| is_cpu(m))
                .and_then(|m| m.pointer("/resource/current/averageUtilization").cloned());
            if let Some(cpu) = cpu {
                status.insert("currentCPUUtilizationPercentage".into(), cpu);
            }
        }
        status.remove("conditions");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip() {
        let v1 = json!({"note": "hi", "regarding": {"kind": "Pod"}, "reason": "R", "deprecatedCount": 2});
        let mut core = v1.clone();
        event_to_core(&mut core);
        assert_eq!(core["message"], "hi");
        assert_eq!(core["involvedObject"]["kind"], "Pod");
        assert_eq!(core["count"], 2);
        event_from_core(&mut core);
        assert_eq!(core, v1);
    }

    #[test]
    fn hpa_cpu_target_round_trips() {
        let v1 = json!({"spec": {"maxReplicas": 3, "targetCPUUtilizationPercentage": 80}});
        let mut v2 = v1.clone();
        hpa_v1_to_v2(&mut v2);
        assert_eq!(
            v2["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
            80
        );
        hpa_v2_to_v1(&mut v2);
        assert_eq!(v2, v1);
    }
}
