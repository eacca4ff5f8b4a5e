//! CRD conversion webhooks (`spec.conversion.strategy: Webhook`), as kube-apiserver
//! 1.33's apiextensions-apiserver calls them: the objects not yet in the desired version
//! go in one `ConversionReview` (apiextensions.k8s.io/v1, or v1beta1 when it comes first
//! in `conversionReviewVersions`) POSTed to `clientConfig` (url, or a service by its
//! `.svc` name) with the `caBundle`, `?timeout=30s` and one attempt bounded by 30 s; the
//! answer must be a ConversionReview for this request (uid) that succeeded, with as many
//! `convertedObjects`, in order, of the desired apiVersion and the same kind, name,
//! namespace and uid. The metadata of each object is the original's with the converted
//! object's labels and annotations. Failures carry upstream's messages
//! ("conversion webhook for <group>/<version>, Kind=<kind> failed: …").

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use kas_server::rest::{ConvertFuture, Converter};
use kas_server::service_resolver::connect::ServiceDial;
use kas_server::service_resolver::ServiceResolver;
use kas_server::webhook::{ClientAuth, WebhookClient};
use serde_json::{json, Map, Value};

/// Upstream's limit on a conversion webhook call.
const TIMEOUT: Duration = Duration::from_secs(30);

fn text<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

/// The conversion webhook of one CRD, shared by the stores of its versions.
pub(crate) struct WebhookConverter {
    /// The CRD's group.
    group: String,
    /// The CRD's kind.
    kind: String,
    /// Every version of the CRD, served or not (what objects may be stored in).
    versions: Vec<String>,
    /// The ConversionReview version sent: the first of `conversionReviewVersions` this
    /// server speaks.
    review_version: Option<&'static str>,
    /// The client, or why there is none.
    client: Result<WebhookClient, String>,
}

impl WebhookConverter {
    /// The converter of `crd`, when its conversion strategy is Webhook.
    /// Its service reference is resolved by `services` (by its DNS name without one).
    pub(crate) fn of(
        crd: &Value,
        services: Option<&Arc<ServiceResolver>>,
    ) -> Option<WebhookConverter> {
        if text(crd, "/spec/conversion/strategy") != "Webhook" {
            return None;
        }
        let webhook = crd
            .pointer("/spec/conversion/webhook")
            .cloned()
            .unwrap_or(Value::Null);
        let review_version = webhook
            .get("conversionReviewVersions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find_map(|v| match v {
                "v1" => Some("v1"),
                "v1beta1" => Some("v1beta1"),
                _ => None,
            });
        let client_config = webhook.get("clientConfig").cloned().unwrap_or(Value::Null);
        Some(WebhookConverter {
            group: text(crd, "/spec/group").to_owned(),
            kind: text(crd, "/spec/names/kind").to_owned(),
            versions: crd
                .pointer("/spec/versions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|v| text(v, "/name").to_owned())
                .collect(),
            review_version,
            client: client(&client_config, services),
        })
    }

    fn gv(&self, version: &str) -> String {
        format!("{}/{version}", self.group)
    }

    fn valid(&self, api_version: &str) -> bool {
        self.versions.iter().any(|v| self.gv(v) == api_version)
    }

    /// What upstream's messages name: the object's group, version and kind, or the list's.
    fn subject(&self, objects: &[Value], api_version: &str, list: bool) -> String {
        if list {
            return format!("{api_version}, Kind={}List", self.kind);
        }
        let first = objects.first().unwrap_or(&Value::Null);
        format!(
            "{}, Kind={}",
            text(first, "/apiVersion"),
            text(first, "/kind")
        )
    }

