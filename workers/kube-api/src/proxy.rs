//! Where the `proxy` subresources lead, as kube-apiserver 1.33 finds it: the object is
//! named `name`, `name:port` or `scheme:name:port` (utilnet's SplitSchemeNamePort);
//! `pods/proxy` goes to the pod's IP (a global unicast address only) and the port given
//! or the first container port, `services/proxy` to a ready endpoint of the Service (the
//! v1 Endpoints, as 1.33 reads them, each address checked against the pod it names),
//! `nodes/proxy` to the node's kubelet (its port over HTTPS with the kubelet client) or to
//! another port of the node. [`crate::proxy_forward`] then carries the request.

use std::net::IpAddr;

use kas_server::rest::RestStore;
use kas_server::status::{go_quote, Reason, Status};
use serde_json::Value;

use crate::kubelet::Kubelets;

/// The client of pods, services and nodes' other ports (upstream's proxy transport):
/// HTTP or HTTPS, the server's certificate not verified (the address is an IP), no
/// client certificate.
pub(crate) fn client() -> Result<kas_server::outbound::StreamClient, String> {
    kas_server::outbound::StreamClient::new(&kas_proto::WebhookClientConfig {
        file: "the proxy transport".into(),
        server: String::new(),
        ca_pem: None,
        insecure_skip_tls_verify: true,
        tls_server_name: None,
        client_cert_key_pem: None,
        bearer_token: None,
    })
}

/// Where a proxied request goes: `scheme://host[:port]`, and whether it is the node's
/// kubelet (reached with the kubelet client) or any other address (the proxy client:
/// TLS unverified, no client certificate).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Location {
    pub(crate) base: String,
    pub(crate) kubelet: bool,
}

/// `scheme:name:port` split as utilnet.SplitSchemeNamePort: one part is the name, two
/// are name and port, three scheme, name and port; the name must not be empty and the
/// scheme must be `http`, `https` or none.
pub(crate) fn split_id(id: &str) -> Option<(&str, &str, &str)> {
    let parts: Vec<&str> = id.split(':').collect();
    let (scheme, name, port) = match parts.as_slice() {
        [name] => ("", *name, ""),
        [name, port] => ("", *name, *port),
        [scheme, name, port] => (*scheme, *name, *port),
        _ => return None,
    };
    (!name.is_empty() && matches!(scheme, "" | "http" | "https")).then_some((scheme, name, port))
}

fn invalid_request(what: &str, id: &str) -> Status {
    Status::new(
        Reason::BadRequest,
        format!("invalid {what} request {}", go_quote(id)),
    )
}

/// Go's net.IP.IsGlobalUnicast: not unspecified, loopback, multicast, link-local or the
/// IPv4 broadcast address.
fn is_global_unicast(ip: IpAddr) -> bool {
    let link_local = match ip {
        IpAddr::V4(v4) => v4.is_link_local() || v4.is_broadcast(),
        IpAddr::V6(v6) => v6.is_unicast_link_local(),
    };
    !(ip.is_unspecified() || ip.is_loopback() || ip.is_multicast() || link_local)
}

/// `host:port` as Go's net.JoinHostPort (an IPv6 host in brackets); the host alone
/// (bracketed) when there is no port.
fn join_host_port(host: &str, port: &str) -> String {
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    if port.is_empty() {
        host
    } else {
        format!("{host}:{port}")
    }
}

fn with_scheme(scheme: &str, host: &str) -> String {
    let scheme = if scheme.is_empty() { "http" } else { scheme };
    format!("{scheme}://{host}")
}

fn str_at<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

fn array_at<'a>(v: &'a Value, p: &str) -> impl Iterator<Item = &'a Value> {
    v.pointer(p).and_then(Value::as_array).into_iter().flatten()
}

/// A pod's proxy location (upstream's pod ResourceLocation).
pub(crate) async fn pod(pods: &RestStore, ns: &str, id: &str) -> Result<Location, Status> {
    let (scheme, name, port) = split_id(id).ok_or_else(|| invalid_request("pod", id))?;
    let pod = pods.read_object(ns, name).await?;
    let default_port = array_at(&pod, "/spec/containers")
        .find_map(|c| c.pointer("/ports/0/containerPort").and_then(Value::as_i64));
    let port = match (port, default_port) {
        ("", Some(p)) => p.to_string(),
        (p, _) => p.to_owned(),
    };
    let ip = str_at(&pod, "/status/podIPs/0/ip");
    if !ip.parse().is_ok_and(is_global_unicast) {
        return Err(Status::new(Reason::BadRequest, "address not allowed"));
    }
    Ok(Location {
        base: with_scheme(scheme, &join_host_port(ip, &port)),
        kubelet: false,
    })
}

/// The stores a Service's proxy location is found with.
pub(crate) struct ServiceStores<'a> {
    pub(crate) services: &'a RestStore,
    pub(crate) endpoints: &'a RestStore,
    pub(crate) pods: &'a RestStore,
}

