//! Parsing a request into kube-apiserver's RequestInfo (verb, group, version, namespace,
//! resource, subresource, name), and the long-running / mutating classification the
//! handler chain needs.

use http::Method;
use kas_proto::RequestInfo;

/// Subresources of `namespaces/{name}` that are not the start of a namespaced path.
const NAMESPACE_SUBRESOURCES: [&str; 2] = ["status", "finalize"];

/// Subresources that hold a connection open for a long time.
const LONG_RUNNING_SUBRESOURCES: [&str; 5] = ["proxy", "attach", "exec", "log", "portforward"];

/// Builds the RequestInfo for `method` on `path` with `query`.
/// The path is read unescaped, as Go's `URL.Path` is (`…/configmaps/es%63` names `esc`).
pub fn parse(method: &Method, path: &str, query: Option<&str>) -> RequestInfo {
    let path = crate::health::path_unescape(path);
    let mut info = RequestInfo {
        path: path.clone(),
        verb: method.as_str().to_ascii_lowercase(),
        ..Default::default()
    };
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let mut rest: &[&str] = match parts.as_slice() {
        ["api", version, rest @ ..] => {
            info.api_prefix = "api".into();
            info.api_version = (*version).into();
            rest
        }
        ["apis", group, version, rest @ ..] => {
            info.api_prefix = "apis".into();
            info.api_group = (*group).into();
            info.api_version = (*version).into();
            rest
        }
        _ => return info,
    };
    if rest.is_empty() {
        return info;
    }
    info.is_resource_request = true;

    let mut watch_prefix = false;
    if rest[0] == "watch" {
        watch_prefix = true;
        rest = &rest[1..];
    }
    info.verb = match *method {
        Method::POST => "create",
        Method::GET | Method::HEAD => "get",
        Method::PUT => "update",
        Method::PATCH => "patch",
        Method::DELETE => "delete",
        _ => "",
    }
    .into();
    if watch_prefix {
        info.verb = "watch".into();
    }

    if rest.first() == Some(&"namespaces") {
        if let Some(ns) = rest.get(1) {
            info.namespace = (*ns).into();
            if rest.len() > 2 && !NAMESPACE_SUBRESOURCES.contains(&rest[2]) {
                rest = &rest[2..];
            }
        }
    }
    info.resource = rest.first().map(|s| (*s).into()).unwrap_or_default();
    info.name = rest.get(1).map(|s| (*s).into()).unwrap_or_default();
    info.subresource = rest.get(2).map(|s| (*s).into()).unwrap_or_default();
    if info.resource == "namespaces" && !info.name.is_empty() {
        // `namespaces/{name}` is the namespace object itself, not a scope.
        info.namespace = info.name.clone();
    }

    if info.name.is_empty() && info.verb == "get" {
        info.verb = if watch_query(query) { "watch" } else { "list" }.into();
        // A list or watch of one object by `metadata.name` names it, as upstream's
        // RequestInfoFactory does (kubelets watch their secrets so).
        if let Some(name) = exact_name(&field_selector_of(query)) {
            info.name = name;
        }
    } else if info.name.is_empty() && info.verb == "delete" {
        info.verb = "deletecollection".into();
    } else if watch_query(query) && info.verb == "get" {
        info.verb = "watch".into();
    }
    info
}

/// The decoded `fieldSelector` query parameter (empty without one).
/// The decoded value of query parameter `name`, or "".
fn query_param(query: Option<&str>, name: &str) -> String {
    query
        .unwrap_or("")
        .split('&')
        .find_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k == name).then(|| crate::health::percent_decode(&v.replace('+', " ")))
        })
        .unwrap_or_default()
}

fn field_selector_of(query: Option<&str>) -> String {
    query_param(query, "fieldSelector")
}

/// The field selector a list, watch or deletecollection passes to the authorizers (as
/// upstream's AuthorizeWithSelectors does); empty for other verbs.
pub fn field_selector(info: &RequestInfo, query: Option<&str>) -> String {
    match info.verb.as_str() {
        "list" | "watch" | "deletecollection" => field_selector_of(query),
        _ => String::new(),
    }
}

/// The label selector a list, watch or deletecollection passes to the authorizers;
/// empty for other verbs.
pub fn label_selector(info: &RequestInfo, query: Option<&str>) -> String {
    match info.verb.as_str() {
        "list" | "watch" | "deletecollection" => query_param(query, "labelSelector"),
        _ => String::new(),
    }
}

/// The name a selector requires with `metadata.name=<name>` (or `==`), when it is a
/// valid path segment.
fn exact_name(selector: &str) -> Option<String> {
    let name = selector.split(',').find_map(|term| {
        if term.contains("!=") {
            return None;
        }
        let (k, v) = term.split_once("==").or_else(|| term.split_once('='))?;
        (k.trim() == "metadata.name").then(|| v.trim())
    })?;
    let valid = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains('/')
        && !name.contains('%');
    valid.then(|| name.to_owned())
}

