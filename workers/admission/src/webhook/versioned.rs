//! The request as the version a webhook or policy matched (upstream's
//! `VersionedAttributes`): with `matchPolicy: Equivalent`, a request for one version of
//! a resource matched by a rule naming another is sent the object and the old object
//! converted to that version, with `kind`/`resource` of the version matched and
//! `requestKind`/`requestResource` of the one written. Conversions are made once per
//! version and request.

use kas_server::admission::Request;
use kas_server::rest::Resource;
use kas_server::status::Status;
use serde_json::Value;

/// Whether `a` and `b` are the same group and version (of one resource).
pub(crate) fn same_version(a: &Resource, b: &Resource) -> bool {
    a.group == b.group && a.version == b.version
}

/// The object and old object of a request in each version asked for, converted once.
#[derive(Debug, Default)]
pub(crate) struct Converted {
    /// (version, object, old object), other than the request's own.
    versions: Vec<(Resource, Value, Option<Value>)>,
}

impl Converted {
    /// The index of the request's objects as `to`, converting them the first time;
    /// `None` is the request's own version. A failed conversion is a 500.
    pub(crate) async fn index(
        &mut self,
        req: &Request<'_>,
        obj: &Value,
        to: &Resource,
    ) -> Result<Option<usize>, Status> {
        if same_version(req.resource, to) {
            return Ok(None);
        }
        if let Some(i) = self
            .versions
            .iter()
            .position(|(r, _, _)| same_version(r, to))
        {
            return Ok(Some(i));
        }
        let object = convert(req, obj.clone(), req.resource, to).await?;
        let old = match req.old_object {
            Some(old) => Some(convert(req, old.clone(), req.resource, to).await?),
            None => None,
        };
        self.versions.push((*to, object, old));
        Ok(Some(self.versions.len() - 1))
    }

    /// The request as `at` (an [`Converted::index`]) shows it, and its object.
    pub(crate) fn view<'a>(
        &'a self,
        req: &Request<'a>,
        obj: &'a Value,
        at: Option<usize>,
    ) -> (Request<'a>, &'a Value) {
        match at.and_then(|i| self.versions.get(i)) {
            None => (*req, obj),
            Some((resource, object, old)) => (
                Request {
                    resource,
                    old_object: old.as_ref(),
                    ..*req
                },
                object,
            ),
        }
    }
}

/// `obj` converted from `from` to `to` by the request's store.
pub(crate) async fn convert(
    req: &Request<'_>,
    obj: Value,
    from: &Resource,
    to: &Resource,
) -> Result<Value, Status> {
    if same_version(from, to) {
        return Ok(obj);
    }
    match req.versions {
        Some(v) => v.convert(obj, from, to).await,
        // Equivalents come from the store; without one nothing matches another version.
        None => Ok(obj),
    }
}

/// A store's stand-in for tests: apps/v1beta1 Deployments as the equivalent of
/// apps/v1's, converted by the apiVersion alone.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct BetaDeployments;

#[cfg(test)]
impl kas_server::admission::Versions for BetaDeployments {
    fn equivalents(&self) -> &[Resource] {
        const BETA: Resource =
            Resource::new("apps", "v1beta1", "deployments", "deployment", "Deployment");
        std::slice::from_ref(&BETA)
    }
    fn convert<'a>(
        &'a self,
        mut obj: Value,
        _: &'a Resource,
        to: &'a Resource,
    ) -> kas_server::rest::HookFuture<'a, Result<Value, Status>> {
        Box::pin(async move {
            if obj.is_object() {
                obj["apiVersion"] = serde_json::json!(to.api_version());
            }
            Ok(obj)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kas_server::admission::{Operation, Versions};
    use serde_json::json;

    const DEPLOYMENTS: Resource =
        Resource::new("apps", "v1", "deployments", "deployment", "Deployment");

    #[tokio::test]
    async fn converted_once_per_version() {
        let old = json!({"apiVersion": "apps/v1", "metadata": {"name": "a"}});
        let req = Request {
            operation: Operation::Update,
            resource: &DEPLOYMENTS,
            subresource: "",
            namespace: "default",
            name: "a",
            old_object: Some(&old),
            user: None,
            dry_run: false,
            options: None,
            versions: Some(&BetaDeployments),
        };
        let obj = json!({"apiVersion": "apps/v1", "metadata": {"name": "a"}});
        let mut c = Converted::default();
        assert_eq!(c.index(&req, &obj, &DEPLOYMENTS).await, Ok(None));
        let beta = BetaDeployments.equivalents()[0];
        let at = c.index(&req, &obj, &beta).await.expect("converted");
        assert_eq!(at, Some(0));
        assert_eq!(c.index(&req, &obj, &beta).await, Ok(Some(0)));
        let (vreq, vobj) = c.view(&req, &obj, at);
        assert_eq!(vreq.resource.version, "v1beta1");
        assert_eq!(vobj["apiVersion"], "apps/v1beta1");
        assert_eq!(
            vreq.old_object.map(|o| &o["apiVersion"]),
            Some(&json!("apps/v1beta1"))
        );
        let (own, own_obj) = c.view(&req, &obj, None);
        assert_eq!(own.resource.version, "v1");
        assert_eq!(own_obj, &obj);
    }
}
