//! What an update may change in a pod (`ValidatePodUpdate`, kube-apiserver 1.33):
//! container images (never the number of containers), a shorter activeDeadlineSeconds,
//! added tolerations (whose tolerationSeconds may change), removed scheduling gates,
//! terminationGracePeriodSeconds from negative to 1, and — while the pod is still gated —
//! added node selector labels and narrower required node affinity terms. Anything else
//! in the spec is refused with upstream's message (without its Go diff of the specs).
//! AppArmor and mirror-pod annotations cannot be added, changed or removed.

use std::collections::BTreeMap;

use kas_server::status::StatusCause;
use serde_json::{json, Value};

use super::causes::{
    arr, forbidden, go_string_map, invalid, invalid_int, invalid_shown, required, s,
};

/// Upstream's message for a pod update that touches more than it may.
pub(crate) const POD_UPDATE_MSG: &str = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// ValidateContainerUpdates: the same number of containers, each with an image.
fn containers(new: &Value, old: &Value, key: &str, out: &mut Vec<StatusCause>) -> bool {
    let (n, o) = (arr(new, key), arr(old, key));
    let at = format!("spec.{key}");
    if n.len() != o.len() {
        out.push(forbidden(
            &at,
            "pod updates may not add or remove containers",
        ));
        return false;
    }
    for (i, c) in n.iter().enumerate() {
        let image = s(c, "image").unwrap_or("");
        if image.is_empty() {
            out.push(required(&format!("{at}[{i}].image"), ""));
        }
        if image.trim() != image {
            out.push(invalid(
                &format!("{at}[{i}].image"),
                image,
                "must not have leading or trailing whitespace",
            ));
        }
    }
    true
}

/// A toleration without its tolerationSeconds (which an update may change).
fn without_seconds(t: &Value) -> Value {
    let mut t = t.clone();
    if let Some(m) = t.as_object_mut() {
        m.remove("tolerationSeconds");
    }
    t
}

/// validateOnlyAddedTolerations: every old toleration is still there.
fn tolerations(new: &Value, old: &Value, out: &mut Vec<StatusCause>) {
    let kept: Vec<Value> = arr(new, "tolerations")
        .iter()
        .map(without_seconds)
        .collect();
    let all_kept = arr(old, "tolerations")
        .iter()
        .all(|t| kept.contains(&without_seconds(t)));
    if !all_kept {
        out.push(forbidden(
            "spec.tolerations",
            "existing toleration can not be modified except its tolerationSeconds",
        ));
        return;
    }
    super::pod_scheduling::tolerations(arr(new, "tolerations"), "spec.tolerations", out);
}

/// validateOnlyDeletedSchedulingGates: no gate that was not there before.
fn scheduling_gates(new: &Value, old: &Value, out: &mut Vec<StatusCause>) {
    let old_names: Vec<&str> = arr(old, "schedulingGates")
        .iter()
        .map(|g| s(g, "name").unwrap_or(""))
        .collect();
    // The last index of each new gate, in name order (upstream walks a Go map).
    let mut added: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, g) in arr(new, "schedulingGates").iter().enumerate() {
        added.insert(s(g, "name").unwrap_or(""), i);
    }
    for (name, i) in added {
        if !old_names.contains(&name) {
            out.push(forbidden(
                &format!("spec.schedulingGates[{i}].name"),
                &format!("only deletion is allowed, but found new scheduling gate '{name}'"),
            ));
        }
    }
}

/// A gated pod's node selector may only gain labels.
fn node_selector(munged: &mut Value, old: &Value, out: &mut Vec<StatusCause>) {
    let (n, o) = (munged.get("nodeSelector").cloned(), old.get("nodeSelector"));
    if n.as_ref() == o {
        return;
    }
    let new_map = n.as_ref().and_then(Value::as_object);
    let kept = o
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .all(|(k, v)| new_map.and_then(|m| m.get(k)) == Some(v));
    if !kept {
        out.push(invalid_shown(
            "spec.nodeSelector",
            &go_string_map(new_map),
            "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
        ));
    }
    set(munged, "nodeSelector", o);
}

