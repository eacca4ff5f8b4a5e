//! The parts of a pod status write that name its containers and claims, as
//! kube-apiserver 1.33's ValidatePodStatusUpdate checks them: the user a container runs
//! as (`validateContainerStatusUsers`), the health of the devices allocated to it
//! (`validateContainerStatusAllocatedResourcesStatus`; none for ephemeral containers),
//! and the pod's resource claim statuses (`validatePodResourceClaimStatuses`).

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, duplicate, each_invalid, forbidden, invalid, invalid_int,
    not_supported, s, text,
};

/// Upstream's IsValidUserID / IsValidGroupID range.
const ID_RANGE: &str = "must be between 0 and 2147483647, inclusive";
const HEALTH: [&str; 3] = ["Healthy", "Unhealthy", "Unknown"];

/// Every check of this module for the status written in `new` (the stored spec is the
/// pod's: a status write keeps it).
pub(super) fn container_statuses(new: &Value, out: &mut Vec<StatusCause>) {
    let null = Value::Null;
    let spec = new.get("spec").unwrap_or(&null);
    let status = new.get("status").unwrap_or(&null);
    let os = spec
        .pointer("/os/name")
        .and_then(Value::as_str)
        .unwrap_or("linux");
    for key in [
        "containerStatuses",
        "initContainerStatuses",
        "ephemeralContainerStatuses",
    ] {
        users(arr(status, key), &format!("status.{key}"), os, out);
    }
    allocated(
        arr(status, "containerStatuses"),
        "status.containerStatuses",
        arr(spec, "containers"),
        out,
    );
    allocated(
        arr(status, "initContainerStatuses"),
        "status.initContainerStatuses",
        arr(spec, "initContainers"),
        out,
    );
    for (i, c) in arr(status, "ephemeralContainerStatuses").iter().enumerate() {
        if !arr(c, "allocatedResourcesStatus").is_empty() {
            out.push(forbidden(
                &format!("status.ephemeralContainerStatuses[{i}].allocatedResourcesStatus"),
                "must not be specified in container status",
            ));
        }
    }
    claims(
        arr(status, "resourceClaimStatuses"),
        arr(spec, "resourceClaims"),
        out,
    );
}

/// validateContainerStatusUsers: a Linux pod's user IDs in range; none for Windows.
fn users(statuses: &[Value], at: &str, os: &str, out: &mut Vec<StatusCause>) {
    for (i, c) in statuses.iter().enumerate() {
        let Some(linux) = c.pointer("/user/linux").filter(|l| !l.is_null()) else {
            continue;
        };
        let path = format!("{at}[{i}].user.linux");
        match os {
            "windows" => out.push(forbidden(&path, "cannot be set for a windows pod")),
            "linux" => {
                for field in ["uid", "gid"] {
                    if let Some(id) = linux.get(field).and_then(Value::as_i64) {
                        check_id(&format!("{path}.{field}"), id, out);
                    }
                }
                for (g, gid) in arr(linux, "supplementalGroups").iter().enumerate() {
                    if let Some(id) = gid.as_i64() {
                        check_id(&format!("{path}.supplementalGroups[{g}]"), id, out);
                    }
                }
            }
            _ => {}
        }
    }
}

fn check_id(at: &str, id: i64, out: &mut Vec<StatusCause>) {
    if !(0..=i64::from(i32::MAX)).contains(&id) {
        out.push(invalid_int(at, id, ID_RANGE));
    }
}

/// validateContainerStatusAllocatedResourcesStatus: each entry names one of the
/// container's requests (or claims, as `claim:<name>[/<request>]`); its devices' health
/// is a known value and their IDs are unique.
fn allocated(statuses: &[Value], at: &str, containers: &[Value], out: &mut Vec<StatusCause>) {
    for (i, c) in statuses.iter().enumerate() {
        let name = text(c, "name");
        // A status of a container the spec lacks is not checked (upstream #124915).
        let container = containers.iter().find(|k| text(k, "name") == name);
        for (j, entry) in arr(c, "allocatedResourcesStatus").iter().enumerate() {
            let here = format!("{at}[{i}].allocatedResourcesStatus[{j}]");
            let resource = text(entry, "name");
            if let Some(container) = container {
                let (found, why) = if resource.starts_with("claim:") {
                    let found = arr(&container["resources"], "claims").iter().any(|claim| {
                        let mut full = format!("claim:{}", text(claim, "name"));
                        if let Some(r) = s(claim, "request").filter(|r| !r.is_empty()) {
                            full = format!("{full}/{r}");
                        }
                        full == resource
                    });
                    (found, "must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty")
                } else {
                    let requests = container.pointer("/resources/requests");
                    let found = requests
                        .and_then(Value::as_object)
                        .is_some_and(|r| r.contains_key(resource));
                    (found, "must match one of the container's resource requests")
                };
                if !found {
                    out.push(invalid(&format!("{here}.name"), resource, why));
                }
            }
            let mut ids = HashSet::new();
            for (k, r) in arr(entry, "resources").iter().enumerate() {
                let health = text(r, "health");
                if !HEALTH.contains(&health) {
                    out.push(not_supported(
                        &format!("{here}.resources[{k}].health"),
                        health,
                        &HEALTH,
                    ));
                }
                let id = text(r, "resourceID");
                if !ids.insert(id) {
                    out.push(duplicate(&format!("{here}.resources[{k}].resourceID"), id));
                }
            }
        }
    }
}

