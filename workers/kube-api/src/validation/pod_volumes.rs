//! A pod spec's volumes as kube-apiserver 1.33 validates them (`ValidateVolumes` and
//! `validateVolumeSource`; facts in /work/notes/validation-spec-5.md): per volume its
//! source's causes, then its name's, then a duplicate name; only a volume without any
//! is registered, so mounts of a faulty volume also get `Not found`.
//!
//! Sources are looked at in upstream's fixed order: the first one present is validated,
//! each later one is `Forbidden` (at upstream's paths, typos included: `cephFS`,
//! `downwarAPI`); `emptyDir` always counts first. Each source's own rules: those a
//! PersistentVolume shares in `pv_sources`, the pod-only ones here, the projecting ones
//! (`downwardAPI`, `projected`) in `pod_projection`, `ephemeral` in `pod_ephemeral`.
//! `image` volumes never get here: the ImageVolume gate is off, so the pod strategy
//! drops them.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, forbidden, invalid,
    invalid_int, required, s, text,
};
use super::pod_mounts::Volumes;
use super::pod_projection::{downward_api, projected};
use super::pv_sources::{backsteps, need};

/// Volume sources in the order upstream looks at them, with the path a second source's
/// `Forbidden` is reported at.
const SOURCES: &[(&str, &str)] = &[
    ("emptyDir", "emptyDir"),
    ("hostPath", "hostPath"),
    ("gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret"),
    ("nfs", "nfs"),
    ("iscsi", "iscsi"),
    ("glusterfs", "glusterfs"),
    ("flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim"),
    ("rbd", "rbd"),
    ("cinder", "cinder"),
    ("cephfs", "cephFS"),
    ("quobyte", "quobyte"),
    ("downwardAPI", "downwarAPI"),
    ("fc", "fc"),
    ("flexVolume", "flexVolume"),
    ("configMap", "configMap"),
    ("azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk"),
    ("storageos", "storageos"),
    ("projected", "projected"),
    ("scaleIO", "scaleIO"),
    ("csi", "csi"),
    ("ephemeral", "ephemeral"),
    ("image", "image"),
];

const FILE_MODE_MSG: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// The volumes of `spec` at `path`, of the pod named `pod` (None in a template); returns
/// those without causes (name → whether a claim backs it).
pub(super) fn volumes(
    spec: &Value,
    path: &str,
    pod: Option<&str>,
    out: &mut Vec<StatusCause>,
) -> Volumes {
    let mut names = Volumes::new();
    for (i, vol) in arr(spec, "volumes").iter().enumerate() {
        let p = format!("{path}.volumes[{i}]");
        let name = s(vol, "name").unwrap_or("");
        let mut el = source(vol, &p, name, pod);
        if name.is_empty() {
            el.push(required(&format!("{p}.name"), ""));
        } else {
            el.extend(each_invalid(
                &format!("{p}.name"),
                name,
                dns_label_msgs(name),
            ));
        }
        if !name.is_empty() && names.contains_key(name) {
            el.push(duplicate(&format!("{p}.name"), name));
        }
        if el.is_empty() {
            let claim = ["persistentVolumeClaim", "ephemeral"]
                .iter()
                .any(|k| vol.get(*k).is_some_and(|v| !v.is_null()));
            names.insert(name.to_owned(), claim);
        }
        out.extend(el);
    }
    out.extend(super::pod_ephemeral::created_claims(spec, path, pod));
    names
}

