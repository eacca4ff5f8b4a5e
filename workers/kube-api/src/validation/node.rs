//! Nodes as kube-apiserver 1.33 validates them: taints of qualified keys, label values
//! and known effects, unique by key and effect (upstream reports them under
//! `metadata.taints`); capacity and allocatable quantities that are non-negative and
//! whole where they count things; a positive swap capacity; pod CIDRs, one per family;
//! and on update a podCIDR, providerID and externalID that only go from unset to set,
//! and status addresses without duplicates. As upstream, an update validates the node
//! as created and then as updated, so taint and resource causes appear twice.
//!
//! The removed dynamic kubelet config (`spec.configSource`, `status.config`) is cleared
//! as upstream's strategy clears it ([`node_prepare`]). The legacy taint and avoid-pods
//! annotations are read and checked first (`node_annotations`).

use std::collections::BTreeSet;

use ipnet::IpNet;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, each_invalid, forbidden, go_strings, internal, invalid, invalid_int, invalid_shown,
    label_value_msgs, not_supported, qualified_name_msgs, quote, required, s, CIDR_MSG,
};
use super::limits::quantity_value;
use super::node_annotations;

const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// Upstream's node strategies: the dynamic kubelet config is gone, so `spec.configSource`
/// and `status.config` are cleared unless the stored node still has them (a new node,
/// an update, a status write).
pub(crate) fn node_prepare(o: &mut Value, old: Option<&Value>, _sub: &str) {
    super::drop_unless_stored(o, old, "spec", "configSource");
    super::drop_unless_stored(o, old, "status", "config");
}

/// `%#v` of a taint.
fn go_taint(t: &Value) -> String {
    let f = |k: &str| quote(s(t, k).unwrap_or(""));
    let added = if t.get("timeAdded").is_some_and(|v| !v.is_null()) {
        "(*v1.Time)(0xc000000000)"
    } else {
        "(*v1.Time)(nil)"
    };
    format!(
        "core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:{added}}}",
        f("key"),
        f("value"),
        f("effect")
    )
}

/// Taints under `base` (`metadata.taints` for the spec's, as upstream names them).
fn taints(list: &[Value], base: &str, out: &mut Vec<StatusCause>) {
    let mut seen = BTreeSet::new();
    for (i, t) in list.iter().enumerate() {
        let at = format!("{base}[{i}]");
        let key = s(t, "key").unwrap_or("");
        out.extend(each_invalid(
            &format!("{at}.key"),
            key,
            qualified_name_msgs(key),
        ));
        let value = s(t, "value").unwrap_or("");
        let msgs = label_value_msgs(value);
        if !msgs.is_empty() {
            out.push(invalid(&format!("{at}.value"), value, &msgs.join(";")));
        }
        let effect = s(t, "effect").unwrap_or("");
        if effect.is_empty() {
            out.push(required(&format!("{at}.effect"), ""));
        } else if !EFFECTS.contains(&effect) {
            out.push(not_supported(&format!("{at}.effect"), effect, &EFFECTS));
        }
        if !seen.insert((effect, key)) {
            out.push(StatusCause {
                reason: "FieldValueDuplicate".into(),
                message: format!(
                    "Duplicate value: {}: taints must be unique by key and effect pair",
                    go_taint(t)
                ),
                field: at,
            });
        }
    }
}

fn resources(o: &Value, out: &mut Vec<StatusCause>) {
    for list in ["capacity", "allocatable"] {
        let Some(m) = o
            .pointer(&format!("/status/{list}"))
            .and_then(Value::as_object)
        else {
            continue;
        };
        let mut names: Vec<&String> = m.keys().collect();
        names.sort();
        for k in names {
            out.extend(quantity_value(
                k,
                &m[k.as_str()],
                &format!("status.{list}.{k}"),
            ));
        }
    }
}

/// A CIDR read as leniently as upstream reads pod CIDRs (leading zeros allowed).
fn sloppy_cidr(c: &str) -> Option<IpNet> {
    c.parse().ok().or_else(|| {
        let (ip, bits) = c.split_once('/')?;
        let parts: Vec<String> = ip
            .split('.')
            .map(|p| p.trim_start_matches('0'))
            .map(|p| {
                if p.is_empty() {
                    "0".to_owned()
                } else {
                    p.to_owned()
                }
            })
            .collect();
        let bits = bits.trim_start_matches('0');
        let bits = if bits.is_empty() { "0" } else { bits };
        format!("{}/{bits}", parts.join(".")).parse().ok()
    })
}

/// The error of k8s.io/utils' ParseCIDRSloppy for a CIDR it cannot read (whichever part
/// failed, it names the whole text).
fn cidr_parse_error(c: &str) -> String {
    format!("invalid CIDR address: {c}")
}

