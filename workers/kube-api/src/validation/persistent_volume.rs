//! PersistentVolumes as kube-apiserver 1.33 validates them: access modes, a positive
//! `storage` capacity and nothing else, a known reclaim policy and volume mode, node
//! affinity terms, exactly one volume source with that source's own rules (upstream's
//! order; a second source is refused, flexVolume excepted, as upstream), mount options
//! only for the sources that take them. On update the source, the volume mode and a set
//! node affinity are fixed (but for beta → GA topology labels), and upstream validates
//! the volume twice, so its causes appear twice here too.
//!
//! Each source's own rules are in `pv_sources.rs`. Not checked: the iSCSI IQN and
//! initiator name formats.

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

use super::causes::{
    arr, dns_subdomain_msgs, each_invalid, forbidden, invalid, invalid_shown, not_supported,
    not_supported_shown, required, s, text, IMMUTABLE_MSG,
};
use super::limits::go_quantity;
use super::pv_sources::source;

const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];
/// The sources in upstream's order, with the path their Forbidden cause names.
const SOURCES: [(&str, &str); 22] = [
    ("hostPath", "hostPath"),
    ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("glusterfs", "glusterfs"),
    ("flocker", "flocker"),
    ("nfs", "nfs"),
    ("rbd", "rbd"),
    ("quobyte", "quobyte"),
    ("cephfs", "cephFS"),
    ("iscsi", "iscsi"),
    ("cinder", "cinder"),
    ("fc", "fc"),
    ("flexVolume", "flexVolume"),
    ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"),
    ("scaleIO", "scaleIO"),
    ("local", "local"),
    ("storageos", "storageos"),
    ("csi", "csi"),
];
const MOUNT_OPTION_SOURCES: [&str; 13] = [
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "nfs",
    "rbd",
    "quobyte",
    "iscsi",
    "cinder",
    "cephfs",
    "azureFile",
    "vsphereVolume",
    "azureDisk",
    "photonPersistentDisk",
];
const MOUNT_OPTIONS_ANNOTATION: &str = "volume.beta.kubernetes.io/mount-options";

/// `%#v` of a capacity list.
fn go_resource_list(m: Option<&Map<String, Value>>) -> String {
    let Some(m) = m else {
        return "core.ResourceList(nil)".into();
    };
    let mut pairs: Vec<(&String, &Value)> = m.iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let body: Vec<String> = pairs
        .iter()
        .map(|(k, v)| {
            format!(
                "{}:{}",
                super::causes::quote(k),
                go_quantity(v.as_str().unwrap_or("0"))
            )
        })
        .collect();
    format!("core.ResourceList{{{}}}", body.join(", "))
}

