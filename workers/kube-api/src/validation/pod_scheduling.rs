//! Where a pod may run, as kube-apiserver 1.33 validates it (facts in
//! /work/notes/validation-spec-6.md §2.9–2.11): node selector terms (shared with a
//! PersistentVolume's node affinity), node and pod (anti-)affinity, tolerations and
//! topology spread constraints — upstream's order, messages and path quirks (a pod
//! affinity term's namespaces at `namespace`, the label-key clash at `term[i]`, the
//! duplicate spread constraint at `{topologyKey, whenUnsatisfiable}`).

use std::collections::{HashMap, HashSet};

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, forbidden, invalid,
    invalid_int, label_value_msgs, not_supported, obj, present, qualified_name_msgs, required, s,
    text,
};
use super::selector::{requirement_rules, selector_rules};

fn strings(v: &Value, key: &str) -> Vec<String> {
    arr(v, key)
        .iter()
        .map(|x| x.as_str().unwrap_or("").to_owned())
        .collect()
}

/// A node selector term at `at`: its label expressions, then its field expressions.
fn term(t: &Value, at: &str, allow_invalid_values: bool, out: &mut Vec<StatusCause>) {
    for (j, e) in arr(t, "matchExpressions").iter().enumerate() {
        let p = format!("{at}.matchExpressions[{j}]");
        requirement_rules(e, &p, true, !allow_invalid_values, out);
    }
    for (j, f) in arr(t, "matchFields").iter().enumerate() {
        let p = format!("{at}.matchFields[{j}]");
        let values = arr(f, "values");
        match text(f, "operator") {
            "In" | "NotIn" if values.len() != 1 => out.push(required(
                &format!("{p}.values"),
                "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
            )),
            "In" | "NotIn" => {}
            op => out.push(invalid(
                &format!("{p}.operator"),
                op,
                "not a valid selector operator",
            )),
        }
        let key = text(f, "key");
        if key != "metadata.name" {
            out.push(invalid(
                &format!("{p}.key"),
                key,
                "not a valid field selector key",
            ));
        } else {
            for (k, v) in values.iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                out.extend(each_invalid(
                    &format!("{p}.values[{k}]"),
                    v,
                    dns_subdomain_msgs(v),
                ));
            }
        }
    }
}

/// A required NodeSelector (`{nodeSelectorTerms: [...]}`) at `at`.
pub(super) fn node_selector(sel: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let terms = arr(sel, "nodeSelectorTerms");
    let tp = format!("{at}.nodeSelectorTerms");
    if terms.is_empty() {
        out.push(required(&tp, "must have at least one node selector term"));
        return;
    }
    for (i, t) in terms.iter().enumerate() {
        term(t, &format!("{tp}[{i}]"), false, out);
    }
}

fn weight(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let w = v.get("weight").and_then(Value::as_i64).unwrap_or(0);
    if !(1..=100).contains(&w) {
        out.push(invalid_int(
            &format!("{at}.weight"),
            w,
            "must be in the range 1-100",
        ));
    }
}

