//! Typed JSON decoding: upstream's error messages, fieldValidation, canonical output.

use super::*;
use crate::types::kind_def;
use serde_json::json;

fn deployment() -> &'static TypeDef {
    kind_def("apps", "v1", "Deployment").expect("deployment")
}

fn pod() -> &'static TypeDef {
    kind_def("", "v1", "Pod").expect("pod")
}

fn decode(
    def: &'static TypeDef,
    body: &str,
    mode: FieldValidation,
) -> Result<Decoded, DecodeError> {
    decode_json(body.as_bytes(), def, mode)
}

#[test]
fn wrong_types_are_upstream_errors() {
    let cases = [
        (
            r#"{"spec":{"replicas":"3"}}"#,
            "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            r#"{"spec":{"replicas":1.5}}"#,
            "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            r#"{"spec":{"replicas":3000000000}}"#,
            "json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32",
        ),
        (
            r#"{"spec":{"template":{"spec":{"containers":[{"name":5}]}}}}"#,
            "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name of type string",
        ),
        (
            r#"{"spec":{"template":{"spec":{"containers":{}}}}}"#,
            "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container",
        ),
        (
            r#"{"spec":{"template":{"spec":{"containers":["x"]}}}}"#,
            "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container",
        ),
        (
            r#"{"metadata":{"labels":{"a":1}}}"#,
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
        ),
        (r#"{"spec":[]}"#, "json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec"),
        (r#"{"spec":{"paused":"yes"}}"#, "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool"),
        (r#"[]"#, "json: cannot unmarshal array into Go value of type v1.Deployment"),
    ];
    for (body, want) in cases {
        let got = decode(deployment(), body, FieldValidation::Strict).expect_err(body);
        assert_eq!(got.to_string(), want, "{body}");
    }
}

#[test]
fn special_types() {
    let body = r#"{"metadata":{"name":"p","creationTimestamp":"2024-01-02T05:04:05+02:00"},
        "spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"0.5","memory":1024,"storage":"1024Mi"}},
        "livenessProbe":{"httpGet":{"port":"http"}},"readinessProbe":{"tcpSocket":{"port":8080}}}]}}"#;
    let out = decode(pod(), body, FieldValidation::Strict)
        .expect("decode")
        .object;
    assert_eq!(
        out["metadata"]["creationTimestamp"],
        json!("2024-01-02T03:04:05Z")
    );
    let c = &out["spec"]["containers"][0];
    assert_eq!(
        c["resources"]["limits"],
        json!({"cpu": "500m", "memory": "1024", "storage": "1Gi"})
    );
    assert_eq!(c["livenessProbe"]["httpGet"]["port"], json!("http"));
    assert_eq!(c["readinessProbe"]["tcpSocket"]["port"], json!(8080));

    let bad_time = decode(
        pod(),
        r#"{"metadata":{"creationTimestamp":"yesterday"}}"#,
        FieldValidation::Strict,
    );
    assert!(
        matches!(bad_time, Err(DecodeError::Invalid(m)) if m.starts_with("parsing time \"yesterday\""))
    );
    let bad_time = decode(
        pod(),
        r#"{"metadata":{"creationTimestamp":5}}"#,
        FieldValidation::Strict,
    );
    assert_eq!(
        bad_time.expect_err("number").to_string(),
        "json: cannot unmarshal number into Go value of type string"
    );
    let bad_q = decode(
        pod(),
        r#"{"spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}}"#,
        FieldValidation::Strict,
    );
    assert_eq!(
        bad_q.expect_err("quantity").to_string(),
        crate::quantity::QUANTITY_ERROR
    );
    let bad_port = decode(
        pod(),
        r#"{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":true}}}]}}"#,
        FieldValidation::Strict,
    );
    assert_eq!(
        bad_port.expect_err("port").to_string(),
        "json: cannot unmarshal bool into Go value of type int32"
    );

    let secret = kind_def("", "v1", "Secret").expect("secret");
    let out = decode(secret, r#"{"data":{"a":"aGk="}}"#, FieldValidation::Strict)
        .expect("decode")
        .object;
    assert_eq!(out["data"], json!({"a": "aGk="}));
    let bad = decode(
        secret,
        r#"{"data":{"a":"not base64!"}}"#,
        FieldValidation::Strict,
    );
    assert_eq!(
        bad.expect_err("base64").to_string(),
        "illegal base64 data at input byte 3"
    );

    let rev = kind_def("apps", "v1", "ControllerRevision").expect("revision");
    let out = decode(
        rev,
        r#"{"data":{"anything":{"goes":[1,"x",null]}},"revision":1}"#,
        FieldValidation::Strict,
    )
    .expect("decode");
    assert_eq!(
        out.object["data"],
        json!({"anything": {"goes": [1, "x", null]}})
    );

    let meta_managed = r#"{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:data":{}},"time":"2024-01-02T03:04:05Z"}]}}"#;
    let out = decode(pod(), meta_managed, FieldValidation::Strict)
        .expect("decode")
        .object;
    assert_eq!(
        out["metadata"]["managedFields"][0]["fieldsV1"],
        json!({"f:data": {}})
    );

    let ev = kind_def("events.k8s.io", "v1", "Event").expect("event");
    let out = decode(
        ev,
        r#"{"eventTime":"2024-01-02T05:04:05.500000+02:00"}"#,
        FieldValidation::Strict,
    )
    .expect("decode")
    .object;
    assert_eq!(out["eventTime"], json!("2024-01-02T03:04:05.500000Z"));
    // A MicroTime is read by its layout, six fractional digits exactly, as upstream reads it.
    let short = decode(
        ev,
        r#"{"eventTime":"2024-01-02T03:04:05.5Z"}"#,
        FieldValidation::Strict,
    );
    assert!(
        matches!(&short, Err(DecodeError::Invalid(e)) if e.ends_with(r#"cannot parse ".5Z" as ".000000""#)),
        "{short:?}"
    );
}

#[test]
fn unknown_and_duplicate_fields_per_mode() {
    let body = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","name":"b"},
        "spec":{"foo":1,"containers":[{"name":"c","bar":{"x":1}}]},"Metadata":{}}"#;
    let err = decode(pod(), body, FieldValidation::Strict).expect_err("strict");
    assert_eq!(
        err.to_string(),
        "strict decoding error: duplicate field \"metadata.name\", unknown field \"spec.foo\", \
         unknown field \"spec.containers[0].bar\", unknown field \"Metadata\""
    );

    let warned = decode(pod(), body, FieldValidation::Warn).expect("warn");
    assert_eq!(
        warned.warnings,
        [
            "duplicate field \"metadata.name\"",
            "unknown field \"spec.foo\"",
            "unknown field \"spec.containers[0].bar\"",
            "unknown field \"Metadata\""
        ]
    );
    let expected = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b"}, "spec": {"containers": [{"name": "c"}]}});
    assert_eq!(warned.object, expected);

    let ignored = decode(pod(), body, FieldValidation::Ignore).expect("ignore");
    assert!(ignored.warnings.is_empty());
    assert_eq!(ignored.object, expected);

    // A type error wins over strict errors.
    let err = decode(
        pod(),
        r#"{"foo":1,"spec":{"hostIPC":"x"}}"#,
        FieldValidation::Strict,
    )
    .expect_err("type");
    assert!(matches!(err, DecodeError::Type(_)));

    // Duplicate map keys, repeated unknown fields reported once.
    let warned = decode(
        pod(),
        r#"{"metadata":{"labels":{"a":"1","a":"2"}},"x":1,"x":2}"#,
        FieldValidation::Warn,
    )
    .expect("warn");
    assert_eq!(
        warned.warnings,
        [
            "duplicate field \"metadata.labels.a\"",
            "unknown field \"x\""
        ]
    );
    assert_eq!(warned.object["metadata"]["labels"], json!({"a": "2"}));
}

#[test]
fn conformance_typed_unknown_and_duplicate_fields() {
    // The body of upstream's conformance test "should detect unknown and duplicate fields of
    // a typed object", and the message it looks for.
    let body = r#"{"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"my-dep","labels":{"app":"nginx"}},
        "spec":{"unknownField":"foo","replicas":2,"replicas":3,
            "selector":{"matchLabels":{"app":"nginx"}},
            "template":{"metadata":{"labels":{"app":"nginx"}},
                "spec":{"containers":[{"name":"nginx","image":"nginx:latest"}]}}}}"#;
    let err = decode(deployment(), body, FieldValidation::Strict).expect_err("strict");
    assert_eq!(
        err.to_string(),
        "strict decoding error: unknown field \"spec.unknownField\", duplicate field \"spec.replicas\""
    );
    let ok = decode(deployment(), body, FieldValidation::Ignore).expect("ignore");
    assert_eq!(ok.object["spec"]["replicas"], json!(3));
    let body = r#"{"metadata":{"name":"my-dep","unknownMeta":"foo"}}"#;
    let err = decode(deployment(), body, FieldValidation::Strict).expect_err("strict");
    assert_eq!(
        err.to_string(),
        "strict decoding error: unknown field \"metadata.unknownMeta\""
    );
}

