//! Unit tests: the checks' wording and order, versions, label parsing, updates.

use serde_json::json;

use super::checks::{details, evaluate, reasons, Level, LevelVersion, Version};
use super::config::Policy;
use super::*;

fn lv(s: &str) -> LevelVersion {
    let (level, version) = s.split_once(':').expect("level:version");
    LevelVersion {
        level: Level::parse(level).expect("level"),
        version: Version::parse(version).expect("version"),
    }
}

fn check(level: &str, spec: Value) -> String {
    details(&evaluate(lv(level), &json!({}), &spec))
}

#[test]
fn restricted_message_of_a_plain_pod() {
    let spec = json!({"containers": [{"name": "c", "image": "nginx"}]});
    assert_eq!(
        check("restricted:latest", spec.clone()),
        "allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"
    );
    assert_eq!(check("baseline:latest", spec.clone()), "");
    assert_eq!(check("privileged:latest", spec), "");
    let good = json!({
        "securityContext": {"runAsNonRoot": true, "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [{"name": "c", "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}}}],
    });
    assert_eq!(check("restricted:latest", good), "");
}

#[test]
fn baseline_checks_in_order() {
    let spec = json!({
        "hostNetwork": true, "hostPID": true,
        "securityContext": {"sysctls": [{"name": "kernel.msgmax"}, {"name": "net.ipv4.tcp_rmem"}], "seLinuxOptions": {"type": "spc_t", "user": "u"}},
        "volumes": [{"name": "h", "hostPath": {"path": "/"}}, {"name": "e", "emptyDir": {}}],
        "initContainers": [{"name": "i", "securityContext": {"procMount": "Unmasked"}}],
        "containers": [
            {"name": "a", "securityContext": {"privileged": true, "capabilities": {"add": ["SYS_ADMIN", "CHOWN", "NET_ADMIN"]}, "seccompProfile": {"type": "Unconfined"}, "appArmorProfile": {"type": "Unconfined"}}, "ports": [{"containerPort": 80, "hostPort": 8080}, {"containerPort": 81, "hostPort": 80}]},
            {"name": "b", "securityContext": {"privileged": true, "windowsOptions": {"hostProcess": true}}},
        ],
    });
    let found = evaluate(lv("baseline:latest"), &json!({}), &spec);
    assert_eq!(
        reasons(&found),
        "forbidden AppArmor profile, non-default capabilities, host namespaces, hostPath volumes, hostPort, privileged, procMount, seLinuxOptions, seccompProfile, forbidden sysctls, hostProcess"
    );
    assert_eq!(
        details(&found),
        "forbidden AppArmor profile (container \"a\" must not set AppArmor profile type to \"Unconfined\"), \
non-default capabilities (container \"a\" must not include \"NET_ADMIN\", \"SYS_ADMIN\" in securityContext.capabilities.add), \
host namespaces (hostNetwork=true, hostPID=true), \
hostPath volumes (volume \"h\"), \
hostPort (container \"a\" uses hostPorts 80, 8080), \
privileged (containers \"a\", \"b\" must not set securityContext.privileged=true), \
procMount (container \"i\" must not set securityContext.procMount to \"Unmasked\"), \
seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type \"spc_t\"; user may not be set), \
seccompProfile (container \"a\" must not set securityContext.seccompProfile.type to \"Unconfined\"), \
forbidden sysctls (kernel.msgmax), \
hostProcess (container \"b\" must not set securityContext.windowsOptions.hostProcess=true)"
    );
    // tcp_rmem is only safe from v1.32.
    let old = evaluate(lv("baseline:v1.31"), &json!({}), &spec);
    assert!(details(&old).contains("forbidden sysctls (kernel.msgmax, net.ipv4.tcp_rmem)"));
}

