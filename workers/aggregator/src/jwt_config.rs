//! The `--authentication-config` file (`apiserver.config.k8s.io/v1alpha1` or `v1beta1`
//! AuthenticationConfiguration, the versions kube-apiserver v1.33 serves), decoded
//! strictly (an unknown field is an error), and the checks kube-apiserver makes of JWT
//! authenticators, with its messages (`jwt[0].issuer.url: Invalid value: "http://x": URL
//! scheme must be https`). The supervisor checks at start; the front door again when the
//! file changes. Compiling an authenticator's CEL expressions gives its [`Mapper`].

use std::collections::BTreeSet;
use std::fmt;

use kas_proto::{AnonymousConfig, JwtAuthenticator, PrefixedClaimOrExpression};

pub use crate::jwt_file::{decode, load_file, FileConfig};

use crate::jwt_cel::{self, Compiled, Var};

/// The JOSE algorithms kube-apiserver accepts (`oidc.AllValidSigningAlgorithms`).
pub const VALID_SIGNING_ALGS: [&str; 9] = [
    "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "RS384", "RS512",
];

/// One problem, as apimachinery's `field.Error` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError(String);

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FieldError {
    /// `field.Forbidden`.
    pub fn forbidden(path: &str, detail: &str) -> FieldError {
        FieldError(format!("{path}: Forbidden: {detail}"))
    }
}

fn required(path: &str, detail: &str) -> FieldError {
    FieldError(format!("{path}: Required value: {detail}"))
}

fn invalid(path: &str, value: &str, detail: &str) -> FieldError {
    FieldError(format!("{path}: Invalid value: {value:?}: {detail}"))
}

fn duplicate(path: &str, value: &str) -> FieldError {
    FieldError(format!("{path}: Duplicate value: {value:?}"))
}

