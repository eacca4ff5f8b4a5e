//! Request-header authentication (a front proxy, `--requestheader-*`): a client whose
//! certificate the request-header CA vouches for (with an allowed common name) may name
//! the user in headers: the first non-empty username header, every value of the group
//! headers, extra keys from the prefixed headers (the rest of the name, unescaped and
//! lower-cased), the uid header. From anyone else these headers mean nothing, and they
//! never travel further than the front door.

use http::HeaderMap;
use kas_proto::{RequestHeaderConfig, UserInfo};
use kas_server::health::path_unescape;

/// The user a trusted front proxy names, or None when no username header is set.
pub(crate) fn user(rh: &RequestHeaderConfig, headers: &HeaderMap) -> Option<UserInfo> {
    let first = |names: &[String]| {
        names.iter().find_map(|n| {
            headers
                .get_all(n.as_str())
                .iter()
                .filter_map(|v| v.to_str().ok())
                .find(|v| !v.is_empty())
                .map(str::to_owned)
        })
    };
    let name = first(&rh.username_headers)?;
    let uid = first(&rh.uid_headers).unwrap_or_default();
    let mut groups: Vec<String> = rh
        .group_headers
        .iter()
        .flat_map(|n| headers.get_all(n.as_str()).iter())
        .filter_map(|v| v.to_str().ok().map(str::to_owned))
        .collect();
    let mut extra: Vec<(String, Vec<String>)> = Vec::new();
    for (header, value) in headers {
        let Some(value) = value.to_str().ok() else {
            continue;
        };
        let key = rh.extra_headers_prefix.iter().find_map(|p| {
            let p = p.to_ascii_lowercase();
            header
                .as_str()
                .strip_prefix(p.as_str())
                .filter(|k| !k.is_empty())
        });
        let Some(key) = key else {
            continue;
        };
        let key = path_unescape(key).to_ascii_lowercase();
        match extra.iter_mut().find(|(k, _)| *k == key) {
            Some((_, values)) => values.push(value.to_owned()),
            None => extra.push((key, vec![value.to_owned()])),
        }
    }
    if !groups.iter().any(|g| g == "system:authenticated") {
        groups.push("system:authenticated".to_owned());
    }
    Some(UserInfo {
        name,
        uid,
        groups,
        extra,
    })
}

/// Removes every request-header header, so that nothing behind the front door sees them.
pub(crate) fn strip(rh: &RequestHeaderConfig, headers: &mut HeaderMap) {
    for name in rh
        .username_headers
        .iter()
        .chain(&rh.uid_headers)
        .chain(&rh.group_headers)
    {
        headers.remove(name.as_str());
    }
    let prefixes: Vec<String> = rh
        .extra_headers_prefix
        .iter()
        .map(|p| p.to_ascii_lowercase())
        .collect();
    let extra: Vec<http::HeaderName> = headers
        .keys()
        .filter(|h| prefixes.iter().any(|p| h.as_str().starts_with(p.as_str())))
        .cloned()
        .collect();
    for h in extra {
        headers.remove(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> RequestHeaderConfig {
        RequestHeaderConfig {
            username_headers: vec!["X-Remote-User".into()],
            uid_headers: vec!["X-Remote-Uid".into()],
            group_headers: vec!["X-Remote-Group".into()],
            extra_headers_prefix: vec!["X-Remote-Extra-".into()],
            ..RequestHeaderConfig::default()
        }
    }

    #[test]
    fn users_from_headers() {
        let mut h = HeaderMap::new();
        assert_eq!(user(&config(), &h), None);
        h.insert("x-remote-user", "alice".parse().expect("v"));
        h.insert("x-remote-uid", "u-1".parse().expect("v"));
        h.append("x-remote-group", "devs".parse().expect("v"));
        h.append("x-remote-group", "ops".parse().expect("v"));
        h.append("x-remote-extra-scopes", "a".parse().expect("v"));
        h.append("x-remote-extra-scopes", "b".parse().expect("v"));
        h.append("x-remote-extra-acme.com%2fproject", "p".parse().expect("v"));
        let u = user(&config(), &h).expect("user");
        assert_eq!((u.name.as_str(), u.uid.as_str()), ("alice", "u-1"));
        assert_eq!(u.groups, ["devs", "ops", "system:authenticated"]);
        assert_eq!(
            u.extra,
            vec![
                ("scopes".to_owned(), vec!["a".to_owned(), "b".to_owned()]),
                ("acme.com/project".to_owned(), vec!["p".to_owned()]),
            ]
        );
        h.insert("authorization", "Bearer x".parse().expect("v"));
        strip(&config(), &mut h);
        assert_eq!(h.len(), 1, "{h:?}");
        assert_eq!(path_unescape("a%2Fb%zz%4+"), "a/b%zz%4+");
    }
}
