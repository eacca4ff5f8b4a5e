//! One audit event, serialised as `audit.k8s.io/v1` Event: what the front door knows of a
//! request at one stage of its life.

use std::collections::BTreeMap;
use std::time::SystemTime;

use kas_proto::{AuditLevel, AuditStage, UserInfo};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::value::RawValue;

/// An `audit.k8s.io/v1` Event.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Event {
    /// `level`.
    #[serde(serialize_with = "level")]
    pub(crate) level: AuditLevel,
    /// `auditID`, also the response's `Audit-Id`.
    #[serde(rename = "auditID")]
    pub(crate) audit_id: String,
    /// `stage`.
    #[serde(serialize_with = "stage")]
    pub(crate) stage: AuditStage,
    /// `requestURI`: path and query as sent.
    #[serde(rename = "requestURI")]
    pub(crate) request_uri: String,
    /// `verb`: the request verb (`get`, `list`, `create`, …), or the HTTP method in lower
    /// case for non-resource requests.
    pub(crate) verb: String,
    /// `user`: who sent the request (the authenticated user, before impersonation).
    #[serde(serialize_with = "user")]
    pub(crate) user: UserInfo,
    /// `impersonatedUser`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "optional_user"
    )]
    pub(crate) impersonated_user: Option<UserInfo>,
    /// `sourceIPs`: the `X-Forwarded-For` chain, then the connection's peer.
    #[serde(rename = "sourceIPs", skip_serializing_if = "Vec::is_empty")]
    pub(crate) source_ips: Vec<String>,
    /// `userAgent`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) user_agent: String,
    /// `objectRef`: resource requests only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) object_ref: Option<ObjectRef>,
    /// `responseStatus`: a `metav1.Status` (just `code` on success).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) response_status: Option<Box<RawValue>>,
    /// `requestObject`, at level Request and above.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) request_object: Option<Box<RawValue>>,
    /// `responseObject`, at level RequestResponse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) response_object: Option<Box<RawValue>>,
    /// `requestReceivedTimestamp`, microseconds.
    #[serde(serialize_with = "micro_time")]
    pub(crate) request_received_timestamp: SystemTime,
    /// `stageTimestamp`, microseconds.
    #[serde(serialize_with = "micro_time")]
    pub(crate) stage_timestamp: SystemTime,
    /// `annotations`: authorization's decision and reason, admission plugins'.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) annotations: BTreeMap<String, String>,
}

/// `objectRef` of an event.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ObjectRef {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) resource: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) namespace: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) uid: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) api_group: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) resource_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) subresource: String,
}

impl Event {
    /// The event as one JSON object with `kind` and `apiVersion` (`version` is
    /// `--audit-*-version`).
    pub(crate) fn to_json(&self, version: &str) -> Vec<u8> {
        #[derive(Serialize)]
        struct Typed<'a> {
            kind: &'static str,
            #[serde(rename = "apiVersion")]
            api_version: &'a str,
            #[serde(flatten)]
            event: &'a Event,
        }
        // Serialising plain strings, maps and raw JSON cannot fail.
        serde_json::to_vec(&Typed {
            kind: "Event",
            api_version: version,
            event: self,
        })
        .unwrap_or_default()
    }

    /// An `audit.k8s.io` EventList of `events`, as a webhook receives it.
    pub(crate) fn list_json(events: &[std::sync::Arc<Event>], version: &str) -> Vec<u8> {
        let mut out =
            format!(r#"{{"kind":"EventList","apiVersion":"{version}","metadata":{{}},"items":["#)
                .into_bytes();
        for (i, e) in events.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&e.to_json(version));
        }
        out.extend_from_slice(b"]}");
        out
    }
}

fn level<S: Serializer>(l: &AuditLevel, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(l.as_str())
}

fn stage<S: Serializer>(st: &AuditStage, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(st.as_str())
}

/// `authentication.k8s.io/v1` UserInfo's JSON: `username`, `uid`, `groups`, `extra`.
fn user<S: Serializer>(u: &UserInfo, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(None)?;
    if !u.name.is_empty() {
        map.serialize_entry("username", &u.name)?;
    }
    if !u.uid.is_empty() {
        map.serialize_entry("uid", &u.uid)?;
    }
    if !u.groups.is_empty() {
        map.serialize_entry("groups", &u.groups)?;
    }
    if !u.extra.is_empty() {
        let extra: BTreeMap<&str, &Vec<String>> =
            u.extra.iter().map(|(k, v)| (k.as_str(), v)).collect();
        map.serialize_entry("extra", &extra)?;
    }
    map.end()
}

fn optional_user<S: Serializer>(u: &Option<UserInfo>, s: S) -> Result<S::Ok, S::Error> {
    match u {
        Some(u) => user(u, s),
        None => s.serialize_none(),
    }
}

/// metav1.MicroTime: RFC 3339 in UTC with six fractional digits.
fn micro_time<S: Serializer>(t: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&humantime::format_rfc3339_micros(*t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn serialises_as_audit_v1() {
        let t = UNIX_EPOCH + Duration::from_micros(1_764_114_385_123_456);
        let e = Event {
            level: AuditLevel::Metadata,
            audit_id: "a1".into(),
            stage: AuditStage::ResponseComplete,
            request_uri: "/api/v1/namespaces/default/pods?limit=500".into(),
            verb: "list".into(),
            user: UserInfo {
                name: "admin".into(),
                groups: vec!["system:masters".into()],
                ..Default::default()
            },
            impersonated_user: None,
            source_ips: vec!["127.0.0.1".into()],
            user_agent: "kubectl/v1.33.0".into(),
            object_ref: Some(ObjectRef {
                resource: "pods".into(),
                namespace: "default".into(),
                api_version: "v1".into(),
                ..Default::default()
            }),
            response_status: Some(
                RawValue::from_string(r#"{"metadata":{},"code":200}"#.into()).unwrap(),
            ),
            request_object: None,
            response_object: None,
            request_received_timestamp: t,
            stage_timestamp: t,
            annotations: BTreeMap::from([("authorization.k8s.io/decision".into(), "allow".into())]),
        };
        let v: serde_json::Value = serde_json::from_slice(&e.to_json("audit.k8s.io/v1")).unwrap();
        assert_eq!(
            v,
            serde_json::json!({
                "kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "Metadata",
                "auditID": "a1", "stage": "ResponseComplete",
                "requestURI": "/api/v1/namespaces/default/pods?limit=500", "verb": "list",
                "user": {"username": "admin", "groups": ["system:masters"]},
                "sourceIPs": ["127.0.0.1"], "userAgent": "kubectl/v1.33.0",
                "objectRef": {"resource": "pods", "namespace": "default", "apiVersion": "v1"},
                "responseStatus": {"metadata": {}, "code": 200},
                "requestReceivedTimestamp": "2025-11-25T23:46:25.123456Z",
                "stageTimestamp": "2025-11-25T23:46:25.123456Z",
                "annotations": {"authorization.k8s.io/decision": "allow"}
            })
        );
        let list: serde_json::Value = serde_json::from_slice(&Event::list_json(
            &[std::sync::Arc::new(e)],
            "audit.k8s.io/v1",
        ))
        .unwrap();
        assert_eq!(list["kind"], "EventList");
        assert_eq!(list["items"][0]["auditID"], "a1");
    }
}
