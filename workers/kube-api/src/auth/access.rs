//! The access reviews of `authorization.k8s.io/v1` (SubjectAccessReview,
//! SelfSubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview), their
//! validation as upstream words it, and the authorizer they ask: the configured modes in
//! order (AlwaysAllow, AlwaysDeny, RBAC, Webhook), after the `system:masters` group, which
//! kube-apiserver always lets through.

use kas_proto::UserInfo;
use kas_server::rest::invalid_value;
use kas_server::status::{Status, StatusCause};
use serde_json::{json, Value};

#[cfg(test)]
use kas_authz::Policy;
use kas_authz::{Attributes, Authorizer, Decision};

use super::{bad_request, extra_from_json, invalid, str_at, strings_at, AUTHZ_V1};

const GROUP: &str = "authorization.k8s.io";

/// Whether `metadata` is absent or holds nothing but empty values (clients send
/// `{"creationTimestamp": null}`). `except` names a field that may be set.
fn metadata_empty(body: &Value, except: &str) -> bool {
    match body.get("metadata") {
        None | Some(Value::Null) => true,
        Some(Value::Object(m)) => m.iter().all(|(k, v)| {
            k == except
                || match v {
                    Value::Null => true,
                    Value::String(s) => s.is_empty(),
                    Value::Object(o) => o.is_empty(),
                    Value::Array(a) => a.is_empty(),
                    Value::Number(n) => n.as_i64() == Some(0),
                    Value::Bool(b) => !b,
                }
        }),
        Some(_) => false,
    }
}

/// The checks every access review spec gets: exactly one kind of attributes.
fn attribute_causes(spec: &Value) -> Vec<StatusCause> {
    let present = |k: &str| spec.get(k).is_some_and(|v| !v.is_null());
    let (res, non_res) = (
        present("resourceAttributes"),
        present("nonResourceAttributes"),
    );
    let mut causes = Vec::new();
    if res && non_res {
        causes.push(invalid_value(
            "spec.nonResourceAttributes",
            &compact(&spec["nonResourceAttributes"]),
            "cannot be specified in combination with resourceAttributes",
        ));
    }
    if !res && !non_res {
        causes.push(invalid_value(
            "spec.resourceAttributes",
            "null",
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        ));
    }
    causes
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// A resource attributes' `fieldSelector` or `labelSelector` as a selector string: its
/// `rawSelector`, or what its `requirements` stand for.
fn selector(r: &Value, which: &str) -> String {
    let Some(s) = r.get(which).filter(|v| !v.is_null()) else {
        return String::new();
    };
    let raw = str_at(s, "/rawSelector");
    if !raw.is_empty() {
        return raw.to_owned();
    }
    let requirements = s
        .get("requirements")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    match which {
        "fieldSelector" => kas_server::selectors::field_selector_from_requirements(requirements),
        _ => kas_server::selectors::label_selector_from_requirements(requirements),
    }
}

/// The checks of a resource attributes' selectors: a raw selector or requirements,
/// not both, not neither.
fn selector_causes(spec: &Value) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let Some(r) = spec.get("resourceAttributes").filter(|v| !v.is_null()) else {
        return causes;
    };
    for which in ["fieldSelector", "labelSelector"] {
        let Some(s) = r.get(which).filter(|v| !v.is_null()) else {
            continue;
        };
        let path = format!("spec.resourceAttributes.{which}");
        let raw = str_at(s, "/rawSelector");
        let requirements = s
            .get("requirements")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty());
        if !raw.is_empty() && requirements {
            causes.push(invalid_value(
                &format!("{path}.rawSelector"),
                raw,
                "may not specified at the same time as requirements",
            ));
        }
        if raw.is_empty() && !requirements {
            causes.push(kas_server::rest::required(
                &format!("{path}.requirements"),
                &format!("when {path} is specified, requirements or rawSelector is required"),
            ));
        }
    }
    causes
}

/// The attributes a spec asks about.
fn attributes(spec: &Value) -> Attributes {
    match spec.get("resourceAttributes").filter(|v| !v.is_null()) {
        Some(r) => Attributes {
            verb: str_at(r, "/verb").to_owned(),
            resource_request: true,
            namespace: str_at(r, "/namespace").to_owned(),
            group: str_at(r, "/group").to_owned(),
            version: str_at(r, "/version").to_owned(),
            resource: str_at(r, "/resource").to_owned(),
            subresource: str_at(r, "/subresource").to_owned(),
            name: str_at(r, "/name").to_owned(),
            path: String::new(),
            field_selector: selector(r, "fieldSelector"),
            label_selector: selector(r, "labelSelector"),
        },
        None => Attributes {
            verb: str_at(spec, "/nonResourceAttributes/verb").to_owned(),
            path: str_at(spec, "/nonResourceAttributes/path").to_owned(),
            ..Default::default()
        },
    }
}

