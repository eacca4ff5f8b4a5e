//! The Node authorizer: what the populator reads from objects, the graph's counting and
//! removal, and upstream's decisions and reasons.

use std::sync::Arc;

use kas_proto::UserInfo;
use serde_json::{json, Value};

use super::*;
use crate::node_graph::Graph;
use crate::node_populator::{apply, pod_refs, pv_refs};
use crate::{Authorizer, Policy};

const PODS: usize = 0;
const PVS: usize = 1;
const ATTACHMENTS: usize = 2;
const SLICES: usize = 3;

fn kubelet(node: &str) -> UserInfo {
    UserInfo {
        name: format!("system:node:{node}"),
        groups: vec![NODES_GROUP.into(), "system:authenticated".into()],
        ..Default::default()
    }
}

fn res(verb: &str, ns: &str, group: &str, resource: &str, sub: &str, name: &str) -> Attributes {
    Attributes {
        verb: verb.into(),
        resource_request: true,
        namespace: ns.into(),
        group: group.into(),
        resource: resource.into(),
        subresource: sub.into(),
        name: name.into(),
        ..Default::default()
    }
}

fn get(resource: &str, ns: &str, name: &str) -> Attributes {
    res("get", ns, "", resource, "", name)
}

fn web_pod(node: &str) -> Value {
    json!({
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "nodeName": node,
            "serviceAccountName": "web-sa",
            "imagePullSecrets": [{"name": "pull"}],
            "initContainers": [{"name": "i", "env": [
                {"name": "A", "valueFrom": {"secretKeyRef": {"name": "init-env", "key": "k"}}}]}],
            "containers": [{"name": "c",
                "envFrom": [{"secretRef": {"name": "env-from"}}, {"configMapRef": {"name": "cm-from"}}],
                "env": [{"name": "B", "valueFrom": {"configMapKeyRef": {"name": "cm-env", "key": "k"}}},
                        {"name": "C", "value": "plain"}]}],
            "ephemeralContainers": [{"name": "e", "envFrom": [{"secretRef": {"name": "debug"}}]}],
            "volumes": [
                {"name": "s", "secret": {"secretName": "s1"}},
                {"name": "cm", "configMap": {"name": "cm1"}},
                {"name": "p", "projected": {"sources": [
                    {"secret": {"name": "proj-s"}}, {"configMap": {"name": "proj-cm"}},
                    {"serviceAccountToken": {"path": "t"}}]}},
                {"name": "csi", "csi": {"driver": "d", "nodePublishSecretRef": {"name": "csi-s"}}},
                {"name": "data", "persistentVolumeClaim": {"claimName": "claim1"}},
                {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
                {"name": "empty", "emptyDir": {}}
            ],
            "resourceClaims": [
                {"name": "gpu", "resourceClaimName": "gpu-claim"},
                {"name": "tpl", "resourceClaimTemplateName": "t"},
                {"name": "pending", "resourceClaimTemplateName": "t"}
            ]
        },
        "status": {"resourceClaimStatuses": [{"name": "tpl", "resourceClaimName": "web-tpl-x"}]}
    })
}

fn graph_with(objects: &[(usize, &str, Value)]) -> Arc<NodeGraph> {
    let graph = Arc::new(NodeGraph::fixed());
    for (resource, key, object) in objects {
        graph.apply_for_test(*resource, key, Some(object.clone()));
    }
    graph
}

fn authorizer(graph: &Arc<NodeGraph>) -> NodeAuthorizer {
    NodeAuthorizer::new(graph.clone())
}

fn allowed(answer: Answer) -> bool {
    answer.0 == Decision::Allow
}

