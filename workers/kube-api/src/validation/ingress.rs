//! Ingresses and IngressClasses as kube-apiserver 1.33 validates them: a default backend
//! or rules; hosts that are DNS names (wildcards only as a leading `*.`), never IPs;
//! paths of a known type, absolute and free of `//`, `/./`, `/../`; backends that name a
//! service (DNS-1035 name, a port by name or number) or a resource, not both; TLS hosts
//! and secret names; and a controller that is a domain-prefixed path, fixed once set.
//! On update, upstream tolerates what the stored object already had wrong (invalid TLS
//! secret names, invalid rules under wildcard hosts), so do these.

use std::net::IpAddr;

use kas_server::rest::path_segment_msgs;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns1035_msgs, dns_label_msgs, dns_subdomain_msgs, each_invalid, forbidden, invalid,
    invalid_int, invalid_shown, not_supported, port_name_msgs, range_msg, required, s,
    IMMUTABLE_MSG,
};

const WILDCARD_MSG: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const PATH_SEQUENCES: [&str; 5] = ["//", "/./", "/../", "%2f", "%2F"];
const PATH_SUFFIXES: [&str; 2] = ["/..", "/."];
const PATH_TYPES: [&str; 3] = ["Exact", "ImplementationSpecific", "Prefix"];
const HTTP_PATH_RE: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";

/// Why `host` is not a wildcard DNS-1123 subdomain (`*.example.com`).
fn wildcard_msgs(host: &str) -> Vec<String> {
    let mut out = Vec::new();
    if host.len() > 253 {
        out.push(super::causes::max_len_msg(253));
    }
    let ok = host
        .strip_prefix("*.")
        .is_some_and(|rest| dns_subdomain_msgs(rest).is_empty());
    if !ok {
        out.push(WILDCARD_MSG.into());
    }
    out
}

/// A host (of a rule or a TLS entry): a wildcard or plain DNS subdomain.
fn host_msgs(host: &str) -> Vec<String> {
    if host.contains('*') {
        wildcard_msgs(host)
    } else {
        dns_subdomain_msgs(host)
    }
}

/// An IngressBackend at `at`: a service or a resource, not both.
fn backend(b: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let resource = b.get("resource").filter(|r| r.is_object());
    let service = b.get("service").filter(|r| r.is_object());
    match (resource, service) {
        (Some(_), Some(_)) => {
            out.push(invalid(
                at,
                "",
                "cannot set both resource and service backends",
            ));
        }
        (None, None) => out.push(invalid(at, "", "resource or service backend is required")),
        (Some(r), None) => typed_reference(r, &format!("{at}.resource"), out),
        (None, Some(svc)) => {
            let name = s(svc, "name").unwrap_or("");
            if name.is_empty() {
                out.push(required(&format!("{at}.service.name"), ""));
            } else {
                out.extend(each_invalid(
                    &format!("{at}.service.name"),
                    name,
                    dns1035_msgs(name),
                ));
            }
            let port = svc.get("port").cloned().unwrap_or(Value::Null);
            let port_name = s(&port, "name").unwrap_or("");
            let number = port.get("number").and_then(Value::as_i64).unwrap_or(0);
            match (port_name.is_empty(), number == 0) {
                (false, false) => {
                    out.push(invalid(at, "", "cannot set both port name & port number"))
                }
                (false, true) => out.extend(each_invalid(
                    &format!("{at}.service.port.name"),
                    port_name,
                    port_name_msgs(port_name),
                )),
                (true, false) if !(1..=65535).contains(&number) => out.push(invalid_int(
                    &format!("{at}.service.port.number"),
                    number,
                    &range_msg(1, 65535),
                )),
                (true, false) => {}
                (true, true) => out.push(required(at, "port name or number is required")),
            }
        }
    }
}

