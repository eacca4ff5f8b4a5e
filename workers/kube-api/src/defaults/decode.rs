//! The defaults upstream's decoding applies to stored values that its strategies had
//! cleared or that protobuf cannot hold, so every read shows them though kube-apiserver
//! never stores them: a claim's `Pending` phase, a Job's labels taken from its template
//! (generated after defaulting), a StatefulSet's claim templates' apiVersion and kind.
//! Values this server wrote as JSON hold them; protobuf values lack them. Registered with
//! the storage codec at start ([`kas_server::storage::set_decode_defaults`]).

use serde_json::{json, Value};

use super::entry;
use super::workloads::copy_labels;

/// Applies the decode-time defaults of `kind` in `api_version` to `obj`.
pub(crate) fn on_decode(api_version: &str, kind: &str, obj: &mut Value) {
    match (api_version, kind) {
        ("v1", "PersistentVolumeClaim") => {
            if let Some(status) = entry(obj, "status", json!({})).filter(|s| s.is_object()) {
                if status["phase"].as_str().unwrap_or("").is_empty() {
                    status["phase"] = json!("Pending");
                }
            }
        }
        ("batch/v1", "Job") => {
            let labels = obj.pointer("/spec/template/metadata/labels").cloned();
            copy_labels(obj, labels);
        }
        // Protobuf keeps no apiVersion and kind of an embedded object.
        ("apps/v1", "StatefulSet") => {
            let templates = obj
                .pointer_mut("/spec/volumeClaimTemplates")
                .and_then(Value::as_array_mut);
            for t in templates.into_iter().flatten().filter(|t| t.is_object()) {
                for (field, value) in [("apiVersion", "v1"), ("kind", "PersistentVolumeClaim")] {
                    if t[field].as_str().unwrap_or("").is_empty() {
                        t[field] = json!(value);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_show_what_upstream_defaults_on_decode() {
        let mut pvc = json!({"spec": {}});
        on_decode("v1", "PersistentVolumeClaim", &mut pvc);
        assert_eq!(pvc["status"]["phase"], "Pending");
        let mut bound = json!({"status": {"phase": "Bound"}});
        on_decode("v1", "PersistentVolumeClaim", &mut bound);
        assert_eq!(bound["status"]["phase"], "Bound");

        let mut job = json!({"metadata": {"name": "j"},
            "spec": {"template": {"metadata": {"labels": {"a": "b"}}}}});
        on_decode("batch/v1", "Job", &mut job);
        assert_eq!(job["metadata"]["labels"], json!({"a": "b"}));
        let mut own = json!({"metadata": {"labels": {"own": "x"}},
            "spec": {"template": {"metadata": {"labels": {"a": "b"}}}}});
        on_decode("batch/v1", "Job", &mut own);
        assert_eq!(own["metadata"]["labels"], json!({"own": "x"}));

        let mut sts = json!({"spec": {"volumeClaimTemplates": [{"metadata": {"name": "d"}}]}});
        on_decode("apps/v1", "StatefulSet", &mut sts);
        assert_eq!(
            sts["spec"]["volumeClaimTemplates"][0]["kind"],
            "PersistentVolumeClaim"
        );
        assert_eq!(sts["spec"]["volumeClaimTemplates"][0]["apiVersion"], "v1");

        let mut other = json!({"spec": {}});
        on_decode("v1", "ConfigMap", &mut other);
        assert_eq!(other, json!({"spec": {}}));
    }
}
