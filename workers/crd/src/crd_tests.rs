//! Tests of CRD object validation with upstream's paths and messages.

use super::*;
use serde_json::json;

fn good() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList",
                      "shortNames": ["wd"], "categories": ["all"]},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object",
                             "x-kubernetes-validations": [{"rule": "self.replicas >= 0"}],
                             "properties": {
                        "replicas": {"type": "integer", "default": 1},
                        "name": {"type": "string"}}},
                    "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}},
                "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                         "statusReplicasPath": ".status.replicas"}},
                "additionalPrinterColumns": [{"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"}],
                "selectableFields": [{"jsonPath": ".spec.name"}]
            }]
        }
    })
}

fn errs(v: &Value, old: Option<&Value>) -> Vec<String> {
    validate_crd(v, old).iter().map(|e| e.to_string()).collect()
}

#[test]
fn accepts_a_good_crd() {
    assert_eq!(errs(&good(), None), Vec::<String>::new());
    assert_eq!(errs(&good(), Some(&good())), Vec::<String>::new());
}

#[test]
fn names_group_scope() {
    let mut c = good();
    c["metadata"]["name"] = json!("foo.example.com");
    c["spec"]["group"] = json!("example");
    c["spec"]["scope"] = json!("Global");
    c["spec"]["names"]["kind"] = json!("Wid_get");
    c["spec"]["names"]["listKind"] = json!("Wid_get");
    c["spec"]["names"]["singular"] = json!("");
    let got = errs(&c, None);
    assert!(got.contains(&"metadata.name: Invalid value: \"foo.example.com\": must be spec.names.plural+\".\"+spec.group".into()), "{got:#?}");
    assert!(got.contains(
        &"spec.group: Invalid value: \"example\": should be a domain with at least one dot".into()
    ));
    assert!(got.contains(
        &"spec.scope: Unsupported value: \"Global\": supported values: \"Cluster\", \"Namespaced\""
            .into()
    ));
    assert!(got.contains(&"spec.names.singular: Required value".into()));
    assert!(got.contains(
        &"spec.names.listKind: Invalid value: \"Wid_get\": kind and listKind may not be the same"
            .into()
    ));
    assert!(got.iter().any(|e| e.starts_with("spec.names.kind: Invalid value: \"Wid_get\": may have mixed case, but should otherwise match: a DNS-1035 label")));
}

#[test]
fn versions_rules() {
    let mut c = good();
    let v = c["spec"]["versions"][0].clone();
    let mut v2 = v.clone();
    v2["name"] = json!("V2");
    c["spec"]["versions"] = json!([v.clone(), v, v2]);
    let got = errs(&c, None);
    assert!(got
        .iter()
        .any(|e| e.starts_with("spec.versions: Invalid value: ")
            && e.ends_with(": must contain unique version names")));
    assert!(got
        .iter()
        .any(|e| e.ends_with(": must have exactly one version marked as storage version")));
    assert!(got
        .iter()
        .any(|e| e.starts_with("spec.versions[2].name: Invalid value: \"V2\": a DNS-1035 label")));
    let mut c = good();
    c["spec"]["versions"] = json!([]);
    assert!(errs(&c, None)
        .iter()
        .any(|e| e.ends_with("must have exactly one version marked as storage version")));
}

#[test]
fn schema_rules() {
    let mut c = good();
    c["spec"]["versions"][0]["schema"] = json!(null);
    assert!(errs(&c, None).contains(
        &"spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required".into()
    ));

    let mut c = good();
    let props = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["bad"] = json!({"properties": {"x": {"type": "string"}}});
    let got = errs(&c, None);
    assert_eq!(got, vec!["spec.validation.openAPIV3Schema.properties[bad].type: Required value: must not be empty for specified object fields"]);

    let mut c = good();
    let props = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["u"] = json!({"type": "array", "uniqueItems": true, "items": {"type": "string"}});
    props["r"] = json!({"$ref": "#/x"});
    props["keep"] = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": false});
    let got = errs(&c, None);
    let p = "spec.validation.openAPIV3Schema.properties";
    assert!(got.contains(&format!("{p}[u].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic")), "{got:#?}");
    assert!(got.contains(&format!("{p}[r].$ref: Forbidden: $ref is not supported")));
    assert!(got.contains(&format!("{p}[keep].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined")));
}

#[test]
fn defaults_and_rules_are_checked() {
    let mut c = good();
    let spec = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    spec["properties"]["replicas"]["default"] = json!("three");
    spec["x-kubernetes-validations"] =
        json!([{"rule": "self.replicas >"}, {"rule": "true", "reason": "Nope"}]);
    let got = errs(&c, None);
    let p = "spec.validation.openAPIV3Schema.properties[spec]";
    assert!(got.contains(&format!("{p}.properties[replicas].default: Invalid value: \"string\":  in body must be of type integer: \"string\"")), "{got:#?}");
    assert!(got.iter().any(|e| e.starts_with(&format!(
        "{p}.x-kubernetes-validations[1].reason: Unsupported value: \"Nope\""
    ))));
    // compile errors are reported once the static rules pass
    spec_rule(&mut c, json!([{"rule": "self.replicas >"}]));
    let got = errs(&c, None);
    assert!(got.iter().any(|e| e.starts_with(&format!("{p}.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{{Rule:\"self.replicas >\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}}: compilation failed: "))), "{got:#?}");
}

