//! The public key of a PEM `CERTIFICATE`, as a PKIX `PUBLIC KEY` block: kube-apiserver's
//! `--service-account-key-file` accepts certificates (envtest passes its signer's
//! certificate) and verifies tokens with the key they carry.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// The `PUBLIC KEY` PEM block of the certificate in `pem`.
pub(crate) fn certificate_public_key(pem: &str) -> Result<String, String> {
    let (_, block) = x509_parser::pem::parse_x509_pem(pem.as_bytes())
        .map_err(|e| format!("malformed CERTIFICATE block: {e}"))?;
    let cert = block
        .parse_x509()
        .map_err(|e| format!("malformed certificate: {e}"))?;
    let der = STANDARD.encode(cert.tbs_certificate.subject_pki.raw);
    let mut out = String::from("-----BEGIN PUBLIC KEY-----\n");
    for line in der.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str("-----END PUBLIC KEY-----\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_certificate_gives_its_key() {
        let key = rcgen::KeyPair::generate().expect("key");
        let cert = rcgen::CertificateParams::new(vec!["sa-signer".into()])
            .expect("params")
            .self_signed(&key)
            .expect("cert");
        let public = super::certificate_public_key(&cert.pem()).expect("key");
        assert_eq!(public, key.public_key_pem());
    }
}
