//! The pods' connect subresources as kube-apiserver's: `log` streams the container's log
//! from the pod's kubelet (`/containerLogs/<ns>/<pod>/<container>`, upstream's
//! PodLogOptions checked and passed on), and `exec`, `attach` and `portforward` make
//! upstream's checks (the container, a node assigned, the node's kubelet address) and
//! dial the kubelet, answering with upstream's errors when it cannot be reached.
//! An upgrade (the SPDY or WebSocket stream kubectl asks for) is carried through: the
//! kubelet's side joined to the client's once it switches protocols.

use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue, Method, Response, StatusCode, Uri};
use hyper::upgrade::OnUpgrade;
use kas_server::body::{self, Body};
use kas_server::rest::{invalid, Query};
use kas_server::status::{Reason, Status, StatusCause, StatusDetails};
use serde_json::Value;

use crate::kubelet::Kubelets;

/// How much of a kubelet's error answer becomes the message (upstream's maxReadLength).
const MAX_ERROR_BODY: usize = 50_000;

fn str_at<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// Every container name of the pod: containers, init containers, ephemeral containers.
fn container_names(pod: &Value) -> Vec<&str> {
    [
        "/spec/containers",
        "/spec/initContainers",
        "/spec/ephemeralContainers",
    ]
    .iter()
    .flat_map(|p| {
        pod.pointer(p)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    })
    .map(|c| str_at(c, "/name"))
    .collect()
}

/// The container a request means: the one named (which must exist), else the pod's
/// only container; upstream's 400s otherwise.
fn container<'a>(pod: &'a Value, named: Option<&'a str>) -> Result<&'a str, Status> {
    let name = str_at(pod, "/metadata/name");
    let bad = |m: String| Status::new(Reason::BadRequest, m);
    match named {
        Some(c) if container_names(pod).contains(&c) => Ok(c),
        Some(c) => Err(bad(format!("container {c} is not valid for pod {name}"))),
        None => {
            let main: Vec<&str> = pod
                .pointer("/spec/containers")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|c| str_at(c, "/name"))
                .collect();
            match main.as_slice() {
                [one] => Ok(one),
                [] => Err(bad(format!(
                    "a container name must be specified for pod {name}"
                ))),
                _ => Err(bad(format!(
                    "a container name must be specified for pod {name}, choose one of: [{}]",
                    container_names(pod).join(" ")
                ))),
            }
        }
    }
}

fn int_cause(field: &str, value: i64, why: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueInvalid".into(),
        message: format!("Invalid value: {value}: {why}"),
        field: field.into(),
    }
}

