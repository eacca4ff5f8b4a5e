//! The admission flags (`--enable-admission-plugins`, `--disable-admission-plugins`, the
//! deprecated `--admission-control`, `--admission-control-config-file`, the
//! DefaultTolerationSeconds plugin's flags) and `--allow-privileged`, checked as
//! kube-apiserver v1.33 checks them and resolved into the plugins that run; the kube-api
//! and extensions workers build their admission chain from them (`kas-admission`).

use std::path::PathBuf;

use crate::options::Options;
use crate::validate::FlagError;

/// kube-apiserver v1.33's admission plugins, in the order they run.
pub(crate) const ORDERED_PLUGINS: &[&str] = &[
    "AlwaysAdmit",
    "NamespaceAutoProvision",
    "NamespaceLifecycle",
    "NamespaceExists",
    "LimitPodHardAntiAffinityTopology",
    "LimitRanger",
    "ServiceAccount",
    "NodeRestriction",
    "TaintNodesByCondition",
    "AlwaysPullImages",
    "ImagePolicyWebhook",
    "PodSecurity",
    "PodNodeSelector",
    "Priority",
    "DefaultTolerationSeconds",
    "PodTolerationRestriction",
    "EventRateLimit",
    "ExtendedResourceToleration",
    "DefaultStorageClass",
    "StorageObjectInUseProtection",
    "OwnerReferencesPermissionEnforcement",
    "PersistentVolumeClaimResize",
    "RuntimeClass",
    "CertificateApproval",
    "CertificateSigning",
    "ClusterTrustBundleAttest",
    "CertificateSubjectRestriction",
    "DefaultIngressClass",
    "DenyServiceExternalIPs",
    "PodTopologyLabels",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionWebhook",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionWebhook",
    "ResourceQuota",
    "AlwaysDeny",
];

/// The plugins kube-apiserver v1.33 enables when no flag says otherwise.
pub(crate) const DEFAULT_ON: &[&str] = &[
    "NamespaceLifecycle",
    "LimitRanger",
    "ServiceAccount",
    "DefaultStorageClass",
    "PersistentVolumeClaimResize",
    "DefaultTolerationSeconds",
    "MutatingAdmissionWebhook",
    "ValidatingAdmissionWebhook",
    "ResourceQuota",
    "StorageObjectInUseProtection",
    "Priority",
    "TaintNodesByCondition",
    "RuntimeClass",
    "CertificateApproval",
    "CertificateSigning",
    "ClusterTrustBundleAttest",
    "CertificateSubjectRestriction",
    "DefaultIngressClass",
    "PodSecurity",
    "PodTopologyLabels",
    "MutatingAdmissionPolicy",
    "ValidatingAdmissionPolicy",
];

/// The admission settings, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AdmissionFlags {
    /// The plugins that run, in [`ORDERED_PLUGINS`] order.
    pub(crate) plugins: Vec<&'static str>,
    /// `--admission-control-config-file` and its content, read at start.
    pub(crate) config_file: Option<(PathBuf, String)>,
    /// DefaultTolerationSeconds: `--default-not-ready-toleration-seconds`.
    pub(crate) default_not_ready_toleration_seconds: i64,
    /// DefaultTolerationSeconds: `--default-unreachable-toleration-seconds`.
    pub(crate) default_unreachable_toleration_seconds: i64,
    /// `--allow-privileged`.
    pub(crate) allow_privileged: bool,
}

fn error(flag: &'static str, message: String) -> FlagError {
    FlagError { flag, message }
}