/// `watch` as upstream's RequestInfo reads it: its first value, true unless `0` or
/// `false` (any case).
fn watch_query(query: Option<&str>) -> bool {
    query
        .unwrap_or("")
        .split('&')
        .find_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k == "watch").then_some(v)
        })
        .is_some_and(|v| !(v == "0" || v.eq_ignore_ascii_case("false")))
}

/// Whether the request holds its connection open (watch, exec, logs, proxy…): exempt
/// from the in-flight limits and the request timeout, and ended last at shutdown.
pub fn is_long_running(info: &RequestInfo) -> bool {
    info.verb == "watch"
        || (info.is_resource_request
            && LONG_RUNNING_SUBRESOURCES.contains(&info.subresource.as_str()))
}

/// Whether the request changes state (counted against `--max-mutating-requests-inflight`).
pub fn is_mutating(info: &RequestInfo) -> bool {
    !matches!(
        info.verb.as_str(),
        "get" | "list" | "watch" | "proxy" | "head" | "options"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(m: Method, path: &str, q: Option<&str>) -> RequestInfo {
        parse(&m, path, q)
    }

    #[test]
    fn watch_is_any_value_but_0_or_false_as_upstream_reads_it() {
        let verb = |q: &str| p(Method::GET, "/api/v1/pods", Some(q)).verb;
        for q in [
            "watch=true",
            "watch=True",
            "watch=1",
            "watch=",
            "watch",
            "watch=x&watch=0",
        ] {
            assert_eq!(verb(q), "watch", "{q}");
        }
        for q in [
            "watch=false",
            "watch=FALSE",
            "watch=0",
            "watch=0&watch=1",
            "limit=1",
        ] {
            assert_eq!(verb(q), "list", "{q}");
        }
    }

    #[test]
    fn core_resources() {
        let i = p(Method::GET, "/api/v1/namespaces/default/pods/web", None);
        assert!(i.is_resource_request);
        assert_eq!(
            (
                i.verb.as_str(),
                i.api_group.as_str(),
                i.api_version.as_str(),
                i.namespace.as_str(),
                i.resource.as_str(),
                i.name.as_str()
            ),
            ("get", "", "v1", "default", "pods", "web")
        );
        let i = p(
            Method::GET,
            "/api/v1/namespaces/default/pods",
            Some("watch=true"),
        );
        assert_eq!(i.verb, "watch");
        assert!(is_long_running(&i));
        let i = p(Method::DELETE, "/api/v1/namespaces/default/pods", None);
        assert_eq!(i.verb, "deletecollection");
        let i = p(Method::GET, "/api/v1/namespaces/default/pods/web/log", None);
        assert_eq!(i.subresource, "log");
        assert!(is_long_running(&i));
    }

    #[test]
    fn one_object_by_field_selector() {
        let q = Some("fieldSelector=metadata.name%3Ds1&watch=true");
        let i = p(Method::GET, "/api/v1/namespaces/default/secrets", q);
        assert_eq!((i.verb.as_str(), i.name.as_str()), ("watch", "s1"));
        assert_eq!(field_selector(&i, q), "metadata.name=s1");
        let i = p(
            Method::GET,
            "/api/v1/pods",
            Some("fieldSelector=spec.nodeName%3Dn1"),
        );
        assert_eq!((i.verb.as_str(), i.name.as_str()), ("list", ""));
        let q = Some("fieldSelector=metadata.name!%3Ds1");
        let i = p(Method::GET, "/api/v1/namespaces/default/secrets", q);
        assert_eq!(i.name, "");
        let i = p(Method::GET, "/api/v1/namespaces/default/secrets/s1", q);
        assert_eq!(field_selector(&i, q), "");
    }

    #[test]
    fn namespaces_themselves() {
        let i = p(Method::GET, "/api/v1/namespaces/kube-system", None);
        assert_eq!(
            (i.resource.as_str(), i.name.as_str()),
            ("namespaces", "kube-system")
        );
        let i = p(Method::PUT, "/api/v1/namespaces/x/finalize", None);
        assert_eq!(
            (i.verb.as_str(), i.resource.as_str(), i.subresource.as_str()),
            ("update", "namespaces", "finalize")
        );
    }

    #[test]
    fn groups_and_non_resource() {
        let i = p(Method::POST, "/apis/apps/v1/namespaces/d/deployments", None);
        assert_eq!((i.verb.as_str(), i.api_group.as_str()), ("create", "apps"));
        assert!(is_mutating(&i));
        let i = p(Method::GET, "/apis/apps", None);
        assert!(!i.is_resource_request);
        let i = p(Method::GET, "/healthz", None);
        assert!(!i.is_resource_request);
        assert_eq!(i.verb, "get");
        assert!(!is_mutating(&i));
    }

    #[test]
    fn the_path_is_read_unescaped() {
        let i = p(
            Method::GET,
            "/api/v1/namespaces/def%61ult/configmaps/n%3Co",
            None,
        );
        assert_eq!((i.namespace.as_str(), i.name.as_str()), ("default", "n<o"));
        assert_eq!(i.path, "/api/v1/namespaces/default/configmaps/n<o");
    }
}
