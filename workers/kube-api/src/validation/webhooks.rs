//! MutatingWebhookConfiguration and ValidatingWebhookConfiguration: upstream's v1
//! defaults (failurePolicy Fail, matchPolicy Equivalent, empty selectors, timeoutSeconds
//! 10, reinvocationPolicy Never, rule scope `*`, service port 443) and validation rules,
//! worded as kube-apiserver words them. On update, as upstream, the rules a stored
//! object already broke (side effects, unknown review versions, duplicate names) stay
//! relaxed, and unchanged match conditions are not compiled again.

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::{json, Value};

use super::admission_rules::{rule, strs};
use super::causes::{
    arr, dns1035_msgs, dns_subdomain_msgs, duplicate, each_invalid, go_strings, invalid,
    invalid_int, invalid_shown, not_supported, qualified_name_msgs, required, s,
};
use super::selector::selector_rules;

const REVIEW_VERSIONS: [&str; 2] = ["v1", "v1beta1"];
const NO_SIDE_EFFECTS: [&str; 2] = ["None", "NoneOnDryRun"];
const ALL_SIDE_EFFECTS: [&str; 4] = ["None", "NoneOnDryRun", "Some", "Unknown"];
const URL_FORM: &str = "; desired format: https://host[/path]";

/// Upstream's v1 defaults of a ValidatingWebhookConfiguration.
pub(crate) fn validating_webhook_defaults(obj: &mut Value) {
    webhook_defaults(obj, false);
}

/// Upstream's v1 defaults of a MutatingWebhookConfiguration.
pub(crate) fn mutating_webhook_defaults(obj: &mut Value) {
    webhook_defaults(obj, true);
}

fn webhook_defaults(obj: &mut Value, mutating: bool) {
    let Some(hooks) = obj.get_mut("webhooks").and_then(Value::as_array_mut) else {
        return;
    };
    for h in hooks.iter_mut().filter(|h| h.is_object()) {
        let mut default = |key: &str, v: Value| {
            if h.get(key).is_none_or(Value::is_null) {
                h[key] = v;
            }
        };
        default("failurePolicy", json!("Fail"));
        default("matchPolicy", json!("Equivalent"));
        default("namespaceSelector", json!({}));
        default("objectSelector", json!({}));
        default("timeoutSeconds", json!(10));
        if mutating {
            default("reinvocationPolicy", json!("Never"));
        }
        if let Some(rules) = h.get_mut("rules").and_then(Value::as_array_mut) {
            for r in rules.iter_mut().filter(|r| r.is_object()) {
                if r.get("scope").is_none_or(Value::is_null) {
                    r["scope"] = json!("*");
                }
            }
        }
        if let Some(svc) = h
            .pointer_mut("/clientConfig/service")
            .filter(|s| s.is_object())
        {
            if svc.get("port").is_none_or(Value::is_null) {
                svc["port"] = json!(443);
            }
        }
    }
}

/// How strict the rules are (relaxed on update where the old object broke them).
struct Options {
    no_side_effects: bool,
    known_review_version: bool,
    unique_names: bool,
    check_conditions: bool,
}

/// ValidatingWebhookConfiguration.
pub(crate) fn validating_webhooks(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    configuration(obj, old, false)
}

/// MutatingWebhookConfiguration.
pub(crate) fn mutating_webhooks(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    configuration(obj, old, true)
}

fn configuration(obj: &Value, old: Option<&Value>, mutating: bool) -> Vec<StatusCause> {
    let opts = match old {
        None => Options {
            no_side_effects: true,
            known_review_version: true,
            unique_names: true,
            check_conditions: true,
        },
        Some(old) => {
            let hooks = arr(old, "webhooks");
            let mut names = HashSet::new();
            Options {
                no_side_effects: hooks
                    .iter()
                    .all(|h| s(h, "sideEffects").is_some_and(|e| NO_SIDE_EFFECTS.contains(&e))),
                known_review_version: hooks.iter().all(|h| {
                    let v = strs(h, "admissionReviewVersions");
                    v.is_empty() || v.iter().any(|v| REVIEW_VERSIONS.contains(&v.as_str()))
                }),
                unique_names: hooks
                    .iter()
                    .all(|h| names.insert(s(h, "name").unwrap_or(""))),
                check_conditions: {
                    let conditions = |o: &Value| -> Vec<Value> {
                        arr(o, "webhooks")
                            .iter()
                            .map(|h| h.get("matchConditions").cloned().unwrap_or(Value::Null))
                            .collect()
                    };
                    conditions(obj) != conditions(old)
                },
            }
        }
    };
    let mut out = Vec::new();
    let mut names = HashSet::new();
    for (i, h) in arr(obj, "webhooks").iter().enumerate() {
        let path = format!("webhooks[{i}]");
        webhook(h, &path, mutating, &opts, &mut out);
        review_versions(
            h,
            &format!("{path}.admissionReviewVersions"),
            &opts,
            &mut out,
        );
        let name = s(h, "name").unwrap_or("");
        if opts.unique_names && !name.is_empty() && !names.insert(name) {
            out.push(duplicate(&format!("{path}.name"), name));
        }
    }
    out
}

