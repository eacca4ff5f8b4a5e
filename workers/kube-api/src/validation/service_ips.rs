//! IPAddresses and ServiceCIDRs (networking.k8s.io/v1) as kube-apiserver 1.33 validates
//! them: an IPAddress names the object that holds it (its name, the address itself, is
//! checked by the store's name rule); a ServiceCIDR holds one or two canonical CIDRs,
//! one per family, which may change only by adding the second family.

use ipnet::IpNet;
use kas_server::rest::path_segment_msgs;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, each_invalid, go_list_or_nil, go_strings, invalid, invalid_shown,
    quote, required, s, CIDR_MSG, IMMUTABLE_MSG,
};

/// `%#v` of a ParentReference.
fn go_parent_ref(p: &Value) -> String {
    let f = |k: &str| quote(s(p, k).unwrap_or(""));
    format!(
        "networking.ParentReference{{Group:{}, Resource:{}, Namespace:{}, Name:{}}}",
        f("group"),
        f("resource"),
        f("namespace"),
        f("name")
    )
}

/// An IPAddress: the reference to its holder, fixed once set.
pub(crate) fn ip_address(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    const AT: &str = "spec.parentRef";
    match o.pointer("/spec/parentRef").filter(|p| p.is_object()) {
        None => out.push(required(AT, "")),
        Some(p) => {
            let group = s(p, "group").unwrap_or("");
            if !group.is_empty() {
                out.extend(each_invalid(
                    &format!("{AT}.group"),
                    group,
                    dns_subdomain_msgs(group),
                ));
            }
            for key in ["resource", "name"] {
                let v = s(p, key).unwrap_or("");
                let field = format!("{AT}.{key}");
                if v.is_empty() {
                    out.push(required(&field, ""));
                } else {
                    out.extend(each_invalid(&field, v, path_segment_msgs(v)));
                }
            }
            let ns = s(p, "namespace").unwrap_or("");
            if !ns.is_empty() {
                out.extend(each_invalid(
                    &format!("{AT}.namespace"),
                    ns,
                    path_segment_msgs(ns),
                ));
            }
        }
    }
    if let Some(old) = old {
        let (now, before) = (o.pointer("/spec/parentRef"), old.pointer("/spec/parentRef"));
        if now != before {
            let shown = now
                .filter(|p| p.is_object())
                .map(go_parent_ref)
                .unwrap_or_else(|| "\"null\"".into());
            out.push(invalid_shown(AT, &shown, IMMUTABLE_MSG));
        }
    }
    out
}

/// Why `cidr` is not a CIDR in strict, canonical form (empty when it is one).
fn cidr_msgs(cidr: &str) -> Vec<String> {
    let Some((ip, bits)) = cidr.split_once('/') else {
        return vec![CIDR_MSG.into()];
    };
    let leading_zero = |part: &str| part.len() > 1 && part.starts_with('0');
    let v4_parts: Vec<&str> = ip.split('.').collect();
    let sloppy_v4 = v4_parts.len() == 4
        && v4_parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        });
    if sloppy_v4 && (v4_parts.iter().any(|p| leading_zero(p)) || leading_zero(bits)) {
        return if bits.parse::<u8>().is_ok_and(|b| b <= 32) {
            vec!["must not have leading 0s in IP or prefix length".into()]
        } else {
            vec![CIDR_MSG.into()]
        };
    }
    let Ok(net) = cidr.parse::<IpNet>() else {
        return vec![CIDR_MSG.into()];
    };
    if let IpNet::V6(n) = net {
        if n.addr().to_ipv4_mapped().is_some() {
            return vec!["must not have an IPv4-mapped IPv6 address".into()];
        }
    }
    if net.addr() != net.network() {
        return vec!["must not have bits set beyond the prefix length".into()];
    }
    let canonical = net.to_string();
    if canonical != cidr {
        return vec![format!("must be in canonical form (\"{canonical}\")")];
    }
    Vec::new()
}

/// The rules of a ServiceCIDR's spec.
fn cidrs(list: &[Value], out: &mut Vec<StatusCause>) {
    const AT: &str = "spec.cidrs";
    if list.is_empty() {
        out.push(required(AT, "at least one CIDR required"));
        return;
    }
    if list.len() > 2 {
        let shown = format!("networking.ServiceCIDRSpec{{CIDRs:{}}}", go_strings(list));
        out.push(invalid_shown(AT, &shown, "may only hold up to 2 values"));
        return;
    }
    for (i, c) in list.iter().enumerate() {
        let c = c.as_str().unwrap_or("");
        out.extend(each_invalid(&format!("{AT}[{i}]"), c, cidr_msgs(c)));
    }
    if let [a, b] = list {
        let family = |v: &Value| {
            v.as_str()
                .and_then(|c| c.parse::<IpNet>().ok())
                .map(|n| n.addr().is_ipv4())
        };
        if let (Some(x), Some(y)) = (family(a), family(b)) {
            if x == y {
                out.push(invalid_shown(
                    AT,
                    &go_strings(list),
                    "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
                ));
            }
        }
    }
}

/// A ServiceCIDR: its ranges fixed, but for adding the second family.
pub(crate) fn service_cidr(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let now = arr(o.get("spec").unwrap_or(&Value::Null), "cidrs");
    let Some(old) = old else {
        cidrs(now, &mut out);
        return out;
    };
    let before = arr(old.get("spec").unwrap_or(&Value::Null), "cidrs");
    let changed_at = |i: usize, out: &mut Vec<StatusCause>| {
        if before.get(i) != now.get(i) {
            let v = now.get(i).and_then(Value::as_str).unwrap_or("");
            out.push(invalid(&format!("spec.cidrs[{i}]"), v, IMMUTABLE_MSG));
        }
    };
    match (before.len(), now.len()) {
        (a, b) if a == b => (0..b).for_each(|i| changed_at(i, &mut out)),
        (1, 2) => {
            changed_at(0, &mut out);
            cidrs(now, &mut out);
        }
        _ => {
            let shown = go_list_or_nil("string", o.pointer("/spec/cidrs"));
            out.push(invalid_shown("spec.cidrs", &shown, IMMUTABLE_MSG));
        }
    }
    out
}

#[cfg(test)]
#[path = "service_ips_tests.rs"]
mod tests;
