//! FlowSchema validation as kube-apiserver v1.33 words it (upstream's
//! `pkg/apis/flowcontrol/validation`): the spec's precedence, distinguisher, priority
//! level reference and rules (subjects, resource and non-resource rules), the mandatory
//! `exempt` and `catch-all` specs, and the status conditions. The priority level rules
//! are in [`super::priority_levels`].

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::{json, Value};

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, forbidden, go_strings,
    invalid, invalid_int, invalid_shown, not_supported, not_supported_shown, quote, required, s,
    show,
};
use kas_server::flowcontrol_objects::{mandatory_spec, specs_equal};

/// The highest matching precedence a FlowSchema may have.
const MAX_MATCHING_PRECEDENCE: i64 = 10000;
/// The verbs a rule may name (sorted, as upstream lists them).
const VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "proxy",
    "update",
    "watch",
];
const NS_INTRO: &str = "each member of this list must be '*' or a DNS-1123 label; ";

/// The integer at `obj[key]` (0 when absent, as a Go zero value).
pub(super) fn int(obj: &Value, key: &str) -> i64 {
    obj.get(key).and_then(Value::as_i64).unwrap_or(0)
}

/// Whether `obj[key]` is set (a non-nil Go pointer).
pub(super) fn present(obj: &Value, key: &str) -> bool {
    obj.get(key).is_some_and(|v| !v.is_null())
}

fn strs(list: &[Value]) -> impl Iterator<Item = &str> {
    list.iter().map(|v| v.as_str().unwrap_or(""))
}

fn has_wildcard(list: &[Value]) -> bool {
    strs(list).any(|s| s == "*")
}

/// The conditions of a FlowSchema's or priority level's status: each with a type, no
/// type twice.
pub(super) fn conditions(obj: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let list = obj
        .get("status")
        .map_or(&[][..], |st| arr(st, "conditions"));
    for (i, c) in list.iter().enumerate() {
        let path = format!("status.conditions[{i}].type");
        let t = s(c, "type").unwrap_or("");
        if !seen.insert(t) {
            out.push(duplicate(&path, t));
        }
        if t.is_empty() {
            out.push(required(&path, "must not be empty"));
        }
    }
    out
}

/// Rules' verbs: at least one, `*` alone, else only the verbs upstream knows.
fn verbs(rule: &Value, p: &str) -> Vec<StatusCause> {
    let path = format!("{p}.verbs");
    let list = arr(rule, "verbs");
    if list.is_empty() {
        return vec![required(&path, "verbs must contain at least one value")];
    }
    if has_wildcard(list) {
        if list.len() > 1 {
            return vec![invalid_shown(
                &path,
                &go_strings(list),
                "if '*' is present, must not specify other verbs",
            )];
        }
    } else if strs(list).any(|v| !VERBS.contains(&v)) {
        return vec![not_supported_shown(&path, &go_strings(list), VERBS)];
    }
    Vec::new()
}

/// A list that must not be empty and where `*` must stand alone.
fn wildcard_list(rule: &Value, key: &str, p: &str, empty: &str, what: &str) -> Vec<StatusCause> {
    let path = format!("{p}.{key}");
    let list = arr(rule, key);
    if list.is_empty() {
        return vec![required(&path, empty)];
    }
    if list.len() > 1 && has_wildcard(list) {
        let why = format!("if '*' is present, must not specify other {what}");
        return vec![invalid_shown(&path, &go_strings(list), &why)];
    }
    Vec::new()
}

fn resource_rule(rule: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = verbs(rule, p);
    out.extend(wildcard_list(
        rule,
        "apiGroups",
        p,
        "resource rules must supply at least one api group",
        "api groups",
    ));
    out.extend(wildcard_list(
        rule,
        "resources",
        p,
        "resource rules must supply at least one resource",
        "resources",
    ));
    let namespaces = arr(rule, "namespaces");
    let cluster = rule.get("clusterScope").and_then(Value::as_bool) == Some(true);
    let path = format!("{p}.namespaces");
    if namespaces.is_empty() && !cluster {
        out.push(required(
            &path,
            "resource rules that are not cluster scoped must supply at least one namespace",
        ));
    } else if has_wildcard(namespaces) {
        if namespaces.len() > 1 {
            out.push(invalid_shown(
                &path,
                &go_strings(namespaces),
                "if '*' is present, must not specify other namespaces",
            ));
        }
    } else {
        for (i, ns) in strs(namespaces).enumerate() {
            for msg in dns_label_msgs(ns) {
                out.push(invalid(
                    &format!("{path}[{i}]"),
                    ns,
                    &format!("{NS_INTRO}{msg}"),
                ));
            }
        }
    }
    out
}

