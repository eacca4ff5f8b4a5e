//! The director: what the aggregator answers itself (health, version, merged discovery),
//! and where everything else goes: the worker owning the API group, else down the chain
//! kube-api → extensions → 404. A worker that is down answers 503 for its own routes only.

use std::sync::Arc;

use bytes::Bytes;
use http::header::{self, HeaderName, CONTENT_TYPE};
use http::{HeaderValue, Method, Request, Response};
use hyper::body::Incoming;
use kas_proto::{RequestContext, WorkerRole, CONTEXT_HEADER};
use kas_server::body::{self, Body};
use kas_server::delegate::{Traffic, HOST_HEADER, UNHANDLED_HEADER};
use kas_server::negotiate::{self, Conversion, Media};
use kas_server::status::{Reason, Status};
use kas_server::{health, request_info};
use serde_json::{json, Value};

use crate::front::{Front, CHAIN};

/// The largest body buffered for a request whose owner must be found by falling through
/// the chain (kube-apiserver's limit for a request body).
const MAX_FALLTHROUGH_BODY: usize = 3 << 20;

/// Headers that describe one hop and must not be forwarded (HTTP/2 forbids them).
const HOP_BY_HOP: [HeaderName; 6] = [
    header::CONNECTION,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
    header::TE,
    header::TRAILER,
    header::PROXY_AUTHORIZATION,
];

/// Answers `req` for the authenticated, authorized `ctx`.
pub(crate) async fn direct(
    front: &Arc<Front>,
    ctx: RequestContext,
    req: Request<Body>,
) -> Response<Body> {
    let path = req.uri().path().to_owned();
    let query = req.uri().query().map(str::to_owned);
    let read_only = req.method() == Method::GET || req.method() == Method::HEAD;

    if let Some((endpoint, sub)) = health::endpoint_of(&path) {
        let checks = match endpoint {
            "readyz" => front.ready_checks(),
            // Upstream adds the KMS check to healthz and readyz only: a plugin outage
            // must not get the server restarted.
            "livez" => front
                .live_checks()
                .into_iter()
                .filter(|c| c.name != kas_server::backend::KMS_CHECK)
                .collect(),
            _ => front.live_checks(),
        };
        return health::respond(endpoint, sub, query.as_deref(), &checks);
    }
    if kas_server::delegate::panic_failpoint(&path, WorkerRole::Aggregator) {
        panic!("failpoint: panic in an aggregator handler");
    }
    if read_only && (path == "/version" || path == "/version/") {
        // A go-restful route that produces JSON only: any other Accept is its 406,
        // written in the media type asked for (`server/routes/version.go`).
        let json_only = [Media::Json];
        if negotiate::negotiate(req.headers(), &json_only, |_, c| c == Conversion::None).is_err() {
            return Status::new(
                Reason::NotAcceptable,
                "406: Not Acceptable\n\nAvailable representations: application/json",
            )
            .into_negotiated(req.headers());
        }
        return json_response(&version(&front.config.kubernetes_version));
    }
    if read_only && path == "/metrics" {
        let headers = req.headers().clone();
        return Box::pin(crate::metrics::respond(front, &ctx, &headers)).await;
    }
    if let Some(apf) = front.apf.as_ref().filter(|_| read_only) {
        if crate::apf::debug::owns(&path) {
            return crate::apf::debug::respond(apf, &path, query.as_deref());
        }
    }
    if read_only && (path == "/apis" || path == "/apis/") {
        return crate::merged::apis(front, req.headers());
    }

    // The rarer handlers below are boxed: inline, the largest of them sets the size of
    // this future, which every request pays for in copies (27 KB before, under 5 KB now).
    // Bound apart from `req`: a borrow of the request (whose body is not `Sync`) held
    // across an await would make this future not `Send`.
    let headers = req.headers();
    if read_only && (path == "/openapi/v2" || path == "/openapi/v2/") {
        if let Some(resp) = Box::pin(crate::merged::openapi_v2(front, headers)).await {
            return resp;
        }
    }
    if read_only && (path == "/openapi/v3" || path == "/openapi/v3/") {
        return Box::pin(crate::merged::openapi_v3_index(front, headers)).await;
    }
    if crate::token_review::is_token_review(req.method(), &ctx.info) {
        return Box::pin(crate::token_review::answer(front, &ctx, req)).await;
    }
    if crate::apiservices::owns(&path) {
        return Box::pin(crate::apiservices::serve(front, ctx, req)).await;
    }
    if let Some(target) = front.remotes.target_for(&path) {
        // A remote API server's requests are its own to measure.
        let mut resp = crate::remote::proxy::forward(front, &target, &ctx, req).await;
        resp.extensions_mut().insert(crate::metrics::Unmeasured);
        return resp;
    }
    if read_only {
        // `/apis/<group>` is kube-aggregator's when APIServices name versions of the
        // group its back end does not serve.
        let doc = group_path(&path).and_then(|g| {
            let served = crate::merged::served_versions(front, g);
            front.remotes.group_document(g, &served)
        });
        if let Some(doc) = doc {
            let doc = kas_server::encode::Prepared::new(doc);
            return kas_server::discovery::respond(req.headers(), &doc, None);
        }
    }
    match owner(front, &path) {
        Some(role) => match proxy(front, role, &ctx, req).await {
            Ok(resp) => resp,
            Err(status) => status.into_response(),
        },
        None => Box::pin(fall_through(front, &ctx, req)).await,
    }
}

