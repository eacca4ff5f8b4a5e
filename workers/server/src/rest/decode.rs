//! Request bodies: JSON, YAML or Kubernetes protobuf (the `k8s\0` envelope), decoded by
//! type against the resource's schema, with unknown and duplicate fields reported per
//! `fieldValidation`. Patches and DeleteOptions too.

use super::FieldValidation;
use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::Request;
use http_body_util::BodyExt;
use serde_json::Value;

use super::{bad_request, Resource, MAX_BODY};
use crate::body::Body;
use crate::status::{Reason, Status};

/// A decoded request object and the warnings decoding produced.
#[derive(Debug)]
pub(crate) struct Decoded {
    pub(crate) object: Value,
    pub(crate) warnings: Vec<String>,
}

/// The media types a body may come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Media {
    Json,
    Yaml,
    Protobuf,
}

const ACCEPTED: &str = "application/json, application/yaml, application/vnd.kubernetes.protobuf";

/// The media type of a request body: lowercased, parameters dropped, JSON when absent.
pub(crate) fn content_type<B>(req: &Request<B>) -> String {
    media_type_of(
        req.headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/json"),
    )
}

/// The media type of a `Content-Type` value: lowercased, parameters dropped.
pub(crate) fn media_type_of(header: &str) -> String {
    header
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn media(ctype: &str) -> Result<Media, Status> {
    match ctype {
        "" | "application/json" | "*/*" => Ok(Media::Json),
        "application/yaml" | "application/x-yaml" | "text/yaml" => Ok(Media::Yaml),
        "application/vnd.kubernetes.protobuf" => Ok(Media::Protobuf),
        other => Err(Status::new(
            Reason::UnsupportedMediaType,
            format!("the body of the request was in an unknown format - accepted media types include: {ACCEPTED} (got {other:?})"),
        )),
    }
}

pub(crate) async fn read_body(req: Request<Body>) -> Result<Bytes, Status> {
    // A plain frame loop rather than `Limited`: its error conversion bound trips rustc's
    // higher-ranked `Send` inference for this future.
    let mut body = req.into_body();
    let mut buf = bytes::BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| bad_request(format!("reading the request body: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > MAX_BODY {
                return Err(Status::new(
                    Reason::RequestEntityTooLarge,
                    "Request entity too large: limit is 3145728",
                ));
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf.freeze())
}

/// YAML (one document) as JSON.
fn yaml_to_json(bytes: &[u8]) -> Result<Vec<u8>, Status> {
    if let Some((line, column)) = super::yaml_depth::too_deep(bytes) {
        return Err(bad_request(format!(
            "error converting YAML to JSON: yaml: recursion limit exceeded at line {line} column {column}"
        )));
    }
    let v: Value = serde_yaml_ng::from_slice(bytes).map_err(|e| {
        bad_request(format!(
            "error converting YAML to JSON: yaml: {}",
            go_yaml_message(&e.to_string())
        ))
    })?;
    serde_json::to_vec(&v).map_err(Status::internal)
}

/// A libyaml error as Go's yaml package words it: the problem, after `line N: ` only when
/// the problem's (0-based) line is not the first; a scanner error counts lines from 1, a
/// parser error from 0, and without a problem line the context's is used (Go's
/// parser.fail). serde_yaml_ng writes `<problem> at line L column C[, <context>[ at line
/// L2 column C2]]` with lines from 1; other errors are left as they are.
pub(crate) fn go_yaml_message(text: &str) -> String {
    let mark = |s: &str| -> Option<u64> {
        let rest = s.strip_prefix("line ")?;
        rest.split(' ').next()?.parse::<u64>().ok()
    };
    let Some((problem, rest)) = text.split_once(" at line ") else {
        return text.to_owned();
    };
    let Some(problem_line) = mark(&format!("line {rest}")) else {
        return text.to_owned();
    };
    let context = rest.split_once(", ").map(|(_, c)| c).unwrap_or("");
    let context_line = context
        .split_once(" at ")
        .and_then(|(_, m)| mark(m))
        .unwrap_or(problem_line);
    let scanner = context.starts_with("while scanning");
    let (p0, c0) = (
        problem_line.saturating_sub(1),
        context_line.saturating_sub(1),
    );
    let line = if p0 != 0 {
        if scanner {
            p0 + 1
        } else {
            p0
        }
    } else {
        c0
    };
    if line == 0 {
        problem.to_owned()
    } else {
        format!("line {line}: {problem}")
    }
}

/// The body as JSON bytes, whatever its media type; protobuf is decoded by the schema.
async fn json_bytes(req: Request<Body>) -> Result<Vec<u8>, Status> {
    let ctype = content_type(&req);
    let bytes = read_body(req).await?;
    json_bytes_of(&ctype, &bytes)
}

/// [`json_bytes`] of a body already read, sent as `ctype`.
pub(crate) fn json_bytes_of(ctype: &str, bytes: &[u8]) -> Result<Vec<u8>, Status> {
    match media(ctype)? {
        Media::Json => Ok(bytes.to_vec()),
        Media::Yaml => yaml_to_json(bytes),
        Media::Protobuf => {
            let v = protobuf(bytes)?;
            serde_json::to_vec(&v).map_err(Status::internal)
        }
    }
}

/// A JSON body as apimachinery reads its type: Go's words when it is not JSON, or not an
/// object with string `apiVersion` and `kind`.
fn parse_json(bytes: &[u8]) -> Result<Value, Status> {
    let interpret = |why: String| format!("couldn't get version/kind; json parse error: {why}");
    if let Some(why) = crate::go_json::syntax_error(bytes) {
        return Err(bad_request(interpret(why)));
    }
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| bad_request(interpret(e.to_string())))?;
    match crate::go_json::interpret_error(&value) {
        Some(why) => Err(bad_request(interpret(why))),
        None => Ok(value),
    }
}

/// A body whose type cannot be read, as upstream's create and update handlers word it.
fn unrecognized(resource: &Resource, bytes: &[u8], cause: Status) -> Status {
    bad_request(format!(
        "the object provided is unrecognized (must be of type {}): {} ({})",
        resource.kind,
        cause.message,
        crate::go_json::summarize(bytes)
    ))
}

/// A typed object of `resource`: decoded against its schema when it has one.
pub(crate) async fn object(
    resource: &Resource,
    req: Request<Body>,
    mode: FieldValidation,
) -> Result<Decoded, Status> {
    let bytes = json_bytes(req).await?;
    object_of(resource, &bytes, mode)
}

/// [`object`] of a body already turned into JSON bytes.
pub(crate) fn object_of(
    resource: &Resource,
    bytes: &[u8],
    mode: FieldValidation,
) -> Result<Decoded, Status> {
    let def = (!resource.definition.is_empty())
        .then(|| kas_schema::type_def(resource.definition))
        .flatten();
    let parsed = parse_json(bytes).map_err(|e| unrecognized(resource, bytes, e))?;
    let parsed = match parsed {
        Value::Null => Value::Object(Default::default()),
        v => v,
    };
    let Some(def) = def else {
        return Ok(Decoded {
            object: parsed,
            warnings: Vec::new(),
        });
    };
    // A body of another kind is refused by the caller with upstream's message; decode it
    // against its own type only if it names ours.
    typed(resource, def, bytes, parsed, mode)
}

/// Typed decoding of a JSON body against the schema of `def`.
fn typed(
    resource: &Resource,
    def: &'static kas_schema::TypeDef,
    bytes: &[u8],
    parsed: Value,
    mode: FieldValidation,
) -> Result<Decoded, Status> {
    // A body of another kind is refused later with upstream's message, not as a type error.
    let kind = parsed.get("kind").and_then(Value::as_str).unwrap_or("");
    if !kind.is_empty() && kind != resource.kind {
        return Ok(Decoded {
            object: parsed,
            warnings: Vec::new(),
        });
    }
    match kas_schema::decode_json(bytes, def, mode) {
        Ok(d) => Ok(Decoded {
            object: d.object,
            warnings: d.warnings,
        }),
        Err(e) => Err(cannot_be_handled(resource, e)),
    }
}

/// A body of a create or update that does not decode as `resource`, strict decoding
/// errors included: upstream's create and update handlers word every decoding error so
/// (patches report strict errors bare).
pub(crate) fn cannot_be_handled(resource: &Resource, e: impl std::fmt::Display) -> Status {
    bad_request(format!(
        "{kind} in version \"{version}\" cannot be handled as a {kind}: {e}",
        kind = resource.kind,
        version = resource.version,
    ))
}

/// A `k8s\0` protobuf envelope decoded to the JSON object it holds.
fn protobuf(bytes: &[u8]) -> Result<Value, Status> {
    kas_schema::decode_protobuf(bytes).map_err(|e| {
        bad_request(format!(
            "the body of the request could not be decoded as protobuf: {e}"
        ))
    })
}

/// An object of no particular schema (subresource bodies such as Scale or TokenRequest).
pub(crate) async fn untyped(req: Request<Body>) -> Result<Decoded, Status> {
    let bytes = json_bytes(req).await?;
    Ok(Decoded {
        object: parse_json(&bytes)?,
        warnings: Vec::new(),
    })
}

/// The patch types kube-apiserver accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PatchType {
    Json,
    Merge,
    Strategic,
    Apply,
}

