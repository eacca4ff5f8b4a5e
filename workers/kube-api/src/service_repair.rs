//! Upstream's service IP and node port repair (the `start-service-ip-repair-controllers`
//! post-start hook), run at start and then every few minutes:
//! - every stored Service's cluster IPs and node ports are checked against what the
//!   allocator holds, and what is missing is taken for it. So Services another server
//!   created (kube-apiserver keeps node ports in a bitmap, this server in one key per
//!   port) keep what they hold when this server takes their etcd over, and a crash
//!   between recording a claim and storing its Service heals;
//! - what is held for no Service is given back: a node port once three passes in a row
//!   found it leaked (upstream's count, so a Service being created is not robbed of the
//!   port it has just claimed), an IPAddress the allocator made once its Service is gone
//!   or no longer has its IP and it is older than a minute (upstream's grace).
//!
//! What a pass repairs or cannot repair is logged, and recorded as Warning events on the
//! Service (or the IPAddress cleaned up) with upstream's reasons and notes, by
//! `ipallocator-repair-controller` and `portallocator-repair-controller`. A node port
//! claimed anew gets no `PortNotAllocated` event: upstream keeps node ports in one bitmap
//! and this server one key per port, so after taking over kube-apiserver's etcd every
//! port is "missing" here without anything being wrong.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, SystemTime};

use kas_server::health::HookHandle;
use kas_server::rest::RestStore;
use kas_server::status::Status;
use kas_server::storage::{ListOptions, ReadVersion};
use serde_json::Value;

use crate::event_recorder::Recorder;
use crate::services::{ip_family, node_ports, s, Allocator, IpClaim, FAMILY_LABEL, MANAGED_BY};

/// Environment variable: the period between passes in milliseconds (tests shorten it).
pub(crate) const INTERVAL_ENV: &str = "KUBE_APISERVER_RS_SERVICE_REPAIR_INTERVAL_MS";
/// Upstream's period between passes.
const INTERVAL: Duration = Duration::from_secs(180);
/// Passes in a row that must find a node port leaked before it is given back.
const PASSES_BEFORE_PORT_CLEANUP: u32 = 3;
/// How old an orphaned IPAddress must be before it is deleted: a Service's create claims
/// its IP before it stores the Service, and may take up to the request timeout.
const IP_GRACE: Duration = Duration::from_secs(60);

fn interval() -> Duration {
    kas_server::period::from_env(INTERVAL_ENV, INTERVAL)
}

/// Runs the repair: the hook is done after the first pass that could list everything
/// (retried until then); later passes follow every [`interval`].
pub(crate) fn start(
    alloc: Allocator,
    services: RestStore,
    events: Option<RestStore>,
    hook: HookHandle,
) {
    tokio::spawn(async move {
        let recorders = events.map(|events| Recorders {
            ips: Recorder::new(events.clone(), "ipallocator-repair-controller"),
            ports: Recorder::new(events, "portallocator-repair-controller"),
        });
        let mut repair = Repair {
            alloc,
            services,
            port_leaks: Leaks::default(),
            recorders,
        };
        let mut retry = kas_server::retry::Retry::up_to(Duration::from_secs(1));
        while let Err(e) = repair.pass().await {
            tracing::debug!(error = %e.message, "service repair: listing");
            retry.wait().await;
        }
        hook.done();
        loop {
            tokio::time::sleep(interval()).await;
            if let Err(e) = repair.pass().await {
                port_metrics().reconcile_errors.inc();
                tracing::warn!(error = %e.message, "service repair: listing");
            }
        }
    });
}

struct Repair {
    alloc: Allocator,
    services: RestStore,
    port_leaks: Leaks,
    recorders: Option<Recorders>,
}

/// The two controllers' event recorders.
struct Recorders {
    ips: Recorder,
    ports: Recorder,
}

