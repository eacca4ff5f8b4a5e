//! A container's probes and lifecycle hooks as kube-apiserver 1.33 validates them
//! (`validateProbe`, `validateHandler`, `validateLifecycle`; facts in
//! /work/notes/validation-spec-7.md §7.13–7.14): exactly one handler (the first of exec,
//! httpGet, tcpSocket, grpc, sleep counts, later ones are forbidden), ports by number or
//! name, HTTP schemes and header names, non-negative timings, liveness and startup
//! probes that succeed once, and sleeps within the pod's grace period.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    each_invalid, forbidden, invalid, invalid_int, invalid_shown, not_supported, port_name_msgs,
    present, range_msg, required, s, show, NEGATIVE_MSG,
};

const HTTP_HEADER_MSG: &str = "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";

/// A port given by number (1–65535) or by name (an IANA service name).
fn port(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let field = format!("{at}.port");
    match v.get("port") {
        Some(Value::String(name)) => out.extend(each_invalid(&field, name, port_name_msgs(name))),
        Some(Value::Number(n)) => {
            let n = n.as_i64().unwrap_or(0);
            if !(1..=65535).contains(&n) {
                out.push(invalid_int(&field, n, &range_msg(1, 65535)));
            }
        }
        None | Some(Value::Null) => out.push(invalid_int(&field, 0, &range_msg(1, 65535))),
        Some(other) => out.push(invalid_shown(&field, &show(other), &range_msg(1, 65535))),
    }
}

/// One handler's own rules at `at.<kind>`.
fn handler_kind(kind: &str, h: &Value, at: &str, grace: Option<i64>, out: &mut Vec<StatusCause>) {
    let kp = format!("{at}.{kind}");
    match kind {
        "exec"
            if h.get("command")
                .and_then(Value::as_array)
                .is_none_or(Vec::is_empty) =>
        {
            out.push(required(&format!("{kp}.command"), ""));
        }
        "httpGet" => {
            if s(h, "path").unwrap_or("").is_empty() {
                out.push(required(&format!("{kp}.path"), ""));
            }
            port(h, &kp, out);
            let scheme = s(h, "scheme").unwrap_or("");
            if !["HTTP", "HTTPS"].contains(&scheme) {
                out.push(not_supported(
                    &format!("{kp}.scheme"),
                    scheme,
                    &["HTTP", "HTTPS"],
                ));
            }
            let headers = h.get("httpHeaders").and_then(Value::as_array);
            for header in headers.into_iter().flatten() {
                let name = s(header, "name").unwrap_or("");
                let ok = !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
                if !ok {
                    out.push(invalid(&format!("{kp}.httpHeaders"), name, HTTP_HEADER_MSG));
                }
            }
        }
        "tcpSocket" | "grpc" => port(h, &kp, out),
        "sleep" => {
            let secs = h.get("seconds").and_then(Value::as_i64).unwrap_or(0);
            if let Some(grace) = grace {
                if secs < 0 || secs > grace {
                    out.push(invalid_int(
                        &kp,
                        secs,
                        &format!("must be non-negative and less than terminationGracePeriodSeconds ({grace})"),
                    ));
                }
            }
        }
        _ => {}
    }
}

