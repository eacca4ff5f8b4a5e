//! CertificateSigningRequests as kube-apiserver 1.33 validates them: the request a PEM
//! `CERTIFICATE REQUEST` whose signature holds, usages known and not repeated, a
//! domain-qualified signer name, at least ten minutes of validity; conditions typed,
//! with upstream's allowed statuses, Approved and Denied exclusive, no type twice; the
//! certificate `CERTIFICATE` blocks only. On update, conditions that decide (Approved,
//! Denied, Failed) may not go away, Approved and Denied change only through `approval`,
//! and the certificate is set only through `status`, once. Each rule an old object
//! already broke is not held against an update (upstream's ratcheting options).

use base64::Engine as _;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    dns_label_msgs, dns_subdomain_msgs, duplicate, forbidden, invalid, invalid_int, invalid_shown,
    not_supported, required, too_long,
};

/// The usages upstream knows, sorted as its supported-values list prints them.
const USAGES: [&str; 23] = [
    "any",
    "cert sign",
    "client auth",
    "code signing",
    "content commitment",
    "crl sign",
    "data encipherment",
    "decipher only",
    "digital signature",
    "email protection",
    "encipher only",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "key agreement",
    "key encipherment",
    "microsoft sgc",
    "netscape sgc",
    "ocsp signing",
    "s/mime",
    "server auth",
    "signing",
    "timestamping",
];
const LEGACY_SIGNER: &str = "kubernetes.io/legacy-unknown";
/// The condition types that decide a request.
const DECISIONS: [&str; 3] = ["Approved", "Denied", "Failed"];

/// Which rules apply (upstream's certificateValidationOptions).
#[derive(Debug, Default)]
struct Options {
    legacy_signer: bool,
    duplicate_types: bool,
    empty_type: bool,
    arbitrary_certificate: bool,
    unknown_usages: bool,
    duplicate_usages: bool,
    both_approved_and_denied: bool,
    setting_certificate: bool,
    setting_approval: bool,
}

fn conditions(o: &Value) -> Vec<&Value> {
    o.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect()
}

fn text<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

