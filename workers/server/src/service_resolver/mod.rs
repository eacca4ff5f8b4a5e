//! Service references (`namespace`, `name`, `port`) resolved to an address to dial, as
//! kube-apiserver 1.33 resolves them for admission webhooks, CRD conversion webhooks and
//! remote APIServices (kube-aggregator's resolvers over `k8s.io/apiserver`'s
//! `ResolveEndpoint` / `ResolveCluster`):
//!
//! * `default/kubernetes` port 443 is this server itself (the loopback resolver);
//! * with `--enable-aggregator-routing` (endpoint routing), a ready address of the
//!   service's Endpoints object whose port has the name of the service port numbered
//!   `port` (1.33 reads Endpoints; [`EndpointSource::EndpointSlices`] reads the
//!   service's EndpointSlices as 1.34 does, primary IP family first);
//! * without it (cluster IP routing), `spec.clusterIP` and the service port, or for an
//!   `ExternalName` service `spec.externalName` and `port`.
//!
//! Services and Endpoints (or EndpointSlices) are followed from storage ([`crate::follow`]), so resolving
//! never reads storage. Failures carry upstream's messages. [`connect`] dials a resolved
//! service for an HTTPS client that still verifies the service's DNS name.

pub mod connect;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use kas_proto::WorkerConfig;
use serde_json::Value;
use tokio::sync::Notify;

use crate::follow::{self, Follower, Synced};
use crate::storage::Storage;

/// The storage paths followed: Services, then the endpoint objects.
const WITH_ENDPOINTS: [&str; 2] = ["services/specs", "services/endpoints"];
const WITH_SLICES: [&str; 2] = ["services/specs", "endpointslices"];
const SERVICES: usize = 0;
const ENDPOINTS: usize = 1;
/// The label naming an EndpointSlice's service.
const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";

/// Which objects endpoint routing reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointSource {
    /// core/v1 Endpoints, as kube-apiserver 1.33.
    Endpoints,
    /// discovery.k8s.io/v1 EndpointSlices labelled with the service's name, as 1.34.
    EndpointSlices,
}

/// How a service reference becomes an address (`--enable-aggregator-routing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Routing {
    /// One of the service's ready endpoints (`--enable-aggregator-routing=true`).
    Endpoints,
    /// The service's cluster IP (the default).
    ClusterIp,
}

impl Routing {
    /// The routing `--enable-aggregator-routing` selects.
    pub fn from_flag(enable_aggregator_routing: bool) -> Routing {
        match enable_aggregator_routing {
            true => Routing::Endpoints,
            false => Routing::ClusterIp,
        }
    }
}

/// Where a service reference resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// An IP address and port.
    Addr(SocketAddr),
    /// A host name (an `ExternalName` service) and port, resolved by DNS when dialled.
    Host(String, u16),
}

impl std::fmt::Display for Endpoint {
    /// `host:port`, an IPv6 address in brackets (Go's `net.JoinHostPort`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Addr(a) => write!(f, "{a}"),
            Endpoint::Host(h, p) if h.contains(':') => write!(f, "[{h}]:{p}"),
            Endpoint::Host(h, p) => write!(f, "{h}:{p}"),
        }
    }
}

impl Endpoint {
    /// `host` (an IP when it parses as one) and `port`.
    fn of(host: &str, port: u16) -> Endpoint {
        match host.parse::<IpAddr>() {
            Ok(ip) => Endpoint::Addr(SocketAddr::new(ip, port)),
            Err(_) => Endpoint::Host(host.to_owned(), port),
        }
    }
}

/// Why a service reference did not resolve; the text is upstream's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No such Service (the lister's NotFound).
    #[error("service \"{0}\" not found")]
    ServiceNotFound(String),
    /// Endpoint routing, and the service has no Endpoints object.
    #[error("endpoints \"{0}\" not found")]
    EndpointsNotFound(String),
    /// A service type the routing cannot reach (`ExternalName` under endpoint routing).
    #[error("unsupported service type \"{0}\"")]
    UnsupportedType(String),
    /// A headless service under cluster IP routing.
    #[error("cannot route to service with ClusterIP \"None\"")]
    Headless,
    /// The service has no port numbered so.
    #[error("no service port {port} found for service \"{service}\"")]
    NoPort {
        /// The port asked for.
        port: i32,
        /// The service's name.
        service: String,
    },
    /// No ready address serves the port.
    #[error("no endpoints available for service \"{0}\"")]
    NoEndpoints(String),
}

/// A Service as resolution needs it.
#[derive(Debug, Clone, PartialEq)]
struct Service {
    kind: String,
    cluster_ip: String,
    external_name: String,
    /// (port, name) of each service port.
    ports: Vec<(i64, String)>,
    /// `spec.ipFamilies[0]`: which slices are tried first.
    primary_family: String,
}

