//! PodSecurity's configuration: the `PodSecurity` entry of the AdmissionConfiguration in
//! `--admission-control-config-file` (inline `configuration`, or a `path` to a file), a
//! PodSecurityConfiguration (pod-security.admission.config.k8s.io v1, v1beta1, v1alpha1)
//! with upstream's defaults (privileged:latest for every mode) and validation.

use serde_json::Value;

use super::checks::{Level, LevelVersion, Version};

/// The policy of a namespace: a level and version per mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Refuses pods.
    pub(crate) enforce: LevelVersion,
    /// Annotates the audit event.
    pub(crate) audit: LevelVersion,
    /// Warns the client.
    pub(crate) warn: LevelVersion,
}

impl Policy {
    /// privileged:latest for every mode.
    pub(crate) fn privileged() -> Policy {
        let lv = LevelVersion {
            level: Level::Privileged,
            version: Version::Latest,
        };
        Policy {
            enforce: lv,
            audit: lv,
            warn: lv,
        }
    }
}

/// PodSecurity's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Config {
    /// The policy of namespaces without labels.
    pub(crate) defaults: Policy,
    /// Users whose requests are not checked.
    pub(crate) usernames: Vec<String>,
    /// Namespaces not checked.
    pub(crate) namespaces: Vec<String>,
    /// Runtime classes not checked.
    pub(crate) runtime_classes: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            defaults: Policy::privileged(),
            usernames: Vec::new(),
            namespaces: Vec::new(),
            runtime_classes: Vec::new(),
        }
    }
}

const WHERE: &str = "--admission-control-config-file";

/// PodSecurity's configuration from the AdmissionConfiguration text, if any.
pub(crate) fn load(admission_config: Option<&str>) -> Result<Config, String> {
    let Some(text) = admission_config else {
        return Ok(Config::default());
    };
    let doc: Value = serde_yaml_ng::from_str(text)
        .map_err(|e| format!("{WHERE}: not an AdmissionConfiguration: {e}"))?;
    let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
    let known = matches!(
        api_version,
        "apiserver.config.k8s.io/v1"
            | "apiserver.config.k8s.io/v1alpha1"
            | "apiserver.k8s.io/v1alpha1"
    );
    if kind != "AdmissionConfiguration" || !known {
        return Err(format!(
            "{WHERE}: expected kind AdmissionConfiguration of apiserver.config.k8s.io/v1, got {kind:?} of {api_version:?}"
        ));
    }
    let entry = doc
        .get("plugins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|p| p.get("name").and_then(Value::as_str) == Some("PodSecurity"));
    let Some(entry) = entry else {
        return Ok(Config::default());
    };
    let (config, source) = match (entry.get("configuration"), entry.get("path")) {
        (Some(c), _) if !c.is_null() => (c.clone(), format!("{WHERE} (plugin PodSecurity)")),
        (_, Some(Value::String(path))) if !path.is_empty() => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                format!("PodSecurity: unable to read configuration from {path:?}: {e}")
            })?;
            let v: Value =
                serde_yaml_ng::from_str(&text).map_err(|e| format!("PodSecurity: {path}: {e}"))?;
            (v, path.clone())
        }
        _ => return Ok(Config::default()),
    };
    parse(&config).map_err(|e| format!("PodSecurity: {source}: {e}"))
}

