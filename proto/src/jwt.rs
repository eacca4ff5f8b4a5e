//! JWT (OpenID Connect) authentication as kube-apiserver configures it: the `--oidc-*`
//! flags, or the `jwt` authenticators of an `--authentication-config` file
//! (`apiserver.config.k8s.io` AuthenticationConfiguration), checked by the supervisor.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The JWT authenticators and how they were configured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JwtAuthnConfig {
    /// The authenticators, in the file's order (one for the flags).
    pub authenticators: Vec<JwtAuthenticator>,
    /// The JOSE algorithms a token may be signed with: `--oidc-signing-algs`, or every
    /// algorithm upstream allows when the file configures the authenticators.
    pub signing_algs: Vec<String>,
    /// `--authentication-config`: re-read when it changes (its `jwt` authenticators).
    pub config_file: Option<PathBuf>,
    /// Issuers no authenticator may claim (the service account issuers), for reloads.
    pub disallowed_issuers: Vec<String>,
}

/// One `jwt` authenticator.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JwtAuthenticator {
    /// `issuer`.
    pub issuer: JwtIssuer,
    /// `claimValidationRules`.
    pub claim_validation_rules: Vec<ClaimValidationRule>,
    /// `claimMappings`.
    pub claim_mappings: ClaimMappings,
    /// `userValidationRules`.
    pub user_validation_rules: Vec<UserValidationRule>,
}

/// `issuer`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JwtIssuer {
    /// `url`: the `iss` claim, and where discovery is found.
    pub url: String,
    /// `discoveryURL`: where the discovery document is fetched instead.
    pub discovery_url: Option<String>,
    /// `certificateAuthority`, PEM (`--oidc-ca-file`, read); `None`: the system's roots.
    pub certificate_authority: Option<String>,
    /// `audiences` (`--oidc-client-id`).
    pub audiences: Vec<String>,
    /// `audienceMatchPolicy` (empty or `MatchAny`).
    pub audience_match_policy: String,
}

/// One `claimValidationRules` entry: a claim and its required value, or a CEL expression.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClaimValidationRule {
    /// `claim`.
    pub claim: String,
    /// `requiredValue`.
    pub required_value: String,
    /// `expression`.
    pub expression: String,
    /// `message`.
    pub message: String,
}

/// `claimMappings`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClaimMappings {
    /// `username`.
    pub username: PrefixedClaimOrExpression,
    /// `groups`.
    pub groups: PrefixedClaimOrExpression,
    /// `uid`.
    pub uid: ClaimOrExpression,
    /// `extra`.
    pub extra: Vec<ExtraMapping>,
}

/// A claim with an optional prefix, or a CEL expression.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PrefixedClaimOrExpression {
    /// `claim`.
    pub claim: String,
    /// `prefix` (`None`: not given).
    pub prefix: Option<String>,
    /// `expression`.
    pub expression: String,
}

/// A claim, or a CEL expression.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClaimOrExpression {
    /// `claim`.
    pub claim: String,
    /// `expression`.
    pub expression: String,
}

/// One `extra` mapping.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtraMapping {
    /// `key`.
    pub key: String,
    /// `valueExpression`.
    pub value_expression: String,
}

/// One `userValidationRules` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UserValidationRule {
    /// `expression`.
    pub expression: String,
    /// `message`.
    pub message: String,
}

/// `anonymous` of the file: replaces `--anonymous-auth`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AnonymousConfig {
    /// `enabled`.
    pub enabled: bool,
    /// `conditions[].path`: when any, anonymous requests are allowed on these paths only.
    pub paths: Vec<String>,
}
