//! The fuzzer's requests: a seeded PRNG, the request as sent (over either protocol), and
//! the kubectl-shaped ones — create, get, list, update, patch and delete of ConfigMaps,
//! Pods, Deployments, Services and a custom resource, as JSON, YAML or protobuf, with the
//! Accept headers and query parameters kubectl and client-go send.

use prost::Message;
use serde_json::{json, Value};

use crate::hostile::client::{full_body, H2Body, H2Conn};

/// SplitMix64: small, fast, and the same sequence for a seed on every machine.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in lo..=hi.
    pub(super) fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True `percent` times in 100.
    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub(super) fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
}

/// One request, as the fuzzer sends it.
#[derive(Clone, Debug)]
pub(super) struct Req {
    /// What was meant (for the report).
    pub(super) label: String,
    pub(super) method: String,
    /// Path and query.
    pub(super) target: String,
    pub(super) headers: Vec<(String, String)>,
    pub(super) body: Vec<u8>,
    /// HTTP/1.1: the body in chunked coding instead of with a Content-Length.
    pub(super) chunked: bool,
    /// HTTP/1.1: these bytes instead of a head built from the fields (malformed heads).
    pub(super) raw: Option<Vec<u8>>,
    /// Client garbage (a kubectl-shaped request may fail too, but not with a 500 either).
    pub(super) garbage: bool,
    /// HTTP/2: reset the stream part way through the body instead of finishing it.
    pub(super) reset: bool,
}

impl Req {
    pub(super) fn new(label: impl Into<String>, method: &str, target: impl Into<String>) -> Req {
        Req {
            label: label.into(),
            method: method.to_owned(),
            target: target.into(),
            headers: Vec::new(),
            body: Vec::new(),
            chunked: false,
            raw: None,
            garbage: false,
            reset: false,
        }
    }