#[test]
fn nulls_inline_fields_and_canonical_output() {
    let body = r#"{"metadata":{"name":"p","labels":null},"spec":{"nodeName":null,
        "containers":[{"name":"c","envFrom":[{"configMapRef":{"name":"cm","optional":true}}]}],
        "volumes":[{"name":"v","configMap":{"name":"cm","defaultMode":420}}]}}"#;
    let out = decode(pod(), body, FieldValidation::Strict).expect("decode");
    assert!(out.warnings.is_empty());
    assert_eq!(
        out.object,
        json!({"metadata": {"name": "p"}, "spec": {
            "containers": [{"name": "c", "envFrom": [{"configMapRef": {"name": "cm", "optional": true}}]}],
            "volumes": [{"name": "v", "configMap": {"name": "cm", "defaultMode": 420}}]}})
    );
    // Decoding the output again gives the same object.
    let again = decode_value(&out.object, pod(), FieldValidation::Strict).expect("again");
    assert_eq!(again.object, out.object);
    // Floats: integral values lose their fraction, as upstream writes them.
    let hpa = kind_def("autoscaling", "v2", "HorizontalPodAutoscaler").expect("hpa");
    let out = decode(
        hpa,
        r#"{"spec":{"maxReplicas":3}}"#,
        FieldValidation::Strict,
    )
    .expect("hpa");
    assert_eq!(out.object["spec"]["maxReplicas"], json!(3));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for body in [
        "",
        "{",
        "nul",
        "{\"metadata\":",
        "\u{0}",
        "{\"a\":1}}",
        "[[[[",
        "{\"spec\":{\"containers\":[{]}}",
    ] {
        assert!(
            decode(pod(), body, FieldValidation::Strict).is_err(),
            "{body:?}"
        );
    }
    assert!(decode_json(b"\xff\xfe", pod(), FieldValidation::Warn).is_err());
    let deep = "[".repeat(100_000);
    assert!(decode(pod(), &deep, FieldValidation::Warn).is_err());
    let null = decode(pod(), "null", FieldValidation::Strict).expect("null");
    assert_eq!(null.object, json!({}));
    // apiextensions: schema props, or-bool and or-array forms.
    let crd = kind_def("apiextensions.k8s.io", "v1", "CustomResourceDefinition").expect("crd");
    let body = r#"{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object",
        "x-kubernetes-preserve-unknown-fields":true,"additionalProperties":false,
        "properties":{"a":{"type":"string","default":"x"}},"items":[{"type":"string"}]}}}]}}"#;
    let out = decode(crd, body, FieldValidation::Strict).expect("crd");
    let schema = &out.object["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    assert_eq!(schema["additionalProperties"], json!(false));
    assert_eq!(schema["properties"]["a"]["default"], json!("x"));
    assert_eq!(schema["x-kubernetes-preserve-unknown-fields"], json!(true));
}

