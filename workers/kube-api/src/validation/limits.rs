//! LimitRanges as kube-apiserver 1.33 validates them, and the resource-name and
//! quantity rules they share with quotas and RuntimeClass overhead: names that are
//! standard or fully qualified (for containers, for quotas), non-negative whole
//! quantities where upstream wants them, and consistent min / max / default /
//! defaultRequest / ratio per resource.
//!
//! Upstream walks Go maps here, so its causes come in no fixed order; these come in
//! resource-name order.

use std::collections::{BTreeMap, BTreeSet};

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, duplicate, each_invalid, forbidden, invalid, invalid_shown, qualified_name_msgs, required,
    s, NEGATIVE_MSG,
};
use super::quantity;

const STANDARD: [&str; 20] = [
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "quotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];
const INTEGER: [&str; 9] = [
    "pods",
    "quotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];
pub(super) const QUOTA_SCOPES: [&str; 7] = [
    "Terminating",
    "NotTerminating",
    "BestEffort",
    "NotBestEffort",
    "PriorityClass",
    "VolumeAttributesClass",
    "CrossNamespacePodAffinity",
];

fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// An extended resource (`example.com/gpu`): not native, not a quota's `requests.`
/// form, and a qualified name as `requests.<name>`.
fn is_extended(name: &str) -> bool {
    !is_native(name)
        && !name.starts_with("requests.")
        && qualified_name_msgs(&format!("requests.{name}")).is_empty()
}

fn is_standard(name: &str) -> bool {
    STANDARD.contains(&name) || is_hugepages(name) || name.starts_with("requests.hugepages-")
}

pub(super) fn is_standard_for_quota(name: &str) -> bool {
    name != "storage" && is_standard(name)
}

fn is_integer(name: &str) -> bool {
    INTEGER.contains(&name) || is_extended(name)
}

/// Why `name` is not a resource name: a qualified name, standard when unprefixed.
pub(super) fn resource_name(name: &str, at: &str) -> Vec<StatusCause> {
    let out = each_invalid(at, name, qualified_name_msgs(name));
    if !out.is_empty() || name.contains('/') || is_standard(name) {
        return out;
    }
    vec![invalid(
        at,
        name,
        "must be a standard resource type or fully qualified",
    )]
}

/// Why `name` is not a container resource name (limits of Pod and Container types, a
/// RuntimeClass's overhead).
pub(crate) fn container_resource_name(name: &str, at: &str) -> Vec<StatusCause> {
    let mut out = resource_name(name, at);
    if !name.contains('/') {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_hugepages(name) {
            out.push(invalid(
                at,
                name,
                "must be a standard resource for containers",
            ));
        }
    } else if !is_native(name) && !is_extended(name) {
        out.push(invalid(
            at,
            name,
            "doesn't follow extended resource name standard",
        ));
    }
    out
}

/// A quantity as Go's `%#v` prints a `resource.Quantity` (the cached string filled).
pub(crate) fn go_quantity(q: &str) -> String {
    let split = q
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(q.len());
    let (num, suffix) = q.split_at(split);
    let (whole, frac) = num.split_once('.').unwrap_or((num, ""));
    let mantissa: i128 = format!("{whole}{frac}").parse().unwrap_or(0);
    let mut scale = -(frac.len() as i32);
    let (mut value, format) = match suffix {
        "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
            let n = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                .iter()
                .position(|s| *s == suffix)
                .unwrap_or(0) as u32
                + 1;
            (
                mantissa.saturating_mul(1024i128.saturating_pow(n)),
                "BinarySI",
            )
        }
        s if s.starts_with(['e', 'E']) => {
            scale = scale.saturating_add(s[1..].parse::<i32>().unwrap_or(0));
            (mantissa, "DecimalExponent")
        }
        s => {
            scale += match s {
                "n" => -9,
                "u" => -6,
                "m" => -3,
                "k" => 3,
                "M" => 6,
                "G" => 9,
                "T" => 12,
                "P" => 15,
                "E" => 18,
                _ => 0,
            };
            (mantissa, "DecimalSI")
        }
    };
    if format == "BinarySI" && scale < 0 {
        value /= 10i128
            .checked_pow(scale.unsigned_abs())
            .unwrap_or(i128::MAX);
        scale = 0;
    }
    format!(
        "resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:{scale}}}, d:resource.infDecAmount{{Dec:(*inf.Dec)(nil)}}, s:{}, Format:\"{format}\"}}",
        super::causes::quote(q)
    )
}

/// A quantity that must not be negative, and whole for integer resources.
pub(crate) fn quantity_value(name: &str, v: &Value, at: &str) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let Some((text, n)) = quantity::of(v) else {
        return out;
    };
    if n < 0.0 {
        out.push(invalid(at, &text, NEGATIVE_MSG));
    }
    if is_integer(name) && ((n * 1000.0).round() as i64) % 1000 != 0 {
        out.push(invalid_shown(at, &go_quantity(&text), "must be an integer"));
    }
    out
}

fn quantities<'a>(item: &'a Value, key: &str) -> BTreeMap<&'a str, (String, f64)> {
    item.get(key)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| quantity::of(v).map(|q| (k.as_str(), q)))
        .collect()
}

