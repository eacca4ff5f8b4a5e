//! Types that accepted anything now refuse what kube-apiserver 1.33 refuses (issue 17's
//! validation walk): RBAC roles and bindings (a binding's roleRef never changes),
//! PersistentVolumeClaims, PodDisruptionBudgets, PriorityClasses, StorageClasses,
//! NetworkPolicies and HorizontalPodAutoscalers, each with upstream's field causes as
//! kubectl prints them.

use crate::harness::kubectl::Kubectl;
use crate::harness::Server;

/// `kubectl <args>` with `input` on stdin, which must fail; its error output.
fn refused(k: &Kubectl, args: &[&str], input: &str) -> String {
    let out = k.run_stdin(args, input);
    assert!(!out.status.success(), "accepted: {args:?}\n{input}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn has(err: &str, lines: &[&str]) {
    for line in lines {
        assert!(err.contains(line), "missing {line:?} in:\n{err}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_objects_of_newly_validated_types_are_refused() {
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let create = ["create", "-f", "-"];

    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: pvc}\nspec: {accessModes: [ReadWriteSometimes]}\n",
    );
    has(
        &err,
        &[
            "The PersistentVolumeClaim \"pvc\" is invalid",
            "spec.accessModes: Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
            "spec.resources[storage]: Required value",
        ],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb}\nspec: {maxUnavailable: 150%}\n",
    );
    has(&err, &["spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}: must not be greater than 100%"]);
    let err = refused(
        &k,
        &["create", "priorityclass", "huge", "--value=2000000000"],
        "",
    );
    has(
        &err,
        &["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: sc}\nprovisioner: \"\"\nreclaimPolicy: Sometimes\n",
    );
    has(
        &err,
        &[
            "provisioner: Required value",
            "reclaimPolicy: Unsupported value: \"Sometimes\": supported values: \"Delete\", \"Retain\"",
        ],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\nrules: [{resources: [pods]}]\n",
    );
    has(
        &err,
        &[
            "rules[0].verbs: Required value: verbs must contain at least one value",
            "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
        ],
    );

    let err = refused(
        &k,
        &create,
        "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np}\nspec:\n  podSelector: {}\n  ingress: [{from: [{}], ports: [{protocol: ICMP, port: 80}]}]\n",
    );
    has(
        &err,
        &[
            "spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\"",
            "spec.ingress[0].from[0]: Required value: must specify a peer",
        ],
    );

    let err = refused(
        &k,
        &create,
        "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 3\n  maxReplicas: 2\n",
    );
    has(
        &err,
        &["spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`"],
    );

    // A binding keeps its role: kubectl apply of another roleRef is refused.
    k.ok(&[
        "create",
        "rolebinding",
        "rb",
        "--clusterrole=view",
        "--user=ann",
    ]);
    let err = refused(
        &k,
        &["apply", "-f", "-"],
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb, namespace: default}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}\nsubjects: [{kind: User, name: ann, apiGroup: rbac.authorization.k8s.io}]\n",
    );
    has(
        &err,
        &["roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef"],
    );
    // kubectl auth reconcile replaces such a binding, as it does against kube-apiserver.
    k.ok_stdin(
        &["auth", "reconcile", "-f", "-", "--remove-extra-subjects"],
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb, namespace: default}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}\nsubjects: [{kind: User, name: ann, apiGroup: rbac.authorization.k8s.io}]\n",
    );
    let role = k.ok(&["get", "rolebinding", "rb", "-o", "jsonpath={.roleRef.name}"]);
    assert_eq!(role, "edit");

    // Valid objects of these types still go in, and the server's own (bootstrap roles
    // and bindings, system priority classes) are there.
    k.ok_stdin(
        &create,
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ok}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
    );
    k.ok(&["get", "clusterrole", "admin", "cluster-admin"]);
    k.ok(&["get", "priorityclass", "system-node-critical"]);

    // Data sources: the one given is copied to the other; a legacy source that is
    // neither a claim nor a snapshot is dropped; two that disagree are refused.
    let claim = |name: &str, sources: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 1Gi}}}}, {sources}}}\n")
    };
    let out = k.ok_stdin(
        &["create", "-f", "-", "-o", "json"],
        &claim(
            "clone",
            "dataSource: {kind: PersistentVolumeClaim, name: ok}",
        ),
    );
    let spec = serde_json::from_str::<serde_json::Value>(&out).expect("json")["spec"].clone();
    assert_eq!(
        spec["dataSourceRef"],
        serde_json::json!({"kind": "PersistentVolumeClaim", "name": "ok"}),
        "{out}"
    );
    let out = k.ok_stdin(
        &["create", "-f", "-", "-o", "json"],
        &claim(
            "legacy",
            "dataSource: {apiGroup: example.com, kind: Pop, name: p}",
        ),
    );
    assert!(!out.contains("dataSource"), "{out}");
    let err = refused(
        &k,
        &create,
        &claim(
            "differ",
            "dataSource: {kind: PersistentVolumeClaim, name: a}, dataSourceRef: {kind: PersistentVolumeClaim, name: b}",
        ),
    );
    has(&err, &["spec: Invalid value: field.Path{name:\"dataSource\", index:\"\", parent:(*field.Path)(0xc000000000)}: must match dataSourceRef"]);
}

