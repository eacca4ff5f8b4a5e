//! The warnings kube-apiserver 1.33 gives for valid PersistentVolumes and
//! PersistentVolumeClaims (`GetWarningsForPersistentVolume`,
//! `GetWarningsForPersistentVolumeClaim`), on create and update: deprecated annotations,
//! the Recycle reclaim policy, deprecated node labels in node affinity, deprecated volume
//! plugins, fractional storage sizes.

use serde_json::Value;

use super::pod_warnings::node_term;
use super::workload_warnings::claim_spec_warnings;

const STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
const STORAGE_CLASS_MSG: &str = "deprecated since v1.8; use \"storageClassName\" attribute instead";

fn annotated(o: &Value, key: &str) -> bool {
    o.pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(key))
}

/// PersistentVolumes.
pub(crate) fn persistent_volume_warnings(o: &Value, _old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    for (key, msg) in [
        (STORAGE_CLASS, STORAGE_CLASS_MSG),
        (
            "volume.beta.kubernetes.io/mount-options",
            "deprecated since v1.31; use \"mountOptions\" attribute instead",
        ),
    ] {
        if annotated(o, key) {
            out.push(format!("metadata.annotations[{key}]: {msg}"));
        }
    }
    let empty = Value::Null;
    let spec = o.get("spec").unwrap_or(&empty);
    if spec
        .get("persistentVolumeReclaimPolicy")
        .and_then(Value::as_str)
        == Some("Recycle")
    {
        out.push("spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.".to_owned());
    }
    let terms = spec
        .pointer("/nodeAffinity/required/nodeSelectorTerms")
        .and_then(Value::as_array);
    for (i, t) in terms.into_iter().flatten().enumerate() {
        let at = format!("spec.nodeAffinity.required.nodeSelectorTerms[{i}]");
        node_term(t, &at, false, &mut out);
    }
    for (key, shown, msg) in [
        (
            "cephfs",
            "cephfs",
            "deprecated in v1.28, non-functional in v1.31+",
        ),
        (
            "photonPersistentDisk",
            "photonPersistentDisk",
            "deprecated in v1.11, non-functional in v1.16+",
        ),
        (
            "scaleIO",
            "scaleIO",
            "deprecated in v1.16, non-functional in v1.22+",
        ),
        (
            "storageos",
            "storageOS",
            "deprecated in v1.22, non-functional in v1.25+",
        ),
        (
            "glusterfs",
            "glusterfs",
            "deprecated in v1.25, non-functional in v1.26+",
        ),
        (
            "rbd",
            "rbd",
            "deprecated in v1.28, non-functional in v1.31+",
        ),
    ] {
        if spec.get(key).is_some_and(|v| !v.is_null()) {
            out.push(format!("spec.{shown}: {msg}"));
        }
    }
    out
}

/// PersistentVolumeClaims.
pub(crate) fn claim_warnings(o: &Value, _old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    if annotated(o, STORAGE_CLASS) {
        out.push(format!(
            "metadata.annotations[{STORAGE_CLASS}]: {STORAGE_CLASS_MSG}"
        ));
    }
    let empty = Value::Null;
    claim_spec_warnings("spec", o.get("spec").unwrap_or(&empty), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn storage_warnings_follow_upstream() {
        let pv = json!({"metadata": {"annotations": {"volume.beta.kubernetes.io/mount-options": "x"}},
            "spec": {"persistentVolumeReclaimPolicy": "Recycle", "rbd": {},
                "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                    {"key": "beta.kubernetes.io/arch", "operator": "Exists"}]}]}}}});
        assert_eq!(
            persistent_volume_warnings(&pv, None),
            [
                "metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use \"mountOptions\" attribute instead",
                "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.",
                "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use \"kubernetes.io/arch\" instead",
                "spec.rbd: deprecated in v1.28, non-functional in v1.31+",
            ]
        );
        let pvc = json!({"metadata": {"annotations": {"volume.beta.kubernetes.io/storage-class": "s"}},
            "spec": {"resources": {"requests": {"storage": "1500m"}}}});
        assert_eq!(
            claim_warnings(&pvc, None),
            [
                "metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use \"storageClassName\" attribute instead",
                "spec.resources.requests[storage]: fractional byte value \"1500m\" is invalid, must be an integer",
            ]
        );
    }
}
