//! ValidatingAdmissionPolicy, kube-apiserver's in-process CEL admission: every
//! ValidatingAdmissionPolicyBinding applies its policy to the writes that the policy's
//! `matchConstraints` and the binding's `matchResources` select; the policy's
//! `matchConditions`, `variables`, `validations` and `auditAnnotations` are CEL over
//! `object`, `oldObject`, `request`, `params` (the binding's `paramRef`), and
//! `namespaceObject`; a failed validation refuses the write (Deny), becomes a `Warning`
//! (Warn) or an audit annotation (Audit), as the binding's `validationActions` say.
//! Under `matchPolicy: Equivalent` a policy matching another version of the resource
//! sees the object converted to that version, as upstream's VersionedAttributes.
//! Errors (an expression that fails, a missing param) follow the policy's
//! `failurePolicy`. Policies and bindings are followed from storage, so they take effect
//! as soon as they are written. `authorizer` checks are decided by the worker's
//! authorizer chain for the requesting user (see `authz`).

pub(crate) mod authz;
mod compile;
mod eval;
mod inputs;
mod matching;
mod metrics;
mod model;
mod params;
mod source;
mod status;
mod typecheck;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use kas_server::admission::{Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, Resource, RestStore};
use kas_server::status::{Reason, Status, StatusCause};
use serde_json::{json, Value};
use tokio::sync::OnceCell;

use eval::{Annotation, Decision, Inputs};
use matching::NamespaceLabels;
use model::{Action, Binding, MatchResources, Policy};
use params::ParamStores;
use source::Source;

use crate::webhook::review;
use crate::webhook::versioned::{same_version, Converted};

pub use compile_check::check_expression;

/// The request's namespace, read when first needed.
type NamespaceCell = OnceCell<Result<Option<Value>, String>>;

/// How long a request waits for the policies and bindings to be listed once.
const SYNC_WAIT: Duration = Duration::from_secs(10);
/// The audit annotation of a failed validation under the Audit action.
const VALIDATION_FAILURE: &str = "validation.policy.admission.k8s.io/validation_failure";

/// The compile check the validation of policy objects uses.
mod compile_check {
    use super::compile::{check_source, Scope};

    /// Whether `expression` of a policy compiles: `params` is declared when the policy
    /// has a `paramKind`; `variables` are the names of the variables it may read (those
    /// declared before it). The error is cel-go's `ERROR: <input>:l:c: ...`.
    pub fn check_expression(
        expression: &str,
        params: bool,
        variables: &[String],
    ) -> Result<(), String> {
        check_source(expression, Scope { params, variables })
    }
}

/// The ValidatingAdmissionPolicy plugin.
pub struct ValidatingAdmissionPolicy {
    source: Arc<Source>,
    namespaces: RestStore,
    params: ParamStores,
    /// Decides the checks of `authorizer` in expressions; without it the variable is not
    /// offered.
    authorizer: Option<kas_authz::Authorizer>,
}

/// A refusal found while dispatching.
struct Denied {
    policy: String,
    binding: Option<String>,
    message: String,
    reason: Option<String>,
}

impl ValidatingAdmissionPolicy {
    /// The plugin: policies and bindings followed in the storage of `namespaces` (which
    /// also answers namespace selectors); params read from `stores`. Where `stores` holds
    /// the policies' own store, each policy's status (observedGeneration, typeChecking) is
    /// written there. `authorizer` decides the expressions' authorization checks.
    pub fn new(
        namespaces: RestStore,
        stores: Option<Vec<RestStore>>,
        authorizer: Option<kas_authz::Authorizer>,
    ) -> ValidatingAdmissionPolicy {
        let stores = stores.unwrap_or_default();
        let own = stores
            .iter()
            .find(|s| {
                let r = s.resource();
                r.group == "admissionregistration.k8s.io" && r.plural == source::POLICIES
            })
            .cloned();
        let resolver = typecheck::Resolver::new(&stores, &namespaces);
        let compiled = own.map(|own| status::start(own, resolver));
        let source = Source::start(namespaces.storage().clone(), compiled);
        ValidatingAdmissionPolicy {
            source,
            namespaces,
            params: ParamStores::new(stores),
            authorizer,
        }
    }

