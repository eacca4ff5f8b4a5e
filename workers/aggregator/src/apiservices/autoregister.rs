//! Autoregistration, as kube-aggregator's autoregister controller with kube-apiserver's
//! inputs: every built-in group-version the back ends serve has a local APIService
//! (labelled `automanaged: onstart`, written once per start of this worker), and every
//! served custom resource version one labelled `automanaged: "true"`, kept while it is
//! served and deleted when it no longer is. APIServices without the label are never
//! touched.
//!
//! The wanted set comes from the routing table the front door learns from the back ends'
//! `/apis` (re-read whenever a back end's API changes, a CRD added or removed among
//! them); a pass runs on each such change, on each change of an APIService (followed
//! from storage) and on a slow timer. Writes go through the
//! store with preconditions; a conflict is left to the next pass, a storage error retries
//! soon. Nothing here is on a request's path.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use kas_proto::WorkerRole;
use kas_server::follow::{Follower, Synced};
use kas_server::rest::{RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};
use tokio::sync::Notify;

use super::priorities::{self, Priority};
use super::resource::AUTOMANAGED;
use crate::front::{Front, Routes, CHAIN};

/// The readiness check that passes once every built-in group-version has its APIService.
pub(crate) const COMPLETION: &str = "autoregister-completion";

/// The field manager of the controller's writes, as upstream's loopback client is named.
const MANAGER: &str = "kube-apiserver";

/// How often the APIServices are compared with the wanted set when nothing changes (a
/// deleted `automanaged: "true"` APIService comes back within this).
const RESYNC: Duration = Duration::from_secs(10);

/// The longest one pass may take (a storage call is bounded at 5 s).
const PASS_TIMEOUT: Duration = Duration::from_secs(30);

/// The first retry after a failed write; doubled up to [`MAX_BACKOFF`].
const BACKOFF: Duration = Duration::from_millis(200);
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// The two labels of autoregistered APIServices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Managed {
    /// Built-in: written at start, then left alone (`onstart`).
    OnStart,
    /// A custom resource version: kept continuously (`true`).
    Continuously,
}

impl Managed {
    fn label(self) -> &'static str {
        match self {
            Managed::OnStart => "onstart",
            Managed::Continuously => "true",
        }
    }

    fn of(obj: &Value) -> Option<Managed> {
        let label = obj
            .pointer("/metadata/labels")
            .and_then(|l| l.get(AUTOMANAGED))
            .and_then(Value::as_str)?;
        match label {
            "onstart" => Some(Managed::OnStart),
            "true" => Some(Managed::Continuously),
            _ => None,
        }
    }
}

/// One APIService the controller wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wanted {
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) priority: Priority,
    pub(crate) managed: Managed,
}

impl Wanted {
    fn name(&self) -> String {
        format!("{}.{}", self.version, self.group)
    }

    /// The spec as upstream writes it: no service, an empty group left out.
    fn spec(&self) -> Value {
        let mut spec = json!({
            "version": self.version,
            "groupPriorityMinimum": self.priority.group,
            "versionPriority": self.priority.version,
        });
        if !self.group.is_empty() {
            spec["group"] = json!(self.group);
        }
        spec
    }

    fn object(&self) -> Value {
        json!({
            "apiVersion": "apiregistration.k8s.io/v1",
            "kind": "APIService",
            "metadata": {"name": self.name(), "labels": {AUTOMANAGED: self.managed.label()}},
            "spec": self.spec(),
        })
    }

    /// Whether `obj`'s spec is this one's.
    fn matches(&self, obj: &Value) -> bool {
        let text = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("");
        let int = |p: &str| obj.pointer(p).and_then(Value::as_i64).unwrap_or(0);
        text("/spec/group") == self.group
            && text("/spec/version") == self.version
            && int("/spec/groupPriorityMinimum") == self.priority.group
            && int("/spec/versionPriority") == self.priority.version
            && !obj.pointer("/spec/service").is_some_and(Value::is_object)
            && text("/spec/caBundle").is_empty()
            && obj.pointer("/spec/insecureSkipTLSVerify") != Some(&json!(true))
    }
}