const SERVICE: (&str, &str) = ("v1", "Service");
const IPADDRESS: (&str, &str) = ("networking.k8s.io/v1", "IPAddress");

/// A node port key as listed: its port, owner and revision.
struct PortClaim {
    port: i64,
    owner: String,
    revision: i64,
}

impl Repair {
    async fn pass(&mut self) -> Result<(), Status> {
        // The claims are read before the Services: a claim made after this read is not
        // looked at, one made before for a Service not stored yet waits out the grace.
        let ips = self.alloc.ipaddresses().list_objects("").await?.0;
        let ports = self.port_claims().await?;
        let services = self.services.list_objects("").await?.0;
        let held = Held::of(&ips, &ports);
        for svc in &services {
            claim(&self.alloc, &held, svc, self.recorders.as_ref()).await;
        }
        self.release_leaked_ports(&services, ports).await;
        self.release_orphaned_ips(&services, ips).await;
        Ok(())
    }

    async fn port_claims(&self) -> Result<Vec<PortClaim>, Status> {
        let storage = self.alloc.ipaddresses().storage();
        let prefix = self.alloc.port_prefix();
        let page = storage
            .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
            .await
            .map_err(|e| e.to_status("", "services", ""))?;
        Ok(page
            .items
            .into_iter()
            .filter_map(|st| {
                let port = st.key.strip_prefix(&prefix)?.parse().ok()?;
                Some(PortClaim {
                    port,
                    owner: String::from_utf8_lossy(&st.value).into_owned(),
                    revision: st.revision,
                })
            })
            .collect())
    }

    async fn release_leaked_ports(&mut self, services: &[Value], claims: Vec<PortClaim>) {
        let held: HashSet<i64> = services.iter().flat_map(node_ports).collect();
        let leaked: Vec<&PortClaim> = claims.iter().filter(|c| !held.contains(&c.port)).collect();
        let release = self.port_leaks.observe(leaked.iter().map(|c| c.port));
        for claim in leaked {
            if !release.contains(&claim.port) {
                tracing::warn!(port = claim.port, owner = %claim.owner, "the node port may have leaked: flagging for later clean up");
                continue;
            }
            tracing::warn!(port = claim.port, owner = %claim.owner, "the node port appears to have leaked: cleaning up");
            port_error("leak");
            // Only the claim as listed: one made again since stays.
            let key = format!("{}{}", self.alloc.port_prefix(), claim.port);
            let storage = self.alloc.ipaddresses().storage();
            if let Err(e) = storage.delete(&key, Some(claim.revision)).await {
                tracing::debug!(port = claim.port, error = %e, "service repair: node port not released");
            }
        }
    }

