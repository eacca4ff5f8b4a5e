//! Auditing at the front door. The front door sees every request, refused or not, so the
//! events are made here: RequestReceived once the user is known, ResponseStarted when a
//! long-running response's headers go out, ResponseComplete once the client has the whole
//! response (or has gone), Panic when a front-door handler panics. What only the back-end
//! worker knows comes back with its response: the audit annotations of admission (in
//! [`kas_proto::AUDIT_ANNOTATIONS_HEADER`], removed here); the request and response
//! objects are copied from the bodies as they pass (JSON, YAML and protobuf alike).
//!
//! A request's audit lives in a [`Slot`] owned by the handler chain's outermost frame, so
//! that a panic, a timeout or a refusal anywhere inside still ends in its event.

mod backend;
mod capture;
mod event;
pub(crate) mod metrics;
mod policy;
mod request;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use base64::Engine;
use http::{Request, Response};
use kas_proto::{AuditConfig, AuditLevel, AuditStage, RequestInfo, UserInfo};
use kas_server::body::Body;
use tokio_util::task::TaskTracker;

use capture::{Copied, Tee};
pub(crate) use event::{Event, ObjectRef};
use policy::Verdict;
use request::{attempted, base_event, fill_object_ref};

/// The annotation keys of the authorization filter.
pub(crate) const DECISION: &str = "authorization.k8s.io/decision";
pub(crate) const REASON: &str = "authorization.k8s.io/reason";

/// The most a graceful stop waits for events still being written.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);

/// The policy and the backends, for the life of the front door.
pub(crate) struct Auditor {
    config: AuditConfig,
    backends: Arc<backend::Backends>,
    /// Events written after their request's handler returned (ResponseComplete).
    pending: TaskTracker,
}

impl std::fmt::Debug for Auditor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auditor").finish_non_exhaustive()
    }
}

impl Auditor {
    /// Opens the backends.
    pub(crate) fn start(config: &AuditConfig) -> Result<Auditor, backend::BackendError> {
        Ok(Auditor {
            config: config.clone(),
            backends: Arc::new(backend::Backends::start(config)?),
            pending: TaskTracker::new(),
        })
    }

    /// Waits (boundedly) for the events still being written, then flushes the backends.
    pub(crate) async fn shutdown(&self) {
        self.pending.close();
        if tokio::time::timeout(SHUTDOWN_WAIT, self.pending.wait())
            .await
            .is_err()
        {
            tracing::warn!("audit events were still being written when the server stopped");
        }
        self.backends.shutdown().await;
        for s in self.backends.stats() {
            tracing::info!(
                backend = s.name,
                written = s.written,
                dropped_full = s.dropped_full,
                dropped_too_large = s.dropped_too_large,
                errors = s.errors,
                "audit events since start"
            );
        }
    }

    /// Starts the audit of a request by `user`: the policy's level, and the
    /// RequestReceived event. `Ok(None)` when the policy records nothing; `Err` when a
    /// `blocking-strict` backend could not take the event (the request must fail).
    pub(crate) async fn begin(
        self: &Arc<Self>,
        user: &UserInfo,
        info: &RequestInfo,
        parts: &http::request::Parts,
        peer: SocketAddr,
        audit_id: &str,
        received: SystemTime,
    ) -> Result<Option<RequestAudit>, ()> {
        let verdict = policy::evaluate(&self.config.policy, user, info);
        metrics::level(verdict.level);
        if verdict.level == AuditLevel::None {
            return Ok(None);
        }
        let audit = RequestAudit {
            auditor: self.clone(),
            event: base_event(&verdict, user, info, parts, peer, audit_id, received),
            verdict,
            request: None,
            decoded: None,
            failed_authentication: None,
        };
        if audit.verdict.records(AuditStage::RequestReceived) {
            let event = Arc::new(audit.event.clone());
            if self.backends.process(event).await.is_err() {
                metrics::rejected();
                return Err(());
            }
        }
        Ok(Some(audit))
    }

    /// The audit of a request whose authentication failed: one ResponseStarted event
    /// with no user, saying which credentials were tried (upstream's
    /// `WithFailedAuthenticationAudit`).
    pub(crate) fn failed_authentication(
        self: &Arc<Self>,
        info: &RequestInfo,
        parts: &http::request::Parts,
        peer: SocketAddr,
        audit_id: &str,
        received: SystemTime,
        client_certificate: bool,
    ) -> Option<RequestAudit> {
        let nobody = UserInfo::default();
        let verdict = policy::evaluate(&self.config.policy, &nobody, info);
        metrics::level(verdict.level);
        if verdict.level == AuditLevel::None {
            return None;
        }
        Some(RequestAudit {
            auditor: self.clone(),
            event: base_event(&verdict, &nobody, info, parts, peer, audit_id, received),
            verdict,
            request: None,
            decoded: None,
            failed_authentication: Some(attempted(parts, client_certificate)),
        })
    }

