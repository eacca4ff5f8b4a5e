//! The one list of top-level Rust types whose schemas the documents carry: every GA kind
//! of Kubernetes v1.33 (with its list where it has one) and the meta/v1 kinds, mapped to
//! their group, version and kind.

use k8s_openapi::api::{
    admissionregistration, apps, authentication, authorization, autoscaling, batch, certificates,
    coordination, core, discovery, events, flowcontrol, networking, node, policy, rbac, scheduling,
    storage,
};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::kube_aggregator::pkg::apis::apiregistration;
use k8s_openapi::{ListableResource, Resource};
use schemars::{JsonSchema, SchemaGenerator};
use std::borrow::Cow;

/// A kind with a schema.
pub(crate) struct Kind {
    pub(crate) group: &'static str,
    pub(crate) version: &'static str,
    pub(crate) kind: &'static str,
    /// The kind of its list (`PodList`), for kinds that have one.
    pub(crate) list_kind: Option<&'static str>,
    /// Definition name (`io.k8s.api.core.v1.Pod`).
    pub(crate) name: fn() -> Cow<'static, str>,
    /// Adds the definition and everything it references to a generator.
    pub(crate) add: fn(&mut SchemaGenerator),
    /// Plural resource name (k8s-openapi's URL path segment); used by tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) plural: &'static str,
    /// Whether the kind lives in namespaces; used by tests.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) namespaced: bool,
}

/// Whether a k8s-openapi scope is a namespace.
trait Namespaced {
    const NAMESPACED: bool;
}
impl Namespaced for k8s_openapi::NamespaceResourceScope {
    const NAMESPACED: bool = true;
}
impl Namespaced for k8s_openapi::ClusterResourceScope {
    const NAMESPACED: bool = false;
}
impl Namespaced for k8s_openapi::SubResourceScope {
    const NAMESPACED: bool = true;
}

impl Kind {
    /// Definition name of the list: the kind's package prefix plus the list kind.
    pub(crate) fn list_name(&self) -> Option<String> {
        let name = (self.name)();
        let list_kind = self.list_kind?;
        let prefix = name.rsplit_once('.').map_or("", |(prefix, _)| prefix);
        Some(format!("{prefix}.{list_kind}"))
    }
}

fn add<T: JsonSchema>(generator: &mut SchemaGenerator) {
    generator.subschema_for::<T>();
}

macro_rules! kinds {
    (listable: [$($l:ty),* $(,)?], single: [$($s:ty),* $(,)?] $(,)?) => {
        /// Every kind the documents know, listable kinds first.
        pub(crate) static KINDS: &[Kind] = &[
            $(Kind {
                group: <$l as Resource>::GROUP,
                version: <$l as Resource>::VERSION,
                kind: <$l as Resource>::KIND,
                list_kind: Some(<$l as ListableResource>::LIST_KIND),
                name: <$l as JsonSchema>::schema_name,
                add: add::<$l>,
                plural: <$l as Resource>::URL_PATH_SEGMENT,
                namespaced: <<$l as Resource>::Scope as Namespaced>::NAMESPACED,
            },)*
            $(Kind {
                group: <$s as Resource>::GROUP,
                version: <$s as Resource>::VERSION,
                kind: <$s as Resource>::KIND,
                list_kind: None,
                name: <$s as JsonSchema>::schema_name,
                add: add::<$s>,
                plural: <$s as Resource>::URL_PATH_SEGMENT,
                namespaced: <<$s as Resource>::Scope as Namespaced>::NAMESPACED,
            },)*
        ];
    };
}

