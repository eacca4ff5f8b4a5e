//! RBAC escalation prevention, as kube-apiserver's RBAC storage does it: a user may create
//! or update a Role or ClusterRole only with rules RBAC already grants them (or with the
//! `escalate` verb on it), a ClusterRole with an aggregationRule only holding everything,
//! and a RoleBinding or ClusterRoleBinding only to a role whose rules they hold (or with
//! the `bind` verb on it). `system:masters` and the server's own writes are not checked.
//! Updates that only touch what garbage collection writes (owner references, finalizers)
//! pass as upstream lets them.

use std::sync::OnceLock;

use kas_authz::{Attributes, Authorizer, Decision, PRIVILEGED_GROUP};
use kas_proto::UserInfo;
use kas_server::rest::{HookFuture, Hooks, RestStore, WriteOptions};
use kas_server::status::Status;
use serde_json::{json, Value};

use super::str_at;

const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// The message when a user without full authority writes an aggregationRule.
const AGGREGATION_NEEDS_ADMIN: &str =
    "must have cluster-admin privileges to use the aggregationRule";

/// The write hooks of roles, clusterroles, rolebindings and clusterrolebindings.
pub(crate) struct EscalationHooks {
    authz: Authorizer,
    /// The roles and clusterroles stores, to read a binding's role (set once they exist).
    stores: OnceLock<Vec<RestStore>>,
}

/// Whether this resource is one the hooks guard.
pub(crate) fn guards(group: &str, plural: &str) -> bool {
    group == RBAC_GROUP
        && matches!(
            plural,
            "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings"
        )
}

impl EscalationHooks {
    pub(crate) fn new(authz: Authorizer) -> EscalationHooks {
        EscalationHooks {
            authz,
            stores: OnceLock::new(),
        }
    }

    /// Gives the hooks the stores to read roles from.
    pub(crate) fn set_stores(&self, stores: Vec<RestStore>) {
        let _ = self.stores.set(stores);
    }

    /// Whether the authorizer chain allows `verb` on `resource` `name` to `user`.
    async fn allowed(
        &self,
        user: &UserInfo,
        verb: &str,
        resource: &str,
        ns: &str,
        name: &str,
    ) -> bool {
        let a = Attributes {
            verb: verb.to_owned(),
            resource_request: true,
            namespace: ns.to_owned(),
            group: RBAC_GROUP.to_owned(),
            version: "*".to_owned(),
            resource: resource.to_owned(),
            name: name.to_owned(),
            ..Attributes::default()
        };
        self.authz.authorize(user, &a).await.0 == Decision::Allow
    }

    /// The rules of the role a binding refers to; NotFound as storage words it.
    async fn role_ref_rules(&self, binding: &Value, ns: &str) -> Result<Value, Status> {
        let (plural, ns) = match str_at(binding, "/roleRef/kind") {
            "ClusterRole" => ("clusterroles", ""),
            "Role" => ("roles", ns),
            other => {
                return Err(Status::internal(format!(
                    "unsupported role reference kind: {}",
                    kas_server::status::go_quote(other)
                )))
            }
        };
        let store = self
            .stores
            .get()
            .and_then(|all| all.iter().find(|s| s.resource().plural == plural))
            .ok_or_else(|| Status::internal(format!("no {plural} store")))?;
        let role = store
            .read_object(ns, str_at(binding, "/roleRef/name"))
            .await?;
        Ok(role.get("rules").cloned().unwrap_or_else(|| json!([])))
    }

    async fn check(
        &self,
        store: &RestStore,
        obj: &Value,
        old: Option<&Value>,
        opts: &WriteOptions,
    ) -> Result<(), Status> {
        let Some(user) = &opts.user else {
            return Ok(());
        };
        if user.groups.iter().any(|g| g == PRIVILEGED_GROUP) {
            return Ok(());
        }
        let plural = store.resource().plural;
        let ns = str_at(obj, "/metadata/namespace");
        let name = str_at(obj, "/metadata/name");
        let forbidden = |why: &str| Status::forbidden(RBAC_GROUP, plural, name, why);
        match plural {
            "roles" | "clusterroles" => {
                // The request's object name: none on a create.
                let url_name = if old.is_some() { name } else { "" };
                if self.allowed(user, "escalate", plural, ns, url_name).await {
                    return Ok(());
                }
                if old.is_some_and(|old| only_gc_fields(obj, old)) {
                    return Ok(());
                }
                let rules = rules_of(obj);
                self.authz
                    .confirm_no_escalation(user, ns, &rules)
                    .map_err(|e| forbidden(&e))?;
                let aggregates = |o: &Value| o.get("aggregationRule").is_some_and(|a| !a.is_null());
                if plural == "clusterroles" && (aggregates(obj) || old.is_some_and(aggregates)) {
                    let everything = [
                        json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}),
                        json!({"verbs": ["*"], "nonResourceURLs": ["*"]}),
                    ];
                    self.authz
                        .confirm_no_escalation(user, ns, &everything)
                        .map_err(|_| forbidden(AGGREGATION_NEEDS_ADMIN))?;
                }
                Ok(())
            }
            "rolebindings" | "clusterrolebindings" => {
                if old.is_some_and(|old| only_gc_fields(obj, old)) {
                    return Ok(());
                }
                let role_resource = match str_at(obj, "/roleRef/kind") {
                    "ClusterRole" => "clusterroles",
                    "Role" => "roles",
                    _ => "",
                };
                let role_name = str_at(obj, "/roleRef/name");
                if !role_resource.is_empty()
                    && self
                        .allowed(user, "bind", role_resource, ns, role_name)
                        .await
                {
                    return Ok(());
                }
                let rules = self.role_ref_rules(obj, ns).await?;
                let rules = rules.as_array().map(Vec::as_slice).unwrap_or(&[]);
                self.authz
                    .confirm_no_escalation(user, ns, rules)
                    .map_err(|e| forbidden(&e))
            }
            _ => Ok(()),
        }
    }
}

/// The rules of a Role or ClusterRole.
fn rules_of(role: &Value) -> Vec<Value> {
    role.get("rules")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// Whether `obj` differs from `old` only in what garbage collection writes (owner
/// references, finalizers, the deletion marks) and in what the server maintains itself.
fn only_gc_fields(obj: &Value, old: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            for field in [
                "ownerReferences",
                "finalizers",
                "deletionTimestamp",
                "deletionGracePeriodSeconds",
                "selfLink",
                "managedFields",
                "resourceVersion",
                "generation",
            ] {
                meta.remove(field);
            }
        }
        v
    };
    strip(obj) == strip(old)
}

impl Hooks for EscalationHooks {
    fn before_create<'a>(
        &'a self,
        store: &'a RestStore,
        obj: &'a mut Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move { self.check(store, obj, None, opts).await })
    }

    fn before_update<'a>(
        &'a self,
        store: &'a RestStore,
        obj: &'a mut Value,
        old: &'a Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move { self.check(store, obj, Some(old), opts).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gc_fields_alone_do_not_count_as_a_change() {
        let old = json!({"metadata": {"name": "r", "resourceVersion": "1"}, "rules": []});
        let mut new = old.clone();
        new["metadata"]["finalizers"] = json!(["x"]);
        new["metadata"]["ownerReferences"] = json!([{"name": "o"}]);
        assert!(only_gc_fields(&new, &old));
        new["rules"] = json!([{"verbs": ["get"]}]);
        assert!(!only_gc_fields(&new, &old));
    }
}
