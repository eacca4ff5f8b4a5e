//! Entry points of the REST handlers' request decoders for the fuzz targets (fuzz/),
//! compiled only under `cfg(fuzzing)`: synchronous, without a store or a request.

use serde_json::Value;

use super::{decode, FieldValidation, Query, Resource, RestStore};
use crate::status::Status;

/// A create or update body sent with `content_type` (a `Content-Type` value), decoded as
/// an object of `resource` under `mode`: the object and its warnings, or the refusal.
pub fn decode_body(
    resource: &Resource,
    content_type: &str,
    body: &[u8],
    mode: FieldValidation,
) -> Result<(Value, Vec<String>), Status> {
    let json = decode::json_bytes_of(&decode::media_type_of(content_type), body)?;
    let d = decode::object_of(resource, &json, mode)?;
    Ok((d.object, d.warnings))
}

/// A PATCH body sent as `content_type` applied to `original`, an object of `resource`,
/// as the patch handler applies it (before the result is decoded by type). A server-side
/// apply goes through the field manager as manager `fuzz`, forced, at a fixed time.
pub fn patch(
    resource: &Resource,
    content_type: &str,
    original: &Value,
    body: &[u8],
) -> Result<Value, Status> {
    let (kind, patch) = decode::patch_of(&decode::media_type_of(content_type), body)?;
    if kind == decode::PatchType::Apply {
        let fields = super::managed::Fields {
            resource,
            strategy: None,
        };
        return fields.apply(
            Some(original),
            &patch,
            "fuzz",
            true,
            "",
            "2024-01-01T00:00:00Z",
        );
    }
    super::patch::apply_patch(resource, kind, original.clone(), &patch)
}

/// A DELETE body sent as `content_type`: the DeleteOptions, if any.
pub fn delete_options(content_type: &str, body: &[u8]) -> Result<Option<Value>, Status> {
    decode::delete_options_of(&decode::media_type_of(content_type), body)
}

/// The query of a LIST or WATCH checked as the handlers check it before reading:
/// selectors (of a resource with only the generic field selectors), `limit`,
/// `resourceVersion` with `resourceVersionMatch`, `timeoutSeconds`, `continue`.
pub fn list_query(query: &str) -> Result<(), Status> {
    let q = Query::parse(Some(query));
    let labels = crate::selectors::LabelSelector::parse(q.get("labelSelector").unwrap_or(""))?;
    let fields = crate::selectors::FieldSelector::parse(q.get("fieldSelector").unwrap_or(""))?;
    fields.check_fields(&["metadata.name", "metadata.namespace"], false)?;
    drop((labels, fields));
    let limit = q.int("limit")?.unwrap_or(0);
    RestStore::read_version(&q, limit > 0)?;
    q.int("timeoutSeconds")?;
    if let Some(token) = q.get("continue") {
        crate::storage::decode_continue(token)?;
    }
    Ok(())
}

/// The write options of a query (`dryRun`, `fieldValidation`, `fieldManager`).
pub fn write_query(query: &str) -> Result<FieldValidation, Status> {
    let q = Query::parse(Some(query));
    let opts = super::WriteOptions::from_query_params(&q, &http::HeaderMap::new())?;
    Ok(opts.validation)
}