#[test]
fn a_pod_references_what_upstream_visits() {
    let refs = pod_refs("web", &web_pod("n1"));
    assert_eq!(refs.node.as_deref(), Some("n1"));
    let names = |kind: Kind| -> Vec<&str> {
        refs.refs
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, n)| n.as_str())
            .collect()
    };
    assert_eq!(
        names(Kind::Secret),
        ["csi-s", "debug", "env-from", "init-env", "proj-s", "pull", "s1"]
    );
    assert_eq!(
        names(Kind::ConfigMap),
        ["cm-env", "cm-from", "cm1", "proj-cm"]
    );
    assert_eq!(names(Kind::Pvc), ["claim1", "web-scratch"]);
    assert_eq!(names(Kind::ServiceAccount), ["web-sa"]);
    assert_eq!(names(Kind::ResourceClaim), ["gpu-claim", "web-tpl-x"]);
}

#[test]
fn a_mirror_pod_references_nothing_and_an_unbound_pod_is_not_kept() {
    let mut pod = web_pod("n1");
    pod["metadata"]["annotations"] = json!({"kubernetes.io/config.mirror": "x"});
    let refs = pod_refs("web", &pod);
    assert_eq!((refs.node.as_deref(), refs.refs.len()), (Some("n1"), 0));
    assert_eq!(pod_refs("web", &web_pod("")).node, None);
}

#[test]
fn odd_objects_never_panic() {
    let odd = [
        json!(null),
        json!([]),
        json!({"spec": "x"}),
        json!({"spec": {"nodeName": 5}}),
        json!({"spec": {"nodeName": "n1", "volumes": {"a": 1}, "containers": [1, null, {"env": "x"}],
            "imagePullSecrets": [null, {"name": 3}], "resourceClaims": [{"name": 1}, 7],
            "serviceAccountName": ["x"]}, "metadata": {"annotations": []}}),
        json!({"spec": {"nodeName": "n1", "volumes": [null, 1, {"secret": null}, {"projected": {"sources": 3}},
            {"ephemeral": {}, "name": null}, {"csi": {"nodePublishSecretRef": "x"}}]},
            "status": {"resourceClaimStatuses": "x"}}),
    ];
    let mut graph = Graph::default();
    for (i, object) in odd.iter().enumerate() {
        for resource in [PODS, PVS, ATTACHMENTS, SLICES] {
            apply(&mut graph, resource, &format!("ns/o{i}"), Some(object));
            apply(&mut graph, resource, "", Some(object));
        }
    }
    assert_eq!(
        pv_refs(&json!({"spec": {"claimRef": 1, "csi": []}}))
            .secrets
            .len(),
        0
    );
}

#[test]
fn a_persistent_volume_leads_to_its_kubelet_secrets_only() {
    let pv = json!({"spec": {
        "claimRef": {"namespace": "default", "name": "claim1"},
        "csi": {"driver": "d",
            "controllerPublishSecretRef": {"namespace": "ctl", "name": "publish"},
            "controllerExpandSecretRef": {"namespace": "ctl", "name": "expand"},
            "nodePublishSecretRef": {"namespace": "default", "name": "node-publish"},
            "nodeStageSecretRef": {"namespace": "other", "name": "stage"},
            "nodeExpandSecretRef": {"namespace": "default", "name": "node-expand"}}}});
    let refs = pv_refs(&pv);
    assert_eq!(refs.claim, Some(("default".into(), "claim1".into())));
    let secrets: Vec<String> = refs
        .secrets
        .iter()
        .map(|(ns, n)| format!("{ns}/{n}"))
        .collect();
    assert_eq!(
        secrets,
        ["default/node-publish", "other/stage", "default/node-expand"]
    );
    // A reference without a namespace means the claim's.
    let ceph = json!({"spec": {"claimRef": {"namespace": "apps", "name": "c"},
        "cephfs": {"monitors": [], "secretRef": {"name": "ceph"}}}});
    assert_eq!(pv_refs(&ceph).secrets, [("apps".into(), "ceph".into())]);
    // Unbound: nothing.
    assert_eq!(pv_refs(&json!({"spec": {"csi": {}}})).claim, None);
}

