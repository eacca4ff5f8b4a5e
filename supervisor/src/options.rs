//! Command-line options with kube-apiserver's flag names, value syntax, defaults and named
//! flag sets. Values that can be wrong in ways worth reporting together are kept as text
//! here and checked by [`crate::validate`], so that every error is reported at once.

use std::path::PathBuf;

use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser};

use crate::pflag::{parse_bool, parse_int, parse_level};

pub(crate) const GENERIC: &str = "Generic flags";
pub(crate) const ETCD: &str = "Etcd flags";
pub(crate) const SECURE: &str = "Secure serving flags";
pub(crate) const AUDIT: &str = "Auditing flags";
pub(crate) const FEATURES: &str = "Features flags";
pub(crate) const AUTHN: &str = "Authentication flags";
pub(crate) const AUTHZ: &str = "Authorization flags";
pub(crate) const CLOUD: &str = "Cloud provider flags";
pub(crate) const API: &str = "API enablement flags";
pub(crate) const EGRESS: &str = "Egress selector flags";
pub(crate) const ADMISSION: &str = "Admission flags";
pub(crate) const METRICS: &str = "Metrics flags";
pub(crate) const LOGS: &str = "Logs flags";
pub(crate) const TRACES: &str = "Traces flags";
pub(crate) const MISC: &str = "Misc flags";
pub(crate) const STATE: &str = "State flags (kube-apiserver-rs)";
pub(crate) const GLOBAL: &str = "Global flags";

/// The Kubernetes API server: kube-apiserver's server chain (aggregator → kube-api →
/// apiextensions), each server in its own process under this supervisor.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "kube-apiserver",
    disable_version_flag = true,
    max_term_width = 100,
    long_about = "The Kubernetes API server validates and configures data for the api objects which \
include pods, services, replicationcontrollers, and others. The API Server services REST operations \
and provides the frontend to the cluster's shared state through which all other components interact.\n\n\
kube-apiserver-rs runs the aggregator, kube-api and apiextensions servers as separate processes \
under one supervisor. With no --etcd-servers it starts an embedded etcd-compatible store."
)]
pub(crate) struct Options {
    // ---- Generic ----
    /// The IP address on which to advertise the apiserver to members of the cluster. If blank,
    /// the --bind-address will be used; if that is unspecified, the host's default interface.
    #[arg(long, help_heading = GENERIC, value_name = "ip")]
    pub(crate) advertise_address: Option<String>,

    /// List of allowed origins for CORS, comma separated. An allowed origin can be a regular
    /// expression to support subdomain matching. If this list is empty CORS will not be enabled.
    #[arg(long, help_heading = GENERIC, value_name = "strings", value_delimiter = ',')]
    pub(crate) cors_allowed_origins: Vec<String>,

    /// The hostname to use when generating externalized URLs for this master.
    #[arg(long, help_heading = GENERIC, value_name = "string")]
    pub(crate) external_hostname: Option<String>,

    /// If non-zero, /livez keeps reporting unfinished post-start hooks as healthy for this
    /// long after start.
    #[arg(long, help_heading = GENERIC, value_name = "duration", default_value = "0s")]
    pub(crate) livez_grace_period: String,

    /// This and --max-requests-inflight are summed to determine the server's total
    /// concurrency limit. The maximum number of mutating requests in flight at a given time;
    /// zero means no limit.
    #[arg(long, help_heading = GENERIC, value_name = "int", default_value_t = 200, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) max_mutating_requests_inflight: i64,

    /// The maximum number of non-mutating requests in flight at a given time; zero means no
    /// limit.
    #[arg(long, help_heading = GENERIC, value_name = "int", default_value_t = 400, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) max_requests_inflight: i64,

    /// An optional field indicating the minimum number of seconds a handler must keep a
    /// request open before timing it out (watch requests get a random timeout above it).
    #[arg(long, help_heading = GENERIC, value_name = "int", default_value_t = 1800, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) min_request_timeout: i64,