fn webhook(h: &Value, path: &str, mutating: bool, opts: &Options, out: &mut Vec<StatusCause>) {
    let f = |child: &str| format!("{path}.{child}");
    let name = s(h, "name").unwrap_or("");
    if name.is_empty() {
        out.push(required(&f("name"), ""));
    } else {
        let msgs = dns_subdomain_msgs(name);
        if !msgs.is_empty() {
            out.push(invalid(&f("name"), name, &msgs.join(",")));
        } else if name.split('.').count() < 3 {
            out.push(invalid(
                &f("name"),
                name,
                "should be a domain with at least three segments separated by dots",
            ));
        }
    }
    for (i, r) in arr(h, "rules").iter().enumerate() {
        rule(r, &format!("{path}.rules[{i}]"), out);
    }
    let one_of = |key: &str, allowed: &[&str], out: &mut Vec<StatusCause>| {
        if let Some(v) = s(h, key).filter(|v| !allowed.contains(v)) {
            out.push(not_supported(&f(key), v, allowed));
        }
    };
    one_of("failurePolicy", &["Fail", "Ignore"], out);
    one_of("matchPolicy", &["Equivalent", "Exact"], out);
    let allowed: &[&str] = match opts.no_side_effects {
        true => &NO_SIDE_EFFECTS,
        false => &ALL_SIDE_EFFECTS,
    };
    match s(h, "sideEffects") {
        None => out.push(required(
            &f("sideEffects"),
            &format!("must specify one of {}", allowed.join(", ")),
        )),
        Some(_) => one_of("sideEffects", allowed, out),
    }
    if let Some(t) = h.get("timeoutSeconds").and_then(Value::as_i64) {
        if !(1..=30).contains(&t) {
            out.push(invalid_int(
                &f("timeoutSeconds"),
                t,
                "the timeout value must be between 1 and 30 seconds",
            ));
        }
    }
    for key in ["namespaceSelector", "objectSelector"] {
        if let Some(sel) = h.get(key).filter(|v| v.is_object()) {
            selector_rules(sel, &f(key), out);
        }
    }
    if mutating {
        one_of("reinvocationPolicy", &["IfNeeded", "Never"], out);
    }
    client_config(
        h.get("clientConfig").unwrap_or(&Value::Null),
        &f("clientConfig"),
        out,
    );
    if opts.check_conditions {
        match_conditions(h, &f("matchConditions"), out);
    }
}

fn review_versions(h: &Value, path: &str, opts: &Options, out: &mut Vec<StatusCause>) {
    let versions = strs(h, "admissionReviewVersions");
    if versions.is_empty() {
        out.push(required(
            path,
            &format!("must specify one of {}", REVIEW_VERSIONS.join(", ")),
        ));
        return;
    }
    let mut seen = HashSet::new();
    for (i, v) in versions.iter().enumerate() {
        let p = format!("{path}[{i}]");
        if !seen.insert(v.as_str()) {
            out.push(invalid(&p, v, "duplicate version"));
            continue;
        }
        for m in dns1035_msgs(v) {
            out.push(invalid(&p, v, &m));
        }
    }
    let known = versions
        .iter()
        .any(|v| REVIEW_VERSIONS.contains(&v.as_str()));
    if opts.known_review_version && !known {
        out.push(invalid_shown(
            path,
            &go_strings(arr(h, "admissionReviewVersions")),
            &format!(
                "must include at least one of {}",
                REVIEW_VERSIONS.join(", ")
            ),
        ));
    }
}

fn client_config(cc: &Value, path: &str, out: &mut Vec<StatusCause>) {
    let url = cc.get("url").filter(|v| !v.is_null());
    let service = cc.get("service").filter(|v| !v.is_null());
    match (url, service) {
        (Some(u), None) => webhook_url(u.as_str().unwrap_or(""), &format!("{path}.url"), out),
        (None, Some(svc)) => webhook_service(svc, &format!("{path}.service"), out),
        _ => out.push(required(path, "exactly one of url or service is required")),
    }
}

