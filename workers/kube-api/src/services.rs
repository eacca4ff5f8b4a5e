//! Service IP and node port allocation, as hooks around the services store.
//!
//! A cluster IP is held by an `networking.k8s.io/v1` IPAddress object named by the IP
//! (upstream's allocator since MultiCIDRServiceAllocator went GA), so the compare-and-swap
//! create in etcd is what prevents double allocation, across restarts and API servers. A
//! node port is held the same way by a key of its own under `ranges/servicenodeports/`.

use std::net::{IpAddr, Ipv4Addr};

use ipnet::IpNet;
use kas_server::rest::{invalid_value, HookFuture, Hooks, RestStore, WriteOptions};
use kas_server::status::{Status, StatusCause};
use kas_server::storage::{ReadVersion, StorageError};
use serde_json::{json, Value};

#[path = "service_ports.rs"]
mod ports;

use ports::needs_health_check_port;
pub(crate) use ports::node_ports;

/// Marks, during an update, a port entry whose node port the service already holds.
const HELD: &str = "\u{0}held";

/// The labels the allocator puts on the IPAddresses it makes: the family's key, and
/// the managed-by key and value.
pub(crate) const FAMILY_LABEL: &str = "ipaddress.kubernetes.io/ip-family";
pub(crate) const MANAGED_BY: (&str, &str) =
    ("ipaddress.kubernetes.io/managed-by", "ipallocator.k8s.io");

/// An IP's family as Services and IPAddresses name it.
pub(crate) fn ip_family(ip: IpAddr) -> &'static str {
    if ip.is_ipv4() {
        "IPv4"
    } else {
        "IPv6"
    }
}

/// What claiming an IP found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IpClaim {
    /// It was free and is now the Service's.
    Created,
    /// The Service held it already.
    Held,
    /// Another holds it.
    Taken,
}

/// Allocates and releases cluster IPs and node ports.
#[derive(Debug, Clone)]
pub(crate) struct Allocator {
    range: IpNet,
    node_ports: (u16, u16),
    ipaddresses: RestStore,
}

/// The string at JSON pointer `p` of `o`, or "".
pub(crate) fn s<'a>(o: &'a Value, p: &str) -> &'a str {
    o.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// A 422 for Service `name`.
fn invalid(name: &str, causes: Vec<StatusCause>) -> Status {
    kas_server::rest::invalid("", "Service", name, causes)
}

impl Allocator {
    pub(crate) fn new(
        range: &str,
        node_ports: (u16, u16),
        ipaddresses: RestStore,
    ) -> Option<Allocator> {
        let range: IpNet = range.parse().ok()?;
        Some(Allocator {
            range,
            node_ports,
            ipaddresses,
        })
    }

    /// The IPAddress objects' store: the cluster IPs' claims.
    pub(crate) fn ipaddresses(&self) -> &RestStore {
        &self.ipaddresses
    }

    /// Whether `ip` is one this allocator hands out.
    pub(crate) fn in_range(&self, ip: IpAddr) -> bool {
        self.range.contains(&ip) && ip != self.range.network()
    }

    /// The first IP of the range: the `kubernetes` service's.
    pub(crate) fn first_ip(&self) -> IpAddr {
        nth(&self.range, 1).unwrap_or(self.range.network())
    }

    fn size(&self) -> u64 {
        match self.range {
            IpNet::V4(n) => (1u64 << (32 - n.prefix_len())).saturating_sub(2).max(1),
            IpNet::V6(n) => 1u64 << (128 - n.prefix_len()).min(32),
        }
    }

    /// Holds `ip` for `svc`; false if someone else holds it.
    pub(crate) async fn claim_ip(&self, ip: IpAddr, svc: &Value) -> Result<bool, Status> {
        Ok(self.take_ip(ip, svc).await? != IpClaim::Taken)
    }

    /// Deletes the IPAddress of `ip` and makes it again for `svc` (one whose labels are
    /// not the allocator's).
    pub(crate) async fn retake_ip(&self, ip: IpAddr, svc: &Value) -> Result<IpClaim, Status> {
        let key = self
            .ipaddresses
            .storage()
            .key("ipaddresses", None, &ip.to_string());
        match self.ipaddresses.storage().delete(&key, None).await {
            Ok(_) | Err(StorageError::NotFound) => {}
            Err(e) => return Err(e.to_status("networking.k8s.io", "ipaddresses", &ip.to_string())),
        }
        self.take_ip(ip, svc).await
    }

