//! MutatingAdmissionWebhook's dispatch: the webhooks that match are called one after
//! the other, each seeing what the ones before made of the object; a JSONPatch answer
//! is applied at once. A webhook that changes the object asks for the whole mutating
//! chain to run once more (`kas_server::admission::Reinvocation`, upstream's reinvoker);
//! in that run the webhooks with `reinvocationPolicy: IfNeeded` that ran before a later
//! change (a webhook's, or a built-in plugin's in the second run) are called again, and
//! no other. A webhook matched
//! through an equivalent version patches the object in that version, which is
//! converted back to the request's version after the last webhook.

use std::time::Instant;

use kas_server::admission::{Recorder, Request};
use kas_server::rest::Resource;
use kas_server::status::Status;
use serde_json::{json, Value};

use super::metrics;
use super::review::CallError;
use super::versioned::{convert, same_version};
use super::Webhooks;

/// Audit annotation prefixes, as upstream's.
const MUTATION: &str = "mutation.webhook.admission.k8s.io/";
const FAILED_OPEN: &str = "failed-open.mutation.webhook.admission.k8s.io/";

/// Applies a webhook's JSONPatch to `obj`: `Ok(changed)`; an error is a 500 whatever
/// the failure policy (as upstream's).
pub(super) fn apply_patch(name: &str, obj: &mut Value, patch: &Value) -> Result<bool, Status> {
    let ops: json_patch::Patch = serde_json::from_value(patch.clone()).map_err(Status::internal)?;
    if ops.0.is_empty() {
        return Ok(false);
    }
    if !obj.is_object() {
        return Err(Status::internal(format!(
            "admission webhook \"{name}\" attempted to modify the object, which is not supported for this operation"
        )));
    }
    let mut patched = obj.clone();
    json_patch::patch(&mut patched, &ops).map_err(Status::internal)?;
    let changed = patched != *obj;
    *obj = patched;
    Ok(changed)
}

pub(super) async fn dispatch(
    plugin: &Webhooks,
    req: &Request<'_>,
    obj: &mut Value,
    rec: &Recorder,
) -> Result<(), Status> {
    let hooks = plugin.hooks(req, obj).await?;
    // The version `obj` is in: a hook matching an equivalent version gets (and patches)
    // the object in that version; it is converted back at the end.
    let mut current: Resource = *req.resource;
    // The object in the request's version while no webhook has changed it since it was
    // converted away: restored rather than converted back (as upstream converts back
    // only a changed object), so an unchanged object never goes through a conversion
    // round trip.
    let mut pristine: Option<Value> = None;
    let mut olds: Vec<(Resource, Option<Value>)> = Vec::new();
    // In the chain's second run, in-tree plugins that changed the object since the
    // webhooks last ran make every reinvocable webhook run again.
    let is_reinvoke = rec
        .reinvocation(|r| {
            if r.is_reinvoke && r.last_output.as_ref() != Some(&*obj) {
                r.require_previously_invoked();
            }
            r.is_reinvoke
        })
        .unwrap_or(false);
    let round = usize::from(is_reinvoke);
    for (idx, hook) in hooks.iter().enumerate() {
        let key = format!("{}/{}/{idx}", hook.configuration, hook.name);
        // The second run calls again only reinvocable webhooks that ran before a change;
        // none is called there for the first time.
        if is_reinvoke
            && !rec
                .reinvocation(|r| r.reinvoke.contains(&key))
                .unwrap_or(false)
        {
            continue;
        }
        let Some(matched) = plugin.selects(hook, req, obj).await? else {
            continue;
        };
        if !same_version(&current, &matched) {
            if same_version(&current, req.resource) {
                pristine = Some(obj.clone());
            }
            *obj = match pristine.as_ref() {
                Some(p) if same_version(&matched, req.resource) => p.clone(),
                _ => convert(req, std::mem::take(obj), &current, &matched).await?,
            };
            current = matched;
        }
        let old = old_as(req, &matched, &mut olds).await?;
        let vreq = Request {
            resource: &matched,
            old_object: old,
            ..*req
        };
        if !plugin
            .conditions_hold(hook, &vreq, req.resource, obj)
            .await?
        {
            continue;
        }
        let started = Instant::now();
        let result = match plugin.call(hook, &vreq, req.resource, obj, rec).await {
            Ok(answer) => match &answer.patch {
                Some(p) => apply_patch(&hook.name, obj, p).map_err(CallError::Refused),
                None => Ok(false),
            },
            Err(e) => Err(e),
        };
        let took = started.elapsed();
        metrics::observe(
            &hook.name,
            "admit",
            req.operation,
            hook.fail_open,
            &result,
            took,
        );
        let changed = *result.as_ref().unwrap_or(&false);
        let mutated =
            json!({"configuration": hook.configuration, "webhook": hook.name, "mutated": changed});
        rec.annotate(
            format!("{MUTATION}round_{round}_index_{idx}"),
            mutated.to_string(),
        );
        if changed {
            // Every reinvocable webhook before this one sees the change, and the whole
            // chain runs once more (upstream's SetShouldReinvoke).
            rec.reinvocation(|r| {
                r.require_previously_invoked();
                r.should_reinvoke = true;
            });
            pristine = None;
        }
        if hook.reinvoke {
            rec.reinvocation(|r| r.previously_invoked.insert(key.clone()));
        }
        match result {
            Ok(_) => {}
            Err(CallError::Calling(why, _)) if hook.fail_open => {
                tracing::warn!(webhook = %hook.name, error = %why, "failed calling webhook, failing open");
                rec.annotate(
                    format!("{FAILED_OPEN}round_{round}_index_{idx}"),
                    hook.name.clone(),
                );
            }
            Err(e) => return Err(e.into_status(&hook.name)),
        }
    }
    if !same_version(&current, req.resource) {
        *obj = match pristine {
            Some(p) => p,
            None => convert(req, std::mem::take(obj), &current, req.resource).await?,
        };
    }
    rec.reinvocation(|r| r.last_output = Some(obj.clone()));
    Ok(())
}

