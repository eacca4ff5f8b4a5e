//! TokenRequest (`POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token`): checks the
//! request and its bound object, applies the expiration policy, and signs the token with
//! upstream's claims.

use kas_server::rest::invalid_value;
use kas_server::status::{Reason, Status};
use serde_json::{json, Map, Value};
use std::time::SystemTime;

use super::super::{bad_request, invalid, rfc3339, str_at, strings_at, unix_seconds, AUTHN_V1};
use super::TokenIssuer;

/// The expiration a TokenRequest gets when it names none.
const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;
/// The shortest expiration a TokenRequest may ask for.
const MIN_EXPIRATION_SECONDS: i64 = 600;
/// The longest expiration a TokenRequest may ask for.
const MAX_EXPIRATION_SECONDS: i64 = 1 << 32;
/// The expiration kubelet asks for by default for projected tokens; with
/// `--service-account-extend-token-expiration` such pod-bound tokens are valid for a year
/// and carry a `warnafter` at this many seconds instead.
const WARN_ONLY_EXPIRATION_SECONDS: i64 = 3607;
/// The extended lifetime of those tokens.
const EXTENDED_EXPIRATION_SECONDS: i64 = 365 * 24 * 3600;

impl TokenIssuer {
    /// Handles a TokenRequest for the ServiceAccount `input.service_account`.
    pub(crate) fn token_request(
        &self,
        input: &TokenRequestInput<'_>,
    ) -> Result<TokenResponse, Status> {
        let body = input.body;
        if !body.is_object() {
            return Err(bad_request(
                "the body of a TokenRequest must be a JSON object",
            ));
        }
        let object_ns = str_at(body, "/metadata/namespace");
        if !object_ns.is_empty() && object_ns != input.namespace {
            return Err(bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        let sa = input.service_account;
        let sa_name = str_at(sa, "/metadata/name");
        let sa_uid = str_at(sa, "/metadata/uid");
        let ns = input.namespace;

        let expiration = match body.pointer("/spec/expirationSeconds") {
            None | Some(Value::Null) => DEFAULT_EXPIRATION_SECONDS,
            Some(v) => v.as_i64().ok_or_else(|| {
                bad_request(format!(
                    "TokenRequest in version \"v1\" cannot be handled as a TokenRequest: spec.expirationSeconds: expected an integer, got {v}"
                ))
            })?,
        };
        let why = if expiration < MIN_EXPIRATION_SECONDS {
            Some("may not specify a duration less than 10 minutes")
        } else if expiration > MAX_EXPIRATION_SECONDS {
            Some("may not specify a duration larger than 2^32 seconds")
        } else {
            None
        };
        if let Some(why) = why {
            return Err(invalid(
                "authentication.k8s.io",
                "TokenRequest",
                "",
                vec![invalid_value(
                    "spec.expirationSeconds",
                    &expiration.to_string(),
                    why,
                )],
            ));
        }
        let mut audiences = strings_at(body, "/spec/audiences");
        if audiences.is_empty() {
            audiences = self.api_audiences.clone();
        }

        let mut kube = Map::new();
        kube.insert("namespace".into(), json!(ns));
        kube.insert(
            "serviceaccount".into(),
            json!({"name": sa_name, "uid": sa_uid}),
        );
        let bound = bound_object(input, sa_name, &mut kube)?;
        let bound_to_pod = bound == Some(BoundKind::Pod);

        let mut warnings = Vec::new();
        let mut granted = expiration;
        if let Some(max) = self.max_expiration {
            let max = i64::try_from(max.as_secs()).unwrap_or(i64::MAX);
            if granted > max {
                warnings.push(format!(
                    "requested expiration of {granted} seconds shortened to {max} seconds"
                ));
                granted = max;
            }
        }
        let now = unix_seconds(input.now);
        let mut lifetime = granted;
        if self.extend_expiration
            && bound_to_pod
            && granted == WARN_ONLY_EXPIRATION_SECONDS
            && audiences.iter().any(|a| self.api_audiences.contains(a))
        {
            kube.insert("warnafter".into(), json!(now + granted));
            lifetime = EXTENDED_EXPIRATION_SECONDS;
        }

        let claims = json!({
            "iss": self.issuers.first().cloned().unwrap_or_default(),
            "sub": format!("system:serviceaccount:{ns}:{sa_name}"),
            "aud": audiences,
            "exp": now + lifetime,
            "iat": now,
            "nbf": now,
            "jti": uuid::Uuid::new_v4().to_string(),
            "kubernetes.io": Value::Object(kube),
        });
        let token = self.sign(&claims)?;

        let mut out = body.clone();
        if let Some(obj) = out.as_object_mut() {
            obj.insert("apiVersion".into(), json!(AUTHN_V1));
            obj.insert("kind".into(), json!("TokenRequest"));
            // Upstream returns the request's own metadata, in the request's namespace.
            let mut meta = body
                .get("metadata")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            meta.insert("namespace".into(), json!(ns));
            meta.entry("creationTimestamp").or_insert(Value::Null);
            obj.insert("metadata".into(), Value::Object(meta));
            let mut spec = body
                .get("spec")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            spec.insert("audiences".into(), json!(audiences));
            spec.insert("expirationSeconds".into(), json!(granted));
            spec.entry("boundObjectRef").or_insert(Value::Null);
            obj.insert("spec".into(), Value::Object(spec));
            obj.insert(
                "status".into(),
                json!({"token": token, "expirationTimestamp": rfc3339(now + granted)}),
            );
        }
        Ok(TokenResponse {
            object: out,
            warnings,
        })
    }

    /// The object a TokenRequest body binds its token to, as `(kind, name)`, for the caller
    /// to fetch before calling [`TokenIssuer::token_request`]: `Pod` and `Secret` live in
    /// the request's namespace, `Node` is cluster-scoped. For a Pod the caller also fetches
    /// the Node named in its `spec.nodeName`, when set.
    pub(crate) fn bound_object_ref(body: &Value) -> Option<(String, String)> {
        let r = body.pointer("/spec/boundObjectRef")?.as_object()?;
        let kind = r.get("kind")?.as_str()?;
        let name = r.get("name").and_then(Value::as_str).unwrap_or("");
        Some((kind.to_owned(), name.to_owned()))
    }
}

/// What a TokenRequest asks for and what the caller fetched for it.
pub(crate) struct TokenRequestInput<'a> {
    /// The namespace of the request path.
    pub(crate) namespace: &'a str,
    /// The ServiceAccount the path names.
    pub(crate) service_account: &'a Value,
    /// The TokenRequest body.
    pub(crate) body: &'a Value,
    /// The object `spec.boundObjectRef` names (see [`TokenIssuer::bound_object_ref`]);
    /// `None` when it does not exist.
    pub(crate) bound_object: Option<&'a Value>,
    /// For a Pod-bound token, the Node the Pod runs on, when it exists.
    pub(crate) pod_node: Option<&'a Value>,
    /// The current time.
    pub(crate) now: SystemTime,
}

/// A TokenRequest's answer: the object (201) and the warnings to send with it.
#[derive(Debug, Clone)]
pub(crate) struct TokenResponse {
    /// The TokenRequest with its status.
    pub(crate) object: Value,
    /// `Warning` headers.
    pub(crate) warnings: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BoundKind {
    Pod,
    Secret,
    Node,
}

/// Checks `spec.boundObjectRef` against the fetched object and records it in the private
/// claims.
fn bound_object(
    input: &TokenRequestInput<'_>,
    sa_name: &str,
    kube: &mut Map<String, Value>,
) -> Result<Option<BoundKind>, Status> {
    let Some(r) = input.body.pointer("/spec/boundObjectRef") else {
        return Ok(None);
    };
    if r.is_null() {
        return Ok(None);
    }
    let kind = str_at(r, "/kind");
    let api_version = str_at(r, "/apiVersion");
    let name = str_at(r, "/name");
    let uid = str_at(r, "/uid");
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let bound = match (group, version, kind) {
        ("", "v1", "Pod") => BoundKind::Pod,
        ("", "v1", "Secret") => BoundKind::Secret,
        ("", "v1", "Node") => BoundKind::Node,
        _ => {
            return Err(bad_request(format!(
                "cannot bind token to object of type {group}/{version}, Kind={kind}"
            )))
        }
    };
    let resource = match bound {
        BoundKind::Pod => "pods",
        BoundKind::Secret => "secrets",
        BoundKind::Node => "nodes",
    };
    let Some(object) = input.bound_object else {
        return Err(Status::not_found("", resource, name));
    };
    let actual_uid = str_at(object, "/metadata/uid");
    if !uid.is_empty() && uid != actual_uid {
        return Err(Status::new(
            Reason::Conflict,
            format!(
                "Operation cannot be fulfilled on {kind} {name:?}: the UID in the bound object reference ({uid}) does not match the UID in record. The object might have been deleted and then recreated"
            ),
        ));
    }
    let reference = json!({"name": name, "uid": actual_uid});
    match bound {
        BoundKind::Pod => {
            if str_at(object, "/spec/serviceAccountName") != sa_name {
                return Err(bad_request(format!(
                    "cannot bind token for serviceaccount {sa_name:?} to pod running with different serviceaccount name."
                )));
            }
            kube.insert("pod".into(), reference);
            let node_name = str_at(object, "/spec/nodeName");
            if !node_name.is_empty() {
                let node_uid = input
                    .pod_node
                    .map(|n| str_at(n, "/metadata/uid"))
                    .unwrap_or("");
                let mut node = json!({"name": node_name});
                if !node_uid.is_empty() {
                    node["uid"] = json!(node_uid);
                }
                kube.insert("node".into(), node);
            }
        }
        BoundKind::Secret => {
            kube.insert("secret".into(), reference);
        }
        BoundKind::Node => {
            kube.insert("node".into(), reference);
        }
    }
    Ok(Some(bound))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{issuer_with, request, sa, token_of};
    use super::*;
    use std::time::Duration;

    #[test]
    fn expiration_limits() {
        let issuer = issuer_with(Some(Duration::from_secs(7200)));
        let now = SystemTime::now();
        let e = request(&issuer, json!({"spec": {"expirationSeconds": 599}}), now)
            .expect_err("too short");
        assert_eq!(e.code(), 422);
        assert!(e
            .message
            .starts_with("TokenRequest.authentication.k8s.io \"\" is invalid: "));
        assert!(e.message.contains("spec.expirationSeconds: Invalid value: \"599\": may not specify a duration less than 10 minutes"), "{}", e.message);
        let e = request(
            &issuer,
            json!({"spec": {"expirationSeconds": 1i64 << 33}}),
            now,
        )
        .expect_err("too long");
        assert!(e.message.contains("2^32 seconds"));
        let r =
            request(&issuer, json!({"spec": {"expirationSeconds": 86400}}), now).expect("capped");
        assert_eq!(r.object["spec"]["expirationSeconds"], 7200);
        assert_eq!(
            r.warnings,
            ["requested expiration of 86400 seconds shortened to 7200 seconds"]
        );
        assert!(request(&issuer, json!({"spec": {"expirationSeconds": "x"}}), now).is_err());
        assert!(request(&issuer, json!([1]), now).is_err());
    }

    #[test]
    fn pod_bound_tokens() {
        let issuer = issuer_with(None);
        let now = SystemTime::now();
        let sa = sa();
        let pod = json!({"metadata": {"name": "p", "uid": "pod-uid"},
            "spec": {"serviceAccountName": "builder", "nodeName": "n1"}});
        let node = json!({"metadata": {"name": "n1", "uid": "node-uid"}});
        let body = json!({"spec": {"expirationSeconds": 3607,
            "boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": "p", "uid": "pod-uid"}}});
        assert_eq!(
            TokenIssuer::bound_object_ref(&body),
            Some(("Pod".into(), "p".into()))
        );
        let ask = |bound: Option<&Value>, node: Option<&Value>| {
            issuer.token_request(&TokenRequestInput {
                namespace: "ci",
                service_account: &sa,
                body: &body,
                bound_object: bound,
                pod_node: node,
                now,
            })
        };
        let r = ask(Some(&pod), Some(&node)).expect("token");
        assert_eq!(r.object["spec"]["expirationSeconds"], 3607);
        let (claims, _) = issuer
            .verify(&token_of(&r), &[], now)
            .expect("valid")
            .expect("ours");
        let k = &claims["kubernetes.io"];
        assert_eq!(k["pod"], json!({"name": "p", "uid": "pod-uid"}));
        assert_eq!(k["node"], json!({"name": "n1", "uid": "node-uid"}));
        assert_eq!(k["warnafter"].as_i64(), Some(unix_seconds(now) + 3607));
        assert_eq!(
            claims["exp"].as_i64(),
            Some(unix_seconds(now) + EXTENDED_EXPIRATION_SECONDS)
        );

        assert_eq!(ask(None, None).expect_err("missing").code(), 404);
        let other = json!({"metadata": {"uid": "x"}, "spec": {"serviceAccountName": "builder"}});
        assert_eq!(ask(Some(&other), None).expect_err("uid").code(), 409);
        let wrong_sa =
            json!({"metadata": {"uid": "pod-uid"}, "spec": {"serviceAccountName": "default"}});
        assert_eq!(ask(Some(&wrong_sa), None).expect_err("sa").code(), 400);
    }

    #[test]
    fn metadata_and_namespace() {
        let issuer = issuer_with(None);
        let now = SystemTime::now();
        let r = request(&issuer, json!({"metadata": {"name": "x"}}), now).expect("token");
        assert_eq!(
            r.object["metadata"],
            json!({"name": "x", "namespace": "ci", "creationTimestamp": null})
        );
        assert_eq!(r.object["spec"]["boundObjectRef"], Value::Null);
        let e = request(&issuer, json!({"metadata": {"namespace": "other"}}), now)
            .expect_err("namespace");
        assert_eq!(e.code(), 400);
    }

    #[test]
    fn unsupported_bound_kind() {
        let issuer = issuer_with(None);
        let body = json!({"spec": {"boundObjectRef": {"kind": "ConfigMap", "apiVersion": "v1", "name": "c"}}});
        let e = request(&issuer, body, SystemTime::now()).expect_err("kind");
        assert_eq!(
            e.message,
            "cannot bind token to object of type /v1, Kind=ConfigMap"
        );
    }
}
