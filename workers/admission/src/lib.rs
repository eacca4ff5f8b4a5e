//! Admission for kube-apiserver-rs: the chain of kube-apiserver's admission plugins that
//! `--enable-admission-plugins` / `--disable-admission-plugins` select, in upstream's
//! order, run by the workers that store objects (kube-api for built-in resources,
//! extensions for custom resources). The interface and the runner are
//! [`kas_server::admission`]; this crate holds the plugins.

#![forbid(unsafe_code)]

mod always_pull_images;
mod certificates;
mod default_tolerations;
mod event_rate_limit;
mod limit_ranger;
mod match_metrics;
mod namespace_lifecycle;
mod node_restriction;
mod nodes_and_ingress;
mod owner_references;
mod pod_security;
mod policy;
mod priority;
/// Quantities, as kas-schema decodes and canonicalizes them.
pub(crate) use kas_schema::quantity;
pub mod resource_quota;
mod runtime_class;
mod service_account;
mod storage;
mod webhook;

#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;

use std::sync::Arc;

use kas_proto::AdmissionConfig;
use kas_server::admission::{Chain, Plugin};
use kas_server::rest::{Resource, RestStore};

pub use default_tolerations::DefaultTolerationSeconds;
pub use limit_ranger::LimitRanger;
pub use namespace_lifecycle::NamespaceLifecycle;
pub use node_restriction::NodeRestriction;
pub use pod_security::PodSecurity;
pub use policy::{check_expression as check_policy_expression, ValidatingAdmissionPolicy};
pub use priority::Priority;
pub use service_account::ServiceAccount;
pub use webhook::{compile_condition, Webhooks};

/// ResourceQuotas, for a worker that does not serve them but charges them.
pub const RESOURCE_QUOTAS: Resource =
    Resource::new("", "v1", "resourcequotas", "resourcequota", "ResourceQuota");

/// ConfigMaps, for a worker that does not serve them but reads them as policy params.
pub const CONFIG_MAPS: Resource = Resource::new("", "v1", "configmaps", "configmap", "ConfigMap");

/// Namespaces, for a worker that does not serve them but must look them up.
pub const NAMESPACES: Resource =
    Resource::new("", "v1", "namespaces", "namespace", "Namespace").cluster();

/// What the plugins read: the stores of the objects they look up.
#[derive(Debug, Clone)]
pub struct Sources {
    /// Namespaces (NamespaceLifecycle), best with a watch cache.
    pub namespaces: RestStore,
    /// ServiceAccounts (ServiceAccount), where pods are served.
    pub service_accounts: Option<RestStore>,
    /// PriorityClasses (Priority), where pods and PriorityClasses are served.
    pub priority_classes: Option<RestStore>,
    /// LimitRanges (LimitRanger), where pods and LimitRanges are served.
    pub limit_ranges: Option<RestStore>,
    /// Every store the worker serves, for plugins that read a kind of object (storage,
    /// ingress and runtime classes).
    pub served: Vec<RestStore>,
    /// The authorizer chain (the certificate plugins ask it about signers).
    pub authorizer: Option<kas_authz::Authorizer>,
    /// Pods and Nodes (NodeRestriction), where they are served.
    pub pods_and_nodes: Option<(RestStore, RestStore)>,
    /// ResourceQuotas (ResourceQuota), and where to report deletes for the quota
    /// controller to count again (in the worker that runs it).
    pub resource_quotas: Option<(
        RestStore,
        Option<tokio::sync::mpsc::UnboundedSender<String>>,
    )>,
    /// The stores ValidatingAdmissionPolicy params are read from (and, where it is among
    /// them, the policies' own store, whose status the plugin keeps).
    pub policy_stores: Option<Vec<RestStore>>,
    /// Resolves the service references of webhooks (`clientConfig.service`); without
    /// it they are called by their `<name>.<namespace>.svc` names.
    pub services: Option<Arc<kas_server::service_resolver::ServiceResolver>>,
}

