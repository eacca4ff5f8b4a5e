//! What kube-apiserver 1.33 does to a Service update before validating it, so that
//! clients need no read-modify-write cycle for what the server chose and a change of
//! `type` does not trip over fields the old type needed: the REST layer's
//! `patchAllocatedValues` (an omitted cluster IP is the old one) and
//! `normalizeClusterIPs` (`clusterIP` and `clusterIPs` kept in step), then the strategy's
//! `dropTypeDependentFields` (fields the new type has no use for are cleared when the
//! client left them as they were). Node ports left out are matched to the old ones by the
//! allocator hook (`services.rs`).

use serde_json::{json, Map, Value};

fn spec(o: &Value) -> &Value {
    o.get("spec").unwrap_or(&Value::Null)
}

fn text<'a>(o: &'a Value, field: &str) -> &'a str {
    spec(o).get(field).and_then(Value::as_str).unwrap_or("")
}

fn ty(o: &Value) -> &str {
    match text(o, "type") {
        "" => "ClusterIP",
        t => t,
    }
}

fn needs_cluster_ip(o: &Value) -> bool {
    ty(o) != "ExternalName"
}

fn needs_node_port(o: &Value) -> bool {
    matches!(ty(o), "NodePort" | "LoadBalancer")
}

fn needs_health_check_port(o: &Value) -> bool {
    ty(o) == "LoadBalancer" && text(o, "externalTrafficPolicy") == "Local"
}

/// Upstream's ExternallyAccessible: a load balancer or node port, or a cluster IP service
/// with external IPs.
fn externally_accessible(o: &Value) -> bool {
    needs_node_port(o)
        || (ty(o) == "ClusterIP"
            && spec(o)
                .get("externalIPs")
                .and_then(Value::as_array)
                .is_some_and(|l| !l.is_empty()))
}