fn usages(o: &Value) -> Vec<&str> {
    o.pointer("/spec/usages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|u| u.as_str().unwrap_or(""))
        .collect()
}

/// A `[]byte` field (base64 in JSON); None when absent.
fn bytes(o: &Value, p: &str) -> Option<Vec<u8>> {
    let b64 = o.pointer(p)?.as_str()?;
    Some(
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap_or_default(),
    )
}

fn count(o: &Value, kind: &str) -> usize {
    conditions(o)
        .iter()
        .filter(|c| text(c, "/type") == kind)
        .count()
}

impl Options {
    fn new(new: &Value, old: Option<&Value>, sub: &str) -> Options {
        let Some(old) = old else {
            return Options::default();
        };
        let old_types: Vec<&str> = conditions(old).iter().map(|c| text(c, "/type")).collect();
        let repeated = |items: &[&str]| {
            items
                .iter()
                .enumerate()
                .any(|(i, t)| items[..i].contains(t))
        };
        let old_usages = usages(old);
        let (new_cert, old_cert) = (
            bytes(new, "/status/certificate").unwrap_or_default(),
            bytes(old, "/status/certificate").unwrap_or_default(),
        );
        Options {
            legacy_signer: text(old, "/spec/signerName") == LEGACY_SIGNER,
            duplicate_types: repeated(&old_types),
            empty_type: old_types.contains(&""),
            arbitrary_certificate: new_cert == old_cert || certificate_error(&old_cert).is_some(),
            unknown_usages: old_usages.iter().any(|u| !USAGES.contains(u)),
            duplicate_usages: repeated(&old_usages),
            both_approved_and_denied: old_types.contains(&"Approved")
                && old_types.contains(&"Denied"),
            setting_certificate: sub == "status",
            setting_approval: sub == "approval",
        }
    }
}

/// The rules of a create, or of an update of the object itself (`old` given).
pub(crate) fn csr(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    checked(o, old, "")
}

/// The rules of a write through `status` or `approval`.
pub(crate) fn csr_subresource(sub: &str, o: &Value, old: &Value) -> Vec<StatusCause> {
    checked(o, Some(old), sub)
}

fn checked(o: &Value, old: Option<&Value>, sub: &str) -> Vec<StatusCause> {
    let opts = Options::new(o, old, sub);
    let mut causes = object(o, &opts);
    if let Some(old) = old {
        causes.extend(update(o, old, &opts));
    }
    causes
}

/// Go's `%#v` of a byte slice: `[]byte{0x2d, 0x2d}`, `[]byte(nil)` when absent.
fn show_bytes(b: Option<&[u8]>) -> String {
    match b {
        None => "[]byte(nil)".into(),
        Some(b) => {
            let items: Vec<String> = b.iter().map(|x| format!("{x:#x}")).collect();
            format!("[]byte{{{}}}", items.join(", "))
        }
    }
}

fn object(o: &Value, opts: &Options) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let request = bytes(o, "/spec/request");
    if let Err(why) = check_request(request.as_deref().unwrap_or_default()) {
        let shown = show_bytes(request.as_deref());
        causes.push(invalid_shown("spec.request", &shown, &why));
    }
    let used = usages(o);
    if used.is_empty() {
        causes.push(required("spec.usages", ""));
    }
    for (i, u) in used.iter().enumerate() {
        let field = format!("spec.usages[{i}]");
        if !opts.unknown_usages && !USAGES.contains(u) {
            causes.push(not_supported(&field, u, &USAGES));
        }
        if !opts.duplicate_usages && used[..i].contains(u) {
            causes.push(duplicate(&field, u));
        }
    }
    let signer = text(o, "/spec/signerName");
    if !opts.legacy_signer && signer == LEGACY_SIGNER {
        causes.push(invalid(
            "spec.signerName",
            signer,
            "the legacy signerName is not allowed via this API version",
        ));
    } else {
        causes.extend(signer_name(signer));
    }
    if let Some(n) = o.pointer("/spec/expirationSeconds").and_then(Value::as_i64) {
        if n < 600 {
            causes.push(invalid_int(
                "spec.expirationSeconds",
                n,
                "may not specify a duration less than 600 seconds (10 minutes)",
            ));
        }
    }
    causes.extend(condition_rules(o, opts));
    if !opts.arbitrary_certificate {
        let cert = bytes(o, "/status/certificate").unwrap_or_default();
        if let Some(why) = certificate_error(&cert) {
            causes.push(invalid_shown(
                "status.certificate",
                "\"<certificate data>\"",
                &why,
            ));
        }
    }
    causes
}

/// The first PEM block of `data`: its label and contents (Go's pem.Decode skips what
/// comes before it).
fn first_pem(data: &[u8]) -> Option<(String, Vec<u8>, &[u8])> {
    let start = data.windows(11).position(|w| w == b"-----BEGIN ")?;
    let (rest, pem) = x509_parser::pem::parse_x509_pem(&data[start..]).ok()?;
    Some((pem.label, pem.contents, rest))
}

/// Why a request is not a signed PKCS#10 `CERTIFICATE REQUEST`.
fn check_request(data: &[u8]) -> Result<(), String> {
    use x509_parser::prelude::FromDer;
    let block_type = "PEM block type must be CERTIFICATE REQUEST".to_owned();
    let (label, der, _) = first_pem(data).ok_or_else(|| block_type.clone())?;
    if label != "CERTIFICATE REQUEST" {
        return Err(block_type);
    }
    let (_, csr) = x509_parser::certification_request::X509CertificationRequest::from_der(&der)
        .map_err(|e| format!("asn1: structure error: {e}"))?;
    csr.verify_signature().map_err(|e| {
        let algorithm = csr
            .certification_request_info
            .subject_pki
            .algorithm
            .algorithm
            .to_id_string();
        // Go's words for each key type's failure.
        match algorithm.as_str() {
            "1.2.840.113549.1.1.1" => "crypto/rsa: verification error".to_owned(),
            "1.2.840.10045.2.1" => "x509: ECDSA verification failure".to_owned(),
            "1.3.101.112" => "x509: Ed25519 verification failure".to_owned(),
            _ => format!("x509: cannot verify signature: {e}"),
        }
    })
}

