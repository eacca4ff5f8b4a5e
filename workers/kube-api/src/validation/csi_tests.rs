use serde_json::json;

use super::*;
use crate::validation::causes::messages;

fn defaulted(spec: Value) -> Value {
    let mut o = json!({"metadata": {"name": "d.example.com"}, "spec": spec});
    crate::defaults::csi_driver_defaults(&mut o);
    o
}

#[test]
fn csi_driver_rules() {
    assert!(csi_driver(&defaulted(json!({})), None).is_empty());
    let bad = defaulted(
        json!({"fsGroupPolicy": "Sometimes", "volumeLifecycleModes": ["Weird"],
        "tokenRequests": [{"audience": "a", "expirationSeconds": 60}, {"audience": "a"}, {"audience": "b", "expirationSeconds": 4294967297i64}]}),
    );
    assert_eq!(
        messages(&csi_driver(&bad, None)),
        [
            "spec.fsGroupPolicy: Unsupported value: \"Sometimes\": supported values: \"File\", \"None\", \"ReadWriteOnceWithFSType\"",
            "spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes",
            "spec.tokenRequests[1].audience: Duplicate value: \"a\"",
            "spec.tokenRequests[2].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds",
            "spec.volumeLifecycleModes: Unsupported value: \"Weird\": supported values: \"Persistent\", \"Ephemeral\"",
        ]
    );
    let old = defaulted(json!({}));
    let new = defaulted(
        json!({"attachRequired": false, "volumeLifecycleModes": ["Persistent", "Ephemeral"], "podInfoOnMount": true}),
    );
    assert_eq!(
        messages(&csi_driver(&new, Some(&old))),
        [
            "spec.attachedRequired: Invalid value: false: field is immutable",
            "spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{\"Persistent\", \"Ephemeral\"}: field is immutable",
        ]
    );
}

#[test]
fn csi_node_rules() {
    let node = json!({"spec": {"drivers": [
        {"name": "d.example.com", "nodeID": "n1", "topologyKeys": ["zone", "zone", "bad key"]},
        {"name": "d.example.com", "nodeID": "", "allocatable": {"count": -1}},
    ]}});
    let got = messages(&csi_node(&node, None));
    assert_eq!(got[0], "spec.drivers[0]: Duplicate value: \"zone\"");
    assert!(got[1]
        .starts_with("spec.drivers[0]: Invalid value: \"bad key\": name part must consist of"));
    assert_eq!(got[2..], [
        "spec.drivers[1].nodeID: Required value",
        "spec.drivers[1].allocatable.count: Invalid value: -1: must be greater than or equal to 0",
        "spec.drivers[1].name: Duplicate value: \"d.example.com\"",
    ]);
    let old = json!({"spec": {"drivers": [{"name": "d", "nodeID": "n1"}]}});
    let new = json!({"spec": {"drivers": [{"name": "d", "nodeID": "n2"}]}});
    assert_eq!(
        messages(&csi_node(&new, Some(&old))),
        ["spec.drivers: Invalid value: storage.CSINodeDriver{Name:\"d\", NodeID:\"n2\", TopologyKeys:[]string(nil), Allocatable:(*storage.VolumeNodeResources)(nil)}: field is immutable"]
    );
}

#[test]
fn storage_capacity_and_attachment_rules() {
    let cap = json!({"storageClassName": "", "capacity": "-1"});
    let got = messages(&csi_storage_capacity(&cap, None));
    assert!(
        got[0].starts_with("storageClassName: Invalid value: \"\": a lowercase RFC 1123 subdomain")
    );
    assert_eq!(
        got[1],
        "capacity: Invalid value: \"-1\": must be greater than or equal to 0"
    );
    let old = json!({"storageClassName": "a", "nodeTopology": {"matchLabels": {"z": "1"}}});
    let new = json!({"storageClassName": "b", "nodeTopology": {"matchLabels": {"z": "2"}}});
    assert_eq!(
        messages(&csi_storage_capacity(&new, Some(&old))),
        [
            "nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"z\":\"2\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable",
            "storageClassName: Invalid value: \"b\": field is immutable",
        ]
    );

    let va = json!({"spec": {"attacher": "", "source": {}, "nodeName": "n1"}});
    let got = messages(&volume_attachment(&va, None));
    assert_eq!(got[..3], [
        "spec.attacher: Required value",
        "spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName",
        "spec.attacher: Required value",
    ]);
    let ok = json!({"spec": {"attacher": "d.example.com", "source": {"persistentVolumeName": "pv1"}, "nodeName": "n1"}});
    assert!(volume_attachment(&ok, None).is_empty());
    let mut moved = ok.clone();
    moved["spec"]["nodeName"] = json!("n2");
    assert_eq!(
        messages(&volume_attachment(&moved, Some(&ok))),
        ["spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:\"d.example.com\", Source:storage.VolumeAttachmentSource{PersistentVolumeName:(*string)(0xc000000000), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:\"n2\"}: field is immutable"]
    );
}