    /// Holds `ip` for `svc`, and says whether it was free, held for `svc` already or
    /// held by someone else.
    pub(crate) async fn take_ip(&self, ip: IpAddr, svc: &Value) -> Result<IpClaim, Status> {
        let obj = json!({
            "apiVersion": self.ipaddresses.resource().storage_api_version(),
            "kind": "IPAddress",
            "metadata": {
                "name": ip.to_string(),
                "labels": {
                    FAMILY_LABEL: ip_family(ip),
                    MANAGED_BY.0: MANAGED_BY.1,
                },
            },
            "spec": {"parentRef": {
                "group": "", "resource": "services",
                "namespace": s(svc, "/metadata/namespace"), "name": s(svc, "/metadata/name"),
            }},
        });
        let key = self
            .ipaddresses
            .storage()
            .key("ipaddresses", None, &ip.to_string());
        let bytes = serde_json::to_vec(&obj).map_err(Status::internal)?;
        match self.ipaddresses.storage().create(&key, bytes, None).await {
            Ok(_) => Ok(IpClaim::Created),
            // Held already: fine if by this same service (a retried create).
            Err(StorageError::AlreadyExists) => {
                let held = self
                    .ipaddresses
                    .storage()
                    .get(&key, ReadVersion::Latest)
                    .await
                    .ok()
                    .flatten()
                    .and_then(|st| serde_json::from_slice::<Value>(&st.value).ok());
                // Field by field: a stored value read back from protobuf leaves out
                // empty strings (`group: ""` of the core group), as upstream serves it.
                let parent = |v: &Value| {
                    ["group", "resource", "namespace", "name"]
                        .map(|f| v.pointer(&format!("/spec/parentRef/{f}")).cloned())
                        .map(|f| f.filter(|v| v != "").unwrap_or(Value::Null))
                };
                Ok(match held.is_some_and(|h| parent(&h) == parent(&obj)) {
                    true => IpClaim::Held,
                    false => IpClaim::Taken,
                })
            }
            Err(e) => Err(e.to_status("networking.k8s.io", "ipaddresses", &ip.to_string())),
        }
    }

    async fn release_ip(&self, ip: &str) {
        let key = self.ipaddresses.storage().key("ipaddresses", None, ip);
        let _ = self.ipaddresses.storage().delete(&key, None).await;
    }