#[test]
fn mutated_json_never_panics() {
    let body = br#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","labels":{"a":"b"},
        "creationTimestamp":"2024-01-02T03:04:05Z"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},
        "template":{"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}],
        "resources":{"limits":{"cpu":"1"}},"livenessProbe":{"httpGet":{"port":8080}}}]}}}}"#;
    assert!(decode_json(body, deployment(), FieldValidation::Strict).is_ok());
    let mut state: u64 = 7;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let alphabet = br#"{}[]":,0123456789.-eE nulltruefalse"abc\"#;
    for _ in 0..5000 {
        let mut b = body.to_vec();
        for _ in 0..1 + next() % 4 {
            let at = next() % b.len();
            b[at] = alphabet[next() % alphabet.len()];
        }
        for mode in [FieldValidation::Strict, FieldValidation::Warn] {
            let _ = decode_json(&b, deployment(), mode);
        }
    }
    for n in 0..body.len() {
        let _ = decode_json(&body[..n], deployment(), FieldValidation::Warn);
    }
}

/// Upstream decodes into its Go structs, where the zero of an `omitempty` scalar held by
/// value is unset: a client's `hostNetwork: false` is not stored. A pointer's zero is kept.
#[test]
fn zero_of_value_fields_dropped_zero_of_pointers_kept() {
    let def = crate::kind_def("", "v1", "Pod").expect("pod");
    let body = br#"{"metadata":{"name":"p","generation":0},"spec":{"hostNetwork":false,
        "nodeName":"","priority":0,"automountServiceAccountToken":false,
        "containers":[{"name":"c","image":"i","stdin":false,"tty":true}]}}"#;
    let out = decode_json(body, def, FieldValidation::Strict).expect("decode");
    assert_eq!(
        out.object,
        json!({"metadata": {"name": "p"}, "spec": {"priority": 0,
            "automountServiceAccountToken": false,
            "containers": [{"name": "c", "image": "i", "tty": true}]}})
    );
}
