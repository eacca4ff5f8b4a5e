//! Validation rules of the built-in resources, as kube-apiserver words them. Each
//! resource has one `fn(obj, old) -> Vec<StatusCause>`; `old` is the stored object on
//! update. Object metadata is checked by the REST store, not here.

mod admission_rules;
mod apps;
mod batch;
mod causes;
mod claim_sources;
mod controller_revision;
mod core_v1;
mod cron;
mod csi;
mod csr;
mod disruption;
mod endpoints;
mod flowcontrol;
mod go_decode;
mod hpa;
mod ingress;
mod lease;
mod limits;
mod network_policy;
mod node;
mod node_annotations;
mod persistent_volume;
mod pod;
mod pod_containers;
mod pod_ephemeral;
mod pod_fields;
mod pod_mounts;
mod pod_os;
mod pod_prepare;
mod pod_probes;
mod pod_projection;
mod pod_resources;
mod pod_scheduling;
mod pod_security;
mod pod_status;
mod pod_status_containers;
mod pod_subresources;
mod pod_update;
mod pod_volumes;
mod pod_warnings;
mod policies;
mod priority_levels;
mod pv_sources;
mod quantity;
mod quota;
mod rbac;
mod replication;
mod runtime_class;
mod selector;
mod service;
mod service_ips;
mod statefulset;
mod storage;
mod storage_warnings;
mod toleration_annotation;
mod webhooks;
mod workload_warnings;

pub(crate) use apps::{daemonset, deployment, replicaset};
pub(crate) use batch::{cronjob, job};
pub(crate) use claim_sources::claim_prepare;
pub(crate) use controller_revision::controller_revision;
pub(crate) use core_v1::{namespace, secret, serviceaccount};
pub(crate) use csi::{csi_driver, csi_node, csi_storage_capacity, volume_attachment};
pub(crate) use csr::{csr, csr_subresource, prepare_update as csr_prepare_update};
pub(crate) use disruption::{pod_disruption_budget, priority_class};
pub(crate) use endpoints::{endpoints, endpointslice, event, event_v1};
pub(crate) use flowcontrol::flowschema;
pub(crate) use hpa::{hpa_v1, hpa_v2};
pub(crate) use ingress::{ingress, ingress_class};
pub(crate) use lease::{lease, lease_prepare};
pub(crate) use limits::limit_range;
pub(crate) use network_policy::network_policy;
pub(crate) use node::{node, node_prepare};
pub(crate) use persistent_volume::persistent_volume;
pub(crate) use pod::pod;
pub(crate) use pod_prepare::{
    cronjob_prepare, daemonset_prepare, pod_grace_period, pod_prepare, pod_template_prepare,
    template_prepare,
};
pub(crate) use pod_security::allow_privileged;
pub(crate) use pod_status::pod_status;
pub(crate) use pod_subresources::{pod_ephemeral, pod_resize};
pub(crate) use policies::{
    binding as admission_policy_binding, binding_defaults, policy as admission_policy,
    policy_defaults,
};
pub(crate) use priority_levels::priority_level;
pub(crate) use quantity::parse as parse_quantity;
pub(crate) use quota::resource_quota;
pub(crate) use rbac::{cluster_role, cluster_role_binding, role, role_binding};
pub(crate) use replication::{pod_template_object, replication_controller};
pub(crate) use runtime_class::runtime_class;
pub(crate) use service::service;
pub(crate) use service_ips::{ip_address, service_cidr};
pub(crate) use statefulset::statefulset;
pub(crate) use storage::{persistent_volume_claim, storage_class};
pub(crate) use storage_warnings::{claim_warnings, persistent_volume_warnings};
pub(crate) use webhooks::{
    mutating_webhook_defaults, mutating_webhooks, validating_webhook_defaults, validating_webhooks,
};
pub(crate) use workload_warnings::{
    cronjob_warnings, daemonset_warnings, job_warnings, pod_template_warnings, pod_warnings,
    statefulset_warnings, workload_warnings,
};

use kas_server::rest::{forbidden, invalid_value, too_long};
use kas_server::status::StatusCause;
use serde_json::Value;

