use serde_json::json;

use super::*;

fn policy(validations: serde_json::Value, variables: serde_json::Value) -> Policy {
    Policy::of(
        &json!({"metadata": {"name": "p", "generation": 1}, "spec": {
        "variables": variables, "validations": validations}}),
    )
}

fn deployments() -> Vec<Kind> {
    let def = kas_schema::kind_def("apps", "v1", "Deployment").expect("Deployment");
    vec![Kind {
        name: "apps/v1, Kind=Deployment".into(),
        ty: types::builtin(def),
    }]
}

#[test]
fn deployments_typo_and_mismatch() {
    let p = policy(
        json!([{"expression": "object.spec.replicaz > 1"},
               {"expression": "object.metadata.name > 5", "messageExpression": "'ok ' + object.metadata.name"},
               {"expression": "object.spec.replicas <= 5 && object.spec.template.spec.containers.all(c, c.image != '' && c.name.startsWith('a'))"},
               {"expression": "has(object.spec.paused) && object.spec.?strategy.?typo.orValue('') == ''"},
               {"expression": "variables.n + 1 == 2"}]),
        json!([{"name": "n", "expression": "object.metadata.name"}]),
    );
    let w = warnings(&p, &deployments(), &Ty::Dyn);
    let text = |i: usize| w[i]["warning"].as_str().unwrap_or("").to_owned();
    assert_eq!(w.len(), 4, "{w:#?}");
    assert_eq!(w[0]["fieldRef"], "spec.validations[0].expression");
    assert_eq!(
        text(0),
        "apps/v1, Kind=Deployment: compilation failed: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz > 1\n | ...........^\n"
    );
    assert_eq!(w[1]["fieldRef"], "spec.validations[1].expression");
    assert!(
        text(1).contains("found no matching overload for '_>_' applied to '(string, int)'"),
        "{}",
        text(1)
    );
    assert_eq!(w[2]["fieldRef"], "spec.validations[3].expression");
    assert!(text(2).contains("undefined field 'typo'"), "{}", text(2));
    assert_eq!(w[3]["fieldRef"], "spec.validations[4].expression");
    assert!(
        text(3).contains("found no matching overload for '_+_' applied to '(string, int)'"),
        "{}",
        text(3)
    );
}

#[test]
fn a_correct_policy_has_no_warnings() {
    let p = policy(
        json!([{"expression": "object.spec.replicas <= 5",
                "messageExpression": "'too many: ' + string(object.spec.replicas)"},
               {"expression": "object.metadata.labels.all(k, k.size() < 64 && object.metadata.labels[k] != '')"},
               {"expression": "!has(object.spec.selector.matchLabels) || object.spec.selector.matchLabels.size() > 0"},
               {"expression": "object.spec.template.spec.containers.map(c, c.name).size() >= 1 && object.spec.strategy.type == 'Recreate' || true"},
               {"expression": "object.spec.x == 1 || true"}]),
        json!([]),
    );
    let w = warnings(&p, &deployments(), &Ty::Dyn);
    // Only the last one: `x` is not a DeploymentSpec field.
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0]["fieldRef"], "spec.validations[4].expression");
}

#[test]
fn custom_resources_by_their_schema() {
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "size": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}});
    let kinds = vec![Kind {
        name: "example.com/v1, Kind=Widget".into(),
        ty: types::custom(schema),
    }];
    let p = policy(
        json!([{"expression": "object.spec.size < 10 && object.spec.extra.anything == 1 && object.metadata.name != '' && object.spec.labels['a'] == 'b'"},
               {"expression": "object.spec.sise < 10"},
               {"expression": "object.spec.tags.exists(t, t == 1)"}]),
        json!([]),
    );
    let w = warnings(&p, &kinds, &Ty::Dyn);
    assert_eq!(w.len(), 2, "{w:#?}");
    assert_eq!(w[0]["fieldRef"], "spec.validations[1].expression");
    assert!(w[0]["warning"].as_str().unwrap_or("").starts_with(
        "example.com/v1, Kind=Widget: compilation failed: ERROR: <input>:1:12: undefined field 'sise'"
    ));
    assert!(w[1]["warning"]
        .as_str()
        .unwrap_or("")
        .contains("found no matching overload for '_==_' applied to '(string, int)'"));
}

#[test]
fn params_and_two_kinds() {
    let p = Policy::of(&json!({"metadata": {"name": "p"}, "spec": {
        "paramKind": {"apiVersion": "v1", "kind": "ConfigMap"},
        "validations": [{"expression": "params.data.max == object.spec.replicas"}]}}));
    let cm = kas_schema::kind_def("", "v1", "ConfigMap")
        .map(types::builtin)
        .unwrap_or(Ty::Dyn);
    let mut kinds = deployments();
    kinds.push(Kind {
        name: "apps/v1, Kind=StatefulSet".into(),
        ty: kas_schema::kind_def("apps", "v1", "StatefulSet")
            .map(types::builtin)
            .unwrap_or(Ty::Dyn),
    });
    let w = warnings(&p, &kinds, &cm);
    assert_eq!(w.len(), 1);
    let text = w[0]["warning"].as_str().unwrap_or("");
    assert!(
        text.starts_with("apps/v1, Kind=Deployment: compilation failed:"),
        "{text}"
    );
    assert!(
        text.contains("\n\napps/v1, Kind=StatefulSet: compilation failed:"),
        "{text}"
    );
}