/// A Service's proxy location (upstream's service REST ResourceLocation): a numeric port
/// is the Service's port (its name is then looked for among the endpoints' ports), a
/// name is the endpoints' port name; a ready address is picked at random among those
/// whose target pod exists and has that IP.
pub(crate) async fn service(
    stores: &ServiceStores<'_>,
    ns: &str,
    id: &str,
) -> Result<Location, Status> {
    let (scheme, name, port) = split_id(id).ok_or_else(|| invalid_request("service", id))?;
    let mut port_name = port.to_owned();
    if let Ok(number) = port.parse::<i64>() {
        let svc = stores.services.read_object(ns, name).await?;
        let found = array_at(&svc, "/spec/ports")
            .find(|p| p.get("port").and_then(Value::as_i64) == Some(number))
            .ok_or_else(|| {
                Status::new(
                    Reason::ServiceUnavailable,
                    format!(
                        "no service port {number} found for service {}",
                        go_quote(name)
                    ),
                )
            })?;
        port_name = str_at(found, "/name").to_owned();
    }
    let endpoints = stores.endpoints.read_object(ns, name).await?;
    let subsets: Vec<&Value> = array_at(&endpoints, "/subsets").collect();
    let none_for = |what: &str| {
        Status::new(
            Reason::ServiceUnavailable,
            format!("no endpoints available for service {}", go_quote(what)),
        )
    };
    if subsets.is_empty() {
        return Err(none_for(name));
    }
    let start = crate::random_below(subsets.len() as u64) as usize;
    for i in 0..subsets.len() {
        let subset = subsets[(start + i) % subsets.len()];
        let addresses: Vec<&Value> = array_at(subset, "/addresses").collect();
        if addresses.is_empty() {
            continue;
        }
        for p in array_at(subset, "/ports").filter(|p| str_at(p, "/name") == port_name) {
            let target_port = p.get("port").and_then(Value::as_i64).unwrap_or(0);
            let first = crate::random_below(addresses.len() as u64) as usize;
            for j in 0..addresses.len() {
                let address = addresses[(first + j) % addresses.len()];
                if valid_address(stores.pods, ns, address).await {
                    let host = join_host_port(str_at(address, "/ip"), &target_port.to_string());
                    return Ok(Location {
                        base: with_scheme(scheme, &host),
                        kubelet: false,
                    });
                }
            }
        }
    }
    Err(none_for(id))
}

/// Whether an endpoint address may be proxied to (upstream's isValidAddress): it names a
/// pod of the namespace, and that pod has the address's IP.
async fn valid_address(pods: &RestStore, ns: &str, address: &Value) -> bool {
    let Some(target) = address.get("targetRef").filter(|t| t.is_object()) else {
        return false;
    };
    if str_at(target, "/namespace") != ns {
        return false;
    }
    let Ok(pod) = pods.read_object(ns, str_at(target, "/name")).await else {
        return false;
    };
    let ip = str_at(address, "/ip");
    let has_ip = array_at(&pod, "/status/podIPs").any(|p| str_at(p, "/ip") == ip);
    has_ip
}

/// A node's proxy location (upstream's node ResourceLocation): the kubelet's address, a
/// host whose every address is global unicast; the kubelet itself (HTTPS, the kubelet
/// client) when no port or the kubelet's port is asked for, else that port of the node.
pub(crate) async fn node(
    nodes: &RestStore,
    kubelets: &Kubelets,
    id: &str,
) -> Result<Location, Status> {
    let (scheme, name, port) = split_id(id).ok_or_else(|| invalid_request("node", id))?;
    let node = nodes.read_object("", name).await?;
    let (host, kubelet_port) = kubelets.host_and_port(&node)?;
    proxyable_hostname(&host).await?;
    if port.is_empty() || port == kubelet_port.to_string() {
        return Ok(Location {
            base: format!(
                "https://{}",
                join_host_port(&host, &kubelet_port.to_string())
            ),
            kubelet: true,
        });
    }
    Ok(Location {
        base: with_scheme(scheme, &join_host_port(&host, port)),
        kubelet: false,
    })
}

/// Every address `host` resolves to must be global unicast (upstream's
/// isProxyableHostname); a 400 otherwise.
async fn proxyable_hostname(host: &str) -> Result<(), Status> {
    let bad = |m: String| Status::new(Reason::BadRequest, m);
    let addresses: Vec<IpAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![ip],
        Err(_) => tokio::net::lookup_host((host, 0))
            .await
            .map_err(|e| bad(format!("lookup {host}: {e}")))?
            .map(|a| a.ip())
            .collect(),
    };
    if addresses.is_empty() {
        return Err(bad("no addresses for hostname".into()));
    }
    if addresses.iter().any(|ip| !is_global_unicast(*ip)) {
        return Err(bad("address not allowed".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_split_as_upstream() {
        assert_eq!(split_id("web"), Some(("", "web", "")));
        assert_eq!(split_id("web:8080"), Some(("", "web", "8080")));
        assert_eq!(split_id("web:"), Some(("", "web", "")));
        assert_eq!(split_id("https:web:tls"), Some(("https", "web", "tls")));
        assert_eq!(split_id("ftp:web:21"), None);
        assert_eq!(split_id(":80"), None);
        assert_eq!(split_id("a:b:c:d"), None);
        assert_eq!(
            invalid_request("pod", "ftp:web:21").message,
            "invalid pod request \"ftp:web:21\""
        );
    }

    #[test]
    fn only_global_unicast_addresses() {
        for ok in [
            "10.0.0.5",
            "192.168.1.1",
            "8.8.8.8",
            "fd00::1",
            "2001:db8::1",
        ] {
            assert!(is_global_unicast(ok.parse().unwrap()), "{ok}");
        }
        for bad in [
            "127.0.0.1",
            "0.0.0.0",
            "169.254.1.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "ff02::1",
        ] {
            assert!(!is_global_unicast(bad.parse().unwrap()), "{bad}");
        }
        assert_eq!(join_host_port("fd00::1", "80"), "[fd00::1]:80");
        assert_eq!(join_host_port("fd00::1", ""), "[fd00::1]");
        assert_eq!(with_scheme("", "10.0.0.1:80"), "http://10.0.0.1:80");
    }
}