impl Sources {
    /// The served store of `group`/`plural` (its preferred version: the first listed).
    fn store(&self, group: &str, plural: &str) -> Option<RestStore> {
        self.served
            .iter()
            .find(|s| s.resource().group == group && s.resource().plural == plural)
            .cloned()
    }
}

/// The configuration of `plugin` in a parsed AdmissionConfiguration: its entry's inline
/// `configuration`, else the file its `path` names (YAML or JSON); `None` when the
/// plugin has no entry or neither is given.
pub(crate) fn plugin_configuration(
    admission_config: &serde_json::Value,
    plugin: &str,
) -> Result<Option<serde_json::Value>, String> {
    use serde_json::Value;
    let entry = admission_config
        .get("plugins")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|p| p.get("name").and_then(Value::as_str) == Some(plugin));
    let Some(entry) = entry else {
        return Ok(None);
    };
    match (entry.get("configuration"), entry.get("path")) {
        (Some(c), _) if !c.is_null() => Ok(Some(c.clone())),
        (_, Some(Value::String(path))) if !path.is_empty() => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            serde_yaml_ng::from_str(&text)
                .map(Some)
                .map_err(|e| format!("{path}: {e}"))
        }
        _ => Ok(None),
    }
}

/// Checks the plugins' parts of an `--admission-control-config-file` text (the
/// PodSecurity configuration), as kube-apiserver does before it serves: `Err` names the
/// plugin and what is wrong.
pub fn check_config_file(text: Option<&str>, plugins: &[&str]) -> Result<(), String> {
    if let (Some(text), true) = (text, plugins.contains(&"PodSecurity")) {
        pod_security::check_config(text)
            .map_err(|e| format!("couldn't init admission plugin \"PodSecurity\": {e}"))?;
    }
    for plugin in ["MutatingAdmissionWebhook", "ValidatingAdmissionWebhook"] {
        if plugins.contains(&plugin) {
            webhook::check_credentials(text, plugin)
                .map_err(|e| format!("couldn't init admission plugin {plugin:?}: {e}"))?;
        }
    }
    if plugins.contains(&"EventRateLimit") {
        event_rate_limit::load(text)
            .map_err(|e| format!("couldn't init admission plugin \"EventRateLimit\": {e}"))?;
    }
    Ok(())
}

