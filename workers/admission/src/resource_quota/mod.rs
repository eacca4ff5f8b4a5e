//! ResourceQuota, as kube-apiserver's: a write that adds usage in a namespace with
//! quotas is checked against each quota that covers it (scopes), using the quota's
//! `status.hard` / `status.used`: over a limit it is refused with upstream's
//! `exceeded quota: …` message; a pod that states no request or limit a quota limits is
//! refused (`failed quota: …: must specify …`); a quota whose usage is not yet known
//! refuses what it limits (`status unknown for quota: …`). An admitted write is charged
//! to the quota's `status.used` at once (compare-and-swap, retried), except for dry
//! runs. [`controller`] computes usage from scratch (new quotas, spec changes, deletes,
//! and every few seconds), as upstream's quota controller does.

pub mod controller;
mod usage;

use std::collections::BTreeMap;

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::quantity::Quantity;
pub(crate) use usage::{quota_matches, usage, Usage};

/// How often a charge is retried when the quota changed meanwhile.
const CHARGE_ATTEMPTS: usize = 8;
/// The field manager of the charges.
const MANAGER: &str = "resource-quota-admission";

/// The ResourceQuota plugin.
pub struct ResourceQuota {
    quotas: RestStore,
    /// Namespaces whose usage should be computed again (a delete was admitted there).
    replenish: Option<mpsc::UnboundedSender<String>>,
}

impl ResourceQuota {
    /// The plugin, reading and charging the quotas in `quotas`; deletes are reported on
    /// `replenish` (to the quota controller) when given.
    pub fn new(
        quotas: RestStore,
        replenish: Option<mpsc::UnboundedSender<String>>,
    ) -> ResourceQuota {
        ResourceQuota { quotas, replenish }
    }
}

/// A resource list read from a quota: name → quantity.
fn list(quota: &Value, pointer: &str) -> BTreeMap<String, Quantity> {
    quota
        .pointer(pointer)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Quantity::of(v).map(|q| (k.clone(), q)))
        .collect()
}

