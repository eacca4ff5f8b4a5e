//! The audit Policy checks, one bad input each, with upstream's words.

use super::*;

fn errors(text: &str) -> Vec<String> {
    match parse(text) {
        Ok(l) => panic!("accepted: {:?}", l.policy),
        Err(e) => e,
    }
}

fn only(text: &str, want: &str) {
    assert_eq!(errors(text), [want], "{text}");
}

const HEAD: &str = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";

#[test]
fn kubernetes_docs_example() {
    // The example policy of the Kubernetes auditing documentation.
    let l = parse(
        "apiVersion: audit.k8s.io/v1 # This is required.
kind: Policy
omitStages:
  - \"RequestReceived\"
rules:
  - level: RequestResponse
    resources:
    - group: \"\"
      resources: [\"pods\"]
  - level: Metadata
    resources:
    - group: \"\"
      resources: [\"pods/log\", \"pods/status\"]
  - level: None
    resources:
    - group: \"\"
      resources: [\"configmaps\"]
      resourceNames: [\"controller-leader\"]
  - level: None
    users: [\"system:kube-proxy\"]
    verbs: [\"watch\"]
    resources:
    - group: \"\" # core API group
      resources: [\"endpoints\", \"services\"]
  - level: None
    userGroups: [\"system:authenticated\"]
    nonResourceURLs:
    - \"/api*\" # Wildcard matching.
    - \"/version\"
  - level: Request
    resources:
    - group: \"\" # core API group
      resources: [\"configmaps\"]
    namespaces: [\"kube-system\"]
  - level: Metadata
    resources:
    - group: \"\" # core API group
      resources: [\"secrets\", \"configmaps\"]
  - level: Request
    resources:
    - group: \"\" # core API group
    - group: \"extensions\" # Version of group should NOT be included.
  - level: Metadata
    omitStages:
      - \"RequestReceived\"
",
    )
    .expect("valid");
    assert!(l.warning.is_none());
    let p = l.policy;
    assert_eq!(p.omit_stages, [AuditStage::RequestReceived]);
    assert!(!p.omit_managed_fields);
    assert_eq!(p.rules.len(), 9);
    assert_eq!(p.rules[0].level, AuditLevel::RequestResponse);
    assert_eq!(p.rules[0].resources[0].resources, ["pods"]);
    assert_eq!(
        p.rules[2].resources[0].resource_names,
        ["controller-leader"]
    );
    assert_eq!(p.rules[3].users, ["system:kube-proxy"]);
    assert_eq!(p.rules[3].verbs, ["watch"]);
    assert_eq!(p.rules[4].user_groups, ["system:authenticated"]);
    assert_eq!(p.rules[4].non_resource_urls, ["/api*", "/version"]);
    assert_eq!(p.rules[5].namespaces, ["kube-system"]);
    assert_eq!(p.rules[7].resources[1].group, "extensions");
    assert_eq!(p.rules[8].omit_stages, [AuditStage::RequestReceived]);
    assert_eq!(p.rules[8].omit_managed_fields, None);
}

#[test]
fn json_and_managed_fields() {
    let l = parse(
        r#"{"apiVersion":"audit.k8s.io/v1","kind":"Policy","omitManagedFields":true,
            "rules":[{"level":"Metadata","omitManagedFields":false},{"level":"None","nonResourceURLs":["*"]}]}"#,
    )
    .expect("valid");
    assert!(l.policy.omit_managed_fields);
    assert_eq!(l.policy.rules[0].omit_managed_fields, Some(false));
    assert_eq!(l.policy.rules[1].non_resource_urls, ["*"]);
}

#[test]
fn a_missing_kind_is_policy() {
    let l = parse("apiVersion: audit.k8s.io/v1\nrules: [{level: None}]\n").expect("valid");
    assert_eq!(l.policy.rules[0].level, AuditLevel::None);
}

#[test]
fn unknown_fields_warn_and_are_ignored() {
    let l = parse(&format!(
        "{HEAD}metadata: {{name: p}}\nextra: 1\nrules:\n- level: Metadata\n  levle: None\n  resources: [{{group: apps, versions: [v1]}}]\n"
    ))
    .expect("lenient");
    assert_eq!(
        l.warning.as_deref(),
        Some(
            "Audit policy contains errors, falling back to lenient decoding: strict decoding error: \
             unknown field \"extra\", unknown field \"rules[0].levle\", unknown field \"rules[0].resources[0].versions\""
        )
    );
    assert_eq!(l.policy.rules[0].level, AuditLevel::Metadata);
}

#[test]
fn versions_and_kinds() {
    only(
        "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n",
        "failed decoding: no kind \"Policy\" is registered for version \"audit.k8s.io/v1beta1\" in scheme \"k8s.io/apiserver/pkg/audit/scheme.go:30\"",
    );
    only(
        "kind: Policy\nrules: [{level: None}]\n",
        "unknown group version field audit.k8s.io/__internal, Kind=Policy in policy",
    );
    only(
        "",
        "unknown group version field audit.k8s.io/__internal, Kind=Policy in policy",
    );
    only(
        "apiVersion: audit.k8s.io/v1\nkind: Config\nrules: [{level: None}]\n",
        "failed decoding: no kind \"Config\" is registered for version \"audit.k8s.io/v1\" in scheme \"k8s.io/apiserver/pkg/audit/scheme.go:30\"",
    );
    only(
        "apiVersion: audit.k8s.io/v1\nkind: PolicyList\nrules: [{level: None}]\n",
        "failed decoding: converting (v1.PolicyList) to (audit.Policy): unknown conversion",
    );
    only(
        "apiVersion: a/b/c\nrules: [{level: None}]\n",
        "failed decoding: couldn't get version/kind; json parse error: unexpected GroupVersion string: a/b/c",
    );
}

#[test]
fn not_a_policy() {
    let e = errors("rules: [");
    assert!(
        e[0].starts_with("failed decoding: error converting YAML to JSON: "),
        "{e:?}"
    );
    only(
        "- level: None\n",
        "failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }",
    );
    only(
        "apiVersion: 1\nrules: [{level: None}]\n",
        "failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string",
    );
}

#[test]
fn no_rules() {
    only(HEAD, "loaded illegal policy with 0 rules");
    only(
        &format!("{HEAD}rules: []\n"),
        "loaded illegal policy with 0 rules",
    );
}

#[test]
fn wrong_types_name_the_go_field() {
    for (body, want) in [
        (
            "rules: {level: None}",
            "failed decoding: json: cannot unmarshal object into Go struct field Policy.rules of type []v1.PolicyRule",
        ),
        (
            "rules: [None]",
            "failed decoding: json: cannot unmarshal string into Go struct field Policy.rules of type v1.PolicyRule",
        ),
        (
            "rules: [{level: 3}]",
            "failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.level of type v1.Level",
        ),
        (
            "rules: [{level: None, users: bob}]",
            "failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.users of type []string",
        ),
        (
            "rules: [{level: None, verbs: [1]}]",
            "failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.verbs of type string",
        ),
        (
            "rules: [{level: None, resources: [{group: 1}]}]",
            "failed decoding: json: cannot unmarshal number into Go struct field GroupResources.rules.resources.group of type string",
        ),
        (
            "rules: [{level: None, resources: pods}]",
            "failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.resources of type []v1.GroupResources",
        ),
        (
            "rules: [{level: None, omitManagedFields: sometimes}]",
            "failed decoding: json: cannot unmarshal string into Go struct field PolicyRule.rules.omitManagedFields of type bool",
        ),
        (
            "omitStages: Panic\nrules: [{level: None}]",
            "failed decoding: json: cannot unmarshal string into Go struct field Policy.omitStages of type []v1.Stage",
        ),
    ] {
        only(&format!("{HEAD}{body}\n"), want);
    }
}

#[test]
fn levels() {
    only(
        &format!("{HEAD}rules:\n- level: None\n- level: Metadata\n- level: Verbose\n"),
        "rules[2].level: Unsupported value: \"Verbose\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\"",
    );
    only(
        &format!("{HEAD}rules:\n- users: [bob]\n"),
        "rules[0].level: Required value",
    );
    // Spelled as upstream spells it, case included.
    only(
        &format!("{HEAD}rules:\n- level: metadata\n"),
        "rules[0].level: Unsupported value: \"metadata\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\"",
    );
}

#[test]
fn stages() {
    only(
        &format!("{HEAD}omitStages: [RequestReceived, Started]\nrules: [{{level: None}}]\n"),
        "omitStages[1]: Invalid value: \"Started\": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic",
    );
    only(
        &format!("{HEAD}rules: [{{level: None}}, {{level: None, omitStages: [Done]}}]\n"),
        "rules[1].omitStages[0]: Invalid value: \"Done\": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic",
    );
}

#[test]
fn non_resource_urls() {
    let e = errors(&format!(
        "{HEAD}rules:\n- level: None\n  nonResourceURLs: ['*', /healthz*, metrics, '/a*/b', '']\n"
    ));
    assert_eq!(
        e,
        [
            "rules[0].nonResourceURLs[2]: Invalid value: \"metrics\": non-resource URL rules must begin with a '/' character",
            "rules[0].nonResourceURLs[3]: Invalid value: \"/a*/b\": non-resource URL wildcards '*' must be the final character of the rule",
            "rules[0].nonResourceURLs[4]: Invalid value: \"\": non-resource URL rules must begin with a '/' character",
        ]
    );
    // Upstream checks bytes: a multi-byte character before the end is no problem.
    parse(&format!(
        "{HEAD}rules: [{{level: None, nonResourceURLs: [/é]}}]\n"
    ))
    .expect("valid");
}

#[test]
fn urls_with_resources_or_namespaces() {
    only(
        &format!("{HEAD}rules:\n- level: None\n  nonResourceURLs: [/metrics]\n  namespaces: [default]\n"),
        "rules[0].nonResourceURLs: Invalid value: []string{\"/metrics\"}: rules cannot apply to both regular resources and non-resource URLs",
    );
    only(
        &format!("{HEAD}rules:\n- level: None\n  nonResourceURLs: [/metrics, /api*]\n  resources: [{{group: ''}}]\n"),
        "rules[0].nonResourceURLs: Invalid value: []string{\"/metrics\", \"/api*\"}: rules cannot apply to both regular resources and non-resource URLs",
    );
}

#[test]
fn group_resources() {
    only(
        &format!("{HEAD}rules:\n- level: None\n  resources: [{{group: rbac.authorization.k8s.io/v1}}]\n"),
        "rules[0].resources.group: Invalid value: \"rbac.authorization.k8s.io/v1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    only(
        &format!("{HEAD}rules:\n- level: None\n  resources: [{{group: apps, resourceNames: [web]}}]\n"),
        "rules[0].resources.resourceNames: Invalid value: []string{\"web\"}: using resourceNames requires at least one resource",
    );
    let long = "a".repeat(254);
    let e = errors(&format!(
        "{HEAD}rules:\n- level: None\n  resources: [{{group: {long}}}]\n"
    ));
    assert!(
        e[0].contains(": must be no more than 253 characters"),
        "{e:?}"
    );
    // Wildcards and subresources are the evaluator's business, not validation's.
    let l = parse(&format!(
        "{HEAD}rules:\n- level: Request\n  resources: [{{group: apps, resources: ['*/scale', 'deployments/*', '*']}}]\n"
    ))
    .expect("valid");
    assert_eq!(
        l.policy.rules[0].resources[0].resources,
        ["*/scale", "deployments/*", "*"]
    );
}

#[test]
fn every_problem_at_once() {
    let e = errors(&format!(
        "{HEAD}omitStages: [Never]\nrules:\n- level: Verbose\n  nonResourceURLs: [healthz]\n- level: None\n  resources: [{{resourceNames: [x]}}]\n  omitStages: [Later]\n"
    ));
    assert_eq!(
        e,
        [
            "omitStages[0]: Invalid value: \"Never\": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic",
            "rules[0].level: Unsupported value: \"Verbose\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\"",
            "rules[0].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL rules must begin with a '/' character",
            "rules[1].resources.resourceNames: Invalid value: []string{\"x\"}: using resourceNames requires at least one resource",
            "rules[1].omitStages[0]: Invalid value: \"Later\": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic",
        ]
    );
}

#[test]
fn load_names_the_file() {
    let dir = tempfile::tempdir().expect("dir");
    let p = dir.path().join("policy.yaml");
    std::fs::write(&p, format!("{HEAD}rules: [{{level: Loud}}]\n")).expect("write");
    let e = load(&p).expect_err("invalid");
    assert_eq!(
        e,
        [format!(
            "{}: rules[0].level: Unsupported value: \"Loud\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\"",
            p.display()
        )]
    );
    std::fs::write(&p, format!("{HEAD}x: 1\nrules: [{{level: None}}]\n")).expect("write");
    let l = load(&p).expect("lenient");
    assert!(l
        .warning
        .expect("warning")
        .starts_with(&format!("{}: Audit policy contains errors", p.display())));
    let missing = dir.path().join("missing.yaml");
    let e = load(&missing).expect_err("missing");
    assert!(
        e[0].starts_with(&format!(
            "failed to read file path {:?}: ",
            missing.display().to_string()
        )),
        "{e:?}"
    );
}
