use super::*;
use serde_json::json;

const LOOPBACK: &str = "127.0.0.1:6443";

fn resolver(routing: Routing) -> ServiceResolver {
    let r = ServiceResolver::fixed(
        routing,
        EndpointSource::Endpoints,
        LOOPBACK.parse().expect("addr"),
    );
    r.reset(vec![
        vec![
            ("ns/hook".into(), json!({"spec": {"type": "ClusterIP", "clusterIP": "10.0.0.7",
                "ports": [{"name": "https", "port": 443, "targetPort": 8443},
                          {"name": "metrics", "port": 9090}]}})),
            ("ns/ext".into(), json!({"spec": {"type": "ExternalName",
                "externalName": "localhost"}})),
            ("ns/headless".into(), json!({"spec": {"type": "ClusterIP", "clusterIP": "None",
                "ports": [{"port": 443}]}})),
            ("ns/bare".into(), json!({"spec": {"type": "NodePort", "clusterIP": "fd00::7",
                "ports": [{"port": 443}]}})),
            ("ns/empty".into(), json!({"spec": {"type": "LoadBalancer", "clusterIP": "10.0.0.8",
                "ports": [{"port": 443}]}})),
            ("ns/unnamed".into(), json!({"spec": {"type": "ClusterIP", "clusterIP": "10.0.0.9",
                "ports": [{"port": 443}]}})),
        ],
        vec![
            ("ns/hook".into(), json!({"subsets": [
                // Not ready only: never picked.
                {"notReadyAddresses": [{"ip": "10.1.0.1"}], "ports": [{"name": "https", "port": 1}]},
                {"addresses": [{"ip": "10.1.0.2"}], "ports": [{"name": "https", "port": 8443}]},
            ]})),
            ("ns/empty".into(), json!({"subsets": []})),
            ("ns/unnamed".into(), json!({"subsets": [
                {"addresses": [{"ip": "10.1.0.3"}], "ports": [{"name": "other", "port": 1}]}]})),
            ("ns/bare".into(), json!({"subsets": [
                {"addresses": [{"ip": "fd01::3"}], "ports": [{"port": 8443}]}]})),
        ],
    ]);
    r
}

fn addr(s: &str) -> Endpoint {
    Endpoint::Addr(s.parse().expect("addr"))
}

#[test]
fn endpoint_routing_picks_a_ready_address_of_the_named_port() {
    let r = resolver(Routing::Endpoints);
    for _ in 0..20 {
        assert_eq!(r.resolve("ns", "hook", 443), Ok(addr("10.1.0.2:8443")));
    }
    // The port is found by number, then matched to the endpoints' port by name ("").
    assert_eq!(r.resolve("ns", "bare", 443), Ok(addr("[fd01::3]:8443")));
    assert_eq!(
        r.resolve("ns", "bare", 443).map(|e| e.to_string()),
        Ok("[fd01::3]:8443".into())
    );
}

#[test]
fn endpoint_routing_errors_as_upstream() {
    let r = resolver(Routing::Endpoints);
    let err = |ns: &str, name: &str, port| r.resolve(ns, name, port).map_err(|e| e.to_string());
    assert_eq!(
        err("ns", "nope", 443),
        Err("service \"nope\" not found".into())
    );
    assert_eq!(
        err("other", "hook", 443),
        Err("service \"hook\" not found".into())
    );
    assert_eq!(
        err("ns", "hook", 80),
        Err("no service port 80 found for service \"hook\"".into())
    );
    assert_eq!(
        err("ns", "ext", 443),
        Err("unsupported service type \"ExternalName\"".into())
    );
    assert_eq!(
        err("ns", "headless", 443),
        Err("endpoints \"headless\" not found".into())
    );
    assert_eq!(
        err("ns", "empty", 443),
        Err("no endpoints available for service \"empty\"".into())
    );
    assert_eq!(
        err("ns", "unnamed", 443),
        Err("no endpoints available for service \"unnamed\"".into())
    );
    // A port of the service the endpoints do not name.
    assert_eq!(
        err("ns", "hook", 9090),
        Err("no endpoints available for service \"hook\"".into())
    );
}

