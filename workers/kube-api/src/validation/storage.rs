//! PersistentVolumeClaims and StorageClasses as kube-apiserver 1.33 validates them: a
//! claim asks for known access modes and some storage, names a valid class and volume
//! mode, and keeps its spec once created (but a bound claim's storage request, and a
//! volume name or class given for the first time; data sources are `claim_sources.rs`'s);
//! a class names a provisioner, bounded parameters, a known reclaim policy and binding
//! mode, and keeps them.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, each_invalid, forbidden, invalid, not_supported, qualified_name_msgs,
    required, s, too_long,
};
use super::selector::selector_rules;

const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];

fn quantity(v: &Value) -> Option<f64> {
    match v {
        Value::String(q) => super::parse_quantity(q),
        Value::Number(n) => n.as_f64(),
        _ => None,
    }
}

fn storage_request(o: &Value) -> Option<&Value> {
    o.pointer("/spec/resources/requests/storage")
}

/// A PersistentVolumeClaim.
pub(crate) fn persistent_volume_claim(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let empty = Value::Null;
    let spec = o.get("spec").unwrap_or(&empty);
    let mut causes = claim_spec(spec, "spec", old.and_then(|o| o.get("spec")));
    if let Some(old) = old {
        causes.extend(claim_update(o, old));
    }
    causes
}

/// A claim's spec at `path` (a claim's `spec`, or a claim template's), in upstream's
/// order; `old` is the stored claim's spec, if any.
pub(crate) fn claim_spec(spec: &Value, path: &str, old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let modes_at = format!("{path}.accessModes");
    let modes: Vec<&str> = arr(spec, "accessModes")
        .iter()
        .map(|m| m.as_str().unwrap_or(""))
        .collect();
    if modes.is_empty() {
        causes.push(required(&modes_at, "at least 1 access mode is required"));
    }
    if let Some(sel) = spec.get("selector").filter(|s| s.is_object()) {
        selector_rules(sel, &format!("{path}.selector"), &mut causes);
    }
    for m in &modes {
        if !ACCESS_MODES.contains(m) {
            causes.push(not_supported(&modes_at, m, &ACCESS_MODES));
        }
    }
    if modes.contains(&"ReadWriteOncePod")
        && modes
            .iter()
            .any(|m| *m != "ReadWriteOncePod" && ACCESS_MODES.contains(m))
    {
        causes.push(forbidden(
            &modes_at,
            "may not use ReadWriteOncePod with other access modes",
        ));
    }
    let storage_at = format!("{path}.resources[storage]");
    match spec.pointer("/resources/requests/storage") {
        None => causes.push(required(&storage_at, "")),
        Some(q) => {
            if quantity(q).is_some_and(|n| n <= 0.0) {
                let shown = q
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| q.to_string());
                causes.push(invalid(&storage_at, &shown, "must be greater than zero"));
            }
        }
    }
    if let Some(class) = s(spec, "storageClassName").filter(|c| !c.is_empty()) {
        causes.extend(each_invalid(
            &format!("{path}.storageClassName"),
            class,
            dns_subdomain_msgs(class),
        ));
    }
    if let Some(mode) = s(spec, "volumeMode") {
        if !matches!(mode, "Block" | "Filesystem") {
            causes.push(not_supported(
                &format!("{path}.volumeMode"),
                mode,
                &["Block", "Filesystem"],
            ));
        }
    }
    causes.extend(super::claim_sources::data_source_rules(spec, path, old));
    causes
}

/// What may change in a claim: a volume name or class given for the first time, and a
/// bound claim's storage request (not below its capacity).
fn claim_update(o: &Value, old: &Value) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let mut was = old.get("spec").cloned().unwrap_or(Value::Null);
    // Upstream normalizes the stored claim's data sources too, so a claim saved before
    // they were copied into each other still compares equal.
    if let Some(m) = was.as_object_mut() {
        super::claim_sources::normalize(m);
    }
    let mut now = o.get("spec").cloned().unwrap_or(Value::Null);
    for first_time in ["volumeName", "storageClassName"] {
        let unset = was.get(first_time).is_none_or(|v| v.is_null() || v == "");
        if unset {
            match now.get(first_time) {
                Some(v) => was[first_time] = v.clone(),
                None => {
                    if let Some(m) = was.as_object_mut() {
                        m.remove(first_time);
                    }
                }
            }
        }
    }
    let bound = old.pointer("/status/phase").and_then(Value::as_str) == Some("Bound");
    if bound {
        let old_storage = storage_request(old).cloned();
        if let Some(requests) = now
            .pointer_mut("/resources/requests")
            .and_then(Value::as_object_mut)
        {
            match old_storage {
                Some(q) => {
                    requests.insert("storage".into(), q);
                }
                None => {
                    requests.remove("storage");
                }
            }
        }
        let (new_q, old_q) = (
            storage_request(o).and_then(quantity),
            storage_request(old).and_then(quantity),
        );
        let capacity = old.pointer("/status/capacity/storage").and_then(quantity);
        if let (Some(n), Some(p)) = (new_q, old_q) {
            if n < p && capacity.is_some_and(|c| n <= c) {
                causes.push(forbidden(
                    "spec.resources.requests.storage",
                    "field can not be less than status.capacity",
                ));
            }
        }
    }
    if was != now {
        let changed: Vec<String> = now
            .as_object()
            .into_iter()
            .flatten()
            .chain(was.as_object().into_iter().flatten())
            .filter(|(k, _)| was.get(k.as_str()) != now.get(k.as_str()))
            .map(|(k, _)| k.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .map(|k| {
                let show = |v: Option<&Value>| v.map_or("<unset>".to_owned(), Value::to_string);
                format!(
                    "-\t{k}: {}\n+\t{k}: {}",
                    show(was.get(&k)),
                    show(now.get(&k))
                )
            })
            .collect();
        causes.push(forbidden(
            "spec",
            &format!(
                "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n  core.PersistentVolumeClaimSpec{{\n{}\n  }}",
                changed.join("\n")
            ),
        ));
    }
    let (mode, old_mode) = (
        o.pointer("/spec/volumeMode").and_then(Value::as_str),
        old.pointer("/spec/volumeMode").and_then(Value::as_str),
    );
    if mode != old_mode {
        causes.push(invalid(
            "volumeMode",
            mode.unwrap_or(""),
            super::causes::IMMUTABLE_MSG,
        ));
    }
    causes
}

