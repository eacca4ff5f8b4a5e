//! `/healthz`, `/livez` and `/readyz` with kube-apiserver's semantics: a path per check,
//! `?verbose`, `?exclude=` (repeatable), `[+]name ok` / `[-]name failed: reason withheld`
//! lines, and the reason itself only in the server's log.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http::header::{CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use http::{HeaderValue, Response, StatusCode};
use kas_proto::{CheckStatus, WorkerHealth};
use tokio::sync::watch;

use crate::body::{self, Body};
use crate::status::Status;

/// The outcome of one check for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    /// The check's name, e.g. `ping` or `poststarthook/x`.
    pub name: String,
    /// `Err(reason)` when failing; the reason goes to the log only.
    pub result: Result<(), String>,
}

impl CheckResult {
    /// A passing check.
    pub fn ok(name: impl Into<String>) -> CheckResult {
        CheckResult {
            name: name.into(),
            result: Ok(()),
        }
    }

    /// A check passing when `ok` is true, failing with `reason` otherwise.
    pub fn from_bool(name: impl Into<String>, ok: bool, reason: impl Into<String>) -> CheckResult {
        CheckResult {
            name: name.into(),
            result: if ok { Ok(()) } else { Err(reason.into()) },
        }
    }
}

/// The health endpoints kube-apiserver serves.
pub const ENDPOINTS: [&str; 3] = ["healthz", "livez", "readyz"];

/// Splits a path under a health endpoint into the endpoint and the single check asked
/// for (`/readyz/etcd` → `("readyz", Some("etcd"))`); `None` for any other path.
pub fn endpoint_of(path: &str) -> Option<(&'static str, Option<&str>)> {
    let path = path.strip_prefix('/')?;
    ENDPOINTS.into_iter().find_map(|endpoint| {
        let rest = path.strip_prefix(endpoint)?;
        match rest {
            "" => Some((endpoint, None)),
            _ => rest.strip_prefix('/').map(|sub| (endpoint, Some(sub))),
        }
    })
}

/// Answers a request under one health endpoint.
///
/// `endpoint` is `healthz`, `livez` or `readyz`; `sub` is the rest of the path after
/// `/<endpoint>/` (a single check) or `None` for the endpoint itself.
pub fn respond(
    endpoint: &str,
    sub: Option<&str>,
    query: Option<&str>,
    results: &[CheckResult],
) -> Response<Body> {
    if let Some(name) = sub.filter(|s| !s.is_empty()) {
        return match results.iter().find(|r| r.name == name) {
            None => Status::path_not_found().into_response(),
            Some(CheckResult { result: Ok(()), .. }) => text(StatusCode::OK, "ok".into()),
            Some(CheckResult {
                result: Err(reason),
                ..
            }) => {
                tracing::info!(endpoint, check = name, reason = %reason, "health check failed");
                text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("internal server error: {reason}\n"),
                )
            }
        };
    }

    let (verbose, mut excluded) = parse_query(query);
    let mut out = String::new();
    let mut failed = Vec::new();
    for r in results {
        if excluded.remove(r.name.as_str()) {
            out.push_str(&format!("[+]{} excluded: ok\n", r.name));
            continue;
        }
        match &r.result {
            Ok(()) => out.push_str(&format!("[+]{} ok\n", r.name)),
            Err(reason) => {
                out.push_str(&format!("[-]{} failed: reason withheld\n", r.name));
                failed.push(format!("{}: {reason}", r.name));
            }
        }
    }
    if !excluded.is_empty() {
        let names: Vec<String> = excluded.iter().map(|n| format!("{n:?}")).collect();
        out.push_str(&format!(
            "warn: some health checks cannot be excluded: no matches for {}\n",
            names.join(",")
        ));
    }
    if !failed.is_empty() {
        tracing::info!(endpoint, failed = %failed.join("; "), "{endpoint} check failed");
        out.push_str(&format!("{endpoint} check failed\n"));
        return text(StatusCode::INTERNAL_SERVER_ERROR, out);
    }
    if !verbose {
        return text(StatusCode::OK, "ok".into());
    }
    out.push_str(&format!("{endpoint} check passed\n"));
    text(StatusCode::OK, out)
}

fn parse_query(query: Option<&str>) -> (bool, BTreeSet<String>) {
    let mut verbose = false;
    let mut excluded = BTreeSet::new();
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            "verbose" => verbose = true,
            "exclude" => {
                let v = percent_decode(v);
                if !v.is_empty() {
                    excluded.insert(v);
                }
            }
            _ => {}
        }
    }
    (verbose, excluded)
}

