//! Service rules: type, ports (names, numbers, protocols, target and node ports), session
//! affinity, traffic policies, external names and cluster IPs that may not change.

use std::collections::HashSet;
use std::net::IpAddr;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns1035_msgs, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, forbidden,
    invalid, invalid_shown, not_supported, port_name_msgs, port_num, quote, required, s,
};

const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const TYPES: &[&str] = &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];

fn target_port(port: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let field = format!("{p}.targetPort");
    match port.get("targetPort") {
        None | Some(Value::Null) => {}
        Some(Value::String(name)) if name.is_empty() => out.push(required(&field, "")),
        Some(Value::String(name)) => out.extend(each_invalid(&field, name, port_name_msgs(name))),
        Some(v) if v.as_i64() == Some(0) => out.push(required(&field, "")),
        Some(v) => out.extend(port_num(&field, v)),
    }
}

fn ports(spec: &Value, ty: &str, out: &mut Vec<StatusCause>) {
    let list = arr(spec, "ports");
    let headless = s(spec, "clusterIP") == Some("None");
    if list.is_empty() && !headless && ty != "ExternalName" {
        out.push(required("spec.ports", ""));
    }
    let need_name = list.len() > 1;
    let mut names = HashSet::new();
    for (i, port) in list.iter().enumerate() {
        let p = format!("spec.ports[{i}]");
        let name = s(port, "name").unwrap_or("");
        if name.is_empty() {
            if need_name {
                out.push(required(&format!("{p}.name"), ""));
            }
        } else {
            out.extend(each_invalid(
                &format!("{p}.name"),
                name,
                dns_label_msgs(name),
            ));
            if !names.insert(name) {
                out.push(duplicate(&format!("{p}.name"), name));
            }
        }
        match port.get("port") {
            // A missing port reads as 0, as upstream's int32 field does.
            None | Some(Value::Null) => out.extend(port_num(&format!("{p}.port"), &Value::from(0))),
            Some(v) => out.extend(port_num(&format!("{p}.port"), v)),
        }
        match s(port, "protocol") {
            None => {}
            Some("") => out.push(required(&format!("{p}.protocol"), "")),
            Some(x) if PROTOCOLS.contains(&x) => {}
            Some(x) => out.push(not_supported(&format!("{p}.protocol"), x, PROTOCOLS)),
        }
        target_port(port, &p, out);
        let node_port = port.get("nodePort").and_then(Value::as_i64).unwrap_or(0);
        if node_port != 0 {
            if ty == "ClusterIP" || ty == "ExternalName" {
                out.push(forbidden(
                    &format!("{p}.nodePort"),
                    &format!("may not be used when `type` is '{ty}'"),
                ));
            } else {
                out.extend(port_num(&format!("{p}.nodePort"), &port["nodePort"]));
            }
        }
    }
}

fn policy(spec: &Value, key: &str, values: &[&str], out: &mut Vec<StatusCause>) {
    match s(spec, key) {
        None => {}
        Some(x) if values.contains(&x) => {}
        Some("") => out.push(required(&format!("spec.{key}"), "")),
        Some(x) => out.push(not_supported(&format!("spec.{key}"), x, values)),
    }
}

