//! Validate: turn the raw flags into typed values, reporting **every** error at once, each
//! naming its flag, before anything is bound, written or spawned.

use std::fmt;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ipnet::IpNet;
use kas_proto::TlsVersion;

use crate::godur;
use crate::options::Options;

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
    pub(crate) etcd_servers: Vec<String>,
    pub(crate) etcd_prefix: String,
    pub(crate) etcd_cafile: Option<PathBuf>,
    pub(crate) etcd_certfile: Option<PathBuf>,
    pub(crate) etcd_keyfile: Option<PathBuf>,
    pub(crate) etcd_compaction_interval: Duration,
    pub(crate) cert_dir: Option<PathBuf>,
    pub(crate) http2_max_streams_per_connection: u32,
    /// `--tls-cert-file` and `--tls-private-key-file`, read.
    pub(crate) tls_cert_key: Option<(String, String)>,
    pub(crate) tls_cipher_suites: Vec<String>,
    pub(crate) tls_min_version: TlsVersion,
    pub(crate) client_ca_pem: Option<String>,
    pub(crate) anonymous_auth: bool,
    pub(crate) authorization_modes: Vec<String>,
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
    errs.readable("--etcd-cafile", &o.etcd_cafile);
    errs.readable("--etcd-certfile", &o.etcd_certfile);
    errs.readable("--etcd-keyfile", &o.etcd_keyfile);
    if o.etcd_certfile.is_some() != o.etcd_keyfile.is_some() {
        errs.push(
            "--etcd-certfile",
            "--etcd-certfile and --etcd-keyfile must be given together",
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

    for mode in &o.authorization_mode {
        if mode != "AlwaysAllow" && mode != "AlwaysDeny" {
            errs.push(
                "--authorization-mode",
                format!("authorization mode {mode:?} is not supported (AlwaysAllow, AlwaysDeny)"),
            );
        }
    }

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
        etcd_servers: o.etcd_servers.clone(),
        etcd_prefix: o.etcd_prefix.clone(),
        etcd_cafile: o.etcd_cafile.clone(),
        etcd_certfile: o.etcd_certfile.clone(),
        etcd_keyfile: o.etcd_keyfile.clone(),
        etcd_compaction_interval,
        cert_dir: o.cert_dir.clone(),
        http2_max_streams_per_connection,
        tls_cert_key,
        tls_cipher_suites: o.tls_cipher_suites.clone(),
        tls_min_version,
        client_ca_pem,
        anonymous_auth: o.anonymous_auth,
        authorization_modes: o.authorization_mode.clone(),
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

const SCIP: &str = "--service-cluster-ip-range";

fn service_ranges(errs: &mut Errors, v: &str) -> Vec<IpNet> {
    let mut nets = Vec::new();
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    if parts.len() > 2 {
        errs.push(SCIP, "may contain at most two CIDRs (one per IP family)");
    }
    for part in parts {
        match part.parse::<IpNet>() {
            Ok(net) => {
                let host_bits = net.max_prefix_len() - net.prefix_len();
                match net {
                    IpNet::V4(_) if host_bits > 20 => errs.push(
                        SCIP,
                        format!(
                            "{part} is too large; for 32-bit addresses, the mask must be >= 12"
                        ),
                    ),
                    IpNet::V6(_) if net.prefix_len() < 108 => errs.push(
                        SCIP,
                        format!(
                            "{part} is too large; for 128-bit addresses, the mask must be >= 108"
                        ),
                    ),
                    _ if host_bits < 2 => errs.push(
                        SCIP,
                        format!("{part} is too small to hold any service address"),
                    ),
                    _ => nets.push(net.trunc()),
                }
            }
            Err(_) => errs.push(SCIP, format!("{part:?} is not a valid CIDR")),
        }
    }
    if nets.len() == 2 && nets[0].addr().is_ipv4() == nets[1].addr().is_ipv4() {
        errs.push(SCIP, "two CIDRs must be of different IP families");
    }
    nets
}

fn node_port_range(errs: &mut Errors, v: &str) -> (u16, u16) {
    const FLAG: &str = "--service-node-port-range";
    let parsed = if let Some((a, b)) = v.split_once('-') {
        a.trim()
            .parse::<u16>()
            .ok()
            .zip(b.trim().parse::<u16>().ok())
    } else if let Some((a, n)) = v.split_once('+') {
        a.trim()
            .parse::<u16>()
            .ok()
            .zip(n.trim().parse::<u16>().ok())
            .and_then(|(a, n)| a.checked_add(n).map(|b| (a, b)))
    } else {
        v.trim().parse::<u16>().ok().map(|p| (p, p))
    };
    match parsed {
        Some((a, b)) if a <= b && a > 0 => (a, b),
        _ => {
            errs.push(
                FLAG,
                format!("{v:?} is not a valid port range (e.g. 30000-32767 or 30000+2767)"),
            );
            (30000, 32767)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn opts(args: &[&str]) -> Options {
        let mut v = vec!["kube-apiserver"];
        v.extend_from_slice(args);
        Options::try_parse_from(v).expect("parse")
    }

    #[test]
    fn defaults_are_valid() {
        let v = validate(&opts(&[])).expect("valid");
        assert_eq!(v.secure_port, 6443);
        assert_eq!(v.request_timeout, Duration::from_secs(60));
        assert_eq!(v.service_node_port_range, (30000, 32767));
        assert_eq!(v.service_cluster_ip_ranges[0].to_string(), "10.0.0.0/24");
    }

    #[test]
    fn every_error_at_once() {
        let errs = validate(&opts(&[
            "--secure-port=70000",
            "--service-cluster-ip-range=10.0.0.0/33",
            "--tls-cert-file=/nonexistent/cert.pem",
            "--tls-private-key-file=/nonexistent/key.pem",
            "--min-request-timeout=0",
            "--service-node-port-range=5-1",
            "--request-timeout=soon",
        ]))
        .expect_err("invalid");
        let flags: Vec<&str> = errs.iter().map(|e| e.flag).collect();
        for f in [
            "--secure-port",
            "--service-cluster-ip-range",
            "--tls-cert-file",
            "--tls-private-key-file",
            "--min-request-timeout",
            "--service-node-port-range",
            "--request-timeout",
        ] {
            assert!(flags.contains(&f), "{f} missing from {errs:?}");
        }
    }

    #[test]
    fn dual_stack_and_port_syntax() {
        let v = validate(&opts(&[
            "--service-cluster-ip-range=10.96.0.0/16,fd00::/108",
            "--service-node-port-range=30000+100",
        ]))
        .expect("valid");
        assert_eq!(v.service_cluster_ip_ranges.len(), 2);
        assert_eq!(v.service_node_port_range, (30000, 30100));
    }
}
