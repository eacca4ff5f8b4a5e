//! `componentstatuses` (deprecated since 1.19, still served by kube-apiserver 1.33): the
//! health of the scheduler and the controller manager, probed at their default secure
//! ports on loopback (`https://127.0.0.1:10259/healthz`, `:10257`, certificates not
//! verified), and of etcd (`etcd-0`, a read through the store), computed on each read as
//! upstream does. A probe that fails is `Healthy=False` with upstream's message.

use std::time::Duration;

use kas_proto::WebhookClientConfig;
use kas_server::rest::{HookFuture, Hooks, RestStore};
use kas_server::status::{Reason, Status};
use kas_server::storage::Storage;
use kas_server::webhook::{Backoff, WebhookClient, WebhookError};
use serde_json::{json, Value};

/// Upstream's probeTimeOut.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);
/// The most of a health answer kept as the message (upstream's prober reads 10 KiB).
const MAX_MESSAGE: usize = 10 * 1024;

/// The components, by name, with their health URL (`None`: the store).
const COMPONENTS: &[(&str, Option<&str>)] = &[
    (
        "controller-manager",
        Some("https://127.0.0.1:10257/healthz"),
    ),
    ("etcd-0", None),
    ("scheduler", Some("https://127.0.0.1:10259/healthz")),
];

/// The hooks computing ComponentStatus objects.
pub(crate) struct ComponentStatuses {
    storage: Storage,
    /// The probes' client (certificates not verified), made once with its pool.
    client: Result<WebhookClient, String>,
}

impl ComponentStatuses {
    pub(crate) fn new(storage: Storage) -> ComponentStatuses {
        let config = WebhookClientConfig {
            file: "componentstatus".into(),
            server: "https://127.0.0.1/healthz".into(),
            ca_pem: None,
            insecure_skip_tls_verify: true,
            tls_server_name: None,
            client_cert_key_pem: None,
            bearer_token: None,
        };
        let once = Backoff {
            steps: 1,
            ..Backoff::default()
        };
        let client = WebhookClient::new(&config)
            .map(|c| c.with_limits(PROBE_TIMEOUT, once))
            .map_err(|e| e.to_string());
        ComponentStatuses { storage, client }
    }

    async fn status(&self, name: &str, url: Option<&str>) -> Value {
        let (healthy, message, error) = match url {
            None => match self.storage.check().await {
                Ok(()) => (true, "ok".to_owned(), String::new()),
                Err(e) => (false, String::new(), e.to_string()),
            },
            Some(url) => match &self.client {
                Ok(client) => probe(client, url).await,
                Err(e) => (false, String::new(), e.clone()),
            },
        };
        let mut condition =
            json!({"type": "Healthy", "status": if healthy { "True" } else { "False" }});
        if !message.is_empty() {
            condition["message"] = json!(message);
        }
        if !error.is_empty() {
            condition["error"] = json!(error);
        }
        json!({
            "kind": "ComponentStatus",
            "apiVersion": "v1",
            // A computed object: its zero creation time shows as null, as upstream's.
            "metadata": {"name": name, "creationTimestamp": null},
            "conditions": [condition],
        })
    }
}

/// An HTTP probe as upstream's prober: 2xx is healthy with the body as the message; any
/// other answer, or none, is unhealthy with the reason as the message.
async fn probe(client: &WebhookClient, url: &str) -> (bool, String, String) {
    match client.get(url).await {
        Ok((code, body)) if code.is_success() => {
            let body = &body[..body.len().min(MAX_MESSAGE)];
            (
                true,
                String::from_utf8_lossy(body).into_owned(),
                String::new(),
            )
        }
        Ok((code, _)) if code.is_redirection() => (
            false,
            "Probe terminated redirects".to_owned(),
            String::new(),
        ),
        Ok((code, _)) => (
            false,
            format!("HTTP probe failed with statuscode: {}", code.as_u16()),
            String::new(),
        ),
        Err(WebhookError::Transport { message, .. }) => {
            (false, format!("Get {url:?}: {message}"), String::new())
        }
        Err(e) => (false, e.to_string(), String::new()),
    }
}

impl Hooks for ComponentStatuses {
    fn computed<'a>(
        &'a self,
        _store: &'a RestStore,
        name: Option<&'a str>,
    ) -> HookFuture<'a, Result<Vec<Value>, Status>> {
        Box::pin(async move {
            let wanted: Vec<_> = COMPONENTS
                .iter()
                .filter(|(n, _)| name.is_none_or(|w| w == *n))
                .collect();
            if let (Some(name), true) = (name, wanted.is_empty()) {
                // Upstream's plain error, which reaches the client as a 500.
                return Err(Status::new(
                    Reason::Unknown,
                    format!("Component not found: {name}"),
                ));
            }
            let probes = wanted.iter().map(|(n, url)| self.status(n, *url));
            Ok(futures_util::future::join_all(probes).await)
        })
    }
}
