use super::*;
use serde_json::json;

#[test]
fn workloads_warn_about_their_templates() {
    let template = json!({"spec": {"volumes": [{"name": "s", "scaleIO": {}}]}});
    let d = json!({"metadata": {"name": "A", "generation": 1}, "spec": {"template": template}});
    assert_eq!(
        workload_warnings(&d, None),
        [
            "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]",
            "spec.template.spec.volumes[0].scaleIO: deprecated in v1.16, non-functional in v1.22+",
        ]
    );
    assert!(
        workload_warnings(&d, Some(&d)).is_empty(),
        "same generation"
    );
    let mut moved = d.clone();
    moved["metadata"]["generation"] = json!(2);
    assert_eq!(workload_warnings(&moved, Some(&d)).len(), 1);
    let cj = json!({"metadata": {"name": "c", "generation": 1}, "spec": {"schedule": "CRON_TZ=UTC 0 * * * *",
        "jobTemplate": {"spec": {"template": template}}}});
    assert_eq!(
        cronjob_warnings(&cj, Some(&cj)),
        ["cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"]
    );
    let sts = json!({"metadata": {"name": "s"}, "spec": {"revisionHistoryLimit": -1,
        "volumeClaimTemplates": [{"spec": {"resources": {"requests": {"storage": "1500m"}}}}]}});
    assert_eq!(
        statefulset_warnings(&sts, None),
        [
            "spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value \"1500m\" is invalid, must be an integer",
            "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended",
        ]
    );
}