/// validatePodResourceClaimStatuses: each names a claim of the spec, once; a generated
/// claim name is a DNS subdomain (reported under `name`, as upstream does).
fn claims(statuses: &[Value], pod_claims: &[Value], out: &mut Vec<StatusCause>) {
    let mut seen = HashSet::new();
    for (i, st) in statuses.iter().enumerate() {
        let at = format!("status.resourceClaimStatuses[{i}].name");
        let name = text(st, "name");
        if !pod_claims.iter().any(|c| text(c, "name") == name) {
            out.push(invalid(
                &at,
                name,
                "must match the name of an entry in `spec.resourceClaims`",
            ));
        }
        if !seen.insert(name) {
            out.push(duplicate(&at, name));
        }
        if let Some(claim) = s(st, "resourceClaimName") {
            out.extend(each_invalid(&at, claim, dns_subdomain_msgs(claim)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    fn check(pod: Value) -> Vec<String> {
        let mut out = Vec::new();
        container_statuses(&pod, &mut out);
        messages(&out)
    }

    #[test]
    fn users_devices_and_claims_as_upstream_checks_them() {
        let pod = json!({
            "spec": {
                "containers": [{"name": "a", "resources": {
                    "requests": {"example.com/gpu": "1"},
                    "claims": [{"name": "c", "request": "r"}]}}],
                "resourceClaims": [{"name": "c"}]},
            "status": {
                "containerStatuses": [{"name": "a",
                    "user": {"linux": {"uid": -1, "gid": 0, "supplementalGroups": [2_147_483_648_i64]}},
                    "allocatedResourcesStatus": [
                        {"name": "example.com/gpu", "resources": [
                            {"resourceID": "g0", "health": "Healthy"},
                            {"resourceID": "g0", "health": "Fine"}]},
                        {"name": "claim:c/r"},
                        {"name": "claim:c"},
                        {"name": "cpu"}]}],
                "ephemeralContainerStatuses": [{"name": "e",
                    "allocatedResourcesStatus": [{"name": "cpu"}]}],
                "resourceClaimStatuses": [
                    {"name": "c", "resourceClaimName": "Bad_Name"},
                    {"name": "c"},
                    {"name": "x"}]}});
        assert_eq!(
            check(pod),
            [
                "status.containerStatuses[0].user.linux.uid: Invalid value: -1: must be between 0 and 2147483647, inclusive",
                "status.containerStatuses[0].user.linux.supplementalGroups[0]: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
                "status.containerStatuses[0].allocatedResourcesStatus[0].resources[1].health: Unsupported value: \"Fine\": supported values: \"Healthy\", \"Unhealthy\", \"Unknown\"",
                "status.containerStatuses[0].allocatedResourcesStatus[0].resources[1].resourceID: Duplicate value: \"g0\"",
                "status.containerStatuses[0].allocatedResourcesStatus[2].name: Invalid value: \"claim:c\": must match one of the container's resource claims in a format 'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty",
                "status.containerStatuses[0].allocatedResourcesStatus[3].name: Invalid value: \"cpu\": must match one of the container's resource requests",
                "status.ephemeralContainerStatuses[0].allocatedResourcesStatus: Forbidden: must not be specified in container status",
                "status.resourceClaimStatuses[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "status.resourceClaimStatuses[1].name: Duplicate value: \"c\"",
                "status.resourceClaimStatuses[2].name: Invalid value: \"x\": must match the name of an entry in `spec.resourceClaims`",
            ]
        );
        let windows = json!({"spec": {"os": {"name": "windows"}},
            "status": {"containerStatuses": [{"name": "a", "user": {"linux": {"uid": 0}}}]}});
        assert_eq!(
            check(windows),
            ["status.containerStatuses[0].user.linux: Forbidden: cannot be set for a windows pod"]
        );
        // A status of a container the spec lacks: its names are not checked.
        let missing = json!({"spec": {}, "status": {"containerStatuses": [{"name": "z",
            "allocatedResourcesStatus": [{"name": "cpu"}]}]}});
        assert!(check(missing).is_empty());
    }
}