impl Service {
    fn of(o: &Value) -> Service {
        let text = |p: &str| {
            o.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let ports = o
            .pointer("/spec/ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|p| {
                let number = p.get("port").and_then(Value::as_i64).unwrap_or(0);
                let name = p.get("name").and_then(Value::as_str).unwrap_or("");
                (number, name.to_owned())
            })
            .collect();
        Service {
            kind: text("/spec/type"),
            cluster_ip: text("/spec/clusterIP"),
            external_name: text("/spec/externalName"),
            ports,
            primary_family: text("/spec/ipFamilies/0"),
        }
    }

    /// The name of the port numbered `port` (upstream's findServicePort).
    fn port_name(&self, port: i32, service: &str) -> Result<&str, ResolveError> {
        self.ports
            .iter()
            .find(|(n, _)| *n == i64::from(port))
            .map(|(_, name)| name.as_str())
            .ok_or_else(|| ResolveError::NoPort {
                port,
                service: service.to_owned(),
            })
    }

    fn routable(&self) -> bool {
        matches!(
            self.kind.as_str(),
            "ClusterIP" | "LoadBalancer" | "NodePort"
        )
    }
}

/// One subset of an Endpoints object: its ready addresses and named ports.
#[derive(Debug, Clone, PartialEq)]
struct Subset {
    addresses: Vec<String>,
    ports: Vec<(String, i64)>,
}

fn subsets_of(o: &Value) -> Vec<Subset> {
    let list = |v: &Value, k: &str| v.get(k).and_then(Value::as_array).cloned();
    o.get("subsets")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|s| Subset {
            addresses: list(s, "addresses")
                .into_iter()
                .flatten()
                .filter_map(|a| a.get("ip").and_then(Value::as_str).map(str::to_owned))
                .collect(),
            ports: list(s, "ports")
                .into_iter()
                .flatten()
                .map(|p| {
                    let name = p.get("name").and_then(Value::as_str).unwrap_or("");
                    (
                        name.to_owned(),
                        p.get("port").and_then(Value::as_i64).unwrap_or(0),
                    )
                })
                .collect(),
        })
        .collect()
}

/// An EndpointSlice as resolution needs it.
#[derive(Debug, Clone, PartialEq)]
struct Slice {
    address_type: String,
    /// (name, port) of each port; either may be unset.
    ports: Vec<(Option<String>, Option<i64>)>,
    /// (first address, ready condition) of each endpoint with an address.
    endpoints: Vec<(String, Option<bool>)>,
}

impl Slice {
    fn of(o: &Value) -> Slice {
        let list = |k: &str| {
            o.get(k)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        Slice {
            address_type: o
                .get("addressType")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            ports: list("ports")
                .iter()
                .map(|p| {
                    let name = p.get("name").and_then(Value::as_str).map(str::to_owned);
                    (name, p.get("port").and_then(Value::as_i64))
                })
                .collect(),
            endpoints: list("endpoints")
                .iter()
                .filter_map(|e| {
                    let address = e.pointer("/addresses/0").and_then(Value::as_str)?;
                    let ready = e.pointer("/conditions/ready").and_then(Value::as_bool);
                    Some((address.to_owned(), ready))
                })
                .collect(),
        }
    }
}

#[derive(Debug, Default)]
struct Objects {
    /// "namespace/name" → service.
    services: HashMap<String, Service>,
    /// "namespace/name" → the Endpoints object's subsets.
    endpoints: HashMap<String, Vec<Subset>>,
    /// "namespace/service" → "namespace/slice" → the service's EndpointSlices.
    slices: HashMap<String, HashMap<String, Slice>>,
    /// "namespace/slice" → "namespace/service", to forget a slice that changes service.
    slice_owner: HashMap<String, String>,
}

impl Objects {
    fn put(&mut self, source: EndpointSource, resource: usize, key: &str, object: Option<&Value>) {
        match (resource, source, object) {
            (SERVICES, _, Some(o)) => drop(self.services.insert(key.to_owned(), Service::of(o))),
            (SERVICES, _, None) => drop(self.services.remove(key)),
            (ENDPOINTS, EndpointSource::Endpoints, Some(o)) => {
                drop(self.endpoints.insert(key.to_owned(), subsets_of(o)))
            }
            (ENDPOINTS, EndpointSource::Endpoints, None) => drop(self.endpoints.remove(key)),
            (ENDPOINTS, EndpointSource::EndpointSlices, o) => self.put_slice(key, o),
            _ => {}
        }
    }

