//! AlwaysPullImages (off by default), as kube-apiserver's: every container of a new or
//! updated pod pulls its image each time (`imagePullPolicy: Always`), so an image
//! pulled for one tenant cannot be used by another without credentials; a pod that
//! changes it back is refused.

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::HookFuture;
use kas_server::status::Status;
use serde_json::{json, Value};

const LISTS: [&str; 3] = ["initContainers", "containers", "ephemeralContainers"];

/// The AlwaysPullImages plugin.
pub(crate) struct AlwaysPullImages;

fn applies(req: &Request<'_>) -> bool {
    matches!(req.operation, Operation::Create | Operation::Update)
        && req.resource.group.is_empty()
        && req.resource.plural == "pods"
        && (req.subresource.is_empty() || req.subresource == "ephemeralcontainers")
}

impl Plugin for AlwaysPullImages {
    fn name(&self) -> &'static str {
        "AlwaysPullImages"
    }

    fn phases(&self) -> Phases {
        Phases::BOTH
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        pod: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if !applies(req) {
                return Ok(());
            }
            for list in LISTS {
                if let Some(cs) = pod
                    .pointer_mut(&format!("/spec/{list}"))
                    .and_then(Value::as_array_mut)
                {
                    for c in cs.iter_mut().filter_map(Value::as_object_mut) {
                        c.insert("imagePullPolicy".into(), json!("Always"));
                    }
                }
            }
            Ok(())
        })
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        pod: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if !applies(req) {
                return Ok(());
            }
            for list in LISTS {
                for (i, c) in pod
                    .pointer(&format!("/spec/{list}"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let policy = c
                        .get("imagePullPolicy")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    if policy != "Always" {
                        return Err(req.forbidden(
                            pod,
                            &format!("spec.{list}[{i}].imagePullPolicy: Unsupported value: \"{policy}\": supported values: \"Always\""),
                        ));
                    }
                }
            }
            Ok(())
        })
    }
}
