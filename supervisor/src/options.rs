//! Command-line options with kube-apiserver's flag names, value syntax, defaults and named
//! flag sets. Values that can be wrong in ways worth reporting together are kept as text
//! here and checked by [`crate::validate`], so that every error is reported at once.

use std::path::PathBuf;

use clap::{ArgAction, Parser};

const GENERIC: &str = "Generic flags";
const ETCD: &str = "Etcd flags";
const SECURE: &str = "Secure serving flags";
const FEATURES: &str = "Features flags";
const AUTHN: &str = "Authentication flags";
const AUTHZ: &str = "Authorization flags";
const API: &str = "API enablement flags";
const MISC: &str = "Misc flags";
const LOGS: &str = "Logs flags";
const STATE: &str = "State flags (kube-apiserver-rs)";
const GLOBAL: &str = "Global flags";

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
    #[arg(long, help_heading = GENERIC, value_name = "int", default_value_t = 200, allow_negative_numbers = true)]
    pub(crate) max_mutating_requests_inflight: i64,

    /// The maximum number of non-mutating requests in flight at a given time; zero means no
    /// limit.
    #[arg(long, help_heading = GENERIC, value_name = "int", default_value_t = 400, allow_negative_numbers = true)]
    pub(crate) max_requests_inflight: i64,

    /// An optional field indicating the minimum number of seconds a handler must keep a
    /// request open before timing it out (watch requests get a random timeout above it).
    #[arg(long, help_heading = GENERIC, value_name = "int", default_value_t = 1800, allow_negative_numbers = true)]
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
    #[arg(long, help_heading = GENERIC, value_name = "bool", num_args = 0..=1, default_value = "false", default_missing_value = "true", action = ArgAction::Set)]
    pub(crate) shutdown_send_retry_after: bool,

    // ---- Etcd ----
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
    #[arg(long, help_heading = SECURE, value_name = "int", default_value_t = 0, allow_negative_numbers = true)]
    pub(crate) http2_max_streams_per_connection: i64,

    /// The port on which to serve HTTPS with authentication and authorization. 0 picks a free
    /// port.
    #[arg(long, help_heading = SECURE, value_name = "int", default_value_t = 6443, allow_negative_numbers = true)]
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

    // ---- Features ----
    /// A set of key=value pairs that describe feature gates for alpha/experimental features.
    #[arg(long, help_heading = FEATURES, value_name = "mapStringBool", value_delimiter = ',')]
    pub(crate) feature_gates: Vec<String>,

    // ---- Authentication ----
    /// Enables anonymous requests to the secure port of the API server. Requests that are not
    /// rejected by another authentication method are treated as anonymous requests.
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, default_value = "true", default_missing_value = "true", action = ArgAction::Set)]
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
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, default_value = "false", default_missing_value = "true", action = ArgAction::Set)]
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
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, default_value = "true", default_missing_value = "true", action = ArgAction::Set)]
    pub(crate) service_account_extend_token_expiration: bool,

    /// Overrides the URI for the JSON Web Key Set in the discovery doc served at
    /// /.well-known/openid-configuration. This flag is useful if the discovery doc and key
    /// set are served to relying parties from a URL other than the API server's external
    /// (as auto-detected or overridden with external-hostname).
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) service_account_jwks_uri: Option<String>,

    /// If true, validate ServiceAccount tokens exist in etcd as part of authentication.
    #[arg(long, help_heading = AUTHN, value_name = "bool", num_args = 0..=1, default_value = "true", default_missing_value = "true", action = ArgAction::Set)]
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

    // ---- Misc ----
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
    #[arg(short = 'v', long = "v", help_heading = LOGS, value_name = "Level", default_value_t = 0)]
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

    // ---- Global ----
    /// --version, --version=raw prints version information and quits.
    #[arg(long, help_heading = GLOBAL, value_name = "version[=true]", num_args = 0..=1, default_missing_value = "true")]
    pub(crate) version: Option<String>,
}
