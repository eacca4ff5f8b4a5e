//! Reaching a node's kubelet as kube-apiserver does: the node's first address of the
//! `--kubelet-preferred-address-types`, the port its status reports
//! (`status.daemonEndpoints.kubeletEndpoint.Port`, else 10250), HTTPS with
//! `--kubelet-client-certificate` and, when `--kubelet-certificate-authority` is given,
//! the kubelet's certificate verified (else not, upstream's default).

use std::time::Duration;

use kas_proto::{KubeletClientConfig, WebhookClientConfig};
use kas_server::outbound::StreamClient;
use kas_server::status::{Reason, Status};
use serde_json::Value;

/// Upstream's default `--kubelet-port`.
const DEFAULT_PORT: i64 = 10250;

/// The clients of kubelets.
pub(crate) struct Kubelets {
    /// Verifying the kubelet's certificate when a CA is configured.
    client: StreamClient,
    /// For `insecureSkipTLSVerifyBackend` when `client` verifies.
    insecure: Option<StreamClient>,
    preferred: Vec<String>,
    timeout: Duration,
}

impl Kubelets {
    pub(crate) fn new(config: &KubeletClientConfig) -> Result<Kubelets, String> {
        let make = |ca_pem: Option<String>| {
            StreamClient::new(&WebhookClientConfig {
                file: "--kubelet-client-certificate".into(),
                server: String::new(),
                insecure_skip_tls_verify: ca_pem.is_none(),
                ca_pem,
                tls_server_name: None,
                client_cert_key_pem: config
                    .client
                    .as_ref()
                    .map(|c| (c.cert_pem.clone(), c.key_pem.clone())),
                bearer_token: None,
            })
        };
        let client = make(config.ca_pem.clone())?;
        let insecure = match config.ca_pem {
            Some(_) => Some(make(None)?),
            None => None,
        };
        Ok(Kubelets {
            client,
            insecure,
            preferred: config.preferred_address_types.clone(),
            timeout: config.timeout,
        })
    }

    /// `host:port` of `node`'s kubelet, or upstream's error when it has no address of a
    /// preferred type.
    pub(crate) fn address(&self, node: &Value) -> Result<String, Status> {
        let (host, port) = self.host_and_port(node)?;
        Ok(if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        })
    }

    /// The host and port of `node`'s kubelet: its first address of a preferred type and
    /// the port its status reports (else upstream's default).
    pub(crate) fn host_and_port(&self, node: &Value) -> Result<(String, i64), Status> {
        let addresses: Vec<(&str, &str)> = node
            .pointer("/status/addresses")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|a| {
                (
                    a.get("type").and_then(Value::as_str).unwrap_or(""),
                    a.get("address").and_then(Value::as_str).unwrap_or(""),
                )
            })
            .collect();
        let host = self
            .preferred
            .iter()
            .find_map(|t| addresses.iter().find(|(kind, _)| kind == t))
            .map(|(_, a)| *a)
            .ok_or_else(|| {
                let known: Vec<String> = addresses
                    .iter()
                    .map(|(t, a)| format!("{{{t} {a}}}"))
                    .collect();
                Status::new(
                    Reason::Unknown,
                    format!(
                        "no preferred addresses found; known addresses: [{}]",
                        known.join(" ")
                    ),
                )
            })?;
        let port = node
            .pointer("/status/daemonEndpoints/kubeletEndpoint/Port")
            .and_then(Value::as_i64)
            .filter(|p| *p > 0)
            .unwrap_or(DEFAULT_PORT);
        Ok((host.to_owned(), port))
    }

    /// The client to use: the unverified one when the request asks to skip verifying
    /// the kubelet (`insecureSkipTLSVerifyBackend`).
    pub(crate) fn client(&self, skip_verify: bool) -> &StreamClient {
        match (&self.insecure, skip_verify) {
            (Some(insecure), true) => insecure,
            _ => &self.client,
        }
    }

    /// `--kubelet-timeout`.
    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kubelets() -> Kubelets {
        Kubelets::new(&KubeletClientConfig::default()).expect("client")
    }

    #[test]
    fn preferred_address_and_port() {
        let node = json!({"status": {
            "addresses": [{"type": "InternalIP", "address": "10.0.0.5"},
                          {"type": "Hostname", "address": "n1"}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10777}}}});
        assert_eq!(kubelets().address(&node).unwrap(), "n1:10777");
        let v6 = json!({"status": {"addresses": [{"type": "InternalIP", "address": "fd00::1"}]}});
        assert_eq!(kubelets().address(&v6).unwrap(), "[fd00::1]:10250");
    }

    #[test]
    fn no_address_is_upstreams_error() {
        let e = kubelets()
            .address(&json!({"metadata": {"name": "n"}}))
            .unwrap_err();
        assert_eq!(
            e.message,
            "no preferred addresses found; known addresses: []"
        );
        let odd = json!({"status": {"addresses": [{"type": "Other", "address": "x"}]}});
        let e = kubelets().address(&odd).unwrap_err();
        assert_eq!(
            e.message,
            "no preferred addresses found; known addresses: [{Other x}]"
        );
    }
}
