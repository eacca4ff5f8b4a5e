//! Calls to a KMS v2 plugin over its unix socket, as kube-apiserver's gRPC service makes
//! them: every call gets the provider's `timeout`, and a plugin that cannot be reached is
//! waited for until then (upstream dials with WaitForReady), so an absent, hung or
//! refusing plugin all end as `DeadlineExceeded`. Errors read as Go's gRPC prints them.

use std::collections::HashMap;
use std::future::Future;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tonic::transport::{Channel, Endpoint};

use super::kms_api::key_management_service_client::KeyManagementServiceClient;
use super::kms_api::{
    DecryptRequest, EncryptRequest, EncryptResponse, StatusRequest, StatusResponse,
};

/// How long to wait before dialling an unreachable plugin again within one call.
const REDIAL: Duration = Duration::from_millis(100);

/// A plugin's client (cheap to clone).
#[derive(Clone)]
pub(super) struct KmsClient {
    client: KeyManagementServiceClient<Channel>,
    timeout: Duration,
    /// The provider's name, for the call metrics.
    provider: String,
}

/// Go's name of a gRPC code (`codes.Code.String()`), which tonic spells alike except
/// for two.
fn go_code(code: tonic::Code) -> String {
    match code {
        tonic::Code::Ok => "OK".to_owned(),
        tonic::Code::Cancelled => "Canceled".to_owned(),
        other => format!("{other:?}"),
    }
}

/// Go's `status.Error(...).Error()`.
fn go_status(code: tonic::Code, message: &str) -> String {
    format!("rpc error: code = {} desc = {message}", go_code(code))
}

const DEADLINE: &str = "rpc error: code = DeadlineExceeded desc = context deadline exceeded";

impl KmsClient {
    /// A client of the plugin at `socket`; nothing is dialled until the first call.
    pub(super) fn new(
        provider: &str,
        socket: &str,
        timeout: Duration,
    ) -> Result<KmsClient, String> {
        let channel = Endpoint::from_shared(format!("unix://{socket}"))
            .map_err(|e| format!("failed to create connection to unix://{socket}, error: {e}"))?
            .connect_timeout(timeout)
            .connect_lazy();
        Ok(KmsClient {
            client: KeyManagementServiceClient::new(channel),
            timeout,
            provider: provider.to_owned(),
        })
    }

    /// One call of `method` within the timeout; an unreachable plugin is retried until
    /// then. Its latency and code are recorded as one call, as upstream's interceptor
    /// sees a call that waits for the plugin.
    async fn call<T, F, Fut>(&self, method: &str, f: F) -> Result<T, String>
    where
        F: Fn(KeyManagementServiceClient<Channel>) -> Fut,
        Fut: Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    {
        let start = Instant::now();
        let deadline = start + self.timeout;
        let attempt = async {
            loop {
                match f(self.client.clone()).await {
                    Ok(r) => return Ok((r.into_inner(), go_code(tonic::Code::Ok))),
                    // Not connected (no socket, refused): wait for the plugin, as
                    // WaitForReady does.
                    Err(s) if s.code() == tonic::Code::Unavailable && is_transport(&s) => {
                        tokio::time::sleep(REDIAL).await;
                    }
                    Err(s) => return Err((go_status(s.code(), s.message()), go_code(s.code()))),
                }
            }
        };
        let (result, code) = match tokio::time::timeout_at(deadline.into(), attempt).await {
            Ok(Ok((r, code))) => (Ok(r), code),
            Ok(Err((e, code))) => (Err(e), code),
            Err(_) => (
                Err(DEADLINE.to_owned()),
                go_code(tonic::Code::DeadlineExceeded),
            ),
        };
        let method = format!("/v2.KeyManagementService/{method}");
        super::metrics::kms_call(&self.provider, &method, start.elapsed(), &code);
        result
    }

    /// `Status`.
    pub(super) async fn status(&self) -> Result<StatusResponse, String> {
        self.call(
            "Status",
            |mut c| async move { c.status(StatusRequest {}).await },
        )
        .await
    }

    /// `Encrypt` of `plaintext` (a DEK seed).
    pub(super) async fn encrypt(
        &self,
        uid: &str,
        plaintext: &[u8],
    ) -> Result<EncryptResponse, String> {
        let req = EncryptRequest {
            plaintext: Bytes::copy_from_slice(plaintext),
            uid: uid.to_owned(),
        };
        self.call("Encrypt", |mut c| {
            let req = req.clone();
            async move { c.encrypt(req).await }
        })
        .await
    }

    /// `Decrypt` of an encrypted DEK source.
    pub(super) async fn decrypt(
        &self,
        uid: &str,
        ciphertext: &Bytes,
        key_id: &str,
        annotations: &HashMap<String, Bytes>,
    ) -> Result<Bytes, String> {
        let req = DecryptRequest {
            ciphertext: ciphertext.clone(),
            uid: uid.to_owned(),
            key_id: key_id.to_owned(),
            annotations: annotations.clone(),
        };
        self.call("Decrypt", |mut c| {
            let req = req.clone();
            async move { c.decrypt(req).await }
        })
        .await
        .map(|r| r.plaintext)
    }
}

/// Whether `s` is tonic's report of a connection that could not be made (as opposed to
/// the plugin answering Unavailable itself).
fn is_transport(s: &tonic::Status) -> bool {
    use std::error::Error;
    s.source().is_some() || s.message().contains("transport")
}
