use super::*;
use crate::validation::causes::messages;
use serde_json::json;

/// The three container lists of `spec`, with defaults a v1 decode would have set.
fn check(mut spec: Value) -> Vec<String> {
    for kind in ["containers", "initContainers", "ephemeralContainers"] {
        for c in spec
            .get_mut(kind)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let c = c.as_object_mut().expect("container");
            c.entry("terminationMessagePolicy").or_insert(json!("File"));
            c.entry("imagePullPolicy").or_insert(json!("IfNotPresent"));
            for p in c
                .get_mut("ports")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                p.as_object_mut()
                    .expect("port")
                    .entry("protocol")
                    .or_insert(json!("TCP"));
            }
        }
    }
    let vols: Volumes = [("data".to_owned(), false)].into();
    let pod = Pod {
        spec: &spec,
        path: "spec",
        vols: &vols,
        host_users: true,
        grace: Some(30),
    };
    let mut out = Vec::new();
    containers(&pod, &mut out);
    init_containers(&pod, &mut out);
    ephemeral_containers(&pod, &mut out);
    messages(&out)
}

#[test]
fn names_images_and_ports() {
    assert_eq!(
        check(json!({"containers": [{"name": "Web_1"}, {"name": "web", "image": " nginx"},
            {"name": "web", "image": "nginx"}]}))[..2],
        [
            "spec.containers[0].name: Invalid value: \"Web_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "spec.containers[0].image: Required value",
        ]
    );
    assert_eq!(
        check(json!({"containers": [{"name": "c", "image": "x", "ports": [
            {"name": "HTTP", "hostPort": 70000, "protocol": "tcp"},
            {"name": "http-", "containerPort": 80},
            {"name": "web", "containerPort": 81},
            {"name": "web", "containerPort": 82}]}]})),
        [
            "spec.containers[0].ports[0].name: Invalid value: \"HTTP\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
            "spec.containers[0].ports[0].name: Invalid value: \"HTTP\": must contain at least one letter (a-z)",
            "spec.containers[0].ports[0].containerPort: Required value",
            "spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
            "spec.containers[0].ports[0].protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
            "spec.containers[0].ports[1].name: Invalid value: \"http-\": must not begin or end with a hyphen",
            "spec.containers[0].ports[3].name: Duplicate value: \"web\"",
        ]
    );
    assert_eq!(
        check(json!({"containers": [
            {"name": "a", "image": "x", "ports": [{"containerPort": 80, "hostPort": 8080}]},
            {"name": "a", "image": "x", "ports": [{"containerPort": 81, "hostPort": 8080},
                {"containerPort": 82, "hostPort": 8080, "protocol": "UDP"}]}]})),
        [
            "spec.containers[1].name: Duplicate value: \"a\"",
            "spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\"",
        ]
    );
}

#[test]
fn init_containers_and_sidecars() {
    assert_eq!(
        check(json!({"containers": [{"name": "c", "image": "x"}], "initContainers": [
            {"name": "side", "image": "x", "restartPolicy": "Always",
                "readinessProbe": {"tcpSocket": {"port": "80"}, "terminationGracePeriodSeconds": 10},
                "startupProbe": {"exec": {"command": ["true"]}, "successThreshold": 2}},
            {"name": "init", "image": "x", "lifecycle": {"postStart": {"exec": {"command": ["x"]}}},
                "livenessProbe": {"exec": {"command": ["true"]}},
                "ports": [{"containerPort": 80, "hostPort": 9000}, {"containerPort": 81, "hostPort": 9000}]},
            {"name": "c", "image": "x", "restartPolicy": "OnFailure", "readinessProbe": {"exec": {"command": []}}}]})),
        [
            "spec.initContainers[0].readinessProbe.tcpSocket.port: Invalid value: \"80\": must contain at least one letter (a-z)",
            "spec.initContainers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes",
            "spec.initContainers[0].startupProbe.successThreshold: Invalid value: 2: must be 1",
            "spec.initContainers[0].ports[1].hostPort: Duplicate value: \"TCP//9000\"",
            "spec.initContainers[1].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always",
            "spec.initContainers[1].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
            "spec.initContainers[2].restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
            "spec.initContainers[2].name: Duplicate value: \"c\"",
            "spec.initContainers[2].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
        ]
    );
}

