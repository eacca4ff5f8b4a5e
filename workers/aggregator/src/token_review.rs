//! `POST /apis/authentication.k8s.io/v1/tokenreviews`, answered at the front door, which
//! holds every token authenticator (upstream answers TokenReview with the whole token
//! union, not only service account tokens). The request goes to the kube-api worker
//! first, as before: it decodes the body (JSON, YAML or protobuf), refuses bad input
//! with its Status errors, and reviews service account and bootstrap tokens (it holds
//! the keys and the Secrets). Its answer is then the union's verdict on the token for
//! `spec.audiences` (the API audiences when empty), written in the media type the client
//! accepts.

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_LENGTH};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Limited};
use kas_proto::{RequestContext, RequestInfo, UserInfo, WorkerRole};
use kas_server::body::{self, Body};
use kas_server::delegate::UNHANDLED_HEADER;
use kas_server::encode;
use kas_server::negotiate::{self, Conversion};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

use crate::front::Front;
use crate::token_union::{self, strings, TokenVerdict};

/// The largest request body (kube-apiserver's limit), and the largest answer read from
/// the kube-api worker (a TokenReview echoes the token).
const MAX_BODY: usize = 3 << 20;
const MAX_ANSWER: usize = 3 << 20;

/// What the bearer token authenticator says when no token authenticator had an opinion.
const INVALID_TOKEN: &str = "invalid bearer token";

/// Whether the request is a TokenReview this module answers.
pub(crate) fn is_token_review(method: &Method, info: &RequestInfo) -> bool {
    method == Method::POST
        && info.is_resource_request
        && info.api_group == "authentication.k8s.io"
        && info.api_version == "v1"
        && info.resource == "tokenreviews"
        && info.subresource.is_empty()
        && info.name.is_empty()
        && info.namespace.is_empty()
}

/// Answers a TokenReview.
pub(crate) async fn answer(
    front: &Front,
    ctx: &RequestContext,
    req: Request<Body>,
) -> Response<Body> {
    let client_headers = req.headers().clone();
    let media = match negotiate::negotiate(&client_headers, encode::media(), |_, c| {
        c == Conversion::None
    }) {
        Ok(n) => n.media,
        Err(status) => return status.into_negotiated(&client_headers),
    };
    let (mut parts, incoming) = req.into_parts();
    let sent: Bytes = match body::read_limited(incoming, MAX_BODY).await {
        Ok(bytes) => bytes,
        Err(e) => {
            let status = match e {
                body::ReadError::TooLarge(_) => Status::new(
                    Reason::RequestEntityTooLarge,
                    "Request entity too large: limit is 3145728",
                ),
                body::ReadError::Failed(e) => {
                    Status::new(Reason::BadRequest, format!("reading the request body: {e}"))
                }
            };
            return status.into_negotiated(&client_headers);
        }
    };
    if let Err(status) = check_type(&parts.headers, &sent) {
        return status.into_negotiated(&client_headers);
    }
    parts
        .headers
        .insert(ACCEPT, HeaderValue::from_static("application/json"));
    let resp = match crate::director::send(front, WorkerRole::KubeApi, ctx, parts, body::full(sent))
        .await
    {
        Ok(resp) => resp,
        Err(status) => return status.into_negotiated(&client_headers),
    };
    let (mut head, incoming) = resp.into_parts();
    head.headers.remove(UNHANDLED_HEADER);
    let bytes: Bytes = match Limited::new(incoming, MAX_ANSWER).collect().await {
        Ok(c) => c.to_bytes(),
        Err(e) => {
            return Status::internal(format!("reading the TokenReview answer: {e}"))
                .into_negotiated(&client_headers)
        }
    };
    if head.status != StatusCode::CREATED {
        // The worker's Status (bad input, say), in the client's media type.
        head.headers.remove(CONTENT_LENGTH);
        return encode::encode(Response::from_parts(head, body::full(bytes)), media).await;
    }
    let reviewed: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return Status::internal(format!("decoding the TokenReview answer: {e}"))
                .into_negotiated(&client_headers)
        }
    };
    let out = match review(front, reviewed).await {
        Ok(v) => v,
        Err(status) => return status.into_negotiated(&client_headers),
    };
    let mut resp = encode::respond(StatusCode::CREATED, &out, media, "");
    for warning in head.headers.get_all("warning") {
        resp.headers_mut().append("warning", warning.clone());
    }
    resp
}

