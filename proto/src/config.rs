//! The completed options a worker receives from the supervisor, instead of re-parsing flags.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::WorkerRole;

/// Everything a worker needs to run, completed and validated by the supervisor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkerConfig {
    /// The role this worker runs.
    pub role: WorkerRole,
    /// Private runtime directory (0700) holding the workers' unix sockets.
    pub runtime_dir: PathBuf,
    /// Set for a worker started to replace a running one (a reload): it takes traffic
    /// only once ready. A back end binds [`WorkerConfig::staged_socket_path`], which the
    /// supervisor moves over its role's path then; a front door starts accepting on the
    /// shared listener only then.
    pub staged: bool,
    /// State directory (certificates, kubeconfig, embedded store).
    pub data_dir: PathBuf,
    /// klog-style verbosity (`-v`).
    pub verbosity: u8,
    /// `--logging-format`: `text` or `journald` (`text` switches to journald by itself
    /// when `JOURNAL_STREAM` is set).
    pub logging_format: String,
    /// The Kubernetes version this server emulates, e.g. `v1.33.0`.
    pub kubernetes_version: String,
    /// The secure front door (used by the aggregator).
    pub serving: SecureServing,
    /// `--advertise-address`, completed.
    pub advertise_address: IpAddr,
    /// `--external-hostname`, completed.
    pub external_hostname: String,
    /// `--etcd-servers`; empty means the embedded store of the storage worker.
    pub etcd_servers: Vec<String>,
    /// `--etcd-prefix`.
    pub etcd_prefix: String,
    /// `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`.
    pub etcd_cafile: Option<PathBuf>,
    /// Client certificate for etcd.
    pub etcd_certfile: Option<PathBuf>,
    /// Client key for etcd.
    pub etcd_keyfile: Option<PathBuf>,
    /// `--etcd-compaction-interval`; zero disables compaction by the API server.
    pub etcd_compaction_interval: Duration,
    /// `--storage-quota-bytes`: the embedded store's space quota; 0 for the default.
    pub storage_quota_bytes: u64,
    /// `--storage-media-type`: how built-in objects are encoded in etcd (custom resources
    /// are JSON whatever it says, as upstream).
    pub storage_media_type: StorageMediaType,
    /// `--service-cluster-ip-range`: one CIDR, or two for dual stack.
    pub service_cluster_ip_ranges: Vec<String>,
    /// `--service-node-port-range`, inclusive.
    pub service_node_port_range: (u16, u16),
    /// `--max-requests-inflight`; zero means no limit.
    pub max_requests_inflight: u32,
    /// `--max-mutating-requests-inflight`; zero means no limit.
    pub max_mutating_requests_inflight: u32,
    /// `--request-timeout`.
    pub request_timeout: Duration,
    /// `--min-request-timeout`.
    pub min_request_timeout: Duration,
    /// `--shutdown-delay-duration`.
    pub shutdown_delay: Duration,
    /// `--shutdown-send-retry-after`.
    pub shutdown_send_retry_after: bool,
    /// `--livez-grace-period`.
    pub livez_grace_period: Duration,
    /// `--cors-allowed-origins` (regular expressions).
    pub cors_allowed_origins: Vec<String>,
    /// `--runtime-config`, as `key=value` pairs in the order given.
    pub runtime_config: Vec<(String, String)>,
    /// `--feature-gates`, as `name=bool` pairs in the order given.
    pub feature_gates: Vec<(String, bool)>,
    /// `--anonymous-auth`.
    pub anonymous_auth: bool,
    /// `--enable-bootstrap-token-auth`: `bootstrap-token-*` Secrets in kube-system
    /// authenticate their tokens.
    pub enable_bootstrap_token_auth: bool,
    /// `--requestheader-*`, when `--requestheader-client-ca-file` is given.
    pub request_header: Option<crate::RequestHeaderConfig>,
    /// The certificate files given by flag, re-read when they change.
    pub cert_files: CertFiles,
    /// `--token-auth-file`, read at start: token → the user it authenticates.
    pub static_tokens: Vec<(String, crate::UserInfo)>,
    /// `--authentication-token-webhook-*`: tokens nothing else verifies are asked there.
    pub token_webhook: Option<crate::TokenWebhookConfig>,
    /// The authorizers in order: `--authorization-mode`, or the types of
    /// `--authorization-config`'s authorizers.
    pub authorization_modes: Vec<String>,
    /// The webhooks, one per `Webhook` among the modes, in the same order.
    pub authorization_webhooks: Vec<crate::AuthorizationWebhookConfig>,
    /// The admission plugins that run and their settings.
    pub admission: AdmissionConfig,
    /// `--service-account-issuer`: the first signs new tokens, all are accepted.
    pub service_account_issuers: Vec<String>,
    /// `--api-audiences` (defaulted to the first issuer).
    pub api_audiences: Vec<String>,
    /// The service account token signing key, PKCS#8 PEM (ECDSA P-256/P-384 or RSA):
    /// `--service-account-signing-key-file`, else the key generated in the cert dir.
    pub service_account_signing_key_pem: String,
    /// The signing key's public half, PKIX PEM (its SHA-256 names the key in `kid`).
    pub service_account_signing_public_key_pem: String,
    /// Public keys that verify service account tokens, one PEM block each
    /// (`--service-account-key-file`, else the signing key's public half).
    pub service_account_public_keys_pem: Vec<String>,
    /// `--service-account-max-token-expiration`; `None` means no limit.
    pub service_account_max_token_expiration: Option<Duration>,
    /// `--service-account-extend-token-expiration`.
    pub service_account_extend_token_expiration: bool,
    /// `--service-account-jwks-uri`: the `jwks_uri` of the issuer discovery document
    /// (checked: an https URL). `None` derives it from the external address.
    pub service_account_jwks_uri: Option<String>,
    /// `--service-account-lookup`: a service account token is refused once the objects it
    /// names (ServiceAccount, Secret, Pod) are gone.
    pub service_account_lookup: bool,
    /// JWT authenticators: `--oidc-*` or `--authentication-config`'s `jwt`.
    pub jwt: crate::JwtAuthnConfig,
    /// `--authentication-config`'s `anonymous` paths: when not empty, anonymous requests
    /// (with `anonymous_auth`) are allowed on these paths only.
    pub anonymous_paths: Vec<String>,
    /// `--enable-aggregator-routing`: a service reference (remote APIService, webhook)
    /// resolves to one of the service's endpoints rather than its cluster IP.
    pub enable_aggregator_routing: bool,
    /// `--enable-priority-and-fairness`: requests are classified and queued by
    /// FlowSchemas and priority levels (else limited by the two max-in-flight counts).
    pub enable_priority_and_fairness: bool,
    /// `--proxy-client-cert-file` / `--proxy-client-key-file`: the client certificate
    /// presented to remote API servers.
    pub proxy_client: Option<ClientCertificate>,
    /// How the API server reaches kubelets (pods' logs, exec, attach, port-forward).
    pub kubelet: KubeletClientConfig,
    /// `--encryption-provider-config`, parsed and checked; `None` stores every value as
    /// it is.
    pub encryption: Option<crate::EncryptionConfig>,
    /// `--encryption-provider-config` when `--encryption-provider-config-automatic-reload`
    /// is set: the supervisor follows this file and sends its changes
    /// ([`crate::FromSupervisor::Encryption`]); workers name it in their errors and keep
    /// one `kms-providers` health check whatever the providers.
    pub encryption_reload: Option<PathBuf>,
    /// `--audit-policy-file` with a backend; `None` writes no audit events.
    pub audit: Option<crate::AuditConfig>,
}

