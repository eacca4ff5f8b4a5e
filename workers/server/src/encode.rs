//! A response in the negotiated media type. Handlers build JSON; a response to a client
//! that asked for YAML (or protobuf) is re-encoded here, once, at the end, so every
//! handler and every error `Status` gets the same treatment (upstream negotiates errors
//! like objects).

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderValue, Response, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;

use crate::body::{self, Body};
use crate::negotiate::Media;

/// The media types responses can be written in, JSON first.
pub fn media() -> &'static [Media] {
    if kas_schema::encodes_protobuf() {
        crate::negotiate::ALL_MEDIA
    } else {
        &[Media::Json, Media::Yaml]
    }
}

/// `value` in `media`, with `params` after the media type in `Content-Type` (aggregated
/// discovery's `;g=…;v=…;as=…`). JSON when the value cannot be written in `media`.
pub fn respond(code: StatusCode, value: &Value, media: Media, params: &str) -> Response<Body> {
    let (bytes, media) = match to_bytes(value, media) {
        Some(b) => (b, media),
        None => (json_document(value), Media::Json),
    };
    typed(code, bytes.into(), media, params)
}

/// A response of `bytes` typed `media` (and `params`).
fn typed(code: StatusCode, bytes: Bytes, media: Media, params: &str) -> Response<Body> {
    let mut resp = Response::new(body::full(bytes));
    *resp.status_mut() = code;
    let ctype = format!("{}{params}", media.content_type());
    if let Ok(v) = HeaderValue::from_str(&ctype) {
        resp.headers_mut().insert(CONTENT_TYPE, v);
    }
    resp
}

/// A document served often and changed seldom (discovery): serialized to JSON once, the
/// media type nearly every client asks for; other media types are encoded on request.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
    value: Value,
    json: Bytes,
    /// The upper-case hex SHA-512 of `json`, quoted: the entity tag of every encoding.
    etag: String,
}

impl Prepared {
    /// Serializes `value` once.
    pub fn new(value: Value) -> Prepared {
        let json = Bytes::from(json_document(&value));
        let digest = ring::digest::digest(&ring::digest::SHA512, &json);
        let hex: String = digest.as_ref().iter().map(|b| format!("{b:02X}")).collect();
        Prepared {
            value,
            json,
            etag: format!("\"{hex}\""),
        }
    }

    /// `respond`, with upstream's caching of aggregated discovery
    /// (`endpoints/discovery/aggregated/etag.go`): `ETag`, `Vary: Accept`,
    /// `Cache-Control: public`, and 304 when `If-None-Match` names the current tag.
    pub fn respond_cached(
        &self,
        headers: &http::HeaderMap,
        media: Media,
        params: &str,
    ) -> Response<Body> {
        let unchanged = headers
            .get(http::header::IF_NONE_MATCH)
            .is_some_and(|v| v.as_bytes() == self.etag.as_bytes());
        let mut resp = if unchanged {
            let mut r = Response::new(body::empty());
            *r.status_mut() = StatusCode::NOT_MODIFIED;
            r
        } else {
            self.respond(media, params)
        };
        let h = resp.headers_mut();
        if let Ok(v) = HeaderValue::from_str(&self.etag) {
            h.insert(http::header::ETAG, v);
        }
        h.insert(http::header::VARY, HeaderValue::from_static("Accept"));
        h.insert(
            http::header::CACHE_CONTROL,
            HeaderValue::from_static("public"),
        );
        resp
    }

    /// The document.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// A 200 answer in `media`, `params` after the media type as for [`respond`].
    pub fn respond(&self, media: Media, params: &str) -> Response<Body> {
        if media != Media::Json {
            return respond(StatusCode::OK, &self.value, media, params);
        }
        typed(StatusCode::OK, self.json.clone(), media, params)
    }
}

/// `value` as upstream's JSON encoder writes a document: compact, a built-in kind's
/// fields in its Go struct's order, then a newline.
pub fn json_document(value: &Value) -> Vec<u8> {
    let mut out = kas_schema::to_json_vec(value);
    out.push(b'\n');
    out
}

/// Whether the client asked for indented JSON as upstream decides it: `pretty` (Go's
/// ParseBool of its first value) when given, else a user agent of curl, Wget or a
/// browser.
pub fn pretty(query: Option<&str>, user_agent: &str) -> bool {
    let given = query.unwrap_or("").split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == "pretty").then_some(v)
    });
    match given {
        Some(v) if !v.is_empty() => matches!(v, "1" | "t" | "T" | "TRUE" | "true" | "True"),
        _ => {
            user_agent.starts_with("curl")
                || user_agent.starts_with("Wget")
                || user_agent.starts_with("Mozilla/5.0")
        }
    }
}

/// `resp` (JSON) indented as Go's `json.MarshalIndent(v, "", "  ")` writes it (no final
/// newline); anything that is not a JSON document passes through.
pub async fn indent(resp: Response<Body>) -> Response<Body> {
    rewrite_json(resp, |v| Some(kas_schema::to_json_pretty(v)), None).await
}

/// A JSON response's document rewritten by `write` (typed `media` when given); a
/// response that is not JSON, or that `write` declines, passes through.
pub(crate) async fn rewrite_json(
    resp: Response<Body>,
    write: impl FnOnce(&Value) -> Option<Vec<u8>>,
    media: Option<Media>,
) -> Response<Body> {
    let is_json = resp
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == b"application/json");
    if !is_json {
        return resp;
    }
    let (mut parts, incoming) = resp.into_parts();
    let Ok(collected) = incoming.collect().await else {
        return crate::status::Status::internal("reading a response to encode").into_response();
    };
    let bytes = collected.to_bytes();
    let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
        return Response::from_parts(parts, body::full(bytes));
    };
    let Some(written) = write(&value) else {
        return Response::from_parts(parts, body::full(bytes));
    };
    parts.headers.remove(CONTENT_LENGTH);
    if let Some(m) = media {
        parts
            .headers
            .insert(CONTENT_TYPE, HeaderValue::from_static(m.content_type()));
    }
    Response::from_parts(parts, body::full(written))
}

fn to_bytes(value: &Value, media: Media) -> Option<Vec<u8>> {
    match media {
        Media::Json => Some(json_document(value)),
        Media::Yaml => serde_yaml_ng::to_string(value).map(String::into_bytes).ok(),
        // A value of a kind without a protobuf message (a Table, say) stays JSON.
        Media::Protobuf => kas_schema::encode_protobuf(value).ok(),
    }
}

/// `resp` (a JSON response) in `media`; anything else passes through unchanged.
pub async fn encode(resp: Response<Body>, media: Media) -> Response<Body> {
    if media == Media::Json {
        return resp;
    }
    rewrite_json(resp, |v| to_bytes(v, media), Some(media)).await
}
