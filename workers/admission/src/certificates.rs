//! CertificateSubjectRestriction, as kube-apiserver's: a CertificateSigningRequest for
//! the `kubernetes.io/kube-apiserver-client` signer may not ask for the `system:masters`
//! group (an organization of its subject), which would be cluster-admin past every
//! authorizer.

use base64::Engine;
use kas_server::admission::{Operation, Plugin, Recorder, Request};
use kas_server::rest::HookFuture;
use kas_server::status::Status;
use serde_json::Value;
use x509_parser::prelude::{FromDer, X509CertificationRequest};

const CLIENT_SIGNER: &str = "kubernetes.io/kube-apiserver-client";

/// The CertificateSubjectRestriction plugin.
pub(crate) struct CertificateSubjectRestriction;

/// The organizations a CSR's `spec.request` (base64 of PEM) asks for; `None` when it
/// does not parse (validation refuses it).
fn organizations(csr: &Value) -> Option<Vec<String>> {
    let b64 = csr.pointer("/spec/request").and_then(Value::as_str)?;
    let pem = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
    let (_, block) = x509_parser::pem::parse_x509_pem(&pem).ok()?;
    let (_, request) = X509CertificationRequest::from_der(&block.contents).ok()?;
    Some(
        request
            .certification_request_info
            .subject
            .iter_organization()
            .filter_map(|o| o.as_str().ok().map(str::to_owned))
            .collect(),
    )
}

impl Plugin for CertificateSubjectRestriction {
    fn name(&self) -> &'static str {
        "CertificateSubjectRestriction"
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        csr: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let applies = req.operation == Operation::Create
                && req.resource.group == "certificates.k8s.io"
                && req.resource.plural == "certificatesigningrequests"
                && req.subresource.is_empty();
            let signer = csr.pointer("/spec/signerName").and_then(Value::as_str);
            if !applies || signer != Some(CLIENT_SIGNER) {
                return Ok(());
            }
            let masters = organizations(csr)
                .unwrap_or_default()
                .iter()
                .any(|o| o == "system:masters");
            if masters {
                return Err(req.forbidden(
                    csr,
                    &format!(
                        "use of {CLIENT_SIGNER} signer with system:masters group is not allowed"
                    ),
                ));
            }
            Ok(())
        })
    }
}
