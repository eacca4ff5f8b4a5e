//! The AdmissionReview a webhook is sent (admission.k8s.io/v1, or v1beta1 when that is
//! all the webhook accepts), the checks of its answer, and the errors a call ends in,
//! worded as upstream's dispatchers word them.

use base64::Engine;
use kas_server::admission::{Operation, Request};
use kas_server::rest::Resource;
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

/// How one webhook call failed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CallError {
    /// The webhook could not be called or answered nonsense (ErrCallingWebhook): the
    /// reason, after `failed calling webhook "<name>": `, and the HTTP code upstream's
    /// error carries (the webhook's error status, else 400, 500 or 503) for the metrics.
    /// The failure policy decides.
    Calling(String, u16),
    /// The webhook denied the request (ErrWebhookRejection).
    Denied(Status),
    /// The request is refused whatever the failure policy says (a dry run the webhook
    /// does not support, a patch that cannot be applied).
    Refused(Status),
}

impl CallError {
    /// The error for the client when the webhook `name` fails closed.
    pub(crate) fn into_status(self, name: &str) -> Status {
        match self {
            CallError::Calling(why, _) => {
                Status::internal(format!("failed calling webhook \"{name}\": {why}"))
            }
            CallError::Denied(s) | CallError::Refused(s) => s,
        }
    }
}

/// What a webhook answered, checked.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Answer {
    pub allowed: bool,
    pub result: Option<Value>,
    /// A JSONPatch (mutating webhooks only).
    pub patch: Option<Value>,
    pub warnings: Vec<String>,
    pub audit_annotations: Vec<(String, String)>,
}

fn gvk(group: &str, version: &str, kind: &str) -> Value {
    json!({"group": group, "version": version, "kind": kind})
}

/// The user as `authentication.k8s.io/v1` UserInfo.
fn user_info(req: &Request<'_>) -> Value {
    let Some(u) = req.user else {
        return json!({});
    };
    let mut out = json!({"username": u.name});
    if !u.uid.is_empty() {
        out["uid"] = json!(u.uid);
    }
    if !u.groups.is_empty() {
        out["groups"] = json!(u.groups);
    }
    if !u.extra.is_empty() {
        let extra: serde_json::Map<String, Value> =
            u.extra.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        out["extra"] = Value::Object(extra);
    }
    out
}

/// The request's options object; the kind upstream sends when the client sent none.
fn options(req: &Request<'_>) -> Value {
    if let Some(o) = req.options.filter(|o| o.is_object()) {
        return o.clone();
    }
    let kind = match req.operation {
        Operation::Create => "CreateOptions",
        Operation::Update => "UpdateOptions",
        Operation::Delete => "DeleteOptions",
        Operation::Connect => return Value::Null,
    };
    let mut o = json!({"apiVersion": "meta.k8s.io/v1", "kind": kind});
    if req.dry_run {
        o["dryRun"] = json!(["All"]);
    }
    o
}

/// The object as sent: Null stays Null (a delete), else with its apiVersion and kind.
fn versioned(req: &Request<'_>, obj: &Value) -> Value {
    if !obj.is_object() {
        return Value::Null;
    }
    let mut o = obj.clone();
    if o.get("kind").is_none() && req.subresource.is_empty() {
        let r = req.resource;
        let av = match r.group {
            "" => r.version.to_owned(),
            g => format!("{g}/{}", r.version),
        };
        o["apiVersion"] = json!(av);
        o["kind"] = json!(r.kind);
    }
    o
}

