//! Updates as a real kube-apiserver v1.33.4 answers them: the scenarios of
//! `record-1.33.py --updates` (PUT, merge, JSON and strategic merge patches, apply with a
//! conflict, force and a dropped field, scale and status subresources, stale and missing
//! resourceVersions, dry runs, delete preconditions, a namespace's deletion), replayed
//! here step by step and each answer compared with upstream's (`updates-1.33.json.gz`):
//! the status code, and the body (a refusal's reason, message and details).
//!
//! Masked in both before comparing: what defaults.rs masks (uid, resourceVersion,
//! timestamps, allocated IPs and ports), the deletion timestamp, and the scenario's uids and
//! resourceVersions where a message quotes them. `KNOWN` lists the differences that
//! remain, each with why; every other one fails the test, all reported at once.

use std::io::Read;

use http::Method;
use serde_json::{json, Value};

use super::defaults::{differences, masked};
use super::report;

const JSON: &str = "application/json";

/// Differences known and accepted, by the start of their report line.
const KNOWN: &[&str] = &[
    // The immutable template is shown as Go's %#v of the internal core.PodTemplateSpec
    // (every field of every nested type, pointers by address); here as
    // `core.PodTemplateSpec{...}`. Same field, reason and code.
    "job #75 PATCH /apis/batch/v1/namespaces/default/jobs/u-job.details.causes[0].message",
    "job #75 PATCH /apis/batch/v1/namespaces/default/jobs/u-job.message",
    // A merge patch whose result does not decode: upstream's Invalid of an empty kind
    // quotes the patched JSON as its merge library wrote it (touched objects re-sorted,
    // the rest as stored, versions and times included); here the decode error alone
    // (`Secret in version "v1" cannot be handled as a Secret: …`). Same code.
    "secret #67 PATCH /api/v1/namespaces/default/secrets/u-secret.details",
    "secret #67 PATCH /api/v1/namespaces/default/secrets/u-secret.message",
    // A configuration that does not fit its type is a 400 here, upstream's plain 500
    // (README: a client's error), same message.
    "apply-more #90 PATCH /api/v1/namespaces/default/configmaps/u-apply?fieldManager=m: answered 400",
    // The autoscaling/v2 creator keeps `f:spec.f:metrics` here after an autoscaling/v1
    // update changed the metric; upstream compares each manager's fields in its own
    // version and takes changed ones away (structured-merge-diff's version converter,
    // open: per-manager version conversion).
    "rbac-and-scheduling #107 PATCH /apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/u-hpa.metadata.managedFields[1].fieldsV1.f:spec.f:metrics",
    "rbac-and-scheduling #108 GET /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/u-hpa.metadata.managedFields[1].fieldsV1.f:spec.f:metrics",
    // Upstream appends a cmp.Diff of the internal types to these refusals; same field,
    // reason and code.
    "pod-subresources #112 PATCH /api/v1/namespaces/default/pods/u-pod2/ephemeralcontainers.details.causes[0].message",
    "pod-subresources #112 PATCH /api/v1/namespaces/default/pods/u-pod2/ephemeralcontainers.message",
    "pod-subresources #116 PATCH /api/v1/namespaces/default/pods/u-pod2.details.causes[0].message",
    "pod-subresources #116 PATCH /api/v1/namespaces/default/pods/u-pod2.message",
];

