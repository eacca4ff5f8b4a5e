//! EventRateLimit (off by default), as kube-apiserver's: core Events created or updated
//! are let through token buckets — one for the whole server, one per namespace, per user
//! or per event source and object (least recently used ones forgotten past `cacheSize`)
//! — as the plugin's Configuration (eventratelimit.admission.k8s.io/v1alpha1) in
//! `--admission-control-config-file` sets them; an Event over a limit is a 429. Dry runs
//! pass.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::HookFuture;
use kas_server::status::{Reason, Status};
use serde_json::Value;

/// The cache size of a limit that gives none.
const DEFAULT_CACHE_SIZE: usize = 4096;
const TYPES: [&str; 4] = ["Server", "Namespace", "User", "SourceAndObject"];

/// One token bucket.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
    used: u64,
}

/// One limit: a kind of key, a rate, and the buckets of the keys seen lately.
#[derive(Debug)]
struct Limit {
    kind: &'static str,
    qps: f64,
    burst: f64,
    capacity: usize,
    buckets: Mutex<(HashMap<String, Bucket>, u64)>,
}

impl Limit {
    /// Takes a token for `key`; false when the bucket is empty.
    fn try_accept(&self, key: &str) -> bool {
        let Ok(mut guard) = self.buckets.lock() else {
            return true;
        };
        let (buckets, clock) = &mut *guard;
        *clock += 1;
        let now = Instant::now();
        if !buckets.contains_key(key) && buckets.len() >= self.capacity.max(1) {
            // Forget the least recently used key.
            if let Some(oldest) = buckets
                .iter()
                .min_by_key(|(_, b)| b.used)
                .map(|(k, _)| k.clone())
            {
                buckets.remove(&oldest);
            }
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: self.burst,
            at: now,
            used: 0,
        });
        let refill = now.duration_since(bucket.at).as_secs_f64() * self.qps;
        bucket.tokens = (bucket.tokens + refill).min(self.burst);
        bucket.at = now;
        bucket.used = *clock;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The EventRateLimit plugin.
#[derive(Debug)]
pub(crate) struct EventRateLimit {
    limits: Vec<Limit>,
}

fn s<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

/// The plugin's Configuration from an AdmissionConfiguration text (inline or by
/// `path`), validated as upstream's; none given is upstream's empty default, refused.
pub(crate) fn load(admission_config: Option<&str>) -> Result<EventRateLimit, String> {
    let doc = admission_config.and_then(|text| serde_yaml_ng::from_str::<Value>(text).ok());
    let config = match doc {
        Some(doc) => crate::plugin_configuration(&doc, "EventRateLimit")?.unwrap_or(Value::Null),
        None => Value::Null,
    };
    if !config.is_null() {
        let (api_version, kind) = (s(&config, "/apiVersion"), s(&config, "/kind"));
        if api_version != "eventratelimit.admission.k8s.io/v1alpha1" || kind != "Configuration" {
            return Err(format!(
                "no kind \"{kind}\" is registered for version \"{api_version}\""
            ));
        }
    }
    let items = config
        .get("limits")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut errs = Vec::new();
    if items.is_empty() {
        errs.push("limits: Invalid value: \"null\": must not be empty".to_owned());
    }
    let mut limits = Vec::new();
    for (i, l) in items.iter().enumerate() {
        let kind = s(l, "/type");
        let number = |k: &str| l.get(k).and_then(Value::as_i64).unwrap_or(0);
        let (qps, burst, cache) = (number("qps"), number("burst"), number("cacheSize"));
        let known = TYPES.iter().find(|t| **t == kind);
        if known.is_none() {
            let allowed: Vec<String> = TYPES.iter().map(|t| format!("\"{t}\"")).collect();
            errs.push(format!(
                "limits[{i}].type: Unsupported value: \"{kind}\": supported values: {}",
                allowed.join(", ")
            ));
        }
        if burst <= 0 {
            errs.push(format!(
                "limits[{i}].burst: Invalid value: {burst}: must be positive"
            ));
        }
        if qps <= 0 {
            errs.push(format!(
                "limits[{i}].qps: Invalid value: {qps}: must be positive"
            ));
        }
        if kind != "Server" && cache < 0 {
            errs.push(format!(
                "limits[{i}].cacheSize: Invalid value: {cache}: must not be negative"
            ));
        }
        if let Some(kind) = known {
            limits.push(Limit {
                kind,
                qps: qps as f64,
                burst: burst as f64,
                capacity: match (*kind, cache) {
                    ("Server", _) => 1,
                    (_, 0) => DEFAULT_CACHE_SIZE,
                    (_, n) => n.max(1) as usize,
                },
                buckets: Mutex::new((HashMap::new(), 0)),
            });
        }
    }
    match errs.len() {
        0 => Ok(EventRateLimit { limits }),
        1 => Err(errs.remove(0)),
        _ => Err(format!("[{}]", errs.join(", "))),
    }
}

/// The key of `event` for a limit of `kind`.
fn key(kind: &str, req: &Request<'_>, event: &Value) -> String {
    match kind {
        "Namespace" => req.namespace.to_owned(),
        "User" => req.user.map(|u| u.name.clone()).unwrap_or_default(),
        "SourceAndObject" => [
            "/source/component",
            "/source/host",
            "/involvedObject/kind",
            "/involvedObject/namespace",
            "/involvedObject/name",
            "/involvedObject/uid",
            "/involvedObject/apiVersion",
            "/type",
            "/reason",
            "/message",
        ]
        .iter()
        .map(|p| s(event, p))
        .collect(),
        _ => String::new(),
    }
}

impl Plugin for EventRateLimit {
    fn name(&self) -> &'static str {
        "EventRateLimit"
    }

