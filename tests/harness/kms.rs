//! A KMS v2 plugin for the tests: kube-apiserver's gRPC API (`v2.KeyManagementService`)
//! served on a unix socket in the test's temp dir. It "encrypts" DEK seeds with one local
//! AES-256-GCM key (the key ID as additional data, so a Decrypt naming another key ID
//! fails), reports a key ID the test can change, and can be told to stop answering
//! (everything, or only Decrypt) and to answer again.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::Aes256Gcm;
use kas_server::storage::encryption::kms_api::key_management_service_server::{
    KeyManagementService, KeyManagementServiceServer,
};
use kas_server::storage::encryption::kms_api::{
    DecryptRequest, DecryptResponse, EncryptRequest, EncryptResponse, StatusRequest, StatusResponse,
};
use tokio::sync::watch;
use tonic::{Request, Response, Status};

/// What the plugin does with calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Every call answered.
    All,
    /// Decrypt never answered; Status and Encrypt are.
    NoDecrypt,
    /// No call answered.
    Nothing,
}

struct State {
    key_id: Mutex<String>,
    answer: watch::Sender<Answer>,
    kek: Aes256Gcm,
    nonce: AtomicU64,
    encrypts: AtomicUsize,
    decrypts: AtomicUsize,
}

impl State {
    /// Waits while `call` is not to be answered.
    async fn gate(&self, decrypt: bool) {
        let mut rx = self.answer.subscribe();
        let _ = rx
            .wait_for(|a| match a {
                Answer::All => true,
                Answer::NoDecrypt => !decrypt,
                Answer::Nothing => false,
            })
            .await;
    }
}

#[derive(Clone)]
struct Service(Arc<State>);

#[tonic::async_trait]
impl KeyManagementService for Service {
    async fn status(&self, _: Request<StatusRequest>) -> Result<Response<StatusResponse>, Status> {
        self.0.gate(false).await;
        let key_id = self.0.key_id.lock().expect("key id").clone();
        Ok(Response::new(StatusResponse {
            version: "v2".into(),
            healthz: "ok".into(),
            key_id,
        }))
    }

    async fn encrypt(
        &self,
        req: Request<EncryptRequest>,
    ) -> Result<Response<EncryptResponse>, Status> {
        self.0.gate(false).await;
        self.0.encrypts.fetch_add(1, Ordering::SeqCst);
        let key_id = self.0.key_id.lock().expect("key id").clone();
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&self.0.nonce.fetch_add(1, Ordering::SeqCst).to_be_bytes());
        let sealed = self
            .0
            .kek
            .encrypt(
                (&nonce).into(),
                Payload {
                    msg: &req.get_ref().plaintext,
                    aad: key_id.as_bytes(),
                },
            )
            .map_err(|_| Status::internal("seal failed"))?;
        let mut ciphertext = nonce.to_vec();
        ciphertext.extend_from_slice(&sealed);
        Ok(Response::new(EncryptResponse {
            ciphertext: ciphertext.into(),
            key_id,
            annotations: Default::default(),
        }))
    }

    async fn decrypt(
        &self,
        req: Request<DecryptRequest>,
    ) -> Result<Response<DecryptResponse>, Status> {
        self.0.gate(true).await;
        self.0.decrypts.fetch_add(1, Ordering::SeqCst);
        let r = req.get_ref();
        if r.ciphertext.len() < 12 {
            return Err(Status::invalid_argument("ciphertext too short"));
        }
        let (nonce, sealed) = r.ciphertext.split_at(12);
        let plaintext = self
            .0
            .kek
            .decrypt(
                nonce.into(),
                Payload {
                    msg: sealed,
                    aad: r.key_id.as_bytes(),
                },
            )
            .map_err(|_| Status::invalid_argument("not sealed by this plugin under that key ID"))?;
        Ok(Response::new(DecryptResponse {
            plaintext: plaintext.into(),
        }))
    }
}

/// A running plugin; stops when dropped.
pub struct KmsPlugin {
    socket: PathBuf,
    state: Arc<State>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl KmsPlugin {
    /// Serves at `socket` (which must not exist) with `key_id`.
    pub fn start(socket: &Path, key_id: &str) -> KmsPlugin {
        let listener = tokio::net::UnixListener::bind(socket).expect("bind the plugin's socket");
        let state = Arc::new(State {
            key_id: Mutex::new(key_id.to_owned()),
            answer: watch::Sender::new(Answer::All),
            kek: Aes256Gcm::new_from_slice(&[7u8; 32]).expect("kek"),
            nonce: AtomicU64::new(1),
            encrypts: AtomicUsize::new(0),
            decrypts: AtomicUsize::new(0),
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let service = KeyManagementServiceServer::new(Service(state.clone()));
        tokio::spawn(async move {
            let _ = tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming_shutdown(
                    tokio_stream::wrappers::UnixListenerStream::new(listener),
                    async {
                        let _ = stopped.await;
                    },
                )
                .await;
        });
        KmsPlugin {
            socket: socket.to_owned(),
            state,
            stop: Some(stop),
        }
    }

    /// `unix://<socket>`, for the EncryptionConfiguration.
    pub fn endpoint(&self) -> String {
        format!("unix://{}", self.socket.display())
    }

    /// Changes the key ID Status reports and Encrypt uses.
    pub fn set_key_id(&self, key_id: &str) {
        *self.state.key_id.lock().expect("key id") = key_id.to_owned();
    }

    /// Which calls are answered from now on (held calls resume once allowed).
    pub fn answer(&self, a: Answer) {
        self.state.answer.send_replace(a);
    }

    /// Encrypt calls answered so far (one per new DEK seed).
    pub fn encrypts(&self) -> usize {
        self.state.encrypts.load(Ordering::SeqCst)
    }

    /// Decrypt calls answered so far.
    pub fn decrypts(&self) -> usize {
        self.state.decrypts.load(Ordering::SeqCst)
    }
}

impl Drop for KmsPlugin {
    fn drop(&mut self) {
        // Held calls are released so the server can shut down.
        self.state.answer.send_replace(Answer::All);
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = std::fs::remove_file(&self.socket);
    }
}