    /// The namespace the request is in (or the Namespace it is about), read once.
    async fn namespace_of<'c>(
        &self,
        req: &Request<'_>,
        cell: &'c NamespaceCell,
    ) -> &'c Result<Option<Value>, String> {
        let name = match req.namespace.is_empty() {
            true => req.name,
            false => req.namespace,
        };
        cell.get_or_init(|| self.namespace(name)).await
    }

    /// The namespace `name`: the watch cache first, storage when the cache has not seen it.
    async fn namespace(&self, name: &str) -> Result<Option<Value>, String> {
        let found = match self.namespaces.read_cached("", name).await {
            Ok(Some(ns)) => Some(ns),
            Ok(None) => self
                .namespaces
                .read_latest("", name)
                .await
                .map_err(|e| e.message)?,
            Err(e) => return Err(e.message),
        };
        Ok(found)
    }

    async fn dispatch(&self, req: &Request<'_>, obj: &Value, rec: &Recorder) -> Result<(), Status> {
        let exempt = req.resource.group == "admissionregistration.k8s.io"
            && matches!(
                req.resource.plural,
                "validatingwebhookconfigurations"
                    | "mutatingwebhookconfigurations"
                    | "validatingadmissionpolicies"
                    | "validatingadmissionpolicybindings"
                    | "mutatingadmissionpolicies"
                    | "mutatingadmissionpolicybindings"
            );
        if exempt {
            return Ok(());
        }
        if !self.source.wait_synced(SYNC_WAIT).await {
            return Err(req.forbidden(obj, "not yet ready to handle request"));
        }
        let hooks = self.source.hooks();
        if hooks.iter().all(|h| h.bindings.is_empty()) {
            return Ok(());
        }
        let is_namespace = req.resource.group.is_empty() && req.resource.plural == "namespaces";
        // The request's namespace: read at most once, and only when something needs it.
        let ns_cell: NamespaceCell = OnceCell::new();
        // The CEL inputs of each version policies match the request as (the object
        // converted to it under `matchPolicy: Equivalent`), made once.
        let mut converted = Converted::default();
        let mut inputs: Vec<(Resource, Inputs)> = Vec::new();
        // The authorization checks of `authorizer`, decided once per request.
        let checks = Arc::new(kas_cel::authz::Checks::default());
        let deciding = match (&self.authorizer, req.user) {
            (Some(authorizer), Some(user)) => Some(authz::Deciding {
                checks: &checks,
                authorizer,
                user,
            }),
            _ => None,
        };
        let mut denied: Vec<Denied> = Vec::new();
        let config_error =
            |denied: &mut Vec<Denied>, policy: &Policy, binding: Option<&Binding>, e: String| {
                if policy.fail_open {
                    return;
                }
                let message = match binding {
                    None => format!("failed to configure policy: {e}"),
                    Some(_) => format!("failed to configure binding: {e}"),
                };
                denied.push(Denied {
                    policy: policy.name.clone(),
                    binding: binding.map(|b| b.name.clone()),
                    message,
                    reason: None,
                });
            };
        for hook in hooks.iter().filter(|h| !h.bindings.is_empty()) {
            let policy = &hook.policy;
            let Some(constraints) = &policy.constraints else {
                continue;
            };
            let matched = match self
                .matches(constraints, req, obj, is_namespace, &ns_cell)
                .await
            {
                Ok(Some(matched)) => matched,
                Ok(None) => continue,
                Err(e) => {
                    config_error(&mut denied, policy, None, e);
                    continue;
                }
            };
            let mut collected: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for binding in &hook.bindings {
                if let Some(resources) = &binding.resources {
                    match self
                        .matches(resources, req, obj, is_namespace, &ns_cell)
                        .await
                    {
                        Ok(Some(_)) => {}
                        Ok(None) => continue,
                        Err(e) => {
                            config_error(&mut denied, policy, Some(binding), e);
                            continue;
                        }
                    }
                }
                let params = match self
                    .params
                    .collect(
                        policy.param_kind.as_ref(),
                        binding.param_ref.as_ref(),
                        req.namespace,
                    )
                    .await
                {
                    Ok(p) => p,
                    Err(e) => {
                        config_error(&mut denied, policy, Some(binding), e);
                        continue;
                    }
                };
                if params.is_empty() {
                    continue;
                }
                let at = match inputs.iter().position(|(r, _)| same_version(r, &matched)) {
                    Some(at) => at,
                    None => {
                        let ns = match (is_namespace, req.namespace.is_empty()) {
                            (false, false) => match self.namespace_of(req, &ns_cell).await {
                                Ok(ns) => ns.clone(),
                                Err(e) => return Err(Status::internal(e)),
                            },
                            _ => None,
                        };
                        let version = converted.index(req, obj, &matched).await?;
                        let (vreq, vobj) = converted.view(req, obj, version);
                        let mut request = review::request("", &vreq, req.resource, vobj);
                        if let Some(m) = request.as_object_mut() {
                            m.remove("object");
                            m.remove("oldObject");
                        }
                        let old = vreq.old_object.cloned().unwrap_or(Value::Null);
                        let mut made = Inputs::new(vobj, &old, &request, ns.as_ref());
                        if deciding.is_some() {
                            let r = vreq.resource;
                            made = made.with_authorizer(
                                &checks,
                                [r.group, r.plural, req.subresource, req.namespace, req.name],
                            );
                        }
                        inputs.push((matched, made));
                        inputs.len() - 1
                    }
                };
                let Some((_, inputs)) = inputs.get(at) else {
                    continue;
                };
                for param in &params {
                    let outcome = authz::validate(policy, inputs, param, deciding).await;
                    let op = req.operation.as_str();
                    let seen = outcome.conditions;
                    crate::match_metrics::observe(&policy.name, "policy", "validate", op, seen);
                    let took = outcome.took.iter().copied();
                    for ((i, decision), took) in outcome.decisions.into_iter().zip(took) {
                        let (message, reason) = match decision {
                            Decision::Admit => continue,
                            Decision::Ignored(message) => {
                                let (p, b) = (&policy.name, &binding.name);
                                metrics::observe(p, b, &message, "allow", took);
                                continue;
                            }
                            Decision::Deny { message, reason } => (message, reason),
                        };
                        let failed = Failed {
                            index: i,
                            message,
                            reason,
                            took,
                        };
                        act(binding, policy, failed, rec, &mut denied);
                    }
                    for a in outcome.annotations {
                        match a {
                            Annotation::Publish { key, value } => {
                                let values = collected.entry(key).or_default();
                                if !values.contains(&value) {
                                    values.push(value);
                                }
                            }
                            Annotation::Error(message) => denied.push(Denied {
                                policy: policy.name.clone(),
                                binding: Some(binding.name.clone()),
                                message,
                                reason: None,
                            }),
                        }
                    }
                }
            }
            for (key, values) in collected {
                rec.annotate(format!("{}/{key}", policy.name), values.join(", "));
            }
        }
        match denied.into_iter().next() {
            Some(d) => Err(refusal(req, obj, d)),
            None => Ok(()),
        }
    }

    async fn matches(
        &self,
        m: &MatchResources,
        req: &Request<'_>,
        obj: &Value,
        is_namespace: bool,
        ns_cell: &NamespaceCell,
    ) -> Result<Option<Resource>, String> {
        let needs_namespace = m.namespace_selector.as_ref().is_ok_and(|s| !s.is_empty());
        let own = is_namespace
            && req.subresource.is_empty()
            && matches!(
                req.operation,
                kas_server::admission::Operation::Create | kas_server::admission::Operation::Update
            );
        if !needs_namespace || (req.namespace.is_empty() && !is_namespace) {
            return matching::matches(m, req, obj, &NamespaceLabels::NotApplicable);
        }
        if own {
            return matching::matches(m, req, obj, &NamespaceLabels::Found(Ok(obj)));
        }
        let labels = match self.namespace_of(req, ns_cell).await {
            Ok(Some(ns)) => NamespaceLabels::Found(Ok(ns)),
            Ok(None) => {
                let name = if req.namespace.is_empty() {
                    req.name
                } else {
                    req.namespace
                };
                NamespaceLabels::Found(Err(format!("namespaces \"{name}\" not found")))
            }
            Err(e) => NamespaceLabels::Found(Err(e.clone())),
        };
        matching::matches(m, req, obj, &labels)
    }
}