kinds! {
    listable: [
        admissionregistration::v1::MutatingWebhookConfiguration,
        admissionregistration::v1::ValidatingAdmissionPolicy,
        admissionregistration::v1::ValidatingAdmissionPolicyBinding,
        admissionregistration::v1::ValidatingWebhookConfiguration,
        apps::v1::ControllerRevision,
        apps::v1::DaemonSet,
        apps::v1::Deployment,
        apps::v1::ReplicaSet,
        apps::v1::StatefulSet,
        autoscaling::v1::HorizontalPodAutoscaler,
        autoscaling::v2::HorizontalPodAutoscaler,
        batch::v1::CronJob,
        batch::v1::Job,
        certificates::v1::CertificateSigningRequest,
        coordination::v1::Lease,
        core::v1::ComponentStatus,
        core::v1::ConfigMap,
        core::v1::Endpoints,
        core::v1::Event,
        core::v1::LimitRange,
        core::v1::Namespace,
        core::v1::Node,
        core::v1::PersistentVolume,
        core::v1::PersistentVolumeClaim,
        core::v1::Pod,
        core::v1::PodTemplate,
        core::v1::ReplicationController,
        core::v1::ResourceQuota,
        core::v1::Secret,
        core::v1::Service,
        core::v1::ServiceAccount,
        discovery::v1::EndpointSlice,
        events::v1::Event,
        flowcontrol::v1::FlowSchema,
        flowcontrol::v1::PriorityLevelConfiguration,
        networking::v1::Ingress,
        networking::v1::IngressClass,
        networking::v1::IPAddress,
        networking::v1::NetworkPolicy,
        networking::v1::ServiceCIDR,
        node::v1::RuntimeClass,
        policy::v1::PodDisruptionBudget,
        rbac::v1::ClusterRole,
        rbac::v1::ClusterRoleBinding,
        rbac::v1::Role,
        rbac::v1::RoleBinding,
        scheduling::v1::PriorityClass,
        storage::v1::CSIDriver,
        storage::v1::CSINode,
        storage::v1::CSIStorageCapacity,
        storage::v1::StorageClass,
        storage::v1::VolumeAttachment,
        apiextensions::v1::CustomResourceDefinition,
        apiregistration::v1::APIService,
    ],
    single: [
        authentication::v1::SelfSubjectReview,
        authentication::v1::TokenRequest,
        authentication::v1::TokenReview,
        authorization::v1::LocalSubjectAccessReview,
        authorization::v1::SelfSubjectAccessReview,
        authorization::v1::SelfSubjectRulesReview,
        authorization::v1::SubjectAccessReview,
        autoscaling::v1::Scale,
        core::v1::Binding,
        policy::v1::Eviction,
    ],
}

/// meta/v1 kinds that every group version shares (their GVK extension lists each
/// served group version).
pub(crate) const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
pub(crate) const WATCH_EVENT: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent";
/// meta/v1 kinds served as core `v1` kinds.
pub(crate) const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
pub(crate) const API_GROUP: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup";
pub(crate) const API_GROUP_LIST: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList";
pub(crate) const API_RESOURCE_LIST: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList";
pub(crate) const API_VERSIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions";
pub(crate) const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
pub(crate) const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
pub(crate) const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
pub(crate) const INT_OR_STRING: &str = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
pub(crate) const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";

/// The core `v1` meta kinds and their definitions.
pub(crate) const CORE_META_KINDS: &[(&str, &str)] = &[
    ("Status", STATUS),
    ("APIGroup", API_GROUP),
    ("APIGroupList", API_GROUP_LIST),
    ("APIResourceList", API_RESOURCE_LIST),
    ("APIVersions", API_VERSIONS),
];

/// Adds the meta/v1 definitions that no kind references.
pub(crate) fn add_meta(generator: &mut SchemaGenerator) {
    add::<meta::DeleteOptions>(generator);
    add::<meta::WatchEvent<serde_json::Value>>(generator);
    add::<meta::Status>(generator);
    add::<meta::APIGroup>(generator);
    add::<meta::APIGroupList>(generator);
    add::<meta::APIResourceList>(generator);
    add::<meta::APIVersions>(generator);
    add::<meta::Patch>(generator);
    add::<meta::ListMeta>(generator);
    add::<meta::ObjectMeta>(generator);
}

/// The kind `group/version/kind` names, if the catalog has it.
pub(crate) fn find(group: &str, version: &str, kind: &str) -> Option<&'static Kind> {
    KINDS
        .iter()
        .find(|k| k.group == group && k.version == version && k.kind == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_upstream() {
        let pod = find("", "v1", "Pod").unwrap();
        assert_eq!((pod.name)(), "io.k8s.api.core.v1.Pod");
        assert_eq!(pod.list_name().unwrap(), "io.k8s.api.core.v1.PodList");
        let deploy = find("apps", "v1", "Deployment").unwrap();
        assert_eq!(
            deploy.list_name().unwrap(),
            "io.k8s.api.apps.v1.DeploymentList"
        );
        assert!(find("", "v1", "Scale").is_none());
        assert!(crate::knows_kind("apps", "v1", "Deployment"));
        assert!(!crate::knows_kind("example.com", "v1", "Widget"));
        assert!(find("autoscaling", "v1", "Scale")
            .unwrap()
            .list_kind
            .is_none());
        let crd = find("apiextensions.k8s.io", "v1", "CustomResourceDefinition").unwrap();
        assert_eq!(
            (crd.name)(),
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"
        );
    }

    #[test]
    fn kinds_are_unique() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert!((a.group, a.version, a.kind) != (b.group, b.version, b.kind));
            }
        }
    }
}
