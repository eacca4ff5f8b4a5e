//! `metav1.Status`, the body of every error a client sees, with kube-apiserver's reasons
//! and messages. Conversion of a failure into a response happens here and nowhere else.

use http::header::{CONTENT_TYPE, RETRY_AFTER};
use http::{HeaderValue, Response, StatusCode};
use serde::Serialize;

use crate::body::{self, Body};

/// `metav1.StatusReason`: a closed set, as apimachinery documents it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// 400: the request itself is invalid.
    BadRequest,
    /// 401: no valid credentials.
    Unauthorized,
    /// 403: credentials valid, action not allowed.
    Forbidden,
    /// 404: no such resource or path.
    NotFound,
    /// 409: the object exists already.
    AlreadyExists,
    /// 409: a write lost an optimistic-concurrency race.
    Conflict,
    /// 410: the resource is gone.
    Gone,
    /// 410: the resourceVersion is too old.
    Expired,
    /// 405: the verb is not supported on this resource.
    MethodNotAllowed,
    /// 406: no acceptable representation.
    NotAcceptable,
    /// 413: the body is too large.
    RequestEntityTooLarge,
    /// 415: the content type is not supported.
    UnsupportedMediaType,
    /// 422: semantic validation failed (with causes).
    Invalid,
    /// 429: too many requests.
    TooManyRequests,
    /// 500: the server failed.
    InternalError,
    /// 503: the server cannot handle the request now.
    ServiceUnavailable,
    /// 504: the request did not complete in time.
    Timeout,
    /// 500 with a server timeout while talking to storage.
    ServerTimeout,
    /// 502: a server this one proxies to answered what may not be passed on. Kubernetes
    /// has no reason for it (the wire reason is empty, `StatusReasonUnknown`).
    BadGateway,
    /// 414: a request URI longer than the HTTP stack represents (64 KiB). No Kubernetes
    /// reason (`StatusReasonUnknown`): kube-apiserver takes URIs up to its 1 MiB header limit.
    UriTooLong,
    /// 431: the request line and headers exceed the 1 MiB limit (Go's `MaxHeaderBytes`).
    /// No Kubernetes reason either.
    RequestHeaderFieldsTooLarge,
    /// 500 for a plain error upstream has no reason for (`StatusReasonUnknown`), such as
    /// server-side apply's "failed to create typed patch object".
    Unknown,
}

impl Reason {
    /// The wire spelling of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::BadRequest => "BadRequest",
            Reason::Unauthorized => "Unauthorized",
            Reason::Forbidden => "Forbidden",
            Reason::NotFound => "NotFound",
            Reason::AlreadyExists => "AlreadyExists",
            Reason::Conflict => "Conflict",
            Reason::Gone => "Gone",
            Reason::Expired => "Expired",
            Reason::MethodNotAllowed => "MethodNotAllowed",
            Reason::NotAcceptable => "NotAcceptable",
            Reason::RequestEntityTooLarge => "RequestEntityTooLarge",
            Reason::UnsupportedMediaType => "UnsupportedMediaType",
            Reason::Invalid => "Invalid",
            Reason::TooManyRequests => "TooManyRequests",
            Reason::InternalError => "InternalError",
            Reason::ServiceUnavailable => "ServiceUnavailable",
            Reason::Timeout => "Timeout",
            Reason::ServerTimeout => "ServerTimeout",
            Reason::BadGateway
            | Reason::UriTooLong
            | Reason::RequestHeaderFieldsTooLarge
            | Reason::Unknown => "",
        }
    }

    /// The HTTP code kube-apiserver pairs with the reason.
    pub fn code(self) -> u16 {
        match self {
            Reason::BadRequest => 400,
            Reason::Unauthorized => 401,
            Reason::Forbidden => 403,
            Reason::NotFound => 404,
            Reason::AlreadyExists | Reason::Conflict => 409,
            Reason::Gone | Reason::Expired => 410,
            Reason::MethodNotAllowed => 405,
            Reason::NotAcceptable => 406,
            Reason::RequestEntityTooLarge => 413,
            Reason::UnsupportedMediaType => 415,
            Reason::Invalid => 422,
            Reason::TooManyRequests => 429,
            Reason::InternalError | Reason::ServerTimeout | Reason::Unknown => 500,
            Reason::ServiceUnavailable => 503,
            Reason::Timeout => 504,
            Reason::BadGateway => 502,
            Reason::UriTooLong => 414,
            Reason::RequestHeaderFieldsTooLarge => 431,
        }
    }
}