/// A StorageClass.
pub(crate) fn storage_class(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    match s(o, "provisioner").unwrap_or("") {
        "" => causes.push(required("provisioner", "")),
        p => {
            let lower = p.to_lowercase();
            causes.extend(each_invalid(
                "provisioner",
                &lower,
                qualified_name_msgs(&lower),
            ));
        }
    }
    if let Some(params) = o.get("parameters").and_then(Value::as_object) {
        if params.len() > 512 {
            causes.push(too_long("parameters", 512));
        } else {
            if params.keys().any(String::is_empty) {
                causes.push(invalid("parameters", "", "field can not be empty."));
            }
            let size: usize = params
                .iter()
                .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
                .sum();
            if size > 262_144 {
                causes.push(too_long("parameters", 262_144));
            }
        }
    }
    if let Some(policy) = s(o, "reclaimPolicy").filter(|p| !p.is_empty()) {
        if !matches!(policy, "Delete" | "Retain") {
            causes.push(not_supported(
                "reclaimPolicy",
                policy,
                &["Delete", "Retain"],
            ));
        }
    }
    match s(o, "volumeBindingMode") {
        None => causes.push(required("volumeBindingMode", "")),
        Some(m) if !matches!(m, "Immediate" | "WaitForFirstConsumer") => {
            causes.push(not_supported(
                "volumeBindingMode",
                m,
                &["Immediate", "WaitForFirstConsumer"],
            ))
        }
        Some(_) => {}
    }
    for (i, term) in arr(o, "allowedTopologies").iter().enumerate() {
        for (j, expr) in arr(term, "matchLabelExpressions").iter().enumerate() {
            let at = format!("allowedTopologies[{i}].matchLabelExpressions[{j}]");
            let key = s(expr, "key").unwrap_or("");
            causes.extend(each_invalid(
                &format!("{at}.key"),
                key,
                qualified_name_msgs(key),
            ));
            if arr(expr, "values").is_empty() {
                causes.push(required(&format!("{at}.values"), ""));
            }
        }
    }
    if let Some(old) = old {
        for (field, what) in [
            ("parameters", "updates to parameters are forbidden."),
            ("provisioner", "updates to provisioner are forbidden."),
            ("reclaimPolicy", "updates to reclaimPolicy are forbidden."),
        ] {
            if o.get(field) != old.get(field) {
                causes.push(forbidden(field, what));
            }
        }
        let mode = s(o, "volumeBindingMode");
        if mode != s(old, "volumeBindingMode") {
            causes.push(invalid(
                "volumeBindingMode",
                mode.unwrap_or(""),
                super::causes::IMMUTABLE_MSG,
            ));
        }
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::super::causes::messages;
    use super::*;
    use serde_json::json;

    #[test]
    fn claims_ask_for_modes_and_storage_and_keep_their_spec() {
        assert_eq!(
            messages(&persistent_volume_claim(&json!({"spec": {}}), None)),
            [
                "spec.accessModes: Required value: at least 1 access mode is required",
                "spec.resources[storage]: Required value"
            ]
        );
        let claim = json!({"spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast",
            "resources": {"requests": {"storage": "1Gi"}}}, "status": {"phase": "Bound", "capacity": {"storage": "1Gi"}}});
        let mut grown = claim.clone();
        grown["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
        assert!(persistent_volume_claim(&grown, Some(&claim)).is_empty());
        let mut pending = claim.clone();
        pending["status"]["phase"] = json!("Pending");
        let got = messages(&persistent_volume_claim(&grown, Some(&pending)));
        assert!(got[0].starts_with("spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"), "{got:?}");
        let mut shrunk = claim.clone();
        shrunk["spec"]["resources"]["requests"]["storage"] = json!("512Mi");
        assert_eq!(
            messages(&persistent_volume_claim(&shrunk, Some(&claim))),
            ["spec.resources.requests.storage: Forbidden: field can not be less than status.capacity"]
        );
    }

    #[test]
    fn classes_name_a_provisioner_and_keep_it() {
        let class = json!({"provisioner": "", "reclaimPolicy": "Sometimes", "volumeBindingMode": "Immediate"});
        assert_eq!(
            messages(&storage_class(&class, None)),
            [
                "provisioner: Required value",
                "reclaimPolicy: Unsupported value: \"Sometimes\": supported values: \"Delete\", \"Retain\""
            ]
        );
        let old = json!({"provisioner": "ebs.csi.aws.com", "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"});
        let mut new = old.clone();
        new["provisioner"] = json!("other.example.com");
        new["volumeBindingMode"] = json!("WaitForFirstConsumer");
        assert_eq!(
            messages(&storage_class(&new, Some(&old))),
            [
                "provisioner: Forbidden: updates to provisioner are forbidden.",
                "volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable"
            ]
        );
    }
}
