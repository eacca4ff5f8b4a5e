//! Tests of the authentication configuration file: decoding and upstream's checks.

use super::*;

const HEAD: &str =
    "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n";

fn problems(yaml: &str) -> Vec<String> {
    let file = decode(&format!("{HEAD}{yaml}")).expect("decodes");
    validate(
        &file.jwt,
        file.anonymous.as_ref(),
        &["https://kubernetes.default.svc".to_owned()],
    )
    .iter()
    .map(ToString::to_string)
    .collect()
}

#[test]
fn decodes_both_versions_strictly() {
    let file = decode(&format!(
        "{HEAD}jwt:\n- issuer:\n    url: https://a.example\n    discoveryURL: https://in.cluster/.well-known/openid-configuration\n    audiences: [k]\n  claimMappings:\n    username: {{claim: sub, prefix: 'a:'}}\n    groups: {{expression: claims.groups}}\nanonymous:\n  enabled: true\n  conditions: [{{path: /livez}}]\n"
    ))
    .expect("decodes");
    let j = &file.jwt[0];
    assert_eq!(j.issuer.url, "https://a.example");
    assert_eq!(
        j.issuer.discovery_url.as_deref(),
        Some("https://in.cluster/.well-known/openid-configuration")
    );
    assert_eq!(j.claim_mappings.username.prefix.as_deref(), Some("a:"));
    assert_eq!(j.claim_mappings.groups.expression, "claims.groups");
    assert_eq!(
        file.anonymous,
        Some(AnonymousConfig {
            enabled: true,
            paths: vec!["/livez".into()]
        })
    );
    let json = r#"{"apiVersion":"apiserver.config.k8s.io/v1alpha1","kind":"AuthenticationConfiguration","jwt":[]}"#;
    assert_eq!(decode(json).expect("json").jwt, []);

    assert_eq!(decode("  \n"), Err("empty config data".to_owned()));
    assert_eq!(
        decode("apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\n"),
        Err("no kind \"AuthenticationConfiguration\" is registered for version \"apiserver.config.k8s.io/v1\"".to_owned())
    );
    assert_eq!(
        decode(&format!("{HEAD}jwt:\n- issuer: {{url: https://a, audience: [x]}}\nextra: 1\n")),
        Err("strict decoding error: unknown field \"extra\", unknown field \"jwt[0].issuer.audience\"".to_owned())
    );
    assert!(decode(&format!("{HEAD}jwt: 5\n")).is_err());
}

#[test]
fn issuer_checks_as_upstream() {
    let got = problems(
        "jwt:\n- issuer: {url: 'http://u:p@a.example/x?q=1#f', audiences: []}\n  claimMappings: {username: {claim: sub, prefix: ''}}\n\
         - issuer: {url: https://kubernetes.default.svc, audiences: [a, a, ''], discoveryURL: https://kubernetes.default.svc/}\n  claimMappings: {username: {claim: sub, prefix: ''}}\n\
         - issuer: {url: https://b.example, audiences: [a], audienceMatchPolicy: MatchAll, certificateAuthority: nope}\n  claimMappings: {username: {claim: sub, prefix: ''}}\n\
         - issuer: {url: https://b.example, audiences: [a]}\n  claimMappings: {username: {claim: sub}}\n",
    );
    let want = [
        "jwt[0].issuer.url: Invalid value: \"http://u:p@a.example/x?q=1#f\": URL scheme must be https",
        "jwt[0].issuer.url: Invalid value: \"http://u:p@a.example/x?q=1#f\": URL must not contain a username or password",
        "jwt[0].issuer.url: Invalid value: \"http://u:p@a.example/x?q=1#f\": URL must not contain a query",
        "jwt[0].issuer.url: Invalid value: \"http://u:p@a.example/x?q=1#f\": URL must not contain a fragment",
        "jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required",
        "jwt[1].issuer.url: Invalid value: \"https://kubernetes.default.svc\": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc]",
        "jwt[1].issuer.discoveryURL: Invalid value: \"https://kubernetes.default.svc/\": discoveryURL must be different from URL",
        "jwt[1].issuer.audiences[1]: Duplicate value: \"a\"",
        "jwt[1].issuer.audiences[2]: Required value: audience can't be empty",
        "jwt[1].issuer.audienceMatchPolicy: Invalid value: \"\": audienceMatchPolicy must be MatchAny for multiple audiences",
        "jwt[2].issuer.audienceMatchPolicy: Invalid value: \"MatchAll\": audienceMatchPolicy must be empty or MatchAny for single audience",
    ];
    for w in want {
        assert!(got.iter().any(|g| g == w), "missing {w:?} in {got:#?}");
    }
    assert!(
        got.iter()
            .any(|g| g
                .starts_with("jwt[2].issuer.certificateAuthority: Invalid value: \"<omitted>\": ")),
        "{got:#?}"
    );
    assert!(got.contains(&"jwt[3].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing".to_owned()), "{got:#?}");
    assert!(
        got.contains(&"jwt[3].issuer.url: Duplicate value: \"https://b.example\"".to_owned()),
        "{got:#?}"
    );
}

