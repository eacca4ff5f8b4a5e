//! The volume sources of a PersistentVolume as kube-apiserver 1.33 validates each:
//! the fields each needs, paths without `..`, partitions and LUNs in range, secret
//! references that name something, and the few formats upstream checks (NFS paths,
//! Quobyte registries, Azure disk URIs, reserved flexVolume option domains, iSCSI
//! qualified names).

use std::sync::LazyLock;

use kas_server::status::StatusCause;
use regex::Regex;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, each_invalid, invalid, invalid_int, invalid_shown,
    not_supported, range_msg, required, s, text,
};
use super::csi::driver_name;

pub(super) fn need(v: &Value, key: &str, at: &str, out: &mut Vec<StatusCause>) {
    if text(v, key).is_empty() {
        out.push(required(&format!("{at}.{key}"), ""));
    }
}

/// Upstream's validatePathNoBacksteps: `path` at `at` has no `..` element (one cause).
pub(super) fn backsteps(path: &str, at: &str, out: &mut Vec<StatusCause>) {
    if path.split('/').any(|e| e == "..") {
        out.push(invalid(at, path, "must not contain '..'"));
    }
}

/// A host path: present and without a `..` element.
fn local_path(v: &Value, at: &str, out: &mut Vec<StatusCause>) -> bool {
    let path = text(v, "path");
    if path.is_empty() {
        out.push(required(&format!("{at}.path"), ""));
        return false;
    }
    backsteps(path, &format!("{at}.path"), out);
    true
}

fn secret_ref(r: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let name = text(r, "name");
    if name.is_empty() {
        out.push(required(&format!("{at}.name"), ""));
    } else {
        out.extend(each_invalid(
            &format!("{at}.name"),
            name,
            dns_subdomain_msgs(name),
        ));
    }
    let ns = text(r, "namespace");
    if ns.is_empty() {
        out.push(required(&format!("{at}.namespace"), ""));
    } else {
        out.extend(each_invalid(
            &format!("{at}.namespace"),
            ns,
            dns_label_msgs(ns),
        ));
    }
}

fn partition(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(p) = v.get("partition").and_then(Value::as_i64) {
        if !(0..=255).contains(&p) {
            out.push(invalid_int(
                &format!("{at}.partition"),
                p,
                &range_msg(1, 255),
            ));
        }
    }
}

fn lun(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(l) = v.get("lun").and_then(Value::as_i64) {
        if !(0..=255).contains(&l) {
            out.push(invalid_int(&format!("{at}.lun"), l, &range_msg(0, 255)));
        }
    }
}

fn need_list(v: &Value, key: &str, at: &str, out: &mut Vec<StatusCause>) {
    if arr(v, key).is_empty() {
        out.push(required(&format!("{at}.{key}"), ""));
    }
}

/// A hostPath source, of a PersistentVolume or a pod volume (upstream's
/// validateHostPathVolumeSource serves both).
pub(super) fn host_path(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    const TYPES: [&str; 8] = [
        "",
        "BlockDevice",
        "CharDevice",
        "Directory",
        "DirectoryOrCreate",
        "File",
        "FileOrCreate",
        "Socket",
    ];
    if local_path(v, at, out) {
        let t = text(v, "type");
        if !TYPES.contains(&t) {
            out.push(not_supported(&format!("{at}.type"), t, &TYPES));
        }
    }
}

/// One volume source's own rules.
/// Upstream's iSCSI qualified name formats (core validation's `iscsiInitiator*Regex`):
/// `iqn.YYYY-MM.<domain>:<name>` (not anchored at its start, as upstream's), `eui.` and
/// 16, `naa.` and 32 alphanumerics.
static IQN: LazyLock<[Regex; 3]> = LazyLock::new(|| {
    [
        r"iqn\.[0-9]{4}-[0-9]{2}\.([[:alnum:]\-.]+)(:[^,;*&$|\t\n\f\r ]+)$",
        r"^eui.[[:alnum:]]{16}$",
        r"^naa.[[:alnum:]]{32}$",
    ]
    .map(|re| Regex::new(re).expect("iSCSI name pattern"))
});

