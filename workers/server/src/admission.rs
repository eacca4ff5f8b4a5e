//! The admission stage of a write, as kube-apiserver runs it: after decoding and
//! defaulting, every mutating plugin in order may change the object (or refuse it);
//! after validation, every validating plugin in order may refuse it; then storage.
//! Plugins see what upstream's `admission.Attributes` carry: the operation, the
//! resource and subresource, namespace and name, the object and the stored one, the
//! user, and whether the request is a dry run (a plugin must not cause side effects
//! then). What they warn about reaches the client as `Warning` headers.
//!
//! This module is the interface and the runner; the plugins (kube-apiserver's built-in
//! ones and the dynamic webhooks and policies) live in the `kas-admission` crate.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use kas_proto::UserInfo;
use serde_json::Value;

use crate::admission_metrics::{self as metrics, Step};
use crate::rest::{HookFuture, Resource};
use crate::status::Status;

/// What a write does (admission.Operation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// A new object.
    Create,
    /// A replaced or patched object (also a subresource's update).
    Update,
    /// An object going away.
    Delete,
    /// A connection to a subresource (exec, attach, port-forward, proxy).
    Connect,
}

impl Operation {
    /// The spelling of AdmissionReview and of webhook rules.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Create => "CREATE",
            Operation::Update => "UPDATE",
            Operation::Delete => "DELETE",
            Operation::Connect => "CONNECT",
        }
    }
}

/// What admission is told about a write.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// What the write does.
    pub operation: Operation,
    /// The resource written (group, version, plural, kind, scope).
    pub resource: &'a Resource,
    /// The subresource written, or "".
    pub subresource: &'a str,
    /// The object's namespace ("" for cluster-scoped resources).
    pub namespace: &'a str,
    /// The object's name ("" for a create with `generateName`).
    pub name: &'a str,
    /// The stored object, for updates and deletes.
    pub old_object: Option<&'a Value>,
    /// Who asks; `None` for the server's own writes.
    pub user: Option<&'a UserInfo>,
    /// `dryRun=All`: nothing may be changed outside this request.
    pub dry_run: bool,
    /// The request's options object (DeleteOptions for a delete), when it sent one.
    pub options: Option<&'a Value>,
    /// The resource's equivalents in other versions and groups and the conversion to
    /// them, for plugins matching with `matchPolicy: Equivalent`; `None` where the
    /// request's store offers none (the resource then has no equivalents).
    pub versions: Option<&'a dyn Versions>,
}

/// The other versions (and groups) of a resource that share its storage, and the
/// conversion of an object between them: upstream's EquivalentResourceMapper and the
/// object convertor its `VersionedAttributes` use. A webhook or policy matching an
/// equivalent is sent the object in the version it matched.
pub trait Versions: Send + Sync + std::fmt::Debug {
    /// The equivalent resources, the request's own excluded, in a stable order.
    fn equivalents(&self) -> &[Resource];

    /// `obj` (a resource's object in `from`'s version) converted to `to`'s. Null stays
    /// Null; a failed conversion is a 500 (upstream's NewInternalError).
    fn convert<'a>(
        &'a self,
        obj: Value,
        from: &'a Resource,
        to: &'a Resource,
    ) -> HookFuture<'a, Result<Value, Status>>;
}

impl Request<'_> {
    /// The name an error about `obj` shows: the request's, else the object's name or
    /// `generateName` (upstream's extractResourceName).
    pub fn shown_name(&self, obj: &Value) -> String {
        if !self.name.is_empty() {
            return self.name.to_owned();
        }
        let meta = |k: &str| {
            obj.pointer(&format!("/metadata/{k}"))
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        meta("name")
            .or_else(|| meta("generateName"))
            .unwrap_or("Unknown")
            .to_owned()
    }

    /// A 403 about `obj` as admission.NewForbidden words it.
    pub fn forbidden(&self, obj: &Value, why: &str) -> Status {
        Status::forbidden(
            self.resource.group,
            self.resource.plural,
            &self.shown_name(obj),
            why,
        )
    }
}

/// What the plugins add to a response: warnings (`Warning` headers) and audit
/// annotations. Shared by the clones of one request's write options.
#[derive(Debug, Clone, Default)]
pub struct Recorder(Arc<Mutex<Recorded>>);

#[derive(Debug, Default)]
struct Recorded {
    warnings: Vec<String>,
    annotations: Vec<(String, String)>,
    reinvocation: Reinvocation,
    /// The written object as decoded and defaulted, for the audit's `requestObject`.
    request_object: Option<Value>,
}