/// The AdmissionRequest for `req` (`obj` Null for a delete), as the version a webhook
/// or policy matched (`req.resource`, the object converted to it) while `requested`
/// is the resource the client wrote (`requestKind`, `requestResource`).
pub(crate) fn request(uid: &str, req: &Request<'_>, requested: &Resource, obj: &Value) -> Value {
    // The kind of the object written: a subresource's own (Scale, Eviction…) when the
    // object says so, else the resource's.
    let own_kind = match (obj.get("apiVersion"), obj.get("kind")) {
        (Some(Value::String(av)), Some(Value::String(k))) if !req.subresource.is_empty() => {
            let (g, v) = av.rsplit_once('/').unwrap_or(("", av));
            Some(gvk(g, v, k))
        }
        _ => None,
    };
    let kind_of = |r: &Resource| {
        own_kind
            .clone()
            .unwrap_or_else(|| gvk(r.group, r.version, r.kind))
    };
    let resource_of =
        |r: &Resource| json!({"group": r.group, "version": r.version, "resource": r.plural});
    let (kind, resource) = (kind_of(req.resource), resource_of(req.resource));
    let (request_kind, request_resource) = (kind_of(requested), resource_of(requested));
    let mut out = json!({
        "uid": uid,
        "kind": kind,
        "resource": resource,
        "requestKind": request_kind,
        "requestResource": request_resource,
        "name": req.name,
        "namespace": req.namespace,
        "operation": req.operation.as_str(),
        "userInfo": user_info(req),
        "object": versioned(req, obj),
        "oldObject": req.old_object.map(|o| versioned(req, o)).unwrap_or(Value::Null),
        "dryRun": req.dry_run,
        "options": options(req),
    });
    if !req.subresource.is_empty() {
        out["subResource"] = json!(req.subresource);
        out["requestSubResource"] = json!(req.subresource);
    }
    if req.name.is_empty() {
        if let Some(m) = out.as_object_mut() {
            m.remove("name");
        }
    }
    if req.namespace.is_empty() {
        if let Some(m) = out.as_object_mut() {
            m.remove("namespace");
        }
    }
    out
}

/// The AdmissionReview of `version` ("v1" or "v1beta1") carrying `request`.
pub(crate) fn review(version: &str, request: Value) -> Value {
    json!({
        "apiVersion": format!("admission.k8s.io/{version}"),
        "kind": "AdmissionReview",
        "request": request,
    })
}

/// Checks a webhook's answer as upstream's VerifyAdmissionResponse (and the decoding
/// before it): `Err` is the reason of a failed call.
pub(crate) fn verify(
    uid: &str,
    version: &str,
    mutating: bool,
    answer: &Value,
) -> Result<Answer, String> {
    let kind = answer.get("kind").and_then(Value::as_str).unwrap_or("");
    let api_version = answer
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    if kind.is_empty() || api_version.is_empty() {
        let body = answer.to_string();
        return Err(format!(
            "failed to call webhook: Object 'Kind' is missing in '{body}'"
        ));
    }
    let invalid = |why: String| format!("received invalid webhook response: {why}");
    let expected = format!("admission.k8s.io/{version}");
    if kind != "AdmissionReview" || api_version != expected {
        return Err(invalid(format!(
            "expected webhook response of {expected}, Kind=AdmissionReview, got {api_version}, Kind={kind}"
        )));
    }
    let Some(resp) = answer.get("response").filter(|r| r.is_object()) else {
        return Err(invalid("webhook response was absent".to_owned()));
    };
    let got = resp.get("uid").and_then(Value::as_str).unwrap_or("");
    if version == "v1" && got != uid {
        return Err(invalid(format!(
            "expected response.uid={uid:?}, got {got:?}"
        )));
    }
    let patch = resp
        .get("patch")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty());
    let patch_type = resp.get("patchType").and_then(Value::as_str);
    let patch = match (mutating, version) {
        (false, _) if patch.is_some() => {
            return Err(invalid(
                "validating webhook may not return response.patch".to_owned(),
            ))
        }
        (false, _) if patch_type.is_some() => {
            return Err(invalid(
                "validating webhook may not return response.patchType".to_owned(),
            ))
        }
        (false, _) => None,
        (true, "v1") => match (patch, patch_type) {
            (Some(_), None) => {
                return Err(invalid(
                    "webhook returned response.patch but not response.patchType".to_owned(),
                ))
            }
            (None, Some(_)) => {
                return Err(invalid(
                    "webhook returned response.patchType but not response.patch".to_owned(),
                ))
            }
            (Some(_), Some("")) => {
                return Err(invalid(
                    "webhook returned invalid response.patchType of \"\"".to_owned(),
                ))
            }
            (Some(p), Some("JSONPatch")) => Some(decode_patch(p)?),
            (Some(_), Some(other)) => {
                return Err(format!("unsupported patch type {other:?}"));
            }
            (None, None) => None,
        },
        (true, _) => patch.map(decode_patch).transpose()?,
    };
    let strings = |key: &str| -> Vec<String> {
        resp.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let audit_annotations = resp
        .get("auditAnnotations")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_owned()))
        .collect();
    Ok(Answer {
        allowed: resp
            .get("allowed")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        result: resp.get("status").filter(|s| s.is_object()).cloned(),
        patch,
        warnings: strings("warnings"),
        audit_annotations,
    })
}