    async fn call(
        &self,
        objects: Vec<Value>,
        api_version: &str,
        list: bool,
    ) -> Result<Vec<Value>, String> {
        if !self.valid(api_version) {
            return Err(format!(
                "request to convert CR to an invalid group/version: {api_version}"
            ));
        }
        for (i, o) in objects.iter().enumerate() {
            let from = text(o, "/apiVersion");
            if !self.valid(from) {
                return Err(match list {
                    true => format!(
                        "request to convert CR list failed, list index {i} has invalid group/version: {from}"
                    ),
                    false => format!("request to convert CR from an invalid group/version: {from}"),
                });
            }
        }
        let Some(review_version) = self.review_version else {
            return Err("no supported conversion review versions".into());
        };
        let subject = self.subject(&objects, api_version, list);
        let failed = |e: String| format!("conversion webhook for {subject} failed: {e}");
        let client = self.client.as_ref().map_err(|e| failed(e.clone()))?;
        let uid = uuid::Uuid::new_v4().to_string();
        let review = review(review_version, &uid, api_version, &objects);
        let answer = client
            .post(&review)
            .await
            .map_err(|e| failed(e.to_string()))?;
        answered(
            review_version,
            &uid,
            &subject,
            &objects,
            api_version,
            list,
            answer,
        )
    }
}

/// The objects a webhook's `answer` to the review `uid` converted `objects` into, each
/// checked against its original, or the message of the conversion's failure.
pub(crate) fn answered(
    review_version: &str,
    uid: &str,
    subject: &str,
    objects: &[Value],
    api_version: &str,
    list: bool,
    answer: Value,
) -> Result<Vec<Value>, String> {
    let failed = |e: String| format!("conversion webhook for {subject} failed: {e}");
    let converted = converted_objects(review_version, uid, answer).map_err(failed)?;
    if converted.len() != objects.len() {
        return Err(format!(
            "conversion webhook for {subject} returned {} objects, expected {}",
            converted.len(),
            objects.len()
        ));
    }
    objects
        .iter()
        .zip(converted)
        .enumerate()
        .map(|(i, (original, converted))| {
            checked(original, converted, api_version).map_err(|e| e.message(subject, i, list))
        })
        .collect()
}

impl Converter for WebhookConverter {
    fn convert<'a>(
        &'a self,
        objects: Vec<Value>,
        api_version: &'a str,
        list: bool,
    ) -> ConvertFuture<'a> {
        Box::pin(self.call(objects, api_version, list))
    }
}

/// The client of `clientConfig`: its url, or its service (`<name>.<namespace>.svc`, the
/// name its certificate must carry) dialled where `services` resolves it at each
/// connection, as upstream's webhook client manager (without a resolver: by that name).
fn client(
    config: &Value,
    services: Option<&Arc<ServiceResolver>>,
) -> Result<WebhookClient, String> {
    let url = config.get("url").and_then(Value::as_str);
    let svc = config.get("service").filter(|s| !s.is_null());
    if url.is_none() && svc.is_none() {
        return Err("webhook has no clientConfig url or service".into());
    }
    let ca = match config.get("caBundle").and_then(Value::as_str) {
        None | Some("") => None,
        Some(b64) => match base64::engine::general_purpose::STANDARD.decode(b64) {
            Ok(pem) => Some(String::from_utf8_lossy(&pem).into_owned()),
            Err(e) => return Err(format!("caBundle: {e}")),
        },
    };
    let made = match (url, svc, services) {
        (Some(url), _, _) => WebhookClient::for_admission(url, ca, TIMEOUT, ClientAuth::default()),
        (None, Some(svc), Some(services)) => {
            let port = service_port(svc)?;
            let dial = ServiceDial::new(
                services.clone(),
                text(svc, "/namespace"),
                text(svc, "/name"),
                port,
            );
            WebhookClient::for_service(
                Arc::new(dial),
                text(svc, "/path"),
                ca,
                TIMEOUT,
                ClientAuth::default(),
            )
        }
        (None, Some(svc), None) => {
            let port = service_port(svc)?;
            let url = format!(
                "https://{}.{}.svc:{port}{}",
                text(svc, "/name"),
                text(svc, "/namespace"),
                text(svc, "/path")
            );
            WebhookClient::for_admission(&url, ca, TIMEOUT, ClientAuth::default())
        }
        (None, None, _) => return Err("webhook has no clientConfig url or service".into()),
    };
    made.map_err(|e| e.to_string())
}

