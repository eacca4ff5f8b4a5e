//! Complete: fill in what the operator left out, as kube-apiserver does: directories,
//! the advertise address (from the host's default-route interface), the external host,
//! the first service IP, and the certificates.

use std::net::IpAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use ipnet::IpNet;
use kas_proto::{SecureServing, WorkerConfig, WorkerRole};

use crate::certs::{self, CertError, Pki, ServingNames};
use crate::validate::Validated;

/// What can fail while completing the options.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CompleteError {
    /// A directory could not be made.
    #[error("creating {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Certificates could not be made or read.
    #[error(transparent)]
    Certs(#[from] CertError),
    /// The audit log file could not be made.
    #[error("--audit-log-path: cannot create the audit log {path}: {source}")]
    AuditLog {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The service account signing key could not be made or read.
    #[error("service account signing key {path}: {message}")]
    ServiceAccountKey {
        /// The key file.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

/// The options with every default filled in.
#[derive(Debug, Clone)]
pub(crate) struct CompletedOptions {
    /// Where `admin.kubeconfig` goes.
    pub(crate) kubeconfig_path: PathBuf,
    /// Certificates and keys.
    pub(crate) pki: Pki,
    /// `--authorization-config`, followed for changes once serving.
    pub(crate) authorization_config: Option<PathBuf>,
    /// `--worker-heartbeat-timeout`; zero never kills.
    pub(crate) worker_heartbeat_timeout: std::time::Duration,
    /// `--worker-memory-limit`, in bytes per worker.
    pub(crate) worker_memory_limits: std::collections::BTreeMap<kas_proto::WorkerRole, u64>,
    /// `--worker-cpu-limit`, in thousandths of a CPU per worker.
    pub(crate) worker_cpu_limits: std::collections::BTreeMap<kas_proto::WorkerRole, u64>,
    /// The configuration every worker receives (the role and port are set per worker and
    /// after binding).
    pub(crate) worker: WorkerConfig,
}

fn first_env_path(var: &str) -> Option<PathBuf> {
    // systemd may list several directories separated by ':'; the first is ours.
    let v = std::env::var_os(var)?;
    let s = v.to_string_lossy();
    s.split(':').find(|p| !p.is_empty()).map(PathBuf::from)
}

fn absolute(p: PathBuf) -> PathBuf {
    if p.is_absolute() {
        p
    } else {
        std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p)
    }
}

fn make_dir(path: &Path, mode: Option<u32>) -> Result<(), CompleteError> {
    let err = |source| CompleteError::Dir {
        path: path.to_owned(),
        source,
    };
    std::fs::create_dir_all(path).map_err(err)?;
    if let Some(mode) = mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(err)?;
    }
    Ok(())
}

/// The IPv4 address of the interface that carries the default route, as kube-apiserver's
/// ChooseHostInterface finds it; loopback when there is none.
pub(crate) fn host_default_address() -> IpAddr {
    let iface = std::fs::read_to_string("/proc/net/route")
        .ok()
        .and_then(|table| {
            table.lines().skip(1).find_map(|line| {
                let cols: Vec<&str> = line.split_whitespace().collect();
                (cols.len() > 2 && cols[1] == "00000000").then(|| cols[0].to_owned())
            })
        });
    let addrs: Vec<(String, IpAddr)> = nix::ifaddrs::getifaddrs()
        .map(|it| {
            it.filter_map(|a| {
                let ip = a.address?.as_sockaddr_in().map(|s| IpAddr::V4(s.ip()))?;
                Some((a.interface_name, ip))
            })
            .collect()
        })
        .unwrap_or_default();
    iface
        .and_then(|i| addrs.iter().find(|(n, _)| *n == i).map(|(_, ip)| *ip))
        .or_else(|| addrs.iter().map(|(_, ip)| *ip).find(|ip| !ip.is_loopback()))
        .unwrap_or(IpAddr::from([127, 0, 0, 1]))
}

/// The first usable address of a service CIDR (kube-apiserver's `kubernetes` Service IP).
pub(crate) fn first_service_ip(net: &IpNet) -> IpAddr {
    match net {
        IpNet::V4(n) => IpAddr::V4((u32::from(n.network()) + 1).into()),
        IpNet::V6(n) => IpAddr::V6((u128::from(n.network()) + 1).into()),
    }
}

/// `--data-dir`, else `$STATE_DIRECTORY`, else `./apiserver-data`; absolute.
pub(crate) fn data_dir(v: &Validated) -> PathBuf {
    absolute(
        v.data_dir
            .clone()
            .or_else(|| first_env_path("STATE_DIRECTORY"))
            .unwrap_or_else(|| PathBuf::from("apiserver-data")),
    )
}

/// Fills in every default and makes the certificates.
pub(crate) fn complete(v: Validated) -> Result<CompletedOptions, CompleteError> {
    let data_dir = data_dir(&v);
    make_dir(&data_dir, Some(0o700))?;
    let runtime_dir = absolute(
        v.runtime_dir
            .clone()
            .or_else(|| first_env_path("RUNTIME_DIRECTORY"))
            .unwrap_or_else(|| data_dir.join("run")),
    );
    make_dir(&runtime_dir, Some(0o700))?;
    let cert_dir = absolute(v.cert_dir.clone().unwrap_or_else(|| data_dir.join("pki")));
    make_dir(&cert_dir, Some(0o700))?;
    if let Some(path) = &v.audit_log_file {
        crate::audit_config::ensure_log_file(path).map_err(|source| CompleteError::AuditLog {
            path: path.clone(),
            source,
        })?;
    }

    let advertise_address = v
        .advertise_address
        .or_else(|| (!v.bind_address.is_unspecified()).then_some(v.bind_address))
        .unwrap_or_else(host_default_address);
    let external_hostname = v
        .external_hostname
        .clone()
        .unwrap_or_else(|| advertise_address.to_string());
    let service_ip = v.service_cluster_ip_ranges.first().map(first_service_ip);

    let mut ips = vec![advertise_address, v.bind_address];
    ips.extend(service_ip);
    let names = ServingNames::new(&external_hostname, &ips);
    let pki = certs::ensure(&cert_dir, &names, v.tls_cert_key.clone())?;
    // kubeadm's front proxy when neither side of it is configured.
    let (request_header, proxy_client) = match (&v.request_header, &v.outbound_certs.proxy_client) {
        (None, None) => {
            let (rh, client) = crate::front_proxy_certs::ensure(&cert_dir)?;
            (Some(rh), Some(client))
        }
        (rh, client) => (
            rh.clone(),
            client.as_ref().map(|p| kas_proto::ClientCertificate {
                cert_pem: p.cert_pem.clone(),
                key_pem: p.key_pem.clone(),
            }),
        ),
    };

    let mut client_ca_pem = pki.ca_pem.clone();
    if let Some(extra) = &v.client_ca_pem {
        client_ca_pem.push_str(extra);
    }

    let (sa_key_pem, sa_public_pem) = service_account_key(&cert_dir, &v)?;
    let sa_public_keys = if v.service_account_public_keys_pem.is_empty() {
        vec![sa_public_pem.clone()]
    } else {
        v.service_account_public_keys_pem.clone()
    };

    let worker = WorkerConfig {
        role: WorkerRole::Aggregator,
        runtime_dir: runtime_dir.clone(),
        staged: false,
        data_dir: data_dir.clone(),
        verbosity: v.verbosity,
        logging_format: v.logging_format.clone(),
        kubernetes_version: kas_server::KUBERNETES_VERSION.to_owned(),
        serving: SecureServing {
            bind_address: v.bind_address,
            port: v.secure_port,
            cert_pem: pki.serving_cert_pem.clone(),
            key_pem: pki.serving_key_pem.clone(),
            ca_bundle_pem: certs::server_trust_bundle(&client_ca_pem, &pki.serving_cert_pem),
            client_ca_pem,
            tls_min_version: v.tls_min_version,
            tls_cipher_suites: v.tls_cipher_suites.clone(),
            http2_max_streams_per_connection: if v.http2_max_streams_per_connection == 0 {
                100
            } else {
                v.http2_max_streams_per_connection
            },
        },
        advertise_address,
        external_hostname,
        etcd_servers: v.etcd_servers.clone(),
        etcd_prefix: v.etcd_prefix.clone(),
        etcd_cafile: v.etcd_cafile.clone(),
        etcd_certfile: v.etcd_certfile.clone(),
        etcd_keyfile: v.etcd_keyfile.clone(),
        etcd_compaction_interval: v.etcd_compaction_interval,
        storage_quota_bytes: v.storage_quota_bytes,
        storage_media_type: v.storage_media_type,
        service_cluster_ip_ranges: v
            .service_cluster_ip_ranges
            .iter()
            .map(|n| n.to_string())
            .collect(),
        service_node_port_range: v.service_node_port_range,
        max_requests_inflight: v.max_requests_inflight,
        max_mutating_requests_inflight: v.max_mutating_requests_inflight,
        request_timeout: v.request_timeout,
        min_request_timeout: v.min_request_timeout,
        shutdown_delay: v.shutdown_delay,
        shutdown_send_retry_after: v.shutdown_send_retry_after,
        livez_grace_period: v.livez_grace_period,
        cors_allowed_origins: v.cors_allowed_origins.clone(),
        runtime_config: v.runtime_config.clone(),
        feature_gates: v.feature_gates.clone(),
        anonymous_auth: v.anonymous_auth,
        enable_bootstrap_token_auth: v.enable_bootstrap_token_auth,
        request_header,
        cert_files: kas_proto::CertFiles {
            generated_ca_pem: pki.ca_pem.clone(),
            ..v.cert_files.clone()
        },
        static_tokens: v.static_tokens.clone(),
        token_webhook: v.webhooks.token.clone(),
        authorization_modes: v.authorization_modes.clone(),
        authorization_webhooks: v.authorization_webhooks.clone(),
        admission: kas_proto::AdmissionConfig {
            plugins: v
                .admission
                .plugins
                .iter()
                .map(|p| (*p).to_owned())
                .collect(),
            config_file: v
                .admission
                .config_file
                .as_ref()
                .map(|(_, text)| text.clone()),
            default_not_ready_toleration_seconds: v.admission.default_not_ready_toleration_seconds,
            default_unreachable_toleration_seconds: v
                .admission
                .default_unreachable_toleration_seconds,
            allow_privileged: v.admission.allow_privileged,
        },
        service_account_issuers: v.service_account_issuers.clone(),
        api_audiences: v.api_audiences.clone(),
        service_account_signing_key_pem: sa_key_pem,
        service_account_signing_public_key_pem: sa_public_pem,
        service_account_public_keys_pem: sa_public_keys,
        service_account_max_token_expiration: v.service_account_max_token_expiration,
        service_account_extend_token_expiration: v.service_account_extend_token_expiration,
        service_account_jwks_uri: v.service_account_jwks_uri.clone(),
        service_account_lookup: v.service_account_lookup,
        jwt: v.jwt.config.clone(),
        anonymous_paths: v
            .jwt
            .anonymous
            .as_ref()
            .map(|a| a.paths.clone())
            .unwrap_or_default(),
        enable_aggregator_routing: v.enable_aggregator_routing,
        enable_priority_and_fairness: v.enable_priority_and_fairness,
        proxy_client,
        kubelet: {
            let k = &v.outbound_certs.kubelet;
            kas_proto::KubeletClientConfig {
                client: k.client.as_ref().map(|p| kas_proto::ClientCertificate {
                    cert_pem: p.cert_pem.clone(),
                    key_pem: p.key_pem.clone(),
                }),
                ca_pem: k.ca_pem.clone(),
                preferred_address_types: k.preferred_address_types.clone(),
                timeout: k.timeout,
            }
        },
        encryption: v.encryption.clone(),
        encryption_reload: v.encryption_reload.clone(),
        audit: v.audit.clone(),
    };

    Ok(CompletedOptions {
        kubeconfig_path: data_dir.join("admin.kubeconfig"),
        authorization_config: v.authorization_config.clone(),
        worker_heartbeat_timeout: v.worker_heartbeat_timeout,
        worker_memory_limits: v.worker_memory_limits.clone(),
        worker_cpu_limits: v.worker_cpu_limits.clone(),
        pki,
        worker,
    })
}

/// The service account signing key and its public half (both PEM):
/// `--service-account-signing-key-file` when given, else `<cert-dir>/sa.key`, generated
/// (ECDSA P-256, 0600) on first start and reused afterwards.
fn service_account_key(cert_dir: &Path, v: &Validated) -> Result<(String, String), CompleteError> {
    if let Some(pem) = &v.service_account_signing_key_pem {
        let public = crate::validate::signing_public_key(pem).map_err(|message| {
            CompleteError::ServiceAccountKey {
                path: PathBuf::from("--service-account-signing-key-file"),
                message,
            }
        })?;
        return Ok((pem.clone(), public));
    }
    let path = cert_dir.join("sa.key");
    let err = |message: String| CompleteError::ServiceAccountKey {
        path: path.clone(),
        message,
    };
    match std::fs::read_to_string(&path) {
        Ok(pem) => {
            let public = crate::validate::signing_public_key(&pem).map_err(err)?;
            Ok((pem, public))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = rcgen::KeyPair::generate().map_err(|e| err(e.to_string()))?;
            let pem = key.serialize_pem();
            certs::write_private(&path, pem.as_bytes())?;
            Ok((pem, key.public_key_pem()))
        }
        Err(e) => Err(err(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_account_key_generated_once() {
        use clap::Parser;
        let dir = tempfile::tempdir().expect("tempdir");
        let opts = crate::options::Options::try_parse_from(["kube-apiserver"]).expect("parse");
        let v = crate::validate::validate(&opts).expect("valid");
        let (k1, p1) = service_account_key(dir.path(), &v).expect("generate");
        let (k2, p2) = service_account_key(dir.path(), &v).expect("reuse");
        assert_eq!((&k1, &p1), (&k2, &p2));
        assert!(p1.contains("BEGIN PUBLIC KEY"));
        let mode = std::fs::metadata(dir.path().join("sa.key"))
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn first_service_ips() {
        let n: IpNet = "10.0.0.0/24".parse().expect("cidr");
        assert_eq!(first_service_ip(&n), IpAddr::from([10, 0, 0, 1]));
        let n: IpNet = "fd00::/108".parse().expect("cidr");
        assert_eq!(first_service_ip(&n).to_string(), "fd00::1");
    }
}
