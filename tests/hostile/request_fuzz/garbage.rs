//! The fuzzer's garbage: kubectl-shaped requests with their bodies mutated (truncated,
//! bit-flipped, invalid UTF-8, wrong types, deeply nested, alias bombs, huge values),
//! bodies a server refuses before reading them (415, 406, 400, 404, 405) of 10–300 KB,
//! bad query parameters, odd paths, headers and methods, and — HTTP/1.1 only — malformed
//! request heads and URLs past 64 KiB.

use serde_json::{json, Value};

use super::shapes::{
    cut, envelope, join_query, kubectl_shaped, Kind, Req, Rng, JSON, KINDS, NS, YAML,
};

/// A garbage request; `h1` allows what only HTTP/1.1 can carry.
pub(super) fn garbage(rng: &mut Rng, h1: bool) -> Req {
    let req = match rng.below(if h1 { 13 } else { 11 }) {
        0 | 1 => mutated_body(rng),
        2 => nested(rng),
        3 => alias_bomb(rng),
        4 => huge_value(rng),
        5 | 6 => early_refused(rng),
        7 => bad_query(rng),
        8 => odd_path(rng),
        9 => odd_headers(rng),
        10 => odd_method(rng),
        11 => malformed_head(rng),
        _ => long_url(rng),
    };
    req.garbage()
}

/// A create, update or patch whose body is then broken.
fn mutated_body(rng: &mut Rng) -> Req {
    let mut req = loop {
        let r = kubectl_shaped(rng);
        if !r.body.is_empty() {
            break r;
        }
    };
    let body = std::mem::take(&mut req.body);
    let (how, body) = match rng.below(9) {
        0 => {
            let at = rng.below(body.len().max(1));
            ("truncated", body[..at].to_vec())
        }
        1 => {
            let mut b = body;
            for _ in 0..rng.range(1, 8) {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            ("bit-flipped", b)
        }
        2 => {
            // Invalid UTF-8 inside the first string value.
            let mut b = body;
            let at = b.iter().position(|c| *c == b'"').map_or(0, |i| i + 1);
            let junk = rng.pick(&[
                &b"\xff\xfe"[..],
                b"\xc3\x28",
                b"\xed\xa0\x80",
                b"\xf4\x90\x80\x80",
                b"\x00",
            ]);
            b.splice(at..at, junk.iter().copied());
            ("invalid UTF-8", b)
        }
        3 => {
            let junk: Vec<u8> = (0..rng.range(0, 2000))
                .map(|_| rng.below(256) as u8)
                .collect();
            ("random bytes", junk)
        }
        4 => (
            "not an object",
            rng.pick(&[
                "null",
                "[]",
                "\"str\"",
                "1e999",
                "{",
                "",
                "{}",
                "{\"kind\":5}",
            ])
            .as_bytes()
            .to_vec(),
        ),
        5 => ("wrong types", wrong_types(rng)),
        6 => {
            // An unknown and a duplicate field, asked to be strict.
            req.target
                .push_str(if req.target.contains('?') { "&" } else { "?" });
            req.target.push_str("fieldValidation=Strict");
            (
                "unknown and duplicate fields",
                br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a0","name":"a1","bogus":1},"data":{"k":"v"},"spec":{}}"#.to_vec(),
            )
        }
        7 => ("protobuf garbage", protobuf_garbage(rng)),
        _ => {
            // A strategic merge patch whose list mixes element types.
            req.method = "PATCH".into();
            req.target = format!("{}/a0", Kind::Pod.collection(NS));
            req.headers.retain(|(n, _)| n != "Content-Type");
            req.headers.push((
                "Content-Type".into(),
                "application/strategic-merge-patch+json".into(),
            ));
            (
                "strategic merge patch, mixed list",
                rng.pick(&[
                    r#"{"spec":{"containers":[{"name":"c","image":"x"},"str"]}}"#,
                    r#"{"metadata":{"finalizers":["a",{"b":1}]}}"#,
                    r#"{"spec":{"containers":[{"$patch":"bogus","name":"c"}]}}"#,
                    r#"{"$setElementOrder/containers":[1,2],"spec":{}}"#,
                ])
                .as_bytes()
                .to_vec(),
            )
        }
    };
    req.body = body;
    req.label = format!("{} ({how})", req.label);
    req
}

/// A valid-looking object with fields of the wrong JSON type.
fn wrong_types(rng: &mut Rng) -> Vec<u8> {
    let kind = rng.pick(&KINDS);
    let mut obj = kind.object(rng, "a0");
    match rng.below(5) {
        0 => obj["metadata"]["labels"] = json!(5),
        1 => obj["metadata"] = json!("string"),
        2 => obj["spec"] = json!([1, 2, 3]),
        3 => obj["metadata"]["name"] = json!({"nested": true}),
        _ => obj["metadata"]["creationTimestamp"] = json!("yesterday"),
    }
    serde_json::to_vec(&obj).unwrap_or_default()
}

fn protobuf_garbage(rng: &mut Rng) -> Vec<u8> {
    let obj = Kind::ConfigMap.object(rng, "a0");
    let good = Kind::ConfigMap.protobuf(&obj).unwrap_or_default();
    match rng.below(4) {
        0 => {
            let mut b = b"k8s\0".to_vec();
            b.extend((0..rng.range(0, 500)).map(|_| rng.below(256) as u8));
            b
        }
        1 => good[..rng.below(good.len())].to_vec(),
        2 => envelope("v1", "Pod", good[4..].to_vec()),
        _ => envelope("v1", "ConfigMap", vec![0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]),
    }
}

/// A body nested thousands of levels deep, as JSON or YAML.
fn nested(rng: &mut Rng) -> Req {
    let depth = rng.range(200, 20_000);
    let (ct, body) = if rng.chance(50) {
        let inner = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        (
            JSON,
            format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"deep","annotations":{inner}}}}}"#
            ),
        )
    } else {
        let inner = format!("{}{}", "{a: ".repeat(depth), "}".repeat(depth));
        (
            YAML,
            format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: {inner}\n"),
        )
    };
    Req::new(
        format!("nested {depth} deep {ct}"),
        "POST",
        Kind::ConfigMap.collection(NS),
    )
    .body(ct, body.into_bytes())
}

