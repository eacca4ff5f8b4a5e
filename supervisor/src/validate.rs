//! Validate: turn the raw flags into typed values, reporting **every** error at once, each
//! naming its flag, before anything is bound, written or spawned.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ipnet::IpNet;
use kas_proto::{StorageMediaType, TlsVersion};

use crate::godur;
use crate::options::Options;
use crate::worker_limits;

mod service_account;
mod service_network;

use service_account::service_account;
pub(crate) use service_account::signing_public_key;
use service_network::{node_port_range, service_ranges};

/// One invalid flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlagError {
    /// The flag, with its dashes.
    pub(crate) flag: &'static str,
    /// What is wrong with it.
    pub(crate) message: String,
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid value for {}: {}", self.flag, self.message)
    }
}

/// The flags, parsed and checked.
#[derive(Debug, Clone)]
pub(crate) struct Validated {
    pub(crate) advertise_address: Option<IpAddr>,
    pub(crate) bind_address: IpAddr,
    pub(crate) secure_port: u16,
    pub(crate) external_hostname: Option<String>,
    pub(crate) cors_allowed_origins: Vec<String>,
    pub(crate) livez_grace_period: Duration,
    pub(crate) max_mutating_requests_inflight: u32,
    pub(crate) max_requests_inflight: u32,
    pub(crate) min_request_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) shutdown_delay: Duration,
    pub(crate) shutdown_send_retry_after: bool,
    /// `--worker-heartbeat-timeout`; zero never kills.
    pub(crate) worker_heartbeat_timeout: Duration,
    /// `--worker-memory-limit`, in bytes per worker.
    pub(crate) worker_memory_limits: std::collections::BTreeMap<kas_proto::WorkerRole, u64>,
    /// `--worker-cpu-limit`, in thousandths of a CPU per worker.
    pub(crate) worker_cpu_limits: std::collections::BTreeMap<kas_proto::WorkerRole, u64>,
    /// `--enable-aggregator-routing`: services resolve to endpoints, not cluster IPs.
    pub(crate) enable_aggregator_routing: bool,
    pub(crate) enable_priority_and_fairness: bool,
    pub(crate) etcd_servers: Vec<String>,
    pub(crate) etcd_prefix: String,
    pub(crate) etcd_cafile: Option<PathBuf>,
    pub(crate) etcd_certfile: Option<PathBuf>,
    pub(crate) etcd_keyfile: Option<PathBuf>,
    pub(crate) etcd_compaction_interval: Duration,
    /// `--restore-snapshot`: restore, then exit.
    pub(crate) restore_snapshot: Option<PathBuf>,
    /// `--storage-quota-bytes`, 0 for the default.
    pub(crate) storage_quota_bytes: u64,
    /// `--storage-media-type`.
    pub(crate) storage_media_type: StorageMediaType,
    /// `--encryption-provider-config`, read and checked.
    pub(crate) encryption: Option<kas_proto::EncryptionConfig>,
    /// `--encryption-provider-config` when `--encryption-provider-config-automatic-reload`
    /// is set: the file followed while serving.
    pub(crate) encryption_reload: Option<PathBuf>,
    /// `--audit-policy-file` with `--audit-log-*` / `--audit-webhook-*`, read and checked.
    pub(crate) audit: Option<kas_proto::AuditConfig>,
    /// `--audit-log-path` when a file: made at start, policy or not, as upstream makes it.
    pub(crate) audit_log_file: Option<PathBuf>,
    pub(crate) cert_dir: Option<PathBuf>,
    pub(crate) http2_max_streams_per_connection: u32,
    /// `--tls-cert-file` and `--tls-private-key-file`, read.
    pub(crate) tls_cert_key: Option<(String, String)>,
    pub(crate) tls_cipher_suites: Vec<String>,
    pub(crate) tls_min_version: TlsVersion,
    pub(crate) client_ca_pem: Option<String>,
    pub(crate) anonymous_auth: bool,
    pub(crate) enable_bootstrap_token_auth: bool,
    /// `--requestheader-*`, the CA read.
    pub(crate) request_header: Option<kas_proto::RequestHeaderConfig>,
    /// The certificate files, for reloading (`generated_ca_pem` is filled in later).
    pub(crate) cert_files: kas_proto::CertFiles,
    /// `--token-auth-file`, read.
    pub(crate) static_tokens: Vec<(String, kas_proto::UserInfo)>,
    /// The authorizer chain: `--authorization-mode`, or `--authorization-config`'s.
    pub(crate) authorization_modes: Vec<String>,
    /// Its webhooks, one per `Webhook` mode, in order.
    pub(crate) authorization_webhooks: Vec<kas_proto::AuthorizationWebhookConfig>,
    /// `--authorization-config`, followed for changes once serving.
    pub(crate) authorization_config: Option<std::path::PathBuf>,
    /// What the checks warn about, logged once logging is set up.
    pub(crate) warnings: Vec<String>,
    /// `--authentication-token-webhook-*` and `--authorization-webhook-*`, files read.
    pub(crate) webhooks: crate::webhook_config::WebhookFlags,
    /// The admission flags and `--allow-privileged`, resolved.
    pub(crate) admission: crate::admission::AdmissionFlags,
    /// `--kubelet-*` and `--proxy-client-*`, files read (used once this server calls out).
    pub(crate) outbound_certs: crate::outbound_certs::OutboundCerts,
    /// `--service-account-issuer`, defaulted; the first one signs.
    pub(crate) service_account_issuers: Vec<String>,
    /// `--service-account-key-file`, read: one PEM block per public key.
    pub(crate) service_account_public_keys_pem: Vec<String>,
    /// `--service-account-signing-key-file`, read and checked (PKCS#8 PEM).
    pub(crate) service_account_signing_key_pem: Option<String>,
    /// `--service-account-max-token-expiration`; `None` for 0 (no limit).
    pub(crate) service_account_max_token_expiration: Option<Duration>,
    pub(crate) service_account_extend_token_expiration: bool,
    /// `--service-account-jwks-uri`, checked to be an https URL.
    pub(crate) service_account_jwks_uri: Option<String>,
    pub(crate) service_account_lookup: bool,
    /// `--api-audiences`, defaulted to the first issuer.
    pub(crate) api_audiences: Vec<String>,
    /// `--oidc-*` or `--authentication-config`, checked and read.
    pub(crate) jwt: crate::jwt_flags::JwtValidated,
    pub(crate) feature_gates: Vec<(String, bool)>,
    pub(crate) runtime_config: Vec<(String, String)>,
    pub(crate) service_cluster_ip_ranges: Vec<IpNet>,
    pub(crate) service_node_port_range: (u16, u16),
    pub(crate) logging_format: String,
    pub(crate) verbosity: u8,
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) runtime_dir: Option<PathBuf>,
}

