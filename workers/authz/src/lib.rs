//! Authorization as kube-apiserver does it: the attributes of a request, the chain of
//! `--authorization-mode`s (the first with an opinion decides; `system:masters` always
//! passes), and the RBAC evaluator over Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding objects, and the Node authorizer over a graph of pods and what they
//! use. Pure functions of JSON objects: where the objects come from (watch-fed caches,
//! `follow`, in both workers) is the caller's. The `Webhook` mode asks a remote service
//! (`webhook`), so a decision is awaited.

#![forbid(unsafe_code)]

mod aggregation;
mod cache;
mod covers;
mod match_conditions;
mod node;
mod node_graph;
mod node_populator;
mod rbac;
mod webhook;

use std::sync::Arc;

use arc_swap::ArcSwap;

use kas_proto::UserInfo;
use serde_json::{json, Value};

pub use aggregation::{aggregated_rules, settle, AGGREGATION_MANAGER};
pub use cache::PolicyCache;
pub use covers::uncovered_rules;
pub use match_conditions::compile_condition;
pub use node::{NODES_GROUP, NODE_RULES};
pub use node_populator::NodeGraph;
pub use rbac::Policy;

/// The group kube-apiserver authorizes for everything, whatever the modes.
pub const PRIVILEGED_GROUP: &str = "system:masters";

/// The string at `pointer`, or `""`.
fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// One `--authorization-mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Everything is allowed.
    AlwaysAllow,
    /// Nothing is allowed (no opinion, with a reason).
    AlwaysDeny,
    /// Role-based access control over the RBAC objects.
    Rbac,
    /// The node authorizer (kubelets, `system:node:<name>` in `system:nodes`): what the
    /// pods bound to the node use, and the `system:node` role's rules.
    Node,
    /// A remote service asked with SubjectAccessReviews (`--authorization-webhook-*`).
    Webhook,
}

impl Mode {
    /// Parses the flag's spelling.
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "AlwaysAllow" => Some(Mode::AlwaysAllow),
            "AlwaysDeny" => Some(Mode::AlwaysDeny),
            "RBAC" => Some(Mode::Rbac),
            "Node" => Some(Mode::Node),
            "Webhook" => Some(Mode::Webhook),
            _ => None,
        }
    }
}

/// An authorizer's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Allowed.
    Allow,
    /// Explicitly denied (no later authorizer is asked).
    Deny,
    /// No opinion: the next authorizer is asked; denied when none allows.
    NoOpinion,
}

/// What a request wants to do (authorizer.Attributes, without the user).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attributes {
    /// Lower-case verb (`get`, `list`, …, or the HTTP method for non-resource requests).
    pub verb: String,
    /// Whether this is a resource request (else `path` applies).
    pub resource_request: bool,
    /// Namespace (empty for cluster-scoped).
    pub namespace: String,
    /// API group.
    pub group: String,
    /// API version.
    pub version: String,
    /// Resource.
    pub resource: String,
    /// Subresource.
    pub subresource: String,
    /// Object name.
    pub name: String,
    /// URL path of a non-resource request.
    pub path: String,
    /// The request's field selector (`fieldSelector`, decoded), as upstream's
    /// AuthorizeWithSelectors passes it to authorizers.
    pub field_selector: String,
    /// The request's label selector (`labelSelector`, decoded), likewise.
    pub label_selector: String,
}

/// The chain's answer: the decision, its reason, and what failed when an authorizer
/// could not decide (kube-apiserver answers 500 with it when nobody allows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The decision of the first authorizer with an opinion, else no opinion.
    pub decision: Decision,
    /// That authorizer's reason, or every reason given, one per line.
    pub reason: String,
    /// The errors of the authorizers asked, joined as upstream's aggregate error.
    pub error: Option<String>,
}

