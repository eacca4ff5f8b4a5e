//! Versions served from another version's storage shape, as upstream converts them:
//! `events.k8s.io/v1` Events are stored as core/v1 Events, and `autoscaling/v1`
//! HorizontalPodAutoscalers as `autoscaling/v2` ones (see [`hpa`]).

mod hpa;

pub(crate) use hpa::{hpa_v1_to_v2, hpa_v2_to_v1};

use serde_json::{Map, Value};

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
}
