//! The defaulting walk: one minimal object of every GA resource (and a few variants) sent
//! to this server as it was sent to a real kube-apiserver v1.33.4, and what comes back from
//! the POST and from a GET after it compared field by field with upstream's answers, which
//! `created-1.33.json.gz` holds (recorded by `record-1.33.py` beside it; its header says
//! how). Refusals are compared too: the code and upstream's message.
//!
//! Values that differ between any two runs of either server — uid, resourceVersion,
//! timestamps, allocated cluster IPs and node ports, the random suffix of the service
//! account token volume — are masked in both before comparing. Every other difference is
//! reported, all at once.

use std::io::Read;

use http::Method;
use serde_json::{json, Value};

use super::report;

/// The recorded entries: name, collection path, body, status, upstream's POST and GET.
fn recorded() -> Vec<Value> {
    let gz = include_bytes!("created-1.33.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("gunzip");
    serde_json::from_str::<Value>(&text)
        .expect("json")
        .as_array()
        .expect("a list")
        .clone()
}

/// `v` with the values no two runs share replaced by placeholders. `sent` is the body the
/// client sent, so that only values the server chose are masked.
pub(super) fn masked(v: &Value, sent: &Value) -> Value {
    let mut v = v.clone();
    let uid = v["metadata"]["uid"].as_str().unwrap_or("").to_owned();
    let meta = &mut v["metadata"];
    if meta.is_object() {
        for field in ["uid", "resourceVersion", "creationTimestamp"] {
            if meta.get(field).is_some() {
                meta[field] = json!("<volatile>");
            }
        }
        if let Some(entries) = meta["managedFields"].as_array_mut() {
            for entry in entries {
                entry["time"] = json!("<time>");
            }
        }
    }
    let service = v["kind"] == "Service";
    let spec = &mut v["spec"];
    if spec.is_object() && service {
        for field in ["clusterIP", "clusterIPs"] {
            if spec.get(field).is_some() && sent["spec"].get(field).is_none() {
                spec[field] = json!("<allocated>");
            }
        }
        if spec.get("healthCheckNodePort").is_some()
            && sent["spec"].get("healthCheckNodePort").is_none()
        {
            spec["healthCheckNodePort"] = json!("<allocated>");
        }
        if let Some(ports) = spec["ports"].as_array_mut() {
            for (i, port) in ports.iter_mut().enumerate() {
                if port.get("nodePort").is_some()
                    && sent["spec"]["ports"][i].get("nodePort").is_none()
                {
                    port["nodePort"] = json!("<allocated>");
                }
            }
        }
    }
    scrub(&mut v, &uid);
    v
}

/// Timestamps the server sets, the object's uid where it is repeated (a Job's selector),
/// and the token volume's random suffix.
fn scrub(v: &mut Value, uid: &str) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                let is_time = matches!(
                    k.as_str(),
                    "lastTransitionTime"
                        | "lastUpdateTime"
                        | "lastHeartbeatTime"
                        | "lastProbeTime"
                        | "lastPhaseTransitionTime"
                );
                if is_time && child.is_string() {
                    *child = json!("<time>");
                } else {
                    scrub(child, uid);
                }
            }
            let keys: Vec<String> = map.keys().filter(|k| random_suffix(k)).cloned().collect();
            for k in keys {
                let child = map.remove(&k).expect("key");
                map.insert(mask_suffix(&k), child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| scrub(i, uid)),
        Value::String(s) => {
            if !uid.is_empty() && s.contains(uid) {
                *s = s.replace(uid, "<uid>");
            }
            if random_suffix(s) {
                *s = mask_suffix(s);
            }
        }
        _ => {}
    }
}

const TOKEN_VOLUME: &str = "kube-api-access-";

fn random_suffix(s: &str) -> bool {
    s.contains(TOKEN_VOLUME)
}

fn mask_suffix(s: &str) -> String {
    let at = s.find(TOKEN_VOLUME).expect("prefix") + TOKEN_VOLUME.len();
    let rest = &s[at..];
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    format!("{}<random>{}", &s[..at], &rest[end..])
}