    fn phases(&self) -> Phases {
        Phases::VALIDATE
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        event: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let applies = matches!(req.operation, Operation::Create | Operation::Update)
                && req.resource.group.is_empty()
                && req.resource.kind == "Event"
                && !req.dry_run;
            if !applies {
                return Ok(());
            }
            let refused: Vec<String> = self
                .limits
                .iter()
                .filter_map(|l| {
                    let k = key(l.kind, req, event);
                    (!l.try_accept(&k)).then(|| {
                        format!(
                            "Too many requests: limit reached on type {} for key {k}",
                            l.kind
                        )
                    })
                })
                .collect();
            if refused.is_empty() {
                return Ok(());
            }
            // Each limit's refusal is a TooManyRequests error, and so is their aggregate.
            let joined = match refused.len() {
                1 => refused.concat(),
                _ => format!("[{}]", refused.join(", ")),
            };
            Err(Status::new(
                Reason::TooManyRequests,
                format!("Too many requests: {joined}"),
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(limits: &str) -> String {
        format!("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  configuration:\n    apiVersion: eventratelimit.admission.k8s.io/v1alpha1\n    kind: Configuration\n    limits:\n{limits}")
    }

    #[test]
    fn buckets_per_key_with_a_burst() {
        let plugin = load(Some(&config(
            "    - type: Namespace\n      qps: 1\n      burst: 2\n",
        )))
        .expect("valid");
        let l = &plugin.limits[0];
        assert!(l.try_accept("a") && l.try_accept("a"));
        assert!(!l.try_accept("a"), "the burst is spent");
        assert!(l.try_accept("b"), "another key has its own bucket");
    }

    #[test]
    fn the_least_recently_used_key_is_forgotten() {
        let plugin = load(Some(&config(
            "    - type: User\n      qps: 1\n      burst: 1\n      cacheSize: 2\n",
        )))
        .expect("valid");
        let l = &plugin.limits[0];
        assert!(l.try_accept("a") && l.try_accept("b"));
        assert!(l.try_accept("c"), "a new key evicts a");
        assert!(l.try_accept("a"), "a forgotten key starts full again");
        assert!(!l.try_accept("c"));
    }

    #[test]
    fn configuration_checked_as_upstream() {
        assert_eq!(
            load(None).expect_err("none"),
            "limits: Invalid value: \"null\": must not be empty"
        );
        let e = load(Some(&config(
            "    - type: Pod\n      qps: 0\n      burst: 1\n",
        )))
        .expect_err("bad");
        assert!(
            e.contains("limits[0].type: Unsupported value: \"Pod\"")
                && e.contains("limits[0].qps: Invalid value: 0: must be positive"),
            "{e}"
        );
    }
}
