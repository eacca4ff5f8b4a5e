//! The webhooks of MutatingWebhookConfigurations and ValidatingWebhookConfigurations as
//! the dispatchers use them (defaults applied, selectors parsed, conditions compiled, a
//! client built per webhook so its connections are reused), and the source that keeps
//! them in memory: a list of the configurations, then a watch, as upstream's informer.
//! A configuration takes effect as soon as the watch delivers it.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use base64::Engine;
use kas_server::follow::{self, Follower, Synced};
use kas_server::selectors::{label_selector_string, LabelSelector};
use kas_server::service_resolver::connect::ServiceDial;
use kas_server::service_resolver::ServiceResolver;
use kas_server::storage::Storage;
use kas_server::webhook::WebhookClient;

use super::credentials::Credentials;
use serde_json::Value;

use super::matching::Conditions;

/// `timeoutSeconds` when a webhook does not say.
pub(crate) const DEFAULT_TIMEOUT: u64 = 10;

/// Which kind of configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// MutatingWebhookConfiguration, called in order, may patch the object.
    Mutating,
    /// ValidatingWebhookConfiguration, called in parallel, may only refuse.
    Validating,
}

impl Kind {
    /// The storage path of the configurations (as a follower's one resource).
    fn resources(self) -> &'static [&'static str] {
        match self {
            Kind::Mutating => &["mutatingwebhookconfigurations"],
            Kind::Validating => &["validatingwebhookconfigurations"],
        }
    }
}

/// Where a webhook is called.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// A client for its URL (or its service's name).
    Client(Box<WebhookClient>),
    /// No client could be built: why (failed per failurePolicy when called).
    Unusable(String),
}

/// One rule of a webhook (RuleWithOperations).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Rule {
    pub operations: Vec<String>,
    pub groups: Vec<String>,
    pub versions: Vec<String>,
    pub resources: Vec<String>,
    /// `*` (default), `Cluster` or `Namespaced`.
    pub scope: String,
}

/// One webhook of a configuration, defaults applied.
#[derive(Debug)]
pub(crate) struct Hook {
    /// The configuration's name.
    pub configuration: String,
    /// The webhook's name.
    pub name: String,
    pub rules: Vec<Rule>,
    /// `failurePolicy: Ignore`.
    pub fail_open: bool,
    /// `matchPolicy: Exact`.
    pub exact: bool,
    pub namespace_selector: Result<LabelSelector, String>,
    pub object_selector: Result<LabelSelector, String>,
    /// `sideEffects`, when given.
    pub side_effects: Option<String>,
    pub timeout: Duration,
    /// The AdmissionReview version to send: the first of `admissionReviewVersions`
    /// this server knows (`None`: none known).
    pub review_version: Option<&'static str>,
    /// `reinvocationPolicy: IfNeeded` (mutating).
    pub reinvoke: bool,
    pub conditions: Conditions,
    pub target: Target,
}

pub(crate) fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

pub(crate) fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// A `metav1.LabelSelector` parsed; missing or empty selects everything.
pub(crate) fn selector(v: Option<&Value>) -> Result<LabelSelector, String> {
    match v {
        Some(s) if s.is_object() => {
            LabelSelector::parse(&label_selector_string(s)).map_err(|e| e.message)
        }
        _ => Ok(LabelSelector::default()),
    }
}

/// A rule (RuleWithOperations) as written; `scope` defaults to `*`.
pub(crate) fn rule_of(r: &Value) -> Rule {
    Rule {
        operations: strings(r, "operations"),
        groups: strings(r, "apiGroups"),
        versions: strings(r, "apiVersions"),
        resources: strings(r, "resources"),
        scope: text(r, "scope").unwrap_or("*").to_owned(),
    }
}