struct Errors(Vec<FlagError>);

impl Errors {
    fn push(&mut self, flag: &'static str, message: impl Into<String>) {
        self.0.push(FlagError {
            flag,
            message: message.into(),
        });
    }

    fn duration(&mut self, flag: &'static str, v: &str) -> Duration {
        godur::parse(v).unwrap_or_else(|e| {
            self.push(flag, e);
            Duration::ZERO
        })
    }

    fn ip(&mut self, flag: &'static str, v: &str) -> Option<IpAddr> {
        match v.parse() {
            Ok(ip) => Some(ip),
            Err(_) => {
                self.push(flag, format!("{v:?} is not a valid IP address"));
                None
            }
        }
    }

    fn nonneg_u32(&mut self, flag: &'static str, v: i64) -> u32 {
        if v < 0 {
            self.push(flag, format!("{v} can not be a negative value"));
            return 0;
        }
        u32::try_from(v).unwrap_or_else(|_| {
            self.push(flag, format!("{v} is too large"));
            0
        })
    }

    fn read(&mut self, flag: &'static str, path: &Path) -> Option<String> {
        match std::fs::read_to_string(path) {
            Ok(s) => Some(s),
            Err(e) => {
                self.push(flag, format!("cannot read {}: {e}", path.display()));
                None
            }
        }
    }

