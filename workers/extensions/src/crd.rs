//! The CustomResourceDefinition resource itself: its place in the API, defaulting as
//! upstream's, and validation by kas-crd (names, versions, structural schemas, extension
//! and CEL rules), each failure a 422 with field paths.

use kas_server::rest::{Conversion, Resource};
use kas_server::status::StatusCause;
use serde_json::{json, Value};

/// The finalizer that holds a CRD until its custom resources are deleted.
pub(crate) const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// `apiextensions.k8s.io/v1` customresourcedefinitions.
pub(crate) const CRDS: Resource = Resource::new(
    "apiextensions.k8s.io",
    "v1",
    "customresourcedefinitions",
    "customresourcedefinition",
    "CustomResourceDefinition",
)
.cluster()
.key_path("apiextensions.k8s.io/customresourcedefinitions")
.short(&["crd", "crds"])
.categories(&["api-extensions"])
.subresources(&["status"])
.definition("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition")
.generation()
.delete_finalizer(CLEANUP_FINALIZER)
.converted(STORAGE)
.strategy(defaults, validate);

/// CRDs are stored as v1beta1, as kube-apiserver stores them.
const STORAGE: Conversion = Conversion {
    storage_api_version: kas_crd::v1beta1::STORAGE_API_VERSION,
    to_storage: kas_crd::v1beta1::to_storage,
    from_storage: kas_crd::v1beta1::from_storage,
};

/// Upstream's defaults for a v1 CRD, and on create the initial status (stored
/// versions). The cleanup finalizer comes with the first delete.
fn defaults(crd: &mut Value) {
    let Some(spec) = crd.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    if spec.pointer("/conversion/strategy").is_none() {
        spec["conversion"] = json!({"strategy": "None"});
    }
    if let Some(names) = spec.get_mut("names").filter(|n| n.is_object()) {
        let kind = names
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if names
            .get("singular")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
            && !kind.is_empty()
        {
            names["singular"] = json!(kind.to_lowercase());
        }
        if names
            .get("listKind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
            && !kind.is_empty()
        {
            names["listKind"] = json!(format!("{kind}List"));
        }
    }
    let storage = spec
        .get("versions")
        .and_then(Value::as_array)
        .and_then(|vs| {
            vs.iter()
                .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
        })
        .and_then(|v| v.get("name"))
        .cloned();
    // Create: the status starts with the storage version.
    let creating = crd.pointer("/metadata/resourceVersion").is_none()
        && crd.pointer("/status/storedVersions").is_none();
    if creating {
        if let Some(storage) = storage {
            crd["status"] = json!({
                "conditions": null,
                "acceptedNames": {"kind": "", "plural": ""},
                "storedVersions": [storage],
            });
        }
    }
}

fn validate(crd: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    causes(kas_crd::validate_crd(crd, old))
}

/// kas-crd's field errors as the causes of a 422.
pub(crate) fn causes(errors: Vec<kas_crd::FieldError>) -> Vec<StatusCause> {
    errors
        .into_iter()
        .map(|e| StatusCause {
            reason: e.reason().to_owned(),
            message: e.message(),
            field: e.field,
        })
        .collect()
}