/// A TypedLocalObjectReference (a backend's resource, a class's parameters' first
/// fields): an optional API group, a kind and a name that are path segments.
fn typed_reference(r: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(group) = r.get("apiGroup").and_then(Value::as_str) {
        out.extend(each_invalid(
            &format!("{at}.apiGroup"),
            group,
            dns_subdomain_msgs(group),
        ));
    }
    for key in ["kind", "name"] {
        let v = s(r, key).unwrap_or("");
        let field = format!("{at}.{key}");
        if v.is_empty() {
            out.push(required(&field, &format!("{key} is required")));
        } else {
            out.extend(each_invalid(&field, v, path_segment_msgs(v)));
        }
    }
}

/// One HTTPIngressPath at `at`; a path without a type stops there.
fn http_path(p: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let Some(kind) = s(p, "pathType") else {
        out.push(required(
            &format!("{at}.pathType"),
            "pathType must be specified",
        ));
        return;
    };
    let path = s(p, "path").unwrap_or("");
    let field = format!("{at}.path");
    match kind {
        "Exact" | "Prefix" => {
            if !path.starts_with('/') {
                out.push(invalid(&field, path, "must be an absolute path"));
            }
            if !path.is_empty() {
                for seq in PATH_SEQUENCES.iter().filter(|q| path.contains(*q)) {
                    out.push(invalid(&field, path, &format!("must not contain '{seq}'")));
                }
                for suffix in PATH_SUFFIXES.iter().filter(|q| path.ends_with(*q)) {
                    out.push(invalid(
                        &field,
                        path,
                        &format!("cannot end with '{suffix}'"),
                    ));
                }
            }
        }
        "ImplementationSpecific" => {
            if !path.is_empty() && !path.starts_with('/') {
                out.push(invalid(&field, path, "must be an absolute path"));
            }
        }
        other => out.push(not_supported(&format!("{at}.pathType"), other, &PATH_TYPES)),
    }
    backend(
        p.get("backend").unwrap_or(&Value::Null),
        &format!("{at}.backend"),
        out,
    );
}

/// A rule's `http` value at `at`.
fn rule_value(rule: &Value, at: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let Some(http) = rule.get("http").filter(|h| h.is_object()) else {
        return out;
    };
    let paths = arr(http, "paths");
    if paths.is_empty() {
        out.push(required(&format!("{at}.http.paths"), ""));
    }
    for (j, p) in paths.iter().enumerate() {
        http_path(p, &format!("{at}.http.paths[{j}]"), &mut out);
    }
    out
}

fn is_wildcard_rule(rule: &Value) -> bool {
    s(rule, "host").is_some_and(|h| h.contains('*'))
}

