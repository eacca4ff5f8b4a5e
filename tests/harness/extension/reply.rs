//! The extension server's answers: JSON and metav1.Status responses, content
//! negotiation, and the request as handlers see it once authenticated and read.

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode};
use http_body_util::{Either, Full};
use serde_json::{json, Value};

use super::auth::{percent_decode, Identity};
use super::Resp;

/// A request, authenticated and read.
pub(crate) struct Call {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
    pub(crate) identity: Identity,
}

impl Call {
    pub(crate) fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The Accept header, empty when absent.
    pub(crate) fn accept(&self) -> &str {
        self.headers
            .get(http::header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

pub(crate) fn parse_query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            let dec = |s: &str| percent_decode(&s.replace('+', " "));
            (dec(k), dec(v))
        })
        .collect()
}

/// A response with `content_type` and `body`.
pub(crate) fn respond(code: StatusCode, content_type: &str, body: Bytes) -> Resp {
    let mut resp = Response::new(Either::Left(Full::new(body)));
    *resp.status_mut() = code;
    if let Ok(ct) = HeaderValue::from_str(content_type) {
        resp.headers_mut().insert(http::header::CONTENT_TYPE, ct);
    }
    resp
}

pub(crate) fn json_response(code: StatusCode, v: &Value) -> Resp {
    respond(
        code,
        "application/json",
        Bytes::from(serde_json::to_vec(v).unwrap_or_default()),
    )
}

/// A metav1.Status failure.
pub(crate) fn status_with(
    code: StatusCode,
    reason: &str,
    message: &str,
    details: Option<Value>,
) -> Resp {
    let mut s = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code.as_u16(),
    });
    if let Some(d) = details {
        s["details"] = d;
    }
    json_response(code, &s)
}

pub(crate) fn status(code: StatusCode, reason: &str, message: &str) -> Resp {
    status_with(code, reason, message, None)
}

pub(crate) fn bad_request(message: &str) -> Resp {
    status(StatusCode::BAD_REQUEST, "BadRequest", message)
}

pub(crate) fn not_found_path() -> Resp {
    status_with(
        StatusCode::NOT_FOUND,
        "NotFound",
        "the server could not find the requested resource",
        Some(json!({})),
    )
}

pub(crate) fn method_not_allowed() -> Resp {
    status(
        StatusCode::METHOD_NOT_ALLOWED,
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource",
    )
}

/// 406 when the client accepts none of the JSON forms served.
pub(crate) fn not_acceptable() -> Resp {
    status(
        StatusCode::NOT_ACCEPTABLE,
        "NotAcceptable",
        "only the following media types are accepted: application/json",
    )
}

/// Whether `accept` lets plain JSON through (no Accept, `*/*`, `application/*`,
/// `application/json` without an `as=` conversion).
pub(crate) fn accepts_json(accept: &str) -> bool {
    accept.trim().is_empty()
        || accept.split(',').any(|clause| {
            let mut parts = clause.split(';').map(str::trim);
            let media = parts.next().unwrap_or("");
            let converted = parts.any(|p| p.starts_with("as="));
            matches!(media, "*/*" | "application/*" | "application/json") && !converted
        })
}
