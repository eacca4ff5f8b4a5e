//! Table columns (`as=Table`) of every built-in resource against upstream v1.33.4's
//! printers (`pkg/printers/internalversion/printers.go`; the default `Name` / `Created
//! At` table of `k8s.io/apiserver` for the resources whose storage uses it; the
//! APIService table of kube-aggregator). Kube-apiserver sends every column, `-o wide`
//! ones included, so the whole list is compared: name, type, format, priority.

use std::collections::BTreeMap;

use super::{gv_path, report, rows};
use crate::harness::Server;

const COLUMNS: &str = include_str!("table-columns-1.33.tsv");

const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

/// The versions a group's tables are asked for in (autoscaling's v1 and v2 share one).
fn versions(group: &str) -> &'static [&'static str] {
    match group {
        "autoscaling" => &["v1", "v2"],
        _ => &["v1"],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_columns_match_upstream_printers() {
    let server = Server::builder().start().await;
    let mut expected: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for row in rows(COLUMNS) {
        let [group, resource, _index, name, kind, format, priority] = row[..] else {
            panic!("bad row {row:?}");
        };
        expected
            .entry((group, resource))
            .or_default()
            .push(format!("{name}|{kind}|{format}|{priority}"));
    }
    let mut diffs = Vec::new();
    for ((group, resource), want) in &expected {
        for version in versions(group) {
            let path = format!("{}/{resource}", gv_path(group, version));
            let reply = server.get_accepting(&path, TABLE).await;
            if !reply.status.is_success() {
                diffs.push(format!("{path}: {} {}", reply.status, reply.text()));
                continue;
            }
            let table = reply.json();
            let got: Vec<String> = table["columnDefinitions"]
                .as_array()
                .map(|cols| {
                    cols.iter()
                        .map(|c| {
                            format!(
                                "{}|{}|{}|{}",
                                c["name"].as_str().unwrap_or("?"),
                                c["type"].as_str().unwrap_or("?"),
                                c["format"].as_str().unwrap_or(""),
                                c["priority"].as_i64().unwrap_or(0)
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            if &got != want {
                diffs.push(format!(
                    "{path}:\n  want {}\n  got  {}",
                    want.join(", "),
                    got.join(", ")
                ));
            }
        }
    }
    report("table columns", &diffs);
}