#[test]
fn removing_pods_removes_exactly_their_access() {
    let mut second = web_pod("n1");
    second["metadata"]["name"] = json!("web2");
    let graph = graph_with(&[
        (PODS, "default/web", web_pod("n1")),
        (PODS, "default/web2", second),
    ]);
    let n1 = kubelet("n1");
    let node = authorizer(&graph);
    assert!(allowed(
        node.authorize(&n1, &get("secrets", "default", "s1"))
    ));
    graph.apply_for_test(PODS, "default/web", None);
    assert!(allowed(
        node.authorize(&n1, &get("secrets", "default", "s1"))
    ));
    assert!(!allowed(
        node.authorize(&n1, &get("pods", "default", "web"))
    ));
    graph.apply_for_test(PODS, "default/web2", None);
    assert_eq!(
        node.authorize(&n1, &get("secrets", "default", "s1")),
        (
            Decision::NoOpinion,
            "no relationship found between node 'n1' and this object".into()
        )
    );
    assert!(graph.read().is_empty());
}

#[test]
fn a_pod_moving_nodes_moves_its_access() {
    let graph = graph_with(&[(PODS, "default/web", web_pod("n1"))]);
    graph.apply_for_test(PODS, "default/web", Some(web_pod("n2")));
    let node = authorizer(&graph);
    assert!(!allowed(
        node.authorize(&kubelet("n1"), &get("secrets", "default", "s1"))
    ));
    assert!(allowed(
        node.authorize(&kubelet("n2"), &get("secrets", "default", "s1"))
    ));
    assert_eq!(graph.read().pod_count(), 1);
}

#[test]
fn only_kubelets_are_judged() {
    let graph = graph_with(&[(PODS, "default/web", web_pod("n1"))]);
    let node = authorizer(&graph);
    let secret = get("secrets", "default", "s1");
    let mut not_in_group = kubelet("n1");
    not_in_group.groups.clear();
    let other = UserInfo {
        name: "jane".into(),
        groups: vec![NODES_GROUP.into()],
        ..Default::default()
    };
    for user in [not_in_group, other] {
        assert_eq!(
            node.authorize(&user, &secret),
            (Decision::NoOpinion, String::new())
        );
    }
    assert_eq!(
        node.authorize(&kubelet(""), &secret),
        (
            Decision::NoOpinion,
            "unknown node for user \"system:node:\"".into()
        )
    );
}

#[test]
fn secrets_and_config_maps_of_its_pods() {
    let graph = graph_with(&[(PODS, "default/web", web_pod("n1"))]);
    let node = authorizer(&graph);
    let n1 = kubelet("n1");
    let say = |a: &Attributes| node.authorize(&n1, a);
    assert!(allowed(say(&get("secrets", "default", "s1"))));
    assert!(allowed(say(&get("configmaps", "default", "proj-cm"))));
    assert!(!allowed(say(&get("secrets", "kube-system", "s1"))));
    assert!(!allowed(say(&get("secrets", "default", "s2"))));
    assert!(!allowed(say(&get("secrets", "default", "cm1"))));
    // One object by `metadata.name` (the request info names it).
    assert!(allowed(say(&res(
        "watch", "default", "", "secrets", "", "s1"
    ))));
    assert!(allowed(say(&res(
        "list",
        "default",
        "",
        "configmaps",
        "",
        "cm1"
    ))));
    let reason = |a: &Attributes| say(a).1;
    assert_eq!(
        reason(&res("list", "default", "", "secrets", "", "")),
        "No Object name found"
    );
    assert_eq!(
        reason(&res("update", "default", "", "secrets", "", "s1")),
        "can only read resources of this type"
    );
    assert_eq!(
        reason(&res("get", "", "", "secrets", "", "s1")),
        "can only read namespaced object of this type"
    );
    assert_eq!(
        reason(&res("get", "default", "", "configmaps", "x", "cm1")),
        "cannot read subresource"
    );
    // Another node sees nothing of them.
    assert!(!allowed(
        node.authorize(&kubelet("n2"), &get("secrets", "default", "s1"))
    ));
}

