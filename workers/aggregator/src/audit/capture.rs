//! What auditing copies out of a request as it passes: the request body as the worker
//! reads it, the response body as the client receives it, both turned into the JSON
//! objects an event records (`requestObject`, `responseObject`, a failure's
//! `responseStatus`), whatever media type they travelled in.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body as _, Frame};
use kas_server::body::{Body, BoxError};
use serde_json::value::RawValue;
use serde_json::Value;

/// The most of a request body kept for its event: kube-apiserver's request size limit.
pub(crate) const MAX_REQUEST: usize = 3 * 1024 * 1024;
/// The most of a failed response kept to find its `Status`.
pub(crate) const MAX_STATUS: usize = 64 * 1024;
/// The most of a response body kept for `responseObject` (a larger one is left out, and
/// the event says so in an annotation).
pub(crate) const MAX_RESPONSE: usize = 64 * 1024 * 1024;

/// A gzip body decompressed, None when it is not gzip or holds more than `limit` bytes.
pub(crate) fn gunzip(zipped: &[u8], limit: usize) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(zipped)
        .take(limit as u64 + 1)
        .read_to_end(&mut plain)
        .ok()?;
    (plain.len() <= limit).then_some(plain)
}

/// Bytes copied from a body, shared between the body (which fills it) and the event.
#[derive(Debug, Default, Clone)]
pub(crate) struct Copied(Arc<Mutex<CopiedBytes>>);

#[derive(Debug, Default)]
struct CopiedBytes {
    bytes: Vec<u8>,
    /// The body was larger than the limit: what was kept is not the whole of it.
    overflowed: bool,
    /// The body ended cleanly.
    complete: bool,
}

impl Copied {
    /// The whole body, if it ended cleanly within the limit.
    pub(crate) fn take(&self) -> Option<Vec<u8>> {
        let mut c = self.0.lock().ok()?;
        if c.overflowed || !c.complete {
            return None;
        }
        Some(std::mem::take(&mut c.bytes))
    }

    /// Whether the body outgrew the limit.
    pub(crate) fn overflowed(&self) -> bool {
        self.0.lock().map(|c| c.overflowed).unwrap_or(false)
    }

    fn push(&self, data: &[u8], limit: usize) {
        if let Ok(mut c) = self.0.lock() {
            if c.overflowed {
                return;
            }
            if c.bytes.len() + data.len() > limit {
                c.overflowed = true;
                c.bytes = Vec::new();
            } else {
                c.bytes.extend_from_slice(data);
            }
        }
    }

    fn finish(&self) {
        if let Ok(mut c) = self.0.lock() {
            c.complete = true;
        }
    }
}

/// A body that copies what passes through it (up to `limit` bytes), and runs `on_drop`
/// once it is dropped: when the client has it all, or has gone.
pub(crate) struct Tee {
    inner: Body,
    copy: Option<(Copied, usize)>,
    on_drop: Option<Box<dyn FnOnce() + Send>>,
}

impl Tee {
    /// Wraps `inner`; `copy` receives its bytes when given.
    pub(crate) fn wrap(
        inner: Body,
        copy: Option<(Copied, usize)>,
        on_drop: Option<Box<dyn FnOnce() + Send>>,
    ) -> Body {
        kas_server::body::boxed(Tee {
            inner,
            copy,
            on_drop,
        })
    }
}

impl hyper::body::Body for Tee {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Some((copy, limit)) = &self.copy {
            match &polled {
                Poll::Ready(Some(Ok(frame))) => {
                    if let Some(data) = frame.data_ref() {
                        copy.push(data, *limit);
                    }
                }
                Poll::Ready(None) => copy.finish(),
                _ => {}
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Tee {
    fn drop(&mut self) {
        // An empty body is never polled to its end: it is complete as it is.
        if let Some((copy, _)) = &self.copy {
            if self.inner.is_end_stream() {
                copy.finish();
            }
        }
        if let Some(f) = self.on_drop.take() {
            f();
        }
    }
}

/// `bytes` of `content_type` as one JSON value, in the JSON an event records: JSON as it
/// is, YAML and Kubernetes protobuf converted; `metadata.managedFields` removed (from a
/// list's items too) when `omit_managed_fields`. `None` for a media type or body that
/// is not an object.
pub(crate) fn object_json(
    content_type: Option<&str>,
    bytes: &[u8],
    omit_managed_fields: bool,
) -> Option<Box<RawValue>> {
    if bytes.is_empty() {
        return None;
    }
    let media = content_type
        .unwrap_or("application/json")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let value = if media == "application/json" || media.ends_with("+json") || media.is_empty() {
        if !omit_managed_fields {
            let text = std::str::from_utf8(bytes).ok()?;
            return RawValue::from_string(text.trim().to_owned()).ok();
        }
        serde_json::from_slice::<Value>(bytes).ok()?
    } else if media == "application/yaml" || media.ends_with("+yaml") {
        serde_yaml_ng::from_slice::<Value>(bytes).ok()?
    } else if media == "application/vnd.kubernetes.protobuf" {
        kas_schema::decode_protobuf(bytes).ok()?
    } else {
        return None;
    };
    let mut value = value;
    if omit_managed_fields {
        strip_managed_fields(&mut value);
    }
    RawValue::from_string(value.to_string()).ok()
}

/// Removes `metadata.managedFields` from an object, or from each item of a list.
fn strip_managed_fields(v: &mut Value) {
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
    }
    if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
        for item in items {
            if let Some(meta) = item.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.remove("managedFields");
            }
        }
    }
}

