//! Messages between the processes of kube-apiserver-rs: the supervisor ↔ worker control
//! protocol (a version handshake, then length-prefixed bincode frames) and the header that
//! carries the authenticated request context from the front door to a back-end worker.
//!
//! This crate is pure types plus framing; it opens no sockets and spawns nothing.

#![forbid(unsafe_code)]

mod audit;
mod config;
mod context;
mod control;
mod encryption;
mod frame;
mod jwt;
mod requestheader;
mod role;
mod webhook;

pub use audit::{
    AuditBatch, AuditConfig, AuditGroupResources, AuditLevel, AuditLogBackend, AuditLogFormat,
    AuditMode, AuditPolicy, AuditRule, AuditStage, AuditTruncate, AuditWebhookBackend,
};
pub use config::{
    AdmissionConfig, CertFiles, ClientCertificate, KubeletClientConfig, SecureServing,
    StorageMediaType, TlsVersion, WorkerConfig,
};
pub use context::{
    RequestContext, RequestInfo, UserInfo, AUDIT_ANNOTATIONS_HEADER, AUDIT_REQUEST_OBJECT_HEADER,
    AUDIT_REQUEST_OBJECT_MAX, CONTEXT_HEADER,
};
pub use control::{
    AuthorizationChain, CheckStatus, FromSupervisor, FromWorker, PeerState, PeerStatus,
    ShutdownPhase, StoreHandover, WorkerHealth, WorkerRestarts,
};
pub use encryption::{
    EncryptionConfig, EncryptionKey, EncryptionProvider, EncryptionRule, KmsProvider,
};
pub use frame::{decode, encode, read_frame, write_frame, Error, MAX_FRAME_LEN};
pub use jwt::{
    AnonymousConfig, ClaimMappings, ClaimOrExpression, ClaimValidationRule, ExtraMapping,
    JwtAuthenticator, JwtAuthnConfig, JwtIssuer, PrefixedClaimOrExpression, UserValidationRule,
};
pub use requestheader::RequestHeaderConfig;
pub use role::{UnknownRole, WorkerRole};
pub use webhook::{
    AuthorizationWebhookConfig, ReviewVersion, TokenWebhookConfig, WebhookClientConfig,
};

/// Version of the control protocol. The supervisor and a worker exchange it first and
/// refuse to talk when it differs (they are the same binary, so this guards against a
/// binary replaced on disk while the supervisor runs).
pub const PROTOCOL_VERSION: u32 = 22;

/// File descriptor at which a worker finds its control socket (inherited from the supervisor).
pub const CONTROL_FD: i32 = 3;
/// File descriptor at which the aggregator finds the secure listener.
pub const LISTENER_FD: i32 = 4;