/// The worker that owns `path`, if known.
fn owner(front: &Front, path: &str) -> Option<WorkerRole> {
    if path == "/api" || path.starts_with("/api/") {
        return Some(WorkerRole::KubeApi);
    }
    let rest = path
        .strip_prefix("/apis/")
        .or_else(|| path.strip_prefix("/openapi/v3/apis/"))?;
    let group = rest.split('/').next()?;
    front.routes.read().ok()?.groups.get(group).copied()
}

/// The group of a group discovery path (`/apis/<group>`).
fn group_path(path: &str) -> Option<&str> {
    let group = path.strip_prefix("/apis/")?.trim_end_matches('/');
    (!group.is_empty() && !group.contains('/')).then_some(group)
}

fn unavailable(role: WorkerRole) -> Status {
    Status::service_unavailable(
        format!("the server is currently unable to handle the request: the {role} worker is not available"),
        1,
    )
}

/// Forwards one request to `role`, streaming both bodies.
async fn proxy(
    front: &Front,
    role: WorkerRole,
    ctx: &RequestContext,
    req: Request<Body>,
) -> Result<Response<Body>, Status> {
    if kas_server::upgrade::is_upgrade(req.headers()) {
        return proxy_upgrade(front, role, ctx, req).await;
    }
    let (parts, body) = req.into_parts();
    let resp = send(front, role, ctx, parts, body).await?;
    if resp.headers().contains_key(UNHANDLED_HEADER) {
        // The group's owner does not serve the path (another version, say): nothing
        // after it in the chain serves that group either.
        return Ok(page_not_found());
    }
    Ok(strip_unhandled(resp))
}

