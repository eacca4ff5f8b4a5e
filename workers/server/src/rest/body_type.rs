//! Whether a request body's `apiVersion` and `kind` fit the resource it is sent to, and
//! upstream's words when they do not: a kind its scheme does not know for that version,
//! a kind that does not convert into the resource's, or another version of its kind.

use serde_json::Value;

use super::{bad_request, Resource};
use crate::status::Status;

/// Whether `obj`'s `apiVersion` and `kind` (either may be absent) fit `r`, refused as
/// upstream's decoder and create/update handlers refuse them.
pub fn check(r: &Resource, obj: &Value) -> Result<(), Status> {
    let Some(o) = obj.as_object() else {
        return Err(bad_request("the body of the request must be a JSON object"));
    };
    let api_version = r.api_version();
    let given_version = o
        .get("apiVersion")
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty());
    let kind = o
        .get("kind")
        .and_then(Value::as_str)
        .filter(|k| !k.is_empty())
        .unwrap_or(r.kind);
    // Upstream decodes first (by the body's type) and checks the version after.
    let typed = !r.definition.is_empty();
    if kind != r.kind
        || (typed
            && given_version
                .is_some_and(|v| kas_schema::kind_def_for_api_version(v, kind).is_none()))
    {
        return Err(other_kind(r, given_version, kind));
    }
    match given_version {
        Some(v) if v != api_version => Err(bad_request(format!(
            "the API version in the data ({v}) does not match the expected API version ({api_version})"
        ))),
        _ => Ok(()),
    }
}

/// A body naming another kind, refused as upstream's decoder refuses it: a kind its
/// scheme does not know for that version, or one that does not convert into ours.
/// (Custom resources, decoded without a scheme, in this server's words.)
fn other_kind(r: &Resource, api_version: Option<&str>, kind: &str) -> Status {
    let gv = api_version
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| r.api_version());
    let version = gv.rsplit('/').next().unwrap_or(&gv);
    let head = format!(
        "{kind} in version {} cannot be handled as a {}",
        crate::status::go_quote(version),
        r.kind
    );
    if r.definition.is_empty() {
        return bad_request(format!(
            "the kind in the data ({kind}) does not match the expected kind ({})",
            r.kind
        ));
    }
    match kas_schema::kind_def_for_api_version(&gv, kind) {
        None => bad_request(format!(
            "{head}: no kind {} is registered for version {} in scheme \"pkg/api/legacyscheme/scheme.go:30\"",
            crate::status::go_quote(kind),
            crate::status::go_quote(&gv)
        )),
        Some(def) => bad_request(format!(
            "{head}: converting ({}) to ({}.{}): unknown conversion",
            def.go_type(),
            internal_package(r.group),
            r.kind
        )),
    }
}

/// The Go package of a group's internal types, as a conversion error names it.
fn internal_package(group: &str) -> &str {
    match group {
        "" | "events.k8s.io" => "core",
        "internal.apiserver.k8s.io" => "apiserverinternal",
        g => g.split('.').next().unwrap_or(g),
    }
}
