//! Tests of the custom kind definitions: the structural copy, unfolding, the v2
//! reduction, the added `apiVersion`/`kind`/`metadata`, and bad input.

use super::*;

fn version(schema: Option<Value>) -> ServedVersion {
    ServedVersion {
        group: "example.com".into(),
        version: "v1".into(),
        kind: "Widget".into(),
        list_kind: "WidgetList".into(),
        plural: "widgets".into(),
        namespaced: true,
        status: true,
        scale: false,
        schema,
        preserve_unknown_fields: false,
        selectable_fields: Vec::new(),
    }
}

fn widget_schema() -> Value {
    json!({
        "type": "object",
        "description": "A widget.",
        "properties": {
            "spec": {
                "type": "object",
                "description": "What the widget should be.",
                "required": ["color", "note"],
                "x-kubernetes-validations": [{"rule": "self.size >= 0"}],
                "properties": {
                    "color": {"type": "string", "enum": ["red", "blue"], "default": "red"},
                    "size": {"x-kubernetes-int-or-string": true},
                    "note": {"type": "string", "nullable": true},
                    "tags": {"type": "array", "items": {"type": "string"},
                             "x-kubernetes-list-type": "set"},
                    "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                              "properties": {"a": {"type": "string"}}},
                    "loose": {"type": "array", "x-kubernetes-preserve-unknown-fields": true,
                              "items": {"type": "string"}},
                    "template": {"type": "object", "x-kubernetes-embedded-resource": true,
                                 "x-kubernetes-preserve-unknown-fields": true},
                    "choice": {"type": "string", "anyOf": [{"pattern": "^a"}, {"pattern": "^b"}]},
                },
            },
            "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 10}}},
        },
    })
}

#[test]
fn structural_copy_keeps_only_structural_keywords() {
    let copied = structural(&json!({
        "type": "object", "description": "", "title": "T", "nullable": false,
        "$ref": "#/definitions/x", "id": "i", "$schema": "s", "example": {"a": 1},
        "x-kubernetes-preserve-unknown-fields": false, "x-kubernetes-map-type": "atomic",
        "uniqueItems": true, "additionalProperties": {"type": "string", "patternProperties": {}},
        "not": {"required": ["a"]}, "items": null, "default": null,
    }))
    .unwrap();
    assert_eq!(
        copied,
        json!({
            "type": "object", "title": "T", "x-kubernetes-map-type": "atomic", "uniqueItems": true,
            "additionalProperties": {"type": "string"}, "not": {"required": ["a"]},
        })
    );
    assert_eq!(
        structural(&json!({"additionalProperties": false})).unwrap(),
        json!({"additionalProperties": false})
    );
    for bad in [
        json!("object"),
        json!({"type": ["object", "null"]}),
        json!({"type": "null"}),
        json!({"items": [{"type": "string"}]}),
        json!({"properties": [1]}),
        json!({"properties": {"a": 1}}),
        json!({"anyOf": {"type": "string"}}),
        json!({"items": {"type": 3}}),
    ] {
        assert_eq!(structural(&bad), Err(NotStructural), "{bad}");
    }
}

#[test]
fn unfolds_int_or_string() {
    let mut plain = json!({"properties": {"a": {"x-kubernetes-int-or-string": true}}});
    unfold(&mut plain);
    assert_eq!(plain["properties"]["a"]["anyOf"], int_or_string());
    let mut spelled = json!({"x-kubernetes-int-or-string": true, "anyOf": int_or_string()});
    let before = spelled.clone();
    unfold(&mut spelled);
    assert_eq!(spelled, before);
    let mut own = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"maximum": 3}],
        "allOf": [{"minimum": 1}]});
    unfold(&mut own);
    assert_eq!(
        own["allOf"],
        json!([{"anyOf": int_or_string()}, {"minimum": 1}])
    );
    let mut again = own.clone();
    unfold(&mut again);
    assert_eq!(again, own);
}

