//! Forwarding one request to a remote APIService, as kube-aggregator's proxy handler
//! does: only while the APIService is Available, to an address the service resolves to,
//! as the authenticated user in `X-Remote-*` headers (the caller's own credentials and
//! identity headers never pass), over the APIService's TLS client. Bodies stream both
//! ways; connection upgrades (exec, attach, port-forward over SPDY or WebSocket) are
//! joined end to end. A response that is not long-running is bounded by the request's
//! timeout, body included, and a redirect from the remote server is refused (upstream's
//! `--aggregator-reject-forwarding-redirect`, on by default).

use std::time::Duration;

use http::header::{self, HeaderName};
use http::{HeaderMap, HeaderValue, Request, Response, StatusCode};
use kas_proto::{RequestContext, UserInfo, CONTEXT_HEADER};
use kas_server::body::{self, Body};
use kas_server::request_info;
use kas_server::status::{Reason, Status};

use super::{innermost, Target};
use crate::front::Front;

/// How long discovery of one remote group-version may take (upstream's
/// `aggregatedDiscoveryTimeout`): kubectl asks every group's, so a slow server must not
/// hold every client up.
const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(5);

/// Headers that describe one hop and are not forwarded.
const HOP_BY_HOP: [HeaderName; 5] = [
    header::CONNECTION,
    header::TRANSFER_ENCODING,
    header::TE,
    header::TRAILER,
    header::PROXY_AUTHORIZATION,
];

/// The user headers of the remote server's request-header authentication.
const REMOTE_USER: &str = "x-remote-user";
const REMOTE_UID: &str = "x-remote-uid";
const REMOTE_GROUP: &str = "x-remote-group";
const REMOTE_EXTRA: &str = "x-remote-extra-";

/// Forwards `req` to `target` on behalf of `ctx`.
pub(crate) async fn forward(
    front: &Front,
    target: &Target,
    ctx: &RequestContext,
    mut req: Request<Body>,
) -> Response<Body> {
    if !target.available {
        return Status::service_unavailable("service unavailable", 0).into_response();
    }
    let client = match &target.client {
        Ok(c) => c,
        Err(e) => return Status::internal(e.clone()).into_response(),
    };
    let address = match front.resolve(&target.service) {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!(
                apiservice = %target.name,
                service = %format!("{}/{}", target.service.namespace, target.service.name),
                error = %e,
                "cannot resolve the service of a remote APIService"
            );
            return Status::service_unavailable("service unavailable", 0).into_response();
        }
    };
    let upgrade = kas_server::upgrade::is_upgrade(req.headers());
    let path_and_query = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "/".into());
    let uri = format!("https://{address}{path_and_query}");
    let client_upgrade = upgrade.then(|| hyper::upgrade::on(&mut req));
    let (parts, incoming) = req.into_parts();
    let mut out = match Request::builder()
        .method(parts.method)
        .uri(&uri)
        .body(incoming)
    {
        Ok(r) => r,
        Err(e) => {
            return Status::new(Reason::BadRequest, format!("bad request URI: {e}")).into_response()
        }
    };
    *out.headers_mut() = forwarded_headers(&parts.headers, upgrade);
    set_user_headers(out.headers_mut(), &ctx.user, front.remote_uid_header());
    if let Ok(v) = HeaderValue::from_str(&ctx.audit_id) {
        if !ctx.audit_id.is_empty() {
            out.headers_mut().insert("audit-id", v);
        }
    }

    let long_running = request_info::is_long_running(&ctx.info) || upgrade;
    let limit = if is_discovery(&ctx.info) {
        DISCOVERY_TIMEOUT
    } else {
        front.config.request_timeout
    };
    let deadline = tokio::time::Instant::now() + limit;
    let sent = if upgrade {
        client.http1.request(out).await
    } else if long_running {
        client.request(out).await
    } else {
        match tokio::time::timeout_at(deadline, client.request(out)).await {
            Ok(r) => r,
            Err(_) => {
                return Status::new(
                    Reason::Timeout,
                    "Timeout: request did not complete within the allotted timeout",
                )
                .into_response()
            }
        }
    };
    let mut resp = match sent {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(apiservice = %target.name, %uri, error = %e, "remote API server unreachable");
            front.remotes_failed();
            return Status::service_unavailable(
                format!("error trying to reach service: {}", innermost(&e)),
                0,
            )
            .into_response();
        }
    };
    if resp.status().is_redirection() && resp.headers().contains_key(header::LOCATION) {
        return Status::new(
            Reason::BadGateway,
            "the backend attempted to redirect this request, which is not permitted",
        )
        .into_response();
    }
    if resp.status() == StatusCode::SWITCHING_PROTOCOLS {
        if let Some(client_upgrade) = client_upgrade {
            let remote_upgrade = hyper::upgrade::on(&mut resp);
            tokio::spawn(kas_server::upgrade::join(
                client_upgrade,
                remote_upgrade,
                "aggregator",
            ));
        }
        let (mut parts, _) = resp.into_parts();
        parts.headers.remove(header::TRANSFER_ENCODING);
        return Response::from_parts(parts, body::empty());
    }
    let (mut parts, incoming) = resp.into_parts();
    for h in &HOP_BY_HOP {
        parts.headers.remove(h);
    }
    parts.headers.remove("keep-alive");
    // Only a local worker speaks for admission in the audit log.
    parts.headers.remove(kas_proto::AUDIT_ANNOTATIONS_HEADER);
    parts.headers.remove(kas_proto::AUDIT_REQUEST_OBJECT_HEADER);
    let body = if long_running {
        body::boxed(incoming)
    } else {
        // Cut off at this APIService call's deadline (shorter for discovery than the
        // request timeout the chain applies).
        body::with_deadline(body::boxed(incoming), deadline, || {})
    };
    Response::from_parts(parts, body)
}

