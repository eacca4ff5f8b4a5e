//! Kubernetes' CEL authorizer library (upstream's `library.Authz`), as admission
//! expressions use it: `authorizer.group(g).resource(r).namespace(ns).name(n)
//! .subresource(s).fieldSelector(f).labelSelector(l).check(verb)`,
//! `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns, name)` (the same
//! checks for that service account), `authorizer.requestResource` (a check of the
//! request's own resource), and the decision's `allowed()`, `reason()`, `errored()` and
//! `error()`.
//!
//! The `cel` crate calls functions synchronously while authorizers answer
//! asynchronously (webhooks), and nothing may block a worker thread. So a check is
//! decided between evaluations: the values carry the evaluation's [`Checks`]; a check
//! already decided answers from it; one not yet decided is noted as pending and fails
//! with [`PENDING`]. The caller then decides the pending checks and evaluates again
//! (each check is decided once per request). Every check costs [`CHECK_COST`], as
//! upstream's estimator, so an expression can make only a few.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cel::common::types::{Type, STRING_TYPE};
use cel::common::value::{CowVal, Val};
use cel::objects::Opaque;
use cel::{DeclarationError, Env, ExecutionError, Value};

/// What one authorization check costs, in upstream's units (so that two fit in an
/// expression's limit of 1e6, as upstream's comment says).
pub const CHECK_COST: u64 = 350_000;

/// The error of a check made before it was decided (the caller evaluates again).
pub const PENDING: &str = "authorization check pending";

/// Who a check is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Principal {
    /// The requesting user.
    Requester,
    /// A service account (`authorizer.serviceAccount(namespace, name)`).
    ServiceAccount { namespace: String, name: String },
}

/// One authorization check, as upstream's AttributesRecord (the version is `*`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Check {
    pub principal: Principal,
    /// A non-resource check's path; `None` for a resource check.
    pub path: Option<String>,
    pub group: String,
    pub resource: String,
    pub subresource: String,
    pub namespace: String,
    pub name: String,
    pub field_selector: String,
    pub label_selector: String,
    pub verb: String,
}

/// An authorizer's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub allowed: bool,
    pub reason: String,
    /// What failed, when an authorizer could not decide.
    pub error: Option<String>,
}

/// The checks of one request: those decided, and those asked for and not yet.
#[derive(Debug, Default)]
pub struct Checks {
    decided: Mutex<HashMap<Check, Decision>>,
    pending: Mutex<Vec<Check>>,
}

impl Checks {
    /// The checks asked for and not decided yet, taken.
    pub fn take_pending(&self) -> Vec<Check> {
        self.pending
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default()
    }

    /// Records the decision of `check`.
    pub fn decide(&self, check: Check, decision: Decision) {
        if let Ok(mut d) = self.decided.lock() {
            d.insert(check, decision);
        }
    }

    fn answer(&self, check: &Check) -> Option<Decision> {
        if let Some(d) = self.decided.lock().ok()?.get(check) {
            return Some(d.clone());
        }
        if let Ok(mut p) = self.pending.lock() {
            if !p.contains(check) {
                p.push(check.clone());
            }
        }
        None
    }
}

const AUTHORIZER: &str = "kubernetes.authorization.Authorizer";
const PATH_CHECK: &str = "kubernetes.authorization.PathCheck";
const GROUP_CHECK: &str = "kubernetes.authorization.GroupCheck";
const RESOURCE_CHECK: &str = "kubernetes.authorization.ResourceCheck";
const DECISION: &str = "kubernetes.authorization.Decision";

/// Every value of the library: a check being built, or a decision. Each carries the
/// request's [`Checks`].
#[derive(Debug, Clone)]
struct Authz {
    checks: Arc<Checks>,
    /// The check so far (its verb empty until `check`).
    check: Check,
    stage: Stage,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    Authorizer,
    Path,
    Group,
    Resource,
    Decided(Decision),
}