/// The PodLogOptions of a `log` request, checked as upstream's ValidatePodLogOptions;
/// the kubelet's query (sorted by key, as Go's url.Values encodes it).
fn log_query(pod_name: &str, q: &Query) -> Result<String, Status> {
    let tail = q.int("tailLines")?;
    let limit = q.int("limitBytes")?;
    let since_seconds = q.int("sinceSeconds")?;
    let since_time = match q.get("sinceTime") {
        Some(t) => Some(
            humantime::parse_rfc3339_weak(t)
                .map(|_| t.to_owned())
                .map_err(|_| {
                    Status::new(
                        Reason::BadRequest,
                        format!("parsing time {t:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse {t:?} as \"2006\""),
                    )
                })?,
        ),
        None => None,
    };
    let mut causes = Vec::new();
    if let Some(n) = tail.filter(|n| *n < 0) {
        causes.push(int_cause(
            "tailLines",
            n,
            "must be greater than or equal to 0",
        ));
    }
    if let Some(n) = limit.filter(|n| *n < 1) {
        causes.push(int_cause("limitBytes", n, "must be greater than 0"));
    }
    match (since_seconds, &since_time) {
        (Some(_), Some(_)) => causes.push(StatusCause {
            reason: "FieldValueForbidden".into(),
            message: "Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified"
                .into(),
            field: String::new(),
        }),
        (Some(n), None) if n < 1 => {
            causes.push(int_cause("sinceSeconds", n, "must be greater than 0"))
        }
        _ => {}
    }
    if q.get("stream").is_some() {
        causes.push(StatusCause {
            reason: "FieldValueForbidden".into(),
            message: "Forbidden: may not be specified".into(),
            field: "stream".into(),
        });
    }
    if !causes.is_empty() {
        return Err(invalid("", "PodLogOptions", pod_name, causes));
    }
    let mut params: Vec<(&str, String)> = Vec::new();
    for flag in ["follow", "previous", "timestamps"] {
        if q.flag(flag) {
            params.push((flag, "true".into()));
        }
    }
    let ints = [
        ("sinceSeconds", since_seconds),
        ("tailLines", tail),
        ("limitBytes", limit),
    ];
    for (k, v) in ints {
        if let Some(n) = v {
            params.push((k, n.to_string()));
        }
    }
    if let Some(t) = since_time {
        params.push(("sinceTime", t));
    }
    params.sort();
    Ok(params
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&"))
}

/// A query value percent-encoded as Go's url.QueryEscape does.
fn encode(v: &str) -> String {
    let mut out = String::new();
    for b in v.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// What the node lookup needs: the node object by name (404 as the store words it).
pub(crate) type NodeLookup<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, Status>> + Send + 'a>>;

/// GET pods/log: the container's log as the kubelet streams it (204 for a pod with no
/// node yet, as upstream's empty location).
pub(crate) async fn log(
    kubelets: &Kubelets,
    pod: &Value,
    uri: &Uri,
    node: impl FnOnce(String) -> NodeLookup<'static>,
) -> Result<Response<Body>, Status> {
    let q = Query::parse(uri.query());
    let name = str_at(pod, "/metadata/name");
    let container = container(pod, q.get("container"))?;
    let query = log_query(name, &q)?;
    let node_name = str_at(pod, "/spec/nodeName");
    if node_name.is_empty() {
        let mut resp = Response::new(body::empty());
        *resp.status_mut() = StatusCode::NO_CONTENT;
        return Ok(resp);
    }
    let node = node(node_name.to_owned()).await?;
    let host = kubelets.address(&node)?;
    let mut url = format!(
        "https://{host}/containerLogs/{}/{name}/{container}",
        str_at(pod, "/metadata/namespace")
    );
    if !query.is_empty() {
        url = format!("{url}?{query}");
    }
    let client = kubelets.client(q.flag("insecureSkipTLSVerifyBackend"));
    let resp = client
        .get(&url, kubelets.timeout())
        .await
        .map_err(|e| Status::new(Reason::Unknown, e))?;
    if !(200..=206).contains(&resp.status().as_u16()) {
        return Err(kubelet_error(resp, name).await);
    }
    let (mut parts, body) = resp.into_parts();
    parts.headers.clear();
    parts
        .headers
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    parts.status = StatusCode::OK;
    Ok(Response::from_parts(parts, body))
}

/// A kubelet's error answer as upstream's GenericHttpResponseChecker turns it into a
/// Status: 400 and 500 carry the kubelet's text, others a generic message.
async fn kubelet_error(resp: Response<Body>, name: &str) -> Status {
    use http_body_util::BodyExt;
    let code = resp.status().as_u16();
    let mut body = resp.into_body();
    let mut read = Vec::new();
    while read.len() < MAX_ERROR_BODY {
        match body.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    read.extend_from_slice(&data);
                }
            }
            Some(Err(e)) => return Status::internal(e),
            None => break,
        }
    }
    read.truncate(MAX_ERROR_BODY);
    let text = String::from_utf8_lossy(&read).into_owned();
    let generic = |reason: Reason, message: &str| Status {
        details: Some(StatusDetails {
            name: name.to_owned(),
            kind: "pods/log".into(),
            ..Default::default()
        }),
        ..Status::new(reason, format!("{message} ( pods/log {name})"))
    };
    match code {
        400 => Status::new(Reason::BadRequest, text),
        500 => Status::internal(text),
        404 => generic(
            Reason::NotFound,
            "the server could not find the requested resource",
        ),
        401 => generic(
            Reason::Unauthorized,
            "the server has asked for the client to provide credentials",
        ),
        403 => generic(Reason::Forbidden, &text),
        503 => generic(
            Reason::ServiceUnavailable,
            "the server is currently unable to handle the request",
        ),
        c if c >= 500 => generic(
            Reason::InternalError,
            &format!(
                "an error on the server ({}) has prevented the request from succeeding",
                kas_server::status::go_quote(&text)
            ),
        ),
        c => generic(
            Reason::Unknown,
            &format!(
                "the server responded with the status code {c} but did not return more information"
            ),
        ),
    }
}

/// A connect request as it reached the worker: what is forwarded to the kubelet, and the
/// client's side of the stream when it asks to switch protocols.
pub(crate) struct Connect {
    pub(crate) method: Method,
    pub(crate) uri: Uri,
    pub(crate) headers: HeaderMap,
    pub(crate) upgrade: Option<OnUpgrade>,
}

