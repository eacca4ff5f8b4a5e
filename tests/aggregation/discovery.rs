//! Discovery of APIServices as kube-aggregator lists them: a remote version of a group the
//! server serves itself joins that group (legacy `/apis`, `/apis/<group>` and aggregated
//! discovery, ordered by priority), a local APIService nobody serves is still listed, and
//! a remote server's aggregated discovery is asked for first, its legacy documents when it
//! offers none.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::super::harness::extension::{ExtensionServer, Seen};
use super::super::harness::Server;
use super::remote::{apply, register, setup};

const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// A CRD serving `widgets.wardle.example.com/v1`: the remote server's group, served here.
const WIDGETS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.wardle.example.com
spec:
  group: wardle.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
"#;

/// A local APIService of a group no server serves.
const NOBODY: &str = r#"
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1.nobody.example.com
spec:
  group: nobody.example.com
  version: v1
  groupPriorityMinimum: 100
  versionPriority: 10
"#;

/// The versions of `group` in `/apis` (legacy), with the preferred one.
async fn legacy_versions(server: &Server, group: &str) -> Option<(Vec<String>, String)> {
    let apis = server.get("/apis").await.json();
    let g = apis["groups"]
        .as_array()?
        .iter()
        .find(|g| g["name"] == group)?
        .clone();
    Some((
        names(&g["versions"], "version"),
        text(&g["preferredVersion"]["version"]),
    ))
}

/// The group's entry in aggregated discovery.
async fn aggregated_group(server: &Server, group: &str) -> Option<Value> {
    let list = server.get_accepting("/apis", AGGREGATED).await.json();
    list["items"]
        .as_array()?
        .iter()
        .find(|g| g["metadata"]["name"] == group)
        .cloned()
}

/// The fetches of the remote version's resource list for discovery (availability probes
/// send no Accept).
fn legacy_fetches(ext: &ExtensionServer) -> Vec<Seen> {
    ext.seen_at("/apis/wardle.example.com/v1alpha1")
        .into_iter()
        .filter(|s| {
            s.headers
                .get("accept")
                .is_some_and(|a| a == "application/json")
        })
        .collect()
}

fn names(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|v| text(&v[key]))
        .collect()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or("").to_owned()
}

/// Polls `check` until it holds, for at most 20 s.
async fn eventually<F, Fut>(what: &str, check: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<(), String>>,
{
    let start = Instant::now();
    loop {
        match check().await {
            Ok(()) => return,
            Err(e) => assert!(start.elapsed() < Duration::from_secs(20), "{what}: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_version_joins_the_local_group() {
    let Some((server, k, ext, _pki)) = setup(true).await else {
        return;
    };
    apply(&k, WIDGETS);
    k.ok(&[
        "wait",
        "--for=condition=Established",
        "crd/widgets.wardle.example.com",
    ]);
    // The remote server's v1alpha1 (versionPriority 15) beside the CRD's v1 (100).
    register(&k, &ext);

    eventually("legacy /apis lists both versions", || async {
        match legacy_versions(&server, "wardle.example.com").await {
            Some((versions, preferred)) if versions == ["v1", "v1alpha1"] && preferred == "v1" => {
                Ok(())
            }
            other => Err(format!("{other:?}")),
        }
    })
    .await;
    let group = server.get("/apis/wardle.example.com").await.json();
    assert_eq!(group["kind"], "APIGroup", "{group}");
    assert_eq!(
        names(&group["versions"], "groupVersion"),
        ["wardle.example.com/v1", "wardle.example.com/v1alpha1"]
    );
    assert_eq!(group["preferredVersion"]["version"], "v1");

    eventually("aggregated discovery joins the versions", || async {
        let g = aggregated_group(&server, "wardle.example.com")
            .await
            .ok_or("no group")?;
        let versions = names(&g["versions"], "version");
        let remote = &g["versions"][1];
        let resources = names(&remote["resources"], "resource");
        if versions == ["v1", "v1alpha1"]
            && remote["freshness"] == "Current"
            && resources == ["flunders", "fischers"]
            && g["versions"][0]["resources"][0]["resource"] == "widgets"
        {
            Ok(())
        } else {
            Err(g.to_string())
        }
    })
    .await;
    // The remote server was asked for its aggregated discovery, not each version.
    let asked = ext.seen_at("/apis");
    assert!(
        asked.iter().any(|s| s
            .headers
            .get("accept")
            .is_some_and(|a| a.as_bytes() == AGGREGATED.as_bytes())),
        "{asked:?}"
    );
    assert!(legacy_fetches(&ext).is_empty());

    // kubectl finds the kinds of both versions and uses each.
    let resources = k.ok(&["api-resources", "--api-group=wardle.example.com"]);
    for kind in ["widgets", "flunders", "fischers"] {
        assert!(resources.contains(kind), "{kind}:\n{resources}");
    }
    k.ok(&["get", "widgets,flunders"]);

    // A server without aggregated discovery is asked for the version's resource list.
    ext.set_aggregated_discovery(false);
    ext.clear_seen();
    k.ok(&[
        "patch",
        "apiservice",
        "v1alpha1.wardle.example.com",
        "--type=merge",
        "-p",
        r#"{"spec":{"versionPriority":16}}"#,
    ]);
    let start = Instant::now();
    while legacy_fetches(&ext).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "never asked");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let g = aggregated_group(&server, "wardle.example.com")
        .await
        .expect("group");
    assert_eq!(g["versions"][1]["freshness"], "Current", "{g}");
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_apiservice_nobody_serves_is_listed() {
    let Some((server, k, _ext, _pki)) = setup(true).await else {
        return;
    };
    apply(&k, NOBODY);
    eventually("legacy /apis lists the group", || async {
        match legacy_versions(&server, "nobody.example.com").await {
            Some((versions, _)) if versions == ["v1"] => Ok(()),
            other => Err(format!("{other:?}")),
        }
    })
    .await;
    let group = server.get("/apis/nobody.example.com").await.json();
    assert_eq!(
        group["preferredVersion"]["groupVersion"],
        "nobody.example.com/v1"
    );
    // Nothing serves the version itself; aggregated discovery leaves it out, as upstream.
    let r = server.get("/apis/nobody.example.com/v1").await;
    assert_eq!(r.status.as_u16(), 404);
    assert!(aggregated_group(&server, "nobody.example.com")
        .await
        .is_none());

    k.ok(&["delete", "apiservice", "v1.nobody.example.com"]);
    eventually("the group leaves /apis", || async {
        match legacy_versions(&server, "nobody.example.com").await {
            None => Ok(()),
            other => Err(format!("{other:?}")),
        }
    })
    .await;
    let r = server.get("/apis/nobody.example.com").await;
    assert_eq!(r.status.as_u16(), 404);
}