/// The APIServices wanted for the back ends' group-versions, by name; None until every
/// back end has been read once (deleting a CRD's APIService because the extensions worker
/// was not read yet is what upstream's wait for the initial CRD sync prevents).
pub(crate) fn wanted(routes: &Routes) -> Option<BTreeMap<String, Wanted>> {
    if CHAIN.iter().any(|r| !routes.lists.contains_key(r)) {
        return None;
    }
    let mut out = BTreeMap::new();
    let mut add = |w: Wanted| {
        out.entry(w.name()).or_insert(w);
    };
    // `/api/v1`: the kube-api worker always serves it.
    if let Some(priority) = priorities::built_in("", "v1") {
        add(Wanted {
            group: String::new(),
            version: "v1".into(),
            priority,
            managed: Managed::OnStart,
        });
    }
    for role in CHAIN {
        for group in routes.lists.get(&role).into_iter().flatten() {
            let Some(name) = group.get("name").and_then(Value::as_str) else {
                continue;
            };
            let versions = group.get("versions").and_then(Value::as_array);
            for v in versions.into_iter().flatten() {
                let Some(version) = v.get("version").and_then(Value::as_str) else {
                    continue;
                };
                let (priority, managed) = match priorities::built_in(name, version) {
                    Some(p) => (p, Managed::OnStart),
                    // The extensions worker's other groups are custom resources'.
                    None if role == WorkerRole::Extensions => {
                        (priorities::CUSTOM, Managed::Continuously)
                    }
                    // A built-in group-version with no priority gets no APIService, so
                    // none stays behind for it (upstream's makeAPIService).
                    None => continue,
                };
                add(Wanted {
                    group: name.to_owned(),
                    version: version.to_owned(),
                    priority,
                    managed,
                });
            }
        }
    }
    Some(out)
}

/// What one name needs.
#[derive(Debug, PartialEq, Eq)]
enum Action {
    Nothing,
    Create,
    /// Delete, with the stored object's uid as precondition.
    Delete(String),
    /// Replace the spec of the stored object.
    Update,
}

/// The controller's memory across passes.
#[derive(Debug, Default)]
struct State {
    /// Names written (or found right) once since this worker started.
    synced: BTreeSet<String>,
    /// The APIServices that existed at the first listing.
    at_start: Option<BTreeSet<String>>,
    /// Whether one pass has done everything (the readiness check passed).
    completed: bool,
}

impl State {
    /// Upstream's `checkAPIService` decision for `name`.
    fn decide(&self, name: &str, current: Option<&Value>, want: Option<&Wanted>) -> Action {
        let synced = self.synced.contains(name);
        let existed_at_start = self.at_start.as_ref().is_some_and(|s| s.contains(name));
        let Some(cur) = current else {
            return match want {
                None => Action::Nothing,
                Some(w) if w.managed == Managed::OnStart && synced => Action::Nothing,
                Some(_) => Action::Create,
            };
        };
        if want.is_some_and(|w| w.managed == Managed::OnStart) && synced {
            return Action::Nothing;
        }
        match Managed::of(cur) {
            None => Action::Nothing,
            Some(Managed::OnStart) if !existed_at_start || synced => Action::Nothing,
            Some(_) => match want {
                None => Action::Delete(
                    cur.pointer("/metadata/uid")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned(),
                ),
                Some(w) if w.matches(cur) => Action::Nothing,
                Some(_) => Action::Update,
            },
        }
    }

