//! Tests of `conversion`.

use super::*;

fn widget(version: &str, name: &str) -> Value {
    json!({"apiVersion": format!("example.com/{version}"), "kind": "Widget",
               "metadata": {"name": name, "namespace": "default", "uid": "u-1",
                            "resourceVersion": "7", "labels": {"a": "b"}},
               "spec": {"host": "h", "port": 80}})
}

fn crd(review_versions: Value) -> Value {
    json!({"spec": {"group": "example.com", "names": {"kind": "Widget"},
            "versions": [{"name": "v1"}, {"name": "v2"}],
            "conversion": {"strategy": "Webhook", "webhook": {
                "clientConfig": {"url": "https://127.0.0.1:1/convert"},
                "conversionReviewVersions": review_versions}}}})
}

#[test]
fn only_webhook_strategies_get_a_converter() {
    assert!(
        WebhookConverter::of(&json!({"spec": {"conversion": {"strategy": "None"}}}), None)
            .is_none()
    );
    let c = WebhookConverter::of(&crd(json!(["v2", "v1beta1", "v1"])), None).expect("webhook");
    assert_eq!(c.review_version, Some("v1beta1"));
    assert!(c.client.is_ok());
    let c = WebhookConverter::of(&crd(json!(["v3"])), None).expect("webhook");
    assert_eq!(c.review_version, None);
    // A service reference's port out of range: no client (validation prevents it).
    let service = json!({"service": {"namespace": "ns", "name": "s", "port": 70000}});
    assert_eq!(
        client(&service, None).err(),
        Some("invalid service port 70000".to_owned())
    );
    assert!(client(&json!({}), None).is_err());
}

#[test]
fn the_review_carries_the_objects_and_the_desired_version() {
    let r = review("v1", "id-1", "example.com/v2", &[widget("v1", "a")]);
    assert_eq!(r["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(r["kind"], "ConversionReview");
    assert_eq!(r["request"]["uid"], "id-1");
    assert_eq!(r["request"]["desiredAPIVersion"], "example.com/v2");
    assert_eq!(r["request"]["objects"][0]["metadata"]["name"], "a");
    let r = review("v1beta1", "id-1", "example.com/v2", &[]);
    assert_eq!(r["apiVersion"], "apiextensions.k8s.io/v1beta1");
}

fn answer(uid: &str, objects: Vec<Value>) -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
               "response": {"uid": uid, "result": {"status": "Success"},
                            "convertedObjects": objects}})
}