/// The client's headers as the kubelet gets them: not its credentials or identity (the
/// API server speaks for itself with its client certificate), no hop-by-hop headers but
/// an upgrade's own.
pub(crate) fn forwarded(headers: &HeaderMap, upgrade: bool) -> HeaderMap {
    let mut out = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        let n = name.as_str();
        let hop = matches!(
            n,
            "connection"
                | "upgrade"
                | "keep-alive"
                | "te"
                | "trailer"
                | "transfer-encoding"
                | "proxy-authorization"
        );
        if (hop && !(upgrade && matches!(n, "connection" | "upgrade")))
            || matches!(n, "host" | "authorization" | "content-length")
            || n == kas_proto::CONTEXT_HEADER
            || n == kas_server::delegate::HOST_HEADER
            || n.starts_with("impersonate-")
            || n.starts_with("x-remote-")
        {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out
}

/// exec, attach and portforward: upstream's checks before it dials the pod's kubelet,
/// then the request to the kubelet; an upgrade that the kubelet accepts joins the
/// client's stream to the kubelet's, anything else is the kubelet's answer as it is.
/// A kubelet that cannot be dialled is upstream's `error dialing backend`.
pub(crate) async fn stream(
    kubelets: &Kubelets,
    sub: &str,
    pod: &Value,
    req: Connect,
    node: impl FnOnce(String) -> NodeLookup<'static>,
) -> Result<Response<Body>, Status> {
    let uri = &req.uri;
    let q = Query::parse(uri.query());
    let name = str_at(pod, "/metadata/name");
    let path = match sub {
        "portforward" => format!("portForward/{}/{name}", str_at(pod, "/metadata/namespace")),
        _ => {
            let c = container(pod, q.get("container"))?;
            format!("{sub}/{}/{name}/{c}", str_at(pod, "/metadata/namespace"))
        }
    };
    let node_name = str_at(pod, "/spec/nodeName");
    if node_name.is_empty() {
        return Err(Status::new(
            Reason::BadRequest,
            format!("pod {name} does not have a host assigned"),
        ));
    }
    let node = node(node_name.to_owned()).await?;
    let host = kubelets.address(&node)?;
    let query = uri.query().map(|q| format!("?{q}")).unwrap_or_default();
    let url = format!("https://{host}/{path}{query}");
    let mut headers = forwarded(&req.headers, req.upgrade.is_some());
    // An upgrade reaches the kubelet with the host the client asked for, as upstream's
    // upgrade-aware handler writes the client's request (only the dial goes to the
    // kubelet); the rest are the API server's own requests to it.
    if req.upgrade.is_some() {
        if let Some(host) = kas_server::delegate::client_host(&req.headers) {
            headers.insert(http::header::HOST, host.clone());
        }
    }
    let mut resp = kubelets
        .client(q.flag("insecureSkipTLSVerifyBackend"))
        .send(req.method, &url, headers, kubelets.timeout())
        .await
        .map_err(|e| {
            // Upstream's upgrade-aware proxy names the dial, not the request.
            let dial = e.split_once("\": ").map_or(e.as_str(), |(_, d)| d);
            Status::new(Reason::Unknown, format!("error dialing backend: {dial}"))
        })?;
    if let Some(client_side) = req.upgrade {
        if resp.status() == StatusCode::SWITCHING_PROTOCOLS {
            let kubelet_side = hyper::upgrade::on(&mut resp);
            tokio::spawn(kas_server::upgrade::join(
                client_side,
                kubelet_side,
                "kubelet",
            ));
            return Ok(resp);
        }
    }
    let (mut parts, body) = resp.into_parts();
    parts.headers.remove(http::header::CONNECTION);
    parts.headers.remove(http::header::TRANSFER_ENCODING);
    Ok(Response::from_parts(parts, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(containers: &[&str]) -> Value {
        let cs: Vec<Value> = containers.iter().map(|c| json!({"name": c})).collect();
        json!({"metadata": {"name": "p", "namespace": "ns"}, "spec": {"containers": cs,
            "initContainers": [{"name": "init"}]}})
    }

    #[test]
    fn containers_as_upstream_picks_them() {
        assert_eq!(container(&pod(&["a"]), None).unwrap(), "a");
        assert_eq!(container(&pod(&["a", "b"]), Some("init")).unwrap(), "init");
        assert_eq!(
            container(&pod(&["a", "b"]), None).unwrap_err().message,
            "a container name must be specified for pod p, choose one of: [a b init]"
        );
        assert_eq!(
            container(&pod(&["a"]), Some("z")).unwrap_err().message,
            "container z is not valid for pod p"
        );
    }

    #[test]
    fn log_options() {
        let q = Query::parse(Some("follow=true&tailLines=10&timestamps=1&container=x"));
        assert_eq!(
            log_query("p", &q).unwrap(),
            "follow=true&tailLines=10&timestamps=true"
        );
        let q = Query::parse(Some("tailLines=-1&limitBytes=0"));
        let e = log_query("p", &q).unwrap_err();
        assert_eq!(e.reason, Reason::Invalid);
        assert_eq!(
            e.message,
            "PodLogOptions \"p\" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0]"
        );
        let q = Query::parse(Some("sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z"));
        assert!(log_query("p", &q).unwrap_err().message.ends_with(
            ": Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified"
        ));
        let q = Query::parse(Some("tailLines=abc"));
        assert_eq!(
            log_query("p", &q).unwrap_err().message,
            "strconv.ParseInt: parsing \"abc\": invalid syntax"
        );
    }
}
