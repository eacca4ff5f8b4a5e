//! The REST paths and operations of each served resource, as upstream names and shapes
//! them (operation ids, actions, GVKs, parameters, bodies, responses), independent of the
//! OpenAPI version they are rendered in.

use crate::catalog;
use crate::params::Param;

mod custom;
mod resource;

pub(crate) use custom::{for_custom_resource, CustomResource};
pub(crate) use resource::for_resource;

/// An HTTP method of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Method {
    Get,
    Put,
    Post,
    Delete,
    Patch,
}

impl Method {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Method::Get => "get",
            Method::Put => "put",
            Method::Post => "post",
            Method::Delete => "delete",
            Method::Patch => "patch",
        }
    }
}

/// The request body of an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    None,
    /// A definition; `required` unless the body may be left out (DeleteOptions).
    Object {
        definition: String,
        required: bool,
    },
    /// A patch in any of the four patch media types.
    Patch,
    /// A patch of a custom resource: JSON, merge or apply patch (custom resources have no
    /// strategic merge patch).
    CustomPatch,
}

/// What a successful response carries, which decides its media types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Produces {
    /// One object.
    Object,
    /// A list, which can also be watched with `?watch=true`.
    List,
    /// A stream of watch events.
    Watch,
}

/// One operation of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Operation {
    pub(crate) method: Method,
    pub(crate) id: String,
    pub(crate) description: String,
    /// `x-kubernetes-action`, absent on discovery operations.
    pub(crate) action: Option<&'static str>,
    /// `x-kubernetes-group-version-kind` as (group, version, kind).
    pub(crate) gvk: Option<(String, String, String)>,
    pub(crate) tag: String,
    pub(crate) params: Vec<Param>,
    pub(crate) body: Body,
    /// Status codes with the definition they return (`None`: no body).
    pub(crate) responses: Vec<(u16, Option<String>)>,
    pub(crate) produces: Produces,
}

/// One path with its operations and path-level parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PathItem {
    pub(crate) path: String,
    pub(crate) params: Vec<Param>,
    pub(crate) operations: Vec<Operation>,
}

/// `apps` → `Apps`, `rbac.authorization.k8s.io` → `RbacAuthorization`, `` → `Core`.
pub(crate) fn group_camel(group: &str) -> String {
    if group.is_empty() {
        return "Core".to_owned();
    }
    let trimmed = group.strip_suffix(".k8s.io").unwrap_or(group);
    trimmed.split(['.', '-']).map(capitalize).collect()
}

/// The OpenAPI tag of a group (`core`, `rbacAuthorization`) or group version (`apps_v1`).
pub(crate) fn tag(group: &str, version: Option<&str>) -> String {
    let camel = group_camel(group);
    let mut chars = camel.chars();
    let lower: String = match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    };
    match version {
        Some(version) => format!("{lower}_{version}"),
        None => lower,
    }
}

pub(crate) fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// URL prefix of a group version: `/api/v1` or `/apis/<group>/<version>`.
pub(crate) fn gv_prefix(group: &str, version: &str) -> String {
    format!("/{}", crate::gv_doc_path(group, version))
}

fn discovery(
    path: String,
    id: String,
    description: &str,
    tag: String,
    definition: &str,
) -> PathItem {
    PathItem {
        path,
        params: Vec::new(),
        operations: vec![Operation {
            method: Method::Get,
            id,
            description: description.to_owned(),
            action: None,
            gvk: None,
            tag,
            params: Vec::new(),
            body: Body::None,
            responses: vec![(200, Some(definition.to_owned()))],
            produces: Produces::Object,
        }],
    }
}

/// `GET /api/v1/` or `GET /apis/<group>/<version>/`: the group version's resources.
pub(crate) fn discovery_gv(group: &str, version: &str) -> PathItem {
    discovery(
        format!("{}/", gv_prefix(group, version)),
        format!(
            "get{}{}APIResources",
            group_camel(group),
            capitalize(version)
        ),
        "get available resources",
        tag(group, Some(version)),
        catalog::API_RESOURCE_LIST,
    )
}

/// `GET /apis/<group>/`: the group's versions.
pub(crate) fn discovery_group(group: &str) -> PathItem {
    discovery(
        format!("/apis/{group}/"),
        format!("get{}APIGroup", group_camel(group)),
        "get information of a group",
        tag(group, None),
        catalog::API_GROUP,
    )
}

/// `GET /api/`: the core group's versions.
pub(crate) fn discovery_core() -> PathItem {
    discovery(
        "/api/".into(),
        "getCoreAPIVersions".into(),
        "get available API versions",
        "core".into(),
        catalog::API_VERSIONS,
    )
}

/// `GET /apis/`: every group.
pub(crate) fn discovery_apis() -> PathItem {
    discovery(
        "/apis/".into(),
        "getAPIVersions".into(),
        "get available API versions",
        "apis".into(),
        catalog::API_GROUP_LIST,
    )
}