/// A YAML body whose aliases expand to billions of nodes.
fn alias_bomb(rng: &mut Rng) -> Req {
    let mut y = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\nx0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let p = i - 1;
        y.push_str(&format!(
            "x{i}: &x{i} [*x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}]\n"
        ));
    }
    y.push_str("data: {k: *x9}\n");
    let (method, target, ct) = match rng.below(3) {
        0 => ("POST", Kind::ConfigMap.collection(NS), YAML),
        1 => (
            "PATCH",
            format!("{}/bomb?fieldManager=fuzz", Kind::ConfigMap.collection(NS)),
            "application/apply-patch+yaml",
        ),
        _ => (
            "PUT",
            format!("{}/bomb", Kind::ConfigMap.collection(NS)),
            YAML,
        ),
    };
    Req::new(format!("alias bomb {method}"), method, target).body(ct, y.into_bytes())
}

/// An object with one value far over its limit (name, label, annotations, data, body).
fn huge_value(rng: &mut Rng) -> Req {
    let kind = rng.pick(&[Kind::ConfigMap, Kind::Gadget, Kind::Pod]);
    let mut obj = kind.object(rng, "huge");
    let (what, big) = match rng.below(5) {
        0 => ("name", rng.range(254, 5000)),
        1 => ("label", rng.range(64, 100_000)),
        2 => ("annotation", rng.range(256 << 10, 400 << 10)),
        3 => ("data", rng.range(1 << 20, (1 << 20) + 100_000)),
        _ => ("body over 3 MiB", (3 << 20) + rng.below(200_000)),
    };
    let filler = "x".repeat(big);
    match what {
        "name" => obj["metadata"]["name"] = json!(filler),
        "label" => obj["metadata"]["labels"]["big"] = json!(filler),
        "annotation" => obj["metadata"]["annotations"] = json!({"big": filler}),
        _ => obj["data"] = json!({"big": filler}),
    }
    Req::new(
        format!("huge {what} ({big} bytes)"),
        "POST",
        kind.collection(NS),
    )
    .body(JSON, serde_json::to_vec(&obj).unwrap_or_default())
}