/// The configured authorization chain. Clones share it: a reload
/// ([`Authorizer::reconfigure`]) replaces it for all of them at once.
#[derive(Debug, Clone)]
pub struct Authorizer {
    chain: Arc<ArcSwap<Chain>>,
    /// Where a worker's RBAC and Node caches read from (none for a fixed chain), so a
    /// reload that adds one of them can start its cache.
    storage: Option<kas_server::storage::StorageConfig>,
}

/// The authorizers in order, with what they decide over.
#[derive(Debug, Clone)]
struct Chain {
    modes: Vec<Mode>,
    rbac: Rbac,
    /// The `Node` mode's authorizer (with an empty graph unless given one).
    node: node::NodeAuthorizer,
    /// Whether `node` follows the cluster (else its graph is fixed).
    node_live: bool,
    /// The webhooks, one per `Webhook` among the modes, in order.
    webhooks: Vec<Arc<webhook::WebhookAuthorizer>>,
}

/// Where RBAC's objects come from.
#[derive(Debug, Clone)]
enum Rbac {
    /// A fixed set (tests, reviews of given objects).
    Fixed(Arc<Policy>),
    /// The cluster's, kept current by a watch.
    Cached(Arc<PolicyCache>),
}

fn parse_modes(modes: &[String]) -> Vec<Mode> {
    modes.iter().filter_map(|m| Mode::parse(m)).collect()
}

fn webhooks(
    configs: &[kas_proto::AuthorizationWebhookConfig],
) -> Vec<Arc<webhook::WebhookAuthorizer>> {
    configs
        .iter()
        .map(|c| Arc::new(webhook::WebhookAuthorizer::new(c)))
        .collect()
}

impl Authorizer {
    fn from_chain(chain: Chain) -> Authorizer {
        Authorizer {
            chain: Arc::new(ArcSwap::from_pointee(chain)),
            storage: None,
        }
    }

    /// The chain of `modes` (flag spellings; unknown ones are skipped: the supervisor has
    /// validated them), RBAC deciding over the fixed objects of `rbac`.
    pub fn new(modes: &[String], rbac: Policy) -> Authorizer {
        Authorizer::from_chain(Chain {
            modes: parse_modes(modes),
            rbac: Rbac::Fixed(Arc::new(rbac)),
            node: node::NodeAuthorizer::new(Arc::new(NodeGraph::fixed())),
            node_live: false,
            webhooks: Vec::new(),
        })
    }

    /// The chain of `modes`, RBAC deciding over the cluster's objects as `cache` holds
    /// them.
    pub fn cached(modes: &[String], cache: Arc<PolicyCache>) -> Authorizer {
        Authorizer::from_chain(Chain {
            modes: parse_modes(modes),
            rbac: Rbac::Cached(cache),
            node: node::NodeAuthorizer::new(Arc::new(NodeGraph::fixed())),
            node_live: false,
            webhooks: Vec::new(),
        })
    }

    /// Changes the chain being built (not yet shared).
    fn edit(self, f: impl FnOnce(&mut Chain)) -> Self {
        let mut chain = Chain::clone(&self.chain.load());
        f(&mut chain);
        self.chain.store(Arc::new(chain));
        self
    }

    /// The same chain, its `Webhook` modes asking the webhooks `configs` describe, in
    /// order (a `Webhook` mode without one has no opinion).
    pub fn with_webhooks(self, configs: &[kas_proto::AuthorizationWebhookConfig]) -> Self {
        self.edit(|c| c.webhooks = webhooks(configs))
    }

    /// The same chain, its `Node` mode deciding over `graph`.
    pub fn with_node_graph(self, graph: Arc<NodeGraph>) -> Self {
        self.edit(|c| {
            c.node = node::NodeAuthorizer::new(graph);
            c.node_live = true;
        })
    }

    fn policy(&self) -> Arc<Policy> {
        self.chain.load().policy()
    }

    /// Whether RBAC is among the modes (its objects must then be read).
    pub fn uses_rbac(modes: &[String]) -> bool {
        modes.iter().any(|m| Mode::parse(m) == Some(Mode::Rbac))
    }

