//! `kubectl get` output: Flunders and Fischers as meta.k8s.io/v1 Tables with NAME and AGE
//! columns, when the client's Accept asks for `as=Table;g=meta.k8s.io`.

use bytes::Bytes;
use http::StatusCode;
use serde_json::{json, Value};

use super::reply::{respond, Call};
use super::Resp;

/// The media type of a Table answer.
pub(crate) const TABLE_TYPE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

/// Whether an Accept clause asks for a Table.
pub(crate) fn wants_table(accept: &str) -> bool {
    accept.split(',').any(|clause| {
        let params: Vec<&str> = clause.split(';').map(str::trim).collect();
        params.contains(&"as=Table") && params.contains(&"g=meta.k8s.io")
    })
}

/// Days since the epoch of a civil date (the inverse of `store::rfc3339`'s algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Seconds since the epoch of `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn parse_rfc3339(ts: &str) -> Option<i64> {
    let n = |r: std::ops::Range<usize>| ts.get(r)?.parse::<i64>().ok();
    let days = days_from_civil(n(0..4)?, n(5..7)?, n(8..10)?);
    Some(days * 86_400 + n(11..13)? * 3600 + n(14..16)? * 60 + n(17..19)?)
}

/// kubectl's short human duration (`5s`, `3m2s`, `4h`, `2d3h`, …).
pub(crate) fn human(secs: i64) -> String {
    let s = secs.max(0);
    match s {
        s if s < 120 => format!("{s}s"),
        s if s < 600 => format!("{}m{}s", s / 60, s % 60),
        s if s < 3 * 3600 => format!("{}m", s / 60),
        s if s < 8 * 3600 && s / 60 % 60 != 0 => format!("{}h{}m", s / 3600, s / 60 % 60),
        s if s < 48 * 3600 => format!("{}h", s / 3600),
        s if s < 8 * 86_400 && s / 3600 % 24 != 0 => {
            format!("{}d{}h", s / 86_400, s / 3600 % 24)
        }
        s => format!("{}d", s / 86_400),
    }
}

fn age(obj: &Value) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    match obj["metadata"]["creationTimestamp"]
        .as_str()
        .and_then(parse_rfc3339)
    {
        Some(t) => human(now - t),
        None => "<unknown>".to_owned(),
    }
}

/// The Table of `items`; column definitions only when `with_columns` (a watch sends them
/// in its first event only).
pub(crate) fn table(call: &Call, items: &[Value], rv: u64, with_columns: bool) -> Value {
    let include = call.param("includeObject").unwrap_or("Metadata");
    table_for(items, rv, include, with_columns)
}

/// The Table of `items` with rows' objects as `include` says (`None`, `Metadata`,
/// `Object`).
pub(crate) fn table_for(items: &[Value], rv: u64, include: &str, with_columns: bool) -> Value {
    let rows: Vec<Value> = items
        .iter()
        .map(|obj| {
            let mut row = json!({"cells": [obj["metadata"]["name"], age(obj)]});
            match include {
                "None" => {}
                "Object" => row["object"] = obj.clone(),
                _ => {
                    row["object"] = json!({
                        "kind": "PartialObjectMetadata",
                        "apiVersion": "meta.k8s.io/v1",
                        "metadata": obj["metadata"],
                    })
                }
            }
            row
        })
        .collect();
    let mut t = json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": rv.to_string()},
        "rows": rows,
    });
    if with_columns {
        t["columnDefinitions"] = json!([
            {"name": "Name", "type": "string", "format": "name", "priority": 0,
             "description": "Name must be unique within a namespace."},
            {"name": "Age", "type": "date", "format": "", "priority": 0,
             "description": "The time since the object was created."},
        ]);
    }
    t
}

pub(crate) fn response(call: &Call, items: &[Value], rv: u64, with_columns: bool) -> Resp {
    let t = table(call, items, rv, with_columns);
    respond(
        StatusCode::OK,
        TABLE_TYPE,
        Bytes::from(serde_json::to_vec(&t).unwrap_or_default()),
    )
}
