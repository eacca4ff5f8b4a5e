//! Priority, as kube-apiserver's: a new pod's `priorityClassName` must name a
//! PriorityClass, and its `priority` (and `preemptionPolicy`, when the class sets one)
//! come from it; a pod that names none gets the global default class, else priority 0
//! and `PreemptLowerPriority`. A pod that states a different priority or policy itself is
//! refused. An update keeps what creation set. Only one PriorityClass may be the global
//! default.

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

/// The Priority plugin.
pub struct Priority {
    classes: RestStore,
}

impl Priority {
    /// The plugin, reading PriorityClasses from `classes`.
    pub fn new(classes: RestStore) -> Priority {
        Priority { classes }
    }

    /// The global default class (the lowest value wins if a race made several).
    async fn default_class(&self) -> Result<Option<Value>, Status> {
        let all = self.classes.list_cached("").await?;
        Ok(all
            .into_iter()
            .filter(|pc| pc.get("globalDefault").and_then(Value::as_bool) == Some(true))
            .min_by_key(value_of))
    }

    async fn admit_pod(&self, req: &Request<'_>, pod: &mut Value) -> Result<(), Status> {
        if req.operation == Operation::Update {
            // Creation set them; a replacement that leaves them out keeps them.
            if let (Some(old), Some(spec)) = (
                req.old_object.and_then(|o| o.get("spec")),
                pod.get_mut("spec").and_then(Value::as_object_mut),
            ) {
                for key in ["priority", "preemptionPolicy"] {
                    let missing = spec.get(key).is_none_or(Value::is_null);
                    if let (true, Some(v)) = (missing, old.get(key).filter(|v| !v.is_null())) {
                        spec.insert(key.to_owned(), v.clone());
                    }
                }
            }
            return Ok(());
        }
        let named = pod
            .pointer("/spec/priorityClassName")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let (class_name, priority, policy) = if named.is_empty() {
            match self.default_class().await? {
                Some(pc) => (name_of(&pc), value_of(&pc), policy_of(&pc)),
                None => (String::new(), 0, Some("PreemptLowerPriority".to_owned())),
            }
        } else {
            match self.classes.read_cached("", &named).await? {
                Some(pc) => (named.clone(), value_of(&pc), policy_of(&pc)),
                None => {
                    return Err(req.forbidden(
                        pod,
                        &format!("no PriorityClass with name {named} was found"),
                    ))
                }
            }
        };
        if let Some(given) = pod.pointer("/spec/priority").and_then(Value::as_i64) {
            if given != priority {
                return Err(req.forbidden(pod, &format!("the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {priority} from the given PriorityClass name")));
            }
        }
        if let Some(policy) = &policy {
            let given = pod
                .pointer("/spec/preemptionPolicy")
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty());
            if let Some(given) = given.filter(|g| g != policy) {
                return Err(req.forbidden(pod, &format!("the string value of PreemptionPolicy ({given}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name")));
            }
        }
        let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
            return Ok(());
        };
        if !class_name.is_empty() {
            spec.insert("priorityClassName".into(), json!(class_name));
        }
        spec.insert("priority".into(), json!(priority));
        if let Some(policy) = policy {
            spec.insert("preemptionPolicy".into(), json!(policy));
        }
        Ok(())
    }

    async fn validate_class(&self, req: &Request<'_>, pc: &Value) -> Result<(), Status> {
        if pc.get("globalDefault").and_then(Value::as_bool) != Some(true) {
            return Ok(());
        }
        let Some(current) = self.default_class().await? else {
            return Ok(());
        };
        let current = name_of(&current);
        if req.operation == Operation::Create || current != name_of(pc) {
            return Err(req.forbidden(
                pc,
                &format!("PriorityClass {current} is already marked as default. Only one default can exist"),
            ));
        }
        Ok(())
    }
}

fn name_of(pc: &Value) -> String {
    pc.pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

fn value_of(pc: &Value) -> i64 {
    pc.get("value").and_then(Value::as_i64).unwrap_or(0)
}

fn policy_of(pc: &Value) -> Option<String> {
    pc.get("preemptionPolicy")
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
}

fn is(req: &Request<'_>, group: &str, plural: &str) -> bool {
    req.resource.group == group && req.resource.plural == plural && req.subresource.is_empty()
}

impl Plugin for Priority {
    fn name(&self) -> &'static str {
        "Priority"
    }

    fn phases(&self) -> Phases {
        Phases::BOTH
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let writes = matches!(req.operation, Operation::Create | Operation::Update);
            if writes && is(req, "", "pods") && obj.is_object() {
                self.admit_pod(req, obj).await?;
            }
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
            let writes = matches!(req.operation, Operation::Create | Operation::Update);
            if writes && is(req, "scheduling.k8s.io", "priorityclasses") && obj.is_object() {
                self.validate_class(req, obj).await?;
            }
            Ok(())
        })
    }
}
