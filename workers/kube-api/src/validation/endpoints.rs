//! Endpoints, EndpointSlices and Events: the basic rules (addresses are usable IPs,
//! ports named and numbered as upstream wants, an event sits in its object's namespace).

use std::collections::HashSet;
use std::net::IpAddr;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, invalid, not_supported,
    port_num, required, s, IMMUTABLE_MSG,
};

const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
const IP_MSG: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/// Why an endpoint IP is not usable (loopback and friends), `None` when it is.
fn special_ip(ip: &IpAddr) -> Option<&'static str> {
    if ip.is_unspecified() {
        return Some(match ip {
            IpAddr::V4(_) => "may not be unspecified (0.0.0.0)",
            IpAddr::V6(_) => "may not be unspecified (::)",
        });
    }
    if ip.is_loopback() {
        return Some("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    }
    let (link_local, link_multicast) = match ip {
        IpAddr::V4(v4) => (v4.is_link_local(), v4.octets()[..3] == [224, 0, 0]),
        IpAddr::V6(v6) => {
            let seg = v6.segments()[0];
            (seg & 0xffc0 == 0xfe80, seg == 0xff02)
        }
    };
    if link_local {
        return Some("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
    }
    if link_multicast {
        return Some("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
    }
    None
}

fn endpoint_ip(ip: &str, field: &str, out: &mut Vec<StatusCause>) {
    match ip.parse::<IpAddr>() {
        Err(_) => out.push(invalid(field, ip, IP_MSG)),
        Ok(parsed) => {
            if let Some(why) = special_ip(&parsed) {
                out.push(invalid(field, ip, why));
            }
        }
    }
}

/// Name, number and protocol of the ports at `path`; names are required when
/// `need_name` and there are several ports.
fn ports(list: &[Value], path: &str, need_name: bool, out: &mut Vec<StatusCause>) {
    let mut names = HashSet::new();
    for (i, port) in list.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let name = s(port, "name").unwrap_or("");
        if name.is_empty() {
            if need_name && list.len() > 1 {
                out.push(required(&format!("{p}.name"), ""));
            }
        } else {
            out.extend(each_invalid(
                &format!("{p}.name"),
                name,
                dns_label_msgs(name),
            ));
        }
        // Slices may not repeat a name, not even the empty one; Endpoints do not check.
        if !need_name && !names.insert(name) {
            out.push(duplicate(&format!("{p}.name"), name));
        }
        match port.get("port") {
            None | Some(Value::Null) if need_name => {
                out.extend(port_num(&format!("{p}.port"), &Value::from(0)));
            }
            None | Some(Value::Null) => {}
            Some(v) => out.extend(port_num(&format!("{p}.port"), v)),
        }
        match s(port, "protocol") {
            None => {}
            Some("") => out.push(required(&format!("{p}.protocol"), "")),
            Some(x) if PROTOCOLS.contains(&x) => {}
            Some(x) => out.push(not_supported(&format!("{p}.protocol"), x, PROTOCOLS)),
        }
    }
}

/// core/v1 Endpoints.
pub(crate) fn endpoints(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    for (i, subset) in arr(obj, "subsets").iter().enumerate() {
        let p = format!("subsets[{i}]");
        let ready = arr(subset, "addresses");
        let not_ready = arr(subset, "notReadyAddresses");
        if ready.is_empty() && not_ready.is_empty() {
            out.push(required(
                &p,
                "must specify `addresses` or `notReadyAddresses`",
            ));
        }
        for (key, list) in [("addresses", ready), ("notReadyAddresses", not_ready)] {
            for (j, addr) in list.iter().enumerate() {
                let ap = format!("{p}.{key}[{j}]");
                endpoint_ip(s(addr, "ip").unwrap_or(""), &format!("{ap}.ip"), &mut out);
                if let Some(h) = s(addr, "hostname").filter(|h| !h.is_empty()) {
                    out.extend(each_invalid(
                        &format!("{ap}.hostname"),
                        h,
                        dns_label_msgs(h),
                    ));
                }
                if let Some(n) = s(addr, "nodeName").filter(|n| !n.is_empty()) {
                    out.extend(each_invalid(
                        &format!("{ap}.nodeName"),
                        n,
                        dns_subdomain_msgs(n),
                    ));
                }
            }
        }
        ports(arr(subset, "ports"), &format!("{p}.ports"), true, &mut out);
    }
    out
}

/// discovery.k8s.io/v1 EndpointSlice.
pub(crate) fn endpointslice(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    const TYPES: &[&str] = &["FQDN", "IPv4", "IPv6"];
    let mut out = Vec::new();
    let ty = s(obj, "addressType").unwrap_or("");
    match ty {
        "" => out.push(required("addressType", "")),
        t if TYPES.contains(&t) => {}
        t => out.push(not_supported("addressType", t, TYPES)),
    }
    for (i, ep) in arr(obj, "endpoints").iter().enumerate() {
        let p = format!("endpoints[{i}].addresses");
        let addrs = arr(ep, "addresses");
        if addrs.is_empty() {
            out.push(required(&p, "must contain at least 1 address"));
        }
        for (j, a) in addrs.iter().enumerate() {
            let field = format!("{p}[{j}]");
            let a = a.as_str().unwrap_or("");
            match ty {
                "IPv4"
                    if !a
                        .parse::<std::net::Ipv4Addr>()
                        .is_ok_and(|ip| ip.to_string() == a) =>
                {
                    out.push(invalid(&field, a, "must be a valid IPv4 address"));
                }
                "IPv6" if a.parse::<std::net::Ipv6Addr>().is_err() => {
                    out.push(invalid(&field, a, "must be a valid IPv6 address"));
                }
                "FQDN" => out.extend(each_invalid(&field, a, dns_subdomain_msgs(a))),
                _ => {}
            }
        }
        if let Some(h) = s(ep, "hostname").filter(|h| !h.is_empty()) {
            out.extend(each_invalid(
                &format!("endpoints[{i}].hostname"),
                h,
                dns_label_msgs(h),
            ));
        }
    }
    ports(arr(obj, "ports"), "ports", false, &mut out);
    if let Some(old) = old {
        let old_ty = s(old, "addressType").unwrap_or("");
        if old_ty != ty {
            out.push(invalid("addressType", ty, IMMUTABLE_MSG));
        }
    }
    out
}

/// core/v1 Event: the involved object lives in the event's namespace.
pub(crate) fn event(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    event_in(obj, "involvedObject")
}

/// events.k8s.io/v1 Event: the core rules (the object is `regarding`) plus the fields
/// that API version requires.
pub(crate) fn event_v1(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = event_in(obj, "regarding");
    for key in [
        "eventTime",
        "reportingController",
        "reportingInstance",
        "action",
        "reason",
    ] {
        if obj
            .get(key)
            .is_none_or(|v| v.is_null() || v.as_str() == Some(""))
        {
            out.push(required(key, ""));
        }
    }
    match s(obj, "type") {
        Some("Normal" | "Warning") => {}
        other => out.push(not_supported(
            "type",
            other.unwrap_or(""),
            &["Normal", "Warning"],
        )),
    }
    out
}

fn event_in(obj: &Value, object_key: &str) -> Vec<StatusCause> {
    let ns = obj
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    let involved = obj
        .get(object_key)
        .and_then(|o| s(o, "namespace"))
        .unwrap_or("");
    let ok = if involved.is_empty() {
        ns.is_empty() || ns == "default"
    } else {
        involved == ns
    };
    if ok {
        Vec::new()
    } else {
        vec![invalid(
            &format!("{object_key}.namespace"),
            involved,
            "does not match event.namespace",
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(c: &[StatusCause]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect()
    }

    #[test]
    fn endpoints_rules() {
        let ok = json!({"subsets": [{"addresses": [{"ip": "10.1.2.3", "hostname": "a"}], "ports": [{"port": 80, "protocol": "TCP"}]}]});
        assert!(endpoints(&ok, None).is_empty());
        let bad = json!({"subsets": [
            {},
            {"addresses": [{"ip": "127.0.0.1"}, {"ip": "x"}], "notReadyAddresses": [{"ip": "169.254.1.1"}],
             "ports": [{"port": 80}, {"port": 0, "name": "b", "protocol": "ICMP"}]}
        ]});
        assert_eq!(
            pairs(&endpoints(&bad, None)),
            vec![
                ("subsets[0]", "Required value: must specify `addresses` or `notReadyAddresses`"),
                ("subsets[1].addresses[0].ip", "Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"),
                ("subsets[1].addresses[1].ip", "Invalid value: \"x\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
                ("subsets[1].notReadyAddresses[0].ip", "Invalid value: \"169.254.1.1\": may not be in the link-local range (169.254.0.0/16, fe80::/10)"),
                ("subsets[1].ports[0].name", "Required value"),
                ("subsets[1].ports[1].port", "Invalid value: 0: must be between 1 and 65535, inclusive"),
                ("subsets[1].ports[1].protocol", "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
            ]
        );
        assert!(special_ip(&"::".parse().unwrap()).is_some());
        assert!(special_ip(&"fe80::1".parse().unwrap()).is_some());
        assert!(special_ip(&"224.0.0.5".parse().unwrap()).is_some());
        assert!(special_ip(&"2001:db8::1".parse().unwrap()).is_none());
    }

    #[test]
    fn slices() {
        let ok = json!({"addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}], "ports": [{"name": "", "port": 80, "protocol": "TCP"}]});
        assert!(endpointslice(&ok, Some(&ok)).is_empty());
        let bad = json!({"addressType": "IPv4", "endpoints": [{"addresses": []}, {"addresses": ["::1"]}],
                         "ports": [{"name": "a"}, {"name": "a"}]});
        assert_eq!(
            pairs(&endpointslice(&bad, None)),
            vec![
                (
                    "endpoints[0].addresses",
                    "Required value: must contain at least 1 address"
                ),
                (
                    "endpoints[1].addresses[0]",
                    "Invalid value: \"::1\": must be a valid IPv4 address"
                ),
                ("ports[1].name", "Duplicate value: \"a\""),
            ]
        );
        let v6 = json!({"addressType": "IPv6"});
        assert_eq!(
            pairs(&endpointslice(&v6, Some(&ok))),
            vec![("addressType", "Invalid value: \"IPv6\": field is immutable")]
        );
        assert_eq!(
            pairs(&endpointslice(&json!({}), None)),
            vec![("addressType", "Required value")]
        );
    }

    #[test]
    fn events() {
        let ev = json!({"metadata": {"namespace": "a"}, "involvedObject": {"namespace": "a"}});
        assert!(event(&ev, None).is_empty());
        let ev = json!({"metadata": {"namespace": "a"}, "involvedObject": {"namespace": "b"}});
        assert_eq!(
            pairs(&event(&ev, None)),
            vec![(
                "involvedObject.namespace",
                "Invalid value: \"b\": does not match event.namespace"
            )]
        );
        assert!(event(
            &json!({"metadata": {"namespace": "default"}, "involvedObject": {}}),
            None
        )
        .is_empty());
        let v1 = json!({"metadata": {"namespace": "a"}, "regarding": {"namespace": "a"}, "eventTime": "2024-01-01T00:00:00.000000Z",
                        "reportingController": "c", "reportingInstance": "i", "action": "A", "reason": "R", "type": "Normal"});
        assert!(event_v1(&v1, None).is_empty());
        let c = event_v1(
            &json!({"metadata": {"namespace": "a"}, "regarding": {"namespace": "a"}}),
            None,
        );
        assert_eq!(c.len(), 6);
        assert_eq!(
            c[5].message,
            "Unsupported value: \"\": supported values: \"Normal\", \"Warning\""
        );
    }
}