/// A strategy's rule for a field of a gate that is off: `o`'s `part.field` is dropped
/// unless the stored object (`old`) already has it (upstream's `…InUse(old)` checks).
fn drop_unless_stored(o: &mut Value, old: Option<&Value>, part: &str, field: &str) {
    let stored = old
        .and_then(|old| old.get(part))
        .and_then(|p| p.get(field))
        .is_some_and(|v| !v.is_null());
    if !stored {
        if let Some(p) = o.get_mut(part).and_then(Value::as_object_mut) {
            p.remove(field);
        }
    }
}

/// The most bytes a ConfigMap's or Secret's data may hold.
const MAX_DATA_BYTES: usize = 1 << 20;

/// A ConfigMap/Secret data key at `field[key]`.
fn config_key_causes(field: &str, key: &str) -> Vec<StatusCause> {
    let path = format!("{field}[{key}]");
    causes::config_key_msgs(key)
        .iter()
        .map(|m| invalid_value(&path, key, m))
        .collect()
}

fn map<'a>(obj: &'a Value, field: &str) -> Option<&'a serde_json::Map<String, Value>> {
    obj.get(field).and_then(Value::as_object)
}

/// ConfigMap: data and binaryData keys, no key in both, at most 1 MiB, and nothing of
/// an `immutable` ConfigMap may change.
pub(crate) fn configmap(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let data = map(obj, "data");
    let binary = map(obj, "binaryData");
    let mut size = 0;
    for (k, v) in data.into_iter().flatten() {
        out.extend(config_key_causes("data", k));
        size += k.len() + v.as_str().map_or(0, str::len);
        if !v.is_string() {
            out.push(invalid_value(
                &format!("data[{k}]"),
                &v.to_string(),
                "must be a string",
            ));
        }
    }
    for (k, v) in binary.into_iter().flatten() {
        out.extend(config_key_causes("binaryData", k));
        size += k.len() + v.as_str().map_or(0, str::len);
        if data.is_some_and(|d| d.contains_key(k)) {
            out.push(invalid_value(
                &format!("binaryData[{k}]"),
                k,
                "duplicate of key present in data",
            ));
        }
    }
    if size > MAX_DATA_BYTES {
        out.push(too_long("[]", MAX_DATA_BYTES));
    }
    if let Some(old) = old {
        if old.get("immutable").and_then(Value::as_bool) == Some(true) {
            const WHY: &str = "field is immutable when `immutable` is set";
            if obj.get("immutable").and_then(Value::as_bool) != Some(true) {
                out.push(forbidden("immutable", WHY));
            }
            if obj.get("data") != old.get("data") {
                out.push(forbidden("data", WHY));
            }
            if obj.get("binaryData") != old.get("binaryData") {
                out.push(forbidden("binaryData", WHY));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn configmap_rules() {
        assert!(configmap(&json!({"data": {"a.b_C-1": "x"}}), None).is_empty());
        let c = configmap(&json!({"data": {"bad key": "x"}}), None);
        assert_eq!(c[0].field, "data[bad key]");
        assert!(c[0]
            .message
            .starts_with("Invalid value: \"bad key\": a valid config key"));
        let c = configmap(
            &json!({"data": {"k": "x"}, "binaryData": {"k": "eA=="}}),
            None,
        );
        assert_eq!(c[0].field, "binaryData[k]");
        assert_eq!(
            configmap(&json!({"data": {"..": "x"}}), None)[0].message,
            "Invalid value: \"..\": must not be '..'"
        );
        let old = json!({"immutable": true, "data": {"k": "1"}});
        assert!(configmap(&json!({"immutable": true, "data": {"k": "1"}}), Some(&old)).is_empty());
        let c = configmap(&json!({"immutable": true, "data": {"k": "2"}}), Some(&old));
        assert_eq!(
            (c[0].field.as_str(), c[0].reason.as_str()),
            ("data", "FieldValueForbidden")
        );
        let c = configmap(&json!({"data": {"k": "1"}}), Some(&old));
        assert_eq!(c[0].field, "immutable");
    }
}