#[test]
fn cluster_ip_routing() {
    let r = resolver(Routing::ClusterIp);
    assert_eq!(r.resolve("ns", "hook", 443), Ok(addr("10.0.0.7:443")));
    assert_eq!(r.resolve("ns", "bare", 443), Ok(addr("[fd00::7]:443")));
    assert_eq!(
        r.resolve("ns", "ext", 8443),
        Ok(Endpoint::Host("localhost".into(), 8443))
    );
    assert_eq!(
        r.resolve("ns", "ext", 8443).map(|e| e.to_string()),
        Ok("localhost:8443".into())
    );
    let err = |name: &str, port| r.resolve("ns", name, port).map_err(|e| e.to_string());
    assert_eq!(
        err("headless", 443),
        Err("cannot route to service with ClusterIP \"None\"".into())
    );
    assert_eq!(
        err("hook", 444),
        Err("no service port 444 found for service \"hook\"".into())
    );
    assert_eq!(err("nope", 443), Err("service \"nope\" not found".into()));
}

#[test]
fn unknown_service_types_are_refused() {
    for routing in [Routing::Endpoints, Routing::ClusterIp] {
        let r = resolver(routing);
        r.apply(
            0,
            "ns/odd",
            Some(json!({"spec": {"ports": [{"port": 443}]}})),
        );
        assert_eq!(
            r.resolve("ns", "odd", 443),
            Err(ResolveError::UnsupportedType(String::new()))
        );
    }
}

#[test]
fn default_kubernetes_443_is_this_server() {
    for routing in [Routing::Endpoints, Routing::ClusterIp] {
        let r = resolver(routing);
        assert_eq!(r.resolve("default", "kubernetes", 443), Ok(addr(LOOPBACK)));
        // Another port of it is resolved as any service (here: not known).
        assert_eq!(
            r.resolve("default", "kubernetes", 6443),
            Err(ResolveError::ServiceNotFound("kubernetes".into()))
        );
    }
    assert_eq!(
        loopback("0.0.0.0".parse().expect("ip"), 6443),
        "127.0.0.1:6443".parse().expect("addr")
    );
    assert_eq!(
        loopback("::".parse().expect("ip"), 1),
        "[::1]:1".parse().expect("addr")
    );
    assert_eq!(
        loopback("10.2.3.4".parse().expect("ip"), 1),
        "10.2.3.4:1".parse().expect("addr")
    );
}

#[test]
fn watch_events_change_the_answer() {
    let r = resolver(Routing::Endpoints);
    r.apply(
        ENDPOINTS,
        "ns/hook",
        Some(json!({"subsets": [{"addresses": [{"ip": "10.1.0.9"}],
                                 "ports": [{"name": "https", "port": 9443}]}]})),
    );
    assert_eq!(r.resolve("ns", "hook", 443), Ok(addr("10.1.0.9:9443")));
    r.apply(ENDPOINTS, "ns/hook", None);
    assert_eq!(
        r.resolve("ns", "hook", 443),
        Err(ResolveError::EndpointsNotFound("hook".into()))
    );
    r.apply(SERVICES, "ns/hook", None);
    assert_eq!(
        r.resolve("ns", "hook", 443),
        Err(ResolveError::ServiceNotFound("hook".into()))
    );
    // A fresh listing replaces everything.
    r.reset(vec![Vec::new(), Vec::new()]);
    assert!(r.resolve("ns", "bare", 443).is_err());
}

#[test]
fn from_flag() {
    assert_eq!(Routing::from_flag(true), Routing::Endpoints);
    assert_eq!(Routing::from_flag(false), Routing::ClusterIp);
}