/// `service.port`, 443 when not given (validation keeps it in 1–65535).
fn service_port(svc: &Value) -> Result<u16, String> {
    let port = svc.get("port").and_then(Value::as_i64).unwrap_or(443);
    u16::try_from(port).map_err(|_| format!("invalid service port {port}"))
}

/// The ConversionReview sent (`version` v1 or v1beta1).
pub(crate) fn review(version: &str, uid: &str, api_version: &str, objects: &[Value]) -> Value {
    json!({
        "kind": "ConversionReview",
        "apiVersion": format!("apiextensions.k8s.io/{version}"),
        "request": {
            "uid": uid,
            "desiredAPIVersion": api_version,
            "objects": objects,
        },
        "response": {"uid": "", "convertedObjects": null, "result": {"metadata": {}}},
    })
}

/// The converted objects of a webhook's answer to request `uid`, or what is wrong with it.
pub(crate) fn converted_objects(
    version: &str,
    uid: &str,
    answer: Value,
) -> Result<Vec<Value>, String> {
    let api_version = text(&answer, "/apiVersion");
    let kind = text(&answer, "/kind");
    if kind.is_empty() {
        return Err(format!("Object 'Kind' is missing in '{answer}'"));
    }
    if api_version.is_empty() {
        return Err(format!("Object 'apiVersion' is missing in '{answer}'"));
    }
    let want = format!("apiextensions.k8s.io/{version}");
    // v1beta1 answers were never checked for their type and uid; v1 answers are.
    if version == "v1" && (api_version != want || kind != "ConversionReview") {
        return Err(format!(
            "expected webhook response of {want}, Kind=ConversionReview, got {}, Kind={kind}",
            go_group_version(api_version)
        ));
    }
    let Some(response) = answer.get("response").filter(|r| r.is_object()) else {
        return Err("no response provided".into());
    };
    if version == "v1" {
        let got = text(response, "/uid");
        if got != uid {
            return Err(format!("expected response.uid=\"{uid}\", got \"{got}\""));
        }
    }
    let status = text(response, "/result/status");
    if status != "Success" {
        let message = text(response, "/result/message");
        if !message.is_empty() {
            return Err(message.to_owned());
        }
        return Err(format!(
            "response.result.status was '{status}', not 'Success'"
        ));
    }
    Ok(response
        .get("convertedObjects")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default())
}

/// How Go prints a group/version parsed from an apiVersion (`/v1` for a group-less one in
/// a GroupVersionKind).
fn go_group_version(api_version: &str) -> String {
    match api_version.split_once('/') {
        Some(_) => api_version.to_owned(),
        None => format!("/{api_version}"),
    }
}

/// What is wrong with one converted object, worded per upstream's single-object and
/// list messages.
#[derive(Debug, PartialEq)]
pub(crate) enum Invalid {
    /// Not an object with a kind.
    Object(String),
    /// Another group/version than asked.
    GroupVersion { expected: String, got: String },
    /// Another kind than sent.
    Kind { expected: String, got: String },
    /// Another name, namespace or uid.
    Meta(String),
    /// Metadata that cannot be restored.
    Metadata(String),
}

