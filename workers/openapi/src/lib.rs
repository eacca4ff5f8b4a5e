//! OpenAPI documents of the built-in API: `/openapi/v2` (Swagger 2.0) and `/openapi/v3`
//! (an index plus one OpenAPI 3.0 document per group version), shaped as kube-apiserver
//! shapes them so kubectl's explain, field validation and client-side apply work.
//!
//! Schemas come from `k8s-openapi` (its `schemars` implementations, Kubernetes v1.33) and
//! are post-processed to upstream's conventions; paths are generated from the list of
//! resources the caller serves ([`ApiResource`]). Nothing is generated before the first
//! request that needs it: [`Documents::new`] only stores its inputs.
//!
//! Custom resources get their documents from their CustomResourceDefinitions
//! ([`CustomDocuments`], [`custom_v3`], [`custom_v2`]).
#![forbid(unsafe_code)]

mod accept;
mod catalog;
mod custom;
mod definitions;
mod document;
mod markers;
mod params;
mod paths;
mod proto;
mod proto_v3;
mod serve;
mod wire;

pub use custom::{custom_v2, custom_v3, CustomDocuments};
pub use markers::PatchMarkers;
pub use serve::{Documents, MergedDocument};

/// One resource served by the API server, as the caller's discovery describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApiResource {
    /// API group, `""` for the core group.
    pub group: &'static str,
    /// API version, e.g. `"v1"`.
    pub version: &'static str,
    /// Kind, e.g. `"Pod"`; it selects the schema of the resource.
    pub kind: &'static str,
    /// Plural resource name used in URLs, e.g. `"pods"`.
    pub plural: &'static str,
    /// Whether the resource lives in namespaces.
    pub namespaced: bool,
    /// Verbs of the main resource: `get list create update patch delete deletecollection watch`.
    pub verbs: &'static [&'static str],
    /// Subresources, e.g. `"status"`, `"scale"`; unknown names are left out of the documents.
    pub subresources: &'static [&'static str],
}

impl ApiResource {
    /// `group/version`, or just `version` for the core group.
    pub fn group_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_owned()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The OpenAPI v3 document key: `api/v1` or `apis/<group>/<version>`.
    pub fn openapi_v3_path(&self) -> String {
        gv_doc_path(self.group, self.version)
    }

    fn has_verb(&self, verb: &str) -> bool {
        self.verbs.contains(&verb)
    }
}

/// Whether the documents have a schema for `group/version/kind` (the GA built-in kinds
/// of Kubernetes v1.33); resources of other kinds get no paths.
pub fn knows_kind(group: &str, version: &str, kind: &str) -> bool {
    catalog::find(group, version, kind).is_some()
}

/// `api/<version>` for the core group, `apis/<group>/<version>` otherwise.
fn gv_doc_path(group: &str, version: &str) -> String {
    if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    }
}

/// The Kubernetes version the schemas describe (k8s-openapi feature `v1_33`).
pub const KUBERNETES_VERSION: &str = "v1.33.0";