    /// An optional field indicating the duration a handler must keep a request open before
    /// timing it out. This is the default request timeout for requests but may be overridden
    /// by flags such as --min-request-timeout for specific types of requests.
    #[arg(long, help_heading = GENERIC, value_name = "duration", default_value = "1m0s")]
    pub(crate) request_timeout: String,

    /// Time to delay the termination. During that time the server keeps serving requests
    /// normally; /readyz fails.
    #[arg(long, help_heading = GENERIC, value_name = "duration", default_value = "0s")]
    pub(crate) shutdown_delay_duration: String,

    /// If true the HTTP server will continue listening until all non long-running requests
    /// in flight have been drained; new incoming requests get 429 with a 'Retry-After'
    /// header and 'Connection: close'.
    #[arg(long, help_heading = GENERIC, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) shutdown_send_retry_after: bool,

    // ---- Etcd ----
    /// The file containing configuration for encryption providers to be used for storing
    /// secrets in etcd.
    #[arg(long, help_heading = ETCD, value_name = "string")]
    pub(crate) encryption_provider_config: Option<PathBuf>,

    /// Determines if the file set by --encryption-provider-config should be automatically
    /// reloaded if the disk contents change. Setting this to true disables the ability to
    /// uniquely identify distinct KMS plugins via the API server healthz endpoints.
    #[arg(long, help_heading = ETCD, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) encryption_provider_config_automatic_reload: bool,

    /// SSL Certificate Authority file used to secure etcd communication.
    #[arg(long, help_heading = ETCD, value_name = "string")]
    pub(crate) etcd_cafile: Option<PathBuf>,

    /// SSL certification file used to secure etcd communication.
    #[arg(long, help_heading = ETCD, value_name = "string")]
    pub(crate) etcd_certfile: Option<PathBuf>,

    /// The interval of compaction requests. If 0, the compaction request from apiserver is
    /// disabled.
    #[arg(long, help_heading = ETCD, value_name = "duration", default_value = "5m0s")]
    pub(crate) etcd_compaction_interval: String,

    /// SSL key file used to secure etcd communication.
    #[arg(long, help_heading = ETCD, value_name = "string")]
    pub(crate) etcd_keyfile: Option<PathBuf>,

    /// The prefix to prepend to all resource paths in etcd.
    #[arg(long, help_heading = ETCD, value_name = "string", default_value = "/registry")]
    pub(crate) etcd_prefix: String,

    /// List of etcd servers to connect with (scheme://ip:port), comma separated. Without it
    /// the embedded store serves.
    #[arg(long, help_heading = ETCD, value_name = "strings", value_delimiter = ',')]
    pub(crate) etcd_servers: Vec<String>,

    /// The storage backend for persistence. Options: 'etcd3' (default).
    #[arg(long, help_heading = ETCD, value_name = "string")]
    pub(crate) storage_backend: Option<String>,

    /// The media type to use to store objects in storage. Some resources or storage
    /// backends may only support a specific media type and will ignore this setting.
    /// Supported media types: [application/json, application/yaml,
    /// application/vnd.kubernetes.protobuf]
    #[arg(long, help_heading = ETCD, value_name = "string", default_value = "application/vnd.kubernetes.protobuf")]
    pub(crate) storage_media_type: String,

    // ---- Secure serving ----
    /// The IP address on which to listen for the --secure-port port.
    #[arg(long, help_heading = SECURE, value_name = "ip", default_value = "0.0.0.0")]
    pub(crate) bind_address: String,

    /// The directory where the TLS certs are located. If --tls-cert-file and
    /// --tls-private-key-file are provided, this flag will be ignored. [default: <data-dir>/pki]
    #[arg(long, help_heading = SECURE, value_name = "string")]
    pub(crate) cert_dir: Option<PathBuf>,

