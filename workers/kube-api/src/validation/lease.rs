//! Leases as kube-apiserver 1.33 validates them: a positive duration and a
//! non-negative transition count. (The leader-election `strategy` and `preferredHolder`
//! fields belong to the CoordinatedLeaderElection gate, off in 1.33.)

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{invalid_int, NEGATIVE_MSG};

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
}