fn volume_once(o: &Value, out: &mut Vec<StatusCause>) {
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    let modes: Vec<&str> = arr(&spec, "accessModes")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if modes.is_empty() {
        out.push(required("spec.accessModes", ""));
    }
    let mut valid_others = false;
    for m in &modes {
        if !ACCESS_MODES.contains(m) {
            out.push(not_supported("spec.accessModes", m, &ACCESS_MODES));
        } else if *m != "ReadWriteOncePod" {
            valid_others = true;
        }
    }
    if modes.contains(&"ReadWriteOncePod") && valid_others {
        out.push(forbidden(
            "spec.accessModes",
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    let capacity = spec.get("capacity").and_then(Value::as_object);
    if capacity.is_none_or(Map::is_empty) {
        out.push(required("spec.capacity", ""));
    }
    if capacity.is_none_or(|c| c.len() != 1 || !c.contains_key("storage")) {
        let shown = go_resource_list(capacity);
        out.push(not_supported_shown("spec.capacity", &shown, &["storage"]));
    }
    let mut names: Vec<&String> = capacity.map(|c| c.keys().collect()).unwrap_or_default();
    names.sort();
    for k in names {
        let v = &capacity.unwrap()[k.as_str()];
        if let Some(q) = kas_schema::quantity::Quantity::of(v) {
            let at = format!("spec.capacity[{k}]");
            if q.value() < 0 {
                out.push(invalid_shown(
                    &at,
                    &q.value().to_string(),
                    "must be a valid resource quantity",
                ));
            }
            if q.milli_value() <= 0 {
                out.push(invalid(&at, &q.to_string(), "must be greater than zero"));
            }
        }
    }
    let reclaim = text(&spec, "persistentVolumeReclaimPolicy");
    if !reclaim.is_empty() && !["Delete", "Recycle", "Retain"].contains(&reclaim) {
        out.push(not_supported(
            "spec.persistentVolumeReclaimPolicy",
            reclaim,
            &["Delete", "Recycle", "Retain"],
        ));
    }
    if let Some(na) = spec.get("nodeAffinity").filter(|v| !v.is_null()) {
        match na.get("required").filter(|v| !v.is_null()) {
            None => out.push(required(
                "spec.nodeAffinity.required",
                "must specify required node constraints",
            )),
            Some(r) => super::pod_scheduling::node_selector(r, "spec.nodeAffinity.required", out),
        }
    }
    let mut first: Option<&str> = None;
    for (key, forbidden_path) in SOURCES {
        let Some(v) = spec.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        match first {
            Some(_) if key != "flexVolume" => {
                out.push(forbidden(
                    &format!("spec.{forbidden_path}"),
                    "may not specify more than 1 volume type",
                ));
            }
            _ => {
                first = first.or(Some(key));
                let pv = o.pointer("/metadata/name").and_then(Value::as_str);
                source(key, v, &spec, pv.unwrap_or(""), out);
            }
        }
    }
    if first.is_none() {
        out.push(required("spec", "must specify a volume type"));
    }
    if let Some(hp) = spec.pointer("/hostPath/path").and_then(Value::as_str) {
        let cleaned: Vec<&str> = hp
            .split('/')
            .filter(|e| !e.is_empty() && *e != ".")
            .collect();
        if hp.starts_with('/') && cleaned.is_empty() && reclaim == "Recycle" {
            out.push(forbidden(
                "spec.persistentVolumeReclaimPolicy",
                "may not be 'recycle' for a hostPath mount of '/'",
            ));
        }
    }
    let class = text(&spec, "storageClassName");
    if !class.is_empty() {
        out.extend(each_invalid(
            "spec.storageClassName",
            class,
            dns_subdomain_msgs(class),
        ));
    }
    if let Some(m) = s(&spec, "volumeMode").filter(|m| !["Block", "Filesystem"].contains(m)) {
        out.push(not_supported(
            "spec.volumeMode",
            m,
            &["Block", "Filesystem"],
        ));
    }
    let annotated = o
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(MOUNT_OPTIONS_ANNOTATION))
        .is_some();
    if annotated && first.is_none_or(|f| !MOUNT_OPTION_SOURCES.contains(&f)) {
        out.push(forbidden(
            &format!("metadata.annotations.{MOUNT_OPTIONS_ANNOTATION}"),
            "may not specify mount options for this volume type",
        ));
    }
}

/// The node affinity with upstream's beta topology labels renamed to their GA names.
fn ga_labels(v: Option<&Value>) -> Option<Value> {
    let mut v = v.filter(|v| !v.is_null())?.clone();
    const RENAMES: [(&str, &str); 5] = [
        (
            "failure-domain.beta.kubernetes.io/zone",
            "topology.kubernetes.io/zone",
        ),
        (
            "failure-domain.beta.kubernetes.io/region",
            "topology.kubernetes.io/region",
        ),
        ("beta.kubernetes.io/os", "kubernetes.io/os"),
        ("beta.kubernetes.io/arch", "kubernetes.io/arch"),
        (
            "beta.kubernetes.io/instance-type",
            "node.kubernetes.io/instance-type",
        ),
    ];
    if let Some(terms) = v
        .pointer_mut("/required/nodeSelectorTerms")
        .and_then(Value::as_array_mut)
    {
        for e in terms
            .iter_mut()
            .filter_map(|t| t.get_mut("matchExpressions"))
            .filter_map(Value::as_array_mut)
            .flatten()
        {
            if let Some(k) = e.get("key").and_then(Value::as_str) {
                if let Some((_, ga)) = RENAMES.iter().find(|(beta, _)| *beta == k) {
                    e["key"] = Value::String((*ga).to_owned());
                }
            }
        }
    }
    Some(v)
}

/// A PersistentVolume.
pub(crate) fn persistent_volume(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    volume_once(o, &mut out);
    let Some(old) = old else {
        return out;
    };
    volume_once(o, &mut out);
    let (now, before) = (
        o.get("spec").cloned().unwrap_or(Value::Null),
        old.get("spec").cloned().unwrap_or(Value::Null),
    );
    let sources = |spec: &Value| -> Vec<(String, Value)> {
        SOURCES
            .iter()
            .filter_map(|(k, _)| {
                spec.get(*k)
                    .filter(|v| !v.is_null())
                    .map(|v| ((*k).to_owned(), v.clone()))
            })
            .collect()
    };
    let (mut a, b) = (sources(&now), sources(&before));
    // Adding an expansion secret to a CSI source is allowed.
    if let (Some((_, csi_now)), Some((_, csi_before))) = (
        a.iter_mut().find(|(k, _)| k == "csi"),
        b.iter().find(|(k, _)| k == "csi"),
    ) {
        if csi_before
            .get("controllerExpandSecretRef")
            .is_none_or(Value::is_null)
        {
            if let Some(m) = csi_now.as_object_mut() {
                m.remove("controllerExpandSecretRef");
            }
        }
    }
    if a != b {
        out.push(forbidden(
            "spec.persistentvolumesource",
            "spec.persistentvolumesource is immutable after creation",
        ));
    }
    if now.get("volumeMode") != before.get("volumeMode") {
        out.push(invalid(
            "volumeMode",
            text(&now, "volumeMode"),
            IMMUTABLE_MSG,
        ));
    }
    if before.get("nodeAffinity").is_some_and(|v| !v.is_null())
        && ga_labels(now.get("nodeAffinity")) != ga_labels(before.get("nodeAffinity"))
    {
        let shown = if now.get("nodeAffinity").is_some_and(|v| !v.is_null()) {
            "core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000000000)}"
        } else {
            "\"null\""
        };
        out.push(invalid_shown(
            "nodeAffinity",
            shown,
            "field is immutable, except for updating from beta label to GA",
        ));
    }
    out
}

#[cfg(test)]
#[path = "persistent_volume_tests.rs"]
mod tests;