    /// A worker's chain of `--authorization-mode`: with RBAC and Node, over the
    /// cluster's objects as watches on the worker's storage keep them.
    pub fn for_worker(config: &kas_proto::WorkerConfig) -> Authorizer {
        let modes = &config.authorization_modes;
        let storage = kas_server::storage::StorageConfig::for_worker(config);
        let mut chain = if Authorizer::uses_rbac(modes) {
            Authorizer::cached(modes, PolicyCache::start(storage.clone()))
        } else {
            Authorizer::new(modes, Policy::default())
        };
        if modes.iter().any(|m| Mode::parse(m) == Some(Mode::Node)) {
            chain = chain.with_node_graph(NodeGraph::start(storage.clone()));
        }
        chain.storage = Some(storage);
        chain.with_webhooks(&config.authorization_webhooks)
    }

    /// Replaces the chain with `new` (a reloaded `--authorization-config`), for every
    /// clone at once. The RBAC and Node caches carry on; one the old chain did not need
    /// is started and read once first. The webhooks are new, their caches empty, as
    /// upstream builds them anew.
    pub async fn reconfigure(&self, new: &kas_proto::AuthorizationChain) {
        let current = self.chain.load_full();
        let modes = parse_modes(&new.modes);
        let mut rbac = current.rbac.clone();
        if let (true, Rbac::Fixed(_), Some(storage)) =
            (modes.contains(&Mode::Rbac), &current.rbac, &self.storage)
        {
            let cache = PolicyCache::start(storage.clone());
            cache.synced().await;
            rbac = Rbac::Cached(cache);
        }
        let (mut node, mut node_live) = (current.node.clone(), current.node_live);
        if let (true, false, Some(storage)) =
            (modes.contains(&Mode::Node), node_live, &self.storage)
        {
            let graph = NodeGraph::start(storage.clone());
            graph.synced().await;
            node = node::NodeAuthorizer::new(graph);
            node_live = true;
        }
        self.chain.store(Arc::new(Chain {
            modes,
            rbac,
            node,
            node_live,
            webhooks: webhooks(&new.webhooks),
        }));
    }

    /// Follows the reloads the supervisor sends on `control`, for as long as the
    /// worker runs.
    pub fn follow_reloads(&self, control: &kas_server::control::Control) {
        let mut reloads = control.authorization();
        let authorizer = self.clone();
        tokio::spawn(async move {
            while reloads.changed().await.is_ok() {
                let next = reloads.borrow_and_update().clone();
                if let Some(chain) = next {
                    authorizer.reconfigure(&chain).await;
                    tracing::info!(modes = ?chain.modes, "authorizers reloaded");
                }
            }
        });
    }

    /// Lists the RBAC objects again, when RBAC follows the cluster, and waits until that
    /// listing is in force: what was written before the call is decided over.
    pub async fn relist_rbac(&self) {
        let chain = self.chain.load_full();
        if let Rbac::Cached(cache) = &chain.rbac {
            cache.relist().await;
        }
    }

    /// Waits until the objects RBAC and Node decide over have been read once (at once
    /// without caches).
    pub async fn synced(&self) {
        let chain = self.chain.load_full();
        if let Rbac::Cached(cache) = &chain.rbac {
            cache.synced().await;
        }
        chain.node.synced().await;
    }

    /// Decides `a` for `user`, with the reason upstream gives (an authorizer's error
    /// counts as no opinion; [`Authorizer::decide`] tells it).
    pub async fn authorize(&self, user: &UserInfo, a: &Attributes) -> (Decision, String) {
        let v = self.decide(user, a).await;
        (v.decision, v.reason)
    }

