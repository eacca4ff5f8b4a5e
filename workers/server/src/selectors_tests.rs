//! Tests of `selectors`.

use super::*;
use serde_json::json;

fn pod(labels: Value, phase: &str) -> Value {
    json!({"metadata": {"name": "p", "namespace": "default", "labels": labels}, "status": {"phase": phase}})
}

#[test]
fn label_operators() {
    let o = pod(json!({"app": "web", "tier": "front"}), "Running");
    for (sel, want) in [
        ("", true),
        ("app=web", true),
        ("app==web", true),
        ("app!=web", false),
        ("app=db", false),
        ("app in (web,db)", true),
        ("app notin (web,db)", false),
        ("tier notin (back)", true),
        ("app", true),
        ("!app", false),
        ("!missing", true),
        ("missing!=x", true),
        ("app=web,tier=front", true),
        ("app=web,tier=back", false),
        ("example.com/owner", false),
    ] {
        let s = LabelSelector::parse(sel).unwrap_or_else(|e| panic!("{sel}: {}", e.message));
        assert_eq!(s.matches(&o), want, "{sel}");
    }
}

#[test]
fn label_syntax_errors_are_400() {
    for sel in ["a=b=c", "-bad=x", "a in x", "a in ()", "a=-x-"] {
        let e = LabelSelector::parse(sel).expect_err(sel);
        assert_eq!(e.code(), 400, "{sel}");
        assert!(
            e.message.starts_with("unable to parse requirement"),
            "{}",
            e.message
        );
    }
}

/// Found by the field_selector fuzz target: `a=b==c` was read as field `a=b` and value
/// `c`, and written back as requirements it read differently. Upstream splits at the
/// first operator and refuses unescaped `=` and `,` in values.
#[test]
fn field_selector_escapes_follow_upstream() {
    let s = FieldSelector::parse(r"metadata.name=a\,b\=c\\,status.phase!=x").expect("parse");
    let o = json!({"metadata": {"name": r"a,b=c\"}, "status": {"phase": "y"}});
    assert!(s.matches(&o));
    let written = field_selector_from_requirements(&s.authorization_requirements());
    assert_eq!(written, r"metadata.name=a\,b\=c\\,status.phase!=x");
    assert_eq!(FieldSelector::parse(&written).expect("again"), s);
    for (sel, message) in [
        (
            "a=b==c",
            "invalid field selector: unescaped character in value: 61",
        ),
        (
            r"a=b\x",
            r"invalid field selector: invalid escape sequence: \x",
        ),
        (
            r"a=b\",
            r"invalid field selector: invalid escape sequence: \",
        ),
    ] {
        let e = FieldSelector::parse(sel).expect_err(sel);
        assert_eq!(
            (e.code().as_u16(), e.message.as_str()),
            (400, message),
            "{sel}"
        );
    }
    assert_eq!(escape_field_value(r"a,b=c\"), r"a\,b\=c\\");
    // Found next: a field ending in `!` before whitespace and `=` was trimmed and
    // written back as `!=`. Upstream trims nothing.
    let s = FieldSelector::parse("me!\u{c}=x").expect("parse");
    let written = field_selector_from_requirements(&s.authorization_requirements());
    assert_eq!(FieldSelector::parse(&written).expect("again"), s);
    assert!(FieldSelector::parse("a!=b").expect("parse") != s);
}

#[test]
fn field_selectors() {
    let o = pod(json!({}), "Running");
    let s = FieldSelector::parse("metadata.name=p,status.phase!=Pending").expect("parse");
    assert!(s.matches(&o));
    let s = FieldSelector::parse("status.phase=Pending").expect("parse");
    assert!(!s.matches(&o));
    assert!(FieldSelector::parse("nonsense").is_err());
    let s = FieldSelector::parse("spec.bogus=1").expect("parse");
    let e = s
        .check_fields(
            &["metadata.name", "metadata.namespace", "status.phase"],
            true,
        )
        .expect_err("unsupported");
    assert_eq!(e.message, "field label not supported: spec.bogus");
    let f = filter(LabelSelector::default(), s.clone());
    assert!(f.is_some());
    assert!(filter(LabelSelector::default(), FieldSelector::default()).is_none());
}

#[test]
fn authorization_requirements_round_trip() {
    let labels =
        LabelSelector::parse("app=web,tier in (a,b),!legacy,env!=dev,owner").expect("labels");
    let reqs = labels.authorization_requirements();
    assert_eq!(
        reqs,
        vec![
            serde_json::json!({"key": "app", "operator": "In", "values": ["web"]}),
            serde_json::json!({"key": "tier", "operator": "In", "values": ["a", "b"]}),
            serde_json::json!({"key": "legacy", "operator": "DoesNotExist"}),
            serde_json::json!({"key": "env", "operator": "NotIn", "values": ["dev"]}),
            serde_json::json!({"key": "owner", "operator": "Exists"}),
        ]
    );
    let raw = label_selector_from_requirements(&reqs);
    let reparsed = LabelSelector::parse(&raw).expect("reparsed");
    assert_eq!(reparsed.authorization_requirements(), reqs);
    let fields = FieldSelector::parse("spec.nodeName=n1,status.phase!=Failed").expect("fields");
    let reqs = fields.authorization_requirements();
    assert_eq!(
        reqs[1],
        serde_json::json!({"key": "status.phase", "operator": "NotIn", "values": ["Failed"]})
    );
    assert_eq!(
        field_selector_from_requirements(&reqs),
        "spec.nodeName=n1,status.phase!=Failed"
    );
    // Unknown operators and In with several field values only narrow: left out.
    let odd = [
        serde_json::json!({"key": "a", "operator": "Gt", "values": ["1"]}),
        serde_json::json!({"key": "b", "operator": "In", "values": ["1", "2"]}),
    ];
    assert_eq!(field_selector_from_requirements(&odd), "");
    assert_eq!(label_selector_from_requirements(&odd[..1]), "");
}
