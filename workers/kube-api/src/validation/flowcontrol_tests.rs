//! Unit tests of the FlowSchema rules, against upstream's validation_test.go cases.

use super::*;

fn fs(name: &str, spec: Value) -> Value {
    json!({"metadata": {"name": name}, "spec": spec})
}

fn good_rule() -> Value {
    json!({"subjects": [{"kind": "User", "user": {"name": "noxu"}}],
        "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"]}]})
}

fn spec_with(rule: Value) -> Value {
    json!({"matchingPrecedence": 50, "priorityLevelConfiguration": {"name": "system-bar"},
        "rules": [rule]})
}

/// field: message, for every cause.
fn got(obj: &Value) -> Vec<String> {
    flowschema(obj, None)
        .iter()
        .map(|c| format!("{}: {}", c.field, c.message))
        .collect()
}

#[test]
fn valid_schemas() {
    assert!(got(&fs("system-foo", spec_with(good_rule()))).is_empty());
    let mut both = good_rule();
    both["nonResourceRules"] = json!([{"verbs": ["*"], "nonResourceURLs": ["/apis/*"]}]);
    assert!(got(&fs("system-foo", spec_with(both))).is_empty());
    for o in kas_server::flowcontrol_objects::mandatory_flow_schemas()
        .into_iter()
        .chain(kas_server::flowcontrol_objects::suggested_flow_schemas())
    {
        let mut o = o;
        crate::defaults::flowschema_defaults(&mut o);
        assert!(got(&o).is_empty(), "{o}: {:?}", got(&o));
    }
}

