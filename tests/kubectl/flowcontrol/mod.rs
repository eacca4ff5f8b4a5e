//! flowcontrol.apiserver.k8s.io/v1 as kube-apiserver v1.33 has it: the bootstrap
//! FlowSchemas and PriorityLevelConfigurations made by the
//! `priority-and-fairness-config-producer` hook and listed with upstream's columns, the
//! ensurer putting mandatory and suggested objects back as upstream's does, defaulting,
//! and validation (422 with upstream's field causes).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::harness::kubectl::Kubectl;
use super::harness::{require_tool, Server};

mod validation;

const FS_PATH: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
const PL_PATH: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";
const ANNOTATION: &str = "apf.kubernetes.io/autoupdate-spec";

/// The ensurer's period in these tests (upstream's is a minute).
const FAST_ENSURER: (&str, &str) = ("KUBE_APISERVER_RS_APF_ENSURE_INTERVAL_MS", "100");

fn get(k: &Kubectl, args: &[&str]) -> Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend(["-o", "json"]);
    serde_json::from_str(&k.ok(&all)).expect("json")
}

/// `kubectl get` of one object as JSON, `None` when it does not exist.
fn find(k: &Kubectl, kind: &str, name: &str) -> Option<Value> {
    let out = k.run(&["get", kind, name, "-o", "json", "--ignore-not-found"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    (!text.trim().is_empty()).then(|| serde_json::from_str(&text).expect("json"))
}

/// Polls `check` until it holds, for at most 20 s.
fn until(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(20), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The rows of a `kubectl get` table, split on whitespace, header first.
fn table(k: &Kubectl, kind: &str) -> Vec<Vec<String>> {
    k.ok(&["get", kind])
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

fn row<'a>(rows: &'a [Vec<String>], name: &str) -> &'a [String] {
    rows.iter()
        .find(|r| r[0] == name)
        .unwrap_or_else(|| panic!("no row {name} in {rows:?}"))
}

/// The rows without the AGE cell (at `age`).
fn without_age(r: &[String], age: usize) -> Vec<&str> {
    r.iter()
        .enumerate()
        .filter(|(i, _)| *i != age)
        .map(|(_, c)| c.as_str())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bootstrap_objects_with_upstreams_columns() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let ready = server.get("/readyz?verbose").await;
    assert!(
        ready
            .text()
            .contains("[+]poststarthook/priority-and-fairness-config-producer ok"),
        "{}",
        ready.text()
    );

    let fs = table(&k, "flowschemas");
    assert_eq!(
        fs[0],
        [
            "NAME",
            "PRIORITYLEVEL",
            "MATCHINGPRECEDENCE",
            "DISTINGUISHERMETHOD",
            "AGE",
            "MISSINGPL"
        ]
    );
    // Rows in upstream's printer order: by matching precedence, then name.
    let names: Vec<&str> = fs[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "exempt",
            "probes",
            "system-leader-election",
            "endpoint-controller",
            "workload-leader-election",
            "system-node-high",
            "system-nodes",
            "kube-controller-manager",
            "kube-scheduler",
            "kube-system-service-accounts",
            "service-accounts",
            "global-default",
            "catch-all",
        ]
    );
    // MISSINGPL is the Dangling condition's status, which the front door's config
    // controller writes: "?" until it has, then "False" (every level exists).
    for (name, cells) in [
        ("exempt", ["exempt", "exempt", "1", "<none>"]),
        ("catch-all", ["catch-all", "catch-all", "10000", "ByUser"]),
        ("probes", ["probes", "exempt", "2", "<none>"]),
        (
            "kube-scheduler",
            ["kube-scheduler", "workload-high", "800", "ByNamespace"],
        ),
    ] {
        let r = without_age(row(&fs, name), 4);
        assert_eq!(r[..4], cells, "{name}");
        assert!(r[4] == "?" || r[4] == "False", "{name}: {r:?}");
    }

    let pl = table(&k, "prioritylevelconfigurations");
    assert_eq!(
        pl[0],
        [
            "NAME",
            "TYPE",
            "NOMINALCONCURRENCYSHARES",
            "QUEUES",
            "HANDSIZE",
            "QUEUELENGTHLIMIT",
            "AGE"
        ]
    );
    assert_eq!(pl.len(), 9, "{pl:?}");
    for (name, cells) in [
        (
            "exempt",
            ["exempt", "Exempt", "<none>", "<none>", "<none>", "<none>"],
        ),
        (
            "catch-all",
            ["catch-all", "Limited", "5", "<none>", "<none>", "<none>"],
        ),
        ("system", ["system", "Limited", "30", "64", "6", "50"]),
        ("node-high", ["node-high", "Limited", "40", "64", "6", "50"]),
        (
            "leader-election",
            ["leader-election", "Limited", "10", "16", "4", "50"],
        ),
        (
            "workload-high",
            ["workload-high", "Limited", "40", "128", "6", "50"],
        ),
        (
            "workload-low",
            ["workload-low", "Limited", "100", "128", "6", "50"],
        ),
        (
            "global-default",
            ["global-default", "Limited", "20", "128", "6", "50"],
        ),
    ] {
        assert_eq!(without_age(row(&pl, name), 6), cells, "{name}");
    }

    // Every object carries the annotation; the specs are upstream's.
    for kind in ["flowschemas", "prioritylevelconfigurations"] {
        for item in get(&k, &[kind])["items"].as_array().expect("items") {
            assert_eq!(
                item["metadata"]["annotations"][ANNOTATION], "true",
                "{item}"
            );
            assert_eq!(item["metadata"]["generation"], 1, "{item}");
        }
    }
    let exempt = get(&k, &["flowschema", "exempt"]);
    assert_eq!(
        exempt["spec"],
        json!({"priorityLevelConfiguration": {"name": "exempt"}, "matchingPrecedence": 1,
            "rules": [{"subjects": [{"kind": "Group", "group": {"name": "system:masters"}}],
                "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"],
                    "clusterScope": true, "namespaces": ["*"]}],
                "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]})
    );
    let leader = get(&k, &["flowschema", "system-leader-election"]);
    assert_eq!(
        leader["spec"]["rules"][0]["subjects"],
        json!([{"kind": "User", "user": {"name": "system:kube-controller-manager"}},
            {"kind": "User", "user": {"name": "system:kube-scheduler"}},
            {"kind": "ServiceAccount", "serviceAccount": {"name": "*", "namespace": "kube-system"}}])
    );
    // Written by upstream's field manager for the producer.
    let with_fields: Value = serde_json::from_str(&k.ok(&[
        "get",
        "flowschema",
        "exempt",
        "-o",
        "json",
        "--show-managed-fields",
    ]))
    .expect("json");
    let managers: Vec<&str> = with_fields["metadata"]["managedFields"]
        .as_array()
        .expect("managedFields")
        .iter()
        .filter_map(|m| m["manager"].as_str())
        .collect();
    assert!(
        managers.contains(&"api-priority-and-fairness-config-producer-v1"),
        "{managers:?}"
    );
    let exempt_pl = get(&k, &["prioritylevelconfiguration", "exempt"]);
    assert_eq!(
        exempt_pl["spec"],
        json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 0, "lendablePercent": 0}})
    );
}

