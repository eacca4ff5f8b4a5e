//! Defaults of flowcontrol.apiserver.k8s.io/v1 (upstream's `pkg/apis/flowcontrol/v1`
//! defaults): a FlowSchema's matching precedence, a priority level's shares and lendable
//! percent, and the queuing parameters.

use serde_json::{json, Value};

use super::entry;

/// The matching precedence of a FlowSchema that states none (or 0).
const DEFAULT_MATCHING_PRECEDENCE: i64 = 1000;
/// The shares of a Limited level that states none (an explicit 0 stays 0 in v1).
const DEFAULT_SHARES: i64 = 30;

/// Sets `v[key]` to `default` when it is missing, null or 0 (a Go non-pointer integer
/// that defaults when zero).
fn nonzero(v: &mut Value, key: &str, default: i64) {
    if let Some(m) = v.as_object_mut() {
        let slot = m.entry(key).or_insert(Value::Null);
        if slot.is_null() || slot.as_i64() == Some(0) {
            *slot = json!(default);
        }
    }
}

/// FlowSchema: `spec.matchingPrecedence` 1000 when unset or 0 (spec is a Go struct, so it
/// is defaulted even when absent).
pub(crate) fn flowschema_defaults(obj: &mut Value) {
    if let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) {
        nonzero(spec, "matchingPrecedence", DEFAULT_MATCHING_PRECEDENCE);
    }
}

/// PriorityLevelConfiguration: Limited `nominalConcurrencyShares` 30 and `lendablePercent`
/// 0 when unset; Exempt `nominalConcurrencyShares` and `lendablePercent` 0 when unset;
/// queuing `queues` 64, `handSize` 8, `queueLengthLimit` 50 when unset or 0. Upstream's
/// defaulter visits each member that is present, whatever `type` says.
pub(crate) fn priority_level_defaults(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    if let Some(limited) = spec.get_mut("limited").filter(|l| l.is_object()) {
        entry(limited, "nominalConcurrencyShares", json!(DEFAULT_SHARES));
        entry(limited, "lendablePercent", json!(0));
        if let Some(q) = limited
            .pointer_mut("/limitResponse/queuing")
            .filter(|q| q.is_object())
        {
            nonzero(q, "handSize", 8);
            nonzero(q, "queues", 64);
            nonzero(q, "queueLengthLimit", 50);
        }
    }
    if let Some(exempt) = spec.get_mut("exempt").filter(|e| e.is_object()) {
        entry(exempt, "nominalConcurrencyShares", json!(0));
        entry(exempt, "lendablePercent", json!(0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flowschema() {
        let mut fs = json!({"metadata": {"name": "a"}});
        flowschema_defaults(&mut fs);
        assert_eq!(fs["spec"]["matchingPrecedence"], 1000);
        let mut fs = json!({"spec": {"matchingPrecedence": 0}});
        flowschema_defaults(&mut fs);
        assert_eq!(fs["spec"]["matchingPrecedence"], 1000);
        let mut fs = json!({"spec": {"matchingPrecedence": 7}});
        flowschema_defaults(&mut fs);
        assert_eq!(fs["spec"]["matchingPrecedence"], 7);
        for mut v in [json!(null), json!({"spec": 3})] {
            flowschema_defaults(&mut v);
        }
    }

    #[test]
    fn priority_levels() {
        let mut pl = json!({"spec": {"type": "Limited", "limited": {
            "limitResponse": {"type": "Queue", "queuing": {}}}}});
        priority_level_defaults(&mut pl);
        assert_eq!(
            pl["spec"]["limited"],
            json!({"nominalConcurrencyShares": 30, "lendablePercent": 0,
                "limitResponse": {"type": "Queue", "queuing": {"queues": 64, "handSize": 8, "queueLengthLimit": 50}}})
        );
        let again = pl.clone();
        priority_level_defaults(&mut pl);
        assert_eq!(pl, again);
        let mut zero = json!({"spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 0,
            "limitResponse": {"type": "Reject"}}}});
        priority_level_defaults(&mut zero);
        assert_eq!(zero["spec"]["limited"]["nominalConcurrencyShares"], 0);
        let mut exempt = json!({"spec": {"type": "Exempt", "exempt": {}}});
        priority_level_defaults(&mut exempt);
        assert_eq!(
            exempt["spec"]["exempt"],
            json!({"nominalConcurrencyShares": 0, "lendablePercent": 0})
        );
        let mut bare = json!({"spec": {"type": "Exempt"}});
        priority_level_defaults(&mut bare);
        assert!(bare["spec"].get("exempt").is_none());
        for mut v in [json!(null), json!({"spec": {"limited": 1, "exempt": []}})] {
            priority_level_defaults(&mut v);
        }
    }
}
