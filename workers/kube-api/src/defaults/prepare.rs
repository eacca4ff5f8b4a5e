//! What a few strategies fill in after defaulting, in their PrepareForCreate and
//! PrepareForUpdate or (Services) their REST layer. The difference from defaulting shows
//! in `metadata.managedFields`: upstream records the writer's fields between the two, so
//! what is set here is nobody's field.

use serde_json::{json, Value};

use crate::validation::template_prepare;

/// Namespaces: the `kubernetes` finalizer added on create (after the client's own);
/// on update the finalizers stay what they were, as only `/finalize` changes them.
pub(crate) fn namespace_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if !sub.is_empty() || !o.is_object() {
        return;
    }
    match old {
        None => {
            let spec = o
                .as_object_mut()
                .map(|m| m.entry("spec").or_insert_with(|| json!({})));
            let Some(spec) = spec.and_then(Value::as_object_mut) else {
                return;
            };
            kas_server::rest::add_to_set(spec, "finalizers", "kubernetes");
        }
        Some(old) => {
            let kept = old.pointer("/spec/finalizers").cloned();
            let spec = o
                .as_object_mut()
                .map(|m| m.entry("spec").or_insert_with(|| json!({})));
            let Some(spec) = spec.and_then(Value::as_object_mut) else {
                return;
            };
            match kept {
                Some(f) => spec.insert("finalizers".into(), f),
                None => spec.remove("finalizers"),
            };
        }
    }
}

/// Services: an update settled over the old service (allocated values kept, cluster IPs
/// in step, fields of the old type dropped), and their IP families, which upstream's REST
/// layer settles after defaulting.
pub(crate) fn service_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if !sub.is_empty() {
        return;
    }
    if let Some(old) = old {
        super::service_update::settle(o, old);
    }
    super::service_ip_families(o);
}

/// Jobs: the pod template's (as other workloads), and on create the selector and labels
/// generated from the uid (`generateSelector`), which is known by then.
pub(crate) fn job_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    template_prepare(o, old, sub);
    if old.is_some() || !sub.is_empty() {
        return;
    }
    let uid = o
        .pointer("/metadata/uid")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if !uid.is_empty() {
        super::job_generate_selector(o, &uid);
    }
}

/// PriorityClasses: generation 1 on create, and (unlike other resources that keep one)
/// never moved by an update.
pub(crate) fn priority_class_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if old.is_none() && sub.is_empty() {
        if let Some(meta) = o.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.insert("generation".into(), json!(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_get_the_kubernetes_finalizer_on_create_only() {
        let mut ns = json!({"metadata": {"name": "n"}});
        namespace_prepare(&mut ns, None, "");
        assert_eq!(ns["spec"], json!({"finalizers": ["kubernetes"]}));
        let mut ns = json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["a.io/x"]}});
        namespace_prepare(&mut ns, None, "");
        assert_eq!(ns["spec"]["finalizers"], json!(["a.io/x", "kubernetes"]));
        let old = json!({"spec": {"finalizers": []}});
        let mut ns = json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["kubernetes"]}});
        namespace_prepare(&mut ns, Some(&old), "");
        assert_eq!(ns["spec"]["finalizers"], json!([]));
        let mut ns = json!({"metadata": {"name": "n"}});
        namespace_prepare(&mut ns, Some(&json!({})), "");
        assert_eq!(ns["spec"], json!({}));
        for mut v in [
            json!(null),
            json!({"spec": 1}),
            json!({"spec": {"finalizers": 2}}),
        ] {
            namespace_prepare(&mut v, None, "");
        }
    }

    #[test]
    fn jobs_and_priority_classes() {
        let mut job = json!({"metadata": {"name": "j", "uid": "u"},
            "spec": {"template": {"spec": {"containers": []}}}});
        job_prepare(&mut job, None, "");
        assert_eq!(
            job["spec"]["selector"],
            json!({"matchLabels": {"batch.kubernetes.io/controller-uid": "u"}})
        );
        assert_eq!(job["metadata"]["labels"]["job-name"], "j");
        let mut pc = json!({"metadata": {"name": "p", "generation": 7}});
        priority_class_prepare(&mut pc, None, "");
        assert_eq!(pc["metadata"]["generation"], 1);
        let mut pc = json!({"metadata": {"name": "p", "generation": 7}});
        priority_class_prepare(&mut pc, Some(&json!({})), "");
        assert_eq!(pc["metadata"]["generation"], 7);
    }
}
