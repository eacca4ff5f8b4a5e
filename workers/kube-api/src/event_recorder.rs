//! Events the server's own controllers record about objects (`events.k8s.io/v1`), as
//! client-go's `tools/events` recorder writes them for kube-apiserver's repair
//! controllers: named `<object>.<unix nanoseconds in hex>` in the object's namespace,
//! with `eventTime`, the reporting controller and instance (`<controller>-<host name>`),
//! action, reason, note, type and the `regarding` reference.
//!
//! The same event again (same controller, action, reason, note and object) is a series,
//! as upstream's broadcaster makes it: the second occurrence writes `series: {count: 2,
//! lastObservedTime}`; later ones only count, and the count is written when the series
//! has been quiet for 6 minutes (it then ends) or every 30 minutes while it goes on. A
//! single event is forgotten 6 minutes after it happened, so a later one starts anew.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use kas_server::rest::{RestStore, WriteOptions};
use serde_json::{json, Value};

/// How long an event or series stays open after it was last seen (upstream's finishTime).
const FINISH: Duration = Duration::from_secs(6 * 60);
/// How often an open series' count is written (upstream's refreshTime).
const REFRESH: Duration = Duration::from_secs(30 * 60);

/// What makes two events the same (upstream's eventKey).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    action: String,
    reason: String,
    note: String,
    regarding: String,
}

#[derive(Debug, Clone)]
struct Open {
    /// The event as last written.
    event: Value,
    /// The series' count (1: a single event so far) and last time seen.
    count: u64,
    last: SystemTime,
    /// The count last written.
    written: u64,
}

/// A controller's recorder.
#[derive(Clone)]
pub(crate) struct Recorder {
    events: RestStore,
    controller: &'static str,
    open: Arc<Mutex<HashMap<Key, Open>>>,
}

/// `eventTime`'s MicroTime format.
fn micro_time(t: SystemTime) -> String {
    humantime::format_rfc3339_micros(t).to_string()
}

impl Recorder {
    /// A recorder writing through `events` (the events.k8s.io/v1 store) for `controller`;
    /// its open series are closed and refreshed in the background while it lives.
    pub(crate) fn new(events: RestStore, controller: &'static str) -> Recorder {
        let recorder = Recorder {
            events,
            controller,
            open: Arc::default(),
        };
        let weak = Arc::downgrade(&recorder.open);
        let events = recorder.events.clone();
        tokio::spawn(async move {
            let mut since_refresh = Duration::ZERO;
            loop {
                tokio::time::sleep(FINISH).await;
                let Some(open) = weak.upgrade() else { return };
                since_refresh += FINISH;
                let refresh = since_refresh >= REFRESH;
                if refresh {
                    since_refresh = Duration::ZERO;
                }
                let live = Recorder {
                    events: events.clone(),
                    controller,
                    open,
                };
                live.tend(refresh).await;
            }
        });
        recorder
    }

    /// A Warning about `regarding`, a stored object of `kind` in `api_version`.
    pub(crate) async fn warn(
        &self,
        (api_version, kind): (&str, &str),
        regarding: &Value,
        reason: &str,
        action: &str,
        note: &str,
    ) {
        let reference = json!({
            "kind": kind,
            "namespace": regarding.pointer("/metadata/namespace"),
            "name": regarding.pointer("/metadata/name"),
            "uid": regarding.pointer("/metadata/uid"),
            "apiVersion": api_version,
            "resourceVersion": regarding.pointer("/metadata/resourceVersion"),
        });
        let key = Key {
            action: action.to_owned(),
            reason: reason.to_owned(),
            note: note.to_owned(),
            regarding: reference.to_string(),
        };
        let now = SystemTime::now();
        let to_write = {
            let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            match open.get_mut(&key) {
                Some(o) => {
                    o.count += 1;
                    o.last = now;
                    // The second occurrence makes the series; later ones only count.
                    (o.count == 2).then(|| with_series(o))
                }
                None => {
                    let event = self.event(&reference, reason, action, note, now);
                    open.insert(
                        key,
                        Open {
                            event: event.clone(),
                            count: 1,
                            last: now,
                            written: 1,
                        },
                    );
                    Some(event)
                }
            }
        };
        if let Some(event) = to_write {
            self.write(event).await;
        }
    }

    fn event(
        &self,
        reference: &Value,
        reason: &str,
        action: &str,
        note: &str,
        now: SystemTime,
    ) -> Value {
        let nanos = now
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let name = reference["name"].as_str().unwrap_or_default();
        let namespace = match reference["namespace"].as_str() {
            Some(ns) if !ns.is_empty() => ns,
            _ => "default",
        };
        json!({
            "apiVersion": "events.k8s.io/v1",
            "kind": "Event",
            "metadata": {"name": format!("{name}.{nanos:x}"), "namespace": namespace},
            "eventTime": micro_time(now),
            "reportingController": self.controller,
            "reportingInstance": format!("{}-{}", self.controller, kas_server::identity::hostname()),
            "action": action,
            "reason": reason,
            "regarding": reference,
            "note": note,
            "type": "Warning",
        })
    }

    /// Creates `event`, or (a series) updates the stored one, created again if it is
    /// gone. Failures are logged: an event is never worth failing its controller.
    async fn write(&self, event: Value) {
        let ns = event
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("default")
            .to_owned();
        let name = event
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let opts = WriteOptions::server(self.controller);
        let result = if event.get("series").is_some() {
            match self.events.read_latest(&ns, &name).await {
                Ok(Some(mut stored)) => {
                    stored["series"] = event["series"].clone();
                    self.events
                        .update_object(&ns, &name, "", stored, None, &opts)
                        .await
                }
                Ok(None) => self.events.create_object(&ns, event, &opts).await,
                Err(e) => Err(e),
            }
        } else {
            self.events.create_object(&ns, event, &opts).await
        };
        if let Err(e) = result {
            tracing::debug!(event = %name, error = %e.message, "event not recorded");
        }
    }

    /// Writes the counts of series that ended (quiet for [`FINISH`]) or, when `refresh`,
    /// of every open series that counted more since; forgets ended series and single
    /// events.
    async fn tend(&self, refresh: bool) {
        let now = SystemTime::now();
        let mut to_write = Vec::new();
        {
            let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            open.retain(|_, o| {
                let ended = now.duration_since(o.last).unwrap_or_default() >= FINISH;
                if o.count > 1 && o.count != o.written && (ended || refresh) {
                    to_write.push(with_series(o));
                }
                !ended
            });
        }
        for event in to_write {
            self.write(event).await;
        }
    }
}

/// The open event with its series as counted now (and marked written).
fn with_series(o: &mut Open) -> Value {
    o.written = o.count;
    o.event["series"] = json!({"count": o.count, "lastObservedTime": micro_time(o.last)});
    o.event.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_counts_and_carries_the_last_time() {
        let mut o = Open {
            event: json!({"metadata": {"name": "svc.1"}}),
            count: 3,
            last: UNIX_EPOCH + Duration::from_micros(1_700_000_000_123_456),
            written: 2,
        };
        let e = with_series(&mut o);
        assert_eq!(e["series"]["count"], 3);
        assert_eq!(
            e["series"]["lastObservedTime"],
            "2023-11-14T22:13:20.123456Z"
        );
        assert_eq!(o.written, 3);
    }
}