fn recorded() -> Vec<Value> {
    let gz = include_bytes!("updates-1.33.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("gunzip");
    match serde_json::from_str::<Value>(&text).expect("json") {
        Value::Array(steps) => steps,
        _ => panic!("a list of steps"),
    }
}

/// `v` with "$rv" / "$rv0" replaced by the scenario's last / first resourceVersion.
fn substituted(v: &Value, rvs: &[String]) -> Value {
    let first = rvs.first().map(String::as_str).unwrap_or("");
    let last = rvs.last().map(String::as_str).unwrap_or("");
    match v {
        Value::String(s) => json!(s.replace("$rv0", first).replace("$rv", last)),
        Value::Array(items) => Value::Array(items.iter().map(|i| substituted(i, rvs)).collect()),
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), substituted(x, rvs)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What a scenario has seen of one server: its objects' uids and resourceVersions.
#[derive(Default)]
struct Seen {
    uids: Vec<String>,
    rvs: Vec<String>,
}

impl Seen {
    fn note(&mut self, got: &Value) {
        let meta = &got["metadata"];
        if let Some(uid) = meta["uid"].as_str() {
            if !self.uids.iter().any(|u| u == uid) {
                self.uids.push(uid.to_owned());
            }
        }
        let kind = got["kind"].as_str().unwrap_or("");
        if let Some(rv) = meta["resourceVersion"].as_str() {
            if kind != "Status" && kind != "Scale" {
                self.rvs.push(rv.to_owned());
            }
        }
    }

    /// `v` masked, and the scenario's uids and versions quoted in strings replaced.
    fn masked(&self, v: &Value, sent: &Value) -> Value {
        let mut v = masked(v, sent);
        if v["metadata"].get("deletionTimestamp").is_some() {
            v["metadata"]["deletionTimestamp"] = json!("<time>");
        }
        // Both servers order managedFields by operation, then time in seconds, then
        // manager: with the times masked, the order a second's tick decides is not
        // compared.
        if let Some(entries) = v["metadata"]["managedFields"].as_array_mut() {
            let key = |e: &Value| {
                ["operation", "manager", "subresource", "apiVersion"]
                    .map(|k| e[k].as_str().unwrap_or("").to_owned())
            };
            entries.sort_by_key(key);
        }
        self.scrub(&mut v);
        v
    }

    fn scrub(&self, v: &mut Value) {
        match v {
            Value::String(s) => {
                // Go's %#v shows pointers by address.
                while let Some(at) = s.find("(0x") {
                    let end = s[at + 3..]
                        .find(|c: char| !c.is_ascii_hexdigit())
                        .map_or(s.len(), |e| at + 3 + e);
                    s.replace_range(at + 1..end, "<pointer>");
                }
                for uid in &self.uids {
                    *s = s.replace(uid.as_str(), "<uid>");
                }
                // Longest first, so that one version is not replaced inside another.
                let mut rvs: Vec<&String> = self.rvs.iter().collect();
                rvs.sort_by_key(|r| std::cmp::Reverse(r.len()));
                for rv in rvs {
                    *s = s.replace(&format!(": {rv}"), ": <rv>");
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| self.scrub(i)),
            Value::Object(m) => m.values_mut().for_each(|c| self.scrub(c)),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_are_answered_as_upstream_answers_them() {
    let recorder = super::Recorder::start().await;
    let call = |method: Method, path: String, ctype: String, body: Option<Value>| {
        let recorder = &recorder;
        async move { recorder.call(method, &path, &ctype, body).await }
    };

    let mut diffs = Vec::new();
    let (mut scenario, mut ours_seen, mut theirs_seen) =
        (String::new(), Seen::default(), Seen::default());
    for (i, step) in recorded().iter().enumerate() {
        let name = step["scenario"].as_str().expect("scenario");
        if name != scenario {
            scenario = name.to_owned();
            (ours_seen, theirs_seen) = (Seen::default(), Seen::default());
        }
        if step["method"] == "WAIT" {
            // Until the path is served (a new CRD's group-version), as the recorder waited.
            let path = step["path"].as_str().expect("path").to_owned();
            let mut status = 0;
            for _ in 0..150 {
                let r = call(Method::GET, path.clone(), JSON.into(), None).await;
                status = r.status.as_u16();
                if status == 200 {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
            if u64::from(status) != step["status"].as_u64().unwrap_or(0) {
                diffs.push(format!(
                    "{name} #{i} WAIT {path}: {status}, upstream {}",
                    step["status"]
                ));
            }
            continue;
        }
        let method: Method = step["method"].as_str().expect("method").parse().expect("m");
        let path = substituted(&step["path"], &ours_seen.rvs);
        let path = path.as_str().expect("path").to_owned();
        let body = (!step["body"].is_null()).then(|| substituted(&step["body"], &ours_seen.rvs));
        let ctype = step["ctype"]
            .as_str()
            .unwrap_or("application/json")
            .to_owned();
        let reply = call(method.clone(), path.clone(), ctype, body.clone()).await;
        let ours = serde_json::from_slice::<Value>(&reply.body).unwrap_or(json!(reply.text()));
        let theirs = &step["got"];
        ours_seen.note(&ours);
        theirs_seen.note(theirs);
        let what = format!(
            "{name} #{i} {method} {}",
            step["path"].as_str().unwrap_or("")
        );
        let status = step["status"].as_u64().expect("status");
        if u64::from(reply.status.as_u16()) != status {
            diffs.push(format!(
                "{what}: answered {}, upstream {status}: here {}, upstream {}",
                reply.status,
                ours.get("message").unwrap_or(&ours),
                theirs.get("message").unwrap_or(theirs)
            ));
            continue;
        }
        let sent = body.unwrap_or(Value::Null);
        differences(
            &what,
            &theirs_seen.masked(theirs, &sent),
            &ours_seen.masked(&ours, &sent),
            &mut diffs,
        );
    }
    diffs.retain(|d| !KNOWN.iter().any(|k| d.starts_with(k)));
    report("update steps", &diffs);
}
