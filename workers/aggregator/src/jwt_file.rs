//! The `--authentication-config` file (`apiserver.config.k8s.io/v1alpha1` or `v1beta1`
//! AuthenticationConfiguration, the versions kube-apiserver v1.33 serves), decoded
//! strictly as kube-apiserver's codec does: an unknown field is an error naming its path.

use std::path::Path;

use kas_proto::{
    AnonymousConfig, ClaimMappings, ClaimOrExpression, ClaimValidationRule, ExtraMapping,
    JwtAuthenticator, JwtIssuer, PrefixedClaimOrExpression, UserValidationRule,
};
use serde::Deserialize;
use serde_json::Value as Json;

/// What the file configures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileConfig {
    /// `jwt`.
    pub jwt: Vec<JwtAuthenticator>,
    /// `anonymous`.
    pub anonymous: Option<AnonymousConfig>,
}

/// Reads and decodes the file; the error is kube-apiserver's
/// `failed to load authentication configuration from file "<path>": …`.
pub fn load_file(path: &Path) -> Result<FileConfig, String> {
    let wrap = |e: String| {
        format!(
            "failed to load authentication configuration from file {:?}: {e}",
            path.display().to_string()
        )
    };
    let data = std::fs::read_to_string(path).map_err(|e| wrap(e.to_string()))?;
    decode(&data).map_err(wrap)
}

