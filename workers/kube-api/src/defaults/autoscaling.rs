//! Defaults of HorizontalPodAutoscalers: autoscaling/v2 (one replica at least, the CPU
//! utilization target of 80% when no metric is given, every scaling rule of a stated
//! behavior filled in) and autoscaling/v1 (one replica at least).

use serde_json::{json, Value};

use super::entry;

/// The CPU utilization an HPA without metrics aims at.
pub(crate) const DEFAULT_CPU_UTILIZATION: i64 = 80;

/// The rules a scale-up without stated fields follows: at most 4 pods or 100% more every
/// 15 s, whichever is more, without stabilization.
fn scale_up_rules() -> Value {
    json!({
        "stabilizationWindowSeconds": 0,
        "selectPolicy": "Max",
        "policies": [
            {"type": "Pods", "value": 4, "periodSeconds": 15},
            {"type": "Percent", "value": 100, "periodSeconds": 15}
        ]
    })
}

/// The rules a scale-down without stated fields follows: up to 100% every 15 s; the
/// stabilization window is left to the controller's flag, so it stays unset.
fn scale_down_rules() -> Value {
    json!({
        "selectPolicy": "Max",
        "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]
    })
}

/// `rules` with every field it does not state taken from `defaults`.
fn fill_rules(rules: &mut Value, defaults: Value) {
    let stated = rules.as_object().cloned().unwrap_or_default();
    let mut out = defaults;
    for key in ["selectPolicy", "stabilizationWindowSeconds", "policies"] {
        if let Some(v) = stated.get(key).filter(|v| !v.is_null()) {
            out[key] = v.clone();
        }
    }
    *rules = out;
}

/// The CPU Resource metric at `utilization` percent (v2 shape).
pub(crate) fn cpu_metric(utilization: Value) -> Value {
    json!({"type": "Resource", "resource": {"name": "cpu",
        "target": {"type": "Utilization", "averageUtilization": utilization}}})
}

/// autoscaling/v2 HorizontalPodAutoscaler.
pub(crate) fn hpa_v2_defaults(obj: &mut Value) {
    let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) else {
        return;
    };
    entry(spec, "minReplicas", json!(1));
    if spec
        .get("metrics")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
    {
        spec["metrics"] = json!([cpu_metric(json!(DEFAULT_CPU_UTILIZATION))]);
    }
    if let Some(behavior) = spec.get_mut("behavior").filter(|b| b.is_object()) {
        let up = entry(behavior, "scaleUp", json!({}));
        if let Some(up) = up {
            fill_rules(up, scale_up_rules());
        }
        let down = entry(behavior, "scaleDown", json!({}));
        if let Some(down) = down {
            fill_rules(down, scale_down_rules());
        }
    }
}

/// autoscaling/v1 HorizontalPodAutoscaler: one replica at least; and the 80% CPU target
/// when it names no metric at all (neither the target nor the annotation carrying v2's
/// other metrics), which is what upstream answers once the object has gone through its
/// v2 storage form.
pub(crate) fn hpa_v1_defaults(obj: &mut Value) {
    let other_metrics = obj
        .pointer(&format!(
            "/metadata/annotations/{}",
            METRICS_ANNOTATION.replace('/', "~1")
        ))
        .is_some();
    if let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) {
        entry(spec, "minReplicas", json!(1));
        if !other_metrics {
            entry(
                spec,
                "targetCPUUtilizationPercentage",
                json!(DEFAULT_CPU_UTILIZATION),
            );
        }
    }
}

/// The annotation in which an autoscaling/v1 object carries v2's other metrics.
pub(crate) const METRICS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/metrics";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v2() {
        let mut h = json!({"spec": {"maxReplicas": 3}});
        hpa_v2_defaults(&mut h);
        assert_eq!(h["spec"]["minReplicas"], 1);
        assert_eq!(h["spec"]["metrics"], json!([cpu_metric(json!(80))]));
        assert!(h["spec"].get("behavior").is_none());
        let mut h = json!({"spec": {"minReplicas": 2, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}}});
        hpa_v2_defaults(&mut h);
        let once = h.clone();
        hpa_v2_defaults(&mut h);
        assert_eq!(h, once);
        assert_eq!(h["spec"]["minReplicas"], 2);
        assert_eq!(h["spec"]["behavior"]["scaleUp"], scale_up_rules());
        assert_eq!(
            h["spec"]["behavior"]["scaleDown"],
            json!({"stabilizationWindowSeconds": 60, "selectPolicy": "Max",
                   "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]})
        );
        let mut v1 = json!({"spec": {}});
        hpa_v1_defaults(&mut v1);
        assert_eq!(
            v1,
            json!({"spec": {"minReplicas": 1, "targetCPUUtilizationPercentage": 80}})
        );
        let mut v1 = json!({"metadata": {"annotations": {METRICS_ANNOTATION: "[]"}}, "spec": {}});
        hpa_v1_defaults(&mut v1);
        assert_eq!(v1["spec"], json!({"minReplicas": 1}));
        for mut bad in [
            json!(null),
            json!({"spec": 1}),
            json!({"spec": {"behavior": {"scaleUp": 1}}}),
        ] {
            hpa_v2_defaults(&mut bad);
            hpa_v1_defaults(&mut bad);
        }
    }
}
