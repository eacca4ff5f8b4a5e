//! Entry points for the fuzz targets (`fuzz/`), compiled only with `--cfg fuzzing`: the
//! CRD's create path and a custom resource's, as the REST store runs them on a decoded
//! body, and the check of a conversion webhook's answer.

use kas_server::rest::invalid;
use kas_server::status::Status;
use serde_json::Value;

/// A CRD created from `crd` (already decoded): upstream's defaults, then validation; a
/// refusal is the 422 the client gets.
pub fn create_crd(mut crd: Value) -> Result<Value, Status> {
    (crate::crd::CRDS.defaults)(&mut crd);
    let causes = (crate::crd::CRDS.validate)(&crd, None);
    if causes.is_empty() {
        return Ok(crd);
    }
    let name = crd
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    Err(invalid(
        "apiextensions.k8s.io",
        "CustomResourceDefinition",
        name,
        causes,
    ))
}

/// A custom resource written against `schema` (a version's `openAPIV3Schema` of an
/// accepted CRD), as the store's custom strategy handles it: pruned, defaulted, then
/// validated (with `old` on update); a refusal is the 422 the client gets. `None` when
/// the schema is not structural (such a version is served without one).
pub fn write_custom(
    schema: &Value,
    mut obj: Value,
    old: Option<&Value>,
) -> Option<Result<Value, Status>> {
    let structural = kas_crd::Structural::from_json(schema).ok()?;
    let validator = kas_crd::ObjectValidator::new(structural);
    kas_crd::prune(validator.schema(), &mut obj);
    kas_crd::default(validator.schema(), &mut obj);
    let causes = crate::crd::causes(validator.validate(&obj, old));
    if causes.is_empty() {
        return Some(Ok(obj));
    }
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    Some(Err(invalid("example.com", "Widget", name, causes)))
}

/// What the store makes of a conversion webhook's `answer` to the review `uid` (sent as
/// `review_version`) converting `objects` to `api_version`: the converted objects, or
/// the message of the 500 the client gets.
pub fn conversion_answer(
    review_version: &str,
    uid: &str,
    objects: &[Value],
    api_version: &str,
    answer: Value,
) -> Result<Vec<Value>, String> {
    let list = objects.len() != 1;
    crate::conversion::answered(
        review_version,
        uid,
        "example.com/v1, Kind=Widget",
        objects,
        api_version,
        list,
        answer,
    )
}
