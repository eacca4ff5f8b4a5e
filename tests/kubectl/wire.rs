//! Wire details as kube-apiserver's (issue 17): every JSON document ends with a newline,
//! `pretty` (or a curl/Wget/browser user agent) indents as Go's MarshalIndent, query
//! booleans and integers are converted as upstream converts them.

use http::Method;
use serde_json::json;

use crate::harness::{Reply, Server};

async fn req(server: &Server, method: Method, path: &str, ua: &str, body: &[u8]) -> Reply {
    let mut headers = vec![("content-type", "application/json")];
    if !ua.is_empty() {
        headers.push(("user-agent", ua));
    }
    server
        .request_full(method, path, &headers, body, true, false)
        .await
        .expect("request")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_documents_end_with_a_newline_and_pretty_indents() {
    let server = Server::builder().start().await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "w"},
        "data": {"k": "v"}});
    let created = req(
        &server,
        Method::POST,
        "/api/v1/namespaces/default/configmaps",
        "",
        cm.to_string().as_bytes(),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.text());
    assert!(created.text().ends_with("}\n"), "{:?}", created.text());
    assert!(!created.text().contains("\n  "), "compact by default");
    let one = "/api/v1/namespaces/default/configmaps/w";
    for (path, ua, pretty) in [
        (format!("{one}?pretty=true"), "", true),
        (format!("{one}?pretty=1"), "", true),
        (one.to_owned(), "curl/8.5.0", true),
        (one.to_owned(), "Mozilla/5.0 (X11)", true),
        (format!("{one}?pretty=false"), "curl/8.5.0", false),
        (format!("{one}?pretty=yes"), "", false),
        (one.to_owned(), "kubectl/v1.33.0", false),
    ] {
        let r = req(&server, Method::GET, &path, ua, b"").await;
        assert_eq!(r.status, 200);
        let text = r.text();
        if pretty {
            assert!(text.starts_with("{\n  \""), "{path} {ua}: {text}");
            assert!(text.ends_with("\n}"), "{path} {ua}: {text:?}");
            assert!(
                text.contains("\"data\": {\n    \"k\": \"v\"\n  }"),
                "{text}"
            );
        } else {
            assert!(
                text.ends_with("}\n") && !text.contains("\n  "),
                "{path} {ua}: {text}"
            );
        }
        assert_eq!(r.json()["data"]["k"], "v");
    }
    // resourceVersion "0" is an unconditional update for a built-in type.
    let mut update = cm.clone();
    update["metadata"]["resourceVersion"] = json!("0");
    update["data"]["k"] = json!("v2");
    let r = req(&server, Method::PUT, one, "", update.to_string().as_bytes()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["data"]["k"], "v2");
    let list = req(
        &server,
        Method::GET,
        "/api/v1/namespaces/default/configmaps",
        "",
        b"",
    )
    .await;
    assert!(list.text().ends_with("]}\n"), "{:?}", list.text());
    let missing = req(&server, Method::GET, &format!("{one}x"), "", b"").await;
    assert_eq!(missing.status, 404);
    assert!(missing.text().ends_with("}\n"), "{:?}", missing.text());
    let pretty_missing = req(
        &server,
        Method::GET,
        &format!("{one}x?pretty=true"),
        "",
        b"",
    )
    .await;
    assert!(
        pretty_missing.text().starts_with("{\n  \""),
        "{}",
        pretty_missing.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn query_booleans_and_integers_convert_as_upstream() {
    let server = Server::builder().start().await;
    let list = "/api/v1/namespaces/default/configmaps";
    // Any value but 0/false starts a watch (the Python client sends watch=True).
    for v in ["True", "TRUE", "1", "yes", ""] {
        let r = req(
            &server,
            Method::GET,
            &format!("{list}?watch={v}&timeoutSeconds=1"),
            "",
            b"",
        )
        .await;
        assert_eq!(r.status, 200, "watch={v}");
        let text = r.text();
        assert!(
            text.is_empty() || text.contains("\"type\":\"ADDED\""),
            "watch={v} answered a list: {text}"
        );
        assert!(
            !text.contains("\"kind\":\"ConfigMapList\""),
            "watch={v}: {text}"
        );
    }
    for v in ["false", "FALSE", "0"] {
        let r = req(&server, Method::GET, &format!("{list}?watch={v}"), "", b"").await;
        assert!(r.text().contains("\"kind\":\"ConfigMapList\""), "watch={v}");
    }
    // The first of repeated values counts.
    let r = req(
        &server,
        Method::GET,
        &format!("{list}?limit=1&limit=x"),
        "",
        b"",
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    for (q, value) in [
        ("limit=x", "x"),
        ("limit=", ""),
        ("timeoutSeconds=1.5&watch=1", "1.5"),
    ] {
        let r = req(&server, Method::GET, &format!("{list}?{q}"), "", b"").await;
        assert_eq!(r.status, 400, "{q}: {}", r.text());
        assert_eq!(
            r.json()["message"],
            format!("strconv.ParseInt: parsing \"{value}\": invalid syntax"),
            "{q}"
        );
    }
    let r = req(
        &server,
        Method::GET,
        &format!("{list}?limit=99999999999999999999"),
        "",
        b"",
    )
    .await;
    assert_eq!(
        r.json()["message"],
        "strconv.ParseInt: parsing \"99999999999999999999\": value out of range"
    );
    // A negative timeout ends the watch at once.
    let started = std::time::Instant::now();
    let r = req(
        &server,
        Method::GET,
        &format!("{list}?watch=true&timeoutSeconds=-5"),
        "",
        b"",
    )
    .await;
    assert_eq!(r.status, 200);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

/// Legacy discovery names each stored resource's storage version by upstream's hash
/// (the same for resources sharing storage), and none for the review APIs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_carries_storage_version_hashes() {
    let server = Server::builder().start().await;
    let hash = |doc: &serde_json::Value, name: &str| {
        doc["resources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {doc}"))
            .get("storageVersionHash")
            .cloned()
    };
    let core = server.get("/api/v1").await.json();
    assert_eq!(hash(&core, "pods"), Some(json!("xPOwRZ+Yhw8=")));
    assert_eq!(hash(&core, "configmaps"), Some(json!("qFsyl6wFWjQ=")));
    assert_eq!(hash(&core, "events"), Some(json!("r2yiGXH7wu8=")));
    assert_eq!(hash(&core, "pods/status"), None);
    let events = server.get("/apis/events.k8s.io/v1").await.json();
    assert_eq!(hash(&events, "events"), Some(json!("r2yiGXH7wu8=")));
    let apps = server.get("/apis/apps/v1").await.json();
    assert_eq!(hash(&apps, "deployments"), Some(json!("8aSe+NMegvE=")));
    for v in ["v1", "v2"] {
        let hpa = server.get(&format!("/apis/autoscaling/{v}")).await.json();
        assert_eq!(
            hash(&hpa, "horizontalpodautoscalers"),
            Some(json!("qwQve8ut294=")),
            "{v}"
        );
    }
    let authn = server.get("/apis/authentication.k8s.io/v1").await.json();
    assert_eq!(hash(&authn, "tokenreviews"), None);
}

/// Bodies that are not the resource's type, or not JSON, refused in kube-apiserver's
/// words (its decoder's and create handler's), which scripts grep.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undecodable_bodies_get_upstreams_messages() {
    let server = Server::builder().start().await;
    let cms = "/api/v1/namespaces/default/configmaps";
    for (body, want) in [
        (
            r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}"#,
            r#"Pod in version "v1" cannot be handled as a ConfigMap: converting (v1.Pod) to (core.ConfigMap): unknown conversion"#,
        ),
        (
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}}"#,
            r#"Deployment in version "v1" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion"#,
        ),
        (
            r#"{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"x"}}"#,
            r#"ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30""#,
        ),
        (
            "not json",
            "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)",
        ),
        (
            r#"{"a":1,}"#,
            r#"the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string ({"a":1,})"#,
        ),
        (
            r#"{"metadata":{"name":"x","labels":"oops"}}"#,
            r#"ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string"#,
        ),
    ] {
        let r = req(&server, Method::POST, cms, "", body.as_bytes()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text());
        assert_eq!(r.json()["reason"], "BadRequest");
        assert_eq!(r.json()["message"], want, "{body}");
    }
    // The same words on update, and for the namespace kube-apiserver's users know.
    let r = req(
        &server,
        Method::PUT,
        "/api/v1/namespaces/default",
        "",
        b"{\"kind\":\"Namespace\",",
    )
    .await;
    assert_eq!(
        r.json()["message"],
        "the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: unexpected end of JSON input ({\"kind\":\"Namespace\",)"
    );
}