/// Where `clientConfig` points: its URL, or its service's in-cluster name.
pub(crate) fn client_url(client: &Value) -> Result<String, String> {
    if let Some(url) = text(client, "url") {
        return Ok(url.to_owned());
    }
    match client.get("service") {
        Some(svc) => {
            let name = text(svc, "name").unwrap_or("");
            let ns = text(svc, "namespace").unwrap_or("");
            let port = service_port(svc)?;
            let path = text(svc, "path").unwrap_or("");
            Ok(format!("https://{name}.{ns}.svc:{port}{path}"))
        }
        None => Err("webhook has no clientConfig url or service".to_owned()),
    }
}

/// The `host:port` the credentials are chosen by: the URL's (port 443 when it names
/// none), or `<name>.<namespace>.svc:<port>` for a service.
fn host_port(client: &Value, url: &str) -> String {
    if let (None, Some(svc)) = (text(client, "url"), client.get("service")) {
        let port = service_port(svc).unwrap_or(443);
        return format!(
            "{}.{}.svc:{port}",
            text(svc, "name").unwrap_or(""),
            text(svc, "namespace").unwrap_or("")
        );
    }
    // The URL is checked to be `https://host[:port][/path]` by validation.
    let rest = url.strip_prefix("https://").unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let bracketed_end = authority.rfind(']');
    match authority.rfind(':') {
        Some(i) if bracketed_end.is_none_or(|b| i > b) => authority.to_owned(),
        _ => format!("{authority}:443"),
    }
}

/// `service.port`, 443 when not given (validation keeps it in 1–65535).
fn service_port(svc: &Value) -> Result<u16, String> {
    let port = svc.get("port").and_then(Value::as_i64).unwrap_or(443);
    u16::try_from(port).map_err(|_| format!("invalid service port {port}"))
}

/// Where a webhook is called, and what it is shown.
#[derive(Clone, Copy, Default)]
pub(crate) struct Reach<'a> {
    /// Resolves `clientConfig.service` references.
    pub(crate) services: Option<&'a Arc<ServiceResolver>>,
    /// The credentials of the plugin's kubeconfig.
    pub(crate) credentials: Option<&'a Credentials>,
}

/// The client of `clientConfig`: its URL, or its service dialled where `services`
/// resolves it (by its DNS name when there is no resolver), with the credentials the
/// plugin's kubeconfig gives its `host:port`.
fn target(client: &Value, timeout: Duration, reach: Reach<'_>) -> Target {
    let services = reach.services;
    let url = match client_url(client) {
        Ok(u) => u,
        Err(e) => return Target::Unusable(e),
    };
    let auth = match reach.credentials {
        None => Ok(Default::default()),
        Some(c) => c.for_target(&host_port(client, &url)),
    };
    let auth = match auth {
        Ok(a) => a,
        Err(e) => return Target::Unusable(format!("webhook credentials: {e}")),
    };
    let ca = match text(client, "caBundle").filter(|s| !s.is_empty()) {
        None => None,
        Some(b64) => match base64::engine::general_purpose::STANDARD.decode(b64) {
            Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Err(e) => return Target::Unusable(format!("caBundle: {e}")),
        },
    };
    let made = match (text(client, "url"), client.get("service"), services) {
        (None, Some(svc), Some(resolver)) => {
            let port = match service_port(svc) {
                Ok(p) => p,
                Err(e) => return Target::Unusable(e),
            };
            let dial = ServiceDial::new(
                resolver.clone(),
                text(svc, "namespace").unwrap_or(""),
                text(svc, "name").unwrap_or(""),
                port,
            );
            let path = text(svc, "path").unwrap_or("");
            WebhookClient::for_service(Arc::new(dial), path, ca, timeout, auth)
        }
        _ => WebhookClient::for_admission(&url, ca, timeout, auth),
    };
    match made {
        Ok(c) => Target::Client(Box::new(c)),
        Err(e) => Target::Unusable(e.to_string()),
    }
}