/// The old object as `to`: the request's own in its version, else converted once.
async fn old_as<'a>(
    req: &Request<'a>,
    to: &Resource,
    olds: &'a mut Vec<(Resource, Option<Value>)>,
) -> Result<Option<&'a Value>, Status> {
    let Some(old) = req.old_object else {
        return Ok(None);
    };
    if same_version(req.resource, to) {
        return Ok(Some(old));
    }
    let at = match olds.iter().position(|(r, _)| same_version(r, to)) {
        Some(i) => i,
        None => {
            let converted = convert(req, old.clone(), req.resource, to).await?;
            olds.push((*to, Some(converted)));
            olds.len() - 1
        }
    };
    Ok(olds.get(at).and_then(|(_, o)| o.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches() {
        let mut obj = json!({"metadata": {"name": "a"}});
        let add = json!([{"op": "add", "path": "/metadata/labels", "value": {"x": "y"}}]);
        assert_eq!(apply_patch("w", &mut obj, &add), Ok(true));
        assert_eq!(obj["metadata"]["labels"]["x"], "y");
        let same = json!([{"op": "replace", "path": "/metadata/name", "value": "a"}]);
        assert_eq!(apply_patch("w", &mut obj, &same), Ok(false));
        assert_eq!(apply_patch("w", &mut obj, &json!([])), Ok(false));
        let bad = json!([{"op": "remove", "path": "/spec/nothing"}]);
        let err = apply_patch("w", &mut obj, &bad).expect_err("bad patch");
        assert_eq!(err.reason.code(), 500);
        assert_eq!(obj["metadata"]["labels"]["x"], "y", "unchanged on error");
        assert!(apply_patch("w", &mut obj, &json!({"op": "add"})).is_err());
        let mut deleted = Value::Null;
        let err = apply_patch("w", &mut deleted, &add).expect_err("delete");
        assert!(
            err.message.contains("attempted to modify the object"),
            "{}",
            err.message
        );
    }
}
