//! Legacy discovery documents (`/api`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`).

use http::header::CONTENT_TYPE;
use http::{HeaderValue, Response};
use serde_json::{json, Value};

use crate::body::{self, Body};

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