    async fn release_orphaned_ips(&self, services: &[Value], ips: Vec<Value>) {
        let by_name: HashMap<(&str, &str), &Value> = services
            .iter()
            .map(|svc| {
                let key = (s(svc, "/metadata/namespace"), s(svc, "/metadata/name"));
                (key, svc)
            })
            .collect();
        let now = SystemTime::now();
        for ip in &ips {
            if label(ip, MANAGED_BY.0) != MANAGED_BY.1 {
                continue;
            }
            let name = s(ip, "/metadata/name");
            let parent = (
                s(ip, "/spec/parentRef/namespace"),
                s(ip, "/spec/parentRef/name"),
            );
            let orphaned = if !s(ip, "/spec/parentRef/group").is_empty()
                || s(ip, "/spec/parentRef/resource") != "services"
            {
                // Made by the allocator but changed since: not a Service's any more.
                Some(MODIFIED)
            } else {
                match by_name.get(&parent) {
                    None => Some(LEAKED),
                    Some(svc) if !cluster_ips(svc).contains(&name) => Some(WRONG_REFERENCE),
                    Some(_) => None,
                }
            };
            let Some(why) = orphaned else {
                continue;
            };
            let created =
                humantime::parse_rfc3339_weak(s(ip, "/metadata/creationTimestamp")).unwrap_or(now);
            if now.duration_since(created).unwrap_or_default() < IP_GRACE {
                continue;
            }
            tracing::warn!(ip = name, service = %format!("{}/{}", parent.0, parent.1), "IPAddress {why}: cleaning up");
            if let Some(r) = &self.recorders {
                let (reason, note) = match why {
                    WRONG_REFERENCE => (
                        "IPAddressWrongReference",
                        format!("IPAddress: {name} for Service {}/{} has a wrong reference; cleaning up", parent.0, parent.1),
                    ),
                    LEAKED => (
                        "IPAddressNotAllocated",
                        format!("IPAddress: {name} for Service {}/{} appears to have leaked: cleaning up", parent.0, parent.1),
                    ),
                    _ => (
                        "IPAddressNotAllocated",
                        format!("IPAddress {name} appears to have been modified, not referencing a Service {}: cleaning up", go_parent_ref(ip)),
                    ),
                };
                r.ips
                    .warn(IPADDRESS, ip, reason, "IPAddressAllocation", &note)
                    .await;
            }
            let revision = s(ip, "/metadata/resourceVersion").parse().ok();
            let key = self
                .alloc
                .ipaddresses()
                .storage()
                .key("ipaddresses", None, name);
            if let Err(e) = self
                .alloc
                .ipaddresses()
                .storage()
                .delete(&key, revision)
                .await
            {
                tracing::debug!(ip = name, error = %e, "service repair: IPAddress not deleted");
            }
        }
    }
}

const MODIFIED: &str = "appears to have been modified, not referencing a Service";
const LEAKED: &str = "appears to have leaked";
const WRONG_REFERENCE: &str = "has a wrong reference";

/// An IPAddress's parentRef as Go's `%v` prints the pointer in upstream's note.
fn go_parent_ref(ip: &Value) -> String {
    format!(
        "&{{{} {} {} {}}}",
        s(ip, "/spec/parentRef/group"),
        s(ip, "/spec/parentRef/resource"),
        s(ip, "/spec/parentRef/namespace"),
        s(ip, "/spec/parentRef/name")
    )
}

/// The cluster IPs `svc` holds.
fn cluster_ips(svc: &Value) -> Vec<&str> {
    match svc.pointer("/spec/clusterIPs").and_then(Value::as_array) {
        Some(ips) => ips.iter().filter_map(Value::as_str).collect(),
        None => vec![s(svc, "/spec/clusterIP")],
    }
}

/// Who holds each claim, as a pass listed them: `namespace/name` of the Service an
/// IPAddress names (empty when it names no Service) and of a node port's owner.
struct Held<'a> {
    ips: HashMap<&'a str, String>,
    /// The IPAddresses without the labels the allocator puts on its own (family and
    /// managed-by), which upstream's repair makes again.
    mislabelled: HashSet<&'a str>,
    ports: HashMap<i64, &'a str>,
}

/// The value of an IPAddress's label `key` ("" without it).
fn label<'a>(ip: &'a Value, key: &str) -> &'a str {
    s(ip, &format!("/metadata/labels/{}", key.replace('/', "~1")))
}

/// Whether `ip` has the family and managed-by labels the allocator gives (upstream's
/// verifyIPAddressLabels).
fn labelled(ip: &Value) -> bool {
    let family = s(ip, "/metadata/name").parse().map(ip_family);
    family.is_ok_and(|f| label(ip, FAMILY_LABEL) == f) && label(ip, MANAGED_BY.0) == MANAGED_BY.1
}

