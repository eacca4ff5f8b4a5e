//! The storage codec (`--storage-media-type`): the bytes etcd holds for an object, as
//! kube-apiserver writes them, between the JSON every reader of [`Storage`](super::Storage)
//! handles and the encryption transformer. Encode, then encrypt; decrypt, then decode, as
//! upstream's storage codec sits inside its transformer.
//!
//! * Built-in kinds are written in the configured media type: protobuf by default (`k8s\0`
//!   + `runtime.Unknown`), or JSON, or YAML.
//! * Custom resources stay JSON whatever the media type (upstream's CRD storage has only
//!   the unstructured JSON serializer); so do values of kinds the schema table lacks, and
//!   CustomResourceDefinitions and APIServices: upstream's apiextensions and aggregator
//!   servers store with a JSON codec of their own (their keys, `<group>/<resource>`, have
//!   the custom resources' form, so the key alone tells).
//! * Reading recognizes all three, whoever wrote them (kube-apiserver v1.33 or this server
//!   before it had a codec). A value in another format than the one a write would produce
//!   is *stale*, so an unchanged update rewrites it, as for a rotated encryption key: that
//!   is the `kubectl get … -o json | kubectl replace -f -` migration.
//!
//! Protobuf values are decoded to the JSON kube-apiserver serves for them: the zero
//! fields its Go encoder writes are filled in from the schema table, as the REST store
//! fills them on writes, so a value reads back as the JSON that was written.

use std::sync::OnceLock;

use kas_proto::StorageMediaType;
use kas_schema::{
    decode_protobuf, encode_protobuf, fill_zero_fields, kind_def_for_api_version, PROTOBUF_MAGIC,
};
use serde_json::Value;

/// The codec of one storage.
#[derive(Debug, Clone)]
pub(crate) struct Codec {
    media: StorageMediaType,
    /// `--etcd-prefix` with a trailing `/`.
    prefix: String,
}

/// A value read back: its JSON, and whether a write would store it otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub(crate) json: Vec<u8>,
    pub(crate) stale: bool,
}

/// How a stored value is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Yaml,
    Protobuf,
    /// Not an object in any of the three (left as it is).
    Other,
}

/// Only `apiVersion` and `kind` of a JSON object, read without building the object.
#[derive(serde::Deserialize)]
struct TypeMeta<'a> {
    #[serde(rename = "apiVersion", default, borrow)]
    api_version: std::borrow::Cow<'a, str>,
    #[serde(default, borrow)]
    kind: std::borrow::Cow<'a, str>,
}

impl Codec {
    pub(crate) fn new(prefix: &str, media: StorageMediaType) -> Codec {
        Codec {
            media,
            prefix: format!("{}/", prefix.trim_end_matches('/')),
        }
    }

    /// Whether objects under `key` may be written in the media type: not those under a
    /// `<group>/<resource>` key (custom resources, CRDs, APIServices).
    fn typed_key(&self, key: &str) -> bool {
        let path = key.strip_prefix(&self.prefix).unwrap_or(key);
        let first = path.split('/').next().unwrap_or("");
        // A group name has a dot; built-in plurals never do.
        !first.contains('.')
    }

    /// The format a write of a `api_version`/`kind` object under `key` uses.
    fn format_for(&self, key: &str, api_version: &str, kind: &str) -> Format {
        if self.media == StorageMediaType::Json
            || !self.typed_key(key)
            || kind_def_for_api_version(api_version, kind).is_none()
        {
            return Format::Json;
        }
        match self.media {
            StorageMediaType::Protobuf => Format::Protobuf,
            _ => Format::Yaml,
        }
    }

    /// The bytes to store for `obj` under `key`. An object the protobuf encoder refuses
    /// is stored as JSON (kube-apiserver reads both), with a warning: a gap in the
    /// schema table must not lose a write.
    pub(crate) fn encode_object(&self, key: &str, obj: &Value) -> Result<Vec<u8>, String> {
        let text = |f: &str| obj.get(f).and_then(Value::as_str).unwrap_or("");
        match self.format_for(key, text("apiVersion"), text("kind")) {
            Format::Protobuf => match encode_protobuf(obj) {
                Ok(bytes) => return Ok(bytes),
                Err(e) => {
                    tracing::warn!(key, error = %e, "stored as JSON: no protobuf encoding")
                }
            },
            Format::Yaml => {
                return serde_yaml_ng::to_string(obj)
                    .map(String::into_bytes)
                    .map_err(|e| e.to_string())
            }
            Format::Json | Format::Other => {}
        }
        serde_json::to_vec(obj).map_err(|e| e.to_string())
    }

