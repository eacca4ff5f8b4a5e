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