#[test]
fn claims_volumes_and_their_secrets() {
    let pv = json!({"spec": {"claimRef": {"namespace": "default", "name": "claim1"},
        "csi": {"driver": "d", "nodeStageSecretRef": {"namespace": "default", "name": "pv-s"}}}});
    let other_pv = json!({"spec": {"claimRef": {"namespace": "default", "name": "other"},
        "csi": {"driver": "d", "nodeStageSecretRef": {"namespace": "default", "name": "pv-x"}}}});
    let graph = graph_with(&[
        (PODS, "default/web", web_pod("n1")),
        (PVS, "pv1", pv),
        (PVS, "pv2", other_pv),
    ]);
    let node = authorizer(&graph);
    let n1 = kubelet("n1");
    let say = |a: &Attributes| node.authorize(&n1, a);
    assert!(allowed(say(&get(
        "persistentvolumeclaims",
        "default",
        "claim1"
    ))));
    assert!(allowed(say(&get(
        "persistentvolumeclaims",
        "default",
        "web-scratch"
    ))));
    assert!(allowed(say(&get("persistentvolumes", "", "pv1"))));
    assert!(allowed(say(&get("secrets", "default", "pv-s"))));
    assert!(!allowed(say(&get("persistentvolumes", "", "pv2"))));
    assert!(!allowed(say(&get("secrets", "default", "pv-x"))));
    assert_eq!(
        say(&res(
            "list",
            "default",
            "",
            "persistentvolumeclaims",
            "",
            "claim1"
        ))
        .1,
        "can only get individual resources of this type"
    );
    let status = |verb: &str| {
        res(
            verb,
            "default",
            "",
            "persistentvolumeclaims",
            "status",
            "claim1",
        )
    };
    assert!(allowed(say(&status("patch"))));
    assert_eq!(say(&status("get")).1, "can only get/update/patch this type");
    let claim = res(
        "get",
        "default",
        "resource.k8s.io",
        "resourceclaims",
        "",
        "web-tpl-x",
    );
    assert!(allowed(say(&claim)));
    // The volume's secret goes with the pod that uses its claim.
    graph.apply_for_test(PODS, "default/web", None);
    assert!(!allowed(say(&get("secrets", "default", "pv-s"))));
    assert!(!allowed(say(&get("persistentvolumes", "", "pv1"))));
}

#[test]
fn tokens_only_for_the_service_accounts_of_its_pods() {
    let graph = graph_with(&[(PODS, "default/web", web_pod("n1"))]);
    let node = authorizer(&graph);
    let n1 = kubelet("n1");
    let token = |name: &str| res("create", "default", "", "serviceaccounts", "token", name);
    assert!(allowed(node.authorize(&n1, &token("web-sa"))));
    assert_eq!(
        node.authorize(&n1, &token("default")).1,
        "no relationship found between node 'n1' and this object"
    );
    assert_eq!(
        node.authorize(&n1, &get("serviceaccounts", "default", "web-sa"))
            .1,
        "can only create tokens for individual service accounts"
    );
    let other_sub = res("create", "default", "", "serviceaccounts", "x", "web-sa");
    assert_eq!(
        node.authorize(&n1, &other_sub).1,
        "can only create token subresource of serviceaccount"
    );
}

