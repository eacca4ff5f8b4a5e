//! PodSecurity, as kube-apiserver 1.33's (pod-security-admission v0.33): a namespace's
//! `pod-security.kubernetes.io/{enforce,audit,warn}[-version]` labels (else the
//! configured defaults) pick a level (privileged, baseline, restricted) and version per
//! mode. Pods violating the enforce level are refused (403); pods and the pod templates of
//! workload resources violating the warn level get a `Warning`, the audit level an audit
//! annotation. Namespace writes must carry valid labels (422), and making enforce stricter
//! warns about the namespace's existing pods that would violate it. Users, namespaces and
//! runtime classes can be exempted by the configuration.

mod baseline;
mod checks;
mod config;
mod restricted;

use std::collections::{BTreeMap, HashSet};

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{invalid, invalid_value, HookFuture, RestStore};
use kas_server::status::Status;
use kas_server::status::StatusCause;
use serde_json::{json, Value};

use checks::{details, evaluate, reasons, Level, LevelVersion, Version};
use config::{Config, Policy};

const PREFIX: &str = "pod-security.kubernetes.io/";
/// At most this many existing pods are checked when enforce gets stricter (upstream's).
const MAX_PODS_TO_CHECK: usize = 3000;

/// The PodSecurity plugin.
pub struct PodSecurity {
    /// The configuration, or why it could not be read (then pods are refused).
    config: Result<Config, String>,
    namespaces: RestStore,
    pods: Option<RestStore>,
}

impl PodSecurity {
    /// The plugin, configured from the AdmissionConfiguration text (if any), reading
    /// namespaces and (to check existing ones) pods.
    pub fn new(
        admission_config: Option<&str>,
        namespaces: RestStore,
        pods: Option<RestStore>,
    ) -> PodSecurity {
        let config = config::load(admission_config);
        if let Err(e) = &config {
            tracing::error!(error = %e, "PodSecurity is misconfigured; pods and pod templates are refused");
        }
        PodSecurity {
            config,
            namespaces,
            pods,
        }
    }

    async fn namespace(&self, name: &str) -> Result<Option<Value>, Status> {
        match self.namespaces.read_cached("", name).await? {
            Some(ns) => Ok(Some(ns)),
            None => self.namespaces.read_latest("", name).await,
        }
    }

    async fn validate_pod(
        &self,
        req: &Request<'_>,
        config: &Config,
        pod: &Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        if config.namespaces.iter().any(|n| n == req.namespace) {
            rec.annotate(format!("{PREFIX}exempt"), "namespace");
            return Ok(());
        }
        if is_exempt_user(req, config) {
            rec.annotate(format!("{PREFIX}exempt"), "user");
            return Ok(());
        }
        let Some(ns) = self.namespace(req.namespace).await? else {
            return Err(Status::internal(format!(
                "failed to lookup namespace {:?}",
                req.namespace
            )));
        };
        let (policy, errs) = policy_of(&ns, &config.defaults);
        if errs.is_empty()
            && [policy.enforce, policy.audit, policy.warn]
                .iter()
                .all(|lv| lv.level == Level::Privileged)
        {
            rec.annotate(format!("{PREFIX}enforce-policy"), "privileged:latest");
            return Ok(());
        }
        if req.operation == Operation::Update {
            if let Some(old) = req.old_object {
                if !significant_update(pod, old) {
                    return Ok(());
                }
            }
        }
        let meta = pod.get("metadata").cloned().unwrap_or(json!({}));
        let spec = pod.get("spec").cloned().unwrap_or(json!({}));
        self.evaluate(req, config, &policy, &errs, &meta, &spec, true, rec)
    }

    async fn validate_template(
        &self,
        req: &Request<'_>,
        config: &Config,
        template: &Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        if config.namespaces.iter().any(|n| n == req.namespace) {
            rec.annotate(format!("{PREFIX}exempt"), "namespace");
            return Ok(());
        }
        if is_exempt_user(req, config) {
            rec.annotate(format!("{PREFIX}exempt"), "user");
            return Ok(());
        }
        let ns = match self.namespace(req.namespace).await {
            Ok(Some(ns)) => ns,
            Ok(None) | Err(_) => {
                rec.annotate(
                    format!("{PREFIX}error"),
                    format!("failed to lookup namespace {:?}", req.namespace),
                );
                return Ok(());
            }
        };
        let (policy, errs) = policy_of(&ns, &config.defaults);
        if errs.is_empty()
            && policy.warn.level == Level::Privileged
            && policy.audit.level == Level::Privileged
        {
            return Ok(());
        }
        let meta = template
            .get("metadata")
            .filter(|m| m.is_object())
            .cloned()
            .unwrap_or(json!({}));
        let spec = template
            .get("spec")
            .filter(|s| s.is_object())
            .cloned()
            .unwrap_or(json!({}));
        self.evaluate(req, config, &policy, &errs, &meta, &spec, false, rec)
    }

