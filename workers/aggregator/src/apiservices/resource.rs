//! The APIService resource as data for the generic REST store: names, scope, registry
//! path, the `status` subresource, upstream's printer columns (`kubectl get apiservices`)
//! and the create-time strategy (a local APIService is Available from the start).

use kas_server::rest::{
    age, Column, HookFuture, Hooks, NameRule, Resource, RestStore, WriteOptions,
};
use kas_server::status::Status;
use serde_json::{json, Value};

use super::validation;

/// `apiregistration.k8s.io`.
pub(crate) const GROUP: &str = "apiregistration.k8s.io";

/// The only version served (v1beta1 is gone from kube-apiserver v1.33's defaults).
pub(crate) const VERSION: &str = "v1";

/// The label the autoregistration controller marks its APIServices with.
pub(crate) const AUTOMANAGED: &str = "kube-aggregator.kubernetes.io/automanaged";

const AGE_DESC: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// kube-aggregator's table (`registry/apiservice/etcd`) after the Name column the store
/// always puts first: Service, Available, Age.
const COLUMNS: &[Column] = &[
    Column {
        name: "Service",
        kind: "string",
        format: "",
        priority: 0,
        description: "The reference to the service that hosts this API endpoint.",
        cell: service_cell,
    },
    Column {
        name: "Available",
        kind: "string",
        format: "",
        priority: 0,
        description: "Whether this service is available.",
        cell: available_cell,
    },
    Column {
        name: "Age",
        kind: "string",
        format: "",
        priority: 0,
        description: AGE_DESC,
        cell: |o| age(o.pointer("/metadata/creationTimestamp")),
    },
];

/// The APIService resource.
pub(crate) const APISERVICES: Resource =
    Resource::new(GROUP, VERSION, "apiservices", "apiservice", "APIService")
        .definition("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService")
        .cluster()
        .key_path("apiregistration.k8s.io/apiservices")
        .categories(&["api-extensions"])
        .subresources(&["status"])
        .names(NameRule::PathSegment)
        .strategy(defaults, validation::validate)
        .columns(COLUMNS);

/// `Local`, or `<namespace>/<name>` of the service behind the APIService.
fn service_cell(o: &Value) -> Value {
    match o.pointer("/spec/service") {
        Some(s) if s.is_object() => {
            let part = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            json!(format!("{}/{}", part("namespace"), part("name")))
        }
        _ => json!("Local"),
    }
}

/// `True`; `False (<reason>)` or `Unknown (<reason>)` when a reason is given; `Unknown`
/// without an Available condition.
fn available_cell(o: &Value) -> Value {
    let conditions = o
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let Some(c) = conditions
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("Available"))
    else {
        return json!("Unknown");
    };
    let status = c.get("status").and_then(Value::as_str).unwrap_or("");
    let reason = c.get("reason").and_then(Value::as_str).unwrap_or("");
    if status == "True" || reason.is_empty() {
        json!(status)
    } else {
        json!(format!("{status} ({reason})"))
    }
}

/// The v1 defaults: a service's port is 443 when not given.
fn defaults(obj: &mut Value) {
    if let Some(service) = obj
        .pointer_mut("/spec/service")
        .and_then(Value::as_object_mut)
    {
        service.entry("port").or_insert(json!(443));
    }
}

/// The condition of a local APIService, as kube-aggregator sets it.
pub(crate) fn local_available(now: &str) -> Value {
    json!({
        "type": "Available",
        "status": "True",
        "lastTransitionTime": now,
        "reason": "Local",
        "message": "Local APIServices are always available",
    })
}

/// Upstream's PrepareForCreate: the status a client sent is dropped (the store does that
/// for resources with a status subresource) and a local APIService (no `spec.service`)
/// starts Available.
#[derive(Debug, Default)]
pub(crate) struct Strategy;

impl Hooks for Strategy {
    fn before_create<'a>(
        &'a self,
        _store: &'a RestStore,
        obj: &'a mut Value,
        _opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let local = !obj.pointer("/spec/service").is_some_and(Value::is_object);
            if local {
                let now = obj
                    .pointer("/metadata/creationTimestamp")
                    .cloned()
                    .unwrap_or(Value::Null);
                let now = now.as_str().unwrap_or_default().to_owned();
                obj["status"] = json!({"conditions": [local_available(&now)]});
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns() {
        let local =
            json!({"spec": {"group": "apps"}, "status": {"conditions": [local_available("t")]}});
        assert_eq!(service_cell(&local), "Local");
        assert_eq!(available_cell(&local), "True");
        let remote = json!({
            "spec": {"service": {"namespace": "ns", "name": "api"}},
            "status": {"conditions": [{"type": "Available", "status": "False", "reason": "MissingEndpoints"}]},
        });
        assert_eq!(service_cell(&remote), "ns/api");
        assert_eq!(available_cell(&remote), "False (MissingEndpoints)");
        assert_eq!(available_cell(&json!({"status": {}})), "Unknown");
        let no_reason =
            json!({"status": {"conditions": [{"type": "Available", "status": "False"}]}});
        assert_eq!(available_cell(&no_reason), "False");
    }

    #[test]
    fn service_port_defaults_to_443() {
        let mut o = json!({"spec": {"service": {"namespace": "a", "name": "b"}}});
        defaults(&mut o);
        assert_eq!(o["spec"]["service"]["port"], 443);
        let mut local = json!({"spec": {"group": "x"}});
        defaults(&mut local);
        assert!(local["spec"].get("service").is_none());
    }
}