/// The reviewed object with its `status` (an authorizer's error in `evaluationError`).
async fn answer(
    body: &Value,
    kind: &str,
    authz: &Authorizer,
    user: &UserInfo,
    spec: &Value,
) -> Value {
    let verdict = authz.decide(user, &attributes(spec)).await;
    let mut status = json!({"allowed": verdict.decision == Decision::Allow});
    if verdict.decision == Decision::Deny {
        status["denied"] = json!(true);
    }
    if !verdict.reason.is_empty() {
        status["reason"] = json!(verdict.reason);
    }
    if let Some(error) = verdict.error {
        status["evaluationError"] = json!(error);
    }
    let mut out = body.clone();
    out["apiVersion"] = json!(AUTHZ_V1);
    out["kind"] = json!(kind);
    if !out.get("metadata").is_some_and(Value::is_object) {
        out["metadata"] = json!({});
    }
    out["metadata"]["creationTimestamp"] = Value::Null;
    out["status"] = status;
    out
}

fn object_body<'a>(body: &'a Value, kind: &str) -> Result<&'a Value, Status> {
    if body.is_object() {
        Ok(body)
    } else {
        Err(bad_request(format!(
            "the body of a {kind} must be a JSON object"
        )))
    }
}

/// Handles a SubjectAccessReview: may `spec.user`/`spec.groups` do what the spec asks?
pub(crate) async fn subject_access_review(
    authz: &Authorizer,
    body: &Value,
) -> Result<Value, Status> {
    const KIND: &str = "SubjectAccessReview";
    let body = object_body(body, KIND)?;
    let spec = body.get("spec").cloned().unwrap_or(Value::Null);
    let mut causes = attribute_causes(&spec);
    causes.extend(selector_causes(&spec));
    let user = str_at(&spec, "/user");
    let groups = strings_at(&spec, "/groups");
    if user.is_empty() && groups.is_empty() {
        causes.push(invalid_value(
            "spec.user",
            user,
            "at least one of user or group must be specified",
        ));
    }
    if !metadata_empty(body, "") {
        causes.push(invalid_value(
            "metadata",
            &compact(&body["metadata"]),
            "must be empty",
        ));
    }
    if !causes.is_empty() {
        return Err(invalid(GROUP, KIND, "", causes));
    }
    let subject = UserInfo {
        name: user.to_owned(),
        uid: str_at(&spec, "/uid").to_owned(),
        groups,
        extra: extra_from_json(spec.get("extra")),
    };
    Ok(answer(body, KIND, authz, &subject, &spec).await)
}

/// Handles a SelfSubjectAccessReview: may the requesting user do what the spec asks?
pub(crate) async fn self_subject_access_review(
    authz: &Authorizer,
    user: &UserInfo,
    body: &Value,
) -> Result<Value, Status> {
    const KIND: &str = "SelfSubjectAccessReview";
    let body = object_body(body, KIND)?;
    let spec = body.get("spec").cloned().unwrap_or(Value::Null);
    let mut causes = attribute_causes(&spec);
    causes.extend(selector_causes(&spec));
    if !metadata_empty(body, "") {
        causes.push(invalid_value(
            "metadata",
            &compact(&body["metadata"]),
            "must be empty",
        ));
    }
    if !causes.is_empty() {
        return Err(invalid(GROUP, KIND, "", causes));
    }
    Ok(answer(body, KIND, authz, user, &spec).await)
}