/// One pod (anti-)affinity term at `t`.
fn pod_affinity_term(term: &Value, t: &str, out: &mut Vec<StatusCause>) {
    let selector = present(term, "labelSelector");
    if let Some(sel) = selector {
        selector_rules(sel, &format!("{t}.labelSelector"), out);
    }
    if let Some(sel) = present(term, "namespaceSelector") {
        selector_rules(sel, &format!("{t}.namespaceSelector"), out);
    }
    for ns in strings(term, "namespaces") {
        out.extend(each_invalid(
            &format!("{t}.namespace"),
            &ns,
            dns_label_msgs(&ns),
        ));
    }
    let matching = strings(term, "matchLabelKeys");
    let mismatching = strings(term, "mismatchLabelKeys");
    for (key, keys) in [
        ("matchLabelKeys", &matching),
        ("mismatchLabelKeys", &mismatching),
    ] {
        if keys.is_empty() {
            continue;
        }
        if selector.is_none() {
            out.push(forbidden(
                &format!("{t}.{key}"),
                "must not be specified when labelSelector is not set",
            ));
            continue;
        }
        for (k, name) in keys.iter().enumerate() {
            out.extend(each_invalid(
                &format!("{t}.{key}[{k}]"),
                name,
                qualified_name_msgs(name),
            ));
        }
    }
    if let Some(sel) = selector {
        // The last index of each key wins, as upstream's map does.
        let index: HashMap<&str, usize> = matching
            .iter()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect();
        let mut seen: HashSet<String> = obj(sel, "matchLabels")
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for e in arr(sel, "matchExpressions") {
            let key = text(e, "key");
            if let Some(i) = index.get(key).filter(|_| seen.contains(key)) {
                out.push(invalid(
                    &format!("{t}[{i}]"),
                    key,
                    "exists in both matchLabelKeys and labelSelector",
                ));
            }
            seen.insert(key.to_owned());
        }
    }
    for (k, key) in matching.iter().enumerate() {
        if mismatching.contains(key) {
            out.push(invalid(
                &format!("{t}.matchLabelKeys[{k}]"),
                key,
                "exists in both matchLabelKeys and mismatchLabelKeys",
            ));
        }
    }
    let topology = text(term, "topologyKey");
    if topology.is_empty() {
        out.push(required(&format!("{t}.topologyKey"), "can not be empty"));
    }
    out.extend(each_invalid(
        &format!("{t}.topologyKey"),
        topology,
        qualified_name_msgs(topology),
    ));
}

/// `affinity` at `at`: node, pod and pod anti-affinity.
pub(super) fn affinity(a: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(na) = present(a, "nodeAffinity") {
        let np = format!("{at}.nodeAffinity");
        let required_key = "requiredDuringSchedulingIgnoredDuringExecution";
        if let Some(req) = present(na, required_key) {
            node_selector(req, &format!("{np}.{required_key}"), out);
        }
        for (i, p) in arr(na, "preferredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            let pp = format!("{np}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
            weight(p, &pp, out);
            let empty = Value::Null;
            let pref = present(p, "preference").unwrap_or(&empty);
            term(pref, &format!("{pp}.preference"), true, out);
        }
    }
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(pa) = present(a, kind) else {
            continue;
        };
        let kp = format!("{at}.{kind}");
        for (i, t) in arr(pa, "requiredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            let tp = format!("{kp}.requiredDuringSchedulingIgnoredDuringExecution[{i}]");
            pod_affinity_term(t, &tp, out);
        }
        for (i, w) in arr(pa, "preferredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            let wp = format!("{kp}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
            weight(w, &wp, out);
            let empty = Value::Null;
            let t = present(w, "podAffinityTerm").unwrap_or(&empty);
            pod_affinity_term(t, &format!("{wp}.podAffinityTerm"), out);
        }
    }
}