    fn spawn(&self, event: Event) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let backends = self.backends.clone();
        let task = self.pending.track_future(async move {
            // Only blocking-strict reports failures, and the response is gone by now:
            // the backend has logged and counted it.
            let _ = backends.process(Arc::new(event)).await;
        });
        rt.spawn(task);
    }
}

/// One request's audit, from the moment its user is known.
pub(crate) struct RequestAudit {
    auditor: Arc<Auditor>,
    verdict: Verdict,
    event: Event,
    /// The request body as the worker read it, at level Request and above.
    request: Option<(Copied, Option<String>)>,
    /// The object as the worker decoded and defaulted it (a create's or an update's),
    /// JSON, when it sent it back.
    decoded: Option<Vec<u8>>,
    /// Authentication failed: the message of the only event.
    failed_authentication: Option<String>,
}

impl RequestAudit {
    /// Records the user the request acts as.
    pub(crate) fn impersonated(&mut self, user: &UserInfo) {
        self.event.impersonated_user = Some(user.clone());
    }

    /// Adds an annotation (the first value of a key is kept, as upstream).
    pub(crate) fn annotate(&mut self, key: &str, value: &str) {
        self.event
            .annotations
            .entry(key.to_owned())
            .or_insert_with(|| value.to_owned());
    }

    /// Copies the request body as it is read, when the level records it. Called once
    /// the request is authorized: a refused request's body is never an object.
    /// At level Metadata only a create's or an update's body is copied: it names the
    /// object (`objectRef.name`, `uid`, `resourceVersion`), as upstream fills them in
    /// from the decoded object.
    pub(crate) fn request_body(&mut self, req: Request<Body>) -> Request<Body> {
        let names_object = matches!(self.event.verb.as_str(), "create" | "update");
        if self.verdict.level < AuditLevel::Request && !names_object {
            return req;
        }
        let content_type = req
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let copy = Copied::default();
        self.request = Some((copy.clone(), content_type));
        req.map(|body| Tee::wrap(body, Some((copy, capture::MAX_REQUEST)), None))
    }

    /// Whether the worker is to send back the object it decoded and defaulted: a create
    /// or an update at level Request and above (upstream logs the decoded object for
    /// those; a patch's `requestObject` is the patch as sent).
    pub(crate) fn wants_request_object(&self) -> bool {
        self.verdict.level >= AuditLevel::Request
            && matches!(self.event.verb.as_str(), "create" | "update")
    }
}

/// Where the chain keeps a request's audit.
#[derive(Default)]
pub(crate) struct Slot(Mutex<Option<RequestAudit>>);

impl Slot {
    /// Keeps the audit of this request.
    pub(crate) fn set(&self, audit: RequestAudit) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(audit);
        }
    }

    /// Runs `f` on the audit, if the request is audited.
    pub(crate) fn with(&self, f: impl FnOnce(&mut RequestAudit)) {
        if let Ok(mut slot) = self.0.lock() {
            if let Some(audit) = slot.as_mut() {
                f(audit);
            }
        }
    }

    fn take(&self) -> Option<RequestAudit> {
        self.0.lock().ok().and_then(|mut s| s.take())
    }

    /// The handler panicked: the Panic event (the client gets a 500).
    pub(crate) fn panicked(&self, message: &str) {
        let Some(mut audit) = self.take() else {
            return;
        };
        if !audit.verdict.records(AuditStage::Panic) {
            return;
        }
        audit.event.stage = AuditStage::Panic;
        audit.event.stage_timestamp = SystemTime::now();
        let status = serde_json::json!({
            "metadata": {}, "status": "Failure", "reason": "InternalError", "code": 500,
            "message": format!("APIServer panic'd: {message}"),
        });
        audit.event.response_status = serde_json::value::to_raw_value(&status).ok();
        audit.auditor.spawn(audit.event);
    }

    /// The response is ready: takes back the worker's annotations, writes ResponseStarted
    /// for a long-running request, and arranges for ResponseComplete once the body is
    /// done. Every response passes here, audited or not, so that the worker's
    /// annotations header never reaches a client.
    pub(crate) async fn respond(
        &self,
        mut resp: Response<Body>,
        long_running: bool,
    ) -> Response<Body> {
        let annotations = resp
            .headers_mut()
            .remove(kas_proto::AUDIT_ANNOTATIONS_HEADER);
        let decoded = resp
            .headers_mut()
            .remove(kas_proto::AUDIT_REQUEST_OBJECT_HEADER);
        let Some(mut audit) = self.take() else {
            return resp;
        };
        if audit.wants_request_object() {
            audit.decoded = decoded.and_then(|v| decode_request_object(v.as_bytes()));
        }
        if let Some(value) = annotations {
            for (k, v) in decode_annotations(value.as_bytes()) {
                audit.annotate(&k, &v);
            }
        }
        let code = resp.status().as_u16();

        if let Some(message) = audit.failed_authentication.take() {
            if audit.verdict.records(AuditStage::ResponseStarted) {
                audit.event.stage = AuditStage::ResponseStarted;
                audit.event.stage_timestamp = SystemTime::now();
                let status = serde_json::json!({"metadata": {}, "message": message, "code": code});
                audit.event.response_status = serde_json::value::to_raw_value(&status).ok();
                let _ = audit.auditor.backends.process(Arc::new(audit.event)).await;
            }
            return resp;
        }

        if long_running && audit.verdict.records(AuditStage::ResponseStarted) {
            let mut started = audit.event.clone();
            started.stage = AuditStage::ResponseStarted;
            started.stage_timestamp = SystemTime::now();
            started.response_status = capture::response_status(code, None);
            let _ = audit.auditor.backends.process(Arc::new(started)).await;
        }
        if !audit.verdict.records(AuditStage::ResponseComplete) {
            return resp;
        }
        let content_type = resp
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let limit = if long_running {
            None
        } else if audit.verdict.level == AuditLevel::RequestResponse {
            Some(capture::MAX_RESPONSE)
        } else if code >= 400 {
            Some(capture::MAX_STATUS)
        } else {
            None
        };
        // A large response the worker compressed is recorded as the object it holds.
        let gzipped = resp
            .headers()
            .get(http::header::CONTENT_ENCODING)
            .is_some_and(|v| v.as_bytes() == b"gzip");
        let copy = limit.map(|l| (Copied::default(), l));
        let copied = copy.as_ref().map(|(c, _)| c.clone());
        let on_drop = Box::new(move || audit.complete(code, content_type, copied, gzipped));
        resp.map(|body| Tee::wrap(body, copy, Some(on_drop)))
    }
}

