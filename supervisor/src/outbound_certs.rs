//! The credentials this server presents when it calls out, as kube-apiserver reads them at
//! start: `--kubelet-client-certificate` / `--kubelet-client-key` and
//! `--kubelet-certificate-authority` (to kubelets), `--proxy-client-cert-file` /
//! `--proxy-client-key-file` (to aggregated API servers and admission webhooks). Each pair
//! must come together and parse; the files are read here so that a bad one stops the
//! start with the other flag errors. Nothing calls out with them yet (kubelet proxying
//! and remote APIServices come later); they are carried in
//! [`crate::validate::Validated`].

use std::path::Path;
use std::time::Duration;

use crate::options::Options;
use crate::validate::FlagError;

/// A client certificate chain and its key, PEM.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClientPair {
    pub(crate) cert_pem: String,
    pub(crate) key_pem: String,
}

/// The `--kubelet-*` flags, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KubeletClient {
    pub(crate) client: Option<ClientPair>,
    /// `--kubelet-certificate-authority`, read.
    pub(crate) ca_pem: Option<String>,
    pub(crate) preferred_address_types: Vec<String>,
    pub(crate) timeout: Duration,
}

/// Both sets, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutboundCerts {
    pub(crate) kubelet: KubeletClient,
    /// `--proxy-client-cert-file` and `--proxy-client-key-file`, read.
    pub(crate) proxy_client: Option<ClientPair>,
}

fn push(errs: &mut Vec<FlagError>, flag: &'static str, message: String) {
    errs.push(FlagError { flag, message });
}

fn read(errs: &mut Vec<FlagError>, flag: &'static str, path: &Path) -> Option<String> {
    std::fs::read_to_string(path)
        .map_err(|e| push(errs, flag, format!("cannot read {}: {e}", path.display())))
        .ok()
}

fn certs(errs: &mut Vec<FlagError>, flag: &'static str, path: &Path) -> Option<String> {
    let pem = read(errs, flag, path)?;
    kas_aggregator::tls::parse_cert_chain(pem.as_bytes())
        .map_err(|e| push(errs, flag, format!("{}: {e}", path.display())))
        .ok()?;
    Some(pem)
}

/// A certificate flag and a key flag that only make sense together.
fn pair(
    errs: &mut Vec<FlagError>,
    (cert_flag, cert): (&'static str, Option<&Path>),
    (key_flag, key): (&'static str, Option<&Path>),
) -> Option<ClientPair> {
    match (cert, key) {
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            let flag = if cert.is_none() { cert_flag } else { key_flag };
            push(
                errs,
                flag,
                format!("{cert_flag} and {key_flag} must be given together"),
            );
            None
        }
        (Some(cert), Some(key)) => {
            let cert_pem = certs(errs, cert_flag, cert);
            let key_pem = read(errs, key_flag, key).filter(|pem| {
                kas_aggregator::tls::parse_private_key(pem.as_bytes())
                    .map_err(|e| push(errs, key_flag, format!("{}: {e}", key.display())))
                    .is_ok()
            });
            Some(ClientPair {
                cert_pem: cert_pem?,
                key_pem: key_pem?,
            })
        }
    }
}

/// Checks the outbound credentials; every problem goes to `errs`.
pub(crate) fn validate(o: &Options, errs: &mut Vec<FlagError>) -> OutboundCerts {
    let client = pair(
        errs,
        (
            "--kubelet-client-certificate",
            o.kubelet_client_certificate.as_deref(),
        ),
        ("--kubelet-client-key", o.kubelet_client_key.as_deref()),
    );
    let ca_pem = o
        .kubelet_certificate_authority
        .as_deref()
        .and_then(|p| certs(errs, "--kubelet-certificate-authority", p));
    let timeout = crate::godur::parse(&o.kubelet_timeout).unwrap_or_else(|e| {
        push(errs, "--kubelet-timeout", e);
        Duration::from_secs(5)
    });
    let proxy_client = pair(
        errs,
        (
            "--proxy-client-cert-file",
            o.proxy_client_cert_file.as_deref(),
        ),
        (
            "--proxy-client-key-file",
            o.proxy_client_key_file.as_deref(),
        ),
    );
    OutboundCerts {
        kubelet: KubeletClient {
            client,
            ca_pem,
            preferred_address_types: o.kubelet_preferred_address_types.clone(),
            timeout,
        },
        proxy_client,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn check(args: &[String]) -> (OutboundCerts, Vec<String>) {
        let o = Options::try_parse_from(
            std::iter::once("kube-apiserver".to_owned()).chain(args.iter().cloned()),
        )
        .expect("parse");
        let mut errs = Vec::new();
        let flags = validate(&o, &mut errs);
        (flags, errs.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn pairs_are_read_and_must_come_together() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = rcgen::KeyPair::generate().expect("key");
        let cert = rcgen::CertificateParams::new(vec!["front-proxy-client".into()])
            .expect("params")
            .self_signed(&key)
            .expect("cert");
        let crt_path = dir.path().join("client.crt");
        let key_path = dir.path().join("client.key");
        std::fs::write(&crt_path, cert.pem()).expect("write");
        std::fs::write(&key_path, key.serialize_pem()).expect("write");
        let arg = |flag: &str, p: &Path| format!("{flag}={}", p.display());

        let (flags, errs) = check(&[
            arg("--proxy-client-cert-file", &crt_path),
            arg("--proxy-client-key-file", &key_path),
            arg("--kubelet-client-certificate", &crt_path),
            arg("--kubelet-client-key", &key_path),
            arg("--kubelet-certificate-authority", &crt_path),
            "--kubelet-preferred-address-types=InternalIP,Hostname".into(),
        ]);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(
            flags.proxy_client.as_ref().map(|p| p.cert_pem.clone()),
            Some(cert.pem())
        );
        assert!(flags.kubelet.client.is_some() && flags.kubelet.ca_pem.is_some());
        assert_eq!(
            flags.kubelet.preferred_address_types,
            ["InternalIP", "Hostname"]
        );
        assert_eq!(flags.kubelet.timeout, Duration::from_secs(5));

        let (flags, errs) = check(&[]);
        assert!(errs.is_empty() && flags.proxy_client.is_none());
        assert_eq!(flags.kubelet.preferred_address_types.len(), 5);

        let (_, errs) = check(&[
            arg("--proxy-client-cert-file", &crt_path),
            arg("--kubelet-client-key", &key_path),
            arg("--kubelet-certificate-authority", &key_path),
            "--kubelet-timeout=soon".into(),
        ]);
        for want in [
            "--proxy-client-key-file: --proxy-client-cert-file and --proxy-client-key-file must be given together",
            "--kubelet-client-certificate: --kubelet-client-certificate and --kubelet-client-key must be given together",
            "--kubelet-certificate-authority",
            "--kubelet-timeout",
        ] {
            assert!(errs.iter().any(|e| e.contains(want)), "{want} not in {errs:?}");
        }

        let (_, errs) = check(&[
            arg("--proxy-client-cert-file", &key_path),
            arg("--proxy-client-key-file", &crt_path),
        ]);
        assert_eq!(errs.len(), 2, "{errs:?}");
    }
}