    /// The limit that the server gives to clients for the maximum number of streams in an
    /// HTTP/2 connection. Zero means the default of 100.
    #[arg(long, help_heading = SECURE, value_name = "int", default_value_t = 0, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) http2_max_streams_per_connection: i64,

    /// The port on which to serve HTTPS with authentication and authorization. 0 picks a free
    /// port.
    #[arg(long, help_heading = SECURE, value_name = "int", default_value_t = 6443, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) secure_port: i64,

    /// File containing the default x509 Certificate for HTTPS (CA cert, if any, concatenated
    /// after server cert). If not provided, a certificate signed by a generated CA is written
    /// to --cert-dir.
    #[arg(long, help_heading = SECURE, value_name = "string")]
    pub(crate) tls_cert_file: Option<PathBuf>,

    /// Comma-separated list of cipher suites for the server (IANA names). If omitted, the
    /// default suites of the TLS library are used.
    #[arg(long, help_heading = SECURE, value_name = "strings", value_delimiter = ',')]
    pub(crate) tls_cipher_suites: Vec<String>,

    /// Minimum TLS version supported. Possible values: VersionTLS12, VersionTLS13
    /// (VersionTLS10 and VersionTLS11 are accepted and served as TLS 1.2).
    #[arg(long, help_heading = SECURE, value_name = "string")]
    pub(crate) tls_min_version: Option<String>,

    /// File containing the default x509 private key matching --tls-cert-file.
    #[arg(long, help_heading = SECURE, value_name = "string")]
    pub(crate) tls_private_key_file: Option<PathBuf>,

    // ---- Auditing ----
    #[command(flatten)]
    pub(crate) audit: crate::audit_config::AuditFlags,

    // ---- Features ----
    /// A set of key=value pairs that describe feature gates for alpha/experimental features.
    #[arg(long, help_heading = FEATURES, value_name = "mapStringBool", value_delimiter = ',')]
    pub(crate) feature_gates: Vec<String>,

    /// If true, replace the max-in-flight handler with an enhanced one that queues and
    /// dispatches with priority and fairness.
    #[arg(long, help_heading = FEATURES, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "true", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) enable_priority_and_fairness: bool,