/// Several errors as `utilerrors.NewAggregate` prints them: one alone, else `[a, b]`.
pub fn aggregate(errors: &[FieldError]) -> String {
    match errors {
        [one] => one.to_string(),
        many => format!(
            "[{}]",
            many.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// An authenticator's compiled CEL expressions.
#[derive(Debug, Default)]
pub struct Mapper {
    /// `claimMappings.username.expression`.
    pub username: Option<Compiled>,
    /// `claimMappings.groups.expression`.
    pub groups: Option<Compiled>,
    /// `claimMappings.uid.expression`.
    pub uid: Option<Compiled>,
    /// `claimMappings.extra`: key and value expression.
    pub extra: Vec<(String, Compiled)>,
    /// `claimValidationRules` with an expression, and their messages.
    pub claim_rules: Vec<(Compiled, String)>,
    /// `userValidationRules` and their messages.
    pub user_rules: Vec<(Compiled, String)>,
}

impl Mapper {
    /// Whether any claims expression is configured.
    pub fn uses_claims(&self) -> bool {
        self.username.is_some()
            || self.groups.is_some()
            || self.uid.is_some()
            || !self.extra.is_empty()
            || !self.claim_rules.is_empty()
    }
}

/// Checks every authenticator and the anonymous section, as
/// `ValidateAuthenticationConfiguration`.
pub fn validate(
    jwt: &[JwtAuthenticator],
    anonymous: Option<&AnonymousConfig>,
    disallowed_issuers: &[String],
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if jwt.len() > 64 {
        errs.push(FieldError(format!(
            "jwt: Too many: {}: must have at most 64 items",
            jwt.len()
        )));
        return errs;
    }
    let mut issuers = BTreeSet::new();
    let mut discovery = BTreeSet::new();
    for (i, a) in jwt.iter().enumerate() {
        let path = format!("jwt[{i}]");
        errs.extend(
            compile(a, &path, disallowed_issuers)
                .err()
                .unwrap_or_default(),
        );
        if !issuers.insert(a.issuer.url.as_str()) {
            errs.push(duplicate(&format!("{path}.issuer.url"), &a.issuer.url));
        }
        if let Some(d) = &a.issuer.discovery_url {
            if !discovery.insert(d.as_str()) {
                errs.push(duplicate(&format!("{path}.issuer.discoveryURL"), d));
            }
        }
    }
    if let Some(anon) = anonymous {
        if !anon.enabled && !anon.paths.is_empty() {
            let conditions: Vec<String> =
                anon.paths.iter().map(|p| format!("{{Path:{p}}}")).collect();
            errs.push(FieldError(format!(
                "anonymous.conditions: Invalid value: [{}]: enabled should be set to true when conditions are defined",
                conditions.join(" ")
            )));
        }
    }
    errs
}

/// Checks one authenticator (`path` names it, `jwt[0]`) and compiles its expressions.
pub fn compile(
    a: &JwtAuthenticator,
    path: &str,
    disallowed_issuers: &[String],
) -> Result<Mapper, Vec<FieldError>> {
    let mut errs = Vec::new();
    let mut m = Mapper::default();
    let issuer = format!("{path}.issuer");
    validate_url(
        &a.issuer.url,
        disallowed_issuers,
        &format!("{issuer}.url"),
        &mut errs,
    );
    if let Some(d) = &a.issuer.discovery_url {
        let p = format!("{issuer}.discoveryURL");
        if !a.issuer.url.is_empty() && a.issuer.url.trim_end_matches('/') == d.trim_end_matches('/')
        {
            errs.push(invalid(&p, d, "discoveryURL must be different from URL"));
        }
        validate_url(d, &[], &p, &mut errs);
    }
    let auds = format!("{issuer}.audiences");
    let policy = a.issuer.audience_match_policy.as_str();
    if a.issuer.audiences.is_empty() {
        errs.push(required(&auds, &format!("at least one {auds} is required")));
    } else {
        let mut seen = BTreeSet::new();
        for (i, aud) in a.issuer.audiences.iter().enumerate() {
            if aud.is_empty() {
                errs.push(required(&format!("{auds}[{i}]"), "audience can't be empty"));
            }
            if !seen.insert(aud) {
                errs.push(duplicate(&format!("{auds}[{i}]"), aud));
            }
        }
        let p = format!("{issuer}.audienceMatchPolicy");
        if a.issuer.audiences.len() > 1 && policy != "MatchAny" {
            errs.push(invalid(
                &p,
                policy,
                "audienceMatchPolicy must be MatchAny for multiple audiences",
            ));
        }
        if a.issuer.audiences.len() == 1 && !policy.is_empty() && policy != "MatchAny" {
            errs.push(invalid(
                &p,
                policy,
                "audienceMatchPolicy must be empty or MatchAny for single audience",
            ));
        }
    }
    if let Some(ca) = &a.issuer.certificate_authority {
        if let Err(e) = crate::tls::parse_cert_chain(ca.as_bytes()) {
            errs.push(invalid(
                &format!("{issuer}.certificateAuthority"),
                "<omitted>",
                &e.to_string(),
            ));
        }
    }

    let mut uses_email_verified = false;
    let rules = format!("{path}.claimValidationRules");
    let (mut claims, mut exprs) = (BTreeSet::new(), BTreeSet::new());
    for (i, r) in a.claim_validation_rules.iter().enumerate() {
        let p = format!("{rules}[{i}]");
        match (r.claim.is_empty(), r.expression.is_empty()) {
            (false, false) => errs.push(invalid(
                &p,
                &r.claim,
                "claim and expression can't both be set",
            )),
            (true, true) => errs.push(required(&p, "claim or expression is required")),
            (false, true) => {
                if !r.message.is_empty() {
                    errs.push(invalid(
                        &format!("{p}.message"),
                        &r.message,
                        "message can't be set when claim is set",
                    ));
                }
                if !claims.insert(&r.claim) {
                    errs.push(duplicate(&format!("{p}.claim"), &r.claim));
                }
            }
            (true, false) => {
                if !r.required_value.is_empty() {
                    errs.push(invalid(
                        &format!("{p}.requiredValue"),
                        &r.required_value,
                        "requiredValue can't be set when expression is set",
                    ));
                }
                if !exprs.insert(&r.expression) {
                    errs.push(duplicate(&format!("{p}.expression"), &r.expression));
                    continue;
                }
                match jwt_cel::compile(&r.expression, Var::Claims) {
                    Ok(c) => {
                        uses_email_verified |= c.selects_claim("email_verified");
                        m.claim_rules.push((c, r.message.clone()));
                    }
                    Err(e) => errs.push(invalid(&format!("{p}.expression"), &r.expression, &e)),
                }
            }
        }
    }

    let maps = format!("{path}.claimMappings");
    let cm = &a.claim_mappings;
    m.username = prefixed(&cm.username, &format!("{maps}.username"), true, &mut errs);
    m.groups = prefixed(&cm.groups, &format!("{maps}.groups"), false, &mut errs);
    let uid = format!("{maps}.uid");
    match (cm.uid.claim.is_empty(), cm.uid.expression.is_empty()) {
        (false, false) => errs.push(invalid(&uid, "", "claim and expression can't both be set")),
        (true, false) => match jwt_cel::compile(&cm.uid.expression, Var::Claims) {
            Ok(c) => m.uid = Some(c),
            Err(e) => errs.push(invalid(
                &format!("{uid}.expression"),
                &cm.uid.expression,
                &e,
            )),
        },
        _ => {}
    }
    let mut keys = BTreeSet::new();
    for (i, x) in cm.extra.iter().enumerate() {
        let p = format!("{maps}.extra[{i}]");
        let key_path = format!("{p}.key");
        errs.extend(domain_prefixed_path(&key_path, &x.key));
        if x.key != x.key.to_lowercase() {
            errs.push(invalid(&key_path, &x.key, "key must be lowercase"));
        }
        let domain = x.key.split_once('/').map_or("", |(d, _)| d);
        if ["kubernetes.io", "k8s.io"]
            .iter()
            .any(|r| domain == *r || domain.ends_with(&format!(".{r}")))
        {
            errs.push(invalid(
                &key_path,
                &x.key,
                "k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use",
            ));
        }
        if !keys.insert(&x.key) {
            errs.push(duplicate(&key_path, &x.key));
            continue;
        }
        if x.value_expression.is_empty() {
            errs.push(required(
                &format!("{p}.valueExpression"),
                "valueExpression is required",
            ));
            continue;
        }
        match jwt_cel::compile(&x.value_expression, Var::Claims) {
            Ok(c) => {
                uses_email_verified |= c.selects_claim("email_verified");
                m.extra.push((x.key.clone(), c));
            }
            Err(e) => errs.push(invalid(
                &format!("{p}.valueExpression"),
                &x.value_expression,
                &e,
            )),
        }
    }
    if let Some(u) = &m.username {
        uses_email_verified |= u.selects_claim("email_verified");
        if u.selects_claim("email") && !uses_email_verified {
            errs.push(invalid(&format!("{maps}.username.expression"), &cm.username.expression,
                "claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression"));
        }
    }

    let users = format!("{path}.userValidationRules");
    let mut seen = BTreeSet::new();
    for (i, r) in a.user_validation_rules.iter().enumerate() {
        let p = format!("{users}[{i}].expression");
        if r.expression.is_empty() {
            errs.push(required(&p, "expression is required"));
            continue;
        }
        if !seen.insert(&r.expression) {
            errs.push(duplicate(&p, &r.expression));
            continue;
        }
        match jwt_cel::compile(&r.expression, Var::User) {
            Ok(c) => m.user_rules.push((c, r.message.clone())),
            Err(e) => errs.push(invalid(&p, &r.expression, &e)),
        }
    }
    if errs.is_empty() {
        Ok(m)
    } else {
        Err(errs)
    }
}

fn prefixed(
    p: &PrefixedClaimOrExpression,
    path: &str,
    claim_or_expression_required: bool,
    errs: &mut Vec<FieldError>,
) -> Option<Compiled> {
    match (p.claim.is_empty(), p.expression.is_empty()) {
        (false, false) => errs.push(invalid(path, "", "claim and expression can't both be set")),
        (true, true) if claim_or_expression_required => {
            errs.push(required(path, "claim or expression is required"))
        }
        (true, false) => {
            if let Some(prefix) = &p.prefix {
                errs.push(invalid(&format!("{path}.prefix"), prefix, "prefix can't be set when expression is set"));
            }
            match jwt_cel::compile(&p.expression, Var::Claims) {
                Ok(c) => return Some(c),
                Err(e) => errs.push(invalid(&format!("{path}.expression"), &p.expression, &e)),
            }
        }
        (false, true) if p.prefix.is_none() => errs.push(required(
            &format!("{path}.prefix"),
            "prefix is required when claim is set. It can be set to an empty string to disable prefixing",
        )),
        _ => {}
    }
    None
}

/// An issuer or discovery URL: https, no user, query or fragment, not a service
/// account issuer.
fn validate_url(url: &str, disallowed: &[String], path: &str, errs: &mut Vec<FieldError>) {
    if url.is_empty() {
        errs.push(required(path, "URL is required"));
        return;
    }
    if disallowed.iter().any(|d| d == url) {
        let mut list: Vec<&String> = disallowed.iter().collect();
        list.sort();
        list.dedup();
        let list: Vec<&str> = list.iter().map(|s| s.as_str()).collect();
        errs.push(invalid(
            path,
            url,
            &format!(
                "URL must not overlap with disallowed issuers: [{}]",
                list.join(" ")
            ),
        ));
    }
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    if scheme != "https" {
        errs.push(invalid(path, url, "URL scheme must be https"));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        errs.push(invalid(
            path,
            url,
            "URL must not contain a username or password",
        ));
    }
    let before_fragment = url.split('#').next().unwrap_or("");
    if before_fragment
        .split_once('?')
        .is_some_and(|(_, q)| !q.is_empty())
    {
        errs.push(invalid(path, url, "URL must not contain a query"));
    }
    if url.split_once('#').is_some_and(|(_, f)| !f.is_empty()) {
        errs.push(invalid(path, url, "URL must not contain a fragment"));
    }
}

/// `IsDomainPrefixedPath`: `example.org/foo`.
fn domain_prefixed_path(path: &str, key: &str) -> Vec<FieldError> {
    if key.is_empty() {
        return vec![required(path, "")];
    }
    let Some((domain, rest)) = key.split_once('/').filter(|(_, r)| !r.is_empty()) else {
        return vec![invalid(
            path,
            key,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        )];
    };
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let mut errs = Vec::new();
    if domain.len() > 253 || !domain.split('.').all(label_ok) {
        errs.push(invalid(path, domain, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
    }
    let path_ok = rest
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:@".contains(&b));
    if !path_ok {
        errs.push(invalid(path, rest, "Invalid path"));
    }
    errs
}

#[cfg(test)]
#[path = "jwt_config_tests.rs"]
mod tests;
