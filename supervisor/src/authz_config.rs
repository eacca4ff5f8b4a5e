//! `--authorization-config`: the structured AuthorizationConfiguration file
//! (apiserver.config.k8s.io v1, v1beta1, v1alpha1) in place of `--authorization-mode` and
//! the `--authorization-webhook-*` flags: a chain of named authorizers, any number of
//! them webhooks with their own timeout, caches, failure policy and CEL match
//! conditions. Checked as kube-apiserver checks it, every problem at once, with its
//! field paths and words.

use std::path::Path;
use std::time::Duration;

use kas_proto::{AuthorizationWebhookConfig, ReviewVersion};
use serde::Deserialize;

use crate::options::Options;
use crate::validate::FlagError;

const FLAG: &str = "--authorization-config";
/// The authorizer types kube-apiserver knows (sorted, as its messages list them).
const KNOWN_TYPES: [&str; 6] = [
    "ABAC",
    "AlwaysAllow",
    "AlwaysDeny",
    "Node",
    "RBAC",
    "Webhook",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct File {
    api_version: Option<String>,
    kind: Option<String>,
    #[serde(default)]
    authorizers: Vec<Authorizer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Authorizer {
    #[serde(default, rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    webhook: Option<Webhook>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Webhook {
    #[serde(default)]
    timeout: String,
    #[serde(default, rename = "authorizedTTL")]
    authorized_ttl: String,
    #[serde(default, rename = "unauthorizedTTL")]
    unauthorized_ttl: String,
    #[serde(default)]
    subject_access_review_version: String,
    #[serde(default)]
    match_condition_subject_access_review_version: String,
    #[serde(default)]
    failure_policy: String,
    #[serde(default)]
    connection_info: ConnectionInfo,
    #[serde(default)]
    match_conditions: Vec<MatchCondition>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ConnectionInfo {
    #[serde(default, rename = "type")]
    kind: String,
    kube_config_file: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchCondition {
    #[serde(default)]
    expression: String,
}

/// The chain the file describes: the authorizer types in order and the webhooks.
pub(crate) type Chain = (Vec<String>, Vec<AuthorizationWebhookConfig>);

/// Go's `%q` of a string.
fn q(s: &str) -> String {
    format!("{s:?}")
}

/// A lower-case RFC 1123 subdomain.
fn dns1123_subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// A Go duration, `default` when empty; `Err` for a malformed one.
fn duration(v: &str, default: Duration) -> Result<Duration, String> {
    if v.is_empty() {
        return Ok(default);
    }
    crate::godur::parse(v)
}

/// Checks one webhook, adding problems under `path`; the configuration when it is
/// usable.
fn webhook(
    w: &Webhook,
    name: &str,
    path: &str,
    errs: &mut Vec<String>,
) -> Option<AuthorizationWebhookConfig> {
    let before = errs.len();
    let timeout = match duration(&w.timeout, Duration::ZERO) {
        Ok(d) if d.is_zero() => {
            errs.push(format!("{path}.timeout: Required value"));
            d
        }
        Ok(d) if d > Duration::from_secs(30) => {
            errs.push(format!(
                "{path}.timeout: Invalid value: {}: must be > 0s and <= 30s",
                q(&w.timeout)
            ));
            d
        }
        Ok(d) => d,
        Err(e) => {
            errs.push(format!(
                "{path}.timeout: Invalid value: {}: {e}",
                q(&w.timeout)
            ));
            Duration::ZERO
        }
    };
    let ttl = |v: &str, default: Duration, field: &str, errs: &mut Vec<String>| {
        duration(v, default).unwrap_or_else(|e| {
            errs.push(format!("{path}.{field}: Invalid value: {}: {e}", q(v)));
            default
        })
    };
    let authorized_ttl = ttl(
        &w.authorized_ttl,
        Duration::from_secs(300),
        "authorizedTTL",
        errs,
    );
    let unauthorized_ttl = ttl(
        &w.unauthorized_ttl,
        Duration::from_secs(30),
        "unauthorizedTTL",
        errs,
    );
    let version = match w.subject_access_review_version.as_str() {
        "" => {
            errs.push(format!("{path}.subjectAccessReviewVersion: Required value"));
            None
        }
        v => ReviewVersion::from_flag(v).or_else(|| {
            errs.push(format!(
                "{path}.subjectAccessReviewVersion: Unsupported value: {}: supported values: \"v1\", \"v1beta1\"",
                q(v)
            ));
            None
        }),
    };
    match w.match_condition_subject_access_review_version.as_str() {
        "" if !w.match_conditions.is_empty() => errs.push(format!(
            "{path}.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified"
        )),
        "" | "v1" => {}
        v => errs.push(format!(
            "{path}.matchConditionSubjectAccessReviewVersion: Unsupported value: {}: supported values: \"v1\"",
            q(v)
        )),
    }
    let deny_on_failure = match w.failure_policy.as_str() {
        "" => {
            errs.push(format!("{path}.failurePolicy: Required value"));
            false
        }
        "NoOpinion" => false,
        "Deny" => true,
        v => {
            errs.push(format!(
                "{path}.failurePolicy: Unsupported value: {}: supported values: \"NoOpinion\", \"Deny\"",
                q(v)
            ));
            false
        }
    };
    let mut client = None;
    let kubeconfig = w.connection_info.kube_config_file.as_deref().unwrap_or("");
    match w.connection_info.kind.as_str() {
        "" => errs.push(format!("{path}.connectionInfo.type: Required value")),
        "InClusterConfig" => errs.push(format!(
            "{path}.connectionInfo.type: Unsupported value: \"InClusterConfig\": kube-apiserver-rs does not run in a pod; use \"KubeConfigFile\""
        )),
        "KubeConfigFile" if kubeconfig.is_empty() => {
            errs.push(format!("{path}.connectionInfo.kubeConfigFile: Required value"))
        }
        "KubeConfigFile" if !Path::new(kubeconfig).is_absolute() => errs.push(format!(
            "{path}.connectionInfo.kubeConfigFile: Invalid value: {}: must be an absolute path",
            q(kubeconfig)
        )),
        "KubeConfigFile" => match crate::webhook_config::load(Path::new(kubeconfig)) {
            Ok(c) => client = Some(c),
            Err(e) => errs.push(format!(
                "{path}.connectionInfo.kubeConfigFile: Invalid value: {}: error loading file: {e}",
                q(kubeconfig)
            )),
        },
        v => errs.push(format!(
            "{path}.connectionInfo.type: Unsupported value: {}: supported values: \"InClusterConfig\", \"KubeConfigFile\"",
            q(v)
        )),
    }
    if w.match_conditions.len() > 64 {
        errs.push(format!(
            "{path}.matchConditions: Too many: {}: must have at most 64 items",
            w.match_conditions.len()
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, c) in w.match_conditions.iter().enumerate() {
        let field = format!("{path}.matchConditions[{i}].expression");
        if c.expression.trim().is_empty() {
            errs.push(format!("{field}: Required value"));
        } else if seen.contains(&c.expression.as_str()) {
            errs.push(format!("{field}: Duplicate value: {}", q(&c.expression)));
        } else if let Err(e) = kas_authz::compile_condition(&c.expression) {
            errs.push(format!(
                "{field}: Invalid value: {}: compilation failed: {e}",
                q(&c.expression)
            ));
        }
        seen.push(&c.expression);
    }
    if errs.len() != before {
        return None;
    }
    Some(AuthorizationWebhookConfig {
        name: name.to_owned(),
        client: client?,
        version: version?,
        authorized_ttl,
        unauthorized_ttl,
        timeout,
        deny_on_failure,
        match_conditions: w
            .match_conditions
            .iter()
            .map(|c| c.expression.clone())
            .collect(),
    })
}

/// Parses and checks the file's text; every problem, as kube-apiserver words them.
pub(crate) fn parse(text: &str) -> Result<Chain, Vec<String>> {
    let file: File = serde_yaml_ng::from_str(text).map_err(|e| {
        vec![format!(
            "failed to load AuthorizationConfiguration from file: strict decoding error: {e}"
        )]
    })?;
    let mut errs = Vec::new();
    match file.api_version.as_deref() {
        Some("apiserver.config.k8s.io/v1" | "apiserver.config.k8s.io/v1beta1" | "apiserver.config.k8s.io/v1alpha1") => {}
        other => errs.push(format!(
            "failed to load AuthorizationConfiguration from file: no kind \"AuthorizationConfiguration\" is registered for version {}",
            q(other.unwrap_or(""))
        )),
    }
    if file.kind.as_deref() != Some("AuthorizationConfiguration") {
        errs.push(format!(
            "failed to load AuthorizationConfiguration from file: unexpected kind {}",
            q(file.kind.as_deref().unwrap_or(""))
        ));
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    if file.authorizers.is_empty() {
        errs.push(
            "authorizers: Required value: at least one authorization mode must be defined"
                .to_owned(),
        );
    }
    let mut types: Vec<String> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut webhooks = Vec::new();
    for (i, a) in file.authorizers.iter().enumerate() {
        let path = format!("authorizers[{i}]");
        if a.kind.is_empty() {
            errs.push(format!("{path}.type: Required value"));
            continue;
        }
        if !KNOWN_TYPES.contains(&a.kind.as_str()) {
            let supported: Vec<String> = KNOWN_TYPES.iter().map(|t| q(t)).collect();
            errs.push(format!(
                "{path}.type: Unsupported value: {}: supported values: {}",
                q(&a.kind),
                supported.join(", ")
            ));
            continue;
        }
        if types.contains(&a.kind) && a.kind != "Webhook" {
            errs.push(format!("{path}.type: Duplicate value: {}", q(&a.kind)));
            continue;
        }
        if a.kind == "ABAC" {
            errs.push(format!("{path}.type: Unsupported value: \"ABAC\": kube-apiserver-rs does not implement ABAC"));
            continue;
        }
        types.push(a.kind.clone());
        if a.name.is_empty() {
            errs.push(format!("{path}.name: Required value"));
        } else if names.contains(&a.name.as_str()) {
            errs.push(format!("{path}.name: Duplicate value: {}", q(&a.name)));
        } else if !dns1123_subdomain(&a.name) {
            errs.push(format!(
                "{path}.name: Invalid value: {}: authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                q(&a.name)
            ));
        }
        names.push(&a.name);
        match (a.kind.as_str(), &a.webhook) {
            ("Webhook", None) => errs.push(format!("{path}.webhook: Required value: required when type=Webhook")),
            ("Webhook", Some(w)) => webhooks.extend(webhook(w, &a.name, &format!("{path}.webhook"), &mut errs)),
            (_, Some(_)) => errs.push(format!(
                "{path}.webhook: Invalid value: \"non-null\": may only be specified when type=Webhook"
            )),
            (_, None) => {}
        }
    }
    // kube-apiserver's own rule on top of the API's validation: a non-webhook
    // authorizer is named after its type, lower-cased.
    if errs.is_empty() {
        for a in file.authorizers.iter().filter(|a| a.kind != "Webhook") {
            let expected = a.kind.to_lowercase();
            if a.name != expected {
                errs.push(format!(
                    "expected name {expected} for authorizer {} instead of {}",
                    a.kind, a.name
                ));
            }
        }
    }
    if errs.is_empty() {
        Ok((types, webhooks))
    } else {
        Err(errs)
    }
}

/// Whether the command line sets `--authorization-mode` or an `--authorization-webhook-*`
/// flag itself (their defaults do not count), as upstream's check of changed flags.
fn legacy_flags_given() -> bool {
    std::env::args()
        .any(|a| a.starts_with("--authorization-mode") || a.starts_with("--authorization-webhook-"))
}

/// The authorization chain: `--authorization-config`'s when given, else the flags'
/// (`modes` and the flags' webhook, already checked).
pub(crate) fn resolve(
    o: &Options,
    errs: &mut Vec<FlagError>,
    flag_webhook: Option<AuthorizationWebhookConfig>,
) -> Chain {
    let Some(path) = &o.authorization_config else {
        return (
            o.authorization_mode.clone(),
            flag_webhook.into_iter().collect(),
        );
    };
    if legacy_flags_given() {
        errs.push(FlagError {
            flag: FLAG,
            message: "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined".to_owned(),
        });
        return (Vec::new(), Vec::new());
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            errs.push(FlagError {
                flag: FLAG,
                message: format!("{}: {e}", path.display()),
            });
            return (Vec::new(), Vec::new());
        }
    };
    match parse(&text) {
        Ok(chain) => chain,
        Err(problems) => {
            let message = if problems.len() == 1 {
                problems.join("")
            } else {
                format!("[{}]", problems.join(", "))
            };
            errs.push(FlagError {
                flag: FLAG,
                message: format!("{}: {message}", path.display()),
            });
            (Vec::new(), Vec::new())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_with_two_webhooks() {
        let dir = tempfile::tempdir().expect("dir");
        let kubeconfig = dir.path().join("hook.kubeconfig");
        std::fs::write(
            &kubeconfig,
            "clusters:\n- name: w\n  cluster: {server: 'https://127.0.0.1:9/authz'}\n",
        )
        .expect("write");
        let text = format!(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Node\n  name: node\n- type: Webhook\n  name: first\n  webhook:\n    timeout: 2s\n    subjectAccessReviewVersion: v1\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    connectionInfo: {{type: KubeConfigFile, kubeConfigFile: {k}}}\n    matchConditions:\n    - expression: has(request.resourceAttributes)\n- type: RBAC\n  name: rbac\n- type: Webhook\n  name: second\n  webhook:\n    timeout: 1s\n    authorizedTTL: 1m\n    subjectAccessReviewVersion: v1beta1\n    failurePolicy: NoOpinion\n    connectionInfo: {{type: KubeConfigFile, kubeConfigFile: {k}}}\n",
            k = kubeconfig.display()
        );
        let (types, hooks) = parse(&text).expect("valid");
        assert_eq!(types, ["Node", "Webhook", "RBAC", "Webhook"]);
        assert_eq!(hooks.len(), 2);
        assert_eq!(
            (
                hooks[0].name.as_str(),
                hooks[0].deny_on_failure,
                hooks[0].timeout
            ),
            ("first", true, Duration::from_secs(2))
        );
        assert_eq!(hooks[0].authorized_ttl, Duration::from_secs(300));
        assert_eq!(hooks[1].authorized_ttl, Duration::from_secs(60));
        assert_eq!(
            hooks[0].match_conditions,
            ["has(request.resourceAttributes)"]
        );
    }

    #[test]
    fn problems_with_upstreams_field_paths() {
        let text = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n- type: RBAC\n  name: again\n- type: Foo\n  name: x\n- type: Node\n  name: Bad_Name\n  webhook: {}\n- type: Webhook\n  name: hook\n  webhook:\n    timeout: 1m\n    subjectAccessReviewVersion: v2\n    connectionInfo: {type: KubeConfigFile, kubeConfigFile: relative.kubeconfig}\n    matchConditions:\n    - expression: 'request.user =='\n";
        let errs = parse(text).expect_err("invalid");
        for want in [
            "authorizers[1].type: Duplicate value: \"RBAC\"",
            "authorizers[2].type: Unsupported value: \"Foo\": supported values: \"ABAC\", \"AlwaysAllow\", \"AlwaysDeny\", \"Node\", \"RBAC\", \"Webhook\"",
            "authorizers[3].name: Invalid value: \"Bad_Name\": authorizer name is invalid",
            "authorizers[3].webhook: Invalid value: \"non-null\": may only be specified when type=Webhook",
            "authorizers[4].webhook.timeout: Invalid value: \"1m\": must be > 0s and <= 30s",
            "authorizers[4].webhook.subjectAccessReviewVersion: Unsupported value: \"v2\"",
            "authorizers[4].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified",
            "authorizers[4].webhook.failurePolicy: Required value",
            "authorizers[4].webhook.connectionInfo.kubeConfigFile: Invalid value: \"relative.kubeconfig\": must be an absolute path",
            "authorizers[4].webhook.matchConditions[0].expression: Invalid value: \"request.user ==\": compilation failed",
        ] {
            assert!(errs.iter().any(|e| e.starts_with(want)), "{want} not in {errs:#?}");
        }
        let unknown = parse("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers: []\nextra: 1\n").expect_err("strict");
        assert!(unknown[0].contains("unknown field `extra`"), "{unknown:?}");
        let empty =
            parse("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n")
                .expect_err("empty");
        assert_eq!(
            empty,
            ["authorizers: Required value: at least one authorization mode must be defined"]
        );
    }
}