    // ---- Authentication ----
    /// Enables anonymous requests to the secure port of the API server. Requests that are not
    /// rejected by another authentication method are treated as anonymous requests.
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "true", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) anonymous_auth: bool,

    /// Root certificate bundle to use to verify client certificates on incoming requests
    /// before trusting usernames in headers specified by --requestheader-username-headers.
    /// WARNING: generally do not depend on authorization being already done for incoming
    /// requests.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) requestheader_client_ca_file: Option<PathBuf>,

    /// List of client certificate common names to allow to provide usernames in headers
    /// specified by --requestheader-username-headers. If empty, any client certificate
    /// validated by the authorities in --requestheader-client-ca-file is allowed.
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',')]
    pub(crate) requestheader_allowed_names: Vec<String>,

    /// List of request headers to inspect for usernames. X-Remote-User is common.
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',')]
    pub(crate) requestheader_username_headers: Vec<String>,

    /// List of request headers to inspect for UIDs. X-Remote-Uid is suggested.
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',')]
    pub(crate) requestheader_uid_headers: Vec<String>,

    /// List of request headers to inspect for groups. X-Remote-Group is suggested.
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',')]
    pub(crate) requestheader_group_headers: Vec<String>,

    /// List of request header prefixes to inspect. X-Remote-Extra- is suggested.
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',')]
    pub(crate) requestheader_extra_headers_prefix: Vec<String>,

    /// Enable to allow secrets of type 'bootstrap.kubernetes.io/token' in the 'kube-system'
    /// namespace to be used for TLS bootstrapping authentication.
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) enable_bootstrap_token_auth: bool,

    /// If set, the file that will be used to secure the secure port of the API server via
    /// token authentication (CSV: token,user,uid,"group1,group2").
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) token_auth_file: Option<PathBuf>,

    /// If set, any request presenting a client certificate signed by one of the authorities
    /// in the client-ca-file is authenticated with an identity corresponding to the
    /// CommonName of the client certificate. The generated CA is always trusted too.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) client_ca_file: Option<PathBuf>,

    /// Identifier of the service account token issuer (the `iss` claim). Repeatable: the
    /// first value signs new tokens, every value is accepted on verification. kube-apiserver
    /// requires it; kube-apiserver-rs defaults to the in-cluster URL so that a start with no
    /// flags works. [default: https://kubernetes.default.svc.cluster.local]
    #[arg(long, help_heading = AUTHN, value_name = "stringArray", action = ArgAction::Append)]
    pub(crate) service_account_issuer: Vec<String>,

    /// File containing PEM-encoded public keys (PKIX "PUBLIC KEY", PKCS#1 "RSA PUBLIC KEY")
    /// or PKCS#8 private keys, used to verify service account tokens. Repeatable. Without
    /// it the public half of --service-account-signing-key-file is used.
    #[arg(long, help_heading = AUTHN, value_name = "stringArray", action = ArgAction::Append)]
    pub(crate) service_account_key_file: Vec<PathBuf>,

    /// Path to the file that contains the current private key of the service account token
    /// issuer (PKCS#8 PEM, ECDSA P-256/P-384 or RSA). Without it a P-256 key is generated
    /// in --cert-dir (sa.key, 0600) on first start and reused.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) service_account_signing_key_file: Option<PathBuf>,

    /// The maximum validity duration of a token created by the service account token
    /// issuer. A TokenRequest asking for longer gets this duration. 0 means no limit.
    #[arg(long, help_heading = AUTHN, value_name = "duration", default_value = "0s")]
    pub(crate) service_account_max_token_expiration: String,

    /// Turns on projected service account expiration extension during token generation,
    /// which helps safe transition from legacy token to bound service account token feature.
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "true", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) service_account_extend_token_expiration: bool,

    /// Overrides the URI for the JSON Web Key Set in the discovery doc served at
    /// /.well-known/openid-configuration. This flag is useful if the discovery doc and key
    /// set are served to relying parties from a URL other than the API server's external
    /// (as auto-detected or overridden with external-hostname).
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) service_account_jwks_uri: Option<String>,

    /// If true, validate ServiceAccount tokens exist in etcd as part of authentication.
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "true", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) service_account_lookup: bool,

    /// Identifiers of the API. The service account token authenticator will validate that
    /// tokens used against the API are bound to at least one of these audiences.
    /// [default: the first --service-account-issuer]
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',')]
    pub(crate) api_audiences: Vec<String>,

    /// File with webhook configuration for token authentication in kubeconfig format. The
    /// API server will query the remote service to determine authentication for bearer
    /// tokens that no other authenticator accepts.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) authentication_token_webhook_config_file: Option<PathBuf>,

    /// The API version of the authentication.k8s.io TokenReview to send to and expect from
    /// the webhook (v1 or v1beta1).
    #[arg(long, help_heading = AUTHN, value_name = "string", default_value = "v1beta1")]
    pub(crate) authentication_token_webhook_version: String,

    /// The duration to cache responses from the webhook token authenticator.
    #[arg(long, help_heading = AUTHN, value_name = "duration", default_value = "2m0s")]
    pub(crate) authentication_token_webhook_cache_ttl: String,

    #[command(flatten)]
    pub(crate) jwt: crate::jwt_flags::JwtFlags,

    // ---- Authorization ----
    /// Ordered list of plug-ins to do authorization on secure port. Supported:
    /// AlwaysAllow, AlwaysDeny, RBAC, Node, Webhook.
    #[arg(long, help_heading = AUTHZ, value_name = "strings", value_delimiter = ',', default_value = "Node,RBAC")]
    pub(crate) authorization_mode: Vec<String>,

    /// File with Authorization Configuration to configure the authorizer chain. Requires
    /// feature gate StructuredAuthorizationConfiguration. This flag is mutually exclusive
    /// with the other --authorization-mode and --authorization-webhook-* flags.
    #[arg(long, help_heading = AUTHZ, value_name = "string")]
    pub(crate) authorization_config: Option<PathBuf>,

    /// The duration to cache 'authorized' responses from the webhook authorizer.
    #[arg(long, help_heading = AUTHZ, value_name = "duration", default_value = "5m0s")]
    pub(crate) authorization_webhook_cache_authorized_ttl: String,

    /// The duration to cache 'unauthorized' responses from the webhook authorizer.
    #[arg(long, help_heading = AUTHZ, value_name = "duration", default_value = "30s")]
    pub(crate) authorization_webhook_cache_unauthorized_ttl: String,

    /// File with webhook configuration in kubeconfig format, used with
    /// --authorization-mode=Webhook. The API server will query the remote service to
    /// determine access on the API server's secure port.
    #[arg(long, help_heading = AUTHZ, value_name = "string")]
    pub(crate) authorization_webhook_config_file: Option<PathBuf>,

    /// The API version of the authorization.k8s.io SubjectAccessReview to send to and
    /// expect from the webhook (v1 or v1beta1).
    #[arg(long, help_heading = AUTHZ, value_name = "string", default_value = "v1beta1")]
    pub(crate) authorization_webhook_version: String,

    // ---- API enablement ----
    /// A set of key=value pairs that enable or disable built-in APIs (api/all, api/ga,
    /// api/beta, api/alpha, or <group>/<version>).
    #[arg(long, help_heading = API, value_name = "mapStringString", value_delimiter = ',')]
    pub(crate) runtime_config: Vec<String>,

    // ---- Admission ----
    /// Admission plugins to run, in place of the default set (comma-separated). (DEPRECATED:
    /// Use --enable-admission-plugins or --disable-admission-plugins instead.)
    #[arg(long, help_heading = ADMISSION, value_name = "strings", value_delimiter = ',')]
    pub(crate) admission_control: Option<Vec<String>>,

    /// File with admission control configuration.
    #[arg(long, help_heading = ADMISSION, value_name = "string")]
    pub(crate) admission_control_config_file: Option<PathBuf>,

    /// Admission plugins that should be disabled although they are in the default enabled
    /// plugins list (comma-separated; names as kube-apiserver v1.33's).
    #[arg(long, help_heading = ADMISSION, value_name = "strings", value_delimiter = ',')]
    pub(crate) disable_admission_plugins: Option<Vec<String>>,

    /// Admission plugins that should be enabled in addition to default enabled ones
    /// (comma-separated; names as kube-apiserver v1.33's).
    #[arg(long, help_heading = ADMISSION, value_name = "strings", value_delimiter = ',')]
    pub(crate) enable_admission_plugins: Option<Vec<String>>,

    /// Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added
    /// by default to every pod that does not already have such a toleration.
    #[arg(long, help_heading = ADMISSION, value_name = "int", default_value_t = 300, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) default_not_ready_toleration_seconds: i64,

    /// Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is
    /// added by default to every pod that does not already have such a toleration.
    #[arg(long, help_heading = ADMISSION, value_name = "int", default_value_t = 300, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) default_unreachable_toleration_seconds: i64,

    // ---- Misc ----
    /// If true, allow privileged containers.
    #[arg(long, help_heading = MISC, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) allow_privileged: bool,

    /// Path to a cert file for the certificate authority of the kubelets' serving
    /// certificates.
    #[arg(long, help_heading = MISC, value_name = "string")]
    pub(crate) kubelet_certificate_authority: Option<PathBuf>,

    /// Path to a client cert file for TLS to the kubelets.
    #[arg(long, help_heading = MISC, value_name = "string")]
    pub(crate) kubelet_client_certificate: Option<PathBuf>,

    /// Path to a client key file for TLS to the kubelets.
    #[arg(long, help_heading = MISC, value_name = "string")]
    pub(crate) kubelet_client_key: Option<PathBuf>,

    /// List of the preferred NodeAddressTypes to use for kubelet connections.
    #[arg(long, help_heading = MISC, value_name = "strings", value_delimiter = ',', default_value = "Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP")]
    pub(crate) kubelet_preferred_address_types: Vec<String>,

    /// Timeout for kubelet operations.
    #[arg(long, help_heading = MISC, value_name = "duration", default_value = "5s")]
    pub(crate) kubelet_timeout: String,

    /// Turns on aggregator routing requests to endpoints IP rather than cluster IP.
    #[arg(long, help_heading = MISC, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) enable_aggregator_routing: bool,

    /// Client certificate used to prove the identity of the aggregator or kube-apiserver
    /// when it must call out during a request (aggregated API servers, admission webhooks).
    /// It is expected to be signed by the --requestheader-client-ca-file CA.
    #[arg(long, help_heading = MISC, value_name = "string")]
    pub(crate) proxy_client_cert_file: Option<PathBuf>,

    /// Private key for --proxy-client-cert-file.
    #[arg(long, help_heading = MISC, value_name = "string")]
    pub(crate) proxy_client_key_file: Option<PathBuf>,

    /// Amount of time to retain events.
    #[arg(long, help_heading = MISC, value_name = "duration", default_value = "1h0m0s")]
    pub(crate) event_ttl: String,

    /// A CIDR notation IP range from which to assign service cluster IPs (one, or two
    /// comma-separated for dual stack).
    #[arg(long, help_heading = MISC, value_name = "string", default_value = "10.0.0.0/24")]
    pub(crate) service_cluster_ip_range: String,

    /// A port range to reserve for services with NodePort visibility, e.g. '30000-32767' or
    /// '30000+2767'. Inclusive at both ends of the range.
    #[arg(long, help_heading = MISC, value_name = "portRange", default_value = "30000-32767")]
    pub(crate) service_node_port_range: String,

    // ---- Logs ----
    /// Sets the log format: text (journald's native protocol when JOURNAL_STREAM is set) or
    /// journald.
    #[arg(long, help_heading = LOGS, value_name = "string", default_value = "text")]
    pub(crate) logging_format: String,

    /// Number for the log level verbosity.
    #[arg(short = 'v', long = "v", help_heading = LOGS, value_name = "Level", default_value_t = 0, value_parser = parse_level)]
    pub(crate) verbosity: u8,

    // ---- State (ours) ----
    /// Directory for state: certificates, admin.kubeconfig, the embedded store.
    /// [default: $STATE_DIRECTORY, else ./apiserver-data]
    #[arg(long, help_heading = STATE, value_name = "string")]
    pub(crate) data_dir: Option<PathBuf>,

    /// Private directory (0700) for the workers' unix sockets.
    /// [default: $RUNTIME_DIRECTORY, else <data-dir>/run]
    #[arg(long, help_heading = STATE, value_name = "string")]
    pub(crate) runtime_dir: Option<PathBuf>,

    /// Restores a snapshot of the embedded store (what `etcdctl snapshot save` wrote from
    /// its socket) as the store of --data-dir, which must not hold one yet, and exits: the
    /// server started on that data dir then serves the snapshot's objects at their
    /// resourceVersions. The file's sha256 checksum is verified first.
    #[arg(long, help_heading = STATE, value_name = "string")]
    pub(crate) restore_snapshot: Option<PathBuf>,

    /// The embedded store's space quota (etcd's --quota-backend-bytes), used without
    /// --etcd-servers: once its database file would grow past it, writes that add data
    /// fail with etcd's NOSPACE alarm ("etcdserver: mvcc: database space exceeded") while
    /// reads and deletes go on; an operator compacts, defragments and disarms the alarm
    /// (etcdctl compaction, defrag, alarm disarm). 0 means etcd's default, 2 GiB.
    #[arg(long, help_heading = STATE, value_name = "int", default_value_t = 0)]
    pub(crate) storage_quota_bytes: u64,

    /// A worker that answers no heartbeat (sent every second, answered by its runtime)
    /// for this long is killed and restarted like one that crashed; 0 never kills. It is
    /// marked down, and its requests answered 503, after 3 s already.
    #[arg(long, help_heading = STATE, value_name = "duration", default_value = "10s")]
    pub(crate) worker_heartbeat_timeout: String,

    /// The most memory each worker may use, as role=quantity pairs (roles: aggregator,
    /// kube-api, extensions, storage), e.g. extensions=2Gi,kube-api=4Gi. A worker over
    /// its limit fails alone and is restarted; the others keep serving. cgroup v2
    /// memory.max when the service's cgroup is delegated, RLIMIT_DATA otherwise.
    #[arg(long, help_heading = STATE, value_name = "mapStringString", default_value = "")]
    pub(crate) worker_memory_limit: String,

    /// The most CPU each worker may use, as role=quantity pairs in CPUs, e.g.
    /// extensions=500m,kube-api=2; a worker over it is throttled. Needs cgroup v2 with
    /// the cpu controller delegated to the service (Delegate= in its unit).
    #[arg(long, help_heading = STATE, value_name = "mapStringString", default_value = "")]
    pub(crate) worker_cpu_limit: String,

    // ---- Global ----
    /// --version, --version=raw prints version information and quits.
    #[arg(long, help_heading = GLOBAL, value_name = "version[=true]", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub(crate) version: Option<String>,
}

