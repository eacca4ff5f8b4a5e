//! Tests of the JWT flags: defaults, upstream's prefix rule, exclusivity, the file.

use super::*;

fn flags(args: &[&str]) -> JwtFlags {
    #[derive(clap::Parser)]
    struct Cmd {
        #[command(flatten)]
        jwt: JwtFlags,
    }
    let argv = std::iter::once("kube-apiserver").chain(args.iter().copied());
    <Cmd as clap::Parser>::try_parse_from(argv)
        .expect("parses")
        .jwt
}

fn check(args: &[&str]) -> (JwtValidated, Vec<String>) {
    let mut errs = Vec::new();
    let v = validate(
        &flags(args),
        &["https://kubernetes.default.svc.cluster.local".into()],
        false,
        &mut errs,
    );
    (v, errs.iter().map(ToString::to_string).collect())
}

#[test]
fn oidc_flags_become_one_authenticator() {
    let (v, errs) = check(&[
        "--oidc-issuer-url=https://issuer.example",
        "--oidc-client-id=kubernetes",
        "--oidc-groups-claim=groups",
        "--oidc-groups-prefix=oidc:",
        "--oidc-required-claim=hd=example.com",
        "--oidc-required-claim",
        "tier=a=b",
        "--oidc-signing-algs=ES256,RS256",
    ]);
    assert_eq!(errs, Vec::<String>::new());
    let a = &v.config.authenticators[0];
    assert_eq!(a.issuer.audiences, ["kubernetes"]);
    // Upstream's legacy default: claims other than email get "<issuer>#".
    assert_eq!(a.claim_mappings.username.claim, "sub");
    assert_eq!(
        a.claim_mappings.username.prefix.as_deref(),
        Some("https://issuer.example#")
    );
    assert_eq!(a.claim_mappings.groups.prefix.as_deref(), Some("oidc:"));
    let rules: Vec<(&str, &str)> = a
        .claim_validation_rules
        .iter()
        .map(|r| (r.claim.as_str(), r.required_value.as_str()))
        .collect();
    assert_eq!(rules, [("hd", "example.com"), ("tier", "a=b")]);
    assert_eq!(v.config.signing_algs, ["ES256", "RS256"]);
    assert_eq!(v.config.config_file, None);

    let prefix = |args: &[&str]| {
        let mut all = vec!["--oidc-issuer-url=https://i.example", "--oidc-client-id=c"];
        all.extend_from_slice(args);
        let (v, errs) = check(&all);
        assert_eq!(errs, Vec::<String>::new());
        v.config.authenticators[0]
            .claim_mappings
            .username
            .prefix
            .clone()
    };
    assert_eq!(
        prefix(&["--oidc-username-claim=email"]).as_deref(),
        Some("")
    );
    assert_eq!(prefix(&["--oidc-username-prefix=-"]).as_deref(), Some(""));
    assert_eq!(
        prefix(&["--oidc-username-prefix=x:"]).as_deref(),
        Some("x:")
    );
    assert_eq!(prefix(&[]).as_deref(), Some("https://i.example#"));
    assert_eq!(check(&[]).0.config.authenticators, []);
}

#[test]
fn oidc_flag_errors() {
    assert_eq!(
        check(&["--oidc-username-claim=email"]).1,
        ["invalid value for --oidc-issuer-url: oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set"]
    );
    let (_, errs) = check(&[
        "--oidc-issuer-url=https://kubernetes.default.svc.cluster.local",
        "--oidc-client-id=c",
        "--oidc-signing-algs=HS256",
        "--oidc-required-claim=nokey",
    ]);
    assert_eq!(
        errs,
        [
            "invalid value for --oidc-signing-algs: oidc: unsupported signing alg: \"HS256\"",
            "invalid value for --oidc-required-claim: \"nokey\": malformed pair, expect string=string",
            "invalid value for --oidc-issuer-url: invalid authentication configuration: jwt[0].issuer.url: Invalid value: \"https://kubernetes.default.svc.cluster.local\": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc.cluster.local]",
        ]
    );
}

#[test]
fn the_file_and_its_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("authn.yaml");
    std::fs::write(
        &file,
        "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: https://a.example, audiences: [k]}\n  claimMappings: {username: {expression: \"'a:' + claims.sub\"}}\nanonymous: {enabled: true, conditions: [{path: /livez}]}\n",
    )
    .expect("write");
    let path = file.display().to_string();
    let (v, errs) = check(&["--authentication-config", &path]);
    assert_eq!(errs, Vec::<String>::new());
    assert_eq!(v.config.authenticators.len(), 1);
    assert_eq!(v.config.config_file.as_deref(), Some(file.as_path()));
    assert_eq!(v.config.signing_algs.len(), 9);
    assert_eq!(
        v.anonymous.map(|a| a.paths),
        Some(vec!["/livez".to_owned()])
    );

    let (_, errs) = check(&["--authentication-config", &path, "--oidc-client-id=x"]);
    assert_eq!(errs, ["invalid value for --authentication-config: authentication-config file and oidc-* flags are mutually exclusive"]);
    let mut errs = Vec::new();
    validate(
        &flags(&["--authentication-config", &path]),
        &[],
        true,
        &mut errs,
    );
    assert_eq!(errs[0].to_string(), "invalid value for --authentication-config: anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file");

    std::fs::write(&file, "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: http://a.example, audiences: [k]}\n  claimMappings: {username: {expression: 'claims.sub +'}}\n").expect("write");
    let (_, errs) = check(&["--authentication-config", &path]);
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with(&format!("invalid value for --authentication-config: {path}: invalid authentication configuration: [jwt[0].issuer.url: Invalid value: \"http://a.example\": URL scheme must be https, jwt[0].claimMappings.username.expression: Invalid value: \"claims.sub +\": compilation failed: ")), "{errs:?}");
    let (_, errs) = check(&["--authentication-config", "/nonexistent/authn.yaml"]);
    assert_eq!(errs, ["invalid value for --authentication-config: failed to load authentication configuration from file \"/nonexistent/authn.yaml\": No such file or directory (os error 2)"]);
}