/// A patch body and its type.
pub(crate) async fn patch(req: Request<Body>) -> Result<(PatchType, Value), Status> {
    let ctype = content_type(&req);
    let bytes = read_body(req).await?;
    patch_of(&ctype, &bytes)
}

/// [`patch`] of a body already read, sent as `ctype` (lowercased, without parameters).
pub(crate) fn patch_of(ctype: &str, bytes: &[u8]) -> Result<(PatchType, Value), Status> {
    let kind = match ctype {
        "application/json-patch+json" => PatchType::Json,
        "application/merge-patch+json" => PatchType::Merge,
        "application/strategic-merge-patch+json" => PatchType::Strategic,
        "application/apply-patch+yaml" | "application/apply-patch+cbor" => PatchType::Apply,
        other => {
            return Err(Status::new(
                Reason::UnsupportedMediaType,
                format!("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got {other:?})"),
            ))
        }
    };
    let value = if kind == PatchType::Apply {
        // Upstream's apply patcher words its YAML errors on its own.
        let json = yaml_to_json(bytes).map_err(|mut e| {
            e.message = format!("error decoding YAML: {}", e.message);
            e
        })?;
        serde_json::from_slice(&json).map_err(Status::internal)?
    } else {
        serde_json::from_slice(bytes).map_err(|e| {
            bad_request(format!(
                "the server rejected our request due to an error in our request: {e}"
            ))
        })?
    };
    Ok((kind, value))
}