/// The webhooks of one configuration object, in order.
pub(crate) fn hooks_of(config: &Value, reach: Reach<'_>) -> Vec<Arc<Hook>> {
    let configuration = config
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let webhooks = config.get("webhooks").and_then(Value::as_array);
    webhooks
        .into_iter()
        .flatten()
        .map(|w| {
            let timeout = w
                .get("timeoutSeconds")
                .and_then(Value::as_u64)
                .unwrap_or(DEFAULT_TIMEOUT)
                .clamp(1, 30);
            let timeout = Duration::from_secs(timeout);
            let rules = w
                .get("rules")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(rule_of)
                .collect();
            let review_version = strings(w, "admissionReviewVersions")
                .iter()
                .find_map(|v| match v.as_str() {
                    "v1" => Some("v1"),
                    "v1beta1" => Some("v1beta1"),
                    _ => None,
                });
            let conditions = w
                .get("matchConditions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|c| {
                    (
                        text(c, "name").unwrap_or("").to_owned(),
                        text(c, "expression").unwrap_or("").to_owned(),
                    )
                })
                .collect::<Vec<_>>();
            Arc::new(Hook {
                configuration: configuration.clone(),
                name: text(w, "name").unwrap_or("").to_owned(),
                rules,
                fail_open: text(w, "failurePolicy") == Some("Ignore"),
                exact: text(w, "matchPolicy") == Some("Exact"),
                namespace_selector: selector(w.get("namespaceSelector")),
                object_selector: selector(w.get("objectSelector")),
                side_effects: text(w, "sideEffects").map(str::to_owned),
                timeout,
                review_version,
                reinvoke: text(w, "reinvocationPolicy") == Some("IfNeeded"),
                conditions: Conditions::compile(&conditions),
                target: target(
                    w.get("clientConfig").unwrap_or(&Value::Null),
                    timeout,
                    reach,
                ),
            })
        })
        .collect()
}

/// The webhooks of every configuration of one kind, kept from storage.
#[derive(Debug)]
pub(crate) struct Source {
    /// Configuration name → its webhooks (sorted by name, as upstream's manager).
    by_config: RwLock<BTreeMap<String, Vec<Arc<Hook>>>>,
    /// Every webhook in order, rebuilt when a configuration changes.
    all: RwLock<Arc<Vec<Arc<Hook>>>>,
    kind: Kind,
    /// Resolves `clientConfig.service` references.
    services: Option<Arc<ServiceResolver>>,
    /// The credentials of the plugin's kubeconfig.
    credentials: Option<Credentials>,
    synced: Synced,
}

impl Source {
    /// A source following the configurations of `kind` in `storage` (started now); their
    /// service references are resolved by `services`.
    pub(crate) fn start(
        kind: Kind,
        storage: Storage,
        services: Option<Arc<ServiceResolver>>,
        credentials: Option<Credentials>,
    ) -> Arc<Source> {
        let (synced, tx) = Synced::new();
        let source = Arc::new(Source {
            by_config: RwLock::new(BTreeMap::new()),
            all: RwLock::new(Arc::new(Vec::new())),
            kind,
            services,
            credentials,
            synced,
        });
        follow::start_on(&source, storage, tx, Arc::default());
        source
    }

    /// A source holding `configs` (tests).
    #[cfg(test)]
    pub(crate) fn fixed(configs: &[Value]) -> Arc<Source> {
        let (synced, tx) = Synced::new();
        tx.send_replace(1);
        let source = Arc::new(Source {
            by_config: RwLock::new(BTreeMap::new()),
            all: RwLock::new(Arc::new(Vec::new())),
            kind: Kind::Validating,
            services: None,
            credentials: None,
            synced,
        });
        Source::reset(&source, configs.to_vec());
        source
    }