#[test]
fn mapping_and_rule_checks_as_upstream() {
    let got = problems(
        "jwt:\n- issuer: {url: https://a.example, audiences: [a]}\n  claimValidationRules:\n  - {claim: hd, expression: 'true'}\n  - {}\n  - {claim: hd, message: m}\n  - {expression: 'claims.x ==', requiredValue: v}\n  claimMappings:\n    username: {expression: claims.email, prefix: 'p:'}\n    groups: {claim: g, expression: claims.g}\n    uid: {claim: u, expression: claims.u}\n    extra:\n    - {key: Example.com/A, valueExpression: claims.a}\n    - {key: kubernetes.io/x, valueExpression: claims.a}\n    - {key: example.com/b}\n  userValidationRules:\n  - {expression: ''}\n  - {expression: 'claims.sub == \"x\"'}\n",
    );
    for w in [
        "jwt[0].claimValidationRules[0]: Invalid value: \"hd\": claim and expression can't both be set",
        "jwt[0].claimValidationRules[1]: Required value: claim or expression is required",
        "jwt[0].claimValidationRules[2].message: Invalid value: \"m\": message can't be set when claim is set",
        "jwt[0].claimValidationRules[3].requiredValue: Invalid value: \"v\": requiredValue can't be set when expression is set",
        "jwt[0].claimMappings.username.prefix: Invalid value: \"p:\": prefix can't be set when expression is set",
        "jwt[0].claimMappings.groups: Invalid value: \"\": claim and expression can't both be set",
        "jwt[0].claimMappings.uid: Invalid value: \"\": claim and expression can't both be set",
        "jwt[0].claimMappings.extra[0].key: Invalid value: \"Example.com/A\": key must be lowercase",
        "jwt[0].claimMappings.extra[1].key: Invalid value: \"kubernetes.io/x\": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use",
        "jwt[0].claimMappings.extra[2].valueExpression: Required value: valueExpression is required",
        "jwt[0].claimMappings.username.expression: Invalid value: \"claims.email\": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression",
        "jwt[0].userValidationRules[0].expression: Required value: expression is required",
    ] {
        assert!(got.iter().any(|g| g == w), "missing {w:?} in {got:#?}");
    }
    assert!(got.iter().any(|g| g.starts_with("jwt[0].claimValidationRules[3].expression: Invalid value: \"claims.x ==\": compilation failed: ")), "{got:#?}");
    assert!(got.iter().any(|g| g.starts_with("jwt[0].userValidationRules[1].expression: Invalid value: \"claims.sub == \\\"x\\\"\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'claims'")), "{got:#?}");
    // email with email_verified somewhere is fine.
    assert_eq!(
        problems("jwt:\n- issuer: {url: https://a.example, audiences: [a]}\n  claimValidationRules: [{expression: claims.email_verified}]\n  claimMappings: {username: {expression: claims.email}}\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        problems("anonymous: {enabled: false, conditions: [{path: /livez}]}\n"),
        ["anonymous.conditions: Invalid value: [{Path:/livez}]: enabled should be set to true when conditions are defined"]
    );
}

#[test]
fn aggregates_as_go() {
    let e = |s: &str| FieldError(s.to_owned());
    assert_eq!(aggregate(&[e("a")]), "a");
    assert_eq!(aggregate(&[e("a"), e("b")]), "[a, b]");
}