/// A PodSecurityConfiguration, defaulted and validated as upstream's.
fn parse(doc: &Value) -> Result<Config, String> {
    let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
    let known = matches!(
        api_version,
        "pod-security.admission.config.k8s.io/v1"
            | "pod-security.admission.config.k8s.io/v1beta1"
            | "pod-security.admission.config.k8s.io/v1alpha1"
    );
    if kind != "PodSecurityConfiguration" || !known {
        return Err(format!(
            "expected PodSecurityConfiguration of pod-security.admission.config.k8s.io/v1, got {kind:?} of {api_version:?}"
        ));
    }
    let mut errs = Vec::new();
    let text = |path: &str, default: &str| -> String {
        doc.pointer(path)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or(default)
            .to_owned()
    };
    let mut mode = |mode: &str| -> LevelVersion {
        let level = text(&format!("/defaults/{mode}"), "privileged");
        let version = text(&format!("/defaults/{mode}-version"), "latest");
        let level = Level::parse(&level).unwrap_or_else(|why| {
            errs.push(format!("defaults.{mode}: Invalid value: {level:?}: {why}"));
            Level::Restricted
        });
        let version = Version::parse(&version).unwrap_or_else(|why| {
            errs.push(format!(
                "defaults.{mode}-version: Invalid value: {version:?}: {why}"
            ));
            Version::Latest
        });
        LevelVersion { level, version }
    };
    let (enforce, warn, audit) = (mode("enforce"), mode("warn"), mode("audit"));
    let list = |key: &str, errs: &mut Vec<String>, check: fn(&str) -> Option<String>| {
        let mut out: Vec<String> = Vec::new();
        let items = doc
            .pointer(&format!("/exemptions/{key}"))
            .and_then(Value::as_array);
        for (i, item) in items.into_iter().flatten().enumerate() {
            let s = item.as_str().unwrap_or("");
            if let Some(why) = check(s) {
                errs.push(format!(
                    "exemptions.{key}[{i}]: Invalid value: {s:?}: {why}"
                ));
            } else if out.iter().any(|o| o == s) {
                errs.push(format!("exemptions.{key}[{i}]: Duplicate value: {s:?}"));
            } else {
                out.push(s.to_owned());
            }
        }
        out
    };
    let namespaces = list("namespaces", &mut errs, |s| {
        (!is_dns_label(s)).then(|| DNS_LABEL_MSG.to_owned())
    });
    let runtime_classes = list("runtimeClasses", &mut errs, |s| {
        (!is_dns_subdomain(s)).then(|| DNS_SUBDOMAIN_MSG.to_owned())
    });
    let usernames = list("usernames", &mut errs, |s| {
        s.is_empty()
            .then(|| "username must not be empty".to_owned())
    });
    match errs.len() {
        0 => Ok(Config {
            defaults: Policy {
                enforce,
                audit,
                warn,
            },
            usernames,
            namespaces,
            runtime_classes,
        }),
        1 => Err(errs.remove(0)),
        _ => Err(format!("[{}]", errs.join(", "))),
    }
}

const DNS_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn is_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b.first() != Some(&b'-')
        && b.last() != Some(&b'-')
}

fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns_label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_inline_configuration() {
        assert_eq!(load(None), Ok(Config::default()));
        let text = "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults:\n      enforce: baseline\n      warn-version: v1.30\n    exemptions:\n      usernames: [alice]\n      namespaces: [kube-system]\n";
        let c = load(Some(text)).expect("loads");
        assert_eq!(c.defaults.enforce.to_string(), "baseline:latest");
        assert_eq!(c.defaults.warn.to_string(), "privileged:v1.30");
        assert_eq!(c.usernames, ["alice"]);
        assert_eq!(c.namespaces, ["kube-system"]);
        // Another plugin only: the defaults.
        let other = "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: /nowhere\n";
        assert_eq!(load(Some(other)), Ok(Config::default()));
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let bad = "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults:\n      enforce: strict\n    exemptions:\n      usernames: [bob, bob]\n";
        let err = load(Some(bad)).expect_err("invalid");
        assert_eq!(err, "PodSecurity: --admission-control-config-file (plugin PodSecurity): [defaults.enforce: Invalid value: \"strict\": must be one of privileged, baseline, restricted, exemptions.usernames[1]: Duplicate value: \"bob\"]");
        let missing = "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: /does/not/exist.yaml\n";
        let err = load(Some(missing)).expect_err("missing file");
        assert!(
            err.starts_with(
                "PodSecurity: unable to read configuration from \"/does/not/exist.yaml\""
            ),
            "{err}"
        );
        assert!(load(Some("kind: Pod")).is_err());
    }
}
