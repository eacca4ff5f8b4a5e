//! A write of a pod's `status` as kube-apiserver 1.33 validates it
//! (`ValidatePodStatusUpdate`): not the spec (the status strategy keeps the stored one),
//! but the conditions, the nominated node, the observed generation, the fixed QoS
//! class, container states that may not leave `terminated` when the pod does not
//! restart them, and pod and host IPs (valid unless already stored, one per family);
//! container users, device health and claim statuses in `pod_status_containers`.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, each_invalid, forbidden, invalid, invalid_int, invalid_shown,
    qualified_name_msgs, s, sloppy_ip, text,
};

const IP_MSG: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/// `status.<key>` (podIPs or hostIPs): valid addresses (a stored one may stay), at most
/// one per family.
fn ips(new: &Value, old: &Value, key: &str, out: &mut Vec<StatusCause>) {
    let at = format!("status.{key}");
    let list = new
        .pointer(&format!("/status/{key}"))
        .and_then(Value::as_array);
    let Some(list) = list.filter(|l| !l.is_empty()) else {
        return;
    };
    let stored: Vec<&str> = old
        .pointer(&format!("/status/{key}"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| text(p, "ip"))
        .collect();
    let mut parsed = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let ip = text(p, "ip");
        match sloppy_ip(ip) {
            Some(addr) => parsed.push(addr),
            None if stored.contains(&ip) => {}
            None => out.push(invalid(&format!("{at}[{i}]"), ip, IP_MSG)),
        }
    }
    if list.len() > 1 {
        let v4 = parsed.iter().filter(|a| a.is_ipv4()).count();
        let dual = parsed.len() == 2 && v4 == 1;
        if !dual || list.len() > 2 {
            let shown: Vec<String> = list
                .iter()
                .map(|p| {
                    format!(
                        "core.{}{{IP:\"{}\"}}",
                        if key == "podIPs" { "PodIP" } else { "HostIP" },
                        text(p, "ip")
                    )
                })
                .collect();
            let ty = if key == "podIPs" { "PodIP" } else { "HostIP" };
            out.push(invalid_shown(
                &at,
                &format!("[]core.{ty}{{{}}}", shown.join(", ")),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
}

/// Containers (`key` of the status) that leave `terminated` though they may not.
fn transitions(new: &Value, old: &Value, key: &str, restart: &str, out: &mut Vec<StatusCause>) {
    if restart == "Always" {
        return;
    }
    let sidecars: Vec<&str> = arr(&old["spec"], "initContainers")
        .iter()
        .filter(|c| s(c, "restartPolicy") == Some("Always"))
        .map(|c| text(c, "name"))
        .collect();
    let news = new
        .pointer(&format!("/status/{key}"))
        .and_then(Value::as_array);
    let olds = old
        .pointer(&format!("/status/{key}"))
        .and_then(Value::as_array);
    for (i, o) in olds.into_iter().flatten().enumerate() {
        let Some(term) = o.pointer("/state/terminated").filter(|t| !t.is_null()) else {
            continue;
        };
        let failed = term.get("exitCode").and_then(Value::as_i64).unwrap_or(0) != 0;
        if failed && restart == "OnFailure" {
            continue;
        }
        if key == "initContainerStatuses" && sidecars.contains(&text(o, "name")) {
            continue;
        }
        for n in news.into_iter().flatten() {
            let running = n.pointer("/state/terminated").is_none_or(Value::is_null);
            if text(n, "name") == text(o, "name") && running {
                out.push(forbidden(
                    &format!("status.{key}[{i}].state"),
                    "may not be transitioned to non-terminated state",
                ));
            }
        }
    }
}

/// ValidatePodStatusUpdate.
pub(crate) fn pod_status(new: &Value, old: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    super::pod_update::annotation_updates(new, old, &mut out);
    let conditions = new.pointer("/status/conditions").and_then(Value::as_array);
    for (i, c) in conditions.into_iter().flatten().enumerate() {
        if let Some(g) = c
            .get("observedGeneration")
            .and_then(Value::as_i64)
            .filter(|g| *g < 0)
        {
            out.push(invalid_int(
                &format!("status.conditions[{i}].observedGeneration"),
                g,
                "must be a non-negative integer",
            ));
        }
        let t = text(c, "type");
        if !["PodScheduled", "Ready", "Initialized"].contains(&t) {
            let at = format!("status.conditions[{i}].Type");
            out.extend(each_invalid(&at, t, qualified_name_msgs(t)));
        }
    }
    let node = |o: &Value| o.pointer("/spec/nodeName").cloned();
    if node(new) != node(old) {
        out.push(forbidden("status.nodeName", "may not be changed directly"));
    }
    let nominated = |o: &Value| {
        o.pointer("/status/nominatedNodeName")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let n = nominated(new);
    if n != nominated(old) && !n.is_empty() {
        out.extend(each_invalid(
            "status.nominatedNodeName",
            &n,
            dns_subdomain_msgs(&n),
        ));
    }
    if let Some(g) = new
        .pointer("/status/observedGeneration")
        .and_then(Value::as_i64)
        .filter(|g| *g < 0)
    {
        out.push(invalid_int(
            "status.observedGeneration",
            g,
            "must be a non-negative integer",
        ));
    }
    let qos = |o: &Value| o.pointer("/status/qosClass").cloned();
    if qos(new) != qos(old) {
        let shown = new
            .pointer("/status/qosClass")
            .and_then(Value::as_str)
            .unwrap_or("");
        out.push(invalid("status.qosClass", shown, "field is immutable"));
    }
    let restart = old
        .pointer("/spec/restartPolicy")
        .and_then(Value::as_str)
        .unwrap_or("");
    transitions(new, old, "containerStatuses", restart, &mut out);
    transitions(new, old, "initContainerStatuses", restart, &mut out);
    transitions(new, old, "ephemeralContainerStatuses", "Never", &mut out);
    ips(new, old, "podIPs", &mut out);
    ips(new, old, "hostIPs", &mut out);
    super::pod_status_containers::container_statuses(new, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    #[test]
    fn status_writes_follow_upstream() {
        let old = json!({"spec": {"restartPolicy": "Never", "nodeName": "n"},
            "status": {"qosClass": "BestEffort", "podIPs": [{"ip": "bad-but-stored"}],
                "containerStatuses": [{"name": "c", "state": {"terminated": {"exitCode": 0}}}]}});
        let new = json!({"spec": {"restartPolicy": "Never", "nodeName": "n"},
            "status": {"qosClass": "Burstable", "nominatedNodeName": "Node_1", "observedGeneration": -1,
                "conditions": [{"type": "Ready"}, {"type": "a b", "observedGeneration": -2}],
                "podIPs": [{"ip": "bad-but-stored"}, {"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}],
                "containerStatuses": [{"name": "c", "state": {"running": {}}}]}});
        let got = messages(&pod_status(&new, &old));
        assert_eq!(got[0], "status.conditions[1].observedGeneration: Invalid value: -2: must be a non-negative integer");
        assert!(got[1].starts_with(
            "status.conditions[1].Type: Invalid value: \"a b\": name part must consist"
        ));
        assert!(got[2].starts_with(
            "status.nominatedNodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain"
        ));
        assert_eq!(
            got[3..],
            [
                "status.observedGeneration: Invalid value: -1: must be a non-negative integer",
                "status.qosClass: Invalid value: \"Burstable\": field is immutable",
                "status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state",
                "status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:\"bad-but-stored\"}, core.PodIP{IP:\"10.0.0.1\"}, core.PodIP{IP:\"10.0.0.2\"}}: may specify no more than one IP for each IP family",
            ]
        );
        let mut ok = old.clone();
        ok["status"]["podIPs"] = json!([{"ip": "10.0.0.1"}, {"ip": "fd00::1"}]);
        ok["status"]["containerStatuses"][0]["state"] = json!({"terminated": {"exitCode": 0}});
        assert!(
            pod_status(&ok, &old).is_empty(),
            "{:?}",
            messages(&pod_status(&ok, &old))
        );
    }
}