    fn reach(&self) -> Reach<'_> {
        Reach {
            services: self.services.as_ref(),
            credentials: self.credentials.as_ref(),
        }
    }

    /// Every webhook, in order.
    pub(crate) fn hooks(&self) -> Arc<Vec<Arc<Hook>>> {
        self.all
            .read()
            .map(|a| a.clone())
            .unwrap_or_else(|_| Arc::new(Vec::new()))
    }

    /// Waits (up to `limit`) until the configurations have been listed once.
    pub(crate) async fn wait_synced(&self, limit: Duration) -> bool {
        tokio::time::timeout(limit, self.synced.wait())
            .await
            .is_ok()
            && self.synced.listings() > 0
    }

    fn rebuild(&self, by_config: &BTreeMap<String, Vec<Arc<Hook>>>) {
        let all: Vec<Arc<Hook>> = by_config.values().flatten().cloned().collect();
        if let Ok(mut a) = self.all.write() {
            *a = Arc::new(all);
        }
    }

    fn reset(&self, configs: Vec<Value>) {
        if let Ok(mut m) = self.by_config.write() {
            m.clear();
            for c in &configs {
                let name = c.pointer("/metadata/name").and_then(Value::as_str);
                m.insert(name.unwrap_or("").to_owned(), hooks_of(c, self.reach()));
            }
            self.rebuild(&m);
        }
    }

    fn apply(&self, name: &str, config: Option<Value>) {
        if let Ok(mut m) = self.by_config.write() {
            match config {
                Some(c) => m.insert(name.to_owned(), hooks_of(&c, self.reach())),
                None => m.remove(name),
            };
            self.rebuild(&m);
        }
    }
}

impl Follower for Source {
    const WHAT: &'static str = "webhook configurations";

    fn resources(&self) -> &'static [&'static str] {
        self.kind.resources()
    }

    fn reset(&self, mut listed: Vec<Vec<(String, Value)>>) {
        let configs = listed.pop().unwrap_or_default();
        Source::reset(self, configs.into_iter().map(|(_, c)| c).collect());
    }

    fn apply(&self, _resource: usize, name: &str, config: Option<Value>) {
        Source::apply(self, name, config);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn defaults_and_order() {
        let source = Source::fixed(&[
            json!({"metadata": {"name": "b"}, "webhooks": [
                {"name": "b1.example.com", "clientConfig": {"url": "https://127.0.0.1:1/x"},
                 "admissionReviewVersions": ["v2", "v1beta1"], "sideEffects": "None"}]}),
            json!({"metadata": {"name": "a"}, "webhooks": [
                {"name": "a1.example.com", "timeoutSeconds": 3, "failurePolicy": "Ignore",
                 "matchPolicy": "Exact", "reinvocationPolicy": "IfNeeded",
                 "clientConfig": {"service": {"namespace": "ns", "name": "svc"}},
                 "rules": [{"operations": ["CREATE"], "apiGroups": [""],
                            "apiVersions": ["v1"], "resources": ["pods"]}]},
                {"name": "a2.example.com", "clientConfig": {}}]}),
        ]);
        assert!(source.wait_synced(Duration::from_millis(10)).await);
        let hooks = source.hooks();
        let names: Vec<&str> = hooks.iter().map(|h| h.name.as_str()).collect();
        assert_eq!(
            names,
            ["a1.example.com", "a2.example.com", "b1.example.com"]
        );
        let a1 = &hooks[0];
        assert!(a1.fail_open && a1.exact && a1.reinvoke);
        assert_eq!(a1.timeout, Duration::from_secs(3));
        assert_eq!(a1.rules[0].scope, "*");
        assert_eq!(a1.review_version, None);
        assert!(matches!(a1.target, Target::Client(_)));
        let a2 = &hooks[1];
        assert!(!a2.fail_open && !a2.exact && !a2.reinvoke);
        assert_eq!(a2.timeout, Duration::from_secs(DEFAULT_TIMEOUT));
        assert!(matches!(&a2.target, Target::Unusable(e) if e.contains("no clientConfig")));
        assert_eq!(hooks[2].review_version, Some("v1beta1"));
        assert_eq!(
            client_url(&json!({"service": {"namespace": "ns", "name": "svc", "path": "/v"}})),
            Ok("https://svc.ns.svc:443/v".to_owned())
        );
        assert_eq!(
            client_url(&json!({"service": {"namespace": "ns", "name": "svc", "port": 70000}})),
            Err("invalid service port 70000".to_owned())
        );
        source.apply("a", None);
        assert_eq!(source.hooks().len(), 1);
    }
}