/// `response.patch`: base64 of a JSON array.
fn decode_patch(b64: &str) -> Result<Value, String> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| {
            format!("failed to call webhook: illegal base64 data in response.patch: {e}")
        })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("received invalid webhook response: response.patch: {e}"))
}

/// The reason a code maps to, for a denial's status.
fn reason_for(reason: &str, code: u16) -> Reason {
    const ALL: [Reason; 18] = [
        Reason::BadRequest,
        Reason::Unauthorized,
        Reason::Forbidden,
        Reason::NotFound,
        Reason::AlreadyExists,
        Reason::Conflict,
        Reason::Gone,
        Reason::Expired,
        Reason::MethodNotAllowed,
        Reason::NotAcceptable,
        Reason::RequestEntityTooLarge,
        Reason::UnsupportedMediaType,
        Reason::Invalid,
        Reason::TooManyRequests,
        Reason::InternalError,
        Reason::ServiceUnavailable,
        Reason::Timeout,
        Reason::ServerTimeout,
    ];
    ALL.iter()
        .find(|r| r.as_str() == reason && r.code() == code)
        .or_else(|| ALL.iter().find(|r| r.code() == code))
        .copied()
        .unwrap_or(Reason::BadRequest)
}

/// The refusal of webhook `name` from the answer's `status` (upstream's ToStatusErr):
/// its message (else its reason) after `admission webhook "<name>" denied the request`,
/// its code (at least 400).
pub(crate) fn denial(name: &str, result: Option<&Value>) -> Status {
    let empty = Value::Null;
    let result = result.unwrap_or(&empty);
    let message = result.get("message").and_then(Value::as_str).unwrap_or("");
    let reason = result.get("reason").and_then(Value::as_str).unwrap_or("");
    let code = result
        .get("code")
        .and_then(Value::as_u64)
        .and_then(|c| u16::try_from(c).ok())
        .filter(|c| *c >= 400)
        .unwrap_or(400);
    let denied = format!("admission webhook \"{name}\" denied the request");
    let text = match (message.is_empty(), reason.is_empty()) {
        (false, _) => format!("{denied}: {message}"),
        (true, false) => format!("{denied}: {reason}"),
        (true, true) => format!("{denied} without explanation"),
    };
    Status::new(reason_for(reason, code), text)
}

