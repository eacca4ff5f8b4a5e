//! What an event says of the request itself: the base every stage starts from (URI,
//! verb, user, source IPs, user agent, the objectRef the URL names), the objectRef
//! completed from the request object, and the credentials a request that failed
//! authentication carried.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::time::SystemTime;

use kas_proto::{AuditStage, RequestInfo, UserInfo};

use super::policy::Verdict;
use super::{Event, ObjectRef};

/// Fills what the URL did not say of the object (a create names it only in its body)
/// from the request object's metadata.
pub(super) fn fill_object_ref(object_ref: &mut ObjectRef, object: &serde_json::value::RawValue) {
    #[derive(serde::Deserialize, Default)]
    #[serde(default, rename_all = "camelCase")]
    struct Meta {
        namespace: String,
        name: String,
        uid: String,
        resource_version: String,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Object {
        metadata: Meta,
    }
    let Ok(Object { metadata: m }) = serde_json::from_str::<Object>(object.get()) else {
        return;
    };
    for (field, value) in [
        (&mut object_ref.namespace, m.namespace),
        (&mut object_ref.name, m.name),
        (&mut object_ref.uid, m.uid),
        (&mut object_ref.resource_version, m.resource_version),
    ] {
        if field.is_empty() {
            *field = value;
        }
    }
}

/// The event every stage of a request starts from.
pub(super) fn base_event(
    verdict: &Verdict,
    user: &UserInfo,
    info: &RequestInfo,
    parts: &http::request::Parts,
    peer: SocketAddr,
    audit_id: &str,
    received: SystemTime,
) -> Event {
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    };
    let object_ref = info.is_resource_request.then(|| ObjectRef {
        resource: info.resource.clone(),
        namespace: info.namespace.clone(),
        name: info.name.clone(),
        api_group: info.api_group.clone(),
        api_version: info.api_version.clone(),
        subresource: info.subresource.clone(),
        ..Default::default()
    });
    Event {
        level: verdict.level,
        audit_id: audit_id.to_owned(),
        stage: AuditStage::RequestReceived,
        request_uri: parts
            .uri
            .path_and_query()
            .map(|p| p.as_str().to_owned())
            .unwrap_or_else(|| "/".into()),
        verb: info.verb.clone(),
        user: user.clone(),
        impersonated_user: None,
        source_ips: source_ips(header("x-forwarded-for"), header("x-real-ip"), peer.ip()),
        user_agent: header("user-agent").to_owned(),
        object_ref,
        response_status: None,
        request_object: None,
        response_object: None,
        request_received_timestamp: received,
        stage_timestamp: SystemTime::now(),
        annotations: BTreeMap::new(),
    }
}

/// The client's addresses as upstream lists them: the `X-Forwarded-For` chain, then
/// `X-Real-Ip` if not already there, then the connection's peer unless it is the last.
fn source_ips(forwarded_for: &str, real_ip: &str, peer: IpAddr) -> Vec<String> {
    let mut ips: Vec<IpAddr> = forwarded_for
        .split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    if let Ok(ip) = real_ip.trim().parse::<IpAddr>() {
        if !ips.contains(&ip) {
            ips.push(ip);
        }
    }
    let peer = peer.to_canonical();
    if ips.last() != Some(&peer) {
        ips.push(peer);
    }
    ips.iter().map(IpAddr::to_string).collect()
}

/// Which credentials a request that failed authentication carried (upstream's wording).
pub(super) fn attempted(parts: &http::request::Parts, client_certificate: bool) -> String {
    let mut methods = Vec::new();
    let auth = parts
        .headers
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .trim();
    let scheme = auth.split(' ').next().unwrap_or("");
    if scheme.eq_ignore_ascii_case("basic") {
        methods.push("basic");
    }
    if auth.split(' ').count() > 1 && scheme.eq_ignore_ascii_case("bearer") {
        methods.push("bearer");
    }
    let access_token = parts.uri.query().is_some_and(|q| {
        form_urlencoded_pairs(q).any(|(k, v)| k == "access_token" && !v.trim().is_empty())
    });
    if access_token {
        methods.push("access_token");
    }
    if client_certificate {
        methods.push("x509");
    }
    if methods.is_empty() {
        "Authentication failed, no credentials provided".to_owned()
    } else {
        format!("Authentication failed, attempted: {}", methods.join(", "))
    }
}

fn form_urlencoded_pairs(q: &str) -> impl Iterator<Item = (&str, &str)> {
    q.split('&')
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
}

#[cfg(test)]
mod tests {
    use http::Request;

    use super::*;

    #[test]
    fn source_ip_chain() {
        let peer: IpAddr = "10.0.0.9".parse().unwrap();
        assert_eq!(source_ips("", "", peer), ["10.0.0.9"]);
        assert_eq!(
            source_ips("1.2.3.4, bogus, 5.6.7.8", "1.2.3.4", peer),
            ["1.2.3.4", "5.6.7.8", "10.0.0.9"]
        );
        assert_eq!(source_ips("10.0.0.9", "", peer), ["10.0.0.9"]);
        assert_eq!(
            source_ips("", "9.9.9.9", "::ffff:127.0.0.1".parse().unwrap()),
            ["9.9.9.9", "127.0.0.1"]
        );
    }

    #[test]
    fn attempted_credentials() {
        let parts = |auth: Option<&str>, uri: &str| {
            let mut b = Request::builder().uri(uri);
            if let Some(a) = auth {
                b = b.header("authorization", a);
            }
            b.body(()).unwrap().into_parts().0
        };
        assert_eq!(
            attempted(&parts(None, "/api"), false),
            "Authentication failed, no credentials provided"
        );
        assert_eq!(
            attempted(&parts(Some("Bearer abc"), "/api"), true),
            "Authentication failed, attempted: bearer, x509"
        );
        assert_eq!(
            attempted(&parts(Some("Basic eDp5"), "/api?access_token=t"), false),
            "Authentication failed, attempted: basic, access_token"
        );
    }
}
