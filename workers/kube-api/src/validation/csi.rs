//! The CSI types of storage.k8s.io as kube-apiserver 1.33 validates them: CSIDrivers
//! (known policies and lifecycle modes, distinct token audiences with sane lifetimes;
//! attachRequired and the lifecycle modes fixed once set), CSINodes (named drivers,
//! once each, with node IDs and topology keys; a driver fixed once registered),
//! CSIStorageCapacities (a class, a topology selector, a non-negative capacity; class
//! and topology fixed) and VolumeAttachments (an attacher, exactly one source, a node;
//! the whole spec fixed). Upstream validates CSINodes and VolumeAttachments twice on
//! update, so their causes appear twice, as here.

use std::collections::BTreeSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, duplicate, each_invalid, forbidden, go_list_or_nil, invalid,
    invalid_int, invalid_shown, not_supported, qualified_name_msgs, quote, required, s, show,
    too_long, IMMUTABLE_MSG, NEGATIVE_MSG,
};
use super::limits::quantity_value;
use super::selector::selector_rules;

/// A CSI driver's name at `at`: required, at most 63 bytes, a DNS subdomain once
/// lower-cased.
pub(crate) fn driver_name(name: &str, at: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    if name.is_empty() {
        out.push(required(at, ""));
    }
    if name.len() > 63 {
        out.push(too_long(at, 63));
    }
    out.extend(each_invalid(
        at,
        name,
        dns_subdomain_msgs(&name.to_lowercase()),
    ));
    out
}

/// A CSIDriver; attachRequired and the lifecycle modes fixed once set.
pub(crate) fn csi_driver(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    for (key, path) in [
        ("attachRequired", "spec.attachedRequired"),
        ("podInfoOnMount", "spec.podInfoOnMount"),
        ("storageCapacity", "spec.storageCapacity"),
    ] {
        if spec.get(key).is_none_or(Value::is_null) {
            out.push(required(path, ""));
        }
    }
    if let Some(p) = s(&spec, "fsGroupPolicy") {
        if !matches!(p, "File" | "None" | "ReadWriteOnceWithFSType") {
            out.push(not_supported(
                "spec.fsGroupPolicy",
                p,
                &["File", "None", "ReadWriteOnceWithFSType"],
            ));
        }
    }
    let mut audiences = BTreeSet::new();
    for (i, t) in arr(&spec, "tokenRequests").iter().enumerate() {
        let at = format!("spec.tokenRequests[{i}]");
        let audience = s(t, "audience").unwrap_or("");
        if !audiences.insert(audience) {
            out.push(duplicate(&format!("{at}.audience"), audience));
            continue;
        }
        if let Some(secs) = t.get("expirationSeconds").and_then(Value::as_i64) {
            let field = format!("{at}.expirationSeconds");
            if secs < 600 {
                out.push(invalid_int(
                    &field,
                    secs,
                    "may not specify a duration less than 10 minutes",
                ));
            } else if secs > 1 << 32 {
                out.push(invalid_int(
                    &field,
                    secs,
                    "may not specify a duration larger than 2^32 seconds",
                ));
            }
        }
    }
    for mode in arr(&spec, "volumeLifecycleModes") {
        let mode = mode.as_str().unwrap_or("");
        if !matches!(mode, "Persistent" | "Ephemeral") {
            out.push(not_supported(
                "spec.volumeLifecycleModes",
                mode,
                &["Persistent", "Ephemeral"],
            ));
        }
    }
    if spec.get("seLinuxMount").is_none_or(Value::is_null) {
        out.push(required("spec.seLinuxMount", ""));
    }
    if let Some(old) = old {
        let before = old.get("spec").cloned().unwrap_or(Value::Null);
        if before.get("attachRequired") != spec.get("attachRequired") {
            let v = spec
                .get("attachRequired")
                .map(show)
                .unwrap_or_else(|| "null".into());
            out.push(invalid_shown("spec.attachedRequired", &v, IMMUTABLE_MSG));
        }
        if before.get("volumeLifecycleModes") != spec.get("volumeLifecycleModes") {
            let shown = go_list_or_nil(
                "storage.VolumeLifecycleMode",
                spec.get("volumeLifecycleModes"),
            );
            out.push(invalid_shown(
                "spec.volumeLifecycleModes",
                &shown,
                IMMUTABLE_MSG,
            ));
        }
    }
    out
}

