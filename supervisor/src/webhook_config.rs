//! The webhook flags (`--authentication-token-webhook-*`, `--authorization-webhook-*`)
//! and their kubeconfig files, read once at start as kube-apiserver reads them: the
//! current context's (or the only) cluster and user, files named in it resolved against
//! the kubeconfig's directory, every certificate, key and URL checked before anything
//! starts. What is wrong names the file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use kas_proto::{
    AuthorizationWebhookConfig, ReviewVersion, TokenWebhookConfig, WebhookClientConfig,
};
use serde::Deserialize;

use crate::godur;
use crate::options::Options;
use crate::validate::FlagError;

/// A kubeconfig file, as far as a webhook client reads it.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Kubeconfig {
    clusters: Vec<Named<Cluster>>,
    users: Vec<NamedUser>,
    contexts: Vec<Named<Context>>,
    #[serde(rename = "current-context")]
    current_context: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Named<T: Default> {
    name: String,
    #[serde(alias = "cluster", alias = "context")]
    value: T,
}

/// `users[]`: the value is under `user`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct NamedUser {
    name: String,
    user: User,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Cluster {
    server: String,
    #[serde(rename = "certificate-authority")]
    certificate_authority: String,
    #[serde(rename = "certificate-authority-data")]
    certificate_authority_data: String,
    #[serde(rename = "insecure-skip-tls-verify")]
    insecure_skip_tls_verify: bool,
    #[serde(rename = "tls-server-name")]
    tls_server_name: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct User {
    #[serde(rename = "client-certificate")]
    client_certificate: String,
    #[serde(rename = "client-certificate-data")]
    client_certificate_data: String,
    #[serde(rename = "client-key")]
    client_key: String,
    #[serde(rename = "client-key-data")]
    client_key_data: String,
    token: String,
    #[serde(rename = "tokenFile")]
    token_file: String,
    username: String,
    password: String,
    exec: Option<serde_yaml_ng::Value>,
    #[serde(rename = "auth-provider")]
    auth_provider: Option<serde_yaml_ng::Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Context {
    cluster: String,
    user: String,
}

/// Reads the webhook kubeconfig at `path`; the error says what is wrong, after the path.
pub(crate) fn load(path: &Path) -> Result<WebhookClientConfig, String> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    parse(path, &text).map_err(|e| format!("{file}: {e}"))
}

/// The client configuration of kubeconfig `text` (read from `path`, against whose
/// directory relative file names resolve).
fn parse(path: &Path, text: &str) -> Result<WebhookClientConfig, String> {
    let config: Kubeconfig =
        serde_yaml_ng::from_str(text).map_err(|e| format!("not a kubeconfig: {e}"))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let (cluster_name, user_name) = select(&config)?;
    let cluster = &config
        .clusters
        .iter()
        .find(|c| c.name == cluster_name)
        .ok_or_else(|| format!("cluster {cluster_name:?} not found"))?
        .value;
    let user = match user_name {
        None => None,
        Some(name) => Some(
            &config
                .users
                .iter()
                .find(|u| u.name == name)
                .ok_or_else(|| format!("user {name:?} not found"))?
                .user,
        ),
    };

    let server = cluster.server.trim();
    if server.is_empty() {
        return Err(format!("cluster {cluster_name:?} has no server defined"));
    }
    let host = server
        .strip_prefix("https://")
        .ok_or_else(|| format!("server {server:?} must be an https:// URL"))?;
    if host.is_empty() || host.starts_with('/') {
        return Err(format!("server {server:?} has no host"));
    }
    if server.parse::<http::Uri>().is_err() {
        return Err(format!("server {server:?} is not a valid URL"));
    }

    let ca_pem = pem_source(
        dir,
        "certificate-authority",
        &cluster.certificate_authority,
        &cluster.certificate_authority_data,
    )?;
    if let Some(pem) = &ca_pem {
        kas_aggregator::tls::parse_cert_chain(pem.as_bytes())
            .map_err(|e| format!("certificate-authority: {e}"))?;
        if cluster.insecure_skip_tls_verify {
            return Err("specifying a root certificates file with the insecure flag is not allowed (certificate-authority and insecure-skip-tls-verify)".into());
        }
    }

    let mut client_cert_key_pem = None;
    let mut bearer_token = None;
    if let Some(user) = user {
        if user.exec.is_some() || user.auth_provider.is_some() {
            return Err("exec and auth-provider credentials are not supported for webhooks".into());
        }
        if !user.username.is_empty() || !user.password.is_empty() {
            return Err(
                "username/password (basic) authentication is not supported for webhooks".into(),
            );
        }
        let cert = pem_source(
            dir,
            "client-certificate",
            &user.client_certificate,
            &user.client_certificate_data,
        )?;
        let key = pem_source(dir, "client-key", &user.client_key, &user.client_key_data)?;
        client_cert_key_pem = match (cert, key) {
            (Some(cert), Some(key)) => {
                kas_aggregator::tls::parse_cert_chain(cert.as_bytes())
                    .map_err(|e| format!("client-certificate: {e}"))?;
                kas_aggregator::tls::parse_private_key(key.as_bytes())
                    .map_err(|e| format!("client-key: {e}"))?;
                Some((cert, key))
            }
            (Some(_), None) => return Err("client-certificate is set without client-key".into()),
            (None, Some(_)) => return Err("client-key is set without client-certificate".into()),
            (None, None) => None,
        };
        // As client-go: a token file, when given, is what is sent.
        bearer_token = if !user.token_file.is_empty() {
            let p = resolve(dir, &user.token_file);
            let token = std::fs::read_to_string(&p)
                .map_err(|e| format!("tokenFile {}: {e}", p.display()))?;
            Some(token.trim().to_owned())
        } else if !user.token.is_empty() {
            Some(user.token.clone())
        } else {
            None
        };
    }

    Ok(WebhookClientConfig {
        file: path.display().to_string(),
        server: server.to_owned(),
        ca_pem,
        insecure_skip_tls_verify: cluster.insecure_skip_tls_verify,
        tls_server_name: Some(cluster.tls_server_name.clone()).filter(|s| !s.is_empty()),
        client_cert_key_pem,
        bearer_token,
    })
}

/// The cluster and user to use: the current context's; without one, the only context's,
/// else the only cluster (with the only user, if there is exactly one).
fn select(config: &Kubeconfig) -> Result<(String, Option<String>), String> {
    let context = if !config.current_context.is_empty() {
        Some(
            config
                .contexts
                .iter()
                .find(|c| c.name == config.current_context)
                .ok_or_else(|| {
                    format!(
                        "context was not found for specified context: {}",
                        config.current_context
                    )
                })?,
        )
    } else if config.contexts.len() == 1 {
        config.contexts.first()
    } else {
        None
    };
    if let Some(c) = context {
        let user = Some(c.value.user.clone()).filter(|u| !u.is_empty());
        return Ok((c.value.cluster.clone(), user));
    }
    match config.clusters.as_slice() {
        [only] => {
            let user = match config.users.as_slice() {
                [u] => Some(u.name.clone()),
                _ => None,
            };
            Ok((only.name.clone(), user))
        }
        [] => Err("no clusters defined".into()),
        _ => Err("no current-context, and more than one cluster to choose from".into()),
    }
}

/// `name` relative to the kubeconfig's directory.
fn resolve(dir: &Path, name: &str) -> PathBuf {
    let p = Path::new(name);
    if p.is_absolute() {
        p.to_owned()
    } else {
        dir.join(p)
    }
}

/// The PEM text of a `<field>` file or `<field>-data` (base64), when either is set.
fn pem_source(dir: &Path, field: &str, file: &str, data: &str) -> Result<Option<String>, String> {
    match (file.is_empty(), data.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => Err(format!(
            "{field}-data and {field} are both specified; give one"
        )),
        (false, true) => {
            let p = resolve(dir, file);
            std::fs::read_to_string(&p)
                .map(Some)
                .map_err(|e| format!("{field} {}: {e}", p.display()))
        }
        (true, false) => {
            let bytes = STANDARD
                .decode(data.trim())
                .map_err(|e| format!("{field}-data is not base64: {e}"))?;
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| format!("{field}-data is not PEM text"))
        }
    }
}

