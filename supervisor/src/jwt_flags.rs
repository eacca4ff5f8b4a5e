//! JWT authentication flags: `--oidc-*` (one issuer) and `--authentication-config` (an
//! AuthenticationConfiguration file with `jwt` issuers and `anonymous`), mutually
//! exclusive, checked as kube-apiserver checks them and with its messages. Both end as
//! the same [`kas_proto::JwtAuthnConfig`]; the file is also re-read by the front door
//! when it changes.

use std::path::PathBuf;

use clap::ArgAction;
use kas_aggregator::jwt_config;
use kas_proto::{
    AnonymousConfig, ClaimMappings, ClaimValidationRule, JwtAuthenticator, JwtAuthnConfig,
    JwtIssuer, PrefixedClaimOrExpression,
};

use crate::validate::FlagError;

const AUTHN: &str = "Authentication flags";

/// The flags.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct JwtFlags {
    /// File with Authentication Configuration to configure the JWT Token authenticator
    /// or the anonymous authenticator (apiserver.config.k8s.io/v1alpha1 or v1beta1). This
    /// feature is mutually exclusive with the oidc-* flags. The file's JWT authenticators
    /// are re-read when it changes.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) authentication_config: Option<PathBuf>,

    /// If set, the OpenID server's certificate will be verified by one of the authorities
    /// in the oidc-ca-file, otherwise the host's root CA set will be used.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_ca_file: Option<PathBuf>,

    /// The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_client_id: Option<String>,

    /// If provided, the name of a custom OpenID Connect claim for specifying user groups.
    /// The claim value is expected to be a string or array of strings.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_groups_claim: Option<String>,

    /// If provided, all groups will be prefixed with this value to prevent conflicts with
    /// other authentication strategies.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_groups_prefix: Option<String>,

    /// The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be
    /// used to verify the OIDC JSON Web Token (JWT).
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_issuer_url: Option<String>,

    /// A key=value pair that describes a required claim in the ID Token. If set, the claim
    /// is verified to be present in the ID Token with a matching value. Repeat this flag
    /// to specify multiple claims.
    #[arg(long, help_heading = AUTHN, value_name = "key=value", action = ArgAction::Append)]
    pub(crate) oidc_required_claim: Vec<String>,

    /// Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a
    /// 'alg' header value not in this list will be rejected. Values are defined by RFC
    /// 7518 (RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512).
    /// [default: RS256]
    #[arg(long, help_heading = AUTHN, value_name = "strings", value_delimiter = ',', action = ArgAction::Append)]
    pub(crate) oidc_signing_algs: Vec<String>,

    /// The OpenID claim to use as the user name. Note that claims other than the default
    /// ('sub') is not guaranteed to be unique and immutable. [default: sub]
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_username_claim: Option<String>,

    /// If provided, all usernames will be prefixed with this value. If not provided,
    /// username claims other than 'email' are prefixed by the issuer URL to avoid clashes.
    /// To skip any prefixing, provide the value '-'.
    #[arg(long, help_heading = AUTHN, value_name = "string")]
    pub(crate) oidc_username_prefix: Option<String>,
}

/// The flags, checked.
#[derive(Debug, Clone, Default)]
pub(crate) struct JwtValidated {
    /// The JWT authenticators.
    pub(crate) config: JwtAuthnConfig,
    /// The file's `anonymous`, which replaces `--anonymous-auth`.
    pub(crate) anonymous: Option<AnonymousConfig>,
}

impl JwtFlags {
    /// Whether any `--oidc-*` flag was given.
    fn oidc_set(&self) -> bool {
        self.oidc_ca_file.is_some()
            || self.oidc_client_id.is_some()
            || self.oidc_groups_claim.is_some()
            || self.oidc_groups_prefix.is_some()
            || self.oidc_issuer_url.is_some()
            || !self.oidc_required_claim.is_empty()
            || !self.oidc_signing_algs.is_empty()
            || self.oidc_username_claim.is_some()
            || self.oidc_username_prefix.is_some()
    }
}