/// A failed validation.
struct Failed {
    index: usize,
    message: String,
    reason: Option<String>,
    /// How long its evaluation took.
    took: std::time::Duration,
}

/// What the binding's actions make of a failed validation.
fn act(
    binding: &Binding,
    policy: &Policy,
    failed: Failed,
    rec: &Recorder,
    denied: &mut Vec<Denied>,
) {
    let Failed {
        index,
        message,
        reason,
        took,
    } = failed;
    for action in &binding.actions {
        let taken = match action {
            Action::Deny => "deny",
            Action::Warn => "warn",
            Action::Audit => "audit",
        };
        metrics::observe(&policy.name, &binding.name, &message, taken, took);
        match action {
            Action::Deny => denied.push(Denied {
                policy: policy.name.clone(),
                binding: Some(binding.name.clone()),
                message: message.clone(),
                reason: reason.clone(),
            }),
            Action::Warn => rec.warn(format!(
                "Validation failed for ValidatingAdmissionPolicy '{}' with binding '{}': {message}",
                policy.name, binding.name
            )),
            Action::Audit => {
                let actions: Vec<&str> = binding.actions.iter().map(|a| a.as_str()).collect();
                let value = json!([{
                    "message": message,
                    "policy": binding.policy,
                    "binding": binding.name,
                    "expressionIndex": index,
                    "validationActions": actions,
                }]);
                rec.annotate(VALIDATION_FAILURE, value.to_string());
            }
        }
    }
}