/// Why a non-resource URL is refused: it must start with `/`, hold no space or `//`, and
/// a `*` only as a final `/*`.
fn url_path_msg(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("must not be empty");
    }
    if path == "/" {
        return None;
    }
    if !path.starts_with('/') {
        return Some("must start with slash");
    }
    if path.contains(' ') {
        return Some("must not contain white-space");
    }
    if path.contains("//") {
        return Some("must not contain double slash");
    }
    let stars = path.matches('*').count();
    if stars > 1 || (stars == 1 && !path.ends_with("/*")) {
        return Some("wildcard can only do suffix matching");
    }
    None
}

fn non_resource_rule(rule: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = verbs(rule, p);
    let urls = arr(rule, "nonResourceURLs");
    let path = format!("{p}.nonResourceURLs");
    if urls.is_empty() {
        out.push(required(
            &path,
            "nonResourceURLs must contain at least one value",
        ));
    } else if has_wildcard(urls) {
        if urls.len() > 1 {
            out.push(invalid_shown(
                &path,
                &go_strings(urls),
                "if '*' is present, must not specify other non-resource URLs",
            ));
        }
    } else {
        for (i, url) in strs(urls).enumerate() {
            if let Some(msg) = url_path_msg(url) {
                out.push(invalid(&format!("{path}[{i}]"), url, msg));
            }
        }
    }
    out
}

/// The member a subject of `kind` must have, or a Required cause.
fn member<'a>(
    subject: &'a Value,
    key: &str,
    p: &str,
    kind: &str,
) -> Result<&'a Value, StatusCause> {
    subject.get(key).filter(|m| !m.is_null()).ok_or_else(|| {
        required(
            &format!("{p}.{key}"),
            &format!("{key} is required when subject kind is '{kind}'"),
        )
    })
}

fn named(m: &Value, p: &str) -> Vec<StatusCause> {
    match s(m, "name").unwrap_or("") {
        "" => vec![required(&format!("{p}.name"), "")],
        _ => Vec::new(),
    }
}

fn service_account(sa: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let name = s(sa, "name").unwrap_or("");
    if name.is_empty() {
        out.push(required(&format!("{p}.name"), ""));
    } else if name != "*" {
        out.extend(each_invalid(
            &format!("{p}.name"),
            name,
            dns_subdomain_msgs(name),
        ));
    }
    let ns = s(sa, "namespace").unwrap_or("");
    if ns.is_empty() {
        out.push(required(
            &format!("{p}.namespace"),
            "must specify namespace for service account",
        ));
    } else {
        out.extend(each_invalid(
            &format!("{p}.namespace"),
            ns,
            dns_label_msgs(ns),
        ));
    }
    out
}

fn subject(subject: &Value, p: &str) -> Vec<StatusCause> {
    const KINDS: &[(&str, &str, &str)] = &[
        ("ServiceAccount", "serviceAccount", "ServiceAccount"),
        ("User", "user", "User"),
        ("Group", "group", "Group"),
    ];
    let kind = s(subject, "kind").unwrap_or("");
    let Some((_, own, _)) = KINDS.iter().find(|(k, _, _)| *k == kind) else {
        return vec![not_supported(
            &format!("{p}.kind"),
            kind,
            &["Group", "ServiceAccount", "User"],
        )];
    };
    let mut out = match member(subject, own, p, kind) {
        Err(c) => vec![c],
        Ok(m) if kind == "ServiceAccount" => service_account(m, &format!("{p}.{own}")),
        Ok(m) => named(m, &format!("{p}.{own}")),
    };
    for (other_kind, key, _) in KINDS {
        if key != own && present(subject, key) {
            out.push(forbidden(
                &format!("{p}.{key}"),
                &format!("{key} is forbidden when subject kind is not '{other_kind}'"),
            ));
        }
    }
    out
}