impl Invalid {
    fn message(&self, subject: &str, index: usize, list: bool) -> String {
        let at = match list {
            true => format!("conversion webhook for {subject} returned invalid converted object at index {index}"),
            false => format!("conversion webhook for {subject} returned invalid object at index 0"),
        };
        match self {
            Invalid::Object(e) if list => format!("{at}: {e}"),
            Invalid::Object(e) => e.clone(),
            Invalid::GroupVersion { expected, got } => {
                format!("{at}: invalid groupVersion (expected {expected}, received {got})")
            }
            Invalid::Kind { expected, got } => {
                format!("{at}: invalid kind (expected {expected}, received {got})")
            }
            Invalid::Meta(e) if list => format!("{at}: {e}"),
            Invalid::Meta(e) => {
                format!("conversion webhook for {subject} returned invalid object: {e}")
            }
            Invalid::Metadata(e) if list => format!(
                "conversion webhook for {subject} returned invalid metadata in object at index {index}: {e}"
            ),
            Invalid::Metadata(e) => {
                format!("conversion webhook for {subject} returned invalid metadata: {e}")
            }
        }
    }
}

/// Go's `%T` of a JSON value decoded into `interface{}` (unstructured).
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// `converted` checked against `original` and `api_version`, with the original's
/// metadata and the converted labels and annotations.
pub(crate) fn checked(
    original: &Value,
    mut converted: Value,
    api_version: &str,
) -> Result<Value, Invalid> {
    let Some(obj) = converted.as_object() else {
        return Err(Invalid::Object(format!(
            "Object 'Kind' is missing in '{converted}'"
        )));
    };
    if obj
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty()
    {
        return Err(Invalid::Object(format!(
            "Object 'Kind' is missing in '{converted}'"
        )));
    }
    let got = text(&converted, "/apiVersion");
    if got != api_version {
        return Err(Invalid::GroupVersion {
            expected: api_version.to_owned(),
            got: got.to_owned(),
        });
    }
    let (want_kind, got_kind) = (text(original, "/kind"), text(&converted, "/kind"));
    if want_kind != got_kind {
        return Err(Invalid::Kind {
            expected: want_kind.to_owned(),
            got: got_kind.to_owned(),
        });
    }
    for (field, what) in [("name", "name"), ("namespace", "namespace"), ("uid", "UID")] {
        let p = format!("/metadata/{field}");
        let (a, b) = (text(original, &p), text(&converted, &p));
        if a != b {
            return Err(Invalid::Meta(format!(
                "must have the same {what}: {a} != {b}"
            )));
        }
    }
    let meta = restored_metadata(original, &converted).map_err(Invalid::Metadata)?;
    if let Some(o) = converted.as_object_mut() {
        o.insert("metadata".into(), Value::Object(meta));
    }
    Ok(converted)
}

/// The original's metadata with the converted object's labels and annotations.
fn restored_metadata(original: &Value, converted: &Value) -> Result<Map<String, Value>, String> {
    let response = match converted.get("metadata") {
        None => return Err("missing metadata in converted object".into()),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in converted object",
                go_type(other)
            ))
        }
    };
    let mut meta = match original.get("metadata") {
        Some(Value::Object(m)) => m.clone(),
        None => Map::new(),
        Some(other) => {
            return Err(format!(
                "invalid metadata of type {} in input object",
                go_type(other)
            ))
        }
    };
    for field in ["labels", "annotations"] {
        let given = match response.get(field) {
            None | Some(Value::Null) => {
                meta.remove(field);
                continue;
            }
            Some(Value::Object(m)) => m,
            Some(other) => {
                return Err(format!(
                    "invalid metadata.{field} of type {} in converted object",
                    go_type(other)
                ))
            }
        };
        match meta.get(field) {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(other) => {
                return Err(format!(
                    "invalid metadata.{field} of type {} in original object",
                    go_type(other)
                ))
            }
        }
        if let Some((k, v)) = given.iter().find(|(_, v)| !v.is_string()) {
            return Err(format!(
                "metadata.{field}[{k}] must be a string, but is {} in converted object",
                go_type(v)
            ));
        }
        meta.insert(field.into(), Value::Object(given.clone()));
    }
    Ok(meta)
}

#[cfg(test)]
#[path = "conversion_tests.rs"]
mod tests;
