//! Upstream's service IP and node port repair (the `start-service-ip-repair-controllers`
//! post-start hook): at start every stored Service's cluster IPs and node ports are
//! checked against what the allocator holds, and what is missing is taken for it. So
//! Services another server created (kube-apiserver keeps node ports in a bitmap, this
//! server in one key per port) keep what they hold when this server takes their etcd
//! over, and a crash between storing a Service and recording its claim heals.

use kas_server::health::HookHandle;
use kas_server::rest::RestStore;
use serde_json::Value;

use crate::services::{node_ports, Allocator};

fn text<'a>(o: &'a Value, p: &str) -> &'a str {
    o.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// Repairs once the Services can be listed (retried until then), then marks `hook` done.
pub(crate) fn start(alloc: Allocator, services: RestStore, hook: HookHandle) {
    tokio::spawn(async move {
        let mut retry = kas_server::retry::Retry::up_to(std::time::Duration::from_secs(1));
        loop {
            match services.list_objects("").await {
                Ok((all, _)) => {
                    for svc in &all {
                        repair(&alloc, svc).await;
                    }
                    hook.done();
                    return;
                }
                Err(e) => {
                    tracing::debug!(error = %e.message, "service repair: listing services");
                    retry.wait().await;
                }
            }
        }
    });
}

async fn repair(alloc: &Allocator, svc: &Value) {
    let name = format!(
        "{}/{}",
        text(svc, "/metadata/namespace"),
        text(svc, "/metadata/name")
    );
    let ips: Vec<String> = match svc.pointer("/spec/clusterIPs").and_then(Value::as_array) {
        Some(ips) => ips
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        None => vec![text(svc, "/spec/clusterIP").to_owned()],
    };
    for ip in ips.iter().filter(|ip| !ip.is_empty() && *ip != "None") {
        let Ok(addr) = ip.parse() else {
            continue;
        };
        if !alloc.in_range(addr) {
            // Another family, or a range since changed: upstream reports it and goes on.
            tracing::warn!(service = %name, ip, "cluster IP is not within the service CIDR; please recreate the service");
            continue;
        }
        match alloc.claim_ip(addr, svc).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(service = %name, ip, "cluster IP was assigned to multiple services; please recreate the service")
            }
            Err(e) => {
                tracing::warn!(service = %name, ip, error = %e.message, "service repair: cluster IP")
            }
        }
    }
    for port in node_ports(svc) {
        match alloc.claim_port(port, svc).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(service = %name, port, "node port was assigned to multiple services; please recreate the service")
            }
            Err(e) => {
                tracing::warn!(service = %name, port, error = %e.message, "service repair: node port")
            }
        }
    }
}