#[test]
fn spec_rules() {
    let mut s = spec_with(good_rule());
    s["matchingPrecedence"] = json!(10001);
    s["distinguisherMethod"] = json!({"type": "ByFoo"});
    s["priorityLevelConfiguration"]["name"] = json!("Bad_Name");
    assert_eq!(
        got(&fs("a", s)),
        [
            "spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000",
            "spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:\"ByFoo\"}: supported values: \"ByNamespace\", \"ByUser\"",
            "spec.priorityLevelConfiguration.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ]
    );
    let mut s = spec_with(good_rule());
    s["matchingPrecedence"] = json!(1);
    s["priorityLevelConfiguration"] = json!({});
    assert_eq!(
        got(&fs("fred", s)),
        [
            "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
            "spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
        ]
    );
    let mut s = spec_with(good_rule());
    s["matchingPrecedence"] = json!(-3);
    assert_eq!(
        got(&fs("a", s)),
        ["spec.matchingPrecedence: Invalid value: -3: must be a positive value"]
    );
}

#[test]
fn subjects() {
    let rule = |subjects: Value| {
        fs(
            "a",
            spec_with(json!({"subjects": subjects,
            "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]})),
        )
    };
    assert_eq!(
        got(&rule(json!([{"kind": "ServiceAccount", "user": {"name": "fred"}, "group": {"name": "fred"}}]))),
        [
            "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
            "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
            "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
        ]
    );
    assert_eq!(
        got(&rule(json!([{"kind": "User", "group": {"name": "fred"}, "serviceAccount": {"namespace": "s", "name": "n"}}]))),
        [
            "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
            "spec.rules[0].subjects[0].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
            "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
        ]
    );
    assert_eq!(
        got(&rule(json!([{"kind": "Group", "group": {}}, {"kind": "Robot"},
            {"kind": "ServiceAccount", "serviceAccount": {"name": "*"}},
            {"kind": "ServiceAccount", "serviceAccount": {"name": "A", "namespace": "a.b"}}]))),
        [
            "spec.rules[0].subjects[0].group.name: Required value",
            "spec.rules[0].subjects[1].kind: Unsupported value: \"Robot\": supported values: \"Group\", \"ServiceAccount\", \"User\"",
            "spec.rules[0].subjects[2].serviceAccount.namespace: Required value: must specify namespace for service account",
            "spec.rules[0].subjects[3].serviceAccount.name: Invalid value: \"A\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "spec.rules[0].subjects[3].serviceAccount.namespace: Invalid value: \"a.b\": must not contain dots",
        ]
    );
    assert_eq!(
        got(&fs("a", spec_with(json!({})))),
        [
            "spec.rules[0].subjects: Required value: subjects must contain at least one value",
            "spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty",
        ]
    );
}

#[test]
fn resource_rules() {
    let with = |r: Value| {
        fs(
            "a",
            spec_with(
                json!({"subjects": [{"kind": "Group", "group": {"name": "g"}}],
            "resourceRules": [r]}),
            ),
        )
    };
    assert_eq!(
        got(&with(json!({"verbs": ["*", "create"], "apiGroups": ["*", "tak"],
            "resources": ["*", "tok"], "namespaces": ["*"]}))),
        [
            "spec.rules[0].resourceRules[0].verbs: Invalid value: []string{\"*\", \"create\"}: if '*' is present, must not specify other verbs",
            "spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{\"*\", \"tak\"}: if '*' is present, must not specify other api groups",
            "spec.rules[0].resourceRules[0].resources: Invalid value: []string{\"*\", \"tok\"}: if '*' is present, must not specify other resources",
        ]
    );
    assert_eq!(
        got(&with(json!({"verbs": ["get", "fly"]}))),
        [
            "spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{\"get\", \"fly\"}: supported values: \"create\", \"delete\", \"deletecollection\", \"get\", \"list\", \"patch\", \"proxy\", \"update\", \"watch\"",
            "spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group",
            "spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource",
            "spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
        ]
    );
    let c = got(&with(
        json!({"verbs": [], "apiGroups": [""], "resources": ["pods"], "namespaces": ["-foo", "*"]}),
    ));
    assert_eq!(c[0], "spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value");
    assert_eq!(c[1], "spec.rules[0].resourceRules[0].namespaces: Invalid value: []string{\"-foo\", \"*\"}: if '*' is present, must not specify other namespaces");
    let c = got(&with(
        json!({"verbs": ["get"], "apiGroups": [""], "resources": ["pods"], "namespaces": ["-foo"]}),
    ));
    assert_eq!(c, ["spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"-foo\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]);
    // Cluster-scoped rules need no namespace.
    assert!(got(&with(
        json!({"verbs": ["get"], "apiGroups": [""], "resources": ["nodes"], "clusterScope": true})
    ))
    .is_empty());
}

#[test]
fn non_resource_rules() {
    for (url, msg) in [
        ("", Some("must not be empty")),
        ("foo", Some("must start with slash")),
        ("/", None),
        ("//", Some("must not contain double slash")),
        ("/foo", None),
        ("/////", Some("must not contain double slash")),
        ("/apis/", None),
        ("/healthz/*", None),
        (
            "/healthz/*/foo",
            Some("wildcard can only do suffix matching"),
        ),
        ("/healthz/foo bar", Some("must not contain white-space")),
        ("/health*", Some("wildcard can only do suffix matching")),
        ("/health*/foo", Some("wildcard can only do suffix matching")),
        ("/*/*", Some("wildcard can only do suffix matching")),
    ] {
        assert_eq!(url_path_msg(url), msg, "{url}");
    }
    let with = |r: Value| {
        fs(
            "a",
            spec_with(
                json!({"subjects": [{"kind": "Group", "group": {"name": "g"}}],
            "nonResourceRules": [r]}),
            ),
        )
    };
    assert_eq!(
        got(&with(json!({"verbs": ["get"], "nonResourceURLs": ["*", "/x"]}))),
        ["spec.rules[0].nonResourceRules[0].nonResourceURLs: Invalid value: []string{\"*\", \"/x\"}: if '*' is present, must not specify other non-resource URLs"]
    );
    assert_eq!(
        got(&with(json!({"verbs": ["get"], "nonResourceURLs": ["/ok", "bad"]}))),
        ["spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: \"bad\": must start with slash"]
    );
    assert_eq!(
        got(&with(json!({"verbs": ["get"]}))),
        ["spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value"]
    );
}

#[test]
fn mandatory_and_status() {
    let mut exempt = kas_server::flowcontrol_objects::mandatory_flow_schemas()[0].clone();
    crate::defaults::flowschema_defaults(&mut exempt);
    // An explicit `"clusterScope": false` or nulls are the same spec.
    exempt["spec"]["rules"][0]["nonResourceRules"][0]["x"] = json!(null);
    assert!(got(&exempt).is_empty());
    exempt["spec"]["rules"][0]["nonResourceRules"][0]["nonResourceURLs"] = json!(["/"]);
    let c = got(&exempt);
    assert_eq!(c.len(), 1);
    assert!(c[0].starts_with("spec: Invalid value: {"), "{c:?}");
    assert!(
        c[0].ends_with(": spec of 'exempt' must equal the fixed value"),
        "{c:?}"
    );
    let mut catch_all = kas_server::flowcontrol_objects::mandatory_flow_schemas()[1].clone();
    catch_all["spec"]["distinguisherMethod"] = json!(null);
    assert!(got(&catch_all)[0].ends_with("spec of 'catch-all' must equal the fixed value"));

    let mut s = fs("a", spec_with(good_rule()));
    s["status"] = json!({"conditions": [{"type": "1"}, {"type": "1"}, {"status": "True"}]});
    assert_eq!(
        got(&s),
        [
            "status.conditions[1].type: Duplicate value: \"1\"",
            "status.conditions[2].type: Required value: must not be empty",
        ]
    );
    // Shapes a typed decode would refuse do not panic.
    for bad in [
        json!(null),
        json!({"spec": 1}),
        json!({"spec": {"rules": [1, {"subjects": [2]}]}}),
    ] {
        flowschema(&bad, None);
    }
}