/// Decodes the file's text (YAML or JSON).
pub fn decode(data: &str) -> Result<FileConfig, String> {
    if data.trim().is_empty() {
        return Err("empty config data".to_owned());
    }
    let doc: Json = serde_yaml_ng::from_str(data).map_err(|e| e.to_string())?;
    let api_version = doc.get("apiVersion").and_then(Json::as_str).unwrap_or("");
    let kind = doc.get("kind").and_then(Json::as_str).unwrap_or("");
    if kind.is_empty() {
        return Err("Object 'Kind' is missing".to_owned());
    }
    let served = matches!(
        api_version,
        "apiserver.config.k8s.io/v1alpha1" | "apiserver.config.k8s.io/v1beta1"
    );
    if !served || kind != "AuthenticationConfiguration" {
        return Err(format!(
            "no kind {kind:?} is registered for version {api_version:?}"
        ));
    }
    let mut unknown = Vec::new();
    unknown_fields(&doc, &ROOT, "", &mut unknown);
    if !unknown.is_empty() {
        return Err(format!(
            "strict decoding error: {}",
            unknown
                .iter()
                .map(|f| format!("unknown field {f:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let file: File = serde_json::from_value(doc).map_err(|e| e.to_string())?;
    Ok(file.into())
}

/// The fields each object of the file may have.
enum Shape {
    Object(&'static [(&'static str, Shape)]),
    List(&'static Shape),
    Leaf,
}

const PREFIXED: Shape = Shape::Object(&[
    ("claim", Shape::Leaf),
    ("prefix", Shape::Leaf),
    ("expression", Shape::Leaf),
]);
const ROOT: Shape = Shape::Object(&[
    ("apiVersion", Shape::Leaf),
    ("kind", Shape::Leaf),
    (
        "jwt",
        Shape::List(&Shape::Object(&[
            (
                "issuer",
                Shape::Object(&[
                    ("url", Shape::Leaf),
                    ("discoveryURL", Shape::Leaf),
                    ("certificateAuthority", Shape::Leaf),
                    ("audiences", Shape::Leaf),
                    ("audienceMatchPolicy", Shape::Leaf),
                ]),
            ),
            (
                "claimValidationRules",
                Shape::List(&Shape::Object(&[
                    ("claim", Shape::Leaf),
                    ("requiredValue", Shape::Leaf),
                    ("expression", Shape::Leaf),
                    ("message", Shape::Leaf),
                ])),
            ),
            (
                "claimMappings",
                Shape::Object(&[
                    ("username", PREFIXED),
                    ("groups", PREFIXED),
                    (
                        "uid",
                        Shape::Object(&[("claim", Shape::Leaf), ("expression", Shape::Leaf)]),
                    ),
                    (
                        "extra",
                        Shape::List(&Shape::Object(&[
                            ("key", Shape::Leaf),
                            ("valueExpression", Shape::Leaf),
                        ])),
                    ),
                ]),
            ),
            (
                "userValidationRules",
                Shape::List(&Shape::Object(&[
                    ("expression", Shape::Leaf),
                    ("message", Shape::Leaf),
                ])),
            ),
        ])),
    ),
    (
        "anonymous",
        Shape::Object(&[
            ("enabled", Shape::Leaf),
            (
                "conditions",
                Shape::List(&Shape::Object(&[("path", Shape::Leaf)])),
            ),
        ]),
    ),
]);

fn unknown_fields(value: &Json, shape: &Shape, path: &str, out: &mut Vec<String>) {
    match (shape, value) {
        (Shape::Object(fields), Json::Object(map)) => {
            for (k, v) in map {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match fields.iter().find(|(name, _)| name == k) {
                    Some((_, shape)) => unknown_fields(v, shape, &sub, out),
                    None => out.push(sub),
                }
            }
        }
        (Shape::List(item), Json::Array(items)) => {
            for (i, v) in items.iter().enumerate() {
                unknown_fields(v, item, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct File {
    jwt: Vec<FileJwt>,
    anonymous: Option<FileAnonymous>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct FileAnonymous {
    enabled: bool,
    conditions: Vec<FileCondition>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct FileCondition {
    path: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct FileJwt {
    issuer: FileIssuer,
    claim_validation_rules: Vec<FileClaimRule>,
    claim_mappings: FileMappings,
    user_validation_rules: Vec<FileUserRule>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct FileIssuer {
    url: String,
    #[serde(rename = "discoveryURL")]
    discovery_url: Option<String>,
    certificate_authority: String,
    audiences: Vec<String>,
    audience_match_policy: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct FileClaimRule {
    claim: String,
    required_value: String,
    expression: String,
    message: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct FileMappings {
    username: FilePrefixed,
    groups: FilePrefixed,
    uid: FileClaimOrExpression,
    extra: Vec<FileExtra>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct FilePrefixed {
    claim: String,
    prefix: Option<String>,
    expression: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct FileClaimOrExpression {
    claim: String,
    expression: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct FileExtra {
    key: String,
    value_expression: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct FileUserRule {
    expression: String,
    message: String,
}

impl From<File> for FileConfig {
    fn from(f: File) -> FileConfig {
        let prefixed = |p: FilePrefixed| PrefixedClaimOrExpression {
            claim: p.claim,
            prefix: p.prefix,
            expression: p.expression,
        };
        FileConfig {
            jwt: f
                .jwt
                .into_iter()
                .map(|j| JwtAuthenticator {
                    issuer: JwtIssuer {
                        url: j.issuer.url,
                        discovery_url: j.issuer.discovery_url.filter(|u| !u.is_empty()),
                        certificate_authority: Some(j.issuer.certificate_authority)
                            .filter(|c| !c.is_empty()),
                        audiences: j.issuer.audiences,
                        audience_match_policy: j.issuer.audience_match_policy,
                    },
                    claim_validation_rules: j
                        .claim_validation_rules
                        .into_iter()
                        .map(|r| ClaimValidationRule {
                            claim: r.claim,
                            required_value: r.required_value,
                            expression: r.expression,
                            message: r.message,
                        })
                        .collect(),
                    claim_mappings: ClaimMappings {
                        username: prefixed(j.claim_mappings.username),
                        groups: prefixed(j.claim_mappings.groups),
                        uid: ClaimOrExpression {
                            claim: j.claim_mappings.uid.claim,
                            expression: j.claim_mappings.uid.expression,
                        },
                        extra: j
                            .claim_mappings
                            .extra
                            .into_iter()
                            .map(|e| ExtraMapping {
                                key: e.key,
                                value_expression: e.value_expression,
                            })
                            .collect(),
                    },
                    user_validation_rules: j
                        .user_validation_rules
                        .into_iter()
                        .map(|r| UserValidationRule {
                            expression: r.expression,
                            message: r.message,
                        })
                        .collect(),
                })
                .collect(),
            anonymous: f.anonymous.map(|a| AnonymousConfig {
                enabled: a.enabled,
                paths: a.conditions.into_iter().map(|c| c.path).collect(),
            }),
        }
    }
}
