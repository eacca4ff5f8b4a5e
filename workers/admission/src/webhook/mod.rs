//! MutatingAdmissionWebhook and ValidatingAdmissionWebhook, kube-apiserver's dynamic
//! admission: the webhooks of MutatingWebhookConfiguration and
//! ValidatingWebhookConfiguration objects (followed from storage, so a configuration
//! takes effect as soon as it is written) are asked about each write their rules and
//! selectors match, with an `AdmissionReview` over HTTPS. Mutating webhooks are called
//! one after the other and may patch the object; validating webhooks are called in
//! parallel and may only refuse. A webhook that cannot be called (down, too slow, an
//! answer that is not an AdmissionReview for this request) fails the write with a 500,
//! or is passed over when its `failurePolicy` is Ignore.
//!
//! With `matchPolicy: Equivalent`, a webhook matching another version of the resource
//! is sent the object converted to that version, and a mutating webhook's patch is
//! applied there and converted back (see `versioned`).
//!
//! The configuration objects themselves (and the admission policies) are never sent to
//! webhooks, so a broken webhook can always be removed.

pub(crate) mod config;
mod credentials;
#[cfg(fuzzing)]
pub(crate) mod fuzzing;
pub(crate) mod matching;
mod metrics;
mod mutating;
pub(crate) mod review;
mod validating;
pub(crate) mod versioned;

use std::sync::Arc;
use std::time::{Duration, Instant};

use kas_server::admission::{Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, Resource, RestStore};
use kas_server::service_resolver::ServiceResolver;
use kas_server::status::Status;
use serde_json::Value;

use config::{Hook, Kind, Source, Target};
use review::{Answer, CallError};

pub use matching::compile as compile_condition;

/// The credentials of `plugin`'s kubeconfig (checked at start by
/// [`check_credentials`]; a file that stopped reading since is logged, and no
/// credentials are presented).
fn plugin_credentials(
    admission_config: Option<&str>,
    plugin: &str,
) -> Option<credentials::Credentials> {
    credentials::load(admission_config, plugin).unwrap_or_else(|e| {
        tracing::error!(plugin, error = %e, "admission webhook credentials");
        None
    })
}

/// Checks the webhook plugins' configuration in an AdmissionConfiguration text.
pub(crate) fn check_credentials(
    admission_config: Option<&str>,
    plugin: &str,
) -> Result<(), String> {
    credentials::load(admission_config, plugin).map(|_| ())
}

/// How long a request waits for the configurations to be listed once.
const SYNC_WAIT: Duration = Duration::from_secs(10);

/// The MutatingAdmissionWebhook or ValidatingAdmissionWebhook plugin.
pub struct Webhooks {
    kind: Kind,
    source: Arc<Source>,
    /// Namespaces, for namespace selectors.
    namespaces: RestStore,
    /// The authorizer chain the match conditions' `authorizer` asks.
    authorizer: Option<kas_authz::Authorizer>,
}

impl Webhooks {
    /// MutatingAdmissionWebhook: the configurations are followed in the storage of
    /// `namespaces`, which also answers namespace selectors; `services` resolves the
    /// webhooks' service references (without it they are called by their DNS names).
    pub fn mutating(
        namespaces: RestStore,
        services: Option<Arc<ServiceResolver>>,
        authorizer: Option<kas_authz::Authorizer>,
        admission_config: Option<&str>,
    ) -> Webhooks {
        let credentials = plugin_credentials(admission_config, "MutatingAdmissionWebhook");
        let source = Source::start(
            Kind::Mutating,
            namespaces.storage().clone(),
            services,
            credentials,
        );
        Webhooks {
            kind: Kind::Mutating,
            source,
            namespaces,
            authorizer,
        }
    }

    /// ValidatingAdmissionWebhook, as [`Webhooks::mutating`].
    pub fn validating(
        namespaces: RestStore,
        services: Option<Arc<ServiceResolver>>,
        authorizer: Option<kas_authz::Authorizer>,
        admission_config: Option<&str>,
    ) -> Webhooks {
        let credentials = plugin_credentials(admission_config, "ValidatingAdmissionWebhook");
        let source = Source::start(
            Kind::Validating,
            namespaces.storage().clone(),
            services,
            credentials,
        );
        Webhooks {
            kind: Kind::Validating,
            source,
            namespaces,
            authorizer,
        }
    }