/// A valid ConfigMap padded to `size` bytes of JSON.
fn padded_configmap(size: usize) -> Vec<u8> {
    let obj: Value = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "big"},
        "data": {"pad": "p".repeat(size.saturating_sub(90))}
    });
    serde_json::to_vec(&obj).unwrap_or_default()
}

/// A request the server refuses before it reads the body, with a body of 10–300 KB
/// (sometimes chunked): the keep-alive case of issue 21.
fn early_refused(rng: &mut Rng) -> Req {
    let size = rng.range(10 << 10, 300 << 10);
    let body = padded_configmap(size);
    let coll = Kind::ConfigMap.collection(NS);
    let mut req = match rng.below(7) {
        0 => Req::new("415 text/plain", "POST", coll).body("text/plain", body),
        1 => Req::new("406 Accept", "POST", coll)
            .body(JSON, body)
            .header("Accept", "text/html"),
        2 => Req::new(
            "400 fieldValidation",
            "POST",
            format!("{coll}?fieldValidation=Sometimes"),
        )
        .body(JSON, body),
        3 => Req::new("400 dryRun", "POST", format!("{coll}?dryRun=Bogus")).body(JSON, body),
        4 => Req::new(
            "404 resource",
            "POST",
            format!("/api/v1/namespaces/{NS}/nothings"),
        )
        .body(JSON, body),
        5 => Req::new("405 on an item", "POST", format!("{coll}/big")).body(JSON, body),
        _ => Req::new("415 PATCH as JSON", "PATCH", format!("{coll}/a0")).body(JSON, body),
    };
    req.label = format!("early refusal {} with {size} bytes", req.label);
    req.chunked = rng.chance(30);
    req
}

fn bad_query(rng: &mut Rng) -> Req {
    let kind = rng.pick(&KINDS);
    let coll = kind.collection(NS);
    let q = rng.pick(&[
        "limit=abc",
        "limit=-1",
        "limit=99999999999999999999",
        "continue=garbage",
        "continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiYSJ9",
        "limit=2&continue=%ff%fe",
        "resourceVersion=abc",
        "resourceVersion=0&resourceVersionMatch=Bogus",
        "resourceVersionMatch=Exact",
        "timeoutSeconds=abc",
        "labelSelector=a+in+%28",
        "labelSelector=%3D%3D%3D",
        "labelSelector=a%3D%3Db%2Cc%21%21d",
        "fieldSelector=metadata.name%3D%3D",
        "fieldSelector=spec.bogus%3D1",
        // Any watch value but 0/false is a watch upstream: ended by its timeout here.
        "watch=bogus&timeoutSeconds=1",
        "watch=1&timeoutSeconds=-5",
        "allowWatchBookmarks=maybe",
        "pretty=maybe",
        "sendInitialEvents=true",
        "%zz=1",
        "labelSelector=%C0%80",
        "limit=1&limit=2&limit=x",
    ]);
    let q = if rng.chance(10) {
        format!("labelSelector=a%3D{}", "b".repeat(rng.range(64, 20_000)))
    } else {
        q.to_owned()
    };
    if rng.chance(30) {
        // Bad parameters of writes, with a real body.
        let obj = kind.object(rng, "a0");
        let w = rng.pick(&[
            "fieldValidation=Sometimes",
            "dryRun=All&dryRun=Bogus",
            "fieldManager=",
            "fieldManager=%00",
        ]);
        let fm = format!("fieldManager={}", "m".repeat(200));
        let w = if rng.chance(20) { fm.as_str() } else { w };
        return Req::new(
            format!("bad write query {w}"),
            "POST",
            format!("{coll}?{w}"),
        )
        .body(JSON, serde_json::to_vec(&obj).unwrap_or_default());
    }
    if rng.chance(20) {
        let d = rng.pick(&[
            "propagationPolicy=Bogus",
            "gracePeriodSeconds=abc",
            "gracePeriodSeconds=-1",
            "dryRun=Bogus",
        ]);
        return Req::new(
            format!("bad delete query {d}"),
            "DELETE",
            format!("{coll}/a0?{d}"),
        );
    }
    Req::new(
        format!("bad query {}", cut(&q, 60)),
        "GET",
        format!("{coll}?{q}"),
    )
}

