//! Entry points for the fuzz targets (`fuzz/`), compiled only with `--cfg fuzzing`: the
//! TokenReview of a service account (or bootstrap) token, as the front door asks it.

use std::time::SystemTime;

use kas_server::status::Status;
use serde_json::{json, Value};

use crate::auth::{token_review, Lookup, LookupKind, TokenIssuer};

/// Service account tokens of one signing key.
pub struct SaTokens(TokenIssuer);

impl SaTokens {
    /// Tokens of `issuer` (also the API audience) signed with the PKCS#8 key
    /// `signing_key_pem` whose public half is `public_key_pem`.
    pub fn new(
        issuer: &str,
        signing_key_pem: &str,
        public_key_pem: &str,
    ) -> Result<SaTokens, String> {
        TokenIssuer::new(
            vec![issuer.to_owned()],
            vec![issuer.to_owned()],
            signing_key_pem,
            public_key_pem,
            &[public_key_pem.to_owned()],
            None,
            true,
        )
        .map(SaTokens)
        .map_err(|e| e.to_string())
    }

    /// `claims` signed as this issuer signs tokens.
    pub fn sign(&self, claims: &Value) -> Result<String, Status> {
        self.0.sign(claims)
    }

    /// The TokenReview of `token` at `now`, with bootstrap tokens enabled; the objects it
    /// looks up (ServiceAccounts, Pods, Secrets, Nodes) are found in `objects` by kind,
    /// namespace and name. The review's status says who the token is or why not.
    pub async fn review(
        &self,
        token: &str,
        now: SystemTime,
        objects: &[Value],
    ) -> Result<Value, Status> {
        let body = json!({
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": token},
        });
        let get = |l: Lookup| {
            let kind = match l.kind {
                LookupKind::ServiceAccount => "ServiceAccount",
                LookupKind::Pod => "Pod",
                LookupKind::Secret => "Secret",
                LookupKind::Node => "Node",
            };
            let found = objects
                .iter()
                .find(|o| {
                    o["kind"] == kind
                        && o.pointer("/metadata/namespace")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            == l.namespace
                        && o.pointer("/metadata/name").and_then(Value::as_str)
                            == Some(l.name.as_str())
                })
                .cloned();
            std::future::ready(Ok(found))
        };
        token_review(&self.0, true, &body, now, get)
            .await
            .map(|r| r.review)
    }
}

/// The proxy subresources' parsers: an object name as `scheme:name:port`.
pub fn proxy_name(id: &str) -> Option<(String, String, String)> {
    crate::proxy::split_id(id).map(|(s, n, p)| (s.to_owned(), n.to_owned(), p.to_owned()))
}

/// The backend path of a decoded request path whose first `segments` segments lead to
/// `proxy`, what stands before it, and the backend path escaped.
pub fn proxy_paths(path: &str, segments: usize) -> (String, String, String) {
    let backend = crate::proxy_forward::backend_path(path, segments);
    let prepend = crate::proxy_forward::path_prepend(path, &backend);
    let escaped = crate::proxy_forward::escape_path(&backend);
    (backend, prepend, escaped)
}

/// A backend's `Location` (or link) as the proxy rewrites it, under `prefix`, for a
/// backend at `backend_host`.
pub fn proxy_rewrite_url(prefix: &str, backend_host: &str, value: &str) -> Option<String> {
    crate::proxy_rewrite::Rewriter {
        prefix: prefix.to_owned(),
        backend_host: backend_host.to_owned(),
    }
    .url(value)
}

/// A backend's HTML page (in `encoding`) as the proxy rewrites it.
pub fn proxy_rewrite_html(prefix: &str, page: &[u8], encoding: &str) -> Option<Vec<u8>> {
    crate::proxy_rewrite::Rewriter {
        prefix: prefix.to_owned(),
        backend_host: "10.0.0.5:8080".to_owned(),
    }
    .html(page, encoding)
}

/// Every built-in resource's defaulting and validation over `obj`, as a create and as an
/// update of `old` (defaulted too). Validation answers with causes, whatever the object:
/// a panic here is a finding.
pub fn validate_builtin(obj: &Value, old: &Value) -> usize {
    let mut causes = 0;
    for r in crate::resources::RESOURCES {
        let mut new = obj.clone();
        (r.defaults)(&mut new);
        let mut before = old.clone();
        (r.defaults)(&mut before);
        causes += (r.validate)(&new, None).len();
        causes += (r.validate)(&new, Some(&before)).len();
    }
    causes
}

/// A text as the value of every legacy annotation upstream decodes with Go's JSON
/// decoder (a pod's tolerations, a node's taints and avoid-pods), through pod and node
/// validation: the causes found. A panic here is a finding.
pub fn legacy_annotations(text: &str) -> usize {
    let annotations = serde_json::json!({
        "scheduler.alpha.kubernetes.io/tolerations": text,
        "scheduler.alpha.kubernetes.io/taints": text,
        "scheduler.alpha.kubernetes.io/preferAvoidPods": text,
    });
    let obj = serde_json::json!({"metadata": {"name": "a", "annotations": annotations},
        "spec": {"containers": [{"name": "c", "image": "i"}]}});
    validate_builtin(&obj, &obj)
}
