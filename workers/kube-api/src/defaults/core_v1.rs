//! Defaults of smaller core/v1 resources: Services, Secrets (type, `stringData` folded
//! into `data`), Namespaces, Nodes and LimitRanges; with the base64 both Secret steps
//! need.

use serde_json::{json, Map, Value};

use super::{each, entry, set};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 (padding optional); `None` when malformed.
pub(crate) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let body = s.trim_end_matches('=');
    if s.len() - body.len() > 2 || body.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in body.bytes() {
        let v = B64.iter().position(|b| *b == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// core/v1 Service. The cluster IP and node ports are the store's to allocate.
pub(crate) fn service_defaults(obj: &mut Value) {
    let Some(spec) = entry(obj, "spec", json!({})).filter(|s| s.is_object()) else {
        return;
    };
    set(spec, "type", json!("ClusterIP"));
    set(spec, "sessionAffinity", json!("None"));
    if spec["sessionAffinity"] == "None" {
        if let Some(m) = spec.as_object_mut() {
            m.remove("sessionAffinityConfig");
        }
    }
    if spec["sessionAffinity"] == "ClientIP" {
        let cfg = entry(spec, "sessionAffinityConfig", json!({}));
        if let Some(client) = cfg
            .filter(|c| c.is_object())
            .and_then(|c| entry(c, "clientIP", json!({})))
        {
            if client.is_object() {
                entry(client, "timeoutSeconds", json!(10800));
            }
        }
    }
    let ty = spec["type"].as_str().unwrap_or("").to_owned();
    for port in each(spec, "ports") {
        set(port, "protocol", json!("TCP"));
        let target = port.get("targetPort");
        if target.is_none_or(|t| t.is_null() || t.as_i64() == Some(0) || t.as_str() == Some("")) {
            let p = port.get("port").cloned().unwrap_or(Value::Null);
            if let Some(m) = port.as_object_mut() {
                m.insert("targetPort".into(), p);
            }
        }
    }
    if ty == "NodePort" || ty == "LoadBalancer" {
        set(spec, "externalTrafficPolicy", json!("Cluster"));
    }
    if ty == "LoadBalancer" {
        entry(spec, "allocateLoadBalancerNodePorts", json!(true));
    }
    // A load balancer's ingress IPs are virtual unless said otherwise (LoadBalancerIPMode,
    // GA in 1.32).
    if ty == "LoadBalancer" {
        if let Some(ingress) = obj
            .pointer_mut("/status/loadBalancer/ingress")
            .and_then(Value::as_array_mut)
        {
            for ing in ingress.iter_mut().filter(|i| {
                i.get("ip")
                    .and_then(Value::as_str)
                    .is_some_and(|ip| !ip.is_empty())
            }) {
                entry(ing, "ipMode", json!("VIP"));
            }
        }
    }
    let Some(spec) = obj.get_mut("spec") else {
        return;
    };
    if ty != "ExternalName" {
        set(spec, "internalTrafficPolicy", json!("Cluster"));
    }
}

/// The IP families of a Service that has none, as upstream's service REST layer sets
/// them after defaulting (so they are not fields the writer manages): one stack of the
/// cluster's family, or both for a headless Service without a selector.
pub(crate) fn service_ip_families(obj: &mut Value) {
    let ty = obj
        .pointer("/spec/type")
        .and_then(Value::as_str)
        .unwrap_or("");
    if ty == "ExternalName" {
        return;
    }
    let Some(spec) = obj.get_mut("spec").filter(|s| s.is_object()) else {
        return;
    };
    let headless = spec.get("clusterIP").and_then(Value::as_str) == Some("None");
    let selector = spec
        .get("selector")
        .and_then(Value::as_object)
        .is_some_and(|s| !s.is_empty());
    let policy = if headless && !selector {
        "RequireDualStack"
    } else {
        "SingleStack"
    };
    set(spec, "ipFamilyPolicy", json!(policy));
    if spec
        .get("ipFamilies")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
    {
        spec["ipFamilies"] = json!(["IPv4"]);
    }
    // A headless service without a selector names both families unless it asks
    // for one stack, even on a single-stack cluster (upstream's alloc.go special
    // case: its endpoints are whatever its owner puts there).
    let single = spec.get("ipFamilyPolicy").and_then(Value::as_str) == Some("SingleStack");
    if headless && !selector && !single {
        if let Some(families) = spec.get_mut("ipFamilies").and_then(Value::as_array_mut) {
            if families.len() == 1 {
                let other = if families[0] == "IPv4" {
                    "IPv6"
                } else {
                    "IPv4"
                };
                families.push(json!(other));
            }
        }
    }
}

/// core/v1 Secret: type Opaque, and `stringData` moved into `data` (base64), winning over
/// a `data` key of the same name, as upstream's conversion does.
pub(crate) fn secret_defaults(obj: &mut Value) {
    if !obj.is_object() {
        return;
    }
    set(obj, "type", json!("Opaque"));
    let Some(Value::Object(string_data)) = obj.as_object_mut().and_then(|m| m.remove("stringData"))
    else {
        return;
    };
    let data = entry(obj, "data", json!({}));
    let Some(data) = data.and_then(Value::as_object_mut) else {
        return;
    };
    for (k, v) in string_data {
        let text = match v {
            Value::String(s) => s,
            other => other.to_string(),
        };
        data.insert(k, json!(base64_encode(text.as_bytes())));
    }
}

/// core/v1 Endpoints: every port's protocol is TCP unless set.
pub(crate) fn endpoints_defaults(obj: &mut Value) {
    for subset in each(obj, "subsets") {
        for port in each(subset, "ports") {
            set(port, "protocol", json!("TCP"));
        }
    }
}

/// discovery.k8s.io/v1 EndpointSlice: ports get protocol TCP and an empty name.
pub(crate) fn endpointslice_defaults(obj: &mut Value) {
    for port in each(obj, "ports") {
        set(port, "protocol", json!("TCP"));
        entry(port, "name", json!(""));
    }
}

/// core/v1 Namespace: phase Active. (The `kubernetes` finalizer is the strategy's, on
/// create: `namespace_prepare`.)
pub(crate) fn namespace_defaults(obj: &mut Value) {
    if let Some(status) = entry(obj, "status", Value::Object(Map::new())).filter(|s| s.is_object())
    {
        set(status, "phase", json!("Active"));
    }
}

/// core/v1 Node: allocatable is the capacity when unset.
pub(crate) fn node_defaults(obj: &mut Value) {
    let Some(status) = obj.get_mut("status").filter(|s| s.is_object()) else {
        return;
    };
    for list in ["capacity", "allocatable"] {
        super::resource_list(status.get_mut(list));
    }
    let capacity = status.get("capacity").and_then(Value::as_object).cloned();
    if let Some(capacity) = capacity.filter(|c| !c.is_empty()).map(Value::Object) {
        entry(status, "allocatable", capacity);
    }
}

/// core/v1 LimitRange: a Container item's default limit falls back to its max, its
/// default request to the default limit, then to its min.
pub(crate) fn limit_range_defaults(obj: &mut Value) {
    let Some(spec) = obj.get_mut("spec") else {
        return;
    };
    for item in each(spec, "limits") {
        if item.get("type").and_then(Value::as_str) != Some("Container") {
            continue;
        }
        // An empty map is left out, as Go's encoding omits it.
        let fill = |item: &mut Value, to: &str, from: &str| {
            let from = item.get(from).and_then(Value::as_object).cloned();
            let Some(from) = from.filter(|f| !f.is_empty()) else {
                return;
            };
            let Some(to) = entry(item, to, json!({})).and_then(Value::as_object_mut) else {
                return;
            };
            for (k, v) in from {
                to.entry(k).or_insert(v);
            }
        };
        fill(item, "default", "max");
        fill(item, "defaultRequest", "default");
        fill(item, "defaultRequest", "min");
    }
    for item in each(spec, "limits") {
        for list in [
            "max",
            "min",
            "default",
            "defaultRequest",
            "maxLimitRequestRatio",
        ] {
            super::resource_list(item.get_mut(list));
        }
    }
}

/// core/v1 ResourceQuota: its quantities rounded up to thousandths.
pub(crate) fn resource_quota_defaults(obj: &mut Value) {
    for p in ["/spec/hard", "/status/hard", "/status/used"] {
        super::resource_list(obj.pointer_mut(p));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64() {
        for (plain, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(plain.as_bytes()), enc);
            assert_eq!(base64_decode(enc).as_deref(), Some(plain.as_bytes()));
        }
        assert_eq!(base64_decode("Zg").as_deref(), Some(&b"f"[..]));
        assert!(base64_decode("Z").is_none());
        assert!(base64_decode("Z!==").is_none());
        assert!(base64_decode("Zg===").is_none());
    }

    #[test]
    fn services() {
        let mut s = json!({"spec": {"ports": [{"port": 80}, {"port": 81, "targetPort": "http", "protocol": "UDP"}], "selector": {"a": "b"}}});
        service_defaults(&mut s);
        service_ip_families(&mut s);
        let once = s.clone();
        service_defaults(&mut s);
        service_ip_families(&mut s);
        assert_eq!(s, once);
        assert_eq!(
            s["spec"],
            json!({
                "type": "ClusterIP", "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
                "ipFamilyPolicy": "SingleStack", "ipFamilies": ["IPv4"], "selector": {"a": "b"},
                "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}, {"port": 81, "targetPort": "http", "protocol": "UDP"}]
            })
        );
        let mut lb = json!({"spec": {"type": "LoadBalancer", "sessionAffinity": "ClientIP"}});
        service_defaults(&mut lb);
        service_ip_families(&mut lb);
        assert_eq!(lb["spec"]["externalTrafficPolicy"], "Cluster");
        assert_eq!(lb["spec"]["allocateLoadBalancerNodePorts"], true);
        assert_eq!(
            lb["spec"]["sessionAffinityConfig"],
            json!({"clientIP": {"timeoutSeconds": 10800}})
        );
        let mut none =
            json!({"spec": {"sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 5}}}});
        service_defaults(&mut none);
        service_ip_families(&mut none);
        assert!(none["spec"].get("sessionAffinityConfig").is_none());
        let mut en = json!({"spec": {"type": "ExternalName", "externalName": "x.example"}});
        service_defaults(&mut en);
        service_ip_families(&mut en);
        assert!(en["spec"].get("internalTrafficPolicy").is_none());
        let mut headless = json!({"spec": {"clusterIP": "None"}});
        service_defaults(&mut headless);
        service_ip_families(&mut headless);
        assert_eq!(headless["spec"]["ipFamilyPolicy"], "RequireDualStack");
        assert_eq!(headless["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
        let mut single = json!({"spec": {"clusterIP": "None", "ipFamilyPolicy": "SingleStack"}});
        service_defaults(&mut single);
        service_ip_families(&mut single);
        assert_eq!(single["spec"]["ipFamilies"], json!(["IPv4"]));
        let mut selected = json!({"spec": {"clusterIP": "None", "selector": {"a": "b"}}});
        service_defaults(&mut selected);
        service_ip_families(&mut selected);
        assert_eq!(selected["spec"]["ipFamilies"], json!(["IPv4"]));
        for mut v in [
            json!(null),
            json!({"spec": 1}),
            json!({"spec": {"ports": [1], "sessionAffinity": "ClientIP", "sessionAffinityConfig": 2}}),
        ] {
            service_defaults(&mut v);
            service_ip_families(&mut v);
            secret_defaults(&mut v);
            namespace_defaults(&mut v);
        }
    }

    #[test]
    fn secrets_and_namespaces() {
        let mut s =
            json!({"data": {"a": "eA==", "b": "eA=="}, "stringData": {"b": "hi", "c": "foo"}});
        secret_defaults(&mut s);
        assert_eq!(
            s,
            json!({"type": "Opaque", "data": {"a": "eA==", "b": "aGk=", "c": "Zm9v"}})
        );
        let mut s = json!({"type": "kubernetes.io/tls"});
        secret_defaults(&mut s);
        assert_eq!(s["type"], "kubernetes.io/tls");
        let mut ep = json!({"subsets": [{"ports": [{"port": 1}]}]});
        endpoints_defaults(&mut ep);
        assert_eq!(ep["subsets"][0]["ports"][0]["protocol"], "TCP");
        let mut sl = json!({"ports": [{"port": 1}, 5]});
        endpointslice_defaults(&mut sl);
        assert_eq!(
            sl["ports"][0],
            json!({"port": 1, "protocol": "TCP", "name": ""})
        );
        endpoints_defaults(&mut json!({"subsets": [1, {"ports": 2}]}));
        let mut node = json!({"status": {"capacity": {"cpu": "2"}}});
        node_defaults(&mut node);
        assert_eq!(node["status"]["allocatable"], json!({"cpu": "2"}));
        let mut lr = json!({"spec": {"limits": [
            {"type": "Container", "max": {"cpu": "2", "memory": "1Gi"}, "min": {"cpu": "100m", "ephemeral-storage": "1Gi"}, "default": {"memory": "512Mi"}},
            {"type": "Pod", "max": {"cpu": "4"}}, 7
        ]}});
        limit_range_defaults(&mut lr);
        assert_eq!(
            lr["spec"]["limits"][0]["default"],
            json!({"cpu": "2", "memory": "512Mi"})
        );
        assert_eq!(
            lr["spec"]["limits"][0]["defaultRequest"],
            json!({"cpu": "2", "memory": "512Mi", "ephemeral-storage": "1Gi"})
        );
        assert_eq!(
            lr["spec"]["limits"][1],
            json!({"type": "Pod", "max": {"cpu": "4"}})
        );
        let mut lr = json!({"spec": {"limits": [{"type": "Container"}]}});
        limit_range_defaults(&mut lr);
        assert_eq!(lr["spec"]["limits"][0], json!({"type": "Container"}));
        let mut ns = json!({"metadata": {"name": "n"}});
        namespace_defaults(&mut ns);
        assert_eq!(ns["spec"], Value::Null);
        assert_eq!(ns["status"], json!({"phase": "Active"}));
        let mut ns = json!({"spec": {"finalizers": []}, "status": {"phase": "Terminating"}});
        namespace_defaults(&mut ns);
        assert_eq!(
            ns,
            json!({"spec": {"finalizers": []}, "status": {"phase": "Terminating"}})
        );
    }
}