/// The result of reading the command line: the options, and a warning line per accepted
/// flag that has no effect here (to print on stderr as pflag prints its warnings).
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) options: Options,
    pub(crate) warnings: Vec<String>,
}

/// kube-apiserver's whole command line: the flags in [`Options`] plus the accepted but
/// ignored ones of [`crate::flagtable`], each flag set in upstream's order and each flag
/// in it sorted by name as pflag lists them. A flag may be repeated (the last value
/// wins; a list flag adds to its list), as with pflag.
pub(crate) fn command() -> clap::Command {
    let derived = Options::command();
    let mut args: Vec<clap::Arg> = derived
        .get_arguments()
        .cloned()
        .chain(crate::flagtable::args(&derived))
        .collect();
    let rank = |a: &clap::Arg| {
        let heading = a.get_help_heading().unwrap_or(GENERIC);
        crate::flagtable::HEADING_ORDER
            .iter()
            .position(|h| *h == heading)
            .unwrap_or(usize::MAX)
    };
    args.sort_by(|a, b| {
        (rank(a), a.get_long().unwrap_or_default())
            .cmp(&(rank(b), b.get_long().unwrap_or_default()))
    });
    let mut cmd = clap::Command::new("kube-apiserver")
        .about(derived.get_about().cloned().unwrap_or_default())
        .long_about(derived.get_long_about().cloned().unwrap_or_default())
        .disable_version_flag(true)
        .max_term_width(100)
        .args_override_self(true);
    for (i, arg) in args.into_iter().enumerate() {
        cmd = cmd.arg(arg.display_order(i));
    }
    cmd
}

/// Reads a command line (program name first), as kube-apiserver's cobra command does.
pub(crate) fn parse<I, T>(args: I) -> Result<Parsed, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString>,
{
    let args = crate::pflag::normalize(args.into_iter().map(Into::into));
    let matches: ArgMatches = command().try_get_matches_from(args)?;
    let mut options = Options::from_arg_matches(&matches)?;
    let mut warnings = crate::audit_config::deprecated(&matches, &mut options.audit);
    if options.admission_control.is_some() {
        warnings.push(
            "Flag --admission-control has been deprecated, Use --enable-admission-plugins or \
             --disable-admission-plugins instead. Will be removed in a future version."
                .to_owned(),
        );
    }
    warnings.extend(crate::flagtable::warnings(&Options::command(), &matches));
    Ok(Parsed { options, warnings })
}