/// The answer to a write is negotiated as a read's is: a Table of the object written,
/// its PartialObjectMetadata, or protobuf, as the client's Accept asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_answers_are_negotiated() {
    let server = Server::builder().start().await;
    let cms = "/api/v1/namespaces/default/configmaps";
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "t"},
        "data": {"a": "1", "b": "2"}})
    .to_string();
    let send =
        |method: Method, path: String, accept: &'static str, ctype: &'static str, body: String| {
            let server = &server;
            async move {
                server
                    .request_full(
                        method,
                        &path,
                        &[("content-type", ctype), ("accept", accept)],
                        body.as_bytes(),
                        true,
                        false,
                    )
                    .await
                    .expect("request")
            }
        };
    let table = "application/json;as=Table;v=v1;g=meta.k8s.io";
    let r = send(
        Method::POST,
        cms.into(),
        table,
        "application/json",
        body.clone(),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let t = r.json();
    assert_eq!(t["kind"], "Table", "{t}");
    assert_eq!(t["rows"][0]["cells"][0], "t");
    assert_eq!(t["rows"][0]["cells"][1], 2, "the Data column: {t}");
    let partial = "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io";
    let patch = json!({"metadata": {"labels": {"x": "y"}}}).to_string();
    let r = send(
        Method::PATCH,
        format!("{cms}/t"),
        partial,
        "application/merge-patch+json",
        patch,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let m = r.json();
    assert_eq!(m["kind"], "PartialObjectMetadata", "{m}");
    assert_eq!(m["metadata"]["labels"]["x"], "y");
    assert!(m.get("data").is_none());
    let mut other = body.replace("\"t\"", "\"p\"");
    other = other.replace("\"1\"", "\"3\"");
    let r = send(
        Method::POST,
        cms.into(),
        "application/vnd.kubernetes.protobuf",
        "application/json",
        other,
    )
    .await;
    assert_eq!(r.status, 201);
    assert_eq!(
        r.headers["content-type"],
        "application/vnd.kubernetes.protobuf"
    );
    assert!(
        r.body.starts_with(b"k8s\0"),
        "{:?}",
        &r.body[..8.min(r.body.len())]
    );
}

/// `/openapi/v3` lists the extensions' own group and the aggregator's besides the
/// built-in ones, and `kubectl explain` reads them (it uses OpenAPI v3).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_v3_has_every_served_group_version() {
    let server = Server::builder().start().await;
    let index = server.get("/openapi/v3").await.json();
    for gv in [
        "api/v1",
        "apis/apps/v1",
        "apis/apiextensions.k8s.io/v1",
        "apis/apiregistration.k8s.io/v1",
    ] {
        let url = index["paths"][gv]["serverRelativeURL"]
            .as_str()
            .unwrap_or_else(|| panic!("{gv} not in the index: {index}"));
        let doc = server.get(url).await;
        assert_eq!(doc.status, 200, "{url}");
        assert!(doc.json()["paths"]
            .as_object()
            .is_some_and(|p| !p.is_empty()));
    }
    let out = server.kubectl(&["explain", "customresourcedefinitions.spec.scope"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("FIELD: scope <string>"), "{stdout}");
}

/// kubectl's typed commands (`create deployment`, `run`) send protobuf, where a Go client
/// writes every field it holds by value, at its zero when unset. Upstream decodes into its
/// Go structs, where an `omitempty` scalar's zero is unset: none of them is stored, served
/// or owned in managedFields. A JSON body's explicit zeros go the same way; a pointer's
/// zero (`automountServiceAccountToken: false`) stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn omitempty_zeros_are_not_stored_from_protobuf_or_json() {
    let server = Server::builder().start().await;
    let k = crate::Kubectl::new(&server);
    k.ok(&["create", "deployment", "web", "--image=nginx"]);
    k.ok(&["run", "p1", "--image=nginx"]);
    let d = server
        .get("/apis/apps/v1/namespaces/default/deployments/web")
        .await
        .json();
    let template = &d["spec"]["template"];
    assert_eq!(
        template["metadata"],
        json!({"creationTimestamp": null, "labels": {"app": "web"}}),
        "{d}"
    );
    let c = template["spec"]["containers"][0].as_object().unwrap();
    for zero in ["stdin", "stdinOnce", "tty", "workingDir"] {
        assert!(!c.contains_key(zero), "{zero} stored: {d}");
    }
    for zero in ["hostNetwork", "hostPID", "hostIPC", "nodeName", "hostname"] {
        assert!(template["spec"].get(zero).is_none(), "{zero} stored: {d}");
    }
    assert!(d["spec"].get("paused").is_none(), "{d}");
    let owned = d["metadata"]["managedFields"][0]["fieldsV1"].to_string();
    for zero in [
        "f:stdin",
        "f:tty",
        "f:hostNetwork",
        "f:paused",
        "f:generation",
    ] {
        assert!(!owned.contains(zero), "{zero} owned: {owned}");
    }
    let p = server
        .get("/api/v1/namespaces/default/pods/p1")
        .await
        .json();
    assert!(p["spec"].get("hostNetwork").is_none(), "{p}");
    assert!(p["spec"]["containers"][0].get("stdin").is_none(), "{p}");

    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p2"},
        "spec": {"hostNetwork": false, "automountServiceAccountToken": false,
            "containers": [{"name": "c", "image": "nginx", "tty": false}]}});
    let r = server
        .send_json(
            Method::POST,
            "/api/v1/namespaces/default/pods",
            "application/json",
            &pod,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let p = r.json();
    assert!(p["spec"].get("hostNetwork").is_none(), "{p}");
    assert!(p["spec"]["containers"][0].get("tty").is_none(), "{p}");
    assert_eq!(p["spec"]["automountServiceAccountToken"], false, "{p}");
}