/// `--storage-media-type`'s values, as kube-apiserver accepts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum StorageMediaType {
    /// `application/json`.
    Json,
    /// `application/yaml`.
    Yaml,
    /// `application/vnd.kubernetes.protobuf`: kube-apiserver's default.
    #[default]
    Protobuf,
}

impl StorageMediaType {
    /// Every accepted value, as upstream lists them (sorted).
    pub const ALL: [&'static str; 3] = [
        "application/json",
        "application/vnd.kubernetes.protobuf",
        "application/yaml",
    ];

    /// The media type named `s`, if it is one kube-apiserver accepts.
    pub fn parse(s: &str) -> Option<StorageMediaType> {
        match s {
            "application/json" => Some(StorageMediaType::Json),
            "application/yaml" => Some(StorageMediaType::Yaml),
            "application/vnd.kubernetes.protobuf" => Some(StorageMediaType::Protobuf),
            _ => None,
        }
    }
}

impl WorkerConfig {
    /// The unix socket on which `role` serves delegated requests.
    pub fn socket_path(&self, role: WorkerRole) -> PathBuf {
        self.runtime_dir.join(format!("{}.sock", role.as_str()))
    }

    /// Where the embedded store serves etcd's `/metrics` (HTTP/1.1).
    pub fn store_metrics_socket_path(&self) -> PathBuf {
        self.runtime_dir.join("storage-metrics.sock")
    }

    /// Where a replacement for `role` binds until it takes the role's traffic.
    pub fn staged_socket_path(&self, role: WorkerRole) -> PathBuf {
        self.runtime_dir
            .join(format!("{}.staged.sock", role.as_str()))
    }

    /// Where this worker binds its own socket.
    pub fn own_socket_path(&self) -> PathBuf {
        if self.staged {
            self.staged_socket_path(self.role)
        } else {
            self.socket_path(self.role)
        }
    }