fn pod_cidrs(o: &Value, out: &mut Vec<StatusCause>) {
    let list = arr(o.get("spec").unwrap_or(&Value::Null), "podCIDRs");
    let mut nets = Vec::new();
    let mut first_bad = None;
    for (i, c) in list.iter().enumerate() {
        let c = c.as_str().unwrap_or("");
        match sloppy_cidr(c) {
            Some(n) => nets.push(n),
            None => {
                out.push(invalid(&format!("spec.podCIDRs[{i}]"), c, CIDR_MSG));
                first_bad.get_or_insert((i, c));
            }
        }
    }
    if list.len() < 2 {
        return;
    }
    // Upstream's dual-stack check parses the list again and fails on a bad CIDR, an
    // internal error besides the invalid list.
    if let Some((i, c)) = first_bad {
        out.push(internal(
            "spec.podCIDRs",
            &format!(
                "invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[{i}]: <nil> ({})",
                cidr_parse_error(c)
            ),
        ));
    }
    let dual = nets.len() == 2 && nets[0].addr().is_ipv4() != nets[1].addr().is_ipv4();
    if first_bad.is_some() || list.len() > 2 || !dual {
        out.push(invalid_shown(
            "spec.podCIDRs",
            &go_strings(list),
            "may specify no more than one CIDR for each IP family",
        ));
    }
}

/// The legacy taint and avoid-pods annotations.
fn legacy_annotations(o: &Value, out: &mut Vec<StatusCause>) {
    let annotations = o
        .pointer("/metadata/annotations")
        .and_then(Value::as_object);
    node_annotations::check(annotations, taints, out);
}

fn spec_taints(o: &Value, out: &mut Vec<StatusCause>) {
    let list = arr(o.get("spec").unwrap_or(&Value::Null), "taints");
    taints(list, "metadata.taints", out);
}

/// The checks of a node as created.
fn node_once(o: &Value, out: &mut Vec<StatusCause>) {
    legacy_annotations(o, out);
    spec_taints(o, out);
    resources(o, out);
    if let Some(n) = o
        .pointer("/status/nodeInfo/swap/capacity")
        .and_then(Value::as_i64)
    {
        if n <= 0 {
            out.push(invalid_int(
                "metadata.nodeSwapStatus.capacity",
                n,
                "must be greater than zero",
            ));
        }
    }
    pod_cidrs(o, out);
}