impl PartialEq for Authz {
    fn eq(&self, other: &Authz) -> bool {
        Arc::ptr_eq(&self.checks, &other.checks)
            && self.check == other.check
            && self.stage == other.stage
    }
}

impl Eq for Authz {}

impl Opaque for Authz {
    fn runtime_type_name(&self) -> &str {
        match self.stage {
            Stage::Authorizer => AUTHORIZER,
            Stage::Path => PATH_CHECK,
            Stage::Group => GROUP_CHECK,
            Stage::Resource => RESOURCE_CHECK,
            Stage::Decided(_) => DECISION,
        }
    }
}

fn empty_check(principal: Principal) -> Check {
    Check {
        principal,
        path: None,
        group: String::new(),
        resource: String::new(),
        subresource: String::new(),
        namespace: String::new(),
        name: String::new(),
        field_selector: String::new(),
        label_selector: String::new(),
        verb: String::new(),
    }
}

/// The `authorizer` variable: checks for the requesting user.
pub fn authorizer(checks: Arc<Checks>) -> Value {
    Value::Opaque(Arc::new(Authz {
        checks,
        check: empty_check(Principal::Requester),
        stage: Stage::Authorizer,
    }))
}

/// The `authorizer.requestResource` variable: a check of the request's resource
/// (group, resource, subresource, namespace, name) for the requesting user.
pub fn request_resource(checks: Arc<Checks>, of: [&str; 5]) -> Value {
    let [group, resource, subresource, namespace, name] = of.map(str::to_owned);
    Value::Opaque(Arc::new(Authz {
        checks,
        check: Check {
            group,
            resource,
            subresource,
            namespace,
            name,
            ..empty_check(Principal::Requester)
        },
        stage: Stage::Resource,
    }))
}

/// Declares the library in `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    let t = |name: &'static str| Type::new_opaque_type(name);
    for name in [
        AUTHORIZER,
        PATH_CHECK,
        GROUP_CHECK,
        RESOURCE_CHECK,
        DECISION,
    ] {
        env.add_type(t(name))?;
    }
    let s = || vec![STRING_TYPE];
    env.add_member_overload("path", "authorizer_path", t(AUTHORIZER), s(), path)?;
    env.add_member_overload("group", "authorizer_group", t(AUTHORIZER), s(), group)?;
    env.add_member_overload(
        "serviceAccount",
        "authorizer_serviceaccount",
        t(AUTHORIZER),
        vec![STRING_TYPE, STRING_TYPE],
        service_account,
    )?;
    env.add_member_overload(
        "resource",
        "groupcheck_resource",
        t(GROUP_CHECK),
        s(),
        resource,
    )?;
    for (name, id, f) in [
        (
            "subresource",
            "resourcecheck_subresource",
            subresource as Setter,
        ),
        ("namespace", "resourcecheck_namespace", namespace),
        ("name", "resourcecheck_name", name),
        (
            "fieldSelector",
            "resourcecheck_fieldselector",
            field_selector,
        ),
        (
            "labelSelector",
            "resourcecheck_labelselector",
            label_selector,
        ),
    ] {
        env.add_member_overload(name, id, t(RESOURCE_CHECK), s(), f)?;
    }
    env.add_member_overload("check", "pathcheck_check", t(PATH_CHECK), s(), check)?;
    env.add_member_overload(
        "check",
        "resourcecheck_check",
        t(RESOURCE_CHECK),
        s(),
        check,
    )?;
    env.add_member_overload("allowed", "decision_allowed", t(DECISION), vec![], allowed)?;
    env.add_member_overload("reason", "decision_reason", t(DECISION), vec![], reason)?;
    env.add_member_overload("errored", "decision_errored", t(DECISION), vec![], errored)?;
    env.add_member_overload("error", "decision_error", t(DECISION), vec![], error)?;
    Ok(())
}

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;
type Setter = for<'b, 'v> fn(Args<'b, 'v>) -> Ret<'b, 'v>;

fn ret<'b, 'v>(value: Value) -> Ret<'b, 'v> {
    let boxed: Box<dyn Val> = value.try_into()?;
    Ok(CowVal::from(boxed))
}