#[test]
fn answers_are_checked_as_upstream_checks_them() {
    let ok = converted_objects("v1", "u", answer("u", vec![widget("v2", "a")]));
    assert_eq!(ok.map(|o| o.len()), Ok(1));
    assert_eq!(
        converted_objects("v1", "u", json!({"hello": "world"})),
        Err(r#"Object 'Kind' is missing in '{"hello":"world"}'"#.into())
    );
    assert_eq!(
        converted_objects("v1", "u", answer("other", vec![])),
        Err(r#"expected response.uid="u", got "other""#.into())
    );
    let mut wrong = answer("u", vec![]);
    wrong["apiVersion"] = json!("v1");
    assert_eq!(
            converted_objects("v1", "u", wrong),
            Err("expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /v1, Kind=ConversionReview".into())
        );
    let mut failed = answer("u", vec![]);
    failed["response"]["result"] = json!({"status": "Failure", "message": "no way"});
    assert_eq!(converted_objects("v1", "u", failed), Err("no way".into()));
    let mut failed = answer("u", vec![]);
    failed["response"]["result"] = json!({});
    assert_eq!(
        converted_objects("v1", "u", failed),
        Err("response.result.status was '', not 'Success'".into())
    );
    let mut none = answer("u", vec![]);
    if let Some(o) = none.as_object_mut() {
        o.remove("response");
    }
    assert_eq!(
        converted_objects("v1", "u", none),
        Err("no response provided".into())
    );
    // v1beta1 answers are not checked for their uid.
    let mut beta = answer("other", vec![]);
    beta["apiVersion"] = json!("apiextensions.k8s.io/v1beta1");
    assert_eq!(converted_objects("v1beta1", "u", beta), Ok(vec![]));
}

#[test]
fn converted_objects_keep_their_metadata_but_labels_and_annotations() {
    let original = widget("v1", "a");
    let mut converted = json!({"apiVersion": "example.com/v2", "kind": "Widget",
            "metadata": {"name": "a", "namespace": "default", "uid": "u-1",
                         "resourceVersion": "999", "labels": {"c": "d"},
                         "annotations": {"x": "y"}},
            "spec": {"url": "http://h:80"}});
    let out = checked(&original, converted.clone(), "example.com/v2").expect("ok");
    assert_eq!(out["metadata"]["resourceVersion"], "7");
    assert_eq!(out["metadata"]["labels"], json!({"c": "d"}));
    assert_eq!(out["metadata"]["annotations"], json!({"x": "y"}));
    assert_eq!(out["spec"], json!({"url": "http://h:80"}));

    let wrong = checked(&original, converted.clone(), "example.com/v3").expect_err("gv");
    assert_eq!(
            wrong.message("example.com/v1, Kind=Widget", 0, false),
            "conversion webhook for example.com/v1, Kind=Widget returned invalid object at index 0: invalid groupVersion (expected example.com/v3, received example.com/v2)"
        );
    converted["metadata"]["name"] = json!("b");
    let renamed = checked(&original, converted.clone(), "example.com/v2").expect_err("name");
    assert_eq!(
            renamed.message("example.com/v2, Kind=WidgetList", 3, true),
            "conversion webhook for example.com/v2, Kind=WidgetList returned invalid converted object at index 3: must have the same name: a != b"
        );
    converted["metadata"]["name"] = json!("a");
    converted["metadata"]["labels"] = json!({"n": 1});
    let bad = checked(&original, converted.clone(), "example.com/v2").expect_err("labels");
    assert_eq!(
            bad.message("example.com/v1, Kind=Widget", 0, false),
            "conversion webhook for example.com/v1, Kind=Widget returned invalid metadata: metadata.labels[n] must be a string, but is int64 in converted object"
        );
    converted["kind"] = json!("Gadget");
    let kind = checked(&original, converted, "example.com/v2").expect_err("kind");
    assert_eq!(
        kind,
        Invalid::Kind {
            expected: "Widget".into(),
            got: "Gadget".into()
        }
    );
    let garbage = checked(&original, json!("nope"), "example.com/v2").expect_err("garbage");
    assert!(garbage
            .message("s", 1, true)
            .starts_with("conversion webhook for s returned invalid converted object at index 1: Object 'Kind' is missing"));
}

#[tokio::test]
async fn invalid_versions_and_a_webhook_down_fail_with_upstreams_words() {
    let c = WebhookConverter::of(&crd(json!(["v1"])), None).expect("webhook");
    let e = c
        .call(vec![widget("v1", "a")], "example.com/v9", false)
        .await
        .expect_err("invalid target");
    assert_eq!(
        e,
        "request to convert CR to an invalid group/version: example.com/v9"
    );
    let e = c
        .call(vec![widget("v7", "a")], "example.com/v2", true)
        .await
        .expect_err("invalid source");
    assert_eq!(
        e,
        "request to convert CR list failed, list index 0 has invalid group/version: example.com/v7"
    );
    let e = c
        .call(vec![widget("v1", "a")], "example.com/v2", false)
        .await
        .expect_err("nothing listens on port 1");
    assert!(
            e.starts_with("conversion webhook for example.com/v1, Kind=Widget failed: Post \"https://127.0.0.1:1/convert?timeout=30s\""),
            "{e}"
        );
}
