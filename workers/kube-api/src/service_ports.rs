//! Node ports: one key per port under `/registry/ranges/servicenodeports/`, holding the
//! owner Service's `namespace/name`; the ports of a Service's entries and the health check
//! port of a load balancer that keeps traffic on the node.

use kas_server::rest::invalid_value;
use kas_server::status::Status;
use kas_server::storage::{ReadVersion, StorageError};
use serde_json::{json, Value};

use super::{dynamic_order, invalid, reserved_band, s, Allocator, HELD};

impl Allocator {
    /// The prefix (with a trailing `/`) of the node port keys.
    pub(crate) fn port_prefix(&self) -> String {
        format!(
            "{}/ranges/servicenodeports/",
            self.ipaddresses
                .storage()
                .list_prefix("", None)
                .trim_end_matches('/')
        )
    }

    pub(super) fn port_key(&self, port: i64) -> String {
        format!("{}{port}", self.port_prefix())
    }

    pub(crate) async fn claim_port(&self, port: i64, svc: &Value) -> Result<bool, Status> {
        let owner = format!(
            "{}/{}",
            s(svc, "/metadata/namespace"),
            s(svc, "/metadata/name")
        );
        match self
            .ipaddresses
            .storage()
            .create(&self.port_key(port), owner.clone().into_bytes(), None)
            .await
        {
            Ok(_) => Ok(true),
            Err(StorageError::AlreadyExists) => {
                let held = self
                    .ipaddresses
                    .storage()
                    .get(&self.port_key(port), ReadVersion::Latest)
                    .await
                    .ok()
                    .flatten();
                Ok(held.is_some_and(|st| st.value == owner.as_bytes()))
            }
            Err(e) => Err(e.to_status("", "services", s(svc, "/metadata/name"))),
        }
    }

    pub(super) async fn release_port(&self, port: i64) {
        let _ = self
            .ipaddresses
            .storage()
            .delete(&self.port_key(port), None)
            .await;
    }

    /// Whether the node port is free (for dry runs).
    pub(super) async fn port_free(&self, port: i64) -> bool {
        matches!(
            self.ipaddresses
                .storage()
                .get(&self.port_key(port), ReadVersion::Latest)
                .await,
            Ok(None)
        )
    }

    pub(super) async fn allocate_ports(
        &self,
        svc: &mut Value,
        dry_run: bool,
    ) -> Result<Vec<i64>, Status> {
        let ty = s(svc, "/spec/type").to_owned();
        if ty != "NodePort" && ty != "LoadBalancer" {
            return Ok(Vec::new());
        }
        let name = s(svc, "/metadata/name").to_owned();
        let (lo, hi) = (i64::from(self.node_ports.0), i64::from(self.node_ports.1));
        let mut claimed = Vec::new();
        let count = svc
            .pointer("/spec/ports")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        for idx in 0..count {
            let given = svc["spec"]["ports"][idx]
                .get("nodePort")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if given != 0 {
                if given < lo || given > hi {
                    self.release_ports(&claimed).await;
                    return Err(invalid(&name, vec![invalid_value(
                        &format!("spec.ports[{idx}].nodePort"),
                        &given.to_string(),
                        &format!("provided port is not in the valid range. The range of valid ports is {lo}-{hi}"),
                    )]));
                }
                let ok = if dry_run {
                    self.port_free(given).await
                } else {
                    self.claim_port(given, svc).await?
                };
                if !ok {
                    self.release_ports(&claimed).await;
                    return Err(invalid(
                        &name,
                        vec![invalid_value(
                            &format!("spec.ports[{idx}].nodePort"),
                            &given.to_string(),
                            "provided port is already allocated",
                        )],
                    ));
                }
                if !dry_run {
                    claimed.push(given);
                }
                continue;
            }
            let port = match self.any_port(svc, &claimed, dry_run).await {
                Ok(port) => port,
                Err(e) => {
                    self.release_ports(&claimed).await;
                    return Err(e);
                }
            };
            if !dry_run {
                claimed.push(port);
            }
            svc["spec"]["ports"][idx]["nodePort"] = json!(port);
        }
        if let Err(e) = self
            .allocate_health_check_port(svc, &mut claimed, dry_run)
            .await
        {
            self.release_ports(&claimed).await;
            return Err(e);
        }
        Ok(claimed)
    }