/// Optional DeleteOptions.
pub(crate) async fn delete_options(req: Request<Body>) -> Result<Option<Value>, Status> {
    let ctype = content_type(&req);
    let bytes = read_body(req).await?;
    delete_options_of(&ctype, &bytes)
}

/// [`delete_options`] of a body already read, sent as `ctype`.
pub(crate) fn delete_options_of(ctype: &str, bytes: &[u8]) -> Result<Option<Value>, Status> {
    let m = media(ctype)?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let json = match m {
        Media::Json => bytes.to_vec(),
        Media::Yaml => yaml_to_json(bytes)?,
        Media::Protobuf => serde_json::to_vec(&protobuf(bytes)?).map_err(Status::internal)?,
    };
    serde_json::from_slice(&json)
        .map(Some)
        .map_err(|e| bad_request(format!("invalid DeleteOptions: {e}")))
}

#[cfg(test)]
mod tests {
    use super::go_yaml_message;

    fn message(yaml: &str) -> String {
        let e = serde_yaml_ng::from_str::<serde_json::Value>(yaml).expect_err("bad YAML");
        go_yaml_message(&e.to_string())
    }

    #[test]
    fn yaml_errors_are_worded_as_gos() {
        // On the first line: no line at all.
        assert_eq!(
            message("{not yaml: [}"),
            "did not find expected node content"
        );
        // A parser error counts lines from 0, a scanner error from 1.
        assert_eq!(message("a: 1\n- b\n"), "line 1: did not find expected key");
        assert_eq!(
            message("a: 1\nb: 2\nc: \"open"),
            "line 3: found unexpected end of stream"
        );
        assert_eq!(go_yaml_message("recursion limit"), "recursion limit");
    }
}