/// `a=1,b=2`, sorted, as upstream's prettyPrint.
fn pretty(items: &BTreeMap<String, Quantity>) -> String {
    items
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn name_of(v: &Value) -> &str {
    v.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Whether this write can change usage (upstream's evaluators' Handles).
fn handles(req: &Request<'_>) -> bool {
    if !req.resource.namespaced || req.namespace.is_empty() || !req.subresource.is_empty() {
        return false;
    }
    match req.operation {
        Operation::Create => true,
        Operation::Update => {
            req.resource.group.is_empty()
                && matches!(req.resource.plural, "services" | "persistentvolumeclaims")
        }
        _ => false,
    }
}

/// The quota-relevant delta of a write: the new object's usage, less the old one's on
/// update (never below zero), zeros dropped.
fn delta(req: &Request<'_>, obj: &Value) -> Usage {
    let (group, plural) = (req.resource.group, req.resource.plural);
    let mut new = usage(group, plural, obj);
    if let Some(old) = req
        .old_object
        .filter(|_| req.operation == Operation::Update)
    {
        let old = usage(group, plural, old);
        for (k, v) in new.iter_mut() {
            if let Some(before) = old.get(k) {
                *v = if *v > *before {
                    *v - *before
                } else {
                    Quantity::zero(crate::quantity::Format::DecimalSI)
                };
            }
        }
    }
    new.retain(|_, v| *v != Quantity::zero(crate::quantity::Format::DecimalSI));
    new
}

impl ResourceQuota {
    /// Checks `delta` against one quota; `Err` refuses the write.
    fn check(
        &self,
        req: &Request<'_>,
        obj: &Value,
        quota: &Value,
        delta: &Usage,
    ) -> Result<BTreeMap<String, Quantity>, Status> {
        let name = name_of(quota);
        let hard = list(quota, "/status/hard");
        let used = list(quota, "/status/used");
        let spec_hard = list(quota, "/spec/hard");
        if req.resource.group.is_empty() && req.resource.plural == "pods" {
            let limited: Vec<String> = hard.keys().cloned().collect();
            let missing = usage::missing_for_quota(obj, &limited);
            if !missing.is_empty() {
                let what: Vec<String> = missing
                    .iter()
                    .map(|(res, containers)| format!("{res} for: {}", containers.join(",")))
                    .collect();
                return Err(req.forbidden(
                    obj,
                    &format!("failed quota: {name}: must specify {}", what.join("; ")),
                ));
            }
        }
        // What the quota limits of what this write uses.
        let restricted: Vec<&String> = spec_hard
            .keys()
            .filter(|k| delta.contains_key(*k))
            .collect();
        let unknown: Vec<&str> = restricted
            .iter()
            .filter(|k| !hard.contains_key(**k) || !used.contains_key(**k))
            .map(|k| k.as_str())
            .collect();
        if !unknown.is_empty() {
            return Err(req.forbidden(
                obj,
                &format!(
                    "status unknown for quota: {name}, resources: {}",
                    unknown.join(",")
                ),
            ));
        }
        let requested: BTreeMap<String, Quantity> = delta
            .iter()
            .filter(|(k, _)| hard.contains_key(*k))
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        let mut exceeded = Vec::new();
        let mut new_used = used.clone();
        for (k, v) in &requested {
            let now = used.get(k).map_or(*v, |u| *u + *v);
            if hard.get(k).is_some_and(|h| now > *h) {
                exceeded.push(k.clone());
            }
            new_used.insert(k.clone(), now);
        }
        if !exceeded.is_empty() {
            let pick = |m: &BTreeMap<String, Quantity>| -> BTreeMap<String, Quantity> {
                m.iter()
                    .filter(|(k, _)| exceeded.contains(k))
                    .map(|(k, v)| (k.clone(), *v))
                    .collect()
            };
            return Err(req.forbidden(
                obj,
                &format!(
                    "exceeded quota: {name}, requested: {}, used: {}, limited: {}",
                    pretty(&pick(&requested)),
                    pretty(&pick(&used)),
                    pretty(&pick(&hard))
                ),
            ));
        }
        Ok(requested)
    }

    /// Checks and charges every quota of the namespace that covers the write.
    async fn admit_usage(&self, req: &Request<'_>, obj: &Value) -> Result<(), Status> {
        let quotas = self.quotas.list_cached(req.namespace).await?;
        if quotas.is_empty() {
            return Ok(());
        }
        let (group, plural) = (req.resource.group, req.resource.plural);
        let delta = delta(req, obj);
        let mut charges = Vec::new();
        for quota in quotas
            .iter()
            .filter(|q| quota_matches(q, group, plural, obj))
        {
            let requested = self.check(req, obj, quota, &delta)?;
            if !requested.is_empty() {
                charges.push(name_of(quota).to_owned());
            }
        }
        if req.dry_run {
            return Ok(());
        }
        for name in charges {
            self.charge(req, obj, &name, &delta).await?;
        }
        Ok(())
    }

    /// Adds the delta to the stored quota's `status.used`, checking again against the
    /// latest usage.
    async fn charge(
        &self,
        req: &Request<'_>,
        obj: &Value,
        name: &str,
        delta: &Usage,
    ) -> Result<(), Status> {
        let opts = WriteOptions::server(MANAGER);
        for _ in 0..CHARGE_ATTEMPTS {
            let Some(mut quota) = self.quotas.read_latest(req.namespace, name).await? else {
                return Ok(());
            };
            let requested = self.check(req, obj, &quota, delta)?;
            if requested.is_empty() {
                return Ok(());
            }
            let mut used = list(&quota, "/status/used");
            for (k, v) in requested {
                let now = used.get(&k).map_or(v, |u| *u + v);
                used.insert(k, now);
            }
            let used: serde_json::Map<String, Value> = used
                .into_iter()
                .map(|(k, v)| (k, json!(v.to_string())))
                .collect();
            quota["status"]["used"] = Value::Object(used);
            let rv = quota
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .and_then(|r| r.parse::<i64>().ok());
            match self
                .quotas
                .update_object(req.namespace, name, "status", quota, rv, &opts)
                .await
            {
                Ok(_) => return Ok(()),
                Err(e) if e.reason == Reason::Conflict => continue,
                Err(e) => return Err(e),
            }
        }
        Err(Status::new(
            Reason::Conflict,
            format!("Operation cannot be fulfilled on resourcequotas \"{name}\": the quota was changed by others too often; try again"),
        ))
    }
}

impl Plugin for ResourceQuota {
    fn name(&self) -> &'static str {
        "ResourceQuota"
    }

    fn phases(&self) -> Phases {
        Phases::VALIDATE
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if req.operation == Operation::Delete && !req.dry_run && !req.namespace.is_empty() {
                // What a delete frees is counted again by the controller, soon after.
                if let Some(replenish) = &self.replenish {
                    let _ = replenish.send(req.namespace.to_owned());
                }
                return Ok(());
            }
            if !handles(req) || !obj.is_object() {
                return Ok(());
            }
            self.admit_usage(req, obj).await
        })
    }
}