/// Checks the flags and reads the file; `disallowed_issuers` are the service account
/// issuers, `anonymous_flag_given` whether `--anonymous-auth` was on the command line.
pub(crate) fn validate(
    f: &JwtFlags,
    disallowed_issuers: &[String],
    anonymous_flag_given: bool,
    errs: &mut Vec<FlagError>,
) -> JwtValidated {
    let mut push = |flag: &'static str, message: String| errs.push(FlagError { flag, message });
    let mut out = JwtValidated::default();
    out.config.disallowed_issuers = disallowed_issuers.to_vec();
    if let Some(path) = &f.authentication_config {
        if f.oidc_set() {
            push(
                "--authentication-config",
                "authentication-config file and oidc-* flags are mutually exclusive".into(),
            );
        }
        let file = match jwt_config::load_file(path) {
            Ok(file) => file,
            Err(e) => {
                push("--authentication-config", e);
                return out;
            }
        };
        if file.anonymous.is_some() && anonymous_flag_given {
            push(
                "--authentication-config",
                "anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file".into(),
            );
        }
        let problems = jwt_config::validate(&file.jwt, file.anonymous.as_ref(), disallowed_issuers);
        if !problems.is_empty() {
            push(
                "--authentication-config",
                format!(
                    "{}: invalid authentication configuration: {}",
                    path.display(),
                    jwt_config::aggregate(&problems)
                ),
            );
        }
        out.config.authenticators = file.jwt;
        out.config.signing_algs = jwt_config::VALID_SIGNING_ALGS
            .iter()
            .map(|a| (*a).to_owned())
            .collect();
        out.config.config_file = Some(path.clone());
        out.anonymous = file.anonymous;
        return out;
    }
    if !f.oidc_set() {
        return out;
    }
    let (Some(url), Some(client_id)) = (
        f.oidc_issuer_url.as_deref().filter(|u| !u.is_empty()),
        f.oidc_client_id.as_deref().filter(|c| !c.is_empty()),
    ) else {
        push(
            "--oidc-issuer-url",
            "oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set".into(),
        );
        return out;
    };
    let algs: Vec<String> = if f.oidc_signing_algs.is_empty() {
        vec!["RS256".to_owned()]
    } else {
        f.oidc_signing_algs.clone()
    };
    for alg in &algs {
        if !jwt_config::VALID_SIGNING_ALGS.contains(&alg.as_str()) {
            push(
                "--oidc-signing-algs",
                format!("oidc: unsupported signing alg: {alg:?}"),
            );
        }
    }
    let username_claim = f
        .oidc_username_claim
        .clone()
        .unwrap_or_else(|| "sub".into());
    // The legacy default: claims other than email are prefixed by the issuer URL; "-"
    // means no prefix.
    let username_prefix = match f.oidc_username_prefix.as_deref() {
        Some("-") => String::new(),
        None | Some("") if username_claim != "email" => format!("{url}#"),
        other => other.unwrap_or("").to_owned(),
    };
    let certificate_authority = f.oidc_ca_file.as_ref().and_then(|p| {
        std::fs::read_to_string(p)
            .map_err(|e| push("--oidc-ca-file", format!("open {}: {e}", p.display())))
            .ok()
    });
    let mut required = std::collections::BTreeMap::new();
    for pair in &f.oidc_required_claim {
        match pair.split_once('=') {
            Some((k, v)) => {
                required.insert(k.to_owned(), v.to_owned());
            }
            None => push(
                "--oidc-required-claim",
                format!("{pair:?}: malformed pair, expect string=string"),
            ),
        }
    }
    let mut groups = PrefixedClaimOrExpression::default();
    if let Some(claim) = f.oidc_groups_claim.as_deref().filter(|c| !c.is_empty()) {
        groups.claim = claim.to_owned();
        groups.prefix = Some(f.oidc_groups_prefix.clone().unwrap_or_default());
    }
    let authenticator = JwtAuthenticator {
        issuer: JwtIssuer {
            url: url.to_owned(),
            discovery_url: None,
            certificate_authority,
            audiences: vec![client_id.to_owned()],
            audience_match_policy: String::new(),
        },
        claim_validation_rules: required
            .into_iter()
            .map(|(claim, required_value)| ClaimValidationRule {
                claim,
                required_value,
                ..Default::default()
            })
            .collect(),
        claim_mappings: ClaimMappings {
            username: PrefixedClaimOrExpression {
                claim: username_claim,
                prefix: Some(username_prefix),
                expression: String::new(),
            },
            groups,
            ..Default::default()
        },
        user_validation_rules: Vec::new(),
    };
    let authenticators = vec![authenticator];
    let problems = jwt_config::validate(&authenticators, None, disallowed_issuers);
    if !problems.is_empty() {
        push(
            "--oidc-issuer-url",
            format!(
                "invalid authentication configuration: {}",
                jwt_config::aggregate(&problems)
            ),
        );
    }
    out.config.authenticators = authenticators;
    out.config.signing_algs = algs;
    out
}

#[cfg(test)]
#[path = "jwt_flags_tests.rs"]
mod tests;