/// The uid of an object, to tell a re-created one from the one deleted.
fn uid(v: &Value) -> String {
    v["metadata"]["uid"].as_str().unwrap_or("").to_owned()
}

/// Deletes the suggested `probes` FlowSchema and waits until the ensurer made it again:
/// proof that a whole pass ran after the call.
fn wait_for_a_pass(k: &Kubectl) {
    let before = find(k, "flowschema", "probes").expect("probes");
    k.ok(&["delete", "flowschema", "probes"]);
    until("probes re-created", || {
        find(k, "flowschema", "probes").is_some_and(|p| uid(&p) != uid(&before))
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ensurer_keeps_mandatory_and_suggested_objects() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder()
        .env(FAST_ENSURER.0, FAST_ENSURER.1)
        .start()
        .await;
    let k = Kubectl::new(&server);

    // A deleted mandatory object comes back.
    let first = get(&k, &["flowschema", "exempt"]);
    k.ok(&["delete", "flowschema", "exempt"]);
    until("exempt re-created", || {
        find(&k, "flowschema", "exempt").is_some_and(|e| uid(&e) != uid(&first))
    });
    let again = get(&k, &["flowschema", "exempt"]);
    assert_eq!(again["spec"], first["spec"]);
    let first_pl = get(&k, &["prioritylevelconfiguration", "catch-all"]);
    k.ok(&["delete", "prioritylevelconfiguration", "catch-all"]);
    until("catch-all level re-created", || {
        find(&k, "prioritylevelconfiguration", "catch-all")
            .is_some_and(|e| uid(&e) != uid(&first_pl))
    });

    // A mandatory object's annotation set to "false" is put back to "true" (upstream's
    // mandatory objects ignore it; their spec may not change at all).
    k.ok(&[
        "annotate",
        "flowschema",
        "catch-all",
        &format!("{ANNOTATION}=false"),
        "--overwrite",
    ]);
    until("catch-all annotation back to true", || {
        find(&k, "flowschema", "catch-all")
            .is_some_and(|f| f["metadata"]["annotations"][ANNOTATION] == "true")
    });

    // The exempt level's own member is the operator's: it stays as set.
    k.ok(&[
        "patch",
        "prioritylevelconfiguration",
        "exempt",
        "--type=merge",
        "-p",
        r#"{"spec":{"exempt":{"nominalConcurrencyShares":5}}}"#,
    ]);

    // A suggested object's changed spec is put back while the annotation says "true".
    k.ok(&[
        "patch",
        "prioritylevelconfiguration",
        "workload-low",
        "--type=merge",
        "-p",
        r#"{"spec":{"limited":{"nominalConcurrencyShares":7}}}"#,
    ]);
    until("workload-low shares back to 100", || {
        find(&k, "prioritylevelconfiguration", "workload-low").is_some_and(|p| {
            p["spec"]["limited"]["nominalConcurrencyShares"] == 100
                && p["metadata"]["annotations"][ANNOTATION] == "true"
        })
    });

    // With the annotation "false" the operator's spec stays.
    k.ok(&[
        "annotate",
        "prioritylevelconfiguration",
        "global-default",
        &format!("{ANNOTATION}=false"),
        "--overwrite",
    ]);
    k.ok(&[
        "patch",
        "prioritylevelconfiguration",
        "global-default",
        "--type=merge",
        "-p",
        r#"{"spec":{"limited":{"nominalConcurrencyShares":3}}}"#,
    ]);
    // Without the annotation, a changed spec (generation 2) is the operator's too: the
    // ensurer records that by writing the annotation "false".
    k.ok(&[
        "patch",
        "flowschema",
        "service-accounts",
        "--type=json",
        "-p",
        r#"[{"op":"remove","path":"/metadata/annotations"},{"op":"replace","path":"/spec/matchingPrecedence","value":8000}]"#,
    ]);
    until("service-accounts marked as the operator's", || {
        find(&k, "flowschema", "service-accounts")
            .is_some_and(|f| f["metadata"]["annotations"][ANNOTATION] == "false")
    });

    // Objects the server did not make: without the annotation they are left alone; with
    // it as "true" and a name the server no longer ships, they are removed.
    let mine = |name: &str, annotations: Value| {
        json!({"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
            "metadata": {"name": name, "annotations": annotations},
            "spec": {"priorityLevelConfiguration": {"name": "global-default"},
                "rules": [{"subjects": [{"kind": "User", "user": {"name": "me"}}],
                    "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/mine"]}]}]}})
        .to_string()
    };
    k.ok_stdin(&["create", "-f", "-"], &mine("mine", json!({})));
    k.ok_stdin(
        &["create", "-f", "-"],
        &mine("retired", json!({ANNOTATION: "true"})),
    );
    until("retired removed", || {
        find(&k, "flowschema", "retired").is_none()
    });

    wait_for_a_pass(&k);
    let global = get(&k, &["prioritylevelconfiguration", "global-default"]);
    assert_eq!(global["spec"]["limited"]["nominalConcurrencyShares"], 3);
    assert_eq!(global["metadata"]["annotations"][ANNOTATION], "false");
    let exempt = get(&k, &["prioritylevelconfiguration", "exempt"]);
    assert_eq!(exempt["spec"]["exempt"]["nominalConcurrencyShares"], 5);
    let sa = get(&k, &["flowschema", "service-accounts"]);
    assert_eq!(sa["spec"]["matchingPrecedence"], 8000);
    assert!(find(&k, "flowschema", "mine").is_some());
    assert!(find(&k, "flowschema", "catch-all").is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaults_of_created_objects() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    k.ok_stdin(
        &["create", "-f", "-"],
        r#"
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: plain
spec:
  priorityLevelConfiguration:
    name: queued
  rules:
  - subjects: [{kind: Group, group: {name: team}}]
    resourceRules: [{verbs: [get], apiGroups: [""], resources: [pods], namespaces: [team]}]
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: queued
spec:
  type: Limited
  limited:
    limitResponse:
      type: Queue
      queuing: {}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: jail
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 0
    limitResponse: {type: Reject}
"#,
    );
    let plain = get(&k, &["flowschema", "plain"]);
    assert_eq!(plain["spec"]["matchingPrecedence"], 1000);
    assert!(plain["spec"].get("distinguisherMethod").is_none());
    let queued = get(&k, &["prioritylevelconfiguration", "queued"]);
    assert_eq!(
        queued["spec"]["limited"],
        json!({"nominalConcurrencyShares": 30, "lendablePercent": 0,
            "limitResponse": {"type": "Queue",
                "queuing": {"queues": 64, "handSize": 8, "queueLengthLimit": 50}}})
    );
    let jail = get(&k, &["prioritylevelconfiguration", "jail"]);
    assert_eq!(jail["spec"]["limited"]["nominalConcurrencyShares"], 0);
    assert_eq!(jail["spec"]["limited"]["lendablePercent"], 0);
    let rows = table(&k, "prioritylevelconfigurations");
    assert_eq!(
        without_age(row(&rows, "queued"), 6),
        ["queued", "Limited", "30", "64", "8", "50"]
    );
    assert_eq!(
        without_age(row(&rows, "jail"), 6),
        ["jail", "Limited", "0", "<none>", "<none>", "<none>"]
    );
}
