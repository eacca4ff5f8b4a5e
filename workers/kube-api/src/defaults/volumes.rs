//! Defaults of storage: the volume sources of pods and PersistentVolumes (upstream's
//! core/v1 `SetDefaults_*Volume*` functions and the `+default` markers of the legacy
//! in-tree sources), PersistentVolumes and their claims, and storage.k8s.io/v1
//! StorageClasses and CSIDrivers.

use serde_json::{json, Value};

use super::{each, entry, set};

/// Default file mode of secret, configMap, downwardAPI and projected volumes (0644).
const DEFAULT_MODE: i64 = 0o644;
/// A projected service account token's lifetime when none is asked for (an hour).
const TOKEN_EXPIRATION_SECONDS: i64 = 3600;

fn field_ref_items(src: &mut Value) {
    for item in each(src, "items") {
        if let Some(f) = item.get_mut("fieldRef").filter(|f| f.is_object()) {
            set(f, "apiVersion", json!("v1"));
        }
    }
}

/// The `+default` markers of the in-tree sources a pod volume and a PersistentVolume
/// share (rbd, iscsi, azureDisk, scaleIO), and hostPath's unset type.
fn shared_sources(m: &mut Value) {
    if let Some(s) = m.get_mut("rbd").filter(|s| s.is_object()) {
        set(s, "pool", json!("rbd"));
        set(s, "user", json!("admin"));
        set(s, "keyring", json!("/etc/ceph/keyring"));
    }
    if let Some(s) = m.get_mut("iscsi").filter(|s| s.is_object()) {
        set(s, "iscsiInterface", json!("default"));
    }
    if let Some(s) = m.get_mut("azureDisk").filter(|s| s.is_object()) {
        set(s, "cachingMode", json!("ReadWrite"));
        set(s, "fsType", json!("ext4"));
        entry(s, "readOnly", json!(false));
        set(s, "kind", json!("Shared"));
    }
    if let Some(s) = m.get_mut("scaleIO").filter(|s| s.is_object()) {
        set(s, "storageMode", json!("ThinProvisioned"));
        set(s, "fsType", json!("xfs"));
    }
    if let Some(s) = m.get_mut("hostPath").filter(|s| s.is_object()) {
        entry(s, "type", json!(""));
    }
}

/// A pod volume: emptyDir when it names no source, file modes, field references'
/// apiVersion, projected tokens' lifetime and ephemeral claims' volume mode.
pub(crate) fn volume(v: &mut Value) {
    let Some(m) = v.as_object_mut() else {
        return;
    };
    if m.keys().all(|k| k == "name") {
        m.insert("emptyDir".into(), json!({}));
    }
    for src in ["secret", "configMap", "downwardAPI", "projected"] {
        if let Some(s) = m.get_mut(src).filter(|s| s.is_object()) {
            entry(s, "defaultMode", json!(DEFAULT_MODE));
        }
    }
    if let Some(d) = m.get_mut("downwardAPI") {
        field_ref_items(d);
    }
    if let Some(p) = m.get_mut("projected") {
        for source in each(p, "sources") {
            if let Some(d) = source.get_mut("downwardAPI") {
                field_ref_items(d);
            }
            if let Some(t) = source
                .get_mut("serviceAccountToken")
                .filter(|t| t.is_object())
            {
                entry(t, "expirationSeconds", json!(TOKEN_EXPIRATION_SECONDS));
            }
        }
    }
    if let Some(spec) = m
        .get_mut("ephemeral")
        .and_then(|e| e.pointer_mut("/volumeClaimTemplate/spec"))
        .filter(|s| s.is_object())
    {
        claim_spec(spec);
    }
    shared_sources(v);
}

/// A PersistentVolumeClaim's spec (also in templates): volume mode Filesystem.
pub(crate) fn claim_spec(spec: &mut Value) {
    entry(spec, "volumeMode", json!("Filesystem"));
    for list in ["limits", "requests"] {
        super::resource_list(spec.pointer_mut(&format!("/resources/{list}")));
    }
}

/// core/v1 PersistentVolume: reclaim policy Retain, volume mode Filesystem, the legacy
/// sources' defaults; a new volume (no phase yet) is Pending since now, as upstream's
/// create strategy records the phase's transition time.
pub(crate) fn persistent_volume_defaults(obj: &mut Value) {
    if let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) {
        set(spec, "persistentVolumeReclaimPolicy", json!("Retain"));
        super::resource_list(spec.get_mut("capacity"));
        entry(spec, "volumeMode", json!("Filesystem"));
        shared_sources(spec);
    }
    if let Some(status) = entry(obj, "status", json!({})).filter(|s| s.is_object()) {
        if status
            .get("phase")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
        {
            status["phase"] = json!("Pending");
            entry(
                status,
                "lastPhaseTransitionTime",
                json!(kas_server::rest::now()),
            );
        }
    }
}