/// Refuses a JSON or YAML body naming another type than TokenReview, in the words the
/// workers' generic create handler uses (the kube-api worker's review takes any kind);
/// anything else is left to the worker to decode.
fn check_type(headers: &http::HeaderMap, body: &[u8]) -> Result<(), Status> {
    let ctype = headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/json")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let parsed: Option<Value> = match ctype.as_str() {
        "" | "application/json" | "*/*" => serde_json::from_slice(body).ok(),
        "application/yaml" | "application/x-yaml" | "text/yaml" => {
            serde_yaml_ng::from_slice(body).ok()
        }
        _ => None,
    };
    let Some(object) = parsed.filter(Value::is_object) else {
        return Ok(());
    };
    const TOKEN_REVIEWS: kas_server::rest::Resource = kas_server::rest::Resource::new(
        "authentication.k8s.io",
        "v1",
        "tokenreviews",
        "tokenreview",
        "TokenReview",
    )
    .definition("io.k8s.api.authentication.v1.TokenReview");
    kas_server::rest::body_type::check(&TOKEN_REVIEWS, &object)
}

/// The TokenReview `reviewed` (the kube-api worker's answer, its spec echoed) with the
/// union's status.
async fn review(front: &Front, reviewed: Value) -> Result<Value, Status> {
    let token = reviewed
        .pointer("/spec/token")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if token.is_empty() {
        // The worker refuses these; never review an empty token.
        return Err(Status::new(
            Reason::BadRequest,
            "token is required for TokenReview in authentication",
        ));
    }
    let asked = strings(reviewed.pointer("/spec/audiences"));
    let wanted = token_union::wanted_audiences(&asked, &front.config.api_audiences);
    let verdict = token_union::authenticate(front, &token, &wanted, Some(&reviewed)).await;
    with_status(reviewed, &verdict, &wanted)
}

/// `review` with the status of `verdict`; an authenticated token whose audiences miss
/// those wanted is upstream's internal error.
fn with_status(
    mut review: Value,
    verdict: &TokenVerdict,
    wanted: &[String],
) -> Result<Value, Status> {
    review["status"] = match verdict {
        TokenVerdict::Authenticated(found) => {
            if !wanted.is_empty() && token_union::intersect(wanted, &found.audiences).is_empty() {
                tracing::error!(want = ?wanted, got = ?found.audiences, "error validating audience");
                return Err(Status::new(
                    Reason::InternalError,
                    "Internal error occurred: error validating audiences",
                ));
            }
            let mut status = json!({"authenticated": true, "user": user_json(&found.user)});
            if !found.audiences.is_empty() {
                status["audiences"] = json!(found.audiences);
            }
            status
        }
        TokenVerdict::Refused(error) => {
            json!({"user": {}, "error": error.as_deref().unwrap_or(INVALID_TOKEN)})
        }
    };
    Ok(review)
}

