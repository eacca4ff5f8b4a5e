//! The aggregator's background tasks over its shared state: readiness reports, re-dialling
//! replaced back ends, following the shutdown phases, and learning the routing table
//! from the back ends' discovery.

use std::collections::BTreeMap;
use std::sync::Arc;

use kas_proto::{ShutdownPhase, WorkerRole};
use kas_server::health::HookHandle;
use kas_server::lifecycle::Phase;
use serde_json::Value;

use super::{Front, CHAIN};

/// Tells the supervisor whether the aggregator is ready: its own hooks done.
pub(super) async fn report_health(front: Arc<Front>) {
    let mut changed = front.hooks.subscribe();
    loop {
        let health = front.hooks.health();
        if health.ready {
            front.lifecycle.advance(Phase::Serving);
        }
        front.control.report_health(health);
        if changed.changed().await.is_err() {
            return;
        }
    }
}

/// When another process takes a back end's role (a restart, a reload's replacement),
/// later requests dial it; the connections to the one it replaced finish what they carry
/// and close, which lets that worker finish draining.
pub(super) async fn redial_replaced(front: Arc<Front>) {
    let mut peers = front.control.peers();
    let mut serving: BTreeMap<WorkerRole, u64> = BTreeMap::new();
    loop {
        for peer in peers.borrow_and_update().iter() {
            let before = serving.insert(peer.role, peer.generation);
            if before.is_some_and(|g| g != peer.generation) {
                if let Some(client) = front.clients.get(&peer.role) {
                    tracing::debug!(worker = %peer.role, generation = peer.generation, "a new process serves the worker's socket; re-dialling");
                    client.redial();
                }
            }
        }
        if peers.changed().await.is_err() {
            return;
        }
    }
}

/// ShutdownInitiated flips readyz; NotAcceptingNewRequest is handled by the server loop.
pub(super) async fn follow_shutdown_phases(front: Arc<Front>) {
    let mut phases = front.control.shutdown_phases();
    loop {
        if let Some(p) = *phases.borrow_and_update() {
            front.lifecycle.advance(Phase::ShutdownInitiated);
            if p >= ShutdownPhase::NotAcceptingNewRequests {
                front.lifecycle.advance(Phase::NotAcceptingNewRequests);
            }
        }
        if phases.changed().await.is_err() {
            return;
        }
    }
}

/// Reads `/apis` of each of `roles` (legacy and aggregated) into the routing table;
/// false if one could not be read.
async fn refresh_routes(front: &Front, roles: &[WorkerRole]) -> bool {
    let mut complete = true;
    for &role in roles {
        if !front.peer_serving(role) {
            complete = false;
            if let Ok(mut routes) = front.routes.write() {
                routes.aggregated.remove(&role);
            }
            continue;
        }
        let aggregated = front
            .fetch_json(
                role,
                "/apis",
                kas_server::discovery::AGGREGATED_CONTENT_TYPE,
            )
            .await
            .and_then(|v| v.get("items").and_then(Value::as_array).cloned());
        if let (Some(items), Ok(mut routes)) = (aggregated, front.routes.write()) {
            routes.aggregated.insert(role, items);
        }
        match front.fetch_json(role, "/apis", "application/json").await {
            Some(list) => {
                let groups: Vec<Value> = list
                    .get("groups")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                if let Ok(mut routes) = front.routes.write() {
                    routes.groups.retain(|_, owner| *owner != role);
                    for g in &groups {
                        if let Some(name) = g.get("name").and_then(Value::as_str) {
                            routes.groups.entry(name.to_owned()).or_insert(role);
                        }
                    }
                    routes.lists.insert(role, groups);
                }
            }
            None => complete = false,
        }
    }
    if let Ok(mut routes) = front.routes.write() {
        routes.epoch += 1;
    }
    complete
}

/// Which back ends can take requests, in chain order.
fn serving(front: &Front) -> Vec<bool> {
    CHAIN.iter().map(|&r| front.peer_serving(r)).collect()
}

/// Keeps the routing table and merged documents current. A back end's API changes come
/// as notices (through the supervisor) that this loop takes in before acknowledging
/// them, so once a back end hears the acknowledgement, every request the aggregator
/// starts sees the change; a back end that comes or goes is re-read too. Nothing is
/// re-read on a timer, and reads of the merged documents never wait for the back ends
/// unless something changed. The post-start hook completes once every back end has been
/// read.
pub(super) async fn learn_routes(front: Arc<Front>, hook: HookHandle) {
    let mut peers = front.peers.clone();
    let mut changes = front.control.api_changes();
    let mut hook = Some(hook);
    let mut seen: BTreeMap<WorkerRole, u64> = BTreeMap::new();
    let mut last_serving = Vec::new();
    loop {
        let now_serving = serving(&front);
        let announced = changes.borrow_and_update().clone();
        let changed: Vec<WorkerRole> = if now_serving != last_serving || hook.is_some() {
            CHAIN.to_vec()
        } else {
            CHAIN
                .into_iter()
                .filter(|r| announced.get(r) != seen.get(r))
                .collect()
        };
        if !changed.is_empty() {
            let complete = refresh_routes(&front, &changed).await;
            front.apiservices.routes_changed();
            if complete {
                if let Some(h) = hook.take() {
                    tracing::info!("learnt routes from every back-end worker");
                    h.done();
                }
            }
        }
        last_serving = now_serving;
        for (role, generation) in announced {
            if seen.get(&role) != Some(&generation) {
                front.control.api_seen(role, generation);
                seen.insert(role, generation);
            }
        }
        tokio::select! {
            r = peers.changed() => if r.is_err() { return },
            r = changes.changed() => if r.is_err() { return },
        }
    }
}
