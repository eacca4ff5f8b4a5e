//! Where the generic writes call admission: the mutating phase after defaulting (a
//! changed object is defaulted again, as upstream decodes a webhook's patched object),
//! the validating phase after validation. Only clients' writes are admitted; the
//! server's own (`WriteOptions::server`) are not.

use serde_json::Value;

use super::{RestStore, WriteOptions};
use crate::admission::{Operation, Request};
use crate::status::Status;

/// Which write is being admitted.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target<'a> {
    pub(super) operation: Operation,
    pub(super) subresource: &'a str,
    pub(super) namespace: &'a str,
    pub(super) name: &'a str,
    pub(super) old: Option<&'a Value>,
    pub(super) options: Option<&'a Value>,
}

impl RestStore {
    fn admission_request<'a>(&'a self, t: Target<'a>, opts: &'a WriteOptions) -> Request<'a> {
        Request {
            operation: t.operation,
            resource: &self.resource,
            subresource: t.subresource,
            namespace: t.namespace,
            name: t.name,
            old_object: t.old,
            user: opts.user.as_ref(),
            dry_run: opts.dry_run,
            options: t.options,
            versions: Some(self),
        }
    }

    /// The mutating phase for `obj` (Null for a delete); a changed object is defaulted
    /// again.
    pub(super) async fn admit(
        &self,
        t: Target<'_>,
        obj: &mut Value,
        opts: &WriteOptions,
    ) -> Result<(), Status> {
        let (Some(chain), Some(_)) = (&self.admission, &opts.user) else {
            return Ok(());
        };
        let req = self.admission_request(t, opts);
        if chain.admit(&req, obj, &opts.recorder).await? && !obj.is_null() {
            (self.resource.defaults)(obj);
            if let Some(st) = &self.strategy {
                st.default(obj);
            }
            self.fill_zero_fields(obj);
        }
        Ok(())
    }

    /// The validating phase for `obj` (Null for a delete).
    pub(super) async fn admit_validate(
        &self,
        t: Target<'_>,
        obj: &Value,
        opts: &WriteOptions,
    ) -> Result<(), Status> {
        let (Some(chain), Some(_)) = (&self.admission, &opts.user) else {
            return Ok(());
        };
        let req = self.admission_request(t, opts);
        chain.validate(&req, obj, &opts.recorder).await
    }

    /// Both phases of a POST to subresource `sub` of `ns/name` (a TokenRequest, an
    /// Eviction, a Binding), as upstream admits it.
    pub(super) async fn admit_subresource_create(
        &self,
        sub: &str,
        ns: &str,
        name: &str,
        body: &mut Value,
        opts: &WriteOptions,
    ) -> Result<(), Status> {
        let t = Target {
            operation: Operation::Create,
            subresource: sub,
            namespace: ns,
            name,
            old: None,
            options: None,
        };
        let (Some(chain), Some(_)) = (&self.admission, &opts.user) else {
            return Ok(());
        };
        let req = self.admission_request(t, opts);
        chain.admit(&req, body, &opts.recorder).await?;
        chain.validate(&req, body, &opts.recorder).await
    }

    /// Both phases of a delete of `old`.
    pub(super) async fn admit_delete(
        &self,
        t: Target<'_>,
        opts: &WriteOptions,
    ) -> Result<(), Status> {
        let mut none = Value::Null;
        self.admit(t, &mut none, opts).await?;
        self.admit_validate(t, &none, opts).await
    }
}