fn cluster_ips(spec: &Value, ty: &str, out: &mut Vec<StatusCause>) {
    let ip = s(spec, "clusterIP").unwrap_or("");
    if ty == "ExternalName" {
        if !ip.is_empty() || !arr(spec, "clusterIPs").is_empty() {
            out.push(forbidden(
                "spec.clusterIPs",
                "may not be set for ExternalName services",
            ));
        }
        return;
    }
    for (i, v) in arr(spec, "clusterIPs").iter().enumerate() {
        let text = v.as_str().unwrap_or("");
        if text != "None" && text.parse::<IpAddr>().is_err() {
            out.push(invalid(
                &format!("spec.clusterIPs[{i}]"),
                text,
                "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            ));
        }
    }
    if !ip.is_empty()
        && ip != "None"
        && ip.parse::<IpAddr>().is_err()
        && arr(spec, "clusterIPs").is_empty()
    {
        out.push(invalid(
            "spec.clusterIPs[0]",
            ip,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
        ));
    }
}

/// The cluster IPs as Go prints a `[]string`.
fn show_ips(spec: &Value) -> String {
    let mut ips: Vec<String> = arr(spec, "clusterIPs")
        .iter()
        .filter_map(Value::as_str)
        .map(quote)
        .collect();
    if ips.is_empty() {
        if let Some(ip) = s(spec, "clusterIP").filter(|i| !i.is_empty()) {
            ips.push(quote(ip));
        }
    }
    format!("[]string{{{}}}", ips.join(", "))
}

/// core/v1 Service.
pub(crate) fn service(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    // Service names are DNS-1035 labels; names that are not even DNS subdomains are
    // already reported by the store.
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !name.is_empty() && dns_subdomain_msgs(name).is_empty() {
        out.extend(each_invalid("metadata.name", name, dns1035_msgs(name)));
    }
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    let ty = s(spec, "type").unwrap_or("ClusterIP");
    if !TYPES.contains(&ty) {
        if ty.is_empty() {
            out.push(required("spec.type", ""));
        } else {
            out.push(not_supported("spec.type", ty, TYPES));
        }
    }
    ports(spec, ty, &mut out);
    policy(spec, "sessionAffinity", &["ClientIP", "None"], &mut out);
    policy(
        spec,
        "internalTrafficPolicy",
        &["Cluster", "Local"],
        &mut out,
    );
    policy(
        spec,
        "ipFamilyPolicy",
        &["PreferDualStack", "RequireDualStack", "SingleStack"],
        &mut out,
    );
    match s(spec, "externalTrafficPolicy").filter(|p| !p.is_empty()) {
        Some(p) if ty != "NodePort" && ty != "LoadBalancer" => out.push(invalid(
            "spec.externalTrafficPolicy",
            p,
            "may only be set for externally-accessible services",
        )),
        Some(_) => policy(
            spec,
            "externalTrafficPolicy",
            &["Cluster", "Local"],
            &mut out,
        ),
        None => {}
    }
    if ty == "ExternalName" {
        let name = s(spec, "externalName").unwrap_or("");
        let clean = name.strip_suffix('.').unwrap_or(name);
        if clean.is_empty() {
            out.push(required("spec.externalName", ""));
        } else {
            out.extend(each_invalid(
                "spec.externalName",
                clean,
                dns_subdomain_msgs(clean),
            ));
        }
    }
    cluster_ips(spec, ty, &mut out);
    if let Some(old_spec) = old.and_then(|o| o.get("spec")) {
        let old_ty = s(old_spec, "type").unwrap_or("ClusterIP");
        let old_ip = s(old_spec, "clusterIP").unwrap_or("");
        let new_ip = s(spec, "clusterIP").unwrap_or("");
        // An update without a cluster IP keeps the old one (upstream copies it in before
        // validating; the store is expected to do the same).
        let changed = !old_ip.is_empty() && !new_ip.is_empty() && old_ip != new_ip;
        if ty != "ExternalName" && old_ty != "ExternalName" && changed {
            out.push(invalid_shown(
                "spec.clusterIPs[0]",
                &show_ips(spec),
                "may not change once set",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn svc(spec: Value) -> Vec<StatusCause> {
        service(&json!({ "spec": spec }), None)
    }

    fn pairs(c: &[StatusCause]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect()
    }

    #[test]
    fn ports_and_types() {
        assert!(svc(json!({"type": "ClusterIP", "ports": [{"port": 80, "targetPort": 8080, "protocol": "TCP"}]})).is_empty());
        assert_eq!(
            pairs(&svc(json!({"type": "ClusterIP"}))),
            vec![("spec.ports", "Required value")]
        );
        assert!(svc(json!({"clusterIP": "None"})).is_empty());
        let c = svc(json!({"type": "ClusterIP", "ports": [
            {"port": 80, "nodePort": 30000},
            {"port": 0, "name": "a", "protocol": "HTTP", "targetPort": "Web"},
            {"port": 81, "name": "a", "targetPort": 0}
        ]}));
        assert_eq!(pairs(&c), vec![
            ("spec.ports[0].name", "Required value"),
            ("spec.ports[0].nodePort", "Forbidden: may not be used when `type` is 'ClusterIP'"),
            ("spec.ports[1].port", "Invalid value: 0: must be between 1 and 65535, inclusive"),
            ("spec.ports[1].protocol", "Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
            ("spec.ports[1].targetPort", "Invalid value: \"Web\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"),
            ("spec.ports[2].name", "Duplicate value: \"a\""),
            ("spec.ports[2].targetPort", "Required value"),
        ]);
        let c = svc(
            json!({"type": "Bogus", "ports": [{"port": 1}], "sessionAffinity": "Sticky", "externalTrafficPolicy": "Local"}),
        );
        assert_eq!(pairs(&c), vec![
            ("spec.type", "Unsupported value: \"Bogus\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\""),
            ("spec.sessionAffinity", "Unsupported value: \"Sticky\": supported values: \"ClientIP\", \"None\""),
            ("spec.externalTrafficPolicy", "Invalid value: \"Local\": may only be set for externally-accessible services"),
        ]);
        assert!(svc(json!({"type": "NodePort", "ports": [{"port": 1, "nodePort": 30001}], "externalTrafficPolicy": "Local"})).is_empty());
    }

    #[test]
    fn external_names_and_ips() {
        assert_eq!(
            pairs(&svc(json!({"type": "ExternalName"}))),
            vec![("spec.externalName", "Required value")]
        );
        assert!(svc(json!({"type": "ExternalName", "externalName": "db.example.com."})).is_empty());
        let c = svc(json!({"type": "ExternalName", "externalName": "x", "clusterIP": "10.0.0.1"}));
        assert_eq!(
            pairs(&c),
            vec![(
                "spec.clusterIPs",
                "Forbidden: may not be set for ExternalName services"
            )]
        );
        let c = svc(json!({"ports": [{"port": 1}], "clusterIP": "nope", "clusterIPs": ["nope"]}));
        assert_eq!(c[0].field, "spec.clusterIPs[0]");
        let old = json!({"spec": {"ports": [{"port": 1}], "clusterIP": "10.0.0.1", "clusterIPs": ["10.0.0.1"]}});
        assert!(service(&old, Some(&old)).is_empty());
        let new = json!({"spec": {"ports": [{"port": 1}], "clusterIP": "10.0.0.2", "clusterIPs": ["10.0.0.2"]}});
        assert_eq!(
            pairs(&service(&new, Some(&old))),
            vec![(
                "spec.clusterIPs[0]",
                "Invalid value: []string{\"10.0.0.2\"}: may not change once set"
            )]
        );
        let named = json!({"metadata": {"name": "1abc"}, "spec": {"clusterIP": "None"}});
        assert_eq!(pairs(&service(&named, None)), vec![("metadata.name", "Invalid value: \"1abc\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")]);
        assert!(service(
            &json!({"metadata": {"name": "Bad"}, "spec": {"clusterIP": "None"}}),
            None
        )
        .is_empty());
        let kept = json!({"spec": {"ports": [{"port": 1}]}});
        assert!(service(&kept, Some(&old)).is_empty());
        assert_eq!(
            pairs(&svc(json!({"ports": [{}]}))),
            vec![(
                "spec.ports[0].port",
                "Invalid value: 0: must be between 1 and 65535, inclusive"
            )]
        );
        for v in [
            json!(null),
            json!({"spec": {"ports": [1, null], "clusterIPs": [1]}}),
        ] {
            let _ = service(&v, Some(&v));
        }
    }
}