/// The message of a 404 for a path no handler routes.
const PATH_NOT_FOUND: &str = "the server could not find the requested resource";

/// `metav1.StatusDetails`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StatusDetails {
    /// Object name, when the error is about one object.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// API group.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// Resource (kube-apiserver puts the resource here, under the name `kind`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Field-level causes (422).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    /// Seconds after which the client may retry.
    #[serde(rename = "retryAfterSeconds", skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u32>,
}

/// `metav1.StatusCause`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatusCause {
    /// e.g. `FieldValueRequired`, `FieldValueInvalid`.
    pub reason: String,
    /// Human message.
    pub message: String,
    /// JSON path of the field, e.g. `metadata.name` (omitted when empty, as upstream).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

/// A `metav1.Status` of kind Failure.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// The reason.
    pub reason: Reason,
    /// The message, worded as kube-apiserver words it.
    pub message: String,
    /// Details; kube-apiserver sends `{}` even when empty for some errors.
    pub details: Option<StatusDetails>,
    /// `Retry-After` header in seconds, when set.
    pub retry_after: Option<u32>,
}

#[derive(Serialize)]
struct Wire<'a> {
    kind: &'static str,
    #[serde(rename = "apiVersion")]
    api_version: &'static str,
    metadata: Empty,
    status: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    reason: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<&'a StatusDetails>,
    code: u16,
}

#[derive(Serialize)]
struct Empty {}

impl Status {
    /// A status with the reason's code and this message.
    pub fn new(reason: Reason, message: impl Into<String>) -> Status {
        Status {
            reason,
            message: message.into(),
            details: None,
            retry_after: None,
        }
    }

    /// The 404 of a path no server in the chain handles.
    pub fn path_not_found() -> Status {
        Status {
            details: Some(StatusDetails::default()),
            ..Status::new(Reason::NotFound, PATH_NOT_FOUND)
        }
    }

    /// `resource "name" not found`, as apierrors.NewNotFound words it.
    pub fn not_found(group: &str, resource: &str, name: &str) -> Status {
        let qualified = qualified(group, resource);
        Status {
            details: Some(StatusDetails {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: resource.to_owned(),
                ..Default::default()
            }),
            ..Status::new(
                Reason::NotFound,
                format!("{qualified} \"{name}\" not found"),
            )
        }
    }

    /// `Operation cannot be fulfilled on resource "name": why`, as apierrors.NewConflict
    /// words it (`resource` is whatever the caller's group-resource names: a plural,
    /// a Kind, `pods/binding`).
    pub fn conflict(group: &str, resource: &str, name: &str, why: &str) -> Status {
        let qualified = qualified(group, resource);
        Status {
            details: Some(StatusDetails {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: resource.to_owned(),
                ..Default::default()
            }),
            ..Status::new(
                Reason::Conflict,
                format!("Operation cannot be fulfilled on {qualified} \"{name}\": {why}"),
            )
        }
    }

    /// `resource "name" is forbidden: why`, as apierrors.NewForbidden words it.
    pub fn forbidden(group: &str, resource: &str, name: &str, why: &str) -> Status {
        let qualified = qualified(group, resource);
        let message = match (qualified.is_empty(), name.is_empty()) {
            (true, _) => format!("forbidden: {why}"),
            (false, true) => format!("{qualified} is forbidden: {why}"),
            (false, false) => format!("{qualified} {} is forbidden: {why}", go_quote(name)),
        };
        Status {
            details: Some(StatusDetails {
                name: name.to_owned(),
                group: group.to_owned(),
                kind: resource.to_owned(),
                ..Default::default()
            }),
            ..Status::new(Reason::Forbidden, message)
        }
    }

    /// 503 with `Retry-After`, for a worker that is down or restarting.
    pub fn service_unavailable(message: impl Into<String>, retry_after: u32) -> Status {
        Status {
            details: Some(StatusDetails {
                retry_after_seconds: Some(retry_after),
                ..Default::default()
            }),
            retry_after: Some(retry_after),
            ..Status::new(Reason::ServiceUnavailable, message)
        }
    }

    /// 429 with `Retry-After`.
    pub fn too_many_requests(message: impl Into<String>, retry_after: u32) -> Status {
        Status {
            details: Some(StatusDetails {
                retry_after_seconds: Some(retry_after),
                ..Default::default()
            }),
            retry_after: Some(retry_after),
            ..Status::new(Reason::TooManyRequests, message)
        }
    }

