//! Resources whose objects are computed on each read rather than stored (kube-apiserver's
//! `componentstatuses`): get and list only, the objects from the resource's hooks,
//! filtered by selectors and rendered (Table, PartialObjectMetadata) as stored ones are.
//! Watching is refused as upstream refuses it for a storage that cannot watch.

use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::{json_response, Query, Render, RestStore};
use crate::body::Body;
use crate::selectors::{FieldSelector, LabelSelector};
use crate::status::{Reason, Status};

impl RestStore {
    /// GET of one computed object.
    pub(super) async fn computed_get(
        &self,
        name: &str,
        render: Render,
    ) -> Result<Response<Body>, Status> {
        let hooks = self.hooks.clone().ok_or_else(Status::path_not_found)?;
        let obj = hooks
            .computed(self, Some(name))
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| Status::not_found(self.resource.group, self.resource.plural, name))?;
        let out = self.object_rendered(obj, render);
        Ok(json_response(StatusCode::OK, &out))
    }

    /// LIST of the computed objects the selectors match.
    pub(super) async fn computed_list(
        &self,
        q: &Query,
        render: Render,
    ) -> Result<Response<Body>, Status> {
        let hooks = self.hooks.clone().ok_or_else(Status::path_not_found)?;
        let labels = LabelSelector::parse(q.get("labelSelector").unwrap_or(""))?;
        let fields = FieldSelector::parse(q.get("fieldSelector").unwrap_or(""))?;
        let items: Vec<Value> = hooks
            .computed(self, None)
            .await?
            .into_iter()
            .filter(|o| labels.matches(o) && fields.matches(o))
            .collect();
        let out = self.list_rendered(items, json!({}), render);
        Ok(json_response(StatusCode::OK, &out))
    }

    /// What a computed resource answers to anything but get and list.
    pub(super) fn computed_refusal(&self, verb: &str, method: &http::Method) -> Status {
        if verb == "watch" {
            return Status::new(
                Reason::MethodNotAllowed,
                format!(
                    "watch is not supported on resources of kind {:?}",
                    self.resource.plural
                ),
            );
        }
        Status::new(
            Reason::MethodNotAllowed,
            format!("{method} is not supported on {}", self.resource.plural),
        )
    }
}