/// Handles a LocalSubjectAccessReview created in `namespace` (from the path): a
/// SubjectAccessReview confined to that namespace.
pub(crate) async fn local_subject_access_review(
    authz: &Authorizer,
    namespace: &str,
    body: &Value,
) -> Result<Value, Status> {
    const KIND: &str = "LocalSubjectAccessReview";
    let body = object_body(body, KIND)?;
    let mut body = body.clone();
    let object_ns = str_at(&body, "/metadata/namespace").to_owned();
    if object_ns.is_empty() && body.get("metadata").is_none_or(Value::is_object) {
        body["metadata"]["namespace"] = json!(namespace);
    } else if object_ns != namespace {
        return Err(bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    let spec = body.get("spec").cloned().unwrap_or(Value::Null);
    let mut causes = attribute_causes(&spec);
    causes.extend(selector_causes(&spec));
    let user = str_at(&spec, "/user");
    let groups = strings_at(&spec, "/groups");
    if user.is_empty() && groups.is_empty() {
        causes.push(invalid_value(
            "spec.user",
            user,
            "at least one of user or group must be specified",
        ));
    }
    if !metadata_empty(&body, "namespace") {
        causes.push(invalid_value(
            "metadata",
            &compact(&body["metadata"]),
            "must be empty except for namespace",
        ));
    }
    if let Some(r) = spec.get("resourceAttributes").filter(|v| !v.is_null()) {
        let ns = str_at(r, "/namespace");
        if ns != namespace {
            causes.push(invalid_value(
                "spec.resourceAttributes.namespace",
                ns,
                "must match metadata.namespace",
            ));
        }
    }
    if spec
        .get("nonResourceAttributes")
        .is_some_and(|v| !v.is_null())
    {
        causes.push(invalid_value(
            "spec.nonResourceAttributes",
            &compact(&spec["nonResourceAttributes"]),
            "disallowed on this kind of request",
        ));
    }
    if !causes.is_empty() {
        return Err(invalid(GROUP, KIND, "", causes));
    }
    if namespace.is_empty() {
        return Err(bad_request("namespace is required on this type: "));
    }
    let subject = UserInfo {
        name: user.to_owned(),
        uid: str_at(&spec, "/uid").to_owned(),
        groups,
        extra: extra_from_json(spec.get("extra")),
    };
    Ok(answer(&body, KIND, authz, &subject, &spec).await)
}

/// Handles a SelfSubjectRulesReview: what may the requesting user do in
/// `spec.namespace`?
pub(crate) fn self_subject_rules_review(
    authz: &Authorizer,
    user: &UserInfo,
    body: &Value,
) -> Result<Value, Status> {
    const KIND: &str = "SelfSubjectRulesReview";
    let body = object_body(body, KIND)?;
    let namespace = str_at(body, "/spec/namespace");
    if namespace.is_empty() {
        return Err(bad_request("no namespace on request"));
    }
    let (resource, non_resource, incomplete) = authz.rules(user, namespace);
    // Upstream answers with a new object: the spec is not echoed.
    Ok(json!({
        "kind": KIND,
        "apiVersion": AUTHZ_V1,
        "metadata": {"creationTimestamp": null},
        "spec": {},
        "status": {
            "resourceRules": resource,
            "nonResourceRules": non_resource,
            "incomplete": incomplete,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn authz(modes: &[&str]) -> Authorizer {
        let modes: Vec<String> = modes.iter().map(|m| (*m).to_owned()).collect();
        Authorizer::new(&modes, Policy::default())
    }

    fn alice() -> UserInfo {
        UserInfo {
            name: "alice".into(),
            groups: vec!["system:authenticated".into()],
            ..Default::default()
        }
    }

    fn sar(spec: Value) -> Value {
        json!({"apiVersion": AUTHZ_V1, "kind": "SubjectAccessReview", "metadata": {"creationTimestamp": null}, "spec": spec})
    }

    #[tokio::test]
    async fn modes_decide() {
        let body = sar(
            json!({"user": "alice", "resourceAttributes": {"verb": "get", "resource": "pods", "namespace": "d"}}),
        );
        let r = subject_access_review(&authz(&["AlwaysAllow"]), &body)
            .await
            .expect("review");
        assert_eq!(r["status"], json!({"allowed": true}));
        let r = subject_access_review(&authz(&["AlwaysDeny"]), &body)
            .await
            .expect("review");
        assert_eq!(
            r["status"],
            json!({"allowed": false, "reason": "Everything is forbidden."})
        );
        let r = subject_access_review(&authz(&["AlwaysDeny", "AlwaysAllow"]), &body)
            .await
            .expect("review");
        assert_eq!(r["status"], json!({"allowed": true}));
        let masters = sar(
            json!({"user": "x", "groups": ["system:masters"], "nonResourceAttributes": {"verb": "get", "path": "/x"}}),
        );
        let r = subject_access_review(&authz(&["AlwaysDeny"]), &masters)
            .await
            .expect("review");
        assert_eq!(r["status"]["allowed"], true);
        let r = self_subject_access_review(
            &authz(&["AlwaysAllow"]),
            &alice(),
            &json!({"spec": {"nonResourceAttributes": {"verb": "get", "path": "/healthz"}}}),
        )
        .await
        .expect("review");
        assert_eq!(r["kind"], "SelfSubjectAccessReview");
        assert_eq!(r["status"]["allowed"], true);
    }

    #[test]
    fn selectors_of_a_review() {
        let spec = json!({"resourceAttributes": {"verb": "list", "resource": "pods",
            "fieldSelector": {"requirements": [
                {"key": "spec.nodeName", "operator": "In", "values": ["n1"]}]},
            "labelSelector": {"rawSelector": "app=web"}}});
        let a = attributes(&spec);
        assert_eq!(
            (a.field_selector.as_str(), a.label_selector.as_str()),
            ("spec.nodeName=n1", "app=web")
        );
        assert!(selector_causes(&spec).is_empty());
        let both_and_neither = json!({"resourceAttributes": {"verb": "list",
            "fieldSelector": {"rawSelector": "a=b", "requirements": [
                {"key": "a", "operator": "In", "values": ["b"]}]},
            "labelSelector": {}}});
        let causes = selector_causes(&both_and_neither);
        assert_eq!(
            causes
                .iter()
                .map(|c| format!("{}: {}", c.field, c.message))
                .collect::<Vec<_>>(),
            [
                "spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: \"a=b\": may not specified at the same time as requirements",
                "spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required",
            ]
        );
    }

    #[tokio::test]
    async fn validation_as_upstream() {
        let e = subject_access_review(&authz(&["AlwaysAllow"]), &sar(json!({"user": "alice"})))
            .await
            .expect_err("no attributes");
        assert_eq!(e.code(), 422);
        assert_eq!(
            e.message,
            "SubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified"
        );
        let e = subject_access_review(
            &authz(&["AlwaysAllow"]),
            &sar(json!({"resourceAttributes": {}, "nonResourceAttributes": {}})),
        )
        .await
        .expect_err("both, no user");
        let fields: Vec<&str> = e
            .details
            .as_ref()
            .expect("details")
            .causes
            .iter()
            .map(|c| c.field.as_str())
            .collect();
        assert_eq!(fields, ["spec.nonResourceAttributes", "spec.user"]);
        let e = self_subject_access_review(
            &authz(&[]),
            &alice(),
            &json!({"metadata": {"name": "x"}, "spec": {"resourceAttributes": {}}}),
        )
        .await
        .expect_err("metadata");
        assert!(e.message.contains("metadata: Invalid value"));
        for junk in [json!(null), json!([1]), json!("s")] {
            assert_eq!(
                subject_access_review(&authz(&[]), &junk)
                    .await
                    .expect_err("junk")
                    .code(),
                400
            );
        }
    }

    #[tokio::test]
    async fn local_reviews() {
        let a = authz(&["AlwaysAllow"]);
        let ok = json!({"spec": {"user": "u", "resourceAttributes": {"namespace": "dev", "verb": "get", "resource": "pods"}}});
        let r = local_subject_access_review(&a, "dev", &ok)
            .await
            .expect("review");
        assert_eq!(r["metadata"]["namespace"], "dev");
        assert_eq!(r["status"]["allowed"], true);
        let e = local_subject_access_review(&a, "prod", &ok)
            .await
            .expect_err("mismatch");
        assert!(e.message.contains("spec.resourceAttributes.namespace: Invalid value: \"dev\": must match metadata.namespace"), "{}", e.message);
        let non =
            json!({"spec": {"user": "u", "nonResourceAttributes": {"path": "/", "verb": "get"}}});
        let e = local_subject_access_review(&a, "dev", &non)
            .await
            .expect_err("non-resource");
        assert!(e.message.contains("disallowed on this kind of request"));
        let other = json!({"metadata": {"namespace": "x"}, "spec": {}});
        assert_eq!(
            local_subject_access_review(&a, "dev", &other)
                .await
                .expect_err("ns")
                .code(),
            400
        );
    }

    #[test]
    fn rules_reviews() {
        let body = json!({"spec": {"namespace": "default"}});
        let r =
            self_subject_rules_review(&authz(&["AlwaysAllow"]), &alice(), &body).expect("rules");
        assert_eq!(r["status"]["resourceRules"][0]["verbs"], json!(["*"]));
        assert_eq!(r["status"]["incomplete"], false);
        let r = self_subject_rules_review(&authz(&["AlwaysDeny"]), &alice(), &body).expect("rules");
        assert_eq!(r["status"]["resourceRules"], json!([]));
        let e = self_subject_rules_review(&authz(&[]), &alice(), &json!({})).expect_err("ns");
        assert_eq!(e.code(), 400);
    }
}
