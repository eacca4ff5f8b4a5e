//! Where each built-in group-version sorts: kube-apiserver's table of APIService
//! priorities (`DefaultGenericAPIServicePriorities` in `pkg/controlplane/apiserver`
//! merged with `apiVersionPriorities` in `cmd/kube-apiserver/app`), the group priority of
//! a custom resource's group-version (the CRD registration controller's), and the order
//! of `/apis` built from them.

use std::cmp::Ordering;

/// A group-version's `groupPriorityMinimum` and `versionPriority`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Priority {
    pub(crate) group: i64,
    pub(crate) version: i64,
}

const fn p(group: i64, version: i64) -> Priority {
    Priority { group, version }
}

/// kube-apiserver v1.33's built-in group-versions and their priorities. A group-version
/// missing here gets no APIService, as upstream's `makeAPIService` skips it.
const BUILT_IN: &[(&str, &str, Priority)] = &[
    ("", "v1", p(18000, 1)),
    ("apps", "v1", p(17800, 15)),
    ("events.k8s.io", "v1", p(17750, 15)),
    ("events.k8s.io", "v1beta1", p(17750, 5)),
    ("authentication.k8s.io", "v1", p(17700, 15)),
    ("authentication.k8s.io", "v1beta1", p(17700, 9)),
    ("authentication.k8s.io", "v1alpha1", p(17700, 1)),
    ("authorization.k8s.io", "v1", p(17600, 15)),
    ("autoscaling", "v1", p(17500, 15)),
    ("autoscaling", "v2", p(17500, 30)),
    ("autoscaling", "v2beta1", p(17500, 9)),
    ("autoscaling", "v2beta2", p(17500, 1)),
    ("batch", "v1", p(17400, 15)),
    ("batch", "v1beta1", p(17400, 9)),
    ("batch", "v2alpha1", p(17400, 9)),
    ("certificates.k8s.io", "v1", p(17300, 15)),
    ("certificates.k8s.io", "v1beta1", p(17300, 9)),
    ("certificates.k8s.io", "v1alpha1", p(17300, 1)),
    ("networking.k8s.io", "v1", p(17200, 15)),
    ("networking.k8s.io", "v1beta1", p(17200, 9)),
    ("policy", "v1", p(17100, 15)),
    ("policy", "v1beta1", p(17100, 9)),
    ("rbac.authorization.k8s.io", "v1", p(17000, 15)),
    ("storage.k8s.io", "v1", p(16800, 15)),
    ("storage.k8s.io", "v1beta1", p(16800, 9)),
    ("storage.k8s.io", "v1alpha1", p(16800, 1)),
    ("apiextensions.k8s.io", "v1", p(16700, 15)),
    ("admissionregistration.k8s.io", "v1", p(16700, 15)),
    ("admissionregistration.k8s.io", "v1beta1", p(16700, 12)),
    ("admissionregistration.k8s.io", "v1alpha1", p(16700, 9)),
    ("scheduling.k8s.io", "v1", p(16600, 15)),
    ("coordination.k8s.io", "v1", p(16500, 15)),
    ("coordination.k8s.io", "v1beta1", p(16500, 13)),
    ("coordination.k8s.io", "v1alpha2", p(16500, 12)),
    ("node.k8s.io", "v1", p(16300, 15)),
    ("node.k8s.io", "v1beta1", p(16300, 9)),
    ("node.k8s.io", "v1alpha1", p(16300, 1)),
    ("discovery.k8s.io", "v1", p(16200, 15)),
    ("discovery.k8s.io", "v1beta1", p(16200, 12)),
    ("resource.k8s.io", "v1beta2", p(16200, 15)),
    ("resource.k8s.io", "v1beta1", p(16200, 9)),
    ("resource.k8s.io", "v1alpha3", p(16200, 1)),
    ("flowcontrol.apiserver.k8s.io", "v1", p(16100, 21)),
    ("flowcontrol.apiserver.k8s.io", "v1beta3", p(16100, 18)),
    ("flowcontrol.apiserver.k8s.io", "v1beta2", p(16100, 15)),
    ("flowcontrol.apiserver.k8s.io", "v1beta1", p(16100, 12)),
    ("flowcontrol.apiserver.k8s.io", "v1alpha1", p(16100, 9)),
    ("internal.apiserver.k8s.io", "v1alpha1", p(16000, 9)),
    ("storagemigration.k8s.io", "v1alpha1", p(15800, 9)),
];

/// What the CRD registration controller gives every served custom resource version:
/// a low group priority, versions then sorted as Kubernetes versions.
pub(crate) const CUSTOM: Priority = p(1000, 100);

/// apiregistration.k8s.io's own place in aggregated discovery: above every APIService
/// (kube-aggregator's discovery manager sets it so that the group comes first).
pub(crate) const APIREGISTRATION: Priority = p(20001, 0);

/// The built-in priority of `group/version`, if it is a built-in one.
pub(crate) fn built_in(group: &str, version: &str) -> Option<Priority> {
    BUILT_IN
        .iter()
        .find(|(g, v, _)| *g == group && *v == version)
        .map(|(_, _, p)| *p)
}

/// The group priority `/apis` sorts `group` by: the highest of its versions'.
pub(crate) fn group_priority(group: &str, versions: &[&str], custom: Priority) -> i64 {
    versions
        .iter()
        .map(|v| built_in(group, v).unwrap_or(custom).group)
        .max()
        .unwrap_or(custom.group)
}

/// `/apis` order: higher group priority first, then by name.
pub(crate) fn compare_groups(a: (&str, i64), b: (&str, i64)) -> Ordering {
    b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        assert_eq!(built_in("", "v1"), Some(p(18000, 1)));
        assert_eq!(built_in("apps", "v1"), Some(p(17800, 15)));
        assert_eq!(built_in("autoscaling", "v2"), Some(p(17500, 30)));
        assert_eq!(built_in("stable.example.com", "v1"), None);
        assert_eq!(group_priority("apps", &["v1"], CUSTOM), 17800);
        assert_eq!(group_priority("stable.example.com", &["v1"], CUSTOM), 1000);
        let mut groups = [
            ("stable.example.com", 1000),
            ("apiextensions.k8s.io", 16700),
            ("apps", 17800),
            ("admissionregistration.k8s.io", 16700),
            ("apiregistration.k8s.io", 20001),
        ];
        groups.sort_by(|a, b| compare_groups(*a, *b));
        let names: Vec<&str> = groups.iter().map(|g| g.0).collect();
        assert_eq!(
            names,
            [
                "apiregistration.k8s.io",
                "apps",
                "admissionregistration.k8s.io",
                "apiextensions.k8s.io",
                "stable.example.com"
            ]
        );
    }
}
