//! CRD checks of one `openAPIV3Schema`: unsupported keywords, Kubernetes extensions,
//! structurality, defaults and CEL rule compilation, in upstream's order and at its paths.

use crate::error::{quote, render, FieldError};
use crate::structural::{child, index, key, AdditionalProperties, Structural};
use serde_json::{Map, Value};

/// `supportedValidationReason.List()` (sorted).
const RULE_REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];
const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];
const ROOT_FIELDS_WITH_STATUS: &str = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";
const ROOT_KEYS_WITH_STATUS: [&str; 23] = [
    "description",
    "type",
    "format",
    "title",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "required",
    "items",
    "properties",
    "externalDocs",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-validations",
    "$schema",
];

/// Checks `schema` (the JSON at `path`, e.g. `spec.validation.openAPIV3Schema`); `status`
/// tells whether the status subresource is enabled. Returns the structural schema if usable.
pub(crate) fn validate_schema(
    schema: &Value,
    path: &str,
    status: bool,
    errs: &mut Vec<FieldError>,
) -> Option<Structural> {
    if status {
        status_root(schema, path, errs);
    }
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        errs.push(FieldError::forbidden(
            &child(path, "nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let (structural, cel_ok) = match Structural::from_json(schema) {
        Ok(s) => {
            let before = errs.len();
            defaults(&s, path, true, errs);
            let ok = errs.len() == before;
            (Some(s), ok)
        }
        Err(e) => {
            errs.extend(e.into_iter().map(|e| e.under(path)));
            (None, false)
        }
    };
    let ctx = Ctx {
        root: true,
        embedded: false,
        in_meta: false,
        defaults_forbidden: None,
        uncorrelatable: None,
    };
    let node = structural.as_ref().filter(|_| cel_ok);
    keywords(schema, node, path, &ctx, errs);
    structural
}

fn status_root(schema: &Value, path: &str, errs: &mut Vec<FieldError>) {
    let Some(m) = schema.as_object() else { return };
    for (k, v) in m {
        if v.is_null() || v == &Value::Bool(false) || v.as_str() == Some("") {
            continue;
        }
        if k == "type" {
            if v.as_str() != Some("object") {
                errs.push(FieldError::invalid(
                    &child(path, "type"),
                    render(v),
                    "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled",
                ));
                return;
            }
            continue;
        }
        if !ROOT_KEYS_WITH_STATUS.contains(&k.as_str()) {
            errs.push(FieldError::invalid(
                path,
                render(schema),
                &format!("only {ROOT_FIELDS_WITH_STATUS} fields are allowed at the root of the schema if the status subresource is enabled"),
            ));
            return;
        }
    }
}

/// What the walk knows about where it is.
#[derive(Clone)]
struct Ctx {
    root: bool,
    embedded: bool,
    in_meta: bool,
    defaults_forbidden: Option<String>,
    uncorrelatable: Option<String>,
}

/// `ValidateCustomResourceDefinitionOpenAPISchema`: rules on every node; `node` is the
/// matching structural node when the whole schema is structural with valid defaults (then
/// CEL rules are compiled). Returns whether this subtree had schema errors.
fn keywords(
    v: &Value,
    node: Option<&Structural>,
    path: &str,
    ctx: &Ctx,
    errs: &mut Vec<FieldError>,
) -> bool {
    let Some(m) = v.as_object() else {
        return false;
    };
    let before = errs.len();
    standard(m, path, ctx, errs);
    if m.get("uniqueItems") == Some(&Value::Bool(true)) {
        errs.push(FieldError::forbidden(
            &child(path, "uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    let props = m.get("properties").and_then(Value::as_object);
    let atomic_map = m.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic");
    let mut sub_errors = false;
    if let Some(ap) = m.get("additionalProperties").filter(|a| !a.is_null()) {
        let allows = ap != &Value::Bool(false);
        if props.is_some_and(|p| !p.is_empty()) && (!allows || ap.is_object()) {
            errs.push(FieldError::forbidden(
                &child(path, "additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        let mut sub = Ctx {
            root: false,
            embedded: false,
            ..ctx.clone()
        };
        if ctx.in_meta {
            sub.defaults_forbidden =
                Some("inside additionalProperties applying to object metadata".into());
        }
        let sub_node = node.and_then(|n| match &n.additional_properties {
            Some(AdditionalProperties::Schema(s)) => Some(&**s),
            _ => None,
        });
        sub_errors |= keywords(
            ap,
            sub_node,
            &child(path, "additionalProperties"),
            &sub,
            errs,
        );
    }
    for (k, p) in props.into_iter().flatten() {
        let mut sub = Ctx {
            root: false,
            embedded: false,
            ..ctx.clone()
        };
        if atomic_map && sub.uncorrelatable.is_none() {
            sub.uncorrelatable = Some(path.to_string());
        }
        if (ctx.root || ctx.embedded) && matches!(k.as_str(), "metadata" | "kind" | "apiVersion") {
            sub.in_meta = true;
            if ctx.root {
                sub.defaults_forbidden = Some(format!("in top-level {k}"));
            }
        }
        sub.embedded = p.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
        let sub_node = node.and_then(|n| n.properties.get(k));
        sub_errors |= keywords(p, sub_node, &key(path, "properties", k), &sub, errs);
    }
    let plain = Ctx {
        root: false,
        embedded: false,
        ..ctx.clone()
    };
    if let Some(not) = m.get("not").filter(|n| n.is_object()) {
        sub_errors |= keywords(not, None, &child(path, "not"), &plain, errs);
    }
    for j in ["allOf", "oneOf", "anyOf"] {
        for (i, n) in m
            .get(j)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            sub_errors |= keywords(n, None, &index(path, j, i), &plain, errs);
        }
    }
    if let Some(items) = m.get("items").filter(|i| i.is_object()) {
        let mut sub = plain.clone();
        sub.embedded = items.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true));
        if m.get("x-kubernetes-list-type").and_then(Value::as_str) != Some("map")
            && sub.uncorrelatable.is_none()
        {
            sub.uncorrelatable = Some(path.to_string());
        }
        let sub_node = node.and_then(|n| n.items.as_deref());
        sub_errors |= keywords(items, sub_node, &child(path, "items"), &sub, errs);
    }
    if m.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(false)) {
        errs.push(FieldError::invalid(
            &child(path, "x-kubernetes-preserve-unknown-fields"),
            "false".into(),
            "must be true or undefined",
        ));
    }
    crate::crd_extensions::extensions(m, path, errs);
    let own_errors = errs.len() > before;
    if m.get("x-kubernetes-validations").is_some() {
        let static_before = errs.len();
        rule_statics(m, node, path, errs);
        let schema_errors = own_errors || sub_errors || errs.len() > static_before;
        if !schema_errors {
            if let Some(node) = node {
                compile_rules(node, path, ctx, errs);
            }
        }
    }
    errs.len() > before || sub_errors
}

/// `specStandardValidatorV3.validate`.
fn standard(m: &Map<String, Value>, path: &str, ctx: &Ctx, errs: &mut Vec<FieldError>) {
    if let Some(t) = m
        .get("type")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty())
    {
        if !TYPES.contains(&t) {
            errs.push(FieldError::not_supported(
                &child(path, "type"),
                quote(t),
                &TYPES,
            ));
        }
    }
    if let Some(reason) = &ctx.defaults_forbidden {
        if m.get("default").is_some_and(|d| !d.is_null()) {
            errs.push(FieldError::forbidden(
                &child(path, "default"),
                &format!("must not be set {reason}"),
            ));
        }
    }
    for (k, msg) in [
        ("id", "id is not supported"),
        ("additionalItems", "additionalItems is not supported"),
        ("patternProperties", "patternProperties is not supported"),
        ("definitions", "definitions is not supported"),
        ("dependencies", "dependencies is not supported"),
        ("$ref", "$ref is not supported"),
    ] {
        let set = match m.get(k) {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Object(o)) => {
                k == "additionalItems" || k == "dependencies" || !o.is_empty()
            }
            Some(_) => true,
        };
        if set {
            errs.push(FieldError::forbidden(&child(path, k), msg));
        }
    }
    if m.get("type").and_then(Value::as_str) == Some("null") {
        errs.push(FieldError::forbidden(
            &child(path, "type"),
            "type cannot be set to null, use nullable as an alternative",
        ));
    }
    if ctx.in_meta && m.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true)) {
        errs.push(FieldError::forbidden(
            &child(path, "x-kubernetes-embedded-resource"),
            "must not be used inside of resource meta",
        ));
    }
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// Static rules of `x-kubernetes-validations` entries.
fn rule_statics(
    m: &Map<String, Value>,
    node: Option<&Structural>,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    let Some(rules) = m.get("x-kubernetes-validations").and_then(Value::as_array) else {
        return;
    };
    let base = child(path, "x-kubernetes-validations");
    for (i, r) in rules.iter().enumerate() {
        let rp = format!("{base}[{i}]");
        let get = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
        let (rule, msg, msg_expr) = (get("rule"), get("message"), get("messageExpression"));
        if rule.trim().is_empty() {
            errs.push(FieldError::required(
                &child(&rp, "rule"),
                "rule is not specified",
            ));
        } else if !msg.is_empty() && msg.trim().is_empty() {
            errs.push(FieldError::invalid_str(
                &child(&rp, "message"),
                msg,
                "message must be non-empty if specified",
            ));
        } else if has_newlines(msg.trim()) {
            errs.push(FieldError::invalid_str(
                &child(&rp, "message"),
                msg,
                "message must not contain line breaks",
            ));
        } else if has_newlines(rule.trim()) && msg.trim().is_empty() {
            errs.push(FieldError::required(
                &child(&rp, "message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        if !msg_expr.is_empty() && msg_expr.trim().is_empty() {
            errs.push(FieldError::required(
                &child(&rp, "messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = r.get("reason").and_then(Value::as_str) {
            if !RULE_REASONS.contains(&reason) {
                errs.push(FieldError::not_supported(
                    &child(&rp, "reason"),
                    quote(reason),
                    &RULE_REASONS,
                ));
            }
        }
        let fp = get("fieldPath");
        let fpp = child(&rp, "fieldPath");
        if !fp.is_empty() && fp.trim().is_empty() {
            errs.push(FieldError::invalid_str(
                &fpp,
                fp,
                "fieldPath must be non-empty if specified",
            ));
        }
        if has_newlines(fp) {
            errs.push(FieldError::invalid_str(
                &fpp,
                fp,
                "fieldPath must not contain line breaks",
            ));
        }
        if !fp.is_empty() && node.is_some_and(|n| !crate::fieldpath::valid(n, fp)) {
            errs.push(FieldError::invalid_str(
                &fpp,
                fp,
                "fieldPath must be a valid path",
            ));
        }
    }
}

/// Go's `%#v` of an `apiextensions.ValidationRule`, the bad value upstream shows for rules
/// that fail to compile.
fn go_rule(r: &crate::ValidationRule) -> String {
    let reason = match &r.reason {
        Some(_) => "(*apiextensions.FieldValueErrorReason)(…)".to_string(),
        None => "(*apiextensions.FieldValueErrorReason)(nil)".to_string(),
    };
    let old = if r.optional_old_self {
        "(*bool)(…)"
    } else {
        "(*bool)(nil)"
    };
    format!(
        "apiextensions.ValidationRule{{Rule:{}, Message:{}, MessageExpression:{}, Reason:{reason}, FieldPath:{}, OptionalOldSelf:{old}}}",
        quote(&r.rule),
        quote(r.message.as_deref().unwrap_or("")),
        quote(r.message_expression.as_deref().unwrap_or("")),
        quote(r.field_path.as_deref().unwrap_or("")),
    )
}

/// CEL compilation of a node's rules, with the oldSelf correlation checks.
fn compile_rules(node: &Structural, path: &str, ctx: &Ctx, errs: &mut Vec<FieldError>) {
    let base = child(path, "x-kubernetes-validations");
    match crate::cel::compile(&crate::rules::to_cel(&node.validations), &node.raw) {
        Err(list) => {
            for (i, msg) in list {
                let rp = format!("{base}[{i}]");
                let value = node.validations.get(i).map(go_rule).unwrap_or_default();
                let field = if msg.starts_with("messageExpression") {
                    "messageExpression"
                } else {
                    "rule"
                };
                errs.push(FieldError::invalid(&child(&rp, field), value, &msg));
            }
        }
        Ok(compiled) => {
            for (i, r) in node.validations.iter().enumerate() {
                let rp = format!("{base}[{i}]");
                if compiled.is_transition(i) {
                    if let Some(p) = &ctx.uncorrelatable {
                        errs.push(FieldError::invalid_str(
                            &child(&rp, "rule"),
                            &r.rule,
                            &format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {p}"),
                        ));
                    }
                } else if r.optional_old_self {
                    errs.push(FieldError::invalid(
                        &child(&rp, "optionalOldSelf"),
                        "true".into(),
                        "may not be set if oldSelf is not used in rule",
                    ));
                }
            }
        }
    }
}

/// `ValidateDefaults`: every default is pruned, validates against its node and its rules.
/// Defaults under `additionalProperties` are not followed (they are forbidden there).
fn defaults(s: &Structural, path: &str, root: bool, errs: &mut Vec<FieldError>) {
    if let Some(d) = &s.default {
        let dp = child(path, "default");
        let mut pruned = d.clone();
        crate::prune::prune_value(s, &mut pruned, s.embedded_resource);
        if !crate::validate::json_eq(&pruned, d) {
            errs.push(FieldError::invalid(
                &dp,
                render(d),
                "must not have unknown fields",
            ));
        }
        let found =
            crate::object::validate_with(s, d, Some(d), &crate::rules::CelEngine::default(), false);
        for mut e in found {
            e.field = match e.field.as_str() {
                "<nil>" | "" => dp.clone(),
                f if f.starts_with('[') => format!("{dp}{f}"),
                f => format!("{dp}.{f}"),
            };
            errs.push(e);
        }
    }
    if let Some(it) = &s.items {
        defaults(it, &child(path, "items"), false, errs);
    }
    for (k, p) in &s.properties {
        // top-level metadata defaults are forbidden by the keyword checks
        if root && k == "metadata" {
            continue;
        }
        defaults(p, &key(path, "properties", k), false, errs);
    }
}
