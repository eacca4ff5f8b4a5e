//! kubectl and kube-rs pointed straight at the test extension server (no aggregator, the
//! server started with `direct_user`): what they make of its discovery, Tables, OpenAPI
//! (explain, strict field validation), REST and watch, so that a failure in the
//! aggregator's tests is the aggregator's and not the test server's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

use super::super::harness::extension::{ExtensionServer, FrontProxyPki};
use super::super::harness::{require_tool, REQUEST_TIMEOUT};

struct Direct {
    kubeconfig: std::path::PathBuf,
    cache: tempfile::TempDir,
}

impl Direct {
    fn run(&self, args: &[&str], input: Option<&str>) -> Output {
        let mut child = Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .arg("--cache-dir")
            .arg(self.cache.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kubectl");
        let mut stdin = child.stdin.take().expect("stdin");
        if let Some(text) = input {
            stdin.write_all(text.as_bytes()).expect("stdin");
        }
        drop(stdin);
        child.wait_with_output().expect("kubectl output")
    }

    fn ok(&self, args: &[&str], input: Option<&str>) -> String {
        let out = self.run(args, input);
        assert!(
            out.status.success(),
            "kubectl {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

const FLUNDER: &str = "apiVersion: wardle.example.com/v1alpha1
kind: Flunder
metadata:
  name: first
  labels:
    tier: gold
spec:
  reference: f1
  referenceType: Fischer
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_reads_and_writes_the_extension_server_directly() {
    if !require_tool("kubectl") {
        return;
    }
    let pki = FrontProxyPki::new();
    let ext = ExtensionServer::builder(&pki)
        .direct_user("admin")
        .start()
        .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let k = Direct {
        kubeconfig: ext.kubeconfig(&pki, dir.path()),
        cache: tempfile::tempdir().expect("cache"),
    };
    // kubectl's blocking calls run beside the server's runtime threads.
    let res = tokio::task::block_in_place(|| {
        k.ok(&["api-resources", "--api-group=wardle.example.com"], None)
    });
    assert!(
        res.contains("flunders") && res.contains("fl ") && res.contains("true"),
        "{res}"
    );
    assert!(res.contains("fischers") && res.contains("Fischer"), "{res}");

    tokio::task::block_in_place(|| {
        let out = k.ok(&["create", "-f", "-"], Some(FLUNDER));
        assert!(
            out.contains("flunder.wardle.example.com/first created"),
            "{out}"
        );
        let table = k.ok(&["get", "flunders"], None);
        let mut lines = table.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        assert_eq!(header, ["NAME", "AGE"], "{table}");
        assert!(
            lines.next().is_some_and(|l| l.starts_with("first ")),
            "{table}"
        );
        let got = k.ok(
            &["get", "fl", "first", "-o", "jsonpath={.spec.reference}"],
            None,
        );
        assert_eq!(got, "f1");
        let out = k.ok(&["label", "flunder", "first", "colour=red"], None);
        assert!(out.contains("labeled"), "{out}");
        let labels = k.ok(&["get", "flunders", "-l", "colour=red", "-o", "name"], None);
        assert_eq!(labels.trim(), "flunder.wardle.example.com/first");
        // An unknown field is refused by the server under kubectl's strict validation.
        let bad = k.run(
            &["create", "-f", "-"],
            Some(
                &FLUNDER
                    .replace("first", "second")
                    .replace("referenceType", "colour"),
            ),
        );
        assert!(!bad.status.success());
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(err.contains("unknown field \"spec.colour\""), "{err}");

        let explain = k.ok(&["explain", "flunders.spec"], None);
        assert!(
            explain.contains("KIND:") && explain.contains("Flunder"),
            "{explain}"
        );
        assert!(explain.contains("referenceType"), "{explain}");
        let explain = k.ok(&["explain", "fischers"], None);
        assert!(explain.contains("disallowedFlunders"), "{explain}");

        let out = k.ok(&["apply", "-f", "-"], Some(&FLUNDER.replace("f1", "f2")));
        assert!(
            out.contains("configured") || out.contains("created"),
            "{out}"
        );
        let got = k.ok(
            &[
                "get",
                "flunder",
                "first",
                "-o",
                "jsonpath={.spec.reference}",
            ],
            None,
        );
        assert_eq!(got, "f2");
        // get --watch prints what exists, then what comes.
        let mut watch = Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(&k.kubeconfig)
            .arg("--cache-dir")
            .arg(k.cache.path())
            .args(["get", "flunders", "--watch", "--output-watch-events"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kubectl watch");
        // Lines come through a thread so a silent kubectl fails the test instead of
        // hanging it.
        let stdout = watch.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let next = || {
            rx.recv_timeout(REQUEST_TIMEOUT)
                .expect("a line from kubectl --watch")
        };
        assert!(next().split_whitespace().eq(["EVENT", "NAME", "AGE"]));
        assert!(next().starts_with("ADDED "));
        k.ok(
            &["create", "-f", "-"],
            Some(&FLUNDER.replace("first", "second")),
        );
        let line = next();
        assert!(
            line.starts_with("ADDED ") && line.contains("second"),
            "{line}"
        );
        let _ = watch.kill();
        let _ = watch.wait();

        let out = k.ok(&["delete", "flunder", "first"], None);
        assert!(out.contains("deleted"), "{out}");
        let none = k.run(&["get", "flunder", "first"], None);
        assert!(String::from_utf8_lossy(&none.stderr).contains("NotFound"));
    });
}

/// kube-rs, the other client the aggregation tests use: dynamic objects listed, created,
/// watched and read through discovery of the group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_rs_reads_and_writes_the_extension_server_directly() {
    use futures_util::StreamExt;
    use kube::api::{
        Api, ApiResource, DynamicObject, GroupVersionKind, PostParams, WatchEvent, WatchParams,
    };
    use kube::config::{KubeConfigOptions, Kubeconfig};

    let pki = FrontProxyPki::new();
    let ext = ExtensionServer::builder(&pki)
        .direct_user("admin")
        .start()
        .await;
    let dir = tempfile::tempdir().expect("tempdir");
    let kubeconfig = Kubeconfig::read_from(ext.kubeconfig(&pki, dir.path())).expect("kubeconfig");
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .expect("config");
    let client = kube::Client::try_from(config).expect("client");

    let discovery = kube::Discovery::new(client.clone())
        .filter(&["wardle.example.com"])
        .run()
        .await
        .expect("discovery");
    let gvk = GroupVersionKind::gvk("wardle.example.com", "v1alpha1", "Flunder");
    let (resource, caps) = discovery.resolve_gvk(&gvk).expect("Flunder discovered");
    assert_eq!(resource.plural, "flunders");
    assert_eq!(caps.scope, kube::discovery::Scope::Namespaced);

    let api: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
    let mut events = api
        .watch(&WatchParams::default(), "0")
        .await
        .expect("watch")
        .boxed();
    let mut flunder = DynamicObject::new(
        "from-kube-rs",
        &ApiResource::from_gvk_with_plural(&gvk, "flunders"),
    );
    flunder.data = serde_json::json!({"spec": {"reference": "f1"}});
    let created = api
        .create(&PostParams::default(), &flunder)
        .await
        .expect("create");
    assert!(created.metadata.uid.is_some());
    let event = tokio::time::timeout(REQUEST_TIMEOUT, events.next())
        .await
        .expect("an event in time")
        .expect("an event")
        .expect("a decodable event");
    match event {
        WatchEvent::Added(o) => assert_eq!(o.metadata.name.as_deref(), Some("from-kube-rs")),
        other => panic!("{other:?}"),
    }
    let listed = api.list(&Default::default()).await.expect("list");
    assert_eq!(listed.items.len(), 1);
    assert!(listed.metadata.resource_version.is_some());
    let got = api.get("from-kube-rs").await.expect("get");
    assert_eq!(got.data["spec"]["reference"], "f1");
    let missing = api.get("nope").await.expect_err("404");
    assert!(
        matches!(missing, kube::Error::Api(ref s) if s.code == 404),
        "{missing:?}"
    );
}