#[test]
fn v3_kind_schema_is_the_crd_schema_plus_type_and_object_meta() {
    let mut v = version(Some(widget_schema()));
    v.selectable_fields = vec!["spec.color".into()];
    let s = kind_schema(&v, Target::V3);
    assert_eq!(
        s["x-kubernetes-group-version-kind"],
        json!([{"group": "example.com", "kind": "Widget", "version": "v1"}])
    );
    assert_eq!(
        s["x-kubernetes-selectable-fields"],
        json!([{"fieldPath": "spec.color"}])
    );
    assert_eq!(s["description"], "A widget.");
    let metadata = &s["properties"]["metadata"];
    assert_eq!(metadata["$ref"], format!("{V3_REF}{OBJECT_META}"));
    assert!(
        metadata.get("properties").is_none(),
        "the CRD's metadata schema is replaced"
    );
    assert_eq!(s["properties"]["apiVersion"]["type"], "string");
    assert_eq!(s["properties"]["kind"]["description"], KIND_DOC);
    let spec = &s["properties"]["spec"];
    assert_eq!(
        spec["x-kubernetes-validations"][0]["rule"],
        "self.size >= 0"
    );
    assert_eq!(spec["required"], json!(["color", "note"]));
    assert_eq!(spec["properties"]["color"]["default"], "red");
    assert_eq!(spec["properties"]["note"]["nullable"], true);
    assert_eq!(spec["properties"]["size"]["anyOf"], int_or_string());
    assert_eq!(spec["properties"]["tags"]["x-kubernetes-list-type"], "set");
    assert_eq!(
        spec["properties"]["extra"]["properties"]["a"]["type"],
        "string"
    );
    let template = &spec["properties"]["template"];
    assert_eq!(
        template["properties"]["metadata"]["$ref"],
        format!("{V3_REF}{OBJECT_META}")
    );
    assert_eq!(template["required"], json!(["kind", "apiVersion"]));
    assert_eq!(
        spec["properties"]["choice"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn v2_kind_schema_is_reduced_for_kubectl() {
    let s = kind_schema(&version(Some(widget_schema())), Target::V2);
    let spec = &s["properties"]["spec"];
    assert_eq!(
        spec["required"],
        json!(["color"]),
        "nullable fields are not required"
    );
    let props = &spec["properties"];
    assert_eq!(props["note"], json!({}));
    assert!(props["color"].get("default").is_none());
    assert!(props["size"].get("anyOf").is_none());
    assert_eq!(props["size"]["x-kubernetes-int-or-string"], true);
    assert!(props["choice"].get("anyOf").is_none());
    assert_eq!(
        props["extra"],
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(
        props["loose"],
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
    assert!(
        props["template"].get("properties").is_none(),
        "no embedded fields under preserve"
    );
    assert_eq!(props["tags"]["items"]["type"], "string");
    assert_eq!(
        s["properties"]["metadata"]["$ref"],
        format!("{V3_REF}{OBJECT_META}")
    );

    let mut open = version(Some(
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
    ));
    let bare = json!({"type": "object",
        "x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "Widget", "version": "v1"}]});
    assert_eq!(kind_schema(&open, Target::V2), bare);
    assert!(kind_schema(&open, Target::V3)["properties"]["metadata"].is_object());
    open.schema = Some(widget_schema());
    open.preserve_unknown_fields = true;
    assert_eq!(kind_schema(&open, Target::V2), bare);

    let mut nullable_values = json!({"type": "object", "required": ["a"],
        "additionalProperties": {"type": "string", "nullable": true}});
    to_v2(&mut nullable_values);
    assert_eq!(
        nullable_values,
        json!({"type": "object", "additionalProperties": {}})
    );
}

#[test]
fn unusable_schemas_publish_a_bare_object() {
    for schema in [
        None,
        Some(json!("x")),
        Some(json!({"type": "object", "items": [1]})),
    ] {
        for target in [Target::V2, Target::V3] {
            let s = kind_schema(&version(schema.clone()), target);
            assert_eq!(s["type"], "object");
            assert!(s.get("properties").is_none());
            assert_eq!(s["x-kubernetes-group-version-kind"][0]["kind"], "Widget");
        }
    }
}

#[test]
fn list_schema_follows_upstream() {
    let list = list_schema(&version(None));
    assert_eq!(list["description"], "WidgetList is a list of Widget");
    assert_eq!(list["required"], json!(["items"]));
    assert_eq!(
        list["properties"]["items"]["items"]["$ref"],
        format!("{V3_REF}com.example.v1.Widget")
    );
    assert_eq!(
        list["properties"]["metadata"]["$ref"],
        format!("{V3_REF}{LIST_META}")
    );
    assert_eq!(
        list["x-kubernetes-group-version-kind"][0]["kind"],
        "WidgetList"
    );
}

#[test]
fn deep_schemas_do_not_overflow() {
    let mut deep = json!({"type": "string"});
    for _ in 0..200 {
        deep = json!({"type": "object", "properties": {"a": deep}});
    }
    let s = kind_schema(&version(Some(deep)), Target::V2);
    assert_eq!(s["properties"]["a"]["type"], "object");
}
