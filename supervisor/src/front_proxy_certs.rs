//! The front proxy's credentials, as kubeadm sets kube-apiserver up: with neither
//! `--requestheader-client-ca-file` nor `--proxy-client-cert-file` given, a front-proxy CA
//! and a client certificate it signs (CN `front-proxy-client`) are made in the cert dir
//! (0600, reused on the next start), request-header authentication trusts that CA for that
//! name with the `X-Remote-*` headers, and the aggregator presents the certificate to
//! extension API servers. So an extension server (metrics-server, anything built on
//! k8s.io/apiserver) registered on a server started with no flags learns who is asking,
//! from the `extension-apiserver-authentication` ConfigMap, as on a kubeadm cluster. Only
//! this server holds the key, so nobody else can assert a user this way.

use std::path::Path;

use kas_proto::{ClientCertificate, RequestHeaderConfig};
use rcgen::{ExtendedKeyUsagePurpose, Issuer, KeyPair};

use crate::certs::{ca_params_named, leaf_params, read, write_private, CertError};

/// The client certificate's common name, the one name request-header authentication
/// allows (kubeadm's).
pub(crate) const CLIENT_NAME: &str = "front-proxy-client";
const CA_NAME: &str = "front-proxy-ca";

/// The request-header settings and the proxy's client certificate, made (or read back)
/// in `dir`.
pub(crate) fn ensure(dir: &Path) -> Result<(RequestHeaderConfig, ClientCertificate), CertError> {
    let p = |n: &str| dir.join(n);
    let ca_pem = read(&p("front-proxy-ca.crt"))?;
    let ca_key = read(&p("front-proxy-ca.key"))?;
    let client = (
        read(&p("front-proxy-client.crt"))?,
        read(&p("front-proxy-client.key"))?,
    );
    let (ca_pem, client) = match (ca_pem, ca_key, client) {
        // A kubeadm-style cert dir: the CA and the client pair are used as they are (the
        // CA's key is needed only to sign a new client certificate).
        (Some(ca_pem), _, (Some(cert_pem), Some(key_pem))) => {
            (ca_pem, ClientCertificate { cert_pem, key_pem })
        }
        (Some(ca_pem), Some(ca_key), _) => {
            let client = sign_client(dir, KeyPair::from_pem(&ca_key)?)?;
            (ca_pem, client)
        }
        _ => {
            let key = KeyPair::generate()?;
            let cert = ca_params_named(CA_NAME)?.self_signed(&key)?;
            write_private(&p("front-proxy-ca.key"), key.serialize_pem().as_bytes())?;
            write_private(&p("front-proxy-ca.crt"), cert.pem().as_bytes())?;
            (cert.pem(), sign_client(dir, key)?)
        }
    };
    let one = |v: &str| vec![v.to_owned()];
    let request_header = RequestHeaderConfig {
        client_ca_pem: ca_pem,
        allowed_names: one(CLIENT_NAME),
        username_headers: one("X-Remote-User"),
        uid_headers: Vec::new(),
        group_headers: one("X-Remote-Group"),
        extra_headers_prefix: one("X-Remote-Extra-"),
    };
    Ok((request_header, client))
}

/// A new `front-proxy-client` certificate signed by the CA whose key is `ca_key`.
fn sign_client(dir: &Path, ca_key: KeyPair) -> Result<ClientCertificate, CertError> {
    let issuer = Issuer::new(ca_params_named(CA_NAME)?, ca_key);
    let key = KeyPair::generate()?;
    let mut params = leaf_params(CLIENT_NAME, None)?;
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    let cert = params.signed_by(&key, &issuer)?;
    write_private(
        &dir.join("front-proxy-client.key"),
        key.serialize_pem().as_bytes(),
    )?;
    write_private(&dir.join("front-proxy-client.crt"), cert.pem().as_bytes())?;
    Ok(ClientCertificate {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_once_then_reused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (rh, client) = ensure(dir.path()).expect("first");
        assert_eq!(rh.allowed_names, ["front-proxy-client"]);
        assert_eq!(rh.username_headers, ["X-Remote-User"]);
        assert!(rh.client_ca_pem.contains("BEGIN CERTIFICATE"));
        let (again, client_again) = ensure(dir.path()).expect("second");
        assert_eq!(again.client_ca_pem, rh.client_ca_pem);
        assert_eq!(client_again.cert_pem, client.cert_pem);
        // The client certificate chains to the CA and names the allowed client.
        let ca = x509_parser::pem::parse_x509_pem(rh.client_ca_pem.as_bytes())
            .expect("ca pem")
            .1;
        let leaf = x509_parser::pem::parse_x509_pem(client.cert_pem.as_bytes())
            .expect("pem")
            .1;
        let (ca, leaf) = (
            ca.parse_x509().expect("ca"),
            leaf.parse_x509().expect("leaf"),
        );
        assert_eq!(leaf.issuer(), ca.subject());
        assert!(leaf.subject().to_string().contains("CN=front-proxy-client"));

        // A client pair someone else put there (with their CA, without its key) is used.
        let other = tempfile::tempdir().expect("tempdir");
        for f in [
            "front-proxy-ca.crt",
            "front-proxy-client.crt",
            "front-proxy-client.key",
        ] {
            std::fs::copy(dir.path().join(f), other.path().join(f)).expect("copy");
        }
        let (theirs, their_client) = ensure(other.path()).expect("theirs");
        assert_eq!(theirs.client_ca_pem, rh.client_ca_pem);
        assert_eq!(their_client.cert_pem, client.cert_pem);
        assert!(!other.path().join("front-proxy-ca.key").exists());
    }
}
