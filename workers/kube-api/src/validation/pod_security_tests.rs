use super::*;
use crate::validation::causes::messages;
use serde_json::json;

fn pod_level(spec: Value) -> Vec<String> {
    let mut out = Vec::new();
    pod_context(&spec, "spec", &mut out);
    crate::validation::pod_os::host_users(&spec, "spec", &mut out);
    crate::validation::pod_os::host_process(&spec, "spec", &mut out);
    crate::validation::pod_os::os(&spec, "spec", &mut out);
    messages(&out)
}

#[test]
fn sysctls_ranges_and_policies() {
    assert_eq!(
        pod_level(json!({"hostNetwork": true, "hostIPC": true, "hostPID": true,
            "shareProcessNamespace": true,
            "securityContext": {"runAsUser": -1, "runAsGroup": 2147483648_i64, "fsGroup": -5,
                "supplementalGroups": [1, -2], "fsGroupChangePolicy": "Sometimes",
                "supplementalGroupsPolicy": "Loose", "seLinuxChangePolicy": "MountOption",
                "sysctls": [{"name": "net.core.somaxconn"}, {"name": "kernel.shmmax"},
                    {"name": "kernel.shmmax"}, {"name": "Bad"}, {"name": "net/ipv4/ip_forward"}]}})),
        [
            "spec.securityContext.fsGroup: Invalid value: -5: must be between 0 and 2147483647, inclusive",
            "spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive",
            "spec.securityContext.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
            "spec.securityContext.supplementalGroups[1]: Invalid value: -2: must be between 0 and 2147483647, inclusive",
            "spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled",
            "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
            "spec.securityContext.sysctls[1].name: Invalid value: \"kernel.shmmax\": may not be specified when 'hostIPC' is true",
            "spec.securityContext.sysctls[2].name: Duplicate value: \"kernel.shmmax\"",
            "spec.securityContext.sysctls[2].name: Invalid value: \"kernel.shmmax\": may not be specified when 'hostIPC' is true",
            "spec.securityContext.sysctls[3].name: Invalid value: \"Bad\": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$",
            "spec.securityContext.sysctls[4].name: Invalid value: \"net/ipv4/ip_forward\": may not be specified when 'hostNetwork' is true",
            "spec.securityContext.fsGroupChangePolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnRootMismatch\"",
            "spec.securityContext.supplementalGroupsPolicy: Unsupported value: \"Loose\": supported values: \"Merge\", \"Strict\"",
            "spec.securityContext.seLinuxChangePolicy: Unsupported value: \"MountOption\": supported values: \"Recursive\"",
        ]
    );
}

#[test]
fn profiles_windows_options_and_os() {
    assert_eq!(
        pod_level(json!({"os": {"name": "linux"}, "securityContext": {
            "seccompProfile": {"type": "Localhost"},
            "appArmorProfile": {"type": "Localhost", "localhostProfile": " p"},
            "windowsOptions": {"runAsUserName": "a\\b\\c"}}})),
        [
            "spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost",
            "spec.securityContext.windowsOptions.runAsUserName: Invalid value: \"a\\\\b\\\\c\": runAsUserName cannot contain more than one backslash",
            "spec.securityContext.appArmorProfile.localhostProfile: Invalid value: \" p\": must not be padded with whitespace",
            "spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
        ]
    );
    assert_eq!(
        pod_level(json!({"os": {"name": "plan9"},
            "securityContext": {"windowsOptions": {"runAsUserName": "dom.ain\\..", "gmsaCredentialSpec": ""}}})),
        [
            "spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: \"\": gmsaCredentialSpec cannot be an empty string",
            "spec.securityContext.windowsOptions.runAsUserName: Invalid value: \"dom.ain\\\\..\": runAsUserName's User cannot contain only periods or spaces",
            "spec.os: Unsupported value: \"plan9\": supported values: \"linux\", \"windows\"",
        ]
    );
    assert_eq!(
        pod_level(json!({"os": {"name": "windows"}, "hostPID": true,
            "securityContext": {"runAsUser": 1000, "seccompProfile": {"type": "RuntimeDefault"},
                "sysctls": [{"name": "kernel.shm_rmid_forced"}]},
            "containers": [{"name": "c", "securityContext": {"privileged": false, "runAsGroup": 10}}]})),
        [
            "spec.hostPID: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod",
            "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
            "spec.containers[0].securityContext.runAsGroup: Forbidden: cannot be set for a windows pod",
        ]
    );
}

#[test]
fn host_users_and_host_process() {
    assert_eq!(
        pod_level(
            json!({"hostUsers": false, "hostNetwork": true, "hostPID": true, "hostIPC": true})
        ),
        [
            "spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false",
            "spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false",
            "spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false",
        ]
    );
    assert_eq!(
        pod_level(json!({"securityContext": {"windowsOptions": {"hostProcess": true}},
            "containers": [{"name": "a"},
                {"name": "b", "securityContext": {"windowsOptions": {"hostProcess": false}}}]})),
        [
            "spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
            "spec: Invalid value: \"\": If pod contains any hostProcess containers then all containers must be HostProcess containers",
            "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
            "spec: Forbidden: hostProcess containers are disallowed by cluster policy",
        ]
    );
}

#[test]
fn container_contexts() {
    let mut out = Vec::new();
    container_context(
        &json!({"securityContext": {"privileged": true, "allowPrivilegeEscalation": false,
            "runAsUser": -1, "procMount": "Unmasked", "seccompProfile": {"type": "RuntimeDefault", "localhostProfile": "x"},
            "capabilities": {"add": ["CAP_SYS_ADMIN"]}, "appArmorProfile": {"type": "Foo"}}}),
        "spec.containers[0]",
        true,
        &mut out,
    );
    let got = messages(&out);
    let c = "spec.containers[0].securityContext";
    assert_eq!(
        got[0],
        format!("{c}.privileged: Forbidden: disallowed by cluster policy")
    );
    assert_eq!(
        got[1],
        format!("{c}.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive")
    );
    assert_eq!(got[2], format!("{c}.procMount: Invalid value: \"Unmasked\": `hostUsers` must be false to use `Unmasked`"));
    assert_eq!(got[3], format!("{c}.seccompProfile.localhostProfile: Invalid value: core.SeccompProfile{{Type:\"RuntimeDefault\", LocalhostProfile:(*string)(0xc000000000)}}: can only be set when seccomp type is Localhost"));
    assert!(got[4].starts_with(&format!("{c}: Invalid value: core.SecurityContext{{Capabilities:(*core.Capabilities)(0xc000000000), Privileged:(*bool)(0xc000000000), SELinuxOptions:(*core.SELinuxOptions)(nil)")), "{}", got[4]);
    assert!(
        got[4].ends_with("cannot set `allowPrivilegeEscalation` to false and `privileged` to true")
    );
    assert!(got[5].ends_with(
        "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"
    ));
    assert_eq!(got[6], format!("{c}.appArmorProfile.type: Unsupported value: \"Foo\": supported values: \"Localhost\", \"RuntimeDefault\", \"Unconfined\""));
    assert_eq!(got.len(), 7);
}