    async fn allocate_ip(&self, svc: &mut Value, dry_run: bool) -> Result<Vec<String>, Status> {
        let name = s(svc, "/metadata/name").to_owned();
        let requested = s(svc, "/spec/clusterIP").to_owned();
        if s(svc, "/spec/type") == "ExternalName" || requested == "None" {
            if requested == "None" {
                svc["spec"]["clusterIPs"] = json!(["None"]);
            }
            return Ok(Vec::new());
        }
        if !requested.is_empty() {
            let ip: IpAddr = requested.parse().map_err(|_| {
                invalid(
                    &name,
                    vec![invalid_value(
                        "spec.clusterIPs[0]",
                        &requested,
                        "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                    )],
                )
            })?;
            if !self.range.contains(&ip) || ip == self.range.network() {
                return Err(invalid(&name, vec![invalid_value(
                    "spec.clusterIPs[0]",
                    &requested,
                    &format!("failed to allocate IP {requested}: the provided IP ({requested}) is not in the valid range. The range of valid IPs is {}", self.range),
                )]));
            }
            if !dry_run && !self.claim_ip(ip, svc).await? {
                return Err(invalid(
                    &name,
                    vec![invalid_value(
                        "spec.clusterIPs[0]",
                        &requested,
                        &format!(
                            "failed to allocate IP {requested}: provided IP is already allocated"
                        ),
                    )],
                ));
            }
            set_ip(svc, ip);
            return Ok(vec![requested]);
        }
        // The reserved band of a range of this size: what upstream's RangeSize counts,
        // every address of the CIDR, network and broadcast included.
        let cidr_size = match self.range {
            IpNet::V4(n) => 1u64 << (32 - n.prefix_len()),
            IpNet::V6(n) => 1u64
                .checked_shl(128 - u32::from(n.prefix_len()))
                .unwrap_or(u64::MAX),
        };
        let reserved = reserved_band(cidr_size, 16, 16, 256);
        let tries = dynamic_order(self.size(), reserved).map(|i| i + 1);
        for n in tries {
            let Some(ip) = nth(&self.range, n) else {
                continue;
            };
            if ip == self.first_ip() && name != "kubernetes" {
                continue;
            }
            if dry_run || self.claim_ip(ip, svc).await? {
                set_ip(svc, ip);
                return Ok(if dry_run {
                    Vec::new()
                } else {
                    vec![ip.to_string()]
                });
            }
        }
        Err(Status::internal(format!(
            "failed to allocate a serviceIP: range is full ({})",
            self.range
        )))
    }
}

fn set_ip(svc: &mut Value, ip: IpAddr) {
    svc["spec"]["clusterIP"] = json!(ip.to_string());
    svc["spec"]["clusterIPs"] = json!([ip.to_string()]);
    svc["spec"]["ipFamilies"] = json!([ip_family(ip)]);
    if svc.pointer("/spec/ipFamilyPolicy").is_none() {
        svc["spec"]["ipFamilyPolicy"] = json!("SingleStack");
    }
}

/// The size of the lower band of a range that dynamic allocation leaves to requests for
/// a fixed value until the rest is full (KEP-3070 for service IPs, KEP-3668 for node
/// ports): `size / step`, at least `min` and at most `max`; none for a range of `min`
/// values or fewer.
fn reserved_band(size: u64, min: u64, step: u64, max: u64) -> u64 {
    if size <= min {
        return 0;
    }
    (size / step).clamp(min, max)
}

/// The offsets, in `0..size`, a dynamic allocation tries in turn, as upstream's
/// allocators do: the upper band above `reserved` from a random start and around it,
/// then the reserved band the same way.
fn dynamic_order(size: u64, reserved: u64) -> impl Iterator<Item = u64> {
    let reserved = reserved.min(size);
    let upper = size - reserved;
    let (a, b) = (crate::random_below(upper), crate::random_below(reserved));
    (0..upper)
        .map(move |i| reserved + (a + i) % upper)
        .chain((0..reserved).map(move |i| (b + i) % reserved))
}

/// The `n`th address of `net`.
fn nth(net: &IpNet, n: u64) -> Option<IpAddr> {
    match net {
        IpNet::V4(v4) => {
            let base = u32::from(v4.network());
            let ip = base.checked_add(u32::try_from(n).ok()?)?;
            let addr = Ipv4Addr::from(ip);
            v4.contains(&addr).then_some(IpAddr::V4(addr))
        }
        IpNet::V6(v6) => {
            let base = u128::from(v6.network());
            let addr = std::net::Ipv6Addr::from(base.checked_add(u128::from(n))?);
            v6.contains(&addr).then_some(IpAddr::V6(addr))
        }
    }
}

impl Hooks for Allocator {
    fn before_create<'a>(
        &'a self,
        _store: &'a RestStore,
        obj: &'a mut Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        let dry_run = opts.dry_run;
        Box::pin(async move {
            let ips = self.allocate_ip(obj, dry_run).await?;
            if let Err(e) = self.allocate_ports(obj, dry_run).await {
                for ip in &ips {
                    self.release_ip(ip).await;
                }
                return Err(e);
            }
            Ok(())
        })
    }

    fn before_update<'a>(
        &'a self,
        _store: &'a RestStore,
        obj: &'a mut Value,
        old: &'a Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        let dry_run = opts.dry_run;
        Box::pin(async move {
            // An omitted cluster IP was filled in by the prepare step (defaults::
            // service_update), before validation, as upstream's REST layer does.
            // The health check port stays while it is needed, and goes when it is not.
            let old_check = old.pointer("/spec/healthCheckNodePort").cloned();
            let given_check = obj
                .pointer("/spec/healthCheckNodePort")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if !needs_health_check_port(obj) {
                if let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) {
                    spec.remove("healthCheckNodePort");
                }
            } else if given_check == 0 {
                if let Some(port) = old_check {
                    obj["spec"]["healthCheckNodePort"] = port;
                }
            }
            let before = node_ports(old);
            let ty = s(obj, "/spec/type");
            if ty == "NodePort" || ty == "LoadBalancer" {
                // Ports this service already holds need no new claim.
                let mut marked = obj.clone();
                if let Some(ports) = marked
                    .pointer_mut("/spec/ports")
                    .and_then(Value::as_array_mut)
                {
                    for p in ports.iter_mut() {
                        let held = p
                            .get("nodePort")
                            .and_then(Value::as_i64)
                            .is_some_and(|n| before.contains(&n));
                        if held {
                            if let Some(m) = p.as_object_mut() {
                                m.insert(HELD.into(), json!(true));
                            }
                        }
                    }
                }
                self.allocate_new_ports(&mut marked, dry_run).await?;
                if let Some(ports) = marked
                    .pointer_mut("/spec/ports")
                    .and_then(Value::as_array_mut)
                {
                    for p in ports.iter_mut() {
                        if let Some(m) = p.as_object_mut() {
                            m.remove(HELD);
                        }
                    }
                }
                obj["spec"]["ports"] = marked["spec"]["ports"].clone();
                if let Some(port) = marked.pointer("/spec/healthCheckNodePort") {
                    obj["spec"]["healthCheckNodePort"] = port.clone();
                }
            }
            if !dry_run {
                let after = node_ports(obj);
                for p in before.iter().filter(|p| !after.contains(p)) {
                    self.release_port(*p).await;
                }
            }
            Ok(())
        })
    }

    fn create_failed<'a>(&'a self, store: &'a RestStore, obj: &'a Value) -> HookFuture<'a, ()> {
        Box::pin(async move {
            // A create whose name is taken by a Service holding the same IP and ports (a
            // retried create; the `kubernetes` Service ensured at every start) claimed
            // nothing new: what the stored Service holds stays held.
            let stored = store
                .read_object(s(obj, "/metadata/namespace"), s(obj, "/metadata/name"))
                .await
                .ok();
            let held_ip = stored
                .as_ref()
                .map(|st| s(st, "/spec/clusterIP"))
                .unwrap_or("");
            let ip = s(obj, "/spec/clusterIP");
            if !ip.is_empty() && ip != "None" && ip != held_ip {
                self.release_ip(ip).await;
            }
            let held_ports = stored.as_ref().map(node_ports).unwrap_or_default();
            let ports: Vec<i64> = node_ports(obj)
                .into_iter()
                .filter(|p| !held_ports.contains(p))
                .collect();
            self.release_ports(&ports).await;
        })
    }

    fn after_delete<'a>(&'a self, _store: &'a RestStore, obj: &'a Value) -> HookFuture<'a, ()> {
        Box::pin(async move {
            let ip = s(obj, "/spec/clusterIP");
            if !ip.is_empty() && ip != "None" {
                self.release_ip(ip).await;
            }
            self.release_ports(&node_ports(obj)).await;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_allocation_takes_the_upper_band_first() {
        // A /24 keeps 16 of its 254 addresses for fixed requests; a /28 keeps none.
        assert_eq!(reserved_band(256, 16, 16, 256), 16);
        assert_eq!(reserved_band(16, 16, 16, 256), 0);
        assert_eq!(reserved_band(1 << 20, 16, 16, 256), 256);
        // The default node port range keeps 86 of its 2768 ports.
        assert_eq!(reserved_band(2768, 16, 32, 128), 86);
        let order: Vec<u64> = dynamic_order(254, 16).collect();
        assert_eq!(order.len(), 254);
        assert!(order[..238].iter().all(|&i| i >= 16));
        assert!(order[238..].iter().all(|&i| i < 16));
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..254).collect::<Vec<_>>());
        // Each band is walked in order from its start, wrapping once.
        let start = order[0];
        assert!(order[..238]
            .iter()
            .enumerate()
            .all(|(k, &i)| i == 16 + (start - 16 + k as u64) % 238));
        assert_eq!(dynamic_order(10, 0).count(), 10);
    }

    #[test]
    fn nth_address() {
        let net: IpNet = "10.0.0.0/24".parse().unwrap();
        assert_eq!(nth(&net, 1), Some("10.0.0.1".parse().unwrap()));
        assert_eq!(nth(&net, 254), Some("10.0.0.254".parse().unwrap()));
        assert_eq!(nth(&net, 256), None);
    }
}
