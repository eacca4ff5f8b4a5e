//! A container's resource requirements, and a pod's overhead, as kube-apiserver 1.33
//! validates them (`validateResourceRequirements`; facts in
//! /work/notes/validation-spec-7.md §7.10): container resource names, non-negative and
//! (for integer resources) whole quantities, hugepages in whole pages, requests within
//! limits — equal to them for resources that cannot be overcommitted (extended
//! resources, hugepages) — and hugepages only beside cpu or memory.
//!
//! Upstream walks Go maps here, so its causes come in no fixed order per map; these come
//! in resource-name order.

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

use super::causes::{forbidden, invalid, required};
use super::limits::{container_resource_name, quantity_value};
use super::quantity;

fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// Native resources other than hugepages may be requested below their limit.
fn overcommits(name: &str) -> bool {
    (!name.contains('/') || name.contains("kubernetes.io/")) && !is_hugepages(name)
}

/// A quantity as upstream prints it (`Quantity.String()`: canonical).
fn shown(text: &str) -> String {
    kas_schema::quantity::canonical(text).unwrap_or_else(|| text.to_owned())
}

/// Whether a hugepages quantity is a whole number of its pages.
fn whole_pages(name: &str, n: f64) -> bool {
    let page = name
        .strip_prefix("hugepages-")
        .and_then(quantity::parse)
        .filter(|p| *p > 0.0 && p.fract() == 0.0);
    page.is_some_and(|p| n.ceil() % p == 0.0)
}

fn sorted(map: Option<&Map<String, Value>>) -> Vec<(&String, &Value)> {
    let mut pairs: Vec<_> = map.into_iter().flatten().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    pairs
}

/// One quantity's own rules at `at`: its name, its value, whole hugepages.
fn entry(name: &str, v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    out.extend(container_resource_name(name, at));
    out.extend(quantity_value(name, v, at));
}

fn hugepages(name: &str, v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if !is_hugepages(name) {
        return;
    }
    if let Some((text, n)) = quantity::of(v) {
        if !whole_pages(name, n) {
            let q = shown(&text);
            out.push(invalid(
                at,
                &q,
                &format!("{q} is not positive integer multiple of {name}"),
            ));
        }
    }
}

/// The requirements `res` (`{limits, requests}`) at `at`.
pub(super) fn requirements(res: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let (lp, rp) = (format!("{at}.limits"), format!("{at}.requests"));
    let limits = res.get("limits").and_then(Value::as_object);
    let requests = res.get("requests").and_then(Value::as_object);
    let mut compute = false;
    let mut huge = false;
    for (name, v) in sorted(limits) {
        let kp = format!("{lp}[{name}]");
        entry(name, v, &kp, out);
        hugepages(name, v, &kp, out);
        huge |= is_hugepages(name);
        compute |= matches!(name.as_str(), "cpu" | "memory");
    }
    for (name, v) in sorted(requests) {
        let kp = format!("{rp}[{name}]");
        entry(name, v, &kp, out);
        let limit = limits.and_then(|l| l.get(name)).and_then(quantity::of);
        match (quantity::of(v), limit) {
            (Some((text, n)), Some((ltext, l))) => {
                let (q, lq) = (shown(&text), shown(&ltext));
                if n != l && !overcommits(name) {
                    out.push(invalid(
                        &rp,
                        &q,
                        &format!("must be equal to {name} limit of {lq}"),
                    ));
                } else if n > l {
                    out.push(invalid(
                        &rp,
                        &q,
                        &format!("must be less than or equal to {name} limit of {lq}"),
                    ));
                }
            }
            (_, None) if !overcommits(name) => out.push(required(
                &lp,
                "Limit must be set for non overcommitable resources",
            )),
            _ => {}
        }
        hugepages(name, v, &kp, out);
        huge |= is_hugepages(name);
        compute |= matches!(name.as_str(), "cpu" | "memory");
    }
    if huge && !compute {
        out.push(forbidden(at, "HugePages require cpu or memory"));
    }
}

/// A container's `resources` at `cp.resources`.
pub(super) fn container(c: &Value, cp: &str, out: &mut Vec<StatusCause>) {
    if let Some(res) = c.get("resources").filter(|r| r.is_object()) {
        requirements(res, &format!("{cp}.resources"), out);
    }
}

/// A pod's `overhead`, checked as a container's limits at `p.overhead`.
pub(super) fn overhead(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    if let Some(o) = spec.get("overhead").filter(|o| o.is_object()) {
        let res = serde_json::json!({ "limits": o });
        requirements(&res, &format!("{p}.overhead"), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    fn check(res: Value) -> Vec<String> {
        let mut out = Vec::new();
        requirements(&res, "c.resources", &mut out);
        messages(&out)
    }

    #[test]
    fn requirements_follow_upstream() {
        assert_eq!(
            check(json!({"limits": {"cpu": "500m"}, "requests": {"cpu": "1"}})),
            ["c.resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m"]
        );
        assert_eq!(
            check(json!({"limits": {"foo": "1"}})),
            [
                "c.resources.limits[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
                "c.resources.limits[foo]: Invalid value: \"foo\": must be a standard resource for containers",
            ]
        );
        assert_eq!(
            check(json!({"requests": {"example.com/gpu": "1"}})),
            ["c.resources.limits: Required value: Limit must be set for non overcommitable resources"]
        );
        assert_eq!(
            check(json!({"limits": {"hugepages-2Mi": "3Mi"}})),
            [
                "c.resources.limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of hugepages-2Mi",
                "c.resources: Forbidden: HugePages require cpu or memory",
            ]
        );
        assert_eq!(
            check(json!({"limits": {"example.com/gpu": "2"}, "requests": {"example.com/gpu": "1"}})),
            ["c.resources.requests: Invalid value: \"1\": must be equal to example.com/gpu limit of 2"]
        );
        assert_eq!(
            check(json!({"limits": {"example.com/gpu": "500m", "cpu": "-1"}})),
            [
                "c.resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
                "c.resources.limits[example.com/gpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"500m\", Format:\"DecimalSI\"}: must be an integer",
            ]
        );
        assert!(
            check(json!({"limits": {"hugepages-2Mi": "4Mi", "memory": "1Gi"},
            "requests": {"hugepages-2Mi": "4Mi", "cpu": "1"}}))
            .is_empty()
        );
    }
}