/// The second part of the walk: Ingresses and IngressClasses, LimitRanges,
/// ResourceQuotas, ReplicationControllers, PodTemplates, Leases and RuntimeClasses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ingresses_limits_quotas_controllers_leases_and_runtime_classes_are_validated() {
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let create = ["create", "-f", "-"];

    let err = refused(
        &k,
        &create,
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ing}\nspec:\n  rules:\n  - host: 10.0.0.1\n    http:\n      paths:\n      - {path: /a//b, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}\n",
    );
    has(
        &err,
        &[
            "The Ingress \"ing\" is invalid",
            "spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address",
            "spec.rules[0].http.paths[0].path: Invalid value: \"/a//b\": must not contain '//'",
        ],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: ic}\nspec: {controller: nope}\n",
    );
    has(&err, &["spec.controller: Invalid value: \"nope\": must be a domain-prefixed path (such as \"acme.io/foo\")"]);
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits:\n  - {type: Container, min: {cpu: \"2\"}, max: {cpu: \"1\"}}\n",
    );
    has(
        &err,
        &[
            "spec.limits[0].min[cpu]: Invalid value: resource.Quantity{",
            "min value 2 is greater than max value 1",
        ],
    );
    let err = refused(
        &k,
        &["create", "quota", "q", "--hard=pods=1.5,storage=1"],
        "",
    );
    has(
        &err,
        &[
            "spec.hard[pods]: Invalid value: resource.Quantity{",
            "must be an integer",
            "spec.hard[storage]: Invalid value: \"storage\": must be a standard resource for quota",
        ],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec:\n  selector: {app: b}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {restartPolicy: OnFailure, containers: [{name: c, image: nginx}]}\n",
    );
    has(
        &err,
        &[
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"a\"}: `selector` does not match template `labels`",
            "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
        ],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: PodTemplate\nmetadata: {name: pt}\ntemplate:\n  spec: {containers: []}\n",
    );
    has(&err, &["template.spec.containers: Required value"]);
    let err = refused(
        &k,
        &create,
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l}\nspec: {leaseDurationSeconds: 0}\n",
    );
    has(
        &err,
        &["spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"],
    );
    // Pod volumes: each source's own rules, at upstream's paths; a faulty volume is not
    // there for its mounts.
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: vols}\nspec:\n  containers: [{name: c, image: i, volumeMounts: [{name: h, mountPath: /h}]}]\n  volumes:\n  - {name: h, hostPath: {path: /x, type: Dir}}\n  - {name: s, secret: {secretName: s, items: [{key: k, path: ../up}]}}\n",
    );
    has(
        &err,
        &[
            "spec.volumes[0].hostPath.type: Unsupported value: \"Dir\"",
            "spec.volumes[1].secret.items[0].path: Invalid value: \"../up\": must not contain '..'",
            "spec.containers[0].volumeMounts[0].name: Not found: \"h\"",
        ],
    );
    // Projecting sources and ephemeral claims, with upstream's quirky paths.
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: proj}\nspec:\n  containers: [{name: c, image: i}]\n  volumes:\n  - {name: d, downwardAPI: {items: [{path: node, fieldRef: {fieldPath: spec.nodeName}}]}}\n  - {name: p, projected: {sources: [{serviceAccountToken: {path: /tok, expirationSeconds: 60}}]}}\n  - {name: e, ephemeral: {volumeClaimTemplate: {metadata: {name: x}, spec: {accessModes: [ReadWriteOnce]}}}}\n  - {name: c, persistentVolumeClaim: {claimName: proj-e}}\n",
    );
    has(
        &err,
        &[
            "spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: \"spec.nodeName\"",
            "spec.volumes[1].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes",
            "spec.volumes[1].projected.path: Invalid value: \"/tok\": must be a relative path",
            "spec.volumes[2].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set",
            "spec.volumes[2].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value",
            "spec.volumes[3].persistentVolumeClaim.claimName: Invalid value: \"proj-e\": must not reference a PVC that gets created for an ephemeral volume",
        ],
    );
    // The pod spec in upstream's order: containers, then host network, policies,
    // security, scheduling, gates, names, tolerations; privileged containers refused
    // without --allow-privileged, as kube-apiserver's own default.
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: spec-walk}\nspec:\n  hostNetwork: true\n  containers:\n  - name: c\n    image: i\n    ports: [{containerPort: 80, hostPort: 81}]\n    env: [{name: A, valueFrom: {fieldRef: {fieldPath: status.phase}}}]\n    securityContext: {privileged: true}\n    livenessProbe: {exec: {command: [x]}, successThreshold: 2}\n  securityContext:\n    sysctls: [{name: net.core.somaxconn, value: '1'}]\n  tolerations: [{operator: Equal, value: x}]\n  topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: Never}]\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}\n  dnsPolicy: None\n  schedulingGates: [{name: a}, {name: a}]\n",
    );
    has(
        &err,
        &[
            "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: \"status.phase\"",
            "spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy",
            "spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
            "spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true",
            "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term",
            "spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None",
            "spec.schedulingGates[1]: Duplicate value: \"a\"",
            "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero",
            "spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Never\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
            "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty",
        ],
    );
    // A deprecated profile annotation must agree with the field it duplicates.
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: profiles\n  annotations: {seccomp.security.alpha.kubernetes.io/pod: unconfined}\nspec:\n  securityContext: {seccompProfile: {type: RuntimeDefault}}\n  containers: [{name: c, image: i}]\n",
    );
    has(
        &err,
        &["spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"],
    );
    // Templates follow the same rules under their own path; a Deployment's init
    // container without restartPolicy: Always may not have probes.
    let err = refused(
        &k,
        &create,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: tpl}\nspec:\n  selector: {matchLabels: {app: t}}\n  template:\n    metadata: {labels: {app: t}}\n    spec:\n      initContainers: [{name: i, image: i, readinessProbe: {exec: {command: [x]}}}]\n      containers: [{name: c, image: i, resources: {limits: {cpu: 500m}, requests: {cpu: '1'}}}]\n",
    );
    has(
        &err,
        &[
            "spec.template.spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 500m",
            "spec.template.spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
        ],
    );
    // ImageVolume is off in 1.33: an image volume and its mounts are dropped, not refused.
    let out = k.ok_stdin(
        &["create", "-f", "-", "-o", "json"],
        "apiVersion: v1\nkind: Pod\nmetadata: {name: img}\nspec:\n  containers: [{name: c, image: i, volumeMounts: [{name: i, mountPath: /i}]}]\n  volumes: [{name: i, image: {reference: r}}]\n",
    );
    let pod: serde_json::Value = serde_json::from_str(&out).expect("pod JSON");
    let names = |list: &serde_json::Value| -> Vec<String> {
        let items = list.as_array().cloned().unwrap_or_default();
        items
            .iter()
            .map(|v| v["name"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    assert!(
        !names(&pod["spec"]["volumes"]).contains(&"i".to_owned()),
        "{out}"
    );
    let mounts = &pod["spec"]["containers"][0]["volumeMounts"];
    assert!(!names(mounts).contains(&"i".to_owned()), "{out}");
    // Valid but questionable pods and templates get upstream's warnings (kubectl prints
    // them); a pod's only on create, a workload's again when its template changes.
    let out = k.run_stdin(
        &["create", "-f", "-"],
        "apiVersion: v1\nkind: Pod\nmetadata: {name: warn.me}\nspec:\n  containers: [{name: c, image: i, env: [{name: A, value: '1'}, {name: A, value: '2'}]}]\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for w in [
        "Warning: metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
        "Warning: spec.containers[0].env[1]: hides previous definition of \"A\", which may be dropped when using apply",
    ] {
        assert!(stderr.contains(w), "{w} missing: {stderr}");
    }
    let deployment = |volume: &str| {
        format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: warned}}\nspec:\n  selector: {{matchLabels: {{app: w}}}}\n  template:\n    metadata: {{labels: {{app: w}}}}\n    spec:\n      containers: [{{name: c, image: i}}]\n      volumes: [{{name: v, {volume}}}]\n")
    };
    let out = k.run_stdin(
        &["create", "-f", "-"],
        &deployment("gitRepo: {repository: r}"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Warning: spec.template.spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+"),
        "{stderr}"
    );
    let out = k.run_stdin(
        &["replace", "-f", "-"],
        &deployment("scaleIO: {gateway: g, system: s, volumeName: v, secretRef: {name: s}}"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Warning: spec.template.spec.volumes[0].scaleIO: deprecated in v1.16, non-functional in v1.22+"),
        "{stderr}"
    );
    // A PodTemplate counts its template's changes in metadata.generation.
    let template = |image: &str| {
        format!("apiVersion: v1\nkind: PodTemplate\nmetadata: {{name: gen}}\ntemplate:\n  spec: {{containers: [{{name: c, image: {image}}}]}}\n")
    };
    let created = k.ok_stdin(
        &["create", "-f", "-", "-o", "jsonpath={.metadata.generation}"],
        &template("a"),
    );
    assert_eq!(created, "1");
    let replaced = k.ok_stdin(
        &[
            "replace",
            "-f",
            "-",
            "-o",
            "jsonpath={.metadata.generation}",
        ],
        &template("b"),
    );
    assert_eq!(replaced, "2");
    // A namespace name with dots is one cause, as apimachinery's IsDNS1123Label says it.
    let out = k.run(&["create", "namespace", "x.y"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "The Namespace \"x.y\" is invalid: metadata.name: Invalid value: \"x.y\": must not contain dots"
    );
    // generateName is checked as a prefix, before the name made from it.
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: Bad_}\n",
    );
    let at = |f: &str| err.find(f).unwrap_or_else(|| panic!("{f} missing: {err}"));
    assert!(
        at("metadata.generateName: Invalid value: \"Bad_\": a lowercase RFC 1123 subdomain")
            < at("metadata.name: Invalid value: \"Bad_"),
        "{err}"
    );
    // CoordinatedLeaderElection is off in 1.33: its fields are dropped, not refused.
    let out = k.ok_stdin(
        &["create", "-f", "-", "-o", "json"],
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l2}\nspec: {holderIdentity: a, strategy: Nope, preferredHolder: b}\n",
    );
    let lease: serde_json::Value = serde_json::from_str(&out).expect("lease");
    assert_eq!(
        lease["spec"],
        serde_json::json!({"holderIdentity": "a"}),
        "{out}"
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: rc}\nhandler: a.b\n",
    );
    has(
        &err,
        &["handler: Invalid value: \"a.b\": must not contain dots"],
    );

    // A valid RuntimeClass's handler is fixed once set.
    k.ok_stdin(
        &create,
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: runc}\nhandler: runc\n",
    );
    let err = refused(
        &k,
        &[
            "patch",
            "runtimeclass",
            "runc",
            "--type=merge",
            "-p",
            "{\"handler\":\"crun\"}",
        ],
        "",
    );
    has(
        &err,
        &["handler: Invalid value: \"crun\": field is immutable"],
    );
}