fn csi_node_once(o: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let mut names = BTreeSet::new();
    for (i, d) in arr(o.get("spec").unwrap_or(&Value::Null), "drivers")
        .iter()
        .enumerate()
    {
        let at = format!("spec.drivers[{i}]");
        let name = s(d, "name").unwrap_or("");
        out.extend(driver_name(name, &format!("{at}.name")));
        let id = s(d, "nodeID").unwrap_or("");
        if id.is_empty() {
            out.push(required(&format!("{at}.nodeID"), ""));
        } else if id.len() > 256 {
            out.push(invalid(
                &format!("{at}.nodeID"),
                id,
                "must be 256 characters or less",
            ));
        }
        if let Some(n) = d.pointer("/allocatable/count").and_then(Value::as_i64) {
            if n < 0 {
                out.push(invalid_int(
                    &format!("{at}.allocatable.count"),
                    n,
                    NEGATIVE_MSG,
                ));
            }
        }
        if !names.insert(name) {
            out.push(duplicate(&format!("{at}.name"), name));
        }
        let mut keys = BTreeSet::new();
        for key in arr(d, "topologyKeys") {
            let key = key.as_str().unwrap_or("");
            if key.is_empty() {
                out.push(required(&at, ""));
            }
            if !keys.insert(key) {
                out.push(duplicate(&at, key));
            }
            out.extend(each_invalid(&at, key, qualified_name_msgs(key)));
        }
    }
    out
}

/// `%#v` of a CSINode driver, as its immutability cause prints it.
fn go_csi_node_driver(d: &Value) -> String {
    let keys = go_list_or_nil("string", d.get("topologyKeys"));
    let allocatable = if d.get("allocatable").is_some_and(|a| !a.is_null()) {
        "(*storage.VolumeNodeResources)(0xc000000000)"
    } else {
        "(*storage.VolumeNodeResources)(nil)"
    };
    format!(
        "storage.CSINodeDriver{{Name:{}, NodeID:{}, TopologyKeys:{keys}, Allocatable:{allocatable}}}",
        quote(s(d, "name").unwrap_or("")),
        quote(s(d, "nodeID").unwrap_or("")),
    )
}

/// A CSINode: its drivers; a registered driver does not change.
pub(crate) fn csi_node(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = csi_node_once(o);
    let Some(old) = old else {
        return out;
    };
    out.extend(csi_node_once(o));
    let drivers = |v: &Value| arr(v.get("spec").unwrap_or(&Value::Null), "drivers").to_vec();
    let before = drivers(old);
    for d in drivers(o) {
        let name = s(&d, "name");
        if let Some(prev) = before.iter().find(|p| s(p, "name") == name) {
            if prev != &d {
                out.push(invalid_shown(
                    "spec.drivers",
                    &go_csi_node_driver(&d),
                    IMMUTABLE_MSG,
                ));
            }
        }
    }
    out
}

/// A CSIStorageCapacity; its class and topology fixed once set.
pub(crate) fn csi_storage_capacity(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    if let Some(sel) = o.get("nodeTopology").filter(|v| v.is_object()) {
        selector_rules(sel, "nodeTopology", &mut out);
    }
    let class = s(o, "storageClassName").unwrap_or("");
    out.extend(each_invalid(
        "storageClassName",
        class,
        dns_subdomain_msgs(class),
    ));
    if let Some(c) = o.get("capacity") {
        out.extend(quantity_value("storage", c, "capacity"));
    }
    if let Some(old) = old {
        if old.get("nodeTopology") != o.get("nodeTopology") {
            let shown = o
                .get("nodeTopology")
                .filter(|v| v.is_object())
                .map(super::selector::show_selector)
                .unwrap_or_else(|| "\"null\"".into());
            out.push(invalid_shown("nodeTopology", &shown, IMMUTABLE_MSG));
        }
        if s(old, "storageClassName").unwrap_or("") != class {
            out.push(invalid("storageClassName", class, IMMUTABLE_MSG));
        }
    }
    out
}

