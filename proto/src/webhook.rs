//! The webhooks kube-apiserver asks about tokens (TokenReview) and requests
//! (SubjectAccessReview), as the supervisor read them from their kubeconfig files.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How to reach one webhook: the kubeconfig's cluster and user, files already read.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct WebhookClientConfig {
    /// The kubeconfig file it came from (for messages).
    pub file: String,
    /// The cluster's `server`, an `https://` URL; requests are POSTed to it as is.
    pub server: String,
    /// `certificate-authority(-data)`, PEM; `None` means the system's trust store.
    pub ca_pem: Option<String>,
    /// `insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// `tls-server-name`: the name the server certificate is checked against instead of
    /// the URL's host.
    pub tls_server_name: Option<String>,
    /// `client-certificate(-data)` and `client-key(-data)`, PEM.
    pub client_cert_key_pem: Option<(String, String)>,
    /// `token`, or the content of `tokenFile`: sent as `Authorization: Bearer`.
    pub bearer_token: Option<String>,
}

impl std::fmt::Debug for WebhookClientConfig {
    /// Leaves the key and the token out of logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookClientConfig")
            .field("file", &self.file)
            .field("server", &self.server)
            .field("ca_pem", &self.ca_pem.is_some())
            .field("insecure_skip_tls_verify", &self.insecure_skip_tls_verify)
            .field("tls_server_name", &self.tls_server_name)
            .field("client_cert", &self.client_cert_key_pem.is_some())
            .field("bearer_token", &self.bearer_token.is_some())
            .finish()
    }
}

/// The API version of the review objects exchanged with a webhook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReviewVersion {
    /// `v1`
    V1,
    /// `v1beta1` (kube-apiserver's default for both webhooks).
    V1beta1,
}

impl ReviewVersion {
    /// Parses the flag's value.
    pub fn from_flag(s: &str) -> Option<ReviewVersion> {
        match s {
            "v1" => Some(ReviewVersion::V1),
            "v1beta1" => Some(ReviewVersion::V1beta1),
            _ => None,
        }
    }

    /// The version as written in `apiVersion`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewVersion::V1 => "v1",
            ReviewVersion::V1beta1 => "v1beta1",
        }
    }
}

/// `--authentication-token-webhook-*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenWebhookConfig {
    /// `--authentication-token-webhook-config-file`, read.
    pub client: WebhookClientConfig,
    /// `--authentication-token-webhook-version`.
    pub version: ReviewVersion,
    /// `--authentication-token-webhook-cache-ttl` (answers and refusals alike).
    pub cache_ttl: Duration,
}

/// One authorization webhook: `--authorization-webhook-*` (with `Webhook` in
/// `--authorization-mode`), or a `Webhook` authorizer of `--authorization-config`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthorizationWebhookConfig {
    /// The authorizer's name (`webhook` for the flags).
    pub name: String,
    /// The kubeconfig file, read.
    pub client: WebhookClientConfig,
    /// The SubjectAccessReview version sent.
    pub version: ReviewVersion,
    /// How long 'authorized' answers are cached; zero caches nothing.
    pub authorized_ttl: Duration,
    /// How long 'unauthorized' answers are cached; zero caches nothing.
    pub unauthorized_ttl: Duration,
    /// How long one call may take (30 s for the flags).
    pub timeout: Duration,
    /// Whether a failed call denies (else: no opinion, the flags' behaviour).
    pub deny_on_failure: bool,
    /// CEL expressions over the SubjectAccessReview (`request`), all of which must hold
    /// for the webhook to be asked.
    pub match_conditions: Vec<String>,
}
