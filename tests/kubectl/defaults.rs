//! Defaulting of the built-in types as kube-apiserver 1.33 does it (issue 17): one
//! object per defaulted type, created bare, must come back with upstream's defaults
//! (the upstream source of each is named beside it).

use http::Method;
use serde_json::{json, Value};

use crate::harness::Server;

/// POSTs `body` to `path`; the created object.
async fn create(server: &Server, path: &str, body: Value) -> Value {
    let r = server
        .send_json(Method::POST, path, "application/json", &body)
        .await;
    assert_eq!(r.status, 201, "{path}: {}", r.text());
    r.json()
}

async fn get(server: &Server, path: &str) -> Value {
    let r = server
        .request_full(Method::GET, path, &[], b"", true, false)
        .await
        .expect("request");
    assert_eq!(r.status, 200, "{path}: {}", r.text());
    r.json()
}

fn pod_template() -> Value {
    json!({"metadata": {"labels": {"app": "a"}},
        "spec": {"hostNetwork": true, "containers": [{"name": "c", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn core_and_storage_types_are_defaulted() {
    let server = Server::builder().start().await;
    let ns = "/api/v1/namespaces/default";
    // pkg/apis/core/v1/defaults.go SetDefaults_ReplicationController, SetDefaults_PodSpec.
    let rc = create(
        &server,
        &format!("{ns}/replicationcontrollers"),
        json!({"apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc"},
            "spec": {"template": pod_template()}}),
    )
    .await;
    assert_eq!(rc["spec"]["selector"], json!({"app": "a"}));
    assert_eq!(rc["metadata"]["labels"], json!({"app": "a"}));
    assert_eq!(rc["spec"]["replicas"], 1);
    let spec = &rc["spec"]["template"]["spec"];
    assert_eq!(spec["restartPolicy"], "Always");
    assert_eq!(spec["terminationGracePeriodSeconds"], 30);
    assert_eq!(spec["containers"][0]["imagePullPolicy"], "IfNotPresent");
    // Templates no longer get host ports with host networking (pods only).
    assert_eq!(
        spec["containers"][0]["ports"][0],
        json!({"containerPort": 80, "protocol": "TCP"})
    );
    // PodTemplate: the same pod spec defaults.
    let pt = create(
        &server,
        &format!("{ns}/podtemplates"),
        json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "pt"},
            "template": pod_template()}),
    )
    .await;
    assert_eq!(pt["template"]["spec"]["dnsPolicy"], "ClusterFirst");
    // SetDefaults_PersistentVolume, and the create strategy's phase transition time.
    let pv = create(
        &server,
        "/api/v1/persistentvolumes",
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv"},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/d"}}}),
    )
    .await;
    assert_eq!(pv["spec"]["persistentVolumeReclaimPolicy"], "Retain");
    assert_eq!(pv["spec"]["volumeMode"], "Filesystem");
    assert_eq!(pv["spec"]["hostPath"], json!({"path": "/d", "type": ""}));
    assert_eq!(pv["status"]["phase"], "Pending");
    assert!(pv["status"]["lastPhaseTransitionTime"].is_string(), "{pv}");
    // SetDefaults_PersistentVolumeClaim(Spec).
    let pvc = create(
        &server,
        &format!("{ns}/persistentvolumeclaims"),
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "c"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    )
    .await;
    assert_eq!(pvc["spec"]["volumeMode"], "Filesystem");
    assert_eq!(pvc["status"], json!({"phase": "Pending"}));
    // SetDefaults_LimitRangeItem.
    let lr = create(
        &server,
        &format!("{ns}/limitranges"),
        json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "l"},
            "spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "64Mi"}}]}}),
    )
    .await;
    let item = &lr["spec"]["limits"][0];
    assert_eq!(item["default"], json!({"cpu": "2"}));
    assert_eq!(
        item["defaultRequest"],
        json!({"cpu": "2", "memory": "64Mi"})
    );
    // pkg/apis/storage/v1/defaults.go.
    let sc = create(
        &server,
        "/apis/storage.k8s.io/v1/storageclasses",
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "sc"},
            "provisioner": "example.com/p"}),
    )
    .await;
    assert_eq!(
        (&sc["reclaimPolicy"], &sc["volumeBindingMode"]),
        (&json!("Delete"), &json!("Immediate"))
    );
    let csi = create(
        &server,
        "/apis/storage.k8s.io/v1/csidrivers",
        json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "d.example.com"}, "spec": {}}),
    )
    .await;
    assert_eq!(
        csi["spec"],
        json!({"attachRequired": true, "podInfoOnMount": false, "storageCapacity": false,
            "fsGroupPolicy": "ReadWriteOnceWithFSType", "volumeLifecycleModes": ["Persistent"],
            "requiresRepublish": false, "seLinuxMount": false})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autoscaling_and_policy_types_are_defaulted() {
    let server = Server::builder().start().await;
    let target = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"});
    // pkg/apis/autoscaling/v2/defaults.go: minReplicas, the 80% CPU metric, behavior rules.
    let v2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers";
    let h = create(
        &server,
        v2,
        json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h2"},
            "spec": {"scaleTargetRef": target, "maxReplicas": 3, "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}}}),
    )
    .await;
    assert_eq!(h["spec"]["minReplicas"], 1);
    assert_eq!(
        h["spec"]["metrics"],
        json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}])
    );
    assert_eq!(
        h["spec"]["behavior"],
        json!({"scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
                {"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]},
            "scaleDown": {"stabilizationWindowSeconds": 60, "selectPolicy": "Max", "policies": [
                {"type": "Percent", "value": 100, "periodSeconds": 15}]}})
    );
    // autoscaling/v1 (pkg/apis/autoscaling/v1/defaults.go and conversion.go): the v2
    // behavior travels in an annotation; v1 status has no v2 fields.
    let v1 = get(
        &server,
        "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h2",
    )
    .await;
    assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 80);
    assert!(
        v1["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/behavior"]
            .as_str()
            .is_some_and(|b| b.contains("\"StabilizationWindowSeconds\":60"))
    );
    assert!(v1["status"].get("currentMetrics").is_none(), "{v1}");
    let h1 = create(
        &server,
        "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
        json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h1"},
            "spec": {"scaleTargetRef": target, "maxReplicas": 3}}),
    )
    .await;
    assert_eq!(h1["spec"]["minReplicas"], 1);
    assert_eq!(h1["spec"]["targetCPUUtilizationPercentage"], 80);
    let h1v2 = get(&server, &format!("{v2}/h1")).await;
    assert_eq!(h1v2["spec"]["metrics"], h["spec"]["metrics"]);
    // pkg/apis/networking/v1/defaults.go.
    let np = create(
        &server,
        "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies",
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "np"},
            "spec": {"podSelector": {}, "egress": [{"ports": [{"port": 53}]}]}}),
    )
    .await;
    assert_eq!(np["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
    assert_eq!(np["spec"]["egress"][0]["ports"][0]["protocol"], "TCP");
    let ic = create(
        &server,
        "/apis/networking.k8s.io/v1/ingressclasses",
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass", "metadata": {"name": "ic"},
            "spec": {"controller": "example.com/c", "parameters": {"kind": "P", "name": "p"}}}),
    )
    .await;
    assert_eq!(ic["spec"]["parameters"]["scope"], "Cluster");
    // pkg/apis/scheduling/v1/defaults.go.
    let pc = create(
        &server,
        "/apis/scheduling.k8s.io/v1/priorityclasses",
        json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "pc"}, "value": 10}),
    )
    .await;
    assert_eq!(pc["preemptionPolicy"], "PreemptLowerPriority");
    // pkg/apis/rbac/v1/defaults.go.
    let rb = create(
        &server,
        "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "rb"},
            "roleRef": {"kind": "ClusterRole", "name": "view", "apiGroup": "rbac.authorization.k8s.io"},
            "subjects": [{"kind": "User", "name": "u"}, {"kind": "Group", "name": "g"},
                {"kind": "ServiceAccount", "name": "s", "namespace": "default"}]}),
    )
    .await;
    assert_eq!(rb["subjects"][0]["apiGroup"], "rbac.authorization.k8s.io");
    assert_eq!(rb["subjects"][1]["apiGroup"], "rbac.authorization.k8s.io");
    assert!(rb["subjects"][2].get("apiGroup").is_none(), "{rb}");
    // pkg/apis/admissionregistration/v1/defaults.go (already in place; checked here).
    let vwc = create(
        &server,
        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
        json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
            "metadata": {"name": "w"}, "webhooks": [{"name": "w.example.com", "sideEffects": "None",
            "admissionReviewVersions": ["v1"], "clientConfig": {"url": "https://example.com/"},
            "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}]}]}),
    )
    .await;
    let w = &vwc["webhooks"][0];
    assert_eq!(
        (&w["failurePolicy"], &w["matchPolicy"], &w["timeoutSeconds"]),
        (&json!("Fail"), &json!("Equivalent"), &json!(10))
    );
    assert_eq!(
        (
            &w["namespaceSelector"],
            &w["objectSelector"],
            &w["rules"][0]["scope"]
        ),
        (&json!({}), &json!({}), &json!("*"))
    );
}

/// Resource lists are rounded up to thousandths (`SetDefaults_ResourceList`,
/// pkg/apis/core/v1/defaults.go): container resources, limit ranges, quotas, volumes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_quantities_are_rounded_up_to_milli() {
    let server = Server::builder().start().await;
    let pod = create(
        &server,
        "/api/v1/namespaces/default/pods",
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "x",
                "resources": {"requests": {"cpu": "0.0001", "memory": "100Mi"}, "limits": {"cpu": "1500u"}}}]}}),
    )
    .await;
    let res = &pod["spec"]["containers"][0]["resources"];
    assert_eq!(res["requests"]["cpu"], "1m");
    assert_eq!(res["requests"]["memory"], "100Mi");
    assert_eq!(res["limits"]["cpu"], "2m");
    let lr = create(
        &server,
        "/api/v1/namespaces/default/limitranges",
        json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "l"},
            "spec": {"limits": [{"type": "Container", "max": {"cpu": "100u"}}]}}),
    )
    .await;
    assert_eq!(lr["spec"]["limits"][0]["max"]["cpu"], "1m");
    assert_eq!(lr["spec"]["limits"][0]["default"]["cpu"], "1m");
    let q = create(
        &server,
        "/api/v1/namespaces/default/resourcequotas",
        json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q"},
            "spec": {"hard": {"requests.cpu": "10u", "pods": "4"}}}),
    )
    .await;
    assert_eq!(q["spec"]["hard"]["requests.cpu"], "1m");
    assert_eq!(q["spec"]["hard"]["pods"], "4");

    // A load balancer's ingress IP is a VIP unless its status says otherwise
    // (SetDefaults_Service, LoadBalancerIPMode).
    create(
        &server,
        "/api/v1/namespaces/default/services",
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "lb"},
            "spec": {"type": "LoadBalancer", "ports": [{"port": 80}]}}),
    )
    .await;
    let r = server
        .send_json(
            Method::PATCH,
            "/api/v1/namespaces/default/services/lb/status",
            "application/merge-patch+json",
            &json!({"status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.1"}, {"hostname": "lb.example.com"}]}}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let ingress = &r.json()["status"]["loadBalancer"]["ingress"];
    assert_eq!(ingress[0]["ipMode"], "VIP");
    assert!(ingress[1].get("ipMode").is_none());
}