impl RequestAudit {
    /// The ResponseComplete event, once the response body is done.
    fn complete(
        mut self,
        code: u16,
        content_type: Option<String>,
        response: Option<Copied>,
        gzipped: bool,
    ) {
        let level = self.verdict.level;
        let omit = self.verdict.omit_managed_fields;
        let response_bytes = response.as_ref().and_then(Copied::take);
        let response_bytes = match response_bytes {
            Some(zipped) if gzipped => capture::gunzip(&zipped, capture::MAX_RESPONSE),
            other => other,
        };
        let status_body = (code >= 400)
            .then_some(response_bytes.as_deref())
            .flatten()
            .map(|b| (content_type.as_deref(), b));
        self.event.response_status = capture::response_status(code, status_body);
        if let Some((copy, ct)) = &self.request {
            let sent = copy.take();
            let object = match self.decoded.take() {
                Some(decoded) => capture::object_json(Some("application/json"), &decoded, omit),
                None => sent.and_then(|bytes| capture::object_json(ct.as_deref(), &bytes, omit)),
            };
            if let Some(object) = object {
                if let Some(object_ref) = self.event.object_ref.as_mut() {
                    fill_object_ref(object_ref, &object);
                }
                if level >= AuditLevel::Request {
                    self.event.request_object = Some(object);
                }
            }
        }
        if level == AuditLevel::RequestResponse {
            if let Some(bytes) = &response_bytes {
                self.event.response_object =
                    capture::object_json(content_type.as_deref(), bytes, omit);
            }
            if response.as_ref().is_some_and(Copied::overflowed) {
                self.annotate(
                    "audit.kube-apiserver-rs/response-object-omitted",
                    "larger than the front door keeps",
                );
            }
        }
        self.event.stage = AuditStage::ResponseComplete;
        self.event.stage_timestamp = SystemTime::now();
        self.auditor.spawn(self.event);
    }
}

/// The worker's annotations header: base64url (no padding) of a JSON object of strings.
pub(crate) fn decode_annotations(value: &[u8]) -> Vec<(String, String)> {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(value)
        .ok()
        .and_then(|json| serde_json::from_slice::<BTreeMap<String, String>>(&json).ok())
        .map(|m| m.into_iter().collect())
        .unwrap_or_default()
}

/// The object a worker sent back in [`kas_proto::AUDIT_REQUEST_OBJECT_HEADER`]: JSON, or
/// None when the value is not what a worker sends.
fn decode_request_object(value: &[u8]) -> Option<Vec<u8>> {
    let zipped = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(value)
        .ok()?;
    // Defaulting makes an object larger than the body it came from.
    capture::gunzip(&zipped, 2 * capture::MAX_REQUEST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_header() {
        let json = br#"{"pod-security.kubernetes.io/enforce-policy":"restricted:latest"}"#;
        let value = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json);
        assert_eq!(
            decode_annotations(value.as_bytes()),
            [(
                "pod-security.kubernetes.io/enforce-policy".to_owned(),
                "restricted:latest".to_owned()
            )]
        );
        assert!(decode_annotations(b"!!").is_empty());
    }
}