    fn put_slice(&mut self, key: &str, object: Option<&Value>) {
        if let Some(owner) = self.slice_owner.remove(key) {
            if let Some(of_service) = self.slices.get_mut(&owner) {
                of_service.remove(key);
                if of_service.is_empty() {
                    self.slices.remove(&owner);
                }
            }
        }
        let Some(o) = object else {
            return;
        };
        let service = o
            .pointer("/metadata/labels")
            .and_then(|l| l.get(SERVICE_NAME_LABEL))
            .and_then(Value::as_str);
        let (Some(service), Some((namespace, _))) = (service, key.split_once('/')) else {
            return;
        };
        let owner = format!("{namespace}/{service}");
        self.slices
            .entry(owner.clone())
            .or_default()
            .insert(key.to_owned(), Slice::of(o));
        self.slice_owner.insert(key.to_owned(), owner);
    }
}

/// Resolves service references over the Services and Endpoints of the cluster.
#[derive(Debug)]
pub struct ServiceResolver {
    routing: Routing,
    source: EndpointSource,
    /// This server's own address, for `default/kubernetes:443`.
    loopback: SocketAddr,
    objects: RwLock<Objects>,
    synced: Synced,
}

impl ServiceResolver {
    /// A resolver as the worker's configuration asks (routing from
    /// `--enable-aggregator-routing`, loopback from the secure serving address), following
    /// `storage` from now on. Endpoint routing reads EndpointSlices, as kube-apiserver
    /// does from 1.34 (1.33 read the deprecated v1 Endpoints): a slice may name a
    /// loopback address, so a single host can register a server on 127.0.0.1.
    pub fn start(config: &WorkerConfig, storage: Storage) -> Arc<ServiceResolver> {
        let loopback = loopback(config.serving.bind_address, config.serving.port);
        ServiceResolver::start_with(
            Routing::from_flag(config.enable_aggregator_routing),
            EndpointSource::EndpointSlices,
            loopback,
            storage,
        )
    }

    /// A resolver with this `routing` (reading `source` for endpoint routing) and
    /// `loopback` address, following `storage`.
    pub fn start_with(
        routing: Routing,
        source: EndpointSource,
        loopback: SocketAddr,
        storage: Storage,
    ) -> Arc<ServiceResolver> {
        let (synced, tx) = Synced::new();
        let resolver = Arc::new(ServiceResolver {
            routing,
            source,
            loopback,
            objects: RwLock::new(Objects::default()),
            synced,
        });
        follow::start_on(&resolver, storage, tx, Arc::new(Notify::new()));
        resolver
    }

    /// A resolver over objects given by hand (tests).
    #[cfg(test)]
    fn fixed(routing: Routing, source: EndpointSource, loopback: SocketAddr) -> ServiceResolver {
        let (synced, tx) = Synced::new();
        tx.send_replace(1);
        ServiceResolver {
            routing,
            source,
            loopback,
            objects: RwLock::new(Objects::default()),
            synced,
        }
    }

    /// The routing in use.
    pub fn routing(&self) -> Routing {
        self.routing
    }

    /// Waits (up to `limit`) until Services and Endpoints have been listed once; false
    /// when they have not.
    pub async fn wait_synced(&self, limit: Duration) -> bool {
        tokio::time::timeout(limit, self.synced.wait())
            .await
            .is_ok()
            && self.synced.listings() > 0
    }