    pub(super) fn header(mut self, name: &str, value: &str) -> Req {
        if !value.is_empty() {
            self.headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    pub(super) fn body(mut self, content_type: &str, body: Vec<u8>) -> Req {
        self.body = body;
        self.header("Content-Type", content_type)
    }

    pub(super) fn garbage(mut self) -> Req {
        self.garbage = true;
        self
    }

    pub(super) fn is_head(&self) -> bool {
        self.method == "HEAD"
    }

    /// The request's bytes on an HTTP/1.1 connection.
    pub(super) fn to_h1(&self) -> Vec<u8> {
        if let Some(raw) = &self.raw {
            return raw.clone();
        }
        let mut out = format!(
            "{} {} HTTP/1.1\r\nHost: localhost\r\n",
            self.method, self.target
        )
        .into_bytes();
        for (n, v) in &self.headers {
            out.extend_from_slice(n.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(v.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        if self.chunked {
            out.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
            for chunk in self.body.chunks(8192) {
                out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                out.extend_from_slice(chunk);
                out.extend_from_slice(b"\r\n");
            }
            out.extend_from_slice(b"0\r\n\r\n");
        } else {
            if !self.body.is_empty() || matches!(self.method.as_str(), "POST" | "PUT" | "PATCH") {
                out.extend_from_slice(
                    format!("Content-Length: {}\r\n", self.body.len()).as_bytes(),
                );
            }
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(&self.body);
        }
        out
    }

    /// The request on an HTTP/2 connection, or None when HTTP/2 cannot carry it (a raw
    /// HTTP/1 head, a URI or header the `http` crate refuses).
    pub(super) fn to_h2(&self, conn: &H2Conn, body: H2Body) -> Option<http::Request<H2Body>> {
        if self.raw.is_some() {
            return None;
        }
        let mut b = http::Request::builder()
            .method(http::Method::from_bytes(self.method.as_bytes()).ok()?)
            .uri(conn.uri(&self.target));
        for (n, v) in &self.headers {
            b = b.header(n.as_str(), v.as_str());
        }
        b.body(body).ok()
    }

    pub(super) fn h2_body(&self) -> H2Body {
        full_body(self.body.clone())
    }

    /// One line for a report: label, method, target and headers cut to a readable size.
    pub(super) fn summary(&self) -> String {
        let target = cut(&self.target, 160);
        if let Some(raw) = &self.raw {
            return format!(
                "[{}] raw HTTP/1 head {:?} ({} bytes)",
                self.label,
                cut(&String::from_utf8_lossy(raw), 200),
                raw.len()
            );
        }
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|(n, v)| format!("{n}: {}", cut(v, 80)))
            .collect();
        format!(
            "[{}] {} {} {{{}}} body {} bytes{}{} {:?}",
            self.label,
            self.method,
            target,
            headers.join("; "),
            self.body.len(),
            if self.chunked { " chunked" } else { "" },
            if self.reset { " reset" } else { "" },
            cut(&String::from_utf8_lossy(&self.body), 160),
        )
    }
}

/// `s` cut to about `n` characters, saying how long it was.
pub(super) fn cut(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_owned();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…({} bytes)", &s[..end], s.len())
}

/// The namespace the fuzzer works in (created before it starts).
pub(super) const NS: &str = "fuzz";
/// The custom resource's group and its CRD.
pub(super) const CR_GROUP: &str = "fuzz.example.com";
pub(super) const CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.fuzz.example.com"},
"spec":{"group":"fuzz.example.com","scope":"Namespaced",
"names":{"plural":"gadgets","singular":"gadget","kind":"Gadget"},
"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
"x-kubernetes-validations":[{"rule":"self.size <= 100","message":"size at most 100"}],
"properties":{"size":{"type":"integer","minimum":0},"color":{"type":"string","maxLength":64},
"tags":{"type":"array","items":{"type":"string"}}}},
"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}"#;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    ConfigMap,
    Pod,
    Deployment,
    Service,
    Gadget,
}

pub(super) const KINDS: [Kind; 5] = [
    Kind::ConfigMap,
    Kind::Pod,
    Kind::Deployment,
    Kind::Service,
    Kind::Gadget,
];

/// Object names: few, so that creates, gets and deletes meet.
const NAMES: [&str; 6] = ["a0", "a1", "a2", "b0", "b1", "web"];

impl Kind {
    pub(super) fn collection(self, ns: &str) -> String {
        match self {
            Kind::ConfigMap => format!("/api/v1/namespaces/{ns}/configmaps"),
            Kind::Pod => format!("/api/v1/namespaces/{ns}/pods"),
            Kind::Service => format!("/api/v1/namespaces/{ns}/services"),
            Kind::Deployment => format!("/apis/apps/v1/namespaces/{ns}/deployments"),
            Kind::Gadget => format!("/apis/{CR_GROUP}/v1/namespaces/{ns}/gadgets"),
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::ConfigMap => "configmap",
            Kind::Pod => "pod",
            Kind::Service => "service",
            Kind::Deployment => "deployment",
            Kind::Gadget => "gadget",
        }
    }

    /// A valid object of this kind (with some randomness in its content).
    pub(super) fn object(self, rng: &mut Rng, name: &str) -> Value {
        let labels = json!({"app": rng.pick(&["web", "db", "cache"]), "fuzz": "yes"});
        match self {
            Kind::ConfigMap => json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": name, "labels": labels},
                "data": {"k": format!("v{}", rng.below(1000)), "other": "x"}
            }),
            Kind::Pod => json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "labels": labels},
                "spec": {"containers": [{"name": "c", "image": "nginx:1.27",
                    "ports": [{"containerPort": 80}],
                    "env": [{"name": "A", "value": "1"}]}]}
            }),
            Kind::Deployment => json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": name, "labels": labels},
                "spec": {"replicas": rng.below(4),
                    "selector": {"matchLabels": {"app": name}},
                    "template": {"metadata": {"labels": {"app": name}},
                        "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}}
            }),
            Kind::Service => json!({
                "apiVersion": "v1", "kind": "Service",
                "metadata": {"name": name, "labels": labels},
                "spec": {"selector": {"app": name},
                    "ports": [{"port": 80 + rng.below(10) as u16, "protocol": "TCP"}]}
            }),
            Kind::Gadget => json!({
                "apiVersion": format!("{CR_GROUP}/v1"), "kind": "Gadget",
                "metadata": {"name": name, "labels": labels},
                "spec": {"size": rng.below(120), "color": "red", "tags": ["a", "b"]}
            }),
        }
    }

    /// The object in kube-apiserver's protobuf envelope (built-in kinds the fuzzer
    /// encodes; None for the others).
    pub(super) fn protobuf(self, obj: &Value) -> Option<Vec<u8>> {
        use k8s_pb::api::core::v1 as core;
        use k8s_pb::apimachinery::pkg::apis::meta::v1::ObjectMeta;
        let meta = ObjectMeta {
            name: obj["metadata"]["name"].as_str().map(str::to_owned),
            labels: serde_json::from_value(obj["metadata"]["labels"].clone()).unwrap_or_default(),
            ..Default::default()
        };
        let (api_version, kind, raw) = match self {
            Kind::ConfigMap => (
                "v1",
                "ConfigMap",
                core::ConfigMap {
                    metadata: Some(meta),
                    data: serde_json::from_value(obj["data"].clone()).unwrap_or_default(),
                    ..Default::default()
                }
                .encode_to_vec(),
            ),
            Kind::Pod => (
                "v1",
                "Pod",
                core::Pod {
                    metadata: Some(meta),
                    spec: Some(core::PodSpec {
                        containers: vec![core::Container {
                            name: Some("c".into()),
                            image: Some("nginx:1.27".into()),
                            ..Default::default()
                        }],
                        ..Default::default()
                    }),
                    ..Default::default()
                }
                .encode_to_vec(),
            ),
            _ => return None,
        };
        Some(envelope(api_version, kind, raw))
    }
}

