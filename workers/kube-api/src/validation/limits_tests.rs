use serde_json::json;

use super::*;
use crate::validation::causes::messages;

#[test]
fn quantities_print_as_go_does() {
    assert_eq!(
        go_quantity("500m"),
        "resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"500m\", Format:\"DecimalSI\"}"
    );
    assert!(
        go_quantity("1Gi").contains("value:1073741824, scale:0}")
            && go_quantity("1Gi").ends_with("Format:\"BinarySI\"}")
    );
    assert!(go_quantity("1.5").contains("value:15, scale:-1"));
}

#[test]
fn limit_range_types_names_and_consistency() {
    let lr = json!({"spec": {"limits": [
        {"type": "Container", "min": {"cpu": "2"}, "max": {"cpu": "1"}, "default": {"cpu": "1"}, "defaultRequest": {"cpu": "1"}},
        {"type": "Container"},
        {"type": "Pod", "default": {"cpu": "1"}, "max": {"foo": "1"}},
        {"type": "PersistentVolumeClaim", "max": {"cpu": "1"}},
        {"type": "Weird"},
        {"type": "Container", "default": {"nvidia.com/gpu": "2"}, "defaultRequest": {"nvidia.com/gpu": "1"}, "maxLimitRequestRatio": {"cpu": "500m"}},
    ]}});
    let got = messages(&limit_range(&lr, None));
    let q = |v: &str| go_quantity(v);
    assert_eq!(
        got,
        [
            format!("spec.limits[0].min[cpu]: Invalid value: {}: min value 2 is greater than max value 1", q("2")),
            format!("spec.limits[0].defaultRequest[cpu]: Invalid value: {}: min value 2 is greater than default request value 1", q("1")),
            format!("spec.limits[0].default[cpu]: Invalid value: {}: min value 2 is greater than default value 1", q("2")),
            "spec.limits[1].type: Duplicate value: \"Container\"".to_owned(),
            "spec.limits[2].max[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified".to_owned(),
            "spec.limits[2].max[foo]: Invalid value: \"foo\": must be a standard resource for containers".to_owned(),
            "spec.limits[2].default: Forbidden: may not be specified when `type` is 'Pod'".to_owned(),
            "spec.limits[3].limits: Required value: either minimum or maximum storage value is required, but neither was provided".to_owned(),
            "spec.limits[4].type: Invalid value: \"Weird\": must be a standard limit type or fully qualified".to_owned(),
            "spec.limits[5].type: Duplicate value: \"Container\"".to_owned(),
            format!("spec.limits[5].maxLimitRequestRatio[cpu]: Invalid value: {}: ratio 500m is less than 1", q("500m")),
            format!("spec.limits[5].defaultRequest[nvidia.com/gpu]: Invalid value: {}: default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu", q("1")),
        ]
    );
}

#[test]
fn huge_quantities_print_without_overflow() {
    let q = format!("{}Ei", "9".repeat(36));
    assert!(go_quantity(&q).contains("BinarySI"));
    assert!(go_quantity(&format!("0.{}Ki", "1".repeat(60))).contains("scale:0"));
    assert!(go_quantity("1e2147483647").contains("DecimalExponent"));
}
