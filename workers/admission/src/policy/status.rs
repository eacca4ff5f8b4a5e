//! The status of ValidatingAdmissionPolicies, as upstream's status controller keeps it:
//! `observedGeneration` and `typeChecking.expressionWarnings` (one per validation
//! expression or messageExpression that does not check against the kinds the policy
//! matches: see `typecheck`). Written by the worker that serves the policies, after
//! each new generation compiles.

use std::sync::Arc;

use kas_server::rest::{RestStore, WriteOptions};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::model::Policy;
use super::typecheck::{self, Kind, Resolver, Ty};

/// The field manager of the status writes.
const MANAGER: &str = "validatingadmissionpolicy-status-controller";

/// The status of `policy` (compiled from its object of that generation), checked
/// against `kinds` with params of type `params`.
pub(crate) fn status_of(policy: &Policy, kinds: &[Kind], params: &Ty) -> Value {
    let warnings = typecheck::warnings(policy, kinds, params);
    let type_checking = match warnings.is_empty() {
        true => json!({}),
        false => json!({"expressionWarnings": warnings}),
    };
    json!({"observedGeneration": policy.generation, "typeChecking": type_checking})
}

/// Starts the writer; policies sent to the returned channel get their status written,
/// their kinds found by `resolver`.
pub(crate) fn start(
    store: RestStore,
    resolver: Resolver,
) -> mpsc::UnboundedSender<(Arc<Policy>, Value)> {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Arc<Policy>, Value)>();
    tokio::spawn(async move {
        while let Some((policy, obj)) = rx.recv().await {
            let (kinds, params) = resolver.kinds(&policy).await;
            let status = status_of(&policy, &kinds, &params);
            if obj.get("status") == Some(&status) {
                continue;
            }
            let mut next = obj;
            next["status"] = status;
            let written = store
                .update_object(
                    "",
                    &policy.name,
                    "status",
                    next,
                    None,
                    &WriteOptions::server(MANAGER),
                )
                .await;
            if let Err(e) = written {
                // A newer generation (or a deletion) is on its way through the watch.
                tracing::debug!(policy = %policy.name, error = %e.message, "could not update the policy status");
            }
        }
    });
    tx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_for_what_does_not_compile() {
        let p = Policy::of(
            &json!({"metadata": {"name": "p", "generation": 2}, "spec": {
            "validations": [{"expression": "object.spec.replicas < 5"},
                            {"expression": "params.x", "messageExpression": "'a' +"}]}}),
        );
        let s = status_of(&p, &[], &Ty::Dyn);
        assert_eq!(s["observedGeneration"], 2);
        let w = s["typeChecking"]["expressionWarnings"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(w.len(), 2);
        assert_eq!(w[0]["fieldRef"], "spec.validations[1].expression");
        assert!(w[0]["warning"]
            .as_str()
            .is_some_and(|t| t.contains("undeclared reference to 'params'")));
        assert_eq!(w[1]["fieldRef"], "spec.validations[1].messageExpression");
        let ok = Policy::of(
            &json!({"metadata": {"name": "p", "generation": 1}, "spec": {
            "validations": [{"expression": "true"}]}}),
        );
        assert_eq!(status_of(&ok, &[], &Ty::Dyn)["typeChecking"], json!({}));
    }
}
