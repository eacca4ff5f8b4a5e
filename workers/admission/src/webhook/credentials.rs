//! The credentials kube-apiserver presents to admission webhooks: the kubeconfig named by
//! the plugin's `WebhookAdmissionConfiguration` (`kubeConfigFile`, in the
//! `--admission-control-config-file`), whose `users` are chosen by the webhook's
//! `host:port` as upstream's `AuthenticationInfoResolver` chooses them: the exact name,
//! then `*.<domain>` wildcards, then (for port 443) the host alone and its wildcards,
//! then `*`, then the current context's user; none is no credentials.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine;
use kas_server::webhook::ClientAuth;
use serde_json::Value;

/// The users of the kubeconfig, by name, and the current context's.
#[derive(Debug, Default, Clone)]
pub(crate) struct Credentials {
    users: HashMap<String, User>,
    current: Option<String>,
}

/// One `users[]` entry, its files read.
#[derive(Debug, Clone)]
struct User(Result<ClientAuth, String>);

const WHERE: &str = "--admission-control-config-file";

/// The credentials of `plugin` (`ValidatingAdmissionWebhook` or
/// `MutatingAdmissionWebhook`) from the AdmissionConfiguration text; `Ok(None)` when it
/// names none.
pub(crate) fn load(
    admission_config: Option<&str>,
    plugin: &str,
) -> Result<Option<Credentials>, String> {
    let Some(text) = admission_config else {
        return Ok(None);
    };
    let doc: Value = serde_yaml_ng::from_str(text)
        .map_err(|e| format!("{WHERE}: not an AdmissionConfiguration: {e}"))?;
    let Some(config) = crate::plugin_configuration(&doc, plugin)? else {
        return Ok(None);
    };
    let api_version = config
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let kind = config.get("kind").and_then(Value::as_str).unwrap_or("");
    let known = matches!(
        (api_version, kind),
        (
            "apiserver.config.k8s.io/v1",
            "WebhookAdmissionConfiguration"
        ) | ("apiserver.config.k8s.io/v1alpha1", "WebhookAdmission")
    );
    if !known {
        return Err(format!(
            "no kind \"{kind}\" is registered for version \"{api_version}\""
        ));
    }
    let file = config
        .get("kubeConfigFile")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !Path::new(file).is_absolute() {
        return Err(format!(
            "kubeConfigFile: Invalid value: \"{file}\": must be an absolute file path"
        ));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let kubeconfig: Value = serde_yaml_ng::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
    Ok(Some(Credentials::from_kubeconfig(
        &kubeconfig,
        Path::new(file),
    )))
}

impl Credentials {
    fn from_kubeconfig(kubeconfig: &Value, file: &Path) -> Credentials {
        let dir = file.parent().unwrap_or(Path::new("/"));
        let users = kubeconfig
            .get("users")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|u| {
                let name = u.get("name")?.as_str()?.to_owned();
                let user = u.get("user").cloned().unwrap_or(Value::Null);
                Some((name, User(auth_of(&user, dir))))
            })
            .collect();
        let current_context = kubeconfig
            .get("current-context")
            .and_then(Value::as_str)
            .unwrap_or("");
        let current = kubeconfig
            .get("contexts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|c| c.get("name").and_then(Value::as_str) == Some(current_context))
            .and_then(|c| c.pointer("/context/user"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        Credentials { users, current }
    }

    /// The credentials for a webhook at `host_port`; `Err` when the chosen user's
    /// credentials cannot be used (a file that does not read, an auth provider).
    pub(crate) fn for_target(&self, host_port: &str) -> Result<ClientAuth, String> {
        let user = self.choose(host_port);
        match user {
            Some(User(auth)) => auth.clone(),
            None => Ok(ClientAuth::default()),
        }
    }

    fn choose(&self, target: &str) -> Option<&User> {
        let by_name = |name: &str| self.users.get(name);
        let wildcards = |host: &str| {
            let steps: Vec<&str> = host.split('.').collect();
            (1..steps.len()).find_map(|i| by_name(&format!("*.{}", steps[i..].join("."))))
        };
        if let Some(u) = by_name(target).or_else(|| wildcards(target)) {
            return Some(u);
        }
        if let Some(host) = target.strip_suffix(":443") {
            if let Some(u) = by_name(host).or_else(|| wildcards(host)) {
                return Some(u);
            }
        }
        by_name("*").or_else(|| self.current.as_deref().and_then(by_name))
    }
}

/// A user's token and client certificate, files resolved against the kubeconfig's
/// directory as client-go resolves them.
fn auth_of(user: &Value, dir: &Path) -> Result<ClientAuth, String> {
    let text = |k: &str| {
        user.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let path = |p: &str| -> PathBuf {
        let p = Path::new(p);
        match p.is_absolute() {
            true => p.to_owned(),
            false => dir.join(p),
        }
    };
    let read = |p: &str| {
        std::fs::read_to_string(path(p)).map_err(|e| format!("{}: {e}", path(p).display()))
    };
    let data = |k: &str| -> Result<Option<String>, String> {
        match text(k) {
            None => Ok(None),
            Some(b64) => base64::engine::general_purpose::STANDARD
                .decode(b64)
                .map(|b| Some(String::from_utf8_lossy(&b).into_owned()))
                .map_err(|e| format!("{k}: {e}")),
        }
    };
    if user.get("auth-provider").is_some_and(|v| !v.is_null()) {
        return Err("auth provider not supported".to_owned());
    }
    if user.get("exec").is_some_and(|v| !v.is_null()) {
        return Err("exec credential plugins are not supported by this server".to_owned());
    }
    let bearer_token = match (text("token"), text("tokenFile")) {
        (Some(t), _) => Some(t.to_owned()),
        (None, Some(f)) => Some(read(f)?.trim().to_owned()),
        (None, None) => None,
    };
    let cert = match (data("client-certificate-data")?, text("client-certificate")) {
        (Some(c), _) => Some(c),
        (None, Some(f)) => Some(read(f)?),
        (None, None) => None,
    };
    let key = match (data("client-key-data")?, text("client-key")) {
        (Some(k), _) => Some(k),
        (None, Some(f)) => Some(read(f)?),
        (None, None) => None,
    };
    Ok(ClientAuth {
        cert_key_pem: cert.zip(key),
        bearer_token,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn creds() -> Credentials {
        let kubeconfig = json!({
            "users": [
                {"name": "hook.example.com:8443", "user": {"token": "exact"}},
                {"name": "*.svc", "user": {"token": "any-service"}},
                {"name": "plain.example.com", "user": {"token": "port-443"}},
                {"name": "*", "user": {"token": "star"}},
                {"name": "me", "user": {"token": "current"}},
                {"name": "broken.example.com:443", "user": {"auth-provider": {"name": "gcp"}}},
            ],
            "contexts": [{"name": "c", "context": {"user": "me"}}],
            "current-context": "c",
        });
        Credentials::from_kubeconfig(&kubeconfig, Path::new("/etc/kubernetes/webhooks.yaml"))
    }

    fn token(c: &Credentials, target: &str) -> Option<String> {
        c.for_target(target).unwrap().bearer_token
    }

    #[test]
    fn users_chosen_as_upstream() {
        let c = creds();
        assert_eq!(token(&c, "hook.example.com:8443").as_deref(), Some("exact"));
        assert_eq!(token(&c, "web.ns.svc:443").as_deref(), Some("any-service"));
        assert_eq!(
            token(&c, "plain.example.com:443").as_deref(),
            Some("port-443")
        );
        assert_eq!(token(&c, "plain.example.com:8443").as_deref(), Some("star"));
        assert!(c.for_target("broken.example.com:443").is_err());
        let mut no_star = c.clone();
        no_star.users.remove("*");
        assert_eq!(token(&no_star, "other:443").as_deref(), Some("current"));
        no_star.current = None;
        assert_eq!(token(&no_star, "other:443"), None);
    }

    #[test]
    fn configuration_checked() {
        let text = |cfg: &str| {
            format!(
                "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  configuration:\n{cfg}"
            )
        };
        let relative = text("    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: hooks.yaml\n");
        assert_eq!(
            load(Some(&relative), "ValidatingAdmissionWebhook").unwrap_err(),
            "kubeConfigFile: Invalid value: \"hooks.yaml\": must be an absolute file path"
        );
        assert!(load(Some(&relative), "MutatingAdmissionWebhook")
            .unwrap()
            .is_none());
        let wrong = text("    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmission\n    kubeConfigFile: /x\n");
        assert!(load(Some(&wrong), "ValidatingAdmissionWebhook")
            .unwrap_err()
            .starts_with("no kind \"WebhookAdmission\" is registered for version \"apiserver.config.k8s.io/v1\""));
        let dir = tempfile::tempdir().unwrap();
        let kubeconfig = dir.path().join("hooks.yaml");
        std::fs::write(dir.path().join("token"), "from-file\n").unwrap();
        std::fs::write(
            &kubeconfig,
            "users:\n- name: '*'\n  user:\n    tokenFile: token\n",
        )
        .unwrap();
        let good = text(&format!(
            "    apiVersion: apiserver.config.k8s.io/v1alpha1\n    kind: WebhookAdmission\n    kubeConfigFile: {}\n",
            kubeconfig.display()
        ));
        let c = load(Some(&good), "ValidatingAdmissionWebhook")
            .unwrap()
            .unwrap();
        assert_eq!(token(&c, "anything:443").as_deref(), Some("from-file"));
    }
}