#[test]
fn its_own_lease_csinode_node_and_attachments() {
    let graph = graph_with(&[
        (ATTACHMENTS, "va1", json!({"spec": {"nodeName": "n1"}})),
        (ATTACHMENTS, "va2", json!({"spec": {"nodeName": "n2"}})),
        (SLICES, "slice1", json!({"spec": {"nodeName": "n1"}})),
    ]);
    let node = authorizer(&graph);
    let n1 = kubelet("n1");
    let say = |a: &Attributes| node.authorize(&n1, a);
    let va = |name: &str| res("get", "", "storage.k8s.io", "volumeattachments", "", name);
    assert!(allowed(say(&va("va1"))));
    assert!(!allowed(say(&va("va2"))));
    let lease =
        |verb: &str, ns: &str, name: &str| res(verb, ns, "coordination.k8s.io", "leases", "", name);
    assert!(allowed(say(&lease("update", "kube-node-lease", "n1"))));
    assert!(allowed(say(&lease("create", "kube-node-lease", ""))));
    assert_eq!(
        say(&lease("get", "kube-node-lease", "n2")).1,
        "can only access node lease with the same name as the requesting node"
    );
    assert_eq!(
        say(&lease("get", "default", "n1")).1,
        "can only access leases in the \"kube-node-lease\" system namespace"
    );
    let csi = |verb: &str, name: &str| res(verb, "", "storage.k8s.io", "csinodes", "", name);
    assert!(allowed(say(&csi("patch", "n1"))));
    assert!(!allowed(say(&csi("get", "n2"))));
    assert!(allowed(say(&get("nodes", "", "n1"))));
    assert_eq!(
        say(&get("nodes", "", "n2")).1,
        "node 'n1' cannot read 'n2', only its own Node object"
    );
    assert_eq!(
        say(&res("list", "", "", "nodes", "", "")).1,
        "node 'n1' cannot read all nodes, only its own Node object"
    );
    assert!(allowed(say(&res("patch", "", "", "nodes", "status", "n2"))));
    assert_eq!(
        say(&res("delete", "", "", "nodes", "", "n1")),
        (Decision::NoOpinion, String::new())
    );
    let slice =
        |verb: &str, name: &str| res(verb, "", "resource.k8s.io", "resourceslices", "", name);
    assert!(allowed(say(&slice("get", "slice1"))));
    assert!(allowed(say(&slice("create", ""))));
    let mut list = slice("list", "");
    assert!(!allowed(say(&list)));
    list.field_selector = "nodeName=n1".into();
    assert!(allowed(say(&list)));
}

#[test]
fn pods_by_name_or_by_node_selector() {
    let graph = graph_with(&[(PODS, "default/web", web_pod("n1"))]);
    let node = authorizer(&graph);
    let n1 = kubelet("n1");
    let say = |a: &Attributes| node.authorize(&n1, a);
    assert!(allowed(say(&get("pods", "default", "web"))));
    assert!(!allowed(say(&get("pods", "default", "db"))));
    let mut list = res("list", "", "", "pods", "", "");
    assert_eq!(
        say(&list).1,
        "can only list/watch pods with spec.nodeName field selector"
    );
    list.field_selector = "spec.nodeName=n1".into();
    assert!(allowed(say(&list)));
    list.field_selector = "spec.nodeName!=n1".into();
    assert!(!allowed(say(&list)));
    list.field_selector = "status.phase=Running,spec.nodeName==n1".into();
    assert!(allowed(say(&list)));
    assert!(allowed(say(&res(
        "watch", "default", "", "pods", "", "web"
    ))));
    assert!(allowed(say(&res("create", "default", "", "pods", "", ""))));
    assert!(allowed(say(&res(
        "patch", "default", "", "pods", "status", "db"
    ))));
    assert!(allowed(say(&res(
        "create", "default", "", "pods", "eviction", "db"
    ))));
    assert!(!allowed(say(&res(
        "update", "default", "", "pods", "", "web"
    ))));
}

#[test]
fn everything_else_by_the_system_node_rules() {
    let graph = Arc::new(NodeGraph::fixed());
    let node = authorizer(&graph);
    let n1 = kubelet("n1");
    let say = |a: &Attributes| node.authorize(&n1, a);
    assert!(allowed(say(&res("list", "", "", "services", "", ""))));
    assert!(allowed(say(&res(
        "create", "default", "", "events", "", ""
    ))));
    let tokenreview = res(
        "create",
        "",
        "authentication.k8s.io",
        "tokenreviews",
        "",
        "",
    );
    assert!(allowed(say(&tokenreview)));
    let csr = res(
        "watch",
        "",
        "certificates.k8s.io",
        "certificatesigningrequests",
        "",
        "",
    );
    assert!(allowed(say(&csr)));
    assert_eq!(
        say(&res("list", "default", "apps", "deployments", "", "")),
        (Decision::NoOpinion, String::new())
    );
    let url = Attributes {
        verb: "get".into(),
        path: "/healthz".into(),
        ..Default::default()
    };
    assert_eq!(say(&url), (Decision::NoOpinion, String::new()));
}