/// Built-in objects are written in their Go structs' field order (`kind`, `apiVersion`,
/// `metadata`, then the type's fields as declared), in every answer and with `pretty`; a
/// typed list's items carry no kind or apiVersion (upstream's TypeMeta is empty there,
/// kubernetes/kubernetes#3030); custom resources, unstructured maps upstream, have sorted
/// keys, their lists too (`apiVersion`, `items`, `kind`, `metadata`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_is_written_in_upstreams_field_order() {
    let server = Server::builder().start().await;
    let k = crate::Kubectl::new(&server);
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "o1",
        "labels": {"z": "1", "a": "2"}},
        "spec": {"restartPolicy": "Never", "containers": [{"image": "i", "name": "c"}],
            "initContainers": [{"name": "init", "image": "i"}]}});
    let r = server
        .send_json(
            Method::POST,
            "/api/v1/namespaces/default/pods",
            "application/json",
            &pod,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let order = |text: &str, keys: &[&str]| {
        let at: Vec<usize> = keys
            .iter()
            .map(|k| {
                text.find(k)
                    .unwrap_or_else(|| panic!("{k} missing: {text}"))
            })
            .collect();
        assert!(
            at.windows(2).all(|w| w[0] < w[1]),
            "order of {keys:?}: {text}"
        );
    };
    let pod_keys = [
        r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"o1","namespace":"default","uid":"#,
        r#""labels":{"a":"2","z":"1"}"#,
        r#""spec":{"volumes":"#,
        r#""initContainers":[{"name":"init","image":"i","#,
        r#""containers":[{"name":"c","image":"i","#,
        r#""restartPolicy":"Never""#,
        r#""status":{"#,
    ];
    order(&r.text(), &pod_keys);
    let one = "/api/v1/namespaces/default/pods/o1";
    order(&server.get(one).await.text(), &pod_keys);
    let pretty = server.get(&format!("{one}?pretty=true")).await.text();
    assert!(
        pretty.starts_with("{\n  \"kind\": \"Pod\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {\n    \"name\": \"o1\",\n"),
        "{pretty}"
    );

    let list = server.get("/api/v1/namespaces/default/pods").await.text();
    assert!(
        list.starts_with(r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"#),
        "{list}"
    );
    assert!(
        list.contains(r#""items":[{"metadata":{"name":"o1","#),
        "{list}"
    );
    let limited = server
        .get("/api/v1/namespaces/default/pods?limit=1&resourceVersion=0")
        .await
        .json();
    assert!(limited["items"][0].get("kind").is_none(), "{limited}");
    let events = server
        .get("/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1")
        .await
        .text();
    assert!(
        events.starts_with(
            r#"{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"o1","#
        ),
        "{events}"
    );

    // Discovery and /version (WriteRawJSON: indented, no final newline) in Go order.
    let api = server.get("/api").await.text();
    assert!(
        api.starts_with(r#"{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":"#),
        "{api}"
    );
    let v1 = server.get("/api/v1").await.text();
    assert!(
        v1.starts_with(r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"bindings","singularName":"binding","namespaced":true,"kind":"Binding","verbs":["create"]}"#),
        "{v1}"
    );
    let version = server.get("/version").await.text();
    assert!(
        version.starts_with("{\n  \"major\": \"1\",\n  \"minor\": ") && version.ends_with("\n}"),
        "{version:?}"
    );

    k.ok_stdin(&["apply", "-f", "-"], crate::server_side_apply::CRD);
    k.wait_established("routes.example.com");
    k.ok_stdin(
        &["apply", "-f", "-"],
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Route\",\"metadata\":{\"name\":\"r1\",\"namespace\":\"default\"},\"spec\":{\"rules\":[{\"path\":\"/\",\"backend\":\"b\"}],\"host\":\"h\"}}",
    );
    let cr = server
        .get("/apis/example.com/v1/namespaces/default/routes/r1")
        .await
        .text();
    assert!(
        cr.starts_with(r#"{"apiVersion":"example.com/v1","kind":"Route","metadata":{"#),
        "{cr}"
    );
    order(
        &cr,
        &[r#""host":"h""#, r#""rules":[{"backend":"b","path":"/"}]"#],
    );
    let crs = server
        .get("/apis/example.com/v1/namespaces/default/routes")
        .await
        .text();
    assert!(
        crs.starts_with(r#"{"apiVersion":"example.com/v1","items":[{"apiVersion":"example.com/v1","kind":"Route","#),
        "{crs}"
    );
    order(
        &crs,
        &[r#""items":["#, r#"],"kind":"RouteList","metadata":{"#],
    );
}

/// Strings are escaped as Go's encoder escapes them (`<`, `>`, `&` as `\u003c`, `\u003e`,
/// `\u0026`), in objects and Status alike; a request path is read unescaped, as Go's
/// `URL.Path` is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strings_are_escaped_and_paths_unescaped_as_go_does() {
    let server = Server::builder().start().await;
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "esc"},
        "data": {"k": "a<b&c>d"}});
    let r = server
        .send_json(
            Method::POST,
            "/api/v1/namespaces/default/configmaps",
            "application/json",
            &cm,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(
        r.text().contains(r#""k":"a\u003cb\u0026c\u003ed""#),
        "{}",
        r.text()
    );
    let got = server
        .get("/api/v1/namespaces/default/configmaps/es%63")
        .await;
    assert_eq!(got.status, 200, "{}", got.text());
    assert_eq!(got.json()["data"]["k"], "a<b&c>d");
    let missing = server
        .get("/api/v1/namespaces/default/configmaps/n%3Co")
        .await;
    assert_eq!(missing.status, 404);
    assert!(
        missing
            .text()
            .contains(r#""message":"configmaps \"n\u003co\" not found""#),
        "{}",
        missing.text()
    );
}

/// Large API responses go out gzip-compressed to clients that accept it (kube-apiserver's
/// APIResponseCompression: over 128 KiB, `Content-Encoding: gzip`, `Vary:
/// Accept-Encoding`); small ones, and clients that don't ask, get plain bytes; kubectl
/// (which asks) reads the compressed list as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_responses_are_gzipped_for_clients_that_accept_it() {
    use std::io::Read;
    let server = Server::builder().start().await;
    let filler = "x".repeat(4000);
    for i in 0..40 {
        let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": format!("big-{i}")}, "data": {"k": filler}});
        let r = server
            .send_json(
                Method::POST,
                "/api/v1/namespaces/default/configmaps",
                "application/json",
                &cm,
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let list = "/api/v1/namespaces/default/configmaps";
    let get = |path: &'static str, encoding: &'static str| {
        let server = &server;
        async move {
            let mut headers = vec![];
            if !encoding.is_empty() {
                headers.push(("accept-encoding", encoding));
            }
            server
                .request_full(Method::GET, path, &headers, b"", true, false)
                .await
                .expect("request")
        }
    };
    let zipped = get(list, "gzip").await;
    assert_eq!(zipped.status, 200);
    assert_eq!(zipped.headers["content-encoding"], "gzip");
    assert_eq!(zipped.headers["vary"], "Accept-Encoding");
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(&zipped.body[..])
        .read_to_end(&mut plain)
        .expect("a gzip body");
    assert!(zipped.body.len() * 10 < plain.len(), "compressed");
    let items: serde_json::Value = serde_json::from_slice(&plain).expect("a JSON list");
    assert!(items["items"].as_array().is_some_and(|i| i.len() >= 40));

    let unasked = get(list, "").await;
    assert!(unasked.headers.get("content-encoding").is_none());
    assert!(unasked.body.len() > 128 * 1024);
    // `gzip;q=1` is not the bare token upstream looks for.
    let weighted = get(list, "gzip;q=1").await;
    assert!(weighted.headers.get("content-encoding").is_none());
    let small = get("/api/v1/namespaces/default/configmaps/big-0", "gzip").await;
    assert!(small.headers.get("content-encoding").is_none());

    let k = crate::harness::kubectl::Kubectl::new(&server);
    let names = k.ok(&["get", "configmaps", "-o", "name"]);
    assert!(names.contains("configmap/big-39"), "{names}");
}