/// A Node.
pub(crate) fn node(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    node_once(o, &mut out);
    let Some(old) = old else {
        return out;
    };
    legacy_annotations(o, &mut out);
    resources(o, &mut out);
    let mut seen = BTreeSet::new();
    for (i, a) in arr(o.get("status").unwrap_or(&Value::Null), "addresses")
        .iter()
        .enumerate()
    {
        let (t, addr) = (s(a, "type").unwrap_or(""), s(a, "address").unwrap_or(""));
        if !seen.insert((t, addr)) {
            out.push(StatusCause {
                reason: "FieldValueDuplicate".into(),
                message: format!(
                    "Duplicate value: core.NodeAddress{{Type:{}, Address:{}}}",
                    quote(t),
                    quote(addr)
                ),
                field: format!("status.addresses[{i}]"),
            });
        }
    }
    let cidrs = |v: &Value| arr(v.get("spec").unwrap_or(&Value::Null), "podCIDRs").to_vec();
    let (before, now) = (cidrs(old), cidrs(o));
    if !before.is_empty() {
        const MSG: &str = "node updates may not change podCIDR except from \"\" to valid";
        if before.len() != now.len() {
            out.push(forbidden("spec.podCIDRs", MSG));
        } else {
            for _ in before.iter().zip(&now).filter(|(a, b)| a != b) {
                out.push(forbidden("spec.podCIDRs", MSG));
            }
        }
    }
    let text = |v: &Value, p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let provider = text(old, "/spec/providerID");
    if !provider.is_empty() && provider != text(o, "/spec/providerID") {
        out.push(forbidden(
            "spec.providerID",
            "node updates may not change providerID except from \"\" to valid",
        ));
    }
    spec_taints(o, &mut out);
    if text(old, "/spec/externalID") != text(o, "/spec/externalID") {
        out.push(forbidden("spec.externalID", "may not be updated"));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validation::causes::messages;

    #[test]
    fn taints_resources_and_cidrs() {
        let n = json!({"spec": {"taints": [
            {"key": "k", "value": "v", "effect": "NoSchedule"},
            {"key": "k", "value": "w", "effect": "NoSchedule"},
            {"key": "bad key", "value": "bad value", "effect": ""},
        ], "podCIDRs": ["10.0.0.0/24", "10.1.0.0/24"]},
        "status": {"capacity": {"cpu": "-1", "pods": "1.5"}, "nodeInfo": {"swap": {"capacity": 0}}}});
        let got = messages(&node(&n, None));
        assert_eq!(got[0], "metadata.taints[1]: Duplicate value: core.Taint{Key:\"k\", Value:\"w\", Effect:\"NoSchedule\", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair");
        assert!(got[1].starts_with(
            "metadata.taints[2].key: Invalid value: \"bad key\": name part must consist of"
        ));
        assert!(got[2].starts_with(
            "metadata.taints[2].value: Invalid value: \"bad value\": a valid label must be"
        ));
        assert_eq!(got[3..], [
            "metadata.taints[2].effect: Required value".to_owned(),
            "status.capacity.cpu: Invalid value: \"-1\": must be greater than or equal to 0".to_owned(),
            format!("status.capacity.pods: Invalid value: {}: must be an integer", crate::validation::limits::go_quantity("1.5")),
            "metadata.nodeSwapStatus.capacity: Invalid value: 0: must be greater than zero".to_owned(),
            "spec.podCIDRs: Invalid value: []string{\"10.0.0.0/24\", \"10.1.0.0/24\"}: may specify no more than one CIDR for each IP family".to_owned(),
        ]);
    }

    #[test]
    fn a_bad_cidr_among_several_is_also_an_internal_error() {
        let n = json!({"spec": {"podCIDRs": ["10.0.0.0/24", "foo", "bar"]}});
        assert_eq!(messages(&node(&n, None)), [
            format!("spec.podCIDRs[1]: Invalid value: \"foo\": {CIDR_MSG}"),
            format!("spec.podCIDRs[2]: Invalid value: \"bar\": {CIDR_MSG}"),
            "spec.podCIDRs: Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[1]: <nil> (invalid CIDR address: foo)".to_owned(),
            "spec.podCIDRs: Invalid value: []string{\"10.0.0.0/24\", \"foo\", \"bar\"}: may specify no more than one CIDR for each IP family".to_owned(),
        ]);
        let one = json!({"spec": {"podCIDRs": ["foo"]}});
        assert_eq!(
            messages(&node(&one, None)).len(),
            1,
            "one CIDR: no dual-stack check"
        );
    }

    #[test]
    fn legacy_taints_come_first_and_are_checked_on_update_too() {
        let n = json!({"metadata": {"annotations": {
            "scheduler.alpha.kubernetes.io/taints": r#"[{"key":"k","effect":"NoSchedule"},{"key":"k","effect":"NoSchedule","timeAdded":"2024-01-01T00:00:00Z"}]"#,
        }}, "spec": {"taints": [{"key": "a"}]}});
        let created = messages(&node(&n, None));
        assert_eq!(created, [
            "metadata.annotations.scheduler.alpha.kubernetes.io/taints[1]: Duplicate value: core.Taint{Key:\"k\", Value:\"\", Effect:\"NoSchedule\", TimeAdded:(*v1.Time)(0xc000000000)}: taints must be unique by key and effect pair",
            "metadata.taints[0].effect: Required value",
        ]);
        let updated = messages(&node(&n, Some(&n)));
        assert_eq!(updated.len(), 4, "{updated:?}");
        assert_eq!(updated[2], created[0]);
    }

    #[test]
    fn updates_keep_cidrs_provider_and_external_id() {
        let old = json!({"spec": {"podCIDRs": ["10.0.0.0/24"], "providerID": "aws://a", "externalID": "x"}});
        assert!(node(&old, Some(&old)).is_empty());
        let new = json!({"spec": {"podCIDRs": ["10.0.1.0/24"], "providerID": "aws://b"},
            "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.1"}, {"type": "InternalIP", "address": "10.0.0.1"}]}});
        assert_eq!(messages(&node(&new, Some(&old))), [
            "status.addresses[1]: Duplicate value: core.NodeAddress{Type:\"InternalIP\", Address:\"10.0.0.1\"}",
            "spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid",
            "spec.providerID: Forbidden: node updates may not change providerID except from \"\" to valid",
            "spec.externalID: Forbidden: may not be updated",
        ]);
        let unset = json!({"spec": {}});
        assert!(
            node(&new.clone(), Some(&unset)).len() == 1,
            "from unset, only the duplicate address"
        );
    }

    #[test]
    fn removed_kubelet_config_is_cleared() {
        let sent = serde_json::json!({"spec": {"configSource": {"configMap": {}}, "unschedulable": true},
            "status": {"config": {"active": {}}, "phase": "Running"}});
        let mut created = sent.clone();
        node_prepare(&mut created, None, "");
        assert_eq!(
            created,
            serde_json::json!({"spec": {"unschedulable": true}, "status": {"phase": "Running"}})
        );
        let mut kept = sent.clone();
        node_prepare(&mut kept, Some(&sent), "status");
        assert_eq!(kept, sent);
    }
}
