//! A pod spec's volumes as kube-apiserver 1.33 validates them (`ValidateVolumes` and
//! `validateVolumeSource`; facts in /work/notes/validation-spec-5.md): per volume its
//! source's causes, then its name's, then a duplicate name; only a volume without any
//! is registered, so mounts of a faulty volume also get `Not found`.
//!
//! Sources are looked at in upstream's fixed order: the first one present is validated,
//! each later one is `Forbidden` (at upstream's paths, typos included: `cephFS`,
//! `downwarAPI`); `emptyDir` always counts first. Per-source rules here: emptyDir,
//! hostPath, gitRepo, secret, nfs (server), persistentVolumeClaim, configMap (with their
//! items and modes), vsphereVolume, photonPersistentDisk, portworxVolume. Not yet: the
//! other sources' own rules (projected, downwardAPI, ephemeral, csi, …).

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, duplicate, each_invalid, forbidden, invalid, invalid_int, required, s,
};
use super::pv_sources::{backsteps, host_path, need};

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

/// The volumes of `spec` at `path`; returns the names of those without causes.
pub(super) fn volumes(spec: &Value, path: &str, out: &mut Vec<StatusCause>) -> HashSet<String> {
    let mut names = HashSet::new();
    for (i, vol) in arr(spec, "volumes").iter().enumerate() {
        let p = format!("{path}.volumes[{i}]");
        let mut el = source(vol, &p);
        let name = s(vol, "name").unwrap_or("");
        if name.is_empty() {
            el.push(required(&format!("{p}.name"), ""));
        } else {
            el.extend(each_invalid(
                &format!("{p}.name"),
                name,
                dns_label_msgs(name),
            ));
        }
        if !name.is_empty() && names.contains(name) {
            el.push(duplicate(&format!("{p}.name"), name));
        }
        if el.is_empty() {
            names.insert(name.to_owned());
        }
        out.extend(el);
    }
    names
}

/// The source frame: the first source present is validated, later ones forbidden.
fn source(vol: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let mut counted = false;
    for (key, forbidden_at) in SOURCES {
        let Some(v) = vol.get(*key).filter(|v| !v.is_null()) else {
            continue;
        };
        if counted {
            out.push(forbidden(
                &format!("{p}.{forbidden_at}"),
                "may not specify more than 1 volume type",
            ));
            continue;
        }
        counted = true;
        rules(key, v, &format!("{p}.{key}"), &mut out);
    }
    if !counted {
        out.push(required(p, "must specify a volume type"));
    }
    out
}

/// A present file mode outside 0..=0777.
fn mode(v: &Value, key: &str, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(m) = v.get(key).and_then(Value::as_i64) {
        if !(0..=0o777).contains(&m) {
            out.push(invalid_int(&format!("{at}.{key}"), m, FILE_MODE_MSG));
        }
    }
}

/// validateLocalDescendingPath: relative, without `..`.
fn descending(path: &str, at: &str, out: &mut Vec<StatusCause>) {
    if path.starts_with('/') {
        out.push(invalid(at, path, "must be a relative path"));
    }
    backsteps(path, at, out);
}

/// ValidateLocalNonReservedPath: descending, and not starting with `..` unless `../`.
fn non_reserved(path: &str, at: &str, out: &mut Vec<StatusCause>) {
    descending(path, at, out);
    if path.starts_with("..") && !path.starts_with("../") {
        out.push(invalid(at, path, "must not start with '..'"));
    }
}

/// validateKeyToPath for each of `v`'s items.
fn items(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    for (j, item) in arr(v, "items").iter().enumerate() {
        let ip = format!("{at}.items[{j}]");
        need(item, "key", &ip, out);
        need(item, "path", &ip, out);
        non_reserved(s(item, "path").unwrap_or(""), &format!("{ip}.path"), out);
        mode(item, "mode", &ip, out);
    }
}

/// One source's own rules, at `at`.
fn rules(key: &str, v: &Value, at: &str, out: &mut Vec<StatusCause>) {
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
        "hostPath" => host_path(v, at, out),
        "gitRepo" => {
            need(v, "repository", at, out);
            descending(
                s(v, "directory").unwrap_or(""),
                &format!("{at}.directory"),
                out,
            );
        }
        "secret" => {
            need(v, "secretName", at, out);
            mode(v, "defaultMode", at, out);
            items(v, at, out);
        }
        "configMap" => {
            need(v, "name", at, out);
            mode(v, "defaultMode", at, out);
            items(v, at, out);
        }
        "nfs" => {
            need(v, "server", at, out);
        }
        "persistentVolumeClaim" => {
            need(v, "claimName", at, out);
        }
        "vsphereVolume" => {
            need(v, "volumePath", at, out);
        }
        "photonPersistentDisk" => {
            need(v, "pdID", at, out);
        }
        "portworxVolume" => {
            need(v, "volumeID", at, out);
        }
        _ => {}
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

    fn volumes_of(spec: &Value, out: &mut Vec<StatusCause>) -> HashSet<String> {
        volumes(spec, "spec", out)
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
        let mut names: Vec<_> = names.into_iter().collect();
        names.sort();
        assert_eq!(names, ["bad", "ok"]);
    }
}