/// `tolerations` at `at` (ValidateTolerations).
pub(super) fn tolerations(list: &[Value], at: &str, out: &mut Vec<StatusCause>) {
    const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
    for (i, t) in list.iter().enumerate() {
        let tp = format!("{at}[{i}]");
        let (key, op, effect, value) = (
            text(t, "key"),
            text(t, "operator"),
            text(t, "effect"),
            text(t, "value"),
        );
        if !key.is_empty() {
            out.extend(each_invalid(
                &format!("{tp}.key"),
                key,
                qualified_name_msgs(key),
            ));
        }
        if key.is_empty() && op != "Exists" {
            out.push(invalid(
                &format!("{tp}.operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if present(t, "tolerationSeconds").is_some() && effect != "NoExecute" {
            out.push(invalid(
                &format!("{tp}.effect"),
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match op {
            "Equal" | "" => {
                let msgs = label_value_msgs(value);
                if !msgs.is_empty() {
                    out.push(invalid(&format!("{tp}.operator"), value, &msgs.join(";")));
                }
            }
            "Exists" if !value.is_empty() => out.push(invalid(
                &format!("{tp}.operator"),
                value,
                "value must be empty when `operator` is 'Exists'",
            )),
            "Exists" => {}
            other => out.push(not_supported(
                &format!("{tp}.operator"),
                other,
                &["Equal", "Exists"],
            )),
        }
        if !effect.is_empty() && !EFFECTS.contains(&effect) {
            out.push(not_supported(&format!("{tp}.effect"), effect, &EFFECTS));
        }
    }
}

/// `topologySpreadConstraints` at `at`.
pub(super) fn topology_spread(list: &[Value], at: &str, out: &mut Vec<StatusCause>) {
    const WHEN: [&str; 2] = ["DoNotSchedule", "ScheduleAnyway"];
    const POLICIES: [&str; 2] = ["Honor", "Ignore"];
    for (i, c) in list.iter().enumerate() {
        let cp = format!("{at}[{i}]");
        let skew = c.get("maxSkew").and_then(Value::as_i64).unwrap_or(0);
        if skew <= 0 {
            out.push(invalid_int(
                &format!("{cp}.maxSkew"),
                skew,
                "must be greater than zero",
            ));
        }
        let (key, when) = (text(c, "topologyKey"), text(c, "whenUnsatisfiable"));
        if key.is_empty() {
            out.push(required(&format!("{cp}.topologyKey"), "can not be empty"));
        }
        if !WHEN.contains(&when) {
            out.push(not_supported(
                &format!("{cp}.whenUnsatisfiable"),
                when,
                &WHEN,
            ));
        }
        let later_twin = list[i + 1..]
            .iter()
            .any(|o| text(o, "topologyKey") == key && text(o, "whenUnsatisfiable") == when);
        if later_twin {
            out.push(duplicate(
                &format!("{cp}.{{topologyKey, whenUnsatisfiable}}"),
                &format!("{{{key}, {when}}}"),
            ));
        }
        if let Some(min) = c.get("minDomains").and_then(Value::as_i64) {
            let field = format!("{cp}.minDomains");
            if min <= 0 {
                out.push(invalid_int(&field, min, "must be greater than zero"));
            }
            if when != "DoNotSchedule" {
                out.push(invalid_int(
                    &field,
                    min,
                    &format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {when}"
                    ),
                ));
            }
        }
        for policy in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(p) = s(c, policy).filter(|p| !POLICIES.contains(p)) {
                out.push(not_supported(&format!("{cp}.{policy}"), p, &POLICIES));
            }
        }
        let selector = present(c, "labelSelector");
        let keys = strings(c, "matchLabelKeys");
        if !keys.is_empty() {
            if selector.is_none() {
                out.push(forbidden(
                    &format!("{cp}.matchLabelKeys"),
                    "must not be specified when labelSelector is not set",
                ));
            }
            let mut in_selector: HashSet<String> = HashSet::new();
            if let Some(sel) = selector {
                in_selector.extend(
                    obj(sel, "matchLabels")
                        .into_iter()
                        .flatten()
                        .map(|(k, _)| k.clone()),
                );
                in_selector.extend(
                    arr(sel, "matchExpressions")
                        .iter()
                        .map(|e| text(e, "key").to_owned()),
                );
            }
            for (k, key) in keys.iter().enumerate() {
                let kp = format!("{cp}.matchLabelKeys[{k}]");
                out.extend(each_invalid(&kp, key, qualified_name_msgs(key)));
                if in_selector.contains(key) {
                    out.push(invalid(
                        &kp,
                        key,
                        "exists in both matchLabelKeys and labelSelector",
                    ));
                }
            }
        }
        if let Some(sel) = selector {
            selector_rules(sel, &format!("{cp}.labelSelector"), out);
        }
    }
}

#[cfg(test)]
#[path = "pod_scheduling_tests.rs"]
mod tests;
