//! Impersonation (`Impersonate-User`, `-Group`, `-Uid`, `-Extra-<key>`), as
//! kube-apiserver's filter does it after authentication: each thing asked for is
//! authorized with the `impersonate` verb for the authenticated user (users, groups and
//! service accounts in the core group, `uids` and `userextras/<key>` in
//! `authentication.k8s.io`); then the request goes on as the impersonated user, with
//! `system:authenticated` (or `system:unauthenticated` for `system:anonymous`) added as
//! upstream adds it. The headers are removed before the request is delegated.

use http::{HeaderMap, Response, StatusCode};
use kas_proto::{RequestInfo, UserInfo};
use kas_server::body::Body;

use crate::front::Front;

const USER: &str = "impersonate-user";
const GROUP: &str = "impersonate-group";
const UID: &str = "impersonate-uid";
const EXTRA_PREFIX: &str = "impersonate-extra-";

/// One thing asked to be impersonated (upstream's ObjectReference per request).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Asked {
    ServiceAccount { namespace: String, name: String },
    User(String),
    Group(String),
    Extra { key: String, value: String },
    Uid(String),
}

impl Asked {
    /// The `impersonate` request the authorizer is asked about.
    fn attributes(&self) -> RequestInfo {
        let (group, resource, subresource, namespace, name) = match self {
            Asked::ServiceAccount { namespace, name } => {
                ("", "serviceaccounts", "", namespace.as_str(), name.as_str())
            }
            Asked::User(name) => ("", "users", "", "", name.as_str()),
            Asked::Group(name) => ("", "groups", "", "", name.as_str()),
            Asked::Extra { key, value } => (
                "authentication.k8s.io",
                "userextras",
                key.as_str(),
                "",
                value.as_str(),
            ),
            Asked::Uid(uid) => ("authentication.k8s.io", "uids", "", "", uid.as_str()),
        };
        RequestInfo {
            is_resource_request: true,
            verb: "impersonate".into(),
            api_group: group.into(),
            api_version: "v1".into(),
            namespace: namespace.into(),
            resource: resource.into(),
            subresource: subresource.into(),
            name: name.into(),
            ..Default::default()
        }
    }

    /// Go's `%v` of the ObjectReference upstream builds (for its error message).
    fn go_value(&self) -> String {
        let auth = "authentication.k8s.io/v1";
        let (kind, ns, name, api_version, field) = match self {
            Asked::ServiceAccount { namespace, name } => {
                ("ServiceAccount", namespace.as_str(), name.as_str(), "", "")
            }
            Asked::User(n) => ("User", "", n.as_str(), "", ""),
            Asked::Group(n) => ("Group", "", n.as_str(), "", ""),
            Asked::Extra { key, value } => ("UserExtra", "", value.as_str(), auth, key.as_str()),
            Asked::Uid(u) => ("UID", "", u.as_str(), auth, ""),
        };
        format!("{{{kind} {ns} {name}  {api_version}  {field}}}")
    }
}

/// The percent-decoded extra key of a header name (kept as sent when it does not decode).
fn extra_key(encoded: &str) -> String {
    let bytes = encoded.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => return encoded.to_owned(),
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| encoded.to_owned())
}

/// What the headers ask for, in upstream's order; an error when groups, extras or a
/// UID come without a user.
fn asked(headers: &HeaderMap) -> Result<Vec<Asked>, String> {
    let text = |v: &http::HeaderValue| String::from_utf8_lossy(v.as_bytes()).into_owned();
    let mut out = Vec::new();
    let user = headers.get(USER).map(text).filter(|u| !u.is_empty());
    if let Some(user) = &user {
        let sa = user
            .strip_prefix("system:serviceaccount:")
            .and_then(|rest| rest.split_once(':'))
            .filter(|(ns, name)| !ns.is_empty() && !name.is_empty() && !name.contains(':'));
        out.push(match sa {
            Some((namespace, name)) => Asked::ServiceAccount {
                namespace: namespace.into(),
                name: name.into(),
            },
            None => Asked::User(user.clone()),
        });
    }
    let groups: Vec<String> = headers.get_all(GROUP).iter().map(text).collect();
    out.extend(groups.iter().cloned().map(Asked::Group));
    let mut extras = Vec::new();
    for (name, value) in headers {
        if let Some(key) = name.as_str().strip_prefix(EXTRA_PREFIX) {
            extras.push(Asked::Extra {
                key: extra_key(key),
                value: text(value),
            });
        }
    }
    let has_extra = !extras.is_empty();
    out.extend(extras);
    let uid = headers.get(UID).map(text).filter(|u| !u.is_empty());
    if let Some(uid) = &uid {
        out.push(Asked::Uid(uid.clone()));
    }
    if user.is_none() && (!groups.is_empty() || has_extra || uid.is_some()) {
        let list: Vec<String> = out.iter().map(Asked::go_value).collect();
        return Err(format!(
            "requested [{}] without impersonating a user",
            list.join(" ")
        ));
    }
    Ok(out)
}