    /// The webhooks to consider for `req`: none for the admission configuration
    /// resources; refused while the configurations have not been listed yet.
    async fn hooks(&self, req: &Request<'_>, obj: &Value) -> Result<Arc<Vec<Arc<Hook>>>, Status> {
        let exempt = req.resource.group == "admissionregistration.k8s.io"
            && matches!(
                req.resource.kind,
                "ValidatingWebhookConfiguration"
                    | "MutatingWebhookConfiguration"
                    | "ValidatingAdmissionPolicy"
                    | "ValidatingAdmissionPolicyBinding"
                    | "MutatingAdmissionPolicy"
                    | "MutatingAdmissionPolicyBinding"
            );
        if exempt {
            return Ok(Arc::new(Vec::new()));
        }
        if !self.source.wait_synced(SYNC_WAIT).await {
            return Err(req.forbidden(obj, "not yet ready to handle request"));
        }
        Ok(self.source.hooks())
    }

    /// The resource `hook` is called as for the request, when its selectors and rules
    /// select it (upstream's ShouldCallHook up to the match conditions).
    async fn selects(
        &self,
        hook: &Hook,
        req: &Request<'_>,
        obj: &Value,
    ) -> Result<Option<Resource>, Status> {
        let ns_match = self.namespace_selected(hook, req, obj).await;
        if matches!(ns_match, Ok(false)) {
            return Ok(None);
        }
        let obj_match = matching::object_selected(hook, obj, req.old_object);
        if matches!(obj_match, Ok(false)) {
            return Ok(None);
        }
        let Some(matched) = matching::rules_match(hook, req) else {
            return Ok(None);
        };
        ns_match?;
        obj_match.map_err(Status::internal)?;
        Ok(Some(matched))
    }

    /// Whether the match conditions hold for the request as the hook sees it (`req`
    /// and `obj` in the version matched; `requested` the one written).
    /// An expression's `authorizer` checks are decided by the worker's authorizer chain
    /// for the requesting user between evaluations, as ValidatingAdmissionPolicy's are.
    async fn conditions_hold(
        &self,
        hook: &Hook,
        req: &Request<'_>,
        requested: &Resource,
        obj: &Value,
    ) -> Result<bool, Status> {
        if hook.conditions.is_empty() {
            return Ok(true);
        }
        let request = review::request("", req, requested, obj);
        let old = req.old_object.cloned().unwrap_or(Value::Null);
        let checks = Arc::new(kas_cel::authz::Checks::default());
        let variables = (
            kas_cel::authz::authorizer(checks.clone()),
            kas_cel::authz::request_resource(
                checks.clone(),
                [
                    req.resource.group,
                    req.resource.plural,
                    req.subresource,
                    req.namespace,
                    req.name,
                ],
            ),
        );
        let nobody = kas_proto::UserInfo::default();
        let started = Instant::now();
        let mut rounds = 0;
        let (evaluated, errors) = loop {
            let evaluated =
                hook.conditions
                    .evaluate_counting(obj, &old, &request, Some(&variables));
            let pending = checks.take_pending();
            rounds += 1;
            let Some(authorizer) = &self.authorizer else {
                break evaluated;
            };
            if pending.is_empty() || rounds >= crate::policy::authz::MAX_ROUNDS {
                break evaluated;
            }
            let user = req.user.unwrap_or(&nobody);
            crate::policy::authz::decide_all(&checks, authorizer, user, pending).await;
        };
        let kind = match self.kind {
            Kind::Mutating => "admit",
            Kind::Validating => "validating",
        };
        let excluded = matches!(evaluated, Ok(false)) || (evaluated.is_err() && hook.fail_open);
        metrics::match_conditions(&hook.name, kind, req.operation, errors, excluded, started);
        match evaluated {
            Ok(m) => Ok(m),
            Err(_) if hook.fail_open => Ok(false),
            Err(e) => {
                tracing::warn!(webhook = %hook.name, error = %e, "failed evaluating match conditions, failing closed");
                Err(Status::forbidden(
                    requested.group,
                    requested.plural,
                    req.name,
                    &e,
                ))
            }
        }
    }

    async fn namespace_selected(
        &self,
        hook: &Hook,
        req: &Request<'_>,
        obj: &Value,
    ) -> Result<bool, Status> {
        let selector = hook.namespace_selector.as_ref().map_err(Status::internal)?;
        if selector.is_empty() {
            return Ok(true);
        }
        match matching::namespace_of(req, obj) {
            Ok(None) => Ok(true),
            Ok(Some(ns)) => Ok(selector.matches(ns)),
            Err(name) => {
                // The cache first; storage when the cache has not seen it (yet).
                let ns = match self.namespaces.read_cached("", name).await? {
                    Some(ns) => Some(ns),
                    None => self.namespaces.read_latest("", name).await?,
                };
                match ns {
                    Some(ns) => Ok(selector.matches(&ns)),
                    None => Err(Status::not_found("", "namespaces", name)),
                }
            }
        }
    }

