//! Strategic merge patch for built-in resources: kas-patch driven by the resource's
//! schema from kas-schema (merge keys and patch strategies of every field).

use kas_patch::{PatchError, PatchMeta, PatchSchema};
use kas_schema::{Elem, FieldDef, FieldKind, TypeDef};
use serde_json::Value;

use super::Resource;
use crate::status::{Reason, Status};

/// A position in a type: the type of an object, or the field holding a value.
#[derive(Clone, Copy)]
enum Pos {
    Type(&'static TypeDef),
    Field(&'static FieldDef),
}

impl PatchSchema for Pos {
    fn field(&self, name: &str) -> Option<Self> {
        match *self {
            Pos::Type(t) => t.field(name).map(Pos::Field),
            Pos::Field(f) => match f.kind {
                FieldKind::Single(Elem::Message(t)) => t.field(name).map(Pos::Field),
                FieldKind::Map(Elem::Message(t)) => Some(Pos::Type(t)),
                _ => None,
            },
        }
    }

    fn element(&self) -> Option<Self> {
        match *self {
            Pos::Field(FieldDef {
                kind: FieldKind::List(Elem::Message(t)),
                ..
            }) => Some(Pos::Type(t)),
            _ => None,
        }
    }

    fn patch_meta(&self) -> Result<PatchMeta, PatchError> {
        match *self {
            Pos::Field(f) => PatchMeta::parse(f.patch_strategy, f.patch_merge_key),
            Pos::Type(_) => Ok(PatchMeta::default()),
        }
    }
}

/// `patch` applied to `obj` with the merge keys and strategies of `resource`'s type.
pub(crate) fn apply(resource: &Resource, obj: &Value, patch: &Value) -> Result<Value, Status> {
    let result = match kas_schema::type_def(resource.definition) {
        Some(def) => kas_patch::strategic_merge_patch(obj, patch, &Pos::Type(def)),
        // Untyped objects (custom resources) do not take strategic merge patches.
        None => {
            return Err(Status::new(
                Reason::UnsupportedMediaType,
                "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
            ))
        }
    };
    result.map_err(|e| {
        let reason = match e.http_status() {
            400 => Reason::BadRequest,
            422 => Reason::Invalid,
            _ => Reason::InternalError,
        };
        Status::new(reason, e.status_message())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod() -> Resource {
        Resource::new("", "v1", "pods", "pod", "Pod").definition("io.k8s.api.core.v1.Pod")
    }

    fn refusal(obj: Value, patch: Value) -> Status {
        match apply(&pod(), &obj, &patch) {
            Err(s) => s,
            Ok(v) => panic!("patch applied: {v}"),
        }
    }

    /// Issue 21: a patch list mixing element types was answered 500; every error the
    /// patch body alone causes is a 400 (422 for lists of lists) with upstream's text.
    #[test]
    fn patch_errors_are_client_errors() {
        let obj = json!({"metadata": {"name": "p", "finalizers": ["a/b"]},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
        let mixed = refusal(obj.clone(), json!({"metadata": {"finalizers": [1, "x"]}}));
        assert_eq!(mixed.reason, Reason::BadRequest);
        assert_eq!(
            mixed.message,
            "list element types are not identical: [[a/b] [1 x]]"
        );
        let keyless = refusal(
            obj.clone(),
            json!({"spec": {"containers": [{"image": "redis"}]}}),
        );
        assert_eq!(keyless.reason, Reason::BadRequest);
        assert_eq!(
            keyless.message,
            "map: map[image:redis] does not contain declared merge key: name"
        );
        let directive = refusal(obj, json!({"metadata": {"$patch": "sideways"}}));
        assert_eq!(directive.reason, Reason::BadRequest);
        let nested = refusal(
            json!({"metadata": {"finalizers": []}}),
            json!({"metadata": {"finalizers": [["a"]]}}),
        );
        assert_eq!(nested.reason, Reason::Invalid);
    }
}
