//! Validation of a CRD's `spec.conversion` (strategy None or Webhook, webhook client
//! config, conversion review versions) with upstream's field paths and messages.

use crate::error::{quote, render, FieldError};
use crate::names::dns1035_label;
use serde_json::{Map, Value};

fn s<'a>(m: Option<&'a Map<String, Value>>, k: &str) -> &'a str {
    m.and_then(|m| m.get(k))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn arr<'a>(m: Option<&'a Map<String, Value>>, k: &str) -> &'a [Value] {
    m.and_then(|m| m.get(k))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

pub(crate) fn validate_conversion(conv: Option<&Map<String, Value>>, errs: &mut Vec<FieldError>) {
    let Some(conv) = conv else { return };
    let strategy = s(Some(conv), "strategy");
    let webhook = conv.get("webhook").and_then(Value::as_object);
    let client_config = webhook
        .and_then(|w| w.get("clientConfig"))
        .filter(|c| !c.is_null());
    let review = arr(webhook, "conversionReviewVersions");
    match strategy {
        "" => errs.push(FieldError::required("spec.conversion.strategy", "")),
        "None" | "Webhook" => {}
        other => errs.push(FieldError::not_supported(
            "spec.conversion.strategy",
            quote(other),
            &["None", "Webhook"],
        )),
    }
    if strategy == "Webhook" {
        match client_config.and_then(Value::as_object) {
            None => errs.push(FieldError::required(
                "spec.conversion.webhookClientConfig",
                "required when strategy is set to Webhook",
            )),
            Some(cc) => client_config_rules(cc, errs),
        }
        review_versions(review, errs);
    } else {
        if client_config.is_some() {
            errs.push(FieldError::forbidden(
                "spec.conversion.webhookClientConfig",
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review.is_empty() {
            errs.push(FieldError::forbidden(
                "spec.conversion.conversionReviewVersions",
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

fn client_config_rules(cc: &Map<String, Value>, errs: &mut Vec<FieldError>) {
    let base = "spec.conversion.webhookClientConfig";
    let url = cc.get("url").and_then(Value::as_str);
    let service = cc.get("service").and_then(Value::as_object);
    match (url, service) {
        (Some(_), Some(_)) | (None, None) => {
            errs.push(FieldError::required(
                base,
                "exactly one of url or service is required",
            ));
        }
        (Some(u), None) => {
            let up = format!("{base}.url");
            match u.split_once("://") {
                Some(("https", rest)) if !rest.is_empty() => {
                    if u.contains('#') {
                        errs.push(FieldError::invalid_str(&up, u, "'fragment' is not allowed"));
                    }
                    if u.contains('?') {
                        errs.push(FieldError::invalid_str(&up, u, "'query' is not allowed"));
                    }
                }
                Some((_, rest)) if !rest.is_empty() => {
                    errs.push(FieldError::invalid_str(
                        &up,
                        u,
                        "'https' is the only allowed URL scheme",
                    ));
                }
                _ => errs.push(FieldError::required(&up, "host must be specified")),
            }
        }
        (None, Some(svc)) => {
            let sp = format!("{base}.service");
            if s(Some(svc), "name").is_empty() {
                errs.push(FieldError::required(
                    &format!("{sp}.name"),
                    "service name is required",
                ));
            }
            if s(Some(svc), "namespace").is_empty() {
                errs.push(FieldError::required(
                    &format!("{sp}.namespace"),
                    "service namespace is required",
                ));
            }
            if let Some(port) = svc.get("port").and_then(Value::as_i64) {
                if !(1..=65535).contains(&port) {
                    errs.push(FieldError::invalid(
                        &format!("{sp}.port"),
                        port.to_string(),
                        "port is not valid: must be between 1 and 65535, inclusive",
                    ));
                }
            }
        }
    }
}

fn review_versions(review: &[Value], errs: &mut Vec<FieldError>) {
    let path = "spec.conversion.conversionReviewVersions";
    if review.is_empty() {
        errs.push(FieldError::required(path, ""));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut recognized = false;
    for (i, v) in review.iter().enumerate() {
        let v = v.as_str().unwrap_or("");
        let vp = format!("{path}[{i}]");
        if seen.contains(&v) {
            errs.push(FieldError::invalid_str(&vp, v, "duplicate version"));
            continue;
        }
        for why in dns1035_label(v) {
            errs.push(FieldError::invalid_str(&vp, v, &why));
        }
        seen.push(v);
        recognized |= v == "v1" || v == "v1beta1";
    }
    if !recognized {
        errs.push(FieldError::invalid(
            path,
            render(&Value::Array(review.to_vec())),
            "must include at least one of v1, v1beta1",
        ));
    }
}
