use serde_json::json;

use super::*;
use crate::validation::causes::messages;

#[test]
fn ip_address_parent_reference() {
    let ok = json!({"spec": {"parentRef": {"group": "", "resource": "services", "namespace": "default", "name": "kubernetes"}}});
    assert!(ip_address(&ok, None).is_empty());
    assert_eq!(
        messages(&ip_address(&json!({"spec": {}}), None)),
        ["spec.parentRef: Required value"]
    );
    let bad = json!({"spec": {"parentRef": {"group": "A", "resource": "", "name": "a/b"}}});
    assert_eq!(
        messages(&ip_address(&bad, None))[1..],
        [
            "spec.parentRef.resource: Required value",
            "spec.parentRef.name: Invalid value: \"a/b\": may not contain '/'",
        ]
    );
    let moved = json!({"spec": {"parentRef": {"resource": "services", "namespace": "default", "name": "web"}}});
    assert_eq!(
        messages(&ip_address(&moved, Some(&ok))),
        ["spec.parentRef: Invalid value: networking.ParentReference{Group:\"\", Resource:\"services\", Namespace:\"default\", Name:\"web\"}: field is immutable"]
    );
}

#[test]
fn service_cidr_ranges() {
    let sc = |c: serde_json::Value| json!({"spec": {"cidrs": c}});
    assert!(service_cidr(&sc(json!(["10.0.0.0/24", "fd00::/64"])), None).is_empty());
    assert_eq!(
        messages(&service_cidr(&sc(json!([])), None)),
        ["spec.cidrs: Required value: at least one CIDR required"]
    );
    assert_eq!(
        messages(&service_cidr(&sc(json!(["10.0.0.1/24", "FD00::/64"])), None)),
        [
            "spec.cidrs[0]: Invalid value: \"10.0.0.1/24\": must not have bits set beyond the prefix length",
            "spec.cidrs[1]: Invalid value: \"FD00::/64\": must be in canonical form (\"fd00::/64\")",
        ]
    );
    assert_eq!(
        messages(&service_cidr(&sc(json!(["10.0.0.0/24", "10.1.0.0/24"])), None)),
        ["spec.cidrs: Invalid value: []string{\"10.0.0.0/24\", \"10.1.0.0/24\"}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"]
    );
    assert_eq!(
        messages(&service_cidr(&sc(json!(["010.0.0.0/24", "nope"])), None)),
        [
            "spec.cidrs[0]: Invalid value: \"010.0.0.0/24\": must not have leading 0s in IP or prefix length",
            "spec.cidrs[1]: Invalid value: \"nope\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
        ]
    );
    let old = sc(json!(["10.0.0.0/24"]));
    assert!(service_cidr(&sc(json!(["10.0.0.0/24", "fd00::/64"])), Some(&old)).is_empty());
    assert_eq!(
        messages(&service_cidr(&sc(json!(["10.0.1.0/24"])), Some(&old))),
        ["spec.cidrs[0]: Invalid value: \"10.0.1.0/24\": field is immutable"]
    );
    assert_eq!(
        messages(&service_cidr(
            &sc(json!(["10.0.0.0/24"])),
            Some(&sc(json!(["10.0.0.0/24", "fd00::/64"])))
        )),
        ["spec.cidrs: Invalid value: []string{\"10.0.0.0/24\"}: field is immutable"]
    );
}
