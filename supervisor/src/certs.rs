//! First-run security: a CA, a serving certificate signed by it, an admin client
//! certificate (O=system:masters) and `admin.kubeconfig`, all 0600 and reused on the next
//! start. The serving certificate is re-issued from the same CA when its names change.

use std::io::Write;
use std::net::IpAddr;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose, SanType,
};

/// What can fail while making or reading certificates.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CertError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// rcgen failed.
    #[error("generating a certificate: {0}")]
    Generate(#[from] rcgen::Error),
}

const CA_COMMON_NAME: &str = "kube-apiserver-rs-ca";
const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);

/// The PKI the server runs with.
#[derive(Debug, Clone)]
pub(crate) struct Pki {
    /// The generated CA, PEM.
    pub(crate) ca_pem: String,
    /// The serving certificate (chain), PEM.
    pub(crate) serving_cert_pem: String,
    /// The serving key, PEM.
    pub(crate) serving_key_pem: String,
    /// The admin client certificate, PEM.
    pub(crate) admin_cert_pem: String,
    /// The admin client key, PEM.
    pub(crate) admin_key_pem: String,
}

pub(crate) fn read(path: &Path) -> Result<Option<String>, CertError> {
    match std::fs::read_to_string(path) {
        Ok(s) => Ok(Some(s)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(CertError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Writes `contents` to `path` with mode 0600, atomically (temp file + rename).
pub(crate) fn write_private(path: &Path, contents: &[u8]) -> Result<(), CertError> {
    let io = |source| CertError::Io {
        path: path.to_owned(),
        source,
    };
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(io)?;
    f.write_all(contents).map_err(io)?;
    f.sync_all().map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

fn ca_params() -> Result<CertificateParams, CertError> {
    ca_params_named(CA_COMMON_NAME)
}

/// A CA named `common_name`, valid for ten years.
pub(crate) fn ca_params_named(common_name: &str) -> Result<CertificateParams, CertError> {
    let mut p = CertificateParams::new(Vec::<String>::new())?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, common_name);
    p.distinguished_name = dn;
    p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    p.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    p.not_before = (SystemTime::now() - Duration::from_secs(3600)).into();
    p.not_after = (SystemTime::now() + 10 * YEAR).into();
    Ok(p)
}

pub(crate) fn leaf_params(
    common_name: &str,
    organization: Option<&str>,
) -> Result<CertificateParams, CertError> {
    let mut p = CertificateParams::new(Vec::<String>::new())?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, common_name);
    if let Some(o) = organization {
        dn.push(DnType::OrganizationName, o);
    }
    p.distinguished_name = dn;
    p.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    p.not_before = (SystemTime::now() - Duration::from_secs(3600)).into();
    p.not_after = (SystemTime::now() + YEAR).into();
    Ok(p)
}

/// The names the serving certificate must carry, as kube-apiserver puts them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServingNames {
    /// DNS names.
    pub(crate) dns: Vec<String>,
    /// IP addresses.
    pub(crate) ips: Vec<IpAddr>,
}

impl ServingNames {
    /// `localhost`, `kubernetes` and its service names, the external hostname, and the
    /// loopback, advertise, bind and first service IPs.
    pub(crate) fn new(external_hostname: &str, ips: &[IpAddr]) -> ServingNames {
        let mut dns: Vec<String> = [
            "localhost",
            "kubernetes",
            "kubernetes.default",
            "kubernetes.default.svc",
            "kubernetes.default.svc.cluster.local",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if external_hostname.parse::<IpAddr>().is_err()
            && !dns.iter().any(|d| d == external_hostname)
        {
            dns.push(external_hostname.to_owned());
        }
        let mut all_ips: Vec<IpAddr> = vec![IpAddr::from([127, 0, 0, 1])];
        all_ips.extend(
            ips.iter()
                .copied()
                .chain(external_hostname.parse::<IpAddr>().ok())
                .filter(|ip| !ip.is_unspecified()),
        );
        let mut seen = Vec::new();
        all_ips.retain(|ip| {
            let fresh = !seen.contains(ip);
            seen.push(*ip);
            fresh
        });
        ServingNames { dns, ips: all_ips }
    }

    fn fingerprint(&self) -> String {
        let mut s = self.dns.join("\n");
        for ip in &self.ips {
            s.push('\n');
            s.push_str(&ip.to_string());
        }
        s.push('\n');
        s
    }
}

/// Loads the PKI from `dir`, creating whatever is missing. `serving` overrides the
/// generated serving pair (`--tls-cert-file` / `--tls-private-key-file`).
pub(crate) fn ensure(
    dir: &Path,
    names: &ServingNames,
    serving: Option<(String, String)>,
) -> Result<Pki, CertError> {
    std::fs::create_dir_all(dir).map_err(|source| CertError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let p = |n: &str| dir.join(n);

    // The CA.
    let (ca_pem, ca_key) = match (read(&p("ca.crt"))?, read(&p("ca.key"))?) {
        (Some(cert), Some(key)) => (cert, KeyPair::from_pem(&key)?),
        _ => {
            let key = KeyPair::generate()?;
            let cert = ca_params()?.self_signed(&key)?;
            write_private(&p("ca.key"), key.serialize_pem().as_bytes())?;
            write_private(&p("ca.crt"), cert.pem().as_bytes())?;
            // A new CA invalidates every certificate it did not sign: ours (a serving pair
            // we wrote has its `apiserver.names`), never a pair someone else put there.
            let mut stale = vec!["admin.crt", "admin.key"];
            if p("apiserver.names").exists() {
                stale.extend(["apiserver.crt", "apiserver.key", "apiserver.names"]);
            }
            for file in stale {
                let _ = std::fs::remove_file(p(file));
            }
            (cert.pem(), key)
        }
    };
    // Signing needs the CA's name and key only; both are stable across restarts.
    let issuer = Issuer::new(ca_params()?, ca_key);

    // The serving pair.
    let (serving_cert_pem, serving_key_pem) = match serving {
        Some(pair) => pair,
        None => {
            let fingerprint = names.fingerprint();
            let existing = (
                read(&p("apiserver.crt"))?,
                read(&p("apiserver.key"))?,
                read(&p("apiserver.names"))?,
            );
            match existing {
                (Some(c), Some(k), Some(n)) if n == fingerprint => (c, k),
                // As kube-apiserver: a pair already in --cert-dir that this server did not
                // generate (envtest writes one signed by its own CA) is served as it is.
                (Some(c), Some(k), None) => (c, k),
                _ => {
                    let key = KeyPair::generate()?;
                    let mut params = leaf_params("kube-apiserver", None)?;
                    params.subject_alt_names = names
                        .dns
                        .iter()
                        .filter_map(|d| d.clone().try_into().ok().map(SanType::DnsName))
                        .chain(names.ips.iter().map(|ip| SanType::IpAddress(*ip)))
                        .collect();
                    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
                    let cert = params.signed_by(&key, &issuer)?;
                    // The chain includes the CA so clients that pin only the CA verify it.
                    let chain = format!("{}{}", cert.pem(), ca_pem);
                    write_private(&p("apiserver.key"), key.serialize_pem().as_bytes())?;
                    write_private(&p("apiserver.crt"), chain.as_bytes())?;
                    write_private(&p("apiserver.names"), fingerprint.as_bytes())?;
                    (chain, key.serialize_pem())
                }
            }
        }
    };

    // The admin client pair.
    let (admin_cert_pem, admin_key_pem) = match (read(&p("admin.crt"))?, read(&p("admin.key"))?) {
        (Some(c), Some(k)) => (c, k),
        _ => {
            let key = KeyPair::generate()?;
            let mut params = leaf_params("kubernetes-admin", Some("system:masters"))?;
            params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
            let cert = params.signed_by(&key, &issuer)?;
            write_private(&p("admin.key"), key.serialize_pem().as_bytes())?;
            write_private(&p("admin.crt"), cert.pem().as_bytes())?;
            (cert.pem(), key.serialize_pem())
        }
    };

    Ok(Pki {
        ca_pem,
        serving_cert_pem,
        serving_key_pem,
        admin_cert_pem,
        admin_key_pem,
    })
}

/// The admin kubeconfig for `server` (e.g. `https://127.0.0.1:6443`), trusting the CAs of
/// `ca_bundle_pem` to verify the server.
pub(crate) fn kubeconfig(pki: &Pki, server: &str, ca_bundle_pem: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kube-apiserver-rs\n  cluster:\n    \
         server: {server}\n    certificate-authority-data: {}\nusers:\n- name: kubernetes-admin\n  \
         user:\n    client-certificate-data: {}\n    client-key-data: {}\ncontexts:\n- name: \
         kubernetes-admin@kube-apiserver-rs\n  context:\n    cluster: kube-apiserver-rs\n    \
         user: kubernetes-admin\ncurrent-context: kubernetes-admin@kube-apiserver-rs\n",
        STANDARD.encode(ca_bundle_pem),
        STANDARD.encode(&pki.admin_cert_pem),
        STANDARD.encode(&pki.admin_key_pem),
    )
}

/// The CAs a client should trust to verify this server: the generated CA, the
/// `--client-ca-file` CAs (under kubeadm the cluster CA signs the serving certificate
/// too), and the certificates after the first in the serving chain (its issuers, when a
/// `--tls-cert-file` carries them). With a generated serving certificate this is the
/// generated CA and the client CAs.
pub(crate) fn server_trust_bundle(client_ca_pem: &str, serving_chain_pem: &str) -> String {
    const END: &str = "-----END CERTIFICATE-----";
    let mut bundle = client_ca_pem.trim_end().to_owned();
    bundle.push('\n');
    let mut rest = serving_chain_pem;
    let mut index = 0;
    while let Some(end) = rest.find(END) {
        let block = &rest[..end + END.len()];
        if index > 0 {
            if let Some(start) = block.find("-----BEGIN CERTIFICATE-----") {
                let cert = &block[start..];
                if !bundle.contains(cert) {
                    bundle.push_str(cert);
                    bundle.push('\n');
                }
            }
        }
        index += 1;
        rest = &rest[end + END.len()..];
    }
    bundle
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_trust_bundle_adds_the_serving_chains_issuers() {
        let cert =
            |n: &str| format!("-----BEGIN CERTIFICATE-----\n{n}\n-----END CERTIFICATE-----\n");
        let clients = format!("{}{}", cert("generated"), cert("cluster"));
        assert_eq!(server_trust_bundle(&clients, &cert("leaf")), clients);
        let chain = format!(
            "{}{}{}",
            cert("leaf"),
            cert("intermediate"),
            cert("cluster")
        );
        assert_eq!(
            server_trust_bundle(&clients, &chain),
            format!("{clients}{}", cert("intermediate"))
        );
    }

    #[test]
    fn generated_once_then_reused_and_reissued_on_new_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        let names = ServingNames::new("10.1.2.3", &[IpAddr::from([10, 1, 2, 3])]);
        let first = ensure(dir.path(), &names, None).expect("first");
        let second = ensure(dir.path(), &names, None).expect("second");
        assert_eq!(first.ca_pem, second.ca_pem);
        assert_eq!(first.serving_cert_pem, second.serving_cert_pem);
        assert_eq!(first.admin_key_pem, second.admin_key_pem);

        let moved = ServingNames::new("10.9.9.9", &[IpAddr::from([10, 9, 9, 9])]);
        let third = ensure(dir.path(), &moved, None).expect("third");
        assert_eq!(first.ca_pem, third.ca_pem);
        assert_ne!(first.serving_cert_pem, third.serving_cert_pem);
        assert_eq!(first.admin_cert_pem, third.admin_cert_pem);

        use std::os::unix::fs::PermissionsExt;
        for f in ["ca.key", "ca.crt", "apiserver.key", "admin.key"] {
            let mode = std::fs::metadata(dir.path().join(f))
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{f}");
        }
    }

    #[test]
    fn a_serving_pair_we_did_not_write_is_served_as_it_is() {
        // envtest's --cert-dir: apiserver.crt/.key signed by its own CA, no ca.crt.
        let dir = tempfile::tempdir().expect("tempdir");
        let key = KeyPair::generate().expect("key");
        let cert = CertificateParams::new(vec!["localhost".into()])
            .expect("params")
            .self_signed(&key)
            .expect("cert");
        std::fs::write(dir.path().join("apiserver.crt"), cert.pem()).expect("write");
        std::fs::write(dir.path().join("apiserver.key"), key.serialize_pem()).expect("write");
        let names = ServingNames::new("10.1.2.3", &[IpAddr::from([10, 1, 2, 3])]);
        let pki = ensure(dir.path(), &names, None).expect("ensure");
        assert_eq!(pki.serving_cert_pem, cert.pem());
        assert_eq!(pki.serving_key_pem, key.serialize_pem());
        assert!(dir.path().join("ca.crt").exists());
    }
}