fn spec_rule(c: &mut Value, rules: Value) {
    let spec = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    spec["properties"]["replicas"]["default"] = json!(1);
    spec["x-kubernetes-validations"] = rules;
}

#[test]
fn subresources_columns_selectable() {
    let mut c = good();
    let v = &mut c["spec"]["versions"][0];
    v["subresources"]["scale"] = json!({"specReplicasPath": ".status.x", "statusReplicasPath": "status.y", "labelSelectorPath": ".meta.z"});
    v["additionalPrinterColumns"] = json!([{"type": "float", "format": "weird"}]);
    v["selectableFields"] = json!([{"jsonPath": ".spec.nothing"}, {"jsonPath": ".status"}, {}]);
    let got = errs(&c, None);
    let p = "spec";
    for want in [
        format!("{p}.subresources.scale.specReplicasPath: Invalid value: \".status.x\": should be a json path under .spec"),
        format!("{p}.subresources.scale.statusReplicasPath: Invalid value: \"status.y\": must be a simple json path starting with ."),
        format!("{p}.subresources.scale.labelSelectorPath: Invalid value: \".meta.z\": should be a json path under either .spec or .status"),
        format!("{p}.additionalPrinterColumns[0].name: Required value"),
        format!("{p}.additionalPrinterColumns[0].type: Invalid value: \"float\": must be one of boolean,date,integer,number,string"),
        format!("{p}.additionalPrinterColumns[0].format: Invalid value: \"weird\": must be one of byte,date,date-time,double,float,int32,int64,password"),
        format!("{p}.additionalPrinterColumns[0].JSONPath: Required value"),
        format!("{p}.selectableFields[0].jsonPath: Invalid value: \".spec.nothing\": is an invalid path: does not refer to a valid field"),
        format!("{p}.selectableFields[1].jsonPath: Invalid value: \".status\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."),
        format!("{p}.selectableFields[2].jsonPath: Required value"),
    ] {
        assert!(got.contains(&want), "missing {want}\n{got:#?}");
    }
}