    /// Calls `hook` about the request (as the version it matched; `requested` the one
    /// written) and checks its answer; records its warnings and audit annotations; a
    /// denial is an error.
    async fn call(
        &self,
        hook: &Hook,
        req: &Request<'_>,
        requested: &Resource,
        obj: &Value,
        rec: &Recorder,
    ) -> Result<Answer, CallError> {
        if req.dry_run {
            dry_run_allowed(&hook.name, hook.side_effects.as_deref())?;
        }
        let Some(version) = hook.review_version else {
            return Err(CallError::Calling(
                "could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)".into(),
                400,
            ));
        };
        let client = match &hook.target {
            Target::Client(c) => c,
            Target::Unusable(why) => {
                return Err(CallError::Calling(
                    format!("could not get REST client: {why}"),
                    500,
                ))
            }
        };
        let uid = uuid::Uuid::new_v4().to_string();
        let body = review::review(version, review::request(&uid, req, requested, obj));
        // The client bounds the exchange by the webhook's timeout; this is a backstop.
        let answer =
            match tokio::time::timeout(hook.timeout + Duration::from_secs(1), client.post(&body))
                .await
            {
                Ok(Ok(a)) => a,
                Ok(Err(e)) => {
                    let code = match &e {
                        kas_server::webhook::WebhookError::Status { code, .. } => *code,
                        _ => 503,
                    };
                    return Err(CallError::Calling(
                        format!("failed to call webhook: {e}"),
                        code,
                    ));
                }
                Err(_) => {
                    return Err(CallError::Calling(
                        "failed to call webhook: context deadline exceeded".into(),
                        503,
                    ))
                }
            };
        let answer = review::verify(&uid, version, self.kind == Kind::Mutating, &answer)
            .map_err(|why| CallError::Calling(why, 503))?;
        for (k, v) in &answer.audit_annotations {
            rec.annotate(format!("{}/{k}", hook.name), v.clone());
        }
        for w in &answer.warnings {
            rec.warn(w.clone());
        }
        if !answer.allowed {
            return Err(CallError::Denied(review::denial(
                &hook.name,
                answer.result.as_ref(),
            )));
        }
        Ok(answer)
    }
}

/// Whether a webhook with `side_effects` may be sent a dry run (upstream: a webhook
/// without the field fails as a call; one with side effects refuses the request).
fn dry_run_allowed(name: &str, side_effects: Option<&str>) -> Result<(), CallError> {
    match side_effects {
        None => Err(CallError::Calling("Webhook SideEffects is nil".into(), 400)),
        Some("None" | "NoneOnDryRun") => Ok(()),
        Some(_) => Err(CallError::Refused(review::dry_run_unsupported(name))),
    }
}

impl Plugin for Webhooks {
    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Mutating => "MutatingAdmissionWebhook",
            Kind::Validating => "ValidatingAdmissionWebhook",
        }
    }

    fn phases(&self) -> Phases {
        match self.kind {
            Kind::Mutating => Phases::ADMIT,
            Kind::Validating => Phases::VALIDATE,
        }
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a mut Value,
        rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            match self.kind {
                Kind::Mutating => mutating::dispatch(self, req, obj, rec).await,
                Kind::Validating => Ok(()),
            }
        })
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a Value,
        rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            match self.kind {
                Kind::Validating => validating::dispatch(self, req, obj, rec).await,
                Kind::Mutating => Ok(()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dry_runs_and_side_effects() {
        assert_eq!(dry_run_allowed("w", Some("None")), Ok(()));
        assert_eq!(dry_run_allowed("w", Some("NoneOnDryRun")), Ok(()));
        let Err(CallError::Refused(s)) = dry_run_allowed("w", Some("Some")) else {
            panic!("a webhook with side effects is not sent a dry run");
        };
        assert_eq!(
            s.message,
            "admission webhook \"w\" does not support dry run"
        );
        assert_eq!(s.reason.code(), 400);
        assert_eq!(
            dry_run_allowed("w", Some("Unknown")).map_err(|e| e.into_status("w").reason.code()),
            Err(400)
        );
        assert_eq!(
            dry_run_allowed("w", None),
            Err(CallError::Calling("Webhook SideEffects is nil".into(), 400))
        );
    }
}
