use crate::validation::workload_warnings::pod_warnings;
use serde_json::json;

#[test]
fn pod_warnings_follow_upstream() {
    let pod = json!({
        "metadata": {"name": "a.b", "annotations": {
            "scheduler.alpha.kubernetes.io/critical-pod": "",
            "seccomp.security.alpha.kubernetes.io/pod": "runtime/default"}},
        "spec": {
            "nodeSelector": {"beta.kubernetes.io/os": "linux"},
            "topologySpreadConstraints": [{"topologyKey": "failure-domain.beta.kubernetes.io/zone"}],
            "volumes": [
                {"name": "g", "gitRepo": {"repository": "r"}},
                {"name": "c", "configMap": {"name": "cm", "items": [{"key": "a", "path": "x"}, {"key": "b", "path": "x/y"}]}},
                {"name": "p", "projected": {"sources": [{}, {"secret": {"name": "s", "items": [{"key": "k", "path": "t"}]}},
                    {"serviceAccountToken": {"path": "t"}}]}}],
            "hostAliases": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.1"}, {"ip": "010.0.0.2"}],
            "imagePullSecrets": [{"name": ""}],
            "terminationGracePeriodSeconds": -1,
            "containers": [{"name": "c",
                "resources": {"limits": {"memory": "1500m"}},
                "env": [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}],
                "ports": [{"containerPort": 80, "protocol": "TCP", "name": "web"},
                    {"containerPort": 80, "protocol": "TCP", "hostPort": 8080}]}],
            "initContainers": [{"name": "i", "ports": [{"containerPort": 81, "protocol": "TCP", "name": "web", "hostIP": "1.2.3.4"}]}],
        }
    });
    assert_eq!(
        pod_warnings(&pod, None),
        [
            "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
            "spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use \"kubernetes.io/os\" instead",
            "spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead",
            "spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod",
            "metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the \"priorityClassName\" field instead",
            "spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+",
            "volume \"c\" (ConfigMap \"cm\"): overlapping paths: \"x/y\" with \"x\"",
            "volume \"p\" (Projected) has no sources provided",
            "volume \"p\" (Projected): overlapping paths: \"t\" (ServiceAccountToken) with \"t\" (Secret \"s\")",
            "spec.hostAliases[1].ip: duplicate ip \"10.0.0.1\"",
            "spec.imagePullSecrets[0].name: invalid empty name \"\"",
            "metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the \"seccompProfile\" field instead",
            "spec.containers[0].resources.limits[memory]: fractional byte value \"1500m\" is invalid, must be an integer",
            "spec.containers[0].env[1]: hides previous definition of \"A\", which may be dropped when using apply",
            "spec.initContainers[0].ports[0]: hostIP set without hostPort: {Name:web HostPort:0 ContainerPort:81 Protocol:TCP HostIP:1.2.3.4}",
            "spec.containers[0].ports[1]: overlapping port definition with spec.containers[0].ports[0]",
            "spec.containers[0].ports[0]: duplicate port name \"web\" with spec.initContainers[0].ports[0], services and probes that select ports by name will use spec.initContainers[0].ports[0]",
            "spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1",
            "spec.hostAliases[2].ip: non-standard IP address \"010.0.0.2\" will be considered invalid in a future Kubernetes release: use \"10.0.0.2\"",
        ]
    );
    assert!(pod_warnings(&pod, Some(&pod)).is_empty(), "none on update");
}