fn cluster_ips(o: &Value) -> &[Value] {
    spec(o)
        .get("clusterIPs")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn same(old: &Value, new: &Value, field: &str) -> bool {
    spec(old).get(field) == spec(new).get(field)
}

/// The strategy's sameClusterIPs: singular and list alike.
fn same_cluster_ips(old: &Value, new: &Value) -> bool {
    text(old, "clusterIP") == text(new, "clusterIP") && same_ip_lists(old, new)
}

/// The node ports a service's ports hold.
fn node_ports(o: &Value) -> Vec<i64> {
    spec(o)
        .get("ports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("nodePort").and_then(Value::as_i64))
        .filter(|n| *n != 0)
        .collect()
}

fn spec_mut(o: &mut Value) -> Option<&mut Map<String, Value>> {
    o.get_mut("spec").and_then(Value::as_object_mut)
}

/// The update of `o` over `old`, as upstream settles it before validation.
pub(crate) fn settle(o: &mut Value, old: &Value) {
    patch_allocated_ips(o, old);
    normalize_cluster_ips(o, old);
    drop_type_dependent_fields(o, old);
}

/// An omitted cluster IP (or IP list) is the one the service has, while both types
/// need one.
fn patch_allocated_ips(o: &mut Value, old: &Value) {
    if !(needs_cluster_ip(old) && needs_cluster_ip(o)) {
        return;
    }
    let (ip, ips) = (text(old, "clusterIP").to_owned(), cluster_ips(old).to_vec());
    let empty_ips = cluster_ips(o).is_empty();
    let Some(spec) = spec_mut(o) else { return };
    if spec
        .get("clusterIP")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty()
        && !ip.is_empty()
    {
        spec.insert("clusterIP".into(), json!(ip));
    }
    if empty_ips && !ips.is_empty() {
        spec.insert("clusterIPs".into(), Value::Array(ips));
    }
}

/// `clusterIPs` follows a changed `clusterIP` when the client left the list as it was.
fn normalize_cluster_ips(o: &mut Value, old: &Value) {
    let (old_ip, new_ip) = (
        text(old, "clusterIP").to_owned(),
        text(o, "clusterIP").to_owned(),
    );
    if !cluster_ips(old).is_empty() && cluster_ips(o).is_empty() && old_ip == new_ip {
        let ips = cluster_ips(old).to_vec();
        if let Some(spec) = spec_mut(o) {
            spec.insert("clusterIPs".into(), Value::Array(ips));
        }
    }
    if old_ip == new_ip || !same_ip_lists(old, o) {
        return;
    }
    let Some(spec) = spec_mut(o) else { return };
    if !old_ip.is_empty() && new_ip.is_empty() {
        spec.remove("clusterIPs");
    } else {
        spec.insert("clusterIPs".into(), json!([new_ip]));
    }
}

/// Whether the IP lists are alike (the REST layer's sameClusterIPs, unlike the
/// strategy's, ignores the singular field).
fn same_ip_lists(old: &Value, new: &Value) -> bool {
    cluster_ips(old) == cluster_ips(new)
}

fn drop_type_dependent_fields(o: &mut Value, old: &Value) {
    let mut clear: Vec<&str> = Vec::new();
    if needs_cluster_ip(old) && !needs_cluster_ip(o) {
        if same_cluster_ips(old, o) {
            clear.extend(["clusterIP", "clusterIPs"]);
        }
        if same(old, o, "ipFamilies") {
            clear.push("ipFamilies");
        }
        if same(old, o, "ipFamilyPolicy") {
            clear.push("ipFamilyPolicy");
        }
    }
    let new_ports = node_ports(o);
    let drop_node_ports = needs_node_port(old)
        && !needs_node_port(o)
        && new_ports.iter().all(|p| node_ports(old).contains(p));
    if needs_health_check_port(old)
        && !needs_health_check_port(o)
        && same(old, o, "healthCheckNodePort")
    {
        clear.push("healthCheckNodePort");
    }
    if ty(old) == "LoadBalancer" && ty(o) != "LoadBalancer" {
        let (a, b) = (
            spec(old).get("allocateLoadBalancerNodePorts"),
            spec(o).get("allocateLoadBalancerNodePorts"),
        );
        if a.is_some_and(|a| !a.is_null()) && a == b {
            clear.push("allocateLoadBalancerNodePorts");
        }
        if same(old, o, "loadBalancerClass") {
            clear.push("loadBalancerClass");
        }
    }
    if externally_accessible(old)
        && !externally_accessible(o)
        && same(old, o, "externalTrafficPolicy")
    {
        clear.push("externalTrafficPolicy");
    }
    let not_lb = ty(o) != "LoadBalancer";
    if let Some(spec) = spec_mut(o) {
        for field in clear {
            spec.remove(field);
        }
        if drop_node_ports {
            for port in spec
                .get_mut("ports")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(p) = port.as_object_mut() {
                    p.remove("nodePort");
                }
            }
        }
    }
    if not_lb && o.get("status").is_some() {
        o["status"]["loadBalancer"] = json!({});
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svc(spec: Value) -> Value {
        json!({"spec": spec, "status": {"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}]}}})
    }

    #[test]
    fn an_omitted_or_changed_cluster_ip_settles_as_upstreams() {
        let old =
            svc(json!({"type": "ClusterIP", "clusterIP": "10.0.0.5", "clusterIPs": ["10.0.0.5"]}));
        let mut kept = svc(json!({"type": "ClusterIP"}));
        settle(&mut kept, &old);
        assert_eq!(kept["spec"]["clusterIP"], "10.0.0.5");
        assert_eq!(kept["spec"]["clusterIPs"], json!(["10.0.0.5"]));
        let mut moved =
            svc(json!({"type": "ClusterIP", "clusterIP": "10.0.0.9", "clusterIPs": ["10.0.0.5"]}));
        settle(&mut moved, &old);
        assert_eq!(
            moved["spec"]["clusterIPs"],
            json!(["10.0.0.9"]),
            "validation sees the new IP"
        );
    }

    #[test]
    fn a_new_type_drops_what_it_has_no_use_for() {
        let old = svc(
            json!({"type": "LoadBalancer", "clusterIP": "10.0.0.5", "clusterIPs": ["10.0.0.5"],
            "ports": [{"port": 80, "nodePort": 30080}], "externalTrafficPolicy": "Local",
            "healthCheckNodePort": 31000, "allocateLoadBalancerNodePorts": true,
            "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack"}),
        );
        let mut to_cluster_ip = old.clone();
        to_cluster_ip["spec"]["type"] = json!("ClusterIP");
        settle(&mut to_cluster_ip, &old);
        assert_eq!(
            to_cluster_ip,
            json!({"spec": {"type": "ClusterIP", "clusterIP": "10.0.0.5", "clusterIPs": ["10.0.0.5"],
                "ports": [{"port": 80}], "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack"},
                "status": {"loadBalancer": {}}})
        );
        let mut to_external = old.clone();
        to_external["spec"]["type"] = json!("ExternalName");
        to_external["spec"]["externalName"] = json!("example.com");
        settle(&mut to_external, &old);
        assert_eq!(
            to_external["spec"],
            json!({"type": "ExternalName", "externalName": "example.com", "ports": [{"port": 80}]})
        );
        // A node port the client changed stays (and validation refuses it).
        let mut changed = old.clone();
        changed["spec"]["type"] = json!("ClusterIP");
        changed["spec"]["ports"][0]["nodePort"] = json!(30099);
        settle(&mut changed, &old);
        assert_eq!(changed["spec"]["ports"][0]["nodePort"], 30099);
    }
}
