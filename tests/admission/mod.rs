//! Admission through kubectl: the plugin chain of `--enable-admission-plugins` /
//! `--disable-admission-plugins` on clients' writes.

mod certificates;
mod class_defaults;
mod equivalent;
mod event_rate_limit;
mod namespace_lifecycle;
mod node_restriction;
mod owner_references;
mod pod_admission;
mod pod_defaults;
mod policies;
mod policy_authorizer;
mod policy_typecheck;
mod resource_quota;
mod service_account;
mod webhook_credentials;
mod webhooks;

/// A PEM certificate signing request (a new key's) for `common_name` in `organizations`,
/// base64 encoded as a CertificateSigningRequest's `spec.request`.
fn csr_request(common_name: &str, organizations: &[&str]) -> String {
    use base64::Engine;
    let key = rcgen::KeyPair::generate().expect("key");
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, common_name);
    for o in organizations {
        params
            .distinguished_name
            .push(rcgen::DnType::OrganizationName, *o);
    }
    let csr = params
        .serialize_request(&key)
        .expect("csr")
        .pem()
        .expect("pem");
    base64::engine::general_purpose::STANDARD.encode(csr)
}