    fn readable(&mut self, flag: &'static str, path: &Option<PathBuf>) {
        if let Some(p) = path {
            self.read(flag, p);
        }
    }
}

/// Checks every flag; on failure returns all errors.
pub(crate) fn validate(o: &Options) -> Result<Validated, Vec<FlagError>> {
    let mut errs = Errors(Vec::new());

    let advertise_address = o
        .advertise_address
        .as_deref()
        .and_then(|v| errs.ip("--advertise-address", v));
    let bind_address = errs
        .ip("--bind-address", &o.bind_address)
        .unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let secure_port = match u16::try_from(o.secure_port) {
        Ok(p) => p,
        Err(_) => {
            errs.push(
                "--secure-port",
                format!(
                    "{} must be between 0 and 65535, inclusive (0 picks a free port)",
                    o.secure_port
                ),
            );
            0
        }
    };

    for origin in &o.cors_allowed_origins {
        if let Err(e) = regex::Regex::new(origin) {
            errs.push(
                "--cors-allowed-origins",
                format!("{origin:?} is not a valid regular expression: {e}"),
            );
        }
    }

    let livez_grace_period = errs.duration("--livez-grace-period", &o.livez_grace_period);
    let request_timeout = errs.duration("--request-timeout", &o.request_timeout);
    if request_timeout.is_zero() && godur::parse(&o.request_timeout).is_ok() {
        errs.push("--request-timeout", "must be greater than 0");
    }
    let shutdown_delay = errs.duration("--shutdown-delay-duration", &o.shutdown_delay_duration);
    let worker_heartbeat_timeout =
        errs.duration("--worker-heartbeat-timeout", &o.worker_heartbeat_timeout);
    let worker_memory_limits =
        worker_limits::parse(&o.worker_memory_limit, worker_limits::Unit::Bytes).unwrap_or_else(
            |e| {
                errs.push("--worker-memory-limit", e);
                Default::default()
            },
        );
    let worker_cpu_limits =
        worker_limits::parse(&o.worker_cpu_limit, worker_limits::Unit::MilliCpu).unwrap_or_else(
            |e| {
                errs.push("--worker-cpu-limit", e);
                Default::default()
            },
        );
    let etcd_compaction_interval =
        errs.duration("--etcd-compaction-interval", &o.etcd_compaction_interval);
    errs.duration("--event-ttl", &o.event_ttl);
    let max_mutating_requests_inflight = errs.nonneg_u32(
        "--max-mutating-requests-inflight",
        o.max_mutating_requests_inflight,
    );
    let max_requests_inflight = errs.nonneg_u32("--max-requests-inflight", o.max_requests_inflight);
    if o.min_request_timeout <= 0 {
        errs.push(
            "--min-request-timeout",
            format!("{} must be greater than 0", o.min_request_timeout),
        );
    }
    let min_request_timeout = Duration::from_secs(o.min_request_timeout.max(0) as u64);
    if o.enable_priority_and_fairness
        && o.max_requests_inflight >= 0
        && o.max_mutating_requests_inflight >= 0
        && o.max_requests_inflight + o.max_mutating_requests_inflight == 0
    {
        errs.push(
            "--max-requests-inflight",
            format!(
                "invalid configuration: MaxRequestsInFlight={} and MaxMutatingRequestsInFlight={}; they must add up to something positive",
                o.max_requests_inflight, o.max_mutating_requests_inflight
            ),
        );
    }

    if o.restore_snapshot.is_some() && !o.etcd_servers.is_empty() {
        errs.push(
            "--restore-snapshot",
            "restores the embedded store; with --etcd-servers, restore etcd with its own tools",
        );
    }
    for server in &o.etcd_servers {
        let ok = ["http://", "https://", "unix://", "unixs://"]
            .iter()
            .any(|s| server.starts_with(s) && server.len() > s.len());
        if !ok {
            errs.push(
                "--etcd-servers",
                format!("{server:?} must be a URL with scheme http, https or unix"),
            );
        }
    }
    if !o.etcd_prefix.starts_with('/') {
        errs.push(
            "--etcd-prefix",
            format!("{:?} must start with '/'", o.etcd_prefix),
        );
    }
    // Upstream's EtcdOptions.Validate, in its words: only etcd3 is a backend, and the
    // media types its serializers know.
    if !matches!(o.storage_backend.as_deref(), None | Some("" | "etcd3")) {
        errs.push(
            "--storage-backend",
            "--storage-backend invalid, allowed values: etcd3. If not specified, it will default to 'etcd3'",
        );
    }
    let storage_media_type = match o.storage_media_type.as_str() {
        // Upstream skips its check for an empty value; kube-apiserver's default applies.
        "" => StorageMediaType::default(),
        m => StorageMediaType::parse(m).unwrap_or_else(|| {
            errs.push(
                "--storage-media-type",
                format!(
                    "--storage-media-type {m:?} invalid, allowed values: {}",
                    StorageMediaType::ALL.join(", ")
                ),
            );
            StorageMediaType::default()
        }),
    };
    errs.readable("--etcd-cafile", &o.etcd_cafile);
    errs.readable("--etcd-certfile", &o.etcd_certfile);
    errs.readable("--etcd-keyfile", &o.etcd_keyfile);
    if o.etcd_certfile.is_some() != o.etcd_keyfile.is_some() {
        errs.push(
            "--etcd-certfile",
            "--etcd-certfile and --etcd-keyfile must be given together",
        );
    }

    let reload = o.encryption_provider_config_automatic_reload;
    let encryption = o.encryption_provider_config.as_deref().and_then(|p| {
        crate::encryption_config::load(p, reload)
            .map_err(|e| errs.0.extend(e))
            .ok()
    });
    if reload && o.encryption_provider_config.is_none() {
        errs.push(
            "--encryption-provider-config-automatic-reload",
            "--encryption-provider-config-automatic-reload must be set with --encryption-provider-config",
        );
    }

    let http2_max_streams_per_connection = errs.nonneg_u32(
        "--http2-max-streams-per-connection",
        o.http2_max_streams_per_connection,
    );

    let tls_cert_key = match (&o.tls_cert_file, &o.tls_private_key_file) {
        (Some(c), Some(k)) => {
            let cert = errs.read("--tls-cert-file", c);
            if let Some(cert) = &cert {
                if let Err(e) = kas_aggregator::tls::parse_cert_chain(cert.as_bytes()) {
                    errs.push("--tls-cert-file", format!("{}: {e}", c.display()));
                }
            }
            let key = errs.read("--tls-private-key-file", k);
            if let Some(key) = &key {
                if let Err(e) = kas_aggregator::tls::parse_private_key(key.as_bytes()) {
                    errs.push("--tls-private-key-file", format!("{}: {e}", k.display()));
                }
            }
            cert.zip(key)
        }
        (Some(_), None) => {
            errs.push(
                "--tls-private-key-file",
                "required when --tls-cert-file is set",
            );
            None
        }
        (None, Some(_)) => {
            errs.push(
                "--tls-cert-file",
                "required when --tls-private-key-file is set",
            );
            None
        }
        (None, None) => None,
    };
    for suite in &o.tls_cipher_suites {
        if kas_aggregator::tls::cipher_suite(suite).is_none() {
            errs.push(
                "--tls-cipher-suites",
                format!("cipher suite {suite} is not supported (only AEAD suites of TLS 1.2 and 1.3 are)"),
            );
        }
    }
    let tls_min_version = match o.tls_min_version.as_deref() {
        None => TlsVersion::Tls12,
        Some(v) => TlsVersion::from_flag(v).unwrap_or_else(|| {
            errs.push(
                "--tls-min-version",
                format!("unknown tls version {v:?}; use VersionTLS12 or VersionTLS13"),
            );
            TlsVersion::Tls12
        }),
    };

    let client_ca_pem = o.client_ca_file.as_ref().and_then(|p| {
        let pem = errs.read("--client-ca-file", p)?;
        match kas_aggregator::tls::parse_cert_chain(pem.as_bytes()) {
            Ok(_) => Some(pem),
            Err(e) => {
                errs.push("--client-ca-file", format!("{}: {e}", p.display()));
                None
            }
        }
    });

    let static_tokens = match &o.token_auth_file {
        Some(path) => crate::token_file::load(path).unwrap_or_else(|e| {
            errs.push("--token-auth-file", e);
            Vec::new()
        }),
        None => Vec::new(),
    };

    // kube-apiserver's checks and words (pkg/kubeapiserver/options/authorization.go).
    if o.authorization_mode.is_empty() {
        errs.push(
            "--authorization-mode",
            "at least one authorization-mode must be passed".to_owned(),
        );
    }
    for mode in &o.authorization_mode {
        match mode.as_str() {
            "AlwaysAllow" | "AlwaysDeny" | "RBAC" | "Node" | "Webhook" => {}
            "ABAC" => errs.push(
                "--authorization-mode",
                format!("authorization-mode {mode:?} is not supported by this server yet"),
            ),
            _ => errs.push(
                "--authorization-mode",
                format!("authorization-mode {mode:?} is not a valid mode"),
            ),
        }
    }
    let distinct: std::collections::BTreeSet<&String> = o.authorization_mode.iter().collect();
    if distinct.len() != o.authorization_mode.len() {
        errs.push(
            "--authorization-mode",
            // Go's %q of a []string: ["a" "b"].
            format!(
                "authorization-mode [{}] has mode specified more than once",
                o.authorization_mode
                    .iter()
                    .map(|m| format!("{m:?}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        );
    }

    let webhooks = crate::webhook_config::validate(o, &mut errs.0);
    let (authorization_modes, authorization_webhooks) =
        crate::authz_config::resolve(o, &mut errs.0, webhooks.authorization.clone());
    let request_header = crate::requestheader::validate(o, &mut errs.0);
    let mut warnings = crate::requestheader::warnings(o);
    if authorization_modes.iter().any(|m| m == "AlwaysAllow") {
        let source = match o.authorization_config {
            Some(_) => "--authorization-config",
            None => "--authorization-mode",
        };
        warnings.push(format!(
            "{source} includes AlwaysAllow: every authenticated or anonymous request is allowed"
        ));
    }
    let audit = crate::audit_config::validate(&o.audit, &mut errs.0, &mut warnings);
    let admission = crate::admission::validate(o, &mut errs.0);
    let outbound_certs = crate::outbound_certs::validate(o, &mut errs.0);
    let sa = service_account(&mut errs, o);
    let anonymous_flag_given =
        std::env::args().any(|a| a == "--anonymous-auth" || a.starts_with("--anonymous-auth="));
    let jwt = crate::jwt_flags::validate(&o.jwt, &sa.issuers, anonymous_flag_given, &mut errs.0);

    let mut feature_gates = Vec::new();
    for kv in &o.feature_gates {
        match kv.split_once('=') {
            Some((k, v)) if !k.is_empty() => match v.parse::<bool>() {
                Ok(b) => feature_gates.push((k.to_owned(), b)),
                Err(_) => errs.push(
                    "--feature-gates",
                    format!("invalid value of {k}: {v}, err: must be true or false"),
                ),
            },
            _ => errs.push(
                "--feature-gates",
                format!("missing bool value in {kv:?}, expected name=true|false"),
            ),
        }
    }
    let mut runtime_config = Vec::new();
    for kv in &o.runtime_config {
        let (k, v) = kv.split_once('=').unwrap_or((kv.as_str(), "true"));
        if k.is_empty() || !matches!(v, "true" | "false") {
            errs.push(
                "--runtime-config",
                format!("{kv:?} must be <api>=true|false"),
            );
        } else {
            runtime_config.push((k.to_owned(), v.to_owned()));
        }
    }

    let service_cluster_ip_ranges = service_ranges(&mut errs, &o.service_cluster_ip_range);
    let service_node_port_range = node_port_range(&mut errs, &o.service_node_port_range);

    if o.logging_format != "text" && o.logging_format != "journald" {
        errs.push(
            "--logging-format",
            format!("{:?} is not one of text, journald", o.logging_format),
        );
    }

    if !errs.0.is_empty() {
        return Err(errs.0);
    }
    Ok(Validated {
        advertise_address,
        bind_address,
        secure_port,
        external_hostname: o.external_hostname.clone(),
        cors_allowed_origins: o.cors_allowed_origins.clone(),
        livez_grace_period,
        max_mutating_requests_inflight,
        max_requests_inflight,
        min_request_timeout,
        request_timeout,
        shutdown_delay,
        shutdown_send_retry_after: o.shutdown_send_retry_after,
        worker_heartbeat_timeout,
        worker_memory_limits,
        worker_cpu_limits,
        enable_aggregator_routing: o.enable_aggregator_routing,
        enable_priority_and_fairness: o.enable_priority_and_fairness,
        etcd_servers: o.etcd_servers.clone(),
        etcd_prefix: o.etcd_prefix.clone(),
        etcd_cafile: o.etcd_cafile.clone(),
        etcd_certfile: o.etcd_certfile.clone(),
        etcd_keyfile: o.etcd_keyfile.clone(),
        etcd_compaction_interval,
        storage_quota_bytes: o.storage_quota_bytes,
        restore_snapshot: o.restore_snapshot.clone(),
        storage_media_type,
        encryption,
        encryption_reload: o
            .encryption_provider_config
            .clone()
            .filter(|_| o.encryption_provider_config_automatic_reload),
        audit: audit.config,
        audit_log_file: audit.log_file,
        cert_dir: o.cert_dir.clone(),
        http2_max_streams_per_connection,
        tls_cert_key,
        tls_cipher_suites: o.tls_cipher_suites.clone(),
        tls_min_version,
        client_ca_pem,
        anonymous_auth: jwt
            .anonymous
            .as_ref()
            .map_or(o.anonymous_auth, |a| a.enabled),
        enable_bootstrap_token_auth: o.enable_bootstrap_token_auth,
        request_header,
        cert_files: kas_proto::CertFiles {
            tls_cert_file: o.tls_cert_file.clone(),
            tls_private_key_file: o.tls_private_key_file.clone(),
            client_ca_file: o.client_ca_file.clone(),
            requestheader_client_ca_file: o.requestheader_client_ca_file.clone(),
            generated_ca_pem: String::new(),
        },
        static_tokens,
        authorization_modes,
        authorization_webhooks,
        authorization_config: o.authorization_config.clone(),
        warnings,
        webhooks,
        admission,
        outbound_certs,
        service_account_issuers: sa.issuers,
        service_account_public_keys_pem: sa.public_keys_pem,
        service_account_signing_key_pem: sa.signing_key_pem,
        service_account_max_token_expiration: sa.max_token_expiration,
        service_account_extend_token_expiration: o.service_account_extend_token_expiration,
        service_account_jwks_uri: sa.jwks_uri,
        service_account_lookup: o.service_account_lookup,
        api_audiences: sa.api_audiences,
        jwt,
        feature_gates,
        runtime_config,
        service_cluster_ip_ranges,
        service_node_port_range,
        logging_format: o.logging_format.clone(),
        verbosity: o.verbosity,
        data_dir: o.data_dir.clone(),
        runtime_dir: o.runtime_dir.clone(),
    })
}

#[cfg(test)]
mod tests;
