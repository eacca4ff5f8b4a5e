//! A bearer token as service account authentication sees it: the kube-api worker's
//! TokenReview (signature, issuer, audiences, times, the bound ServiceAccount, Pod,
//! Secret or Node, legacy tokens, bootstrap tokens) and the front door's verdict on its
//! answer. Input is a token, or (starting with `{`) claims the issuer signs. A token is
//! authenticated as a service account or bootstrap user, or refused with an error that
//! becomes the 401, never a panic or a 5xx.
#![no_main]

use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use kas_kube_api::fuzzing::SaTokens;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
/// The legacy token the fixture Secret holds (a seed).
const LEGACY_TOKEN: &str = include_str!("../seeds/sa_token/legacy-token");

fn tokens() -> &'static SaTokens {
    static TOKENS: OnceLock<SaTokens> = OnceLock::new();
    TOKENS.get_or_init(|| {
        SaTokens::new(
            ISSUER,
            include_str!("../fixtures/sa.key"),
            include_str!("../fixtures/sa.pub"),
        )
        .expect("the fixture keys")
    })
}

/// The objects a review may look up.
fn objects() -> &'static [Value] {
    static OBJECTS: OnceLock<Vec<Value>> = OnceLock::new();
    OBJECTS.get_or_init(|| {
        vec![
            json!({"kind": "ServiceAccount", "metadata": {"name": "default", "namespace": "default", "uid": "sa-uid"}}),
            json!({"kind": "Pod", "metadata": {"name": "web", "namespace": "default", "uid": "pod-uid"},
                "spec": {"serviceAccountName": "default", "nodeName": "node-1"}}),
            json!({"kind": "Node", "metadata": {"name": "node-1", "uid": "node-uid"}}),
            json!({"kind": "Secret", "type": "kubernetes.io/service-account-token",
                "metadata": {"name": "default-token", "namespace": "default",
                    "annotations": {"kubernetes.io/service-account.name": "default",
                        "kubernetes.io/service-account.uid": "sa-uid"}},
                "data": {"token": STANDARD.encode(LEGACY_TOKEN.trim())}}),
            json!({"kind": "Secret", "type": "bootstrap.kubernetes.io/token",
                "metadata": {"name": "bootstrap-token-abcdef", "namespace": "kube-system"},
                "data": {"token-id": "YWJjZGVm", "token-secret": "MDEyMzQ1Njc4OWFiY2RlZg==",
                    "usage-bootstrap-authentication": "dHJ1ZQ==",
                    "auth-extra-groups": "c3lzdGVtOmJvb3RzdHJhcHBlcnM6a3ViZWFkbTpkZWZhdWx0LW5vZGUtdG9rZW4="}}),
        ]
    })
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let token = if text.starts_with('{') {
        let Ok(claims) = serde_json::from_str::<Value>(text) else {
            return;
        };
        match tokens().sign(&claims) {
            Ok(t) => t,
            Err(_) => return,
        }
    } else {
        text.to_owned()
    };
    if token.trim().is_empty() {
        return;
    }
    let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    let now: SystemTime = now;
    let review = match runtime().block_on(tokens().review(&token, now, objects())) {
        Ok(r) => r,
        Err(status) => panic!("a TokenReview of a non-empty token failed: {status:?}"),
    };
    if std::env::var_os("FUZZ_VERBOSE").is_some() {
        eprintln!("{}", review["status"]);
    }
    let status = &review["status"];
    if status["authenticated"] == json!(true) {
        let name = status
            .pointer("/user/username")
            .and_then(Value::as_str)
            .unwrap_or("");
        assert!(
            name.starts_with("system:serviceaccount:") || name.starts_with("system:bootstrap:"),
            "{review}"
        );
    } else {
        let error = status["error"].as_str().unwrap_or("");
        assert!(!error.is_empty(), "a refusal without an error: {review}");
    }
    match kas_aggregator::fuzzing::token_review_verdict(&review) {
        Some(Ok(user)) => {
            assert_eq!(status["authenticated"], json!(true));
            assert!(!user.name.is_empty());
        }
        Some(Err(e)) => assert!(!e.is_empty()),
        None => assert_ne!(status["authenticated"], json!(true)),
    }
});