/// The reinvocation context of one request's mutating phase, as upstream's
/// `ReinvocationContext`: a mutating webhook that changes the object asks for the whole
/// mutating chain to run once more (so built-in plugins such as LimitRanger see what a
/// webhook added), and in that second run only the webhooks with
/// `reinvocationPolicy: IfNeeded` that ran before a later change are called again. The
/// webhooks' bookkeeping lives here, as upstream keeps it in the context under the
/// plugin's name.
#[derive(Debug, Default, Clone)]
pub struct Reinvocation {
    /// The chain is to run once more.
    pub should_reinvoke: bool,
    /// This is that second run.
    pub is_reinvoke: bool,
    /// Reinvocable webhooks called since the object last changed (by key).
    pub previously_invoked: std::collections::BTreeSet<String>,
    /// The webhooks to call again in the second run.
    pub reinvoke: std::collections::BTreeSet<String>,
    /// The object as the webhooks last left it.
    pub last_output: Option<Value>,
}

impl Reinvocation {
    /// A change after the reinvocable webhooks ran: they are to be called again.
    pub fn require_previously_invoked(&mut self) {
        let previous = std::mem::take(&mut self.previously_invoked);
        self.reinvoke.extend(previous);
    }
}

impl Recorder {
    /// Adds a warning for the client (kept once when repeated, as upstream's recorder).
    pub fn warn(&self, text: impl Into<String>) {
        let text = text.into();
        if let Ok(mut r) = self.0.lock() {
            if !r.warnings.contains(&text) {
                r.warnings.push(text);
            }
        }
    }

    /// Adds an audit annotation.
    pub fn annotate(&self, key: impl Into<String>, value: impl Into<String>) {
        if let Ok(mut r) = self.0.lock() {
            r.annotations.push((key.into(), value.into()));
        }
    }

    /// The warnings recorded so far, taken.
    pub fn take_warnings(&self) -> Vec<String> {
        self.0
            .lock()
            .map(|mut r| std::mem::take(&mut r.warnings))
            .unwrap_or_default()
    }

    /// Reads or updates the request's reinvocation context.
    pub fn reinvocation<R>(&self, f: impl FnOnce(&mut Reinvocation) -> R) -> Option<R> {
        self.0.lock().ok().map(|mut r| f(&mut r.reinvocation))
    }

    /// Keeps the request's object as decoded and defaulted for its audit event; the
    /// first kept wins (a create that retries a generated name keeps one).
    pub fn keep_request_object(&self, object: impl FnOnce() -> Value) {
        if let Ok(mut r) = self.0.lock() {
            if r.request_object.is_none() {
                r.request_object = Some(object());
            }
        }
    }

    /// The object kept by [`Recorder::keep_request_object`], taken.
    pub fn take_request_object(&self) -> Option<Value> {
        self.0.lock().ok().and_then(|mut r| r.request_object.take())
    }

    /// The audit annotations recorded so far.
    pub fn annotations(&self) -> Vec<(String, String)> {
        self.0
            .lock()
            .map(|r| r.annotations.clone())
            .unwrap_or_default()
    }
}

/// The phases a plugin takes part in (upstream: whether it is a MutationInterface, a
/// ValidationInterface, or both); its latency is observed for those only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phases {
    pub admit: bool,
    pub validate: bool,
}

impl Phases {
    pub const ADMIT: Phases = Phases {
        admit: true,
        validate: false,
    };
    pub const VALIDATE: Phases = Phases {
        admit: false,
        validate: true,
    };
    pub const BOTH: Phases = Phases {
        admit: true,
        validate: true,
    };
}

/// One admission plugin. A mutating plugin implements [`Plugin::admit`], a validating
/// one [`Plugin::validate`]; some do both, and say which in [`Plugin::phases`].
pub trait Plugin: Send + Sync {
    /// The plugin's name, as `--enable-admission-plugins` spells it.
    fn name(&self) -> &'static str;

    /// Which of the two methods below it implements.
    fn phases(&self) -> Phases;

    /// The mutating phase: may change `obj` (Null for a delete) or refuse the write.
    fn admit<'a>(
        &'a self,
        _req: &'a Request<'a>,
        _obj: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async { Ok(()) })
    }

    /// The validating phase: may refuse the write of `obj` (Null for a delete).
    fn validate<'a>(
        &'a self,
        _req: &'a Request<'a>,
        _obj: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async { Ok(()) })
    }
}

/// The configured plugins, in kube-apiserver's order.
#[derive(Clone, Default)]
pub struct Chain {
    plugins: Vec<Arc<dyn Plugin>>,
}

impl std::fmt::Debug for Chain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.plugins.iter().map(|p| p.name()))
            .finish()
    }
}

impl Chain {
    /// A chain of `plugins`, run in the order given.
    pub fn new(plugins: Vec<Arc<dyn Plugin>>) -> Chain {
        Chain { plugins }
    }