/// validateHandler at `at`: the first handler present is validated, later ones are
/// forbidden, none at all is required.
fn handler(v: &Value, at: &str, grace: Option<i64>, kinds: &[&str], out: &mut Vec<StatusCause>) {
    let mut counted = false;
    for kind in kinds {
        let Some(h) = present(v, kind) else {
            continue;
        };
        if counted {
            out.push(forbidden(
                &format!("{at}.{kind}"),
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        counted = true;
        handler_kind(kind, h, at, grace, out);
    }
    if !counted {
        out.push(required(at, "must specify a handler type"));
    }
}

/// Which probe a container carries.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Probe {
    Liveness,
    Readiness,
    Startup,
}

impl Probe {
    pub(super) const ALL: [(Probe, &'static str); 3] = [
        (Probe::Liveness, "livenessProbe"),
        (Probe::Readiness, "readinessProbe"),
        (Probe::Startup, "startupProbe"),
    ];
}

/// A probe at `at` (validateProbe and its liveness/readiness/startup wrappers).
pub(super) fn probe(
    kind: Probe,
    p: &Value,
    at: &str,
    grace: Option<i64>,
    out: &mut Vec<StatusCause>,
) {
    handler(p, at, grace, &["exec", "httpGet", "tcpSocket", "grpc"], out);
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        if let Some(n) = p.get(key).and_then(Value::as_i64).filter(|n| *n < 0) {
            out.push(invalid_int(&format!("{at}.{key}"), n, NEGATIVE_MSG));
        }
    }
    let grace_at = format!("{at}.terminationGracePeriodSeconds");
    let own_grace = p
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if let Some(g) = own_grace.filter(|g| *g <= 0) {
        out.push(invalid_int(&grace_at, g, "must be greater than 0"));
    }
    match kind {
        Probe::Liveness | Probe::Startup => {
            let success = p
                .get("successThreshold")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if success != 1 {
                out.push(invalid_int(
                    &format!("{at}.successThreshold"),
                    success,
                    "must be 1",
                ));
            }
        }
        Probe::Readiness => {
            if let Some(g) = own_grace {
                out.push(invalid_int(
                    &grace_at,
                    g,
                    "must not be set for readinessProbes",
                ));
            }
        }
    }
}

/// A container's `lifecycle` at `at`: its hooks' handlers (sleep bounded by the pod's
/// grace period).
pub(super) fn lifecycle(lc: &Value, at: &str, grace: Option<i64>, out: &mut Vec<StatusCause>) {
    for hook in ["postStart", "preStop"] {
        if let Some(h) = present(lc, hook) {
            handler(
                h,
                &format!("{at}.{hook}"),
                grace,
                &["exec", "httpGet", "tcpSocket", "grpc", "sleep"],
                out,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    #[test]
    fn probes_and_hooks_follow_upstream() {
        let mut out = Vec::new();
        let c = "spec.containers[0]";
        lifecycle(
            &json!({"postStart": {"exec": {"command": []}, "sleep": {"seconds": 1}},
                "preStop": {"sleep": {"seconds": 31}}}),
            &format!("{c}.lifecycle"),
            Some(30),
            &mut out,
        );
        probe(
            Probe::Liveness,
            &json!({"httpGet": {"path": "/", "port": 0, "scheme": "FTP",
                "httpHeaders": [{"name": "X Bad", "value": "1"}]},
                "tcpSocket": {"port": 80}, "initialDelaySeconds": -1, "successThreshold": 3,
                "terminationGracePeriodSeconds": 0}),
            &format!("{c}.livenessProbe"),
            Some(30),
            &mut out,
        );
        probe(
            Probe::Readiness,
            &json!({"successThreshold": 1}),
            &format!("{c}.readinessProbe"),
            Some(30),
            &mut out,
        );
        probe(
            Probe::Startup,
            &json!({"grpc": {"port": 70000}, "failureThreshold": -2, "successThreshold": 1}),
            &format!("{c}.startupProbe"),
            Some(30),
            &mut out,
        );
        probe(
            Probe::Readiness,
            &json!({"tcpSocket": {"port": "80"}, "terminationGracePeriodSeconds": 10}),
            "r",
            Some(30),
            &mut out,
        );
        assert_eq!(
            messages(&out),
            [
                format!("{c}.lifecycle.postStart.exec.command: Required value"),
                format!("{c}.lifecycle.postStart.sleep: Forbidden: may not specify more than 1 handler type"),
                format!("{c}.lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)"),
                format!("{c}.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"),
                format!("{c}.livenessProbe.httpGet.scheme: Unsupported value: \"FTP\": supported values: \"HTTP\", \"HTTPS\""),
                format!("{c}.livenessProbe.httpGet.httpHeaders: Invalid value: \"X Bad\": {HTTP_HEADER_MSG}"),
                format!("{c}.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"),
                format!("{c}.livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0"),
                format!("{c}.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0"),
                format!("{c}.livenessProbe.successThreshold: Invalid value: 3: must be 1"),
                format!("{c}.readinessProbe: Required value: must specify a handler type"),
                format!("{c}.startupProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive"),
                format!("{c}.startupProbe.failureThreshold: Invalid value: -2: must be greater than or equal to 0"),
                "r.tcpSocket.port: Invalid value: \"80\": must contain at least one letter (a-z)".to_owned(),
                "r.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes".to_owned(),
            ]
        );
    }
}