fn names<'a>(item: &'a Value, key: &str) -> Vec<&'a str> {
    item.get(key)
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// A LimitRange (the same rules on create and update).
pub(crate) fn limit_range(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let mut types = BTreeSet::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    for (i, item) in arr(&spec, "limits").iter().enumerate() {
        let at = format!("spec.limits[{i}]");
        let kind = s(item, "type").unwrap_or("");
        let type_msgs = qualified_name_msgs(kind);
        if !type_msgs.is_empty() {
            out.extend(each_invalid(&format!("{at}.type"), kind, type_msgs));
        } else if !kind.contains('/')
            && !matches!(kind, "Pod" | "Container" | "PersistentVolumeClaim")
        {
            out.push(invalid(
                &format!("{at}.type"),
                kind,
                "must be a standard limit type or fully qualified",
            ));
        }
        if !types.insert(kind) {
            out.push(duplicate(&format!("{at}.type"), kind));
        }
        let for_containers = matches!(kind, "Pod" | "Container");
        let check_name = |name: &str, field: &str| {
            let at = format!("{at}.{field}[{name}]");
            if for_containers {
                container_resource_name(name, &at)
            } else {
                resource_name(name, &at)
            }
        };
        let mut keys = BTreeSet::new();
        for field in ["max", "min"] {
            for name in names(item, field) {
                out.extend(check_name(name, field));
                keys.insert(name);
            }
        }
        let (default, default_request) = if kind == "Pod" {
            for field in ["default", "defaultRequest"] {
                if item
                    .get(field)
                    .and_then(Value::as_object)
                    .is_some_and(|m| !m.is_empty())
                {
                    out.push(forbidden(
                        &format!("{at}.{field}"),
                        "may not be specified when `type` is 'Pod'",
                    ));
                }
            }
            (BTreeMap::new(), BTreeMap::new())
        } else {
            for field in ["default", "defaultRequest"] {
                for name in names(item, field) {
                    out.extend(check_name(name, field));
                    keys.insert(name);
                }
            }
            (
                quantities(item, "default"),
                quantities(item, "defaultRequest"),
            )
        };
        if kind == "PersistentVolumeClaim"
            && item.pointer("/min/storage").is_none()
            && item.pointer("/max/storage").is_none()
        {
            out.push(required(
                &format!("{at}.limits"),
                "either minimum or maximum storage value is required, but neither was provided",
            ));
        }
        for name in names(item, "maxLimitRequestRatio") {
            out.extend(check_name(name, "maxLimitRequestRatio"));
            keys.insert(name);
        }
        let (min, max) = (quantities(item, "min"), quantities(item, "max"));
        let ratios = quantities(item, "maxLimitRequestRatio");
        for k in keys {
            out.extend(compare(
                &at,
                k,
                [
                    min.get(k),
                    max.get(k),
                    default.get(k),
                    default_request.get(k),
                    ratios.get(k),
                ],
            ));
        }
    }
    out
}

/// The per-resource consistency checks of a LimitRange item, in upstream's order.
fn compare(
    at: &str,
    k: &str,
    [min, max, default, request, ratio]: [Option<&(String, f64)>; 5],
) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let field = |f: &str| format!("{at}.{f}[{k}]");
    let bad =
        |f: &str, shown: &str, why: String| invalid_shown(&field(f), &go_quantity(shown), &why);
    if let (Some(mn), Some(mx)) = (min, max) {
        if mn.1 > mx.1 {
            out.push(bad(
                "min",
                &mn.0,
                format!("min value {} is greater than max value {}", mn.0, mx.0),
            ));
        }
    }
    if let (Some(r), Some(mn)) = (request, min) {
        if mn.1 > r.1 {
            out.push(bad(
                "defaultRequest",
                &r.0,
                format!(
                    "min value {} is greater than default request value {}",
                    mn.0, r.0
                ),
            ));
        }
    }
    if let (Some(r), Some(mx)) = (request, max) {
        if r.1 > mx.1 {
            out.push(bad(
                "defaultRequest",
                &r.0,
                format!(
                    "default request value {} is greater than max value {}",
                    r.0, mx.0
                ),
            ));
        }
    }
    if let (Some(r), Some(d)) = (request, default) {
        if r.1 > d.1 {
            out.push(bad(
                "defaultRequest",
                &r.0,
                format!(
                    "default request value {} is greater than default limit value {}",
                    r.0, d.0
                ),
            ));
        }
    }
    if let (Some(d), Some(mn)) = (default, min) {
        if mn.1 > d.1 {
            out.push(bad(
                "default",
                &mn.0,
                format!("min value {} is greater than default value {}", mn.0, d.0),
            ));
        }
    }
    if let (Some(d), Some(mx)) = (default, max) {
        if d.1 > mx.1 {
            out.push(bad(
                "default",
                &mx.0,
                format!("default value {} is greater than max value {}", d.0, mx.0),
            ));
        }
    }
    if let Some(r) = ratio {
        if r.1 < 1.0 {
            out.push(bad(
                "maxLimitRequestRatio",
                &r.0,
                format!("ratio {} is less than 1", r.0),
            ));
        }
        if let (Some(mn), Some(mx)) = (min, max) {
            let limit = mx.1 / mn.1;
            if r.1 > limit {
                out.push(bad(
                    "maxLimitRequestRatio",
                    &r.0,
                    format!("ratio {} is greater than max/min = {limit:.6}", r.0),
                ));
            }
        }
    }
    if let (Some(d), Some(r), true) = (default, request, !is_native(k) || is_hugepages(k)) {
        if d.1 != r.1 {
            out.push(bad(
                "defaultRequest",
                &r.0,
                format!(
                    "default value {} must equal to defaultRequest value {} in {k}",
                    d.0, r.0
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