fn odd_path(rng: &mut Rng) -> Req {
    let p = rng.pick(&[
        "/api/v1/namespaces/fuzz/configmaps/../secrets",
        "//api//v1//namespaces",
        "/api/v1/namespaces/fuzz/configmaps/%2e%2e",
        "/api/v1/namespaces/fuzz/configmaps/a%2Fb",
        "/api/v1/namespaces/fuzz/configmaps/%00",
        "/api/v1/namespaces/fuzz/configmaps/%E2%98%83",
        "/api/v1/namespaces/fuzz/configmaps/%ff",
        "/api/v1/namespaces/%20/configmaps",
        "/api/v1/namespaces/fuzz/configmaps/a0/status",
        "/api/v1/namespaces/fuzz/configmaps/a0/bogus/deeper",
        "/api/v1/namespaces/fuzz/pods/a0/log?container=nope",
        "/api/v1/namespaces/fuzz/pods/a0/exec?command=ls",
        "/api/v1/namespaces/fuzz/pods/nope/status",
        "/apis/apps/v1/namespaces/fuzz/deployments/web/scale",
        "/apis/fuzz.example.com/v1/namespaces/fuzz/gadgets/a0/status",
        "/apis/fuzz.example.com/v2/namespaces/fuzz/gadgets",
        "/apis/nonexistent.example.com/v1/foos",
        "/apis/apps",
        "/apis/apps/v9",
        "/api/v2",
        "/api/v1/nothings",
        "/api/v1/namespaces/fuzz/configmaps/a0?",
        "/api/v1/namespaces/fuzz/configmaps/a0?&&&=&",
        "/api/v1/namespaces/fuzz/configmaps/a0#frag",
        "/api/v1/watch/namespaces/fuzz/configmaps/a0?timeoutSeconds=abc",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/nope.fuzz.example.com",
        "/api/v1/namespaces/fuzz/serviceaccounts/nope/token",
    ]);
    let name_len = rng.range(254, 4000);
    let p = if rng.chance(15) {
        format!(
            "{}/{}",
            Kind::ConfigMap.collection(NS),
            "n".repeat(name_len)
        )
    } else {
        p.to_owned()
    };
    let method = rng.pick(&["GET", "GET", "DELETE", "PUT", "POST"]);
    let mut req = Req::new(format!("odd path {method}"), method, p);
    if method == "PUT" || method == "POST" {
        let obj = Kind::ConfigMap.object(rng, "a0");
        req = req.body(JSON, serde_json::to_vec(&obj).unwrap_or_default());
    }
    req
}

