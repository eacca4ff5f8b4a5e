//! Legacy discovery documents (`/api`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`).

use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue, Response};
use serde_json::{json, Value};

use crate::body::{self, Body};
use crate::encode::{self, Prepared};
use crate::negotiate::{self, Conversion};

/// An API group and the versions it serves, preferred first.
#[derive(Debug, Clone, Copy)]
pub struct GroupVersions {
    /// The group name.
    pub name: &'static str,
    /// Served versions, the preferred one first.
    pub versions: &'static [&'static str],
}

/// `metav1.APIVersions` for `/api`.
pub fn api_versions(versions: &[&str], server_address: &str) -> Value {
    json!({
        "kind": "APIVersions",
        "versions": versions,
        "serverAddressByClientCIDRs": [
            {"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}
        ],
    })
}

/// `metav1.APIGroup` for one group.
pub fn group(g: &GroupVersions) -> Value {
    let versions: Vec<Value> = g
        .versions
        .iter()
        .map(|v| json!({"groupVersion": format!("{}/{v}", g.name), "version": v}))
        .collect();
    let preferred = versions.first().cloned().unwrap_or(Value::Null);
    json!({
        "kind": "APIGroup",
        "apiVersion": "v1",
        "name": g.name,
        "versions": versions,
        "preferredVersion": preferred,
    })
}

/// `metav1.APIGroupList` for `/apis`.
pub fn group_list(groups: &[GroupVersions]) -> Value {
    let groups: Vec<Value> = groups
        .iter()
        .map(|g| {
            let mut v = group(g);
            if let Some(o) = v.as_object_mut() {
                o.remove("kind");
                o.remove("apiVersion");
            }
            v
        })
        .collect();
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// `metav1.APIResourceList` for a group version with no resources served yet.
pub fn resource_list(group_version: &str) -> Value {
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": [],
    })
}

/// A 200 JSON response.
pub fn json(value: &Value) -> Response<Body> {
    let mut resp = Response::new(body::full(value.to_string()));
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

/// The media type of aggregated discovery (apidiscovery.k8s.io/v2).
pub const AGGREGATED_CONTENT_TYPE: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// Answers a discovery GET with `plain`, or with `aggregated` (at `/api` and `/apis`)
/// when the client asks for aggregated discovery, in the negotiated media type; 406 when
/// neither is acceptable (as for `v=v2beta1` alone: kube-apiserver v1.33 no longer serves
/// the beta).
pub fn respond(
    headers: &HeaderMap,
    plain: &Prepared,
    aggregated: Option<&Prepared>,
) -> Response<Body> {
    match negotiate::discovery(headers, encode::media(), aggregated.is_some()) {
        Err(status) => status.into_response(),
        Ok(n) => match (n.conversion, aggregated) {
            (Conversion::AggregatedDiscovery, Some(list)) => {
                list.respond_cached(headers, n.media, AGGREGATED_PARAMS)
            }
            _ => plain.respond(n.media, ""),
        },
    }
}

/// The parameters of aggregated discovery's media type, in upstream's order.
const AGGREGATED_PARAMS: &str = ";g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// One group of an APIGroupDiscoveryList: its versions, preferred first, each with the
/// aggregated entries of its resources.
pub fn aggregated_group(name: &str, versions: Vec<(&str, Vec<Value>)>) -> Value {
    let versions: Vec<Value> = versions
        .into_iter()
        .map(|(v, resources)| json!({"version": v, "resources": resources, "freshness": "Current"}))
        .collect();
    json!({"metadata": {"name": name, "creationTimestamp": null}, "versions": versions})
}

/// An APIGroupDiscoveryList of `groups`.
pub fn aggregated_list(groups: Vec<Value>) -> Value {
    json!({
        "kind": "APIGroupDiscoveryList",
        "apiVersion": "apidiscovery.k8s.io/v2",
        "metadata": {},
        "items": groups,
    })
}

/// Kubernetes' version priority: GA > beta > alpha > other, higher numbers first.
fn version_rank(v: &str) -> (u8, u32, u32, &str) {
    let Some(rest) = v.strip_prefix('v') else {
        return (0, 0, 0, v);
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let Ok(major) = rest[..digits].parse::<u32>() else {
        return (0, 0, 0, v);
    };
    let tail = &rest[digits..];
    if tail.is_empty() {
        return (3, major, 0, "");
    }
    for (prefix, rank) in [("beta", 2u8), ("alpha", 1u8)] {
        if let Some(n) = tail.strip_prefix(prefix) {
            if let Ok(minor) = n.parse::<u32>() {
                return (rank, major, minor, "");
            }
        }
    }
    (0, 0, 0, v)
}

/// Orders two API versions most preferred first (`v2` < `v1` < `v1beta1` < `v1alpha1`
/// < others by name), as Kubernetes sorts a group's versions.
pub fn compare_versions(a: &str, b: &str) -> std::cmp::Ordering {
    let (ra, rb) = (version_rank(a), version_rank(b));
    rb.0.cmp(&ra.0)
        .then(rb.1.cmp(&ra.1))
        .then(rb.2.cmp(&ra.2))
        .then(ra.3.cmp(rb.3))
}
