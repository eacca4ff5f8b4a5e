use serde_json::json;

use super::*;
use crate::validation::causes::messages;

fn ing(spec: Value) -> Value {
    json!({"metadata": {"name": "i"}, "spec": spec})
}

fn svc(name: &str, port: Value) -> Value {
    json!({"service": {"name": name, "port": port}})
}

#[test]
fn ingress_rules_paths_and_backends() {
    assert!(ingress(
        &ing(json!({"defaultBackend": svc("web", json!({"number": 80}))})),
        None
    )
    .is_empty());
    assert_eq!(
        messages(&ingress(&ing(json!({})), None)),
        ["spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified"]
    );
    let spec = json!({"rules": [{
        "host": "10.0.0.1",
        "http": {"paths": [
            {"path": "/a//b/..", "pathType": "Prefix", "backend": svc("1web", json!({"name": "http", "number": 80}))},
            {"path": "x", "backend": svc("web", json!({"number": 80}))},
            {"path": "rel", "pathType": "Weird", "backend": {}},
            {"path": "", "pathType": "ImplementationSpecific", "backend": svc("web", json!({"number": 70000}))},
        ]},
    }, {"host": "*.a.*", "http": {"paths": []}}],
    "tls": [{"hosts": ["*"], "secretName": "Bad_S"}],
    "ingressClassName": "Bad"});
    assert_eq!(
        messages(&ingress(&ing(spec), None)),
        [
            "spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address",
            "spec.rules[0].http.paths[0].path: Invalid value: \"/a//b/..\": must not contain '//'",
            "spec.rules[0].http.paths[0].path: Invalid value: \"/a//b/..\": cannot end with '/..'",
            "spec.rules[0].http.paths[0].backend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
            "spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both port name & port number",
            "spec.rules[0].http.paths[1].pathType: Required value: pathType must be specified",
            "spec.rules[0].http.paths[2].pathType: Unsupported value: \"Weird\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"",
            "spec.rules[0].http.paths[2].backend: Invalid value: \"\": resource or service backend is required",
            "spec.rules[0].http.paths[3].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive",
            &format!("spec.rules[1].host: Invalid value: \"*.a.*\": {WILDCARD_MSG}"),
            "spec.rules[1].http.paths: Required value",
            &format!("spec.tls[0].hosts[0]: Invalid value: \"*\": {WILDCARD_MSG}"),
            "spec.tls[0].secretName: Invalid value: \"Bad_S\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "spec.ingressClassName: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ]
    );
}

#[test]
fn ingress_annotation_and_update_relaxations() {
    let mut o = ing(
        json!({"ingressClassName": "nginx", "defaultBackend": {"resource": {"apiGroup": "x.io", "kind": "", "name": "a/b"}}}),
    );
    o["metadata"]["annotations"] = json!({"kubernetes.io/ingress.class": "traefik"});
    assert_eq!(
        messages(&ingress(&o, None)),
        [
            "spec.defaultBackend.resource.kind: Required value: kind is required",
            "spec.defaultBackend.resource.name: Invalid value: \"a/b\": may not contain '/'",
            "annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match `ingressClassName` when both are specified",
        ]
    );
    // Update: no annotation check; a bad secret name the stored object had is kept.
    let bad = ing(
        json!({"defaultBackend": svc("web", json!({"number": 80})), "tls": [{"secretName": "Bad_S"}]}),
    );
    assert!(ingress(&bad, Some(&bad)).is_empty());
    assert_eq!(ingress(&bad, None).len(), 1);
}

#[test]
fn ingress_class_controller_and_parameters() {
    let class = |spec: Value| json!({"metadata": {"name": "c"}, "spec": spec});
    assert!(ingress_class(&class(json!({"controller": "example.com/ingress"})), None).is_empty());
    assert_eq!(
        messages(&ingress_class(&class(json!({"controller": "nope"})), None)),
        ["spec.controller: Invalid value: \"nope\": must be a domain-prefixed path (such as \"acme.io/foo\")"]
    );
    assert_eq!(
        messages(&ingress_class(&class(json!({"controller": "a.io/x y"})), None)),
        ["spec.controller: Invalid value: \"x y\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"]
    );
    let c = class(
        json!({"controller": "a.io/x", "parameters": {"kind": "K", "name": "n", "scope": "Namespace"}}),
    );
    assert_eq!(
        messages(&ingress_class(&c, None)),
        ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]
    );
    let c = class(
        json!({"controller": "a.io/x", "parameters": {"kind": "K", "name": "n", "scope": "Cluster", "namespace": ""}}),
    );
    assert_eq!(
        messages(&ingress_class(&c, None)),
        ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]
    );
    let old = class(json!({"controller": "a.io/x"}));
    let new = class(json!({"controller": "b.io/x"}));
    assert_eq!(
        messages(&ingress_class(&new, Some(&old))),
        ["spec.controller: Invalid value: \"b.io/x\": field is immutable"]
    );
}