#[tokio::test]
async fn in_the_chain_the_reason_reaches_the_refusal() {
    let graph = graph_with(&[(PODS, "default/web", web_pod("n1"))]);
    let modes = ["Node".to_owned(), "RBAC".to_owned()];
    let chain = Authorizer::new(&modes, Policy::default()).with_node_graph(graph);
    let n1 = kubelet("n1");
    let v = chain.decide(&n1, &get("secrets", "default", "s2")).await;
    assert_eq!(
        (v.decision, v.reason.as_str()),
        (
            Decision::NoOpinion,
            "no relationship found between node 'n1' and this object"
        )
    );
    assert_eq!(
        chain
            .authorize(&n1, &get("secrets", "default", "s1"))
            .await
            .0,
        Decision::Allow
    );
    let (_, _, incomplete) = chain.rules(&n1, "default");
    assert!(incomplete);
    // Without the Node mode a kubelet gets nothing from it.
    let rbac_only = Authorizer::new(&modes[1..], Policy::default());
    let v = rbac_only
        .decide(&n1, &get("secrets", "default", "s1"))
        .await;
    assert_eq!(v.decision, Decision::NoOpinion);
}

/// Timings (run with `--ignored --nocapture` in release): a decision on a graph of
/// 10,000 pods over 100 nodes, and building that graph.
#[test]
#[ignore]
fn timings() {
    use std::time::Instant;
    let pods: Vec<(String, Value)> = (0..10_000)
        .map(|i| {
            let mut pod = web_pod(&format!("n{}", i % 100));
            pod["spec"]["volumes"][0]["secret"]["secretName"] = json!(format!("s{i}"));
            (format!("default/web{i}"), pod)
        })
        .collect();
    let t = Instant::now();
    let refs: Vec<_> = pods.iter().map(|(k, p)| pod_refs(k, p)).collect();
    println!("references of 10,000 pods read in {:?}", t.elapsed());
    let t = Instant::now();
    let mut g = Graph::default();
    for (i, r) in refs.into_iter().enumerate() {
        g.set_pod("default", &format!("web{i}"), r);
    }
    println!("10,000 pods added in {:?}", t.elapsed());
    drop(g);
    let graph = Arc::new(NodeGraph::fixed());
    let t = Instant::now();
    graph.reset_for_test(vec![pods, vec![], vec![], vec![]]);
    println!("graph of 10,000 pods built in {:?}", t.elapsed());
    let node = authorizer(&graph);
    let n7 = kubelet("n7");
    let (yes, no) = (
        get("secrets", "default", "s107"),
        get("secrets", "default", "s108"),
    );
    let rounds = 1_000_000u32;
    let t = Instant::now();
    for _ in 0..rounds {
        assert!(allowed(node.authorize(&n7, std::hint::black_box(&yes))));
    }
    println!(
        "allowed secret get: {:?} per decision",
        t.elapsed() / rounds
    );
    let t = Instant::now();
    for _ in 0..rounds {
        assert!(!allowed(node.authorize(&n7, std::hint::black_box(&no))));
    }
    println!(
        "refused secret get (reason formatted): {:?} per decision",
        t.elapsed() / rounds
    );
    let list = res("list", "", "", "services", "", "");
    let t = Instant::now();
    for _ in 0..rounds {
        assert!(allowed(node.authorize(&n7, std::hint::black_box(&list))));
    }
    println!(
        "static rule (list services): {:?} per decision",
        t.elapsed() / rounds
    );
    let t = Instant::now();
    for i in 0..1000 {
        graph.apply_for_test(PODS, &format!("default/web{i}"), None);
    }
    println!("1,000 pod deletions: {:?}", t.elapsed());
}
