//! What the pod strategy, and every workload strategy for its pod template, changes
//! before validation (kube-apiserver 1.33):
//!
//! * drops what a feature gate that is off forbids (`dropDisabledFields` in
//!   pkg/api/pod), unless the stored object already uses it, silently: `image` volumes
//!   with their mounts (ImageVolume), `clusterTrustBundle` projections
//!   (ClusterTrustBundleProjection), resource claims of the pod and its containers
//!   (DynamicResourceAllocation), pod-level `resources` (PodLevelResources) and
//!   lifecycle `stopSignal`s (ContainerStopSignals);
//! * on a pod's create, merges each pod (anti-)affinity term's `matchLabelKeys` and
//!   `mismatchLabelKeys` into its label selector with the pod's label values
//!   (`mutatePodAffinity`);
//! * on a pod's create, its status: Pending, the QoS class of the spec as admission left
//!   it, and with scheduling gates a `PodScheduled` condition saying so
//!   (`applySchedulingGatedCondition`); a status update without a QoS class keeps the
//!   stored one.

use serde_json::{json, Value};

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
    drop_unused(spec, old, "/resources", "resources");
    drop_unused(spec, old, "/resourceClaims", "resourceClaims");
    let kinds = ["containers", "initContainers", "ephemeralContainers"];
    let uses = |pointer: &str| {
        kinds.iter().any(|k| {
            old.and_then(|o| o.get(*k))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|c| c.pointer(pointer).is_some_and(|v| !v.is_null()))
        })
    };
    let (claims_used, signals_used) = (uses("/resources/claims"), uses("/lifecycle/stopSignal"));
    for kind in kinds {
        let containers = spec.get_mut(kind).and_then(Value::as_array_mut);
        for c in containers.into_iter().flatten() {
            if !claims_used {
                if let Some(res) = c.get_mut("resources").and_then(Value::as_object_mut) {
                    res.remove("claims");
                }
            }
            if !signals_used {
                stop_signal_dropped(c);
            }
        }
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

/// Drops `spec`'s `key` unless the stored spec (at `pointer`) has one.
fn drop_unused(spec: &mut Value, old: Option<&Value>, pointer: &str, key: &str) {
    let used = old
        .and_then(|o| o.pointer(pointer))
        .is_some_and(|v| !v.is_null());
    if !used {
        if let Some(s) = spec.as_object_mut() {
            s.remove(key);
        }
    }
}

/// A container's lifecycle without its stop signal (no lifecycle left when that was all).
fn stop_signal_dropped(c: &mut Value) {
    let Some(lc) = c.get_mut("lifecycle").and_then(Value::as_object_mut) else {
        return;
    };
    if lc.remove("stopSignal").is_none() {
        return;
    }
    let hooks = ["postStart", "preStop"];
    if hooks.iter().all(|h| lc.get(*h).is_none_or(Value::is_null)) {
        if let Some(c) = c.as_object_mut() {
            c.remove("lifecycle");
        }
    }
}

/// mutatePodAffinity: a term's label keys become selector expressions with the pod's
/// label values (`In` for matchLabelKeys, `NotIn` for mismatchLabelKeys).
fn merge_label_keys(o: &mut Value) {
    let labels = o
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let Some(affinity) = o.pointer_mut("/spec/affinity") else {
        return;
    };
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(a) = affinity.get_mut(kind).and_then(Value::as_object_mut) else {
            continue;
        };
        // Preferred terms first, then required ones (the map's key order).
        let mut terms: Vec<&mut Value> = Vec::new();
        for (key, list) in a.iter_mut() {
            let list = list.as_array_mut().into_iter().flatten();
            match key.as_str() {
                "preferredDuringSchedulingIgnoredDuringExecution" => {
                    terms.extend(list.filter_map(|w| w.get_mut("podAffinityTerm")));
                }
                "requiredDuringSchedulingIgnoredDuringExecution" => terms.extend(list),
                _ => {}
            }
        }
        for term in terms {
            let keys = |k: &str| -> Vec<String> {
                term.get(k)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            };
            let (matching, mismatching) = (keys("matchLabelKeys"), keys("mismatchLabelKeys"));
            let Some(sel) = term.get_mut("labelSelector").and_then(Value::as_object_mut) else {
                continue;
            };
            let mut added = Vec::new();
            for (list, op) in [(&matching, "In"), (&mismatching, "NotIn")] {
                for key in list {
                    if let Some(v) = labels.get(key) {
                        added.push(serde_json::json!({"key": key, "operator": op, "values": [v]}));
                    }
                }
            }
            if added.is_empty() {
                continue;
            }
            let exprs = sel
                .entry("matchExpressions")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Some(exprs) = exprs.as_array_mut() {
                exprs.extend(added);
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
        if old.is_none() {
            initial_status(o);
        }
        prepare_at(o, old, "/spec");
        if old.is_none() {
            merge_label_keys(o);
        }
    }
    if let (Some(old), "status") = (old, sub) {
        let qos = o.pointer("/status/qosClass").and_then(Value::as_str);
        if qos.is_none_or(str::is_empty) {
            if let (Some(stored), Some(status)) = (
                old.pointer("/status/qosClass").cloned(),
                o.get_mut("status").and_then(Value::as_object_mut),
            ) {
                status.insert("qosClass".into(), stored);
            }
        }
    }
}

/// A created pod's status (upstream's PrepareForCreate replaces whatever was sent).
fn initial_status(o: &mut Value) {
    let Some(obj) = o.as_object_mut() else {
        return;
    };
    let spec = obj.get("spec").cloned().unwrap_or(Value::Null);
    let mut status = json!({
        "phase": "Pending",
        "qosClass": crate::defaults::qos_class(&spec),
    });
    let gated = spec
        .get("schedulingGates")
        .and_then(Value::as_array)
        .is_some_and(|g| !g.is_empty());
    if gated {
        status["conditions"] = json!([{
            "type": "PodScheduled",
            "status": "False",
            "lastProbeTime": null,
            "lastTransitionTime": null,
            "reason": "SchedulingGated",
            "message": "Scheduling is blocked due to non-empty scheduling gates",
        }]);
    }
    obj.insert("status".into(), status);
}

/// Workloads with a pod template at `spec.template` (Deployments, ReplicaSets,
/// StatefulSets, DaemonSets, ReplicationControllers, Jobs).
pub(crate) fn template_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if sub.is_empty() {
        prepare_at(o, old, "/spec/template/spec");
    }
}

/// The annotation apps/v1 carries a DaemonSet's template generation in.
const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

fn template_generation(o: &Value) -> Option<i64> {
    o.pointer("/metadata/annotations")
        .and_then(|a| a.get(TEMPLATE_GENERATION))
        .and_then(Value::as_str)
        .and_then(|v| v.parse().ok())
}

/// DaemonSets: as other workloads, plus their template generation (1 on create, +1
/// when an update changes the template, never the client's on update), which apps/v1
/// shows as the `deprecated.daemonset.template.generation` annotation.
pub(crate) fn daemonset_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    template_prepare(o, old, sub);
    let generation = match old {
        None => template_generation(o).unwrap_or(0).max(1),
        Some(old) => {
            let stored = template_generation(old).unwrap_or(0);
            let changed = o.pointer("/spec/template") != old.pointer("/spec/template");
            if sub.is_empty() && changed {
                stored + 1
            } else {
                stored
            }
        }
    };
    let Some(meta) = o
        .as_object_mut()
        .map(|m| {
            m.entry("metadata")
                .or_insert_with(|| Value::Object(Default::default()))
        })
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let annotations = meta
        .entry("annotations")
        .or_insert_with(|| Value::Object(Default::default()));
    if let Some(a) = annotations.as_object_mut() {
        a.insert(
            TEMPLATE_GENERATION.into(),
            Value::String(generation.to_string()),
        );
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

/// Upstream's pod CheckGracefulDelete: the client's grace period, else the pod's
/// `terminationGracePeriodSeconds` (else 0); 0 for a pod no node runs or that has
/// finished; a negative one is 1.
pub(crate) fn pod_grace_period(pod: &Value, requested: Option<i64>) -> i64 {
    let mut period = requested
        .or_else(|| {
            pod.pointer("/spec/terminationGracePeriodSeconds")
                .and_then(Value::as_i64)
        })
        .unwrap_or(0);
    let node = pod
        .pointer("/spec/nodeName")
        .and_then(Value::as_str)
        .unwrap_or("");
    let phase = pod
        .pointer("/status/phase")
        .and_then(Value::as_str)
        .unwrap_or("");
    if node.is_empty() || matches!(phase, "Failed" | "Succeeded") {
        period = 0;
    }
    if period < 0 {
        period = 1;
    }
    period
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_pods_get_their_status_and_status_updates_keep_the_qos_class() {
        let mut o = json!({"spec": {"schedulingGates": [{"name": "g"}],
            "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]},
            "status": {"phase": "Running"}});
        pod_prepare(&mut o, None, "");
        assert_eq!(o["status"]["phase"], "Pending");
        assert_eq!(o["status"]["qosClass"], "Burstable");
        assert_eq!(o["status"]["conditions"][0]["reason"], "SchedulingGated");
        let old = o.clone();
        let mut update = json!({"spec": old["spec"].clone(), "status": {"phase": "Running"}});
        pod_prepare(&mut update, Some(&old), "status");
        assert_eq!(
            update["status"],
            json!({"phase": "Running", "qosClass": "Burstable"})
        );
    }

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
        assert_eq!(o["status"]["phase"], "Pending");
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
        let mut o = json!({"spec": {"resources": {}, "resourceClaims": [],
            "containers": [{"name": "c", "resources": {"claims": [], "limits": {}},
                "lifecycle": {"stopSignal": "SIGTERM"}}]}});
        pod_prepare(&mut o, None, "");
        assert_eq!(
            o["spec"],
            json!({"containers": [{"name": "c", "resources": {"limits": {}}}]})
        );
        let mut o = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"affinity": {"podAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {},
                "matchLabelKeys": ["app", "gone"], "mismatchLabelKeys": ["app"]}]}}}});
        pod_prepare(&mut o, None, "");
        assert_eq!(
            o.pointer("/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/labelSelector"),
            Some(&json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]},
                {"key": "app", "operator": "NotIn", "values": ["web"]}]}))
        );
        let mut ds = json!({"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}});
        daemonset_prepare(&mut ds, None, "");
        assert_eq!(ds["metadata"]["annotations"][TEMPLATE_GENERATION], "1");
        let mut same = ds.clone();
        same["metadata"]["annotations"][TEMPLATE_GENERATION] = json!("7");
        daemonset_prepare(&mut same, Some(&ds), "");
        assert_eq!(
            same["metadata"]["annotations"][TEMPLATE_GENERATION], "1",
            "not the client's"
        );
        let mut changed = ds.clone();
        changed["spec"]["template"]["spec"]["containers"][0]["name"] = json!("d");
        daemonset_prepare(&mut changed, Some(&ds), "");
        assert_eq!(changed["metadata"]["annotations"][TEMPLATE_GENERATION], "2");
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