/// upstream's ValidateWebhookURL (https only), over a URL split as Go's url.Parse does.
fn webhook_url(url: &str, path: &str, out: &mut Vec<StatusCause>) {
    let (rest, fragment) = url.split_once('#').unwrap_or((url, ""));
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (scheme, after) = match rest.split_once(':') {
        Some((sc, after))
            if !sc.is_empty()
                && sc.starts_with(|c: char| c.is_ascii_alphabetic())
                && sc
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            (sc.to_ascii_lowercase(), after)
        }
        _ => (String::new(), rest),
    };
    let authority = after
        .strip_prefix("//")
        .map(|a| a.split('/').next().unwrap_or(""))
        .unwrap_or("");
    let (user, host) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    if scheme != "https" {
        out.push(invalid(
            path,
            &scheme,
            &format!("'https' is the only allowed URL scheme{URL_FORM}"),
        ));
    }
    if host.is_empty() {
        out.push(invalid(
            path,
            host,
            &format!("host must be specified{URL_FORM}"),
        ));
    }
    if let Some(u) = user {
        out.push(invalid(
            path,
            u,
            "user information is not permitted in the URL",
        ));
    }
    if !fragment.is_empty() {
        out.push(invalid(
            path,
            fragment,
            "fragments are not permitted in the URL",
        ));
    }
    if !query.is_empty() {
        out.push(invalid(
            path,
            query,
            "query parameters are not permitted in the URL",
        ));
    }
}