    /// The plugins' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.plugins.iter().map(|p| p.name()).collect()
    }

    /// Runs the mutating phase; returns whether `obj` changed.
    pub async fn admit(
        &self,
        req: &Request<'_>,
        obj: &mut Value,
        rec: &Recorder,
    ) -> Result<bool, Status> {
        let before = obj.clone();
        let op = req.operation;
        timed(self.admit_all(req, obj, rec), |refused, took| {
            metrics::observe_step(Step::Admit, op, refused, took)
        })
        .await?;
        Ok(*obj != before)
    }

    async fn admit_all(
        &self,
        req: &Request<'_>,
        obj: &mut Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        rec.reinvocation(|r| *r = Reinvocation::default());
        self.admit_once(req, obj, rec).await?;
        // Upstream's reinvoker: once more, the whole chain, when a webhook asked for it.
        let again = rec
            .reinvocation(|r| {
                let again = r.should_reinvoke;
                r.is_reinvoke = again;
                again
            })
            .unwrap_or(false);
        if again {
            self.admit_once(req, obj, rec).await?;
        }
        Ok(())
    }

    async fn admit_once(
        &self,
        req: &Request<'_>,
        obj: &mut Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        for p in self.plugins.iter().filter(|p| p.phases().admit) {
            timed(p.admit(req, obj, rec), |refused, took| {
                metrics::observe_plugin(p.name(), Step::Admit, req.operation, refused, took)
            })
            .await?;
        }
        Ok(())
    }

    /// Runs the validating phase.
    pub async fn validate(
        &self,
        req: &Request<'_>,
        obj: &Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        timed(self.validate_all(req, obj, rec), |refused, took| {
            metrics::observe_step(Step::Validate, req.operation, refused, took)
        })
        .await
    }

    async fn validate_all(
        &self,
        req: &Request<'_>,
        obj: &Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        for p in self.plugins.iter().filter(|p| p.phases().validate) {
            timed(p.validate(req, obj, rec), |refused, took| {
                metrics::observe_plugin(p.name(), Step::Validate, req.operation, refused, took)
            })
            .await?;
        }
        Ok(())
    }
}

/// Runs `call` and hands `observe` whether it refused the write and how long it took
/// (a phase's or a plugin's latency series).
async fn timed<T>(
    call: impl std::future::Future<Output = Result<T, Status>>,
    observe: impl FnOnce(bool, std::time::Duration),
) -> Result<T, Status> {
    let started = Instant::now();
    let result = call.await;
    observe(result.is_err(), started.elapsed());
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Adds a label when mutating; refuses names starting with "bad" when validating.
    struct Labeler;

    impl Plugin for Labeler {
        fn phases(&self) -> Phases {
            Phases::BOTH
        }

        fn name(&self) -> &'static str {
            "Labeler"
        }

        fn admit<'a>(
            &'a self,
            _req: &'a Request<'a>,
            obj: &'a mut Value,
            rec: &'a Recorder,
        ) -> HookFuture<'a, Result<(), Status>> {
            Box::pin(async move {
                obj["metadata"]["labels"]["seen"] = json!("yes");
                rec.warn("labelled");
                rec.warn("labelled");
                Ok(())
            })
        }

        fn validate<'a>(
            &'a self,
            req: &'a Request<'a>,
            obj: &'a Value,
            _rec: &'a Recorder,
        ) -> HookFuture<'a, Result<(), Status>> {
            Box::pin(async move {
                match req.shown_name(obj).starts_with("bad") {
                    true => Err(req.forbidden(obj, "no bad names")),
                    false => Ok(()),
                }
            })
        }
    }

    const CONFIGMAPS: Resource = Resource::new("", "v1", "configmaps", "configmap", "ConfigMap");

    fn request(name: &str) -> Request<'_> {
        Request {
            operation: Operation::Create,
            resource: &CONFIGMAPS,
            subresource: "",
            namespace: "default",
            name,
            old_object: None,
            user: None,
            dry_run: false,
            options: None,
            versions: None,
        }
    }

    #[tokio::test]
    async fn mutating_then_validating() {
        let chain = Chain::new(vec![Arc::new(Labeler)]);
        assert_eq!(chain.names(), ["Labeler"]);
        let rec = Recorder::default();
        let mut obj = json!({"metadata": {"generateName": "bad-"}});
        let changed = chain.admit(&request(""), &mut obj, &rec).await;
        assert_eq!(changed, Ok(true));
        assert_eq!(obj["metadata"]["labels"]["seen"], "yes");
        assert_eq!(rec.take_warnings(), ["labelled"]);
        let refused = chain
            .validate(&request(""), &obj, &rec)
            .await
            .expect_err("refused");
        assert_eq!(
            refused.message,
            "configmaps \"bad-\" is forbidden: no bad names"
        );
        // Unchanged the second time round.
        assert_eq!(chain.admit(&request("ok"), &mut obj, &rec).await, Ok(false));
        assert!(chain.validate(&request("ok"), &obj, &rec).await.is_ok());
    }
}