#[tokio::test]
async fn a_dial_goes_where_the_service_resolves() {
    use connect::{ServiceConnector, ServiceDial};
    use tower_service::Service as _;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let r = Arc::new(resolver(Routing::Endpoints));
    r.apply(
        ENDPOINTS,
        "ns/hook",
        Some(json!({"subsets": [{"addresses": [{"ip": "127.0.0.1"}],
                                 "ports": [{"name": "https", "port": port}]}]})),
    );
    let dial = Arc::new(ServiceDial::new(r.clone(), "ns", "hook", 443));
    assert_eq!(dial.url("/v"), "https://hook.ns.svc:443/v");
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    let mut c = ServiceConnector::via(http, dial);
    let dst: http::Uri = "https://hook.ns.svc:443/v".parse().expect("uri");
    let conn = c.call(dst).await.expect("dialled");
    let (accepted, _) = listener.accept().await.expect("accepted");
    assert_eq!(
        conn.inner().local_addr().expect("local"),
        accepted.peer_addr().expect("peer")
    );
    // Resolution failures are the dial's, with the resolver's words.
    let missing = Arc::new(ServiceDial::new(r.clone(), "ns", "nope", 443));
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    let mut c = ServiceConnector::via(http, missing);
    let err = c
        .call("https://nope.ns.svc:443/".parse().expect("uri"))
        .await
        .err()
        .map(|e| e.to_string());
    assert_eq!(err.as_deref(), Some("service \"nope\" not found"));
    // A refused dial names the address dialled.
    drop(listener);
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    let mut c = ServiceConnector::via(http, Arc::new(ServiceDial::new(r, "ns", "hook", 443)));
    let err = c
        .call("https://hook.ns.svc:443/".parse().expect("uri"))
        .await
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        err,
        Some(format!(
            "dial tcp 127.0.0.1:{port}: connect: connection refused"
        ))
    );
}

use hyper_util::client::legacy::connect::HttpConnector;

fn slice(service: &str, family: &str, port: Value, endpoints: Value) -> Value {
    json!({"metadata": {"labels": {"kubernetes.io/service-name": service}},
           "addressType": family, "ports": [port], "endpoints": endpoints})
}

#[test]
fn endpoint_slices_as_1_34() {
    let r = ServiceResolver::fixed(
        Routing::Endpoints,
        EndpointSource::EndpointSlices,
        LOOPBACK.parse().expect("addr"),
    );
    r.reset(vec![
        vec![(
            "ns/hook".into(),
            json!({"spec": {"type": "ClusterIP", "clusterIP": "10.0.0.7", "ipFamilies": ["IPv4"],
                "ports": [{"name": "https", "port": 443}, {"name": "other", "port": 80}]}}),
        )],
        vec![
            // The secondary family: only tried after the primary one.
            (
                "ns/hook-v6".into(),
                slice(
                    "hook",
                    "IPv6",
                    json!({"name": "https", "port": 1}),
                    json!([{"addresses": ["fd00::1"]}]),
                ),
            ),
            (
                "ns/hook-v4".into(),
                slice(
                    "hook",
                    "IPv4",
                    json!({"name": "https", "port": 8443}),
                    json!([{"addresses": ["10.1.0.1"], "conditions": {"ready": false}},
                       {"addresses": ["127.0.0.1", "10.9.9.9"], "conditions": {"ready": true}}]),
                ),
            ),
            // A port without a name never matches (upstream skips a nil name).
            (
                "ns/hook-unnamed".into(),
                slice(
                    "hook",
                    "IPv4",
                    json!({"port": 80}),
                    json!([{"addresses": ["10.1.0.3"]}]),
                ),
            ),
            (
                "ns/stray".into(),
                json!({"addressType": "IPv4", "endpoints": []}),
            ),
        ],
    ]);
    for _ in 0..20 {
        assert_eq!(r.resolve("ns", "hook", 443), Ok(addr("127.0.0.1:8443")));
    }
    assert_eq!(
        r.resolve("ns", "hook", 80),
        Err(ResolveError::NoEndpoints("hook".into()))
    );
    // The slice of the primary family goes: the other family answers.
    r.apply(ENDPOINTS, "ns/hook-v4", None);
    assert_eq!(r.resolve("ns", "hook", 443), Ok(addr("[fd00::1]:1")));
    // A slice relabelled to another service leaves this one.
    r.apply(
        ENDPOINTS,
        "ns/hook-v6",
        Some(slice(
            "other",
            "IPv6",
            json!({"name": "https", "port": 1}),
            json!([]),
        )),
    );
    r.apply(ENDPOINTS, "ns/hook-unnamed", None);
    assert_eq!(
        r.resolve("ns", "hook", 443),
        Err(ResolveError::NoEndpoints("hook".into()))
    );
    assert_eq!(r.resources(), &WITH_SLICES);
}
