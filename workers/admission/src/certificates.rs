//! The certificate plugins, as kube-apiserver's. CertificateSubjectRestriction: a
//! CertificateSigningRequest for the `kubernetes.io/kube-apiserver-client` signer may not
//! ask for the `system:masters` group (an organization of its subject), which would be
//! cluster-admin past every authorizer. CertificateApproval and CertificateSigning: who
//! approves a request (the `approval` subresource) or issues its certificate (a changed
//! `status.certificate`) needs the `approve` / `sign` verb on `signers` in
//! certificates.k8s.io for its signer name (or `<domain>/*`). ClusterTrustBundleAttest:
//! who writes a ClusterTrustBundle for a signer needs `attest` on it likewise.

use base64::Engine;
use kas_authz::{Attributes, Authorizer, Decision};
use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::HookFuture;
use kas_server::status::Status;
use serde_json::Value;
use x509_parser::prelude::{FromDer, X509CertificationRequest};

const CLIENT_SIGNER: &str = "kubernetes.io/kube-apiserver-client";
const GROUP: &str = "certificates.k8s.io";

/// Whether the request's user may `verb` signer `name`, or every signer of its domain.
async fn authorized_for_signer(
    authz: &Authorizer,
    req: &Request<'_>,
    verb: &str,
    name: &str,
) -> bool {
    let Some(user) = req.user else {
        return true;
    };
    let domain = name.split('/').next().unwrap_or("");
    for signer in [name.to_owned(), format!("{domain}/*")] {
        let attrs = Attributes {
            verb: verb.to_owned(),
            resource_request: true,
            group: GROUP.to_owned(),
            version: "*".to_owned(),
            resource: "signers".to_owned(),
            name: signer,
            ..Default::default()
        };
        if authz.decide(user, &attrs).await.decision == Decision::Allow {
            return true;
        }
    }
    false
}

fn signer_of(v: &Value) -> &str {
    v.pointer("/spec/signerName")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// CertificateApproval, CertificateSigning and ClusterTrustBundleAttest: one plugin per
/// verb, asking the authorizer.
pub(crate) struct SignerPermission {
    authz: Authorizer,
    plugin: &'static str,
}

impl SignerPermission {
    /// The plugin named `plugin` (one of the three), asking `authz`.
    pub(crate) fn new(authz: Authorizer, plugin: &'static str) -> SignerPermission {
        SignerPermission { authz, plugin }
    }

    /// The verb to check and the words of a refusal, when this write needs a check.
    fn needs(&self, req: &Request<'_>, obj: &Value) -> Option<(&'static str, &'static str)> {
        let old = req.old_object.unwrap_or(&Value::Null);
        match self.plugin {
            "CertificateApproval" => (req.resource.plural == "certificatesigningrequests"
                && req.subresource == "approval"
                && req.operation == Operation::Update)
                .then_some(("approve", "approve requests with")),
            "CertificateSigning" => (req.resource.plural == "certificatesigningrequests"
                && req.subresource == "status"
                && req.operation == Operation::Update
                && obj.pointer("/status/certificate") != old.pointer("/status/certificate"))
            .then_some(("sign", "sign requests with")),
            _ => {
                let changed = req.operation == Operation::Create
                    || signer_of(obj) != signer_of(old)
                    || obj.pointer("/spec/trustBundle") != old.pointer("/spec/trustBundle");
                (req.resource.plural == "clustertrustbundles"
                    && req.subresource.is_empty()
                    && matches!(req.operation, Operation::Create | Operation::Update)
                    && !signer_of(obj).is_empty()
                    && changed)
                    .then_some(("attest", "attest for"))
            }
        }
    }
}

impl Plugin for SignerPermission {
    fn name(&self) -> &'static str {
        self.plugin
    }

    fn phases(&self) -> Phases {
        Phases::VALIDATE
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if req.resource.group != GROUP {
                return Ok(());
            }
            let Some((verb, words)) = self.needs(req, obj) else {
                return Ok(());
            };
            let signer = signer_of(obj);
            if authorized_for_signer(&self.authz, req, verb, signer).await {
                return Ok(());
            }
            Err(req.forbidden(
                obj,
                &format!("user not permitted to {words} signerName \"{signer}\""),
            ))
        })
    }
}

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

    fn phases(&self) -> Phases {
        Phases::VALIDATE
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