#[test]
fn conversion_rules() {
    let mut c = good();
    c["spec"]["conversion"] = json!({"strategy": "Webhook"});
    let got = errs(&c, None);
    assert!(got.contains(&"spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook".into()));
    assert!(got.contains(&"spec.conversion.conversionReviewVersions: Required value".into()));
    c["spec"]["conversion"] =
        json!({"strategy": "None", "webhook": {"clientConfig": {"url": "https://x"}}});
    assert_eq!(errs(&c, None), vec!["spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook"]);
    c["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {"clientConfig": {"url": "http://x"}, "conversionReviewVersions": ["v2"]}});
    let got = errs(&c, None);
    assert!(got.contains(&"spec.conversion.webhookClientConfig.url: Invalid value: \"http://x\": 'https' is the only allowed URL scheme".into()));
    assert!(got.contains(&"spec.conversion.conversionReviewVersions: Invalid value: [\"v2\"]: must include at least one of v1, v1beta1".into()));
    c["spec"]["conversion"] = json!({"strategy": "Magic"});
    assert_eq!(errs(&c, None), vec!["spec.conversion.strategy: Unsupported value: \"Magic\": supported values: \"None\", \"Webhook\""]);
}

#[test]
fn update_rules() {
    let mut old = good();
    old["status"] = json!({"conditions": [{"type": "Established", "status": "True"}]});
    let mut new = good();
    new["spec"]["scope"] = json!("Cluster");
    new["spec"]["group"] = json!("other.com");
    new["metadata"]["name"] = json!("widgets.other.com");
    let got = errs(&new, Some(&old));
    assert_eq!(
        got,
        vec![
            "spec.scope: Invalid value: \"Cluster\": field is immutable",
            "spec.group: Invalid value: \"other.com\": field is immutable",
        ]
    );
    old["status"] = json!({});
    assert_eq!(
        errs(&new, Some(&old)),
        vec!["spec.group: Invalid value: \"other.com\": field is immutable"]
    );
}

#[test]
fn garbage_never_panics() {
    for v in [
        json!(null),
        json!(1),
        json!({}),
        json!({"spec": 1}),
        json!({"spec": {"versions": [1, {"schema": 1}, {"schema": {"openAPIV3Schema": []}}]}}),
        json!({"spec": {"names": [], "conversion": {"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"port": 0}}}}}}),
    ] {
        let _ = validate_crd(&v, Some(&v));
    }
}

#[test]
fn non_structural_condition_message() {
    assert_eq!(non_structural_schema_message(&good()), None);
    let mut c = good();
    c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["a"] = json!({});
    c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["b"] =
        json!({"type": "array"});
    assert_eq!(
        non_structural_schema_message(&c).unwrap(),
        "[spec.versions[0].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields, spec.versions[0].schema.openAPIV3Schema.properties[b].items: Required value: must be specified]"
    );
}

#[test]
fn per_version_paths_when_versions_differ() {
    let mut c = good();
    let mut v2 = c["spec"]["versions"][0].clone();
    v2["name"] = json!("v2");
    v2["storage"] = json!(false);
    v2["schema"]["openAPIV3Schema"]["properties"]["extra"] = json!({});
    v2["additionalPrinterColumns"] = json!([{"name": "X", "type": "string", "jsonPath": "x"}]);
    c["spec"]["versions"] = json!([c["spec"]["versions"][0].clone(), v2]);
    let got = errs(&c, None);
    assert_eq!(
        got,
        vec![
            "spec.versions[1].schema.openAPIV3Schema.properties[extra].type: Required value: must not be empty for specified object fields",
            "spec.versions[1].additionalPrinterColumns[0].JSONPath: Invalid value: \"x\": must be a simple json path starting with .",
        ]
    );
}

#[test]
fn list_map_and_rule_statics() {
    let mut c = good();
    let props = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["ports"] = json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "name"],
        "items": {"type": "object", "properties": {"port": {"type": "integer"}}}});
    props["tags"] = json!({"type": "object", "x-kubernetes-list-type": "set"});
    props["spec"]["x-kubernetes-validations"] = json!([{"rule": " "}, {"rule": "true", "message": "a\nb"},
        {"rule": "true", "fieldPath": ".nope"}]);
    let got = errs(&c, None);
    let p = "spec.validation.openAPIV3Schema.properties";
    for want in [
        format!("{p}[ports].x-kubernetes-list-map-keys: Invalid value: []string{{\"port\", \"name\"}}: entries must all be names of item properties"),
        format!("{p}[ports].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"),
        format!("{p}[tags].type: Invalid value: \"object\": must be array if x-kubernetes-list-type is specified"),
        format!("{p}[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified"),
        format!("{p}[spec].x-kubernetes-validations[1].message: Invalid value: \"a\\nb\": message must not contain line breaks"),
        format!("{p}[spec].x-kubernetes-validations[2].fieldPath: Invalid value: \".nope\": fieldPath must be a valid path"),
    ] {
        assert!(got.contains(&want), "missing {want}\n{got:#?}");
    }
}

#[test]
fn old_self_needs_correlation() {
    let mut c = good();
    let props = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["list"] = json!({"type": "array", "items": {"type": "string",
        "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}});
    let got = errs(&c, None);
    assert_eq!(
        got,
        vec!["spec.validation.openAPIV3Schema.properties[list].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[list]"]
    );
}

#[test]
fn stored_versions_when_present() {
    let mut c = good();
    c["status"] = json!({"storedVersions": ["v1"]});
    assert!(errs(&c, None).is_empty());
    c["status"] = json!({"storedVersions": ["v0"]});
    assert_eq!(
        errs(&c, None),
        vec![
            "status.storedVersions: Invalid value: [\"v0\"]: must have the storage version v1",
            "status.storedVersions[0]: Invalid value: \"v0\": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions",
        ]
    );
    c["status"] = json!({"storedVersions": []});
    assert_eq!(
        errs(&c, None),
        vec!["status.storedVersions: Invalid value: []: must have at least one stored version"]
    );
}

#[test]
fn nested_default_errors_and_unknown_fields() {
    let mut c = good();
    let props = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["inner"] = json!({"type": "object", "default": {"a": 5, "zzz": 1},
        "properties": {"a": {"type": "string"}}});
    let got = errs(&c, None);
    let p = "spec.validation.openAPIV3Schema.properties[inner].default";
    assert_eq!(
        got,
        vec![
            format!("{p}: Invalid value: {{\"a\":5,\"zzz\":1}}: must not have unknown fields"),
            format!(
                "{p}.a: Invalid value: \"integer\": a in body must be of type string: \"integer\""
            ),
        ]
    );
}

#[test]
fn root_rules() {
    let mut c = good();
    let root = &mut c["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    root["nullable"] = json!(true);
    root["properties"]["metadata"] = json!({"type": "object", "default": {"name": "x"}});
    root["properties"]["weird"] = json!({"type": "float"});
    let got = errs(&c, None);
    let p = "spec.validation.openAPIV3Schema";
    for want in [
        format!("{p}: Invalid value: "),
        format!("{p}.nullable: Forbidden: nullable cannot be true at the root"),
        format!("{p}.properties[metadata].default: Forbidden: must not be set in top-level metadata"),
        format!("{p}.properties[weird].type: Unsupported value: \"float\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""),
    ] {
        assert!(got.iter().any(|g| g.starts_with(&want)), "missing {want}\n{got:#?}");
    }
    assert!(got.iter().any(|g| g.ends_with(
        "fields are allowed at the root of the schema if the status subresource is enabled"
    )));
}
