//! The policies and bindings kept in memory, as upstream's policy source: each kind is
//! listed, then watched, so a policy or binding takes effect as soon as the watch
//! delivers it. A policy is compiled once per generation (a status update does not
//! compile it again); the dispatcher reads one immutable snapshot of (policy, its
//! bindings), rebuilt on every change.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use kas_server::follow::{self, Follower, Synced};
use kas_server::storage::Storage;
use serde_json::Value;
use tokio::sync::mpsc;

use super::model::{Binding, Policy};

pub(crate) const POLICIES: &str = "validatingadmissionpolicies";
pub(crate) const BINDINGS: &str = "validatingadmissionpolicybindings";
/// What the source follows, in the order its listings come.
const FOLLOWED: [&str; 2] = [POLICIES, BINDINGS];

/// A policy and the bindings that name it.
#[derive(Debug)]
pub(crate) struct Hook {
    pub policy: Arc<Policy>,
    pub bindings: Vec<Arc<Binding>>,
}

#[derive(Default)]
struct State {
    /// name → (uid, generation, compiled).
    policies: BTreeMap<String, (String, i64, Arc<Policy>)>,
    bindings: BTreeMap<String, Arc<Binding>>,
}

/// The policies and bindings, followed from storage.
pub(crate) struct Source {
    state: RwLock<State>,
    hooks: RwLock<Arc<Vec<Hook>>>,
    /// Policies (re)compiled, for the status writer.
    compiled: Option<mpsc::UnboundedSender<(Arc<Policy>, Value)>>,
    synced: Synced,
}

impl Source {
    /// A source following both kinds in `storage`; every newly compiled policy is also
    /// sent (with its object) to `compiled`.
    pub(crate) fn start(
        storage: Storage,
        compiled: Option<mpsc::UnboundedSender<(Arc<Policy>, Value)>>,
    ) -> Arc<Source> {
        let (synced, tx) = Synced::new();
        let source = Arc::new(Source {
            state: RwLock::new(State::default()),
            hooks: RwLock::new(Arc::new(Vec::new())),
            compiled,
            synced,
        });
        follow::start_on(&source, storage, tx, Arc::default());
        source
    }

    /// A source holding `policies` and `bindings` (tests).
    #[cfg(test)]
    pub(crate) fn fixed(policies: &[Value], bindings: &[Value]) -> Arc<Source> {
        let (synced, tx) = Synced::new();
        tx.send_replace(1);
        let source = Arc::new(Source {
            state: RwLock::new(State::default()),
            hooks: RwLock::new(Arc::new(Vec::new())),
            compiled: None,
            synced,
        });
        Source::reset(&source, POLICIES, policies.to_vec());
        Source::reset(&source, BINDINGS, bindings.to_vec());
        source
    }

    /// Every policy with its bindings, by policy name.
    pub(crate) fn hooks(&self) -> Arc<Vec<Hook>> {
        self.hooks
            .read()
            .map(|h| h.clone())
            .unwrap_or_else(|_| Arc::new(Vec::new()))
    }

    /// Waits (up to `limit`) until both kinds have been listed once.
    pub(crate) async fn wait_synced(&self, limit: Duration) -> bool {
        tokio::time::timeout(limit, self.synced.wait())
            .await
            .is_ok()
            && self.synced.listings() > 0
    }

    fn rebuild(&self, state: &State) {
        let hooks = state
            .policies
            .values()
            .map(|(_, _, p)| Hook {
                policy: p.clone(),
                bindings: state
                    .bindings
                    .values()
                    .filter(|b| b.policy == p.name)
                    .cloned()
                    .collect(),
            })
            .collect();
        if let Ok(mut h) = self.hooks.write() {
            *h = Arc::new(hooks);
        }
    }