#[test]
fn env_and_env_from() {
    let got = check(json!({"containers": [{"name": "c", "image": "x", "env": [
        {"name": "MY=VAR", "value": "x"},
        {"name": "", "valueFrom": {}},
        {"name": "A", "value": "v", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.restartPolicy"}}},
        {"name": "B", "valueFrom": {"configMapKeyRef": {"name": "", "key": "../k"}, "secretKeyRef": {"name": "s", "key": "k"}}},
        {"name": "C", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "2"}}},
        {"name": "1 my var"}],
        "envFrom": [{"prefix": "1_", "configMapRef": {"name": "Cfg"}}, {},
            {"configMapRef": {"name": "a"}, "secretRef": {"name": ""}}, {"secretRef": {"name": "tls-"}}]}]}));
    let e = "spec.containers[0].env";
    assert_eq!(
        got[0],
        format!("{e}[0].name: Invalid value: \"MY=VAR\": {RELAXED_ENV_MSG}")
    );
    assert_eq!(got[1], format!("{e}[1].name: Required value"));
    assert_eq!(got[2], format!("{e}[1].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    assert!(got[3].starts_with(&format!("{e}[2].valueFrom.fieldRef.fieldPath: Unsupported value: \"spec.restartPolicy\": supported values: \"metadata.name\"")));
    assert_eq!(
        got[4],
        format!(
            "{e}[2].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"
        )
    );
    assert!(got[5].starts_with(&format!("{e}[3].valueFrom.configMapKeyRef.name: Invalid value: \"\": a lowercase RFC 1123 subdomain")));
    assert!(got[6].starts_with(&format!(
        "{e}[3].valueFrom.configMapKeyRef.key: Invalid value: \"../k\": a valid config key"
    )));
    assert_eq!(got[7], format!("{e}[3].valueFrom.configMapKeyRef.key: Invalid value: \"../k\": must not start with '..'"));
    assert_eq!(got[8], format!("{e}[3].valueFrom: Invalid value: \"\": may not have more than one field specified at a time"));
    assert_eq!(got[9], format!("{e}[4].valueFrom.resourceFieldRef.divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource"));
    let f = "spec.containers[0].envFrom";
    assert!(got[10].starts_with(&format!(
        "{f}[0].configMapRef.name: Invalid value: \"Cfg\": a lowercase RFC 1123 subdomain"
    )));
    assert_eq!(
        got[11..],
        [
            format!("{f}: Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`"),
            format!("{f}[2].secretRef.name: Required value"),
            format!(
                "{f}: Invalid value: \"\": may not have more than one field specified at a time"
            ),
        ]
    );
}

#[test]
fn ephemeral_containers_and_policies() {
    assert_eq!(
        check(json!({"containers": [{"name": "app", "image": "nginx"}],
            "ephemeralContainers": [{"name": "app", "image": " busybox", "targetContainerName": "nope",
                "ports": [{"containerPort": 80}], "resources": {"limits": {"cpu": "1"}},
                "readinessProbe": {"exec": {"command": []}}, "lifecycle": {"preStop": {"exec": {"command": ["x"]}}},
                "volumeMounts": [{"name": "data", "mountPath": "/d", "subPath": "s"}]}]})),
        [
            "spec.ephemeralContainers[0].image: Invalid value: \" busybox\": must not have leading or trailing whitespace",
            "spec.ephemeralContainers[0].name: Duplicate value: \"app\"",
            "spec.ephemeralContainers[0].targetContainerName: Not found: \"nope\"",
            "spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container",
            "spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container",
            "spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container",
            "spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container",
            "spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container",
        ]
    );
    assert_eq!(
        check(json!({"restartPolicy": "Never", "containers": [{"name": "c", "image": "x",
            "terminationMessagePolicy": "Foo", "imagePullPolicy": "Sometimes", "restartPolicy": "Always",
            "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "RestartContainer"},
                {"resourceName": "cpu"}, {"resourceName": "gpu", "restartPolicy": "NotRequired"}]}]})),
        [
            "spec.containers[0].terminationMessagePolicy: Unsupported value: \"Foo\": supported values: \"File\", \"FallbackToLogsOnError\"",
            "spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"",
            "spec.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'",
            "spec.containers[0].resizePolicy[1]: Duplicate value: \"cpu\"",
            "spec.containers[0].resizePolicy: Required value",
            "spec.containers[0].resizePolicy: Invalid value: \"\": must be 'NotRequired' when `restartPolicy` is 'Never'",
            "spec.containers[0].resizePolicy: Unsupported value: \"gpu\": supported values: \"cpu\", \"memory\"",
            "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers",
        ]
    );
}
