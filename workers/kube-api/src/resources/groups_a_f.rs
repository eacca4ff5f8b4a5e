//! The resources of the named groups `admissionregistration.k8s.io` to
//! `flowcontrol.apiserver.k8s.io`, in that (alphabetical) order.

use kas_server::rest::{Conversion, Resource};

use super::{r, ALL, API_EXT};
use crate::columns as col;
use crate::conversions;
use crate::defaults;
use crate::validation;

pub(super) const RESOURCES: &[Resource] = &[
    // admissionregistration.k8s.io/v1
    r(
        "admissionregistration.k8s.io",
        "v1",
        "mutatingwebhookconfigurations",
        "mutatingwebhookconfiguration",
        "MutatingWebhookConfiguration",
        "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration",
    )
    .conditional_updates()
    .strategy(
        validation::mutating_webhook_defaults,
        validation::mutating_webhooks,
    )
    .cluster()
    .categories(API_EXT)
    .generation()
    .columns(col::WEBHOOK_CONFIGURATION),
    r(
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicies",
        "validatingadmissionpolicy",
        "ValidatingAdmissionPolicy",
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy",
    )
    .conditional_updates()
    .strategy(validation::policy_defaults, validation::admission_policy)
    .cluster()
    .categories(API_EXT)
    .subresources(&["status"])
    .generation()
    .columns(col::VALIDATING_ADMISSION_POLICY),
    r(
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicybindings",
        "validatingadmissionpolicybinding",
        "ValidatingAdmissionPolicyBinding",
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
    )
    .conditional_updates()
    .strategy(
        validation::binding_defaults,
        validation::admission_policy_binding,
    )
    .cluster()
    .categories(API_EXT)
    .generation()
    .columns(col::VALIDATING_ADMISSION_POLICY_BINDING),
    r(
        "admissionregistration.k8s.io",
        "v1",
        "validatingwebhookconfigurations",
        "validatingwebhookconfiguration",
        "ValidatingWebhookConfiguration",
        "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration",
    )
    .conditional_updates()
    .strategy(
        validation::validating_webhook_defaults,
        validation::validating_webhooks,
    )
    .cluster()
    .categories(API_EXT)
    .generation()
    .columns(col::WEBHOOK_CONFIGURATION),
    // apps/v1
    r(
        "apps",
        "v1",
        "controllerrevisions",
        "controllerrevision",
        "ControllerRevision",
        "io.k8s.api.apps.v1.ControllerRevision",
    )
    .strategy(
        kas_server::rest::no_defaults,
        validation::controller_revision,
    )
    .columns(col::CONTROLLER_REVISION),
    r(
        "apps",
        "v1",
        "daemonsets",
        "daemonset",
        "DaemonSet",
        "io.k8s.api.apps.v1.DaemonSet",
    )
    .strategy(defaults::daemonset_defaults, validation::daemonset)
    .prepare(validation::daemonset_prepare)
    .warnings(validation::daemonset_warnings)
    .short(&["ds"])
    .categories(ALL)
    .subresources(&["status"])
    .generation()
    .columns(col::DAEMON_SET),
    r(
        "apps",
        "v1",
        "deployments",
        "deployment",
        "Deployment",
        "io.k8s.api.apps.v1.Deployment",
    )
    .strategy(defaults::deployment_defaults, validation::deployment)
    .prepare(validation::template_prepare)
    .warnings(validation::workload_warnings)
    .short(&["deploy"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(true)
    .generation()
    .columns(col::DEPLOYMENT),
    r(
        "apps",
        "v1",
        "replicasets",
        "replicaset",
        "ReplicaSet",
        "io.k8s.api.apps.v1.ReplicaSet",
    )
    .strategy(defaults::replicaset_defaults, validation::replicaset)
    .prepare(validation::template_prepare)
    .warnings(validation::workload_warnings)
    .short(&["rs"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(true)
    .fields(&["status.replicas"])
    .generation()
    .columns(col::REPLICA_SET),
    r(
        "apps",
        "v1",
        "statefulsets",
        "statefulset",
        "StatefulSet",
        "io.k8s.api.apps.v1.StatefulSet",
    )
    .strategy(defaults::statefulset_defaults, validation::statefulset)
    .prepare(validation::template_prepare)
    .warnings(validation::statefulset_warnings)
    .short(&["sts"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(true)
    .generation()
    .columns(col::STATEFUL_SET),
    // authentication.k8s.io/v1
    r(
        "authentication.k8s.io",
        "v1",
        "selfsubjectreviews",
        "selfsubjectreview",
        "SelfSubjectReview",
        "io.k8s.api.authentication.v1.SelfSubjectReview",
    )
    .cluster()
    .create_only(),
    r(
        "authentication.k8s.io",
        "v1",
        "tokenreviews",
        "tokenreview",
        "TokenReview",
        "io.k8s.api.authentication.v1.TokenReview",
    )
    .cluster()
    .create_only(),
    // authorization.k8s.io/v1
    r(
        "authorization.k8s.io",
        "v1",
        "localsubjectaccessreviews",
        "localsubjectaccessreview",
        "LocalSubjectAccessReview",
        "io.k8s.api.authorization.v1.LocalSubjectAccessReview",
    )
    .create_only(),
    r(
        "authorization.k8s.io",
        "v1",
        "selfsubjectaccessreviews",
        "selfsubjectaccessreview",
        "SelfSubjectAccessReview",
        "io.k8s.api.authorization.v1.SelfSubjectAccessReview",
    )
    .cluster()
    .create_only(),
    r(
        "authorization.k8s.io",
        "v1",
        "selfsubjectrulesreviews",
        "selfsubjectrulesreview",
        "SelfSubjectRulesReview",
        "io.k8s.api.authorization.v1.SelfSubjectRulesReview",
    )
    .cluster()
    .create_only(),
    r(
        "authorization.k8s.io",
        "v1",
        "subjectaccessreviews",
        "subjectaccessreview",
        "SubjectAccessReview",
        "io.k8s.api.authorization.v1.SubjectAccessReview",
    )
    .cluster()
    .create_only(),
    // autoscaling/v2 (storage) and v1
    r(
        "autoscaling",
        "v2",
        "horizontalpodautoscalers",
        "horizontalpodautoscaler",
        "HorizontalPodAutoscaler",
        "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
    )
    .strategy(defaults::hpa_v2_defaults, validation::hpa_v2)
    .short(&["hpa"])
    .categories(ALL)
    .subresources(&["status"])
    .columns(col::HPA),
    r(
        "autoscaling",
        "v1",
        "horizontalpodautoscalers",
        "horizontalpodautoscaler",
        "HorizontalPodAutoscaler",
        "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler",
    )
    .strategy(defaults::hpa_v1_defaults, validation::hpa_v1)
    .short(&["hpa"])
    .categories(ALL)
    .subresources(&["status"])
    .converted(Conversion {
        storage_api_version: "autoscaling/v2",
        to_storage: conversions::hpa_v1_to_v2,
        from_storage: conversions::hpa_v2_to_v1,
    })
    .columns(col::HPA),
    // batch/v1
    r(
        "batch",
        "v1",
        "cronjobs",
        "cronjob",
        "CronJob",
        "io.k8s.api.batch.v1.CronJob",
    )
    .strategy(defaults::cronjob_defaults, validation::cronjob)
    .prepare(validation::cronjob_prepare)
    .warnings(validation::cronjob_warnings)
    .short(&["cj"])
    .categories(ALL)
    .subresources(&["status"])
    .generation()
    .columns(col::CRON_JOB),
    r(
        "batch",
        "v1",
        "jobs",
        "job",
        "Job",
        "io.k8s.api.batch.v1.Job",
    )
    .strategy(defaults::job_defaults, validation::job)
    .prepare(defaults::job_prepare)
    .warnings(validation::job_warnings)
    .categories(ALL)
    .subresources(&["status"])
    .fields(&["status.successful"])
    .generation()
    .columns(col::JOB),
    // certificates.k8s.io/v1
    r(
        "certificates.k8s.io",
        "v1",
        "certificatesigningrequests",
        "certificatesigningrequest",
        "CertificateSigningRequest",
        "io.k8s.api.certificates.v1.CertificateSigningRequest",
    )
    .strategy(kas_server::rest::no_defaults, validation::csr)
    // The requester's fields are the strategy's, and the request itself is immutable:
    // upstream resets the whole spec, so a CSR has no managed fields.
    .resets(&["spec"])
    .cluster()
    .short(&["csr"])
    .subresources(&["approval", "status"])
    .fields(&["spec.signerName"])
    .columns(col::CSR),
    // coordination.k8s.io/v1
    r(
        "coordination.k8s.io",
        "v1",
        "leases",
        "lease",
        "Lease",
        "io.k8s.api.coordination.v1.Lease",
    )
    .strategy(kas_server::rest::no_defaults, validation::lease)
    .prepare(validation::lease_prepare)
    .conditional_updates()
    .create_on_update()
    .columns(col::LEASE),
    // discovery.k8s.io/v1
    r(
        "discovery.k8s.io",
        "v1",
        "endpointslices",
        "endpointslice",
        "EndpointSlice",
        "io.k8s.api.discovery.v1.EndpointSlice",
    )
    .strategy(defaults::endpointslice_defaults, validation::endpointslice)
    .generation()
    .columns(col::ENDPOINT_SLICE),
    // events.k8s.io/v1: the same objects as core/v1 events (stored in that shape).
    r(
        "events.k8s.io",
        "v1",
        "events",
        "event",
        "Event",
        "io.k8s.api.events.v1.Event",
    )
    .create_on_update()
    .strategy(kas_server::rest::no_defaults, validation::event_v1)
    .short(&["ev"])
    .converted(Conversion {
        storage_api_version: "v1",
        to_storage: conversions::event_to_core,
        from_storage: conversions::event_from_core,
    })
    .columns(col::EVENT_V1),
    // flowcontrol.apiserver.k8s.io/v1
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "flowschemas",
        "flowschema",
        "FlowSchema",
        "io.k8s.api.flowcontrol.v1.FlowSchema",
    )
    .strategy(defaults::flowschema_defaults, validation::flowschema)
    .cluster()
    .subresources(&["status"])
    .generation()
    .columns(col::FLOW_SCHEMA)
    .row_order(col::flow_schema_order),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "prioritylevelconfigurations",
        "prioritylevelconfiguration",
        "PriorityLevelConfiguration",
        "io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration",
    )
    .strategy(
        defaults::priority_level_defaults,
        validation::priority_level,
    )
    .cluster()
    .subresources(&["status"])
    .generation()
    .columns(col::PRIORITY_LEVEL),
];