/// The third part of the walk: the CSI types, VolumeAttachments, ControllerRevisions,
/// IPAddresses (named by a canonical IP), ServiceCIDRs, Nodes and PersistentVolumes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storage_network_and_node_types_are_validated() {
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let create = ["create", "-f", "-"];

    let err = refused(
        &k,
        &create,
        "apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: d.example.com}\nspec: {fsGroupPolicy: Sometimes}\n",
    );
    has(&err, &["spec.fsGroupPolicy: Unsupported value: \"Sometimes\": supported values: \"File\", \"None\", \"ReadWriteOnceWithFSType\""]);
    let err = refused(
        &k,
        &create,
        "apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: va}\nspec: {attacher: d.example.com, source: {}, nodeName: n1}\n",
    );
    has(&err, &["spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName"]);
    let err = refused(
        &k,
        &create,
        "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: cr}\nrevision: -1\n",
    );
    has(
        &err,
        &[
            "revision: Invalid value: -1: must be greater than or equal to 0",
            "data: Required value: data is mandatory",
        ],
    );
    let err = refused(
        &k,
        &create,
        "apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: \"2001:DB8::1\"}\nspec: {parentRef: {resource: services, name: web, namespace: default}}\n",
    );
    has(&err, &["metadata.name: Invalid value: \"2001:DB8::1\": must be in canonical form (\"2001:db8::1\")"]);
    let err = refused(
        &k,
        &create,
        "apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata: {name: sc}\nspec: {cidrs: [10.0.0.1/24]}\n",
    );
    has(&err, &["spec.cidrs[0]: Invalid value: \"10.0.0.1/24\": must not have bits set beyond the prefix length"]);
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  taints:\n  - {key: k, value: v, effect: NoSchedule}\n  - {key: k, value: w, effect: NoSchedule}\n",
    );
    has(&err, &["metadata.taints[1]: Duplicate value: core.Taint{Key:\"k\", Value:\"w\", Effect:\"NoSchedule\", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair"]);
    k.ok_stdin(
        &create,
        "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\nspec: {providerID: \"aws://a\", configSource: {configMap: {name: c, namespace: kube-system, kubeletConfigKey: k}}}\n",
    );
    // The removed dynamic kubelet config is cleared, as upstream's node strategy does.
    let spec = k.ok(&["get", "node", "n2", "-o", "jsonpath={.spec}"]);
    assert!(!spec.contains("configSource"), "{spec}");
    let err = refused(
        &k,
        &[
            "patch",
            "node",
            "n2",
            "--type=merge",
            "-p",
            "{\"spec\":{\"providerID\":\"aws://b\"}}",
        ],
        "",
    );
    has(&err, &["spec.providerID: Forbidden: node updates may not change providerID except from \"\" to valid"]);
    let err = refused(
        &k,
        &create,
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  local: {path: /mnt/disk}\n",
    );
    has(
        &err,
        &["spec.nodeAffinity: Required value: Local volume requires node affinity"],
    );
    k.ok_stdin(
        &create,
        "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv2}\nspec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /data}\n",
    );
    let err = refused(
        &k,
        &[
            "patch",
            "pv",
            "pv2",
            "--type=merge",
            "-p",
            "{\"spec\":{\"hostPath\":{\"path\":\"/other\"}}}",
        ],
        "",
    );
    has(&err, &["spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation"]);
    // An IPv6 IPAddress in canonical form is a valid name.
    k.ok_stdin(
        &create,
        "apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: \"2001:db8::1\"}\nspec: {parentRef: {resource: services, name: web, namespace: default}}\n",
    );
    // Their generateName is the name, as it is (upstream's generator for them).
    let out = k.ok_stdin(
        &["create", "-f", "-", "-o", "jsonpath={.metadata.name}"],
        "apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {generateName: \"10.9.8.7\"}\nspec: {parentRef: {resource: services, name: web, namespace: default}}\n",
    );
    assert_eq!(out.trim(), "10.9.8.7");
}
