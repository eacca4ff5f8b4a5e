//! The extension server's REST API over its store: list, get, create, update, merge
//! patch and delete of Flunders and Fischers (watch is in `watch`), with kube-style Status
//! errors.

use http::{Method, StatusCode};
use serde_json::{json, Map, Value};

use super::reply::{
    accepts_json, bad_request, json_response, method_not_allowed, not_acceptable, not_found_path,
    status, status_with, Call,
};
use super::store::{
    field_match, label_match, meta_str, name_suffix, new_uid, now_rfc3339, Filter, Kind, Store,
};
use super::{fields, table, Resp, Shared, GROUP, GROUP_VERSION};

/// Where a request points: a collection (all namespaces when `namespace` is None for a
/// namespaced kind) or one object.
pub(crate) struct Target {
    pub(crate) kind: Kind,
    pub(crate) namespace: Option<String>,
    pub(crate) name: Option<String>,
}

impl Target {
    fn parse(rest: &str) -> Option<Target> {
        let segs: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
        let (namespace, segs) = match segs.as_slice() {
            ["namespaces", ns, tail @ ..] if !tail.is_empty() => (Some(ns.to_string()), tail),
            s => (None, s),
        };
        let (kind, name) = match segs {
            [plural] => (Kind::from_plural(plural)?, None),
            [plural, name] => (Kind::from_plural(plural)?, Some(name.to_string())),
            _ => return None,
        };
        if namespace.is_some() && !kind.namespaced() {
            return None;
        }
        Some(Target {
            kind,
            namespace,
            name,
        })
    }

    fn qualified(&self) -> String {
        format!("{}.{GROUP}", self.kind.plural())
    }
}

fn not_found(t: &Target, name: &str) -> Resp {
    status_with(
        StatusCode::NOT_FOUND,
        "NotFound",
        &format!("{} \"{name}\" not found", t.qualified()),
        Some(json!({"name": name, "group": GROUP, "kind": t.kind.plural()})),
    )
}

fn conflict(t: &Target, name: &str, reason: &str, message: &str) -> Resp {
    status_with(
        StatusCode::CONFLICT,
        reason,
        message,
        Some(json!({"name": name, "group": GROUP, "kind": t.kind.plural()})),
    )
}

/// 422 with one field cause.
fn invalid(t: &Target, name: &str, field: &str, message: &str) -> Resp {
    status_with(
        StatusCode::UNPROCESSABLE_ENTITY,
        "Invalid",
        &format!(
            "{}.{GROUP} \"{name}\" is invalid: {field}: {message}",
            t.kind.name()
        ),
        Some(json!({
            "name": name, "group": GROUP, "kind": t.kind.name(),
            "causes": [{"reason": "FieldValueRequired", "message": message, "field": field}],
        })),
    )
}

/// Serves `/apis/wardle.example.com/v1alpha1/<rest>`.
pub(crate) async fn serve(store: &Store, call: &Call, rest: &str, shared: &Shared) -> Resp {
    let Some(t) = Target::parse(rest) else {
        return not_found_path();
    };
    let want_table = table::wants_table(call.accept());
    if !want_table && !accepts_json(call.accept()) {
        return not_acceptable();
    }
    let watching = matches!(call.param("watch"), Some("1" | "true"));
    match (&call.method, &t.name) {
        (&Method::GET, None) if watching => super::watch::serve(store, call, &t, shared),
        (&Method::GET, None) => list(store, call, &t),
        (&Method::GET, Some(name)) => get(store, call, &t, name),
        (&Method::POST, None) if t.namespace.is_some() || !t.kind.namespaced() => {
            create(store, call, &t)
        }
        (&Method::PUT, Some(name)) => update(store, call, &t, name),
        (&Method::PATCH, Some(name)) => patch(store, call, &t, name),
        (&Method::DELETE, Some(name)) => delete(store, call, &t, name),
        _ => method_not_allowed(),
    }
}

pub(crate) fn filter_of(call: &Call, t: &Target) -> Result<Filter, Resp> {
    let labels = call.param("labelSelector").unwrap_or("").to_owned();
    let fields = call.param("fieldSelector").unwrap_or("").to_owned();
    if label_match(&labels, &Value::Null).is_none() {
        return Err(bad_request(&format!(
            "unable to parse requirement: {labels}"
        )));
    }
    if field_match(&fields, &Value::Null).is_none() {
        return Err(bad_request(&format!("field label not supported: {fields}")));
    }
    Ok(Filter {
        kind: t.kind,
        namespace: t.namespace.clone(),
        labels,
        fields,
    })
}

fn list(store: &Store, call: &Call, t: &Target) -> Resp {
    let filter = match filter_of(call, t) {
        Ok(f) => f,
        Err(r) => return r,
    };
    let (rv, items) = store.list(&filter);
    if table::wants_table(call.accept()) {
        return table::response(call, &items, rv, true);
    }
    json_response(
        StatusCode::OK,
        &json!({
            "kind": format!("{}List", t.kind.name()),
            "apiVersion": GROUP_VERSION,
            "metadata": {"resourceVersion": rv.to_string()},
            "items": items,
        }),
    )
}