/// Why `name` is not an iSCSI qualified name (an `iqn`, `eui` or `naa` one).
fn iscsi_name_msg(name: &str) -> Option<&'static str> {
    let [iqn, eui, naa] = &*IQN;
    let ok = match name.get(..3) {
        Some("iqn") => iqn.is_match(name),
        Some("eui") => eui.is_match(name),
        Some("naa") => naa.is_match(name),
        _ => return Some("must be valid format"),
    };
    (!ok).then_some("must be valid format")
}

/// An iSCSI persistent volume source, in upstream's order.
fn iscsi(v: &Value, pv: &str, at: &str, out: &mut Vec<StatusCause>) {
    need(v, "targetPortal", at, out);
    let portal = text(v, "targetPortal");
    let initiator = v.get("initiatorName").and_then(Value::as_str);
    if initiator.is_some() && pv.len() + 1 + portal.len() > 64 {
        out.push(invalid(
            &format!("{at}.targetportal"),
            portal,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
    let iqn = text(v, "iqn");
    if iqn.is_empty() {
        out.push(required(&format!("{at}.iqn"), ""));
    } else if let Some(msg) = iscsi_name_msg(iqn) {
        out.push(invalid(&format!("{at}.iqn"), iqn, msg));
    }
    lun(v, at, out);
    let chap = v.get("chapAuthDiscovery").and_then(Value::as_bool) == Some(true)
        || v.get("chapAuthSession").and_then(Value::as_bool) == Some(true);
    match v.get("secretRef").filter(|r| r.is_object()) {
        None if chap => out.push(required(&format!("{at}.secretRef"), "")),
        Some(r) if text(r, "name").is_empty() => {
            out.push(required(&format!("{at}.secretRef.name"), ""))
        }
        _ => {}
    }
    if let Some(msg) = initiator.and_then(iscsi_name_msg) {
        out.push(invalid(
            &format!("{at}.initiatorname"),
            initiator.unwrap_or(""),
            msg,
        ));
    }
}

/// Why `name` is not an iSCSI qualified name, as a pod's iSCSI volume says it.
fn pod_iscsi_name_msg(name: &str) -> Option<&'static str> {
    match name.get(..3) {
        Some("iqn" | "eui" | "naa") => iscsi_name_msg(name),
        _ => Some("must be valid format starting with iqn, eui, or naa"),
    }
}

/// A pod's iSCSI volume source (its name's length is checked by the volume frame).
pub(super) fn pod_iscsi(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    need(v, "targetPortal", at, out);
    let iqn = text(v, "iqn");
    if iqn.is_empty() {
        out.push(required(&format!("{at}.iqn"), ""));
    } else if let Some(msg) = pod_iscsi_name_msg(iqn) {
        out.push(invalid(&format!("{at}.iqn"), iqn, msg));
    }
    lun(v, at, out);
    let chap = v.get("chapAuthDiscovery").and_then(Value::as_bool) == Some(true)
        || v.get("chapAuthSession").and_then(Value::as_bool) == Some(true);
    if chap && v.get("secretRef").is_none_or(Value::is_null) {
        out.push(required(&format!("{at}.secretRef"), ""));
    }
    if let Some(initiator) = v.get("initiatorName").and_then(Value::as_str) {
        if let Some(msg) = pod_iscsi_name_msg(initiator) {
            out.push(invalid(&format!("{at}.initiatorname"), initiator, msg));
        }
    }
}

/// Whether `hp` splits as Go's `net.SplitHostPort` splits it: one `:` before the port
/// (or a bracketed host), no stray brackets; host and port may be empty.
fn splits_host_port(hp: &str) -> bool {
    let Some(i) = hp.rfind(':') else {
        return false;
    };
    let (j, k) = if hp.starts_with('[') {
        let Some(end) = hp.find(']') else {
            return false;
        };
        if end + 1 != i {
            return false;
        }
        (1, end + 1)
    } else {
        if hp[..i].contains(':') {
            return false;
        }
        (0, 0)
    };
    !hp[j..].contains('[') && !hp[k..].contains(']')
}

/// The rules a volume source has alike in a PersistentVolume and in a pod's volumes
/// (upstream validates both with the same function), at `at`; false when `name` is not
/// one of those sources.
pub(super) fn shared(name: &str, v: &Value, at: &str, out: &mut Vec<StatusCause>) -> bool {
    match name {
        "hostPath" => host_path(v, at, out),
        "nfs" => {
            need(v, "server", at, out);
            let path = text(v, "path");
            if path.is_empty() {
                out.push(required(&format!("{at}.path"), ""));
            }
            if !path.starts_with('/') {
                out.push(invalid(
                    &format!("{at}.path"),
                    path,
                    "must be an absolute path",
                ));
            }
        }
        "gcePersistentDisk" => {
            need(v, "pdName", at, out);
            partition(v, at, out);
        }
        "awsElasticBlockStore" => {
            need(v, "volumeID", at, out);
            partition(v, at, out);
        }
        "glusterfs" => {
            need(v, "endpoints", at, out);
            need(v, "path", at, out);
        }
        "flocker" => {
            let (dn, du) = (text(v, "datasetName"), text(v, "datasetUUID"));
            match (dn.is_empty(), du.is_empty()) {
                (true, true) => out.push(required(
                    at,
                    "one of datasetName and datasetUUID is required",
                )),
                (false, false) => out.push(invalid(
                    at,
                    "resource",
                    "datasetName and datasetUUID can not be specified simultaneously",
                )),
                _ => {}
            }
            if dn.contains('/') {
                out.push(invalid(
                    &format!("{at}.datasetName"),
                    dn,
                    "must not contain '/'",
                ));
            }
        }
        "rbd" => {
            need_list(v, "monitors", at, out);
            need(v, "image", at, out);
        }
        "cephfs" => need_list(v, "monitors", at, out),
        "quobyte" => {
            const PAIRS: &str = "must be a host:port pair or multiple pairs separated by commas";
            let registry = text(v, "registry");
            if registry.is_empty() {
                out.push(required(&format!("{at}.registry"), PAIRS));
            } else if text(v, "tenant").len() >= 65 {
                out.push(required(
                    &format!("{at}.tenant"),
                    "must be a UUID and may not exceed a length of 64 characters",
                ));
            } else {
                for pair in registry.split(',') {
                    if !splits_host_port(pair) {
                        out.push(invalid(&format!("{at}.registry"), registry, PAIRS));
                    }
                }
            }
            need(v, "volume", at, out);
        }
        "fc" => {
            let wwns = arr(v, "targetWWNs");
            match (wwns.is_empty(), arr(v, "wwids").is_empty()) {
                (true, true) => out.push(required(
                    &format!("{at}.targetWWNs"),
                    "must specify either targetWWNs or wwids, but not both",
                )),
                (false, false) => {
                    out.push(invalid_shown(
                        &format!("{at}.targetWWNs"),
                        &super::causes::go_strings(wwns),
                        "targetWWNs and wwids can not be specified simultaneously",
                    ));
                }
                _ => {}
            }
            if !wwns.is_empty() {
                if v.get("lun").is_none_or(Value::is_null) {
                    out.push(required(
                        &format!("{at}.lun"),
                        "lun is required if targetWWNs is specified",
                    ));
                } else {
                    lun(v, at, out);
                }
            }
        }
        "flexVolume" => {
            need(v, "driver", at, out);
            let mut keys: Vec<&String> = v
                .get("options")
                .and_then(Value::as_object)
                .map(|m| m.keys().collect())
                .unwrap_or_default();
            keys.sort();
            for k in keys {
                let domain = format!(".{}", k.split('/').next().unwrap_or("").to_lowercase());
                if domain.ends_with(".kubernetes.io") || domain.ends_with(".k8s.io") {
                    out.push(invalid(
                        &format!("{at}.options[{k}]"),
                        k,
                        "kubernetes.io and k8s.io namespaces are reserved",
                    ));
                }
            }
        }
        "azureFile" => {
            need(v, "secretName", at, out);
            need(v, "shareName", at, out);
        }
        "vsphereVolume" => need(v, "volumePath", at, out),
        "photonPersistentDisk" => need(v, "pdID", at, out),
        "portworxVolume" => need(v, "volumeID", at, out),
        "azureDisk" => azure_disk(v, at, out),
        "scaleIO" => {
            for key in ["gateway", "system", "volumeName"] {
                need(v, key, at, out);
            }
        }
        _ => return false,
    }
    true
}

fn azure_disk(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    need(v, "diskName", at, out);
    need(v, "diskURI", at, out);
    if let Some(m) = s(v, "cachingMode").filter(|m| !["None", "ReadOnly", "ReadWrite"].contains(m))
    {
        out.push(not_supported(
            &format!("{at}.cachingMode"),
            m,
            &["None", "ReadOnly", "ReadWrite"],
        ));
    }
    let kind = s(v, "kind").unwrap_or("Shared");
    if !["Dedicated", "Managed", "Shared"].contains(&kind) {
        out.push(not_supported(
            &format!("{at}.kind"),
            kind,
            &["Dedicated", "Managed", "Shared"],
        ));
    }
    let uri = text(v, "diskURI");
    if kind == "Managed" && !uri.starts_with("/subscriptions/") {
        out.push(not_supported(&format!("{at}.diskURI"), uri, &["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"]));
    } else if kind != "Managed" && !uri.starts_with("https://") {
        out.push(not_supported(
            &format!("{at}.diskURI"),
            uri,
            &["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"],
        ));
    }
}

/// The name part of a storageos source (its volume and namespace), pod or PV alike.
pub(super) fn storageos_names(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let name = text(v, "volumeName");
    if name.is_empty() {
        out.push(required(&format!("{at}.volumeName"), ""));
    } else {
        out.extend(each_invalid(
            &format!("{at}.volumeName"),
            name,
            dns_label_msgs(name),
        ));
    }
    let ns = text(v, "volumeNamespace");
    if !ns.is_empty() {
        out.extend(each_invalid(
            &format!("{at}.volumeNamespace"),
            ns,
            dns_label_msgs(ns),
        ));
    }
}

/// One source of a PersistentVolume named `pv` (whose spec is `spec`).
pub(super) fn source(name: &str, v: &Value, spec: &Value, pv: &str, out: &mut Vec<StatusCause>) {
    let at = match name {
        "gcePersistentDisk" => "spec.persistentDisk".to_owned(),
        _ => format!("spec.{name}"),
    };
    if shared(name, v, &at, out) {
        match name {
            "glusterfs" => {
                if let Some(ns) = v.get("endpointsNamespace").and_then(Value::as_str) {
                    let field = format!("{at}.endpointsNamespace");
                    if ns.is_empty() {
                        out.push(invalid(
                            &field,
                            ns,
                            "if the endpointnamespace is set, it must be a valid namespace name",
                        ));
                    } else {
                        out.extend(each_invalid(&field, ns, dns_label_msgs(ns)));
                    }
                }
            }
            "azureFile" if v.get("secretNamespace").and_then(Value::as_str) == Some("") => {
                out.push(required(&format!("{at}.secretNamespace"), ""));
            }
            _ => {}
        }
        return;
    }
    match name {
        "local" => {
            let placed = spec.get("nodeAffinity").is_some_and(|a| !a.is_null());
            if local_path(v, &at, out) && !placed {
                out.push(required(
                    "spec.nodeAffinity",
                    "Local volume requires node affinity",
                ));
            }
        }
        "csi" => {
            out.extend(driver_name(text(v, "driver"), &format!("{at}.driver")));
            need(v, "volumeHandle", &at, out);
            for r in [
                "controllerPublishSecretRef",
                "controllerExpandSecretRef",
                "nodePublishSecretRef",
                "nodeExpandSecretRef",
            ] {
                if let Some(sr) = v.get(r).filter(|x| x.is_object()) {
                    secret_ref(sr, &format!("{at}.{r}"), out);
                }
            }
        }
        "iscsi" => iscsi(v, pv, &at, out),
        "cinder" => {
            need(v, "volumeID", &at, out);
            if let Some(r) = v.get("secretRef").filter(|r| r.is_object()) {
                need(r, "name", &format!("{at}.secretRef"), out);
                need(r, "namespace", &format!("{at}.secretRef"), out);
            }
        }
        "storageos" => {
            storageos_names(v, &at, out);
            if let Some(r) = v.get("secretRef").filter(|r| r.is_object()) {
                need(r, "name", &format!("{at}.secretRef"), out);
                need(r, "namespace", &format!("{at}.secretRef"), out);
            }
        }
        _ => {}
    }
}
