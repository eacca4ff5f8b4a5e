//! A KMS v2 plugin for the encryption benchmark (`kas-baseline --kms-plugin <socket>`):
//! kube-apiserver's `v2.KeyManagementService` (Status, Encrypt, Decrypt) on a unix
//! socket, built on the gRPC API kas-server generates (its `kms-plugin-server` feature).
//! DEK seeds are sealed with one AES-256-GCM key drawn from `/dev/urandom` at start, the
//! key ID as additional data. The key lives only in this process: values written under
//! one plugin run cannot be read after it restarts, which a benchmark never needs.
//!
//! The server calls Encrypt once per DEK seed (at start and on key ID changes) and
//! Decrypt once per seed it has not cached, so the plugin is off the hot path by design;
//! it only has to answer as a real plugin would.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::Aes256Gcm;
use kas_server::storage::encryption::kms_api::key_management_service_server::{
    KeyManagementService, KeyManagementServiceServer,
};
use kas_server::storage::encryption::kms_api::{
    DecryptRequest, DecryptResponse, EncryptRequest, EncryptResponse, StatusRequest, StatusResponse,
};
use tonic::{Request, Response, Status};

use crate::Error;

/// The key ID Status reports and Encrypt uses.
pub const KEY_ID: &str = "kas-bench-1";
const NONCE_LEN: usize = 12;

struct Plugin {
    kek: Aes256Gcm,
    /// Nonces are a counter: the key is fresh per process, so a counter never repeats
    /// under it.
    nonce: AtomicU64,
}

#[tonic::async_trait]
impl KeyManagementService for Plugin {
    async fn status(&self, _: Request<StatusRequest>) -> Result<Response<StatusResponse>, Status> {
        Ok(Response::new(StatusResponse {
            version: "v2".into(),
            healthz: "ok".into(),
            key_id: KEY_ID.into(),
        }))
    }

    async fn encrypt(
        &self,
        req: Request<EncryptRequest>,
    ) -> Result<Response<EncryptResponse>, Status> {
        let mut nonce = [0u8; NONCE_LEN];
        nonce[4..].copy_from_slice(&self.nonce.fetch_add(1, Ordering::Relaxed).to_be_bytes());
        let sealed = self
            .kek
            .encrypt(
                (&nonce).into(),
                Payload {
                    msg: &req.get_ref().plaintext,
                    aad: KEY_ID.as_bytes(),
                },
            )
            .map_err(|_| Status::internal("sealing the seed failed"))?;
        let mut ciphertext = nonce.to_vec();
        ciphertext.extend_from_slice(&sealed);
        Ok(Response::new(EncryptResponse {
            ciphertext: ciphertext.into(),
            key_id: KEY_ID.into(),
            annotations: Default::default(),
        }))
    }

    async fn decrypt(
        &self,
        req: Request<DecryptRequest>,
    ) -> Result<Response<DecryptResponse>, Status> {
        let r = req.get_ref();
        if r.ciphertext.len() < NONCE_LEN {
            return Err(Status::invalid_argument("ciphertext too short"));
        }
        let (nonce, sealed) = r.ciphertext.split_at(NONCE_LEN);
        let plaintext = self
            .kek
            .decrypt(
                nonce.into(),
                Payload {
                    msg: sealed,
                    aad: r.key_id.as_bytes(),
                },
            )
            .map_err(|_| {
                Status::invalid_argument("not sealed by this plugin run under that key ID")
            })?;
        Ok(Response::new(DecryptResponse {
            plaintext: plaintext.into(),
        }))
    }
}

/// Binds `socket` (removing a stale socket file first) and serves until the future is
/// dropped.
pub async fn serve(socket: &Path) -> Result<(), Error> {
    let mut key = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut key))
        .map_err(|e| Error::file("/dev/urandom", e))?;
    let kek = Aes256Gcm::new_from_slice(&key)
        .map_err(|e| Error::Setup(format!("AES-256-GCM key: {e}")))?;
    let plugin = Plugin {
        kek,
        nonce: AtomicU64::new(1),
    };
    if socket.exists() {
        std::fs::remove_file(socket).map_err(|e| Error::file(socket, e))?;
    }
    let listener = tokio::net::UnixListener::bind(socket).map_err(|e| Error::file(socket, e))?;
    println!("listening on unix://{}", socket.display());
    tonic::transport::Server::builder()
        .add_service(KeyManagementServiceServer::new(plugin))
        .serve_with_incoming(tokio_stream::wrappers::UnixListenerStream::new(listener))
        .await
        .map_err(Error::Channel)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use kas_server::storage::encryption::kms_api::key_management_service_client::KeyManagementServiceClient;
    use tonic::transport::Channel;

    use super::*;

    /// Connects once the plugin's socket answers (polled, the server binds in a task).
    async fn client(socket: &Path) -> KeyManagementServiceClient<Channel> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if socket.exists() {
                let endpoint = format!("unix://{}", socket.display());
                if let Ok(channel) = tonic::transport::Endpoint::from_shared(endpoint)
                    .expect("endpoint")
                    .connect()
                    .await
                {
                    return KeyManagementServiceClient::new(channel);
                }
            }
            assert!(Instant::now() < deadline, "the plugin never answered");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn seeds_round_trip_and_foreign_ciphertexts_are_refused() {
        let dir = std::env::temp_dir().join(format!("kas-bench-kms-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let socket = dir.join("kms.sock");
        // A stale socket file from an earlier run is replaced, not an error.
        std::fs::write(&socket, b"stale").expect("stale file");
        let server = tokio::spawn({
            let socket = socket.clone();
            async move { serve(&socket).await }
        });
        let mut c = client(&socket).await;

        let status = c
            .status(StatusRequest {})
            .await
            .expect("status")
            .into_inner();
        assert_eq!(
            (
                status.version.as_str(),
                status.healthz.as_str(),
                status.key_id.as_str()
            ),
            ("v2", "ok", KEY_ID)
        );

        let seed = vec![9u8; 32];
        let sealed = c
            .encrypt(EncryptRequest {
                plaintext: seed.clone().into(),
                uid: "u1".into(),
            })
            .await
            .expect("encrypt")
            .into_inner();
        assert_eq!(sealed.key_id, KEY_ID);
        assert_ne!(sealed.ciphertext.as_ref(), seed.as_slice());
        let again = c
            .encrypt(EncryptRequest {
                plaintext: seed.clone().into(),
                uid: "u2".into(),
            })
            .await
            .expect("encrypt")
            .into_inner();
        assert_ne!(
            again.ciphertext, sealed.ciphertext,
            "a fresh nonce every call"
        );

        let opened = c
            .decrypt(DecryptRequest {
                ciphertext: sealed.ciphertext.clone(),
                uid: "u3".into(),
                key_id: KEY_ID.into(),
                annotations: Default::default(),
            })
            .await
            .expect("decrypt")
            .into_inner();
        assert_eq!(opened.plaintext.as_ref(), seed.as_slice());

        for (ciphertext, key_id) in [
            (sealed.ciphertext.slice(..5), KEY_ID),
            (sealed.ciphertext.clone(), "another-key"),
        ] {
            let refused = c
                .decrypt(DecryptRequest {
                    ciphertext,
                    uid: "u4".into(),
                    key_id: key_id.into(),
                    annotations: Default::default(),
                })
                .await
                .expect_err("refused");
            assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        }

        server.abort();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