    /// The roles this configuration runs, in start order.
    pub fn roles(&self) -> Vec<WorkerRole> {
        WorkerRole::ALL
            .into_iter()
            .filter(|r| *r != WorkerRole::Storage || self.etcd_servers.is_empty())
            .collect()
    }
}

/// A client certificate chain and its private key, PEM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientCertificate {
    /// The certificate chain.
    pub cert_pem: String,
    /// The private key.
    pub key_pem: String,
}

/// `--kubelet-*`: the client of kubelets' API.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KubeletClientConfig {
    /// `--kubelet-client-certificate` / `--kubelet-client-key`.
    pub client: Option<ClientCertificate>,
    /// `--kubelet-certificate-authority`: verifies kubelets' serving certificates; without
    /// it they are not verified (upstream's default).
    pub ca_pem: Option<String>,
    /// `--kubelet-preferred-address-types`, in order.
    pub preferred_address_types: Vec<String>,
    /// `--kubelet-timeout`.
    pub timeout: std::time::Duration,
}

impl Default for KubeletClientConfig {
    fn default() -> Self {
        KubeletClientConfig {
            client: None,
            ca_pem: None,
            preferred_address_types: [
                "Hostname",
                "InternalDNS",
                "InternalIP",
                "ExternalDNS",
                "ExternalIP",
            ]
            .map(String::from)
            .to_vec(),
            timeout: std::time::Duration::from_secs(5),
        }
    }
}

/// The secure listener's TLS and HTTP settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SecureServing {
    /// `--bind-address`.
    pub bind_address: IpAddr,
    /// The port actually bound (after `--secure-port=0` picked one).
    pub port: u16,
    /// Serving certificate chain, PEM.
    pub cert_pem: String,
    /// Serving private key, PEM.
    pub key_pem: String,
    /// CA bundle that client certificates are verified against, PEM (the generated CA
    /// plus `--client-ca-file`).
    pub client_ca_pem: String,
    /// The CAs a client should trust to verify this server, PEM: what `admin.kubeconfig`
    /// and the `ca.crt` of service account token Secrets carry.
    pub ca_bundle_pem: String,
    /// `--tls-min-version`.
    pub tls_min_version: TlsVersion,
    /// `--tls-cipher-suites`, as IANA names; empty means the TLS library's defaults.
    pub tls_cipher_suites: Vec<String>,
    /// `--http2-max-streams-per-connection`; zero means the default (100).
    pub http2_max_streams_per_connection: u32,
}

/// A TLS protocol version as `--tls-min-version` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TlsVersion {
    /// `VersionTLS10`
    Tls10,
    /// `VersionTLS11`
    Tls11,
    /// `VersionTLS12`
    Tls12,
    /// `VersionTLS13`
    Tls13,
}

impl TlsVersion {
    /// Parses kube-apiserver's spelling (`VersionTLS12`).
    pub fn from_flag(s: &str) -> Option<TlsVersion> {
        match s {
            "VersionTLS10" => Some(TlsVersion::Tls10),
            "VersionTLS11" => Some(TlsVersion::Tls11),
            "VersionTLS12" => Some(TlsVersion::Tls12),
            "VersionTLS13" => Some(TlsVersion::Tls13),
            _ => None,
        }
    }
}

/// Certificate and key files given by flag, which the workers re-read when they change on
/// disk (kube-apiserver's dynamic certificate controllers): the serving pair, the client
/// CA and the request-header CA. Their contents at start are in [`SecureServing`] and
/// [`crate::RequestHeaderConfig`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CertFiles {
    /// `--tls-cert-file`.
    pub tls_cert_file: Option<PathBuf>,
    /// `--tls-private-key-file`.
    pub tls_private_key_file: Option<PathBuf>,
    /// `--client-ca-file`.
    pub client_ca_file: Option<PathBuf>,
    /// `--requestheader-client-ca-file`.
    pub requestheader_client_ca_file: Option<PathBuf>,
    /// The CA generated in the cert dir, trusted for client certificates besides the
    /// `--client-ca-file` ones (it signs the admin kubeconfig).
    pub generated_ca_pem: String,
}

/// The admission chain as the flags resolve it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdmissionConfig {
    /// The plugins that run, in kube-apiserver's order.
    pub plugins: Vec<String>,
    /// `--admission-control-config-file`'s text (an AdmissionConfiguration), when given.
    pub config_file: Option<String>,
    /// DefaultTolerationSeconds: `--default-not-ready-toleration-seconds`.
    pub default_not_ready_toleration_seconds: i64,
    /// DefaultTolerationSeconds: `--default-unreachable-toleration-seconds`.
    pub default_unreachable_toleration_seconds: i64,
    /// `--allow-privileged`.
    pub allow_privileged: bool,
}
