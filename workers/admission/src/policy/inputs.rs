//! The request as ValidatingAdmissionPolicy's CEL sees it: `object`, `oldObject`,
//! `request`, `namespaceObject` (converted once per request and version matched), and,
//! where the worker has an authorizer, `authorizer` and `authorizer.requestResource`
//! (checks for the requesting user, decided between evaluations: see
//! `kas_cel::authz`).

use std::sync::Arc;

use cel::Value as Cel;
use kas_cel::authz::{self, Checks};
use serde_json::Value;

use crate::webhook::matching::to_cel;

/// The request as CEL sees it, converted once per request.
pub(crate) struct Inputs {
    /// `authorizer` and `authorizer.requestResource`, when offered.
    pub authorizer: Option<(Cel, Cel)>,
    pub object: Cel,
    pub old_object: Cel,
    pub request: Cel,
    pub namespace: Cel,
    /// JSON nodes of the inputs (the size in the cost bound).
    pub size: u64,
}

/// JSON nodes of `v` (objects and lists count their members).
pub(crate) fn size_of(v: &Value) -> u64 {
    let mut total = 0u64;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        total += 1;
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    total
}

/// The Namespace as `namespaceObject`: its spec, status and the metadata upstream keeps.
fn namespace_object(ns: &Value) -> Value {
    const KEPT: [&str; 12] = [
        "name",
        "generateName",
        "namespace",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "finalizers",
    ];
    let mut out = serde_json::Map::new();
    if let Some(meta) = ns.get("metadata").and_then(Value::as_object) {
        let kept = meta
            .iter()
            .filter(|(k, _)| KEPT.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        out.insert("metadata".into(), Value::Object(kept));
    }
    for key in ["spec", "status"] {
        if let Some(v) = ns.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    Value::Object(out)
}

impl Inputs {
    /// The inputs of a request: the object (Null for a delete), the old object, the
    /// AdmissionRequest and the request's namespace, when it has one.
    pub(crate) fn new(
        obj: &Value,
        old: &Value,
        request: &Value,
        namespace: Option<&Value>,
    ) -> Inputs {
        let namespace = namespace.map(namespace_object).unwrap_or(Value::Null);
        Inputs {
            authorizer: None,
            size: size_of(obj) + size_of(old) + size_of(request) + size_of(&namespace),
            object: to_cel(obj),
            old_object: to_cel(old),
            request: to_cel(request),
            namespace: to_cel(&namespace),
        }
    }
}

impl Inputs {
    /// The same inputs offering `authorizer`, whose checks are noted in `checks`;
    /// `request_resource` is the request's (group, resource, subresource, namespace,
    /// name).
    pub(crate) fn with_authorizer(
        mut self,
        checks: &Arc<Checks>,
        request_resource: [&str; 5],
    ) -> Inputs {
        self.authorizer = Some((
            authz::authorizer(checks.clone()),
            authz::request_resource(checks.clone(), request_resource),
        ));
        self
    }
}