/// Checks the admission flags; every problem goes to `errs`.
pub(crate) fn validate(o: &Options, errs: &mut Vec<FlagError>) -> AdmissionFlags {
    const ENABLE: &str = "--enable-admission-plugins";
    const DISABLE: &str = "--disable-admission-plugins";
    const CONTROL: &str = "--admission-control";
    let known = |name: &str| ORDERED_PLUGINS.contains(&name);

    if o.admission_control.is_some()
        && (o.enable_admission_plugins.is_some() || o.disable_admission_plugins.is_some())
    {
        errs.push(error(
            CONTROL,
            "admission-control and enable-admission-plugins/disable-admission-plugins flags \
             are mutually exclusive"
                .into(),
        ));
    }
    let control = o.admission_control.as_deref().unwrap_or_default();
    let enable = o.enable_admission_plugins.as_deref().unwrap_or_default();
    let disable = o.disable_admission_plugins.as_deref().unwrap_or_default();
    for (flag, names) in [(CONTROL, control), (ENABLE, enable), (DISABLE, disable)] {
        for name in names.iter().filter(|n| !known(n)) {
            let what = flag.trim_start_matches('-');
            errs.push(error(flag, format!("{what} plugin {name:?} is unknown")));
        }
    }
    let mut overlap: Vec<&str> = enable
        .iter()
        .filter(|n| disable.contains(n))
        .map(String::as_str)
        .collect();
    overlap.sort_unstable();
    overlap.dedup();
    if !overlap.is_empty() {
        errs.push(error(
            ENABLE,
            format!(
                "[{}] in enable-admission-plugins and disable-admission-plugins overlapped",
                overlap.join(" ")
            ),
        ));
    }

    // As upstream: --admission-control names exactly the plugins that run; otherwise the
    // defaults, minus what is disabled, plus what is enabled (enabling wins).
    let on = |plugin: &str| match &o.admission_control {
        Some(names) => names.iter().any(|n| n == plugin),
        None => {
            enable.iter().any(|n| n == plugin)
                || (DEFAULT_ON.contains(&plugin) && !disable.iter().any(|n| n == plugin))
        }
    };
    let plugins: Vec<&'static str> = ORDERED_PLUGINS.iter().copied().filter(|p| on(p)).collect();

    const CONFIG: &str = "--admission-control-config-file";
    let config_file = o.admission_control_config_file.as_ref().and_then(|path| {
        match std::fs::read_to_string(path) {
            Ok(text) => Some((path.clone(), absolute_plugin_paths(path, text))),
            Err(e) => {
                errs.push(error(
                    CONFIG,
                    format!("failed to read plugin config: {}: {e}", path.display()),
                ));
                None
            }
        }
    });
    let text = config_file.as_ref().map(|(_, t)| t.as_str());
    if let Err(e) = kas_admission::check_config_file(text, &plugins) {
        errs.push(error(
            CONFIG,
            format!("failed to initialize admission: {e}"),
        ));
    }

    AdmissionFlags {
        plugins,
        config_file,
        default_not_ready_toleration_seconds: o.default_not_ready_toleration_seconds,
        default_unreachable_toleration_seconds: o.default_unreachable_toleration_seconds,
        allow_privileged: o.allow_privileged,
    }
}