/// core/v1 PersistentVolumeClaim: volume mode Filesystem and phase Pending.
pub(crate) fn persistent_volume_claim_defaults(obj: &mut Value) {
    if let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) {
        claim_spec(spec);
    }
    if let Some(status) = entry(obj, "status", json!({})).filter(|s| s.is_object()) {
        set(status, "phase", json!("Pending"));
        for list in ["capacity", "allocatedResources"] {
            super::resource_list(status.get_mut(list));
        }
    }
}

/// storage.k8s.io/v1 StorageClass: reclaim policy Delete, binding mode Immediate.
pub(crate) fn storage_class_defaults(obj: &mut Value) {
    if !obj.is_object() {
        return;
    }
    entry(obj, "reclaimPolicy", json!("Delete"));
    entry(obj, "volumeBindingMode", json!("Immediate"));
}

/// storage.k8s.io/v1 CSIDriver (with the gates v1.33 enables by default: the fsGroup
/// policy, inline volumes and SELinuxMountReadWriteOncePod).
pub(crate) fn csi_driver_defaults(obj: &mut Value) {
    let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) else {
        return;
    };
    entry(spec, "attachRequired", json!(true));
    entry(spec, "podInfoOnMount", json!(false));
    entry(spec, "storageCapacity", json!(false));
    entry(spec, "fsGroupPolicy", json!("ReadWriteOnceWithFSType"));
    if spec
        .get("volumeLifecycleModes")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
    {
        spec["volumeLifecycleModes"] = json!(["Persistent"]);
    }
    entry(spec, "requiresRepublish", json!(false));
    entry(spec, "seLinuxMount", json!(false));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pod_volumes() {
        let mut v = json!({"name": "p", "projected": {"sources": [
            {"serviceAccountToken": {"path": "t"}},
            {"downwardAPI": {"items": [{"path": "n", "fieldRef": {"fieldPath": "metadata.name"}}]}}
        ]}});
        volume(&mut v);
        assert_eq!(v["projected"]["defaultMode"], 420);
        assert_eq!(
            v["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
            3600
        );
        assert_eq!(
            v["projected"]["sources"][1]["downwardAPI"]["items"][0]["fieldRef"]["apiVersion"],
            "v1"
        );
        let mut h = json!({"name": "h", "hostPath": {"path": "/x"}});
        volume(&mut h);
        assert_eq!(h["hostPath"], json!({"path": "/x", "type": ""}));
        let mut r = json!({"name": "r", "rbd": {"image": "i", "monitors": ["m"]}});
        volume(&mut r);
        assert_eq!(
            (&r["rbd"]["pool"], &r["rbd"]["user"], &r["rbd"]["keyring"]),
            (&json!("rbd"), &json!("admin"), &json!("/etc/ceph/keyring"))
        );
        let mut e = json!({"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}});
        volume(&mut e);
        assert_eq!(
            e["ephemeral"]["volumeClaimTemplate"]["spec"]["volumeMode"],
            "Filesystem"
        );
        for mut bad in [
            json!(1),
            json!({"projected": {"sources": [1, {"serviceAccountToken": 2}]}, "ephemeral": 3}),
        ] {
            volume(&mut bad);
        }
    }

    #[test]
    fn volumes_and_classes() {
        let mut pv = json!({"spec": {"hostPath": {"path": "/d"}}});
        persistent_volume_defaults(&mut pv);
        assert_eq!(pv["spec"]["persistentVolumeReclaimPolicy"], "Retain");
        assert_eq!(pv["spec"]["volumeMode"], "Filesystem");
        assert_eq!(pv["status"]["phase"], "Pending");
        assert!(pv["status"]["lastPhaseTransitionTime"].is_string());
        let once = pv.clone();
        persistent_volume_defaults(&mut pv);
        assert_eq!(pv, once);
        let mut pvc = json!({});
        persistent_volume_claim_defaults(&mut pvc);
        assert_eq!(
            pvc,
            json!({"spec": {"volumeMode": "Filesystem"}, "status": {"phase": "Pending"}})
        );
        let mut sc = json!({"provisioner": "p"});
        storage_class_defaults(&mut sc);
        assert_eq!(
            sc,
            json!({"provisioner": "p", "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"})
        );
        let mut d = json!({});
        csi_driver_defaults(&mut d);
        assert_eq!(
            d["spec"],
            json!({"attachRequired": true, "podInfoOnMount": false, "storageCapacity": false,
                   "fsGroupPolicy": "ReadWriteOnceWithFSType", "volumeLifecycleModes": ["Persistent"],
                   "requiresRepublish": false, "seLinuxMount": false})
        );
        for mut bad in [json!(null), json!({"spec": 1, "status": 2})] {
            persistent_volume_defaults(&mut bad);
            persistent_volume_claim_defaults(&mut bad);
            storage_class_defaults(&mut bad);
            csi_driver_defaults(&mut bad);
        }
    }
}
