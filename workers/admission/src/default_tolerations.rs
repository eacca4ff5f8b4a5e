//! DefaultTolerationSeconds, as kube-apiserver's: a pod created or updated without a
//! toleration of the `node.kubernetes.io/not-ready` or `node.kubernetes.io/unreachable`
//! NoExecute taints gets one for `--default-not-ready-toleration-seconds` /
//! `--default-unreachable-toleration-seconds` (300 s by default), so it is evicted that
//! long after its node goes away. A toleration with an empty key or effect counts.

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::HookFuture;
use kas_server::status::Status;
use serde_json::{json, Value};

const NOT_READY: &str = "node.kubernetes.io/not-ready";
const UNREACHABLE: &str = "node.kubernetes.io/unreachable";

/// The DefaultTolerationSeconds plugin.
pub struct DefaultTolerationSeconds {
    not_ready_seconds: i64,
    unreachable_seconds: i64,
}

impl DefaultTolerationSeconds {
    /// The plugin with the flags' durations.
    pub fn new(not_ready_seconds: i64, unreachable_seconds: i64) -> DefaultTolerationSeconds {
        DefaultTolerationSeconds {
            not_ready_seconds,
            unreachable_seconds,
        }
    }
}

/// Whether `tolerations` already tolerate the NoExecute taint `key`.
fn tolerates(tolerations: &[Value], key: &str) -> bool {
    tolerations.iter().any(|t| {
        let field = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
        let (k, effect) = (field("key"), field("effect"));
        (k.is_empty() || k == key) && (effect.is_empty() || effect == "NoExecute")
    })
}

/// Adds the default tolerations a pod lacks.
fn add_defaults(pod: &mut Value, not_ready: i64, unreachable: i64) {
    let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let list = spec.entry("tolerations").or_insert_with(|| json!([]));
    if list.is_null() {
        *list = json!([]);
    }
    let Some(list) = list.as_array_mut() else {
        return;
    };
    for (key, seconds) in [(NOT_READY, not_ready), (UNREACHABLE, unreachable)] {
        if !tolerates(list, key) {
            list.push(json!({
                "key": key,
                "operator": "Exists",
                "effect": "NoExecute",
                "tolerationSeconds": seconds,
            }));
        }
    }
}

impl Plugin for DefaultTolerationSeconds {
    fn name(&self) -> &'static str {
        "DefaultTolerationSeconds"
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
            let handles = matches!(req.operation, Operation::Create | Operation::Update)
                && req.resource.group.is_empty()
                && req.resource.plural == "pods"
                && req.subresource.is_empty()
                && pod.is_object();
            if handles {
                add_defaults(pod, self.not_ready_seconds, self.unreachable_seconds);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_what_is_missing() {
        let mut pod = json!({"spec": {"containers": []}});
        add_defaults(&mut pod, 300, 120);
        assert_eq!(
            pod["spec"]["tolerations"],
            json!([
                {"key": NOT_READY, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                {"key": UNREACHABLE, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 120},
            ])
        );
        // Own tolerations count: a NoSchedule one does not, an empty effect does.
        let mut pod = json!({"spec": {"tolerations": [
            {"key": NOT_READY, "operator": "Exists", "effect": "NoSchedule"},
            {"key": UNREACHABLE, "operator": "Exists"},
        ]}});
        add_defaults(&mut pod, 300, 300);
        let list = pod["spec"]["tolerations"].as_array().expect("list");
        assert_eq!(list.len(), 3);
        assert_eq!(list[2]["key"], NOT_READY);
        // Tolerating everything (empty key and effect): nothing added.
        let mut pod = json!({"spec": {"tolerations": [{"operator": "Exists"}]}});
        add_defaults(&mut pod, 300, 300);
        assert_eq!(pod["spec"]["tolerations"].as_array().map(Vec::len), Some(1));
    }
}