/// Discovery of one group-version: `/apis/<group>/<version>`, not a resource.
fn is_discovery(info: &kas_proto::RequestInfo) -> bool {
    !info.is_resource_request && info.path.trim_matches('/').split('/').count() == 3
}

/// The request's headers as the remote server gets them: no hop-by-hop headers (but the
/// upgrade ones of an upgrade), no credentials, no identity headers of the caller's.
fn forwarded_headers(incoming: &HeaderMap, upgrade: bool) -> HeaderMap {
    let mut out = HeaderMap::with_capacity(incoming.len() + 4);
    for (name, value) in incoming {
        let n = name.as_str();
        let hop = HOP_BY_HOP.contains(name) || name == header::UPGRADE || n == "keep-alive";
        if (hop && !(upgrade && (name == header::CONNECTION || name == header::UPGRADE)))
            || name == header::HOST
            || name == header::AUTHORIZATION
            || n == CONTEXT_HEADER
            || n == kas_server::delegate::UNHANDLED_HEADER
            || n.starts_with("impersonate-")
            || n == REMOTE_USER
            || n == REMOTE_UID
            || n == REMOTE_GROUP
            || n.starts_with(REMOTE_EXTRA)
        {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out
}

/// `X-Remote-User`, `-Uid`, `-Group` and `-Extra-*` for `user` (client-go's
/// `SetAuthProxyHeaders`: extra keys percent-escaped, values as they are).
fn set_user_headers(headers: &mut HeaderMap, user: &UserInfo, with_uid: bool) {
    if let Ok(v) = HeaderValue::from_str(&user.name) {
        headers.insert(REMOTE_USER, v);
    }
    if with_uid && !user.uid.is_empty() {
        if let Ok(v) = HeaderValue::from_str(&user.uid) {
            headers.insert(REMOTE_UID, v);
        }
    }
    for g in &user.groups {
        if let Ok(v) = HeaderValue::from_str(g) {
            headers.append(REMOTE_GROUP, v);
        }
    }
    for (key, values) in &user.extra {
        let Ok(name) =
            HeaderName::from_bytes(format!("{REMOTE_EXTRA}{}", escape_key(key)).as_bytes())
        else {
            continue;
        };
        for value in values {
            if let Ok(v) = HeaderValue::from_str(value) {
                headers.append(name.clone(), v);
            }
        }
    }
}

/// An extra key as a header name carries it: bytes legal in a header name stay (but
/// `%`), every other byte is `%XX` (client-go's `headerKeyEscape`).
fn escape_key(key: &str) -> String {
    kas_server::health::percent_escape(key, b"!#$&'*+-.^_`|~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_keys_are_escaped_as_client_go_does() {
        assert_eq!(escape_key("scopes"), "scopes");
        assert_eq!(escape_key("example.com/key"), "example.com%2Fkey");
        assert_eq!(escape_key("a%b c"), "a%25b%20c");
    }

    #[test]
    fn credentials_and_identity_headers_do_not_pass() {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer x"));
        h.insert("x-remote-user", HeaderValue::from_static("mallory"));
        h.insert("X-Remote-Extra-Scopes", HeaderValue::from_static("all"));
        h.insert("impersonate-user", HeaderValue::from_static("root"));
        h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
        h.insert(header::UPGRADE, HeaderValue::from_static("SPDY/3.1"));
        h.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        let out = forwarded_headers(&h, false);
        assert_eq!(out.len(), 1);
        assert!(out.contains_key(header::ACCEPT));
        let out = forwarded_headers(&h, true);
        assert!(out.contains_key(header::UPGRADE) && out.contains_key(header::CONNECTION));

        let user = UserInfo {
            name: "alice".into(),
            uid: "42".into(),
            groups: vec!["devs".into(), "system:authenticated".into()],
            extra: vec![("example.com/team".into(), vec!["a".into(), "b".into()])],
        };
        let mut out = HeaderMap::new();
        set_user_headers(&mut out, &user, true);
        assert_eq!(out["x-remote-user"], "alice");
        assert_eq!(out["x-remote-uid"], "42");
        assert_eq!(out.get_all("x-remote-group").iter().count(), 2);
        assert_eq!(
            out.get_all("x-remote-extra-example.com%2fteam")
                .iter()
                .count(),
            2
        );
    }

    #[test]
    fn discovery_is_a_group_version_path() {
        let info = |path: &str, resource: bool| kas_proto::RequestInfo {
            path: path.into(),
            is_resource_request: resource,
            ..Default::default()
        };
        assert!(is_discovery(&info(
            "/apis/wardle.example.com/v1alpha1",
            false
        )));
        assert!(!is_discovery(&info("/apis/wardle.example.com", false)));
        assert!(!is_discovery(&info(
            "/apis/wardle.example.com/v1alpha1/flunders",
            true
        )));
    }
}
