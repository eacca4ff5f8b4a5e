//! OwnerReferencesPermissionEnforcement (off by default), as kube-apiserver's: who sets
//! or changes an object's ownerReferences must be allowed to delete the object, and who
//! makes a reference `blockOwnerDeletion: true` must be allowed to update the owner's
//! `finalizers` (else one could hold up the deletion of objects one cannot touch).

use kas_authz::{Attributes, Authorizer, Decision};
use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::Value;

/// The OwnerReferencesPermissionEnforcement plugin.
pub(crate) struct OwnerReferencesPermissionEnforcement {
    authz: Authorizer,
    /// The served resources, to find an owner's resource from its kind.
    served: Vec<RestStore>,
}

impl OwnerReferencesPermissionEnforcement {
    /// The plugin, asking `authz`, mapping kinds with `served`.
    pub(crate) fn new(authz: Authorizer, served: Vec<RestStore>) -> Self {
        OwnerReferencesPermissionEnforcement { authz, served }
    }

    /// The (resource, namespaced) of an owner's apiVersion and kind.
    fn resource_of(&self, api_version: &str, kind: &str) -> Option<(&'static str, bool)> {
        let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
        self.served
            .iter()
            .map(RestStore::resource)
            .find(|r| r.group == group && r.kind == kind)
            .map(|r| (r.plural, r.namespaced))
    }

    async fn allowed(&self, req: &Request<'_>, attrs: Attributes) -> (bool, String) {
        let Some(user) = req.user else {
            return (true, String::new());
        };
        let v = self.authz.decide(user, &attrs).await;
        (v.decision == Decision::Allow, v.reason)
    }
}

fn refs(obj: Option<&Value>) -> Vec<Value> {
    obj.and_then(|o| o.pointer("/metadata/ownerReferences"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn blocking(r: &Value) -> bool {
    r.get("blockOwnerDeletion").and_then(Value::as_bool) == Some(true)
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

impl Plugin for OwnerReferencesPermissionEnforcement {
    fn name(&self) -> &'static str {
        "OwnerReferencesPermissionEnforcement"
    }

    fn phases(&self) -> Phases {
        Phases::VALIDATE
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if !matches!(req.operation, Operation::Create | Operation::Update) || !obj.is_object() {
                return Ok(());
            }
            // Kubelets update pod status with the references they already have.
            if req.resource.group.is_empty()
                && req.resource.plural == "pods"
                && req.subresource == "status"
            {
                return Ok(());
            }
            let old = req
                .old_object
                .filter(|_| req.operation == Operation::Update);
            let (new_refs, old_refs) = (refs(Some(obj)), refs(old));
            if new_refs == old_refs {
                return Ok(());
            }
            let delete = Attributes {
                verb: "delete".to_owned(),
                resource_request: true,
                namespace: req.namespace.to_owned(),
                group: req.resource.group.to_owned(),
                version: req.resource.version.to_owned(),
                resource: req.resource.plural.to_owned(),
                name: req.shown_name(obj),
                ..Default::default()
            };
            let (ok, reason) = self.allowed(req, delete).await;
            if !ok {
                return Err(req.forbidden(
                    obj,
                    &format!(
                        "cannot set an ownerRef on a resource you can't delete: {reason}, <nil>"
                    ),
                ));
            }
            // References newly made blocking.
            for r in new_refs.iter().filter(|r| blocking(r)) {
                let was_blocking = old_refs
                    .iter()
                    .any(|o| s(o, "uid") == s(r, "uid") && blocking(o));
                if was_blocking {
                    continue;
                }
                let (api_version, kind) = (s(r, "apiVersion"), s(r, "kind"));
                let Some((resource, namespaced)) = self.resource_of(api_version, kind) else {
                    return Err(req.forbidden(obj, &format!("cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion {api_version} Kind {kind}: no matches for kind \"{kind}\" in version \"{api_version}\"")));
                };
                let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
                let finalizers = Attributes {
                    verb: "update".to_owned(),
                    resource_request: true,
                    namespace: if namespaced {
                        req.namespace.to_owned()
                    } else {
                        String::new()
                    },
                    group: group.to_owned(),
                    version: version.to_owned(),
                    resource: resource.to_owned(),
                    subresource: "finalizers".to_owned(),
                    name: s(r, "name").to_owned(),
                    ..Default::default()
                };
                let (ok, reason) = self.allowed(req, finalizers).await;
                if !ok {
                    return Err(req.forbidden(obj, &format!("cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: {reason}, <nil>")));
                }
            }
            Ok(())
        })
    }
}