    /// Keeps `obj` as policy `name`, compiled unless this generation already is.
    fn put_policy(&self, state: &mut State, name: &str, obj: &Value) {
        let meta = |k: &str| obj.pointer(&format!("/metadata/{k}")).cloned();
        let uid = meta("uid")
            .and_then(|u| u.as_str().map(str::to_owned))
            .unwrap_or_default();
        let generation = meta("generation").and_then(|g| g.as_i64()).unwrap_or(0);
        let fresh =
            !matches!(state.policies.get(name), Some((u, g, _)) if *u == uid && *g == generation);
        let policy = match state.policies.get(name) {
            Some((_, _, p)) if !fresh => p.clone(),
            _ => Arc::new(Policy::of(obj)),
        };
        if let Some(tx) = &self.compiled {
            let observed = obj
                .pointer("/status/observedGeneration")
                .and_then(Value::as_i64);
            if fresh || observed != Some(generation) {
                let _ = tx.send((policy.clone(), obj.clone()));
            }
        }
        state
            .policies
            .insert(name.to_owned(), (uid, generation, policy));
    }

    fn reset(&self, resource: &str, objects: Vec<Value>) {
        let Ok(mut state) = self.state.write() else {
            return;
        };
        if resource == POLICIES {
            // Compiled generations are kept across a relist.
            let names: Vec<String> = objects.iter().map(name_of).collect();
            state.policies.retain(|n, _| names.contains(n));
            for (name, obj) in names.iter().zip(&objects) {
                self.put_policy(&mut state, name, obj);
            }
        } else {
            state.bindings = objects
                .iter()
                .map(|o| (name_of(o), Arc::new(Binding::of(o))))
                .collect();
        }
        self.rebuild(&state);
    }

    fn apply(&self, resource: &str, name: &str, obj: Option<Value>) {
        let Ok(mut state) = self.state.write() else {
            return;
        };
        match (resource == POLICIES, obj) {
            (true, Some(o)) => self.put_policy(&mut state, name, &o),
            (true, None) => {
                state.policies.remove(name);
            }
            (false, Some(o)) => {
                state
                    .bindings
                    .insert(name.to_owned(), Arc::new(Binding::of(&o)));
            }
            (false, None) => {
                state.bindings.remove(name);
            }
        }
        self.rebuild(&state);
    }
}

fn name_of(o: &Value) -> String {
    o.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

impl Follower for Source {
    const WHAT: &'static str = "admission policies";

    fn resources(&self) -> &'static [&'static str] {
        &FOLLOWED
    }

    fn reset(&self, listed: Vec<Vec<(String, Value)>>) {
        for (resource, objects) in FOLLOWED.iter().zip(listed) {
            Source::reset(
                self,
                resource,
                objects.into_iter().map(|(_, o)| o).collect(),
            );
        }
    }

    fn apply(&self, resource: usize, name: &str, object: Option<Value>) {
        if let Some(resource) = FOLLOWED.get(resource) {
            Source::apply(self, resource, name, object);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn policies_with_their_bindings() {
        let source = Source::fixed(
            &[
                json!({"metadata": {"name": "b", "uid": "1", "generation": 1}, "spec": {}}),
                json!({"metadata": {"name": "a", "uid": "2", "generation": 1}, "spec": {}}),
            ],
            &[
                json!({"metadata": {"name": "x"}, "spec": {"policyName": "a"}}),
                json!({"metadata": {"name": "y"}, "spec": {"policyName": "none"}}),
            ],
        );
        assert!(source.wait_synced(Duration::from_millis(10)).await);
        let hooks = source.hooks();
        let names: Vec<(&str, usize)> = hooks
            .iter()
            .map(|h| (h.policy.name.as_str(), h.bindings.len()))
            .collect();
        assert_eq!(names, [("a", 1), ("b", 0)]);
        // The same generation again (a status update) keeps the compiled policy.
        let before = hooks[0].policy.clone();
        source.apply(
            POLICIES,
            "a",
            Some(
                json!({"metadata": {"name": "a", "uid": "2", "generation": 1},
                        "spec": {}, "status": {"observedGeneration": 1}}),
            ),
        );
        assert!(Arc::ptr_eq(&before, &source.hooks()[0].policy));
        source.apply(
            POLICIES,
            "a",
            Some(json!({"metadata": {"name": "a", "uid": "2", "generation": 2}, "spec": {}})),
        );
        assert!(!Arc::ptr_eq(&before, &source.hooks()[0].policy));
        source.apply(BINDINGS, "x", None);
        assert!(source.hooks()[0].bindings.is_empty());
        source.apply(POLICIES, "a", None);
        assert_eq!(source.hooks().len(), 1);
    }
}