/// `k8s\0` and a runtime.Unknown around `raw`.
pub(super) fn envelope(api_version: &str, kind: &str, raw: Vec<u8>) -> Vec<u8> {
    use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: Some(api_version.into()),
            kind: Some(kind.into()),
        }),
        raw: Some(raw),
        content_encoding: Some(String::new()),
        content_type: Some(String::new()),
    };
    let mut out = b"k8s\0".to_vec();
    out.extend(unknown.encode_to_vec());
    out
}

pub(super) const JSON: &str = "application/json";
pub(super) const YAML: &str = "application/yaml";
pub(super) const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";

/// Accept headers kubectl and client-go send (and none).
const ACCEPTS: [&str; 8] = [
    "",
    JSON,
    "application/json, */*",
    YAML,
    "application/vnd.kubernetes.protobuf, application/json",
    PROTOBUF,
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
    "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json",
];

/// The body of `obj` in one of the encodings the server takes for `kind`.
pub(super) fn encode(rng: &mut Rng, kind: Kind, obj: &Value) -> (&'static str, Vec<u8>) {
    match rng.below(4) {
        0 | 1 => (JSON, serde_json::to_vec(obj).unwrap_or_default()),
        2 => (
            YAML,
            serde_yaml_ng::to_string(obj)
                .unwrap_or_default()
                .into_bytes(),
        ),
        _ => match kind.protobuf(obj) {
            Some(pb) => (PROTOBUF, pb),
            None => (JSON, serde_json::to_vec(obj).unwrap_or_default()),
        },
    }
}

/// Query parameters for a write, as kubectl sends them.
fn write_query(rng: &mut Rng) -> String {
    let mut q = Vec::new();
    if rng.chance(50) {
        q.push(format!(
            "fieldValidation={}",
            rng.pick(&["Strict", "Warn", "Ignore"])
        ));
    }
    if rng.chance(20) {
        q.push("dryRun=All".to_owned());
    }
    if rng.chance(30) {
        q.push("fieldManager=kubectl-client-side-apply".to_owned());
    }
    if rng.chance(10) {
        q.push("pretty=true".to_owned());
    }
    join_query(q)
}

pub(super) fn join_query(q: Vec<String>) -> String {
    if q.is_empty() {
        String::new()
    } else {
        format!("?{}", q.join("&"))
    }
}

