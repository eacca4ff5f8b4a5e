//! What the pod strategy, and every workload strategy for its pod template, drops before
//! validation because a feature gate is off in kube-apiserver 1.33 (`dropDisabledFields`
//! in pkg/api/pod): `image` volumes with their mounts (ImageVolume), and
//! `clusterTrustBundle` sources of projected volumes (ClusterTrustBundleProjection) —
//! unless the stored object already uses them. Nothing is reported: upstream drops them
//! silently.

use serde_json::Value;

/// Whether a pod spec has an image volume.
fn has_image_volume(spec: Option<&Value>) -> bool {
    volumes(spec).any(|v| v.get("image").is_some_and(|i| !i.is_null()))
}

/// Whether a pod spec projects a cluster trust bundle.
fn has_trust_bundle(spec: Option<&Value>) -> bool {
    volumes(spec).any(|v| {
        v.pointer("/projected/sources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|s| s.get("clusterTrustBundle").is_some_and(|c| !c.is_null()))
    })
}

fn volumes(spec: Option<&Value>) -> impl Iterator<Item = &Value> {
    spec.and_then(|s| s.get("volumes"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Drops from the pod spec `spec` what the gates that are off forbid and `old` (the
/// stored spec) does not already use.
fn drop_disabled(spec: &mut Value, old: Option<&Value>) {
    if !has_image_volume(old) {
        drop_image_volumes(spec);
    }
    if !has_trust_bundle(old) {
        for vol in spec
            .get_mut("volumes")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let sources = vol
                .pointer_mut("/projected/sources")
                .and_then(Value::as_array_mut);
            for src in sources.into_iter().flatten() {
                if let Some(src) = src.as_object_mut() {
                    src.remove("clusterTrustBundle");
                }
            }
        }
    }
}

/// Removes image volumes and every container mount of them.
fn drop_image_volumes(spec: &mut Value) {
    let Some(vols) = spec.get_mut("volumes").and_then(Value::as_array_mut) else {
        return;
    };
    let mut gone = Vec::new();
    vols.retain(|v| {
        let image = v.get("image").is_some_and(|i| !i.is_null());
        if image {
            gone.push(
                v.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
            );
        }
        !image
    });
    if gone.is_empty() {
        return;
    }
    for kind in ["containers", "initContainers", "ephemeralContainers"] {
        let containers = spec.get_mut(kind).and_then(Value::as_array_mut);
        for c in containers.into_iter().flatten() {
            if let Some(mounts) = c.get_mut("volumeMounts").and_then(Value::as_array_mut) {
                mounts.retain(|m| {
                    let name = m.get("name").and_then(Value::as_str).unwrap_or("");
                    !gone.iter().any(|g| g == name)
                });
            }
        }
    }
}

/// The pod spec at `pointer` of `o` and of `old`, gated fields dropped.
fn prepare_at(o: &mut Value, old: Option<&Value>, pointer: &str) {
    let old_spec = old.and_then(|old| old.pointer(pointer));
    if let Some(spec) = o.pointer_mut(pointer).filter(|s| s.is_object()) {
        drop_disabled(spec, old_spec);
    }
}

/// Pods: the spec, on create and on a spec update.
pub(crate) fn pod_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if sub.is_empty() {
        prepare_at(o, old, "/spec");
    }
}

/// Workloads with a pod template at `spec.template` (Deployments, ReplicaSets,
/// StatefulSets, DaemonSets, ReplicationControllers, Jobs).
pub(crate) fn template_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if sub.is_empty() {
        prepare_at(o, old, "/spec/template/spec");
    }
}

/// PodTemplates.
pub(crate) fn pod_template_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if sub.is_empty() {
        prepare_at(o, old, "/template/spec");
    }
}

/// CronJobs: the template of the jobs they create.
pub(crate) fn cronjob_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if sub.is_empty() {
        prepare_at(o, old, "/spec/jobTemplate/spec/template/spec");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec() -> Value {
        json!({"spec": {
            "volumes": [
                {"name": "img", "image": {"reference": "r"}},
                {"name": "p", "projected": {"sources": [
                    {"clusterTrustBundle": {"signerName": "a/b", "path": "x"}},
                    {"configMap": {"name": "c"}}]}},
            ],
            "containers": [{"name": "c", "volumeMounts": [
                {"name": "img", "mountPath": "/i"}, {"name": "p", "mountPath": "/p"}]}],
        }})
    }

    #[test]
    fn gated_volumes_are_dropped_unless_stored() {
        let mut o = spec();
        pod_prepare(&mut o, None, "");
        assert_eq!(
            o["spec"],
            json!({
                "volumes": [{"name": "p", "projected": {"sources": [{}, {"configMap": {"name": "c"}}]}}],
                "containers": [{"name": "c", "volumeMounts": [{"name": "p", "mountPath": "/p"}]}],
            })
        );
        let old = spec();
        let mut o = spec();
        pod_prepare(&mut o, Some(&old), "");
        assert_eq!(o, spec());
        let mut o = json!({"spec": {"template": spec()}});
        template_prepare(&mut o, None, "");
        assert_eq!(
            o["spec"]["template"]["spec"]["volumes"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    }
}