fn set(v: &mut Value, key: &str, to: Option<&Value>) {
    if let Some(m) = v.as_object_mut() {
        match to {
            Some(x) => m.insert(key.to_owned(), x.clone()),
            None => m.remove(key),
        };
    }
}

/// Whether a required node selector term only gained requirements.
fn term_only_added(new: &Value, old: &Value) -> bool {
    let (oe, of) = (arr(old, "matchExpressions"), arr(old, "matchFields"));
    let (ne, nf) = (arr(new, "matchExpressions"), arr(new, "matchFields"));
    if oe.is_empty() && of.is_empty() && (!ne.is_empty() || !nf.is_empty()) {
        return false;
    }
    let prefix =
        |n: &[Value], o: &[Value]| o.is_empty() || (n.len() >= o.len() && n[..o.len()] == *o);
    prefix(ne, oe) && prefix(nf, of)
}

/// A gated pod's required node affinity may only narrow.
fn node_affinity(munged: &mut Value, old: &Value, out: &mut Vec<StatusCause>) {
    let o = old
        .pointer("/affinity/nodeAffinity")
        .filter(|v| !v.is_null());
    let n = munged
        .pointer("/affinity/nodeAffinity")
        .filter(|v| !v.is_null())
        .cloned();
    if n.as_ref() == o {
        return;
    }
    const REQ: &str = "requiredDuringSchedulingIgnoredDuringExecution";
    let at = format!("spec.affinity.nodeAffinity.{REQ}.nodeSelectorTerms");
    if let Some(old_req) = o.and_then(|o| o.get(REQ)).filter(|r| !r.is_null()) {
        let old_terms = arr(old_req, "nodeSelectorTerms");
        let empty = Value::Null;
        let new_req = n.as_ref().and_then(|n| n.get(REQ)).unwrap_or(&empty);
        let new_terms = arr(new_req, "nodeSelectorTerms");
        if !old_terms.is_empty() && old_terms.len() != new_terms.len() {
            out.push(invalid_shown(
                &at,
                &super::causes::go_list("core.NodeSelectorTerm", new_terms),
                "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
            ));
        } else {
            for (i, (nt, ot)) in new_terms.iter().zip(old_terms).enumerate() {
                if !term_only_added(nt, ot) {
                    out.push(invalid_shown(
                        &format!("{at}[{i}]"),
                        &nt.to_string(),
                        "only additions are allowed (no mutations or deletions)",
                    ));
                }
            }
        }
    }
    let old_affinity = old.get("affinity").filter(|a| !a.is_null());
    match munged.get_mut("affinity").filter(|a| !a.is_null()) {
        None => {
            if let Some(o) = o {
                set(munged, "affinity", Some(&json!({ "nodeAffinity": o })));
            }
        }
        Some(a) => {
            let only_node = a.get("podAffinity").is_none_or(Value::is_null)
                && a.get("podAntiAffinity").is_none_or(Value::is_null);
            if old_affinity.is_none() && only_node {
                set(munged, "affinity", None);
            } else {
                set(a, "nodeAffinity", o);
            }
        }
    }
}

/// ValidatePodSpecificAnnotationUpdates: AppArmor and mirror-pod annotations can be
/// neither added, changed nor removed by an update.
pub(super) fn annotation_updates(new: &Value, old: &Value, out: &mut Vec<StatusCause>) {
    const APPARMOR: &str = "container.apparmor.security.beta.kubernetes.io/";
    const MIRROR: &str = "kubernetes.io/config.mirror";
    let empty = serde_json::Map::new();
    let new = new
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let old = old
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let guarded = |k: &str| k.starts_with(APPARMOR) || k == MIRROR;
    let what = |k: &str| {
        if k == MIRROR {
            "mirror pod annotation"
        } else {
            "AppArmor annotations"
        }
    };
    let at = |k: &str| format!("metadata.annotations[{k}]");
    for (k, v) in old.iter().filter(|(k, _)| guarded(k)) {
        if new.get(k) != Some(v) {
            out.push(forbidden(
                &at(k),
                &format!("may not remove or update {}", what(k)),
            ));
        }
    }
    for k in new.keys().filter(|k| guarded(k) && !old.contains_key(*k)) {
        out.push(forbidden(&at(k), &format!("may not add {}", what(k))));
    }
}

