//! pods/binding (and the legacy `bindings` resource) as upstream's BindingREST:
//! `setPodNodeAndMetadata`, a storage update of its own (no strategy, validation or field
//! manager), under the binding's uid and resourceVersion when it names them. A pod being
//! deleted, already assigned or still gated is refused as a conflict on pods/binding; else
//! it gets the node, the binding's annotations and a PodScheduled True condition.

use kas_server::rest::{Preconditions, RestStore};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

/// Binds `ns/pod` to the target node of `body` (a Binding).
pub(crate) async fn bind(
    pods: &RestStore,
    ns: &str,
    pod: &str,
    body: &Value,
) -> Result<Value, Status> {
    let target = body
        .pointer("/target/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if target.is_empty() {
        return Err(Status::new(
            Reason::Invalid,
            format!("Binding \"{pod}\" is invalid: target.name: Required value"),
        ));
    }
    // Upstream's setPodNodeAndMetadata: a storage update of its own (no strategy,
    // validation or field manager), under the binding's uid and version if it
    // names them; its refusals are conflicts on pods/binding.
    let conflict = |why: String| Status::conflict("", "pods/binding", pod, &why);
    let text = |v: &Value, p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let (want_uid, want_rv) = (
        text(body, "/metadata/uid"),
        text(body, "/metadata/resourceVersion"),
    );
    let annotations = body
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .cloned();
    let preconditions = Preconditions {
        uid: &want_uid,
        resource_version: &want_rv,
    };
    pods.guaranteed_update(ns, pod, preconditions, |obj| {
        if obj.pointer("/metadata/deletionTimestamp").is_some() {
            return Err(conflict(format!(
                "pod {pod} is being deleted, cannot be assigned to a host"
            )));
        }
        let current = text(obj, "/spec/nodeName");
        if !current.is_empty() {
            return Err(conflict(format!(
                "pod {pod} is already assigned to node \"{current}\""
            )));
        }
        if obj
            .pointer("/spec/schedulingGates")
            .and_then(Value::as_array)
            .is_some_and(|g| !g.is_empty())
        {
            return Err(conflict(format!(
                "pod {pod} has non-empty .spec.schedulingGates"
            )));
        }
        obj["spec"]["nodeName"] = json!(target);
        if let Some(extra) = annotations.as_ref().filter(|a| !a.is_empty()) {
            if !obj["metadata"]["annotations"].is_object() {
                obj["metadata"]["annotations"] = json!({});
            }
            for (k, v) in extra {
                obj["metadata"]["annotations"][k] = v.clone();
            }
        }
        scheduled(obj);
        Ok(())
    })
    .await?;
    Ok(
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
    )
}

/// upstream's UpdatePodCondition with PodScheduled True: a new condition, or the old one
/// replaced (reason and message gone), its transition time kept when it was True.
fn scheduled(pod: &mut Value) {
    let now = kas_server::rest::now();
    if !pod["status"].is_object() {
        pod["status"] = json!({});
    }
    if !pod["status"]["conditions"].is_array() {
        pod["status"]["conditions"] = json!([]);
    }
    let Some(conditions) = pod["status"]["conditions"].as_array_mut() else {
        return;
    };
    let fresh = |since: Value| json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": since});
    match conditions.iter_mut().find(|c| c["type"] == "PodScheduled") {
        Some(c) => {
            let since = if c["status"] == "True" {
                c["lastTransitionTime"].clone()
            } else {
                json!(now)
            };
            *c = fresh(since);
        }
        None => conditions.push(fresh(json!(now))),
    }
}
