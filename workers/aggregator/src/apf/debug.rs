//! `/debug/api_priority_and_fairness/dump_{priority_levels,queues,requests}`: upstream's
//! plain-text tables of the levels, their queues and the requests in them (cells ended by
//! `,` and aligned as Go's tabwriter aligns them). Authorized like any non-resource path.

use std::time::SystemTime;

use http::{HeaderValue, Response};
use kas_server::body::{self, Body};

use super::Apf;

const PREFIX: &str = "/debug/api_priority_and_fairness/";

/// Whether `path` is one of the dumps.
pub(crate) fn owns(path: &str) -> bool {
    path.strip_prefix(PREFIX).is_some_and(|rest| {
        matches!(
            rest,
            "dump_priority_levels" | "dump_queues" | "dump_requests"
        )
    })
}

/// The dump at `path`.
pub(crate) fn respond(apf: &Apf, path: &str, query: Option<&str>) -> Response<Body> {
    let rows = match path.strip_prefix(PREFIX).unwrap_or("") {
        "dump_priority_levels" => priority_levels(apf),
        "dump_queues" => queues(apf),
        _ => {
            let details = query.is_some_and(|q| {
                form_urlencoded::parse(q.as_bytes())
                    .any(|(k, v)| k == "includeRequestDetails" && !v.is_empty())
            });
            requests(apf, details)
        }
    };
    let mut resp = Response::new(body::full(tabulate(&rows)));
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp
}

fn priority_levels(apf: &Apf) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "PriorityLevelName",
        "ActiveQueues",
        "IsIdle",
        "IsQuiescing",
        "WaitingRequests",
        "ExecutingRequests",
        "DispatchedRequests",
        "RejectedRequests",
        "TimedoutRequests",
        "CancelledRequests",
    ]
    .map(String::from)
    .to_vec()];
    for (name, level) in &apf.snapshot().levels {
        let d = level.set.dump();
        let active = d.queues.iter().filter(|q| !q.waiting.is_empty()).count();
        rows.push(vec![
            name.clone(),
            active.to_string(),
            (d.waiting == 0 && d.executing == 0).to_string(),
            level.quiescing.to_string(),
            d.waiting.to_string(),
            d.executing.to_string(),
            d.totals.dispatched.to_string(),
            d.totals.rejected.to_string(),
            d.totals.timed_out.to_string(),
            d.totals.cancelled.to_string(),
        ]);
    }
    rows
}

fn queues(apf: &Apf) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "PriorityLevelName",
        "Index",
        "PendingRequests",
        "ExecutingRequests",
        "SeatsInUse",
        "NextDispatchR",
        "InitialSeatsSum",
        "MaxSeatsSum",
        "TotalWorkSum",
    ]
    .map(String::from)
    .to_vec()];
    for (name, level) in &apf.snapshot().levels {
        for (i, q) in level.set.dump().queues.iter().enumerate() {
            rows.push(vec![
                name.clone(),
                i.to_string(),
                q.waiting.len().to_string(),
                q.executing.len().to_string(),
                q.seats_in_use.to_string(),
                seat_seconds(q.next_dispatch_r),
                q.waiting_seats.to_string(),
                q.waiting_seats.to_string(),
                seat_seconds(q.waiting_seats as f64 * super::queueset::ESTIMATED_SERVICE),
            ]);
        }
    }
    rows
}

fn requests(apf: &Apf, details: bool) -> Vec<Vec<String>> {
    let mut header: Vec<String> = [
        "PriorityLevelName",
        "FlowSchemaName",
        "QueueIndex",
        "RequestIndexInQueue",
        "FlowDistingsher",
        "ArriveTime",
        "InitialSeats",
        "FinalSeats",
        "AdditionalLatency",
        "StartTime",
    ]
    .map(String::from)
    .to_vec();
    if details {
        header.extend(
            [
                "UserName",
                "Verb",
                "APIPath",
                "Namespace",
                "Name",
                "APIVersion",
                "Resource",
                "SubResource",
            ]
            .map(String::from),
        );
    }
    let mut rows = vec![header];
    for (name, level) in &apf.snapshot().levels {
        let d = level.set.dump();
        let mut row = |queue: i64, index: i64, r: &super::queueset::Descr, start: SystemTime| {
            let mut cells = vec![
                name.clone(),
                r.schema.to_string(),
                queue.to_string(),
                index.to_string(),
                r.distinguisher.clone(),
                rfc3339(r.arrived),
                r.work.initial.to_string(),
                r.work.final_seats.to_string(),
                go_duration(r.work.extra),
                rfc3339(start),
            ];
            if details {
                let i = &r.info;
                let gv = if i.api_group.is_empty() {
                    i.api_version.clone()
                } else {
                    format!("{}/{}", i.api_group, i.api_version)
                };
                cells.extend([
                    r.user.clone(),
                    i.verb.clone(),
                    i.path.clone(),
                    i.namespace.clone(),
                    i.name.clone(),
                    gv,
                    i.resource.clone(),
                    i.subresource.clone(),
                ]);
            }
            rows.push(cells);
        };
        for (qi, q) in d.queues.iter().enumerate() {
            for (ri, r) in q.waiting.iter().enumerate() {
                // Not started: Go prints the zero time.
                row(qi as i64, ri as i64, r, SystemTime::UNIX_EPOCH);
            }
            for (r, started) in &q.executing {
                row(qi as i64, -1, r, *started);
            }
        }
        for (r, started) in &d.queueless {
            row(-1, -1, r, *started);
        }
    }
    rows
}

/// A duration as Go prints one (`0s`, `5ms`, `7.5ms`, `1.2s`).
fn go_duration(d: std::time::Duration) -> String {
    let ns = d.as_nanos();
    match ns {
        0 => "0s".into(),
        1..=999 => format!("{ns}ns"),
        1_000..=999_999 => format!("{}µs", trim(ns as f64 / 1e3)),
        1_000_000..=999_999_999 => format!("{}ms", trim(ns as f64 / 1e6)),
        _ => format!("{}s", trim(ns as f64 / 1e9)),
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.9}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Seat-seconds as upstream prints them: nine decimals, then `ss`.
fn seat_seconds(v: f64) -> String {
    format!("{v:.9}ss")
}

fn rfc3339(t: SystemTime) -> String {
    if t == SystemTime::UNIX_EPOCH {
        return "0001-01-01T00:00:00Z".into();
    }
    humantime::format_rfc3339_nanos(t).to_string()
}

/// Rows as `cell,` columns padded to a common width (at least 8, one space past the
/// widest), the last cell of a row unpadded.
fn tabulate(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![8usize; columns];
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(row.len().saturating_sub(1)) {
            widths[i] = widths[i].max(cell.chars().count() + 2);
        }
    }
    let mut out = String::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == row.len() {
                out.push_str(cell);
            } else {
                let text = format!("{cell},");
                out.push_str(&format!("{text:<width$}", width = widths[i]));
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_as_tabwriter() {
        let rows = vec![
            vec![
                "PriorityLevelName".into(),
                "ActiveQueues".into(),
                "IsIdle".into(),
            ],
            vec!["exempt".into(), "0".into(), "true".into()],
        ];
        assert_eq!(
            tabulate(&rows),
            "PriorityLevelName, ActiveQueues, IsIdle\nexempt,            0,            true\n"
        );
        assert!(owns("/debug/api_priority_and_fairness/dump_queues"));
        assert!(!owns("/debug/api_priority_and_fairness/other"));
    }
}
