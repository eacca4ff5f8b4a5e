//! Tests of compiling and evaluating rules through the public API.

use serde_json::{json, Value as Json};

use super::*;

fn rule(r: &str) -> Rule {
    Rule {
        rule: r.to_owned(),
        ..Rule::default()
    }
}

fn scale_schema() -> Json {
    json!({
        "type": "object",
        "properties": {
            "replicas": {"type": "integer"},
            "minReplicas": {"type": "integer"},
            "maxReplicas": {"type": "integer"},
            "foo": {"type": "string"},
            "bar": {"type": "string"},
            "ratio": {"type": "number"},
            "port": {"x-kubernetes-int-or-string": true},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "names": {"type": "array", "items": {"type": "string"}},
            "timeout": {"type": "string", "format": "duration"},
            "my-field": {"type": "integer"}
        }
    })
}

fn compile_one(r: Rule) -> CompiledRules {
    match compile(&[r], &scale_schema()) {
        Ok(c) => c,
        Err(e) => panic!("compile failed: {e:?}"),
    }
}

fn compile_err(r: &str) -> String {
    match compile(&[rule(r)], &scale_schema()) {
        Ok(_) => panic!("{r} compiled"),
        Err(mut e) => e.remove(0).1,
    }
}

fn messages(c: &CompiledRules, v: Json, old: Option<Json>) -> Vec<String> {
    c.evaluate(&v, old.as_ref())
        .into_iter()
        .map(|f| f.message)
        .collect()
}

#[test]
fn transition_rule_runs_only_on_update() {
    let c = compile_one(rule("self.replicas >= oldSelf.replicas"));
    assert!(c.is_transition(0));
    assert!(messages(&c, json!({"replicas": 1}), None).is_empty());
    assert!(messages(&c, json!({"replicas": 3}), Some(json!({"replicas": 2}))).is_empty());
    assert_eq!(
        messages(&c, json!({"replicas": 1}), Some(json!({"replicas": 2}))),
        ["failed rule: self.replicas >= oldSelf.replicas"]
    );
}

#[test]
fn comparing_fields() {
    let c = compile_one(rule("self.minReplicas <= self.maxReplicas"));
    assert!(!c.is_transition(0));
    assert!(messages(&c, json!({"minReplicas": 1, "maxReplicas": 2}), None).is_empty());
    let f = c.evaluate(&json!({"minReplicas": 3, "maxReplicas": 2}), None);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].rule_index, 0);
    assert_eq!(
        f[0].message,
        "failed rule: self.minReplicas <= self.maxReplicas"
    );
}

#[test]
fn all_macro_on_a_list() {
    let schema = json!({"type": "array", "items": {"type": "string"}});
    let c = compile(&[rule("self.all(x, x.size() < 10)")], &schema).expect("compiles");
    assert!(c.evaluate(&json!(["a", "bb"]), None).is_empty());
    assert_eq!(c.evaluate(&json!(["a", "bbbbbbbbbbbb"]), None).len(), 1);
}

#[test]
fn has_or() {
    let c = compile_one(rule("has(self.foo) || self.bar == 'x'"));
    assert!(messages(&c, json!({"foo": "a"}), None).is_empty());
    assert!(messages(&c, json!({"bar": "x"}), None).is_empty());
    assert_eq!(messages(&c, json!({"bar": "y"}), None).len(), 1);
}

#[test]
fn message_message_expression_and_default() {
    let mut r = rule("self.replicas < 5");
    r.message = Some(" too many ".to_owned());
    r.reason = Some("FieldValueForbidden".to_owned());
    r.field_path = Some(".replicas".to_owned());
    let c = compile_one(r.clone());
    let f = c.evaluate(&json!({"replicas": 7}), None);
    assert_eq!(f[0].message, "too many");
    assert_eq!(f[0].reason.as_deref(), Some("FieldValueForbidden"));
    assert_eq!(f[0].field_path.as_deref(), Some(".replicas"));

    r.message_expression = Some("'replicas is ' + string(self.replicas)".to_owned());
    let c = compile_one(r.clone());
    assert_eq!(
        messages(&c, json!({"replicas": 7}), None),
        ["replicas is 7"]
    );

    // A messageExpression that fails at run time falls back to the message.
    r.message_expression = Some("self.foo".to_owned());
    let c = compile_one(r);
    assert_eq!(messages(&c, json!({"replicas": 7}), None), ["too many"]);
}

