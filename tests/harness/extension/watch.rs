//! Watches: a chunked stream of `{"type","object"}` lines, ADDED for what exists first
//! (or the changes after a given resourceVersion), then every change as it happens, until
//! the client goes, `timeoutSeconds` pass, or the server stops.

use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::{Channel, Either};
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::reply::{bad_request, Call};
use super::rest::{filter_of, Target};
use super::store::{Event, Store};
use super::{table, Resp, Shared};

pub(crate) fn serve(store: &Store, call: &Call, t: &Target, shared: &Shared) -> Resp {
    let filter = match filter_of(call, t) {
        Ok(f) => f,
        Err(r) => return r,
    };
    let from = match call.param("resourceVersion").unwrap_or("") {
        "" | "0" => None,
        rv => match rv.parse::<u64>() {
            Ok(rv) => Some(rv),
            Err(_) => return bad_request(&format!("invalid resource version: {rv}")),
        },
    };
    let timeout = match call.param("timeoutSeconds").map(str::parse::<u64>) {
        None => None,
        Some(Ok(s)) => Some(Duration::from_secs(s)),
        Some(Err(_)) => return bad_request("timeoutSeconds must be a whole number of seconds"),
    };
    let as_table = table::wants_table(call.accept());
    // The row shape a Table event needs is decided now, from the request.
    let include = call.param("includeObject").unwrap_or("Metadata").to_owned();
    let (first, mut live) = store.watch(&filter, from);
    let mut stop = shared.generation.subscribe();
    let (mut tx, body) = Channel::<Bytes>::new(16);
    tokio::spawn(async move {
        let mut with_columns = true;
        let mut encode = |e: &Event| -> Bytes {
            let object = if as_table {
                let t = table_event(&e.object, e.rv, &include, with_columns);
                with_columns = false;
                t
            } else {
                e.object.clone()
            };
            let mut line =
                serde_json::to_vec(&json!({"type": e.ty, "object": object})).unwrap_or_default();
            line.push(b'\n');
            Bytes::from(line)
        };
        for e in &first {
            if tx.send_data(encode(e)).await.is_err() {
                return;
            }
        }
        let deadline = timeout.map(|d| tokio::time::Instant::now() + d);
        loop {
            let until = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d).await,
                    None => std::future::pending().await,
                }
            };
            let event = tokio::select! {
                _ = stop.changed() => return,
                () = until => return,
                e = live.recv() => e,
            };
            match event {
                Ok(e) if filter.matches(e.kind, &e.object) => {
                    if tx.send_data(encode(&e)).await.is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                // Too far behind: say so as upstream does (410 Expired) and end.
                Err(RecvError::Lagged(_)) => {
                    let expired = json!({"type": "ERROR", "object": {
                        "kind": "Status", "apiVersion": "v1", "metadata": {},
                        "status": "Failure", "reason": "Expired", "code": 410,
                        "message": "too old resource version"}});
                    let _ = tx.send_data(Bytes::from(format!("{expired}\n"))).await;
                    return;
                }
                Err(RecvError::Closed) => return,
            }
        }
    });
    let mut resp = Response::new(Either::Right(body));
    *resp.status_mut() = StatusCode::OK;
    let ct = if as_table {
        table::TABLE_TYPE
    } else {
        "application/json"
    };
    resp.headers_mut()
        .insert(http::header::CONTENT_TYPE, HeaderValue::from_static(ct));
    resp
}

/// A watch event's object as a one-row Table.
fn table_event(obj: &Value, rv: u64, include: &str, with_columns: bool) -> Value {
    table::table_for(std::slice::from_ref(obj), rv, include, with_columns)
}