/// Why a certificate field is not `CERTIFICATE` PEM blocks (None when empty or fine).
fn certificate_error(data: &[u8]) -> Option<String> {
    use x509_parser::prelude::FromDer;
    if data.is_empty() {
        return None;
    }
    let mut rest = data;
    let mut blocks = 0;
    while let Some((label, der, after)) = first_pem(rest) {
        blocks += 1;
        if label != "CERTIFICATE" {
            return Some(format!(
                "only CERTIFICATE PEM blocks are allowed, found {}",
                super::causes::quote(&label)
            ));
        }
        let block_text = &rest[..rest.len() - after.len()];
        if pem_has_headers(block_text) {
            return Some("no PEM block headers are permitted".into());
        }
        if x509_parser::certificate::X509Certificate::from_der(&der).is_err() {
            return Some("x509: malformed certificate".into());
        }
        rest = after;
    }
    (blocks == 0).then(|| "must contain at least one CERTIFICATE PEM block".into())
}

/// Whether a PEM block carries `Key: value` headers before its base64.
fn pem_has_headers(block: &[u8]) -> bool {
    String::from_utf8_lossy(block)
        .lines()
        .skip_while(|l| !l.starts_with("-----BEGIN "))
        .skip(1)
        .take_while(|l| !l.starts_with("-----END "))
        .any(|l| l.contains(':'))
}

/// Upstream's ValidateSignerName: `example.com/signer-name`.
fn signer_name(s: &str) -> Vec<StatusCause> {
    const FIELD: &str = "spec.signerName";
    if s.is_empty() {
        return vec![required(FIELD, "")];
    }
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() != 2 {
        return vec![invalid(
            FIELD,
            s,
            "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        )];
    }
    let (domain, path) = (parts[0], parts[1]);
    let mut causes = Vec::new();
    if domain.len() > 253 {
        causes.push(too_long(FIELD, 253));
    } else {
        for label in domain.split('.') {
            let msgs = dns_label_msgs(label);
            if !msgs.is_empty() {
                for m in msgs {
                    let why = format!("validating label {}: {m}", super::causes::quote(label));
                    causes.push(invalid(FIELD, domain, &why));
                }
                break;
            }
        }
        if domain.split('.').count() < 2 {
            causes.push(invalid(
                FIELD,
                domain,
                "should be a domain with at least two segments separated by dots",
            ));
        }
    }
    for label in path.split('.') {
        let msgs = dns_subdomain_msgs(label);
        if !msgs.is_empty() {
            for m in msgs {
                let why = format!("validating label {}: {m}", super::causes::quote(label));
                causes.push(invalid(FIELD, path, &why));
            }
            break;
        }
    }
    if s.len() > 571 {
        causes.push(too_long(FIELD, 571));
    }
    causes
}

/// Upstream's validateConditions.
fn condition_rules(o: &Value, opts: &Options) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, c) in conditions(o).iter().enumerate() {
        let kind = text(c, "/type");
        let status = text(c, "/status");
        let at = |f: &str| format!("status.conditions[{i}].{f}");
        if !opts.empty_type && kind.is_empty() {
            causes.push(required(&at("type"), ""));
        }
        let allowed: &[&str] = if DECISIONS.contains(&kind) {
            &["True"]
        } else {
            &["False", "True", "Unknown"]
        };
        if status.is_empty() {
            causes.push(required(&at("status"), ""));
        } else if !allowed.contains(&status) {
            causes.push(not_supported(&at("status"), status, allowed));
        }
        let other = match kind {
            "Approved" => Some("Denied"),
            "Denied" => Some("Approved"),
            _ => None,
        };
        if !opts.both_approved_and_denied && other.is_some_and(|o| seen.contains(&o)) {
            causes.push(invalid(
                &at("type"),
                kind,
                "Approved and Denied conditions are mutually exclusive",
            ));
        }
        if !opts.duplicate_types && seen.contains(&kind) {
            causes.push(duplicate(&at("type"), kind));
        }
        seen.push(kind);
    }
    causes
}