    /// A 500 for a failure the client cannot fix.
    pub fn internal(message: impl std::fmt::Display) -> Status {
        Status::new(
            Reason::InternalError,
            format!("Internal error occurred: {message}"),
        )
    }

    /// The HTTP status code.
    pub fn code(&self) -> StatusCode {
        StatusCode::from_u16(self.reason.code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// The JSON body.
    pub fn to_json(&self) -> Vec<u8> {
        let wire = Wire {
            kind: "Status",
            api_version: "v1",
            metadata: Empty {},
            status: "Failure",
            message: &self.message,
            reason: self.reason.as_str(),
            details: self.details.as_ref(),
            code: self.reason.code(),
        };
        // A struct of strings and integers always serializes. Upstream's JSON encoder
        // ends every document with a newline.
        let mut out = kas_schema::go_json_vec(&wire).unwrap_or_default();
        out.push(b'\n');
        out
    }

    /// Whether this is [`Status::path_not_found`]: its response carries the
    /// [`crate::delegate::UNROUTED_HEADER`] marker for the front door.
    fn is_path_not_found(&self) -> bool {
        self.reason == Reason::NotFound
            && self.message == PATH_NOT_FOUND
            && self.details.as_ref() == Some(&StatusDetails::default())
    }

    fn mark_unrouted(&self, resp: &mut Response<Body>) {
        if self.is_path_not_found() {
            resp.headers_mut().insert(
                crate::delegate::UNROUTED_HEADER,
                HeaderValue::from_static("1"),
            );
        }
    }

    /// The HTTP response carrying this status.
    pub fn into_response(self) -> Response<Body> {
        let mut resp = Response::new(body::full(self.to_json()));
        self.mark_unrouted(&mut resp);
        *resp.status_mut() = self.code();
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(secs) = self.retry_after {
            resp.headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        resp
    }
}

impl Status {
    /// The response in the media type the request's `Accept` asks for (JSON, YAML or
    /// protobuf), as upstream's `ErrorNegotiated` writes errors; JSON when nothing
    /// acceptable is left.
    pub fn into_negotiated(self, headers: &http::HeaderMap) -> Response<Body> {
        let media = crate::negotiate::negotiate(headers, crate::encode::media(), |_, c| {
            c == crate::negotiate::Conversion::None
        })
        .map(|n| n.media)
        .unwrap_or(crate::negotiate::Media::Json);
        let retry_after = self.retry_after;
        let value: serde_json::Value =
            serde_json::from_slice(&self.to_json()).unwrap_or(serde_json::Value::Null);
        let mut resp = crate::encode::respond(self.code(), &value, media, "");
        self.mark_unrouted(&mut resp);
        if let Some(secs) = retry_after {
            resp.headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        resp
    }
}

/// What Go's `http.Error` writes, as kube-apiserver's filters answer some refusals
/// (max-in-flight and shutdown 429s, the not-found handler's 404): plain text with a
/// newline, `nosniff`.
pub fn go_http_error(code: StatusCode, message: &str) -> Response<Body> {
    let mut resp = Response::new(body::full(format!("{message}\n")));
    *resp.status_mut() = code;
    let headers = resp.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(
        http::header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// A string as Go's `%q` prints it.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string slice as Go's `%q` prints it: `["a" "b"]`.
pub fn go_quote_list<S: AsRef<str>>(items: &[S]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| go_quote(s.as_ref())).collect();
    format!("[{}]", quoted.join(" "))
}

fn qualified(group: &str, resource: &str) -> String {
    if group.is_empty() {
        resource.to_owned()
    } else {
        format!("{resource}.{group}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_not_found_matches_kube_apiserver() {
        let json: serde_json::Value =
            serde_json::from_slice(&Status::path_not_found().to_json()).expect("json");
        assert_eq!(
            json,
            serde_json::json!({
                "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": "the server could not find the requested resource",
                "reason": "NotFound", "details": {}, "code": 404
            })
        );
    }

    #[test]
    fn not_found_names_the_object() {
        let s = Status::not_found("apps", "deployments", "web");
        assert_eq!(s.message, "deployments.apps \"web\" not found");
        let s = Status::not_found("", "configmaps", "x");
        assert_eq!(s.message, "configmaps \"x\" not found");
    }

    #[test]
    fn unavailable_carries_retry_after() {
        let resp = Status::service_unavailable("down", 1).into_response();
        assert_eq!(resp.status(), 503);
        assert_eq!(resp.headers()[RETRY_AFTER], "1");
    }
}