    /// Where service `namespace`/`name` port `port` is reached now, from what has been
    /// listed and watched so far (see [`ServiceResolver::wait_synced`]).
    pub fn resolve(
        &self,
        namespace: &str,
        name: &str,
        port: i32,
    ) -> Result<Endpoint, ResolveError> {
        if namespace == "default" && name == "kubernetes" && port == 443 {
            return Ok(Endpoint::Addr(self.loopback));
        }
        let objects = self.objects.read().unwrap_or_else(|e| e.into_inner());
        let key = format!("{namespace}/{name}");
        let service = objects
            .services
            .get(&key)
            .ok_or_else(|| ResolveError::ServiceNotFound(name.to_owned()))?;
        match (self.routing, self.source) {
            (Routing::Endpoints, EndpointSource::Endpoints) => {
                by_endpoints(service, objects.endpoints.get(&key), name, port)
            }
            (Routing::Endpoints, EndpointSource::EndpointSlices) => {
                by_slices(service, objects.slices.get(&key), name, port)
            }
            (Routing::ClusterIp, _) => by_cluster_ip(service, name, port),
        }
    }
}

/// Upstream's ResolveCluster.
fn by_cluster_ip(service: &Service, name: &str, port: i32) -> Result<Endpoint, ResolveError> {
    if service.kind == "ClusterIP" && service.cluster_ip == "None" {
        return Err(ResolveError::Headless);
    }
    if service.routable() {
        service.port_name(port, name)?;
        return Ok(Endpoint::of(&service.cluster_ip, port_u16(i64::from(port))));
    }
    if service.kind == "ExternalName" {
        return Ok(Endpoint::of(
            &service.external_name,
            port_u16(i64::from(port)),
        ));
    }
    Err(ResolveError::UnsupportedType(service.kind.clone()))
}

/// Upstream's ResolveEndpoint: a random ready address of a random subset (of those with
/// addresses) that has a port named as the service port.
fn by_endpoints(
    service: &Service,
    subsets: Option<&Vec<Subset>>,
    name: &str,
    port: i32,
) -> Result<Endpoint, ResolveError> {
    if !service.routable() {
        return Err(ResolveError::UnsupportedType(service.kind.clone()));
    }
    let port_name = service.port_name(port, name)?;
    let subsets = subsets.ok_or_else(|| ResolveError::EndpointsNotFound(name.to_owned()))?;
    if subsets.is_empty() {
        return Err(ResolveError::NoEndpoints(name.to_owned()));
    }
    let start = random_below(subsets.len());
    for i in 0..subsets.len() {
        let subset = &subsets[(start + i) % subsets.len()];
        if subset.addresses.is_empty() {
            continue;
        }
        if let Some((_, number)) = subset.ports.iter().find(|(n, _)| n == port_name) {
            let ip = &subset.addresses[random_below(subset.addresses.len())];
            return Ok(Endpoint::of(ip, port_u16(*number)));
        }
    }
    Err(ResolveError::NoEndpoints(name.to_owned()))
}

/// 1.34's ResolveEndpoint: the service's slices of its primary IP family first (each
/// group in random order), in each the first port named as the service port with a
/// number and endpoints, from a random endpoint on the first ready one (unset counts as
/// ready), its first address.
fn by_slices(
    service: &Service,
    slices: Option<&HashMap<String, Slice>>,
    name: &str,
    port: i32,
) -> Result<Endpoint, ResolveError> {
    if !service.routable() {
        return Err(ResolveError::UnsupportedType(service.kind.clone()));
    }
    let port_name = service.port_name(port, name)?;
    let mut ordered: Vec<(bool, usize, &Slice)> = slices
        .into_iter()
        .flat_map(HashMap::values)
        .map(|s| {
            (
                s.address_type != service.primary_family,
                random_below(usize::MAX),
                s,
            )
        })
        .collect();
    if ordered.is_empty() {
        return Err(ResolveError::NoEndpoints(name.to_owned()));
    }
    // Only several slices with a known primary family are reordered, as upstream.
    if ordered.len() > 1 && !service.primary_family.is_empty() {
        ordered.sort_by_key(|(other_family, random, _)| (*other_family, *random));
    }
    for (_, _, slice) in ordered {
        for (slice_port_name, number) in &slice.ports {
            let (Some(slice_port_name), Some(number)) = (slice_port_name, number) else {
                continue;
            };
            if slice_port_name != port_name || slice.endpoints.is_empty() {
                continue;
            }
            let start = random_below(slice.endpoints.len());
            for i in 0..slice.endpoints.len() {
                let (address, ready) = &slice.endpoints[(start + i) % slice.endpoints.len()];
                if ready.unwrap_or(true) {
                    return Ok(Endpoint::of(address, port_u16(*number)));
                }
            }
        }
    }
    Err(ResolveError::NoEndpoints(name.to_owned()))
}

/// A port as validation keeps it (1–65535); anything else dials port 0 and fails there.
fn port_u16(port: i64) -> u16 {
    u16::try_from(port).unwrap_or(0)
}

/// This server as its loopback client reaches it: the bind address, an unspecified one
/// replaced by the loopback address of its family (upstream's LoopbackHostPort).
pub fn loopback(bind: IpAddr, port: u16) -> SocketAddr {
    let ip = match bind {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        other => other,
    };
    SocketAddr::new(ip, port)
}

/// A number below `n` (n > 0) at random: which endpoint takes the call, as upstream's
/// `rand.Intn`.
fn random_below(n: usize) -> usize {
    use std::hash::{BuildHasher, Hasher};
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    (random % n.max(1) as u64) as usize
}

impl Follower for ServiceResolver {
    const WHAT: &'static str = "service resolver";

    fn resources(&self) -> &'static [&'static str] {
        match self.source {
            EndpointSource::Endpoints => &WITH_ENDPOINTS,
            EndpointSource::EndpointSlices => &WITH_SLICES,
        }
    }

    fn reset(&self, listed: Vec<Vec<(String, Value)>>) {
        let mut fresh = Objects::default();
        for (resource, objects) in listed.into_iter().enumerate() {
            for (key, object) in objects {
                fresh.put(self.source, resource, &key, Some(&object));
            }
        }
        *self.objects.write().unwrap_or_else(|e| e.into_inner()) = fresh;
    }

    fn apply(&self, resource: usize, key: &str, object: Option<Value>) {
        let mut objects = self.objects.write().unwrap_or_else(|e| e.into_inner());
        objects.put(self.source, resource, key, object.as_ref());
    }
}

#[cfg(test)]
mod tests;
