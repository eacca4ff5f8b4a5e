//! The authentication and authorization APIs kube-apiserver serves itself: service account
//! tokens (TokenRequest, TokenReview), SelfSubjectReview, and the access reviews
//! (SubjectAccessReview and its self, local and rules variants) evaluated against the
//! configured authorization modes, RBAC included. Everything here is a pure function of
//! JSON objects; the routes, storage reads and the request's user come from the caller.

#![allow(dead_code)] // The lead wires the routes; until then only the tests call in.

mod access;
mod bootstrap_token;
mod discovery;
mod escalation;
mod legacy;
#[cfg(test)]
mod rbac_tests;
mod reviews;
mod token;

// The API the routes use; unused until the lead wires them.
#[allow(unused_imports)]
pub(crate) use access::{
    local_subject_access_review, self_subject_access_review, self_subject_rules_review,
    subject_access_review,
};
pub(crate) use discovery::IssuerDiscovery;
pub(crate) use escalation::{guards as escalation_guards, EscalationHooks};
#[allow(unused_imports)]
pub(crate) use kas_authz::{Attributes, Authorizer, Decision, Mode, Policy};
#[allow(unused_imports)]
pub(crate) use legacy::{last_used_update, LAST_USED_LABEL};
#[allow(unused_imports)]
pub(crate) use reviews::{
    self_subject_review, token_review, user_info_json, Lookup, LookupKind, Reviewed,
};
#[allow(unused_imports)]
pub(crate) use token::{KeyError, TokenIssuer, TokenRequestInput, TokenResponse};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use kas_server::status::{Reason, Status};
use serde_json::Value;

/// `authentication.k8s.io/v1`.
const AUTHN_V1: &str = "authentication.k8s.io/v1";
/// `authorization.k8s.io/v1`.
const AUTHZ_V1: &str = "authorization.k8s.io/v1";

use kas_server::rest::invalid;

/// A 400 `BadRequest`.
fn bad_request(message: impl Into<String>) -> Status {
    Status::new(Reason::BadRequest, message)
}

/// Seconds since the epoch (0 for times before it).
fn unix_seconds(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// An RFC 3339 timestamp in UTC with seconds, as Kubernetes writes them.
fn rfc3339(seconds: i64) -> String {
    let t = UNIX_EPOCH + Duration::from_secs(u64::try_from(seconds).unwrap_or(0));
    humantime::format_rfc3339_seconds(t).to_string()
}

/// The string at `pointer`, or `""`.
fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The strings of the array at `pointer` (non-strings skipped).
fn strings_at(v: &Value, pointer: &str) -> Vec<String> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// `user.Info.extra` as a JSON object of string arrays (sorted by key).
fn extra_json(extra: &[(String, Vec<String>)]) -> Value {
    let mut sorted: Vec<&(String, Vec<String>)> = extra.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Object(
        sorted
            .into_iter()
            .map(|(k, v)| (k.clone(), Value::from(v.clone())))
            .collect(),
    )
}

/// `extra` from a JSON object of string arrays; entries of other shapes are skipped.
fn extra_from_json(v: Option<&Value>) -> Vec<(String, Vec<String>)> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    let values = v
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(Value::as_str)
                                .map(str::to_owned)
                                .collect()
                        })
                        .unwrap_or_default();
                    (k.clone(), values)
                })
                .collect()
        })
        .unwrap_or_default()
}