    /// Decides `a` for `user` as upstream's union authorizer: the first opinion wins;
    /// without one, every reason and every error. Only the `Webhook` mode awaits
    /// anything; the others decide at once without allocating.
    pub async fn decide(&self, user: &UserInfo, a: &Attributes) -> Verdict {
        if user.groups.iter().any(|g| g == PRIVILEGED_GROUP) {
            return Verdict {
                decision: Decision::Allow,
                reason: String::new(),
                error: None,
            };
        }
        let chain = self.chain.load();
        let mut reasons = Vec::new();
        let mut errors: Vec<String> = Vec::new();
        let mut webhooks = chain.webhooks.iter();
        for mode in &chain.modes {
            let (decision, reason, error) = match mode {
                Mode::AlwaysAllow => (Decision::Allow, String::new(), None),
                Mode::AlwaysDeny => (
                    Decision::NoOpinion,
                    "Everything is forbidden.".to_owned(),
                    None,
                ),
                Mode::Rbac => {
                    let (d, r) = chain.policy().authorize(user, a);
                    (d, r, None)
                }
                Mode::Node => {
                    let (d, r) = chain.node.authorize(user, a);
                    (d, r, None)
                }
                Mode::Webhook => match webhooks.next() {
                    Some(w) => w.authorize(user, a).await,
                    None => (Decision::NoOpinion, String::new(), None),
                },
            };
            errors.extend(error);
            if decision != Decision::NoOpinion {
                return Verdict {
                    decision,
                    reason,
                    error: aggregate(errors),
                };
            }
            if !reason.is_empty() {
                reasons.push(reason);
            }
        }
        Verdict {
            decision: Decision::NoOpinion,
            reason: reasons.join("\n"),
            error: aggregate(errors),
        }
    }

    /// Escalation prevention: `Err(why)` when `rules` grant something RBAC does not grant
    /// `user` in `namespace` (upstream's ConfirmNoEscalation, whatever the modes).
    pub fn confirm_no_escalation(
        &self,
        user: &UserInfo,
        namespace: &str,
        rules: &[Value],
    ) -> Result<(), String> {
        covers::confirm_no_escalation(&self.policy(), user, namespace, rules)
    }

    /// The rules `user` has in `namespace` (resource and non-resource), and whether the
    /// list is incomplete.
    pub fn rules(&self, user: &UserInfo, namespace: &str) -> (Vec<Value>, Vec<Value>, bool) {
        let everything = || {
            (
                vec![json!({"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]})],
                vec![json!({"verbs": ["*"], "nonResourceURLs": ["*"]})],
            )
        };
        let mut resource = Vec::new();
        let mut non_resource = Vec::new();
        let mut incomplete = false;
        let privileged = user.groups.iter().any(|g| g == PRIVILEGED_GROUP);
        if privileged {
            let (r, n) = everything();
            resource.extend(r);
            non_resource.extend(n);
        }
        let chain = self.chain.load();
        for mode in &chain.modes {
            let (r, n) = match mode {
                Mode::AlwaysAllow => everything(),
                Mode::AlwaysDeny => (Vec::new(), Vec::new()),
                // Upstream's node authorizer cannot list a kubelet's rules.
                Mode::Node => {
                    incomplete |= node::node_identity(user).is_some();
                    (Vec::new(), Vec::new())
                }
                Mode::Rbac => chain.policy().rules_for(user, namespace),
                // Upstream's webhook authorizer cannot list rules: the list is incomplete.
                Mode::Webhook => {
                    incomplete = true;
                    (Vec::new(), Vec::new())
                }
            };
            resource.extend(r);
            non_resource.extend(n);
        }
        (resource, non_resource, incomplete)
    }
}

impl Chain {
    fn policy(&self) -> Arc<Policy> {
        match &self.rbac {
            Rbac::Fixed(p) => p.clone(),
            Rbac::Cached(c) => c.policy(),
        }
    }
}

/// Errors as Go's aggregate error prints them: one alone as itself, several as
/// `[e1, e2]`.
fn aggregate(errors: Vec<String>) -> Option<String> {
    match errors.len() {
        0 => None,
        1 => errors.into_iter().next(),
        _ => Some(format!("[{}]", errors.join(", "))),
    }
}