/// The user the request runs as: `user` itself without impersonation headers, else the
/// impersonated one if `user` may impersonate everything asked; otherwise the answer
/// to send (403 naming what was refused, or upstream's 500 for malformed headers).
pub(crate) async fn impersonate(
    front: &Front,
    user: UserInfo,
    headers: &HeaderMap,
    uri: &http::Uri,
) -> Result<UserInfo, Response<Body>> {
    let asked = match asked(headers) {
        Ok(a) if a.is_empty() => return Ok(user),
        Ok(a) => a,
        Err(e) => {
            let path = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
            let message = format!("Internal Server Error: {path:?}: {e}");
            return Err(kas_server::status::go_http_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                &message,
            ));
        }
    };
    let groups_given = asked.iter().any(|a| matches!(a, Asked::Group(_)));
    let mut next = UserInfo::default();
    for a in &asked {
        let info = a.attributes();
        if let Some(refused) = crate::chain::authorize(front, &user, &info).await {
            return Err(crate::chain::forbidden_response(refused, headers));
        }
        match a {
            Asked::ServiceAccount { namespace, name } => {
                next.name = format!("system:serviceaccount:{namespace}:{name}");
                if !groups_given {
                    next.groups = vec![
                        "system:serviceaccounts".into(),
                        format!("system:serviceaccounts:{namespace}"),
                    ];
                }
            }
            Asked::User(name) => next.name = name.clone(),
            Asked::Group(g) => next.groups.push(g.clone()),
            Asked::Extra { key, value } => match next.extra.iter_mut().find(|(k, _)| k == key) {
                Some((_, values)) => values.push(value.clone()),
                None => next.extra.push((key.clone(), vec![value.clone()])),
            },
            Asked::Uid(uid) => next.uid = uid.clone(),
        }
    }
    let has = |g: &str| next.groups.iter().any(|x| x == g);
    if next.name != "system:anonymous" {
        if !has("system:authenticated") && !has("system:unauthenticated") {
            next.groups.push("system:authenticated".into());
        }
    } else if !has("system:unauthenticated") {
        next.groups.push("system:unauthenticated".into());
    }
    tracing::debug!(user = %user.name, as_user = %next.name, "impersonating");
    Ok(next)
}

/// The request's headers without the impersonation ones (they are not passed on).
pub(crate) fn strip(headers: &mut HeaderMap) {
    let names: Vec<http::HeaderName> = headers
        .keys()
        .filter(|n| {
            let n = n.as_str();
            n == USER || n == GROUP || n == UID || n.starts_with(EXTRA_PREFIX)
        })
        .cloned()
        .collect();
    for n in names {
        headers.remove(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                http::HeaderName::from_bytes(k.as_bytes()).expect("name"),
                http::HeaderValue::from_str(v).expect("value"),
            );
        }
        h
    }

    #[test]
    fn what_the_headers_ask_for() {
        let h = headers(&[
            ("Impersonate-User", "system:serviceaccount:team:robot"),
            ("Impersonate-Group", "devs"),
            ("Impersonate-Group", "ops"),
            ("Impersonate-Extra-Scopes%2Fwrite", "yes"),
            ("Impersonate-Uid", "1234"),
        ]);
        assert_eq!(
            asked(&h).expect("asked"),
            vec![
                Asked::ServiceAccount {
                    namespace: "team".into(),
                    name: "robot".into()
                },
                Asked::Group("devs".into()),
                Asked::Group("ops".into()),
                Asked::Extra {
                    key: "scopes/write".into(),
                    value: "yes".into()
                },
                Asked::Uid("1234".into()),
            ]
        );
        assert_eq!(asked(&headers(&[])).expect("none"), vec![]);
        assert_eq!(
            asked(&headers(&[("Impersonate-Group", "devs")])).expect_err("no user"),
            "requested [{Group  devs    }] without impersonating a user"
        );
    }

    #[test]
    fn attributes_name_what_is_impersonated() {
        let a = Asked::Extra {
            key: "scopes".into(),
            value: "read".into(),
        }
        .attributes();
        assert_eq!(
            (
                a.verb.as_str(),
                a.api_group.as_str(),
                a.resource.as_str(),
                a.subresource.as_str(),
                a.name.as_str()
            ),
            (
                "impersonate",
                "authentication.k8s.io",
                "userextras",
                "scopes",
                "read"
            )
        );
    }
}