/// An Ingress. On update, the relaxations upstream computes from the stored object.
pub(crate) fn ingress(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    let old_spec = old
        .and_then(|o| o.get("spec"))
        .cloned()
        .unwrap_or(Value::Null);
    let allow_invalid_secret = arr(&old_spec, "tls").iter().any(|t| {
        s(t, "secretName").is_some_and(|n| !n.is_empty() && !dns_subdomain_msgs(n).is_empty())
    });
    let allow_invalid_wildcard = arr(&old_spec, "rules")
        .iter()
        .any(|r| is_wildcard_rule(r) && !rule_value(r, "").is_empty());

    let rules = spec.get("rules").and_then(Value::as_array);
    let default_backend = spec.get("defaultBackend").filter(|b| b.is_object());
    if rules.is_none_or(|r| r.is_empty()) && default_backend.is_none() {
        let shown = match rules {
            None => "[]networking.IngressRule(nil)",
            Some(_) => "[]networking.IngressRule{}",
        };
        out.push(invalid_shown(
            "spec",
            shown,
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(b) = default_backend {
        backend(b, "spec.defaultBackend", &mut out);
    }
    for (i, rule) in rules.into_iter().flatten().enumerate() {
        let at = format!("spec.rules[{i}]");
        let host = s(rule, "host").unwrap_or("");
        if !host.is_empty() {
            if host.parse::<IpAddr>().is_ok() {
                out.push(invalid(
                    &format!("{at}.host"),
                    host,
                    "must be a DNS name, not an IP address",
                ));
            }
            out.extend(each_invalid(&format!("{at}.host"), host, host_msgs(host)));
        }
        if !(allow_invalid_wildcard && is_wildcard_rule(rule)) {
            out.extend(rule_value(rule, &at));
        }
    }
    for (i, tls) in arr(&spec, "tls").iter().enumerate() {
        for (k, host) in arr(tls, "hosts").iter().enumerate() {
            let host = host.as_str().unwrap_or("");
            out.extend(each_invalid(
                &format!("spec.tls[{i}].hosts[{k}]"),
                host,
                host_msgs(host),
            ));
        }
        if !allow_invalid_secret {
            let name = s(tls, "secretName").unwrap_or("");
            if !name.is_empty() {
                let field = format!("spec.tls[{i}].secretName");
                out.extend(each_invalid(&field, name, dns_subdomain_msgs(name)));
            }
        }
    }
    let class = s(&spec, "ingressClassName");
    if let Some(class) = class {
        out.extend(each_invalid(
            "spec.ingressClassName",
            class,
            dns_subdomain_msgs(class),
        ));
    }
    if old.is_none() {
        let annotation = o
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(CLASS_ANNOTATION))
            .and_then(Value::as_str);
        if let (Some(annotation), Some(class)) = (annotation, class) {
            if annotation != class {
                out.push(invalid(
                    &format!("annotations.{CLASS_ANNOTATION}"),
                    annotation,
                    "must match `ingressClassName` when both are specified",
                ));
            }
        }
    }
    out
}

/// An IngressClass's controller: a domain-prefixed path.
fn controller(c: &str, out: &mut Vec<StatusCause>) {
    const FIELD: &str = "spec.controller";
    if c.len() > 250 {
        out.push(super::causes::too_long(FIELD, 250));
    }
    if c.is_empty() {
        out.push(required(FIELD, ""));
        return;
    }
    let Some((host, path)) = c
        .split_once('/')
        .filter(|(h, p)| !h.is_empty() && !p.is_empty())
    else {
        out.push(invalid(
            FIELD,
            c,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        ));
        return;
    };
    out.extend(each_invalid(FIELD, host, dns_subdomain_msgs(host)));
    let path_ok = path
        .chars()
        .all(|ch| ch.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(ch));
    if !path_ok {
        out.push(invalid(
            FIELD,
            path,
            &format!("Invalid path (regex used for validation is '{HTTP_PATH_RE}')"),
        ));
    }
}

/// An IngressClass; its controller is fixed once set.
pub(crate) fn ingress_class(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let c = o
        .pointer("/spec/controller")
        .and_then(Value::as_str)
        .unwrap_or("");
    if let Some(old) = old {
        let before = old
            .pointer("/spec/controller")
            .and_then(Value::as_str)
            .unwrap_or("");
        if before != c {
            out.push(invalid("spec.controller", c, IMMUTABLE_MSG));
        }
    }
    controller(c, &mut out);
    let Some(p) = o.pointer("/spec/parameters").filter(|p| p.is_object()) else {
        return out;
    };
    const AT: &str = "spec.parameters";
    typed_reference(p, AT, &mut out);
    let namespace = p.get("namespace").and_then(Value::as_str);
    match s(p, "scope") {
        None => out.push(required(&format!("{AT}.scope"), "")),
        Some("Namespace") => match namespace {
            None => out.push(required(
                &format!("{AT}.namespace"),
                "`parameters.scope` is set to 'Namespace'",
            )),
            Some(ns) => out.extend(each_invalid(
                &format!("{AT}.namespace"),
                ns,
                dns_label_msgs(ns),
            )),
        },
        Some("Cluster") => {
            if namespace.is_some() {
                out.push(forbidden(
                    &format!("{AT}.namespace"),
                    "`parameters.scope` is set to 'Cluster'",
                ));
            }
        }
        Some(other) => out.push(not_supported(
            &format!("{AT}.scope"),
            other,
            &["Cluster", "Namespace"],
        )),
    }
    out
}

#[cfg(test)]
#[path = "ingress_tests.rs"]
mod tests;