fn odd_headers(rng: &mut Rng) -> Req {
    let mut req = kubectl_shaped(rng);
    let (n, v) = rng.pick(&[
        ("Accept", "text/html"),
        ("Accept", ";;;"),
        ("Accept", "application/json;as=Table;v=v9;g=meta.k8s.io"),
        ("Accept", "application/json;as=Bogus;g=meta.k8s.io;v=v1"),
        ("Accept", "application/yaml;stream=watch"),
        ("Accept", "*/*;q=0"),
        ("Accept", "application/*"),
        ("Content-Type", "application/json;;;"),
        ("Content-Type", "application/json; charset=utf-16"),
        ("Content-Type", "APPLICATION/JSON"),
        ("Content-Type", "multipart/form-data; boundary=x"),
        ("Content-Type", ""),
        ("Impersonate-User", "fuzz-nobody"),
        ("Impersonate-Group", "system:masters"),
        ("Impersonate-User", "system:serviceaccount:fuzz:nope"),
        ("Authorization", "Bearer garbage.garbage.garbage"),
        ("Authorization", "Basic !!!"),
        ("X-Remote-User", "someone"),
        ("Content-Encoding", "gzip"),
        ("Audit-ID", "not a uuid but fine"),
        ("X-Forwarded-For", "not-an-ip, 300.1.1.1"),
    ]);
    if n == "Accept" || n == "Content-Type" {
        req.headers.retain(|(h, _)| !h.eq_ignore_ascii_case(n));
    }
    if !v.is_empty() {
        req.headers.push((n.into(), v.into()));
    }
    if rng.chance(10) {
        for i in 0..rng.range(50, 300) {
            req.headers.push((format!("X-Fuzz-{i}"), "v".repeat(i)));
        }
    }
    req.label = format!("{} (header {n}: {v})", req.label);
    req
}

fn odd_method(rng: &mut Rng) -> Req {
    let m = rng.pick(&[
        "FOO", "PROPFIND", "get", "TRACE", "OPTIONS", "PURGE", "MKCOL",
    ]);
    let kind = rng.pick(&KINDS);
    let target = if rng.chance(50) {
        kind.collection(NS)
    } else {
        format!("{}/a0", kind.collection(NS))
    };
    let mut req = Req::new(format!("method {m}"), m, target);
    if rng.chance(40) {
        req = req.body(JSON, padded_configmap(rng.range(100, 20_000)));
    }
    req
}

/// HTTP/1.1 heads hyper cannot parse: hyper answers them itself and closes.
fn malformed_head(rng: &mut Rng) -> Req {
    let raw = rng.pick(&[
        "GET /api HTTP/1.1\r\nHost localhost\r\n\r\n",
        "GET /api\x01 HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "GET /api HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\x7fb\r\n\r\n",
        "GET /api HTTP/1.1\r\nHost: localhost\r\n X-Folded: yes\r\n\r\n",
        "GET /api HTTP/9.9\r\nHost: localhost\r\n\r\n",
        "GET /api HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n",
        "GET /api HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        "POST /api/v1/namespaces/fuzz/configmaps HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: bogus\r\n\r\n",
        "GET /api HTTP/1.1\r\nHost: localhost\r\nBad Name: x\r\n\r\n",
        "CONNECT /api HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "\x16\x03\x01\x00\x05hello\r\n\r\n",
    ]);
    let mut req = Req::new("malformed head", "GET", "/");
    req.raw = Some(raw.as_bytes().to_vec());
    if rng.chance(20) {
        // A head over the 1 MiB limit.
        let mut big = b"GET /api HTTP/1.1\r\nHost: localhost\r\nX-Big: ".to_vec();
        big.extend(std::iter::repeat_n(b'h', (1 << 20) + rng.below(100_000)));
        big.extend_from_slice(b"\r\n\r\n");
        req.raw = Some(big);
        req.label = "head over 1 MiB".into();
    }
    req
}

/// A URL of 64 KiB and more (a name that long, or a long query).
fn long_url(rng: &mut Rng) -> Req {
    let len = rng.range(64 << 10, 80 << 10);
    let coll = Kind::ConfigMap.collection(NS);
    let target = if rng.chance(50) {
        format!("{coll}/{}", "n".repeat(len))
    } else {
        format!(
            "{coll}{}",
            join_query(vec![format!("labelSelector=a%3D{}", "b".repeat(len))])
        )
    };
    Req::new(format!("URL of {len} bytes"), "GET", target)
}