#[test]
fn restricted_overrides_and_versions() {
    let spec = json!({
        "volumes": [{"name": "h", "hostPath": {"path": "/"}}, {"name": "n", "nfs": {}}],
        "securityContext": {"runAsNonRoot": true, "runAsUser": 0, "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [{"name": "c", "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"], "add": ["SYS_TIME"]}}}],
    });
    assert_eq!(
        check("restricted:latest", spec.clone()),
        "unrestricted capabilities (container \"c\" must not include \"SYS_TIME\" in securityContext.capabilities.add), restricted volume types (volumes \"h\", \"n\" use restricted volume types \"hostPath\", \"nfs\"), runAsUser=0 (pod must not set runAsUser=0)"
    );
    // Before v1.22 the baseline capabilities check applies; before v1.23 no runAsUser.
    assert_eq!(
        check("restricted:v1.21", spec),
        "non-default capabilities (container \"c\" must not include \"SYS_TIME\" in securityContext.capabilities.add), restricted volume types (volumes \"h\", \"n\" use restricted volume types \"hostPath\", \"nfs\")"
    );
    // Windows pods skip the Linux-only restricted checks from v1.25.
    let windows = json!({"os": {"name": "windows"}, "securityContext": {"runAsNonRoot": true}, "containers": [{"name": "w"}]});
    assert_eq!(check("restricted:latest", windows.clone()), "");
    assert!(check("restricted:v1.24", windows).contains("allowPrivilegeEscalation"));
}

#[test]
fn versions_and_levels_parse() {
    assert_eq!(Version::parse("latest"), Ok(Version::Latest));
    assert_eq!(Version::parse("v1.0"), Ok(Version::Minor(0)));
    assert_eq!(Version::parse("v1.33"), Ok(Version::Minor(33)));
    for bad in ["v1.01", "1.2", "v2.0", "v1.", "v1.x", ""] {
        assert_eq!(
            Version::parse(bad),
            Err("must be \"latest\" or \"v1.x\""),
            "{bad}"
        );
    }
    assert_eq!(
        Level::parse("strict"),
        Err("must be one of privileged, baseline, restricted")
    );
    assert_eq!(lv("baseline:v1.30").to_string(), "baseline:v1.30");
}

#[test]
fn labels_to_policy() {
    let ns = |labels: Value| json!({"metadata": {"name": "n", "labels": labels}});
    let defaults = Policy::privileged();
    let (p, errs) = policy_of(
        &ns(json!({"pod-security.kubernetes.io/enforce": "baseline"})),
        &defaults,
    );
    assert!(errs.is_empty());
    assert_eq!(p.enforce.to_string(), "baseline:latest");
    // Warn follows a stricter enforce level.
    assert_eq!(p.warn.to_string(), "baseline:latest");
    assert_eq!(p.audit.to_string(), "privileged:latest");
    let (p, errs) = policy_of(
        &ns(
            json!({"pod-security.kubernetes.io/warn": "nope", "pod-security.kubernetes.io/enforce": "bad", "pod-security.kubernetes.io/enforce-version": "v9"}),
        ),
        &defaults,
    );
    assert_eq!(p.enforce.to_string(), "restricted:latest");
    assert_eq!(p.warn.level, Level::Privileged);
    let fields: Vec<&str> = errs.iter().map(|c| c.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "metadata.labels[pod-security.kubernetes.io/enforce]",
            "metadata.labels[pod-security.kubernetes.io/enforce-version]",
            "metadata.labels[pod-security.kubernetes.io/warn]",
        ]
    );
    assert_eq!(
        errs[0].message,
        "Invalid value: \"bad\": must be one of privileged, baseline, restricted"
    );
}

#[test]
fn only_container_changes_are_significant() {
    let pod = json!({"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}, "status": {"phase": "Running"}});
    let relabelled = json!({"metadata": {"labels": {"a": "c"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}});
    assert!(!significant_update(&relabelled, &pod));
    let new_image = json!({"spec": {"containers": [{"name": "c", "image": "y"}]}});
    assert!(significant_update(&new_image, &pod));
    let debug = json!({"spec": {"containers": [{"name": "c", "image": "x"}], "ephemeralContainers": [{"name": "d", "image": "busybox"}]}});
    assert!(significant_update(&debug, &pod));
}

#[test]
fn templates_by_resource() {
    assert_eq!(template_path("apps", "deployments"), Some("/spec/template"));
    assert_eq!(
        template_path("batch", "cronjobs"),
        Some("/spec/jobTemplate/spec/template")
    );
    assert_eq!(template_path("", "podtemplates"), Some("/template"));
    assert_eq!(template_path("", "configmaps"), None);
}