fn rule(rule: &Value, p: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let subjects = arr(rule, "subjects");
    if subjects.is_empty() {
        out.push(required(
            &format!("{p}.subjects"),
            "subjects must contain at least one value",
        ));
    }
    for (i, s) in subjects.iter().enumerate() {
        out.extend(subject(s, &format!("{p}.subjects[{i}]")));
    }
    let resource_rules = arr(rule, "resourceRules");
    let non_resource_rules = arr(rule, "nonResourceRules");
    if resource_rules.is_empty() && non_resource_rules.is_empty() {
        out.push(required(
            p,
            "at least one of resourceRules and nonResourceRules has to be non-empty",
        ));
    }
    for (i, r) in resource_rules.iter().enumerate() {
        out.extend(resource_rule(r, &format!("{p}.resourceRules[{i}]")));
    }
    for (i, r) in non_resource_rules.iter().enumerate() {
        out.extend(non_resource_rule(r, &format!("{p}.nonResourceRules[{i}]")));
    }
    out
}

fn spec(name: &str, spec: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let precedence = int(spec, "matchingPrecedence");
    let path = "spec.matchingPrecedence";
    if precedence <= 0 {
        out.push(invalid_int(path, precedence, "must be a positive value"));
    }
    if precedence > MAX_MATCHING_PRECEDENCE {
        let why = format!("must not be greater than {MAX_MATCHING_PRECEDENCE}");
        out.push(invalid_int(path, precedence, &why));
    }
    if precedence == 1 && name != "exempt" {
        out.push(invalid_int(
            path,
            precedence,
            "only the schema named 'exempt' may have matchingPrecedence 1",
        ));
    }
    if let Some(dm) = spec.get("distinguisherMethod").filter(|d| !d.is_null()) {
        let t = s(dm, "type").unwrap_or("");
        if t != "ByUser" && t != "ByNamespace" {
            // Upstream reports the whole (dereferenced) struct, as Go's %#v prints it.
            let shown = format!("flowcontrol.FlowDistinguisherMethod{{Type:{}}}", quote(t));
            out.push(not_supported_shown(
                "spec.distinguisherMethod.type",
                &shown,
                &["ByNamespace", "ByUser"],
            ));
        }
    }
    let level = spec
        .pointer("/priorityLevelConfiguration/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let level_path = "spec.priorityLevelConfiguration.name";
    if level.is_empty() {
        out.push(required(level_path, "must reference a priority level"));
    } else {
        out.extend(each_invalid(level_path, level, dns_subdomain_msgs(level)));
    }
    for (i, r) in arr(spec, "rules").iter().enumerate() {
        out.extend(rule(r, &format!("spec.rules[{i}]")));
    }
    out
}

/// The `spec` cause of a mandatory object (`kind`/`name`) whose spec is not the fixed one.
/// `defaults` is applied to the fixed spec first, as upstream compares defaulted objects.
pub(super) fn mandatory(
    kind: &str,
    name: &str,
    spec: &Value,
    defaults: fn(&mut Value),
    tolerated: &str,
) -> Option<StatusCause> {
    let mut fixed = json!({"spec": mandatory_spec(kind, name)?});
    defaults(&mut fixed);
    let mut want = fixed["spec"].take();
    // The members an operator may change (the `exempt` level's `exempt`) compare as
    // theirs.
    if !tolerated.is_empty() {
        want[tolerated] = spec.get(tolerated).cloned().unwrap_or(Value::Null);
    }
    if specs_equal(&want, spec) {
        return None;
    }
    let why = match tolerated {
        "" => format!("spec of '{name}' must equal the fixed value"),
        t => format!("spec of '{name}' except the 'spec.{t}' field must equal the fixed value"),
    };
    Some(invalid_shown("spec", &show(spec), &why))
}

/// FlowSchema: the spec's rules, the mandatory specs, the status conditions. Upstream
/// validates an update as a create.
pub(crate) fn flowschema(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let empty = json!({});
    let sp = obj.get("spec").filter(|s| s.is_object()).unwrap_or(&empty);
    let mut out = spec(name, sp);
    out.extend(mandatory(
        "FlowSchema",
        name,
        sp,
        crate::defaults::flowschema_defaults,
        "",
    ));
    out.extend(conditions(obj));
    out
}

#[cfg(test)]
#[path = "flowcontrol_tests.rs"]
mod tests;
