//! NetworkPolicies as kube-apiserver 1.33 validates them: valid selectors, ports of a
//! known protocol with a number in range (an `endPort` only after a numeric port, not
//! below it) or a valid port name, peers that name something (an ipBlock alone, with a
//! CIDR and exceptions strictly inside it), and at most two known policy types. The
//! CIDRs are read leniently, as 1.33 does without StrictIPCIDRValidation.

use std::net::IpAddr;

use ipnet::IpNet;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, forbidden, invalid, invalid_int, invalid_shown, not_supported, port_name_msgs, range_msg,
    required, s, CIDR_MSG,
};
use super::selector::selector_rules;

/// A NetworkPolicy (the same spec rules on create and update).
pub(crate) fn network_policy(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    if let Some(sel) = spec.get("podSelector").filter(|v| v.is_object()) {
        selector_rules(sel, "spec.podSelector", &mut causes);
    }
    for (direction, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in arr(&spec, direction).iter().enumerate() {
            let at = format!("spec.{direction}[{i}]");
            for (k, port) in arr(rule, "ports").iter().enumerate() {
                port_rules(port, &format!("{at}.ports[{k}]"), &mut causes);
            }
            for (j, peer) in arr(rule, peers).iter().enumerate() {
                peer_rules(peer, &format!("{at}.{peers}[{j}]"), &mut causes);
            }
        }
    }
    let types = arr(&spec, "policyTypes");
    if types.len() > 2 {
        let quoted: Vec<String> = types
            .iter()
            .map(|t| super::causes::quote(t.as_str().unwrap_or("")))
            .collect();
        causes.push(invalid_shown(
            "spec.policyTypes",
            &format!("[]networking.PolicyType{{{}}}", quoted.join(", ")),
            "may not specify more than two policyTypes",
        ));
    } else {
        for (i, t) in types.iter().enumerate() {
            let t = t.as_str().unwrap_or("");
            if !matches!(t, "Ingress" | "Egress") {
                causes.push(not_supported(
                    &format!("spec.policyTypes[{i}]"),
                    t,
                    &["Ingress", "Egress"],
                ));
            }
        }
    }
    causes
}

/// Upstream's ValidateNetworkPolicyPort.
fn port_rules(port: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(p) = s(port, "protocol") {
        if !matches!(p, "TCP" | "UDP" | "SCTP") {
            out.push(not_supported(
                &format!("{at}.protocol"),
                p,
                &["TCP", "UDP", "SCTP"],
            ));
        }
    }
    let end = port.get("endPort").and_then(Value::as_i64);
    let end_at = format!("{at}.endPort");
    match port.get("port") {
        Some(Value::Number(n)) => {
            let n = n.as_i64().unwrap_or(0);
            if !(1..=65535).contains(&n) {
                out.push(invalid_int(&format!("{at}.port"), n, &range_msg(1, 65535)));
            }
            if let Some(e) = end {
                if e < n {
                    out.push(invalid_int(
                        &end_at,
                        n,
                        "must be greater than or equal to `port`",
                    ));
                }
                if !(1..=65535).contains(&e) {
                    out.push(invalid_int(&end_at, e, &range_msg(1, 65535)));
                }
            }
        }
        Some(Value::String(name)) => {
            if let Some(e) = end {
                out.push(invalid_int(
                    &end_at,
                    e,
                    "may not be specified when `port` is non-numeric",
                ));
            }
            for m in port_name_msgs(name) {
                out.push(invalid(&format!("{at}.port"), name, &m));
            }
        }
        _ => {
            if let Some(e) = end {
                out.push(invalid_int(
                    &end_at,
                    e,
                    "may not be specified when `port` is not specified",
                ));
            }
        }
    }
}

/// Upstream's ValidateNetworkPolicyPeer.
fn peer_rules(peer: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let mut named = 0;
    for key in ["podSelector", "namespaceSelector"] {
        if let Some(sel) = peer.get(key).filter(|v| v.is_object()) {
            named += 1;
            selector_rules(sel, &format!("{at}.{key}"), out);
        }
    }
    let block = peer.get("ipBlock").filter(|v| v.is_object());
    if let Some(block) = block {
        ip_block(block, &format!("{at}.ipBlock"), out);
    }
    if named == 0 && block.is_none() {
        out.push(required(at, "must specify a peer"));
    } else if named > 0 && block.is_some() {
        out.push(forbidden(
            at,
            "may not specify both ipBlock and another peer",
        ));
    }
}

fn parse_cidr(c: &str) -> Option<IpNet> {
    c.parse::<IpNet>().ok()
}

/// Upstream's ValidateIPBlock.
fn ip_block(block: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let cidr = s(block, "cidr").unwrap_or("");
    if cidr.is_empty() {
        out.push(required(&format!("{at}.cidr"), ""));
        return;
    }
    let Some(net) = parse_cidr(cidr) else {
        out.push(invalid(&format!("{at}.cidr"), cidr, CIDR_MSG));
        return;
    };
    for (k, except) in arr(block, "except").iter().enumerate() {
        let text = except.as_str().unwrap_or("");
        let field = format!("{at}.except[{k}]");
        match parse_cidr(text) {
            None => out.push(invalid(&field, text, CIDR_MSG)),
            Some(e) => {
                let inside = same_family(net.network(), e.network())
                    && e.prefix_len() > net.prefix_len()
                    && net.contains(&e.network());
                if !inside {
                    out.push(invalid(&field, text, "must be a strict subset of `cidr`"));
                }
            }
        }
    }
}

fn same_family(a: IpAddr, b: IpAddr) -> bool {
    a.is_ipv4() == b.is_ipv4()
}

#[cfg(test)]
mod tests {
    use super::super::causes::messages;
    use super::*;
    use serde_json::json;

    #[test]
    fn ports_peers_blocks_and_types() {
        let np = json!({"spec": {
            "ingress": [{"ports": [{"protocol": "ICMP", "port": 8080, "endPort": 80}, {"port": "80", "endPort": 90}],
                         "from": [{}, {"ipBlock": {"cidr": "10.0.0.0/16", "except": ["10.0.0.0/8", "x"]},
                                       "podSelector": {}}]}],
            "policyTypes": ["Ingress", "ingress"]}});
        assert_eq!(
            messages(&network_policy(&np, None)),
            [
                "spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\"",
                "spec.ingress[0].ports[0].endPort: Invalid value: 8080: must be greater than or equal to `port`",
                "spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric",
                "spec.ingress[0].ports[1].port: Invalid value: \"80\": must contain at least one letter (a-z)",
                "spec.ingress[0].from[0]: Required value: must specify a peer",
                "spec.ingress[0].from[1].ipBlock.except[0]: Invalid value: \"10.0.0.0/8\": must be a strict subset of `cidr`",
                "spec.ingress[0].from[1].ipBlock.except[1]: Invalid value: \"x\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
                "spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer",
                "spec.policyTypes[1]: Unsupported value: \"ingress\": supported values: \"Ingress\", \"Egress\"",
            ]
        );
        let ok = json!({"spec": {"podSelector": {}, "egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.1/8", "except": ["10.1.0.0/16"]}}],
            "ports": [{"protocol": "TCP", "port": 80, "endPort": 90}]}], "policyTypes": ["Egress"]}});
        assert!(
            network_policy(&ok, None).is_empty(),
            "{:?}",
            messages(&network_policy(&ok, None))
        );
    }
}