/// The refusal of the first denial, as upstream builds it: a Forbidden error about the
/// object whose reason is the validation's (Invalid when none) and code that reason's,
/// the message also as a cause.
fn refusal(req: &Request<'_>, obj: &Value, d: Denied) -> Status {
    let message = match &d.binding {
        Some(b) => format!(
            "ValidatingAdmissionPolicy '{}' with binding '{b}' denied request: {}",
            d.policy, d.message
        ),
        None => format!(
            "ValidatingAdmissionPolicy '{}' denied request: {}",
            d.policy, d.message
        ),
    };
    let mut status = req.forbidden(obj, &message);
    status.reason = match d.reason.as_deref() {
        Some("Forbidden") => Reason::Forbidden,
        Some("Unauthorized") => Reason::Unauthorized,
        Some("RequestEntityTooLarge") => Reason::RequestEntityTooLarge,
        _ => Reason::Invalid,
    };
    if let Some(details) = status.details.as_mut() {
        details.causes.push(StatusCause {
            reason: String::new(),
            message,
            field: String::new(),
        });
    }
    status
}

impl Plugin for ValidatingAdmissionPolicy {
    fn name(&self) -> &'static str {
        "ValidatingAdmissionPolicy"
    }

    fn phases(&self) -> Phases {
        Phases::VALIDATE
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a Value,
        rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(self.dispatch(req, obj, rec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kas_server::admission::Operation;
    use kas_server::rest::Resource;

    const DEPLOYMENTS: Resource =
        Resource::new("apps", "v1", "deployments", "deployment", "Deployment");

    #[test]
    fn actions_and_refusal() {
        let policy = Policy::of(&json!({"metadata": {"name": "p"}, "spec": {}}));
        let binding = Binding::of(&json!({"metadata": {"name": "b"},
            "spec": {"policyName": "p", "validationActions": ["Deny", "Audit"]}}));
        let rec = Recorder::default();
        let mut denied = Vec::new();
        let failed = |index: usize, message: &str, reason: Option<&str>| Failed {
            index,
            message: message.into(),
            reason: reason.map(Into::into),
            took: std::time::Duration::from_micros(3),
        };
        act(
            &binding,
            &policy,
            failed(1, "too many", Some("Forbidden")),
            &rec,
            &mut denied,
        );
        assert_eq!(denied.len(), 1);
        let annotations = rec.annotations();
        assert_eq!(annotations.len(), 1);
        assert_eq!(annotations[0].0, VALIDATION_FAILURE);
        let value: Value = serde_json::from_str(&annotations[0].1).unwrap_or_default();
        assert_eq!(
            value,
            json!([{"message": "too many", "policy": "p", "binding": "b",
                    "expressionIndex": 1, "validationActions": ["Deny", "Audit"]}])
        );
        let warn = Binding::of(&json!({"metadata": {"name": "w"},
            "spec": {"policyName": "p", "validationActions": ["Warn"]}}));
        act(&warn, &policy, failed(0, "hm", None), &rec, &mut denied);
        assert_eq!(
            rec.take_warnings(),
            ["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'w': hm"]
        );

        let req = Request {
            operation: Operation::Create,
            resource: &DEPLOYMENTS,
            subresource: "",
            namespace: "default",
            name: "web",
            old_object: None,
            user: None,
            dry_run: false,
            options: None,
            versions: None,
        };
        let status = refusal(&req, &Value::Null, denied.remove(0));
        assert_eq!(status.reason, Reason::Forbidden);
        assert_eq!(
            status.message,
            "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'p' with binding \
             'b' denied request: too many"
        );
        let causes = status.details.map(|d| d.causes.len());
        assert_eq!(causes, Some(1));
        let config = Denied {
            policy: "p".into(),
            binding: None,
            message: "failed to configure policy: x".into(),
            reason: None,
        };
        let status = refusal(&req, &Value::Null, config);
        assert_eq!(status.reason, Reason::Invalid);
        assert!(status.message.ends_with(
            "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: x"
        ));
    }
}
