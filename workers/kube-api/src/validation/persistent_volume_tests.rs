use serde_json::json;

use super::*;
use crate::validation::causes::messages;

fn pv(spec: Value) -> Value {
    let mut o = json!({"metadata": {"name": "pv1"}, "spec": spec});
    crate::defaults::persistent_volume_defaults(&mut o);
    o
}

#[test]
fn a_valid_volume_passes() {
    let ok = pv(
        json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/data"}}),
    );
    assert!(
        persistent_volume(&ok, None).is_empty(),
        "{:?}",
        messages(&persistent_volume(&ok, None))
    );
}

#[test]
fn modes_capacity_sources_and_affinity() {
    let bad = pv(json!({
        "capacity": {"storage": "0", "cpu": "1"},
        "accessModes": ["ReadWriteOncePod", "ReadWriteOnce", "Sometimes"],
        "persistentVolumeReclaimPolicy": "Keep",
        "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In"}]}]}},
        "nfs": {"server": "", "path": "rel"},
        "hostPath": {"path": "/x"},
        "storageClassName": "Bad_SC",
    }));
    let got = messages(&persistent_volume(&bad, None));
    assert!(
        got.contains(&"spec.nfs: Forbidden: may not specify more than 1 volume type".to_owned()),
        "{got:?}"
    );
    assert!(
        got.contains(
            &"spec.capacity[storage]: Invalid value: \"0\": must be greater than zero".to_owned()
        ),
        "{got:?}"
    );
    assert!(
        got.contains(
            &"spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"
                .to_owned()
        ),
        "{got:?}"
    );
    assert!(got.contains(&"spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'".to_owned()), "{got:?}");
    assert!(
        got.iter()
            .any(|m| m.starts_with("spec.storageClassName: Invalid value: \"Bad_SC\"")),
        "{got:?}"
    );
    assert!(
        got.iter().any(|m| m.starts_with(
            "spec.capacity: Unsupported value: core.ResourceList{\"cpu\":resource.Quantity{"
        )),
        "{got:?}"
    );

    let none = pv(json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"]}));
    assert_eq!(
        messages(&persistent_volume(&none, None)),
        ["spec: Required value: must specify a volume type"]
    );
    let local = pv(
        json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "local": {"path": "/a/../b"}}),
    );
    assert_eq!(
        messages(&persistent_volume(&local, None)),
        [
            "spec.local.path: Invalid value: \"/a/../b\": must not contain '..'",
            "spec.nodeAffinity: Required value: Local volume requires node affinity",
        ]
    );
    let csi = pv(
        json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "csi": {"driver": "", "nodePublishSecretRef": {"name": "s", "namespace": "a.b"}}}),
    );
    let got = messages(&persistent_volume(&csi, None));
    assert_eq!(got[0], "spec.csi.driver: Required value");
    assert!(got.contains(&"spec.csi.volumeHandle: Required value".to_owned()));
    assert!(got.contains(
        &"spec.csi.nodePublishSecretRef.namespace: Invalid value: \"a.b\": must not contain dots"
            .to_owned()
    ));
}

#[test]
fn updates_fix_the_source_mode_and_affinity() {
    let affinity = |key: &str| json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": key, "operator": "In", "values": ["a"]}]}]}});
    let old = pv(
        json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/data"},
        "nodeAffinity": affinity("failure-domain.beta.kubernetes.io/zone")}),
    );
    let mut ga = old.clone();
    ga["spec"]["nodeAffinity"] = affinity("topology.kubernetes.io/zone");
    ga["spec"]["capacity"]["storage"] = json!("2Gi");
    assert!(
        persistent_volume(&ga, Some(&old)).is_empty(),
        "beta → GA labels and capacity may change"
    );
    let mut moved = old.clone();
    moved["spec"]["hostPath"]["path"] = json!("/other");
    moved["spec"]["volumeMode"] = json!("Block");
    moved["spec"]["nodeAffinity"] = affinity("other");
    assert_eq!(
        messages(&persistent_volume(&moved, Some(&old))),
        [
            "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation",
            "volumeMode: Invalid value: \"Block\": field is immutable",
            "nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000000000)}: field is immutable, except for updating from beta label to GA",
        ]
    );
}

#[test]
fn iscsi_names_follow_upstreams_formats() {
    let volume = |iscsi: Value| {
        pv(
            json!({"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "iscsi": iscsi}),
        )
    };
    let good = volume(json!({"targetPortal": "10.0.0.1:3260", "lun": 0,
        "iqn": "iqn.2001-04.com.example:storage.disk1", "initiatorName": "eui.0123456789ABCDEF"}));
    assert!(
        persistent_volume(&good, None).is_empty(),
        "{:?}",
        messages(&persistent_volume(&good, None))
    );
    let naa = volume(json!({"targetPortal": "p", "iqn": format!("naa.{}", "a".repeat(32))}));
    assert!(persistent_volume(&naa, None).is_empty());
    let bad = volume(
        json!({"targetPortal": "x".repeat(61), "lun": 0, "iqn": "iqn.01-04.com:x",
        "initiatorName": "foo"}),
    );
    assert_eq!(
        messages(&persistent_volume(&bad, None)),
        [
            format!("spec.iscsi.targetportal: Invalid value: \"{}\": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.", "x".repeat(61)),
            "spec.iscsi.iqn: Invalid value: \"iqn.01-04.com:x\": must be valid format".to_owned(),
            "spec.iscsi.initiatorname: Invalid value: \"foo\": must be valid format".to_owned(),
        ]
    );
    let eui = volume(json!({"targetPortal": "p", "iqn": "eui.short"}));
    assert_eq!(
        messages(&persistent_volume(&eui, None)),
        ["spec.iscsi.iqn: Invalid value: \"eui.short\": must be valid format"]
    );
}