    /// The bytes to store for `value` under `key`: JSON becomes the media type; bytes
    /// already encoded by [`Codec::encode_object`] (protobuf) pass; anything else is
    /// stored as it is.
    pub(crate) fn encode(&self, key: &str, value: Vec<u8>) -> Result<Vec<u8>, String> {
        if self.media == StorageMediaType::Json
            || value.starts_with(PROTOBUF_MAGIC)
            || !self.typed_key(key)
        {
            return Ok(value);
        }
        match serde_json::from_slice::<Value>(&value) {
            Ok(obj) if obj.is_object() => self.encode_object(key, &obj),
            _ => Ok(value),
        }
    }

    /// The JSON of the value stored under `key`, whatever its format, and whether a
    /// write would store it in another.
    pub(crate) fn decode(&self, key: &str, stored: Vec<u8>) -> Result<Decoded, String> {
        match format_of(&stored) {
            Format::Protobuf => {
                let obj = from_protobuf(&stored)?;
                let stale = self.format_of_object(key, &obj) != Format::Protobuf;
                let json = serde_json::to_vec(&obj).map_err(|e| e.to_string())?;
                Ok(Decoded { json, stale })
            }
            Format::Json => {
                let stale = match self.media {
                    StorageMediaType::Json => false,
                    _ => match serde_json::from_slice::<TypeMeta<'_>>(&stored) {
                        Ok(t) => self.format_for(key, &t.api_version, &t.kind) != Format::Json,
                        Err(_) => false,
                    },
                };
                Ok(Decoded {
                    json: stored,
                    stale,
                })
            }
            Format::Yaml => match serde_yaml_ng::from_slice::<Value>(&stored) {
                Ok(obj) if obj.is_object() => {
                    let stale = self.format_of_object(key, &obj) != Format::Yaml;
                    let json = serde_json::to_vec(&obj).map_err(|e| e.to_string())?;
                    Ok(Decoded { json, stale })
                }
                // Not a YAML mapping either: not an object this codec wrote.
                _ => Ok(Decoded {
                    json: stored,
                    stale: false,
                }),
            },
            Format::Other => Ok(Decoded {
                json: stored,
                stale: false,
            }),
        }
    }

    fn format_of_object(&self, key: &str, obj: &Value) -> Format {
        let text = |f: &str| obj.get(f).and_then(Value::as_str).unwrap_or("");
        self.format_for(key, text("apiVersion"), text("kind"))
    }
}

/// Which format `stored` is in, from its first bytes (upstream's recognizing decoder:
/// the protobuf magic, JSON's `{`, else YAML).
fn format_of(stored: &[u8]) -> Format {
    if stored.starts_with(PROTOBUF_MAGIC) {
        return Format::Protobuf;
    }
    match stored.iter().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => Format::Json,
        Some(_) => Format::Yaml,
        None => Format::Other,
    }
}

/// What a read of `encoded` (as [`Codec::encode_object`] made it) will show, when it is
/// protobuf: `None` for other formats, which keep what was written.
pub(crate) fn reread(encoded: &[u8]) -> Option<Value> {
    match format_of(encoded) {
        Format::Protobuf => from_protobuf(encoded).ok(),
        _ => None,
    }
}

/// A protobuf value as the JSON kube-apiserver serves for it.
fn from_protobuf(stored: &[u8]) -> Result<Value, String> {
    let mut obj = decode_protobuf(stored).map_err(|e| e.to_string())?;
    let text = |f: &str| obj.get(f).and_then(Value::as_str).unwrap_or("").to_owned();
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    if let Some(def) = kind_def_for_api_version(&api_version, &kind) {
        fill_zero_fields(def, &mut obj);
    }
    if let Some(defaults) = DECODE_DEFAULTS.get() {
        defaults(&api_version, &kind, &mut obj);
    }
    Ok(obj)
}

/// Defaults a worker's scheme applies to every protobuf value it decodes, given the
/// value's apiVersion and kind: upstream runs its scheme's defaulting on each decode, so
/// reads show what its strategies clear before storing or what protobuf cannot hold.
pub type DecodeDefaults = fn(api_version: &str, kind: &str, obj: &mut Value);

static DECODE_DEFAULTS: OnceLock<DecodeDefaults> = OnceLock::new();

/// Sets the process's [`DecodeDefaults`] (once; later calls are ignored).
pub fn set_decode_defaults(f: DecodeDefaults) {
    let _ = DECODE_DEFAULTS.set(f);
}

#[cfg(test)]
#[path = "codec_tests.rs"]
mod tests;