/// The source frame of the volume at `p` named `name`: the first source present is
/// validated, later ones forbidden.
fn source(vol: &Value, p: &str, name: &str, pod: Option<&str>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let mut counted = false;
    for (key, forbidden_at) in SOURCES {
        let Some(v) = vol.get(*key).filter(|v| !v.is_null()) else {
            continue;
        };
        if *key == "iscsi" {
            iscsi_name(v, p, name, &mut out);
        }
        if counted {
            out.push(forbidden(
                &format!("{p}.{forbidden_at}"),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        counted = true;
        match *key {
            "projected" => projected(v, p, &mut out),
            "ephemeral" => super::pod_ephemeral::ephemeral(v, p, name, pod, &mut out),
            "gcePersistentDisk" => {
                super::pv_sources::shared(key, v, &format!("{p}.persistentDisk"), &mut out);
            }
            _ => rules(key, v, &format!("{p}.{key}"), &mut out),
        }
    }
    if !counted {
        out.push(required(p, "must specify a volume type"));
    }
    out
}

/// The iSCSI check upstream reports at the volume's name: with an initiator name,
/// `<volume>:<portal>` must fit in 64 bytes.
fn iscsi_name(v: &Value, p: &str, name: &str, out: &mut Vec<StatusCause>) {
    let with_initiator = v.get("initiatorName").is_some_and(Value::is_string);
    if with_initiator && name.len() + 1 + text(v, "targetPortal").len() > 64 {
        out.push(invalid(
            &format!("{p}.name"),
            name,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
}

/// A present file mode outside 0..=0777.
pub(super) fn file_mode(v: &Value, key: &str, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(m) = v.get(key).and_then(Value::as_i64) {
        if !(0..=0o777).contains(&m) {
            out.push(invalid_int(&format!("{at}.{key}"), m, FILE_MODE_MSG));
        }
    }
}

/// validateLocalDescendingPath: relative, without `..`.
pub(super) fn descending(path: &str, at: &str, out: &mut Vec<StatusCause>) {
    if path.starts_with('/') {
        out.push(invalid(at, path, "must be a relative path"));
    }
    backsteps(path, at, out);
}

/// ValidateLocalNonReservedPath: descending, and not starting with `..` unless `../`.
pub(super) fn non_reserved(path: &str, at: &str, out: &mut Vec<StatusCause>) {
    descending(path, at, out);
    if path.starts_with("..") && !path.starts_with("../") {
        out.push(invalid(at, path, "must not start with '..'"));
    }
}

/// validateKeyToPath: one item of a secret or configMap source, at `ip`.
pub(super) fn key_to_path(item: &Value, ip: &str, out: &mut Vec<StatusCause>) {
    need(item, "key", ip, out);
    need(item, "path", ip, out);
    non_reserved(text(item, "path"), &format!("{ip}.path"), out);
    file_mode(item, "mode", ip, out);
}

fn items(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    for (j, item) in arr(v, "items").iter().enumerate() {
        key_to_path(item, &format!("{at}.items[{j}]"), out);
    }
}

/// One source's own rules, at `at`.
fn rules(key: &str, v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if super::pv_sources::shared(key, v, at, out) {
        return;
    }
    match key {
        "emptyDir" => {
            let negative = match v.get("sizeLimit") {
                Some(Value::String(q)) => super::parse_quantity(q).is_some_and(|n| n < 0.0),
                Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n < 0.0),
                _ => false,
            };
            if negative {
                out.push(forbidden(
                    &format!("{at}.sizeLimit"),
                    "SizeLimit field must be a valid resource quantity",
                ));
            }
        }
        "gitRepo" => {
            need(v, "repository", at, out);
            descending(text(v, "directory"), &format!("{at}.directory"), out);
        }
        "secret" => {
            need(v, "secretName", at, out);
            file_mode(v, "defaultMode", at, out);
            items(v, at, out);
        }
        "configMap" => {
            need(v, "name", at, out);
            file_mode(v, "defaultMode", at, out);
            items(v, at, out);
        }
        "persistentVolumeClaim" => need(v, "claimName", at, out),
        "iscsi" => super::pv_sources::pod_iscsi(v, at, out),
        "cinder" => {
            need(v, "volumeID", at, out);
            secret_name(v, at, out);
        }
        "storageos" => {
            super::pv_sources::storageos_names(v, at, out);
            secret_name(v, at, out);
        }
        "downwardAPI" => downward_api(v, at, out),
        "csi" => {
            out.extend(super::csi::driver_name(
                text(v, "driver"),
                &format!("{at}.driver"),
            ));
            if let Some(r) = v.get("nodePublishSecretRef").filter(|r| !r.is_null()) {
                let name = text(r, "name");
                if name.is_empty() {
                    out.push(required(&format!("{at}.nodePublishSecretRef.name"), ""));
                } else {
                    // Upstream reports the name's format at the source's `name`.
                    let msgs = dns_subdomain_msgs(name);
                    out.extend(each_invalid(&format!("{at}.name"), name, msgs));
                }
            }
        }
        _ => {}
    }
}

/// A local secret reference, when given, names a secret.
fn secret_name(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(r) = v.get("secretRef").filter(|r| !r.is_null()) {
        need(r, "name", &format!("{at}.secretRef"), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    fn check(volumes: Value) -> Vec<String> {
        let mut out = Vec::new();
        volumes_of(&json!({ "volumes": volumes }), &mut out);
        messages(&out)
    }

    fn volumes_of(spec: &Value, out: &mut Vec<StatusCause>) -> Volumes {
        volumes(spec, "spec", None, out)
    }

    #[test]
    fn sources_follow_upstreams_order_and_paths() {
        assert_eq!(
            check(
                json!([{"name": "a", "hostPath": {"path": "/x"}, "emptyDir": {}},
                {"name": "b", "emptyDir": {}, "cephfs": {"monitors": ["m"]}},
                {"name": "c", "secret": {"secretName": "s"}, "downwardAPI": {}}])
            ),
            [
                "spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type",
                "spec.volumes[1].cephFS: Forbidden: may not specify more than 1 volume type",
                "spec.volumes[2].downwarAPI: Forbidden: may not specify more than 1 volume type",
            ]
        );
    }

    #[test]
    fn each_source_has_its_rules() {
        assert_eq!(
            check(json!([
                {"name": "e", "emptyDir": {"sizeLimit": "-1Gi"}},
                {"name": "h", "hostPath": {"path": "a/../b", "type": "Dir"}},
                {"name": "g", "gitRepo": {"repository": "", "directory": "/abs"}},
                {"name": "s", "secret": {"secretName": "s", "defaultMode": 512,
                    "items": [{"key": "", "path": "..data", "mode": -1}]}},
                {"name": "c", "configMap": {"name": "c", "items": [{"key": "k", "path": ".."}]}},
            ])),
            [
                "spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity",
                "spec.volumes[1].hostPath.path: Invalid value: \"a/../b\": must not contain '..'",
                "spec.volumes[1].hostPath.type: Unsupported value: \"Dir\": supported values: \"\", \"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\"",
                "spec.volumes[2].gitRepo.repository: Required value",
                "spec.volumes[2].gitRepo.directory: Invalid value: \"/abs\": must be a relative path",
                "spec.volumes[3].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive",
                "spec.volumes[3].secret.items[0].key: Required value",
                "spec.volumes[3].secret.items[0].path: Invalid value: \"..data\": must not start with '..'",
                "spec.volumes[3].secret.items[0].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive",
                "spec.volumes[4].configMap.items[0].path: Invalid value: \"..\": must not contain '..'",
                "spec.volumes[4].configMap.items[0].path: Invalid value: \"..\": must not start with '..'",
            ]
        );
    }

    #[test]
    fn disk_and_network_sources_follow_upstream() {
        assert_eq!(
            check(json!([
                {"name": "g", "gcePersistentDisk": {"pdName": "", "partition": 300}},
                {"name": "i", "iscsi": {"targetPortal": "p".repeat(70), "iqn": "x.1",
                    "lun": 0, "chapAuthSession": true, "initiatorName": "iqn.bad"}},
                {"name": "q", "quobyte": {"registry": "h:,:1,[::1]:7,a:b:c,", "volume": "v"}},
                {"name": "f", "fc": {"targetWWNs": ["a"]}},
                {"name": "x", "flexVolume": {"driver": "d",
                    "options": {"xkubernetes.io": "", "A.K8s.io/b": ""}}},
                {"name": "c", "cinder": {"volumeID": "v", "secretRef": {}}},
                {"name": "s", "storageos": {"volumeName": "V", "secretRef": {"name": ""}}},
                {"name": "d", "csi": {"driver": "", "nodePublishSecretRef": {"name": "A_b"}}},
            ])),
            [
                "spec.volumes[0].persistentDisk.pdName: Required value",
                "spec.volumes[0].persistentDisk.partition: Invalid value: 300: must be between 1 and 255, inclusive",
                "spec.volumes[1].name: Invalid value: \"i\": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
                "spec.volumes[1].iscsi.iqn: Invalid value: \"x.1\": must be valid format starting with iqn, eui, or naa",
                "spec.volumes[1].iscsi.secretRef: Required value",
                "spec.volumes[1].iscsi.initiatorname: Invalid value: \"iqn.bad\": must be valid format",
                "spec.volumes[2].quobyte.registry: Invalid value: \"h:,:1,[::1]:7,a:b:c,\": must be a host:port pair or multiple pairs separated by commas",
                "spec.volumes[2].quobyte.registry: Invalid value: \"h:,:1,[::1]:7,a:b:c,\": must be a host:port pair or multiple pairs separated by commas",
                "spec.volumes[3].fc.lun: Required value: lun is required if targetWWNs is specified",
                "spec.volumes[4].flexVolume.options[A.K8s.io/b]: Invalid value: \"A.K8s.io/b\": kubernetes.io and k8s.io namespaces are reserved",
                "spec.volumes[5].cinder.secretRef.name: Required value",
                "spec.volumes[6].storageos.volumeName: Invalid value: \"V\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.volumes[6].storageos.secretRef.name: Required value",
                "spec.volumes[7].csi.driver: Required value",
                "spec.volumes[7].csi.driver: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.volumes[7].csi.name: Invalid value: \"A_b\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            ]
        );
    }

    #[test]
    fn only_volumes_without_causes_are_registered() {
        let mut out = Vec::new();
        let names = volumes_of(
            &json!({"volumes": [{"name": "bad", "secret": {}}, {"name": "bad", "emptyDir": {}},
                {"name": "ok", "emptyDir": {}}, {"name": "ok", "emptyDir": {}}]}),
            &mut out,
        );
        assert_eq!(
            messages(&out),
            [
                "spec.volumes[0].secret.secretName: Required value",
                "spec.volumes[3].name: Duplicate value: \"ok\"",
            ]
        );
        let mut names: Vec<_> = names.into_keys().collect();
        names.sort();
        assert_eq!(names, ["bad", "ok"]);
    }
}