#[test]
fn message_expression_must_be_a_string() {
    let mut r = rule("self.replicas < 5");
    r.message_expression = Some("self.replicas".to_owned());
    let err = compile(&[r], &scale_schema()).err().expect("error");
    assert_eq!(err[0].1, "messageExpression must evaluate to a string");
}

#[test]
fn compile_errors() {
    let e = compile_err("self.replicas >");
    assert!(
        e.starts_with("compilation failed: ERROR: <input>:1:"),
        "{e}"
    );
    let e = compile_err("self.nope == 1");
    assert!(
        e.starts_with("compilation failed: ERROR: <input>:1:5: undefined field 'nope'"),
        "{e}"
    );
    let e = compile_err("foo == 1");
    assert!(e.contains("undeclared reference to 'foo'"), "{e}");
    let e = compile_err("self.foo == 1");
    assert!(
        e.contains("found no matching overload for '_==_' applied to '(string, int)'"),
        "{e}"
    );
    let e = compile_err("self.replicas.size() > 1");
    assert!(
        e.contains("found no matching overload for 'size' applied to 'int.()'"),
        "{e}"
    );
    let e = compile_err("self.replicas >");
    assert!(
        e.contains("\n | self.replicas >\n | ...............^"),
        "{e}"
    );
    let e = compile_err("self.replicas.all(x, x > 0)");
    assert!(
        e.contains("expression of type 'int' cannot be range of a comprehension"),
        "{e}"
    );
    let e = compile_err("self.foo.bogus()");
    assert!(e.contains("undeclared reference to 'bogus'"), "{e}");
    assert!(compile(
        &[rule("math.abs(-1) == 1 && strings.quote('a') != ''")],
        &scale_schema()
    )
    .is_ok());
    // Errors carry the index of the rule.
    let err = compile(&[rule("true"), rule("self.")], &scale_schema())
        .err()
        .expect("error");
    assert_eq!(err[0].0, 1);
}

#[test]
fn non_bool_rule() {
    assert_eq!(
        compile_err("self.replicas + 1"),
        "cel expression must evaluate to a bool"
    );
    assert_eq!(
        compile_err("'abc'"),
        "cel expression must evaluate to a bool"
    );
    assert_eq!(
        compile_err("self.names"),
        "cel expression must evaluate to a bool"
    );
}

#[test]
fn runtime_errors_are_failures() {
    let c = compile_one(rule("self.labels.missing == 'x'"));
    assert_eq!(
        messages(&c, json!({"labels": {}}), None),
        ["no such key: missing evaluating rule: self.labels.missing == 'x'"]
    );
    let c = compile_one(rule("self.replicas / 0 == 1"));
    assert_eq!(
        messages(&c, json!({"replicas": 1}), None),
        ["division by zero evaluating rule: self.replicas / 0 == 1"]
    );
    // int-or-string is dynamic: a wrong type shows only at run time.
    let c = compile_one(rule("self.port > 10"));
    assert!(messages(&c, json!({"port": 80}), None).is_empty());
    let m = messages(&c, json!({"port": "http"}), None);
    assert!(m[0].starts_with("'no such overload'"), "{m:?}");
}

#[test]
fn optional_old_self() {
    let mut r = rule("!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas");
    r.optional_old_self = true;
    let c = compile_one(r);
    assert!(c.is_transition(0));
    assert!(messages(&c, json!({"replicas": 1}), None).is_empty());
    assert!(messages(&c, json!({"replicas": 2}), Some(json!({"replicas": 1}))).is_empty());
    assert_eq!(
        messages(&c, json!({"replicas": 1}), Some(json!({"replicas": 2}))).len(),
        1
    );
}

#[test]
fn schema_types() {
    let c = compile_one(rule("self.ratio == 1.0"));
    assert!(messages(&c, json!({"ratio": 1}), None).is_empty());
    let c = compile_one(rule("self.labels.all(k, self.labels[k].startsWith('v'))"));
    assert!(messages(&c, json!({"labels": {"a": "v1"}}), None).is_empty());
    assert_eq!(messages(&c, json!({"labels": {"a": "x"}}), None).len(), 1);
    let c = compile_one(rule("self.timeout < duration('1h')"));
    assert!(messages(&c, json!({"timeout": "30m"}), None).is_empty());
    assert_eq!(messages(&c, json!({"timeout": "2h"}), None).len(), 1);
    let c = compile_one(rule("self.my__dash__field > 0"));
    assert!(messages(&c, json!({"my-field": 1}), None).is_empty());
}

