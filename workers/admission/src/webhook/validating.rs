//! ValidatingAdmissionWebhook's dispatch: every webhook that matches is called at once;
//! the first refusal (in the webhooks' order) refuses the write. A webhook that cannot
//! be called refuses with a 500 unless its failure policy is Ignore, which is noted in
//! the audit annotations.

use std::time::Instant;

use futures_util::future::join_all;
use kas_server::admission::{Recorder, Request};
use kas_server::status::Status;
use serde_json::Value;

use super::metrics;
use super::review::CallError;
use super::versioned::Converted;
use super::Webhooks;

/// The audit annotation prefix of a validating webhook that failed open.
const FAILED_OPEN: &str = "failed-open.validating.webhook.admission.k8s.io/";

pub(super) async fn dispatch(
    plugin: &Webhooks,
    req: &Request<'_>,
    obj: &Value,
    rec: &Recorder,
) -> Result<(), Status> {
    let hooks = plugin.hooks(req, obj).await?;
    // The hooks to call, each with the version it is called as.
    let mut converted = Converted::default();
    let mut relevant = Vec::new();
    for hook in hooks.iter() {
        let Some(matched) = plugin.selects(hook, req, obj).await? else {
            continue;
        };
        let at = converted.index(req, obj, &matched).await?;
        let (vreq, vobj) = converted.view(req, obj, at);
        if plugin
            .conditions_hold(hook, &vreq, req.resource, vobj)
            .await?
        {
            relevant.push((hook.clone(), at));
        }
    }
    if relevant.is_empty() {
        return Ok(());
    }
    let calls = relevant.iter().map(|(hook, at)| {
        let (vreq, vobj) = converted.view(req, obj, *at);
        async move {
            let started = Instant::now();
            let result = plugin.call(hook, &vreq, req.resource, vobj, rec).await;
            let took = started.elapsed();
            metrics::observe(
                &hook.name,
                "validating",
                req.operation,
                hook.fail_open,
                &result,
                took,
            );
            result
        }
    });
    let results = join_all(calls).await;
    let mut first = None;
    for (idx, ((hook, _), result)) in relevant.iter().zip(results).enumerate() {
        match result {
            Ok(_) => {}
            Err(CallError::Calling(why, _)) if hook.fail_open => {
                tracing::warn!(webhook = %hook.name, error = %why, "failed calling webhook, failing open");
                rec.annotate(
                    format!("{FAILED_OPEN}round_0_index_{idx}"),
                    hook.name.clone(),
                );
            }
            Err(e) => {
                let status = e.into_status(&hook.name);
                tracing::info!(webhook = %hook.name, message = %status.message, "rejected by webhook");
                first.get_or_insert(status);
            }
        }
    }
    match first {
        Some(s) => Err(s),
        None => Ok(()),
    }
}