impl<'a> Held<'a> {
    fn of(ips: &'a [Value], ports: &'a [PortClaim]) -> Held<'a> {
        let owner = |ip: &Value| {
            let service = s(ip, "/spec/parentRef/group").is_empty()
                && s(ip, "/spec/parentRef/resource") == "services";
            if !service {
                return String::new();
            }
            format!(
                "{}/{}",
                s(ip, "/spec/parentRef/namespace"),
                s(ip, "/spec/parentRef/name")
            )
        };
        Held {
            ips: ips
                .iter()
                .map(|ip| (s(ip, "/metadata/name"), owner(ip)))
                .collect(),
            mislabelled: ips
                .iter()
                .filter(|ip| !labelled(ip))
                .map(|ip| s(ip, "/metadata/name"))
                .collect(),
            ports: ports.iter().map(|c| (c.port, c.owner.as_str())).collect(),
        }
    }
}

/// Claims what `svc` holds and the allocator does not have yet; a claim listed for
/// another Service is reported, a claim listed for `svc` costs nothing.
async fn claim(alloc: &Allocator, held: &Held<'_>, svc: &Value, recorders: Option<&Recorders>) {
    let ip_event = |reason: &'static str, note: String| async move {
        if let Some(r) = recorders {
            r.ips
                .warn(SERVICE, svc, reason, "ClusterIPAllocation", &note)
                .await;
        }
    };
    let name = format!(
        "{}/{}",
        s(svc, "/metadata/namespace"),
        s(svc, "/metadata/name")
    );
    for ip in cluster_ips(svc)
        .into_iter()
        .filter(|ip| !ip.is_empty() && *ip != "None")
    {
        let Ok(addr) = ip.parse() else {
            continue;
        };
        let family = ip_family(addr);
        if !alloc.in_range(addr) {
            // Another family, or a range since changed: upstream reports it and goes on.
            tracing::warn!(service = %name, ip, "cluster IP is not within the service CIDR; please recreate the service");
            let note = format!("Cluster IP [{family}]: {ip} is not within any configured Service CIDR; please recreate service");
            ip_event("ClusterIPOutOfRange", note).await;
            continue;
        }
        let text = addr.to_string();
        let claimed = match held.ips.get(text.as_str()) {
            Some(owner) if *owner == name && held.mislabelled.contains(text.as_str()) => {
                // Upstream's repair makes it again with the allocator's labels.
                tracing::warn!(service = %name, ip, "IPAddress lacks the allocator's labels: recreating it");
                let retaken = alloc.retake_ip(addr, svc).await;
                // Its own repair, not a missing IP: no event, as upstream.
                retaken.map(|c| {
                    if c == IpClaim::Created {
                        IpClaim::Held
                    } else {
                        c
                    }
                })
            }
            Some(owner) if *owner == name => Ok(IpClaim::Held),
            Some(_) => Ok(IpClaim::Taken),
            None => alloc.take_ip(addr, svc).await,
        };
        match claimed {
            Ok(IpClaim::Created) => {
                tracing::warn!(service = %name, ip, "cluster IP is not allocated; repairing");
                let note = format!("Cluster IP [{family}]: {ip} is not allocated; repairing");
                ip_event("ClusterIPNotAllocated", note).await;
            }
            Ok(IpClaim::Held) => {}
            Ok(IpClaim::Taken) => {
                tracing::warn!(service = %name, ip, "cluster IP was assigned to multiple services; please recreate the service");
                let note = format!("Cluster IP [{family}]:{ip} was assigned to multiple services; please recreate service");
                ip_event("ClusterIPAlreadyAllocated", note).await;
            }
            Err(e) => {
                tracing::warn!(service = %name, ip, error = %e.message, "service repair: cluster IP")
            }
        }
    }
    for port in node_ports(svc) {
        let claimed = match held.ports.get(&port) {
            Some(owner) => Ok(*owner == name),
            None => alloc.claim_port(port, svc).await,
        };
        match claimed {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(service = %name, port, "node port was assigned to multiple services; please recreate the service");
                port_error("duplicate");
                if let Some(r) = recorders {
                    let note = format!(
                        "Port {port} was assigned to multiple services; please recreate service"
                    );
                    r.ports
                        .warn(
                            SERVICE,
                            svc,
                            "PortAlreadyAllocated",
                            "PortAllocation",
                            &note,
                        )
                        .await;
                }
            }
            Err(e) => {
                tracing::warn!(service = %name, port, error = %e.message, "service repair: node port");
                port_error("unknown");
            }
        }
    }
}