    /// Upstream's EvaluatePod: enforce (pods only), then audit, then warn.
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        req: &Request<'_>,
        config: &Config,
        policy: &Policy,
        errs: &[StatusCause],
        meta: &Value,
        spec: &Value,
        enforce: bool,
        rec: &Recorder,
    ) -> Result<(), Status> {
        let runtime_class = spec
            .get("runtimeClassName")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !runtime_class.is_empty() && config.runtime_classes.iter().any(|r| r == runtime_class) {
            rec.annotate(format!("{PREFIX}exempt"), "runtimeClass");
            return Ok(());
        }
        if !errs.is_empty() {
            rec.annotate(
                format!("{PREFIX}error"),
                format!("Failed to parse policy: {}", aggregate(errs)),
            );
        }
        let mut refusal = None;
        if enforce {
            rec.annotate(
                format!("{PREFIX}enforce-policy"),
                policy.enforce.to_string(),
            );
            let found = evaluate(policy.enforce, meta, spec);
            if !found.is_empty() {
                let why = format!(
                    "violates PodSecurity \"{}\": {}",
                    policy.enforce,
                    details(&found)
                );
                refusal = Some(Status::forbidden(
                    req.resource.group,
                    req.resource.plural,
                    req.name,
                    &why,
                ));
            }
        }
        let audit = evaluate(policy.audit, meta, spec);
        if !audit.is_empty() {
            rec.annotate(
                format!("{PREFIX}audit-violations"),
                format!(
                    "would violate PodSecurity \"{}\": {}",
                    policy.audit,
                    details(&audit)
                ),
            );
        }
        if let Some(refusal) = refusal {
            return Err(refusal);
        }
        let warn = evaluate(policy.warn, meta, spec);
        if !warn.is_empty() {
            rec.warn(format!(
                "would violate PodSecurity \"{}\": {}",
                policy.warn,
                details(&warn)
            ));
        }
        Ok(())
    }

    async fn validate_namespace(
        &self,
        req: &Request<'_>,
        config: &Config,
        ns: &Value,
        rec: &Recorder,
    ) -> Result<(), Status> {
        let name = ns
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or(req.name);
        let (policy, errs) = policy_of(ns, &config.defaults);
        let exempt = config.namespaces.iter().any(|n| n == name);
        let refuse = |errs: Vec<StatusCause>| invalid("", "Namespace", name, errs);
        match (req.operation, req.old_object) {
            (Operation::Create, _) => {
                if !errs.is_empty() {
                    return Err(refuse(errs));
                }
                if exempt {
                    exempt_warning(name, &policy, &config.defaults, ns, rec);
                }
                Ok(())
            }
            (Operation::Update, Some(old)) => {
                let (old_policy, old_errs) = policy_of(old, &config.defaults);
                if !errs.is_empty() && (old_errs.is_empty() || old_errs != errs) {
                    return Err(refuse(errs));
                }
                let (new, was) = (policy.enforce, old_policy.enforce);
                if new == was
                    || new.level == Level::Privileged
                    || (new.version == was.version && new.level <= was.level)
                {
                    return Ok(());
                }
                if exempt {
                    exempt_warning(name, &policy, &config.defaults, ns, rec);
                    return Ok(());
                }
                for w in self.check_existing_pods(config, name, new).await {
                    rec.warn(w);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Upstream's EvaluatePodsInNamespace: warnings about existing pods that the new
    /// enforce level would refuse, one per distinct set of reasons.
    async fn check_existing_pods(
        &self,
        config: &Config,
        ns: &str,
        enforce: LevelVersion,
    ) -> Vec<String> {
        let Some(pods) = &self.pods else {
            return Vec::new();
        };
        let Ok(all) = pods.list_cached(ns).await else {
            return vec![
                "failed to list pods while checking new PodSecurity enforce level".to_owned(),
            ];
        };
        // Pods of exempt runtime classes skipped; one pod per controller first.
        let mut seen_controllers = HashSet::new();
        let (mut first, mut rest) = (Vec::new(), Vec::new());
        for pod in &all {
            let rc = pod
                .pointer("/spec/runtimeClassName")
                .and_then(Value::as_str)
                .unwrap_or("");
            if !rc.is_empty() && config.runtime_classes.iter().any(|r| r == rc) {
                continue;
            }
            let controller = pod
                .pointer("/metadata/ownerReferences")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find(|o| o.get("controller").and_then(Value::as_bool) == Some(true))
                .and_then(|o| o.get("uid").and_then(Value::as_str));
            match controller {
                Some(uid) if !seen_controllers.insert(uid.to_owned()) => rest.push(pod),
                _ => first.push(pod),
            }
        }
        first.extend(rest);
        let total = first.len();
        first.truncate(MAX_PODS_TO_CHECK);
        let mut found: BTreeMap<String, (String, usize)> = BTreeMap::new();
        for pod in &first {
            let meta = pod.get("metadata").cloned().unwrap_or(json!({}));
            let spec = pod.get("spec").cloned().unwrap_or(json!({}));
            let v = evaluate(enforce, &meta, &spec);
            if v.is_empty() {
                continue;
            }
            let name = meta
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let entry = found
                .entry(reasons(&v))
                .or_insert_with(|| (name.clone(), 0));
            if name < entry.0 {
                entry.0 = name;
            }
            entry.1 += 1;
        }
        let mut warnings = Vec::new();
        if first.len() < total {
            warnings.push(format!(
                "new PodSecurity enforce level only checked against the first {} of {total} existing pods",
                first.len()
            ));
        }
        if found.is_empty() {
            return warnings;
        }
        warnings.push(format!(
            "existing pods in namespace \"{ns}\" violate the new PodSecurity enforce level \"{enforce}\""
        ));
        let mut pods: Vec<String> = found
            .into_iter()
            .map(|(why, (pod, n))| match n {
                1 => format!("{pod}: {why}"),
                2 => format!("{pod} (and 1 other pod): {why}"),
                n => format!("{pod} (and {} other pods): {why}", n - 1),
            })
            .collect();
        pods.sort();
        warnings.extend(pods);
        warnings
    }
}

fn is_exempt_user(req: &Request<'_>, config: &Config) -> bool {
    req.user
        .map(|u| u.name.as_str())
        .is_some_and(|u| !u.is_empty() && config.usernames.iter().any(|n| n == u))
}

/// The policy the labels of `ns` give, over `defaults`, and the labels' errors (upstream's
/// PolicyToEvaluate: a bad enforce level means restricted, a bad audit or warn level
/// privileged; warn follows a stricter explicit enforce).
fn policy_of(ns: &Value, defaults: &Policy) -> (Policy, Vec<StatusCause>) {
    let mut p = *defaults;
    let mut errs = Vec::new();
    let Some(labels) = ns.pointer("/metadata/labels").and_then(Value::as_object) else {
        return (p, errs);
    };
    let label = |k: &str| {
        labels
            .get(&format!("{PREFIX}{k}"))
            .map(|v| v.as_str().unwrap_or(""))
    };
    let mut err = |k: &str, v: &str, why: &str| {
        errs.push(invalid_value(
            &format!("metadata.labels[{PREFIX}{k}]"),
            v,
            why,
        ));
    };
    let mut has_enforce_level = false;
    let mut level = |k: &str, target: &mut Level, on_error: Level| {
        if let Some(v) = label(k) {
            match Level::parse(v) {
                Ok(l) => {
                    *target = l;
                    return Some(true);
                }
                Err(why) => {
                    err(k, v, why);
                    *target = on_error;
                    return Some(false);
                }
            }
        }
        None
    };
    has_enforce_level |= level("enforce", &mut p.enforce.level, Level::Restricted) == Some(true);
    let _ = level("audit", &mut p.audit.level, Level::Privileged);
    let has_warn_level = level("warn", &mut p.warn.level, Level::Privileged).is_some();
    let mut version = |k: &str, target: &mut Version| {
        if let Some(v) = label(k) {
            match Version::parse(v) {
                Ok(parsed) => *target = parsed,
                Err(why) => {
                    errs.push(invalid_value(
                        &format!("metadata.labels[{PREFIX}{k}]"),
                        v,
                        why,
                    ));
                    *target = Version::Latest;
                }
            }
            return true;
        }
        false
    };
    version("enforce-version", &mut p.enforce.version);
    version("audit-version", &mut p.audit.version);
    let has_warn_version = version("warn-version", &mut p.warn.version);
    if !has_warn_level && has_enforce_level && p.enforce.level > p.warn.level {
        p.warn.level = p.enforce.level;
        if !has_warn_version {
            p.warn.version = p.enforce.version;
        }
    }
    // Upstream lists errors in label order: enforce, enforce-version, audit, … .
    let order = |c: &StatusCause| {
        [
            "enforce]",
            "enforce-version]",
            "audit]",
            "audit-version]",
            "warn]",
            "warn-version]",
        ]
        .iter()
        .position(|s| c.field.ends_with(&format!("/{s}")))
        .unwrap_or(0)
    };
    errs.sort_by_key(order);
    (p, errs)
}

fn aggregate(errs: &[StatusCause]) -> String {
    let all: Vec<String> = errs
        .iter()
        .map(|c| format!("{}: {}", c.field, c.message))
        .collect();
    match all.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// The warning for labels on an exempt namespace that will be ignored.
fn exempt_warning(name: &str, policy: &Policy, defaults: &Policy, ns: &Value, rec: &Recorder) {
    let privileged = |lv: &LevelVersion| lv.level == Level::Privileged;
    let equivalent =
        |a: &LevelVersion, b: &LevelVersion| (privileged(a) && privileged(b)) || a == b;
    let all_privileged =
        privileged(&policy.enforce) && privileged(&policy.audit) && privileged(&policy.warn);
    if all_privileged
        || (equivalent(&policy.enforce, &defaults.enforce)
            && equivalent(&policy.audit, &defaults.audit)
            && equivalent(&policy.warn, &defaults.warn))
    {
        return;
    }
    let has = |k: &str| {
        ns.pointer("/metadata/labels")
            .and_then(|l| l.get(format!("{PREFIX}{k}")))
            .is_some()
    };
    let parts: Vec<String> = [
        ("enforce", policy.enforce),
        ("audit", policy.audit),
        ("warn", policy.warn),
    ]
    .into_iter()
    .filter(|(m, lv)| !privileged(lv) && (has(m) || has(&format!("{m}-version"))))
    .map(|(m, lv)| format!("{m}={lv}"))
    .collect();
    rec.warn(format!(
        "namespace \"{name}\" is exempt from Pod Security, and the policy ({}) will be ignored",
        parts.join(", ")
    ));
}

/// Whether a pod update changes what PodSecurity looks at (upstream: the containers'
/// number or images, or an ephemeral container added or changed).
fn significant_update(pod: &Value, old: &Value) -> bool {
    let list = |v: &Value, k: &str| {
        v.pointer(&format!("/spec/{k}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let image = |c: &Value| c.get("image").cloned();
    for k in ["containers", "initContainers"] {
        let (new, was) = (list(pod, k), list(old, k));
        if new.len() != was.len() || new.iter().zip(&was).any(|(a, b)| image(a) != image(b)) {
            return true;
        }
    }
    let was = list(old, "ephemeralContainers");
    list(pod, "ephemeralContainers").iter().any(|c| {
        was.iter()
            .find(|o| o.get("name") == c.get("name"))
            .is_none_or(|o| image(o) != image(c))
    })
}

/// Where a workload resource keeps its pod template.
fn template_path(group: &str, plural: &str) -> Option<&'static str> {
    match (group, plural) {
        ("", "replicationcontrollers") => Some("/spec/template"),
        ("", "podtemplates") => Some("/template"),
        ("apps", "replicasets" | "deployments" | "statefulsets" | "daemonsets") => {
            Some("/spec/template")
        }
        ("batch", "jobs") => Some("/spec/template"),
        ("batch", "cronjobs") => Some("/spec/jobTemplate/spec/template"),
        _ => None,
    }
}

impl Plugin for PodSecurity {
    fn name(&self) -> &'static str {
        "PodSecurity"
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
        Box::pin(async move {
            if !matches!(req.operation, Operation::Create | Operation::Update) || !obj.is_object() {
                return Ok(());
            }
            let (group, plural) = (req.resource.group, req.resource.plural);
            let template = template_path(group, plural);
            let pods = group.is_empty() && plural == "pods";
            let namespaces = group.is_empty() && plural == "namespaces";
            if !pods && !namespaces && template.is_none() {
                return Ok(());
            }
            let config = match &self.config {
                Ok(c) => c,
                Err(e) if !namespaces => {
                    return Err(Status::internal(format!(
                        "PodSecurity is misconfigured: {e}"
                    )))
                }
                Err(_) => return Ok(()),
            };
            match (pods, namespaces, template) {
                (true, _, _)
                    if matches!(req.subresource, "" | "ephemeralcontainers" | "resize") =>
                {
                    self.validate_pod(req, config, obj, rec).await
                }
                (_, true, _) if req.subresource.is_empty() => {
                    self.validate_namespace(req, config, obj, rec).await
                }
                (_, _, Some(path)) if req.subresource.is_empty() => match obj.pointer(path) {
                    Some(t) if t.is_object() => self.validate_template(req, config, t, rec).await,
                    _ => Ok(()),
                },
                _ => Ok(()),
            }
        })
    }
}

#[cfg(test)]
mod tests;

/// Checks the PodSecurity configuration in an AdmissionConfiguration text.
pub(crate) fn check_config(text: &str) -> Result<(), String> {
    config::load(Some(text)).map(|_| ())
}