/// A kubectl-shaped request.
pub(super) fn kubectl_shaped(rng: &mut Rng) -> Req {
    let kind = rng.pick(&KINDS);
    let ns = if rng.chance(95) { NS } else { "default" };
    let name = rng.pick(&NAMES);
    let coll = kind.collection(ns);
    let item = format!("{coll}/{name}");
    let accept = rng.pick(&ACCEPTS);
    let k = kind.name();
    let req = match rng.below(10) {
        0 | 1 => {
            let obj = kind.object(rng, name);
            let (ct, body) = encode(rng, kind, &obj);
            Req::new(
                format!("create {k} {ct}"),
                "POST",
                format!("{coll}{}", write_query(rng)),
            )
            .body(ct, body)
        }
        2 => Req::new(format!("get {k}"), "GET", item.clone()),
        3 => {
            let mut q = Vec::new();
            if rng.chance(50) {
                q.push(format!(
                    "labelSelector={}",
                    rng.pick(&[
                        "app%3Dweb",
                        "app+in+%28web%2Cdb%29",
                        "fuzz",
                        "%21fuzz",
                        "app%21%3Ddb"
                    ])
                ));
            }
            if rng.chance(40) {
                q.push(format!("limit={}", rng.range(1, 5)));
            }
            if rng.chance(20) {
                q.push("fieldSelector=metadata.name%3Da0".to_owned());
            }
            if rng.chance(20) {
                q.push("resourceVersion=0".to_owned());
            }
            Req::new(
                format!("list {k}"),
                "GET",
                format!("{coll}{}", join_query(q)),
            )
        }
        4 => {
            let obj = kind.object(rng, name);
            let (ct, body) = encode(rng, kind, &obj);
            Req::new(
                format!("update {k} {ct}"),
                "PUT",
                format!("{item}{}", write_query(rng)),
            )
            .body(ct, body)
        }
        5 | 6 => patch(rng, kind, &item),
        7 => {
            let mut r = Req::new(
                format!("delete {k}"),
                "DELETE",
                format!(
                    "{item}{}",
                    join_query(if rng.chance(30) {
                        vec!["dryRun=All".to_owned()]
                    } else {
                        vec![]
                    })
                ),
            );
            if rng.chance(40) {
                r = r.body(
                    JSON,
                    br#"{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}"#
                        .to_vec(),
                );
            }
            r
        }
        8 => {
            // HEAD of what the workers serve, and of what the front door answers itself.
            let target = if rng.chance(70) {
                coll
            } else {
                rng.pick(&[
                    "/version",
                    "/healthz",
                    "/readyz",
                    "/apis",
                    "/openapi/v2",
                    "/nothing",
                ])
                .to_owned()
            };
            Req::new(
                format!("head {k}"),
                if rng.chance(50) { "HEAD" } else { "GET" },
                target,
            )
        }
        _ => Req::new(
            "discovery",
            "GET",
            rng.pick(&[
                "/api",
                "/apis",
                "/api/v1",
                "/apis/apps/v1",
                "/apis/fuzz.example.com/v1",
                "/version",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.fuzz.example.com",
            ]),
        ),
    };
    req.header("Accept", accept).header(
        "User-Agent",
        "kubectl/v1.32.0 (linux/amd64) kubernetes/fuzz",
    )
}

/// A patch of one of the four types kubectl sends.
fn patch(rng: &mut Rng, kind: Kind, item: &str) -> Req {
    let k = kind.name();
    let label = format!("v{}", rng.below(100));
    let (ct, body, query) = match rng.below(4) {
        0 => (
            "application/merge-patch+json",
            json!({"metadata": {"labels": {"patched": label}}}).to_string(),
            write_query(rng),
        ),
        1 if kind != Kind::Gadget => (
            "application/strategic-merge-patch+json",
            match kind {
                Kind::Pod => {
                    json!({"spec": {"containers": [{"name": "c", "image": "nginx:1.28"}]}})
                }
                Kind::Deployment => json!({"spec": {"template": {"spec": {"containers":
                    [{"name": "c", "env": [{"name": "B", "value": label}]}]}}}}),
                _ => json!({"metadata": {"annotations": {"patched": label}}}),
            }
            .to_string(),
            write_query(rng),
        ),
        2 => (
            "application/json-patch+json",
            json!([{"op": "add", "path": "/metadata/labels/patched", "value": label}]).to_string(),
            write_query(rng),
        ),
        _ => {
            let mut obj = kind.object(rng, item.rsplit('/').next().unwrap_or("a0"));
            obj["metadata"]["labels"]["patched"] = json!(label);
            (
                "application/apply-patch+yaml",
                serde_yaml_ng::to_string(&obj).unwrap_or_default(),
                "?fieldManager=fuzz&force=true".to_owned(),
            )
        }
    };
    Req::new(format!("patch {k} {ct}"), "PATCH", format!("{item}{query}"))
        .body(ct, body.into_bytes())
}