/// Every path where `ours` differs from `theirs`, with both values.
pub(super) fn differences(path: &str, theirs: &Value, ours: &Value, out: &mut Vec<String>) {
    match (theirs, ours) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let child = format!("{path}.{k}");
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => differences(&child, x, y, out),
                    (Some(x), None) => out.push(format!("{child}: upstream {x}, here absent")),
                    (None, Some(y)) => out.push(format!("{child}: upstream absent, here {y}")),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                differences(&format!("{path}[{i}]"), x, y, out);
            }
        }
        _ if theirs != ours => out.push(format!("{path}: upstream {theirs}, here {ours}")),
        _ => {}
    }
}

/// Objects whose status a controller writes soon after the create: how much of it a GET
/// right after shows is a race on either server, so it is left out (but for a CRD's
/// accepted names, which the test waits for).
const ASYNC_STATUS: &[&str] = &["crd", "validatingadmissionpolicy", "flowschema"];

fn without_async_status(v: &mut Value) {
    let names = v["status"]["acceptedNames"].take();
    v["status"] = json!({"acceptedNames": names});
    if let Some(entries) = v["metadata"]["managedFields"].as_array_mut() {
        entries.retain(|e| e["subresource"] != "status");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn minimal_objects_are_defaulted_as_upstream_does() {
    let recorder = super::Recorder::start().await;
    let call = |method: Method, path: String, body: Option<Value>| {
        let recorder = &recorder;
        async move { recorder.call(method, &path, "application/json", body).await }
    };

    // Objects that ask for a fixed cluster IP go first: 10.0.0.77 lies in the band
    // dynamic allocation draws from, where an earlier service could take it (upstream's
    // allocator as ours; only a /24's lowest 16 addresses are kept for fixed requests).
    let mut entries = recorded();
    entries.sort_by_key(|e| {
        e["body"]["spec"]["clusterIP"]
            .as_str()
            .is_none_or(|ip| ip.parse::<std::net::IpAddr>().is_err())
    });
    let mut diffs = Vec::new();
    for entry in entries {
        let name = entry["name"].as_str().expect("name");
        let path = entry["path"].as_str().expect("path").to_owned();
        let body = &entry["body"];
        if name == "widget" {
            // The custom resource's group is served once its definition is established.
            for _ in 0..100 {
                let r = call(Method::GET, "/apis/example.com/v1".into(), None).await;
                if r.status == 200 {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
        let posted = call(Method::POST, path.clone(), Some(body.clone())).await;
        let status = entry["status"].as_u64().expect("status");
        if u64::from(posted.status.as_u16()) != status {
            diffs.push(format!(
                "{name}: POST answered {}, upstream {status}: {}",
                posted.status,
                posted.text()
            ));
            continue;
        }
        if status >= 300 {
            let (theirs, ours) = (&entry["posted"], posted.json());
            for field in ["reason", "message", "details"] {
                differences(
                    &format!("{name} refusal .{field}"),
                    &theirs[field],
                    &ours[field],
                    &mut diffs,
                );
            }
            continue;
        }
        let item = format!(
            "{path}/{}",
            body["metadata"]["name"].as_str().expect("name")
        );
        let mut got = call(Method::GET, item.clone(), None).await;
        if name == "crd" {
            // Its names are accepted by a controller, soon after the create.
            for _ in 0..100 {
                if got.json()["status"]["acceptedNames"]["kind"] == "Widget" {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                got = call(Method::GET, item.clone(), None).await;
            }
        }
        differences(
            &format!("{name} POST"),
            &masked(&entry["posted"], body),
            &masked(&posted.json(), body),
            &mut diffs,
        );
        let (mut theirs, mut ours) = (masked(&entry["got"], body), masked(&got.json(), body));
        if ASYNC_STATUS.contains(&name) {
            for v in [&mut theirs, &mut ours] {
                without_async_status(v);
            }
        }
        differences(&format!("{name} GET"), &theirs, &ours, &mut diffs);
    }
    report("defaults of minimal objects", &diffs);
}