fn volume_attachment_once(o: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    if s(&spec, "attacher").unwrap_or("").is_empty() {
        out.push(required("spec.attacher", ""));
    }
    let pv = spec
        .pointer("/source/persistentVolumeName")
        .and_then(Value::as_str);
    let inline = spec
        .pointer("/source/inlineVolumeSpec")
        .filter(|v| v.is_object());
    const EXACTLY_ONE: &str =
        "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
    match (pv, inline) {
        (None, None) => out.push(required("spec.source", EXACTLY_ONE)),
        (Some(_), Some(_)) => out.push(forbidden("spec.source", EXACTLY_ONE)),
        (Some(""), None) => out.push(required(
            "spec.source.persistentVolumeName",
            "must specify non empty persistentVolumeName",
        )),
        (Some(_), None) => {}
        (None, Some(iv)) => inline_volume(iv, &mut out),
    }
    let node = s(&spec, "nodeName").unwrap_or("");
    out.extend(each_invalid(
        "spec.nodeName",
        node,
        dns_subdomain_msgs(node),
    ));
    for key in ["attachError", "detachError"] {
        if let Some(m) = o
            .pointer(&format!("/status/{key}/message"))
            .and_then(Value::as_str)
        {
            if m.chars().count() > 1024 {
                out.push(too_long(&format!("status.{key}.message"), 262144));
            }
        }
    }
    let metadata: usize = o
        .pointer("/status/attachmentMetadata")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
                .sum()
        })
        .unwrap_or(0);
    if metadata > 262144 {
        out.push(too_long("status.attachmentMetadata", 262144));
    }
    out
}

/// The rules an inline volume spec has beyond a PersistentVolume's own (which are not
/// checked here).
fn inline_volume(iv: &Value, out: &mut Vec<StatusCause>) {
    const AT: &str = "spec.source.inlineVolumeSpec";
    const CONTEXT: &str = "may not be specified in the context of inline volumes";
    if iv.get("claimRef").is_some_and(|v| !v.is_null()) {
        out.push(forbidden(&format!("{AT}.claimRef"), CONTEXT));
    }
    if iv
        .get("capacity")
        .and_then(Value::as_object)
        .is_some_and(|c| !c.is_empty())
    {
        out.push(forbidden(&format!("{AT}.capacity"), CONTEXT));
    }
    if iv.get("csi").is_none_or(Value::is_null) {
        out.push(required(
            &format!("{AT}.csi"),
            "has to be specified in the context of inline volumes",
        ));
    }
    if s(iv, "persistentVolumeReclaimPolicy").is_some_and(|p| !p.is_empty() && p != "Retain") {
        out.push(forbidden(
            &format!("{AT}.persistentVolumeReclaimPolicy"),
            "may only be Retain in the context of inline volumes",
        ));
    }
    if iv.get("nodeAffinity").is_some_and(|v| !v.is_null()) {
        out.push(forbidden(&format!("{AT}.nodeAffinity"), CONTEXT));
    }
    if s(iv, "storageClassName").is_some_and(|c| !c.is_empty()) {
        out.push(forbidden(&format!("{AT}.storageClassName"), CONTEXT));
    }
    if s(iv, "volumeMode").is_some_and(|m| m != "Filesystem") {
        out.push(forbidden(
            &format!("{AT}.volumeMode"),
            "may not specify volumeMode other than Filesystem in the context of inline volumes",
        ));
    }
}

/// `%#v` of a VolumeAttachment spec, as its immutability cause prints it.
fn go_attachment_spec(spec: &Value) -> String {
    let pv = if spec.pointer("/source/persistentVolumeName").is_some() {
        "(*string)(0xc000000000)"
    } else {
        "(*string)(nil)"
    };
    let inline = if spec.pointer("/source/inlineVolumeSpec").is_some() {
        "(*core.PersistentVolumeSpec)(0xc000000000)"
    } else {
        "(*core.PersistentVolumeSpec)(nil)"
    };
    let text = |k: &str| quote(s(spec, k).unwrap_or(""));
    format!(
        "storage.VolumeAttachmentSpec{{Attacher:{}, Source:storage.VolumeAttachmentSource{{PersistentVolumeName:{pv}, InlineVolumeSpec:{inline}}}, NodeName:{}}}",
        text("attacher"),
        text("nodeName"),
    )
}

/// A VolumeAttachment; its spec fixed once created.
pub(crate) fn volume_attachment(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = volume_attachment_once(o);
    match old {
        None => {
            let attacher = o
                .pointer("/spec/attacher")
                .and_then(Value::as_str)
                .unwrap_or("");
            out.extend(driver_name(attacher, "spec.attacher"));
            if let Some(pv) = o
                .pointer("/spec/source/persistentVolumeName")
                .and_then(Value::as_str)
            {
                out.extend(each_invalid(
                    "spec.source.persistentVolumeName",
                    pv,
                    dns_subdomain_msgs(pv),
                ));
            }
        }
        Some(old) => {
            out.extend(volume_attachment_once(o));
            if old.get("spec") != o.get("spec") {
                let spec = o.get("spec").cloned().unwrap_or(Value::Null);
                out.push(invalid_shown(
                    "spec",
                    &go_attachment_spec(&spec),
                    IMMUTABLE_MSG,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "csi_tests.rs"]
mod tests;