/// metadata.generation as each 1.33 strategy keeps it (checked against a real 1.33.4
/// server, /work/notes/defaults-1.33.md): 1 on create where PrepareForCreate sets it
/// (pods, ingress classes, endpoint slices among them), the client's value elsewhere
/// (ConfigMaps, HorizontalPodAutoscalers); a DaemonSet's template generation in its
/// `deprecated.daemonset.template.generation` annotation, moved only by template changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generations_are_kept_as_each_strategy_keeps_them() {
    let server = Server::builder().start().await;
    let ns = "/api/v1/namespaces/default";
    let pod = create(
        &server,
        &format!("{ns}/pods"),
        json!({"metadata": {"name": "p", "generation": 9},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}),
    )
    .await;
    assert_eq!(pod["metadata"]["generation"], 1, "{pod}");
    let cm = create(
        &server,
        &format!("{ns}/configmaps"),
        json!({"metadata": {"name": "c", "generation": 7}}),
    )
    .await;
    assert_eq!(cm["metadata"]["generation"], 7, "{cm}");
    let hpa = create(
        &server,
        "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
        json!({"metadata": {"name": "h"}, "spec": {"maxReplicas": 2,
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}}}),
    )
    .await;
    assert!(hpa["metadata"].get("generation").is_none(), "{hpa}");
    // A headless service without a selector names both families (alloc.go's special
    // case), even on this single-stack cluster.
    let headless = create(
        &server,
        &format!("{ns}/services"),
        json!({"metadata": {"name": "hl"}, "spec": {"clusterIP": "None"}}),
    )
    .await;
    assert_eq!(
        headless["spec"]["ipFamilies"],
        json!(["IPv4", "IPv6"]),
        "{headless}"
    );
    assert_eq!(headless["spec"]["ipFamilyPolicy"], "RequireDualStack");
    let class = create(
        &server,
        "/apis/networking.k8s.io/v1/ingressclasses",
        json!({"metadata": {"name": "ic"}, "spec": {"controller": "example.com/c"}}),
    )
    .await;
    assert_eq!(class["metadata"]["generation"], 1, "{class}");
    let ds_path = "/apis/apps/v1/namespaces/default/daemonsets";
    let mut ds = create(
        &server,
        ds_path,
        json!({"metadata": {"name": "d"}, "spec": {"selector": {"matchLabels": {"app": "a"}},
            "template": {"metadata": {"labels": {"app": "a"}},
                "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}),
    )
    .await;
    let template_generation = |o: &Value| {
        o["metadata"]["annotations"]["deprecated.daemonset.template.generation"].clone()
    };
    assert_eq!(template_generation(&ds), "1", "{ds}");
    ds["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.27");
    ds["metadata"]["annotations"]["deprecated.daemonset.template.generation"] = json!("40");
    let r = server
        .send_json(
            Method::PUT,
            &format!("{ds_path}/d"),
            "application/json",
            &ds,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let updated = r.json();
    assert_eq!(template_generation(&updated), "2", "{updated}");
    assert_eq!(updated["metadata"]["generation"], 2, "{updated}");
}
