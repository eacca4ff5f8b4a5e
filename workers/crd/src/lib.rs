//! CustomResourceDefinitions as the apiextensions server checks and applies them: CRD object
//! validation, structural schemas, custom resource validation, pruning, defaulting and CEL.
//!
//! Pure logic: JSON in (`serde_json::Value`), field errors out, worded as upstream so the
//! caller can turn them into a 422 `Invalid` status (`reason()`, `message()`, `field`).
//!
//! - [`validate_crd`]`(new, old)`: the rules upstream checks on CRD create (`old` = None) and
//!   update. Paths are upstream's, which come from its internal form: a schema (or
//!   subresources, printer columns) identical in every version is reported under
//!   `spec.validation.openAPIV3Schema…` (`spec.subresources…`, `spec.additionalPrinterColumns…`),
//!   otherwise under `spec.versions[i]…`. `status.storedVersions` is checked when present: call
//!   after filling it in as upstream's strategies do.
//! - [`Structural::from_json`]: parse and check a schema; [`non_structural_schema_message`]
//!   gives a stored CRD's `NonStructuralSchema` condition text.
//! - [`validate_object`]`(schema, obj, old)`: a custom resource against its schema (value
//!   checks, embedded resources, list-type set/map, `x-kubernetes-validations` via [`cel`]),
//!   with ratcheting on update. Errors are sorted by their text.
//! - [`ObjectValidator`]: the same with CEL rules compiled once, to keep per CRD version.
//! - [`prune`]`(schema, &mut obj)`: drops unknown fields, returns their paths.
//! - [`default`]`(schema, &mut obj)`: applies defaults (call after [`prune`]).
//!
//! Bad values print as upstream's for strings, numbers, booleans and null; objects and arrays
//! print as JSON where upstream prints Go syntax.
#![forbid(unsafe_code)]

pub mod cel;
mod crd;
mod crd_conversion;
mod crd_extensions;
mod crd_schema;
mod crd_version;
mod error;
mod fieldpath;
mod formats;
mod junctors;
mod names;
mod object;
mod prune;
mod ratchet;
mod rules;
mod structural;
pub mod v1beta1;
mod validate;

pub use crd::{non_structural_schema_message, validate_crd};
pub use error::{aggregate, quote, render, ErrorKind, FieldError};
pub use prune::{default, prune};
pub use rules::ObjectValidator;
pub use structural::{AdditionalProperties, Structural, ValidationRule};

/// Validates a custom resource `obj` against `schema`; `old` is the stored object on update
/// (enables transition rules, and ratcheting: errors on values unchanged from `old` are
/// dropped). The object's own `metadata` is checked by the caller. Compiles CEL rules on
/// every call: keep an [`ObjectValidator`] to validate many objects.
pub fn validate_object(
    schema: &Structural,
    obj: &serde_json::Value,
    old: Option<&serde_json::Value>,
) -> Vec<FieldError> {
    object::validate_with(schema, obj, old, &rules::CelEngine::default(), true)
}

#[cfg(test)]
mod fuzz_tests;