/// The chain `config` selects. Plugins this server does not implement yet are named in
/// the log once, at start, and skipped.
pub fn chain(config: &AdmissionConfig, sources: &Sources) -> Chain {
    let mut plugins: Vec<Arc<dyn Plugin>> = Vec::new();
    let mut missing = Vec::new();
    for name in &config.plugins {
        match name.as_str() {
            "NamespaceLifecycle" => plugins.push(Arc::new(NamespaceLifecycle::new(
                sources.namespaces.clone(),
            ))),
            "DefaultTolerationSeconds" => plugins.push(Arc::new(DefaultTolerationSeconds::new(
                config.default_not_ready_toleration_seconds,
                config.default_unreachable_toleration_seconds,
            ))),
            "TaintNodesByCondition" => {
                plugins.push(Arc::new(nodes_and_ingress::TaintNodesByCondition))
            }
            "StorageObjectInUseProtection" => {
                plugins.push(Arc::new(storage::StorageObjectInUseProtection))
            }
            "AlwaysPullImages" => plugins.push(Arc::new(always_pull_images::AlwaysPullImages)),
            name @ ("CertificateApproval" | "CertificateSigning" | "ClusterTrustBundleAttest") => {
                if let Some(authz) = &sources.authorizer {
                    let plugin = match name {
                        "CertificateApproval" => "CertificateApproval",
                        "CertificateSigning" => "CertificateSigning",
                        _ => "ClusterTrustBundleAttest",
                    };
                    plugins.push(Arc::new(certificates::SignerPermission::new(
                        authz.clone(),
                        plugin,
                    )));
                }
            }
            "EventRateLimit" => match event_rate_limit::load(config.config_file.as_deref()) {
                Ok(plugin) => plugins.push(Arc::new(plugin)),
                // The supervisor refuses to start with a configuration that does not load.
                Err(e) => tracing::error!(error = %e, "EventRateLimit not configured"),
            },
            "OwnerReferencesPermissionEnforcement" => {
                if let Some(authz) = &sources.authorizer {
                    plugins.push(Arc::new(
                        owner_references::OwnerReferencesPermissionEnforcement::new(
                            authz.clone(),
                            sources.served.clone(),
                        ),
                    ));
                }
            }
            "CertificateSubjectRestriction" => {
                plugins.push(Arc::new(certificates::CertificateSubjectRestriction))
            }
            "DefaultStorageClass" => {
                if let Some(classes) = sources.store("storage.k8s.io", "storageclasses") {
                    plugins.push(Arc::new(storage::DefaultStorageClass::new(classes)));
                }
            }
            "PersistentVolumeClaimResize" => {
                if let Some(classes) = sources.store("storage.k8s.io", "storageclasses") {
                    plugins.push(Arc::new(storage::PersistentVolumeClaimResize::new(classes)));
                }
            }
            "DefaultIngressClass" => {
                if let Some(classes) = sources.store("networking.k8s.io", "ingressclasses") {
                    plugins.push(Arc::new(nodes_and_ingress::DefaultIngressClass::new(
                        classes,
                    )));
                }
            }
            "RuntimeClass" => {
                if let Some(classes) = sources.store("node.k8s.io", "runtimeclasses") {
                    plugins.push(Arc::new(runtime_class::RuntimeClass::new(classes)));
                }
            }
            "ResourceQuota" => {
                if let Some((quotas, replenish)) = &sources.resource_quotas {
                    plugins.push(Arc::new(resource_quota::ResourceQuota::new(
                        quotas.clone(),
                        replenish.clone(),
                    )));
                }
            }
            "NodeRestriction" => {
                if let Some((pods, nodes)) = &sources.pods_and_nodes {
                    plugins.push(Arc::new(NodeRestriction::new(pods.clone(), nodes.clone())));
                }
            }
            "LimitRanger" => {
                if let Some(ranges) = &sources.limit_ranges {
                    plugins.push(Arc::new(LimitRanger::new(ranges.clone())));
                }
            }
            "PodSecurity" => plugins.push(Arc::new(PodSecurity::new(
                config.config_file.as_deref(),
                sources.namespaces.clone(),
                sources
                    .pods_and_nodes
                    .as_ref()
                    .map(|(pods, _)| pods.clone()),
            ))),
            "Priority" => {
                if let Some(classes) = &sources.priority_classes {
                    plugins.push(Arc::new(Priority::new(classes.clone())));
                }
            }
            "ServiceAccount" => {
                // Only where pods are served (kube-api); nothing to do elsewhere.
                if let Some(accounts) = &sources.service_accounts {
                    plugins.push(Arc::new(ServiceAccount::new(accounts.clone())));
                }
            }
            "MutatingAdmissionWebhook" => plugins.push(Arc::new(Webhooks::mutating(
                sources.namespaces.clone(),
                sources.services.clone(),
                sources.authorizer.clone(),
                config.config_file.as_deref(),
            ))),
            "ValidatingAdmissionWebhook" => plugins.push(Arc::new(Webhooks::validating(
                sources.namespaces.clone(),
                sources.services.clone(),
                sources.authorizer.clone(),
                config.config_file.as_deref(),
            ))),
            "ValidatingAdmissionPolicy" => plugins.push(Arc::new(ValidatingAdmissionPolicy::new(
                sources.namespaces.clone(),
                sources.policy_stores.clone(),
                sources.authorizer.clone(),
            ))),
            other => missing.push(other.to_owned()),
        }
    }
    if !missing.is_empty() {
        tracing::info!(plugins = ?missing, "admission plugins not implemented yet; skipped");
    }
    Chain::new(plugins)
}