/// An upgrade request (exec, attach, port-forward): sent to the worker with its upgrade
/// headers on a connection of its own, and once both sides switch protocols the
/// client's connection is joined to the worker's.
async fn proxy_upgrade(
    front: &Front,
    role: WorkerRole,
    ctx: &RequestContext,
    mut req: Request<Body>,
) -> Result<Response<Body>, Status> {
    let client_side = hyper::upgrade::on(&mut req);
    let (parts, body) = req.into_parts();
    let upgrade: Vec<(HeaderName, HeaderValue)> = [header::CONNECTION, header::UPGRADE]
        .into_iter()
        .flat_map(|h| {
            parts
                .headers
                .get_all(&h)
                .iter()
                .map(|v| (h.clone(), v.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    let (client, mut out) = outgoing(front, role, ctx, parts, body)?;
    for (name, value) in upgrade {
        out.headers_mut().append(name, value);
    }
    let mut resp = client.send_upgrade(out).await.map_err(|e| {
        tracing::warn!(worker = %role, error = %e, "delegating an upgrade failed");
        unavailable(role)
    })?;
    if resp.status() == http::StatusCode::SWITCHING_PROTOCOLS {
        let worker_side = hyper::upgrade::on(&mut resp);
        tokio::spawn(kas_server::upgrade::join(
            client_side,
            worker_side,
            "front door",
        ));
    }
    Ok(strip_unhandled(resp))
}

/// Sends one request to `role` on behalf of `ctx`.
pub(crate) async fn send(
    front: &Front,
    role: WorkerRole,
    ctx: &RequestContext,
    parts: http::request::Parts,
    body: Body,
) -> Result<Response<Incoming>, Status> {
    let (client, out) = outgoing(front, role, ctx, parts, body)?;
    let traffic = if request_info::is_long_running(&ctx.info) {
        Traffic::LongRunning
    } else {
        Traffic::Short
    };
    let started = std::time::Instant::now();
    let resp = client.send(traffic, out).await.map_err(|e| {
        tracing::warn!(worker = %role, error = %e, "delegation failed");
        unavailable(role)
    })?;
    crate::peer_metrics::delegated(role.as_str(), started.elapsed());
    Ok(resp)
}

/// The request as `role` gets it (the context header in, hop-by-hop headers out), and
/// the client to send it with.
fn outgoing<'f>(
    front: &'f Front,
    role: WorkerRole,
    ctx: &RequestContext,
    parts: http::request::Parts,
    body: Body,
) -> Result<(&'f kas_server::delegate::WorkerClient, Request<Body>), Status> {
    if !front.peer_serving(role) {
        return Err(unavailable(role));
    }
    let client = front
        .clients
        .get(&role)
        .ok_or_else(|| Status::internal(format!("no client for {role}")))?;
    let path_and_query = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let uri = format!("http://{}{path_and_query}", role.as_str());
    let mut out = Request::builder()
        .method(parts.method)
        .uri(uri)
        .body(body)
        .map_err(|e| Status::new(Reason::BadRequest, format!("bad request URI: {e}")))?;
    let headers = out.headers_mut();
    for (name, value) in parts.headers.iter() {
        if HOP_BY_HOP.contains(name)
            || name == header::HOST
            || name.as_str() == CONTEXT_HEADER
            || name.as_str() == UNHANDLED_HEADER
            || name.as_str() == HOST_HEADER
            || name.as_str() == "keep-alive"
        {
            continue;
        }
        headers.append(name.clone(), value.clone());
    }
    // Only a proxy request (to its pod, service or node) and a pod's exec, attach or
    // portforward (upgraded to the kubelet) pass the client's host on.
    if matches!(
        ctx.info.subresource.as_str(),
        "proxy" | "exec" | "attach" | "portforward"
    ) {
        let host = parts.headers.get(header::HOST).cloned().or_else(|| {
            let authority = parts.uri.authority()?;
            HeaderValue::from_str(authority.as_str()).ok()
        });
        if let Some(host) = host {
            headers.insert(HOST_HEADER, host);
        }
    }
    let ctx_value = ctx
        .to_header_value()
        .ok()
        .and_then(|v| HeaderValue::from_str(&v).ok())
        .ok_or_else(|| Status::internal("encoding the request context"))?;
    headers.insert(CONTEXT_HEADER, ctx_value);
    Ok((client, out))
}

fn strip_unhandled(resp: Response<Incoming>) -> Response<Body> {
    let (mut parts, incoming) = resp.into_parts();
    parts.headers.remove(UNHANDLED_HEADER);
    Response::from_parts(parts, body::boxed(incoming))
}

/// Tries each server of the chain in turn until one handles the path.
async fn fall_through(front: &Front, ctx: &RequestContext, req: Request<Body>) -> Response<Body> {
    let (parts, incoming) = req.into_parts();
    let bytes: Bytes = match body::read_limited(incoming, MAX_FALLTHROUGH_BODY).await {
        Ok(bytes) => bytes,
        Err(body::ReadError::TooLarge(_)) => {
            return Status::new(
                Reason::RequestEntityTooLarge,
                "the request body is too large",
            )
            .into_response()
        }
        Err(body::ReadError::Failed(e)) => {
            return Status::new(Reason::BadRequest, format!("reading the request body: {e}"))
                .into_response()
        }
    };
    for role in CHAIN {
        let mut copy = Request::builder()
            .method(parts.method.clone())
            .uri(parts.uri.clone())
            .body(())
            .map(|r| r.into_parts().0)
            .unwrap_or_else(|_| Request::new(()).into_parts().0);
        copy.headers = parts.headers.clone();
        match send(front, role, ctx, copy, body::full(bytes.clone())).await {
            Ok(resp) if resp.headers().contains_key(UNHANDLED_HEADER) => continue,
            Ok(resp) => return strip_unhandled(resp),
            Err(status) => return status.into_response(),
        }
    }
    page_not_found()
}

/// What kube-apiserver answers for a path no server of its chain handles: Go's
/// `http.NotFound` (`k8s.io/apiserver/pkg/util/notfoundhandler`), plain text, not a
/// `Status`. Paths under a served group-version get a 404 `Status` from their worker.
fn page_not_found() -> Response<Body> {
    let mut resp =
        kas_server::status::go_http_error(http::StatusCode::NOT_FOUND, "404 page not found");
    resp.extensions_mut().insert(crate::metrics::Unmeasured);
    resp
}

/// `version.Info` for the emulated Kubernetes version.
fn version(git_version: &str) -> Value {
    let numbers: Vec<&str> = git_version.trim_start_matches('v').split('.').collect();
    let major = numbers.first().copied().unwrap_or("1");
    let minor = numbers.get(1).copied().unwrap_or("0");
    let min_compat_minor = minor
        .parse::<u32>()
        .map(|m| m.saturating_sub(1).to_string())
        .unwrap_or_else(|_| minor.to_owned());
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        other => other,
    };
    json!({
        "major": major,
        "minor": minor,
        "emulationMajor": major,
        "emulationMinor": minor,
        "minCompatibilityMajor": major,
        "minCompatibilityMinor": min_compat_minor,
        "gitVersion": git_version,
        "gitCommit": format!("kube-apiserver-rs-{}", env!("CARGO_PKG_VERSION")),
        "gitTreeState": "clean",
        "buildDate": "1970-01-01T00:00:00Z",
        "goVersion": "n/a (rustc)",
        "compiler": "rustc",
        "platform": format!("linux/{arch}"),
    })
}

/// `/version`'s answer as upstream writes it (`WriteRawJSON`): `version.Info` indented,
/// in its Go struct's field order, without a final newline.
fn json_response(v: &Value) -> Response<Body> {
    let text = match kas_schema::type_def("io.k8s.apimachinery.pkg.version.Info") {
        Some(def) => kas_schema::go_json_pretty(&kas_schema::InGoOrder::new(def, v)),
        None => kas_schema::go_json_pretty(v),
    };
    let mut resp = Response::new(body::full(text.unwrap_or_default()));
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_info() {
        let v = version("v1.33.0");
        assert_eq!(v["major"], "1");
        assert_eq!(v["minor"], "33");
        assert_eq!(v["gitVersion"], "v1.33.0");
        assert_eq!(v["minCompatibilityMinor"], "32");
    }

    #[tokio::test]
    async fn version_is_indented_in_go_order() {
        use http_body_util::BodyExt;
        let resp = json_response(&version("v1.33.0"));
        let body = resp.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(body.to_vec()).unwrap();
        assert!(
            text.starts_with("{\n  \"major\": \"1\",\n  \"minor\": \"33\",\n  \"emulationMajor\""),
            "{text}"
        );
        assert!(
            text.ends_with("\n}"),
            "no final newline, as WriteRawJSON: {text:?}"
        );
    }
}
