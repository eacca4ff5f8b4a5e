//! The service allocators' repair gives back what no Service holds: node port claims and
//! IPAddresses left behind (a crash between claiming and storing, a Service deleted by
//! another server, an operator's edit of etcd). A port claim goes after three passes
//! that found it leaked; an IPAddress once it is older than a minute. What Services hold,
//! young IPAddresses and IPAddresses the allocator did not make stay. A Service whose
//! IPAddress is missing gets it back. Each repair is a Warning event, as upstream's.

use std::time::Duration;

use http::Method;
use serde_json::{json, Value};

use super::super::harness::etcdctl::{put, put_unchecked, raw};
use super::super::harness::Etcd;
use super::{start_with, tools};

const PORTS: &str = "/registry/ranges/servicenodeports/";

fn ip_address(name: &str, created: &str, managed: bool, service: &str) -> Value {
    let mut labels = json!({"ipaddress.kubernetes.io/ip-family": "IPv4"});
    if managed {
        labels["ipaddress.kubernetes.io/managed-by"] = json!("ipallocator.k8s.io");
    }
    json!({
        "apiVersion": "networking.k8s.io/v1", "kind": "IPAddress",
        "metadata": {"name": name, "uid": format!("uid-{name}"), "creationTimestamp": created, "labels": labels},
        "spec": {"parentRef": {"group": "", "resource": "services", "namespace": "default", "name": service}},
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaked_node_ports_and_cluster_ips_are_given_back() {
    if !tools() {
        return;
    }
    let mut etcd = Etcd::new();
    etcd.start();
    let now = k8s_openapi::jiff::Timestamp::now()
        .round(k8s_openapi::jiff::Unit::Second)
        .expect("round")
        .to_string();
    let old = "2020-01-01T00:00:00Z";
    // Left behind by a Service that is gone: a port claim and its (old) IPAddress.
    put(&etcd, &format!("{PORTS}30111"), b"default/gone");
    let leaked = |name: &str, created: &str, managed: bool| {
        let v = ip_address(name, created, managed, "gone");
        put(
            &etcd,
            &format!("/registry/ipaddresses/{name}"),
            &serde_json::to_vec(&v).expect("json"),
        );
    };
    leaked("10.0.0.99", old, true);
    // Too young to be taken for a leak: its Service may be being created.
    leaked("10.0.0.98", &now, true);
    // Not the allocator's: someone else's business.
    leaked("10.0.0.97", old, false);
    // A Service stored without its IPAddress (another server's crash, an etcd edit).
    let orphan = json!({"apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "orphan-ip", "namespace": "default", "uid": "uid-orphan", "creationTimestamp": old},
        "spec": {"type": "ClusterIP", "clusterIP": "10.0.0.60", "clusterIPs": ["10.0.0.60"],
            "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]}});
    put(
        &etcd,
        "/registry/services/specs/default/orphan-ip",
        &serde_json::to_vec(&orphan).expect("json"),
    );

    let server = start_with(
        &etcd,
        &["--service-cluster-ip-range=10.0.0.0/24"],
        &[("KUBE_APISERVER_RS_SERVICE_REPAIR_INTERVAL_MS", "200")],
    )
    .await;
    let path = "/api/v1/namespaces/default/services";
    let body = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "kept"},
        "spec": {"type": "NodePort", "clusterIP": "10.0.0.50", "ports": [{"port": 80, "nodePort": 30100}]}});
    let created = server
        .send_json(Method::POST, path, "application/json", &body)
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    // An IPAddress of the Service above that names another Service: a wrong reference.
    let wrong = ip_address("10.0.0.96", old, true, "kept");
    // Unchecked: the running repair may delete it before a read-back could see it.
    put_unchecked(
        &etcd,
        "/registry/ipaddresses/10.0.0.96",
        &serde_json::to_vec(&wrong).expect("json"),
    );

    // The Service's own IPAddress stripped of the allocator's labels: made again.
    let unlabelled = ip_address("10.0.0.50", old, false, "kept");
    put_unchecked(
        &etcd,
        "/registry/ipaddresses/10.0.0.50",
        &serde_json::to_vec(&unlabelled).expect("json"),
    );
    let labelled = |key: &str| {
        let v = raw(&etcd, key);
        v.windows(18).any(|w| w == b"ipallocator.k8s.io")
    };

    let gone = |key: &str| raw(&etcd, key).is_empty();
    let mut waited = Duration::ZERO;
    while !(gone(&format!("{PORTS}30111"))
        && gone("/registry/ipaddresses/10.0.0.99")
        && gone("/registry/ipaddresses/10.0.0.96")
        && labelled("/registry/ipaddresses/10.0.0.50"))
    {
        assert!(
            waited < Duration::from_secs(20),
            "leaks not cleaned up; log:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }
    // What a Service holds, young IPAddresses and others' IPAddresses stay.
    assert_eq!(raw(&etcd, &format!("{PORTS}30100")), b"default/kept");
    assert!(!gone("/registry/ipaddresses/10.0.0.50"));
    assert!(!gone("/registry/ipaddresses/10.0.0.98"));
    assert!(!gone("/registry/ipaddresses/10.0.0.97"));
    assert!(!gone("/registry/ipaddresses/10.0.0.60"), "repaired");
    let log = server.log();
    for said in [
        "the node port may have leaked: flagging for later clean up",
        "the node port appears to have leaked: cleaning up",
        "IPAddress appears to have leaked: cleaning up",
        "IPAddress has a wrong reference: cleaning up",
    ] {
        assert!(log.contains(said), "log lacks {said:?}:\n{log}");
    }
    // The leaked port counted as upstream's node port repair counts it.
    let metrics = super::super::metrics::scrape(&server).await;
    let leaks = super::super::metrics::value_with(
        &metrics,
        "apiserver_nodeport_repair_port_errors_total",
        &["type=\"leak\""],
    );
    assert_eq!(leaks, Some(1.0), "{metrics}");
    // The events, as upstream's repair controllers record them.
    let wanted = [
        (
            "ipallocator-repair-controller",
            "ClusterIPNotAllocated",
            "Service",
            "orphan-ip",
            "Cluster IP [IPv4]: 10.0.0.60 is not allocated; repairing",
        ),
        (
            "ipallocator-repair-controller",
            "IPAddressNotAllocated",
            "IPAddress",
            "10.0.0.99",
            "IPAddress: 10.0.0.99 for Service default/gone appears to have leaked: cleaning up",
        ),
        (
            "ipallocator-repair-controller",
            "IPAddressWrongReference",
            "IPAddress",
            "10.0.0.96",
            "IPAddress: 10.0.0.96 for Service default/kept has a wrong reference; cleaning up",
        ),
    ];
    let mut waited = Duration::ZERO;
    loop {
        let list = server
            .get("/apis/events.k8s.io/v1/namespaces/default/events")
            .await
            .json();
        let items = list["items"].as_array().cloned().unwrap_or_default();
        let found = |(controller, reason, kind, name, note): &(&str, &str, &str, &str, &str)| {
            items.iter().any(|e| {
                e["reportingController"] == *controller
                    && e["reason"] == *reason
                    && e["regarding"]["kind"] == *kind
                    && e["regarding"]["name"] == *name
                    && e["note"] == *note
                    && e["type"] == "Warning"
                    && e["reportingInstance"]
                        .as_str()
                        .is_some_and(|i| i.starts_with(controller))
                    && e["eventTime"]
                        .as_str()
                        .is_some_and(|t| t.len() == "2026-01-01T00:00:00.000000Z".len())
            })
        };
        if wanted.iter().all(found) {
            break;
        }
        assert!(
            waited < Duration::from_secs(20),
            "events missing: {:?}\n{list:#}",
            wanted.iter().filter(|w| !found(w)).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }

    // The port given back can be asked for again.
    let body = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "again"},
        "spec": {"type": "NodePort", "ports": [{"port": 80, "nodePort": 30111}]}});
    let again = server
        .send_json(Method::POST, path, "application/json", &body)
        .await;
    assert_eq!(again.status, 201, "{}", again.text());
}