    /// A free node port for `svc` (none of `claimed`), from the upper band first.
    pub(super) async fn any_port(
        &self,
        svc: &Value,
        claimed: &[i64],
        dry_run: bool,
    ) -> Result<i64, Status> {
        let (lo, hi) = (i64::from(self.node_ports.0), i64::from(self.node_ports.1));
        let span = (hi - lo + 1) as u64;
        for k in dynamic_order(span, reserved_band(span, 16, 32, 128)) {
            let port = lo + k as i64;
            if claimed.contains(&port) {
                continue;
            }
            if dry_run || self.claim_port(port, svc).await? {
                return Ok(port);
            }
        }
        Err(Status::internal(
            "failed to allocate a nodePort: range is full",
        ))
    }

    /// A load balancer that keeps traffic on the node (`externalTrafficPolicy: Local`)
    /// gets a health check node port, the one asked for or any free one.
    pub(super) async fn allocate_health_check_port(
        &self,
        svc: &mut Value,
        claimed: &mut Vec<i64>,
        dry_run: bool,
    ) -> Result<(), Status> {
        if !needs_health_check_port(svc) {
            return Ok(());
        }
        let given = svc
            .pointer("/spec/healthCheckNodePort")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let port = if given == 0 {
            self.any_port(svc, claimed, dry_run).await?
        } else {
            let (lo, hi) = (i64::from(self.node_ports.0), i64::from(self.node_ports.1));
            let free = given >= lo
                && given <= hi
                && if dry_run {
                    self.port_free(given).await
                } else {
                    self.claim_port(given, svc).await?
                };
            if !free {
                return Err(invalid(
                    s(svc, "/metadata/name"),
                    vec![invalid_value(
                        "spec.healthCheckNodePort",
                        &given.to_string(),
                        &format!("failed to allocate requested HealthCheck NodePort {given}: provided port is already allocated"),
                    )],
                ));
            }
            given
        };
        if !dry_run {
            claimed.push(port);
        }
        svc["spec"]["healthCheckNodePort"] = json!(port);
        Ok(())
    }

    pub(super) async fn release_ports(&self, ports: &[i64]) {
        for p in ports {
            self.release_port(*p).await;
        }
    }

    /// Claims node ports for the entries of `svc` not marked [`HELD`].
    pub(super) async fn allocate_new_ports(
        &self,
        svc: &mut Value,
        dry_run: bool,
    ) -> Result<(), Status> {
        let mut tmp = svc.clone();
        if let Some(ports) = tmp.pointer_mut("/spec/ports").and_then(Value::as_array_mut) {
            ports.retain(|p| p.get(HELD).is_none());
        }
        self.allocate_ports(&mut tmp, dry_run).await?;
        if let Some(port) = tmp.pointer("/spec/healthCheckNodePort") {
            svc["spec"]["healthCheckNodePort"] = port.clone();
        }
        let mut fresh = tmp
            .pointer("/spec/ports")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .into_iter();
        if let Some(ports) = svc.pointer_mut("/spec/ports").and_then(Value::as_array_mut) {
            for p in ports.iter_mut() {
                if p.get(HELD).is_none() {
                    if let Some(f) = fresh.next() {
                        *p = f;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The node ports `svc` holds: its ports' and its health check's.
pub(crate) fn node_ports(svc: &Value) -> Vec<i64> {
    svc.pointer("/spec/ports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("nodePort").and_then(Value::as_i64))
        .chain(
            svc.pointer("/spec/healthCheckNodePort")
                .and_then(Value::as_i64),
        )
        .filter(|p| *p != 0)
        .collect()
}

/// Whether `svc` needs a health check node port (upstream's `needsHCNodePort`).
pub(super) fn needs_health_check_port(svc: &Value) -> bool {
    s(svc, "/spec/type") == "LoadBalancer" && s(svc, "/spec/externalTrafficPolicy") == "Local"
}
