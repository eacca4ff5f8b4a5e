//! `--audit-*-truncate-*`, as upstream's truncate backend: an event larger than
//! `max_event_size` (serialised) loses its request and response objects and is marked
//! `audit.k8s.io/truncated: "true"`; one still too large (or too large at Metadata level,
//! with nothing to strip) is dropped; a batch is cut so that each piece's events add up
//! to at most `max_batch_size` (a single event always goes through).
//!
//! Upstream wraps the buffering with this, so it only ever sees one event at a time and
//! never cuts a batch; here it runs on each batch the buffer hands out, which is what
//! `max-batch-size` is for.

use std::sync::Arc;

use kas_proto::{AuditLevel, AuditTruncate};

use super::super::Event;

const ANNOTATION: &str = "audit.k8s.io/truncated";

/// `events` cut into pieces within the limits, and how many were dropped (with the
/// first dropped event's audit ID, for the warning).
pub(super) struct Split {
    pub(super) batches: Vec<Vec<Arc<Event>>>,
    pub(super) dropped: usize,
    pub(super) first_dropped: Option<String>,
}

pub(super) fn split(events: Vec<Arc<Event>>, limits: &AuditTruncate, version: &str) -> Split {
    let mut out = Split {
        batches: Vec::new(),
        dropped: 0,
        first_dropped: None,
    };
    let mut batch = Vec::new();
    let mut batch_size = 0u64;
    for mut event in events {
        let mut size = size_of(&event, version);
        if size > limits.max_event_size && event.level >= AuditLevel::Request {
            event = Arc::new(truncated(&event));
            size = size_of(&event, version);
        }
        if size > limits.max_event_size {
            out.dropped += 1;
            out.first_dropped
                .get_or_insert_with(|| event.audit_id.clone());
            continue;
        }
        if !batch.is_empty() && batch_size + size > limits.max_batch_size {
            out.batches.push(std::mem::take(&mut batch));
            batch_size = 0;
        }
        batch_size += size;
        batch.push(event);
    }
    if !batch.is_empty() {
        out.batches.push(batch);
    }
    out
}

/// The bytes upstream's encoder writes for `e`: its JSON and a newline.
fn size_of(e: &Event, version: &str) -> u64 {
    e.to_json(version).len() as u64 + 1
}

/// `e` without its request and response objects, marked truncated.
fn truncated(e: &Event) -> Event {
    let mut annotations = e.annotations.clone();
    annotations.insert(ANNOTATION.to_owned(), "true".to_owned());
    Event {
        level: e.level,
        audit_id: e.audit_id.clone(),
        stage: e.stage,
        request_uri: e.request_uri.clone(),
        verb: e.verb.clone(),
        user: e.user.clone(),
        impersonated_user: e.impersonated_user.clone(),
        source_ips: e.source_ips.clone(),
        user_agent: e.user_agent.clone(),
        object_ref: e.object_ref.clone(),
        response_status: e.response_status.clone(),
        request_object: None,
        response_object: None,
        request_received_timestamp: e.request_received_timestamp,
        stage_timestamp: e.stage_timestamp,
        annotations,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_event;
    use super::*;
    use serde_json::value::RawValue;

    const V1: &str = "audit.k8s.io/v1";

    fn with_objects(id: &str, level: AuditLevel, object_bytes: usize) -> Arc<Event> {
        let mut e = test_event(id);
        e.level = level;
        let obj = format!(r#"{{"data":"{}"}}"#, "x".repeat(object_bytes));
        e.request_object = Some(RawValue::from_string(obj.clone()).unwrap());
        e.response_object = Some(RawValue::from_string(obj).unwrap());
        Arc::new(e)
    }

    #[test]
    fn small_events_pass_unchanged_in_one_batch() {
        let events = vec![with_objects("a", AuditLevel::RequestResponse, 10); 3];
        let limits = AuditTruncate {
            max_event_size: 100_000,
            max_batch_size: 10_000_000,
        };
        let s = split(events.clone(), &limits, V1);
        assert_eq!(s.dropped, 0);
        assert_eq!(s.batches.len(), 1);
        assert!(Arc::ptr_eq(&s.batches[0][0], &events[0]));
    }

    #[test]
    fn a_large_event_loses_its_objects() {
        let big = with_objects("big", AuditLevel::RequestResponse, 5000);
        let limits = AuditTruncate {
            max_event_size: 2000,
            max_batch_size: 10_000_000,
        };
        let s = split(vec![big], &limits, V1);
        assert_eq!(s.dropped, 0);
        let e = &s.batches[0][0];
        assert!(e.request_object.is_none() && e.response_object.is_none());
        let v: serde_json::Value = serde_json::from_slice(&e.to_json(V1)).unwrap();
        assert_eq!(v["annotations"]["audit.k8s.io/truncated"], "true");
        assert_eq!(v["annotations"]["authorization.k8s.io/decision"], "allow");
        assert_eq!(v["auditID"], "big");
    }

    #[test]
    fn too_large_events_are_dropped() {
        // Metadata level has no objects to strip; a long URI survives stripping.
        let mut meta = test_event("meta");
        meta.request_uri = format!("/api/v1/{}", "x".repeat(3000));
        let mut uri = (*with_objects("uri", AuditLevel::Request, 10)).clone();
        uri.request_uri = meta.request_uri.clone();
        let limits = AuditTruncate {
            max_event_size: 2000,
            max_batch_size: 10_000_000,
        };
        let ok = with_objects("ok", AuditLevel::Request, 10);
        let s = split(vec![Arc::new(meta), Arc::new(uri), ok], &limits, V1);
        assert_eq!(s.dropped, 2);
        assert_eq!(s.first_dropped.as_deref(), Some("meta"));
        assert_eq!(s.batches.len(), 1);
        assert_eq!(s.batches[0][0].audit_id, "ok");
    }

    #[test]
    fn batches_are_cut_to_max_batch_size() {
        let e = with_objects("e", AuditLevel::Metadata, 0);
        let one = size_of(&e, V1);
        // Room for two events per piece, not three.
        let limits = AuditTruncate {
            max_event_size: one,
            max_batch_size: 2 * one + one / 2,
        };
        let s = split(vec![e; 5], &limits, V1);
        let sizes: Vec<usize> = s.batches.iter().map(Vec::len).collect();
        assert_eq!(sizes, [2, 2, 1]);
        // A single event larger than the batch limit still goes, alone.
        let limits = AuditTruncate {
            max_event_size: one,
            max_batch_size: 1,
        };
        let s = split(
            vec![with_objects("e", AuditLevel::Metadata, 0); 2],
            &limits,
            V1,
        );
        assert_eq!(s.batches.iter().map(Vec::len).collect::<Vec<_>>(), [1, 1]);
    }
}
