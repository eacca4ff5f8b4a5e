//! Every resource of the GA groups of Kubernetes v1.33, as data: names, scope, registry
//! path, subresources, field selectors, schema definition, strategy and printer columns.
//! The table is kept in three parts (the core group, then the named groups in two
//! alphabetical halves), joined at compile time into [`RESOURCES`].

use kas_server::rest::Resource;

mod core;
mod groups_a_f;
mod groups_n_s;

const CORE: &str = "";
const ALL: &[&str] = &["all"];
const API_EXT: &[&str] = &["api-extensions"];

/// A resource of `group/version`, plural, singular, kind, with its OpenAPI definition.
const fn r(
    group: &'static str,
    version: &'static str,
    plural: &'static str,
    singular: &'static str,
    kind: &'static str,
    definition: &'static str,
) -> Resource {
    Resource::new(group, version, plural, singular, kind).definition(definition)
}

const PARTS: [&[Resource]; 3] = [
    core::RESOURCES,
    groups_a_f::RESOURCES,
    groups_n_s::RESOURCES,
];
const COUNT: usize = PARTS[0].len() + PARTS[1].len() + PARTS[2].len();

/// The parts one after the other.
const fn joined<const N: usize>(parts: [&[Resource]; 3]) -> [Resource; N] {
    let mut out = [parts[0][0]; N];
    let (mut p, mut o) = (0, 0);
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[o] = parts[p][i];
            o += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(o == N);
    out
}

/// The built-in resources the kube-api worker serves.
pub const RESOURCES: &[Resource] = &joined::<COUNT>(PARTS);

/// The API groups served, in upstream's discovery order, with their versions
/// (preferred first).
pub(crate) const GROUPS: &[(&str, &[&str])] = &[
    ("apps", &["v1"]),
    ("events.k8s.io", &["v1"]),
    ("authentication.k8s.io", &["v1"]),
    ("authorization.k8s.io", &["v1"]),
    ("autoscaling", &["v2", "v1"]),
    ("batch", &["v1"]),
    ("certificates.k8s.io", &["v1"]),
    ("networking.k8s.io", &["v1"]),
    ("policy", &["v1"]),
    ("rbac.authorization.k8s.io", &["v1"]),
    ("storage.k8s.io", &["v1"]),
    ("admissionregistration.k8s.io", &["v1"]),
    ("scheduling.k8s.io", &["v1"]),
    ("coordination.k8s.io", &["v1"]),
    ("node.k8s.io", &["v1"]),
    ("discovery.k8s.io", &["v1"]),
    ("flowcontrol.apiserver.k8s.io", &["v1"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_resource_is_in_a_served_group_once() {
        let mut seen = std::collections::HashSet::new();
        for r in RESOURCES {
            assert!(
                r.group.is_empty()
                    || GROUPS
                        .iter()
                        .any(|(g, vs)| *g == r.group && vs.contains(&r.version)),
                "{} {}",
                r.group,
                r.plural
            );
            assert!(seen.insert((r.group, r.version, r.plural)), "{}", r.plural);
        }
        assert!(RESOURCES.len() >= 55);
    }

    /// Encryption at rest finds a value's resource from its key alone: every stored
    /// resource's key path must lead back to it (events.k8s.io's events are core events
    /// in etcd, as upstream stores them).
    #[test]
    fn every_key_path_names_its_resource_for_encryption() {
        use kas_server::storage::encryption::resources::of_key_path;
        for r in RESOURCES.iter().filter(|r| r.verbs.stored()) {
            let key = format!("{}/ns/name", r.key_path);
            let gr = of_key_path(&key);
            let group = match r.group {
                "events.k8s.io" => "",
                g => g,
            };
            assert_eq!((gr.group, gr.resource), (group, r.plural), "{}", r.key_path);
        }
    }
}
