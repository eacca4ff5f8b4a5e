//! The RuleWithOperations of admission webhooks and ValidatingAdmissionPolicies'
//! matchConstraints, as kube-apiserver 1.33 validates it: operations, API groups and
//! versions present, `*` alone, known operations and scope, and resources with
//! upstream's wildcard rules for subresources.

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{arr, go_strings, invalid, invalid_shown, not_supported, required, s};

const OPERATIONS: [&str; 5] = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];

/// The strings of `v`'s list `key` (a non-string item as `""`).
pub(super) fn strs(v: &Value, key: &str) -> Vec<String> {
    arr(v, key)
        .iter()
        .map(|x| x.as_str().unwrap_or("").to_owned())
        .collect()
}

fn has_wildcard_among_others(items: &[String]) -> bool {
    items.len() > 1 && items.iter().any(|i| i == "*")
}

pub(super) fn rule(r: &Value, path: &str, out: &mut Vec<StatusCause>) {
    let f = |child: &str| format!("{path}.{child}");
    let ops = strs(r, "operations");
    if ops.is_empty() {
        out.push(required(&f("operations"), ""));
    }
    if has_wildcard_among_others(&ops) {
        out.push(invalid_shown(
            &f("operations"),
            &go_strings(arr(r, "operations")),
            "if '*' is present, must not specify other operations",
        ));
    }
    for (i, op) in ops.iter().enumerate() {
        if !OPERATIONS.contains(&op.as_str()) {
            out.push(not_supported(
                &format!("{path}.operations[{i}]"),
                op,
                &OPERATIONS,
            ));
        }
    }
    let groups = strs(r, "apiGroups");
    if groups.is_empty() {
        out.push(required(&f("apiGroups"), ""));
    }
    if has_wildcard_among_others(&groups) {
        out.push(invalid_shown(
            &f("apiGroups"),
            &go_strings(arr(r, "apiGroups")),
            "if '*' is present, must not specify other API groups",
        ));
    }
    let versions = strs(r, "apiVersions");
    if versions.is_empty() {
        out.push(required(&f("apiVersions"), ""));
    }
    if has_wildcard_among_others(&versions) {
        out.push(invalid_shown(
            &f("apiVersions"),
            &go_strings(arr(r, "apiVersions")),
            "if '*' is present, must not specify other API versions",
        ));
    }
    for (i, v) in versions.iter().enumerate() {
        if v.is_empty() {
            out.push(required(&format!("{path}.apiVersions[{i}]"), ""));
        }
    }
    resources(r, &f("resources"), out);
    if let Some(scope) = s(r, "scope") {
        let scopes = ["*", "Cluster", "Namespaced"];
        if !scopes.contains(&scope) {
            out.push(not_supported(&f("scope"), scope, &scopes));
        }
    }
}

fn resources(r: &Value, path: &str, out: &mut Vec<StatusCause>) {
    let list = strs(r, "resources");
    if list.is_empty() {
        out.push(required(path, ""));
    }
    let (mut res_wild_sub, mut sub_wild_res) = (HashSet::new(), HashSet::new());
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, rs) in list.iter().enumerate() {
        let p = format!("{path}[{i}]");
        if rs.is_empty() {
            out.push(required(&p, ""));
            continue;
        }
        double |= rs == "*/*";
        single |= rs == "*";
        let Some((res, sub)) = rs.split_once('/') else {
            plain = rs != "*";
            continue;
        };
        if res_wild_sub.contains(res) {
            out.push(invalid(
                &p,
                rs,
                &format!("if '{res}/*' is present, must not specify {rs}"),
            ));
        }
        if sub_wild_res.contains(sub) {
            out.push(invalid(
                &p,
                rs,
                &format!("if '*/{sub}' is present, must not specify {rs}"),
            ));
        }
        if sub == "*" {
            res_wild_sub.insert(res);
        }
        if res == "*" {
            sub_wild_res.insert(sub);
        }
    }
    let shown = go_strings(arr(r, "resources"));
    if list.len() > 1 && double {
        out.push(invalid_shown(
            path,
            &shown,
            "if '*/*' is present, must not specify other resources",
        ));
    }
    if single && plain {
        out.push(invalid_shown(
            path,
            &shown,
            "if '*' is present, must not specify other resources without subresources",
        ));
    }
}
