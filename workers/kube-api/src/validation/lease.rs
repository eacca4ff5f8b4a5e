//! Leases as kube-apiserver 1.33 validates them: a positive duration and a
//! non-negative transition count. The leader-election `strategy` and `preferredHolder`
//! fields belong to the CoordinatedLeaderElection gate, off in 1.33: the strategy clears
//! them ([`lease_prepare`]), so their rules never apply.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{invalid_int, NEGATIVE_MSG};

/// Upstream's lease strategy with CoordinatedLeaderElection off: `spec.strategy` and
/// `spec.preferredHolder` are dropped on create, and on update unless the stored lease
/// already has them.
pub(crate) fn lease_prepare(o: &mut Value, old: Option<&Value>, _sub: &str) {
    for field in ["strategy", "preferredHolder"] {
        super::drop_unless_stored(o, old, "spec", field);
    }
}

/// A Lease (the same rules on create and update).
pub(crate) fn lease(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    if let Some(n) = o
        .pointer("/spec/leaseDurationSeconds")
        .and_then(Value::as_i64)
    {
        if n <= 0 {
            out.push(invalid_int(
                "spec.leaseDurationSeconds",
                n,
                "must be greater than 0",
            ));
        }
    }
    if let Some(n) = o.pointer("/spec/leaseTransitions").and_then(Value::as_i64) {
        if n < 0 {
            out.push(invalid_int("spec.leaseTransitions", n, NEGATIVE_MSG));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validation::causes::messages;

    #[test]
    fn lease_rules() {
        let l = json!({"spec": {"leaseDurationSeconds": 0, "leaseTransitions": -1}});
        assert_eq!(
            messages(&lease(&l, None)),
            [
                "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
                "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
    }

    #[test]
    fn gated_fields_are_dropped_unless_already_stored() {
        let sent = json!({"spec": {"holderIdentity": "a", "strategy": "OldestEmulationVersion",
            "preferredHolder": "b"}});
        let mut created = sent.clone();
        lease_prepare(&mut created, None, "");
        assert_eq!(created, json!({"spec": {"holderIdentity": "a"}}));
        let old = json!({"spec": {"preferredHolder": "x"}});
        let mut updated = sent.clone();
        lease_prepare(&mut updated, Some(&old), "");
        assert_eq!(
            updated,
            json!({"spec": {"holderIdentity": "a", "preferredHolder": "b"}})
        );
    }
}