/// The AdmissionConfiguration `text` of the file at `path` with each plugin's relative
/// `path` made absolute against the file's directory, as kube-apiserver resolves them
/// (the workers read them from elsewhere); the text unchanged when it does not parse.
fn absolute_plugin_paths(path: &std::path::Path, text: String) -> String {
    let Ok(mut doc) = serde_yaml_ng::from_str::<serde_json::Value>(&text) else {
        return text;
    };
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let mut changed = false;
    if let Some(plugins) = doc
        .get_mut("plugins")
        .and_then(serde_json::Value::as_array_mut)
    {
        for p in plugins {
            let Some(rel) = p.get("path").and_then(serde_json::Value::as_str) else {
                continue;
            };
            if !rel.is_empty() && std::path::Path::new(rel).is_relative() {
                let abs = dir.join(rel).display().to_string();
                p["path"] = serde_json::Value::String(abs);
                changed = true;
            }
        }
    }
    if !changed {
        return text;
    }
    serde_json::to_string(&doc).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn check(args: &[&str]) -> (AdmissionFlags, Vec<String>) {
        let o =
            Options::try_parse_from(std::iter::once("kube-apiserver").chain(args.iter().copied()))
                .expect("parse");
        let mut errs = Vec::new();
        let flags = validate(&o, &mut errs);
        (flags, errs.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn pod_security_configuration_checked_at_start_with_paths_from_the_file() {
        let dir = tempfile::tempdir().expect("dir");
        let admission = dir.path().join("admission.yaml");
        std::fs::write(
            &admission,
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: psa.yaml\n",
        )
        .expect("write");
        let psa = dir.path().join("psa.yaml");
        std::fs::write(&psa, "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: strict\n").expect("write");
        let flag = format!("--admission-control-config-file={}", admission.display());
        let (_, errs) = check(&[&flag]);
        assert!(
            errs.iter().any(|e| e.contains(
                "failed to initialize admission: couldn't init admission plugin \"PodSecurity\""
            ) && e.contains("strict")),
            "{errs:?}"
        );
        std::fs::write(&psa, "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n").expect("write");
        let (flags, errs) = check(&[&flag]);
        assert!(errs.is_empty(), "{errs:?}");
        let (_, text) = flags.config_file.expect("read");
        assert!(text.contains(&psa.display().to_string()), "{text}");
        // Disabled, PodSecurity's part is not looked at.
        std::fs::write(&psa, "nonsense: [").expect("write");
        let (_, errs) = check(&[&flag, "--disable-admission-plugins=PodSecurity"]);
        assert!(errs.is_empty(), "{errs:?}");
    }

    #[test]
    fn event_rate_limit_needs_its_configuration() {
        let (_, errs) = check(&["--enable-admission-plugins=EventRateLimit"]);
        assert!(
            errs.iter().any(|e| e.contains("couldn't init admission plugin \"EventRateLimit\": limits: Invalid value: \"null\": must not be empty")),
            "{errs:?}"
        );
    }

    #[test]
    fn tables_agree() {
        assert_eq!(ORDERED_PLUGINS.len(), 36);
        assert_eq!(DEFAULT_ON.len(), 22);
        for p in DEFAULT_ON {
            assert!(ORDERED_PLUGINS.contains(p), "{p}");
        }
    }

    #[test]
    fn defaults_enable_and_disable() {
        let (flags, errs) = check(&[]);
        assert!(errs.is_empty());
        assert_eq!(flags.plugins.len(), DEFAULT_ON.len());
        assert_eq!(flags.plugins.first(), Some(&"NamespaceLifecycle"));
        assert_eq!(flags.plugins.last(), Some(&"ResourceQuota"));
        assert!(!flags.allow_privileged);
        assert_eq!(flags.default_not_ready_toleration_seconds, 300);

        // envtest's default.
        let (flags, errs) = check(&[
            "--disable-admission-plugins=ServiceAccount",
            "--allow-privileged=true",
        ]);
        assert!(errs.is_empty());
        assert!(!flags.plugins.contains(&"ServiceAccount"));
        assert!(flags.allow_privileged);

        // kubeadm's default; a repeated list flag adds to the list.
        let (flags, errs) = check(&[
            "--enable-admission-plugins=NodeRestriction",
            "--enable-admission-plugins",
            "AlwaysPullImages,OwnerReferencesPermissionEnforcement",
        ]);
        assert!(errs.is_empty(), "{errs:?}");
        for p in [
            "NodeRestriction",
            "AlwaysPullImages",
            "OwnerReferencesPermissionEnforcement",
            "ServiceAccount",
        ] {
            assert!(flags.plugins.contains(&p), "{p}");
        }
        // In upstream's order, not the flag's.
        let pos = |p| flags.plugins.iter().position(|x| *x == p);
        assert!(pos("ServiceAccount") < pos("NodeRestriction"));

        let (flags, _) = check(&["--admission-control=NodeRestriction,AlwaysAdmit"]);
        assert_eq!(flags.plugins, ["AlwaysAdmit", "NodeRestriction"]);
    }

    #[test]
    fn upstream_errors() {
        let (_, errs) = check(&[
            "--enable-admission-plugins=NodeRestriction,Foo,ServiceAccount,AlwaysDeny",
            "--disable-admission-plugins=Bar,ServiceAccount,NodeRestriction",
            "--admission-control=Baz",
            "--admission-control-config-file=/nonexistent/admission.yaml",
        ]);
        for want in [
            "admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive",
            "enable-admission-plugins plugin \"Foo\" is unknown",
            "disable-admission-plugins plugin \"Bar\" is unknown",
            "admission-control plugin \"Baz\" is unknown",
            "[NodeRestriction ServiceAccount] in enable-admission-plugins and disable-admission-plugins overlapped",
            "--admission-control-config-file",
        ] {
            assert!(errs.iter().any(|e| e.contains(want)), "{want} not in {errs:?}");
        }
        assert_eq!(errs.len(), 6, "{errs:?}");
    }
}