#[test]
fn library_functions() {
    for r in [
        "self.names.exists(n, n.matches('^a'))",
        "self.names.exists_one(n, n.endsWith('c'))",
        "self.names.map(n, n.upperAscii()).filter(n, n.contains('A')).size() == 1",
        "self.names.isSorted() && self.names.indexOf('bc') == 1",
        "self.names.join(',').split(',').size() == 2",
        "self.names.max() == 'bc' && self.names.min() == 'ab'",
        "[1, 2].sum() == 3",
        "quantity('1Gi').isGreaterThan(quantity('1G'))",
        "isIP('10.0.0.1') && ip.isCanonical('10.0.0.1') && cidr('10.0.0.0/8').containsIP('10.1.1.1')",
    ] {
        let c = compile_one(rule(r));
        assert!(
            messages(&c, json!({"names": ["ab", "bc"]}), None).is_empty(),
            "{r}"
        );
    }
}

#[test]
fn blank_rules_and_null_values_are_skipped() {
    let c = compile_one(rule("  "));
    assert!(messages(&c, json!({}), None).is_empty());
    let c = compile_one(rule("false"));
    assert!(messages(&c, Json::Null, None).is_empty());
}

#[test]
fn cost_bound_refuses_huge_inputs() {
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let c = compile(&[rule("self.all(x, self.exists(y, y == x))")], &schema).expect("compiles");
    let small: Vec<i64> = (0..20).collect();
    assert!(c.evaluate(&json!(small), None).is_empty());
    let big: Vec<i64> = (0..20_000).collect();
    let f = c.evaluate(&json!(big), None);
    assert_eq!(f.len(), 1);
    assert!(f[0].message.contains("cost"), "{}", f[0].message);
}

#[test]
fn loops_over_literal_lists_cost_little() {
    let nested = format!("{}true{}", "[1, 2].all(x, ".repeat(4), ")".repeat(4));
    let c = compile(&[rule(&nested)], &scale_schema()).expect("compiles");
    assert!(c.evaluate(&json!({"replicas": 1}), None).is_empty());
    // `lists.range` would build a large list out of nothing.
    let e = compile_err("lists.range(1000000).all(x, lists.range(1000000).all(y, true))");
    assert!(e.contains("undeclared reference to 'lists.range'"), "{e}");
}

#[test]
fn quadratic_string_functions_are_bounded() {
    let c = compile_one(rule("self.foo.replace('', self.foo).size() > 0"));
    assert!(messages(&c, json!({"foo": "abc"}), None).is_empty());
    let big = "x".repeat(200_000);
    let m = messages(&c, json!({ "foo": big }), None);
    assert!(m[0].contains("cost"), "{m:?}");
}

#[test]
fn bad_input_never_panics() {
    for r in [
        "",
        ")",
        "self.",
        "self[",
        "'\\",
        "1 +",
        "[[[[[[[[[[",
        "{",
        "self.all(",
        "a.b.c(",
        "self.replicas.foo",
        "\u{0}",
        "has(self)",
        "self.?foo",
        "🙂 == 1",
    ] {
        let _ = compile(&[rule(r)], &scale_schema());
    }
    let deep = "(".repeat(5000) + "true" + &")".repeat(5000);
    assert!(compile(&[rule(&deep)], &scale_schema()).is_err());
    for long in [
        "self".to_owned() + &".foo".repeat(100_000),
        "self".to_owned() + &"[0]".repeat(9_000),
        vec!["1"; 9_000].join(" + ") + " == 1",
    ] {
        assert!(compile(&[rule(&long)], &scale_schema()).is_err());
    }
    let c = compile(&[rule("self.size() > 0")], &json!({})).expect("compiles");
    for v in [
        json!(1),
        json!("x"),
        json!([1]),
        json!({"a": 1}),
        json!(true),
    ] {
        let _ = c.evaluate(&v, Some(&v));
    }
}

#[test]
fn compiled_rules_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<CompiledRules>();
}