/// The rules only an update has.
fn update(o: &Value, old: &Value, opts: &Options) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    for kind in DECISIONS {
        if count(o, kind) < count(old, kind) {
            causes.push(forbidden(
                "status.conditions",
                &format!(
                    "updates may not remove a condition of type {}",
                    super::causes::quote(kind)
                ),
            ));
        }
    }
    if !opts.setting_approval {
        for kind in ["Approved", "Denied"] {
            let pick = |v: &Value| -> Vec<Value> {
                conditions(v)
                    .into_iter()
                    .filter(|c| text(c, "/type") == kind)
                    .cloned()
                    .collect()
            };
            let (was, now) = (pick(old), pick(o));
            let quoted = super::causes::quote(kind);
            if now.len() > was.len() {
                causes.push(forbidden(
                    "status.conditions",
                    &format!("updates may not add a condition of type {quoted}"),
                ));
            } else if now.len() == was.len() && now != was {
                causes.push(forbidden(
                    "status.conditions",
                    &format!(
                        "updates may not modify a condition of type {quoted}\n- {}\n+ {}",
                        Value::Array(was),
                        Value::Array(now)
                    ),
                ));
            }
        }
    }
    let (cert, old_cert) = (
        bytes(o, "/status/certificate").unwrap_or_default(),
        bytes(old, "/status/certificate").unwrap_or_default(),
    );
    if cert != old_cert {
        if !opts.setting_certificate {
            causes.push(forbidden(
                "status.certificate",
                "updates may not set certificate content",
            ));
        } else if !old_cert.is_empty() {
            causes.push(forbidden(
                "status.certificate",
                "updates may not modify existing certificate content",
            ));
        }
    }
    causes
}

/// What a write stores of `obj` over `old` (upstream's csr strategies' PrepareForUpdate):
/// the object itself keeps the stored spec and status; `status` the stored spec and the
/// stored instances of Approved and Denied conditions (when as many are sent); both
/// `status` and `approval` fill the conditions' missing timestamps, `now`.
pub(crate) fn prepare_update(sub: &str, obj: &mut Value, old: &Value, now: &str) {
    let keep = |obj: &mut Value, key: &str| match old.get(key) {
        Some(v) => obj[key] = v.clone(),
        None => {
            if let Some(o) = obj.as_object_mut() {
                o.remove(key);
            }
        }
    };
    match sub {
        "" => {
            keep(obj, "spec");
            keep(obj, "status");
        }
        "status" => {
            keep(obj, "spec");
            for kind in ["Approved", "Denied"] {
                preserve_instances(obj, old, kind);
            }
            fill_timestamps(obj, old, now);
        }
        "approval" => fill_timestamps(obj, old, now),
        _ => {}
    }
}

/// The stored conditions of `kind` in place of the sent ones, when as many are sent.
fn preserve_instances(obj: &mut Value, old: &Value, kind: &str) {
    let was: Vec<Value> = conditions(old)
        .into_iter()
        .filter(|c| text(c, "/type") == kind)
        .cloned()
        .collect();
    let Some(list) = obj
        .pointer_mut("/status/conditions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let at: Vec<usize> = (0..list.len())
        .filter(|i| text(&list[*i], "/type") == kind)
        .collect();
    if at.len() != was.len() {
        return;
    }
    for (i, c) in at.into_iter().zip(was) {
        list[i] = c;
    }
}

/// Missing `lastUpdateTime` is now; missing `lastTransitionTime` the stored one of the
/// same type and status, else now.
fn fill_timestamps(obj: &mut Value, old: &Value, now: &str) {
    let stored: Vec<Value> = conditions(old).into_iter().cloned().collect();
    let Some(list) = obj
        .pointer_mut("/status/conditions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for c in list.iter_mut() {
        let missing = |c: &Value, k: &str| c.get(k).is_none_or(|v| v.is_null() || v == "");
        if missing(c, "lastUpdateTime") {
            c["lastUpdateTime"] = Value::from(now);
        }
        if missing(c, "lastTransitionTime") {
            let same = stored.iter().find(|s| {
                text(s, "/type") == text(c, "/type")
                    && text(s, "/status") == text(c, "/status")
                    && !text(s, "/lastTransitionTime").is_empty()
            });
            c["lastTransitionTime"] = match same {
                Some(s) => s["lastTransitionTime"].clone(),
                None => Value::from(now),
            };
        }
    }
}

#[cfg(test)]
#[path = "csr_tests.rs"]
mod tests;
