//! The functions a resource plugs into the generic store, as upstream's per-resource
//! strategies: validation, defaulting, warnings, what PrepareForCreate/Update clear, and
//! the conversion of a version stored in another version's shape.

use serde_json::{json, Value};

use crate::status::StatusCause;

/// Resource-specific validation: the new object and, on update, the stored one; returns
/// the field causes of a 422 (empty when valid).
pub type Validate = fn(&Value, Option<&Value>) -> Vec<StatusCause>;

/// Resource-specific defaulting, applied to every object written (as upstream's
/// defaulting runs on decode).
pub type Defaults = fn(&mut Value);

/// For resources with no rules beyond object metadata.
pub fn no_validation(_: &Value, _: Option<&Value>) -> Vec<StatusCause> {
    Vec::new()
}

/// For resources with no defaults.
pub fn no_defaults(_: &mut Value) {}

/// What a resource's strategy warns about a valid write (WarningsOnCreate, `old` None,
/// and WarningsOnUpdate): each text goes back as a `Warning` header.
pub type Warnings = fn(&Value, Option<&Value>) -> Vec<String>;

/// For resources whose strategy never warns.
pub fn no_warnings(_: &Value, _: Option<&Value>) -> Vec<String> {
    Vec::new()
}

/// What a resource's strategies clear from a new object (PrepareForCreate, `old` None) or
/// from a write over `old` of the object (subresource `""`) or its `status`
/// (PrepareForUpdate), beyond the status/spec split: the fields of a gate that is off,
/// kept only when the stored object already has them.
pub type Prepare = fn(&mut Value, Option<&Value>, &str);

/// A strategy's CheckGracefulDelete: the grace period, in seconds, a delete of the
/// stored object with the client's `gracePeriodSeconds` (if any) gets; 0 deletes at once.
pub type GracePeriod = fn(&Value, Option<i64>) -> i64;

/// For resources whose strategy clears nothing.
pub fn no_prepare(_: &mut Value, _: Option<&Value>, _: &str) {}

/// The conversion of a version stored in another version's shape.
#[derive(Debug, Clone, Copy)]
pub struct Conversion {
    /// The stored object's apiVersion, e.g. `v1`.
    pub storage_api_version: &'static str,
    /// This version's object → the stored shape (apiVersion/kind set by the caller).
    pub to_storage: fn(&mut serde_json::Value),
    /// The stored shape → this version's object.
    pub from_storage: fn(&mut serde_json::Value),
}

impl Conversion {
    /// `obj` of this version in the stored shape, with the storage version's apiVersion.
    pub(crate) fn store_shape(&self, obj: &mut Value) {
        (self.to_storage)(obj);
        obj["apiVersion"] = json!(self.storage_api_version);
        as_go_writes(obj);
    }

    /// A stored `obj` as version `api_version`, its own.
    pub(crate) fn version_shape(&self, obj: &mut Value, api_version: &str) {
        (self.from_storage)(obj);
        obj["apiVersion"] = json!(api_version);
        as_go_writes(obj);
    }
}

/// A converted built-in object as its version's Go struct writes it: with that version's
/// always-written zero fields and without its `omitempty` zeros (autoscaling/v1's
/// `status.currentReplicas: 0` is unset in v2).
fn as_go_writes(obj: &mut Value) {
    let text = |f: &str| obj.get(f).and_then(Value::as_str).unwrap_or("");
    if let Some(def) = kas_schema::kind_def_for_api_version(text("apiVersion"), text("kind")) {
        kas_schema::fill_zero_fields(def, obj);
    }
}
