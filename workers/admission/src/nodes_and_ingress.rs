//! Two defaulting plugins of kube-apiserver's: TaintNodesByCondition (a new Node is
//! tainted `node.kubernetes.io/not-ready:NoSchedule` until the node lifecycle controller
//! sees it ready) and DefaultIngressClass (a new Ingress that names no class, by field or
//! by the legacy annotation, gets the default IngressClass: the newest of those marked
//! `ingressclass.kubernetes.io/is-default-class: "true"`, then by name).

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

const NOT_READY: &str = "node.kubernetes.io/not-ready";
const DEFAULT_INGRESS_CLASS: &str = "ingressclass.kubernetes.io/is-default-class";

/// TaintNodesByCondition.
pub(crate) struct TaintNodesByCondition;

impl Plugin for TaintNodesByCondition {
    fn name(&self) -> &'static str {
        "TaintNodesByCondition"
    }

    fn phases(&self) -> Phases {
        Phases::ADMIT
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        node: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let applies = req.operation == Operation::Create
                && req.resource.group.is_empty()
                && req.resource.plural == "nodes"
                && req.subresource.is_empty();
            let Some(spec) = node
                .get_mut("spec")
                .and_then(Value::as_object_mut)
                .filter(|_| applies)
            else {
                return Ok(());
            };
            let taints = spec.entry("taints").or_insert_with(|| json!([]));
            if taints.is_null() {
                *taints = json!([]);
            }
            if let Some(list) = taints.as_array_mut() {
                let present = list.iter().any(|t| {
                    t.get("key").and_then(Value::as_str) == Some(NOT_READY)
                        && t.get("effect").and_then(Value::as_str) == Some("NoSchedule")
                });
                if !present {
                    list.push(json!({"key": NOT_READY, "effect": "NoSchedule"}));
                }
            }
            Ok(())
        })
    }
}

/// DefaultIngressClass.
pub(crate) struct DefaultIngressClass {
    classes: RestStore,
}

impl DefaultIngressClass {
    /// The plugin, reading IngressClasses from `classes`.
    pub(crate) fn new(classes: RestStore) -> DefaultIngressClass {
        DefaultIngressClass { classes }
    }
}

impl Plugin for DefaultIngressClass {
    fn name(&self) -> &'static str {
        "DefaultIngressClass"
    }

    fn phases(&self) -> Phases {
        Phases::ADMIT
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        ingress: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let applies = req.operation == Operation::Create
                && req.resource.group == "networking.k8s.io"
                && req.resource.plural == "ingresses"
                && req.subresource.is_empty();
            if !applies {
                return Ok(());
            }
            let named = ingress
                .pointer("/spec/ingressClassName")
                .is_some_and(|c| !c.is_null())
                || ingress
                    .pointer("/metadata/annotations")
                    .and_then(|a| a.get("kubernetes.io/ingress.class"))
                    .is_some();
            if named {
                return Ok(());
            }
            let classes = self.classes.list_cached("").await?;
            let Some(default) = crate::storage::newest_default(&classes, &[DEFAULT_INGRESS_CLASS])
            else {
                return Ok(());
            };
            let name = default
                .pointer("/metadata/name")
                .cloned()
                .unwrap_or(Value::Null);
            if let Some(spec) = ingress.get_mut("spec").and_then(Value::as_object_mut) {
                spec.insert("ingressClassName".into(), name);
            }
            Ok(())
        })
    }
}