/// An event's `responseStatus`: the failure's `Status` fields (status, message, reason,
/// details) when the body is one, and the code.
pub(crate) fn response_status(
    code: u16,
    body: Option<(Option<&str>, &[u8])>,
) -> Option<Box<RawValue>> {
    let mut status = serde_json::Map::new();
    status.insert("metadata".into(), Value::Object(Default::default()));
    let parsed = body.and_then(|(ct, bytes)| {
        let raw = object_json(ct, bytes, false)?;
        serde_json::from_str::<Value>(raw.get()).ok()
    });
    if let Some(Value::Object(obj)) = parsed {
        if obj.get("kind").and_then(Value::as_str) == Some("Status") {
            for key in ["status", "message", "reason", "details"] {
                if let Some(v) = obj.get(key) {
                    status.insert(key.into(), v.clone());
                }
            }
        }
    }
    status.insert("code".into(), Value::from(code));
    serde_json::value::to_raw_value(&Value::Object(status)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[test]
    fn compressed_responses_are_read_back() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"{\"kind\":\"List\"}").unwrap();
        let zipped = gz.finish().unwrap();
        assert_eq!(
            gunzip(&zipped, 100).as_deref(),
            Some(&b"{\"kind\":\"List\"}"[..])
        );
        assert_eq!(gunzip(&zipped, 5), None, "over the limit");
        assert_eq!(gunzip(b"not gzip", 100), None);
    }

    #[test]
    fn objects_from_each_media_type() {
        let json = br#"{"kind":"Pod","metadata":{"name":"p","managedFields":[{"manager":"k"}]}}"#;
        let kept = object_json(Some("application/json"), json, false).unwrap();
        assert_eq!(kept.get(), std::str::from_utf8(json).unwrap());
        let stripped = object_json(Some("application/json; charset=utf-8"), json, true).unwrap();
        assert_eq!(stripped.get(), r#"{"kind":"Pod","metadata":{"name":"p"}}"#);
        let list = br#"{"kind":"PodList","items":[{"metadata":{"name":"a","managedFields":[]}}]}"#;
        let stripped = object_json(None, list, true).unwrap();
        assert_eq!(
            stripped.get(),
            r#"{"items":[{"metadata":{"name":"a"}}],"kind":"PodList"}"#
        );
        let yaml = b"kind: ConfigMap\ndata:\n  a: b\n";
        let v = object_json(Some("application/apply-patch+yaml"), yaml, false).unwrap();
        assert_eq!(v.get(), r#"{"data":{"a":"b"},"kind":"ConfigMap"}"#);
        let patch = br#"[{"op":"add","path":"/a","value":1}]"#;
        assert!(object_json(Some("application/json-patch+json"), patch, false).is_some());
        assert!(object_json(Some("text/plain"), b"hello", false).is_none());
        assert!(object_json(Some("application/json"), b"{broken", false).is_none());
        assert!(object_json(Some("application/json"), b"", false).is_none());
    }

    #[test]
    fn statuses() {
        assert_eq!(
            response_status(200, None).unwrap().get(),
            r#"{"code":200,"metadata":{}}"#
        );
        let body = br#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}"#;
        let v: Value = serde_json::from_str(
            response_status(404, Some((Some("application/json"), body)))
                .unwrap()
                .get(),
        )
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"metadata": {}, "status": "Failure", "message": "pods \"x\" not found",
                "reason": "NotFound", "details": {"name": "x", "kind": "pods"}, "code": 404})
        );
        let plain =
            response_status(404, Some((Some("text/plain"), b"404 page not found"))).unwrap();
        assert_eq!(plain.get(), r#"{"code":404,"metadata":{}}"#);
    }

    #[tokio::test]
    async fn tee_copies_and_reports_its_end() {
        let copy = Copied::default();
        let (tx, rx) = std::sync::mpsc::channel();
        let body = Tee::wrap(
            kas_server::body::full("hello"),
            Some((copy.clone(), 10)),
            Some(Box::new(move || tx.send(()).unwrap())),
        );
        let got = body.collect().await.unwrap().to_bytes();
        assert_eq!(got, "hello");
        rx.recv().unwrap();
        assert_eq!(copy.take().unwrap(), b"hello");

        let copy = Copied::default();
        let body = Tee::wrap(
            kas_server::body::full("too long"),
            Some((copy.clone(), 3)),
            None,
        );
        body.collect().await.unwrap();
        assert!(copy.overflowed());
        assert!(copy.take().is_none());
    }
}