    /// One pass over the wanted and stored APIServices; Err when a write must be retried.
    async fn pass(
        &mut self,
        store: &RestStore,
        wanted: &BTreeMap<String, Wanted>,
    ) -> Result<(), Status> {
        let (items, _) = store.list_objects("").await.inspect_err(|e| {
            tracing::warn!(error = %e.message, "autoregistration: listing APIServices failed; retrying");
        })?;
        let current: BTreeMap<String, Value> = items
            .into_iter()
            .filter_map(|o| {
                let name = o.pointer("/metadata/name")?.as_str()?.to_owned();
                Some((name, o))
            })
            .collect();
        if self.at_start.is_none() {
            self.at_start = Some(current.keys().cloned().collect());
        }
        let names: BTreeSet<&String> = wanted
            .keys()
            .chain(
                current
                    .keys()
                    .filter(|n| Managed::of(&current[*n]).is_some()),
            )
            .collect();
        // Each name's action depends on that name alone: decide them all, then write them
        // together (the store commits concurrent writes at once).
        let writes = names.into_iter().map(|name| {
            let (cur, want) = (current.get(name), wanted.get(name));
            let action = self.decide(name, cur, want);
            async move { (name, write(store, name, action, cur, want).await) }
        });
        let mut failed = None;
        for (name, result) in futures_util::future::join_all(writes).await {
            match result {
                Ok(()) => {
                    self.synced.insert(name.clone());
                }
                Err(e) => {
                    tracing::warn!(apiservice = %name, error = %e.message, "autoregistration failed; retrying");
                    failed = Some(e);
                }
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

/// Upstream's message for the built-in APIServices not written yet.
fn missing(state: &State, wanted: &BTreeMap<String, Wanted>) -> String {
    let names: Vec<&str> = wanted
        .iter()
        .filter(|(n, w)| w.managed == Managed::OnStart && !state.synced.contains(*n))
        .map(|(n, _)| n.as_str())
        .collect();
    format!("missing APIService: [{}]", names.join(" "))
}

/// Carries out `action`; a lost race (not found, conflict, already exists) is no error,
/// as upstream's: the next pass sees the new state.
async fn write(
    store: &RestStore,
    name: &str,
    action: Action,
    cur: Option<&Value>,
    want: Option<&Wanted>,
) -> Result<(), Status> {
    let opts = WriteOptions::server(MANAGER);
    let result = match (action, want, cur) {
        (Action::Nothing, _, _) => return Ok(()),
        (Action::Create, Some(w), _) => store.create_object("", w.object(), &opts).await.map(drop),
        (Action::Delete(uid), _, _) => {
            let options = json!({"preconditions": {"uid": uid}});
            store
                .delete_object("", name, Some(&options), &opts)
                .await
                .map(drop)
        }
        (Action::Update, Some(w), Some(cur)) => {
            let mut updated = cur.clone();
            updated["spec"] = w.spec();
            let expected = kas_server::rest::revision_of(cur);
            store
                .update_object("", name, "", updated, expected, &opts)
                .await
                .map(drop)
        }
        _ => return Ok(()),
    };
    match result {
        Err(s)
            if matches!(
                s.reason,
                Reason::AlreadyExists | Reason::NotFound | Reason::Conflict
            ) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// Wakes autoregistration on every change of an APIService, as upstream's informer
/// queues its controller: an automanaged APIService deleted or edited is put back at
/// once.
struct Changes(Arc<Notify>);

impl Follower for Changes {
    const WHAT: &'static str = "autoregistration";

    fn resources(&self) -> &'static [&'static str] {
        &[super::resource::APISERVICES.key_path]
    }

    fn reset(&self, _: Vec<Vec<(String, Value)>>) {
        self.0.notify_one();
    }

    fn apply(&self, _: usize, _: &str, _: Option<Value>) {
        self.0.notify_one();
    }
}

/// Keeps the APIServices in line with what the back ends serve, until the process ends.
pub(crate) async fn run(front: Arc<Front>, store: RestStore, changed: Arc<Notify>) {
    // Held for as long as the loop runs: the follower stops when it is dropped.
    let follower = Arc::new(Changes(changed.clone()));
    let (_synced, counter) = Synced::new();
    kas_server::follow::start_on(
        &follower,
        store.storage().clone(),
        counter,
        Arc::new(Notify::new()),
    );
    let mut state = State::default();
    let mut backoff = BACKOFF;
    loop {
        let notified = changed.notified();
        let wanted = front.routes.read().ok().and_then(|r| wanted(&r));
        let mut wait = RESYNC;
        if let Some(wanted) = wanted {
            // Each storage call is bounded; the pass is too, so that nothing can keep
            // autoregistration (and readiness) waiting for good.
            let pass = tokio::time::timeout(PASS_TIMEOUT, state.pass(&store, &wanted)).await;
            let pass = pass.unwrap_or_else(|_| {
                tracing::warn!("an autoregistration pass timed out; retrying");
                Err(Status::service_unavailable(
                    "autoregistration pass timed out",
                    1,
                ))
            });
            match pass {
                Ok(()) => {
                    backoff = BACKOFF;
                    if !state.completed {
                        state.completed = true;
                        tracing::info!(
                            apiservices = wanted.len(),
                            "autoregistered the local APIServices"
                        );
                        front.hooks.set_check(COMPLETION, Ok(()));
                    }
                }
                Err(_) => {
                    wait = backoff;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                    if !state.completed {
                        front
                            .hooks
                            .set_check(COMPLETION, Err(missing(&state, &wanted)));
                    }
                }
            }
        }
        tokio::select! {
            _ = notified => {}
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(kube: Value, ext: Value) -> Routes {
        let mut r = Routes::default();
        let list = |v: Value| v.as_array().cloned().unwrap_or_default();
        r.lists.insert(WorkerRole::KubeApi, list(kube));
        r.lists.insert(WorkerRole::Extensions, list(ext));
        r
    }

    fn group(name: &str, versions: &[&str]) -> Value {
        let vs: Vec<Value> = versions
            .iter()
            .map(|v| json!({"groupVersion": format!("{name}/{v}"), "version": v}))
            .collect();
        json!({"name": name, "versions": vs})
    }

    fn stored(w: &Wanted, uid: &str) -> Value {
        let mut o = w.object();
        o["metadata"]["uid"] = json!(uid);
        o
    }

    #[test]
    fn wanted_from_routes() {
        assert!(wanted(&Routes::default()).is_none());
        let r = routes(
            json!([
                group("apps", &["v1"]),
                group("autoscaling", &["v2", "v1"]),
                group("made.up", &["v1"])
            ]),
            json!([
                group("apiextensions.k8s.io", &["v1"]),
                group("stable.example.com", &["v1", "v1beta1"])
            ]),
        );
        let w = wanted(&r).expect("both read");
        let names: Vec<&str> = w.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "v1.",
                "v1.apiextensions.k8s.io",
                "v1.apps",
                "v1.autoscaling",
                "v1.stable.example.com",
                "v1beta1.stable.example.com",
                "v2.autoscaling"
            ]
        );
        assert_eq!(
            w["v1."].spec(),
            json!({"version": "v1", "groupPriorityMinimum": 18000, "versionPriority": 1})
        );
        assert_eq!(
            w["v2.autoscaling"].priority,
            Priority {
                group: 17500,
                version: 30
            }
        );
        assert_eq!(w["v1.apiextensions.k8s.io"].managed, Managed::OnStart);
        let crd = &w["v1.stable.example.com"];
        assert_eq!(
            (crd.managed, crd.priority),
            (Managed::Continuously, priorities::CUSTOM)
        );
        assert_eq!(crd.object()["metadata"]["labels"][AUTOMANAGED], "true");
    }

    #[test]
    fn decisions_follow_upstream() {
        let r = routes(
            json!([group("apps", &["v1"])]),
            json!([group("stable.example.com", &["v1"])]),
        );
        let w = wanted(&r).expect("read");
        let apps = &w["v1.apps"];
        let crd = &w["v1.stable.example.com"];
        let mut s = State {
            at_start: Some(BTreeSet::new()),
            ..Default::default()
        };
        // Missing: created, built-in or custom.
        assert_eq!(s.decide("v1.apps", None, Some(apps)), Action::Create);
        assert_eq!(
            s.decide("v1.stable.example.com", None, Some(crd)),
            Action::Create
        );
        // A built-in one written once is left alone afterwards, even when deleted.
        s.synced.insert("v1.apps".into());
        assert_eq!(s.decide("v1.apps", None, Some(apps)), Action::Nothing);
        // A custom one deleted by someone comes back.
        s.synced.insert("v1.stable.example.com".into());
        assert_eq!(
            s.decide("v1.stable.example.com", None, Some(crd)),
            Action::Create
        );
        // No longer served: deleted with its uid as precondition.
        let cur = stored(crd, "u1");
        assert_eq!(
            s.decide("v1.stable.example.com", Some(&cur), None),
            Action::Delete("u1".into())
        );
        // Changed spec: put back.
        let mut changed = stored(crd, "u1");
        changed["spec"]["versionPriority"] = json!(7);
        assert_eq!(
            s.decide("v1.stable.example.com", Some(&changed), Some(crd)),
            Action::Update
        );
        assert_eq!(
            s.decide("v1.stable.example.com", Some(&cur), Some(crd)),
            Action::Nothing
        );
        // Not automanaged: never touched, wanted or not.
        let mut mine = stored(crd, "u2");
        mine["metadata"]["labels"] = json!({});
        assert_eq!(
            s.decide("v1.stable.example.com", Some(&mine), Some(crd)),
            Action::Nothing
        );
        assert_eq!(
            s.decide("v1.stable.example.com", Some(&mine), None),
            Action::Nothing
        );
        // An onstart one that existed at start and is no longer served: deleted on the
        // first pass only.
        let old = stored(apps, "u3");
        let mut fresh = State {
            at_start: Some(["v1.gone".to_owned()].into()),
            ..Default::default()
        };
        assert_eq!(
            fresh.decide("v1.gone", Some(&old), None),
            Action::Delete("u3".into())
        );
        fresh.synced.insert("v1.gone".into());
        assert_eq!(fresh.decide("v1.gone", Some(&old), None), Action::Nothing);
        // An onstart one created since start (not by this controller) is not ours.
        assert_eq!(fresh.decide("v1.apps", Some(&old), None), Action::Nothing);
    }
}