fn key(t: &Target, name: &str) -> (Kind, String, String) {
    (
        t.kind,
        t.namespace.clone().unwrap_or_default(),
        name.to_owned(),
    )
}

fn get(store: &Store, call: &Call, t: &Target, name: &str) -> Resp {
    let inner = store.inner.lock().expect("store");
    match inner.objects.get(&key(t, name)) {
        None => not_found(t, name),
        Some(obj) if table::wants_table(call.accept()) => {
            table::response(call, std::slice::from_ref(obj), inner.rv, true)
        }
        Some(obj) => json_response(StatusCode::OK, obj),
    }
}

/// The request body as an object of this kind, or the Status refusing it.
fn body_object(call: &Call, t: &Target) -> Result<Value, Resp> {
    let ct = call
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/json");
    if !ct.starts_with("application/json") {
        return Err(status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "UnsupportedMediaType",
            &format!("the body of the request was in an unknown format - accepted media types include: application/json (got {ct})"),
        ));
    }
    let obj: Value = serde_json::from_slice(&call.body)
        .map_err(|e| bad_request(&format!("the body of the request is not JSON: {e}")))?;
    if !obj.is_object() {
        return Err(bad_request("the body of the request must be a JSON object"));
    }
    let kind = obj["kind"].as_str().unwrap_or(t.kind.name());
    let api_version = obj["apiVersion"].as_str().unwrap_or(GROUP_VERSION);
    if kind != t.kind.name() || api_version != GROUP_VERSION {
        return Err(bad_request(&format!(
            "the object provided is of kind {api_version}, Kind={kind}; this resource takes {GROUP_VERSION}, Kind={}",
            t.kind.name()
        )));
    }
    if !obj["metadata"].is_object() && !obj["metadata"].is_null() {
        return Err(bad_request("metadata must be an object"));
    }
    let ns = meta_str(&obj, "namespace");
    if let Some(want) = &t.namespace {
        if !ns.is_empty() && ns != want {
            return Err(bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
    }
    Ok(obj)
}

/// Sets kind, apiVersion and namespace as the server owns them.
fn normalize(obj: &mut Value, t: &Target) {
    obj["kind"] = json!(t.kind.name());
    obj["apiVersion"] = json!(GROUP_VERSION);
    if !obj["metadata"].is_object() {
        obj["metadata"] = json!({});
    }
    match &t.namespace {
        Some(ns) => obj["metadata"]["namespace"] = json!(ns),
        None => {
            if let Some(m) = obj["metadata"].as_object_mut() {
                m.remove("namespace");
            }
        }
    }
}

/// Drops unknown fields; `Strict` refuses them (400), `Warn` (the default) returns the
/// warnings to send, `Ignore` drops them quietly.
fn check_fields(call: &Call, kind: Kind, obj: &mut Value) -> Result<Vec<String>, Resp> {
    let unknown = fields::messages(&fields::drop_unknown(kind, obj));
    match call.param("fieldValidation").unwrap_or("Warn") {
        "Strict" if !unknown.is_empty() => Err(bad_request(&format!(
            "strict decoding error: {}",
            unknown.join(", ")
        ))),
        "Strict" | "Warn" => Ok(unknown),
        "Ignore" => Ok(Vec::new()),
        other => Err(bad_request(&format!(
            "fieldValidation must be one of Ignore, Warn or Strict, not {other:?}"
        ))),
    }
}

/// `resp` with a `Warning: 299 - "<text>"` header per warning.
fn warned(mut resp: Resp, warnings: &[String]) -> Resp {
    for w in warnings {
        let text = format!("299 - {}", serde_json::Value::String(w.clone()));
        if let Ok(v) = http::HeaderValue::from_str(&text) {
            resp.headers_mut().append(http::header::WARNING, v);
        }
    }
    resp
}

fn dry_run(call: &Call) -> bool {
    call.query.iter().any(|(k, v)| k == "dryRun" && v == "All")
}

fn create(store: &Store, call: &Call, t: &Target) -> Resp {
    let mut obj = match body_object(call, t) {
        Ok(o) => o,
        Err(r) => return r,
    };
    normalize(&mut obj, t);
    let warnings = match check_fields(call, t.kind, &mut obj) {
        Ok(w) => w,
        Err(r) => return r,
    };
    let mut name = meta_str(&obj, "name").to_owned();
    if name.is_empty() {
        let prefix = meta_str(&obj, "generateName").to_owned();
        if prefix.is_empty() {
            return invalid(
                t,
                "",
                "metadata.name",
                "Required value: name or generateName is required",
            );
        }
        name = format!("{prefix}{}", name_suffix());
    }
    let mut inner = store.inner.lock().expect("store");
    let k = key(t, &name);
    if inner.objects.contains_key(&k) {
        let msg = format!("{} \"{name}\" already exists", t.qualified());
        return conflict(t, &name, "AlreadyExists", &msg);
    }
    let rv = inner.rv + 1;
    let meta = &mut obj["metadata"];
    meta["name"] = json!(name);
    meta["uid"] = json!(new_uid());
    meta["creationTimestamp"] = json!(now_rfc3339());
    meta["resourceVersion"] = json!(rv.to_string());
    if !dry_run(call) {
        inner.rv = rv;
        inner.objects.insert(k, obj.clone());
        store.record(&mut inner, t.kind, "ADDED", obj.clone());
    }
    warned(json_response(StatusCode::CREATED, &obj), &warnings)
}

/// Stores `obj` over `old` (keeping what the server owns) at a new resource version.
fn replace(
    store: &Store,
    call: &Call,
    t: &Target,
    name: &str,
    mut obj: Value,
    old: &Value,
) -> Resp {
    let mut inner = store.inner.lock().expect("store");
    let current_rv = meta_str(old, "resourceVersion").to_owned();
    if inner
        .objects
        .get(&key(t, name))
        .is_none_or(|now| meta_str(now, "resourceVersion") != current_rv)
    {
        let msg = format!("Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again", t.qualified());
        return conflict(t, name, "Conflict", &msg);
    }
    normalize(&mut obj, t);
    let warnings = match check_fields(call, t.kind, &mut obj) {
        Ok(w) => w,
        Err(r) => return r,
    };
    let rv = inner.rv + 1;
    for field in ["uid", "creationTimestamp"] {
        obj["metadata"][field] = old["metadata"][field].clone();
    }
    obj["metadata"]["name"] = json!(name);
    obj["metadata"]["resourceVersion"] = json!(rv.to_string());
    if !dry_run(call) {
        inner.rv = rv;
        inner.objects.insert(key(t, name), obj.clone());
        store.record(&mut inner, t.kind, "MODIFIED", obj.clone());
    }
    warned(json_response(StatusCode::OK, &obj), &warnings)
}

fn update(store: &Store, call: &Call, t: &Target, name: &str) -> Resp {
    let obj = match body_object(call, t) {
        Ok(o) => o,
        Err(r) => return r,
    };
    let body_name = meta_str(&obj, "name");
    if body_name != name {
        return bad_request(&format!(
            "the name of the object ({body_name}) does not match the name on the URL ({name})"
        ));
    }
    let Some(old) = store
        .inner
        .lock()
        .expect("store")
        .objects
        .get(&key(t, name))
        .cloned()
    else {
        return not_found(t, name);
    };
    // An update without a resourceVersion is unconditional, as upstream allows for
    // most kinds; with one, it must be the stored one.
    let sent_rv = meta_str(&obj, "resourceVersion");
    if !sent_rv.is_empty() && sent_rv != meta_str(&old, "resourceVersion") {
        let msg = format!("Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again", t.qualified());
        return conflict(t, name, "Conflict", &msg);
    }
    replace(store, call, t, name, obj, &old)
}

/// RFC 7386 merge patch; strategic-merge directives (`$…` keys) are dropped, as this
/// server's kinds have no merge keys.
fn merge(target: &mut Value, patch: &Value) {
    let Some(p) = patch.as_object() else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Some(t) = target.as_object_mut() else {
        return;
    };
    for (k, v) in p {
        if k.starts_with('$') {
            continue;
        }
        if v.is_null() {
            t.remove(k);
        } else {
            merge(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

fn patch(store: &Store, call: &Call, t: &Target, name: &str) -> Resp {
    let ct = call
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !ct.starts_with("application/merge-patch+json")
        && !ct.starts_with("application/strategic-merge-patch+json")
    {
        return status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "UnsupportedMediaType",
            &format!("the media type {ct:?} is not supported: use application/merge-patch+json or application/strategic-merge-patch+json"),
        );
    }
    let Ok(p) = serde_json::from_slice::<Value>(&call.body) else {
        return bad_request("the body of the patch is not JSON");
    };
    if !p.is_object() {
        return bad_request("a merge patch must be a JSON object");
    }
    let Some(old) = store
        .inner
        .lock()
        .expect("store")
        .objects
        .get(&key(t, name))
        .cloned()
    else {
        return not_found(t, name);
    };
    let sent_rv = p["metadata"]["resourceVersion"].as_str().unwrap_or("");
    if !sent_rv.is_empty() && sent_rv != meta_str(&old, "resourceVersion") {
        let msg = format!("Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again", t.qualified());
        return conflict(t, name, "Conflict", &msg);
    }
    let mut obj = old.clone();
    merge(&mut obj, &p);
    replace(store, call, t, name, obj, &old)
}

fn delete(store: &Store, call: &Call, t: &Target, name: &str) -> Resp {
    let mut inner = store.inner.lock().expect("store");
    let Some(mut obj) = inner.objects.get(&key(t, name)).cloned() else {
        return not_found(t, name);
    };
    let done = json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
        "details": {"name": name, "group": GROUP, "kind": t.kind.plural(), "uid": obj["metadata"]["uid"]},
    });
    if dry_run(call) {
        return json_response(StatusCode::OK, &done);
    }
    inner.objects.remove(&key(t, name));
    inner.rv += 1;
    obj["metadata"]["resourceVersion"] = json!(inner.rv.to_string());
    store.record(&mut inner, t.kind, "DELETED", obj);
    json_response(StatusCode::OK, &done)
}