/// A dry run a webhook with side effects may not see.
pub(crate) fn dry_run_unsupported(name: &str) -> Status {
    Status::new(
        Reason::BadRequest,
        format!("admission webhook \"{name}\" does not support dry run"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use kas_proto::UserInfo;
    use kas_server::rest::Resource;

    const PODS: Resource = Resource::new("", "v1", "pods", "pod", "Pod");

    #[test]
    fn request_fields() {
        let user = UserInfo {
            name: "jane".into(),
            uid: "u1".into(),
            groups: vec!["g".into()],
            extra: vec![("scopes".into(), vec!["a".into()])],
        };
        let old = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}});
        let req = Request {
            operation: Operation::Update,
            resource: &PODS,
            subresource: "status",
            namespace: "ns",
            name: "p",
            old_object: Some(&old),
            user: Some(&user),
            dry_run: true,
            options: None,
            versions: None,
        };
        let r = request(
            "uid-1",
            &req,
            req.resource,
            &json!({"metadata": {"name": "p"}}),
        );
        assert_eq!(r["uid"], "uid-1");
        assert_eq!(
            r["kind"],
            json!({"group": "", "version": "v1", "kind": "Pod"})
        );
        assert_eq!(
            r["resource"],
            json!({"group": "", "version": "v1", "resource": "pods"})
        );
        assert_eq!(r["subResource"], "status");
        assert_eq!(r["requestSubResource"], "status");
        assert_eq!(r["operation"], "UPDATE");
        assert_eq!(r["userInfo"]["extra"]["scopes"], json!(["a"]));
        assert_eq!(r["dryRun"], true);
        assert_eq!(r["options"]["kind"], "UpdateOptions");
        assert_eq!(r["oldObject"]["kind"], "Pod");
        let del = Request {
            operation: Operation::Delete,
            subresource: "",
            ..req
        };
        let r = request("u", &del, del.resource, &Value::Null);
        assert_eq!(r["object"], Value::Null);
        assert!(r.get("subResource").is_none());
        assert_eq!(
            review("v1beta1", r)["apiVersion"],
            "admission.k8s.io/v1beta1"
        );
    }

    #[test]
    fn answers_checked() {
        let ok = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "response": {"uid": "u", "allowed": true, "warnings": ["w"],
                         "auditAnnotations": {"k": "v"}}});
        let a = verify("u", "v1", false, &ok).expect("valid");
        assert!(a.allowed);
        assert_eq!(a.warnings, ["w"]);
        assert_eq!(a.audit_annotations, [("k".to_owned(), "v".to_owned())]);
        let err = verify("other", "v1", false, &ok).expect_err("uid");
        assert_eq!(
            err,
            "received invalid webhook response: expected response.uid=\"other\", got \"u\""
        );
        assert!(verify("u", "v1", false, &json!({"hello": 1}))
            .expect_err("garbage")
            .contains("Object 'Kind' is missing"));
        let mut absent = ok.clone();
        absent["response"] = Value::Null;
        assert!(verify("u", "v1", false, &absent)
            .expect_err("absent")
            .ends_with("webhook response was absent"));
        // Patches: base64 JSON, only from mutating webhooks, with their type in v1.
        let patch = base64::engine::general_purpose::STANDARD
            .encode(br#"[{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]"#);
        let mut patched = ok.clone();
        patched["response"]["patch"] = json!(patch);
        assert!(verify("u", "v1", false, &patched).is_err());
        assert!(verify("u", "v1", true, &patched)
            .expect_err("no type")
            .ends_with("webhook returned response.patch but not response.patchType"));
        patched["response"]["patchType"] = json!("JSONPatch");
        let a = verify("u", "v1", true, &patched).expect("patch");
        assert_eq!(a.patch.expect("patch")[0]["op"], "add");
        patched["response"]["patch"] = json!("!!");
        assert!(verify("u", "v1", true, &patched).is_err());
        // v1beta1: no uid check, the patch is a JSONPatch.
        let beta = json!({"apiVersion": "admission.k8s.io/v1beta1", "kind": "AdmissionReview",
            "response": {"allowed": false}});
        assert!(!verify("u", "v1beta1", true, &beta).expect("beta").allowed);
        assert!(verify("u", "v1", true, &beta).is_err());
    }

    #[test]
    fn denials_worded_as_upstream() {
        let s = denial(
            "deny.example.com",
            Some(&json!({"message": "no", "code": 403, "reason": "Forbidden"})),
        );
        assert_eq!(
            s.message,
            "admission webhook \"deny.example.com\" denied the request: no"
        );
        assert_eq!(s.reason, Reason::Forbidden);
        let s = denial("d", Some(&json!({"reason": "because", "code": 200})));
        assert_eq!(
            s.message,
            "admission webhook \"d\" denied the request: because"
        );
        assert_eq!(s.reason.code(), 400);
        let s = denial("d", None);
        assert_eq!(
            s.message,
            "admission webhook \"d\" denied the request without explanation"
        );
        let s = denial("d", Some(&json!({"code": 422})));
        assert_eq!(s.reason, Reason::Invalid);
        let e = CallError::Calling("failed to call webhook: boom".into(), 503).into_status("w");
        assert_eq!(
            e.message,
            "Internal error occurred: failed calling webhook \"w\": failed to call webhook: boom"
        );
        assert_eq!(e.reason, Reason::InternalError);
        assert_eq!(
            dry_run_unsupported("w").message,
            "admission webhook \"w\" does not support dry run"
        );
    }
}
