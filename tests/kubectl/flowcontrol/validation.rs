//! flowcontrol.apiserver.k8s.io/v1 validation through the API: 422 Invalid with
//! upstream's field causes on create, on updates of the mandatory objects, and on status
//! updates; and the Table of a FlowSchema with its status.

use serde_json::{json, Value};

use super::super::harness::Server;
use super::{FS_PATH, PL_PATH};

/// Sends `body` with `method` to `path` and returns the 422's causes as
/// `field reason: message`.
async fn causes(server: &Server, method: http::Method, path: &str, body: &Value) -> Vec<String> {
    let r = server
        .request(
            method.clone(),
            path,
            body.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("request");
    assert_eq!(r.status, 422, "{method} {path} {body}: {}", r.text());
    let status = r.json();
    assert_eq!(status["reason"], "Invalid");
    assert_eq!(status["details"]["group"], "flowcontrol.apiserver.k8s.io");
    status["details"]["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .map(|c| {
            format!(
                "{} {}: {}",
                c["field"].as_str().unwrap_or(""),
                c["reason"].as_str().unwrap_or(""),
                c["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// The object at `path` without its resourceVersion: written back, it is an
/// unconditional update (the front door's config controller writes FlowSchema status
/// meanwhile, which would make a conditional one a 409).
async fn unconditional(server: &Server, path: &str) -> Value {
    let mut obj = server.get(path).await.json();
    if let Some(meta) = obj["metadata"].as_object_mut() {
        meta.remove("resourceVersion");
    }
    obj
}

fn flow_schema(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
        "metadata": {"name": name}, "spec": spec})
}

fn level(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
        "metadata": {"name": name}, "spec": spec})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_objects_are_422_with_upstreams_causes() {
    let server = Server::builder().start().await;
    let rule = json!({"subjects": [{"kind": "User", "user": {"name": "u"}}],
        "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/x"]}]});
    let spec = |extra: Value| {
        let mut s = json!({"priorityLevelConfiguration": {"name": "global-default"},
            "matchingPrecedence": 500, "rules": [rule.clone()]});
        for (k, v) in extra.as_object().into_iter().flatten() {
            s[k] = v.clone();
        }
        s
    };
    let fs_cases: Vec<(Value, Vec<&str>)> = vec![
        (
            flow_schema("a", spec(json!({"matchingPrecedence": 10001}))),
            vec!["spec.matchingPrecedence FieldValueInvalid: Invalid value: 10001: must not be greater than 10000"],
        ),
        (
            flow_schema("a", spec(json!({"matchingPrecedence": 1}))),
            vec!["spec.matchingPrecedence FieldValueInvalid: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"],
        ),
        (
            flow_schema("a", spec(json!({"priorityLevelConfiguration": {}}))),
            vec!["spec.priorityLevelConfiguration.name FieldValueRequired: Required value: must reference a priority level"],
        ),
        (
            flow_schema("a", spec(json!({"distinguisherMethod": {"type": "ByGroup"}}))),
            vec!["spec.distinguisherMethod.type FieldValueNotSupported: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:\"ByGroup\"}: supported values: \"ByNamespace\", \"ByUser\""],
        ),
        (
            flow_schema("a", spec(json!({"rules": [{"subjects": [{"kind": "Robot"}],
                "resourceRules": [{"verbs": ["*", "get"], "apiGroups": [""], "resources": ["pods"]}],
                "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/health*"]}]}]}))),
            vec![
                "spec.rules[0].subjects[0].kind FieldValueNotSupported: Unsupported value: \"Robot\": supported values: \"Group\", \"ServiceAccount\", \"User\"",
                "spec.rules[0].resourceRules[0].verbs FieldValueInvalid: Invalid value: []string{\"*\", \"get\"}: if '*' is present, must not specify other verbs",
                "spec.rules[0].resourceRules[0].namespaces FieldValueRequired: Required value: resource rules that are not cluster scoped must supply at least one namespace",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[0] FieldValueInvalid: Invalid value: \"/health*\": wildcard can only do suffix matching",
            ],
        ),
        (
            flow_schema("a", spec(json!({"rules": [{"subjects": []}]}))),
            vec![
                "spec.rules[0].subjects FieldValueRequired: Required value: subjects must contain at least one value",
                "spec.rules[0] FieldValueRequired: Required value: at least one of resourceRules and nonResourceRules has to be non-empty",
            ],
        ),
    ];
    for (obj, wanted) in fs_cases {
        let got = causes(&server, http::Method::POST, FS_PATH, &obj).await;
        assert_eq!(got, wanted, "{obj}");
    }

    let queuing = |queues: i64, hand: i64| {
        json!({"type": "Limited", "limited": {"limitResponse": {"type": "Queue",
            "queuing": {"queues": queues, "handSize": hand}}}})
    };
    const Q: &str = "spec.limited.limitResponse.queuing";
    let pl_cases: Vec<(Value, Vec<String>)> = vec![
        (
            level("a", queuing(512, 8)),
            vec![format!("{Q}.handSize FieldValueInvalid: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60")],
        ),
        (
            level("a", queuing(7, 8)),
            vec![format!("{Q}.handSize FieldValueInvalid: Invalid value: 8: should not be greater than queues (7)")],
        ),
        (
            level("a", json!({"type": "Exempt"})),
            vec!["spec.type FieldValueInvalid: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'".into()],
        ),
        (
            level("a", json!({"type": "Limited", "limited": {"lendablePercent": 101,
                "borrowingLimitPercent": -1, "limitResponse": {"type": "Reject", "queuing": {}}}})),
            vec![
                "spec.limited.limitResponse.queuing FieldValueForbidden: Forbidden: must be nil if limited.limitResponse.type is not Limited".into(),
                "spec.limited.lendablePercent FieldValueInvalid: Invalid value: 101: must be between 0 and 100, inclusive".into(),
                "spec.limited.borrowingLimitPercent FieldValueInvalid: Invalid value: -1: if specified, must be a non-negative integer".into(),
            ],
        ),
        (
            level("a", json!({"type": "Limited"})),
            vec!["spec.limited FieldValueRequired: Required value: must not be empty when type is Limited".into()],
        ),
    ];
    for (obj, wanted) in pl_cases {
        let got = causes(&server, http::Method::POST, PL_PATH, &obj).await;
        assert_eq!(got, wanted, "{obj}");
    }

    // The mandatory specs may not change (the exempt level's `spec.exempt` excepted).
    let mut exempt = unconditional(&server, &format!("{FS_PATH}/exempt")).await;
    exempt["spec"]["matchingPrecedence"] = json!(2);
    let got = causes(
        &server,
        http::Method::PUT,
        &format!("{FS_PATH}/exempt"),
        &exempt,
    )
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("spec FieldValueInvalid: Invalid value: "));
    assert!(got[0].ends_with(": spec of 'exempt' must equal the fixed value"));
    let mut catch_all = unconditional(&server, &format!("{PL_PATH}/catch-all")).await;
    catch_all["spec"]["limited"]["nominalConcurrencyShares"] = json!(50);
    let got = causes(
        &server,
        http::Method::PUT,
        &format!("{PL_PATH}/catch-all"),
        &catch_all,
    )
    .await;
    assert!(
        got[0].ends_with(": spec of 'catch-all' must equal the fixed value"),
        "{got:?}"
    );
    let mut exempt_pl = unconditional(&server, &format!("{PL_PATH}/exempt")).await;
    exempt_pl["spec"]["exempt"]["lendablePercent"] = json!(101);
    let got = causes(
        &server,
        http::Method::PUT,
        &format!("{PL_PATH}/exempt"),
        &exempt_pl,
    )
    .await;
    assert_eq!(
        got,
        ["spec.exempt.lendablePercent FieldValueInvalid: Invalid value: 101: must be between 0 and 100, inclusive"]
    );

    // Status updates: a condition needs a type, and no type twice.
    let mut probes = unconditional(&server, &format!("{FS_PATH}/probes")).await;
    probes["status"] = json!({"conditions": [
        {"type": "Dangling", "status": "False"}, {"type": "Dangling", "status": "True"}, {"status": "True"}]});
    let got = causes(
        &server,
        http::Method::PUT,
        &format!("{FS_PATH}/probes/status"),
        &probes,
    )
    .await;
    assert_eq!(
        got,
        [
            "status.conditions[1].type FieldValueDuplicate: Duplicate value: \"Dangling\"",
            "status.conditions[2].type FieldValueRequired: Required value: must not be empty",
        ]
    );
    // A good status is written, and MISSINGPL shows its Dangling condition.
    probes["status"] = json!({"conditions": [{"type": "Dangling", "status": "False",
        "reason": "Found", "message": "This FlowSchema references the PriorityLevelConfiguration object named \"exempt\" and it exists"}]});
    let r = server
        .request(
            http::Method::PUT,
            &format!("{FS_PATH}/probes/status"),
            probes.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("PUT status");
    assert_eq!(r.status, 200, "{}", r.text());
    let table = server
        .get_accepting(
            &format!("{FS_PATH}/probes"),
            "application/json;as=Table;v=v1;g=meta.k8s.io",
        )
        .await
        .json();
    assert_eq!(table["rows"][0]["cells"][5], "False", "{table}");
    assert_eq!(table["rows"][0]["cells"][2], 2, "{table}");
    let defs: Vec<(&str, &str)> = table["columnDefinitions"]
        .as_array()
        .expect("columns")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or(""),
                c["type"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        defs,
        [
            ("Name", "string"),
            ("PriorityLevel", "string"),
            ("MatchingPrecedence", "string"),
            ("DistinguisherMethod", "string"),
            ("Age", "string"),
            ("MissingPL", "string"),
        ]
    );
}