/// `authentication.k8s.io/v1` UserInfo, empty fields left out as Go leaves them.
fn user_json(user: &UserInfo) -> Value {
    let mut out = json!({"username": user.name});
    if !user.uid.is_empty() {
        out["uid"] = json!(user.uid);
    }
    if !user.groups.is_empty() {
        out["groups"] = json!(user.groups);
    }
    if !user.extra.is_empty() {
        let extra: serde_json::Map<String, Value> = user
            .extra
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        out["extra"] = Value::Object(extra);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token_union::Authenticated;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    fn echoed() -> Value {
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
            "metadata": {"creationTimestamp": null}, "spec": {"token": "t"},
            "status": {"user": {}, "error": "invalid bearer token"}})
    }

    #[test]
    fn routes_only_cluster_scoped_v1_creates() {
        let parse = |m: &Method, p: &str| kas_server::request_info::parse(m, p, None);
        let path = "/apis/authentication.k8s.io/v1/tokenreviews";
        assert!(is_token_review(&Method::POST, &parse(&Method::POST, path)));
        assert!(!is_token_review(&Method::GET, &parse(&Method::GET, path)));
        for other in [
            "/apis/authentication.k8s.io/v1beta1/tokenreviews",
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            "/apis/authentication.k8s.io/v1/namespaces/a/tokenreviews",
            "/apis/authentication.k8s.io/v1/tokenreviews/x",
        ] {
            assert!(
                !is_token_review(&Method::POST, &parse(&Method::POST, other)),
                "{other}"
            );
        }
    }

    #[test]
    fn other_types_are_refused() {
        let json = http::HeaderMap::new();
        let mut yaml = http::HeaderMap::new();
        yaml.insert(
            http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/yaml"),
        );
        assert!(check_type(
            &json,
            br#"{"kind":"TokenReview","apiVersion":"authentication.k8s.io/v1"}"#
        )
        .is_ok());
        assert!(check_type(&json, b"{}").is_ok());
        // Not JSON: the worker words that error.
        assert!(check_type(&json, b"not json").is_ok());
        let e = check_type(&json, br#"{"kind":"Pod","apiVersion":"v1"}"#).expect_err("pod");
        assert_eq!(e.message, "Pod in version \"v1\" cannot be handled as a TokenReview: converting (v1.Pod) to (authentication.TokenReview): unknown conversion");
        let e = check_type(
            &yaml,
            b"kind: SelfSubjectReview\napiVersion: authentication.k8s.io/v1\n",
        )
        .expect_err("other kind");
        assert_eq!(e.message, "SelfSubjectReview in version \"v1\" cannot be handled as a TokenReview: converting (v1.SelfSubjectReview) to (authentication.TokenReview): unknown conversion");
        assert_eq!(e.code(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn status_as_upstream_writes_it() {
        let api = v(&["https://kubernetes.default.svc"]);
        let user = UserInfo {
            name: "alice".into(),
            uid: "1001".into(),
            groups: v(&["system:authenticated"]),
            extra: vec![("b".into(), v(&["2"])), ("a".into(), v(&["1"]))],
        };
        let found = TokenVerdict::Authenticated(Authenticated {
            user,
            audiences: api.clone(),
        });
        let out = with_status(echoed(), &found, &api).expect("review");
        assert_eq!(
            out["status"],
            json!({"authenticated": true, "audiences": ["https://kubernetes.default.svc"],
                "user": {"username": "alice", "uid": "1001", "groups": ["system:authenticated"],
                    "extra": {"a": ["1"], "b": ["2"]}}})
        );
        assert_eq!(out["spec"], json!({"token": "t"}));
        // Audiences the token is not good for: upstream's internal error.
        let e = with_status(echoed(), &found, &v(&["other"])).expect_err("500");
        assert_eq!(e.code(), StatusCode::INTERNAL_SERVER_ERROR);

        let refused = with_status(echoed(), &TokenVerdict::Refused(None), &api).expect("review");
        assert_eq!(
            refused["status"],
            json!({"user": {}, "error": "invalid bearer token"})
        );
        let failed = TokenVerdict::Refused(Some("oidc: verify token: expired".into()));
        let out = with_status(echoed(), &failed, &api).expect("review");
        assert_eq!(out["status"]["error"], "oidc: verify token: expired");
        assert!(out["status"].get("authenticated").is_none());
    }
}