/// Upstream's node port repair metrics.
struct PortMetrics {
    errors: prometheus::IntCounterVec,
    reconcile_errors: prometheus::IntCounter,
}

fn port_metrics() -> &'static PortMetrics {
    use kas_server::metrics::{help, register, Stability};
    static METRICS: std::sync::OnceLock<PortMetrics> = std::sync::OnceLock::new();
    // Fixed names and labels: building them cannot fail.
    METRICS.get_or_init(|| PortMetrics {
        errors: register(
            prometheus::IntCounterVec::new(
                prometheus::Opts::new(
                    "apiserver_nodeport_repair_port_errors_total",
                    help(Stability::Alpha, "Number of errors detected on ports by the repair loop broken down by type of error: leak, repair, full, outOfRange, duplicate, unknown"),
                ),
                &["type"],
            )
            .expect("port_errors_total"),
        ),
        reconcile_errors: register(
            prometheus::IntCounter::with_opts(prometheus::Opts::new(
                "apiserver_nodeport_repair_reconcile_errors_total",
                help(Stability::Alpha, "Number of reconciliation failures on the nodeport repair reconcile loop"),
            ))
            .expect("reconcile_errors_total"),
        ),
    })
}

/// One node port problem a pass found, by upstream's type (a port claimed anew is not
/// counted as `repair`, for the reason given at the top).
fn port_error(kind: &str) {
    port_metrics().errors.with_label_values(&[kind]).inc();
}

/// How many more passes each leaked node port is kept for.
#[derive(Debug, Default)]
struct Leaks(HashMap<i64, u32>);

impl Leaks {
    /// Records one pass's leaked ports; returns those to give back now. A port found
    /// leaked [`PASSES_BEFORE_PORT_CLEANUP`] passes in a row is given back; one not
    /// leaked in a pass starts over.
    fn observe(&mut self, leaked: impl IntoIterator<Item = i64>) -> HashSet<i64> {
        let mut next = HashMap::new();
        let mut release = HashSet::new();
        for port in leaked {
            let seen = self.0.get(&port).copied().unwrap_or(0) + 1;
            if seen >= PASSES_BEFORE_PORT_CLEANUP {
                release.insert(port);
            } else {
                next.insert(port, seen);
            }
        }
        self.0 = next;
        release
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_is_given_back_on_the_third_pass_in_a_row_that_finds_it_leaked() {
        let mut leaks = Leaks::default();
        assert!(leaks.observe([30001, 30002]).is_empty());
        assert!(leaks.observe([30001, 30002]).is_empty());
        // 30002 was used again (not leaked in this pass): it starts over.
        assert_eq!(leaks.observe([30001]), HashSet::from([30001]));
        assert!(leaks.observe([30002]).is_empty());
        assert!(leaks.observe([30002]).is_empty());
        assert_eq!(leaks.observe([30002]), HashSet::from([30002]));
        // Given back, it is forgotten: leaked again, it waits three passes again.
        assert!(leaks.observe([30002]).is_empty());
    }

    #[test]
    fn cluster_ips_prefers_the_list_and_falls_back_to_the_single_field() {
        let both = serde_json::json!({"spec": {"clusterIP": "10.0.0.5", "clusterIPs": ["10.0.0.5", "fd00::5"]}});
        assert_eq!(cluster_ips(&both), ["10.0.0.5", "fd00::5"]);
        let old = serde_json::json!({"spec": {"clusterIP": "10.0.0.6"}});
        assert_eq!(cluster_ips(&old), ["10.0.0.6"]);
    }
}