/// What an update may change in a pod's spec.
pub(super) fn pod_update(new: &Value, old: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    annotation_updates(new, old, &mut out);
    let null = Value::Null;
    let new_spec = new.get("spec").unwrap_or(&null);
    let old_spec = old.get("spec").unwrap_or(&null);
    for key in ["containers", "initContainers"] {
        if !containers(new_spec, old_spec, key, &mut out) {
            return out;
        }
    }
    let old_ads = old_spec
        .get("activeDeadlineSeconds")
        .and_then(Value::as_i64);
    match new_spec
        .get("activeDeadlineSeconds")
        .and_then(Value::as_i64)
    {
        Some(n) if !(0..=i64::from(i32::MAX)).contains(&n) => {
            out.push(invalid_int(
                "spec.activeDeadlineSeconds",
                n,
                &super::causes::range_msg(0, i64::from(i32::MAX)),
            ));
            return out;
        }
        Some(n) if old_ads.is_some_and(|o| o < n) => {
            out.push(invalid_int(
                "spec.activeDeadlineSeconds",
                n,
                "must be less than or equal to previous value",
            ));
            return out;
        }
        None if old_ads.is_some() => out.push(invalid_shown(
            "spec.activeDeadlineSeconds",
            "null",
            "must not update from a positive integer to nil value",
        )),
        _ => {}
    }
    tolerations(new_spec, old_spec, &mut out);
    scheduling_gates(new_spec, old_spec, &mut out);
    if new_spec == old_spec {
        return out;
    }
    let mut munged = new_spec.clone();
    for key in ["containers", "initContainers"] {
        let olds = arr(old_spec, key);
        let list = munged.get_mut(key).and_then(Value::as_array_mut);
        for (c, o) in list.into_iter().flatten().zip(olds) {
            set(c, "image", o.get("image"));
        }
    }
    for key in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
        set(&mut munged, key, old_spec.get(key));
    }
    let old_grace = old_spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    let new_grace = munged
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if old_grace.is_some_and(|g| g < 0) && new_grace == Some(1) {
        set(
            &mut munged,
            "terminationGracePeriodSeconds",
            old_spec.get("terminationGracePeriodSeconds"),
        );
    }
    if !arr(old_spec, "schedulingGates").is_empty() {
        node_selector(&mut munged, old_spec, &mut out);
        node_affinity(&mut munged, old_spec, &mut out);
    }
    if &munged != old_spec {
        out.push(forbidden("spec", POD_UPDATE_MSG));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::pod::pod;
    use serde_json::json;

    fn one(c: &[StatusCause]) -> (&str, &str, &str) {
        assert_eq!(c.len(), 1, "{c:?}");
        (&c[0].field, &c[0].reason, &c[0].message)
    }

    #[test]
    fn apparmor_and_mirror_annotations_are_fixed_at_create() {
        let old = json!({"metadata": {"annotations": {
                "kubernetes.io/config.mirror": "m", "other": "x"}},
            "spec": {"nodeName": "n", "containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30}});
        let mut fine = old.clone();
        fine["metadata"]["annotations"]["other"] = json!("y");
        let errs = pod(&fine, Some(&old));
        assert!(errs.is_empty(), "{errs:?}");
        let mut changed = old.clone();
        changed["metadata"]["annotations"]["kubernetes.io/config.mirror"] = json!("n");
        assert_eq!(
            one(&pod(&changed, Some(&old))),
            (
                "metadata.annotations[kubernetes.io/config.mirror]",
                "FieldValueForbidden",
                "Forbidden: may not remove or update mirror pod annotation"
            )
        );
        let mut added = old.clone();
        added["metadata"]["annotations"]["container.apparmor.security.beta.kubernetes.io/a"] =
            json!("runtime/default");
        assert_eq!(
            one(&pod(&added, Some(&old))),
            (
                "metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]",
                "FieldValueForbidden",
                "Forbidden: may not add AppArmor annotations"
            )
        );
        let (removed, mut was) = (old.clone(), old.clone());
        was["metadata"]["annotations"]["container.apparmor.security.beta.kubernetes.io/a"] =
            json!("runtime/default");
        assert_eq!(
            one(&pod(&removed, Some(&was))),
            (
                "metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]",
                "FieldValueForbidden",
                "Forbidden: may not remove or update AppArmor annotations"
            )
        );
    }

    #[test]
    fn updates() {
        let old = json!({"spec": {"containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "tolerations": [{"key": "k"}], "activeDeadlineSeconds": 100, "terminationGracePeriodSeconds": -1}});
        let mut new = old.clone();
        new["spec"]["containers"][0]["image"] = json!("y");
        new["spec"]["tolerations"] = json!([{"key": "k"}, {"key": "j"}]);
        new["spec"]["activeDeadlineSeconds"] = json!(50);
        new["spec"]["terminationGracePeriodSeconds"] = json!(1);
        assert!(pod(&new, Some(&old)).is_empty());
        let mut bad = new.clone();
        bad["spec"]["containers"][0]["name"] = json!("b");
        assert_eq!(
            one(&pod(&bad, Some(&old))),
            (
                "spec",
                "FieldValueForbidden",
                &*format!("Forbidden: {POD_UPDATE_MSG}")
            )
        );
        let mut bad = new.clone();
        bad["spec"]["tolerations"] = json!([]);
        assert_eq!(
            one(&pod(&bad, Some(&old))),
            (
                "spec.tolerations",
                "FieldValueForbidden",
                "Forbidden: existing toleration can not be modified except its tolerationSeconds"
            )
        );
        let mut bad = new.clone();
        bad["spec"]["activeDeadlineSeconds"] = json!(200);
        assert_eq!(
            one(&pod(&bad, Some(&old))).2,
            "Invalid value: 200: must be less than or equal to previous value"
        );
        let mut bad = new;
        bad["spec"]
            .as_object_mut()
            .unwrap()
            .remove("activeDeadlineSeconds");
        assert_eq!(
            one(&pod(&bad, Some(&old))).2,
            "Invalid value: null: must not update from a positive integer to nil value"
        );
    }

    #[test]
    fn gated_pods_may_gain_placement_constraints() {
        let c = json!([{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}]);
        let old = json!({"spec": {"containers": c, "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
            "terminationGracePeriodSeconds": 30, "schedulingGates": [{"name": "g"}], "nodeSelector": {"a": "1"},
            "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 5}],
            "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "z", "operator": "Exists"}]}]}}}}});
        let mut new = old.clone();
        new["spec"]["nodeSelector"]["b"] = json!("2");
        new["spec"]["schedulingGates"] = json!([]);
        new["spec"]["tolerations"][0]["tolerationSeconds"] = json!(10);
        new["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
            ["nodeSelectorTerms"][0]["matchExpressions"]
            .as_array_mut()
            .unwrap()
            .push(json!({"key": "y", "operator": "Exists"}));
        assert!(
            pod(&new, Some(&old)).is_empty(),
            "{:?}",
            pod(&new, Some(&old))
        );
        let mut bad = old.clone();
        bad["spec"]["nodeSelector"] = json!({"a": "2"});
        bad["spec"]["schedulingGates"] = json!([{"name": "g"}, {"name": "h"}]);
        let got: Vec<String> = pod(&bad, Some(&old))
            .iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect();
        assert_eq!(
            got,
            [
                "spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'h'",
                "spec.nodeSelector: Invalid value: map[string]string{\"a\":\"2\"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)",
            ]
        );
        let mut fewer = old.clone();
        fewer["spec"]["containers"] = json!([]);
        let got = pod(&fewer, Some(&old));
        assert!(got.iter().any(|c| c.field == "spec.containers"
            && c.message == "Forbidden: pod updates may not add or remove containers"));
    }
}