fn wrap<'b, 'v>(a: Authz) -> Ret<'b, 'v> {
    ret(Value::Opaque(Arc::new(a)))
}

/// The receiver (a value of the library) and the string arguments.
fn receiver(
    function: &str,
    args: &[CowVal<'_, '_>],
) -> Result<(Authz, Vec<String>), ExecutionError> {
    let mut values = args.iter().map(|a| Value::try_from(a.as_ref()));
    let target = match values.next().transpose()? {
        Some(Value::Opaque(o)) => o.downcast_ref::<Authz>().cloned(),
        _ => None,
    };
    let Some(target) = target else {
        return Err(ExecutionError::function_error(function, "no such overload"));
    };
    let mut strings = Vec::new();
    for v in values {
        match v? {
            Value::String(s) => strings.push(s.to_string()),
            _ => return Err(ExecutionError::function_error(function, "no such overload")),
        }
    }
    Ok((target, strings))
}

fn first(strings: Vec<String>) -> String {
    strings.into_iter().next().unwrap_or_default()
}

fn path<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (mut a, s) = receiver("path", &args)?;
    a.check.path = Some(first(s));
    a.stage = Stage::Path;
    wrap(a)
}

fn group<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (mut a, s) = receiver("group", &args)?;
    a.check.group = first(s);
    a.stage = Stage::Group;
    wrap(a)
}

fn resource<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (mut a, s) = receiver("resource", &args)?;
    let resource = first(s);
    if resource.trim().is_empty() {
        return Err(ExecutionError::function_error(
            "resource",
            "resource must not be empty",
        ));
    }
    a.check.resource = resource;
    a.stage = Stage::Resource;
    wrap(a)
}

/// A setter of one field of a resource check.
fn set<'b, 'v>(
    function: &str,
    args: Args<'b, 'v>,
    field: fn(&mut Check) -> &mut String,
) -> Ret<'b, 'v> {
    let (mut a, s) = receiver(function, &args)?;
    *field(&mut a.check) = first(s);
    wrap(a)
}

fn subresource<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    set("subresource", args, |c| &mut c.subresource)
}

fn namespace<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    set("namespace", args, |c| &mut c.namespace)
}

fn name<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    set("name", args, |c| &mut c.name)
}

fn field_selector<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    set("fieldSelector", args, |c| &mut c.field_selector)
}

fn label_selector<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    set("labelSelector", args, |c| &mut c.label_selector)
}

/// Whether `s` is a DNS-1123 label (a namespace's name).
fn is_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 63
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// Whether `s` is a DNS-1123 subdomain (a service account's name).
fn is_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_label)
}

fn service_account<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (a, s) = receiver("serviceAccount", &args)?;
    let [namespace, name] = <[String; 2]>::try_from(s)
        .map_err(|_| ExecutionError::function_error("serviceAccount", "no such overload"))?;
    if !is_subdomain(&name) {
        return Err(ExecutionError::function_error(
            "serviceAccount",
            "Invalid service account name",
        ));
    }
    if !is_label(&namespace) {
        return Err(ExecutionError::function_error(
            "serviceAccount",
            "Invalid service account namespace",
        ));
    }
    wrap(Authz {
        checks: a.checks,
        check: empty_check(Principal::ServiceAccount { namespace, name }),
        stage: Stage::Authorizer,
    })
}

fn check<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (mut a, s) = receiver("check", &args)?;
    a.check.verb = first(s);
    match a.checks.answer(&a.check) {
        Some(d) => {
            a.stage = Stage::Decided(d);
            wrap(a)
        }
        None => Err(ExecutionError::function_error("check", PENDING)),
    }
}

fn decision(function: &str, args: &[CowVal<'_, '_>]) -> Result<Decision, ExecutionError> {
    match receiver(function, args)?.0.stage {
        Stage::Decided(d) => Ok(d),
        _ => Err(ExecutionError::function_error(function, "no such overload")),
    }
}