fn webhook_service(svc: &Value, path: &str, out: &mut Vec<StatusCause>) {
    let f = |child: &str| format!("{path}.{child}");
    if s(svc, "name").unwrap_or("").is_empty() {
        out.push(required(&f("name"), "service name is required"));
    }
    if s(svc, "namespace").unwrap_or("").is_empty() {
        out.push(required(&f("namespace"), "service namespace is required"));
    }
    let port = svc.get("port").and_then(Value::as_i64).unwrap_or(443);
    if !(1..=65535).contains(&port) {
        out.push(invalid_int(
            &f("port"),
            port,
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let Some(p) = s(svc, "path").filter(|p| !p.is_empty() && *p != "/") else {
        return;
    };
    if p == "//" {
        out.push(invalid(&f("path"), p, "segment[0] may not be empty"));
        return;
    }
    if !p.starts_with('/') {
        out.push(invalid(&f("path"), p, "must start with a '/'"));
    }
    let inner = p.get(1..).unwrap_or("");
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    for (i, step) in inner.split('/').enumerate() {
        if step.is_empty() {
            out.push(invalid(
                &f("path"),
                p,
                &format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        for m in dns_subdomain_msgs(step) {
            out.push(invalid(&f("path"), p, &format!("segment[{i}]: {m}")));
        }
    }
}

fn match_conditions(h: &Value, path: &str, out: &mut Vec<StatusCause>) {
    let conditions = arr(h, "matchConditions");
    if conditions.len() > 64 {
        out.push(StatusCause {
            reason: "FieldValueTooMany".into(),
            message: format!("Too many: {}: must have at most 64 items", conditions.len()),
            field: path.into(),
        });
    }
    let mut names = HashSet::new();
    for (i, c) in conditions.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let expression = s(c, "expression").unwrap_or("");
        if expression.trim().is_empty() {
            out.push(required(&format!("{p}.expression"), ""));
        } else if let Err(e) = kas_admission::compile_condition(expression.trim()) {
            out.push(invalid(
                &format!("{p}.expression"),
                expression.trim(),
                &format!("compilation failed: {e}"),
            ));
        }
        let name = s(c, "name").unwrap_or("");
        if name.is_empty() {
            out.push(required(&format!("{p}.name"), ""));
        } else {
            out.extend(each_invalid(
                &format!("{p}.name"),
                name,
                qualified_name_msgs(name),
            ));
            if !names.insert(name) {
                out.push(duplicate(&format!("{p}.name"), name));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> Value {
        json!({"kind": "ValidatingWebhookConfiguration", "metadata": {"name": "c"},
            "webhooks": [{"name": "a.example.com", "sideEffects": "None",
                "admissionReviewVersions": ["v1"],
                "clientConfig": {"url": "https://127.0.0.1:8443/validate"},
                "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                           "resources": ["pods", "pods/status"]}],
                "matchConditions": [{"name": "not-system", "expression": "request.userInfo.username != 'system:admin'"}]}]})
    }

    fn messages(obj: &Value, old: Option<&Value>) -> Vec<String> {
        validating_webhooks(obj, old)
            .into_iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect()
    }

    #[test]
    fn defaults() {
        let mut m = json!({"webhooks": [
            {"name": "m", "rules": [{"operations": ["*"]}],
             "clientConfig": {"service": {"name": "s", "namespace": "n"}}}]});
        mutating_webhook_defaults(&mut m);
        let h = &m["webhooks"][0];
        assert_eq!(h["failurePolicy"], "Fail");
        assert_eq!(h["matchPolicy"], "Equivalent");
        assert_eq!(h["timeoutSeconds"], 10);
        assert_eq!(h["reinvocationPolicy"], "Never");
        assert_eq!(h["namespaceSelector"], json!({}));
        assert_eq!(h["rules"][0]["scope"], "*");
        assert_eq!(h["clientConfig"]["service"]["port"], 443);
        let mut v = good();
        validating_webhook_defaults(&mut v);
        assert!(v["webhooks"][0].get("reinvocationPolicy").is_none());
    }

    #[test]
    fn valid_configuration() {
        assert_eq!(messages(&good(), None), Vec::<String>::new());
    }

    #[test]
    fn invalid_fields_worded_as_upstream() {
        let mut v = good();
        let h = &mut v["webhooks"][0];
        h["name"] = json!("short.name");
        h["sideEffects"] = json!("Some");
        h["timeoutSeconds"] = json!(31);
        h["admissionReviewVersions"] = json!(["v2"]);
        h["clientConfig"]["url"] = json!("http://user@host/x?a=b#frag");
        h["matchConditions"][0]["expression"] = json!("object ==");
        h["rules"][0]["resources"] = json!(["*", "pods"]);
        h["rules"][0]["scope"] = json!("Everywhere");
        let got = messages(&v, None);
        let want = [
            "webhooks[0].name: Invalid value: \"short.name\": should be a domain with at least three segments separated by dots",
            "webhooks[0].rules[0].resources: Invalid value: []string{\"*\", \"pods\"}: if '*' is present, must not specify other resources without subresources",
            "webhooks[0].rules[0].scope: Unsupported value: \"Everywhere\": supported values: \"*\", \"Cluster\", \"Namespaced\"",
            "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"",
            "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
            "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
            "webhooks[0].clientConfig.url: Invalid value: \"user\": user information is not permitted in the URL",
            "webhooks[0].clientConfig.url: Invalid value: \"frag\": fragments are not permitted in the URL",
            "webhooks[0].clientConfig.url: Invalid value: \"a=b\": query parameters are not permitted in the URL",
        ];
        for w in want {
            assert!(got.iter().any(|g| g == w), "missing {w}\n{got:#?}");
        }
        assert!(got.iter().any(|g| g.starts_with(
            "webhooks[0].matchConditions[0].expression: Invalid value: \"object ==\": compilation failed: "
        )), "{got:#?}");
        assert!(got.contains(&"webhooks[0].admissionReviewVersions: Invalid value: []string{\"v2\"}: must include at least one of v1, v1beta1".to_owned()), "{got:#?}");
    }

    #[test]
    fn required_fields() {
        let v = json!({"webhooks": [{"name": "a.example.com", "clientConfig": {},
            "rules": [{}]}, {"name": "a.example.com", "sideEffects": "None",
            "admissionReviewVersions": ["v1"], "clientConfig": {"service": {"port": 0, "path": "no-slash"}}}]});
        let got = messages(&v, None);
        for w in [
            "webhooks[0].rules[0].operations: Required value",
            "webhooks[0].rules[0].apiGroups: Required value",
            "webhooks[0].rules[0].apiVersions: Required value",
            "webhooks[0].rules[0].resources: Required value",
            "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
            "webhooks[0].clientConfig: Required value: exactly one of url or service is required",
            "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
            "webhooks[1].clientConfig.service.name: Required value: service name is required",
            "webhooks[1].clientConfig.service.namespace: Required value: service namespace is required",
            "webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
            "webhooks[1].clientConfig.service.path: Invalid value: \"no-slash\": must start with a '/'",
            "webhooks[1].name: Duplicate value: \"a.example.com\"",
        ] {
            assert!(got.iter().any(|g| g == w), "missing {w}\n{got:#?}");
        }
    }

    #[test]
    fn updates_keep_what_was_stored() {
        let mut old = good();
        old["webhooks"][0]["sideEffects"] = json!("Some");
        let mut new = old.clone();
        new["webhooks"][0]["timeoutSeconds"] = json!(5);
        assert_eq!(messages(&new, Some(&old)), Vec::<String>::new());
        assert!(!messages(&new, None).is_empty());
    }
}
