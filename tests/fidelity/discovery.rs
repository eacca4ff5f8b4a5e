//! Discovery of every resource of the GA group-versions against kube-apiserver v1.33:
//! aggregated discovery (`apidiscovery.k8s.io/v2`) for kind, singular name, scope, verbs,
//! short names, categories and each subresource's kind and verbs; legacy discovery for
//! the storage version hash. Expectations: upstream's generated discovery documents
//! (`api/discovery/` of kubernetes/kubernetes as of the 1.33 branch) and the storage
//! version hashes of `pkg/controlplane/storageversionhashdata`, checked against
//! v1.33.4's registry source. A resource served here that upstream does not serve in
//! these group-versions is a difference too.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{gv_path, report, rows};
use crate::harness::Server;

const DISCOVERY: &str = include_str!("discovery-1.33.tsv");

/// Differences known and kept, each with why. A known difference that no longer shows
/// fails the test, so the list stays true.
const KNOWN: &[(&str, &str)] = &[];

const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// `a,b,c` of a string array, `-` when absent or empty.
fn list(v: &Value) -> String {
    match v.as_array() {
        Some(a) if !a.is_empty() => a
            .iter()
            .map(|s| s.as_str().unwrap_or("?"))
            .collect::<Vec<_>>()
            .join(","),
        _ => "-".into(),
    }
}

fn text(v: &Value) -> String {
    match v.as_str() {
        Some(s) if !s.is_empty() => s.to_owned(),
        _ => "-".into(),
    }
}

/// A response kind as the expectations write it: `Kind`, or `group/version/Kind` when
/// it is not the resource's own group-version.
fn kind(rk: &Value, group: &str, version: &str) -> String {
    let g = rk["group"].as_str().unwrap_or("");
    let v = rk["version"].as_str().unwrap_or("");
    let k = rk["kind"].as_str().unwrap_or("?");
    let own = if group == "core" { "" } else { group };
    if (g.is_empty() || g == own) && (v.is_empty() || v == version) {
        k.to_owned()
    } else {
        format!("{}/{}/{k}", if g.is_empty() { "core" } else { g }, v)
    }
}

/// Rows keyed by (group, version, resource, subresource), the rest of the row as text.
type Facts = BTreeMap<(String, String, String, String), String>;

/// The served facts of every group-version named in `gvs`, from aggregated discovery.
fn aggregated(docs: &[Value], gvs: &BTreeSet<(String, String)>) -> Facts {
    let mut facts = Facts::new();
    for doc in docs {
        for group in doc["items"].as_array().into_iter().flatten() {
            let name = group["metadata"]["name"].as_str().unwrap_or("");
            let g = if name.is_empty() { "core" } else { name };
            for version in group["versions"].as_array().into_iter().flatten() {
                let v = version["version"].as_str().unwrap_or("");
                if !gvs.contains(&(g.to_owned(), v.to_owned())) {
                    continue;
                }
                for r in version["resources"].as_array().into_iter().flatten() {
                    let resource = r["resource"].as_str().unwrap_or("?").to_owned();
                    let scope = text(&r["scope"]);
                    facts.insert(
                        (g.into(), v.into(), resource.clone(), "-".into()),
                        [
                            kind(&r["responseKind"], g, v),
                            text(&r["singularResource"]),
                            scope.clone(),
                            list(&r["verbs"]),
                            list(&r["shortNames"]),
                            list(&r["categories"]),
                        ]
                        .join("\t"),
                    );
                    for sub in r["subresources"].as_array().into_iter().flatten() {
                        facts.insert(
                            (
                                g.into(),
                                v.into(),
                                resource.clone(),
                                text(&sub["subresource"]),
                            ),
                            [
                                kind(&sub["responseKind"], g, v),
                                "-".into(),
                                scope.clone(),
                                list(&sub["verbs"]),
                                "-".into(),
                                "-".into(),
                            ]
                            .join("\t"),
                        );
                    }
                }
            }
        }
    }
    facts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_matches_upstream_for_every_ga_resource() {
    let server = Server::builder().start().await;
    let mut want = Facts::new();
    let mut hashes = BTreeMap::new();
    let mut gvs = BTreeSet::new();
    for row in rows(DISCOVERY) {
        let [g, v, res, sub, k, singular, scope, verbs, short, cats, hash] = row[..] else {
            panic!("bad row {row:?}");
        };
        gvs.insert((g.to_owned(), v.to_owned()));
        want.insert(
            (g.into(), v.into(), res.into(), sub.into()),
            [k, singular, scope, verbs, short, cats].join("\t"),
        );
        if sub == "-" {
            hashes.insert(
                (g.to_owned(), v.to_owned(), res.to_owned()),
                hash.to_owned(),
            );
        }
    }

    let docs = [
        server.get_accepting("/api", AGGREGATED).await.json(),
        server.get_accepting("/apis", AGGREGATED).await.json(),
    ];
    let got = aggregated(&docs, &gvs);
    let mut diffs = Vec::new();
    for (key, w) in &want {
        let (g, v, res, sub) = key;
        let at = format!(
            "{}/{res}{}",
            gv_path(g, v),
            if sub == "-" {
                String::new()
            } else {
                format!("/{sub}")
            }
        );
        match got.get(key) {
            None => diffs.push(format!("{at}: not served")),
            Some(g) if g != w => diffs.push(format!("{at}:\n  want {w}\n  got  {g}")),
            Some(_) => {}
        }
    }
    for (g, v, res, sub) in got.keys().filter(|k| !want.contains_key(*k)) {
        diffs.push(format!(
            "{}/{res} {sub}: served, upstream does not",
            gv_path(g, v)
        ));
    }

    // Legacy discovery: the storage version hash of each resource.
    for (g, v) in &gvs {
        let doc = server.get(&gv_path(g, v)).await.json();
        for r in doc["resources"].as_array().into_iter().flatten() {
            let name = r["name"].as_str().unwrap_or("?");
            if name.contains('/') {
                if r.get("storageVersionHash").is_some() {
                    diffs.push(format!(
                        "{}/{name}: a subresource with a storage version hash",
                        gv_path(g, v)
                    ));
                }
                continue;
            }
            let Some(w) = hashes.get(&(g.clone(), v.clone(), name.to_owned())) else {
                continue;
            };
            let h = text(&r["storageVersionHash"]);
            if &h != w {
                diffs.push(format!(
                    "{}/{name}: storageVersionHash want {w} got {h}",
                    gv_path(g, v)
                ));
            }
        }
    }
    for (known, _why) in KNOWN {
        let before = diffs.len();
        diffs.retain(|d| !d.starts_with(known));
        if diffs.len() == before {
            diffs.push(format!(
                "{known}: listed as a known difference, no longer one"
            ));
        }
    }
    report("discovery", &diffs);
}

/// A verb discovery leaves out is refused as upstream refuses a route it lacks: the
/// namespaces collection cannot be deleted at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verbs_discovery_omits_are_refused() {
    let server = Server::builder().start().await;
    let reply = server
        .request(http::Method::DELETE, "/api/v1/namespaces", b"", true, false)
        .await
        .expect("DELETE");
    assert_eq!(reply.status, 405, "{}", reply.text());
    let status = reply.json();
    assert_eq!(status["reason"], "MethodNotAllowed");
    assert_eq!(
        status["message"],
        "the server does not allow this method on the requested resource"
    );
    let ns = server.get("/api/v1/namespaces/default").await;
    assert_eq!(ns.status, 200);
}
