//! Authentication at the front door: x509 client certificates (CN = user, O = groups), or
//! anonymous when allowed. A bearer token nobody can verify is refused, as upstream does.

use kas_proto::UserInfo;
use rustls::pki_types::CertificateDer;
use x509_parser::prelude::{FromDer, X509Certificate};

/// The user a verified client certificate names.
pub(crate) fn user_from_cert(cert: &CertificateDer<'_>) -> Option<UserInfo> {
    let (_, cert) = X509Certificate::from_der(cert.as_ref()).ok()?;
    let subject = cert.subject();
    let name = subject
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())?
        .to_owned();
    let mut groups: Vec<String> = subject
        .iter_organization()
        .filter_map(|o| o.as_str().ok().map(str::to_owned))
        .collect();
    groups.push("system:authenticated".to_owned());
    Some(UserInfo {
        name,
        groups,
        ..Default::default()
    })
}

/// The anonymous user.
pub(crate) fn anonymous() -> UserInfo {
    UserInfo {
        name: "system:anonymous".to_owned(),
        groups: vec!["system:unauthenticated".to_owned()],
        ..Default::default()
    }
}
