//! The request context the front door attaches to a delegated request: who is asking,
//! the audit ID, and what the request is. Back-end workers trust it only on their own
//! unix socket, from a peer with their own uid.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::frame::Error;

/// The HTTP header that carries a [`RequestContext`] between processes.
pub const CONTEXT_HEADER: &str = "x-kube-apiserver-rs-context";

/// The HTTP header in which a back-end worker returns the audit annotations of a request
/// (admission's) to the front door: base64url without padding of a JSON object of
/// strings. The front door removes it from every response.
pub const AUDIT_ANNOTATIONS_HEADER: &str = "x-kube-apiserver-rs-audit-annotations";

/// The HTTP header in which a back-end worker returns a create's or an update's object as
/// it decoded and defaulted it, when the context asked for it
/// ([`RequestContext::audit_request_object`]): base64url without padding of the gzip of
/// its JSON. The audit event's `requestObject` is that object, as kube-apiserver logs
/// the decoded object rather than the bytes sent. The front door removes it from every
/// response; a worker leaves it out when it would be larger than
/// [`AUDIT_REQUEST_OBJECT_MAX`], and the event then has the body as sent.
pub const AUDIT_REQUEST_OBJECT_HEADER: &str = "x-kube-apiserver-rs-audit-request-object";

/// The most bytes of an [`AUDIT_REQUEST_OBJECT_HEADER`] value.
pub const AUDIT_REQUEST_OBJECT_MAX: usize = 1 << 20;

/// The most bytes a decoded context's strings may claim: as much as the delegation's
/// HTTP/2 connections take in a header list (4 MiB: a 1 MiB head the front door
/// accepted, and what it adds), so that only a context no worker could be sent is
/// refused.
const MAX_CONTEXT_LEN: usize = 4 << 20;

/// Everything the handler chain learnt about a request before delegating it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RequestContext {
    /// The authenticated user.
    pub user: UserInfo,
    /// The audit ID, also returned to the client in `Audit-Id`.
    pub audit_id: String,
    /// The parsed request.
    pub info: RequestInfo,
    /// The request's audit level records its object: a create or update returns the
    /// object as decoded and defaulted in [`AUDIT_REQUEST_OBJECT_HEADER`].
    pub audit_request_object: bool,
}

/// user.Info as Kubernetes defines it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct UserInfo {
    /// User name, e.g. `kubernetes-admin` or `system:anonymous`.
    pub name: String,
    /// Unique ID, when the authenticator knows one.
    pub uid: String,
    /// Groups, e.g. `system:masters`, `system:authenticated`.
    pub groups: Vec<String>,
    /// Extra attributes.
    pub extra: Vec<(String, Vec<String>)>,
}

/// What kube-apiserver's RequestInfoFactory makes of a request.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RequestInfo {
    /// Whether the path names a resource (as opposed to `/healthz`, `/api`, …).
    pub is_resource_request: bool,
    /// The URL path.
    pub path: String,
    /// Lower-case verb: get, list, watch, create, update, patch, delete, deletecollection,
    /// or the HTTP method in lower case for non-resource requests.
    pub verb: String,
    /// `api` or `apis` for resource requests.
    pub api_prefix: String,
    /// API group; empty for the core group.
    pub api_group: String,
    /// API version.
    pub api_version: String,
    /// Namespace, when namespaced.
    pub namespace: String,
    /// Resource, e.g. `pods`.
    pub resource: String,
    /// Subresource, e.g. `status`.
    pub subresource: String,
    /// Object name.
    pub name: String,
}

impl RequestContext {
    /// Encodes the context as a header value.
    pub fn to_header_value(&self) -> Result<String, Error> {
        let bytes = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .map_err(Error::Encode)?;
        Ok(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// Decodes a header value made by [`RequestContext::to_header_value`].
    pub fn from_header_value(value: &[u8]) -> Result<RequestContext, Error> {
        let bytes = URL_SAFE_NO_PAD
            .decode(value)
            .map_err(|e| Error::Malformed(e.to_string()))?;
        let (ctx, used) = crate::frame::decode_limited::<_, MAX_CONTEXT_LEN>(&bytes)?;
        if used != bytes.len() {
            return Err(Error::Malformed(
                "trailing bytes after request context".into(),
            ));
        }
        Ok(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip() {
        let ctx = RequestContext {
            user: UserInfo {
                name: "kubernetes-admin".into(),
                groups: vec!["system:masters".into(), "system:authenticated".into()],
                ..Default::default()
            },
            audit_id: "0d6c3b1e".into(),
            info: RequestInfo {
                is_resource_request: true,
                path: "/api/v1/namespaces/default/pods/p".into(),
                verb: "get".into(),
                api_prefix: "api".into(),
                api_version: "v1".into(),
                namespace: "default".into(),
                resource: "pods".into(),
                name: "p".into(),
                ..Default::default()
            },
            audit_request_object: true,
        };
        let value = ctx.to_header_value().expect("encode");
        assert!(http_header_safe(&value));
        assert_eq!(
            RequestContext::from_header_value(value.as_bytes()).ok(),
            Some(ctx)
        );
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(RequestContext::from_header_value(b"!!!").is_err());
        assert!(RequestContext::from_header_value(b"AAAA").is_err());
    }

    /// Found by the delegation_header fuzz target: a string announcing more bytes than
    /// memory holds panicked (capacity overflow) instead of failing to decode.
    #[test]
    fn a_huge_announced_string_is_an_error() {
        // The user's name announces u64::MAX bytes (varint marker 253, then 8 bytes).
        let mut bytes = vec![0xfd];
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        let value = URL_SAFE_NO_PAD.encode(&bytes);
        assert!(matches!(
            RequestContext::from_header_value(value.as_bytes()),
            Err(Error::Decode(_))
        ));
        // 2^40 bytes: a failed allocation aborted the process.
        let mut bytes = vec![0xfd];
        bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let value = URL_SAFE_NO_PAD.encode(&bytes);
        assert!(RequestContext::from_header_value(value.as_bytes()).is_err());
    }

    fn http_header_safe(s: &str) -> bool {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    }
}