/// `s` with every byte but ASCII letters, digits and those in `keep` written `%XX`
/// (the escaping of Go's url and client-go helpers, each with its own `keep`).
pub fn percent_escape(s: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes and `+` in a query value.
pub fn percent_decode(s: &str) -> String {
    decode(s, true)
}

/// Decodes `%XX` escapes only, as Go's url.PathUnescape (an invalid escape is kept as
/// written).
pub fn path_unescape(s: &str) -> String {
    decode(s, false)
}

fn decode(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let hex = |b: u8| (b as char).to_digit(16);
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                out.push(b'%');
            }
            b'+' if plus_is_space => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn text(code: StatusCode, body: String) -> Response<Body> {
    let mut resp = Response::new(body::full(body));
    *resp.status_mut() = code;
    resp.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp.headers_mut()
        .insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    resp
}

/// The `log` check: logging must not be wedged. A background task flushes stderr
/// periodically; the check fails when the last flush is older than a minute.
#[derive(Debug, Clone)]
pub struct LogCheck {
    last_flush: Arc<AtomicU64>,
}

impl LogCheck {
    /// Starts the flusher task on the current runtime.
    pub fn start() -> LogCheck {
        let last_flush = Arc::new(AtomicU64::new(now_secs()));
        let stamp = last_flush.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(10)).await;
                let flushed = tokio::task::spawn_blocking(|| {
                    use std::io::Write;
                    std::io::stderr().flush().is_ok()
                })
                .await
                .unwrap_or(false);
                if flushed {
                    stamp.store(now_secs(), Ordering::Relaxed);
                }
            }
        });
        LogCheck { last_flush }
    }

    /// The check's result now.
    pub fn result(&self) -> CheckResult {
        let age = now_secs().saturating_sub(self.last_flush.load(Ordering::Relaxed));
        CheckResult::from_bool(
            "log",
            age < 60,
            format!("logging blocked: last flush {age}s ago"),
        )
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The prefix of every post-start hook's check name.
const HOOK_PREFIX: &str = "poststarthook/";

/// Whether a check name is a post-start hook's (as opposed to a plain check like `etcd`).
pub fn is_post_start_hook(check_name: &str) -> bool {
    check_name.starts_with(HOOK_PREFIX)
}

/// One registered hook: its check name and whether it has finished.
type Hook = (String, Arc<AtomicBool>);

/// A named check that is not a hook (e.g. `etcd`), with its latest result.
type NamedCheck = (String, Result<(), String>);

/// Post-start hooks of one worker: each is a named check that passes once the hook has
/// finished successfully. Subscribers learn of every change, so the worker can report its
/// health to the supervisor the moment a hook completes.
#[derive(Debug, Clone)]
pub struct PostStartHooks {
    hooks: Arc<Mutex<Vec<Hook>>>,
    checks: Arc<Mutex<Vec<NamedCheck>>>,
    changed: Arc<watch::Sender<u64>>,
}

impl Default for PostStartHooks {
    fn default() -> Self {
        PostStartHooks {
            hooks: Arc::default(),
            checks: Arc::default(),
            changed: Arc::new(watch::Sender::new(0)),
        }
    }
}

/// A handle a hook uses to say it is done.
#[derive(Debug, Clone)]
pub struct HookHandle {
    name: Arc<str>,
    done: Arc<AtomicBool>,
    changed: Arc<watch::Sender<u64>>,
}

impl HookHandle {
    /// Marks the hook finished.
    pub fn done(&self) {
        if !self.done.swap(true, Ordering::AcqRel) {
            tracing::debug!(hook = %self.name, "post-start hook finished");
        }
        self.changed.send_modify(|n| *n += 1);
    }
}

impl PostStartHooks {
    /// Registers a hook named `name` (shown as `poststarthook/<name>`).
    pub fn register(&self, name: &str) -> HookHandle {
        let done = Arc::new(AtomicBool::new(false));
        if let Ok(mut hooks) = self.hooks.lock() {
            hooks.push((format!("{HOOK_PREFIX}{name}"), done.clone()));
        }
        self.changed.send_modify(|n| *n += 1);
        HookHandle {
            name: Arc::from(name),
            done,
            changed: self.changed.clone(),
        }
    }

    /// Sets the result of a plain named check such as `etcd` (registered on first use).
    pub fn set_check(&self, name: &str, result: Result<(), String>) {
        if let Ok(mut checks) = self.checks.lock() {
            match checks.iter_mut().find(|(n, _)| n == name) {
                Some(c) => c.1 = result,
                None => checks.push((name.to_owned(), result)),
            }
        }
        self.changed.send_modify(|n| *n += 1);
    }

    /// A receiver that is marked changed whenever a hook registers or finishes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Every named check, then every hook in registration order.
    pub fn statuses(&self) -> Vec<CheckStatus> {
        let mut out: Vec<CheckStatus> = self
            .checks
            .lock()
            .map(|checks| {
                checks
                    .iter()
                    .map(|(name, result)| CheckStatus {
                        name: name.clone(),
                        ok: result.is_ok(),
                        reason: result.as_ref().err().cloned(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        if let Ok(hooks) = self.hooks.lock() {
            out.extend(hooks.iter().map(|(name, done)| {
                let ok = done.load(Ordering::Acquire);
                CheckStatus {
                    name: name.clone(),
                    ok,
                    reason: (!ok).then(|| "not finished".to_owned()),
                }
            }));
        }
        out
    }

    /// The worker health these hooks amount to: `ready` (the worker serves, so requests
    /// are routed to it) once every hook has finished; plain checks such as `etcd` are
    /// reported alongside and show in readyz, but do not stop the routing.
    pub fn health(&self) -> WorkerHealth {
        let checks = self.statuses();
        WorkerHealth {
            ready: checks
                .iter()
                .filter(|c| is_post_start_hook(&c.name))
                .all(|c| c.ok),
            checks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    async fn body_of(resp: Response<Body>) -> (u16, String) {
        let code = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.expect("body").to_bytes();
        (code, String::from_utf8_lossy(&bytes).into_owned())
    }

    fn checks(failing: bool) -> Vec<CheckResult> {
        vec![
            CheckResult::ok("ping"),
            CheckResult::ok("log"),
            CheckResult::from_bool("worker-kube-api", !failing, "down"),
        ]
    }

    #[tokio::test]
    async fn passing_plain_and_verbose() {
        let (code, body) = body_of(respond("readyz", None, None, &checks(false))).await;
        assert_eq!((code, body.as_str()), (200, "ok"));
        let (code, body) = body_of(respond("readyz", None, Some("verbose"), &checks(false))).await;
        assert_eq!(code, 200);
        assert_eq!(
            body,
            "[+]ping ok\n[+]log ok\n[+]worker-kube-api ok\nreadyz check passed\n"
        );
    }

    #[tokio::test]
    async fn failing_is_always_verbose() {
        let (code, body) = body_of(respond("readyz", None, None, &checks(true))).await;
        assert_eq!(code, 500);
        assert_eq!(
            body,
            "[+]ping ok\n[+]log ok\n[-]worker-kube-api failed: reason withheld\nreadyz check failed\n"
        );
    }

    #[tokio::test]
    async fn exclude_known_and_unknown() {
        let (code, body) = body_of(respond(
            "readyz",
            None,
            Some("verbose&exclude=worker-kube-api&exclude=nope"),
            &checks(true),
        ))
        .await;
        assert_eq!(code, 200);
        assert_eq!(
            body,
            "[+]ping ok\n[+]log ok\n[+]worker-kube-api excluded: ok\n\
             warn: some health checks cannot be excluded: no matches for \"nope\"\n\
             readyz check passed\n"
        );
    }

    #[tokio::test]
    async fn single_check_paths() {
        let (code, body) = body_of(respond("livez", Some("ping"), None, &checks(true))).await;
        assert_eq!((code, body.as_str()), (200, "ok"));
        let (code, body) = body_of(respond(
            "readyz",
            Some("worker-kube-api"),
            None,
            &checks(true),
        ))
        .await;
        assert_eq!(
            (code, body.as_str()),
            (500, "internal server error: down\n")
        );
        let (code, _) = body_of(respond("readyz", Some("nope"), None, &checks(true))).await;
        assert_eq!(code, 404);
    }

    #[test]
    fn health_paths() {
        assert_eq!(endpoint_of("/readyz"), Some(("readyz", None)));
        assert_eq!(endpoint_of("/livez/ping"), Some(("livez", Some("ping"))));
        assert_eq!(
            endpoint_of("/readyz/poststarthook/x"),
            Some(("readyz", Some("poststarthook/x")))
        );
        assert_eq!(endpoint_of("/readyzfoo"), None);
        assert_eq!(endpoint_of("/version"), None);
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("poststarthook%2Fx"), "poststarthook/x");
        assert_eq!(percent_decode("a%zz"), "a%zz");
        assert_eq!(percent_decode("%"), "%");
    }
}
