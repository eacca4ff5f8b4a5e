//! RuntimeClass, as kube-apiserver's: a new pod that names a RuntimeClass must name one
//! that exists; it gets the class's pod overhead (a pod stating another overhead is
//! refused) and the class's scheduling constraints (node selector merged, a conflicting
//! label refused; tolerations added).

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

/// The RuntimeClass plugin.
pub(crate) struct RuntimeClass {
    classes: RestStore,
}

impl RuntimeClass {
    /// The plugin, reading RuntimeClasses from `classes`.
    pub(crate) fn new(classes: RestStore) -> RuntimeClass {
        RuntimeClass { classes }
    }
}

/// Applies `class` to `pod`; `Err(why)` refuses the pod.
fn apply(pod: &mut Value, class: &Value) -> Result<(), String> {
    let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    if let Some(fixed) = class.pointer("/overhead/podFixed").filter(|o| !o.is_null()) {
        match spec.get("overhead").filter(|o| !o.is_null()) {
            Some(given) if given != fixed => {
                return Err(
                    "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
                        .to_owned(),
                )
            }
            _ => {
                spec.insert("overhead".into(), fixed.clone());
            }
        }
    } else if spec.get("overhead").is_some_and(|o| !o.is_null()) {
        return Err(
            "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"
                .to_owned(),
        );
    }
    if let Some(selector) = class
        .pointer("/scheduling/nodeSelector")
        .and_then(Value::as_object)
    {
        let own = spec.entry("nodeSelector").or_insert_with(|| json!({}));
        if own.is_null() {
            *own = json!({});
        }
        if let Some(own) = own.as_object_mut() {
            for (k, v) in selector {
                match own.get(k) {
                    Some(have) if have != v => {
                        return Err(format!(
                            "conflict: runtimeClass.scheduling.nodeSelector[{k}] = {}; pod.spec.nodeSelector[{k}] = {}",
                            v.as_str().unwrap_or(""),
                            have.as_str().unwrap_or("")
                        ))
                    }
                    _ => {
                        own.insert(k.clone(), v.clone());
                    }
                }
            }
        }
    }
    if let Some(tolerations) = class
        .pointer("/scheduling/tolerations")
        .and_then(Value::as_array)
    {
        let own = spec.entry("tolerations").or_insert_with(|| json!([]));
        if own.is_null() {
            *own = json!([]);
        }
        if let Some(own) = own.as_array_mut() {
            for t in tolerations {
                if !own.contains(t) {
                    own.push(t.clone());
                }
            }
        }
    }
    Ok(())
}

impl Plugin for RuntimeClass {
    fn name(&self) -> &'static str {
        "RuntimeClass"
    }

    fn phases(&self) -> Phases {
        Phases::ADMIT
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        pod: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let applies = req.operation == Operation::Create
                && req.resource.group.is_empty()
                && req.resource.plural == "pods"
                && req.subresource.is_empty();
            let name = pod
                .pointer("/spec/runtimeClassName")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            if !applies || name.is_empty() {
                return Ok(());
            }
            let Some(class) = self.classes.read_cached("", &name).await? else {
                return Err(req.forbidden(
                    pod,
                    &format!("pod rejected: RuntimeClass \"{name}\" not found"),
                ));
            };
            let mut changed = pod.clone();
            match apply(&mut changed, &class) {
                Ok(()) => {
                    *pod = changed;
                    Ok(())
                }
                Err(why) => Err(req.forbidden(pod, &why)),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overhead_and_scheduling() {
        let class = json!({"overhead": {"podFixed": {"cpu": "250m"}},
            "scheduling": {"nodeSelector": {"sandbox": "yes"}, "tolerations": [{"key": "sandbox", "operator": "Exists"}]}});
        let mut pod = json!({"spec": {"containers": []}});
        apply(&mut pod, &class).expect("applies");
        assert_eq!(pod["spec"]["overhead"], json!({"cpu": "250m"}));
        assert_eq!(pod["spec"]["nodeSelector"], json!({"sandbox": "yes"}));
        assert_eq!(pod["spec"]["tolerations"].as_array().map(Vec::len), Some(1));
        let mut clash = json!({"spec": {"nodeSelector": {"sandbox": "no"}}});
        assert_eq!(
            apply(&mut clash, &class).expect_err("conflict"),
            "conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no"
        );
        let mut other = json!({"spec": {"overhead": {"cpu": "1"}}});
        assert!(apply(&mut other, &class).is_err());
    }
}
