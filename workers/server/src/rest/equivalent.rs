//! A resource's equivalents (the other versions and groups stored under the same key
//! path: events.k8s.io/v1 and core/v1 Events, autoscaling/v1 and v2 HPAs, the versions
//! of a custom resource) and the conversion of an object between them, offered to
//! admission ([`crate::admission::Versions`]) for `matchPolicy: Equivalent`.
//!
//! Built-in versions convert through the stored shape (this version's `to_storage`,
//! then the other's `from_storage`); custom resources through their CRD's converter
//! (the conversion webhook), or by the apiVersion alone (strategy None).

use std::sync::Arc;

use serde_json::{json, Value};

use super::{HookFuture, Resource, RestStore};
use crate::admission::Versions;
use crate::status::Status;

impl RestStore {
    /// The same store with `all`'s members sharing its key path as its equivalents
    /// (itself left out), in the order given.
    pub fn with_equivalents(mut self, all: &[Resource]) -> RestStore {
        self.equivalents = Arc::from(equivalents_of(&self.resource, all));
        self
    }

    async fn convert_between(
        &self,
        obj: Value,
        from: &Resource,
        to: &Resource,
    ) -> Result<Value, Status> {
        let same = from.group == to.group && from.version == to.version;
        // A subresource's own kind (Scale, Eviction) is the same in every version.
        let kind = obj.get("kind").and_then(Value::as_str).unwrap_or(from.kind);
        if same || !obj.is_object() || kind != from.kind {
            return Ok(obj);
        }
        if let Some(conv) = self.converter() {
            let mut obj = obj;
            obj["apiVersion"] = json!(from.api_version());
            obj["kind"] = json!(from.kind);
            let mut out = conv
                .convert(vec![obj], &to.api_version(), false)
                .await
                .map_err(Status::internal)?;
            return match (out.pop(), out.is_empty()) {
                (Some(o), true) => Ok(o),
                _ => Err(Status::internal("conversion returned no object")),
            };
        }
        Ok(through_storage(obj, from, to))
    }
}

/// The members of `all` stored under `own`'s key path, `own` left out.
fn equivalents_of(own: &Resource, all: &[Resource]) -> Vec<Resource> {
    all.iter()
        .filter(|r| r.key_path == own.key_path)
        .filter(|r| !(r.group == own.group && r.version == own.version))
        .copied()
        .collect()
}

/// A built-in object converted from `from` to `to` through the stored shape.
fn through_storage(mut o: Value, from: &Resource, to: &Resource) -> Value {
    if let Some(c) = from.conversion {
        c.store_shape(&mut o);
    }
    o["kind"] = json!(to.kind);
    match to.conversion {
        Some(c) => c.version_shape(&mut o, &to.api_version()),
        None => o["apiVersion"] = json!(to.api_version()),
    }
    o
}

impl Versions for RestStore {
    fn equivalents(&self) -> &[Resource] {
        &self.equivalents
    }

    fn convert<'a>(
        &'a self,
        obj: Value,
        from: &'a Resource,
        to: &'a Resource,
    ) -> HookFuture<'a, Result<Value, Status>> {
        Box::pin(self.convert_between(obj, from, to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rest::Conversion;

    fn to_v2(v: &mut Value) {
        if let Some(x) = v["spec"].as_object_mut().and_then(|s| s.remove("old")) {
            v["spec"]["new"] = x;
        }
    }
    fn from_v2(v: &mut Value) {
        if let Some(x) = v["spec"].as_object_mut().and_then(|s| s.remove("new")) {
            v["spec"]["old"] = x;
        }
    }

    const V2: Resource = Resource::new("g", "v2", "things", "thing", "Thing");
    const V1: Resource =
        Resource::new("g", "v1", "things", "thing", "Thing").converted(Conversion {
            storage_api_version: "g/v2",
            to_storage: to_v2,
            from_storage: from_v2,
        });
    const OTHER: Resource = Resource::new("g", "v1", "others", "other", "Other");

    #[test]
    fn converts_through_the_stored_shape() {
        let names: Vec<_> = equivalents_of(&V1, &[V2, V1, OTHER])
            .iter()
            .map(|r| r.version)
            .collect();
        assert_eq!(names, ["v2"]);
        let obj = json!({"apiVersion": "g/v1", "kind": "Thing", "spec": {"old": 1}});
        let v2 = through_storage(obj.clone(), &V1, &V2);
        assert_eq!(
            v2,
            json!({"apiVersion": "g/v2", "kind": "Thing", "spec": {"new": 1}})
        );
        assert_eq!(through_storage(v2, &V2, &V1), obj);
    }
}