fn allowed<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Bool(decision("allowed", &args)?.allowed))
}

fn reason<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::String(Arc::new(decision("reason", &args)?.reason)))
}

fn errored<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ret(Value::Bool(decision("errored", &args)?.error.is_some()))
}

fn error<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let e = decision("error", &args)?.error.unwrap_or_default();
    ret(Value::String(Arc::new(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cel::{Context, Program};

    fn run(checks: &Arc<Checks>, expr: &str) -> Result<Value, String> {
        let env = crate::library::env().expect("env");
        let program = env.compile(expr).map_err(|e| e.to_string())?;
        let mut ctx = Context::with_env(env);
        ctx.add_variable_from_value("authorizer", authorizer(checks.clone()));
        ctx.add_variable_from_value(
            "authorizer.requestResource",
            request_resource(
                checks.clone(),
                ["apps", "deployments", "", "default", "web"],
            ),
        );
        program_run(&program, &ctx)
    }

    fn program_run(p: &Program, ctx: &Context<'_, '_>) -> Result<Value, String> {
        p.execute(ctx).map_err(|e| e.to_string())
    }

    #[test]
    fn checks_are_decided_between_evaluations() {
        let checks = Arc::new(Checks::default());
        let expr = "authorizer.group('apps').resource('deployments').namespace('ns').name('web').check('update').allowed()";
        let err = run(&checks, expr).expect_err("pending");
        assert!(err.contains(PENDING), "{err}");
        let pending = checks.take_pending();
        assert_eq!(pending.len(), 1);
        let c = &pending[0];
        assert_eq!(
            (
                c.group.as_str(),
                c.resource.as_str(),
                c.namespace.as_str(),
                c.name.as_str(),
                c.verb.as_str()
            ),
            ("apps", "deployments", "ns", "web", "update")
        );
        assert_eq!(c.principal, Principal::Requester);
        checks.decide(
            c.clone(),
            Decision {
                allowed: true,
                reason: "RBAC: allowed".into(),
                error: None,
            },
        );
        assert_eq!(run(&checks, expr), Ok(Value::Bool(true)));
        assert!(checks.take_pending().is_empty());
        let reason = expr.replace(".allowed()", ".reason()");
        assert_eq!(
            run(&checks, &reason),
            Ok(Value::String(Arc::new("RBAC: allowed".into())))
        );
        let errored = expr.replace(".allowed()", ".errored()");
        assert_eq!(run(&checks, &errored), Ok(Value::Bool(false)));

        // The request's own resource, a path, a service account.
        assert!(run(&checks, "authorizer.requestResource.check('get').allowed()").is_err());
        let p = checks.take_pending();
        assert_eq!(
            (
                p[0].resource.as_str(),
                p[0].name.as_str(),
                p[0].verb.as_str()
            ),
            ("deployments", "web", "get")
        );
        assert!(run(
            &checks,
            "authorizer.path('/healthz').check('get').allowed()"
        )
        .is_err());
        assert_eq!(checks.take_pending()[0].path.as_deref(), Some("/healthz"));
        assert!(run(&checks, "authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('list').allowed()").is_err());
        assert_eq!(
            checks.take_pending()[0].principal,
            Principal::ServiceAccount {
                namespace: "ns".into(),
                name: "sa".into()
            }
        );
    }

    #[test]
    fn bad_arguments() {
        let checks = Arc::new(Checks::default());
        let err =
            run(&checks, "authorizer.group('').resource(' ').check('get')").expect_err("empty");
        assert!(err.contains("resource must not be empty"), "{err}");
        let err = run(&checks, "authorizer.serviceAccount('ns', 'Bad_Name')").expect_err("name");
        assert!(err.contains("Invalid service account name"), "{err}");
        let err = run(&checks, "authorizer.serviceAccount('-ns', 'sa')").expect_err("ns");
        assert!(err.contains("Invalid service account namespace"), "{err}");
        assert!(checks.take_pending().is_empty());
    }
}
