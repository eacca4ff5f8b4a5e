use serde_json::json;

use super::*;
use crate::validation::causes::messages;
use crate::validation::limits::go_quantity;

#[test]
fn resource_quota_hard_scopes_and_selector() {
    let rq = json!({"spec": {
        "hard": {"pods": "1.5", "storage": "1", "cpu": "-1", "count/deployments.apps": "2"},
        "scopes": ["BestEffort", "NotBestEffort"],
    }});
    let shown = "[]core.ResourceQuotaScope{\"BestEffort\", \"NotBestEffort\"}";
    assert_eq!(
        messages(&resource_quota(&rq, None)),
        [
            "spec.hard[cpu]: Invalid value: \"-1\": must be greater than or equal to 0".to_owned(),
            format!(
                "spec.hard[pods]: Invalid value: {}: must be an integer",
                go_quantity("1.5")
            ),
            "spec.hard[storage]: Invalid value: \"storage\": must be a standard resource for quota"
                .to_owned(),
            format!("spec.scopes: Invalid value: {shown}: unsupported scope applied to resource"),
            format!("spec.scopes: Invalid value: {shown}: conflicting scopes"),
        ]
    );
    let rq = json!({"spec": {"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [
        {"scopeName": "Terminating", "operator": "In", "values": ["a"]},
        {"scopeName": "PriorityClass", "operator": "In"},
        {"scopeName": "Nope", "operator": "Exists", "values": ["x"]},
    ]}}});
    assert_eq!(
        messages(&resource_quota(&rq, None)),
        [
            "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            "spec.scopeSelector.matchExpressions.scopeName: Invalid value: \"Nope\": unsupported scope",
            "spec.scopeSelector.matchExpressions.values: Invalid value: []string{\"x\"}: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
        ]
    );
    let old = json!({"spec": {"scopes": ["BestEffort"]}});
    let new = json!({"spec": {"scopes": ["NotBestEffort"]}});
    assert_eq!(
        messages(&resource_quota(&new, Some(&old))),
        ["spec.scopes: Invalid value: []core.ResourceQuotaScope{\"NotBestEffort\"}: field is immutable"]
    );
}