/// The webhook flags, checked.
#[derive(Debug, Clone, Default)]
pub(crate) struct WebhookFlags {
    pub(crate) token: Option<TokenWebhookConfig>,
    pub(crate) authorization: Option<AuthorizationWebhookConfig>,
}

/// Checks the webhook flags, adding every problem to `errs`.
pub(crate) fn validate(o: &Options, errs: &mut Vec<FlagError>) -> WebhookFlags {
    let mut push = |flag: &'static str, message: String| errs.push(FlagError { flag, message });
    fn ttl(flag: &'static str, v: &str, push: &mut impl FnMut(&'static str, String)) -> Duration {
        godur::parse(v).unwrap_or_else(|e| {
            push(flag, e);
            Duration::ZERO
        })
    }

    const AUTHN_FILE: &str = "--authentication-token-webhook-config-file";
    const AUTHN_VERSION: &str = "--authentication-token-webhook-version";
    let authn_version = ReviewVersion::from_flag(&o.authentication_token_webhook_version);
    if authn_version.is_none() {
        push(
            AUTHN_VERSION,
            format!(
                "unsupported authentication webhook version {:?}, supported versions are \"v1\", \"v1beta1\"",
                o.authentication_token_webhook_version
            ),
        );
    }
    let cache_ttl = ttl(
        "--authentication-token-webhook-cache-ttl",
        &o.authentication_token_webhook_cache_ttl,
        &mut push,
    );
    let token = o
        .authentication_token_webhook_config_file
        .as_ref()
        .and_then(|p| {
            let client = load(p).map_err(|e| push(AUTHN_FILE, e)).ok()?;
            Some(TokenWebhookConfig {
                client,
                version: authn_version?,
                cache_ttl,
            })
        });

    const AUTHZ_FILE: &str = "--authorization-webhook-config-file";
    const AUTHZ_VERSION: &str = "--authorization-webhook-version";
    let authz_version = ReviewVersion::from_flag(&o.authorization_webhook_version);
    if authz_version.is_none() {
        push(
            AUTHZ_VERSION,
            format!(
                "unsupported webhook authorizer version {:?}, supported versions are \"v1\", \"v1beta1\"",
                o.authorization_webhook_version
            ),
        );
    }
    let authorized_ttl = ttl(
        "--authorization-webhook-cache-authorized-ttl",
        &o.authorization_webhook_cache_authorized_ttl,
        &mut push,
    );
    let unauthorized_ttl = ttl(
        "--authorization-webhook-cache-unauthorized-ttl",
        &o.authorization_webhook_cache_unauthorized_ttl,
        &mut push,
    );
    // kube-apiserver's words (pkg/kubeapiserver/options/authorization.go).
    let webhook_mode = o.authorization_mode.iter().any(|m| m == "Webhook");
    let file = o
        .authorization_webhook_config_file
        .as_ref()
        .filter(|p| !p.as_os_str().is_empty());
    if webhook_mode && file.is_none() {
        push(
            "--authorization-mode",
            "authorization-mode Webhook's authorization config file not passed".into(),
        );
    }
    if file.is_some() && !webhook_mode {
        push(
            AUTHZ_FILE,
            "cannot specify --authorization-webhook-config-file without mode Webhook".into(),
        );
    }
    let authorization = file.and_then(|p| {
        let client = load(p).map_err(|e| push(AUTHZ_FILE, e)).ok()?;
        Some(AuthorizationWebhookConfig {
            name: "webhook".to_owned(),
            client,
            version: authz_version?,
            authorized_ttl,
            unauthorized_ttl,
            // The flags' webhook: upstream's 30 s client timeout, no opinion on failure.
            timeout: Duration::from_secs(30),
            deny_on_failure: false,
            match_conditions: Vec::new(),
        })
    });
    WebhookFlags {
        token,
        authorization,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CA: &str =
        "-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIUY\n-----END CERTIFICATE-----\n";

    fn ca_pem() -> String {
        let key = rcgen::KeyPair::generate().expect("key");
        let params = rcgen::CertificateParams::new(vec!["webhook.test".into()]).expect("params");
        params.self_signed(&key).expect("cert").pem()
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p
    }

    #[test]
    fn current_context_cluster_and_user() {
        let dir = tempfile::tempdir().expect("dir");
        let ca = ca_pem();
        write(dir.path(), "ca.pem", &ca);
        write(dir.path(), "token", "s3cret\n");
        let key = rcgen::KeyPair::generate().expect("key");
        let cert = rcgen::CertificateParams::new(vec!["apiserver".into()])
            .expect("params")
            .self_signed(&key)
            .expect("cert");
        let kubeconfig = format!(
            r#"apiVersion: v1
kind: Config
clusters:
- name: other
  cluster: {{server: "https://other.example"}}
- name: authz
  cluster:
    server: https://127.0.0.1:8443/authorize
    certificate-authority: ca.pem
    tls-server-name: webhook.test
users:
- name: apiserver
  user:
    client-certificate-data: {}
    client-key-data: {}
    tokenFile: token
contexts:
- name: webhook
  context: {{cluster: authz, user: apiserver}}
current-context: webhook
"#,
            STANDARD.encode(cert.pem()),
            STANDARD.encode(key.serialize_pem())
        );
        let path = write(dir.path(), "authz.kubeconfig", &kubeconfig);
        let c = load(&path).expect("valid");
        assert_eq!(c.server, "https://127.0.0.1:8443/authorize");
        assert_eq!(c.ca_pem.as_deref(), Some(ca.as_str()));
        assert_eq!(c.tls_server_name.as_deref(), Some("webhook.test"));
        assert_eq!(c.bearer_token.as_deref(), Some("s3cret"));
        assert_eq!(
            c.client_cert_key_pem.as_ref().map(|(c, _)| c.as_str()),
            Some(cert.pem().as_str())
        );
        assert!(!c.insecure_skip_tls_verify);
    }

    #[test]
    fn the_only_cluster_without_a_context() {
        let dir = tempfile::tempdir().expect("dir");
        let text = format!(
            "clusters:\n- name: authn\n  cluster:\n    server: https://authn.example/review\n    certificate-authority-data: {}\n",
            STANDARD.encode(ca_pem())
        );
        let c = parse(&dir.path().join("k"), &text).expect("valid");
        assert_eq!(c.server, "https://authn.example/review");
        assert!(c.ca_pem.is_some());
        assert_eq!(c.bearer_token, None);
        assert_eq!(c.client_cert_key_pem, None);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let dir = tempfile::tempdir().expect("dir");
        let p = dir.path().join("k");
        let cases: &[(&str, &str)] = &[
            ("clusters: [", "not a kubeconfig"),
            ("clusters: []", "no clusters defined"),
            ("clusters:\n- name: a\n  cluster: {server: 'http://x'}\n", "must be an https:// URL"),
            ("clusters:\n- name: a\n  cluster: {}\n", "has no server defined"),
            (
                "clusters:\n- name: a\n  cluster: {server: 'https://x', certificate-authority-data: '!!'}\n",
                "certificate-authority-data is not base64",
            ),
            (
                "clusters:\n- name: a\n  cluster: {server: 'https://x', certificate-authority: missing.pem}\n",
                "certificate-authority",
            ),
            (
                "clusters:\n- name: a\n  cluster: {server: 'https://x'}\ncurrent-context: nope\n",
                "context was not found for specified context: nope",
            ),
            (
                "clusters:\n- name: a\n  cluster: {server: 'https://x'}\n- name: b\n  cluster: {server: 'https://y'}\n",
                "more than one cluster",
            ),
            (
                "clusters:\n- name: a\n  cluster: {server: 'https://x'}\nusers:\n- name: u\n  user: {client-certificate-data: 'AAAA'}\n",
                "client-certificate is set without client-key",
            ),
        ];
        for (text, want) in cases {
            let err = parse(&p, text).expect_err(text);
            assert!(err.contains(want), "{text:?}: {err}");
        }
        let bad_ca = format!(
            "clusters:\n- name: a\n  cluster: {{server: 'https://x', certificate-authority-data: {}}}\n",
            STANDARD.encode(CA)
        );
        assert!(parse(&p, &bad_ca)
            .expect_err("bad PEM")
            .starts_with("certificate-authority:"));
        let err = load(Path::new("/nonexistent/webhook.kubeconfig")).expect_err("missing");
        assert!(
            err.starts_with("/nonexistent/webhook.kubeconfig: "),
            "{err}"
        );
    }

    fn opts(args: &[&str]) -> Options {
        use clap::Parser;
        let mut v = vec!["kube-apiserver"];
        v.extend_from_slice(args);
        Options::try_parse_from(v).expect("parse")
    }

    #[test]
    fn flags_as_upstream() {
        let mut errs = Vec::new();
        let f = validate(&opts(&[]), &mut errs);
        assert!(errs.is_empty() && f.token.is_none() && f.authorization.is_none());

        let mut errs = Vec::new();
        validate(
            &opts(&[
                "--authorization-mode=RBAC,Webhook",
                "--authentication-token-webhook-version=v2",
                "--authorization-webhook-cache-authorized-ttl=soon",
            ]),
            &mut errs,
        );
        let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            text,
            [
                "invalid value for --authentication-token-webhook-version: unsupported authentication webhook version \"v2\", supported versions are \"v1\", \"v1beta1\"",
                "invalid value for --authorization-webhook-cache-authorized-ttl: invalid duration \"soon\"",
                "invalid value for --authorization-mode: authorization-mode Webhook's authorization config file not passed",
            ]
        );

        let dir = tempfile::tempdir().expect("dir");
        let good = write(
            dir.path(),
            "k",
            "clusters:\n- name: a\n  cluster: {server: 'https://127.0.0.1:1/x'}\n",
        );
        let file = format!("--authorization-webhook-config-file={}", good.display());
        let mut errs = Vec::new();
        validate(&opts(&[&file]), &mut errs);
        assert_eq!(
            errs[0].to_string(),
            "invalid value for --authorization-webhook-config-file: cannot specify --authorization-webhook-config-file without mode Webhook"
        );
        let mut errs = Vec::new();
        let authn = format!(
            "--authentication-token-webhook-config-file={}",
            good.display()
        );
        let f = validate(
            &opts(&[
                &file,
                &authn,
                "--authorization-mode=Webhook",
                "--authorization-webhook-version=v1",
                "--authorization-webhook-cache-unauthorized-ttl=1s",
            ]),
            &mut errs,
        );
        assert!(errs.is_empty(), "{errs:?}");
        let authz = f.authorization.expect("authorization webhook");
        assert_eq!(authz.version, ReviewVersion::V1);
        assert_eq!(authz.authorized_ttl, Duration::from_secs(300));
        assert_eq!(authz.unauthorized_ttl, Duration::from_secs(1));
        let token = f.token.expect("token webhook");
        assert_eq!(token.version, ReviewVersion::V1beta1);
        assert_eq!(token.cache_ttl, Duration::from_secs(120));
    }
}
